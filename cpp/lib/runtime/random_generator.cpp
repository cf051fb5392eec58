// Draws from a np.random.Generator passed into compiled code: every function takes the
// bit generator's bitgen_t (NumPy's C interface: the state and its next_uint64 /
// next_uint32 / next_double functions) and consumes its stream exactly as NumPy's
// Generator methods do (the algorithms of random_distributions.h), so compiled draws
// equal NumPy's for the same state and the caller's generator continues from where
// compiled code left it. Bounded integers are Lemire's with the 32-bit path NumPy takes
// for ranges that fit in 32 bits; shuffle is Fisher-Yates over random_interval.
#include "random_distributions.h"

#include "mahou/runtime.h"

#include <cstring>

namespace {

namespace rnd = mahou::runtime::random;

struct BitGen { // NumPy's bitgen_t (numpy/random/bitgen.h)
  void *state;
  uint64_t (*next_uint64)(void *);
  uint32_t (*next_uint32)(void *);
  double (*next_double)(void *);
  uint64_t (*next_raw)(void *);

  uint64_t next64() { return next_uint64(state); }
  uint32_t next32() { return next_uint32(state); }
  double nextDouble() { return next_double(state); }
};

BitGen &gen(void *p) { return *static_cast<BitGen *>(p); }

#include "logfactorial_table.inc"

} // namespace

// log(k!): the table below 126, Stirling's series to the 1/k^3 term above (NumPy's).
double mahou::runtime::random::logFactorial(int64_t k) {
  if (k < int64_t(sizeof kLogFactorial / sizeof kLogFactorial[0])) return kLogFactorial[k];
  const double halfln2pi = 0.9189385332046728;
  double kd = double(k);
  return (kd + 0.5) * std::log(kd) - kd + (halfln2pi + (1.0 / kd) * (1 / 12.0 - 1 / (360.0 * kd * kd)));
}

