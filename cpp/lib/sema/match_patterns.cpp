// The test of a sequence pattern of a `match` statement (ast.h MatchSequence), decided
// from the subject's type: a tuple of the length matches; a non-sequence never does.
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

} // namespace mahou::sema
