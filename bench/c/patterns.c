/* C floors of the patterns of bench/patterns.py: a float32 array updated in place with an
   int (as Numba computes it: in float64, rounded back), transcendental functions in a loop,
   and int64 set membership in an open-addressing table; random walks of Gaussian steps drawn
   as RandomState does (MT19937 seeded by init_genrand, the polar method with its cached
   second value). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

void pattern_field_add(float *a, int64_t n, int64_t val) {
  for (int64_t i = 0; i < n; ++i) a[i] = (float)((double)a[i] + (double)val);
}

void pattern_transcendental(const double *x, double *out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = sin(x[i]) + exp(-x[i]) * log(1.0 + x[i]);
}

/* keys: nk distinct int64; a table of 4x as many slots, linear probing, identity hash. */
int64_t pattern_set_count(const int64_t *keys, int64_t nk, const int64_t *q, int64_t nq) {
  int64_t size = 8;
  while (size < 4 * nk) size *= 2;
  int64_t *slot = malloc(sizeof(int64_t) * size);
  char *used = calloc(size, 1);
  for (int64_t i = 0; i < nk; ++i) {
    uint64_t h = (uint64_t)keys[i] & (size - 1);
    while (used[h] && slot[h] != keys[i]) h = (h + 1) & (size - 1);
    used[h] = 1;
    slot[h] = keys[i];
  }
  int64_t count = 0;
  for (int64_t j = 0; j < nq; ++j) {
    uint64_t h = (uint64_t)q[j] & (size - 1);
    while (used[h]) {
      if (slot[h] == q[j]) {
        ++count;
        break;
      }
      h = (h + 1) & (size - 1);
    }
  }
  free(slot);
  free(used);
  return count;
}

/* out[i, f, r, c] += img[i, r + h, c + w, j] * filt[f, h, w, j], C-contiguous float64. */
void pattern_correlate4(const double *img, const double *filt, double *out, int64_t n, int64_t H, int64_t W,
                        int64_t C, int64_t F, int64_t KH, int64_t KW) {
  int64_t OH = H - KH + 1, OW = W - KW + 1;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t f = 0; f < F; ++f)
      for (int64_t r = 0; r < OH; ++r)
        for (int64_t c = 0; c < OW; ++c) {
          double acc = out[((i * F + f) * OH + r) * OW + c];
          for (int64_t h = 0; h < KH; ++h)
            for (int64_t w = 0; w < KW; ++w)
              for (int64_t j = 0; j < C; ++j)
                acc += img[((i * H + r + h) * W + c + w) * C + j] * filt[((f * KH + h) * KW + w) * C + j];
          out[((i * F + f) * OH + r) * OW + c] = acc;
        }
}

void pattern_box_filter(const double *a, double *out, int64_t n, int64_t m) {
  for (int64_t i = 1; i < n - 1; ++i)
    for (int64_t j = 1; j < m - 1; ++j) {
      double s = 0.0;
      for (int64_t di = -1; di <= 1; ++di)
        for (int64_t dj = -1; dj <= 1; ++dj) s += a[(i + di) * m + j + dj];
      out[i * m + j] = s / 9.0;
    }
}

void pattern_histogram(const double *x, int64_t n, double lo, double hi, int64_t *counts, int64_t nbins) {
  double scale = nbins / (hi - lo);
  for (int64_t i = 0; i < n; ++i)
    if (x[i] >= lo && x[i] < hi) counts[(int64_t)((x[i] - lo) * scale)] += 1;
}

