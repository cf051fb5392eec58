// NumPy's random distributions (the algorithms of numpy/random/src/distributions, used by
// np.random.Generator and, where RandomState kept them, by np.random's legacy functions),
// written once as templates over a bit source: any G with next32(), next64() and
// nextDouble(), as NumPy's bitgen_t. The floating-point operations are NumPy's, in its
// order, so that one stream gives NumPy's numbers bit for bit.
#pragma once

#include <cmath>
#include <cstdint>

namespace mahou::runtime::random {

#include "ziggurat_tables.inc"

constexpr double kPi = 3.14159265358979323846;

template <class G> float nextFloat(G &g) { return float(g.next32() >> 8) * (1.0f / 16777216.0f); }

// ---- the ziggurats: standard exponential and normal, in double and float
template <class G> double standardExponential(G &g);

template <class G> double exponentialTail(G &g, unsigned idx, double x) {
  if (idx == 0) return kExpR - std::log1p(-g.nextDouble()); // 1 - U: never log(0)
  if ((kExpF[idx - 1] - kExpF[idx]) * g.nextDouble() + kExpF[idx] < std::exp(-x)) return x;
  return standardExponential(g);
}

template <class G> double standardExponential(G &g) {
  uint64_t ri = g.next64() >> 3;
  unsigned idx = unsigned(ri & 0xff);
  ri >>= 8;
  double x = double(ri) * kExpW[idx];
  if (ri < kExpK[idx]) return x;
  return exponentialTail(g, idx, x);
}

template <class G> float standardExponentialF(G &g);

template <class G> float exponentialTailF(G &g, unsigned idx, float x) {
  if (idx == 0) return kExpRf - log1pf(-nextFloat(g));
  if ((kExpFf[idx - 1] - kExpFf[idx]) * nextFloat(g) + kExpFf[idx] < expf(-x)) return x;
  return standardExponentialF(g);
}

template <class G> float standardExponentialF(G &g) {
  uint32_t ri = g.next32() >> 1;
  unsigned idx = ri & 0xff;
  ri >>= 8;
  float x = float(ri) * kExpWf[idx];
  if (ri < kExpKf[idx]) return x;
  return exponentialTailF(g, idx, x);
}

template <class G> double standardNormal(G &g) {
  for (;;) {
    uint64_t r = g.next64();
    unsigned idx = unsigned(r & 0xff);
    r >>= 8;
    bool negative = r & 1;
    uint64_t rabs = (r >> 1) & 0x000fffffffffffffULL;
    double x = double(rabs) * kNormW[idx];
    if (negative) x = -x;
    if (rabs < kNormK[idx]) return x;
    if (idx == 0) { // the tail beyond r (Marsaglia's method)
      for (;;) {
        double xx = -kNormInvR * std::log1p(-g.nextDouble());
        double yy = -std::log1p(-g.nextDouble());
        if (yy + yy > xx * xx) return ((rabs >> 8) & 1) ? -(kNormR + xx) : kNormR + xx;
      }
    }
    if ((kNormF[idx - 1] - kNormF[idx]) * g.nextDouble() + kNormF[idx] < std::exp(-0.5 * x * x)) return x;
  }
}

template <class G> float standardNormalF(G &g) {
  for (;;) {
    uint32_t r = g.next32();
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

// ---- gamma and what is made of it
// Marsaglia and Tsang's method above shape 1; Johnk-like rejection below. The legacy
// version (random_legacy.h) is the same with the polar normal and -log(1 - U) exponential.
template <class G> double standardGamma(G &g, double shape) {
  if (shape == 1.0) return standardExponential(g);
  if (shape == 0.0) return 0.0;
  if (shape < 1.0) {
    for (;;) {
      double u = g.nextDouble();
      double v = standardExponential(g);
      if (u <= 1.0 - shape) {
        double x = std::pow(u, 1. / shape);
        if (x <= v) return x;
      } else {
        double y = -std::log((1 - u) / shape);
        double x = std::pow(1.0 - shape + shape * y, 1. / shape);
        if (x <= v + y) return x;
      }
    }
  }
  double b = shape - 1. / 3.;
  double c = 1. / std::sqrt(9 * b);
  for (;;) {
    double x, v;
    do {
      x = standardNormal(g);
      v = 1.0 + c * x;
    } while (v <= 0.0);
    v = v * v * v;
    double u = g.nextDouble();
    if (u < 1.0 - 0.0331 * (x * x) * (x * x)) return b * v;
    if (std::log(u) < 0.5 * x * x + b * (1. - v + std::log(v))) return b * v;
  }
}

template <class G> float standardGammaF(G &g, float shape) {
  if (shape == 1.0f) return standardExponentialF(g);
  if (shape == 0.0f) return 0.0f;
  if (shape < 1.0f) {
    for (;;) {
      float u = nextFloat(g);
      float v = standardExponentialF(g);
      if (u <= 1.0f - shape) {
        float x = powf(u, 1.0f / shape);
        if (x <= v) return x;
      } else {
        float y = -logf((1.0f - u) / shape);
        float x = powf(1.0f - shape + shape * y, 1.0f / shape);
        if (x <= v + y) return x;
      }
    }
  }
  float b = shape - 1.0f / 3.0f;
  float c = 1.0f / sqrtf(9.0f * b);
  for (;;) {
    float x, v;
    do {
      x = standardNormalF(g);
      v = 1.0f + c * x;
    } while (v <= 0.0f);
    v = v * v * v;
    float u = nextFloat(g);
    if (u < 1.0f - 0.0331f * (x * x) * (x * x)) return b * v;
    if (logf(u) < 0.5f * x * x + b * (1.0f - v + logf(v))) return b * v;
  }
}

template <class G> double gamma(G &g, double shape, double scale) { return scale * standardGamma(g, shape); }

template <class G> double beta(G &g, double a, double b) {
  if (a <= 1.0 && b <= 1.0) {
    if (a < 3e-103 && b < 3e-103) { // both tiny: the result is 0 or 1 but for ~1e-100
      double u = g.nextDouble();
      return (a + b) * u < a;
    }
    for (;;) { // Johnk's algorithm
      double u = g.nextDouble(), v = g.nextDouble();
      double x = std::pow(u, 1.0 / a), y = std::pow(v, 1.0 / b);
      double xpy = x + y;
      if (xpy <= 1.0 && u + v > 0.0) {
        if (x > 0 && y > 0) return x / xpy;
        // x or y underflowed: the ratio from logarithms
        double logX = std::log(u) / a, logY = std::log(v) / b;
        double delta = logX - logY;
        if (delta > 0) return std::exp(-std::log1p(std::exp(-delta)));
        return std::exp(delta - std::log1p(std::exp(delta)));
      }
    }
  }
  double ga = standardGamma(g, a);
  double gb = standardGamma(g, b);
  return ga / (ga + gb);
}

template <class G> double chisquare(G &g, double df) { return 2.0 * standardGamma(g, df / 2.0); }

template <class G> double fDist(G &g, double dfnum, double dfden) {
  double num = chisquare(g, dfnum) * dfden;
  double den = chisquare(g, dfden) * dfnum;
  return num / den;
}

template <class G> double standardCauchy(G &g) {
  double num = standardNormal(g);
  double den = standardNormal(g);
  return num / den;
}

template <class G> double normal(G &g, double loc, double scale) { return loc + scale * standardNormal(g); }
template <class G> double exponential(G &g, double scale) { return scale * standardExponential(g); }
template <class G> double uniform(G &g, double low, double range) { return low + range * g.nextDouble(); }
template <class G> double pareto(G &g, double a) { return std::expm1(standardExponential(g) / a); }

template <class G> double weibull(G &g, double a) {
  if (a == 0.0) return 0.0;
  return std::pow(standardExponential(g), 1. / a);
}

template <class G> double power(G &g, double a) { return std::pow(-std::expm1(-standardExponential(g)), 1. / a); }

template <class G> double laplace(G &g, double loc, double scale) {
  for (;;) {
    double u = g.nextDouble();
    if (u >= 0.5) return loc - scale * std::log(2.0 - u - u);
    if (u > 0.0) return loc + scale * std::log(u + u);
    // u == 0: draw again
  }
}

template <class G> double gumbel(G &g, double loc, double scale) {
  for (;;) {
    double u = 1.0 - g.nextDouble();
    if (u < 1.0) return loc - scale * std::log(-std::log(u));
  }
}

template <class G> double logistic(G &g, double loc, double scale) {
  for (;;) {
    double u = g.nextDouble();
    if (u > 0.0) return loc + scale * std::log(u / (1.0 - u));
  }
}

template <class G> double lognormal(G &g, double mean, double sigma) { return std::exp(normal(g, mean, sigma)); }
template <class G> double rayleigh(G &g, double mode) { return mode * std::sqrt(2.0 * standardExponential(g)); }

template <class G> double standardT(G &g, double df) {
  double num = standardNormal(g);
  double den = standardGamma(g, df / 2);
  return std::sqrt(df / 2) * num / std::sqrt(den);
}

// log(Gamma(x)) as NumPy computes it (Zhang and Jin's series; exact 0 at 1 and 2).
inline double loggam(double x) {
  static const double a[10] = {8.333333333333333e-02, -2.777777777777778e-03, 7.936507936507937e-04,
                               -5.952380952380952e-04, 8.417508417508418e-04, -1.917526917526918e-03,
                               6.410256410256410e-03, -2.955065359477124e-02, 1.796443723688307e-01,
                               -1.39243221690590e+00};
  if (x == 1.0 || x == 2.0) return 0.0;
  int64_t n = x < 7.0 ? int64_t(7 - x) : 0;
  double x0 = x + double(n);
  double x2 = (1.0 / x0) * (1.0 / x0);
  const double lg2pi = 1.8378770664093453e+00;
  double gl0 = a[9];
  for (int k = 8; k >= 0; --k) {
    gl0 *= x2;
    gl0 += a[k];
  }
  double gl = gl0 / x0 + 0.5 * lg2pi + (x0 - 0.5) * std::log(x0) - x0;
  if (x < 7.0) {
    for (int64_t k = 1; k <= n; ++k) {
      gl -= std::log(x0 - 1.0);
      x0 -= 1.0;
    }
  }
  return gl;
}

// ---- Poisson: multiplication below lam 10, Hoermann's transformed rejection above
template <class G> int64_t poissonMult(G &g, double lam) {
  double enlam = std::exp(-lam), prod = 1.0;
  int64_t x = 0;
  for (;;) {
    prod *= g.nextDouble();
    if (prod > enlam) ++x;
    else return x;
  }
}

template <class G> int64_t poissonPtrs(G &g, double lam) {
  double slam = std::sqrt(lam), loglam = std::log(lam);
  double b = 0.931 + 2.53 * slam;
  double a = -0.059 + 0.02483 * b;
  double invalpha = 1.1239 + 1.1328 / (b - 3.4);
  double vr = 0.9277 - 3.6224 / (b - 2);
  for (;;) {
    double u = g.nextDouble() - 0.5;
    double v = g.nextDouble();
    double us = 0.5 - std::fabs(u);
    int64_t k = int64_t(std::floor((2 * a / us + b) * u + lam + 0.43));
    if (us >= 0.07 && v <= vr) return k;
    if (k < 0 || (us < 0.013 && v > us)) continue;
    if (std::log(v) + std::log(invalpha) - std::log(a / (us * us) + b) <=
        -lam + double(k) * loglam - loggam(double(k) + 1))
      return k;
  }
}

template <class G> int64_t poisson(G &g, double lam) {
  if (lam >= 10) return poissonPtrs(g, lam);
  if (lam == 0) return 0;
  return poissonMult(g, lam);
}

template <class G> int64_t negativeBinomial(G &g, double n, double p) {
  double y = gamma(g, n, (1 - p) / p);
  return poisson(g, y);
}

// ---- binomial: inversion for small means, BTPE (Kachitvichyanukul and Schmeiser) else.
// NumPy caches the set-up per (n, p); it is recomputed here, to the same values.
// Inversion: `legacy` selects RandomState's q**n as exp(n log q). BTPE: `corrected` is
// NumPy 2.5's, which subtracts the last two Stirling terms with the coefficient 13860;
// RandomState's (and every Generator's before 2.5) adds them with 13680.
template <class G> int64_t binomialInversion(G &g, int64_t n, double p, bool legacy) {
  double q = 1.0 - p;
  double qn = legacy ? std::exp(double(n) * std::log(q)) : std::exp(double(n) * std::log1p(-p));
  double np = double(n) * p;
  double boundD = np + 10.0 * std::sqrt(np * q + 1);
  int64_t bound = int64_t(double(n) < boundD ? double(n) : boundD);
  int64_t x = 0;
  double px = qn;
  double u = g.nextDouble();
  while (u > px) {
    ++x;
    if (x > bound) {
      x = 0;
      px = qn;
      u = g.nextDouble();
    } else {
      u -= px;
      px = (double(n - x + 1) * p * px) / (double(x) * q);
    }
  }
  return x;
}

inline double stirlingTerm(double v, double v2) {
  return (13860. - (462. - (132. - (99. - 140. / v2) / v2) / v2) / v2) / v / 166320.;
}
inline double stirlingTermLegacy(double v, double v2) { // RandomState's constant 13680
  return (13680. - (462. - (132. - (99. - 140. / v2) / v2) / v2) / v2) / v / 166320.;
}

template <class G> int64_t binomialBtpe(G &g, int64_t n, double p, bool corrected) {
  double r = p < 1.0 - p ? p : 1.0 - p;
  double q = 1.0 - r;
  double fm = double(n) * r + r;
  int64_t m = int64_t(std::floor(fm));
  double p1 = std::floor(2.195 * std::sqrt(double(n) * r * q) - 4.6 * q) + 0.5;
  double xm = double(m) + 0.5;
  double xl = xm - p1, xr = xm + p1;
  double c = 0.134 + 20.5 / (15.3 + double(m));
  double a = (fm - xl) / (fm - xl * r);
  double laml = a * (1.0 + a / 2.0);
  a = (xr - fm) / (xr * q);
  double lamr = a * (1.0 + a / 2.0);
  double p2 = p1 * (1.0 + 2.0 * c);
  double p3 = p2 + c / laml;
  double p4 = p3 + c / lamr;
  int64_t y;
  for (;;) { // step 10
    double nrq = double(n) * r * q;
    double u = g.nextDouble() * p4;
    double v = g.nextDouble();
    if (u <= p1) {
      y = int64_t(std::floor(xm - p1 * v + u));
      break; // step 60
    }
    if (u <= p2) { // step 20
      double x = xl + (u - p1) / c;
      v = v * c + 1.0 - std::fabs(double(m) - x + 0.5) / p1;
      if (v > 1.0) continue;
      y = int64_t(std::floor(x));
    } else if (u <= p3) { // step 30
      y = int64_t(std::floor(xl + std::log(v) / laml));
      if (y < 0 || v == 0.0) continue;
      v = v * (u - p2) * laml;
    } else { // step 40
      y = int64_t(std::floor(xr - std::log(v) / lamr));
      if (y > n || v == 0.0) continue;
      v = v * (u - p3) * lamr;
    }
    // step 50
    int64_t k = y > m ? y - m : m - y;
    if (!(k > 20 && double(k) < nrq / 2.0 - 1)) {
      double s = r / q;
      double aa = s * double(n + 1);
      double f = 1.0;
      if (m < y) {
        for (int64_t i = m + 1; i <= y; ++i) f *= (aa / double(i) - s);
      } else if (m > y) {
        for (int64_t i = y + 1; i <= m; ++i) f /= (aa / double(i) - s);
      }
      if (v > f) continue;
      break;
    }
    // step 52
    double kd = double(k);
    double rho = (kd / nrq) * ((kd * (kd / 3.0 + 0.625) + 0.16666666666666666) / nrq + 0.5);
    double t = double(-k * k) / (2 * nrq); // the square in integers, as NumPy's
    double aLog = std::log(v);
    if (aLog < t - rho) break;
    if (aLog > t + rho) continue;
    double x1 = double(y) + 1, f1 = double(m) + 1;
    double z = double(n) + 1 - double(m), w = double(n) - double(y) + 1;
    double x2 = x1 * x1, f2 = f1 * f1, z2 = z * z, w2 = w * w;
    double bound = xm * std::log(f1 / x1) + (double(n - m) + 0.5) * std::log(z / w) +
                   double(y - m) * std::log(w * r / (x1 * q));
    if (corrected)
      bound = bound + stirlingTerm(f1, f2) + stirlingTerm(z, z2) - stirlingTerm(x1, x2) - stirlingTerm(w, w2);
    else
      bound = bound + stirlingTermLegacy(f1, f2) + stirlingTermLegacy(z, z2) + stirlingTermLegacy(x1, x2) +
              stirlingTermLegacy(w, w2);
    if (aLog > bound) continue;
    break;
  }
  if (p > 0.5) y = n - y; // step 60
  return y;
}

// Generator.binomial (random_binomial, with NumPy 2.5's BTPE if `corrected`); the legacy
// one is in random_legacy.h.
template <class G> int64_t binomial(G &g, double p, int64_t n, bool corrected) {
  if (n == 0 || p == 0.0f) return 0;
  if (p <= 0.5) {
    if (p * double(n) <= 30.0) return binomialInversion(g, n, p, false);
    return binomialBtpe(g, n, p, corrected);
  }
  double q = 1.0 - p;
  if (q * double(n) <= 30.0) return n - binomialInversion(g, n, q, false);
  return n - binomialBtpe(g, n, q, corrected);
}

// The NumPy release whose algorithms differ by version (major * 100 + minor; the binding
// sets it from numpy.__version__): 2.5 corrected BTPE and changed RandomState.multinomial.
int numpyVersion();

template <class G> double noncentralChisquare(G &g, double df, double nonc) {
  if (std::isnan(nonc)) return NAN;
  if (nonc == 0) return chisquare(g, df);
  if (1 < df) {
    double chi2 = chisquare(g, df - 1);
    double n = standardNormal(g) + std::sqrt(nonc);
    return chi2 + n * n;
  }
  int64_t i = poisson(g, nonc / 2.0);
  return chisquare(g, df + 2 * double(i));
}

template <class G> double noncentralF(G &g, double dfnum, double dfden, double nonc) {
  double t = noncentralChisquare(g, dfnum, nonc) * dfden;
  return t / (chisquare(g, dfden) * dfnum);
}

template <class G> double wald(G &g, double mean, double scale) {
  double y = standardNormal(g);
  y = mean * y * y;
  double d = 1 + std::sqrt(1 + 4 * scale / y);
  double x = mean * (1 - 2 / d);
  double u = g.nextDouble();
  if (u <= mean / (mean + x)) return x;
  return mean * mean / x;
}

// The shared tail of both von Mises samplers: Best and Fisher's rejection given s.
template <class G> double vonmisesCore(G &g, double mu, double kappa, double s) {
  double w;
  for (;;) {
    double u = g.nextDouble();
    double z = std::cos(kPi * u);
    w = (1 + s * z) / (s + z);
    double y = kappa * (s - w);
    double v = g.nextDouble();
    if (y * (2 - y) - v >= 0 || std::log(y / v) + 1 - y >= 0) break;
  }
  double u = g.nextDouble();
  double result = std::acos(w);
  if (u < 0.5) result = -result;
  result += mu;
  bool neg = result < 0;
  double mod = std::fabs(result);
  mod = std::fmod(mod + kPi, 2 * kPi) - kPi;
  if (neg) mod *= -1;
  return mod;
}

// `legacy`: RandomState's version, without the wrapped-normal path above kappa 1e6.
template <class G> double vonmises(G &g, double mu, double kappa, bool legacy) {
  if (std::isnan(kappa)) return NAN;
  if (kappa < 1e-8) return kPi * (2 * g.nextDouble() - 1);
  double s;
  if (kappa < 1e-5) {
    s = 1. / kappa + kappa;
  } else if (legacy || kappa <= 1e6) {
    double r = 1 + std::sqrt(1 + 4 * kappa * kappa);
    double rho = (r - std::sqrt(2 * r)) / (2 * kappa);
    s = (1 + rho * rho) / (2 * rho);
  } else {
    double result = mu + std::sqrt(1. / kappa) * standardNormal(g);
    if (result < -kPi) result += 2 * kPi;
    if (result > kPi) result -= 2 * kPi;
    return result;
  }
  return vonmisesCore(g, mu, kappa, s);
}

template <class G> int64_t logseries(G &g, double p) {
  double r = std::log1p(-p);
  for (;;) {
    double v = g.nextDouble();
    if (v >= p) return 1;
    double u = g.nextDouble();
    double q = -std::expm1(r * u);
    if (v <= q * q) {
      int64_t result = int64_t(std::floor(1 + std::log(v) / std::log(q)));
      if (result < 1 || v == 0.0) continue;
      return result;
    }
    if (v >= q) return 1;
    return 2;
  }
}

template <class G> int64_t geometricSearch(G &g, double p) {
  int64_t x = 1;
  double sum = p, prod = p, q = 1.0 - p;
  double u = g.nextDouble();
  while (u > sum) {
    prod *= q;
    sum += prod;
    ++x;
  }
  return x;
}

template <class G> int64_t geometric(G &g, double p) {
  if (p >= 0.333333333333333333333333) return geometricSearch(g, p);
  double z = std::ceil(-standardExponential(g) / std::log1p(-p));
  if (z >= 9.223372036854776e+18) return INT64_MAX;
  return int64_t(z);
}

template <class G> int64_t zipf(G &g, double a) {
  if (a >= 1025) return 1; // b overflows; a value above 1 has probability < 3e-309
  double am1 = a - 1.0;
  double b = std::pow(2.0, am1);
  double umin = std::pow(double(INT64_MAX), -am1);
  for (;;) {
    double u01 = g.nextDouble();
    double u = u01 * umin + (1 - u01);
    double v = g.nextDouble();
    double x = std::floor(std::pow(u, -1.0 / am1));
    if (x > double(INT64_MAX) || x < 1.0) continue;
    double t = std::pow(1.0 + 1.0 / x, am1);
    if (v * x * (t - 1.0) / (b - 1.0) <= t / b) return int64_t(x);
  }
}

template <class G> double triangular(G &g, double left, double mode, double right) {
  double base = right - left;
  double leftbase = mode - left;
  double ratio = leftbase / base;
  double leftprod = leftbase * base;
  double rightprod = (right - mode) * base;
  double u = g.nextDouble();
  if (u <= ratio) return left + std::sqrt(u * leftprod);
  return right - std::sqrt((1.0 - u) * rightprod);
}

// Uniform in [0, max] by masked rejection (random_interval; RandomState's bounded
// integers draw the same way).
template <class G> uint64_t interval(G &g, uint64_t max) {
  if (max == 0) return 0;
  uint64_t mask = max;
  for (int s = 1; s < 64; s *= 2) mask |= mask >> s;
  uint64_t value;
  if (max <= 0xffffffffULL) {
    while ((value = (g.next32() & mask)) > max) {}
  } else {
    while ((value = (g.next64() & mask)) > max) {}
  }
  return value;
}

// Lemire's nearly divisionless bounded integers: uniform in [0, rng].
template <class G> uint32_t boundedLemire32(G &g, uint32_t rng) { // rng < 2^32 - 1
  const uint32_t excl = rng + 1;
  uint64_t m = uint64_t(g.next32()) * excl;
  uint32_t leftover = uint32_t(m);
  if (leftover < excl) {
    const uint32_t threshold = (UINT32_MAX - rng) % excl;
    while (leftover < threshold) {
      m = uint64_t(g.next32()) * excl;
      leftover = uint32_t(m);
    }
  }
  return uint32_t(m >> 32);
}

template <class G> uint64_t boundedLemire64(G &g, uint64_t rng) { // rng < 2^64 - 1
  const uint64_t excl = rng + 1;
  unsigned __int128 m = (unsigned __int128)g.next64() * excl;
  uint64_t leftover = uint64_t(m);
  if (leftover < excl) {
    const uint64_t threshold = (UINT64_MAX - rng) % excl;
    while (leftover < threshold) {
      m = (unsigned __int128)g.next64() * excl;
      leftover = uint64_t(m);
    }
  }
  return uint64_t(m >> 64);
}

// ---- hypergeometric (Generator): sampling for small samples, Stadlober's HRUA else
double logFactorial(int64_t k); // random_generator.cpp

template <class G> int64_t hypergeometricSample(G &g, int64_t good, int64_t bad, int64_t sample) {
  int64_t total = good + bad;
  int64_t computed = sample > total / 2 ? total - sample : sample;
  int64_t remainingTotal = total, remainingGood = good;
  while (computed > 0 && remainingGood > 0 && remainingTotal > remainingGood) {
    --remainingTotal;
    if (int64_t(interval(g, uint64_t(remainingTotal))) < remainingGood) --remainingGood;
    --computed;
  }
  if (remainingTotal == remainingGood) remainingGood -= computed;
  return sample > total / 2 ? remainingGood : good - remainingGood;
}

template <class G> int64_t hypergeometricHrua(G &g, int64_t good, int64_t bad, int64_t sample) {
  const double d1 = 1.7155277699214135, d2 = 0.8989161620588988;
  int64_t popsize = good + bad;
  int64_t computed = sample < popsize - sample ? sample : popsize - sample;
  int64_t mingb = good < bad ? good : bad, maxgb = good < bad ? bad : good;
  double p = double(mingb) / double(popsize);
  double q = double(maxgb) / double(popsize);
  double mu = double(computed) * p;
  double a = mu + 0.5;
  double var = double(popsize - computed) * double(computed) * p * q / double(popsize - 1);
  double c = std::sqrt(var + 0.5);
  double h = d1 * c + d2;
  int64_t m = int64_t(std::floor(double(computed + 1) * double(mingb + 1) / double(popsize + 2)));
  double gsum = logFactorial(m) + logFactorial(mingb - m) + logFactorial(computed - m) +
                logFactorial(maxgb - computed + m);
  double b1 = double((computed < mingb ? computed : mingb) + 1), b2 = std::floor(a + 16 * c);
  double b = b1 < b2 ? b1 : b2;
  int64_t k;
  for (;;) {
    double u = g.nextDouble();
    double v = g.nextDouble();
    double x = a + h * (v - 0.5) / u;
    if (x < 0.0 || x >= b) continue;
    k = int64_t(std::floor(x));
    double gp = logFactorial(k) + logFactorial(mingb - k) + logFactorial(computed - k) +
                logFactorial(maxgb - computed + k);
    double t = gsum - gp;
    if (u * (4.0 - u) - 3.0 <= t) break;
    if (u * (u - t) >= 1) continue;
    if (2.0 * std::log(u) <= t) break;
  }
  if (good > bad) k = computed - k;
  if (computed < sample) k = good - k;
  return k;
}

template <class G> int64_t hypergeometric(G &g, int64_t good, int64_t bad, int64_t sample) {
  if (sample >= 10 && sample <= good + bad - 10) return hypergeometricHrua(g, good, bad, sample);
  return hypergeometricSample(g, good, bad, sample);
}

} // namespace mahou::runtime::random
