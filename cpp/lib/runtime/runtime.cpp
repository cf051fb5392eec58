// Runtime library called by compiled code: reference-counted array memory, the
// per-thread error state and the symbol table the JIT uses to find them.
#include "mahou/runtime.h"

#include <atomic>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <unordered_map>
#include <utility>

namespace {

constexpr int64_t kAlignment = 64;

// ExcKind values (types::ExcKind), numbered as in exceptions.def.
enum ExcIndex : int32_t {
#define MAHOU_EXCEPTION(name) Exc##name,
#include "mahou/exceptions.def"
#undef MAHOU_EXCEPTION
};

std::atomic<int64_t> liveAllocations{0};

// One freed large block kept per thread for the next allocation of about its size. A
// loop that makes a new array each iteration (`c = a * 2.0 + b`) frees the previous one
// after making the next, so two blocks are live at once: without the spare, malloc
// grew the heap by both, trimmed it at the end of every call and the next call took
// page faults on all of it again (2.6x Numba's time on 800 KB arrays; Numba frees a
// variable at its last use, so it holds one). Small blocks are left to malloc's bins.
constexpr size_t kSpareMinBytes = 64 * 1024;

struct SpareBlock {
  MahouMemInfo *block = nullptr;
  ~SpareBlock() { std::free(block); }
};
thread_local SpareBlock spare;

// A block of at least `total` bytes: the spare when it fits without wasting more than
// half of it, else malloc's.
MahouMemInfo *takeBlock(size_t total) {
  if (total >= kSpareMinBytes) {
    MahouMemInfo *b = spare.block;
    if (b && b->capacity >= total && b->capacity / 2 <= total) {
      spare.block = nullptr;
      return b;
    }
  }
  auto *b = static_cast<MahouMemInfo *>(std::malloc(total));
  if (b)
    b->capacity = total;
  return b;
}

void releaseBlock(MahouMemInfo *b) {
  if (b->capacity >= kSpareMinBytes) {
    std::swap(b, spare.block); // keep the newest; free the one it replaces
  }
  std::free(b);
}

thread_local MahouError pendingError{0, false, {0}, false, nullptr};

void copyMessage(const char *msg) {
  if (!msg) {
    pendingError.message[0] = '\0';
    return;
  }
  std::strncpy(pendingError.message, msg, sizeof(pendingError.message) - 1);
  pendingError.message[sizeof(pendingError.message) - 1] = '\0';
}

// Writes fmt into the error message with `value` replacing the first "%lld"
// (the only directive honoured; other '%' characters are copied as they are).
void formatMessageI64(const char *fmt, int64_t value) {
  if (!fmt) {
    std::snprintf(pendingError.message, sizeof(pendingError.message), "%lld",
                  static_cast<long long>(value));
    return;
  }
  const char *at = std::strstr(fmt, "%lld");
  if (!at) {
    copyMessage(fmt);
    return;
  }
  std::snprintf(pendingError.message, sizeof(pendingError.message), "%.*s%lld%s",
                int(at - fmt), fmt, static_cast<long long>(value), at + 4);
}

// Releasing a deep object graph (a linked list of 300,000 jitclass instances) runs
// each object's destructor from its owner's: C recursion as deep as the graph, past
// the thread's stack. As CPython's trashcan: beyond kMaxReleaseDepth nested
// destructors, an object whose count reached zero is put on this thread's list
// (linked through its refcount field, unused once dead) and destroyed by the
// outermost release, which drains the list iteratively.
constexpr int kMaxReleaseDepth = 64;
thread_local int releaseDepth = 0;
thread_local MahouMemInfo *deferredRelease = nullptr;

void destroyBlock(MahouMemInfo *mi) {
  if (mi->dtor)
    mi->dtor(mi); // an object releases what it holds
  releaseBlock(mi); // the data lives in the same block
  liveAllocations.fetch_sub(1, std::memory_order_relaxed);
}

} // namespace

