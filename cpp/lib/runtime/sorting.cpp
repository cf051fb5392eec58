// Sorting for compiled code: in-place sort and partition, stable argsort and unique of
// contiguous 1-D data of any NumPy dtype, with NaNs ordered last as NumPy does.
#include "mahou/runtime.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <cstdio>
#include <numeric>

namespace {
enum ExcIndex : int32_t {
#define MAHOU_EXCEPTION(name) Exc##name,
#include "mahou/exceptions.def"
#undef MAHOU_EXCEPTION
};
} // namespace

namespace {

template <class T> bool lessNanLast(const T &a, const T &b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a)) return false;
    if (std::isnan(b)) return true;
  }
  return a < b;
}

template <class T> bool equalNan(const T &a, const T &b) {
  if constexpr (std::is_floating_point_v<T>)
    if (std::isnan(a) && std::isnan(b)) return true;
  return a == b;
}

// A datetime64 / timedelta64 count: NaT (INT64_MIN) sorts last, as NumPy sorts it.
struct NatLast {
  int64_t v;
  bool operator<(const NatLast &o) const {
    constexpr int64_t nat = INT64_MIN;
    return v != nat && (o.v == nat || v < o.v);
  }
  bool operator==(const NatLast &o) const { return v == o.v; }
};
static_assert(sizeof(NatLast) == sizeof(int64_t));

// Calls f(T*) with the data typed by the NumPy type number (complex types: unsupported);
// the numbers are those of mahou::runtime::sortsNumpyNum (runtime.h), which codegen checks.
template <class F> bool withType(int32_t dtype, void *data, F &&f) {
  switch (dtype) {
  case 0: f(static_cast<bool *>(data)); return true;
  case 1: f(static_cast<int8_t *>(data)); return true;
  case 2: f(static_cast<uint8_t *>(data)); return true;
  case 3: f(static_cast<int16_t *>(data)); return true;
  case 4: f(static_cast<uint16_t *>(data)); return true;
  case 5: f(static_cast<int32_t *>(data)); return true;
  case 6: f(static_cast<uint32_t *>(data)); return true;
  case 7:
  case 9: f(static_cast<int64_t *>(data)); return true;
  case 8:
  case 10: f(static_cast<uint64_t *>(data)); return true;
  case 11: f(static_cast<float *>(data)); return true;
  case 12: f(static_cast<double *>(data)); return true;
  case 21: // NPY_DATETIME
  case 22: f(static_cast<NatLast *>(data)); return true; // NPY_TIMEDELTA
  default: return false;
  }
}

} // namespace

extern "C" {

void mahou_rt_sort(void *data, int64_t n, int32_t dtype) {
  withType(dtype, data, [&](auto *p) {
    using T = std::remove_pointer_t<decltype(p)>;
    if constexpr (std::is_floating_point_v<T>) {
      // NaNs moved to the end first (order kept: a stable pass, only when there is one), so
      // that the sort compares with a plain '<', not with the NaN-aware comparison.
      T *end = p + n;
      if (std::any_of(p, end, [](const T &x) { return std::isnan(x); }))
        end = std::stable_partition(p, end, [](const T &x) { return !std::isnan(x); });
      std::sort(p, end);
    } else {
      std::sort(p, p + n);
    }
  });
}

void mahou_rt_argsort(const void *data, int64_t n, int64_t stride, int32_t dtype, int64_t *out) {
  std::iota(out, out + n, int64_t(0));
  withType(dtype, const_cast<void *>(data), [&](auto *p) {
    using T = std::remove_pointer_t<decltype(p)>;
    const char *base = reinterpret_cast<const char *>(p);
    auto at = [&](int64_t i) { return *reinterpret_cast<const T *>(base + i * stride); };
    std::stable_sort(out, out + n, [&](int64_t a, int64_t b) { return lessNanLast<T>(at(a), at(b)); });
  });
}

// Rearranges data[:n] so that data[kth] holds the value a sort puts there, nothing after
// it is smaller and nothing before it larger (NumPy's partition; NaNs last): an
// introselect (std::nth_element). A negative kth counts from the end; out of bounds
// (of a non-empty array: NumPy checks none for an empty one) is NumPy's ValueError, 1.
int32_t mahou_rt_partition(void *data, int64_t n, int64_t kth, int32_t dtype) {
  if (n == 0) return 0;
  if (kth < 0) kth += n; // NumPy reports the wrapped value: kth(=-1) for -6 of 5
  if (kth < 0 || kth >= n) {
    char msg[96];
    std::snprintf(msg, sizeof msg, "kth(=%lld) out of bounds (%lld)", static_cast<long long>(kth), static_cast<long long>(n));
    mahou_rt_set_error(ExcValueError, msg);
    return 1;
  }
  withType(dtype, data, [&](auto *p) {
    using T = std::remove_pointer_t<decltype(p)>;
    T *end = p + n;
    if constexpr (std::is_floating_point_v<T>) // NaNs moved last first; then a plain '<'
      if (std::any_of(p, end, [](const T &x) { return std::isnan(x); }))
        end = std::partition(p, end, [](const T &x) { return !std::isnan(x); });
    if (p + kth < end) std::nth_element(p, p + kth, end); // else data[kth] is a NaN, the NaNs last
  });
  return 0;
}

int64_t mahou_rt_unique_sorted(void *data, int64_t n, int32_t dtype) {
  int64_t count = n;
  withType(dtype, data, [&](auto *p) {
    using T = std::remove_pointer_t<decltype(p)>;
    count = std::unique(p, p + n, equalNan<T>) - p;
  });
  return count;
}

} // extern "C"
