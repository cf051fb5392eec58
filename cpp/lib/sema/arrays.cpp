// Typing of subscripts (array elements, basic-slicing views, tuple items) and of
// array attributes (shape, ndim, size, strides, T, dtype, itemsize).
#include "array_index.h"
#include "mahou/range_type.h"

#include "mahou/slice_type.h"

namespace mahou::sema {

ExprPtr FunctionTyper::subscript(const ast::Subscript &s) {
  if (auto flat = flatBase(*s.value)) return flatItem(std::move(flat), *s.index, s.loc);
  auto base = expr(*s.value);
  if (isUnknown(base)) return unknown(s.loc);
  if (base->type.isPointer()) base = pointerView(std::move(base), s.loc);
  // An optional's value (TypeError when None), as Numba indexes Optional(array).
  if (base->type.isOptional()) base = unwrapOptional(std::move(base));
  if (types::isRange(base->type)) return rangeItem(std::move(base), *s.index, s.loc);
  if (base->type.isTuple()) {
    refuseSlice(base->type, s.loc, "is not subscriptable");
    auto idx = constInt(*s.index);
    if (!idx) return tupleSubscript(std::move(base), *s.index, s.loc);
    int64_t n = int64_t(base->type.elems.size());
    int64_t i = *idx < 0 ? *idx + n : *idx;
    if (i < 0 || i >= n) error(s.index->loc, "tuple index out of range");
    auto g = std::make_unique<ir::Expr>(ir::ExprOp::TupleGet, base->type.elems[i], s.loc);
    g->ival = i;
    g->args.push_back(std::move(base));
    return g;
  }
  if (base->type.isRecord() || base->type.isRecordArray()) return recordSubscript(std::move(base), *s.index, s.loc);
  if (base->type.isArray()) return indexArray(std::move(base), *s.index, s.loc);
  base = unwrapOptional(std::move(base));
  if (base->type.isInstance()) return instanceGetItem(std::move(base), *s.index, s.loc);
  if (base->type.isList() || base->type.isString()) {
    requireHost(s.loc, "indexing a " + base->type.str());
    return sequenceSubscript(toUnicode(std::move(base)), *s.index, s.loc);
  }
  if (base->type.isDict()) return dictSubscript(std::move(base), *s.index, s.loc);
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
    return item;
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

ExprPtr FunctionTyper::arrayAttribute(ExprPtr base, const std::string &attr, Loc loc) {
  const Type at = base->type;
  if ((attr == "shape" || attr == "strides") && base->op == ir::ExprOp::ArrayConst) {
    // A frozen global array: its shape and (C-order) strides are constants.
    std::vector<ExprPtr> dims(size_t(at.ndim));
    int64_t stride = types::dtypeBytes(at.dtype);
    for (int i = at.ndim - 1; i >= 0; --i) {
      int64_t extent = base->args[size_t(i)]->ival;
      dims[size_t(i)] = ir::makeConst(Type::int64(), loc, attr == "shape" ? extent : stride);
      stride *= std::max<int64_t>(extent, 1);
    }
    auto t = std::make_unique<ir::Expr>(ir::ExprOp::TupleMake, Type::tuple(std::vector<Type>(size_t(at.ndim), Type::int64())), loc);
    t->args = std::move(dims);
    return t;
  }
  if (attr == "shape" || attr == "strides") {
    // A computed array (xs[0].shape, an optional's value) is evaluated once.
    return bindOnce(std::move(base), [&](const std::function<ExprPtr()> &array) -> ExprPtr {
      std::vector<ExprPtr> dims;
      for (int i = 0; i < at.ndim; ++i) {
        auto d = std::make_unique<ir::Expr>(attr == "shape" ? ir::ExprOp::ArrayShape : ir::ExprOp::ArrayStride,
                                            Type::int64(), loc);
        d->ival = i;
        d->args.push_back(array());
        dims.push_back(std::move(d));
      }
      std::vector<Type> ts(at.ndim, Type::int64());
      auto t = std::make_unique<ir::Expr>(ir::ExprOp::TupleMake, Type::tuple(ts), loc);
      t->args = std::move(dims);
      return t;
    });
  }
  if (attr == "ndim") return ir::makeConst(Type::int64(), loc, at.ndim);
  if (attr == "size") {
    auto s = std::make_unique<ir::Expr>(ir::ExprOp::ArraySize, Type::int64(), loc);
    s->args.push_back(std::move(base));
    return s;
  }
  if (attr == "itemsize") return ir::makeConst(Type::int64(), loc, types::dtypeBytes(at.dtype));
  if (attr == "nbytes") {
    auto s = std::make_unique<ir::Expr>(ir::ExprOp::ArraySize, Type::int64(), loc);
    s->args.push_back(std::move(base));
    auto e = std::make_unique<ir::Expr>(ir::ExprOp::Binary, Type::int64(), loc);
    e->sub = int(ir::BinaryOp::Mul);
    e->args.push_back(std::move(s));
    e->args.push_back(ir::makeConst(Type::int64(), loc, types::dtypeBytes(at.dtype)));
    return e;
  }
  if (attr == "dtype") return ir::makeConst(Type::dtypeObj(at.dtype), loc, 0);
  if (attr == "T") {
    if (at.ndim == 1) return base;
    types::Layout l = at.layout == types::Layout::C   ? types::Layout::F
                      : at.layout == types::Layout::F ? types::Layout::C
                                                      : types::Layout::A;
    auto t = std::make_unique<ir::Expr>(ir::ExprOp::Transpose, Type::array(at.dtype, at.ndim, l, at.readonly), loc);
    t->args.push_back(std::move(base));
    return t;
  }
  if (attr == "flat")
    notSupported(loc, "a.flat is supported only in 'for x in a.flat', 'a.flat[i]' and 'a.flat[i] = v'");
  if ((attr == "real" || attr == "imag") && !at.isRecordArray()) {
    bool imag = attr == "imag";
    if (!types::isComplex(at.dtype)) { // as NumPy and Numba: the array itself; zeros of its shape
      if (!imag) return base;
      auto z = std::make_unique<ir::Expr>(ir::ExprOp::ArrayAlloc, Type::array(at.dtype, at.ndim, types::Layout::C), loc);
      z->sub = int(ir::AllocKind::Zeros);
      z->ival = 1; // the shape of args[0]
      z->args.push_back(std::move(base));
      return z;
    }
    // A view of the real or imaginary parts: the same extents and strides, the data pointer
    // moved by half an item for the imaginary parts (ArrayStrided with a byte offset).
    Type rt = Type::array(types::realOf(at.dtype), at.ndim, types::Layout::A, at.readonly);
    return bindOnce(std::move(base), [&](const std::function<ExprPtr()> &reload) -> ExprPtr {
      auto v = std::make_unique<ir::Expr>(ir::ExprOp::ArrayStrided, rt, loc);
      v->args.push_back(reload());
      for (ir::ExprOp part : {ir::ExprOp::ArrayShape, ir::ExprOp::ArrayStride})
        for (int k = 0; k < at.ndim; ++k) {
          auto d = std::make_unique<ir::Expr>(part, Type::int64(), loc);
          d->ival = k;
          d->args.push_back(reload());
          v->args.push_back(std::move(d));
        }
      v->args.push_back(ir::makeConst(Type::int64(), loc, imag ? types::dtypeBytes(at.dtype) / 2 : 0));
      return v;
    });
  }
  if (attr == "real" || attr == "imag" || attr == "flags")
    notSupported(loc, "array attribute '" + attr + "' is not supported yet");
  error(loc, at.str() + " has no attribute '" + attr + "'");
}

} // namespace mahou::sema
