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
