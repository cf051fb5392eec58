// Helpers the method typers of lists, dicts, sets and strings share (object_methods.cpp,
// string_methods.cpp): their arguments and the object operation on their receiver.
#pragma once

#include "sema/objects.h"

namespace mahou::sema::object_members {

inline ExprPtr noneValue(Loc loc) { return ir::makeConst(Type::none(), loc, 0); }
inline ExprPtr i64(Loc loc, int64_t v) { return ir::makeConst(Type::int64(), loc, v); }

inline std::vector<ExprPtr> args(Use &m, size_t minArgs, size_t maxArgs, std::initializer_list<const char *> kw = {}) {
  return m.args(minArgs, maxArgs, kw);
}

// The object operation `o` on the method's receiver and then `a`.
inline ExprPtr op(Use &m, ir::ObjectOp o, Type result, std::vector<ExprPtr> a, int64_t ival = 0) {
  std::vector<ExprPtr> all;
  all.push_back(std::move(m.self));
  for (auto &x : a) all.push_back(std::move(x));
  return objectOp(m.t, o, std::move(result), std::move(all), m.loc, ival);
}

inline ExprPtr intArg(Use &m, ExprPtr e, const char *what) { return m.t.toInt64Index(std::move(e), what); }

} // namespace mahou::sema::object_members
