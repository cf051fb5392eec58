// The per-thread MT19937 states of compiled code (random_state.h) and np.random's draws
// from this thread's state with RandomState's algorithms (random_legacy.h), so that
// np.random.seed(s) in any compiled function gives np.random.RandomState(s)'s numbers;
// the parameter checks every np.random and Generator draw makes first, with NumPy's
// messages.
#include "random_legacy.h"
#include "random_state.h"

#include "mahou/random_distributions.h"
#include "mahou/random_state_layout.h"
#include "mahou/runtime.h"
#include "mahou/types.h"

#include <cstddef>
#include <cstdio>
#include <atomic>
#include <memory>
#include <mutex>
#include <new>
#include <random>
#include <vector>

#include <pthread.h>

namespace mahou::runtime::random_state {

void MT19937::seed(uint32_t s) {
  for (int i = 0; i < N; ++i) {
    key[i] = s;
    s = 1812433253U * (s ^ (s >> 30)) + uint32_t(i + 1);
  }
  pos = N;
  hasGauss = false;
  gauss = 0.0;
  initialized = true;
}

void MT19937::seedByArray(const uint32_t *init, size_t n) {
  seed(19650218U);
  size_t i = 1, j = 0;
  for (size_t k = N > n ? N : n; k; --k) {
    key[i] = (key[i] ^ ((key[i - 1] ^ (key[i - 1] >> 30)) * 1664525U)) + init[j] + uint32_t(j);
    ++i;
    ++j;
    if (i >= size_t(N)) {
      key[0] = key[N - 1];
      i = 1;
    }
    if (j >= n) j = 0;
  }
  for (size_t k = N - 1; k; --k) {
    key[i] = (key[i] ^ ((key[i - 1] ^ (key[i - 1] >> 30)) * 1566083941U)) - uint32_t(i);
    ++i;
    if (i >= size_t(N)) {
      key[0] = key[N - 1];
      i = 1;
    }
  }
  key[0] = 0x80000000U; // a non-zero initial array
  pos = N;
  hasGauss = false;
  gauss = 0.0;
  initialized = true;
}

void MT19937::seedFromEntropy() {
  std::random_device device;
  uint32_t words[N];
  for (auto &w : words) w = device();
  seedByArray(words, N);
}

void MT19937::generate() {
  constexpr int M = 397;
  auto twist = [](uint32_t a, uint32_t b, uint32_t c) {
    uint32_t y = (a & 0x80000000U) | (b & 0x7fffffffU);
    return c ^ (y >> 1) ^ ((y & 1U) ? 0x9908b0dfU : 0U);
  };
  int i = 0;
  for (; i < N - M; ++i) key[i] = twist(key[i], key[i + 1], key[i + M]);
  for (; i < N - 1; ++i) key[i] = twist(key[i], key[i + 1], key[i + M - N]);
  key[N - 1] = twist(key[N - 1], key[0], key[M - 1]);
  pos = 0;
}

// Codegen reads and advances the state in place (random_inline.cpp).
namespace layout = mahou::random::state_layout;
static_assert(MT19937::N == layout::kWords && offsetof(MT19937, key) == 0);
static_assert(offsetof(MT19937, pos) == layout::kPos && offsetof(MT19937, hasGauss) == layout::kHasGauss &&
              offsetof(MT19937, gauss) == layout::kGauss);

namespace {

// The states live on the heap, one pair per thread: thread-local storage of _core is the
// static TLS block that the dynamic loader reserves, too small for 5 KB per thread. The
// pointer is trivially destructible (no guard on each access) and initial-exec (one load).
// A thread's block goes back to a pool at its exit, for the next new thread (seeded anew):
// never freed, so a pointer that compiled code still holds stays valid memory.
struct States {
  MT19937 np, py;
};
__attribute__((tls_model("initial-exec"))) thread_local States *states = nullptr;

// Never destroyed: threads may exit after the process's static destructors ran.
std::mutex &poolMutex() {
  static auto *m = new std::mutex();
  return *m;
}
std::vector<States *> &pool() {
  static auto *p = new std::vector<States *>();
  return *p;
}

struct Reaper {
  ~Reaper() {
    if (!states) return;
    std::lock_guard<std::mutex> lock(poolMutex());
    pool().push_back(states);
    states = nullptr;
  }
};

// A forked child draws a stream of its own: its (one) thread's states are seeded anew.
// The pool's lock is made afresh there, in case another thread of the parent held it.
// (Not held across fork(): fork handlers that join worker threads run after ours, and
// an exiting worker returns its states to the pool.)
void afterFork() {
  new (&poolMutex()) std::mutex();
  if (states) {
    states->np.initialized = false;
    states->py.initialized = false;
  }
}

States &threadStates() {
  if (!states) [[unlikely]] {
    static std::once_flag once;
    std::call_once(once, [] { pthread_atfork(nullptr, nullptr, afterFork); });
    static thread_local Reaper reaper;
    (void)reaper;
    {
      std::lock_guard<std::mutex> lock(poolMutex());
      if (!pool().empty()) {
        states = pool().back();
        pool().pop_back();
        states->np.initialized = false; // a former thread's: not seeded for this one
        states->py.initialized = false;
      }
    }
    if (!states) states = new States(); // value-initialised: not seeded yet
  }
  return *states;
}

MT19937 &ready(MT19937 &s) {
  if (!s.initialized) [[unlikely]] s.seedFromEntropy();
  return s;
}

} // namespace

MT19937 &numpyState() { return ready(threadStates().np); }
MT19937 &pythonState() { return ready(threadStates().py); }

} // namespace mahou::runtime::random_state

