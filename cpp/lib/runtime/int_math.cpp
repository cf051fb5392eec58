// Integer arithmetic too rare for inline code: pow(a, b, m) with Python's rules.
#include "mahou/runtime.h"
#include "mahou/types.h"

namespace {

// a mod m in [0, m) for m > 0.
int64_t floorMod(int64_t a, int64_t m) {
  int64_t r = a % m;
  return r < 0 ? r + m : r;
}

int64_t mulMod(int64_t a, int64_t b, int64_t m) { // a, b in [0, m)
  return int64_t((unsigned __int128)(uint64_t)a * (uint64_t)b % (uint64_t)m);
}

} // namespace

extern "C" int32_t mahou_rt_powmod(int64_t a, int64_t b, int64_t m, int64_t *out) {
  if (m == 0) {
    mahou_rt_set_error(int32_t(mahou::types::ExcKind::ValueError), "pow() 3rd argument cannot be 0");
    return 1;
  }
  // |m| as unsigned arithmetic would overflow for INT64_MIN: Python's ints do not, ours
  // work modulo |m| <= 2^63 - 1 except that one value, which is refused.
  if (m == INT64_MIN) {
    mahou_rt_set_error(int32_t(mahou::types::ExcKind::OverflowError), "pow() modulus does not fit in int64");
    return 1;
  }
  int64_t mod = m < 0 ? -m : m;
  int64_t base = floorMod(a, mod);
  if (b < 0) { // the modular inverse of a, by the extended Euclidean algorithm
    __int128 t = 0, newT = 1, r = mod, newR = base;
    while (newR != 0) {
      __int128 q = r / newR, tmp = t - q * newT;
      t = newT;
      newT = tmp;
      tmp = r - q * newR;
      r = newR;
      newR = tmp;
    }
    if (r != 1 && mod != 1) {
      mahou_rt_set_error(int32_t(mahou::types::ExcKind::ValueError), "base is not invertible for the given modulus");
      return 1;
    }
    base = floorMod(int64_t(t % mod), mod);
  }
  // |b|, without overflowing for INT64_MIN (2^63 = (2^63 - 1) + 1: one more factor).
  bool extraFactor = b == INT64_MIN;
  if (b < 0) b = extraFactor ? INT64_MAX : -b;
  int64_t result = 1 % mod;
  for (int64_t e = b, x = base; e > 0; e >>= 1) {
    if (e & 1) result = mulMod(result, x, mod);
    x = mulMod(x, x, mod);
  }
  if (extraFactor) result = mulMod(result, base, mod);
  if (m < 0 && result != 0) result += m; // the sign of the modulus, as Python's %
  *out = result;
  return 0;
}
