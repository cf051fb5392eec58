// Typing of `raise E(args...)` and `assert c, msg` with run-time arguments: each a
// number, bool, string or None, evaluated in order (an assert's message only when the
// assertion fails) and carried to Python as the exception's args.
#include "typer.h"

namespace mahou::sema {

ExprPtr FunctionTyper::exceptionArgument(const ast::Expr &a) {
  if (a.kind == ast::ExprKind::Starred) notSupported(a.loc, "*args in an exception's arguments is not supported");
  auto v = expr(a);
  if (isUnknown(v)) return v;
  if (v->type.isOptional()) v = unwrapOptional(std::move(v));
  const Type &t = v->type;
  if (t.isString()) return toUnicode(*this, std::move(v));
  if (t.isComplex())
    notSupported(a.loc, "a complex number as an exception argument is not supported (format it into the message)");
  if (!t.isNumber() && !t.isNone())
    notSupported(a.loc, "exception arguments must be numbers, bools, strings or None, not " + t.str());
  return v;
}

void FunctionTyper::raiseArguments(const ast::Call &call, ir::Stmt &st) {
  for (auto &a : call.args) st.exprs.push_back(exceptionArgument(*a));
}

} // namespace mahou::sema
