// IEEE binary16 (NumPy's float16, CUDA's half) conversions for the host side of
// mahou: boxing and unboxing float16 scalars. Round to nearest even, NaN and
// infinities kept, subnormals exact.
#pragma once

#include <cstdint>
#include <cstring>

namespace mahou {

inline float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
  uint32_t bits;
  if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (mant << 13); // inf or NaN (payload kept)
  } else if (exp != 0) {
    bits = sign | ((exp + 112) << 23) | (mant << 13);
  } else if (mant == 0) {
    bits = sign; // ±0
  } else { // subnormal: normalise
    int shift = 0;
    while (!(mant & 0x400u)) {
      mant <<= 1;
      ++shift;
    }
    bits = sign | (uint32_t(113 - shift) << 23) | ((mant & 0x3ffu) << 13);
  }
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

inline uint16_t floatToHalf(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  uint16_t sign = uint16_t((bits >> 16) & 0x8000u);
  uint32_t exp = (bits >> 23) & 0xffu, mant = bits & 0x7fffffu;
  if (exp == 0xff) // inf or NaN (a NaN stays a quiet NaN)
    return uint16_t(sign | 0x7c00u | (mant ? 0x200u | (mant >> 13) : 0u));
  int e = int(exp) - 127 + 15;
  if (e >= 0x1f)
    return uint16_t(sign | 0x7c00u); // overflow → inf
  if (e <= 0) { // subnormal half (or zero)
    if (e < -10)
      return sign;
    mant |= 0x800000u;
    int shift = 14 - e;
    uint32_t half = mant >> shift, rest = mant & ((1u << shift) - 1), mid = 1u << (shift - 1);
    if (rest > mid || (rest == mid && (half & 1u)))
      ++half;
    return uint16_t(sign | half);
  }
  uint32_t half = (uint32_t(e) << 10) | (mant >> 13), rest = mant & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u)))
    ++half; // may carry into the exponent: still correct (up to inf)
  return uint16_t(sign | half);
}

inline uint16_t doubleToHalf(double d) {
  // Through float, except where the float rounding would change the half result: the
  // float's last bits are made sticky so that a double-rounding tie cannot occur.
  float f = float(d);
  if (double(f) != d) {
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    if ((bits & 0x7f800000u) != 0x7f800000u) {
      if (double(f) > d == (d > 0)) // f was rounded away from zero: step back toward zero
        --bits;
      bits |= 1u; // sticky
      std::memcpy(&f, &bits, sizeof f);
    }
  }
  return floatToHalf(f);
}

} // namespace mahou
