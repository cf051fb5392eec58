// NumPy's (and Numba's) unit rules for datetime64 / timedelta64 arithmetic: which units
// convert to which by an integer factor, the unit of a result, the refused combinations.
#pragma once

#include "mahou/types.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mahou::types {

constexpr int kUnitYears = 0, kUnitMonths = 1, kUnitWeeks = 2, kUnitDays = 4, kUnitGeneric = 14;
constexpr int64_t kNaT = INT64_MIN;

// The factor that converts a count of `from` into a count of `to` (a finer unit), or
// nullopt when no integer factor does (years/months against days and finer, or `to`
// coarser). A generic unit converts to any unit by 1.
std::optional<int64_t> unitFactor(int from, int to);
// Numba's can_cast_timedelta_units: NumPy's safe cast of timedelta units.
bool canCastTimedeltaUnits(int from, int to);
// The finer of two units (generic yields to the other).
int bestUnit(int a, int b);
// The unit of datetime ± timedelta, or nullopt when NumPy refuses the pair (a timedelta
// of years or months with a datetime of weeks or finer).
std::optional<int> combineDatetimeTimedelta(int datetimeUnit, int timedeltaUnit);
// A value of `from` converts to `to` without loss (both datetime64 or both timedelta64):
// to the same or a finer unit, a datetime of years or months to days and finer too.
bool convertsExactly(DType from, DType to);
// An array conversion (astype, np.array(dtype=)) mahou compiles where a datetime is
// involved: an exact unit conversion, or the counts to and from int64.
bool datetimeConversionAllowed(DType from, DType to);
// NumPy's spellings of a datetime dtype: "M8[D]", "datetime64[ns]", "m8", "<m8[s]" ...
// (nullopt for anything else, a multiple of a unit such as "m8[5s]" included).
std::optional<DType> datetimeFromName(const std::string &name);
// The common unit of two timedeltas for + - / // and comparisons, or nullopt.
std::optional<int> commonTimedeltaUnit(int a, int b);

} // namespace mahou::types
