// Typing of advanced indexing (NumPy's rules): index arrays and booleans together with
// integers, slices, Ellipsis and new axes, in reads (a new array), stores and `op=`.
// a[mask] and a[idx] of a 1-D array keep their own gather/scatter; every other form is
// an ArrayFancyGet over a basic view of the array: one entry per axis of the view (kept,
// or indexed by an integer or an integer array), boolean arrays turned into the integer
// arrays of their True positions first (as NumPy does).
#include "array_index.h"
#include "mahou/datetime_units.h"

namespace mahou::sema {

namespace {

using K = IndexPart::Kind;

// a[mask] with a mask of the array's shape, a[idx] of a 1-D array: the gather/scatter ops.
bool simpleIndex(const Type &at, const std::vector<IndexPart> &parts) {
  if (parts.size() != 1) return false;
  const IndexPart &p = parts[0];
  if (p.kind == K::BoolArray) return p.value->type.ndim == at.ndim;
  return p.kind == K::IntArray && at.ndim == 1;
}

ExprPtr gather(ExprPtr base, ExprPtr index, Loc loc) {
  const Type at = base->type, it = index->type;
  Type rt = it.dtype == DType::Bool ? Type::array(at.dtype, 1, types::Layout::C)
                                    : Type::array(at.dtype, it.ndim, types::Layout::C);
  auto g = std::make_unique<ir::Expr>(ir::ExprOp::ArrayGather, rt, loc);
  g->args.push_back(std::move(base));
  g->args.push_back(std::move(index));
  return g;
}

// A compiled helper of the library (python/mahou/_library/internal.py).
ExprPtr internalCall(FunctionTyper &t, const std::string &name, std::vector<ExprPtr> args, Loc loc) {
  const GlobalValue &g = t.global("@internal." + name);
  if (g.kind != GlobalValue::Kind::Function) internalError("the library helper " + name + " is missing");
  CallArgs call;
  call.positional = std::move(args);
  return t.callCompiled(g.handle, name, std::move(call), loc);
}

// Builds the ArrayFancyGet naming the elements `parts` select from `base`; values that
// must be evaluated first (the base when a mask needs its shape, the True positions of
// masks) go into `lets`.
ExprPtr selection(FunctionTyper &t, ExprPtr base, std::vector<IndexPart> parts, Loc loc,
                  std::vector<std::pair<int, ExprPtr>> &lets) {
  const Type at = base->type;
  bool masks = false;
  int given = 0;
  for (auto &p : parts) {
    masks |= p.kind == K::BoolArray;
    given += p.axes();
  }
  if (masks && !t.isPureValue(*base)) { // its shape is read again for each mask
    int var = t.tempVar(at, loc);
    lets.emplace_back(var, std::move(base));
    base = t.load(var, loc);
  }
  // NumPy puts the broadcast axes where the advanced indices were when they are
  // adjacent (integers count as advanced here), first otherwise.
  int first = -1, last = -1;
  for (size_t i = 0; i < parts.size(); ++i)
    if (parts[i].arrayLike() || parts[i].kind == K::Integer) {
      if (first < 0) first = int(i);
      last = int(i);
    }
  bool adjacent = true;
  for (int i = first; i <= last; ++i) adjacent &= parts[i].arrayLike() || parts[i].kind == K::Integer;

  std::vector<ir::ViewSlot> slots; // of the view V the entries index
  std::vector<ExprPtr> entries;    // one per axis of V: none (kept) or its index
  auto none = [&] { return ir::makeConst(Type::none(), loc, 0); };
  auto keep = [&] {
    ir::ViewSlot s;
    s.isSlice = true;
    slots.push_back(std::move(s));
  };
  int axis = 0; // of the base
  for (auto &p : parts) {
    switch (p.kind) {
    case K::Ellipsis:
      for (int k = 0; k < at.ndim - given; ++k, ++axis) {
        keep();
        entries.push_back(none());
      }
      break;
    case K::NewAxis: {
      ir::ViewSlot s;
      s.newAxis = true;
      slots.push_back(std::move(s));
      entries.push_back(none());
      break;
    }
    case K::Slice:
      slots.push_back(std::move(p.slot));
      entries.push_back(none());
      ++axis;
      break;
    case K::Integer:
    case K::IntArray:
      keep();
      entries.push_back(std::move(p.value));
      ++axis;
      break;
    case K::BoolArray: { // the coordinates of its True elements: one row per axis it indexes
      const int k = p.value->type.ndim;
      std::vector<ExprPtr> extents;
      for (int d = 0; d < k; ++d) {
        auto s = std::make_unique<ir::Expr>(ir::ExprOp::ArrayShape, Type::int64(), p.loc);
        s->ival = axis + d;
        s->args.push_back(ir::clone(*base));
        extents.push_back(std::move(s));
      }
      auto shape = std::make_unique<ir::Expr>(ir::ExprOp::TupleMake, Type::tuple(std::vector<Type>(k, Type::int64())), p.loc);
      shape->args = std::move(extents);
      std::vector<ExprPtr> args;
      args.push_back(std::move(p.value));
      args.push_back(std::move(shape));
      auto coords = internalCall(t, "mask_indices", std::move(args), p.loc);
      if (t.isUnknown(coords)) return t.unknown(loc);
      int var = t.tempVar(coords->type, p.loc);
      lets.emplace_back(var, std::move(coords));
      for (int d = 0; d < k; ++d, ++axis) {
        keep();
        auto row = std::make_unique<ir::Expr>(ir::ExprOp::ArrayView, Type::array(DType::Int64, 1, types::Layout::C), p.loc);
        row->args.push_back(t.load(var, p.loc));
        ir::ViewSlot at;
        at.index = ir::makeConst(Type::int64(), p.loc, d);
        row->slots.push_back(std::move(at));
        ir::ViewSlot all;
        all.isSlice = true;
        row->slots.push_back(std::move(all));
        entries.push_back(std::move(row));
      }
      break;
    }
    case K::BoolScalar: { // a new axis of length 1, indexed by [0] (True) or by [] (False)
      ir::ViewSlot s;
      s.newAxis = true;
      slots.push_back(std::move(s));
      std::vector<ExprPtr> args;
      args.push_back(std::move(p.value));
      auto idx = internalCall(t, "bool_index", std::move(args), p.loc);
      if (t.isUnknown(idx)) return t.unknown(loc);
      entries.push_back(std::move(idx));
      break;
    }
    }
  }
  for (; axis < at.ndim; ++axis) {
    keep();
    entries.push_back(none());
  }
  bool whole = true; // V is the base itself
  for (auto &s : slots) whole &= s.isSlice && !s.start && !s.stop && !s.step;
  ExprPtr view = std::move(base);
  if (!whole) {
    int kept = int(slots.size());
    auto v = std::make_unique<ir::Expr>(ir::ExprOp::ArrayView, Type::array(at.dtype, kept, types::Layout::A, at.readonly), loc);
    v->args.push_back(std::move(view));
    v->slots = std::move(slots);
    view = std::move(v);
  }
  int kept = 0, broadcast = 0;
  for (auto &e : entries) {
    if (e->type.isNone()) ++kept;
    else if (e->type.isArray()) broadcast = std::max(broadcast, e->type.ndim);
  }
  auto g = std::make_unique<ir::Expr>(ir::ExprOp::ArrayFancyGet, Type::array(at.dtype, kept + broadcast, types::Layout::C), loc);
  g->ival = adjacent ? 0 : 1;
  g->args.push_back(std::move(view));
  for (auto &e : entries) g->args.push_back(std::move(e));
  return g;
}

void refuseRecords(FunctionTyper &t, const Type &at, Loc loc) {
  if (at.isRecordArray()) t.notSupported(loc, "indexing " + at.str() + " with an index array is not supported");
}

} // namespace

ExprPtr FunctionTyper::fancyGet(ExprPtr base, std::vector<IndexPart> parts, Loc loc) {
  refuseRecords(*this, base->type, loc);
  requireHost(loc, "advanced indexing");
  if (simpleIndex(base->type, parts)) return gather(std::move(base), std::move(parts[0].value), loc);
  std::vector<std::pair<int, ExprPtr>> lets;
  auto g = selection(*this, std::move(base), std::move(parts), loc, lets);
  return wrapBindings(std::move(lets), std::move(g), loc);
}

void FunctionTyper::fancyStore(ExprPtr base, ArrayIndex ix, ExprPtr value, Loc loc, ir::Block &out) {
  const Type at = base->type;
  refuseRecords(*this, at, loc);
  requireHost(loc, "advanced indexing");
  if (at.readonly) error(loc, "cannot assign to a read-only array");
  if (value->type.isTuple()) value = tupleAsArray(*this, std::move(value), loc); // a[idx] = (x, y)
  else if (value->type.isList()) value = arrayFromList(*this, std::move(value), std::nullopt, "storing a list", loc);
  if (isUnknown(value)) return;
  const Type vt = value->type;
  if (vt.isRecordArray()) error(loc, "cannot store " + vt.str() + " into " + at.str());
  if (!vt.isNumber() && !vt.isDatetimeLike() && !vt.isArray()) error(loc, "cannot store " + vt.str() + " into an array of " + types::dtypeName(at.dtype));
  if (vt.isArray() && vt.dtype != at.dtype && (types::isDatetimeLike(vt.dtype) || types::isDatetimeLike(at.dtype)) &&
      !types::convertsExactly(vt.dtype, at.dtype))
    error(loc, "cannot store " + vt.str() + " into an array of " + types::dtypeName(at.dtype));
  if (vt.isNumber() || vt.isDatetimeLike()) value = convert(storedScalar(std::move(value), at.dtype, loc), Type::scalar(at.dtype), "array store");
  for (auto &[var, v] : ix.lets) out.push_back(assignVar(var, std::move(v), loc));
  if (simpleIndex(at, ix.parts) && (vt.isNumber() || vt.isDatetimeLike() || vt.ndim == 1)) { // a[mask] = v, a[idx] = v
    auto st = std::make_unique<ir::Stmt>(ir::StmtOp::Scatter, loc);
    st->exprs.push_back(std::move(base));
    st->exprs.push_back(std::move(ix.parts[0].value));
    st->exprs.push_back(std::move(value));
    out.push_back(std::move(st));
    return;
  }
  std::vector<std::pair<int, ExprPtr>> lets;
  auto g = selection(*this, std::move(base), std::move(ix.parts), loc, lets);
  if (isUnknown(g)) return;
  for (auto &[var, v] : lets) out.push_back(assignVar(var, std::move(v), loc));
  auto st = std::make_unique<ir::Stmt>(ir::StmtOp::FancyStore, loc);
  st->exprs.push_back(std::move(g));
  st->exprs.push_back(std::move(value));
  out.push_back(std::move(st));
}

void FunctionTyper::fancyAugAssign(ExprPtr base, ArrayIndex ix, const ast::AugAssign &s, ir::Block &out) {
  // a[idx] op= v is a[idx] = a[idx] op v with the array and each index evaluated once
  // (as NumPy: an index given twice is read and written once per occurrence, the last wins).
  auto once = [&](ExprPtr &e) {
    if (!e || e->op == ir::ExprOp::LoadVar || e->op == ir::ExprOp::Const) return;
    int var = tempVar(e->type, s.loc);
    out.push_back(assignVar(var, std::move(e), s.loc));
    e = load(var, s.loc);
  };
  for (auto &[var, v] : ix.lets) out.push_back(assignVar(var, std::move(v), s.loc));
  ix.lets.clear();
  once(base);
  for (auto &p : ix.parts) {
    once(p.value);
    once(p.slot.start);
    once(p.slot.stop);
    once(p.slot.step);
  }
  std::vector<IndexPart> again;
  for (auto &p : ix.parts) again.push_back(p.cloned());
  auto current = fancyGet(ir::clone(*base), std::move(again), s.loc);
  auto value = binary(s.op, std::move(current), expr(*s.value), s.loc);
  if (isUnknown(value)) return;
  fancyStore(std::move(base), std::move(ix), std::move(value), s.loc, out);
}

} // namespace mahou::sema