uint32_t pattern_crc32(const uint8_t *data, int64_t n) {
  uint32_t crc = 0xFFFFFFFFu;
  for (int64_t i = 0; i < n; ++i) {
    crc ^= data[i];
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

int64_t pattern_zero_suppress(const double *x, int64_t n, double threshold, double *values, int64_t *where) {
  int64_t k = 0;
  for (int64_t i = 0; i < n; ++i)
    if (fabs(x[i]) > threshold) {
      values[k] = x[i];
      where[k] = i;
      ++k;
    }
  return k;
}

/* MT19937 and RandomState's legacy Gaussian, for the random-walk floor. */
typedef struct {
  uint32_t key[624];
  int pos, has_gauss;
  double gauss;
} mt_state;

static void mt_seed(mt_state *s, uint32_t seed) {
  for (int i = 0; i < 624; ++i) {
    s->key[i] = seed;
    seed = 1812433253u * (seed ^ (seed >> 30)) + (uint32_t)(i + 1);
  }
  s->pos = 624;
  s->has_gauss = 0;
  s->gauss = 0.0;
}

static void mt_refill(mt_state *s) {
  for (int i = 0; i < 624; ++i) {
    uint32_t y = (s->key[i] & 0x80000000u) | (s->key[(i + 1) % 624] & 0x7fffffffu);
    s->key[i] = s->key[(i + 397) % 624] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
  }
  s->pos = 0;
}

static inline uint32_t mt_next32(mt_state *s) {
  if (s->pos == 624) mt_refill(s);
  uint32_t y = s->key[s->pos++];
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  return y ^ (y >> 18);
}

static inline double mt_double(mt_state *s) {
  int32_t a = (int32_t)(mt_next32(s) >> 5), b = (int32_t)(mt_next32(s) >> 6);
  return (a * 67108864.0 + b) / 9007199254740992.0;
}

static inline double mt_gauss(mt_state *s) {
  if (s->has_gauss) {
    s->has_gauss = 0;
    return s->gauss;
  }
  double x1, x2, r2;
  do {
    x1 = 2.0 * mt_double(s) - 1.0;
    x2 = 2.0 * mt_double(s) - 1.0;
    r2 = x1 * x1 + x2 * x2;
  } while (r2 >= 1.0 || r2 == 0.0);
  double f = sqrt(-2.0 * log(r2) / r2);
  s->gauss = f * x1;
  s->has_gauss = 1;
  return f * x2;
}

/* The mean over `walks` walks of `steps` N(0, 1) steps of each walk's highest point. */
double pattern_normal_walks(uint32_t seed, int64_t walks, int64_t steps) {
  mt_state s;
  mt_seed(&s, seed);
  double *z = malloc(sizeof(double) * (steps > 0 ? steps : 1)), total = 0.0;
  for (int64_t w = 0; w < walks; ++w) {
    for (int64_t i = 0; i < steps; ++i) z[i] = 0.0 + 1.0 * mt_gauss(&s);
    double x = 0.0, hi = 0.0;
    for (int64_t i = 0; i < steps; ++i) {
      x += z[i];
      hi = hi > x ? hi : x;
    }
    total += hi;
  }
  free(z);
  return total / walks;
}

/* Escape-time iterations of z = z * z + c from 0 while |z| <= 2 (at most max_iter), in
   real arithmetic: the floor of the complex loop. */
void pattern_escape_time(const double *c, int64_t n, int64_t max_iter, int64_t *out) {
  for (int64_t k = 0; k < n; ++k) {
    double cr = c[2 * k], ci = c[2 * k + 1], a = 0.0, b = 0.0;
    int64_t i = 1;
    for (; i <= max_iter; ++i) {
      if (hypot(a, b) > 2.0) break;
      double t = a * a - b * b + cr;
      b = a * b + b * a + ci;
      a = t;
    }
    out[k] = i > max_iter ? max_iter : i;
  }
}

/* The sum of the medians of the n / m consecutive pieces of m doubles (no NaNs): each
   piece copied, its middle values found by quickselect (median-of-three, Hoare). */
static double select_kth(double *s, int64_t n, int64_t k) {
  int64_t lo = 0, hi = n - 1;
  while (hi > lo) {
    int64_t mid = lo + (hi - lo) / 2, i = lo, j = hi;
    double t;
    if (s[mid] < s[lo]) t = s[mid], s[mid] = s[lo], s[lo] = t;
    if (s[hi] < s[lo]) t = s[hi], s[hi] = s[lo], s[lo] = t;
    if (s[hi] < s[mid]) t = s[hi], s[hi] = s[mid], s[mid] = t;
    double pivot = s[mid];
    while (i <= j) {
      while (s[i] < pivot) ++i;
      while (pivot < s[j]) --j;
      if (i <= j) t = s[i], s[i] = s[j], s[j] = t, ++i, --j;
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return s[k];
}

double pattern_medians(const double *x, int64_t n, int64_t m) {
  double *s = malloc(sizeof(double) * (m > 0 ? m : 1)), total = 0.0;
  for (int64_t k = 0; k + m <= n; k += m) {
    for (int64_t i = 0; i < m; ++i) s[i] = x[k + i];
    int64_t h = m / 2;
    double upper = select_kth(s, m, h);
    if (m % 2) {
      total += upper;
    } else {
      double lower = s[0];
      for (int64_t i = 1; i < h; ++i) lower = s[i] > lower ? s[i] : lower;
      total += (lower + upper) / 2;
    }
  }
  free(s);
  return total;
}

/* A^T A and A^T x of an (n, 5) design held flat (at: 5 rows of n, a: n rows of 5), reps
   times: the floor of the loops with computed indices (built with -ffast-math). */
double pattern_normal_equations(const double *at, const double *a, const double *x, int64_t n, int64_t reps) {
  double t = 0.0;
  for (int64_t r = 0; r < reps; ++r) {
    double ata[25] = {0}, atb[5] = {0};
    for (int64_t i = 0; i < 5; ++i)
      for (int64_t j = 0; j < 5; ++j) {
        double s = 0.0;
        for (int64_t k = 0; k < n; ++k) s += at[i * n + k] * a[k * 5 + j];
        ata[i * 5 + j] += s;
      }
    for (int64_t i = 0; i < 5; ++i) {
      double s = 0.0;
      for (int64_t k = 0; k < n; ++k) s += at[i * n + k] * x[k];
      atb[i] += s;
    }
    t += ata[6] + atb[4];
  }
  return t;
}

/* q[u % 4][u / 4] += c[u][m] over a (32, 4) c, a fresh (4, 8) q each time. */
double pattern_row_view_updates(const double *c, int64_t reps) {
  double t = 0.0;
  for (int64_t r = 0; r < reps; ++r) {
    double q[4][8] = {{0}};
    for (int64_t u = 0; u < 32; ++u)
      for (int64_t m = 0; m < 4; ++m) q[u % 4][u / 4] += c[u * 4 + m];
    t += q[3][7];
  }
  return t;
}
