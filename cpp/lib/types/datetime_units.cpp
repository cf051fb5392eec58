// Unit rules of datetime64 / timedelta64 (Numba's npdatetime_helpers, NumPy's datetime.c).
#include "mahou/datetime_units.h"

namespace mahou::types {

namespace {
// Exact factor from a unit to the next finer one it converts to: Y→M, W→D, D→h, ... fs→as.
struct Step {
  int from, to;
  int64_t factor;
};
constexpr Step kSteps[] = {{0, 1, 12},   {2, 4, 7},     {4, 5, 24},    {5, 6, 60},    {6, 7, 60},   {7, 8, 1000},
                           {8, 9, 1000}, {9, 10, 1000}, {10, 11, 1000}, {11, 12, 1000}, {12, 13, 1000}};
} // namespace

std::optional<int64_t> unitFactor(int from, int to) {
  if (from == kUnitGeneric) return 1;
  int64_t factor = 1;
  int c = from;
  while (c < to) {
    const Step *step = nullptr;
    for (const Step &s : kSteps)
      if (s.from == c) step = &s;
    if (!step) return std::nullopt;
    factor *= step->factor;
    // NumPy refuses a conversion factor of 2^56 or more (an overflow: weeks and picoseconds, ...)
    if (factor >= (int64_t(1) << 56)) return std::nullopt;
    c = step->to;
  }
  if (c != to) return std::nullopt;
  return factor;
}

bool canCastTimedeltaUnits(int from, int to) {
  if (from == to || from == kUnitGeneric) return true;
  if (from > to || to == kUnitGeneric) return false;
  if (from <= kUnitMonths && to > kUnitMonths) return false;
  return true;
}

int bestUnit(int a, int b) {
  if (a == kUnitGeneric) return b;
  if (b == kUnitGeneric) return a;
  return b > a ? b : a;
}

std::optional<int> combineDatetimeTimedelta(int dt, int td) {
  if (dt == kUnitGeneric) return td;
  if (td == kUnitGeneric) return dt;
  if (td < kUnitWeeks && dt >= kUnitWeeks) return std::nullopt;
  return dt > td ? dt : td;
}

bool convertsExactly(DType from, DType to) {
  if (isDatetime(from) != isDatetime(to) || !isDatetimeLike(from) || !isDatetimeLike(to)) return false;
  int f = datetimeUnit(from), t = datetimeUnit(to);
  if (isTimedelta(from)) return canCastTimedeltaUnits(f, t);
  if (f == t || f == kUnitGeneric) return true;
  if (t == kUnitGeneric) return false;
  if (f <= kUnitMonths && t >= kUnitWeeks) // the calendar gives the day
    return t == kUnitWeeks || unitFactor(kUnitDays, t).has_value();
  return unitFactor(f, t).has_value();
}

bool datetimeConversionAllowed(DType from, DType to) {
  if (from == to || (!isDatetimeLike(from) && !isDatetimeLike(to))) return true;
  return convertsExactly(from, to) || from == DType::Int64 || to == DType::Int64;
}

std::optional<DType> datetimeFromName(const std::string &name) {
  std::string s = name;
  if (!s.empty() && (s[0] == '<' || s[0] == '=')) s = s.substr(1); // native byte order only
  bool timedelta;
  size_t n;
  if (s.rfind("datetime64", 0) == 0) timedelta = false, n = 10;
  else if (s.rfind("timedelta64", 0) == 0) timedelta = true, n = 11;
  else if (s.rfind("M8", 0) == 0) timedelta = false, n = 2;
  else if (s.rfind("m8", 0) == 0) timedelta = true, n = 2;
  else return std::nullopt;
  std::string rest = s.substr(n);
  if (rest.empty()) return datetimeDType(timedelta, kUnitGeneric);
  if (rest.size() < 3 || rest.front() != '[' || rest.back() != ']') return std::nullopt;
  std::string code = rest.substr(1, rest.size() - 2);
  for (int u = 0; u <= kUnitGeneric; ++u)
    if (u != 3 && code == datetimeUnitCode(u) && !code.empty()) return datetimeDType(timedelta, u);
  return std::nullopt;
}

std::optional<int> commonTimedeltaUnit(int a, int b) {
  std::optional<int> u;
  if (canCastTimedeltaUnits(a, b)) u = b;
  else if (canCastTimedeltaUnits(b, a)) u = a;
  if (u && (!unitFactor(a, *u) || !unitFactor(b, *u))) return std::nullopt; // NumPy's overflow
  return u;
}

} // namespace mahou::types
