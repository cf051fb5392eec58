// Unit tests of the parallel runtime (parallel.h): every index runs once, chunks are a
// function of n and the thread count, the first failing chunk's error is raised, thread
// counts are per thread and checked, nested loops and loops from several threads work.
#include "mahou/parallel.h"
#include "mahou/runtime.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

namespace {

struct Marks {
  std::vector<std::atomic<int>> hits;
  std::vector<int64_t> chunkOf;
  explicit Marks(int64_t n) : hits(size_t(n)), chunkOf(size_t(n), -1) {}
};

int32_t mark(void *ctx, int64_t begin, int64_t end, int64_t chunk) {
  auto *m = static_cast<Marks *>(ctx);
  for (int64_t i = begin; i < end; ++i) {
    m->hits[size_t(i)].fetch_add(1);
    m->chunkOf[size_t(i)] = chunk;
  }
  return 0;
}

TEST(ParallelRuntime, EveryIndexRunsOnceInConsecutiveChunks) {
  for (int64_t n : {0, 1, 2, 7, 100, 1000, 100003}) {
    Marks m(n);
    ASSERT_EQ(mahou_rt_parallel_for(n, mark, &m), 0);
    int64_t chunks = mahou_rt_parallel_chunks(n);
    EXPECT_EQ(chunks, n == 0 ? 0 : std::min<int64_t>(n, chunks));
    for (int64_t i = 0; i < n; ++i) {
      EXPECT_EQ(m.hits[size_t(i)].load(), 1) << "n=" << n << " i=" << i;
      if (i > 0) EXPECT_GE(m.chunkOf[size_t(i)], m.chunkOf[size_t(i - 1)]);
    }
    if (n > 0) EXPECT_EQ(m.chunkOf.back(), chunks - 1);
  }
}

TEST(ParallelRuntime, ChunksDependOnTheThreadCount) {
  int max = mahou_rt_max_threads();
  ASSERT_GE(max, 1);
  ASSERT_EQ(mahou_rt_set_num_threads(1), 0);
  EXPECT_EQ(mahou_rt_get_num_threads(), 1);
  EXPECT_EQ(mahou_rt_parallel_chunks(1000), 1);
  ASSERT_EQ(mahou_rt_set_num_threads(max), 0);
  EXPECT_EQ(mahou_rt_parallel_chunks(1000), max == 1 ? 1 : std::min<int64_t>(1000, 8 * max));
  EXPECT_EQ(mahou_rt_set_num_threads(0), -1);
  EXPECT_EQ(mahou_rt_set_num_threads(max + 1), -1);
  EXPECT_EQ(mahou_rt_get_num_threads(), max);
}

struct FailAt {
  int64_t index;
  std::atomic<int64_t> ran{0};
};

int32_t failAt(void *ctx, int64_t begin, int64_t end, int64_t) {
  auto *f = static_cast<FailAt *>(ctx);
  for (int64_t i = begin; i < end; ++i) {
    f->ran.fetch_add(1);
    if (i >= f->index) {
      mahou_rt_set_error_i64(3, "failed at %lld", i);
      return 1;
    }
  }
  return 0;
}

TEST(ParallelRuntime, TheLowestFailingChunksErrorIsRaised) {
  FailAt f{500};
  ASSERT_EQ(mahou_rt_parallel_for(10000, failAt, &f), 1);
  MahouError e = mahou_rt_take_error();
  ASSERT_TRUE(e.set);
  EXPECT_EQ(e.kind, 3);
  // Chunk boundaries: the failing chunk containing 500 fails at its first index >= 500.
  int64_t chunks = mahou_rt_parallel_chunks(10000);
  int64_t size = 10000 / chunks, first = (500 / size) * size;
  std::string expected = "failed at " + std::to_string(std::max<int64_t>(first, 500));
  EXPECT_EQ(std::string(e.message), expected);
  EXPECT_FALSE(mahou_rt_take_error().set);
}

struct Nested {
  std::atomic<int64_t> total{0};
};

int32_t inner(void *ctx, int64_t begin, int64_t end, int64_t) {
  static_cast<Nested *>(ctx)->total.fetch_add(end - begin);
  return 0;
}

int32_t outer(void *ctx, int64_t begin, int64_t end, int64_t) {
  for (int64_t i = begin; i < end; ++i)
    if (mahou_rt_parallel_for(100, inner, ctx) != 0) return 1;
  return 0;
}

TEST(ParallelRuntime, NestedLoopsAndLoopsFromSeveralThreads) {
  Nested n;
  ASSERT_EQ(mahou_rt_parallel_for(50, outer, &n), 0);
  EXPECT_EQ(n.total.load(), 5000);
  Nested shared;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      for (int k = 0; k < 20; ++k) mahou_rt_parallel_for(10, outer, &shared);
    });
  for (auto &t : threads) t.join();
  EXPECT_EQ(shared.total.load(), 4 * 20 * 10 * 100);
}

int32_t recordThreadCount(void *ctx, int64_t, int64_t, int64_t) {
  auto *seen = static_cast<std::atomic<int> *>(ctx);
  int n = mahou_rt_get_num_threads(), prev = seen->load();
  while (n > prev && !seen->compare_exchange_weak(prev, n)) {
  }
  return 0;
}

TEST(ParallelRuntime, ChunksInheritTheCallersThreadCount) {
  int max = mahou_rt_max_threads();
  if (max < 2) GTEST_SKIP() << "one CPU";
  ASSERT_EQ(mahou_rt_set_num_threads(2), 0);
  std::atomic<int> seen{0};
  ASSERT_EQ(mahou_rt_parallel_for(1000, recordThreadCount, &seen), 0);
  EXPECT_EQ(seen.load(), 2);
  ASSERT_EQ(mahou_rt_set_num_threads(max), 0);
}

} // namespace
