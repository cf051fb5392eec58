// Typing of a draw of the table random_distributions.def (np.random.<name> or
// Generator.<name>): arguments bound to the row's parameters, converted, held in
// temporaries and checked in NumPy's order (the row's constraints, checked by the
// runtime, and the few checks NumPy's methods make by hand), then one `random` Draw or
// an array of `size` filled with draws (randomArray).
#include "random_draws.h"

namespace mahou::sema {

using random::Dist;
using random::ValueType;

ExprPtr randomExpr(ir::RandomKind kind, Type type, Loc loc) {
  auto r = std::make_unique<ir::Expr>(ir::ExprOp::Random, std::move(type), loc);
  r->sub = int(kind);
  return r;
}

void raiseIfStmt(ExprPtr cond, const std::string &message, ir::Block &stmts, Loc loc, types::ExcKind exc) {
  auto check = std::make_unique<ir::Stmt>(ir::StmtOp::If, loc);
  check->exprs.push_back(std::move(cond));
  auto r = std::make_unique<ir::Stmt>(ir::StmtOp::Raise, loc);
  r->exc = exc;
  r->text = message;
  check->body.push_back(std::move(r));
  stmts.push_back(std::move(check));
}

bool isNoneArg(const ast::Expr *e) { return !e || e->kind == ast::ExprKind::NoneLit; }

ExprPtr randomArray(FunctionTyper &t, std::vector<ExprPtr> dims, DType elem, const std::function<ExprPtr()> &one, Loc loc) {
  Type at = Type::array(elem, int(dims.size()), types::Layout::C);
  auto alloc = std::make_unique<ir::Expr>(ir::ExprOp::ArrayAlloc, at, loc);
  alloc->sub = int(ir::AllocKind::Empty);
  alloc->args = std::move(dims);
  auto stmts = std::make_shared<ir::Block>();
  int out = t.holdInTemp(std::move(alloc), loc, *stmts);
  auto size = std::make_unique<ir::Expr>(ir::ExprOp::ArraySize, Type::int64(), loc);
  size->args.push_back(t.load(out, loc));
  int i = t.tempVar(Type::int64(), loc);
  auto loop = std::make_unique<ir::Stmt>(ir::StmtOp::ForRange, loc);
  loop->var = i;
  loop->exprs.push_back(ir::makeConst(Type::int64(), loc, 0));
  loop->exprs.push_back(std::move(size));
  loop->exprs.push_back(ir::makeConst(Type::int64(), loc, 1));
  auto store = std::make_unique<ir::Stmt>(ir::StmtOp::StoreFlatItem, loc);
  store->exprs.push_back(t.load(out, loc));
  store->exprs.push_back(t.load(i, loc));
  store->exprs.push_back(ir::makeCast(one(), Type::scalar(elem)));
  loop->body.push_back(std::move(store));
  stmts->push_back(std::move(loop));
  return t.seqExpr(stmts, t.load(out, loc), loc);
}

namespace {

Type typeOf(ValueType v) {
  switch (v) {
  case ValueType::F32: return Type::scalar(DType::Float32);
  case ValueType::I64: return Type::int64();
  case ValueType::F64:
  case ValueType::None: break;
  }
  return Type::float64();
}

} // namespace

ExprPtr randomTableCall(FunctionTyper &t, const random::DistInfo &d, ExprPtr gen, const ast::Call &e,
                        const std::string &fname, std::initializer_list<const char *> extra) {
  Loc loc = e.loc;
  const int n = d.numParams();
  // Binding: the parameters, size, then the caller's keywords, by position or keyword.
  std::vector<const char *> names;
  for (int i = 0; i < n; ++i) names.push_back(d.params[i].name);
  names.push_back("size");
  for (auto *x : extra) names.push_back(x);
  for (auto &a : e.args)
    if (a->kind == ast::ExprKind::Starred) t.notSupported(a->loc, "*args in calls is not supported yet");
  if (e.args.size() > names.size())
    t.error(loc, fname + "() takes at most " + std::to_string(names.size()) + " positional arguments (" +
                     std::to_string(e.args.size()) + " given)");
  for (auto &k : e.keywords) {
    if (k.name.empty()) t.notSupported(k.loc, "**kwargs in calls is not supported");
    size_t at = names.size();
    for (size_t i = 0; i < names.size(); ++i)
      if (k.name == names[i]) at = i;
    if (at == names.size()) t.error(k.loc, fname + "() got an unexpected keyword argument '" + k.name + "'");
    if (at < e.args.size()) t.error(k.loc, fname + "() got multiple values for argument '" + k.name + "'");
  }
  auto arg = [&](size_t pos) -> const ast::Expr * {
    return e.args.size() > pos ? e.args[pos].get() : t.keyword(e, names[pos]);
  };

  std::vector<ExprPtr> params;
  bool unknown = false;
  for (int i = 0; i < n; ++i) {
    const random::Param &p = d.params[i];
    Type to = typeOf(p.type);
    const ast::Expr *a = arg(size_t(i));
    if (!a) {
      if (p.required) t.error(loc, fname + "() missing required argument '" + p.name + "'");
      params.push_back(p.type == ValueType::I64 ? ir::makeConst(to, loc, int64_t(p.dflt)) : ir::makeConst(to, loc, 0, p.dflt));
      continue;
    }
    ExprPtr v = t.expr(*a);
    if (t.isUnknown(v)) {
      unknown = true;
      params.push_back(std::move(v));
      continue;
    }
    bool integral = v->type.isInt() || v->type.isBool();
    if (p.type == ValueType::I64 && !integral)
      t.error(a->loc, fname + "() argument '" + p.name + "' must be an integer, not " + v->type.str());
    if (!integral && !(v->type.isNumber() && !v->type.isComplex()))
      t.error(a->loc, fname + "() argument '" + p.name + "' must be a real number, not " + v->type.str() +
                          " (array parameters are not supported in compiled code)");
    params.push_back(ir::makeCast(std::move(v), to));
  }
  const ast::Expr *sizeE = arg(size_t(n));
  bool array = !isNoneArg(sizeE);
  std::vector<ExprPtr> dims;
  if (array) dims = t.shapeArgument(*sizeE);
  for (auto &x : dims) unknown |= t.isUnknown(x);
  if (gen && t.isUnknown(gen)) unknown = true;
  if (unknown) return t.unknown(loc);

  // The parameters, evaluated once, and NumPy's checks before any draw.
  auto stmts = std::make_shared<ir::Block>();
  std::vector<int> vars;
  for (auto &p : params) vars.push_back(t.holdInTemp(std::move(p), loc, *stmts));
  auto ld = [&](int i) { return t.load(vars[size_t(i)], loc); };
  auto f64 = [&](double v) { return ir::makeConst(Type::float64(), loc, 0, v); };
  auto i64 = [&](int64_t v) { return ir::makeConst(Type::int64(), loc, v); };
  using ast::CmpOpKind;
  auto cmp = [&](CmpOpKind op, ExprPtr a, ExprPtr b) { return t.compareOne(op, std::move(a), std::move(b), loc); };
  auto notFinite = [&](int var) { // x - x is 0 for finite x, NaN for infinities and NaN
    return cmp(CmpOpKind::NotEq, t.binary(ast::BinOpKind::Sub, t.load(var, loc), t.load(var, loc), loc), f64(0.0));
  };
  auto check = [&](int var, MahouRandomConstraint c, const std::string &name) {
    if (c == MAHOU_RANDOM_NONE) return;
    ExprPtr r = randomExpr(ir::RandomKind::Check, Type::none(), loc);
    r->ival = c;
    r->symbol = name;
    r->args.push_back(t.load(var, loc));
    stmts->push_back(ir::makeEval(std::move(r), loc));
  };
  std::vector<int> order; // the parameters in the order NumPy checks them
  for (int i = 0; i < n; ++i) order.push_back(i);
  switch (d.id) {
  case Dist::NpBinomial:
  case Dist::GenBinomial: order = {1, 0}; break; // p, then n
  case Dist::NpUniform:
  case Dist::GenUniform: { // drawn from (low, high - low): the width must be finite
    int width = t.holdInTemp(t.binary(ast::BinOpKind::Sub, ld(1), ld(0), loc), loc, *stmts);
    bool gen = d.id == Dist::GenUniform;
    raiseIfStmt(notFinite(width), gen ? "high - low range exceeds valid bounds" : "Range exceeds valid bounds", *stmts,
                loc, types::ExcKind::OverflowError);
    if (gen) check(width, MAHOU_RANDOM_NON_NEGATIVE, "high - low");
    vars[1] = width;
    order.clear();
    break;
  }
  case Dist::NpTriangular:
  case Dist::GenTriangular:
    raiseIfStmt(cmp(CmpOpKind::Gt, ld(0), ld(1)), "left > mode", *stmts, loc);
    raiseIfStmt(cmp(CmpOpKind::Gt, ld(1), ld(2)), "mode > right", *stmts, loc);
    raiseIfStmt(cmp(CmpOpKind::Eq, ld(0), ld(2)), "left == right", *stmts, loc);
    break;
  case Dist::GenHypergeometric: {
    const int64_t maxGoodBad = 1000000000; // HYPERGEOM_MAX
    raiseIfStmt(ir::makeShortCircuit(true, cmp(CmpOpKind::GtE, ld(0), i64(maxGoodBad)),
                                     cmp(CmpOpKind::GtE, ld(1), i64(maxGoodBad)), loc),
                "both ngood and nbad must be less than " + std::to_string(maxGoodBad), *stmts, loc);
    [[fallthrough]];
  }
  case Dist::NpHypergeometric:
    raiseIfStmt(cmp(CmpOpKind::Lt, t.binary(ast::BinOpKind::Add, ld(0), ld(1), loc), ld(2)), "ngood + nbad < nsample",
                *stmts, loc);
    break;
  default: break;
  }
  for (int i : order) check(vars[size_t(i)], d.params[i].constraint, d.params[i].name);
  if (d.id == Dist::GenNegativeBinomial) { // poisson's lam must stay within its bound
    ExprPtr rootN = t.intrinsic(ir::Intrinsic::Sqrt, Type::float64(), [&] {
      std::vector<ExprPtr> a;
      a.push_back(ld(0));
      return a;
    }(), loc);
    ExprPtr maxLam = t.binary(ast::BinOpKind::Mult,
                              t.binary(ast::BinOpKind::Div, t.binary(ast::BinOpKind::Sub, f64(1.0), ld(1), loc), ld(1), loc),
                              t.binary(ast::BinOpKind::Add, ld(0), t.binary(ast::BinOpKind::Mult, f64(10.0), std::move(rootN), loc), loc),
                              loc);
    raiseIfStmt(cmp(CmpOpKind::Gt, std::move(maxLam), f64(random::poissonLamMax())),
                "n too large or p too small, see Generator.negative_binomial Notes", *stmts, loc);
  }

  Type elem = typeOf(d.result);
  auto body = [&](const std::function<ExprPtr()> &reloadGen) -> ExprPtr {
    auto one = [&]() -> ExprPtr {
      ExprPtr r = randomExpr(ir::RandomKind::Draw, elem, loc);
      r->ival = int64_t(d.id);
      if (reloadGen) r->args.push_back(reloadGen());
      for (int i = 0; i < n; ++i) r->args.push_back(t.load(vars[size_t(i)], loc));
      return r;
    };
    ExprPtr value;
    if (!array) {
      value = one();
    } else {
      value = randomArray(t, std::move(dims), elem.dtype, one, loc);
    }
    return t.seqExpr(stmts, std::move(value), loc);
  };
  if (!gen) return body(nullptr);
  return t.bindOnce(std::move(gen), body);
}

} // namespace mahou::sema
