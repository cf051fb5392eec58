// Typing of range objects used as values (types::rangeType, Numba's range_state64):
// range(...) outside a for loop, len(r), r[i], `x in r`, and their truth value. A range
// is a tuple of its int64 start, stop and step; loops over one are in for_loops.cpp.
#include "typer.h"
#include "sema/typers.h"

#include "mahou/range_type.h"

namespace mahou::sema {

namespace {

ExprPtr field(ExprPtr r, int64_t i, Loc loc) {
  auto g = std::make_unique<ir::Expr>(ir::ExprOp::TupleGet, Type::int64(), loc);
  g->ival = i;
  g->args.push_back(std::move(r));
  return g;
}

ExprPtr int64Const(int64_t v, Loc loc) { return ir::makeConst(Type::int64(), loc, v); }

ir::StmtPtr raiseIf(ExprPtr cond, types::ExcKind kind, const std::string &text, Loc loc) {
  auto chk = std::make_unique<ir::Stmt>(ir::StmtOp::If, loc);
  chk->exprs.push_back(std::move(cond));
  auto r = std::make_unique<ir::Stmt>(ir::StmtOp::Raise, loc);
  r->exc = kind;
  r->text = text;
  chk->body.push_back(std::move(r));
  return chk;
}

} // namespace

ExprPtr builtinRange(Use &u) {
  Typing &t = u.t;
  const ast::Call &e = *u.call;
  Loc loc = e.loc;
  t.checkKeywords(e, {}, "range");
  auto args = t.positionalArgs(e, 1, 3, "range");
  for (auto &a : args) {
    if (t.isUnknown(a)) return t.unknown(loc);
    a = t.toInt64Index(std::move(a), "range() argument");
  }
  if (args.size() == 1) args.insert(args.begin(), int64Const(0, loc));
  if (args.size() == 2) args.push_back(int64Const(1, loc));
  auto stmts = std::make_shared<ir::Block>();
  int bounds[3];
  for (int i = 0; i < 3; ++i) bounds[i] = t.holdInTemp(std::move(args[size_t(i)]), loc, *stmts);
  stmts->push_back(raiseIf(t.compareOne(ast::CmpOpKind::Eq, t.load(bounds[2], loc), int64Const(0, loc), loc),
                           types::ExcKind::ValueError, "range() arg 3 must not be zero", loc));
  auto m = std::make_unique<ir::Expr>(ir::ExprOp::TupleMake, types::rangeType(), loc);
  for (int b : bounds) m->args.push_back(t.load(b, loc));
  return t.seqExpr(std::move(stmts), std::move(m), loc);
}

ExprPtr rangeLength(Typing &t, ExprPtr r, Loc loc) {
  // max(0, -((start - stop) // step)): ceil((stop - start) / step) for either sign of step
  return t.bindOnce(std::move(r), [&](const std::function<ExprPtr()> &v) -> ExprPtr {
    auto diff = t.binary(ast::BinOpKind::Sub, field(v(), 0, loc), field(v(), 1, loc), loc);
    auto q = t.binary(ast::BinOpKind::FloorDiv, std::move(diff), field(v(), 2, loc), loc);
    std::vector<ExprPtr> a;
    a.push_back(int64Const(0, loc));
    a.push_back(t.binary(ast::BinOpKind::Sub, int64Const(0, loc), std::move(q), loc));
    return t.intrinsic(ir::Intrinsic::Max, Type::int64(), std::move(a), loc);
  });
}

ExprPtr rangeItem(Typing &t, ExprPtr r, const ast::Expr &index, Loc loc) {
  if (index.kind == ast::ExprKind::Slice) t.notSupported(loc, "slicing a range object is not supported");
  auto idx = t.expr(index);
  if (t.isUnknown(idx)) return t.unknown(loc);
  if (!idx->type.isInt() && !idx->type.isBool())
    t.error(index.loc, "range indices must be integers or slices, not " + idx->type.str());
  if (idx->type.isBool()) idx = ir::makeCast(std::move(idx), Type::int64()); // True is 1, as in Python
  auto stmts = std::make_shared<ir::Block>();
  int rv = t.holdInTemp(std::move(r), loc, *stmts);
  int iv = t.holdInTemp(t.toInt64Index(std::move(idx), "range index"), loc, *stmts);
  int nv = t.holdInTemp(rangeLength(t, t.load(rv, loc), loc), loc, *stmts);
  // a negative index counts from the end; IndexError outside [0, len)
  auto wrap = std::make_unique<ir::Stmt>(ir::StmtOp::If, loc);
  wrap->exprs.push_back(t.compareOne(ast::CmpOpKind::Lt, t.load(iv, loc), int64Const(0, loc), loc));
  wrap->body.push_back(t.assignVar(iv, t.binary(ast::BinOpKind::Add, t.load(iv, loc), t.load(nv, loc), loc), loc));
  stmts->push_back(std::move(wrap));
  auto outside = ir::makeShortCircuit(true, t.compareOne(ast::CmpOpKind::Lt, t.load(iv, loc), int64Const(0, loc), loc),
                              t.compareOne(ast::CmpOpKind::GtE, t.load(iv, loc), t.load(nv, loc), loc), loc);
  stmts->push_back(raiseIf(std::move(outside), types::ExcKind::IndexError, "range object index out of range", loc));
  auto off = t.binary(ast::BinOpKind::Mult, t.load(iv, loc), field(t.load(rv, loc), 2, loc), loc);
  return t.seqExpr(std::move(stmts), t.binary(ast::BinOpKind::Add, field(t.load(rv, loc), 0, loc), std::move(off), loc), loc);
}

ExprPtr rangeContains(Typing &t, bool negate, ExprPtr needle, ExprPtr r, Loc loc) {
  const Type nt = needle->type;
  if (nt.isComplex() || nt.isOptional() || nt.isArray())
    t.notSupported(loc, "'in' of " + nt.str() + " in a range object is not supported");
  auto stmts = std::make_shared<ir::Block>();
  // the needle is evaluated first, then the range, as in Python
  int xv = t.holdInTemp(std::move(needle), loc, *stmts);
  int rv = t.holdInTemp(std::move(r), loc, *stmts);
  ExprPtr result;
  if (!nt.isNumber()) {
    result = ir::makeConst(Type::boolean(), loc, 0); // a range holds only integers: never equal
  } else {
    ExprPtr exact = ir::makeConst(Type::boolean(), loc, 1);
    int iv = xv;
    if (nt.isFloat()) {
      // x in r holds when x equals an integer of r: x is integral and inside int64's range
      // (the bounds compare first, so the conversion never sees a value it cannot hold)
      auto lo = t.compareOne(ast::CmpOpKind::GtE, t.load(xv, loc), ir::makeConst(Type::float64(), loc, 0, -9223372036854775808.0), loc);
      auto hi = t.compareOne(ast::CmpOpKind::Lt, t.load(xv, loc), ir::makeConst(Type::float64(), loc, 0, 9223372036854775808.0), loc);
      int inRange = t.holdInTemp(ir::makeShortCircuit(false, std::move(lo), std::move(hi), loc), loc, *stmts);
      iv = t.tempVar(Type::int64(), loc);
      stmts->push_back(t.assignVar(iv, int64Const(0, loc), loc));
      auto conv = std::make_unique<ir::Stmt>(ir::StmtOp::If, loc);
      conv->exprs.push_back(t.load(inRange, loc));
      conv->body.push_back(t.assignVar(iv, ir::makeCast(t.load(xv, loc), Type::int64()), loc));
      stmts->push_back(std::move(conv));
      exact = ir::makeShortCircuit(false, t.load(inRange, loc),
                           t.compareOne(ast::CmpOpKind::Eq, ir::makeCast(t.load(iv, loc), nt), t.load(xv, loc), loc), loc);
    }
    auto x = [&] { return ir::makeCast(t.load(iv, loc), Type::int64()); };
    auto f = [&](int64_t i) { return field(t.load(rv, loc), i, loc); };
    // step > 0: start <= x < stop; step < 0: stop < x <= start; then (x - start) % step == 0
    auto up = ir::makeShortCircuit(false, t.compareOne(ast::CmpOpKind::LtE, f(0), x(), loc),
                           t.compareOne(ast::CmpOpKind::Lt, x(), f(1), loc), loc);
    auto down = ir::makeShortCircuit(false, t.compareOne(ast::CmpOpKind::Lt, f(1), x(), loc),
                             t.compareOne(ast::CmpOpKind::LtE, x(), f(0), loc), loc);
    auto sel = std::make_unique<ir::Expr>(ir::ExprOp::Select, Type::boolean(), loc);
    sel->args.push_back(t.compareOne(ast::CmpOpKind::Gt, f(2), int64Const(0, loc), loc));
    sel->args.push_back(std::move(up));
    sel->args.push_back(std::move(down));
    auto rem = t.binary(ast::BinOpKind::Mod, t.binary(ast::BinOpKind::Sub, x(), f(0), loc), f(2), loc);
    auto multiple = t.compareOne(ast::CmpOpKind::Eq, std::move(rem), int64Const(0, loc), loc);
    result = ir::makeShortCircuit(false, std::move(exact), ir::makeShortCircuit(false, std::move(sel), std::move(multiple), loc), loc);
  }
  if (negate) result = t.logicalNot(std::move(result));
  return t.seqExpr(std::move(stmts), std::move(result), loc);
}

ExprPtr rangeTruth(Typing &t, ExprPtr r, Loc loc) {
  return t.compareOne(ast::CmpOpKind::NotEq, rangeLength(t, std::move(r), loc), int64Const(0, loc), loc);
}

} // namespace mahou::sema
