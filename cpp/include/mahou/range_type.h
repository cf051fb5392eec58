// Range objects (range(start, stop, step) as a value, Numba's range_state64) in the type
// lattice: a tuple type of three int64 fields whose class handle is kRangeClass, so values
// are laid out, passed, stored and returned as tuples are; sema gives them range's own
// operations (len, indexing, `in`, iteration) and refuses the tuple ones.
#pragma once

#include "mahou/types.h"

namespace mahou::types {

constexpr uint64_t kRangeClass = 2; // never an object's address (namedtuple classes are)

inline bool isRange(const Type &t) { return t.kind == Kind::Tuple && !t.closureTuple && t.handle == kRangeClass; }

inline Type rangeType() {
  return Type::namedTuple({Type::int64(), Type::int64(), Type::int64()}, kRangeClass, "range",
                          {"start", "stop", "step"});
}

} // namespace mahou::types
