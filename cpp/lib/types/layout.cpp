// Native sizes, alignments and tuple field offsets (must match codegen's LLVM types).
#include "mahou/layout.h"

#include "mahou/runtime.h"

namespace mahou::types {

size_t nativeAlign(const Type &t) {
  switch (t.kind) {
  case Kind::Scalar:
    return isComplex(t.dtype) ? size_t(dtypeBytes(t.dtype) / 2) : size_t(dtypeBytes(t.dtype));
  case Kind::Array: return 8;
  case Kind::Tuple: {
    size_t a = 1;
    for (auto &e : t.elems) a = std::max(a, nativeAlign(e));
    return a;
  }
  default: return 1;
  }
}

std::vector<size_t> tupleOffsets(const Type &t) {
  std::vector<size_t> offsets;
  size_t off = 0;
  for (auto &e : t.elems) {
    size_t a = nativeAlign(e);
    off = (off + a - 1) / a * a;
    offsets.push_back(off);
    off += nativeSize(e);
  }
  return offsets;
}

size_t nativeSize(const Type &t) {
  switch (t.kind) {
  case Kind::Scalar: return size_t(dtypeBytes(t.dtype));
  case Kind::Array: return mahouArrayBytes(t.ndim);
  case Kind::Tuple: {
    if (t.elems.empty()) return 0;
    auto offs = tupleOffsets(t);
    size_t end = offs.back() + nativeSize(t.elems.back());
    size_t a = nativeAlign(t);
    return (end + a - 1) / a * a;
  }
  default: return 0;
  }
}

} // namespace mahou::types
