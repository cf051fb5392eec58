// Private to sema: the parts of an array subscript, each typed once (index_parts.cpp),
// from which element access, basic views (arrays.cpp) and advanced indexing are built.
#pragma once

#include "typer.h"

namespace mahou::sema {

struct IndexPart {
  enum class Kind {
    Ellipsis,   // ...: full slices for the axes no other part indexes
    NewAxis,    // None / np.newaxis: a new axis of length 1
    Slice,      // a slice (written or a slice object): `slot`
    Integer,    // an int64
    IntArray,   // an array of an integer dtype (any ndim)
    BoolArray,  // a boolean array: indexes as many axes as it has dimensions
    BoolScalar, // True / False: NumPy's 0-d boolean index (a new axis of length 1 or 0)
  };
  Kind kind;
  Loc loc;
  ExprPtr value;     // Integer, IntArray, BoolArray, BoolScalar
  ir::ViewSlot slot; // Slice

  // How many axes of the indexed array it stands for (the Ellipsis: none here).
  int axes() const;
  // An index array or a boolean, which makes the whole index advanced (NumPy).
  bool arrayLike() const { return kind == Kind::IntArray || kind == Kind::BoolArray || kind == Kind::BoolScalar; }
  IndexPart cloned() const; // a copy of a part whose expressions are pure
};

struct ArrayIndex {
  std::vector<IndexPart> parts;
  // Values evaluated once, before the parts read them (a tuple index that is not a variable).
  std::vector<std::pair<int, ExprPtr>> lets;
  bool unknown = false; // some part's type is not known yet

  bool advanced() const;
  bool hasEllipsis() const;
  // Every part an integer, one per axis (an element, not a view).
  bool element(int ndim) const;
};

} // namespace mahou::sema