namespace {
std::atomic<int> theNumpyVersion{204}; // the release the binding finds; 2.4 until then
} // namespace

int mahou::runtime::random::numpyVersion() { return theNumpyVersion.load(std::memory_order_relaxed); }
void mahou::runtime::setNumpyVersion(int major, int minor) { theNumpyVersion.store(major * 100 + minor); }

namespace {

namespace rnd = mahou::runtime::random;
namespace legacy = mahou::runtime::random::legacy;
using mahou::types::ExcKind;

mahou::runtime::random_state::MT19937 &np() { return mahou::runtime::random_state::numpyState(); }

int32_t fail(ExcKind kind, const char *message) {
  mahou_rt_set_error(int32_t(kind), message);
  return 1;
}

// NumPy's check_constraint (numpy/random/_common.pyx): the message names the parameter.
int32_t violated(const char *name, const char *what) {
  char message[160];
  std::snprintf(message, sizeof message, what, name, name, name);
  return fail(ExcKind::ValueError, message);
}

} // namespace

extern "C" {

int32_t mahou_rt_random_check(int32_t constraint, double v, const char *name) {
  switch (MahouRandomConstraint(constraint)) {
  case MAHOU_RANDOM_NONE: return 0;
  case MAHOU_RANDOM_NON_NEGATIVE: return !std::isnan(v) && std::signbit(v) ? violated(name, "%s < 0") : 0;
  case MAHOU_RANDOM_POSITIVE: return v <= 0 ? violated(name, "%s <= 0") : 0;
  case MAHOU_RANDOM_POSITIVE_NOT_NAN:
    if (std::isnan(v)) return violated(name, "%s must not be NaN");
    return v <= 0 ? violated(name, "%s <= 0") : 0;
  case MAHOU_RANDOM_BOUNDED_0_1:
    return !(v >= 0) || !(v <= 1) ? violated(name, "%s < 0, %s > 1 or %s is NaN") : 0;
  case MAHOU_RANDOM_BOUNDED_GT_0_1:
    return !(v > 0) || !(v <= 1) ? violated(name, "%s <= 0, %s > 1 or %s contains NaNs") : 0;
  case MAHOU_RANDOM_BOUNDED_LT_0_1:
    return !(v >= 0) || !(v < 1) ? violated(name, "%s < 0, %s >= 1 or %s is NaN") : 0;
  case MAHOU_RANDOM_GT_1: return !(v > 1) ? violated(name, "%s <= 1 or %s is NaN") : 0;
  case MAHOU_RANDOM_GTE_1: return !(v >= 1) ? violated(name, "%s < 1 or %s is NaN") : 0;
  case MAHOU_RANDOM_POISSON:
    if (!(v >= 0)) return violated(name, "%s < 0 or %s is NaN");
    return !(v <= mahou::random::poissonLamMax()) ? violated(name, "%s value too large") : 0;
  case MAHOU_RANDOM_NON_NEGATIVE_LONG: // RandomState's bound on a C long
    if (v < 0) return violated(name, "%s < 0");
    return v > double(INT64_MAX)
               ? violated(name, "%s is out of bounds for long, consider using the new generator API for 64bit integers.")
               : 0;
  }
  return 0;
}

int32_t mahou_rt_random_check_int(int32_t constraint, int64_t v, const char *name) {
  switch (MahouRandomConstraint(constraint)) {
  case MAHOU_RANDOM_NON_NEGATIVE:
  case MAHOU_RANDOM_NON_NEGATIVE_LONG: return v < 0 ? violated(name, "%s < 0") : 0;
  case MAHOU_RANDOM_GTE_1: return v < 1 ? violated(name, "%s < 1 or %s is NaN") : 0;
  default: return mahou_rt_random_check(constraint, double(v), name);
  }
}

int32_t mahou_rt_np_seed(int64_t seed) {
  if (seed < 0 || seed > int64_t(UINT32_MAX)) return fail(ExcKind::ValueError, "Seed must be between 0 and 2**32 - 1");
  np().seed(uint32_t(seed));
  return 0;
}

void mahou_rt_np_seed_entropy() { np().seedFromEntropy(); }

// This thread's state (seeded if it was not) and its refill, for the draws compiled code
// makes inline: the pointer stays valid memory (states are pooled, never freed).
void *mahou_rt_np_state() { return &np(); }
void mahou_rt_np_state_refill(void *state) { static_cast<mahou::runtime::random_state::MT19937 *>(state)->generate(); }

double mahou_rt_np_random() { return np().nextDouble(); }

// randint: off + [0, rng] by masked rejection (RandomState's bounded integers).
int64_t mahou_rt_np_randint(int64_t off, uint64_t rng) {
  if (rng == 0) return off;
  auto &g = np();
  uint64_t v = rng == 0xffffffffULL ? g.next32() : rng == UINT64_MAX ? g.next64() : rnd::interval(g, rng);
  return int64_t(uint64_t(off) + v);
}

// The distributions with scalar parameters (random_distributions.def, Legacy rows).
double mahou_rt_np_standard_normal() { return legacy::gauss(np()); }
double mahou_rt_np_normal(double loc, double scale) { return legacy::normal(np(), loc, scale); }
double mahou_rt_np_uniform(double low, double range) { return rnd::uniform(np(), low, range); }
double mahou_rt_np_standard_exponential() { return legacy::standardExponential(np()); }
double mahou_rt_np_exponential(double scale) { return legacy::exponential(np(), scale); }
double mahou_rt_np_standard_gamma(double shape) { return legacy::standardGamma(np(), shape); }
double mahou_rt_np_gamma(double shape, double scale) { return legacy::gamma(np(), shape, scale); }
double mahou_rt_np_beta(double a, double b) { return legacy::beta(np(), a, b); }
double mahou_rt_np_chisquare(double df) { return legacy::chisquare(np(), df); }
double mahou_rt_np_noncentral_chisquare(double df, double nonc) { return legacy::noncentralChisquare(np(), df, nonc); }
double mahou_rt_np_f(double dfnum, double dfden) { return legacy::fDist(np(), dfnum, dfden); }
double mahou_rt_np_noncentral_f(double dfnum, double dfden, double nonc) {
  return legacy::noncentralF(np(), dfnum, dfden, nonc);
}
double mahou_rt_np_standard_cauchy() { return legacy::standardCauchy(np()); }
double mahou_rt_np_standard_t(double df) { return legacy::standardT(np(), df); }
double mahou_rt_np_vonmises(double mu, double kappa) { return rnd::vonmises(np(), mu, kappa, true); }
double mahou_rt_np_pareto(double a) { return legacy::pareto(np(), a); }
double mahou_rt_np_weibull(double a) { return legacy::weibull(np(), a); }
double mahou_rt_np_power(double a) { return legacy::power(np(), a); }
double mahou_rt_np_laplace(double loc, double scale) { return rnd::laplace(np(), loc, scale); }
double mahou_rt_np_gumbel(double loc, double scale) { return rnd::gumbel(np(), loc, scale); }
double mahou_rt_np_logistic(double loc, double scale) { return rnd::logistic(np(), loc, scale); }
double mahou_rt_np_lognormal(double mean, double sigma) { return legacy::lognormal(np(), mean, sigma); }
double mahou_rt_np_rayleigh(double scale) { return legacy::rayleigh(np(), scale); }
double mahou_rt_np_wald(double mean, double scale) { return legacy::wald(np(), mean, scale); }
double mahou_rt_np_triangular(double left, double mode, double right) {
  return rnd::triangular(np(), left, mode, right);
}
int64_t mahou_rt_np_binomial(int64_t n, double p) { return legacy::binomial(np(), p, n); }
// multinomial's binomials, unchecked: NumPy 2.5 draws them as RandomState.binomial does,
// earlier releases with Generator's algorithm (random_multinomial).
int64_t mahou_rt_np_multinomial_binomial(int64_t n, double p) {
  if (rnd::numpyVersion() >= 205) return legacy::binomial(np(), p, n);
  return rnd::binomial(np(), p, n, false);
}
int64_t mahou_rt_np_negative_binomial(double n, double p) { return legacy::negativeBinomial(np(), n, p); }
int64_t mahou_rt_np_poisson(double lam) { return rnd::poisson(np(), lam); }
int64_t mahou_rt_np_zipf(double a) { return legacy::zipf(np(), a); }
int64_t mahou_rt_np_geometric(double p) { return legacy::geometric(np(), p); }
int64_t mahou_rt_np_hypergeometric(int64_t ngood, int64_t nbad, int64_t nsample) {
  return legacy::hypergeometric(np(), ngood, nbad, nsample);
}
int64_t mahou_rt_np_logseries(double p) { return legacy::logseries(np(), p); }

} // extern "C"
