// The parallel runtime on oneTBB (parallel.h): a static partition of [0, n) into
// chunks that work-stealing threads of a task arena run, the per-thread thread count,
// and fork safety (the worker threads are joined before fork() and made again after).
#include "mahou/parallel.h"
#include "mahou/runtime.h"

#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/task_group.h>

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <new>
#include <thread>
#include <vector>

namespace {

// Chunks per thread: enough for work stealing to even out loops whose iterations cost
// different amounts (a loop whose work grows with i), few enough that the per-chunk
// partial results of a reduction stay small.
constexpr int64_t kChunksPerThread = 8;
constexpr int kThreadLimit = 4096; // the largest NUMBA_NUM_THREADS accepted

int threadsFromEnvironment() {
  for (const char *name : {"MAHOU_NUM_THREADS", "NUMBA_NUM_THREADS"})
    if (const char *text = std::getenv(name); text && *text) {
      char *end = nullptr;
      long n = std::strtol(text, &end, 10);
      if (end && *end == '\0' && n >= 1 && n <= kThreadLimit) return int(n);
    }
  int n = tbb::info::default_concurrency(); // the CPUs of this process's affinity mask
  return n >= 1 ? n : int(std::max(1u, std::thread::hardware_concurrency()));
}

// The thread pool: the most threads any loop may use, and one task arena per thread
// count (an arena of k slots runs a loop on at most k threads, its caller included).
// Arenas are made on first use and kept; before fork() they are all ended and the
// worker threads joined (oneTBB's finalize), since a child cannot use threads it
// did not inherit.
struct Pool {
  std::mutex mutex;
  int maxThreads = threadsFromEnvironment();
  bool started = false;
  bool serialOnly = false; // a child forked while loops ran: the pool is unusable there
  std::unique_ptr<tbb::global_control> limit;
  std::unique_ptr<tbb::task_scheduler_handle> handle;
  std::atomic<tbb::task_arena *> arenas[kThreadLimit] = {}; // [k - 1]: k threads
  std::atomic<int> running{0};                        // loops in flight, all threads

  tbb::task_arena *arena(int threads) {
    if (tbb::task_arena *a = arenas[threads - 1].load(std::memory_order_acquire)) return a;
    std::lock_guard<std::mutex> lock(mutex);
    start();
    tbb::task_arena *a = arenas[threads - 1].load(std::memory_order_relaxed);
    if (!a) {
      a = new tbb::task_arena(threads);
      a->initialize();
      arenas[threads - 1].store(a, std::memory_order_release);
    }
    return a;
  }
  void start() { // under the mutex
    if (!handle) handle = std::make_unique<tbb::task_scheduler_handle>(tbb::attach{});
    if (!limit) limit = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, maxThreads);
    started = true;
  }
  // Ends every arena and joins the workers (before fork). False when loops are running.
  bool stop() { // under the mutex
    if (!handle) return true;
    if (running.load() != 0) return false;
    for (auto &slot : arenas)
      if (tbb::task_arena *a = slot.exchange(nullptr)) {
        a->terminate();
        delete a;
      }
    limit.reset();
    bool joined = tbb::finalize(*handle, std::nothrow);
    handle.reset();
    return joined;
  }
};

Pool &pool() {
  static Pool *p = new Pool(); // never destroyed: compiled code may run during exit
  return *p;
}

// The thread count of loops started by this thread (0: not set, the maximum).
thread_local int threadCount = 0;

int currentThreadCount() {
  int n = threadCount ? threadCount : pool().maxThreads;
  return std::min(n, pool().maxThreads);
}

int64_t chunksFor(int64_t n, int threads, int64_t grain) {
  if (n <= 0) return 0;
  if (threads <= 1 || pool().serialOnly) return 1;
  return std::max<int64_t>(1, std::min<int64_t>(n / std::max<int64_t>(grain, 1), int64_t(threads) * kChunksPerThread));
}

// Chunk c of nchunks over [0, n): sizes differ by at most one, larger ones first.
void chunkBounds(int64_t n, int64_t nchunks, int64_t c, int64_t *begin, int64_t *end) {
  int64_t base = n / nchunks, extra = n % nchunks;
  *begin = c * base + std::min(c, extra);
  *end = *begin + base + (c < extra ? 1 : 0);
}

