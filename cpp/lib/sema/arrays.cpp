// Typing of subscripts (array elements, basic-slicing views, tuple items) and of
// array attributes (shape, ndim, size, strides, T, dtype, itemsize).
#include "typer.h"
#include "mahou/range_type.h"

#include "mahou/slice_type.h"

namespace mahou::sema {

namespace {

// The index expressions of a subscript: a[i, j] → {i, j}; a[i] → {i}.
std::vector<const ast::Expr *> indexParts(const ast::Expr &index) {
  std::vector<const ast::Expr *> parts;
  if (auto *t = index.as<ast::Tuple>())
    for (auto &e : t->elts) parts.push_back(e.get());
  else
    parts.push_back(&index);
  return parts;
}

} // namespace

ExprPtr FunctionTyper::subscript(const ast::Subscript &s) {
  if (auto flat = flatBase(*s.value)) return flatItem(*this, std::move(flat), *s.index, s.loc);
  auto base = expr(*s.value);
  if (isUnknown(base)) return unknown(s.loc);
  if (base->type.isPointer()) base = pointerView(*this, std::move(base), s.loc);
  if (base->type.isOptional() && types::isRange(base->type.elems[0])) base = unwrapOptional(std::move(base));
  if (types::isRange(base->type)) return rangeItem(*this, std::move(base), *s.index, s.loc);
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
  const Type at = base->type;
  auto parts = indexParts(index);
  // Expand an Ellipsis into full slices.
  int ellipsis = -1;
  for (size_t i = 0; i < parts.size(); ++i)
    if (parts[i]->kind == ast::ExprKind::EllipsisLit) {
      if (ellipsis >= 0) error(parts[i]->loc, "an index can only have a single ellipsis ('...')");
      ellipsis = int(i);
    }
  int given = int(parts.size()) - (ellipsis >= 0 ? 1 : 0);
  if (given > at.ndim)
    error(loc, "too many indices for array: array is " + std::to_string(at.ndim) + "-dimensional, but " +
                   std::to_string(given) + " were indexed");
  std::vector<ir::ViewSlot> slots;
  bool anySlice = false;
  bool unknownSeen = false;
  for (size_t i = 0; i < parts.size(); ++i) {
    const ast::Expr &p = *parts[i];
    if (int(i) == ellipsis) {
      for (int k = 0; k < at.ndim - given; ++k) {
        ir::ViewSlot full;
        full.isSlice = true;
        slots.push_back(std::move(full));
      }
      anySlice = true;
      continue;
    }
    if (auto *sl = p.as<ast::Slice>()) {
      ir::ViewSlot slot;
      slot.isSlice = true;
      auto part = [&](const ast::ExprPtr &x) -> ExprPtr {
        if (!x) return nullptr;
        auto v = expr(*x);
        if (isUnknown(v)) {
          unknownSeen = true;
          return v;
        }
        if (v->type.isNone()) return nullptr;
        return toInt64Index(std::move(v), "slice bound");
      };
      slot.start = part(sl->lower);
      slot.stop = part(sl->upper);
      slot.step = part(sl->step);
      slots.push_back(std::move(slot));
      anySlice = true;
      continue;
    }
    auto v = expr(p);
    if (isUnknown(v)) {
      unknownSeen = true;
      continue;
    }
    if (types::isSlice(v->type)) { // a slice object: a[s], a[s, 0]
      slots.push_back(sliceSlot(*this, *v, p.loc));
      anySlice = true;
      continue;
    }
    if (v->type.isArray() && parts.size() == 1) return gather(*this, std::move(base), std::move(v), loc);
    if (v->type.isArray() && ellipsis < 0) { // a[i0, i1], a[i0, 2]: every part typed again, together
      std::vector<ExprPtr> indices;
      for (auto *q : parts) {
        if (q->kind == ast::ExprKind::Slice)
          notSupported(q->loc, "mixing index arrays with slices is not supported yet");
        indices.push_back(expr(*q));
        if (isUnknown(indices.back())) return unknown(loc);
      }
      return gatherMulti(*this, std::move(base), std::move(indices), loc);
    }
    if (v->type.isTuple() && parts.size() == 1) { // a[idx] with idx a tuple of integers: a[i, j, ...]
      if (int(v->type.elems.size()) > at.ndim)
        error(loc, "too many indices for array: array is " + std::to_string(at.ndim) + "-dimensional, but " +
                       std::to_string(v->type.elems.size()) + " were indexed");
      for (auto &item : spreadTuple(std::move(v), p.loc, nullptr)) {
        if (types::isSlice(item->type)) { // a[(s1, s2)] with the tuple in a variable
          slots.push_back(sliceSlot(*this, *item, p.loc));
          anySlice = true;
          continue;
        }
        ir::ViewSlot slot;
        slot.index = toInt64Index(std::move(item), "array index");
        slots.push_back(std::move(slot));
      }
      continue;
    }
    if (v->type.isArray() || v->type.isTuple())
      notSupported(p.loc, "advanced indexing with several index arrays or tuples is not supported yet");
    if (v->type.isNone()) notSupported(p.loc, "np.newaxis / None in an index is not supported yet");
    ir::ViewSlot slot;
    slot.index = toInt64Index(std::move(v), "array index");
    slots.push_back(std::move(slot));
  }
  if (unknownSeen) return unknown(loc);
  // Unindexed trailing dimensions are full slices.
  while (int(slots.size()) < at.ndim) {
    ir::ViewSlot full;
    full.isSlice = true;
    slots.push_back(std::move(full));
    anySlice = true;
  }
  if (!anySlice) {
    auto item = std::make_unique<ir::Expr>(ir::ExprOp::ArrayItem, Type::scalar(at.dtype), loc);
    item->args.push_back(std::move(base));
    for (auto &s : slots) item->args.push_back(std::move(s.index));
    return item;
  }
  // Layout of the view: C is kept when leading integer indices are followed by at
  // most one step-less slice and then full slices (a row, a block of rows).
  int ndim = 0;
  bool keepC = at.layout == types::Layout::C;
  bool seenSlice = false;
  for (auto &s : slots) {
    if (!s.isSlice) {
      if (seenSlice) keepC = false;
      continue;
    }
    ++ndim;
    bool full = !s.start && !s.stop && !s.step;
    if (seenSlice && !full) keepC = false;
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
  auto parts = indexParts(index);
  std::vector<ExprPtr> out;
  if (parts.size() == 1 && arrayType.ndim > 1 && parts[0]->kind != ast::ExprKind::Slice &&
      parts[0]->kind != ast::ExprKind::EllipsisLit) { // a[idx] = v with idx a tuple of ndim integers
    auto v = expr(*parts[0]);
    if (isUnknown(v)) {
      out.push_back(std::move(v));
      return out;
    }
    if (!v->type.isTuple() || int(v->type.elems.size()) != arrayType.ndim) return std::nullopt;
    for (const Type &item : v->type.elems)
      if (types::isSlice(item)) return std::nullopt; // a view: a[(s, 0)] = v
    if (types::isSlice(v->type)) return std::nullopt;
    for (auto &item : spreadTuple(std::move(v), parts[0]->loc, nullptr)) out.push_back(toInt64Index(std::move(item), "array index"));
    return out;
  }
  if (int(parts.size()) != arrayType.ndim) return std::nullopt;
  for (auto *p : parts) {
    if (p->kind == ast::ExprKind::Slice || p->kind == ast::ExprKind::EllipsisLit) return std::nullopt;
    auto v = expr(*p);
    if (!isUnknown(v)) {
      if (types::isSlice(v->type)) return std::nullopt; // a view: a[s, 0] = v
      if (v->type.isTuple()) notSupported(p->loc, "a tuple inside an index is not supported");
      if (v->type.isArray())
        notSupported(p->loc, "storing through an index array together with other indices is not supported yet "
                             "(a[idx] = v and a[mask] = v are)");
      v = toInt64Index(std::move(v), "array index");
    }
    out.push_back(std::move(v));
  }
  return out;
}

} // namespace mahou::sema
