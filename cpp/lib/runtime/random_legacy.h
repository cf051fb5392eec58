// np.random's legacy algorithms (RandomState: numpy/random/src/legacy), kept as NumPy 1.16
// had them so that a seed still gives the same numbers: the polar Gaussian with its
// cached second value, -log(1 - U) exponentials, and the older binomial, hypergeometric,
// zipf, geometric and logseries samplers. Templates over a bit source with the cached
// Gaussian (members hasGauss and gauss), as NumPy's aug_bitgen_t.
#pragma once

#include "random_distributions.h"

namespace mahou::runtime::random::legacy {

template <class G> double gauss(G &g) {
  if (g.hasGauss) {
    double v = g.gauss;
    g.hasGauss = false;
    g.gauss = 0.0;
    return v;
  }
  double x1, x2, r2;
  do {
    x1 = 2.0 * g.nextDouble() - 1.0;
    x2 = 2.0 * g.nextDouble() - 1.0;
    r2 = x1 * x1 + x2 * x2;
  } while (r2 >= 1.0 || r2 == 0.0);
  double f = std::sqrt(-2.0 * std::log(r2) / r2); // Marsaglia's polar method
  g.gauss = f * x1;
  g.hasGauss = true;
  return f * x2;
}

template <class G> double standardExponential(G &g) { return -std::log(1.0 - g.nextDouble()); }

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
      x = gauss(g);
      v = 1.0 + c * x;
    } while (v <= 0.0);
    v = v * v * v;
    double u = g.nextDouble();
    if (u < 1.0 - 0.0331 * (x * x) * (x * x)) return b * v;
    if (std::log(u) < 0.5 * x * x + b * (1. - v + std::log(v))) return b * v;
  }
}

template <class G> double gamma(G &g, double shape, double scale) { return scale * standardGamma(g, shape); }
template <class G> double pareto(G &g, double a) { return std::exp(standardExponential(g) / a) - 1; }

template <class G> double weibull(G &g, double a) {
  if (a == 0.0) return 0.0;
  return std::pow(standardExponential(g), 1. / a);
}

template <class G> double power(G &g, double a) { return std::pow(1 - std::exp(-standardExponential(g)), 1. / a); }
template <class G> double chisquare(G &g, double df) { return 2.0 * standardGamma(g, df / 2.0); }
template <class G> double rayleigh(G &g, double mode) { return mode * std::sqrt(-2.0 * std::log1p(-g.nextDouble())); }

template <class G> double noncentralChisquare(G &g, double df, double nonc) {
  if (nonc == 0) return chisquare(g, df);
  if (1 < df) {
    double chi2 = chisquare(g, df - 1);
    double n = gauss(g) + std::sqrt(nonc);
    return chi2 + n * n;
  }
  int64_t i = random::poisson(g, nonc / 2.0);
  double out = chisquare(g, df + double(2 * i));
  return std::isnan(nonc) ? NAN : out; // after the draws: NumPy's stream is unchanged by the guard
}

template <class G> double noncentralF(G &g, double dfnum, double dfden, double nonc) {
  double t = noncentralChisquare(g, dfnum, nonc) * dfden;
  return t / (chisquare(g, dfden) * dfnum);
}

template <class G> double wald(G &g, double mean, double scale) {
  double mu2l = mean / (2 * scale);
  double y = gauss(g);
  y = mean * y * y;
  double x = mean + mu2l * (y - std::sqrt(4 * scale * y + y * y));
  double u = g.nextDouble();
  if (u <= mean / (mean + x)) return x;
  return mean * mean / x;
}

template <class G> double normal(G &g, double loc, double scale) { return loc + scale * gauss(g); }
template <class G> double lognormal(G &g, double mean, double sigma) { return std::exp(normal(g, mean, sigma)); }

template <class G> double standardT(G &g, double df) {
  double num = gauss(g);
  double den = standardGamma(g, df / 2);
  return std::sqrt(df / 2) * num / std::sqrt(den);
}

template <class G> int64_t negativeBinomial(G &g, double n, double p) {
  double y = gamma(g, n, (1 - p) / p);
  return random::poisson(g, y);
}

template <class G> double standardCauchy(G &g) {
  double num = gauss(g);
  return num / gauss(g);
}

template <class G> double beta(G &g, double a, double b) {
  if (a <= 1.0 && b <= 1.0) {
    for (;;) { // Johnk's algorithm
      double u = g.nextDouble(), v = g.nextDouble();
      double x = std::pow(u, 1.0 / a), y = std::pow(v, 1.0 / b);
      if (x + y <= 1.0) {
        if (x + y > 0) return x / (x + y);
        double logX = std::log(u) / a, logY = std::log(v) / b;
        double logM = logX > logY ? logX : logY;
        logX -= logM;
        logY -= logM;
        return std::exp(logX - std::log(std::exp(logX) + std::exp(logY)));
      }
    }
  }
  double ga = standardGamma(g, a);
  double gb = standardGamma(g, b);
  return ga / (ga + gb);
}

