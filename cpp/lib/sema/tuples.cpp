// Typing of tuple operations beyond construction and constant indexing: `in`,
// concatenation and repetition, indexing with a variable (homogeneous tuples), constant
// slices, t.index / t.count.
#include "typer.h"
#include "mahou/range_type.h"

namespace mahou::sema {

namespace {

// Expressions that can be evaluated twice with the same result and no effect.
bool isPure(const ir::Expr &e) {
  switch (e.op) {
  case ir::ExprOp::Const:
  case ir::ExprOp::LoadVar:
  case ir::ExprOp::Cast:
  case ir::ExprOp::Binary:
  case ir::ExprOp::Unary:
  case ir::ExprOp::Compare:
  case ir::ExprOp::Truth:
  case ir::ExprOp::Select:
  case ir::ExprOp::ShortCircuit:
  case ir::ExprOp::Intrinsic:
  case ir::ExprOp::TupleMake:
  case ir::ExprOp::TupleGet:
  case ir::ExprOp::TupleIndex:
  case ir::ExprOp::TupleSlice:
  case ir::ExprOp::TupleConcat:
  case ir::ExprOp::ArrayItem:
  case ir::ExprOp::ArrayFlatItem:
  case ir::ExprOp::ArrayShape:
  case ir::ExprOp::ArrayStride:
  case ir::ExprOp::ArraySize:
    break;
  case ir::ExprOp::Object:
    switch (ir::ObjectOp(e.sub)) {
    case ir::ObjectOp::ListLen:
    case ir::ObjectOp::ListGet:
    case ir::ObjectOp::StrLen:
    case ir::ObjectOp::OptIsNone: break;
    default: return false;
    }
    break;
  default: return false;
  }
  for (auto &a : e.args)
    if (!isPure(*a)) return false;
  return true;
}

} // namespace

bool FunctionTyper::isPureValue(const ir::Expr &e) const { return isPure(e); }

bool isInert(const ir::Expr &e) {
  switch (e.op) {
  case ir::ExprOp::Const:
  case ir::ExprOp::LoadVar: return true;
  case ir::ExprOp::TupleMake:
  case ir::ExprOp::TupleGet:
    for (auto &a : e.args)
      if (!isInert(*a)) return false;
    return true;
  default: return false;
  }
}

ExprPtr evaluatedThen(Typing &t, ExprPtr effects, ExprPtr value, Loc loc) {
  if (isInert(*effects)) return value;
  auto stmts = std::make_shared<ir::Block>();
  stmts->push_back(ir::makeEval(std::move(effects), loc));
  return t.seqExpr(std::move(stmts), std::move(value), loc);
}

ir::Expr *knownConditionValue(const ExprPtr &cond) {
  ir::Expr *v = cond.get();
  while (v->op == ir::ExprOp::Seq) v = v->args[0].get();
  return v->op == ir::ExprOp::Const && v->type.isBool() ? v : nullptr;
}

std::optional<bool> knownCondition(ExprPtr &cond, ir::Block &effects) {
  if (!knownConditionValue(cond)) return std::nullopt;
  while (cond->op == ir::ExprOp::Seq) {
    for (ir::StmtPtr &s : *cond->body) effects.push_back(std::move(s));
    ExprPtr inner = std::move(cond->args[0]);
    cond = std::move(inner);
  }
  return cond->ival != 0;
}

// A copy of `e` for a second evaluation; refuses expressions with effects.
ExprPtr duplicate(const Typing &t, const ir::Expr &e, const std::string &what) {
  if (!isPure(e)) t.notSupported(e.loc, what + " with an operand that has side effects or allocates; assign it to a variable first");
  return ir::clone(e);
}

// Binds each operand to a hidden variable so that it is evaluated once, in order. Pure
// operands need none, unless the operation evaluates them in another order than the
// source (`reordered`, as `in`): then two that can raise (anything but a constant or a
// variable's value: `xs[i] in ys[0]`) must still raise in source order.
std::vector<std::pair<int, ExprPtr>> FunctionTyper::bindOperands(std::vector<ExprPtr> &operands, Loc loc,
                                                                 bool reordered) {
  std::vector<std::pair<int, ExprPtr>> bindings;
  bool allPure = true;
  int canRaise = 0;
  for (auto &x : operands) {
    allPure &= isPure(*x);
    canRaise += x->op != ir::ExprOp::Const && x->op != ir::ExprOp::LoadVar;
  }
  if (allPure && !(reordered && canRaise > 1)) return bindings;
  for (auto &x : operands) {
    int var = tempVar(x->type, loc);
    ExprPtr value = convert(std::move(x), vars_[var].type, "a hidden variable");
    bindings.emplace_back(var, std::move(value));
    x = load(var, loc);
  }
  return bindings;
}

std::vector<std::pair<int, ExprPtr>> FunctionTyper::bindOptionals(std::vector<ExprPtr> &operands, Loc loc) {
  bool any = false;
  for (auto &x : operands) any |= x->type.isOptional();
  if (!any) return {};
  auto bindings = bindOperands(operands, loc);
  for (auto &x : operands) x = unwrapOptional(std::move(x));
  return bindings;
}

ExprPtr FunctionTyper::wrapBindings(std::vector<std::pair<int, ExprPtr>> bindings, ExprPtr body, Loc loc) {
  for (auto it = bindings.rbegin(); it != bindings.rend(); ++it) {
    auto let = std::make_unique<ir::Expr>(ir::ExprOp::Let, body->type, loc);
    let->var = it->first;
    let->args.push_back(std::move(it->second));
    let->args.push_back(std::move(body));
    body = std::move(let);
  }
  return body;
}

ExprPtr tupleContains(Typing &t, bool negate, ExprPtr needle, ExprPtr tuple, Loc loc) {
  if (t.isUnknown(needle) || t.isUnknown(tuple)) return t.unknown(loc);
  if (tuple->type.isArray()) { // NumPy's (a == x).any() (python/mahou/_library/internal.py)
    std::vector<ExprPtr> args;
    args.push_back(std::move(needle));
    args.push_back(std::move(tuple));
    if (auto r = t.libraryCallTyped("internal.array_contains", "in", std::move(args), loc)) {
      if (negate) return t.logicalNot(t.truth(std::move(r)));
      return r;
    }
    t.notSupported(loc, "the 'in' operator on arrays is not supported in CUDA kernels");
  }
  if (!tuple->type.isTuple())
    t.notSupported(loc, "the 'in' operator is only supported on tuples, not " + tuple->type.str());
  if (types::isRange(tuple->type)) return rangeContains(t, negate, std::move(needle), std::move(tuple), loc);
  const Type tt = tuple->type;
  refuseSlice(t, tt, loc, "does not support 'in'");
  const Type nt = needle->type;
  std::vector<ExprPtr> operands; // each evaluated once, the needle first, as in Python
  operands.push_back(std::move(needle));
  operands.push_back(std::move(tuple));
  auto bindings = t.bindOperands(operands, loc);
  ExprPtr acc;
  for (size_t i = 0; i < tt.elems.size(); ++i) {
    const Type &et = tt.elems[i];
    ExprPtr eq;
    if (nt.isArray() || et.isArray()) t.notSupported(loc, "'in' on a tuple of " + et.str() + " is not supported");
    if (!canBeEqual(nt, et)) {
      eq = ir::makeConst(Type::boolean(), loc, 0);
    } else {
      auto item = std::make_unique<ir::Expr>(ir::ExprOp::TupleGet, et, loc);
      item->ival = int64_t(i);
      item->args.push_back(ir::clone(*operands[1]));
      eq = t.compareOne(ast::CmpOpKind::Eq, ir::clone(*operands[0]), std::move(item), loc);
    }
    if (!acc) {
      acc = std::move(eq);
      continue;
    }
    auto sc = std::make_unique<ir::Expr>(ir::ExprOp::ShortCircuit, Type::boolean(), loc);
    sc->sub = 1;
    sc->args.push_back(std::move(acc));
    sc->args.push_back(std::move(eq));
    acc = std::move(sc);
  }
  if (!acc) acc = ir::makeConst(Type::boolean(), loc, 0);
  if (negate) {
    auto n = std::make_unique<ir::Expr>(ir::ExprOp::Unary, Type::boolean(), loc);
    n->sub = int(ir::UnaryOp::Not);
    n->args.push_back(std::move(acc));
    acc = std::move(n);
  }
  return t.wrapBindings(std::move(bindings), std::move(acc), loc);
}

ExprPtr tupleConcat(Typing &t, ExprPtr lhs, ExprPtr rhs, Loc loc) {
  if (t.isUnknown(lhs) || t.isUnknown(rhs)) return t.unknown(loc);
  refuseSlice(t, lhs->type, loc, "does not support +");
  refuseSlice(t, rhs->type, loc, "does not support +");
  refuseLiteralList(t, lhs->type, loc, "cannot be concatenated");
  refuseLiteralList(t, rhs->type, loc, "cannot be concatenated");
  std::vector<Type> ts = lhs->type.elems;
  for (auto &t : rhs->type.elems) ts.push_back(t);
  auto c = std::make_unique<ir::Expr>(ir::ExprOp::TupleConcat, Type::tuple(ts), loc);
  c->args.push_back(std::move(lhs));
  c->args.push_back(std::move(rhs));
  return c;
}

ExprPtr tupleRepeat(Typing &t, ExprPtr tuple, ExprPtr count, bool countFirst, Loc loc) {
  if (t.isUnknown(tuple) || t.isUnknown(count)) return t.unknown(loc);
  refuseSlice(t, tuple->type, loc, "does not support *");
  refuseLiteralList(t, tuple->type, loc, "cannot be repeated");
  if (types::isRange(tuple->type)) t.error(loc, "unsupported operand types for *: range and " + count->type.str());
  if (!count->type.isInt() && !count->type.isBool())
    t.error(loc, "can't multiply sequence by non-int of type '" + count->type.str() + "'");
  if (count->op != ir::ExprOp::Const)
    t.notSupported(loc, "tuple * n needs n known at compile time (a constant int: the result's length is part of its "
                        "type)");
  const int64_t n = count->ival;
  const Type tt = tuple->type;
  if (n > 0 && int64_t(tt.elems.size()) * n > 100000) t.notSupported(loc, "tuple * n: the result is too long");
  // The count is a constant: evaluating it has no effect, so only the tuple is bound.
  (void)countFirst;
  return t.bindOnce(std::move(tuple), [&](const std::function<ExprPtr()> &again) -> ExprPtr {
    if (n <= 0 || tt.elems.empty()) {
      auto keep = again(); // evaluated for its effects, as Python does
      auto m = std::make_unique<ir::Expr>(ir::ExprOp::TupleMake, Type::tuple({}), loc);
      auto stmts = std::make_shared<ir::Block>();
      auto st = std::make_unique<ir::Stmt>(ir::StmtOp::Eval, loc);
      st->exprs.push_back(std::move(keep));
      stmts->push_back(std::move(st));
      return t.seqExpr(std::move(stmts), std::move(m), loc);
    }
    ExprPtr acc = again();
    for (int64_t i = 1; i < n; ++i) acc = tupleConcat(t, std::move(acc), again(), loc);
    return acc;
  });
}

// t.index(x) (ValueError when absent) and t.count(x): the library's loops over the
// items, unrolled for a tuple of mixed types (internal.tuple_index / tuple_count).
ExprPtr tupleSearchMethod(Use &u) {
  if (Typing::isUnknown(u.self)) return u.unknown();
  refuseSlice(u.t, u.self->type, u.loc, "has no method '" + u.name + "'");
  auto args = u.args(1, 1);
  if (Typing::isUnknown(args[0])) return u.unknown();
  std::vector<ExprPtr> all;
  all.push_back(std::move(u.self));
  all.push_back(std::move(args[0]));
  const char *helper = u.variant() == TupleIndex ? "internal.tuple_index" : "internal.tuple_count";
  if (!u.t.gpu())
    if (auto r = u.t.libraryCallTyped(helper, "tuple." + u.name, std::move(all), u.loc)) return r;
  u.notSupported("tuple." + u.name + "() is not supported here");
}

ExprPtr tupleSubscript(Typing &t, ExprPtr base, const ast::Expr &index, Loc loc) {
  if (t.isUnknown(base)) return t.unknown(loc);
  const Type tt = base->type;
  refuseSlice(t, tt, loc, "is not subscriptable");
  if (tt.isClosure()) t.error(loc, "'function' object is not subscriptable");
  int64_t n = int64_t(tt.elems.size());
  if (auto *sl = index.as<ast::Slice>()) {
    refuseLiteralList(t, tt, loc, "cannot be sliced");
    auto bound = [&](const ast::ExprPtr &x, const char *what) -> std::optional<int64_t> {
      if (!x) return std::nullopt;
      auto v = t.constInt(*x);
      if (!v) t.notSupported(x->loc, std::string("tuple slices need constant bounds (the ") + what + " is not a constant)");
      return v;
    };
    auto lo = bound(sl->lower, "start"), hi = bound(sl->upper, "stop"), st = bound(sl->step, "step");
    int64_t step = st ? *st : 1;
    if (step == 0) t.error(loc, "slice step cannot be zero");
    auto clamp = [&](std::optional<int64_t> v, int64_t dflt) {
      if (!v) return dflt;
      int64_t x = *v;
      if (x < 0) x += n;
      if (step > 0) return x < 0 ? int64_t(0) : (x > n ? n : x);
      return x < 0 ? int64_t(-1) : (x >= n ? n - 1 : x);
    };
    int64_t start = clamp(lo, step > 0 ? 0 : n - 1), stop = clamp(hi, step > 0 ? n : -1);
    std::vector<Type> ts;
    for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) ts.push_back(tt.elems[size_t(i)]);
    if (ts.empty()) {
      auto m = std::make_unique<ir::Expr>(ir::ExprOp::TupleMake, Type::tuple({}), loc);
      return m;
    }
    auto r = std::make_unique<ir::Expr>(ir::ExprOp::TupleSlice, Type::tuple(ts), loc);
    r->ival = start;
    r->sub = int(step);
    r->args.push_back(std::move(base));
    return r;
  }
  auto idx = t.expr(index);
  if (t.isUnknown(idx)) return t.unknown(loc);
  if (!idx->type.isInt() && !idx->type.isBool()) t.error(index.loc, "tuple indices must be integers, not " + idx->type.str());
  if (n == 0) t.error(loc, "tuple index out of range");
  if (!tt.isHomogeneousTuple())
    t.notSupported(index.loc, "indexing the heterogeneous tuple " + tt.str() +
                                " with a variable is not supported (the element type would depend on the value)");
  auto g = std::make_unique<ir::Expr>(ir::ExprOp::TupleIndex, tt.elems[0], loc);
  g->args.push_back(std::move(base));
  g->args.push_back(ir::makeCast(std::move(idx), Type::int64()));
  return g;
}

} // namespace mahou::sema
