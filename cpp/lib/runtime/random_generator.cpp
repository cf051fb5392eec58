// Draws from a np.random.Generator passed into compiled code: every function takes the
// bit generator's bitgen_t (NumPy's C interface: the state and its next_uint64 /
// next_uint32 / next_double functions) and consumes its stream exactly as NumPy's
// Generator methods do, so compiled draws equal NumPy's for the same state and the
// caller's generator continues from where compiled code left it. The algorithms are
// NumPy's (numpy/random/src/distributions): uniform doubles and floats, the 256-layer
// ziggurats for the normal and exponential distributions (tables in
// ziggurat_tables.inc, made by tools/gen_ziggurat_tables.py), and Lemire's bounded
// integers with the 32-bit path NumPy takes for ranges that fit in 32 bits, and the
// Fisher-Yates shuffle over random_interval.
#include "mahou/runtime.h"

#include <cmath>
#include <cstdint>
#include <cstring>

namespace {

struct BitGen { // NumPy's bitgen_t (numpy/random/bitgen.h)
  void *state;
  uint64_t (*next_uint64)(void *);
  uint32_t (*next_uint32)(void *);
  double (*next_double)(void *);
  uint64_t (*next_raw)(void *);
};

#include "ziggurat_tables.inc"

BitGen &gen(void *p) { return *static_cast<BitGen *>(p); }
uint64_t next64(BitGen &g) { return g.next_uint64(g.state); }
uint32_t next32(BitGen &g) { return g.next_uint32(g.state); }
double nextDouble(BitGen &g) { return g.next_double(g.state); }
float nextFloat(BitGen &g) { return float(next32(g) >> 8) * (1.0f / 16777216.0f); }

double exponentialTail(BitGen &g, unsigned idx, double x);

double standardExponential(BitGen &g) {
  uint64_t ri = next64(g) >> 3;
  unsigned idx = unsigned(ri & 0xff);
  ri >>= 8;
  double x = double(ri) * kExpW[idx];
  if (ri < kExpK[idx]) return x;
  return exponentialTail(g, idx, x);
}

double exponentialTail(BitGen &g, unsigned idx, double x) {
  if (idx == 0) return kExpR - std::log1p(-nextDouble(g)); // 1 - U: never log(0)
  if ((kExpF[idx - 1] - kExpF[idx]) * nextDouble(g) + kExpF[idx] < std::exp(-x)) return x;
  return standardExponential(g);
}

float exponentialTailF(BitGen &g, unsigned idx, float x);

float standardExponentialF(BitGen &g) {
  uint32_t ri = next32(g) >> 1;
  unsigned idx = ri & 0xff;
  ri >>= 8;
  float x = float(ri) * kExpWf[idx];
  if (ri < kExpKf[idx]) return x;
  return exponentialTailF(g, idx, x);
}

float exponentialTailF(BitGen &g, unsigned idx, float x) {
  if (idx == 0) return kExpRf - log1pf(-nextFloat(g));
  if ((kExpFf[idx - 1] - kExpFf[idx]) * nextFloat(g) + kExpFf[idx] < expf(-x)) return x;
  return standardExponentialF(g);
}

double standardNormal(BitGen &g) {
  for (;;) {
    uint64_t r = next64(g);
    unsigned idx = unsigned(r & 0xff);
    r >>= 8;
    bool negative = r & 1;
    uint64_t rabs = (r >> 1) & 0x000fffffffffffffULL;
    double x = double(rabs) * kNormW[idx];
    if (negative) x = -x;
    if (rabs < kNormK[idx]) return x;
    if (idx == 0) { // the tail beyond r (Marsaglia's method)
      for (;;) {
        double xx = -kNormInvR * std::log1p(-nextDouble(g));
        double yy = -std::log1p(-nextDouble(g));
        if (yy + yy > xx * xx) return ((rabs >> 8) & 1) ? -(kNormR + xx) : kNormR + xx;
      }
    }
    if ((kNormF[idx - 1] - kNormF[idx]) * nextDouble(g) + kNormF[idx] < std::exp(-0.5 * x * x)) return x;
  }
}

float standardNormalF(BitGen &g) {
  for (;;) {
    uint32_t r = next32(g);
    unsigned idx = r & 0xff;
    bool negative = (r >> 8) & 1;
    uint32_t rabs = (r >> 9) & 0x007fffff;
    float x = float(rabs) * kNormWf[idx];
    if (negative) x = -x;
    if (rabs < kNormKf[idx]) return x;
    if (idx == 0) {
      for (;;) {
        float xx = -kNormInvRf * log1pf(-nextFloat(g));
        float yy = -log1pf(-nextFloat(g));
        if (yy + yy > xx * xx) return ((rabs >> 8) & 1) ? -(kNormRf + xx) : kNormRf + xx;
      }
    }
    // The acceptance test is in double, as NumPy's (its constant 0.5 is a double).
    if ((kNormFf[idx - 1] - kNormFf[idx]) * nextFloat(g) + kNormFf[idx] < std::exp(-0.5 * double(x) * double(x)))
      return x;
  }
}

// Lemire's nearly divisionless method on 32 bits: uniform in [0, rng], rng < 2^32 - 1.
uint32_t boundedLemire32(BitGen &g, uint32_t rng) {
  const uint32_t excl = rng + 1;
  uint64_t m = uint64_t(next32(g)) * excl;
  uint32_t leftover = uint32_t(m);
  if (leftover < excl) {
    const uint32_t threshold = (UINT32_MAX - rng) % excl;
    while (leftover < threshold) {
      m = uint64_t(next32(g)) * excl;
      leftover = uint32_t(m);
    }
  }
  return uint32_t(m >> 32);
}

// The same on 64 bits: rng < 2^64 - 1.
uint64_t boundedLemire64(BitGen &g, uint64_t rng) {
  const uint64_t excl = rng + 1;
  unsigned __int128 m = (unsigned __int128)next64(g) * excl;
  uint64_t leftover = uint64_t(m);
  if (leftover < excl) {
    const uint64_t threshold = (UINT64_MAX - rng) % excl;
    while (leftover < threshold) {
      m = (unsigned __int128)next64(g) * excl;
      leftover = uint64_t(m);
    }
  }
  return uint64_t(m >> 64);
}

// NumPy's random_interval: uniform in [0, max] by masked rejection.
uint64_t randomInterval(BitGen &g, uint64_t max) {
  if (max == 0) return 0;
  uint64_t mask = max;
  for (int s = 1; s < 64; s *= 2) mask |= mask >> s;
  uint64_t value;
  if (max <= 0xffffffffULL) {
    while ((value = (next32(g) & mask)) > max) {}
  } else {
    while ((value = (next64(g) & mask)) > max) {}
  }
  return value;
}

} // namespace

