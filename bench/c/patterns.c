/* C floors of the patterns of bench/patterns.py: a float32 array updated in place with an
   int (as Numba computes it: in float64, rounded back), transcendental functions in a loop,
   and int64 set membership in an open-addressing table. */
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