template <class G> double fDist(G &g, double dfnum, double dfden) {
  return (chisquare(g, dfnum) * dfden) / (chisquare(g, dfden) * dfnum);
}

template <class G> double exponential(G &g, double scale) { return scale * standardExponential(g); }

template <class G> int64_t binomial(G &g, double p, int64_t n) {
  if (p <= 0.5) {
    if (p * double(n) <= 30.0) return random::binomialInversion(g, n, p, true);
    return random::binomialBtpe(g, n, p, false);
  }
  double q = 1.0 - p;
  if (q * double(n) <= 30.0) return n - random::binomialInversion(g, n, q, true);
  return n - random::binomialBtpe(g, n, q, false);
}

template <class G> int64_t hypergeometricHyp(G &g, int64_t good, int64_t bad, int64_t sample) {
  int64_t d1 = bad + good - sample;
  double d2 = double(bad < good ? bad : good);
  double y = d2;
  int64_t k = sample;
  while (y > 0.0) {
    double u = g.nextDouble();
    y -= double(int64_t(std::floor(u + y / double(d1 + k))));
    --k;
    if (k == 0) break;
  }
  int64_t z = int64_t(d2 - y);
  if (good > bad) z = sample - z;
  return z;
}

template <class G> int64_t hypergeometricHrua(G &g, int64_t good, int64_t bad, int64_t sample) {
  const double d1c = 1.7155277699214135, d2c = 0.8989161620588988;
  int64_t mingb = good < bad ? good : bad, maxgb = good < bad ? bad : good;
  int64_t popsize = good + bad;
  int64_t m = sample < popsize - sample ? sample : popsize - sample;
  double d4 = double(mingb) / double(popsize);
  double d5 = 1.0 - d4;
  double d6 = double(m) * d4 + 0.5;
  double d7 = std::sqrt(double(popsize - m) * double(sample) * d4 * d5 / double(popsize - 1) + 0.5);
  double d8 = d1c * d7 + d2c;
  int64_t d9 = int64_t(std::floor(double(m + 1) * double(mingb + 1) / double(popsize + 2)));
  double d10 = loggam(double(d9 + 1)) + loggam(double(mingb - d9 + 1)) + loggam(double(m - d9 + 1)) +
               loggam(double(maxgb - m + d9 + 1));
  double lim1 = double(m < mingb ? m : mingb) + 1.0, lim2 = std::floor(d6 + 16 * d7);
  double d11 = lim1 < lim2 ? lim1 : lim2;
  int64_t z;
  for (;;) {
    double x = g.nextDouble();
    double y = g.nextDouble();
    double w = d6 + d8 * (y - 0.5) / x;
    if (w < 0.0 || w >= d11) continue;
    z = int64_t(std::floor(w));
    double t = d10 - (loggam(double(z + 1)) + loggam(double(mingb - z + 1)) + loggam(double(m - z + 1)) +
                      loggam(double(maxgb - m + z + 1)));
    if (x * (4.0 - x) - 3.0 <= t) break;
    if (x * (x - t) >= 1) continue;
    if (2.0 * std::log(x) <= t) break;
  }
  if (good > bad) z = m - z;
  if (m < sample) z = good - z;
  return z;
}

template <class G> int64_t hypergeometric(G &g, int64_t good, int64_t bad, int64_t sample) {
  if (sample > 10) return hypergeometricHrua(g, good, bad, sample);
  if (sample > 0) return hypergeometricHyp(g, good, bad, sample);
  return 0;
}

template <class G> int64_t zipf(G &g, double a) {
  double am1 = a - 1.0;
  double b = std::pow(2.0, am1);
  for (;;) {
    double u = 1.0 - g.nextDouble();
    double v = g.nextDouble();
    double x = std::floor(std::pow(u, -1.0 / am1));
    if (x > double(INT64_MAX) || x < 1.0) continue;
    double t = std::pow(1.0 + 1.0 / x, am1);
    if (v * x * (t - 1.0) / (b - 1.0) <= t / b) return int64_t(x);
  }
}

template <class G> int64_t geometric(G &g, double p) {
  if (p >= 0.333333333333333333333333) return random::geometricSearch(g, p);
  return int64_t(std::ceil(std::log1p(-g.nextDouble()) / std::log(1 - p)));
}

template <class G> int64_t logseries(G &g, double p) {
  double r = std::log(1.0 - p);
  for (;;) {
    double v = g.nextDouble();
    if (v >= p) return 1;
    double u = g.nextDouble();
    double q = 1.0 - std::exp(r * u);
    if (v <= q * q) {
      int64_t result = int64_t(std::floor(1 + std::log(v) / std::log(q)));
      if (result < 1 || v == 0.0) continue;
      return result;
    }
    if (v >= q) return 1;
    return 2;
  }
}

} // namespace mahou::runtime::random::legacy
