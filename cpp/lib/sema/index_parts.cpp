// Typing of the parts of an array subscript, once each: integers, slices, Ellipsis,
// None / np.newaxis, index arrays and booleans, a tuple index spread into its items.
#include "mahou/literal_dict_type.h"
#include "array_index.h"
#include "mahou/range_type.h"
#include "mahou/slice_type.h"

namespace mahou::sema {

int IndexPart::axes() const {
  switch (kind) {
  case Kind::Slice:
  case Kind::Integer:
  case Kind::IntArray: return 1;
  case Kind::BoolArray: return value->type.ndim;
  default: return 0;
  }
}

IndexPart IndexPart::cloned() const {
  IndexPart p{kind, loc, value ? ir::clone(*value) : nullptr, {}};
  p.slot.isSlice = slot.isSlice;
  p.slot.newAxis = slot.newAxis;
  for (auto [from, to] : {std::pair{&slot.start, &p.slot.start}, {&slot.stop, &p.slot.stop}, {&slot.step, &p.slot.step},
                          {&slot.index, &p.slot.index}})
    if (*from) *to = ir::clone(**from);
  return p;
}

bool ArrayIndex::advanced() const {
  for (auto &p : parts)
    if (p.arrayLike()) return true;
  return false;
}

bool ArrayIndex::hasEllipsis() const {
  for (auto &p : parts)
    if (p.kind == IndexPart::Kind::Ellipsis) return true;
  return false;
}

bool ArrayIndex::element(int ndim) const {
  if (int(parts.size()) != ndim) return false;
  for (auto &p : parts)
    if (p.kind != IndexPart::Kind::Integer) return false;
  return true;
}

namespace {

// The index expressions of a subscript: a[i, j] → {i, j}; a[i] → {i}.
std::vector<const ast::Expr *> astParts(const ast::Expr &index) {
  std::vector<const ast::Expr *> parts;
  if (auto *t = index.as<ast::Tuple>())
    for (auto &e : t->elts) parts.push_back(e.get());
  else
    parts.push_back(&index);
  return parts;
}

using K = IndexPart::Kind;

// A typed index value as a part (a variable's tuple has been spread already).
void addValue(FunctionTyper &t, ExprPtr v, Loc loc, ArrayIndex &ix) {
  if (v->type.isOptional()) v = t.unwrapOptional(std::move(v)); // its value (TypeError when None)
  const Type vt = v->type;
  if (vt.isNone()) {
    ix.parts.push_back({K::NewAxis, loc, nullptr, {}});
    return;
  }
  if (types::isSlice(vt)) {
    ix.parts.push_back({K::Slice, loc, nullptr, sliceSlot(t, *v, loc)});
    return;
  }
  if (types::isRange(vt)) t.notSupported(loc, "a 'range' object as an array index is not supported");
  if (vt.isTuple()) t.notSupported(loc, "a tuple inside an index is not supported");
  if (vt.isArray()) {
    if (vt.isRecordArray() || (!types::isInteger(vt.dtype) && vt.dtype != DType::Bool))
      t.error(loc, "arrays used as indices must be of integer (or boolean) type, not " + vt.str());
    if (vt.ndim == 0) { // a 0-d array indexes as its value (as Numba)
      auto item = std::make_unique<ir::Expr>(ir::ExprOp::ArrayItem, Type::scalar(vt.dtype), loc);
      item->args.push_back(std::move(v));
      addValue(t, std::move(item), loc, ix);
      return;
    }
    ix.parts.push_back({vt.dtype == DType::Bool ? K::BoolArray : K::IntArray, loc, std::move(v), {}});
    return;
  }
  if (vt.isBool()) {
    ix.parts.push_back({K::BoolScalar, loc, std::move(v), {}});
    return;
  }
  ix.parts.push_back({K::Integer, loc, t.toInt64Index(std::move(v), "array index"), {}});
}

} // namespace

ArrayIndex FunctionTyper::arrayIndexParts(const Type &at, const ast::Expr &index) {
  ArrayIndex ix;
  auto parts = astParts(index);
  for (auto *p : parts) {
    if (p->kind == ast::ExprKind::EllipsisLit) {
      if (ix.hasEllipsis()) error(p->loc, "an index can only have a single ellipsis ('...')");
      ix.parts.push_back({K::Ellipsis, p->loc, nullptr, {}});
      continue;
    }
    if (auto *sl = p->as<ast::Slice>()) {
      IndexPart part{K::Slice, p->loc, nullptr, {}};
      part.slot.isSlice = true;
      auto bound = [&](const ast::ExprPtr &x) -> ExprPtr {
        if (!x) return nullptr;
        auto v = expr(*x);
        if (isUnknown(v)) {
          ix.unknown = true;
          return nullptr;
        }
        if (v->type.isNone()) return nullptr;
        return toInt64Index(std::move(v), "slice bound");
      };
      part.slot.start = bound(sl->lower);
      part.slot.stop = bound(sl->upper);
      part.slot.step = bound(sl->step);
      ix.parts.push_back(std::move(part));
      continue;
    }
    auto v = expr(*p);
    if (isUnknown(v)) {
      ix.unknown = true;
      continue;
    }
    refuseLiteralDict(*this, v->type, p->loc, "cannot index an array");
    if (parts.size() == 1 && v->type.isTuple() && !types::isSlice(v->type) && !types::isRange(v->type)) {
      // a[idx] with idx a tuple: its items are the parts (a[np.nonzero(m)], a[(s, 0)])
      CallArgs holder;
      for (auto &item : spreadTuple(std::move(v), p->loc, &holder)) addValue(*this, std::move(item), p->loc, ix);
      ix.lets = std::move(holder.lets);
      continue;
    }
    addValue(*this, std::move(v), p->loc, ix);
  }
  if (ix.unknown) return ix;
  int given = 0;
  for (auto &p : ix.parts) given += p.axes();
  if (given > at.ndim)
    error(index.loc, "too many indices for array: array is " + std::to_string(at.ndim) + "-dimensional, but " +
                         std::to_string(given) + " were indexed");
  return ix;
}

} // namespace mahou::sema
