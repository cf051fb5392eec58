// Compile-time parts of a `match` statement's tests (ast.h): a sequence pattern's shape,
// decided from the subject's type, and whether a pattern's test can hold at all.
#include "typer.h"

namespace mahou::sema {

ExprPtr FunctionTyper::matchSequence(const ast::MatchSequence &m) {
  auto subject = expr(*m.subject);
  if (isUnknown(subject)) return unknown(m.loc);
  const Type &t = subject->type;
  bool matches = false;
  if (t.isTuple() && !t.isClosure()) {
    size_t n = t.elems.size(), want = size_t(m.length);
    matches = m.orMore ? n >= want : n == want;
  } else if (t.isBuffer() || t.isList() || t.isOptional()) {
    // Sequences whose length is known only at run time (or an optional's value).
    notSupported(m.loc, "sequence patterns on a " + t.str() + " are not supported (only on tuples)");
  } else if (t.isNumber() || t.isDatetimeLike() || t.isNone() || t.isString() || t.isCharSeq() || t.isArray() ||
             t.isDict() || t.isSet() || t.isEnumMember() || t.isInstance() || t.isClosure()) {
    matches = false; // not a sequence (str is excluded by PEP 634, an ndarray is not a Sequence)
  } else {
    notSupported(m.loc, "sequence patterns on a " + t.str() + " are not supported (only on tuples)");
  }
  return ir::makeConst(Type::boolean(), m.loc, matches ? 1 : 0);
}

ExprPtr FunctionTyper::matchPossible(const ast::MatchPossible &m) {
  auto test = condition(*m.test); // typed for its verdict only: the IR is dropped, never run
  if (isUnknown(test)) return unknown(m.loc);
  bool possible = !(test->op == ir::ExprOp::Const && test->type.isBool() && test->ival == 0);
  return ir::makeConst(Type::boolean(), m.loc, possible ? 1 : 0);
}

} // namespace mahou::sema