extern "C" {

MahouMemInfo *mahou_rt_alloc(int64_t nbytes) {
  if (nbytes < 0) {
    mahou_rt_set_error(ExcValueError,
                       "negative dimensions are not allowed");
    return nullptr;
  }
  if (nbytes > INT64_MAX - kAlignment) {
    mahou_rt_set_error(ExcMemoryError,
                       "unable to allocate array data");
    return nullptr;
  }
  // One block per array, as Numba's NRT does: the MemInfo header, then the data at the
  // next 64-byte boundary (malloc returns 16-byte aligned memory, so at most 48 bytes of
  // padding). Empty arrays still get a block, so data is never null. Two blocks
  // (malloc + aligned_alloc) cost twice the calls, and aligned_alloc of large sizes took
  // a fresh mmap and munmap on every allocation: 7.5 us per 8 MB array against 0.1 us.
  size_t total = sizeof(MahouMemInfo) + size_t(kAlignment) + size_t(nbytes);
  MahouMemInfo *mi = takeBlock(total);
  if (!mi) {
    mahou_rt_set_error(ExcMemoryError,
                       "unable to allocate array data");
    return nullptr;
  }
  uintptr_t first = reinterpret_cast<uintptr_t>(mi + 1);
  void *data = reinterpret_cast<void *>((first + uintptr_t(kAlignment) - 1) & ~uintptr_t(kAlignment - 1));
  mi->refcount = 1;
  mi->data = data;
  mi->nbytes = nbytes;
  mi->dtor = nullptr;
  liveAllocations.fetch_add(1, std::memory_order_relaxed);
  return mi;
}

void mahou_rt_incref(MahouMemInfo *mi) {
  if (mi)
    __atomic_fetch_add(&mi->refcount, 1, __ATOMIC_RELAXED);
}

void mahou_rt_decref(MahouMemInfo *mi) {
  if (!mi)
    return;
  if (__atomic_sub_fetch(&mi->refcount, 1, __ATOMIC_ACQ_REL) != 0)
    return;
  if (!mi->dtor) { // array data: holds nothing
    destroyBlock(mi);
    return;
  }
  if (releaseDepth >= kMaxReleaseDepth) { // destroyed by the outermost release below
    mi->refcount = static_cast<int64_t>(reinterpret_cast<intptr_t>(deferredRelease));
    deferredRelease = mi;
    return;
  }
  ++releaseDepth;
  destroyBlock(mi);
  if (releaseDepth == 1)
    while (MahouMemInfo *next = deferredRelease) {
      deferredRelease = reinterpret_cast<MahouMemInfo *>(static_cast<intptr_t>(next->refcount));
      destroyBlock(next);
    }
  --releaseDepth;
}

MahouMemInfo *mahou_rt_alloc_object(int64_t payloadBytes, void (*dtor)(MahouMemInfo *)) {
  if (payloadBytes < 0 || uint64_t(payloadBytes) > uint64_t(INT64_MAX) - sizeof(MahouMemInfo)) {
    mahou_rt_set_error(ExcMemoryError, "out of memory"); // a size that wrapped: nothing this big exists
    return nullptr;
  }
  size_t total = sizeof(MahouMemInfo) + size_t(payloadBytes);
  MahouMemInfo *mi = takeBlock(total);
  if (!mi) {
    mahou_rt_set_error(ExcMemoryError, "out of memory");
    return nullptr;
  }
  mi->refcount = 1;
  mi->data = mi + 1;
  mi->nbytes = payloadBytes;
  mi->dtor = dtor;
  liveAllocations.fetch_add(1, std::memory_order_relaxed);
  return mi;
}

void mahou_rt_untrack_allocation() { liveAllocations.fetch_sub(1, std::memory_order_relaxed); }

// The elements of a frozen global array, interned and immortal (one copy per content,
// 64-byte aligned as array data is): a view of it stored in a list, dict or instance, or
// returned, never points into the module compiled with it, which is freed with its code.
// Null, with no error set, when it cannot be allocated.
MahouMemInfo *mahou_rt_array_const(const char *data, int64_t n) {
  static std::mutex lock;
  static auto *table = new std::unordered_map<std::string, MahouMemInfo *>();
  try {
    std::string key(data, size_t(n));
    std::lock_guard<std::mutex> guard(lock);
    auto it = table->find(key);
    if (it != table->end()) return it->second;
    MahouMemInfo *mi = mahou_rt_alloc(n);
    if (!mi) {
      mahou_rt_clear_error(); // the caller keeps the module's constant instead
      return nullptr;
    }
    if (n) std::memcpy(mi->data, data, size_t(n));
    mi->refcount = int64_t(1) << 60; // never reaches zero
    mahou_rt_untrack_allocation();   // not a leak: interned for the process
    table->emplace(std::move(key), mi);
    return mi;
  } catch (const std::bad_alloc &) {
    return nullptr;
  }
}

int64_t mahou_rt_live_allocations() { return liveAllocations.load(std::memory_order_relaxed); }

void mahou_rt_set_error(int32_t kind, const char *msg) {
  pendingError.kind = kind;
  pendingError.set = true;
  pendingError.hasArgs = false;
  pendingError.foreign = nullptr;
  copyMessage(msg);
}

void mahou_rt_set_error_i64(int32_t kind, const char *fmt, int64_t value) {
  pendingError.kind = kind;
  pendingError.set = true;
  pendingError.hasArgs = false;
  pendingError.foreign = nullptr;
  formatMessageI64(fmt, value);
}

MahouError *mahou_rt_pending_error() { return &pendingError; }

MahouError mahou_rt_take_error() {
  MahouError out = pendingError;
  pendingError.set = false;
  pendingError.kind = 0;
  pendingError.hasArgs = false;
  pendingError.foreign = nullptr;
  pendingError.message[0] = '\0';
  return out;
}

} // extern "C"

namespace mahou::runtime {

const RuntimeSymbol *runtimeSymbols(size_t *count) {
  static const RuntimeSymbol table[] = {
#define MAHOU_RT_FUNCTION(ret, name, params) {#name, reinterpret_cast<void *>(&name)},
#include "mahou/runtime_functions.def"
#undef MAHOU_RT_FUNCTION
  };
  if (count)
    *count = sizeof(table) / sizeof(table[0]);
  return table;
}

} // namespace mahou::runtime
