// cmath functions of compiled code that have no closed form worth inlining:
// complex128 in (re, im), result written to out[0], out[1] (std::complex is C99's).
#include "mahou/runtime.h"

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
} // extern "C"
