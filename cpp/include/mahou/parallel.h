// The parallel runtime (runtime/parallel.cpp, on oneTBB): a parallel-for over [0, n)
// in chunks, the thread count, and the per-thread index. Compiled prange loops call
// it, and so may any C++ part of mahou (the parallel ufunc targets):
//
//   struct Ctx { const double *in; double *out; };
//   int32_t body(void *ctx, int64_t begin, int64_t end, int64_t chunk) {
//     auto *c = static_cast<Ctx *>(ctx);
//     for (int64_t i = begin; i < end; ++i) c->out[i] = 2 * c->in[i];
//     return 0; // or 1 after mahou_rt_set_error(...): the loop stops, the error is raised
//   }
//   Ctx ctx{in, out};
//   if (mahou_rt_parallel_for(n, body, &ctx) != 0) { /* the error is pending (runtime.h) */ }
//
// [0, n) is cut into mahou_rt_parallel_chunks(n) consecutive chunks that depend only on n
// and the calling thread's thread count (so per-chunk partial results combined in chunk
// order are reproducible); the chunks run on at most that many threads, the caller
// included, with work stealing between them. Safe to call from several threads at
// once, from inside a chunk (nested loops share the same threads) and after fork().
#pragma once

#include "mahou/runtime.h"

#include <cstdint>

extern "C" {

// MahouChunkFn (runtime.h): int32_t fn(void *ctx, int64_t begin, int64_t end, int64_t chunk)
// runs iterations [begin, end) of chunk number `chunk` (0 <= chunk < the chunk count).
// Returns 0, or 1 with the runtime error state of its thread set (runtime.h).

// How many chunks mahou_rt_parallel_for(n, ...) will run when called now from this
// thread (0 for n <= 0, 1 with one thread).
int64_t mahou_rt_parallel_chunks(int64_t n);
// Runs fn over every chunk of [0, n). Returns 0, or 1 when a chunk failed: the error
// of the failing chunk with the lowest index is then pending on the calling thread, and
// chunks not yet started are skipped.
int32_t mahou_rt_parallel_for(int64_t n, MahouChunkFn fn, void *ctx);
// The same with chunks of at least `grain` iterations (a cheap body needs thousands per
// chunk to be worth a thread): fewer than 2 * grain iterations run serially, in one chunk.
int64_t mahou_rt_parallel_chunks_grain(int64_t n, int64_t grain);
int32_t mahou_rt_parallel_for_grain(int64_t n, int64_t grain, MahouChunkFn fn, void *ctx);

// The thread count of parallel loops started from the calling thread (Numba's
// get_num_threads: set per thread, inherited by the threads running a loop's chunks).
int32_t mahou_rt_get_num_threads(void);
// Sets it; returns 0, or -1 when n is not in [1, mahou_rt_max_threads()].
int32_t mahou_rt_set_num_threads(int32_t n);
// The most threads a loop may use (NUMBA_NUM_THREADS): MAHOU_NUM_THREADS or
// NUMBA_NUM_THREADS from the environment, else the CPUs this process may run on.
int32_t mahou_rt_max_threads(void);
// Changes the maximum before any parallel loop ran. Returns 0, or -1 when n < 1 or
// loops already ran with another maximum.
int32_t mahou_rt_set_max_threads(int32_t n);
// The index of the calling thread among those running the current parallel loop
// (0 for the thread that started it, and outside loops).
int32_t mahou_rt_get_thread_id(void);
// Whether a parallel loop has run in this process (the thread pool exists).
int32_t mahou_rt_parallel_started(void);

} // extern "C"
