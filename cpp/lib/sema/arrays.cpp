// Typing of subscripts (array elements, basic-slicing views, tuple items) and of
// array attributes (shape, ndim, size, strides, T, dtype, itemsize).
#include "array_index.h"
#include "mahou/range_type.h"
#include "mahou/literal_dict_type.h"

#include "mahou/slice_type.h"

namespace mahou::sema {

ExprPtr FunctionTyper::subscript(const ast::Subscript &s) {
  if (auto flat = flatBase(*s.value)) return flatItem(*this, std::move(flat), *s.index, s.loc);
  auto base = expr(*s.value);
  if (isUnknown(base)) return unknown(s.loc);
  if (base->type.isPointer()) base = pointerView(*this, std::move(base), s.loc);
  // An optional's value (TypeError when None), as Numba indexes Optional(array).
  if (base->type.isOptional()) base = unwrapOptional(std::move(base));
  if (types::isRange(base->type)) return rangeItem(*this, std::move(base), *s.index, s.loc);
  if (types::isLiteralDict(base->type)) { // d['key'], a constant key
    auto key = expr(*s.index);
    if (isUnknown(key)) return unknown(s.loc);
    return literalDictGet(*this, std::move(base), std::move(key), s.loc);
  }
  if (base->type.isTuple()) {
    refuseSlice(*this, base->type, s.loc, "is not subscriptable");
    auto idx = constInt(*s.index);
    if (!idx) return tupleSubscript(*this, std::move(base), *s.index, s.loc);
    int64_t n = int64_t(base->type.elems.size());
    int64_t i = *idx < 0 ? *idx + n : *idx;
    if (i < 0 || i >= n) error(s.index->loc, "tuple index out of range");
    auto g = std::make_unique<ir::Expr>(ir::ExprOp::TupleGet, base->type.elems[i], s.loc);
    g->ival = i;
    g->args.push_back(std::move(base));
    return g;
  }
  if (base->type.isRecord() || base->type.isRecordArray()) return recordSubscript(*this, std::move(base), *s.index, s.loc);
  if (base->type.isArray()) return indexArray(std::move(base), *s.index, s.loc);
  base = unwrapOptional(std::move(base));
  if (base->type.isInstance()) return instanceGetItem(*this, std::move(base), *s.index, s.loc);
  if (base->type.isList() || base->type.isString()) {
    requireHost(s.loc, "indexing a " + base->type.str());
    return sequenceSubscript(*this, toUnicode(*this, std::move(base)), *s.index, s.loc);
  }
  if (base->type.isDict()) return dictSubscript(*this, std::move(base), *s.index, s.loc);
  error(s.loc, "'" + base->type.str() + "' is not subscriptable");
}

ExprPtr FunctionTyper::indexArray(ExprPtr base, const ast::Expr &index, Loc loc) {
  ArrayIndex ix = arrayIndexParts(base->type, index);
  if (ix.unknown) return unknown(loc);
  auto lets = std::move(ix.lets);
  ExprPtr r = ix.advanced() ? fancyGet(std::move(base), std::move(ix.parts), loc)
                            : basicIndex(std::move(base), std::move(ix.parts), loc);
  return wrapBindings(std::move(lets), std::move(r), loc);
}

ExprPtr FunctionTyper::basicIndex(ExprPtr base, std::vector<IndexPart> parts, Loc loc) {
  const Type at = base->type;
  int given = 0;
  for (auto &p : parts) given += p.axes();
  std::vector<ir::ViewSlot> slots;
  bool anySlice = false; // the result is a view (a slice, a new axis or an Ellipsis is in the index)
  auto full = [] {
    ir::ViewSlot s;
    s.isSlice = true;
    return s;
  };
  for (auto &p : parts) {
    switch (p.kind) {
    case IndexPart::Kind::Ellipsis:
      for (int k = 0; k < at.ndim - given; ++k) slots.push_back(full());
      anySlice = true;
      break;
    case IndexPart::Kind::NewAxis: {
      ir::ViewSlot s;
      s.newAxis = true;
      slots.push_back(std::move(s));
      anySlice = true;
      break;
    }
    case IndexPart::Kind::Slice:
      slots.push_back(std::move(p.slot));
      anySlice = true;
      break;
    case IndexPart::Kind::Integer: {
      ir::ViewSlot s;
      s.index = std::move(p.value);
      slots.push_back(std::move(s));
      break;
    }
    default: internalError("basicIndex: an advanced index part");
    }
  }
  // Unindexed trailing dimensions are full slices.
  bool ellipsis = false;
  for (auto &p : parts) ellipsis |= p.kind == IndexPart::Kind::Ellipsis;
  for (int k = ellipsis ? at.ndim : given; k < at.ndim; ++k) {
    slots.push_back(full());
    anySlice = true;
  }
  if (!anySlice) {
    auto item = std::make_unique<ir::Expr>(ir::ExprOp::ArrayItem, Type::scalar(at.dtype), loc);
    item->args.push_back(std::move(base));
    for (auto &s : slots) item->args.push_back(std::move(s.index));
    return bufferItem(at, std::move(item)); // a bytes' item is a Python int
  }
  // Layout of the view: C is kept when leading integer indices are followed by at
  // most one step-less slice and then full slices (a row, a block of rows); new axes
  // (length 1) change nothing.
  int ndim = 0;
  bool keepC = at.layout == types::Layout::C;
  bool seenSlice = false;
  for (auto &s : slots) {
    if (s.newAxis) {
      ++ndim;
      continue;
    }
    if (!s.isSlice) {
      if (seenSlice) keepC = false;
      continue;
    }
    ++ndim;
    bool isFull = !s.start && !s.stop && !s.step;
    if (seenSlice && !isFull) keepC = false;
    if (s.step) keepC = false;
    seenSlice = true;
  }
  types::Layout layout = keepC ? types::Layout::C : types::Layout::A;
  if (at.layout == types::Layout::F && ndim == at.ndim) {
    bool allFull = true;
    for (auto &s : slots) allFull &= s.isSlice && !s.start && !s.stop && !s.step;
    if (allFull) layout = types::Layout::F;
  }
  if (ndim == 1 && at.ndim == 1 && keepC) layout = types::Layout::C;
  auto view = std::make_unique<ir::Expr>(ir::ExprOp::ArrayView,
                                         Type::array(at.dtype, ndim, layout, at.readonly), loc);
  view->type.buffer = at.buffer; // a slice of a bytes is a bytes (Numba's Buffer.copy)
  view->args.push_back(std::move(base));
  view->slots = std::move(slots);
  return view;
}

std::optional<std::vector<ExprPtr>> FunctionTyper::elementIndices(const Type &arrayType,
                                                                  const ast::Expr &index) {
  ArrayIndex ix = arrayIndexParts(arrayType, index);
  std::vector<ExprPtr> out;
  if (ix.unknown) {
    out.push_back(unknown(index.loc));
    return out;
  }
  if (!ix.lets.empty() || !ix.element(arrayType.ndim)) return std::nullopt;
  for (auto &p : ix.parts) out.push_back(std::move(p.value));
  return out;
}

} // namespace mahou::sema
