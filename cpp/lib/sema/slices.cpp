// Typing of slice objects: slice(start, stop, step) as a value, its fields, s.indices(n)
// and slices that index arrays, lists and strings. A slice is a tuple type with the slice
// class's handle (Type::slice): each bound is int64, or none where it was None, so
// which bounds are missing is known when the code is compiled (as Numba's slice2/slice3).
#include "typer.h"
#include "sema/typers.h"
#include "mahou/range_type.h"

#include "mahou/slice_type.h"

namespace mahou::sema {

ExprPtr builtinSlice(Use &u) {
  Typing &t = u.t;
  const ast::Call &e = *u.call;
  t.checkKeywords(e, {}, "slice");
  auto args = t.positionalArgs(e, 1, 3, "slice");
  for (auto &a : args)
    if (t.isUnknown(a)) return t.unknown(e.loc);
  auto none = [&] { return ir::makeConst(Type::none(), e.loc, 0); };
  std::vector<ExprPtr> items;
  if (args.size() == 1) items.push_back(none()); // slice(stop)
  for (auto &a : args) items.push_back(std::move(a));
  while (items.size() < 3) items.push_back(none());
  std::vector<Type> types;
  for (auto &x : items) {
    x = t.unwrapOptional(std::move(x));
    if (!x->type.isNone()) {
      if (!x->type.isInt() && !x->type.isBool())
        t.error(x->loc, "slice bounds must be integers or None in compiled code, not " + x->type.str());
      x = t.toInt64Index(std::move(x), "slice bound");
    }
    types.push_back(x->type);
  }
  auto tup = std::make_unique<ir::Expr>(ir::ExprOp::TupleMake, types::sliceType(types[0], types[1], types[2]), e.loc);
  tup->args = std::move(items);
  return tup;
}

std::vector<ExprPtr> sliceBounds(Typing &t, const ir::Expr &slice, Loc loc) {
  const Type &ty = slice.type;
  std::vector<ExprPtr> out;
  for (size_t i = 0; i < 3; ++i) {
    if (ty.elems[i].isNone()) {
      out.push_back(nullptr);
      continue;
    }
    auto g = std::make_unique<ir::Expr>(ir::ExprOp::TupleGet, ty.elems[i], loc);
    g->ival = int64_t(i);
    g->args.push_back(duplicate(t, slice, "indexing with a slice object"));
    out.push_back(std::move(g));
  }
  return out;
}

ir::ViewSlot sliceSlot(Typing &t, const ir::Expr &slice, Loc loc) {
  ir::ViewSlot slot;
  slot.isSlice = true;
  auto b = sliceBounds(t, slice, loc);
  slot.start = std::move(b[0]);
  slot.stop = std::move(b[1]);
  slot.step = std::move(b[2]);
  return slot;
}

// s.indices(n), as CPython adjusts a slice to a length (mahou._library.internal).
ExprPtr sliceIndicesMethod(Use &u) {
  CallArgs call = u.t.callArgs(*u.call);
  if (call.unknown) return u.unknown();
  if (call.positional.size() != 1 || !call.keywords.empty())
    u.error("slice.indices() takes exactly one argument (the length)");
  if (!call.positional[0]->type.isInt() && !call.positional[0]->type.isBool())
    u.error("slice.indices() needs an integer length, not " + call.positional[0]->type.str());
  const GlobalValue &g = u.t.global("@internal.slice_indices");
  if (g.kind != GlobalValue::Kind::Function) internalError("the library helper slice_indices is missing");
  call.positional.insert(call.positional.begin(), std::move(u.self));
  return u.t.callCompiled(g.handle, "slice.indices", std::move(call), u.loc);
}

void refuseSlice(const Typing &t, const Type &type, Loc loc, const std::string &what) {
  if (types::isSlice(type)) t.error(loc, "'slice' object " + what);
  if (types::isRange(type)) t.notSupported(loc, "'range' object " + what + " in compiled code");
}

} // namespace mahou::sema
