// The CUDA emulator's runtime: runs a kernel compiled for the CPU over a grid.
// Threads of a block are fibers (fiber.h) switched at barriers and warp operations,
// so syncthreads works for any block size; blocks are spread over the CPU cores.
// A kernel that synchronises the grid (cuda.cg) runs every thread of every block as a
// fiber of one scheduler, so grid.sync() waits for the whole grid.
// A barrier reached by only part of a block (or grid) is reported instead of hanging.
#include "mahou/runtime.h"

#include "fiber.h"

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace {

enum SimExc : int32_t {
#define MAHOU_EXCEPTION(name) SimExc##name,
#include "mahou/exceptions.def"
#undef MAHOU_EXCEPTION
};

constexpr size_t kStackBytes = 256 * 1024;
constexpr int kWarp = 32;

struct SimThread {
  mahou::runtime::FiberContext ctx;
  int tid[3] = {0, 0, 0};
  int linear = 0;
  bool done = false;
  bool waitBlock = false; // at syncthreads
  bool waitWarp = false;  // at a warp operation
  bool waitGrid = false;  // at grid.sync() (cooperative launches)
  char *stack = nullptr;
};

struct SimBlock;

struct Launch {
  MahouSimEntry entry;
  void **argv;
  int64_t grid[3], block[3];
  int64_t dynamicBytes;
  bool fibers;
  bool cooperative = false; // every block's threads are fibers of one scheduler
  std::atomic<int64_t> nextBlock{0};
  std::atomic<bool> failed{false};
  std::mutex errorMutex;
  MahouError error{0, false, {0}, false};
};

struct SimBlock {
  Launch *launch = nullptr;
  int ctaid[3] = {0, 0, 0};
  std::vector<SimThread> threads;
  mahou::runtime::FiberContext scheduler;
  std::map<const void *, std::vector<char>> shared;
  std::vector<char> dynamicShared;
  // Barrier: per-generation results (count of true predicates) and lane exchange slots.
  int64_t barrierCount[2] = {0, 0};
  int barrierGen = 0;
  int64_t barrierAccum = 0;
  int64_t barrierAll = 1, barrierAny = 0;
  int64_t barrierResultAll[2] = {1, 1}, barrierResultAny[2] = {0, 0};
  std::vector<int64_t> warpSlots[2]; // per lane values, double-buffered by warp generation
  std::vector<int> warpGen;          // per warp
  std::vector<int64_t> warpBallot[2];
  std::vector<uint32_t> warpArrived[2]; // per warp: the lanes that met at that generation's exchange
  SimThread *current = nullptr;
  bool stop = false;
};

// Read by every cuda.threadIdx/blockIdx/... of an emulated thread: initial-exec TLS (one
// %fs-relative load) instead of a __tls_get_addr call per read; a few bytes of the
// static TLS surplus glibc keeps for dlopen'ed libraries.
#define MAHOU_FAST_TLS thread_local __attribute__((tls_model("initial-exec")))
MAHOU_FAST_TLS SimBlock *tlsBlock = nullptr;
MAHOU_FAST_TLS SimThread *tlsThread = nullptr;

void fail(Launch &launch, int32_t kind, const std::string &message) {
  std::lock_guard<std::mutex> lock(launch.errorMutex);
  if (launch.error.set) return;
  launch.error.set = true;
  launch.error.kind = kind;
  std::snprintf(launch.error.message, sizeof launch.error.message, "%s", message.c_str());
  launch.failed = true;
}

// numba-cuda's prefix of a kernel's exception, naming the thread: "tid=[x, y, z] ctaid=[x, y, z]: ".
std::string where(const SimBlock &b, const int *tid) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "tid=[%d, %d, %d] ctaid=[%d, %d, %d]: ", tid[0], tid[1], tid[2], b.ctaid[0],
                b.ctaid[1], b.ctaid[2]);
  return buf;
}

