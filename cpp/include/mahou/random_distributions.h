// The table of random draws with scalar parameters (random_distributions.def) as data:
// each draw's family, name, result, runtime symbol and parameters, for sema (argument
// binding, checks) and codegen (the call); and NumPy's parameter constraints, which the
// runtime checks (mahou_rt_random_check).
#pragma once

#include <cmath>
#include <cstdint>

// NumPy's constraint kinds (numpy/random/_common.pxd), C-style: the runtime takes them.
enum MahouRandomConstraint : int32_t {
  MAHOU_RANDOM_NONE,
  MAHOU_RANDOM_NON_NEGATIVE,      // "x < 0" (a NaN passes)
  MAHOU_RANDOM_POSITIVE,          // "x <= 0" (a NaN passes)
  MAHOU_RANDOM_POSITIVE_NOT_NAN,  // "x must not be NaN", "x <= 0"
  MAHOU_RANDOM_BOUNDED_0_1,       // [0, 1]
  MAHOU_RANDOM_BOUNDED_GT_0_1,    // (0, 1]
  MAHOU_RANDOM_BOUNDED_LT_0_1,    // [0, 1)
  MAHOU_RANDOM_GT_1,              // > 1
  MAHOU_RANDOM_GTE_1,             // >= 1
  MAHOU_RANDOM_POISSON,           // [0, int64 max - 10 sqrt(int64 max)]
  MAHOU_RANDOM_NON_NEGATIVE_LONG, // >= 0 and within a C long (RandomState)
};

#ifdef __cplusplus
namespace mahou::random {

enum class Dist : int32_t {
#define MAHOU_RANDOM_PARAM(...)
#define MAHOU_RANDOM_NOPARAM
#define MAHOU_RANDOM_DIST(id, family, name, result, symbol, p0, p1, p2) id,
#include "mahou/random_distributions.def"
#undef MAHOU_RANDOM_DIST
#undef MAHOU_RANDOM_NOPARAM
#undef MAHOU_RANDOM_PARAM
};

enum class Family : uint8_t { Legacy, Gen };
enum class ValueType : uint8_t { None, F64, F32, I64 };

struct Param {
  const char *name = nullptr; // null: no parameter in this slot
  ValueType type = ValueType::None;
  bool required = false;
  double dflt = 0;
  MahouRandomConstraint constraint = MAHOU_RANDOM_NONE;
};

struct DistInfo {
  Dist id;
  Family family;
  const char *name;
  ValueType result;
  const char *symbol;
  Param params[3];
  int numParams() const { return params[2].name ? 3 : params[1].name ? 2 : params[0].name ? 1 : 0; }
};

namespace table {
constexpr bool REQ = true;
struct Dflt { // a REQ marker or a default value
  bool required;
  double value;
  constexpr Dflt(bool r) : required(r), value(0) {}
  constexpr Dflt(double v) : required(false), value(v) {}
};
constexpr Param param(const char *name, ValueType t, Dflt d, MahouRandomConstraint c) {
  return Param{name, t, d.required, d.value, c};
}
constexpr ValueType F64 = ValueType::F64, F32 = ValueType::F32, I64 = ValueType::I64;
constexpr Family Legacy = Family::Legacy, Gen = Family::Gen;
constexpr DistInfo kDists[] = {
#define MAHOU_RANDOM_PARAM(name, type, dflt, cons) param(name, type, dflt, MAHOU_RANDOM_##cons)
#define MAHOU_RANDOM_NOPARAM Param{}
#define MAHOU_RANDOM_DIST(id, family, name, result, symbol, p0, p1, p2)                                  \
  DistInfo{Dist::id, family, name, result, #symbol, {p0, p1, p2}},
#include "mahou/random_distributions.def"
#undef MAHOU_RANDOM_DIST
#undef MAHOU_RANDOM_NOPARAM
#undef MAHOU_RANDOM_PARAM
};
} // namespace table

// The largest poisson lam NumPy accepts: int64's max less ten of its square roots.
inline double poissonLamMax() { return double(INT64_MAX) - std::sqrt(double(INT64_MAX)) * 10; }

inline const DistInfo &distInfo(Dist d) { return table::kDists[int(d)]; }

// The row of `family` named `name` with this result type (ValueType::None: the first
// row of that name), or null.
inline const DistInfo *findDist(Family family, const char *name, ValueType result = ValueType::None) {
  for (const DistInfo &d : table::kDists) {
    if (d.family != family || (result != ValueType::None && d.result != result)) continue;
    const char *a = d.name, *b = name;
    while (*a && *a == *b) ++a, ++b;
    if (*a == *b) return &d;
  }
  return nullptr;
}

} // namespace mahou::random
#endif
