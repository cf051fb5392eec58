// Reference kernel: dot product of two float64 arrays, a plain loop (no -ffast-math).
#include <stdint.h>

double dot(const double *a, const double *b, int64_t n) {
  double total = 0.0;
  for (int64_t i = 0; i < n; ++i)
    total += a[i] * b[i];
  return total;
}