// Runs one thread's kernel body; records a raised exception with its thread and block.
void runThread(SimBlock &b, const int *tid) {
  int32_t status = b.launch->entry(nullptr, b.launch->argv);
  if (status != 0) {
    MahouError e = mahou_rt_take_error();
    fail(*b.launch, e.set ? e.kind : 0, where(b, tid) + e.message);
    b.stop = true;
  }
}

void fiberMain(void *arg) {
  auto *t = static_cast<SimThread *>(arg);
  runThread(*tlsBlock, t->tid);
  t->done = true;
  mahou::runtime::fiberSwitch(t->ctx, tlsBlock->scheduler); // never resumed
}

// Yields from the current fiber to the block's scheduler.
void yieldToScheduler() {
  SimThread *t = tlsThread;
  mahou::runtime::fiberSwitch(t->ctx, tlsBlock->scheduler);
  tlsThread = t;
}

int warpOf(const SimThread &t) { return t.linear / kWarp; }

void initFibers(SimBlock &b) {
  for (auto &t : b.threads) {
    if (!t.stack)
      t.stack = static_cast<char *>(mmap(nullptr, kStackBytes, PROT_READ | PROT_WRITE,
                                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0));
    t.done = t.waitBlock = t.waitWarp = t.waitGrid = false;
    mahou::runtime::fiberInit(t.ctx, t.stack, kStackBytes, fiberMain, &t);
  }
}

// Runs every runnable thread of the block once; true when any ran.
bool runRunnable(SimBlock &b) {
  bool ranAny = false;
  tlsBlock = &b;
  for (auto &t : b.threads) {
    if (t.done || t.waitBlock || t.waitWarp || t.waitGrid) continue;
    tlsThread = &t;
    mahou::runtime::fiberSwitch(b.scheduler, t.ctx);
    ranAny = true;
    if (b.stop) break;
  }
  return ranAny;
}

// After a pass: releases the warps and the block barrier that every live thread reached.
// Returns true when something was released; sets b.stop on a barrier that cannot complete.
bool releaseWaiters(SimBlock &b) {
  size_t n = b.threads.size();
  bool released = false;
  for (size_t w = 0; w * kWarp < n; ++w) {
    size_t lo = w * kWarp, hi = std::min(n, lo + kWarp);
    bool all = true, any = false;
    for (size_t i = lo; i < hi; ++i) {
      if (b.threads[i].done) continue;
      all &= b.threads[i].waitWarp;
      any |= b.threads[i].waitWarp;
    }
    if (any && all) {
      uint32_t arrived = 0;
      for (size_t i = lo; i < hi; ++i)
        if (!b.threads[i].done) arrived |= 1u << (i - lo);
      b.warpArrived[b.warpGen[w]][w] = arrived;
      for (size_t i = lo; i < hi; ++i) b.threads[i].waitWarp = false;
      b.warpGen[w] ^= 1;
      released = true;
    }
  }
  if (released) return true;
  size_t done = 0, atBlock = 0;
  for (auto &t : b.threads) {
    done += t.done;
    atBlock += t.waitBlock;
  }
  if (atBlock > 0 && atBlock + done == n) {
    if (done > 0) {
      fail(*b.launch, SimExcRuntimeError,
           where(b, b.threads[0].tid) + "cuda.syncthreads() was reached by only part of the block (" +
               std::to_string(atBlock) + " of " + std::to_string(n) + " threads; the others returned)");
      b.stop = true;
      return false;
    }
    int g = b.barrierGen;
    b.barrierCount[g] = b.barrierAccum;
    b.barrierResultAll[g] = b.barrierAll;
    b.barrierResultAny[g] = b.barrierAny;
    b.barrierAccum = 0;
    b.barrierAll = 1;
    b.barrierAny = 0;
    b.barrierGen ^= 1;
    for (auto &t : b.threads) t.waitBlock = false;
    return true;
  }
  return false;
}

