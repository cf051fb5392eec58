// Typing of `raise E(args...)` with run-time arguments: each argument a number, bool,
// string or None, evaluated in order and carried to Python as the exception's args.
#include "typer.h"

namespace mahou::sema {

void FunctionTyper::raiseArguments(const ast::Call &call, ir::Stmt &st) {
  for (auto &a : call.args) {
    if (a->kind == ast::ExprKind::Starred) notSupported(a->loc, "*args in an exception's arguments is not supported");
    auto v = expr(*a);
    if (isUnknown(v)) {
      st.exprs.push_back(std::move(v));
      continue;
    }
    if (v->type.isOptional()) v = unwrapOptional(std::move(v));
    const Type &t = v->type;
    if (t.isString()) {
      v = toUnicode(std::move(v));
    } else if (t.isComplex()) {
      notSupported(a->loc, "a complex number as an exception argument is not supported (format it into the message)");
    } else if (!t.isNumber() && !t.isNone()) {
      notSupported(a->loc, "exception arguments must be numbers, bools, strings or None, not " + t.str());
    }
    st.exprs.push_back(std::move(v));
  }
}

} // namespace mahou::sema
