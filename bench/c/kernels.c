// Reference kernels in C (clang -O3 -march=native, no -ffast-math): the same loops as
// bench/kernels.py, on C-contiguous arrays.
#include <math.h>
#include <stdint.h>

int64_t mandelbrot(int64_t *out, int64_t h, int64_t w, double xmin, double xmax, double ymin, double ymax,
                   int64_t max_iter) {
  double dx = (xmax - xmin) / w, dy = (ymax - ymin) / h;
  for (int64_t i = 0; i < h; ++i) {
    double y = ymin + i * dy;
    for (int64_t j = 0; j < w; ++j) {
      double x = xmin + j * dx, zr = 0.0, zi = 0.0;
      int64_t n = 0;
      while (n < max_iter && zr * zr + zi * zi <= 4.0) {
        double t = zr * zr - zi * zi + x;
        zi = 2.0 * zr * zi + y;
        zr = t;
        ++n;
      }
      out[i * w + j] = n;
    }
  }
  return out[(h / 2) * w + w / 2];
}

double nbody(double *pos, double *vel, const double *mass, int64_t n, int64_t steps, double dt) {
  for (int64_t s = 0; s < steps; ++s) {
    for (int64_t i = 0; i < n; ++i) {
      double ax = 0, ay = 0, az = 0, xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
      for (int64_t j = 0; j < n; ++j) {
        double dx = pos[3 * j] - xi, dy = pos[3 * j + 1] - yi, dz = pos[3 * j + 2] - zi;
        double r2 = dx * dx + dy * dy + dz * dz + 1e-3;
        double inv = mass[j] / (r2 * sqrt(r2));
        ax += dx * inv;
        ay += dy * inv;
        az += dz * inv;
      }
      vel[3 * i] += dt * ax;
      vel[3 * i + 1] += dt * ay;
      vel[3 * i + 2] += dt * az;
    }
    for (int64_t i = 0; i < n; ++i)
      for (int d = 0; d < 3; ++d) pos[3 * i + d] += dt * vel[3 * i + d];
  }
  return pos[0];
}

double matmul(const double *a, const double *b, double *c, int64_t n, int64_t m, int64_t p) {
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < p; ++j) c[i * p + j] = 0.0;
    for (int64_t k = 0; k < m; ++k) {
      double aik = a[i * m + k];
      for (int64_t j = 0; j < p; ++j) c[i * p + j] += aik * b[k * p + j];
    }
  }
  return c[0];
}

int64_t sieve(uint8_t *flags, int64_t n) {
  for (int64_t i = 0; i < n; ++i) flags[i] = 1;
  flags[0] = flags[1] = 0;
  for (int64_t i = 2; i * i < n; ++i)
    if (flags[i])
      for (int64_t j = i * i; j < n; j += i) flags[j] = 0;
  int64_t count = 0;
  for (int64_t i = 0; i < n; ++i) count += flags[i];
  return count;
}

double jacobi(double *a, double *b, int64_t n, int64_t m, int64_t iters) {
  for (int64_t it = 0; it < iters; ++it) {
    for (int64_t i = 1; i < n - 1; ++i)
      for (int64_t j = 1; j < m - 1; ++j)
        b[i * m + j] = 0.25 * (a[(i - 1) * m + j] + a[(i + 1) * m + j] + a[i * m + j - 1] + a[i * m + j + 1]);
    for (int64_t i = 1; i < n - 1; ++i)
      for (int64_t j = 1; j < m - 1; ++j) a[i * m + j] = b[i * m + j];
  }
  return a[(n / 2) * m + m / 2];
}

double black_scholes(const double *s, const double *k, const double *t, double r, double v, double *call,
                     double *put, int64_t n) {
  double inv_sqrt2 = 1.0 / sqrt(2.0);
  for (int64_t i = 0; i < n; ++i) {
    double sqrt_t = sqrt(t[i]);
    double d1 = (log(s[i] / k[i]) + (r + 0.5 * v * v) * t[i]) / (v * sqrt_t);
    double d2 = d1 - v * sqrt_t;
    double cnd1 = 0.5 * (1.0 + erf(d1 * inv_sqrt2)), cnd2 = 0.5 * (1.0 + erf(d2 * inv_sqrt2));
    double disc = k[i] * exp(-r * t[i]);
    call[i] = s[i] * cnd1 - disc * cnd2;
    put[i] = disc * (1.0 - cnd2) - s[i] * (1.0 - cnd1);
  }
  return call[0];
}
