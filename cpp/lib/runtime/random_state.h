// The random state compiled code draws from (Numba's model): per thread, one Mersenne
// Twister for np.random and another for the random module, shared by every compiled
// function of the process, seeded from the OS on first use and again in a forked child.
// The generator is MT19937 as NumPy's RandomState and CPython's random use it.
#pragma once

#include <cstddef>
#include <cstdint>

// (Its own namespace: argument-dependent lookup must not mix the legacy algorithms with
// the current ones of the same names.)
namespace mahou::runtime::random_state {

struct MT19937 {
  static constexpr int N = 624;
  uint32_t key[N];
  int pos;
  bool initialized; // false: seeded from the OS before the next draw
  // np.random: the legacy polar method's second value; random: gauss()'s gauss_next.
  bool hasGauss;
  double gauss;

  void seed(uint32_t s);                              // init_genrand (np.random.seed(int))
  void seedByArray(const uint32_t *init, size_t n);   // init_by_array (random.seed(int))
  void seedFromEntropy();                             // 624 words from the OS, by array
  void generate();                                    // the next 624 words

  uint32_t next32() {
    if (pos == N) generate();
    uint32_t y = key[pos++];
    y ^= y >> 11; // tempering
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= y >> 18;
    return y;
  }
  uint64_t next64() {
    uint64_t hi = next32();
    return hi << 32 | next32();
  }
  double nextDouble() { // 53 bits: NumPy's and CPython's random()
    int32_t a = int32_t(next32() >> 5), b = int32_t(next32() >> 6);
    return (a * 67108864.0 + b) / 9007199254740992.0;
  }
};

// This thread's states (seeded from the OS if they are not yet).
MT19937 &numpyState();
MT19937 &pythonState();

} // namespace mahou::runtime::random_state
