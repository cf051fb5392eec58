// The builtins that look at a value's attributes and class: getattr(x, 'name'[, default])
// and hasattr(x, 'name') with a name known at compile time, and type(x).
#include "sema/typers.h"
#include "typer.h"

namespace mahou::sema {

namespace {

// The attribute name: a string known at compile time (a literal, or a variable holding one).
std::string attributeName(Use &u, ExprPtr &name) {
  if (name->type.kind != Kind::Str)
    u.error(u.name + "(): the attribute name must be a string known at compile time, not " + name->type.str());
  return name->type.text;
}


} // namespace

// getattr(x, 'name') is x.name; with a default, the default when x has no such attribute
// (decided at compile time, as Numba).
ExprPtr builtinGetattr(Use &u) {
  auto args = u.args(2, 3);
  for (auto &a : args)
    if (Typing::isUnknown(a)) return u.unknown();
  const std::string name = attributeName(u, args[1]);
  if (args.size() == 3 && !u.t.hasAttribute(args[0], name, u.loc)) return evaluatedThen(u.t, std::move(args[0]), std::move(args[2]), u.loc);
  return u.t.attributeOf(std::move(args[0]), name, u.call->args[0].get(), u.loc);
}

// hasattr(x, 'name'): a bool known at compile time.
ExprPtr builtinHasattr(Use &u) {
  auto args = u.args(2, 2);
  for (auto &a : args)
    if (Typing::isUnknown(a)) return u.unknown();
  const std::string name = attributeName(u, args[1]);
  bool has = u.t.hasAttribute(args[0], name, u.loc);
  return evaluatedThen(u.t, std::move(args[0]), ir::makeConst(Type::boolean(), u.loc, has), u.loc);
}

// type(x): the class of a number (its dtype, which called converts: type(x)(y)) or of a
// jitclass instance (called, it constructs one).
ExprPtr builtinType(Use &u) {
  auto args = u.args(1, 1);
  if (Typing::isUnknown(args[0])) return u.unknown();
  const Type t = args[0]->type;
  if (t.isNumber()) return evaluatedThen(u.t, std::move(args[0]), ir::makeConst(Type::dtypeObj(t.dtype), u.loc, 0), u.loc);
  if (t.isInstance()) return evaluatedThen(u.t, std::move(args[0]), ir::makeConst(Type::classRef(t.handle, t.text), u.loc, 0), u.loc);
  u.notSupported("type() of " + t.str() + " is not supported (only of numbers and jitclass instances)");
}

} // namespace mahou::sema
