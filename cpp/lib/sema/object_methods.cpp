// Typers of the methods of lists, dicts and sets (objects.def).
#include "sema/object_members.h"
#include "sema/typers.h"

namespace mahou::sema {

using ObjectOp = ir::ObjectOp;
using namespace object_members;

namespace {

// The item type of the receiver, refining a list made empty from `value`'s type
// (then the pass is redone: nullptr is returned).
bool itemKnown(Use &m, const Type &valueType) {
  const Type &lt = m.self->type;
  if (!lt.elems[0].containsUnknown()) return true;
  Type item = listItemType(m.t, valueType, m.loc);
  m.t.refineContainer(*m.selfExpr, Type::list(item, lt.typed), m.loc);
  return false;
}

// The key (and value) types of a dict or set made empty, refined from a use; false
// when the receiver was refined (the pass is redone).
bool tableKnown(Use &m, const Type &refined) {
  if (!m.self->type.isPartialContainer()) return true;
  m.t.refineContainer(*m.selfExpr, refined, m.loc);
  return false;
}

ExprPtr keyArg(Use &m, ExprPtr k) { return hashedKey(m.t, std::move(k), m.self->type.elems[0], m.name + "() key"); }

} // namespace

// ------------------------------------------------------------------ lists

ExprPtr listAppend(Use &m) {
  auto a = args(m, 1, 1);
  if (anyUnknown(a)) return m.t.unknown(m.loc);
  if (!itemKnown(m, a[0]->type)) return m.t.unknown(m.loc);
  Type item = m.self->type.elems[0];
  a[0] = convertItem(m.t, std::move(a[0]), item, "list.append");
  return op(m, ObjectOp::ListAppend, Type::none(), std::move(a));
}

ExprPtr listInsert(Use &m) {
  auto a = args(m, 2, 2);
  if (anyUnknown(a)) return m.t.unknown(m.loc);
  if (!itemKnown(m, a[1]->type)) return m.t.unknown(m.loc);
  a[0] = intArg(m, std::move(a[0]), "list.insert() index");
  a[1] = convertItem(m.t, std::move(a[1]), m.self->type.elems[0], "list.insert");
  return op(m, ObjectOp::ListInsert, Type::none(), std::move(a));
}

ExprPtr listExtend(Use &m) {
  m.t.checkKeywords(*m.call, {}, m.name);
  if (m.call->args.size() != 1) m.t.error(m.loc, "list.extend() takes exactly one argument");
  const ast::Expr &arg = *m.call->args[0];
  // A list is extended with as it is; any other iterable (ranges too) is made a list first.
  ExprPtr other;
  if (arg.kind == ast::ExprKind::Name || arg.kind == ast::ExprKind::List) {
    other = m.t.expr(arg);
    if (!Typing::isUnknown(other) && !other->type.isList()) other = m.t.listFromIterable(std::move(other), m.loc);
  } else {
    other = m.t.listFromAst(arg, m.loc);
  }
  if (Typing::isUnknown(other)) return m.t.unknown(m.loc);
  if (!itemKnown(m, other->type.elems[0])) return m.t.unknown(m.loc);
  const Type item = m.self->type.elems[0];
  if (other->type.elems[0] != item)
    m.t.error(m.loc, "cannot extend a " + m.self->type.str() + " with items of type " + other->type.elems[0].str());
  std::vector<ExprPtr> rest;
  rest.push_back(ir::makeCast(std::move(other), Type::list(item)));
  return op(m, ObjectOp::ListExtend, Type::none(), std::move(rest));
}

ExprPtr listPop(Use &m) {
  auto a = args(m, 0, 1);
  if (anyUnknown(a)) return m.t.unknown(m.loc);
  std::vector<ExprPtr> rest;
  rest.push_back(a.empty() ? i64(m.loc, -1) : intArg(m, std::move(a[0]), "list.pop() index"));
  Type item = m.self->type.elems[0];
  return op(m, ObjectOp::ListPop, item, std::move(rest));
}

ExprPtr listSearch(Use &m) { // index, count, remove
  auto searchOp = ObjectOp(m.variant());
  bool isIndex = searchOp == ObjectOp::ListIndex;
  auto a = args(m, 1, isIndex ? 3 : 1);
  if (anyUnknown(a)) return m.t.unknown(m.loc);
  Type item = m.self->type.elems[0];
  requireComparable(m.t, item, m.loc, "list." + m.name);
  std::vector<ExprPtr> rest;
  rest.push_back(convertItem(m.t, itemValue(m.t, std::move(a[0])), item, "list." + m.name));
  if (isIndex) {
    rest.push_back(a.size() > 1 ? intArg(m, std::move(a[1]), "list.index() start") : i64(m.loc, 0));
    rest.push_back(a.size() > 2 ? intArg(m, std::move(a[2]), "list.index() stop") : i64(m.loc, INT64_MAX));
    return op(m, ObjectOp::ListIndex, Type::int64(), std::move(rest));
  }
  return op(m, searchOp, searchOp == ObjectOp::ListCount ? Type::int64() : Type::none(), std::move(rest));
}

// c.__contains__(x) of a list, set or dict: the `in` operator's test (x in c), called by
// name. The receiver is evaluated before the argument, as Python evaluates them.
ExprPtr containerContains(Use &m) {
  auto a = args(m, 1, 1);
  if (anyUnknown(a)) return m.t.unknown(m.loc);
  Loc loc = m.loc;
  Typing &t = m.t;
  return t.bindOnce(std::move(m.self), [&](const std::function<ExprPtr()> &self) {
    return t.compareOne(ast::CmpOpKind::In, std::move(a[0]), self(), loc);
  });
}

ExprPtr listNoArgs(Use &m) { // reverse, copy, clear
  args(m, 0, 0);
  auto o = ObjectOp(m.variant());
  Type lt = m.self->type;
  return op(m, o, o == ObjectOp::ListCopy ? Type::list(lt.elems[0], lt.typed) : Type::none(), {});
}

ExprPtr listSort(Use &m) {
  m.t.checkKeywords(*m.call, {"reverse", "key"}, "list.sort");
  m.t.positionalArgs(*m.call, 0, 0, "list.sort");
  const ast::Expr *rev = m.t.keyword(*m.call, "reverse");
  ExprPtr reverse = rev ? m.t.truth(m.t.expr(*rev)) : ir::makeConst(Type::boolean(), m.loc, 0);
  if (Typing::isUnknown(reverse)) return m.t.unknown(m.loc);
  if (const ast::Expr *key = m.t.keyword(*m.call, "key"); key && key->kind != ast::ExprKind::NoneLit)
    return m.t.sortByKey(std::move(m.self), *key, std::move(reverse), /*inPlace=*/true, m.loc);
  requireComparable(m.t, m.self->type.elems[0], m.loc, "sort", true);
  std::vector<ExprPtr> rest;
  rest.push_back(std::move(reverse));
  return op(m, ObjectOp::ListSort, Type::none(), std::move(rest));
}

// ------------------------------------------------------------------ dicts and sets

ExprPtr dictGet(Use &m) { // get setdefault
  auto a = args(m, 1, 2);
  if (anyUnknown(a)) return m.t.unknown(m.loc);
  if (a.size() == 1) a.push_back(noneValue(m.loc));
  Type vt0 = a[1]->type.isNone() ? Type::unknown() : itemType(m.t, a[1]->type, m.loc, "a dict value");
  if (!tableKnown(m, Type::dict(keyType(m.t, a[0]->type, m.loc), vt0))) return m.t.unknown(m.loc);
  const Type vt = m.self->type.elems[1];
  bool none = a[1]->type.isNone();
  if (m.variant() == 1) { // setdefault
    if (none) m.t.notSupported(m.loc, "setdefault() with a None default is not supported");
    // The key is used twice (looked up, then stored): held in a variable.
    auto stmts = std::make_shared<ir::Block>();
    int k = m.t.holdInTemp(keyArg(m, std::move(a[0])), m.loc, *stmts);
    std::vector<ExprPtr> rest;
    rest.push_back(m.t.load(k, m.loc));
    rest.push_back(convertItem(m.t, std::move(a[1]), vt, "setdefault() default"));
    return m.t.seqExpr(std::move(stmts), op(m, ObjectOp::DictSetDefault, vt, std::move(rest)), m.loc);
  }
  // d.get(k) is Optional(V): None when absent.
  Type rt = none ? Type::optional(vt) : vt;
  std::vector<ExprPtr> rest;
  rest.push_back(keyArg(m, std::move(a[0])));
  rest.push_back(none ? m.t.convert(std::move(a[1]), rt, "get() default") : convertItem(m.t, std::move(a[1]), vt, "get() default"));
  return op(m, ObjectOp::DictGetDefault, rt, std::move(rest));
}

// d.__setitem__(k, v): d[k] = v as a call (None), the one dunder method of dicts Numba
// compiles; the key and the value are evaluated in the call's order.
ExprPtr dictSetItemMethod(Use &m) {
  m.t.requireHost(m.loc, "a dict");
  auto a = args(m, 2, 2);
  if (anyUnknown(a)) return m.t.unknown(m.loc);
  Type refined = Type::dict(keyType(m.t, a[0]->type, m.loc), itemType(m.t, a[1]->type, m.loc, "a dict value"));
  if (!tableKnown(m, refined)) return m.t.unknown(m.loc);
  const Type vt = m.self->type.elems[1];
  std::vector<ExprPtr> rest;
  rest.push_back(keyArg(m, std::move(a[0])));
  rest.push_back(convertItem(m.t, std::move(a[1]), vt, "dict value"));
  return op(m, ObjectOp::DictSet, Type::none(), std::move(rest));
}

ExprPtr dictPop(Use &m) {
  auto a = args(m, 1, 2);
  if (anyUnknown(a)) return m.t.unknown(m.loc);
  if (!tableKnown(m, Type::dict(keyType(m.t, a[0]->type, m.loc), Type::unknown()))) return m.t.unknown(m.loc);
  const Type vt = m.self->type.elems[1];
  std::vector<ExprPtr> rest;
  rest.push_back(keyArg(m, std::move(a[0])));
  if (a.size() == 1) return op(m, ObjectOp::DictPop, vt, std::move(rest));
  rest.push_back(convertItem(m.t, std::move(a[1]), vt, "pop() default"));
  return op(m, ObjectOp::DictPopDefault, vt, std::move(rest));
}

ExprPtr tableNoArgs(Use &m) { // popitem copy clear keys values items / set pop copy clear
  args(m, 0, 0);
  const Type t = m.self->type;
  auto method = TableMethod(m.variant());
  if (t.isPartialContainer()) {
    if (method == TableMethod::Clear) return noneValue(m.loc);
    return m.t.unknown(m.loc);
  }
  bool isDict = t.isDict();
  switch (method) {
  case TableMethod::Copy: return op(m, isDict ? ObjectOp::DictCopy : ObjectOp::SetCopy, t, {});
  case TableMethod::Clear: return op(m, isDict ? ObjectOp::DictClear : ObjectOp::SetClear, Type::none(), {});
  case TableMethod::PopItem: return op(m, ObjectOp::DictPopItem, Type::tuple({t.elems[0], t.elems[1]}), {});
  case TableMethod::SetPop: return op(m, ObjectOp::SetPop, t.elems[0], {});
  default: break;
  }
  // keys / values / items as values: lists of them (views are not supported).
  auto part = method == TableMethod::Keys     ? Typing::EntryPart::Keys
              : method == TableMethod::Values ? Typing::EntryPart::Values
                                              : Typing::EntryPart::Items;
  Type item = part == Typing::EntryPart::Keys ? t.elems[0]
              : part == Typing::EntryPart::Values ? t.elems[1] : Type::tuple({t.elems[0], t.elems[1]});
  auto stmts = std::make_shared<ir::Block>();
  int acc = m.t.holdInTemp(objectOp(m.t, ObjectOp::ListNew, Type::list(item), {}, m.loc), m.loc, *stmts);
  Loc loc = m.loc;
  m.t.forEachEntry(std::move(m.self), part, loc, [&](ExprPtr x, ir::Block &body) {
    std::vector<ExprPtr> a;
    a.push_back(m.t.load(acc, loc));
    a.push_back(std::move(x));
    auto st = std::make_unique<ir::Stmt>(ir::StmtOp::Eval, loc);
    st->exprs.push_back(objectOp(m.t, ObjectOp::ListAppend, Type::none(), std::move(a), loc));
    body.push_back(std::move(st));
  }, *stmts);
  return m.t.seqExpr(std::move(stmts), m.t.load(acc, loc), loc);
}

namespace {

// The other operand of update/union/...: a table of the same type (other iterables are
// made sets first; a dict's update takes a dict).
ExprPtr tableOperand(Use &m, ExprPtr other, bool allowIterable) {
  if (Typing::isUnknown(other)) return other;
  const Type t = m.self->type;
  if (other->type == t) return other;
  if (t.isSet() && allowIterable && !other->type.isDict()) {
    auto stmts = std::make_shared<ir::Block>();
    int acc = m.t.holdInTemp(objectOp(m.t, ObjectOp::SetNew, t, {}, m.loc), m.loc, *stmts);
    Loc loc = m.loc;
    m.t.forEachValue(std::move(other), loc, [&](ExprPtr x, ir::Block &body) {
      std::vector<ExprPtr> a;
      a.push_back(m.t.load(acc, loc));
      a.push_back(hashedKey(m.t, std::move(x), t.elems[0], "set item"));
      auto st = std::make_unique<ir::Stmt>(ir::StmtOp::Eval, loc);
      st->exprs.push_back(objectOp(m.t, ObjectOp::SetAdd, Type::none(), std::move(a), loc));
      body.push_back(std::move(st));
    }, *stmts);
    return m.t.seqExpr(std::move(stmts), m.t.load(acc, loc), loc);
  }
  if (other->type.isPartialContainer() && other->type.kind == t.kind) return m.t.convert(std::move(other), t, m.name);
  m.t.error(m.loc, m.name + "() of a " + t.str() + " with a " + other->type.str() + " is not supported");
}

} // namespace

ExprPtr tableUpdate(Use &m) { // dict.update, set.update / set algebra methods
  auto a = args(m, 1, 1);
  if (anyUnknown(a) && !a[0]->type.isPartialContainer()) return m.t.unknown(m.loc);
  if (m.self->type.isPartialContainer()) {
    if (a[0]->type.isPartialContainer()) return m.t.unknown(m.loc);
    Type other = a[0]->type.isDict() || a[0]->type.isSet() ? a[0]->type : Type::unknown();
    if (other.isUnknown()) m.t.error(m.loc, "cannot infer the item type from " + a[0]->type.str());
    m.t.refineContainer(*m.selfExpr, other, m.loc);
    return m.t.unknown(m.loc);
  }
  bool isDict = m.self->type.isDict();
  std::vector<ExprPtr> rest;
  rest.push_back(tableOperand(m, std::move(a[0]), true));
  if (Typing::isUnknown(rest[0])) return m.t.unknown(m.loc);
  const Type t = m.self->type;
  switch (auto method = SetMethod(m.variant())) {
  case SetMethod::Union:
  case SetMethod::Intersection:
  case SetMethod::Difference:
  case SetMethod::SymmetricDifference: return op(m, ObjectOp::SetCombine, t, std::move(rest), int64_t(method));
  case SetMethod::IsSubset: return op(m, ObjectOp::SetSubset, Type::boolean(), std::move(rest));
  case SetMethod::IsSuperset: { // b <= a
    std::vector<ExprPtr> sw;
    sw.push_back(std::move(rest[0]));
    sw.push_back(std::move(m.self));
    return objectOp(m.t, ObjectOp::SetSubset, Type::boolean(), std::move(sw), m.loc);
  }
  case SetMethod::IsDisjoint: { // a & b empty
    auto both = op(m, ObjectOp::SetCombine, t, std::move(rest), int64_t(SetMethod::Intersection));
    return m.t.logicalNot(containerTruth(m.t, std::move(both)));
  }
  case SetMethod::Update: break;
  case SetMethod::IntersectionUpdate:
  case SetMethod::DifferenceUpdate:
  case SetMethod::SymmetricDifferenceUpdate: { // s = s op other, in place (s may be other)
    auto kind = method == SetMethod::IntersectionUpdate ? SetMethod::Intersection
                : method == SetMethod::DifferenceUpdate ? SetMethod::Difference
                                                        : SetMethod::SymmetricDifference;
    Loc loc = m.loc;
    auto stmts = std::make_shared<ir::Block>();
    int self = m.t.holdInTemp(std::move(m.self), loc, *stmts);
    std::vector<ExprPtr> both;
    both.push_back(m.t.load(self, loc));
    both.push_back(std::move(rest[0]));
    int combined = m.t.holdInTemp(objectOp(m.t, ObjectOp::SetCombine, t, std::move(both), loc, int64_t(kind)), loc, *stmts);
    std::vector<ExprPtr> clear;
    clear.push_back(m.t.load(self, loc));
    auto st = std::make_unique<ir::Stmt>(ir::StmtOp::Eval, loc);
    st->exprs.push_back(objectOp(m.t, ObjectOp::SetClear, Type::none(), std::move(clear), loc));
    stmts->push_back(std::move(st));
    std::vector<ExprPtr> fill;
    fill.push_back(m.t.load(self, loc));
    fill.push_back(m.t.load(combined, loc));
    return m.t.seqExpr(std::move(stmts), objectOp(m.t, ObjectOp::SetUpdate, Type::none(), std::move(fill), loc), loc);
  }
  }
  return op(m, isDict ? ObjectOp::DictUpdate : ObjectOp::SetUpdate, Type::none(), std::move(rest));
}

ExprPtr setItemMethod(Use &m) { // add discard remove
  auto a = args(m, 1, 1);
  if (anyUnknown(a)) return m.t.unknown(m.loc);
  if (!tableKnown(m, Type::set(keyType(m.t, a[0]->type, m.loc)))) return m.t.unknown(m.loc);
  std::vector<ExprPtr> rest;
  rest.push_back(keyArg(m, std::move(a[0])));
  return op(m, ObjectOp(m.variant()), Type::none(), std::move(rest));
}

} // namespace mahou::sema