extern "C" {

double mahou_rt_gen_double(void *bitgen) { return nextDouble(gen(bitgen)); }
float mahou_rt_gen_float(void *bitgen) { return nextFloat(gen(bitgen)); }
double mahou_rt_gen_normal(void *bitgen) { return standardNormal(gen(bitgen)); }
float mahou_rt_gen_normal_f(void *bitgen) { return standardNormalF(gen(bitgen)); }
double mahou_rt_gen_exponential(void *bitgen) { return standardExponential(gen(bitgen)); }
float mahou_rt_gen_exponential_f(void *bitgen) { return standardExponentialF(gen(bitgen)); }

// off + a uniform integer in [0, rng] for the 64-bit dtypes (NumPy's
// random_bounded_uint64_fill with one value): 32-bit draws when the range fits.
uint64_t mahou_rt_gen_bounded64(void *bitgen, uint64_t off, uint64_t rng) {
  BitGen &g = gen(bitgen);
  if (rng == 0) return off;
  if (rng <= 0xffffffffULL) {
    if (rng == 0xffffffffULL) return off + next32(g);
    return off + boundedLemire32(g, uint32_t(rng));
  }
  if (rng == UINT64_MAX) return off + next64(g);
  return off + boundedLemire64(g, rng);
}

// The same for the 32-bit dtypes (random_bounded_uint32_fill).
uint32_t mahou_rt_gen_bounded32(void *bitgen, uint32_t off, uint32_t rng) {
  BitGen &g = gen(bitgen);
  if (rng == 0) return off;
  if (rng == 0xffffffffU) return off + next32(g);
  return off + boundedLemire32(g, rng);
}

// Generator.shuffle of a 1-D array: Fisher-Yates from the last item down to the second.
void mahou_rt_gen_shuffle(void *bitgen, char *data, int64_t n, int64_t stride, int64_t itemsize) {
  BitGen &g = gen(bitgen);
  char buf[16];
  for (int64_t i = n - 1; i >= 1; --i) {
    int64_t j = int64_t(randomInterval(g, uint64_t(i)));
    std::memcpy(buf, data + j * stride, size_t(itemsize));
    std::memcpy(data + j * stride, data + i * stride, size_t(itemsize));
    std::memcpy(data + i * stride, buf, size_t(itemsize));
  }
}

} // extern "C"
