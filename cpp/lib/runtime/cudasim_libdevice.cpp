// The cuda.libdevice functions the C library does not have (sinpi, cospi, erfinv,
// erfcinv, erfcx, normcdf, normcdfinv, rsqrt, rcbrt), for kernels on the CUDA emulator;
// on a GPU they are libdevice's own __nv_ functions.
#include "mahou/runtime.h"

#include <cmath>
#include <limits>
#include <string_view>

namespace {

constexpr std::string_view kNames[] = {
#define MAHOU_LIBDEVICE(name, arity, cpu) #name,
#include "mahou/libdevice.def"
#undef MAHOU_LIBDEVICE
};

constexpr double kPi = 3.14159265358979323846;

// sin(pi x) and cos(pi x) with the argument reduced exactly (integers and halves give
// exact zeros and ones, as the libdevice functions do).
double sinpi(double x) {
  if (!std::isfinite(x)) return std::numeric_limits<double>::quiet_NaN();
  double r = std::remainder(x, 2.0); // [-1, 1]
  if (r == 0.0 || std::fabs(r) == 1.0) return std::copysign(0.0, x); // integers: a signed zero
  return std::sin(kPi * r);
}

double cospi(double x) {
  if (!std::isfinite(x)) return std::numeric_limits<double>::quiet_NaN();
  double r = std::fabs(std::remainder(x, 2.0)); // [0, 1]
  if (r == 0.5) return 0.0;
  return std::cos(kPi * r);
}

// erfinv by a rational first guess refined with Newton's method on erf.
double erfinv(double y) {
  if (std::isnan(y) || y < -1 || y > 1) return std::numeric_limits<double>::quiet_NaN();
  if (y == 1) return std::numeric_limits<double>::infinity();
  if (y == -1) return -std::numeric_limits<double>::infinity();
  double w = -std::log((1 - y) * (1 + y)), x;
  if (w < 5) { // Giles' single-precision approximation, then Newton
    w -= 2.5;
    double p = 2.81022636e-08;
    for (double c : {3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503,
                     -0.00417768164, 0.246640727, 1.50140941})
      p = c + p * w;
    x = p * y;
  } else {
    w = std::sqrt(w) - 3;
    double p = -0.000200214257;
    for (double c : {0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613,
                     0.00943887047, 1.00167406, 2.83297682})
      p = c + p * w;
    x = p * y;
  }
  for (int i = 0; i < 3; ++i) // f(x) = erf(x) - y, f'(x) = 2/sqrt(pi) exp(-x^2)
    x -= (std::erf(x) - y) / (2 / std::sqrt(kPi) * std::exp(-x * x));
  return x;
}

double erfcinv(double y) {
  if (std::isnan(y) || y < 0 || y > 2) return std::numeric_limits<double>::quiet_NaN();
  if (y == 0) return std::numeric_limits<double>::infinity();
  if (y == 2) return -std::numeric_limits<double>::infinity();
  if (y > 0.0625 && y < 1.9375) return erfinv(1 - y);
  // Small tails: Newton on erfc directly (erf(x) - (1 - y) loses y's digits).
  double x = y < 1 ? erfinv(1 - y) : -erfinv(y - 1);
  if (!std::isfinite(x)) x = y < 1 ? std::sqrt(-std::log(y)) : -std::sqrt(-std::log(2 - y));
  for (int i = 0; i < 40; ++i) {
    double step = (std::erfc(x) - y) / (-2 / std::sqrt(kPi) * std::exp(-x * x));
    x -= step;
    if (std::fabs(step) <= 1e-16 * std::fabs(x)) break;
  }
  return x;
}

// exp(x^2) erfc(x): the product directly where it does not overflow, else the
// asymptotic series 1/(x sqrt(pi)) (1 - 1/(2x^2) + 3/(4x^4) - ...).
double erfcx(double x) {
  if (x < 25) return std::exp(x * x) * std::erfc(x);
  double inv = 1 / (2 * x * x), term = 1, sum = 1;
  for (int k = 1; k < 8; ++k) {
    term *= -(2 * k - 1) * inv;
    sum += term;
  }
  return sum / (x * std::sqrt(kPi));
}

double normcdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

double normcdfinv(double p) { return -std::sqrt(2.0) * erfcinv(2 * p); }

} // namespace

extern "C" double mahou_rt_libdevice(int32_t which, double x) {
  std::string_view name = which >= 0 && size_t(which) < std::size(kNames) ? kNames[which] : "";
  if (name == "sinpi") return sinpi(x);
  if (name == "cospi") return cospi(x);
  if (name == "erfinv") return erfinv(x);
  if (name == "erfcinv") return erfcinv(x);
  if (name == "erfcx") return erfcx(x);
  if (name == "normcdf") return normcdf(x);
  if (name == "normcdfinv") return normcdfinv(x);
  if (name == "rsqrt") return 1 / std::sqrt(x);
  if (name == "rcbrt") return 1 / std::cbrt(x);
  return std::numeric_limits<double>::quiet_NaN();
}
