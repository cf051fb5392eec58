// Typers of the methods of strings (strings.def): each a runtime call (runtime/unicode_methods.cpp)
// on the receiver as a run-time string.
#include "mahou/literal_dict_type.h"
#include "sema/object_members.h"
#include "sema/typers.h"

namespace mahou::sema {

using ObjectOp = ir::ObjectOp;
using namespace object_members;

namespace {

// The null object: an absent optional argument of a runtime call.
ExprPtr nullObject(Loc loc) { return ir::makeConst(Type::unicode(), loc, 0); }

// The receiver as a run-time string (a literal's text becomes one).
void unicodeSelf(Use &m) { m.self = toUnicode(m.t, std::move(m.self)); }

ExprPtr strArg(Use &m, ExprPtr e, const std::string &what) {
  if (Typing::isUnknown(e)) return e;
  if (!e->type.isString()) m.t.error(e->loc, what + " must be str, not " + e->type.str());
  return toUnicode(m.t, std::move(e));
}

ExprPtr call(Use &m, const char *fn, Type result, std::vector<ExprPtr> rest) {
  auto e = op(m, ObjectOp::StrCall, std::move(result), std::move(rest));
  e->symbol = fn;
  return e;
}

// start and end of find/count/startswith (defaults 0 and the end).
void boundArgs(Use &m, std::vector<ExprPtr> &a, size_t first, std::vector<ExprPtr> &rest) {
  rest.push_back(a.size() > first && !a[first]->type.isNone() ? intArg(m, std::move(a[first]), "start") : i64(m.loc, 0));
  rest.push_back(a.size() > first + 1 && !a[first + 1]->type.isNone() ? intArg(m, std::move(a[first + 1]), "end")
                                                                     : i64(m.loc, INT64_MAX));
}

} // namespace

ExprPtr strFind(Use &m) { // find rfind index rindex count
  unicodeSelf(m);
  auto a = args(m, 1, 3);
  if (anyUnknown(a)) return m.t.unknown(m.loc);
  std::vector<ExprPtr> rest;
  rest.push_back(strArg(m, std::move(a[0]), "substring"));
  boundArgs(m, a, 1, rest);
  auto kind = StrSearch(m.variant());
  if (kind == StrSearch::Count) return call(m, "mahou_rt_str_count", Type::int64(), std::move(rest));
  bool reverse = kind == StrSearch::RFind || kind == StrSearch::RIndex;
  auto found = op(m, ObjectOp::StrFind, Type::int64(), std::move(rest), reverse);
  if (kind == StrSearch::Find || kind == StrSearch::RFind) return found;
  return checkedIndex(m.t, std::move(found), "substring not found", m.loc);
}

ExprPtr strStartsWith(Use &m) {
  unicodeSelf(m);
  auto a = args(m, 1, 3);
  if (anyUnknown(a)) return m.t.unknown(m.loc);
  bool atEnd = m.variant() == 1;
  refuseLiteralDict(m.t, a[0]->type, m.loc, "cannot be given to " + m.name + "()");
  if (a[0]->type.isTuple()) {
    // Any of the prefixes: one test each, or-ed (the receiver and bounds are pure).
    if (!m.t.isPureValue(*m.self)) m.t.notSupported(m.loc, m.name + "() of a tuple on a computed string; assign it first");
    const Type tt = a[0]->type;
    ExprPtr acc;
    for (size_t i = 0; i < tt.elems.size(); ++i) {
      auto item = std::make_unique<ir::Expr>(ir::ExprOp::TupleGet, tt.elems[i], m.loc);
      item->ival = int64_t(i);
      item->args.push_back(ir::clone(*a[0]));
      std::vector<ExprPtr> rest;
      rest.push_back(toUnicode(m.t, ir::clone(*m.self)));
      rest.push_back(strArg(m, std::move(item), m.name + "() prefix"));
      std::vector<ExprPtr> copy;
      for (size_t k = 1; k < a.size(); ++k) copy.push_back(ir::clone(*a[k]));
      std::vector<ExprPtr> bounds;
      boundArgs(m, copy, 0, bounds);
      for (auto &b : bounds) rest.push_back(std::move(b));
      rest.push_back(ir::makeConst(Type::boolean(), m.loc, atEnd));
      auto test = objectOp(m.t, ObjectOp::StrCall, Type::boolean(), std::move(rest), m.loc);
      test->symbol = "mahou_rt_str_startswith";
      if (!acc) {
        acc = std::move(test);
        continue;
      }
      auto sc = std::make_unique<ir::Expr>(ir::ExprOp::ShortCircuit, Type::boolean(), m.loc);
      sc->sub = 1;
      sc->args.push_back(std::move(acc));
      sc->args.push_back(std::move(test));
      acc = std::move(sc);
    }
    return acc ? std::move(acc) : ir::makeConst(Type::boolean(), m.loc, 0);
  }
  std::vector<ExprPtr> rest;
  rest.push_back(strArg(m, std::move(a[0]), m.name + "() prefix"));
  boundArgs(m, a, 1, rest);
  rest.push_back(ir::makeConst(Type::boolean(), m.loc, atEnd));
  return call(m, "mahou_rt_str_startswith", Type::boolean(), std::move(rest));
}

ExprPtr strSplit(Use &m) { // split rsplit
  unicodeSelf(m);
  m.t.checkKeywords(*m.call, {"sep", "maxsplit"}, m.name);
  auto a = m.t.positionalArgs(*m.call, 0, 2, m.name);
  if (const ast::Expr *k = m.t.keyword(*m.call, "sep")) a.insert(a.begin(), m.t.expr(*k));
  if (const ast::Expr *k = m.t.keyword(*m.call, "maxsplit")) {
    if (a.empty()) a.push_back(noneValue(m.loc));
    a.push_back(m.t.expr(*k));
  }
  if (anyUnknown(a)) return m.t.unknown(m.loc);
  bool reverse = m.variant() == 1;
  ExprPtr maxsplit = a.size() > 1 ? intArg(m, std::move(a[1]), "maxsplit") : i64(m.loc, -1);
  std::vector<ExprPtr> rest;
  bool whitespace = a.empty() || a[0]->type.isNone();
  if (!whitespace) rest.push_back(strArg(m, std::move(a[0]), "separator"));
  rest.push_back(std::move(maxsplit));
  rest.push_back(ir::makeConst(Type::boolean(), m.loc, reverse));
  return call(m, whitespace ? "mahou_rt_str_split_ws" : "mahou_rt_str_split", Type::list(Type::unicode()), std::move(rest));
}

ExprPtr strJoin(Use &m) {
  unicodeSelf(m);
  auto a = args(m, 1, 1);
  if (anyUnknown(a) && !a[0]->type.isPartialContainer()) return m.t.unknown(m.loc);
  ExprPtr items = std::move(a[0]);
  if (items->type.isPartialContainer()) items = m.t.convert(std::move(items), Type::list(Type::unicode()), "join");
  if (!items->type.isList()) items = m.t.listFromIterable(std::move(items), m.loc);
  if (Typing::isUnknown(items)) return m.t.unknown(m.loc);
  if (!items->type.elems[0].isUnicode())
    m.t.error(m.loc, "sequence item: expected str instance, got " + items->type.elems[0].str());
  std::vector<ExprPtr> rest;
  rest.push_back(ir::makeCast(std::move(items), Type::list(Type::unicode())));
  return call(m, "mahou_rt_str_join", Type::unicode(), std::move(rest));
}

ExprPtr strStrip(Use &m) { // strip lstrip rstrip
  unicodeSelf(m);
  auto a = args(m, 0, 1);
  if (anyUnknown(a)) return m.t.unknown(m.loc);
  std::vector<ExprPtr> rest;
  rest.push_back(a.empty() || a[0]->type.isNone() ? nullObject(m.loc) : strArg(m, std::move(a[0]), "chars"));
  rest.push_back(i64(m.loc, m.variant()));
  return call(m, "mahou_rt_str_strip", Type::unicode(), std::move(rest));
}

namespace {

// A method without arguments: the runtime function `fn` of the string and the variant.
ExprPtr variantCall(Use &m, const char *fn, Type result) {
  unicodeSelf(m);
  args(m, 0, 0);
  std::vector<ExprPtr> rest;
  rest.push_back(i64(m.loc, m.variant()));
  return call(m, fn, std::move(result), std::move(rest));
}

} // namespace

ExprPtr strCase(Use &m) { return variantCall(m, "mahou_rt_str_case", Type::unicode()); }

ExprPtr strIs(Use &m) { return variantCall(m, "mahou_rt_str_is", Type::boolean()); }

ExprPtr strReplace(Use &m) {
  unicodeSelf(m);
  auto a = args(m, 2, 3);
  if (anyUnknown(a)) return m.t.unknown(m.loc);
  std::vector<ExprPtr> rest;
  rest.push_back(strArg(m, std::move(a[0]), "replace() argument 1"));
  rest.push_back(strArg(m, std::move(a[1]), "replace() argument 2"));
  rest.push_back(a.size() > 2 ? intArg(m, std::move(a[2]), "count") : i64(m.loc, -1));
  return call(m, "mahou_rt_str_replace", Type::unicode(), std::move(rest));
}

ExprPtr strPad(Use &m) { // zfill center ljust rjust
  unicodeSelf(m);
  bool zfill = m.variant() == 3;
  auto a = args(m, 1, zfill ? 1 : 2);
  if (anyUnknown(a)) return m.t.unknown(m.loc);
  std::vector<ExprPtr> rest;
  rest.push_back(intArg(m, std::move(a[0]), "width"));
  if (zfill) return call(m, "mahou_rt_str_zfill", Type::unicode(), std::move(rest));
  if (a.size() > 1) rest.push_back(strArg(m, std::move(a[1]), "fill character"));
  else {
    auto space = ir::makeConst(Type::str_(" "), m.loc, 0);
    space->symbol = " ";
    rest.push_back(toUnicode(m.t, std::move(space)));
  }
  rest.push_back(i64(m.loc, m.variant()));
  return call(m, "mahou_rt_str_pad", Type::unicode(), std::move(rest));
}

ExprPtr strPartition(Use &m) {
  unicodeSelf(m);
  auto a = args(m, 1, 1);
  if (anyUnknown(a)) return m.t.unknown(m.loc);
  std::vector<ExprPtr> rest;
  rest.push_back(strArg(m, std::move(a[0]), "separator"));
  rest.push_back(ir::makeConst(Type::boolean(), m.loc, m.variant() == 1));
  auto parts = call(m, "mahou_rt_str_partition", Type::list(Type::unicode()), std::move(rest));
  return listToTuple(m.t, std::move(parts), 3, m.loc);
}

namespace {

// The one optional argument of a method, given by position or as keyword `kw` (none: empty).
std::vector<ExprPtr> optionalArgument(Use &m, const char *kw) {
  auto a = args(m, 0, 1, {kw});
  if (const ast::Expr *k = m.keyword(kw)) {
    if (!a.empty()) m.error(m.name + "() got multiple values for argument '" + kw + "'");
    a.push_back(m.t.expr(*k));
  }
  return a;
}

} // namespace

ExprPtr strSplitLines(Use &m) { // splitlines([keepends])
  unicodeSelf(m);
  auto a = optionalArgument(m, "keepends");
  if (anyUnknown(a)) return m.t.unknown(m.loc);
  if (!a.empty() && !a[0]->type.isNumber())
    m.t.error(a[0]->loc, "splitlines(): keepends must be a bool or an integer, not " + a[0]->type.str());
  std::vector<ExprPtr> rest;
  rest.push_back(a.empty() ? ir::makeConst(Type::boolean(), m.loc, 0) : m.t.truth(std::move(a[0])));
  return call(m, "mahou_rt_str_splitlines", Type::list(Type::unicode()), std::move(rest));
}

ExprPtr strExpandTabs(Use &m) { // expandtabs([tabsize])
  unicodeSelf(m);
  auto a = optionalArgument(m, "tabsize");
  if (anyUnknown(a)) return m.t.unknown(m.loc);
  std::vector<ExprPtr> rest;
  rest.push_back(a.empty() ? i64(m.loc, 8) : intArg(m, std::move(a[0]), "tabsize"));
  return call(m, "mahou_rt_str_expandtabs", Type::unicode(), std::move(rest));
}

} // namespace mahou::sema
