// The arguments of the reductions beyond the array (np.sum(a, axis, dtype=), a.var(ddof=),
// ...): a constant axis, or a runtime one (one reduction per axis, chosen at run time:
// the result's rank is ndim - 1 either way); dtype= of sum/prod; ddof= of var/std.
#include "typer.h"
#include "sema/typers.h"

namespace mahou::sema {

using R = ir::ReduceKind;

ExprPtr reduceWithArguments(Typing &t, R kind, ExprPtr arr, const ast::Call &e, size_t axisPosition,
                            const std::string &fname, Loc loc) {
  bool sumOrProd = kind == R::Sum || kind == R::Prod, varOrStd = kind == R::Var || kind == R::Std;
  if (sumOrProd) t.checkKeywords(e, {"axis", "dtype"}, fname);
  else if (varOrStd) t.checkKeywords(e, {"axis", "ddof"}, fname);
  else t.checkKeywords(e, {"axis"}, fname);
  if (Typing::isUnknown(arr)) return arr;
  if (!arr->type.isArray()) t.error(loc, fname + "() needs an array, not " + arr->type.str());
  // dtype=: the elements converted to it and accumulated in it (NumPy's sum(dtype=))
  std::optional<DType> dt;
  if (const ast::Expr *d = t.keyword(e, "dtype"); d && d->kind != ast::ExprKind::NoneLit) {
    dt = t.dtypeArgument(*d);
    if (!dt) return t.unknown(loc);
    DType to = *dt;
    std::vector<ExprPtr> in;
    in.push_back(std::move(arr));
    arr = t.elementwise(std::move(in), [to](std::vector<ExprPtr> v) { return ir::makeCast(std::move(v[0]), Type::scalar(to)); }, loc);
  }
  ExprPtr ddof;
  if (const ast::Expr *d = t.keyword(e, "ddof")) {
    ddof = t.expr(*d);
    if (Typing::isUnknown(ddof)) return ddof;
    if (!ddof->type.isNumber() || ddof->type.isComplex()) t.error(d->loc, fname + "() ddof must be a real number");
    ddof = ir::makeCast(std::move(ddof), Type::float64());
  }
  auto finish = [&](ExprPtr r) {
    if (r->op == ir::ExprOp::ArrayReduce) {
      if (dt) r->type.dtype = *dt;
      if (ddof) r->args.push_back(ir::clone(*ddof));
    }
    return r;
  };
  const ast::Expr *axisArg = e.args.size() > axisPosition ? e.args[axisPosition].get() : t.keyword(e, "axis");
  if (!axisArg || axisArg->kind == ast::ExprKind::NoneLit) return finish(t.reduction(kind, std::move(arr), std::nullopt, loc));
  if (auto c = t.constInt(*axisArg)) return finish(t.reduction(kind, std::move(arr), *c, loc));
  // A runtime axis: checked and normalised once, then the reduction along it.
  auto axis = t.expr(*axisArg);
  if (Typing::isUnknown(axis)) return axis;
  if (!axis->type.isInt() && !axis->type.isBool()) t.error(axisArg->loc, fname + "() axis must be an integer");
  int nd = arr->type.ndim;
  auto stmts = std::make_shared<ir::Block>();
  int a = t.holdInTemp(std::move(arr), loc, *stmts);
  if (ddof) ddof = [&] {
      int v = t.holdInTemp(std::move(ddof), loc, *stmts);
      return t.load(v, loc);
    }();
  int ax = t.holdInTemp(ir::makeCast(std::move(axis), Type::int64()), loc, *stmts);
  auto c64 = [&](int64_t v) { return ir::makeConst(Type::int64(), loc, v); };
  auto negative = t.compareOne(ast::CmpOpKind::Lt, t.load(ax, loc), c64(0), loc);
  stmts->push_back(t.assignVar(ax, ir::makeSelect(std::move(negative), t.binary(ast::BinOpKind::Add, t.load(ax, loc), c64(nd), loc),
                                          t.load(ax, loc), loc),
                               loc));
  auto check = std::make_unique<ir::Stmt>(ir::StmtOp::If, loc);
  auto below = t.compareOne(ast::CmpOpKind::Lt, t.load(ax, loc), c64(0), loc);
  auto above = t.compareOne(ast::CmpOpKind::GtE, t.load(ax, loc), c64(nd), loc);
  auto out = std::make_unique<ir::Expr>(ir::ExprOp::ShortCircuit, Type::boolean(), loc);
  out->sub = 1;
  out->args.push_back(std::move(below));
  out->args.push_back(std::move(above));
  check->exprs.push_back(std::move(out));
  auto raise = std::make_unique<ir::Stmt>(ir::StmtOp::Raise, loc);
  raise->exc = types::ExcKind::ValueError; // NumPy's AxisError is a ValueError (and Numba raises one)
  raise->text = "axis is out of bounds for array of dimension " + std::to_string(nd);
  check->body.push_back(std::move(raise));
  stmts->push_back(std::move(check));
  ExprPtr result;
  if (nd == 1) {
    result = finish(t.reduction(kind, t.load(a, loc), std::nullopt, loc));
  } else {
    result = finish(t.reduction(kind, t.load(a, loc), nd - 1, loc));
    for (int k = nd - 2; k >= 0; --k) {
      auto is = t.compareOne(ast::CmpOpKind::Eq, t.load(ax, loc), c64(k), loc);
      result = ir::makeSelect(std::move(is), finish(t.reduction(kind, t.load(a, loc), k, loc)), std::move(result), loc);
    }
  }
  return t.seqExpr(std::move(stmts), std::move(result), loc);
}

} // namespace mahou::sema
