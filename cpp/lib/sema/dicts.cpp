// Typing of dicts and sets: displays, comprehensions, subscripts, `in`, del.
#include "typer.h"

namespace mahou::sema {

ExprPtr FunctionTyper::dictDisplay(const ast::Dict &d) { notSupported(d.loc, "dicts are not supported yet"); }
ExprPtr FunctionTyper::setDisplay(const ast::Set &s) { notSupported(s.loc, "sets are not supported yet"); }
ExprPtr FunctionTyper::hashedComprehension(const ast::Comprehension &c) {
  notSupported(c.loc, "dict and set comprehensions are not supported yet");
}
ExprPtr FunctionTyper::hashedContains(ExprPtr needle, ExprPtr container, Loc loc) {
  (void)needle;
  (void)container;
  notSupported(loc, "dicts and sets are not supported yet");
}
void FunctionTyper::dictDelete(ExprPtr dict, const ast::Expr &key, Loc loc, ir::Block &out) {
  (void)dict;
  (void)key;
  (void)out;
  notSupported(loc, "dicts are not supported yet");
}

ExprPtr FunctionTyper::dictSubscript(ExprPtr dict, const ast::Expr &key, Loc loc) {
  (void)dict;
  (void)key;
  notSupported(loc, "dicts are not supported yet");
}
void FunctionTyper::storeDictItem(ExprPtr dict, const ast::Expr &keyExpr, const ast::Expr &target, ExprPtr value,
                                  Loc loc, ir::Block &out) {
  (void)dict;
  (void)keyExpr;
  (void)target;
  (void)value;
  (void)out;
  notSupported(loc, "dicts are not supported yet");
}
ExprPtr FunctionTyper::dictReprText(ExprPtr d, Loc loc) {
  (void)d;
  notSupported(loc, "dicts are not supported yet");
}
ExprPtr FunctionTyper::containerTruth(ExprPtr e) { notSupported(e->loc, "dicts and sets are not supported yet"); }

} // namespace mahou::sema
