// The random module in compiled code: this thread's second MT19937 (random_state.h, the
// state Numba keeps for `random`), seeded and drawn with CPython's algorithms
// (Modules/_randommodule.c, Lib/random.py) so that random.seed(n) in compiled code gives
// the numbers random.seed(n) gives in Python: seed by init_by_array of |n|'s 32-bit
// words, random(), getrandbits, randrange/randint over _randbelow, gauss (with its
// gauss_next) and normalvariate. The other functions are Python in
// python/mahou/_library/random_module.py, drawn through these.
#include "random_state.h"

#include "mahou/runtime.h"
#include "mahou/types.h"

#include <cmath>
#include <cstdio>

namespace {

namespace rnd = mahou::runtime::random_state;
using mahou::types::ExcKind;

rnd::MT19937 &py() { return rnd::pythonState(); }

int32_t fail(ExcKind kind, const char *message) {
  mahou_rt_set_error(int32_t(kind), message);
  return 1;
}

using Int = __int128; // Python's unbounded integers, wide enough for these ranges
using UInt = unsigned __int128;

// getrandbits(k), 1 <= k <= 96: 32-bit words from the least significant up, the last one's
// top bits (CPython's order).
UInt randomBits(rnd::MT19937 &g, int k) {
  UInt r = 0;
  for (int shift = 0; k > 0; shift += 32, k -= 32) {
    uint32_t w = g.next32();
    if (k < 32) w >>= (32 - k);
    r |= UInt(w) << shift;
  }
  return r;
}

// _randbelow_with_getrandbits: uniform in [0, n), 1 <= n <= 2**64.
uint64_t randomBelow(rnd::MT19937 &g, UInt n) {
  int k = 0;
  for (UInt m = n; m; m >>= 1) ++k;
  UInt r = randomBits(g, k);
  while (r >= n) r = randomBits(g, k);
  return uint64_t(r);
}

// Python's floor division.
Int floorDiv(Int a, Int b) {
  Int q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

int32_t emptyRange(Int start, Int stop, Int width) {
  char message[160];
  std::snprintf(message, sizeof message, "empty range for randrange() (%lld, %lld, %lld)", (long long)start,
                (long long)stop, (long long)width);
  return fail(ExcKind::ValueError, message);
}

// random.randrange(start, stop, step) on Python integers; the result is in int64.
int32_t randrange(Int start, Int stop, Int step, bool hasStop, int64_t *out) {
  rnd::MT19937 &g = py();
  if (!hasStop) {
    if (start > 0) {
      *out = int64_t(randomBelow(g, UInt(start)));
      return 0;
    }
    return fail(ExcKind::ValueError, "empty range for randrange()");
  }
  Int width = stop - start;
  if (step == 1) {
    if (width > 0) {
      *out = int64_t(start + Int(randomBelow(g, UInt(width))));
      return 0;
    }
    return emptyRange(start, stop, width);
  }
  Int n;
  if (step > 0) n = floorDiv(width + step - 1, step);
  else if (step < 0) n = floorDiv(width + step + 1, step);
  else return fail(ExcKind::ValueError, "zero step for randrange()");
  if (n <= 0) return fail(ExcKind::ValueError, "empty range for randrange()");
  *out = int64_t(start + step * Int(randomBelow(g, UInt(n))));
  return 0;
}

} // namespace

extern "C" {

// random.seed(n): |n| as little-endian 32-bit words (one zero word for 0).
void mahou_rt_py_seed(int64_t n, int32_t isUnsigned) {
  uint64_t magnitude = isUnsigned || n >= 0 ? uint64_t(n) : 0 - uint64_t(n);
  uint32_t key[2] = {uint32_t(magnitude), uint32_t(magnitude >> 32)};
  py().seedByArray(key, key[1] ? 2 : 1);
}

void mahou_rt_py_seed_entropy() { py().seedFromEntropy(); }

double mahou_rt_py_random() { return py().nextDouble(); }

int32_t mahou_rt_py_getrandbits(int64_t k, uint64_t *out) {
  if (k < 0) return fail(ExcKind::ValueError, "number of bits must be non-negative");
  if (k > 64) return fail(ExcKind::OverflowError, "getrandbits() limited to 64 bits");
  *out = k == 0 ? 0 : uint64_t(randomBits(py(), int(k)));
  return 0;
}

// randrange(stop) (hasStop 0), randrange(start, stop[, step]).
int32_t mahou_rt_py_randrange(int64_t start, int64_t stop, int64_t step, int32_t hasStop, int64_t *out) {
  return randrange(start, stop, step, hasStop != 0, out);
}

// randint(a, b) is randrange(a, b + 1).
int32_t mahou_rt_py_randint(int64_t a, int64_t b, int64_t *out) { return randrange(a, Int(b) + 1, 1, true, out); }

// gauss(mu, sigma): Box-Muller pairs, the second kept for the next call.
double mahou_rt_py_gauss(double mu, double sigma) {
  rnd::MT19937 &g = py();
  double z;
  if (g.hasGauss) {
    z = g.gauss;
    g.hasGauss = false;
  } else {
    double x2pi = g.nextDouble() * (2 * 3.141592653589793);
    double g2rad = std::sqrt(-2.0 * std::log(1.0 - g.nextDouble()));
    z = std::cos(x2pi) * g2rad;
    g.gauss = std::sin(x2pi) * g2rad;
    g.hasGauss = true;
  }
  return mu + z * sigma;
}

// normalvariate(mu, sigma): Kinderman and Monahan's ratio of uniforms.
double mahou_rt_py_normalvariate(double mu, double sigma) {
  rnd::MT19937 &g = py();
  const double magic = 4 * std::exp(-0.5) / std::sqrt(2.0); // NV_MAGICCONST
  double z;
  for (;;) {
    double u1 = g.nextDouble();
    double u2 = 1.0 - g.nextDouble();
    z = magic * (u1 - 0.5) / u2;
    double zz = z * z / 4.0;
    if (zz <= -std::log(u2)) break;
  }
  return mu + z * sigma;
}

} // extern "C"
