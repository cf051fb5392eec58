// Typing of hash(x) with CPython's values: numbers, bools, strings and None hash in the
// runtime (codegen/hashing.cpp), a tuple combines its items' hashes as CPython does (so
// nested tuples and instances inside tuples hash item by item), and a @jitclass
// instance calls its __hash__.
#include "typer.h"
#include "sema/arrays.h"
#include "sema/typers.h"
#include "mahou/literal_dict_type.h"
#include "mahou/literal_list_type.h"
#include "mahou/range_type.h"

#include "mahou/jitclass.h"
#include "mahou/slice_type.h"

namespace mahou::sema {

using ObjectOp = ir::ObjectOp;

ExprPtr builtinHash(Use &u) {
  Typing &t = u.t;
  const ast::Call &e = *u.call;
  t.requireHost(e.loc, "hash()");
  t.checkKeywords(e, {}, "hash");
  auto args = t.positionalArgs(e, 1, 1, "hash");
  return hashOf(t, std::move(args[0]), e.loc);
}

// x.__hash__() of a number, a string or a tuple: hash(x), as Numba's __hash__ methods
// (numbers.def, strings.def, tuples.def).
ExprPtr dunderHashMethod(Use &u) {
  u.t.requireHost(u.loc, "__hash__()");
  u.args(0, 0);
  return hashOf(u.t, std::move(u.self), u.loc);
}

ExprPtr hashOf(Typing &t, ExprPtr x, Loc loc) {
  if (t.isUnknown(x)) return x;
  const Type ty = x->type;
  auto one = [&](ObjectOp op, ExprPtr v) {
    std::vector<ExprPtr> a;
    a.push_back(std::move(v));
    return objectOp(t, op, Type::int64(), std::move(a), loc);
  };
  if (ty.isString()) return one(ObjectOp::HashValue, toUnicode(t, std::move(x)));
  if (isBytesValue(ty)) return bytesHash(t, std::move(x), loc); // CPython's: that of the latin-1 str
  if (ty.isBuffer()) t.notSupported(loc, "hash() of a " + ty.str() + " is not supported (only bytes values hash)");
  if (ty.isNumber() || ty.isNone()) return one(ObjectOp::HashValue, std::move(x));
  if (types::isSlice(ty)) t.error(loc, "unhashable type: 'slice'"); // as in Python 3.11
  if (types::isRange(ty)) t.notSupported(loc, "hashing a range object is not supported");
  if (types::isLiteralList(ty)) t.error(loc, "unhashable type: 'list'");
  if (types::isLiteralDict(ty)) t.error(loc, "unhashable type: '" + types::literalDictViewName(ty) + "'");
  if (ty.isTuple()) {
    return t.bindOnce(std::move(x), [&](const std::function<ExprPtr()> &v) -> ExprPtr {
      std::vector<ExprPtr> lanes;
      for (size_t i = 0; i < ty.elems.size(); ++i) {
        auto item = std::make_unique<ir::Expr>(ir::ExprOp::TupleGet, ty.elems[i], loc);
        item->ival = int64_t(i);
        item->args.push_back(v());
        lanes.push_back(hashOf(t, std::move(item), loc));
        if (t.isUnknown(lanes.back())) return t.unknown(loc);
      }
      return objectOp(t, ObjectOp::HashTuple, Type::int64(), std::move(lanes), loc);
    });
  }
  if (ty.isInstance()) {
    const JitClassInfo &c = t.jitClassOf(ty, loc);
    if (!c.method("__hash__")) {
      if (c.method("__eq__")) t.error(loc, "unhashable type: '" + c.name + "' (it defines __eq__ without __hash__)");
      t.error(loc, "hash() of a '" + c.name +
                     "' instance needs its class to define __hash__ (identity hashes are not supported in compiled code)");
    }
    std::vector<ExprPtr> a;
    a.push_back(std::move(x));
    auto r = specialMethod(t, "__hash__", std::move(a), loc);
    if (t.isUnknown(r)) return r;
    if (!r->type.isInt() && !r->type.isBool())
      t.error(loc, "__hash__ method of '" + c.name + "' should return an integer, not " + r->type.str());
    return one(ObjectOp::HashFinish, ir::makeCast(std::move(r), Type::int64()));
  }
  if (ty.isOptional()) t.notSupported(loc, "hash() of an optional value is not supported (test it against None first)");
  t.error(loc, "unhashable type: '" + ty.str() + "'");
}

} // namespace mahou::sema
