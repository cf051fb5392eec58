// Typing of heap objects: list displays, subscripts and stores of lists and strings,
// del, the operators on lists and strings (+, *, ==, <, in), optional values, and the
// refinement of containers made empty ([] whose item type later uses give).
#include "typer.h"
#include "mahou/versions.h"

#include "mahou/literal_list_type.h"
#include "mahou/slice_type.h"

#include "mahou/layout.h"
#include "mahou/objects.h"

namespace mahou::sema {

using ObjectOp = ir::ObjectOp;

ExprPtr objectOp(Typing &t, ObjectOp op, Type result, std::vector<ExprPtr> args, Loc loc, int64_t ival) {
  auto e = std::make_unique<ir::Expr>(ir::ExprOp::Object, std::move(result), loc);
  e->sub = int(op);
  e->ival = ival;
  e->args = std::move(args);
  return instanceKeyed(t, std::move(e)); // keys hashed by compiled code (instance_keys.cpp)
}

Type itemType(Typing &t, const Type &ty, Loc loc, const std::string &what) {
  switch (ty.kind) {
  case Kind::Str: return Type::unicode();
  case Kind::Tuple: {
    Type r = ty;
    for (auto &e : r.elems) e = itemType(t, e, loc, what);
    return r;
  }
  case Kind::Module:
  case Kind::Function:
  case Kind::DTypeObj:
  case Kind::ExcClass:
  case Kind::ClassRef:
  case Kind::Range:
  case Kind::Namespace: t.notSupported(loc, "a " + ty.str() + " cannot be " + what);
  default: return ty;
  }
}

// A list's item type: dtypes stay dtypes (their type names them; a list of one dtype is
// Numba's reflected list of DType, boxed as np.dtype items), in tuples too; the rest as
// itemType.
static bool holdsDType(const Type &ty) {
  if (ty.kind == Kind::DTypeObj) return true;
  for (auto &e : ty.elems)
    if (holdsDType(e)) return true;
  return false;
}

Type listItemType(Typing &t, const Type &ty, Loc loc) {
  if (ty.kind == Kind::DTypeObj) return ty;
  if (ty.kind != Kind::Tuple) return itemType(t, ty, loc, "a list item");
  Type r = ty;
  for (auto &e : r.elems) e = listItemType(t, e, loc);
  return r;
}

ExprPtr toUnicode(Typing &t, ExprPtr e) {
  if (e->type.kind == Kind::Str) return ir::makeCast(std::move(e), Type::unicode());
  return e;
}

// A list display: a list of the items' common type, or, when they have none (`['a', 1,
// 2j]`), Numba's literal list: the items as they are, in a tuple that is not a tuple
// (literal_list_type.h), which cannot be changed.
ExprPtr FunctionTyper::listDisplay(const ast::List &l) {
  requireHost(l.loc, "a list");
  std::vector<ExprPtr> items;
  Type item = Type::unknown();
  bool literal = false;
  for (auto &x : l.elts) {
    if (x->kind == ast::ExprKind::Starred) notSupported(x->loc, "starred items in a list display are not supported");
    items.push_back(expr(*x));
    if (isUnknown(items.back())) return unknown(l.loc);
    Type t = listItemType(*this, items.back()->type, x->loc);
    if (literal) continue;
    auto u = types::unify(item, t); // None among values: a list of optionals, as Numba's
    if (!u || (u->isOptional() && u->elems[0].isNone())) literal = true;
    else item = *u;
  }
  if (literal) {
    std::vector<Type> ts;
    for (auto &x : items) ts.push_back(x->type);
    // Different dtypes have no common type (Numba refuses such a list too).
    for (size_t i = 0; i < items.size(); ++i)
      if (holdsDType(items[i]->type))
        notSupported(l.elts[i]->loc, "a list holds items of one type; " + items[i]->type.str() +
                                         " differs from the other items (a tuple can hold different dtypes)");
    auto m = std::make_unique<ir::Expr>(ir::ExprOp::TupleMake, types::literalListType(std::move(ts)), l.loc);
    m->args = std::move(items);
    return m;
  }
  for (auto &x : items) x = convert(std::move(x), item, "list item");
  return objectOp(*this, ObjectOp::ListNew, Type::list(item), std::move(items), l.loc);
}

bool FunctionTyper::refineContainer(const ast::Expr &target, const Type &refined, Loc loc) {
  auto *n = target.as<ast::Name>();
  if (!n || !varIndex_.count(n->id))
    error(loc, "cannot infer the item type of this empty container; give it a first item where it is made, or "
               "assign it to a variable first");
  int var = varIndex_[n->id];
  auto u = types::unify(vars_[var].type, refined);
  if (!u) error(loc, "'" + frontend::userName(n->id) + "' is " + vars_[var].type.str() + ", it cannot hold " + refined.str());
  if (*u != vars_[var].type) {
    vars_[var].type = *u;
    changed_ = true;
    return true;
  }
  return false;
}

namespace {

// The int64 start, stop, step of a slice and the flags of the missing bounds.
struct SliceParts {
  std::vector<ExprPtr> bounds; // start, stop, step
  int64_t flags = 0;           // bit 0: no start, bit 1: no stop
  bool unknown = false;
};

SliceParts sliceParts(Typing &t, const ast::Slice &s, Loc loc) {
  SliceParts p;
  auto part = [&](const ast::ExprPtr &x, int64_t missingFlag, int64_t dflt) -> ExprPtr {
    if (x) {
      auto v = t.expr(*x);
      if (FunctionTyper::isUnknown(v)) {
        p.unknown = true;
        return v;
      }
      if (!v->type.isNone()) return t.toInt64Index(std::move(v), "slice index");
    }
    p.flags |= missingFlag;
    return ir::makeConst(Type::int64(), loc, dflt);
  };
  p.bounds.push_back(part(s.lower, 1, 0));
  p.bounds.push_back(part(s.upper, 2, 0));
  p.bounds.push_back(part(s.step, 0, 1));
  return p;
}

} // namespace

ExprPtr sequenceSubscript(Typing &t, ExprPtr base, const ast::Expr &index, Loc loc) {
  const Type ty = base->type;
  bool isList = ty.isList();
  if (auto *s = index.as<ast::Slice>()) {
    SliceParts p = sliceParts(t, *s, loc);
    if (p.unknown) return t.unknown(loc);
    std::vector<ExprPtr> args;
    args.push_back(std::move(base));
    for (auto &b : p.bounds) args.push_back(std::move(b));
    return objectOp(t, isList ? ObjectOp::ListSlice : ObjectOp::StrSlice, isList ? Type::list(ty.elems[0]) : Type::unicode(),
                    std::move(args), loc, p.flags);
  }
  if (index.kind == ast::ExprKind::Tuple) t.error(loc, std::string(isList ? "list" : "string") + " indices must be integers or slices, not tuple");
  auto i = t.expr(index);
  if (t.isUnknown(i)) return t.unknown(loc);
  if (types::isSlice(i->type)) { // xs[s]: the slice object's bounds, the defaults where None
    auto bounds = sliceBounds(t, *i, index.loc);
    int64_t flags = (bounds[0] ? 0 : 1) | (bounds[1] ? 0 : 2);
    std::vector<ExprPtr> args;
    args.push_back(std::move(base));
    for (size_t k = 0; k < 3; ++k)
      args.push_back(bounds[k] ? std::move(bounds[k]) : ir::makeConst(Type::int64(), loc, k == 2 ? 1 : 0));
    return objectOp(t, isList ? ObjectOp::ListSlice : ObjectOp::StrSlice, isList ? Type::list(ty.elems[0]) : Type::unicode(),
                    std::move(args), loc, flags);
  }
  if (!i->type.isInt() && !i->type.isBool())
    t.error(index.loc, std::string(isList ? "list" : "string") + " indices must be integers or slices, not " + i->type.str());
  std::vector<ExprPtr> args;
  args.push_back(std::move(base));
  args.push_back(ir::makeCast(std::move(i), Type::int64()));
  return objectOp(t, isList ? ObjectOp::ListGet : ObjectOp::StrGet, isList ? ty.elems[0] : Type::unicode(), std::move(args), loc);
}

void storeListItem(Typing &t, ExprPtr base, const ast::Expr &index, ExprPtr value, Loc loc, ir::Block &out) {
  const Type ty = base->type;
  auto eval = std::make_unique<ir::Stmt>(ir::StmtOp::Eval, loc);
  if (auto *s = index.as<ast::Slice>()) {
    SliceParts p = sliceParts(t, *s, loc);
    if (p.unknown || t.isUnknown(value)) return;
    if (!value->type.isList()) t.notSupported(loc, "only a list can be assigned to a list slice, not " + value->type.str());
    std::vector<ExprPtr> args;
    args.push_back(std::move(base));
    for (auto &b : p.bounds) args.push_back(std::move(b));
    args.push_back(t.convert(std::move(value), Type::list(ty.elems[0]), "slice assignment"));
    eval->exprs.push_back(objectOp(t, ObjectOp::ListSetSlice, Type::none(), std::move(args), loc, p.flags));
    out.push_back(std::move(eval));
    return;
  }
  auto i = t.expr(index);
  if (t.isUnknown(i) || t.isUnknown(value)) return;
  if (!i->type.isInt() && !i->type.isBool()) t.error(index.loc, "list indices must be integers or slices, not " + i->type.str());
  std::vector<ExprPtr> args;
  args.push_back(std::move(base));
  args.push_back(ir::makeCast(std::move(i), Type::int64()));
  args.push_back(convertItem(t, std::move(value), ty.elems[0], "list item assignment"));
  eval->exprs.push_back(objectOp(t, ObjectOp::ListSet, Type::none(), std::move(args), loc));
  out.push_back(std::move(eval));
}

ExprPtr convertItem(Typing &t, ExprPtr value, const Type &item, const std::string &what) {
  if (t.isUnknown(value)) return value;
  const Type &from = value->type;
  // An item converts as an assignment would, except that numbers never narrow
  // silently: a float stored into a list of ints is refused (Numba would truncate it).
  if (from.isNumber() && item.isNumber()) {
    bool narrows = (from.isFloat() && item.isInt()) || (from.isComplex() && !item.isComplex());
    if (narrows) t.error(value->loc, "cannot store " + from.str() + " in a container of " + item.str() + " (" + what + ")");
  }
  return t.convert(std::move(value), item, what);
}

void FunctionTyper::deleteTarget(const ast::Expr &target, ir::Block &out) {
  auto *sub = target.as<ast::Subscript>();
  if (!sub) notSupported(target.loc, "only 'del x[i]' and 'del x[a:b]' are supported");
  auto base = expr(*sub->value);
  if (isUnknown(base)) return;
  auto eval = std::make_unique<ir::Stmt>(ir::StmtOp::Eval, target.loc);
  if (base->type.isList()) {
    if (auto *s = sub->index->as<ast::Slice>()) {
      SliceParts p = sliceParts(*this, *s, target.loc);
      if (p.unknown) return;
      std::vector<ExprPtr> args;
      args.push_back(std::move(base));
      for (auto &b : p.bounds) args.push_back(std::move(b));
      eval->exprs.push_back(objectOp(*this, ObjectOp::ListDelSlice, Type::none(), std::move(args), target.loc, p.flags));
    } else {
      auto i = expr(*sub->index);
      if (isUnknown(i)) return;
      std::vector<ExprPtr> args;
      args.push_back(std::move(base));
      args.push_back(toInt64Index(std::move(i), "list index"));
      eval->exprs.push_back(objectOp(*this, ObjectOp::ListDelItem, Type::none(), std::move(args), target.loc));
    }
    out.push_back(std::move(eval));
    return;
  }
  if (base->type.isDict()) {
    dictDelete(*this, std::move(base), *sub->index, target.loc, out);
    return;
  }
  refuseLiteralDictMutation(*this, base->type, target.loc);
  error(target.loc, "'" + base->type.str() + "' does not support item deletion");
}

// ------------------------------------------------------------------ operators

ExprPtr objectBinary(Typing &t, ast::BinOpKind op, ExprPtr &lhs, ExprPtr &rhs, Loc loc) {
  const Type a = lhs->type, b = rhs->type;
  if (a.isList() && b.isList() && op == ast::BinOpKind::Add) {
    if (a.elems[0] != b.elems[0])
      t.error(loc, "can only concatenate lists of the same item type (" + a.str() + " and " + b.str() + ")");
    std::vector<ExprPtr> args;
    args.push_back(std::move(lhs));
    args.push_back(std::move(rhs));
    return objectOp(t, ObjectOp::ListConcat, Type::list(a.elems[0]), std::move(args), loc);
  }
  if (op == ast::BinOpKind::Mult && ((a.isList() || a.isString()) != (b.isList() || b.isString()))) {
    bool seqLeft = a.isList() || a.isString();
    ExprPtr seq = seqLeft ? std::move(lhs) : std::move(rhs);
    ExprPtr n = seqLeft ? std::move(rhs) : std::move(lhs);
    if (!n->type.isInt() && !n->type.isBool()) t.error(loc, "can't multiply sequence by non-int of type " + n->type.str());
    bool isList = seq->type.isList();
    Type rt = isList ? Type::list(seq->type.elems[0]) : Type::unicode();
    std::vector<ExprPtr> args;
    args.push_back(toUnicode(t, std::move(seq)));
    args.push_back(ir::makeCast(std::move(n), Type::int64()));
    return objectOp(t, isList ? ObjectOp::ListRepeat : ObjectOp::StrRepeat, rt, std::move(args), loc);
  }
  if (a.isSet() && b.isSet()) {
    int64_t which = op == ast::BinOpKind::BitOr ? 0 : op == ast::BinOpKind::BitAnd ? 1 : op == ast::BinOpKind::Sub ? 2
                    : op == ast::BinOpKind::BitXor ? 3 : -1;
    if (which < 0) t.error(loc, std::string("unsupported operand types for ") + ast::binOpSymbol(op) + ": sets");
    if (a.elems[0] != b.elems[0]) t.error(loc, "set operands of different item types: " + a.str() + " and " + b.str());
    std::vector<ExprPtr> args;
    args.push_back(std::move(lhs));
    args.push_back(std::move(rhs));
    return objectOp(t, ObjectOp::SetCombine, a, std::move(args), loc, which);
  }
  if (a.isString() && b.isString() && op == ast::BinOpKind::Add) {
    std::vector<ExprPtr> args;
    args.push_back(toUnicode(t, std::move(lhs)));
    args.push_back(toUnicode(t, std::move(rhs)));
    return objectOp(t, ObjectOp::StrConcat, Type::unicode(), std::move(args), loc);
  }
  if (a.isString() && op == ast::BinOpKind::Mod)
    t.notSupported(loc, "'%' formatting of strings is not supported; use an f-string or str.format");
  return nullptr;
}

ExprPtr objectCompare(Typing &t, ast::CmpOpKind op, ExprPtr &lhs, ExprPtr &rhs, Loc loc) {
  const Type a = lhs->type, b = rhs->type;
  bool eqOp = op == ast::CmpOpKind::Eq || op == ast::CmpOpKind::NotEq;
  auto fromThreeWay = [&](ExprPtr cmp) {
    // -1/0/1 against 0 with the same operator.
    return t.compareOne(op, std::move(cmp), ir::makeConst(Type::int64(), loc, 0), loc);
  };
  if (a.isString() && b.isString()) {
    std::vector<ExprPtr> args;
    args.push_back(toUnicode(t, std::move(lhs)));
    args.push_back(toUnicode(t, std::move(rhs)));
    if (eqOp) {
      auto eq = objectOp(t, ObjectOp::StrEqual, Type::boolean(), std::move(args), loc);
      return op == ast::CmpOpKind::Eq ? std::move(eq) : t.logicalNot(std::move(eq));
    }
    return fromThreeWay(objectOp(t, ObjectOp::StrCompare, Type::int64(), std::move(args), loc));
  }
  if (a.isList() && b.isList()) {
    if (a.elems[0] != b.elems[0]) {
      if (eqOp) return ir::makeConst(Type::boolean(), loc, op == ast::CmpOpKind::NotEq);
      t.error(loc, "cannot order lists of different item types (" + a.str() + " and " + b.str() + ")");
    }
    requireComparable(t, a.elems[0], loc, eqOp ? "==" : "ordering", !eqOp);
    std::vector<ExprPtr> args;
    args.push_back(std::move(lhs));
    args.push_back(std::move(rhs));
    if (eqOp) {
      auto eq = objectOp(t, ObjectOp::ListEqual, Type::boolean(), std::move(args), loc);
      return op == ast::CmpOpKind::Eq ? std::move(eq) : t.logicalNot(std::move(eq));
    }
    return fromThreeWay(objectOp(t, ObjectOp::ListCompare, Type::int64(), std::move(args), loc));
  }
  if ((a.isDict() && b.isDict()) || (a.isSet() && b.isSet())) {
    if (a != b) {
      if (eqOp) return ir::makeConst(Type::boolean(), loc, op == ast::CmpOpKind::NotEq);
      t.error(loc, "cannot compare " + a.str() + " and " + b.str());
    }
    auto pair = [&](bool swap) {
      std::vector<ExprPtr> args;
      args.push_back(swap ? std::move(rhs) : std::move(lhs));
      args.push_back(swap ? std::move(lhs) : std::move(rhs));
      return args;
    };
    if (eqOp) {
      auto eq = objectOp(t, a.isDict() ? ObjectOp::DictEqual : ObjectOp::SetEqual, Type::boolean(), pair(false), loc);
      return op == ast::CmpOpKind::Eq ? std::move(eq) : t.logicalNot(std::move(eq));
    }
    if (a.isDict()) t.error(loc, "dicts cannot be ordered");
    // Subsets: a <= b; a < b is a <= b with fewer items (evaluated once each).
    bool swap = op == ast::CmpOpKind::Gt || op == ast::CmpOpKind::GtE;
    bool strict = op == ast::CmpOpKind::Lt || op == ast::CmpOpKind::Gt;
    auto stmts = std::make_shared<ir::Block>();
    int x = t.holdInTemp(swap ? std::move(rhs) : std::move(lhs), loc, *stmts);
    int y = t.holdInTemp(swap ? std::move(lhs) : std::move(rhs), loc, *stmts);
    std::vector<ExprPtr> args;
    args.push_back(t.load(x, loc));
    args.push_back(t.load(y, loc));
    ExprPtr sub = objectOp(t, ObjectOp::SetSubset, Type::boolean(), std::move(args), loc);
    if (strict) {
      auto sc = std::make_unique<ir::Expr>(ir::ExprOp::ShortCircuit, Type::boolean(), loc);
      sc->sub = 0;
      sc->args.push_back(std::move(sub));
      sc->args.push_back(t.compareOne(ast::CmpOpKind::Lt, objectLen(t, t.load(x, loc), loc), objectLen(t, t.load(y, loc), loc), loc));
      sub = std::move(sc);
    }
    return t.seqExpr(std::move(stmts), std::move(sub), loc);
  }
  if ((a.isObject() || b.isObject() || a.isString() || b.isString()) && eqOp && !a.isOptional() && !b.isOptional()) {
    // Objects of different kinds (a string and a number, a list and None) are never equal.
    bool numbersOnly = a.isNumber() && b.isNumber();
    if (!numbersOnly && a.kind != b.kind && !(a.isString() && b.isString()))
      return ir::makeConst(Type::boolean(), loc, op == ast::CmpOpKind::NotEq);
  }
  return nullptr;
}

void requireComparable(Typing &t, const Type &item, Loc loc, const std::string &what, bool ordered) {
  std::string desc = types::typeDescriptor(item);
  uint32_t flags = reinterpret_cast<const MahouTypeDesc *>(desc.data())->flags;
  if (!(flags & MAHOU_DESC_COMPARABLE) || (ordered && !(flags & MAHOU_DESC_ORDERED)))
    t.notSupported(loc, what + " of items of type " + item.str() + " is not supported");
}

namespace {
// Whether every buffer in the type is a bytes value (which the runtime hashes and compares
// as Python's bytes: the descriptor's bytes field).
bool onlyBytesBuffers(const Type &t) {
  if (t.isBuffer()) return isBytesValue(t);
  for (auto &e : t.elems)
    if (!onlyBytesBuffers(e)) return false;
  return true;
}
} // namespace

void requireHashable(Typing &t, const Type &item, Loc loc) {
  if (instanceHashable(t, item, loc)) return;
  if (item.containsBuffer() && !onlyBytesBuffers(item)) // bytearray, memoryview: mutable, unhashable in Python
    t.error(loc, "unhashable type: " + item.str() + " (of the buffers, only bytes values are dict keys and set items)");
  std::string desc = types::typeDescriptor(item);
  if (!(reinterpret_cast<const MahouTypeDesc *>(desc.data())->flags & MAHOU_DESC_HASHABLE))
    t.error(loc, "unhashable type: " + item.str() + " (keys and set items must be numbers, strings, tuples of them or @jitclass instances)");
}

ExprPtr containerContains(Typing &t, bool negate, ExprPtr &needle, ExprPtr &container, Loc loc) {
  const Type ct = container->type;
  ExprPtr r;
  if (ct.isString()) {
    if (!needle->type.isString()) t.error(loc, "'in <string>' requires string as left operand, not " + needle->type.str());
    std::vector<ExprPtr> args;
    args.push_back(toUnicode(t, std::move(container)));
    args.push_back(toUnicode(t, std::move(needle)));
    args.push_back(ir::makeConst(Type::int64(), loc, 0));
    args.push_back(ir::makeConst(Type::int64(), loc, INT64_MAX));
    auto at = objectOp(t, ObjectOp::StrFind, Type::int64(), std::move(args), loc);
    r = t.compareOne(ast::CmpOpKind::GtE, std::move(at), ir::makeConst(Type::int64(), loc, 0), loc);
  } else if (ct.isList() && ct.elems[0].kind == Kind::DTypeObj && needle->type.kind == Kind::DTypeObj &&
             needle->type != ct.elems[0]) { // another dtype: never equal to the items (the list is still evaluated)
    auto stmts = std::make_shared<ir::Block>();
    stmts->push_back(ir::makeEval(std::move(container), loc));
    r = t.seqExpr(std::move(stmts), ir::makeConst(Type::boolean(), loc, 0), loc);
  } else if (ct.isList()) {
    requireComparable(t, ct.elems[0], loc, "'in'");
    std::vector<ExprPtr> args;
    args.push_back(std::move(container));
    args.push_back(convertItem(t, itemValue(t, std::move(needle)), ct.elems[0], "'in'"));
    r = objectOp(t, ObjectOp::ListContains, Type::boolean(), std::move(args), loc);
  } else if (ct.isDict() || ct.isSet()) {
    r = hashedContains(t, std::move(needle), std::move(container), loc);
  } else {
    return nullptr;
  }
  return negate ? t.logicalNot(std::move(r)) : std::move(r);
}

namespace {
// A tuple's type as a value: string literals as str, its dtypes kept (their type names
// them; a returned or passed tuple of dtypes is Numba's too); the rest as itemType.
Type tupleValueType(Typing &t, const Type &ty, Loc loc) {
  if (ty.kind == Kind::DTypeObj) return ty;
  if (ty.kind != Kind::Tuple) return itemType(t, ty, loc, "an item");
  Type r = ty;
  for (auto &e : r.elems) e = tupleValueType(t, e, loc);
  return r;
}
} // namespace

ExprPtr itemValue(Typing &t, ExprPtr e) {
  if (e->type.kind == Kind::Str || (e->type.isTuple() && e->type.containsUnknown() == false)) {
    Type ty = e->type.isTuple() ? tupleValueType(t, e->type, e->loc) : itemType(t, e->type, e->loc, "an item");
    return t.convert(std::move(e), ty, "item");
  }
  return e;
}

// ------------------------------------------------------------------ optionals

ExprPtr FunctionTyper::isNoneTest(ExprPtr v, bool negate, Loc loc) {
  bool known;
  if (v->type.isNone()) known = true;
  else if (!v->type.isOptional()) known = false;
  else {
    std::vector<ExprPtr> args;
    args.push_back(std::move(v));
    auto t = objectOp(*this, ObjectOp::OptIsNone, Type::boolean(), std::move(args), loc);
    return negate ? logicalNot(std::move(t)) : std::move(t);
  }
  return ir::makeConst(Type::boolean(), loc, known != negate);
}

ExprPtr FunctionTyper::logicalNot(ExprPtr b) {
  if (isUnknown(b)) return b;
  auto n = std::make_unique<ir::Expr>(ir::ExprOp::Unary, Type::boolean(), b->loc);
  n->sub = int(ir::UnaryOp::Not);
  n->args.push_back(truth(std::move(b)));
  return n;
}

ExprPtr FunctionTyper::unwrapOptional(ExprPtr e) {
  if (isUnknown(e) || !e->type.isOptional()) return e;
  Type inner = e->type.elems[0];
  return ir::makeCast(std::move(e), inner);
}

} // namespace mahou::sema
