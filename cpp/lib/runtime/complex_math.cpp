// cmath and NumPy functions of complex numbers that have no closed form worth inlining
// (complex_functions.def): complex128 in (re, im), result written to out[0], out[1].
// std::complex's functions are C99's (glibc's csin, casin, ...), which NumPy calls too.
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
void mahou_rt_csin(double re, double im, double *out) { put(std::sin(std::complex<double>(re, im)), out); }
void mahou_rt_ccos(double re, double im, double *out) { put(std::cos(std::complex<double>(re, im)), out); }
void mahou_rt_ctan(double re, double im, double *out) { put(std::tan(std::complex<double>(re, im)), out); }
void mahou_rt_casin(double re, double im, double *out) { put(std::asin(std::complex<double>(re, im)), out); }
void mahou_rt_cacos(double re, double im, double *out) { put(std::acos(std::complex<double>(re, im)), out); }
void mahou_rt_catan(double re, double im, double *out) { put(std::atan(std::complex<double>(re, im)), out); }
void mahou_rt_csinh(double re, double im, double *out) { put(std::sinh(std::complex<double>(re, im)), out); }
void mahou_rt_ccosh(double re, double im, double *out) { put(std::cosh(std::complex<double>(re, im)), out); }
void mahou_rt_ctanh(double re, double im, double *out) { put(std::tanh(std::complex<double>(re, im)), out); }
void mahou_rt_casinh(double re, double im, double *out) { put(std::asinh(std::complex<double>(re, im)), out); }
void mahou_rt_cacosh(double re, double im, double *out) { put(std::acosh(std::complex<double>(re, im)), out); }
void mahou_rt_catanh(double re, double im, double *out) { put(std::atanh(std::complex<double>(re, im)), out); }

// cmath's: C99's values (above) where CPython's special-value tables agree; where C99
// leaves a sign open, or names another value for a NaN input, CPython's value.
void mahou_rt_cmath_sinh(double re, double im, double *out) {
  mahou_rt_csinh(re, im, out);
  if (re == 0.0 && std::isnan(im)) out[0] = 0.0;
}
void mahou_rt_cmath_cosh(double re, double im, double *out) {
  mahou_rt_ccosh(re, im, out);
  if (std::isnan(re) && im == 0.0) out[1] = 0.0;
}
void mahou_rt_cmath_tanh(double re, double im, double *out) {
  mahou_rt_ctanh(re, im, out);
  if (re == 0.0 && std::isnan(im)) out[0] = out[1] = std::nan("");
  if (std::isinf(re) && std::isinf(im)) out[1] = 0.0;
}
void mahou_rt_cmath_asinh(double re, double im, double *out) { mahou_rt_casinh(re, im, out); }
void mahou_rt_cmath_acosh(double re, double im, double *out) {
  mahou_rt_cacosh(re, im, out);
  if (re == 0.0 && std::isnan(im)) out[0] = out[1] = std::nan("");
}
void mahou_rt_cmath_atanh(double re, double im, double *out) { mahou_rt_catanh(re, im, out); }
void mahou_rt_cmath_acos(double re, double im, double *out) {
  mahou_rt_cacos(re, im, out);
  if (std::isinf(re) && std::isnan(im)) out[1] = std::fabs(out[1]);
}
// CPython's identities: f(z) = -i g(iz), iz = (-im, re), -i (a + bi) = (b, -a). CPython's
// tables do not see a NaN's sign, C99's functions do: -im of a NaN is a positive NaN.
namespace {
double negated(double x) { return std::isnan(x) ? std::fabs(x) : -x; }
} // namespace
void mahou_rt_cmath_sin(double re, double im, double *out) {
  double s[2];
  mahou_rt_cmath_sinh(negated(im), re, s);
  out[0] = s[1];
  out[1] = -s[0];
}
void mahou_rt_cmath_cos(double re, double im, double *out) { mahou_rt_cmath_cosh(negated(im), re, out); }
void mahou_rt_cmath_tan(double re, double im, double *out) {
  double t[2];
  mahou_rt_cmath_tanh(negated(im), re, t);
  out[0] = t[1];
  out[1] = -t[0];
}
void mahou_rt_cmath_asin(double re, double im, double *out) {
  double s[2];
  mahou_rt_cmath_asinh(negated(im), re, s);
  out[0] = s[1];
  out[1] = -s[0];
}
void mahou_rt_cmath_atan(double re, double im, double *out) {
  double s[2];
  mahou_rt_cmath_atanh(negated(im), re, s);
  out[0] = s[1];
  out[1] = -s[0];
}

// NumPy's formulas for the rest (numpy/_core/src/umath/funcs.inc.src), part by part.
void mahou_rt_cexp2(double re, double im, double *out) { mahou_rt_cexp(re * M_LN2, im * M_LN2, out); }
void mahou_rt_clog2(double re, double im, double *out) {
  mahou_rt_clog(re, im, out);
  out[0] *= M_LOG2E;
  out[1] *= M_LOG2E;
}
void mahou_rt_clog10(double re, double im, double *out) {
  mahou_rt_clog(re, im, out);
  out[0] *= M_LOG10E;
  out[1] *= M_LOG10E;
}
void mahou_rt_cexpm1(double re, double im, double *out) {
  double a = std::sin(im / 2);
  out[0] = std::expm1(re) * std::cos(im) - 2 * a * a;
  out[1] = std::exp(re) * std::sin(im);
}
void mahou_rt_clog1p(double re, double im, double *out) {
  double l = std::hypot(re + 1, im);
  out[1] = std::atan2(im, re + 1);
  out[0] = std::log(l);
}
// np.sign (NumPy 2): z / |z|; 0 for 0, nan for nan; an infinite part gives its direction
// (nan when both are infinite).
void mahou_rt_csign(double re, double im, double *out) {
  double abs = std::hypot(re, im);
  if (std::isnan(abs)) {
    out[0] = out[1] = std::nan("");
  } else if (std::isinf(abs)) {
    if (std::isinf(re) && std::isinf(im)) {
      out[0] = out[1] = std::nan("");
    } else if (std::isinf(re)) {
      out[0] = re > 0 ? 1.0 : -1.0;
      out[1] = 0.0;
    } else {
      out[0] = 0.0;
      out[1] = im > 0 ? 1.0 : -1.0;
    }
  } else if (abs == 0.0) {
    out[0] = out[1] = 0.0;
  } else {
    out[0] = re / abs;
    out[1] = im / abs;
  }
}

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
