// hash() in compiled code, with CPython's values: the numeric hashes (objects.cpp, shared
// with dicts and sets), NaN as Numba hashes it (a pseudo-random value per call: CPython
// 3.10+ hashes a NaN by its object's identity), and the two values that only the
// interpreter knows, given by hooks the binding installs: the hash of a string's bytes
// (CPython's keyed SipHash, PYTHONHASHSEED) and hash(None).
#include "mahou/objects.h"

#include <atomic>
#include <chrono>
#include <cmath>

namespace mahou::runtime {

namespace {
std::atomic<StringHashHook> theStringHash{nullptr};
std::atomic<int64_t> theNoneHash{0x5f3759df}; // without an interpreter (mahouc, unit tests)

uint64_t nextRandom() {
  // splitmix64 per thread, seeded from the clock and the thread's state address.
  thread_local uint64_t state = uint64_t(std::chrono::steady_clock::now().time_since_epoch().count()) ^
                                uint64_t(reinterpret_cast<uintptr_t>(&state));
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

int64_t finish(int64_t h) { return h == -1 ? -2 : h; }
} // namespace

void setStringHashHook(StringHashHook hook) { theStringHash.store(hook); }
StringHashHook stringHashHook() { return theStringHash.load(std::memory_order_relaxed); }
void setNoneHash(int64_t h) { theNoneHash.store(h); }

} // namespace mahou::runtime

extern "C" {

int64_t mahou_rt_hash_int(int64_t v) { return mahou::runtime::hashInt(v); }
int64_t mahou_rt_hash_uint(uint64_t v) { return mahou::runtime::hashUInt(v); }

int64_t mahou_rt_hash_float(double v) {
  if (std::isnan(v)) return mahou::runtime::finish(int64_t(mahou::runtime::nextRandom()));
  return mahou::runtime::hashDouble(v);
}

int64_t mahou_rt_hash_complex(double re, double im) {
  // CPython's complex_hash: hash(re) + 1000003 * hash(im), wrapping, -1 becomes -2.
  uint64_t h = uint64_t(mahou_rt_hash_float(re)) + 1000003ULL * uint64_t(mahou_rt_hash_float(im));
  return mahou::runtime::finish(int64_t(h));
}

int64_t mahou_rt_hash_none() { return mahou::runtime::theNoneHash.load(std::memory_order_relaxed); }

} // extern "C"