extern "C" {

double mahou_rt_gen_double(void *bitgen) { return gen(bitgen).nextDouble(); }
float mahou_rt_gen_float(void *bitgen) { return rnd::nextFloat(gen(bitgen)); }
double mahou_rt_gen_normal(void *bitgen) { return rnd::standardNormal(gen(bitgen)); }
float mahou_rt_gen_normal_f(void *bitgen) { return rnd::standardNormalF(gen(bitgen)); }
double mahou_rt_gen_exponential(void *bitgen) { return rnd::standardExponential(gen(bitgen)); }
float mahou_rt_gen_exponential_f(void *bitgen) { return rnd::standardExponentialF(gen(bitgen)); }
double mahou_rt_gen_standard_gamma(void *bitgen, double shape) { return rnd::standardGamma(gen(bitgen), shape); }
float mahou_rt_gen_standard_gamma_f(void *bitgen, float shape) { return rnd::standardGammaF(gen(bitgen), shape); }
double mahou_rt_gen_normal_dist(void *bitgen, double loc, double scale) { return rnd::normal(gen(bitgen), loc, scale); }
double mahou_rt_gen_uniform(void *bitgen, double low, double range) { return rnd::uniform(gen(bitgen), low, range); }
double mahou_rt_gen_exponential_dist(void *bitgen, double scale) { return rnd::exponential(gen(bitgen), scale); }
double mahou_rt_gen_gamma(void *bitgen, double shape, double scale) { return rnd::gamma(gen(bitgen), shape, scale); }
double mahou_rt_gen_beta(void *bitgen, double a, double b) { return rnd::beta(gen(bitgen), a, b); }
double mahou_rt_gen_chisquare(void *bitgen, double df) { return rnd::chisquare(gen(bitgen), df); }
double mahou_rt_gen_noncentral_chisquare(void *bitgen, double df, double nonc) {
  return rnd::noncentralChisquare(gen(bitgen), df, nonc);
}
double mahou_rt_gen_f(void *bitgen, double dfnum, double dfden) { return rnd::fDist(gen(bitgen), dfnum, dfden); }
double mahou_rt_gen_noncentral_f(void *bitgen, double dfnum, double dfden, double nonc) {
  return rnd::noncentralF(gen(bitgen), dfnum, dfden, nonc);
}
double mahou_rt_gen_standard_cauchy(void *bitgen) { return rnd::standardCauchy(gen(bitgen)); }
double mahou_rt_gen_standard_t(void *bitgen, double df) { return rnd::standardT(gen(bitgen), df); }
double mahou_rt_gen_vonmises(void *bitgen, double mu, double kappa) { return rnd::vonmises(gen(bitgen), mu, kappa, false); }
double mahou_rt_gen_pareto(void *bitgen, double a) { return rnd::pareto(gen(bitgen), a); }
double mahou_rt_gen_weibull(void *bitgen, double a) { return rnd::weibull(gen(bitgen), a); }
double mahou_rt_gen_power(void *bitgen, double a) { return rnd::power(gen(bitgen), a); }
double mahou_rt_gen_laplace(void *bitgen, double loc, double scale) { return rnd::laplace(gen(bitgen), loc, scale); }
double mahou_rt_gen_gumbel(void *bitgen, double loc, double scale) { return rnd::gumbel(gen(bitgen), loc, scale); }
double mahou_rt_gen_logistic(void *bitgen, double loc, double scale) { return rnd::logistic(gen(bitgen), loc, scale); }
double mahou_rt_gen_lognormal(void *bitgen, double mean, double sigma) { return rnd::lognormal(gen(bitgen), mean, sigma); }
double mahou_rt_gen_rayleigh(void *bitgen, double scale) { return rnd::rayleigh(gen(bitgen), scale); }
double mahou_rt_gen_wald(void *bitgen, double mean, double scale) { return rnd::wald(gen(bitgen), mean, scale); }
double mahou_rt_gen_triangular(void *bitgen, double left, double mode, double right) {
  return rnd::triangular(gen(bitgen), left, mode, right);
}
int64_t mahou_rt_gen_binomial(void *bitgen, int64_t n, double p) {
  return rnd::binomial(gen(bitgen), p, n, rnd::numpyVersion() >= 205);
}
int64_t mahou_rt_gen_negative_binomial(void *bitgen, double n, double p) {
  return rnd::negativeBinomial(gen(bitgen), n, p);
}
int64_t mahou_rt_gen_poisson(void *bitgen, double lam) { return rnd::poisson(gen(bitgen), lam); }
int64_t mahou_rt_gen_zipf(void *bitgen, double a) { return rnd::zipf(gen(bitgen), a); }
int64_t mahou_rt_gen_geometric(void *bitgen, double p) { return rnd::geometric(gen(bitgen), p); }
int64_t mahou_rt_gen_hypergeometric(void *bitgen, int64_t ngood, int64_t nbad, int64_t nsample) {
  return rnd::hypergeometric(gen(bitgen), ngood, nbad, nsample);
}
int64_t mahou_rt_gen_logseries(void *bitgen, double p) { return rnd::logseries(gen(bitgen), p); }

// off + a uniform integer in [0, rng] for the 64-bit dtypes (NumPy's
// random_bounded_uint64_fill with one value): 32-bit draws when the range fits.
uint64_t mahou_rt_gen_bounded64(void *bitgen, uint64_t off, uint64_t rng) {
  BitGen &g = gen(bitgen);
  if (rng == 0) return off;
  if (rng <= 0xffffffffULL) {
    if (rng == 0xffffffffULL) return off + g.next32();
    return off + rnd::boundedLemire32(g, uint32_t(rng));
  }
  if (rng == UINT64_MAX) return off + g.next64();
  return off + rnd::boundedLemire64(g, rng);
}

// The same for the 32-bit dtypes (random_bounded_uint32_fill).
uint32_t mahou_rt_gen_bounded32(void *bitgen, uint32_t off, uint32_t rng) {
  BitGen &g = gen(bitgen);
  if (rng == 0) return off;
  if (rng == 0xffffffffU) return off + g.next32();
  return off + rnd::boundedLemire32(g, rng);
}

// Generator.shuffle of a 1-D array: Fisher-Yates from the last item down to the second.
void mahou_rt_gen_shuffle(void *bitgen, char *data, int64_t n, int64_t stride, int64_t itemsize) {
  BitGen &g = gen(bitgen);
  char buf[16];
  for (int64_t i = n - 1; i >= 1; --i) {
    int64_t j = int64_t(rnd::interval(g, uint64_t(i)));
    std::memcpy(buf, data + j * stride, size_t(itemsize));
    std::memcpy(data + j * stride, data + i * stride, size_t(itemsize));
    std::memcpy(data + i * stride, buf, size_t(itemsize));
  }
}

} // extern "C"
