// Integer arithmetic too rare for inline code: pow(a, b, m) with Python's rules.
#include "mahou/runtime.h"
#include "mahou/types.h"

namespace {

// a mod m in [0, m) for 0 < m <= 2^63.
uint64_t floorMod(int64_t a, uint64_t m) {
  __int128 r = __int128(a) % __int128(m);
  return uint64_t(r < 0 ? r + __int128(m) : r);
}

uint64_t mulMod(uint64_t a, uint64_t b, uint64_t m) { // a, b in [0, m)
  return uint64_t((unsigned __int128)a * b % m);
}

} // namespace

extern "C" int32_t mahou_rt_powmod(int64_t a, int64_t b, int64_t m, int64_t *out) {
  if (m == 0) {
    mahou_rt_set_error(int32_t(mahou::types::ExcKind::ValueError), "pow() 3rd argument cannot be 0");
    return 1;
  }
  // |m| <= 2^63 (INT64_MIN too): the arithmetic is unsigned, the result has m's sign
  // and lies in (m, 0] or [0, m), so it fits int64.
  uint64_t mod = m < 0 ? uint64_t(0) - uint64_t(m) : uint64_t(m);
  uint64_t base = floorMod(a, mod);
  if (b < 0) { // the modular inverse of a, by the extended Euclidean algorithm
    __int128 t = 0, newT = 1, r = __int128(mod), newR = __int128(base);
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
    __int128 inv = t % __int128(mod);
    base = uint64_t(inv < 0 ? inv + __int128(mod) : inv);
  }
  // |b|, without overflowing for INT64_MIN (2^63 = (2^63 - 1) + 1: one more factor).
  bool extraFactor = b == INT64_MIN;
  if (b < 0) b = extraFactor ? INT64_MAX : -b;
  uint64_t result = 1 % mod;
  for (uint64_t e = uint64_t(b), x = base; e > 0; e >>= 1) {
    if (e & 1) result = mulMod(result, x, mod);
    x = mulMod(x, x, mod);
  }
  if (extraFactor) result = mulMod(result, base, mod);
  // The sign of the modulus, as Python's %.
  *out = m < 0 && result != 0 ? int64_t(__int128(result) + m) : int64_t(result);
  return 0;
}
