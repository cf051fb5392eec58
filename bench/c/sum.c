// Reference kernel: sum of a float64 array, a plain loop (no -ffast-math: same order as Python).
#include <stdint.h>

double sum_array(const double *a, int64_t n) {
  double total = 0.0;
  for (int64_t i = 0; i < n; ++i)
    total += a[i];
  return total;
}