// The failure of a loop with the lowest chunk index: its error is raised in the caller.
// Chunks after a failed one are skipped; those before it still run, so the error raised
// does not depend on timing.
struct FailureSlot {
  std::mutex mutex;
  std::atomic<int64_t> chunk{INT64_MAX};
  MahouError error{};

  bool skips(int64_t c) const { return c > chunk.load(std::memory_order_acquire); }
  void record(int64_t c, const MahouError &e) {
    std::lock_guard<std::mutex> lock(mutex);
    if (c < chunk.load(std::memory_order_relaxed)) {
      error = e;
      chunk.store(c, std::memory_order_release);
    }
  }
  bool failed() const { return chunk.load() != INT64_MAX; }
};

int32_t runSerially(int64_t n, MahouChunkFn fn, void *ctx) { return n > 0 ? fn(ctx, 0, n, 0) : 0; }

void prepareFork() {
  Pool &p = pool();
  p.mutex.lock();
  if (!p.stop()) p.serialOnly = true; // the child must not wait on threads it lacks
}
void afterForkParent() {
  Pool &p = pool();
  p.serialOnly = false;
  p.mutex.unlock();
}
void afterForkChild() {
  Pool &p = pool();
  if (p.serialOnly) { // loops were running in the parent: their threads are gone here
    p.handle.release();
    p.limit.release();
    for (auto &slot : p.arenas) slot.store(nullptr);
  }
  p.running.store(0);
  p.mutex.unlock();
}

struct ForkHandlers {
  ForkHandlers() { pthread_atfork(prepareFork, afterForkParent, afterForkChild); }
};

} // namespace

extern "C" {

int64_t mahou_rt_parallel_chunks(int64_t n) { return chunksFor(n, currentThreadCount(), 1); }

int64_t mahou_rt_parallel_chunks_grain(int64_t n, int64_t grain) { return chunksFor(n, currentThreadCount(), grain); }

int32_t mahou_rt_parallel_for(int64_t n, MahouChunkFn fn, void *ctx) { return mahou_rt_parallel_for_grain(n, 1, fn, ctx); }

int32_t mahou_rt_parallel_for_grain(int64_t n, int64_t grain, MahouChunkFn fn, void *ctx) {
  static ForkHandlers forkHandlers;
  int threads = currentThreadCount();
  int64_t nchunks = chunksFor(n, threads, grain);
  if (nchunks <= 1) return runSerially(n, fn, ctx);
  Pool &p = pool();
  tbb::task_arena *arena = p.arena(threads);
  p.running.fetch_add(1);
  FailureSlot failure;
  tbb::task_group_context group; // isolates cancellation from an enclosing loop's
  arena->execute([&] {
    tbb::parallel_for(
        tbb::blocked_range<int64_t>(0, nchunks, 1),
        [&](const tbb::blocked_range<int64_t> &r) {
          int saved = threadCount;
          threadCount = threads; // a nested loop in this chunk uses the same count
          for (int64_t c = r.begin(); c < r.end(); ++c) {
            if (failure.skips(c)) continue;
            int64_t begin, end;
            chunkBounds(n, nchunks, c, &begin, &end);
            if (fn(ctx, begin, end, c) != 0) failure.record(c, mahou_rt_take_error());
          }
          threadCount = saved;
        },
        tbb::simple_partitioner(), group);
  });
  p.running.fetch_sub(1);
  if (!failure.failed()) return 0;
  *mahou_rt_pending_error() = failure.error; // the whole error: its arguments too
  return 1;
}

int32_t mahou_rt_get_num_threads(void) { return currentThreadCount(); }

int32_t mahou_rt_set_num_threads(int32_t n) {
  if (n < 1 || n > pool().maxThreads) return -1;
  threadCount = n;
  return 0;
}

int32_t mahou_rt_max_threads(void) { return pool().maxThreads; }

int32_t mahou_rt_set_max_threads(int32_t n) {
  Pool &p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  if (n < 1 || n > kThreadLimit) return -1;
  if (p.started && n != p.maxThreads) return -1;
  p.maxThreads = n;
  return 0;
}

int32_t mahou_rt_get_thread_id(void) {
  int index = tbb::this_task_arena::current_thread_index();
  return index == tbb::task_arena::not_initialized ? 0 : index;
}

int32_t mahou_rt_parallel_started(void) { return pool().started ? 1 : 0; }

} // extern "C"