bool blockDone(const SimBlock &b) {
  for (auto &t : b.threads)
    if (!t.done) return false;
  return true;
}

void runBlockFibers(SimBlock &b) {
  initFibers(b);
  while (!b.stop) {
    bool ranAny = runRunnable(b);
    if (b.stop || blockDone(b)) break;
    if (releaseWaiters(b)) continue;
    if (b.stop) break;
    if (!ranAny) {
      fail(*b.launch, SimExcRuntimeError,
           where(b, b.threads[0].tid) + "the threads of a warp diverged at a warp operation (some lanes never reached it)");
      break;
    }
  }
}

void prepareBlock(Launch &launch, SimBlock &b, int64_t blockIndex) {
  b.launch = &launch;
  b.ctaid[0] = int(blockIndex % launch.grid[0]);
  b.ctaid[1] = int(blockIndex / launch.grid[0] % launch.grid[1]);
  b.ctaid[2] = int(blockIndex / (launch.grid[0] * launch.grid[1]));
  b.shared.clear();
  b.dynamicShared.assign(size_t(launch.dynamicBytes), 0);
  b.stop = false;
  b.barrierGen = 0;
  b.barrierAccum = 0;
  b.barrierAll = 1;
  b.barrierAny = 0;
  size_t n = size_t(launch.block[0] * launch.block[1] * launch.block[2]);
  if (b.threads.size() != n) b.threads.resize(n);
  for (size_t i = 0; i < n; ++i) {
    SimThread &t = b.threads[i];
    t.linear = int(i);
    t.tid[0] = int(i % launch.block[0]);
    t.tid[1] = int(i / launch.block[0] % launch.block[1]);
    t.tid[2] = int(i / (launch.block[0] * launch.block[1]));
  }
  size_t warps = (n + kWarp - 1) / kWarp;
  b.warpGen.assign(warps, 0);
  for (int g = 0; g < 2; ++g) {
    b.warpSlots[g].assign(warps * kWarp, 0);
    b.warpBallot[g].assign(warps, 0);
    b.warpArrived[g].assign(warps, 0);
  }
}

void runBlock(Launch &launch, SimBlock &b, int64_t blockIndex) {
  prepareBlock(launch, b, blockIndex);
  tlsBlock = &b;
  if (launch.fibers) {
    runBlockFibers(b);
  } else {
    for (size_t i = 0; i < b.threads.size() && !b.stop; ++i) {
      tlsThread = &b.threads[i];
      runThread(b, b.threads[i].tid);
    }
  }
  tlsBlock = nullptr;
  tlsThread = nullptr;
}

void freeStacks(SimBlock &b) {
  for (auto &t : b.threads)
    if (t.stack) munmap(t.stack, kStackBytes);
}

// A cooperative launch: every thread of the grid is a fiber; grid.sync() releases when
// every thread of the grid has reached it.
void runGridFibers(Launch &launch) {
  int64_t total = launch.grid[0] * launch.grid[1] * launch.grid[2];
  std::vector<std::unique_ptr<SimBlock>> blocks;
  for (int64_t i = 0; i < total; ++i) {
    blocks.push_back(std::make_unique<SimBlock>());
    prepareBlock(launch, *blocks.back(), i);
    initFibers(*blocks.back());
  }
  auto stopped = [&] {
    for (auto &b : blocks)
      if (b->stop) return true;
    return false;
  };
  while (!stopped()) {
    bool progress = false, allDone = true;
    for (auto &b : blocks) progress |= runRunnable(*b);
    if (stopped()) break;
    for (auto &b : blocks) {
      progress |= releaseWaiters(*b);
      allDone &= blockDone(*b);
    }
    if (allDone || stopped()) break;
    if (progress) continue;
    size_t live = 0, atGrid = 0, done = 0;
    for (auto &b : blocks)
      for (auto &t : b->threads) {
        done += t.done;
        live += !t.done;
        atGrid += t.waitGrid;
      }
    if (atGrid > 0 && atGrid == live && done == 0) {
      for (auto &b : blocks)
        for (auto &t : b->threads) t.waitGrid = false;
      continue;
    }
    SimBlock &b0 = *blocks[0];
    fail(launch, SimExcRuntimeError,
         atGrid ? "grid.sync() was reached by only part of the grid (" + std::to_string(atGrid) + " of " +
                      std::to_string(live + done) + " threads; the others returned or wait elsewhere)"
                : where(b0, b0.threads[0].tid) + "the threads of a block or warp never all reached a barrier");
    break;
  }
  tlsBlock = nullptr;
  tlsThread = nullptr;
  for (auto &b : blocks) freeStacks(*b);
}

