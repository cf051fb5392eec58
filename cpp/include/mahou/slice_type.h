// Slice objects (slice(start, stop, step)) in the type lattice: a tuple type of the
// three bounds (each int64, or none where it is None) whose class handle is kSliceClass,
// so values are laid out, passed and stored as tuples are; the bounds are its fields.
#pragma once

#include "mahou/types.h"

namespace mahou::types {

constexpr uint64_t kSliceClass = 1; // never an object's address (namedtuple classes are)

inline bool isSlice(const Type &t) { return t.kind == Kind::Tuple && !t.closureTuple && t.handle == kSliceClass; }

inline Type sliceType(Type start, Type stop, Type step) {
  return Type::namedTuple({std::move(start), std::move(stop), std::move(step)}, kSliceClass, "slice",
                          {"start", "stop", "step"});
}

} // namespace mahou::types
