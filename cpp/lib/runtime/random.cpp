// np.random inside compiled code: a per-thread xoshiro256** generator of its own
// (as in Numba, not NumPy's stream), uniform, normal and integer draws.
#include "mahou/runtime.h"

#include <chrono>
#include <cmath>
#include <random>

namespace {

struct Generator {
  uint64_t s[4];
  bool haveSpare = false;
  double spare = 0;

  explicit Generator(uint64_t seed) { reseed(seed); }
  void reseed(uint64_t seed) {
    for (auto &w : s) { // splitmix64
      seed += 0x9e3779b97f4a7c15ULL;
      uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      w = z ^ (z >> 31);
    }
    haveSpare = false;
  }
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t next() {
    uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
  }
};

Generator &generator() {
  thread_local Generator g(std::random_device{}() ^ uint64_t(std::chrono::steady_clock::now().time_since_epoch().count()));
  return g;
}

} // namespace

extern "C" {

void mahou_rt_random_seed(int64_t seed) { generator().reseed(uint64_t(seed)); }

double mahou_rt_random_double() { return double(generator().next() >> 11) * 0x1.0p-53; }

double mahou_rt_random_normal() {
  Generator &g = generator();
  if (g.haveSpare) {
    g.haveSpare = false;
    return g.spare;
  }
  double u, v, s;
  do { // Marsaglia's polar method
    u = 2.0 * mahou_rt_random_double() - 1.0;
    v = 2.0 * mahou_rt_random_double() - 1.0;
    s = u * u + v * v;
  } while (s >= 1.0 || s == 0.0);
  double f = std::sqrt(-2.0 * std::log(s) / s);
  g.spare = v * f;
  g.haveSpare = true;
  return u * f;
}

int64_t mahou_rt_random_int(int64_t low, int64_t high) {
  // Uniform in [low, high) without modulo bias (caller checks high > low).
  uint64_t range = uint64_t(high) - uint64_t(low);
  uint64_t limit = UINT64_MAX - UINT64_MAX % range;
  uint64_t x;
  do x = generator().next();
  while (x >= limit);
  return int64_t(uint64_t(low) + x % range);
}

} // extern "C"
