// cmath functions of compiled code that have no closed form worth inlining:
// complex128 in (re, im), result written to out[0], out[1] (std::complex is C99's).
#include "mahou/runtime.h"

#include <cmath>
#include <complex>

namespace {
void put(std::complex<double> z, double *out) {
  out[0] = z.real();
  out[1] = z.imag();
}
} // namespace

extern "C" {
void mahou_rt_csqrt(double re, double im, double *out) { put(std::sqrt(std::complex<double>(re, im)), out); }
void mahou_rt_cexp(double re, double im, double *out) { put(std::exp(std::complex<double>(re, im)), out); }
void mahou_rt_clog(double re, double im, double *out) { put(std::log(std::complex<double>(re, im)), out); }

// a ** b as CPython's complex power and Numba (which calls it): in polar form, 1 for a
// zero exponent; zero to a negative or complex power is nan (where Python raises).
void mahou_rt_cpow(double ar, double ai, double br, double bi, double *out) {
  if (br == 0.0 && bi == 0.0) {
    out[0] = 1.0;
    out[1] = 0.0;
  } else if (ar == 0.0 && ai == 0.0) {
    bool domainError = bi != 0.0 || br < 0.0;
    out[0] = out[1] = domainError ? std::nan("") : 0.0;
  } else {
    double magnitude = std::hypot(ar, ai);
    double angle = std::atan2(ai, ar);
    double length = std::pow(magnitude, br);
    double phase = angle * br;
    if (bi != 0.0) {
      length /= std::exp(angle * bi);
      phase += bi * std::log(magnitude);
    }
    out[0] = length * std::cos(phase);
    out[1] = length * std::sin(phase);
  }
}
} // extern "C"
