// Literal lists (a list display whose items have different types, `['a', 1, 2j]`, Numba's
// LiteralList) in the type lattice: a tuple type of the items whose class handle is
// kLiteralListClass, so values are laid out, indexed (with constant indices), measured
// and unrolled (literal_unroll) as tuples are; they cannot be changed, and sema refuses the
// tuple operations whose answer differs for a list (hashing, concatenation, comparing with
// a tuple). Returned to Python as a list.
#pragma once

#include "mahou/types.h"

namespace mahou::types {

constexpr uint64_t kLiteralListClass = 4; // never an object's address (namedtuple classes are)

inline bool isLiteralList(const Type &t) {
  return t.kind == Kind::Tuple && !t.closureTuple && t.handle == kLiteralListClass;
}

inline Type literalListType(std::vector<Type> items) {
  std::vector<std::string> fields(items.size());
  return Type::namedTuple(std::move(items), kLiteralListClass, "list", std::move(fields));
}

} // namespace mahou::types