void worker(Launch &launch) {
  SimBlock block;
  int64_t total = launch.grid[0] * launch.grid[1] * launch.grid[2];
  for (int64_t i; !launch.failed && (i = launch.nextBlock.fetch_add(1)) < total;) runBlock(launch, block, i);
  freeStacks(block);
}

} // namespace


extern "C" {

int32_t mahou_rt_sim_launch(MahouSimEntry entry, void **argv, const int64_t *grid, const int64_t *block,
                            int64_t dynamicSharedBytes, int32_t mode) {
  Launch launch;
  launch.entry = entry;
  launch.argv = argv;
  for (int i = 0; i < 3; ++i) {
    launch.grid[i] = std::max<int64_t>(1, grid[i]);
    launch.block[i] = std::max<int64_t>(1, block[i]);
  }
  launch.dynamicBytes = dynamicSharedBytes;
  launch.fibers = mode != 0;
  launch.cooperative = mode == 2;
  int64_t blocks = launch.grid[0] * launch.grid[1] * launch.grid[2];
  unsigned workers = std::max(1u, std::min<unsigned>(std::thread::hardware_concurrency(), unsigned(std::min<int64_t>(blocks, 64))));
  if (launch.cooperative) {
    runGridFibers(launch);
  } else if (workers == 1) {
    worker(launch);
  } else {
    std::vector<std::thread> pool;
    for (unsigned w = 0; w < workers; ++w) pool.emplace_back([&] { worker(launch); });
    for (auto &t : pool) t.join();
  }
  if (!launch.error.set) return 0;
  mahou_rt_set_error(launch.error.kind, launch.error.message);
  return 1;
}

int32_t mahou_rt_sim_sreg(int32_t which) {
  SimBlock *b = tlsBlock;
  SimThread *t = tlsThread;
  Launch &l = *b->launch;
  switch (which) {
  case 0: case 1: case 2: return t->tid[which];
  case 3: case 4: case 5: return int32_t(l.block[which - 3]);
  case 6: case 7: case 8: return b->ctaid[which - 6];
  case 9: case 10: case 11: return int32_t(l.grid[which - 9]);
  case 12: return t->linear % kWarp;
  default: return kWarp;
  }
}

void *mahou_rt_sim_shared(const void *id, int64_t bytes) {
  SimBlock *b = tlsBlock;
  auto &buf = b->shared[id];
  if (buf.empty()) buf.assign(size_t(std::max<int64_t>(bytes, 1)), 0);
  return buf.data();
}

void *mahou_rt_sim_dynamic_shared(int64_t *bytes) {
  SimBlock *b = tlsBlock;
  *bytes = int64_t(b->dynamicShared.size());
  return b->dynamicShared.data();
}

// kind: 0 plain, 1 count, 2 and, 3 or
int32_t mahou_rt_sim_syncthreads(int32_t kind, bool pred) {
  SimBlock *b = tlsBlock;
  if (!b->launch->fibers) return 0; // compiled without barriers: never called
  b->barrierAccum += pred;
  b->barrierAll &= pred;
  b->barrierAny |= pred;
  int g = b->barrierGen;
  tlsThread->waitBlock = true;
  yieldToScheduler();
  switch (kind) {
  case 1: return int32_t(b->barrierCount[g]);
  case 2: return int32_t(b->barrierResultAll[g]);
  case 3: return int32_t(b->barrierResultAny[g]);
  default: return 0;
  }
}

// Warp exchange: every live lane publishes a value, waits for the others, returns the slot base.
static int64_t *warpExchange(int64_t value) {
  SimBlock *b = tlsBlock;
  SimThread *t = tlsThread;
  int w = warpOf(*t);
  int g = b->warpGen[w];
  b->warpSlots[g][size_t(t->linear)] = value;
  t->waitWarp = true;
  yieldToScheduler();
  return &b->warpSlots[g][size_t(w) * kWarp];
}

void mahou_rt_sim_syncwarp(uint32_t) { (void)warpExchange(0); }

// kind: 0 idx, 1 up, 2 down, 3 xor
int64_t mahou_rt_sim_shfl(int32_t kind, uint32_t, int64_t value, int32_t lane) {
  SimThread *t = tlsThread;
  int me = t->linear % kWarp;
  int64_t *slots = warpExchange(value);
  int src = me;
  switch (kind) {
  case 0: src = lane & (kWarp - 1); break;
  case 1: src = me - lane >= 0 ? me - lane : me; break;
  case 2: src = me + lane < kWarp ? me + lane : me; break;
  default: src = (me ^ lane) & (kWarp - 1); break;
  }
  int base = t->linear - me;
  if (base + src >= int(tlsBlock->threads.size())) src = me;
  return slots[src];
}

// kind: 0 ballot, 1 all, 2 any, 3 eq (the masked lanes' predicates all equal)
int32_t mahou_rt_sim_vote(int32_t kind, uint32_t mask, bool pred) {
  SimBlock *b = tlsBlock;
  SimThread *t = tlsThread;
  int w = warpOf(*t);
  int g = b->warpGen[w];
  int64_t *slots = warpExchange(pred ? 1 : 0);
  uint32_t live = b->warpArrived[g][size_t(w)] & mask; // the masked lanes that voted
  uint32_t ballot = 0;
  for (int i = 0; i < kWarp; ++i)
    if ((live >> i & 1u) && slots[i]) ballot |= 1u << i;
  if (kind == 0) return int32_t(ballot);
  if (kind == 3) return int32_t(ballot == 0 || ballot == live);
  return kind == 1 ? int32_t(ballot == live) : int32_t(ballot != 0);
}

// kind 0 (match.any): the masked live lanes whose value equals this lane's; kind 1
// (match.all): those lanes if every one holds this lane's value, else 0.
uint32_t mahou_rt_sim_match(int32_t kind, uint32_t mask, int64_t value) {
  SimBlock *b = tlsBlock;
  SimThread *t = tlsThread;
  int w = warpOf(*t);
  int g = b->warpGen[w];
  int64_t *slots = warpExchange(value);
  uint32_t live = b->warpArrived[g][size_t(w)] & mask; // the lanes that exchanged a value
  uint32_t same = 0;
  for (int i = 0; i < kWarp; ++i) {
    if (!(live >> i & 1u)) continue;
    if (slots[i] == value) same |= 1u << i;
  }
  if (kind == 0) return same;
  return same == live ? same : 0u;
}

void mahou_rt_sim_grid_sync() {
  SimBlock *b = tlsBlock;
  if (!b->launch->cooperative) return; // compiled without grid sync: never called
  tlsThread->waitGrid = true;
  yieldToScheduler();
}

uint32_t mahou_rt_sim_activemask() {
  SimThread *t = tlsThread;
  int me = t->linear % kWarp;
  int lanes = std::min<int>(kWarp, int(tlsBlock->threads.size()) - (t->linear - me));
  return lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
}

} // extern "C"
