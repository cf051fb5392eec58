// Native sizes, alignments and tuple field offsets (must match codegen's LLVM types).
#include "mahou/layout.h"

#include "mahou/literal_dict_type.h"
#include "mahou/literal_list_type.h"
#include "mahou/objects.h"
#include "mahou/runtime.h"

#include <algorithm>
#include <cstring>

namespace mahou::types {

namespace {

struct SizeAlign {
  size_t size, align;
};

size_t roundUp(size_t n, size_t a) { return (n + a - 1) / a * a; }

// A value's size and alignment in one walk of its type, each element's computed once:
// a nested tuple costs its number of parts (computing them separately at every level
// made nested tuples exponential, then cubic, in their depth).
SizeAlign layout(const Type &t, std::vector<size_t> *offsets = nullptr) {
  switch (t.kind) {
  case Kind::Scalar: {
    size_t bytes = size_t(dtypeBytes(t.dtype));
    return {bytes, isComplex(t.dtype) ? bytes / 2 : bytes};
  }
  case Kind::Array: return {size_t(mahouArrayBytes(t.ndim)), 8};
  case Kind::List:
  case Kind::Dict:
  case Kind::Set:
  case Kind::Unicode:
  case Kind::Instance:
  case Kind::Generator:
  case Kind::Record:
  case Kind::CharSeq: // a pointer to its bytes
  case Kind::Str:
  case Kind::CPointer: return {8, 8};
  case Kind::NumPyRandomGenerator: return {3 * sizeof(void *), 8}; // {bitgen_t *, PyObject *, holder}
  case Kind::EnumMember: return layout(t.elems[0]); // its value
  case Kind::Optional: {
    SizeAlign e = layout(t.elems[0]);
    return {roundUp(e.size + 1, e.align), e.align};
  }
  case Kind::Tuple: {
    size_t off = 0, align = 1;
    for (auto &e : t.elems) {
      SizeAlign x = layout(e);
      off = roundUp(off, x.align);
      if (offsets) offsets->push_back(off);
      off += x.size;
      align = std::max(align, x.align);
    }
    return {t.elems.empty() ? 0 : roundUp(off, align), align};
  }
  default: return {0, 1};
  }
}

} // namespace

size_t nativeAlign(const Type &t) { return layout(t).align; }

size_t nativeSize(const Type &t) { return layout(t).size; }

std::vector<size_t> tupleOffsets(const Type &t) {
  std::vector<size_t> offsets;
  layout(t, &offsets);
  return offsets;
}

namespace {

struct DescBuilder {
  std::vector<uint32_t> refs;
  std::vector<MahouField> fields;
  uint32_t flags = MAHOU_DESC_HASHABLE | MAHOU_DESC_COMPARABLE | MAHOU_DESC_ORDERED;

  void field(size_t offset, uint8_t kind, size_t size) {
    MahouField f{};
    f.offset = uint32_t(offset);
    f.kind = kind;
    f.size = uint8_t(size);
    fields.push_back(f);
  }

  void add(const Type &t, size_t offset) {
    switch (t.kind) {
    case Kind::Scalar: {
      uint8_t k = t.isBool() ? MAHOU_FIELD_BOOL
                  : t.isComplex() ? MAHOU_FIELD_COMPLEX
                  : t.isFloat() ? MAHOU_FIELD_FLOAT
                  : isSigned(t.dtype) ? MAHOU_FIELD_INT
                                      : MAHOU_FIELD_UINT;
      if (t.isComplex()) flags &= ~uint32_t(MAHOU_DESC_ORDERED);
      field(offset, k, size_t(dtypeBytes(t.dtype)));
      return;
    }
    case Kind::Unicode:
      refs.push_back(uint32_t(offset));
      field(offset, MAHOU_FIELD_STR, 8);
      return;
    case Kind::List:
      refs.push_back(uint32_t(offset));
      field(offset, MAHOU_FIELD_LIST, 8);
      flags &= ~uint32_t(MAHOU_DESC_HASHABLE | MAHOU_DESC_ORDERED);
      return;
    case Kind::Array:
      if (t.buffer == BufferKind::Bytes && t.ndim == 1) { // a bytes value: hashed, compared, ordered as Python's
        refs.push_back(uint32_t(offset));
        field(offset, MAHOU_FIELD_BYTES, 0);
        return;
      }
      [[fallthrough]];
    case Kind::Dict:
    case Kind::Set:
    case Kind::Instance:
    case Kind::Generator:
      refs.push_back(uint32_t(offset)); // an array's meminfo, or the object
      field(offset, MAHOU_FIELD_OPAQUE, 8);
      flags = 0;
      return;
    case Kind::NumPyRandomGenerator: // the holder of the Generator object (null: borrowed)
      refs.push_back(uint32_t(offset + 2 * sizeof(void *)));
      field(offset, MAHOU_FIELD_OPAQUE, 0);
      flags = 0;
      return;
    case Kind::None:
      field(offset, MAHOU_FIELD_NONE, 0);
      flags &= ~uint32_t(MAHOU_DESC_ORDERED);
      return;
    case Kind::DTypeObj: // no bytes (its type names it): items of one dtype type are equal; unhashable, as Numba's
      field(offset, MAHOU_FIELD_NONE, 0);
      flags &= ~uint32_t(MAHOU_DESC_HASHABLE | MAHOU_DESC_ORDERED);
      return;
    case Kind::Tuple: {
      std::vector<size_t> offs = tupleOffsets(t);
      for (size_t i = 0; i < t.elems.size(); ++i) add(t.elems[i], offset + offs[i]);
      if (isLiteralList(t) || isLiteralDict(t)) flags &= ~uint32_t(MAHOU_DESC_HASHABLE | MAHOU_DESC_ORDERED); // a list, a dict
      return;
    }
    case Kind::EnumMember: // its value; an Enum's members are not ordered (an IntEnum's are)
      add(t.elems[0], offset);
      if (!t.typed) flags &= ~uint32_t(MAHOU_DESC_ORDERED);
      return;
    case Kind::Optional: {
      DescBuilder inner;
      inner.add(t.elems[0], offset);
      refs.insert(refs.end(), inner.refs.begin(), inner.refs.end());
      field(offset, MAHOU_FIELD_OPAQUE, 0);
      flags = 0;
      return;
    }
    default:
      field(offset, MAHOU_FIELD_OPAQUE, 0);
      flags = 0;
      return;
    }
  }
};

} // namespace

std::string typeDescriptor(const Type &t) {
  DescBuilder b;
  b.add(t, 0);
  if (t.isTuple()) {
    b.flags |= MAHOU_DESC_TUPLE;
    bool flat = true;
    for (auto &e : t.elems) flat = flat && !e.isTuple() && !e.isOptional();
    if (flat) b.flags |= MAHOU_DESC_FLAT_TUPLE;
  }
  MahouTypeDesc head{};
  head.size = uint32_t(nativeSize(t));
  head.nrefs = uint16_t(b.refs.size());
  head.nfields = uint16_t(b.fields.size());
  head.flags = b.flags;
  std::string out(mahou::runtime::descBytes(head.nrefs, head.nfields), '\0');
  char *p = out.data();
  std::memcpy(p, &head, sizeof head);
  p += sizeof head;
  if (!b.refs.empty()) std::memcpy(p, b.refs.data(), 4 * b.refs.size()); // (memcpy from null is undefined)
  p += 4 * b.refs.size();
  if (!b.fields.empty()) std::memcpy(p, b.fields.data(), sizeof(MahouField) * b.fields.size());
  return out;
}

} // namespace mahou::types
