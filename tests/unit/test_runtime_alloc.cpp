// Unit tests of the runtime's array memory: one block per array (header, then data at
// a 64-byte boundary), errors for impossible sizes, live-allocation counting, and the
// per-thread spare block that large allocations reuse.
#include "mahou/runtime.h"

#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <cstring>
#include <thread>

namespace {

void expectWellFormed(MahouMemInfo *mi, int64_t nbytes) {
  ASSERT_NE(mi, nullptr);
  EXPECT_EQ(mi->refcount, 1);
  EXPECT_EQ(mi->nbytes, nbytes);
  auto data = reinterpret_cast<uintptr_t>(mi->data);
  auto block = reinterpret_cast<uintptr_t>(mi);
  EXPECT_EQ(data % 64, 0u);
  EXPECT_GE(data, block + sizeof(MahouMemInfo));
  EXPECT_LE(data + uintptr_t(nbytes), block + mi->capacity);
  std::memset(mi->data, 0xab, size_t(nbytes)); // the whole extent is writable
}

TEST(RuntimeAlloc, BlocksAreAlignedAndHoldTheirData) {
  for (int64_t n : {0, 1, 8, 63, 64, 65, 1000, 70000, 1 << 20}) {
    int64_t live = mahou_rt_live_allocations();
    MahouMemInfo *mi = mahou_rt_alloc(n);
    expectWellFormed(mi, n);
    EXPECT_EQ(mahou_rt_live_allocations(), live + 1);
    mahou_rt_decref(mi);
    EXPECT_EQ(mahou_rt_live_allocations(), live);
  }
}

TEST(RuntimeAlloc, ImpossibleSizesRaise) {
  EXPECT_EQ(mahou_rt_alloc(-1), nullptr);
  MahouError e = mahou_rt_take_error();
  EXPECT_TRUE(e.set);
  EXPECT_STREQ(e.message, "negative dimensions are not allowed");
  EXPECT_EQ(mahou_rt_alloc(INT64_MAX), nullptr);
  e = mahou_rt_take_error();
  EXPECT_TRUE(e.set);
  EXPECT_STREQ(e.message, "unable to allocate array data");
}

TEST(RuntimeAlloc, ReferencesKeepTheBlock) {
  MahouMemInfo *mi = mahou_rt_alloc(128);
  mahou_rt_incref(mi);
  mahou_rt_decref(mi);
  EXPECT_EQ(mi->refcount, 1);
  static_cast<char *>(mi->data)[127] = 1;
  mahou_rt_decref(mi);
  mahou_rt_incref(nullptr); // arrays from NumPy have no MemInfo
  mahou_rt_decref(nullptr);
}

TEST(RuntimeAlloc, LargeBlocksAreReusedByTheNextAllocationOfTheirSize) {
  const int64_t n = 800 * 1024;
  MahouMemInfo *first = mahou_rt_alloc(n);
  expectWellFormed(first, n);
  mahou_rt_decref(first);
  MahouMemInfo *again = mahou_rt_alloc(n - 100); // about the same size: the spare
  EXPECT_EQ(again, first);
  expectWellFormed(again, n - 100);
  mahou_rt_decref(again);
  MahouMemInfo *small = mahou_rt_alloc(n / 4); // would waste most of it: a new block
  EXPECT_NE(small, again);
  expectWellFormed(small, n / 4);
  mahou_rt_decref(small);
  MahouMemInfo *bigger = mahou_rt_alloc(2 * n); // does not fit in the spare
  expectWellFormed(bigger, 2 * n);
  mahou_rt_decref(bigger);
}

TEST(RuntimeAlloc, SpareBlocksArePerThreadAndFreedAtThreadExit) {
  int64_t live = mahou_rt_live_allocations();
  std::thread worker([] {
    for (int i = 0; i < 4; ++i) {
      MahouMemInfo *a = mahou_rt_alloc(1 << 20);
      MahouMemInfo *b = mahou_rt_alloc(1 << 20);
      expectWellFormed(a, 1 << 20);
      expectWellFormed(b, 1 << 20);
      mahou_rt_decref(a);
      mahou_rt_decref(b);
    }
  });
  worker.join();
  EXPECT_EQ(mahou_rt_live_allocations(), live);
}

} // namespace

// ------------------------------------------------------------------ objects

namespace {

// A chain of objects, each holding the next: releasing the head releases them all.
void releaseNext(MahouMemInfo *mi) {
  MahouMemInfo *next;
  std::memcpy(&next, mi->data, sizeof next);
  mahou_rt_decref(next);
}

int destroyed = 0;
void countAndReleaseNext(MahouMemInfo *mi) {
  ++destroyed;
  releaseNext(mi);
}

} // namespace

TEST(RuntimeAlloc, ADeepChainIsReleasedWithoutRecursion) {
  // A million nested destructors would need far more than a thread's stack if each
  // ran inside its owner's; the release is iterative past a small depth.
  int64_t live = mahou_rt_live_allocations();
  MahouMemInfo *head = nullptr;
  constexpr int kLength = 1000000;
  for (int i = 0; i < kLength; ++i) {
    MahouMemInfo *mi = mahou_rt_alloc_object(sizeof(void *), countAndReleaseNext);
    ASSERT_NE(mi, nullptr);
    std::memcpy(mi->data, &head, sizeof head);
    head = mi;
  }
  destroyed = 0;
  std::thread([head] { mahou_rt_decref(head); }).join(); // a thread's stack: the smallest around
  EXPECT_EQ(destroyed, kLength);
  EXPECT_EQ(mahou_rt_live_allocations(), live);
}

TEST(RuntimeAlloc, ObjectSizesThatWrapAreMemoryErrors) {
  for (int64_t n : {int64_t(-1), int64_t(-8), INT64_MAX, INT64_MAX - 16}) {
    EXPECT_EQ(mahou_rt_alloc_object(n, nullptr), nullptr) << n;
    MahouError e = mahou_rt_take_error();
    EXPECT_TRUE(e.set);
    EXPECT_STREQ(e.message, "out of memory");
  }
}
