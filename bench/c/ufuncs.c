// C references for bench/ufuncs.py: the elementwise polynomial and erf loops, and the
// moving average over rows, compiled with clang -O3 -march=native.
#include <math.h>
#include <stdint.h>

void poly_loop(const double *x, double *out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    double v = x[i];
    out[i] = ((0.5 * v - 1.2) * v + 3.3) * v - 0.7;
  }
}

void erf_loop(const double *x, double *out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = erf(x[i]);
}

void moving_average(const double *a, double *out, int64_t rows, int64_t cols, int64_t window) {
  for (int64_t r = 0; r < rows; ++r) {
    const double *x = a + r * cols;
    double *y = out + r * cols;
    double acc = 0.0;
    for (int64_t i = 0; i < cols; ++i) {
      acc += x[i];
      if (i >= window) acc -= x[i - window];
      y[i] = acc / (double)(i + 1 < window ? i + 1 : window);
    }
  }
}
