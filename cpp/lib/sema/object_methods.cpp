// The methods of lists and strings, in one table (kind, name) → typing function, and
// the builtins over objects (list(), sorted(), str(), ord(), chr(), int(s), float(s)).
#include "typer.h"
#include "mahou/range_type.h"

#include <cstring>

namespace mahou::sema {

using ObjectOp = ir::ObjectOp;

namespace {

struct MethodCall {
  FunctionTyper &t;
  ExprPtr self;
  const ast::Expr &selfExpr;
  const ast::Call &call;
  std::string name;
  Loc loc;
};

using MethodTyper = ExprPtr (*)(MethodCall &m);

ExprPtr noneValue(Loc loc) { return ir::makeConst(Type::none(), loc, 0); }
ExprPtr i64(Loc loc, int64_t v) { return ir::makeConst(Type::int64(), loc, v); }
// The null object: an absent optional argument of a runtime call.
ExprPtr nullObject(Loc loc) { return ir::makeConst(Type::unicode(), loc, 0); }

std::vector<ExprPtr> args(MethodCall &m, size_t minArgs, size_t maxArgs, std::initializer_list<const char *> kw = {}) {
  m.t.checkKeywords(m.call, kw, m.name);
  return m.t.positionalArgs(m.call, minArgs, maxArgs, m.name);
}

bool anyUnknown(const std::vector<ExprPtr> &v) {
  for (auto &e : v)
    if (FunctionTyper::isUnknown(e)) return true;
  return false;
}

ExprPtr op(MethodCall &m, ObjectOp o, Type result, std::vector<ExprPtr> a, int64_t ival = 0) {
  std::vector<ExprPtr> all;
  all.push_back(std::move(m.self));
  for (auto &x : a) all.push_back(std::move(x));
  return m.t.objectOp(o, std::move(result), std::move(all), m.loc, ival);
}

ExprPtr intArg(MethodCall &m, ExprPtr e, const char *what) { return m.t.toInt64Index(std::move(e), what); }

// ------------------------------------------------------------------ lists

// The item type of the receiver, refining a list made empty from `value`'s type
// (then the pass is redone: nullptr is returned).
bool itemKnown(MethodCall &m, const Type &valueType) {
  const Type &lt = m.self->type;
  if (!lt.elems[0].containsUnknown()) return true;
  Type item = m.t.itemType(valueType, m.loc, "a list item");
  m.t.refineContainer(m.selfExpr, Type::list(item, lt.typed), m.loc);
  return false;
}

ExprPtr listAppend(MethodCall &m) {
  auto a = args(m, 1, 1);
  if (anyUnknown(a)) return m.t.unknown(m.loc);
  if (!itemKnown(m, a[0]->type)) return m.t.unknown(m.loc);
  Type item = m.self->type.elems[0];
  a[0] = m.t.convertItem(std::move(a[0]), item, "list.append");
  return op(m, ObjectOp::ListAppend, Type::none(), std::move(a));
}

ExprPtr listInsert(MethodCall &m) {
  auto a = args(m, 2, 2);
  if (anyUnknown(a)) return m.t.unknown(m.loc);
  if (!itemKnown(m, a[1]->type)) return m.t.unknown(m.loc);
  a[0] = intArg(m, std::move(a[0]), "list.insert() index");
  a[1] = m.t.convertItem(std::move(a[1]), m.self->type.elems[0], "list.insert");
  return op(m, ObjectOp::ListInsert, Type::none(), std::move(a));
}

ExprPtr listExtend(MethodCall &m) {
  m.t.checkKeywords(m.call, {}, m.name);
  if (m.call.args.size() != 1) m.t.error(m.loc, "list.extend() takes exactly one argument");
  const ast::Expr &arg = *m.call.args[0];
  // A list is extended with as it is; any other iterable (ranges too) is made a list first.
  ExprPtr other;
  if (arg.kind == ast::ExprKind::Name || arg.kind == ast::ExprKind::List) {
    other = m.t.expr(arg);
    if (!FunctionTyper::isUnknown(other) && !other->type.isList()) other = m.t.listFromIterable(std::move(other), m.loc);
  } else {
    other = m.t.listFromAst(arg, m.loc);
  }
  if (FunctionTyper::isUnknown(other)) return m.t.unknown(m.loc);
  if (!itemKnown(m, other->type.elems[0])) return m.t.unknown(m.loc);
  const Type item = m.self->type.elems[0];
  if (other->type.elems[0] != item)
    m.t.error(m.loc, "cannot extend a " + m.self->type.str() + " with items of type " + other->type.elems[0].str());
  std::vector<ExprPtr> rest;
  rest.push_back(ir::makeCast(std::move(other), Type::list(item)));
  return op(m, ObjectOp::ListExtend, Type::none(), std::move(rest));
}

ExprPtr listPop(MethodCall &m) {
  auto a = args(m, 0, 1);
  if (anyUnknown(a)) return m.t.unknown(m.loc);
  std::vector<ExprPtr> rest;
  rest.push_back(a.empty() ? i64(m.loc, -1) : intArg(m, std::move(a[0]), "list.pop() index"));
  Type item = m.self->type.elems[0];
  return op(m, ObjectOp::ListPop, item, std::move(rest));
}

ExprPtr listSearch(MethodCall &m) { // index, count, remove
  bool isIndex = m.name == "index";
  auto a = args(m, 1, isIndex ? 3 : 1);
  if (anyUnknown(a)) return m.t.unknown(m.loc);
  Type item = m.self->type.elems[0];
  m.t.requireComparable(item, m.loc, "list." + m.name);
  std::vector<ExprPtr> rest;
  rest.push_back(m.t.convertItem(m.t.itemValue(std::move(a[0])), item, "list." + m.name));
  if (isIndex) {
    rest.push_back(a.size() > 1 ? intArg(m, std::move(a[1]), "list.index() start") : i64(m.loc, 0));
    rest.push_back(a.size() > 2 ? intArg(m, std::move(a[2]), "list.index() stop") : i64(m.loc, INT64_MAX));
    return op(m, ObjectOp::ListIndex, Type::int64(), std::move(rest));
  }
  if (m.name == "count") return op(m, ObjectOp::ListCount, Type::int64(), std::move(rest));
  return op(m, ObjectOp::ListRemove, Type::none(), std::move(rest));
}

ExprPtr listNoArgs(MethodCall &m) { // reverse, copy, clear
  args(m, 0, 0);
  if (m.name == "reverse") return op(m, ObjectOp::ListReverse, Type::none(), {});
  if (m.name == "clear") return op(m, ObjectOp::ListClear, Type::none(), {});
  Type lt = m.self->type;
  return op(m, ObjectOp::ListCopy, Type::list(lt.elems[0], lt.typed), {});
}

ExprPtr listSort(MethodCall &m) {
  m.t.checkKeywords(m.call, {"reverse", "key"}, "list.sort");
  m.t.positionalArgs(m.call, 0, 0, "list.sort");
  const ast::Expr *rev = m.t.keyword(m.call, "reverse");
  ExprPtr reverse = rev ? m.t.truth(m.t.expr(*rev)) : ir::makeConst(Type::boolean(), m.loc, 0);
  if (FunctionTyper::isUnknown(reverse)) return m.t.unknown(m.loc);
  if (const ast::Expr *key = m.t.keyword(m.call, "key"); key && key->kind != ast::ExprKind::NoneLit)
    return m.t.sortByKey(std::move(m.self), *key, std::move(reverse), /*inPlace=*/true, m.loc);
  m.t.requireComparable(m.self->type.elems[0], m.loc, "sort");
  std::vector<ExprPtr> rest;
  rest.push_back(std::move(reverse));
  return op(m, ObjectOp::ListSort, Type::none(), std::move(rest));
}

// ------------------------------------------------------------------ strings

ExprPtr strArg(MethodCall &m, ExprPtr e, const std::string &what) {
  if (FunctionTyper::isUnknown(e)) return e;
  if (!e->type.isString()) m.t.error(e->loc, what + " must be str, not " + e->type.str());
  return m.t.toUnicode(std::move(e));
}

ExprPtr call(MethodCall &m, const char *fn, Type result, std::vector<ExprPtr> rest) {
  auto e = op(m, ObjectOp::StrCall, std::move(result), std::move(rest));
  e->symbol = fn;
  return e;
}

// start and end of find/count/startswith (defaults 0 and the end).
void boundArgs(MethodCall &m, std::vector<ExprPtr> &a, size_t first, std::vector<ExprPtr> &rest) {
  rest.push_back(a.size() > first && !a[first]->type.isNone() ? intArg(m, std::move(a[first]), "start") : i64(m.loc, 0));
  rest.push_back(a.size() > first + 1 && !a[first + 1]->type.isNone() ? intArg(m, std::move(a[first + 1]), "end")
                                                                     : i64(m.loc, INT64_MAX));
}

ExprPtr strFind(MethodCall &m) { // find rfind index rindex count
  auto a = args(m, 1, 3);
  if (anyUnknown(a)) return m.t.unknown(m.loc);
  std::vector<ExprPtr> rest;
  rest.push_back(strArg(m, std::move(a[0]), "substring"));
  boundArgs(m, a, 1, rest);
  if (m.name == "count") return call(m, "mahou_rt_str_count", Type::int64(), std::move(rest));
  bool reverse = m.name[0] == 'r';
  auto found = op(m, ObjectOp::StrFind, Type::int64(), std::move(rest), reverse);
  if (m.name == "find" || m.name == "rfind") return found;
  return m.t.checkedIndex(std::move(found), "substring not found", m.loc);
}

ExprPtr strStartsWith(MethodCall &m) {
  auto a = args(m, 1, 3);
  if (anyUnknown(a)) return m.t.unknown(m.loc);
  bool atEnd = m.name == "endswith";
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
      rest.push_back(m.t.toUnicode(ir::clone(*m.self)));
      rest.push_back(strArg(m, std::move(item), m.name + "() prefix"));
      std::vector<ExprPtr> copy;
      for (size_t k = 1; k < a.size(); ++k) copy.push_back(ir::clone(*a[k]));
      std::vector<ExprPtr> bounds;
      boundArgs(m, copy, 0, bounds);
      for (auto &b : bounds) rest.push_back(std::move(b));
      rest.push_back(ir::makeConst(Type::boolean(), m.loc, atEnd));
      auto test = m.t.objectOp(ObjectOp::StrCall, Type::boolean(), std::move(rest), m.loc);
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

ExprPtr strSplit(MethodCall &m) { // split rsplit
  m.t.checkKeywords(m.call, {"sep", "maxsplit"}, m.name);
  auto a = m.t.positionalArgs(m.call, 0, 2, m.name);
  if (const ast::Expr *k = m.t.keyword(m.call, "sep")) a.insert(a.begin(), m.t.expr(*k));
  if (const ast::Expr *k = m.t.keyword(m.call, "maxsplit")) {
    if (a.empty()) a.push_back(noneValue(m.loc));
    a.push_back(m.t.expr(*k));
  }
  if (anyUnknown(a)) return m.t.unknown(m.loc);
  bool reverse = m.name == "rsplit";
  ExprPtr maxsplit = a.size() > 1 ? intArg(m, std::move(a[1]), "maxsplit") : i64(m.loc, -1);
  std::vector<ExprPtr> rest;
  bool whitespace = a.empty() || a[0]->type.isNone();
  if (!whitespace) rest.push_back(strArg(m, std::move(a[0]), "separator"));
  rest.push_back(std::move(maxsplit));
  rest.push_back(ir::makeConst(Type::boolean(), m.loc, reverse));
  return call(m, whitespace ? "mahou_rt_str_split_ws" : "mahou_rt_str_split", Type::list(Type::unicode()), std::move(rest));
}

ExprPtr strJoin(MethodCall &m) {
  auto a = args(m, 1, 1);
  if (anyUnknown(a) && !a[0]->type.isPartialContainer()) return m.t.unknown(m.loc);
  ExprPtr items = std::move(a[0]);
  if (items->type.isPartialContainer()) items = m.t.convert(std::move(items), Type::list(Type::unicode()), "join");
  if (!items->type.isList()) items = m.t.listFromIterable(std::move(items), m.loc);
  if (FunctionTyper::isUnknown(items)) return m.t.unknown(m.loc);
  if (!items->type.elems[0].isUnicode())
    m.t.error(m.loc, "sequence item: expected str instance, got " + items->type.elems[0].str());
  std::vector<ExprPtr> rest;
  rest.push_back(ir::makeCast(std::move(items), Type::list(Type::unicode())));
  return call(m, "mahou_rt_str_join", Type::unicode(), std::move(rest));
}

ExprPtr strStrip(MethodCall &m) { // strip lstrip rstrip
  auto a = args(m, 0, 1);
  if (anyUnknown(a)) return m.t.unknown(m.loc);
  std::vector<ExprPtr> rest;
  rest.push_back(a.empty() || a[0]->type.isNone() ? nullObject(m.loc) : strArg(m, std::move(a[0]), "chars"));
  rest.push_back(i64(m.loc, m.name == "strip" ? 0 : m.name == "lstrip" ? 1 : 2));
  return call(m, "mahou_rt_str_strip", Type::unicode(), std::move(rest));
}

ExprPtr strCase(MethodCall &m) {
  args(m, 0, 0);
  static const char *modes[] = {"lower", "upper", "swapcase", "capitalize", "title", "casefold"};
  int64_t mode = 0;
  for (int64_t i = 0; i < 6; ++i)
    if (m.name == modes[i]) mode = i;
  std::vector<ExprPtr> rest;
  rest.push_back(i64(m.loc, mode));
  return call(m, "mahou_rt_str_case", Type::unicode(), std::move(rest));
}

ExprPtr strIs(MethodCall &m) {
  args(m, 0, 0);
  static const char *kinds[] = {"isdigit", "isalpha", "isspace", "isalnum", "isdecimal", "isnumeric",
                                "islower", "isupper", "istitle", "isascii", "isidentifier", "isprintable"};
  int64_t kind = 0;
  for (int64_t i = 0; i < 12; ++i)
    if (m.name == kinds[i]) kind = i;
  std::vector<ExprPtr> rest;
  rest.push_back(i64(m.loc, kind));
  return call(m, "mahou_rt_str_is", Type::boolean(), std::move(rest));
}

ExprPtr strReplace(MethodCall &m) {
  auto a = args(m, 2, 3);
  if (anyUnknown(a)) return m.t.unknown(m.loc);
  std::vector<ExprPtr> rest;
  rest.push_back(strArg(m, std::move(a[0]), "replace() argument 1"));
  rest.push_back(strArg(m, std::move(a[1]), "replace() argument 2"));
  rest.push_back(a.size() > 2 ? intArg(m, std::move(a[2]), "count") : i64(m.loc, -1));
  return call(m, "mahou_rt_str_replace", Type::unicode(), std::move(rest));
}

ExprPtr strPad(MethodCall &m) { // zfill center ljust rjust
  bool zfill = m.name == "zfill";
  auto a = args(m, 1, zfill ? 1 : 2);
  if (anyUnknown(a)) return m.t.unknown(m.loc);
  std::vector<ExprPtr> rest;
  rest.push_back(intArg(m, std::move(a[0]), "width"));
  if (zfill) return call(m, "mahou_rt_str_zfill", Type::unicode(), std::move(rest));
  if (a.size() > 1) rest.push_back(strArg(m, std::move(a[1]), "fill character"));
  else {
    auto space = ir::makeConst(Type::str_(" "), m.loc, 0);
    space->symbol = " ";
    rest.push_back(m.t.toUnicode(std::move(space)));
  }
  rest.push_back(i64(m.loc, m.name == "center" ? 0 : m.name == "ljust" ? 1 : 2));
  return call(m, "mahou_rt_str_pad", Type::unicode(), std::move(rest));
}

ExprPtr strSplitLines(MethodCall &m) { // splitlines([keepends])
  auto a = args(m, 0, 1, {"keepends"});
  if (const ast::Expr *k = m.t.keyword(m.call, "keepends")) {
    if (!a.empty()) m.t.error(m.loc, "splitlines() got multiple values for argument 'keepends'");
    a.push_back(m.t.expr(*k));
  }
  if (anyUnknown(a)) return m.t.unknown(m.loc);
  if (!a.empty() && !a[0]->type.isNumber())
    m.t.error(a[0]->loc, "splitlines(): keepends must be a bool or an integer, not " + a[0]->type.str());
  std::vector<ExprPtr> rest;
  rest.push_back(a.empty() ? ir::makeConst(Type::boolean(), m.loc, 0) : m.t.truth(std::move(a[0])));
  return call(m, "mahou_rt_str_splitlines", Type::list(Type::unicode()), std::move(rest));
}

ExprPtr strExpandTabs(MethodCall &m) { // expandtabs([tabsize])
  auto a = args(m, 0, 1, {"tabsize"});
  if (const ast::Expr *k = m.t.keyword(m.call, "tabsize")) {
    if (!a.empty()) m.t.error(m.loc, "expandtabs() got multiple values for argument 'tabsize'");
    a.push_back(m.t.expr(*k));
  }
  if (anyUnknown(a)) return m.t.unknown(m.loc);
  std::vector<ExprPtr> rest;
  rest.push_back(a.empty() ? i64(m.loc, 8) : intArg(m, std::move(a[0]), "tabsize"));
  return call(m, "mahou_rt_str_expandtabs", Type::unicode(), std::move(rest));
}

ExprPtr strPartition(MethodCall &m) {
  auto a = args(m, 1, 1);
  if (anyUnknown(a)) return m.t.unknown(m.loc);
  std::vector<ExprPtr> rest;
  rest.push_back(strArg(m, std::move(a[0]), "separator"));
  rest.push_back(ir::makeConst(Type::boolean(), m.loc, m.name == "rpartition"));
  auto parts = call(m, "mahou_rt_str_partition", Type::list(Type::unicode()), std::move(rest));
  return m.t.listToTuple(std::move(parts), 3, m.loc);
}

// ------------------------------------------------------------------ dicts and sets

// The key (and value) types of a dict or set made empty, refined from a use; false
// when the receiver was refined (the pass is redone).
bool tableKnown(MethodCall &m, const Type &refined) {
  if (!m.self->type.isPartialContainer()) return true;
  m.t.refineContainer(m.selfExpr, refined, m.loc);
  return false;
}

ExprPtr keyArg(MethodCall &m, ExprPtr k) { return m.t.hashedKey(std::move(k), m.self->type.elems[0], m.name + "() key"); }

ExprPtr dictGet(MethodCall &m) { // get setdefault
  auto a = args(m, 1, 2);
  if (anyUnknown(a)) return m.t.unknown(m.loc);
  if (a.size() == 1) a.push_back(noneValue(m.loc));
  Type vt0 = a[1]->type.isNone() ? Type::unknown() : m.t.itemType(a[1]->type, m.loc, "a dict value");
  if (!tableKnown(m, Type::dict(m.t.keyType(a[0]->type, m.loc), vt0))) return m.t.unknown(m.loc);
  const Type vt = m.self->type.elems[1];
  bool none = a[1]->type.isNone();
  if (m.name == "setdefault") {
    if (none) m.t.notSupported(m.loc, "setdefault() with a None default is not supported");
    // The key is used twice (looked up, then stored): held in a variable.
    auto stmts = std::make_shared<ir::Block>();
    int k = m.t.holdInTemp(keyArg(m, std::move(a[0])), m.loc, *stmts);
    std::vector<ExprPtr> rest;
    rest.push_back(m.t.load(k, m.loc));
    rest.push_back(m.t.convertItem(std::move(a[1]), vt, "setdefault() default"));
    return m.t.seqExpr(std::move(stmts), op(m, ObjectOp::DictSetDefault, vt, std::move(rest)), m.loc);
  }
  // d.get(k) is Optional(V): None when absent.
  Type rt = none ? Type::optional(vt) : vt;
  std::vector<ExprPtr> rest;
  rest.push_back(keyArg(m, std::move(a[0])));
  rest.push_back(none ? m.t.convert(std::move(a[1]), rt, "get() default") : m.t.convertItem(std::move(a[1]), vt, "get() default"));
  return op(m, ObjectOp::DictGetDefault, rt, std::move(rest));
}

ExprPtr dictPop(MethodCall &m) {
  auto a = args(m, 1, 2);
  if (anyUnknown(a)) return m.t.unknown(m.loc);
  if (!tableKnown(m, Type::dict(m.t.keyType(a[0]->type, m.loc), Type::unknown()))) return m.t.unknown(m.loc);
  const Type vt = m.self->type.elems[1];
  std::vector<ExprPtr> rest;
  rest.push_back(keyArg(m, std::move(a[0])));
  if (a.size() == 1) return op(m, ObjectOp::DictPop, vt, std::move(rest));
  rest.push_back(m.t.convertItem(std::move(a[1]), vt, "pop() default"));
  return op(m, ObjectOp::DictPopDefault, vt, std::move(rest));
}

ExprPtr tableNoArgs(MethodCall &m) { // popitem copy clear keys values items / set pop copy clear
  args(m, 0, 0);
  const Type t = m.self->type;
  if (t.isPartialContainer()) {
    if (m.name == "clear") return noneValue(m.loc);
    return m.t.unknown(m.loc);
  }
  bool isDict = t.isDict();
  if (m.name == "copy") return op(m, isDict ? ObjectOp::DictCopy : ObjectOp::SetCopy, t, {});
  if (m.name == "clear") return op(m, isDict ? ObjectOp::DictClear : ObjectOp::SetClear, Type::none(), {});
  if (m.name == "popitem") return op(m, ObjectOp::DictPopItem, Type::tuple({t.elems[0], t.elems[1]}), {});
  if (m.name == "pop") return op(m, ObjectOp::SetPop, t.elems[0], {});
  // keys / values / items as values: lists of them (views are not supported).
  auto part = m.name == "keys" ? FunctionTyper::EntryPart::Keys
              : m.name == "values" ? FunctionTyper::EntryPart::Values : FunctionTyper::EntryPart::Items;
  Type item = part == FunctionTyper::EntryPart::Keys ? t.elems[0]
              : part == FunctionTyper::EntryPart::Values ? t.elems[1] : Type::tuple({t.elems[0], t.elems[1]});
  auto stmts = std::make_shared<ir::Block>();
  int acc = m.t.holdInTemp(m.t.objectOp(ObjectOp::ListNew, Type::list(item), {}, m.loc), m.loc, *stmts);
  Loc loc = m.loc;
  m.t.forEachEntry(std::move(m.self), part, loc, [&](ExprPtr x, ir::Block &body) {
    std::vector<ExprPtr> a;
    a.push_back(m.t.load(acc, loc));
    a.push_back(std::move(x));
    auto st = std::make_unique<ir::Stmt>(ir::StmtOp::Eval, loc);
    st->exprs.push_back(m.t.objectOp(ObjectOp::ListAppend, Type::none(), std::move(a), loc));
    body.push_back(std::move(st));
  }, *stmts);
  return m.t.seqExpr(std::move(stmts), m.t.load(acc, loc), loc);
}

// The other operand of update/union/...: a table of the same type (other iterables are
// made sets first; a dict's update takes a dict).
ExprPtr tableOperand(MethodCall &m, ExprPtr other, bool allowIterable) {
  if (FunctionTyper::isUnknown(other)) return other;
  const Type t = m.self->type;
  if (other->type == t) return other;
  if (t.isSet() && allowIterable && !other->type.isDict()) {
    auto stmts = std::make_shared<ir::Block>();
    int acc = m.t.holdInTemp(m.t.objectOp(ObjectOp::SetNew, t, {}, m.loc), m.loc, *stmts);
    Loc loc = m.loc;
    m.t.forEachValue(std::move(other), loc, [&](ExprPtr x, ir::Block &body) {
      std::vector<ExprPtr> a;
      a.push_back(m.t.load(acc, loc));
      a.push_back(m.t.hashedKey(std::move(x), t.elems[0], "set item"));
      auto st = std::make_unique<ir::Stmt>(ir::StmtOp::Eval, loc);
      st->exprs.push_back(m.t.objectOp(ObjectOp::SetAdd, Type::none(), std::move(a), loc));
      body.push_back(std::move(st));
    }, *stmts);
    return m.t.seqExpr(std::move(stmts), m.t.load(acc, loc), loc);
  }
  if (other->type.isPartialContainer() && other->type.kind == t.kind) return m.t.convert(std::move(other), t, m.name);
  m.t.error(m.loc, m.name + "() of a " + t.str() + " with a " + other->type.str() + " is not supported");
}

ExprPtr tableUpdate(MethodCall &m) { // dict.update, set.update / set algebra methods
  auto a = args(m, 1, 1);
  if (anyUnknown(a) && !a[0]->type.isPartialContainer()) return m.t.unknown(m.loc);
  if (m.self->type.isPartialContainer()) {
    if (a[0]->type.isPartialContainer()) return m.t.unknown(m.loc);
    Type other = a[0]->type.isDict() || a[0]->type.isSet() ? a[0]->type : Type::unknown();
    if (other.isUnknown()) m.t.error(m.loc, "cannot infer the item type from " + a[0]->type.str());
    m.t.refineContainer(m.selfExpr, other, m.loc);
    return m.t.unknown(m.loc);
  }
  bool isDict = m.self->type.isDict();
  std::vector<ExprPtr> rest;
  rest.push_back(tableOperand(m, std::move(a[0]), true));
  if (FunctionTyper::isUnknown(rest[0])) return m.t.unknown(m.loc);
  const Type t = m.self->type;
  static const char *combine[] = {"union", "intersection", "difference", "symmetric_difference"};
  for (int64_t k = 0; k < 4; ++k)
    if (m.name == combine[k]) return op(m, ObjectOp::SetCombine, t, std::move(rest), k);
  if (m.name == "issubset") return op(m, ObjectOp::SetSubset, Type::boolean(), std::move(rest));
  if (m.name == "issuperset" || m.name == "isdisjoint") {
    // b <= a, or a & b empty.
    if (m.name == "issuperset") {
      std::vector<ExprPtr> sw;
      sw.push_back(std::move(rest[0]));
      sw.push_back(std::move(m.self));
      return m.t.objectOp(ObjectOp::SetSubset, Type::boolean(), std::move(sw), m.loc);
    }
    auto both = op(m, ObjectOp::SetCombine, t, std::move(rest), 1);
    return m.t.logicalNot(m.t.containerTruth(std::move(both)));
  }
  return op(m, isDict ? ObjectOp::DictUpdate : ObjectOp::SetUpdate, Type::none(), std::move(rest));
}

ExprPtr setItemMethod(MethodCall &m) { // add discard remove
  auto a = args(m, 1, 1);
  if (anyUnknown(a)) return m.t.unknown(m.loc);
  if (!tableKnown(m, Type::set(m.t.keyType(a[0]->type, m.loc)))) return m.t.unknown(m.loc);
  std::vector<ExprPtr> rest;
  rest.push_back(keyArg(m, std::move(a[0])));
  ObjectOp o = m.name == "add" ? ObjectOp::SetAdd : m.name == "discard" ? ObjectOp::SetDiscard : ObjectOp::SetRemove;
  return op(m, o, Type::none(), std::move(rest));
}

struct MethodEntry {
  Kind kind;
  const char *names; // space-separated method names sharing one typing function
  MethodTyper typer;
};

const MethodEntry kMethods[] = {
    {Kind::List, "append", listAppend},
    {Kind::List, "insert", listInsert},
    {Kind::List, "extend", listExtend},
    {Kind::List, "pop", listPop},
    {Kind::List, "index count remove", listSearch},
    {Kind::List, "reverse copy clear", listNoArgs},
    {Kind::List, "sort", listSort},
    {Kind::Unicode, "find rfind index rindex count", strFind},
    {Kind::Unicode, "startswith endswith", strStartsWith},
    {Kind::Unicode, "split rsplit", strSplit},
    {Kind::Unicode, "join", strJoin},
    {Kind::Unicode, "strip lstrip rstrip", strStrip},
    {Kind::Unicode, "lower upper swapcase capitalize title casefold", strCase},
    {Kind::Unicode, "isdigit isalpha isspace isalnum isdecimal isnumeric islower isupper istitle isascii isidentifier "
                    "isprintable",
     strIs},
    {Kind::Unicode, "replace", strReplace},
    {Kind::Unicode, "zfill center ljust rjust", strPad},
    {Kind::Unicode, "partition rpartition", strPartition},
    {Kind::Unicode, "splitlines", strSplitLines},
    {Kind::Unicode, "expandtabs", strExpandTabs},
    {Kind::Dict, "get setdefault", dictGet},
    {Kind::Dict, "pop", dictPop},
    {Kind::Dict, "popitem copy clear keys values items", tableNoArgs},
    {Kind::Dict, "update", tableUpdate},
    {Kind::Set, "add discard remove", setItemMethod},
    {Kind::Set, "pop copy clear", tableNoArgs},
    {Kind::Set, "update union intersection difference symmetric_difference issubset issuperset isdisjoint", tableUpdate},
};

bool hasName(const char *names, const std::string &name) {
  for (const char *p = names; *p;) {
    const char *end = std::strchr(p, ' ');
    size_t n = end ? size_t(end - p) : std::strlen(p);
    if (name.size() == n && name.compare(0, n, p, n) == 0) return true;
    if (!end) break;
    p = end + 1;
  }
  return false;
}

} // namespace

ExprPtr FunctionTyper::objectMethod(ExprPtr self, const ast::Expr &selfExpr, const std::string &name,
                                    const ast::Call &e) {
  Kind kind = self->type.kind == Kind::Str ? Kind::Unicode : self->type.kind;
  for (auto &entry : kMethods) {
    if (entry.kind != kind || !hasName(entry.names, name)) continue;
    if (kind == Kind::Unicode) self = toUnicode(std::move(self));
    MethodCall m{*this, std::move(self), selfExpr, e, name, e.loc};
    return entry.typer(m);
  }
  if (self->type.isObject() || self->type.isString()) {
    const char *kinds[] = {"list", "dict", "set", "str"};
    int k = self->type.isList() ? 0 : self->type.isDict() ? 1 : self->type.isSet() ? 2 : 3;
    error(e.loc, std::string("'") + kinds[k] + "' object has no attribute '" + name + "' (or mahou does not support it)");
  }
  return nullptr;
}

ExprPtr FunctionTyper::objectLen(ExprPtr v, Loc loc) {
  if (v->type.isInstance()) return instanceLen(std::move(v), loc);
  if (v->type.kind == Kind::Str) { // a literal: its length in code points (text is UTF-8)
    int64_t n = 0;
    for (unsigned char c : v->type.text) n += (c & 0xC0) != 0x80;
    return ir::makeConst(Type::int64(), loc, n);
  }
  std::vector<ExprPtr> a;
  Kind k = v->type.kind;
  a.push_back(std::move(v));
  switch (k) {
  case Kind::List: return objectOp(ObjectOp::ListLen, Type::int64(), std::move(a), loc);
  case Kind::Unicode: return objectOp(ObjectOp::StrLen, Type::int64(), std::move(a), loc);
  case Kind::Dict: return objectOp(ObjectOp::DictLen, Type::int64(), std::move(a), loc);
  case Kind::Set: return objectOp(ObjectOp::SetLen, Type::int64(), std::move(a), loc);
  default: error(loc, "object of type " + a[0]->type.str() + " has no len()");
  }
}

namespace {

// sum/min/max/any/all over a list: a loop into an accumulator.
ExprPtr reduceList(FunctionTyper &t, const std::string &name, ExprPtr list, Loc loc) {
  if (FunctionTyper::isUnknown(list)) return list;
  const Type item = list->type.elems[0];
  auto stmts = std::make_shared<ir::Block>();
  int l = t.holdInTemp(std::move(list), loc, *stmts);
  auto loadList = [&] { return t.load(l, loc); };
  int acc;
  if (name == "sum") {
    if (!item.isNumber()) t.error(loc, "sum() of a list of " + item.str() + " is not supported");
    ExprPtr zero = ir::makeConst(Type::int64(), loc, 0);
    Type accType = t.binary(ast::BinOpKind::Add, ir::makeConst(Type::int64(), loc, 0), ir::makeConst(item, loc, 0), loc)->type;
    acc = t.holdInTemp(ir::makeCast(std::move(zero), accType), loc, *stmts);
    t.forEachValue(loadList(), loc, [&](ExprPtr x, ir::Block &body) {
      body.push_back(t.assignVar(acc, t.binary(ast::BinOpKind::Add, t.load(acc, loc), std::move(x), loc), loc));
    }, *stmts);
    return t.seqExpr(std::move(stmts), t.load(acc, loc), loc);
  }
  if (name == "any" || name == "all") {
    bool isAny = name == "any";
    acc = t.holdInTemp(ir::makeConst(Type::boolean(), loc, !isAny), loc, *stmts);
    t.forEachValue(loadList(), loc, [&](ExprPtr x, ir::Block &body) {
      ExprPtr test = t.truth(std::move(x));
      if (!isAny) test = t.logicalNot(std::move(test));
      auto st = std::make_unique<ir::Stmt>(ir::StmtOp::If, loc);
      st->exprs.push_back(std::move(test));
      st->body.push_back(t.assignVar(acc, ir::makeConst(Type::boolean(), loc, isAny), loc));
      st->body.push_back(std::make_unique<ir::Stmt>(ir::StmtOp::Break, loc));
      body.push_back(std::move(st));
    }, *stmts);
    return t.seqExpr(std::move(stmts), t.load(acc, loc), loc);
  }
  // min / max
  t.requireComparable(item, loc, "ordering");
  auto empty = std::make_unique<ir::Stmt>(ir::StmtOp::If, loc);
  std::vector<ExprPtr> lenArgs;
  lenArgs.push_back(loadList());
  empty->exprs.push_back(t.compareOne(ast::CmpOpKind::Eq, t.objectOp(ObjectOp::ListLen, Type::int64(), std::move(lenArgs), loc),
                                      ir::makeConst(Type::int64(), loc, 0), loc));
  auto r = std::make_unique<ir::Stmt>(ir::StmtOp::Raise, loc);
  r->exc = types::ExcKind::ValueError;
  r->text = name + "() arg is an empty sequence";
  empty->body.push_back(std::move(r));
  stmts->push_back(std::move(empty));
  std::vector<ExprPtr> first;
  first.push_back(loadList());
  first.push_back(ir::makeConst(Type::int64(), loc, 0));
  acc = t.holdInTemp(t.objectOp(ObjectOp::ListGet, item, std::move(first), loc), loc, *stmts);
  bool isMin = name == "min";
  t.forEachValue(loadList(), loc, [&](ExprPtr x, ir::Block &body) {
    int xv = t.holdInTemp(std::move(x), loc, body);
    auto st = std::make_unique<ir::Stmt>(ir::StmtOp::If, loc);
    st->exprs.push_back(t.compareOne(isMin ? ast::CmpOpKind::Lt : ast::CmpOpKind::Gt, t.load(xv, loc), t.load(acc, loc), loc));
    st->body.push_back(t.assignVar(acc, t.load(xv, loc), loc));
    body.push_back(std::move(st));
  }, *stmts);
  return t.seqExpr(std::move(stmts), t.load(acc, loc), loc);
}

} // namespace

// sum/any/all of a generator consume it item by item; min/max collect its items first
// (they need the first item and an emptiness test).
ExprPtr FunctionTyper::reduceGenerator(const std::string &name, ExprPtr gen, Loc loc) {
  if (gen->type.elems[0].containsUnknown()) return unknown(loc);
  if (name == "min" || name == "max") return reduceList(*this, name, listFromIterable(std::move(gen), loc), loc);
  return reduceList(*this, name, std::move(gen), loc);
}

namespace {

bool isListLike(const ast::Expr &e) {
  auto *c = e.as<ast::Comprehension>();
  return e.kind == ast::ExprKind::List || (c && c->comp != ast::CompKind::Set && c->comp != ast::CompKind::Dict);
}


} // namespace

ExprPtr FunctionTyper::objectBuiltin(const std::string &name, const ast::Call &e) {
  auto single = [&]() -> const ast::Expr * {
    if (e.args.size() == 1 && e.args[0]->kind != ast::ExprKind::Starred) return e.args[0].get();
    return nullptr;
  };
  if (name == "list") {
    requireHost(e.loc, "list()");
    checkKeywords(e, {}, name);
    if (e.args.empty()) return objectOp(ObjectOp::ListNew, Type::list(Type::unknown()), {}, e.loc);
    if (e.args.size() != 1 || e.args[0]->kind == ast::ExprKind::Starred)
      error(e.loc, "list() takes at most 1 argument (" + std::to_string(e.args.size()) + " given)");
    return listFromAst(*e.args[0], e.loc);
  }
  if (name.rfind("typed.", 0) == 0) return typedContainerCall(name, e);
  if (name == "set" || name == "dict") {
    requireHost(e.loc, name + "()");
    checkKeywords(e, {}, name);
    if (e.args.size() > 1) error(e.loc, name + "() takes at most 1 argument");
    bool isSet = name == "set";
    if (e.args.empty())
      return isSet ? objectOp(ObjectOp::SetNew, Type::set(Type::unknown()), {}, e.loc)
                   : objectOp(ObjectOp::DictNew, Type::dict(Type::unknown(), Type::unknown()), {}, e.loc);
    // set(iterable) / dict(iterable of pairs, or a dict): a loop adding each item.
    ExprPtr items;
    const ast::Expr &arg = *e.args[0];
    if (!isSet && arg.kind != ast::ExprKind::Call && !arg.as<ast::Comprehension>()) {
      ExprPtr value = expr(arg); // dict(d) of a dict: a copy of it
      if (isUnknown(value)) return unknown(e.loc);
      if (value->type.isDict()) {
        Type t = value->type;
        std::vector<ExprPtr> a;
        a.push_back(std::move(value));
        return objectOp(ObjectOp::DictCopy, t, std::move(a), e.loc);
      }
      items = listFromIterable(std::move(value), e.loc);
    } else {
      items = listFromAst(arg, e.loc);
    }
    if (isUnknown(items)) return unknown(e.loc);
    Type item = items->type.elems[0];
    if (!isSet && (!item.isTuple() || item.elems.size() != 2))
      error(e.loc, "dict() needs (key, value) pairs, not items of type " + item.str());
    Type t = isSet ? Type::set(keyType(item, e.loc)) : Type::dict(keyType(item.elems[0], e.loc), item.elems[1]);
    auto stmts = std::make_shared<ir::Block>();
    int acc = holdInTemp(objectOp(isSet ? ObjectOp::SetNew : ObjectOp::DictNew, t, {}, e.loc), e.loc, *stmts);
    forEachValue(std::move(items), e.loc, [&](ExprPtr x, ir::Block &body) {
      std::vector<ExprPtr> a;
      a.push_back(load(acc, e.loc));
      if (isSet) {
        a.push_back(convert(std::move(x), t.elems[0], "set item"));
      } else {
        int pair = holdInTemp(std::move(x), e.loc, body);
        for (int64_t k = 0; k < 2; ++k) {
          auto g = std::make_unique<ir::Expr>(ir::ExprOp::TupleGet, item.elems[k], e.loc);
          g->ival = k;
          g->args.push_back(load(pair, e.loc));
          a.push_back(convert(std::move(g), t.elems[k], "dict item"));
        }
      }
      auto st = std::make_unique<ir::Stmt>(ir::StmtOp::Eval, e.loc);
      st->exprs.push_back(objectOp(isSet ? ObjectOp::SetAdd : ObjectOp::DictSet, Type::none(), std::move(a), e.loc));
      body.push_back(std::move(st));
    }, *stmts);
    return seqExpr(std::move(stmts), load(acc, e.loc), e.loc);
  }
  if (name == "sorted" || name == "reversed") {
    requireHost(e.loc, name + "()");
    checkKeywords(e, name == "sorted" ? std::initializer_list<const char *>{"reverse", "key"}
                                      : std::initializer_list<const char *>{},
                  name);
    if (e.args.size() != 1) error(e.loc, name + "() takes exactly one positional argument");
    auto copy = listFromAst(*e.args[0], e.loc);
    if (isUnknown(copy)) return unknown(e.loc);
    if (const ast::Expr *key = keyword(e, "key"); name == "sorted" && key && key->kind != ast::ExprKind::NoneLit) {
      const ast::Expr *rev = keyword(e, "reverse");
      return sortByKey(std::move(copy), *key, rev ? truth(expr(*rev)) : ir::makeConst(Type::boolean(), e.loc, 0), false,
                       e.loc);
    }
    auto stmts = std::make_shared<ir::Block>();
    int v = holdInTemp(std::move(copy), e.loc, *stmts);
    auto eval = std::make_unique<ir::Stmt>(ir::StmtOp::Eval, e.loc);
    std::vector<ExprPtr> a;
    a.push_back(load(v, e.loc));
    if (name == "reversed") {
      eval->exprs.push_back(objectOp(ObjectOp::ListReverse, Type::none(), std::move(a), e.loc));
    } else {
      const ast::Expr *rev = keyword(e, "reverse");
      ExprPtr reverse = rev ? truth(expr(*rev)) : ir::makeConst(Type::boolean(), e.loc, 0);
      if (isUnknown(reverse)) return unknown(e.loc);
      requireComparable(vars_[v].type.elems[0], e.loc, "sort");
      a.push_back(std::move(reverse));
      eval->exprs.push_back(objectOp(ObjectOp::ListSort, Type::none(), std::move(a), e.loc));
    }
    stmts->push_back(std::move(eval));
    return seqExpr(std::move(stmts), load(v, e.loc), e.loc);
  }
  if ((name == "sum" || name == "min" || name == "max" || name == "any" || name == "all") && single() &&
      e.keywords.empty()) {
    const ast::Expr &arg = *single();
    if (isListLike(arg)) return reduceList(*this, name, listFromAst(arg, e.loc), e.loc);
    if (name == "any" || name == "all" || name == "sum" || name == "min" || name == "max") {
      // A list value (a variable): reduce it; other iterables keep their own handling.
      if (auto *n = arg.as<ast::Name>(); n && varIndex_.count(n->id)) {
        auto v = load(varIndex_[n->id], arg.loc);
        if (!isUnknown(v) && v->type.isList()) return reduceList(*this, name, std::move(v), e.loc);
        if (!isUnknown(v) && types::isRange(v->type))
          return reduceList(*this, name, listFromIterable(std::move(v), e.loc), e.loc);
        if (!isUnknown(v) && (v->type.isSet() || v->type.isDict() || v->type.isUnicode()))
          return reduceList(*this, name, listFromIterable(std::move(v), e.loc), e.loc);
        if (!isUnknown(v) && v->type.isGenerator()) return reduceGenerator(name, std::move(v), e.loc);
      } else if (arg.kind == ast::ExprKind::Call) { // a generator made by the call: reduced as it yields
        auto v = expr(arg);
        if (isUnknown(v)) return unknown(e.loc);
        if (v->type.isGenerator()) return reduceGenerator(name, std::move(v), e.loc);
        if (types::isRange(v->type)) return reduceList(*this, name, listFromIterable(std::move(v), e.loc), e.loc);
        return nullptr;
      } else if (arg.kind == ast::ExprKind::Subscript || arg.kind == ast::ExprKind::Attribute) {
        // Evaluated once here; only lists are handled (arrays and tuples go the usual way).
        return nullptr;
      }
    }
    return nullptr;
  }
  if (name == "str" || name == "repr") {
    requireHost(e.loc, name + "()");
    checkKeywords(e, {}, name);
    auto a = positionalArgs(e, 0, 1, name);
    if (a.empty()) return ir::makeStrConst("", e.loc);
    if (isUnknown(a[0])) return unknown(e.loc);
    return toStr(std::move(a[0]), name == "repr", e.loc);
  }
  if ((name == "int" || name == "float") && !e.args.empty()) {
    auto first = expr(*e.args[0]);
    if (isUnknown(first)) return unknown(e.loc);
    if (!first->type.isString()) return nullptr;
    checkKeywords(e, name == "int" ? std::initializer_list<const char *>{"base"} : std::initializer_list<const char *>{}, name);
    auto a = positionalArgs(e, 1, name == "int" ? 2 : 1, name);
    std::vector<ExprPtr> rest;
    rest.push_back(toUnicode(std::move(a[0])));
    if (name == "int") {
      const ast::Expr *baseKw = keyword(e, "base");
      ExprPtr base = a.size() > 1 ? std::move(a[1]) : baseKw ? expr(*baseKw) : ir::makeConst(Type::int64(), e.loc, 10);
      if (isUnknown(base)) return unknown(e.loc);
      rest.push_back(toInt64Index(std::move(base), "int() base"));
    }
    auto c = objectOp(ObjectOp::StrCall, name == "int" ? Type::int64() : Type::float64(), std::move(rest), e.loc);
    c->symbol = name == "int" ? "mahou_rt_str_to_int" : "mahou_rt_str_to_float";
    return c;
  }
  if (name == "ord" || name == "chr") {
    requireHost(e.loc, name + "()");
    checkKeywords(e, {}, name);
    auto a = positionalArgs(e, 1, 1, name);
    if (isUnknown(a[0])) return unknown(e.loc);
    std::vector<ExprPtr> rest;
    if (name == "ord") {
      if (!a[0]->type.isString()) error(e.loc, "ord() expected string of length 1, but " + a[0]->type.str() + " found");
      rest.push_back(toUnicode(std::move(a[0])));
      return objectOp(ObjectOp::StrOrd, Type::int64(), std::move(rest), e.loc);
    }
    rest.push_back(toInt64Index(std::move(a[0]), "chr() argument"));
    return objectOp(ObjectOp::StrChr, Type::unicode(), std::move(rest), e.loc);
  }
  return nullptr;
}

// A type given as an argument (types.float64 is a dtype, other types come as their text).
Type FunctionTyper::typeArgument(const ast::Expr &e, const std::string &what) {
  auto v = expr(e);
  if (v->type.kind == Kind::DTypeObj) return Type::scalar(v->type.dtype);
  if (v->type.kind == Kind::Str) {
    std::string err;
    if (auto t = types::parseType(v->type.text, &err)) return *t;
    error(e.loc, what + ": not a type: " + v->type.text + " (" + err + ")");
  }
  error(e.loc, what + " must be a mahou type (types.int64, types.unicode_type, ...), not " + v->type.str());
}

ExprPtr FunctionTyper::typedContainerCall(const std::string &name, const ast::Call &e) {
  requireHost(e.loc, name + "()");
  if (name == "typed.List") { // typed.List() / typed.List(iterable)
    checkKeywords(e, {}, name);
    if (e.args.empty()) return objectOp(ObjectOp::ListNew, Type::list(Type::unknown(), true), {}, e.loc);
    if (e.args.size() != 1) error(e.loc, "List() takes at most 1 argument");
    auto l = listFromAst(*e.args[0], e.loc);
    if (isUnknown(l)) return l;
    Type t = Type::list(l->type.elems[0], true);
    return ir::makeCast(std::move(l), t);
  }
  if (name == "typed.List.empty_list") {
    checkKeywords(e, {"item_type", "allocated"}, "List.empty_list");
    const ast::Expr *it = e.args.empty() ? keyword(e, "item_type") : e.args[0].get();
    if (!it) error(e.loc, "List.empty_list() needs an item_type");
    return objectOp(ObjectOp::ListNew, Type::list(typeArgument(*it, "item_type"), true), {}, e.loc);
  }
  if (name == "typed.Dict") {
    checkKeywords(e, {}, name);
    if (!e.args.empty()) notSupported(e.loc, "Dict() with arguments in compiled code is not supported (use Dict.empty)");
    return objectOp(ObjectOp::DictNew, Type::dict(Type::unknown(), Type::unknown()), {}, e.loc);
  }
  if (name == "typed.Dict.empty") {
    checkKeywords(e, {"key_type", "value_type", "n_keys"}, "Dict.empty");
    const ast::Expr *kt = e.args.size() > 0 ? e.args[0].get() : keyword(e, "key_type");
    const ast::Expr *vt = e.args.size() > 1 ? e.args[1].get() : keyword(e, "value_type");
    if (!kt || !vt) error(e.loc, "Dict.empty() needs key_type and value_type");
    Type k = typeArgument(*kt, "key_type");
    requireHashable(k, kt->loc);
    return objectOp(ObjectOp::DictNew, Type::dict(k, typeArgument(*vt, "value_type")), {}, e.loc);
  }
  notSupported(e.loc, name + " is not supported in compiled code");
}

ExprPtr FunctionTyper::toStr(ExprPtr v, bool repr, Loc loc) {
  v = unwrapOptionalForStr(std::move(v));
  const Type t = v->type;
  if (t.isInstance()) return instanceStr(std::move(v), repr, loc);
  if (t.containsClosure()) notSupported(loc, "an inner function has no text in compiled code");
  std::vector<ExprPtr> rest;
  auto call = [&](const char *fn) {
    auto c = objectOp(ObjectOp::StrCall, Type::unicode(), std::move(rest), loc);
    c->symbol = fn;
    return c;
  };
  if (t.isString()) {
    if (!repr) return toUnicode(std::move(v));
    rest.push_back(toUnicode(std::move(v)));
    return call("mahou_rt_str_repr");
  }
  if (t.isNone()) return ir::makeStrConst("None", loc);
  if (t.isBool()) {
    auto sel = std::make_unique<ir::Expr>(ir::ExprOp::Select, Type::unicode(), loc);
    sel->args.push_back(std::move(v));
    sel->args.push_back(toUnicode(ir::makeStrConst("True", loc)));
    sel->args.push_back(toUnicode(ir::makeStrConst("False", loc)));
    return sel;
  }
  if (t.isInt()) {
    bool sgn = types::isSigned(t.dtype);
    rest.push_back(ir::makeCast(std::move(v), Type::scalar(sgn ? DType::Int64 : DType::UInt64)));
    return call(sgn ? "mahou_rt_str_from_int" : "mahou_rt_str_from_uint");
  }
  if (t.isFloat()) {
    if (t.dtype == DType::Float32)
      notSupported(loc, "str() of a float32 is not supported (Python prints the float64 value); convert it with float() first");
    rest.push_back(std::move(v));
    return call("mahou_rt_str_from_float");
  }
  notSupported(loc, "str() of " + t.str() + " is not supported");
}

ExprPtr FunctionTyper::unwrapOptionalForStr(ExprPtr v) {
  if (!v->type.isOptional()) return v;
  // str(None) is "None": an optional becomes the string of its value, or "None".
  Loc loc = v->loc;
  auto stmts = std::make_shared<ir::Block>();
  int o = holdInTemp(std::move(v), loc, *stmts);
  auto sel = std::make_unique<ir::Expr>(ir::ExprOp::Select, Type::unicode(), loc);
  sel->args.push_back(isNoneTest(load(o, loc), false, loc));
  sel->args.push_back(toUnicode(ir::makeStrConst("None", loc)));
  sel->args.push_back(toStr(unwrapOptional(load(o, loc)), false, loc));
  return seqExpr(std::move(stmts), std::move(sel), loc);
}

} // namespace mahou::sema
