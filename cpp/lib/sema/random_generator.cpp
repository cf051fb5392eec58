// Typing of np.random.Generator methods in compiled code (a Generator passed in as an
// argument): the draws of random_distributions.def (random_draws.cpp; float32 rows for
// dtype=np.float32), integers, and shuffle/permutation of 1-D arrays. Each draw is a
// `random` expression on the generator (codegen/random.cpp, runtime/random_generator.cpp),
// which consumes the bit generator's stream as NumPy's method does; parameters are
// checked before anything is drawn, as NumPy checks them. Other methods: a TypingError.
#include "typer.h"
#include "sema/typers.h"
#include "random_draws.h"

namespace mahou::sema {

namespace {
// A Generator's methods: host code only.
FunctionTyper &generatorTyper(Use &u) {
  FunctionTyper &t = typerOf(u.t);
  if (t.gpu()) t.notSupported(u.call->loc, "Generator." + u.name + "() is not supported in CUDA kernels");
  return t;
}
} // namespace

// Every method but those below: a draw of random_distributions.def's Gen rows.
ExprPtr randomGeneratorMethodTyper(Use &u) {
  return generatorTyper(u).randomGeneratorMethod(std::move(u.self), u.name, *u.call);
}

// gen.integers(low, high, size, dtype, endpoint)
ExprPtr randomGeneratorIntegers(Use &u) { return generatorTyper(u).randomIntegers(std::move(u.self), *u.call); }

// gen.shuffle(x) (variant 0) / gen.permutation(x) (variant 1)
ExprPtr randomGeneratorShuffle(Use &u) {
  return generatorTyper(u).randomShuffle(std::move(u.self), u.variant() == 1, *u.call);
}

ExprPtr randomGeneratorAttribute(Use &u) {
  u.error("np.random.Generator attribute '" + u.name + "' is not supported in compiled code");
}

namespace {

ExprPtr draw(ir::RandomKind kind, Type t, ExprPtr gen, Loc loc) {
  auto r = randomExpr(kind, std::move(t), loc);
  r->args.push_back(std::move(gen));
  return r;
}

} // namespace

ExprPtr FunctionTyper::randomGeneratorMethod(ExprPtr gen, const std::string &name, const ast::Call &e) {
  Loc loc = e.loc;
  const std::string fname = "Generator." + name;
  const random::DistInfo *d = random::findDist(random::Family::Gen, name.c_str());
  if (!d) error(loc, "np.random.Generator." + name + "() is not supported in compiled code");
  if (!random::findDist(random::Family::Gen, name.c_str(), random::ValueType::F32))
    return randomTableCall(*this, *d, std::move(gen), e, fname);
  // random, standard_normal, standard_exponential, standard_gamma: dtype=np.float32 picks
  // the row of float32 draws; the dtype follows size.
  size_t dtypePos = size_t(d->numParams()) + 1;
  const ast::Expr *dt = e.args.size() > dtypePos ? e.args[dtypePos].get() : keyword(e, "dtype");
  if (!isNoneArg(dt)) {
    auto t = dtypeArgument(*dt);
    if (!t || (*t != DType::Float64 && *t != DType::Float32)) error(dt->loc, fname + "() supports dtype float64 or float32");
    if (*t == DType::Float32) d = random::findDist(random::Family::Gen, name.c_str(), random::ValueType::F32);
  }
  if (const ast::Expr *m = keyword(e, "method")) { // standard_exponential(method='zig')
    auto *s = m->as<ast::StrLit>();
    if (name != "standard_exponential" || !s || s->value != "zig")
      notSupported(m->loc, fname + "() supports only method='zig' in compiled code");
  }
  if (const ast::Expr *out = keyword(e, "out")) notSupported(out->loc, fname + "(out=...) is not supported in compiled code");
  return randomTableCall(*this, *d, std::move(gen), e, fname, {"dtype", "method"});
}

// integers(low, high, size, dtype, endpoint): NumPy's checks on the closed interval
// [low, high - !endpoint], in its order, then Lemire's bounded draws (32-bit ones when the
// range fits, as NumPy).
ExprPtr FunctionTyper::randomIntegers(ExprPtr gen, const ast::Call &e) {
  Loc loc = e.loc;
  const std::string fname = "Generator.integers";
  auto param = [&](size_t pos, const char *kw) -> const ast::Expr * {
    if (e.args.size() > pos) return e.args[pos].get();
    return keyword(e, kw);
  };
  checkKeywords(e, {"low", "high", "size", "dtype", "endpoint"}, fname);
  if (e.args.size() > 5) error(loc, fname + "() takes at most 5 positional arguments");
  const ast::Expr *lowE = param(0, "low"), *highE = param(1, "high");
  if (isNoneArg(lowE)) error(loc, fname + "() needs low");
  DType dt = DType::Int64;
  if (const ast::Expr *d = param(3, "dtype"); !isNoneArg(d)) {
    auto t = dtypeArgument(*d);
    if (!t || (*t != DType::Int64 && *t != DType::Int32 && *t != DType::UInt64 && *t != DType::UInt32))
      notSupported(d->loc, fname + "() supports dtype int64, int32, uint64 or uint32 in compiled code");
    dt = *t;
  }
  bool endpoint = false;
  if (const ast::Expr *ep = param(4, "endpoint")) {
    auto *b = ep->as<ast::BoolLit>();
    if (!b) notSupported(ep->loc, fname + "() needs endpoint as a literal True or False");
    endpoint = b->value;
  }
  auto bound = [&](const ast::Expr *a) -> ExprPtr {
    ExprPtr v = expr(*a);
    if (isUnknown(v)) return v;
    if (!v->type.isInt() && !v->type.isBool()) error(a->loc, fname + "() bounds must be integers");
    return ir::makeCast(std::move(v), Type::int64());
  };
  std::vector<ExprPtr> params;
  if (isNoneArg(highE)) { // integers(high): [0, high)
    params.push_back(ir::makeConst(Type::int64(), loc, 0));
    params.push_back(bound(lowE));
  } else {
    params.push_back(bound(lowE));
    params.push_back(bound(highE));
  }
  const ast::Expr *sizeE = param(2, "size");
  ir::RandomKind kind = types::dtypeBits(dt) == 64 ? ir::RandomKind::GenBounded64 : ir::RandomKind::GenBounded32;
  for (auto &p : params)
    if (isUnknown(p)) return unknown(loc);
  std::vector<ExprPtr> dims;
  bool array = !isNoneArg(sizeE);
  if (array) dims = shapeArgument(*sizeE);
  for (auto &d : dims)
    if (isUnknown(d)) return unknown(loc);
  if (isUnknown(gen)) return unknown(loc);

  auto stmts = std::make_shared<ir::Block>();
  std::vector<int> vars;
  for (auto &p : params) vars.push_back(holdInTemp(std::move(p), loc, *stmts));
  auto ld = [&](size_t i) { return load(vars[i], loc); };
  Type u64 = Type::scalar(DType::UInt64);
  std::string nptype = types::dtypeName(dt);
  int64_t lb = 0, ub = 0; // for the 32-bit dtypes
  if (dt == DType::Int32) lb = INT32_MIN, ub = INT32_MAX;
  if (dt == DType::UInt32) lb = 0, ub = UINT32_MAX;
  auto c64 = [&](int64_t v) { return ir::makeConst(Type::int64(), loc, v); };
  if (!types::isSigned(dt) || dt == DType::Int32)
    raiseIfStmt(compareOne(ast::CmpOpKind::Lt, ld(0), c64(lb), loc), "low is out of bounds for " + nptype, *stmts, loc);
  if (dt == DType::Int32 || dt == DType::UInt32) // closed high > ub
    raiseIfStmt(compareOne(ast::CmpOpKind::Gt, ld(1), c64(endpoint ? ub : ub + 1), loc), "high is out of bounds for " + nptype,
                *stmts, loc);
  { // an empty interval: high <= low (open) or high < low (closed); NumPy words it by low == 0
    auto check = std::make_unique<ir::Stmt>(ir::StmtOp::If, loc);
    check->exprs.push_back(compareOne(endpoint ? ast::CmpOpKind::Lt : ast::CmpOpKind::LtE, ld(1), ld(0), loc));
    raiseIfStmt(compareOne(ast::CmpOpKind::Eq, ld(0), c64(0), loc), endpoint ? "high < 0" : "high <= 0", check->body, loc);
    auto r = std::make_unique<ir::Stmt>(ir::StmtOp::Raise, loc);
    r->exc = types::ExcKind::ValueError;
    r->text = endpoint ? "low > high" : "low >= high";
    check->body.push_back(std::move(r));
    stmts->push_back(std::move(check));
  }
  // off = low, rng = closed high - low, as unsigned words of the draw's width.
  ExprPtr off = ir::makeCast(ld(0), u64);
  ExprPtr rng = binary(ast::BinOpKind::Sub, ir::makeCast(ld(1), u64), ir::makeCast(ld(0), u64), loc);
  if (!endpoint) rng = binary(ast::BinOpKind::Sub, std::move(rng), ir::makeConst(u64, loc, 1), loc);
  Type raw = u64;
  if (kind == ir::RandomKind::GenBounded32) {
    raw = Type::scalar(DType::UInt32);
    off = ir::makeCast(std::move(off), raw);
    rng = ir::makeCast(std::move(rng), raw);
  }
  int offVar = holdInTemp(std::move(off), loc, *stmts);
  int rngVar = holdInTemp(std::move(rng), loc, *stmts);

  return bindOnce(std::move(gen), [&](const std::function<ExprPtr()> &reload) -> ExprPtr {
    auto one = [&]() -> ExprPtr {
      ExprPtr x = draw(kind, raw, reload(), loc);
      x->args.push_back(load(offVar, loc));
      x->args.push_back(load(rngVar, loc));
      return ir::makeCast(std::move(x), Type::scalar(dt));
    };
    ExprPtr value;
    if (!array) {
      value = one();
    } else {
      value = randomArray(*this, std::move(dims), dt, one, loc);
    }
    return seqExpr(stmts, std::move(value), loc);
  });
}

// shuffle(x) of a 1-D array in place, permutation(n) / permutation(x) of a 1-D copy:
// NumPy's Fisher-Yates from the last item down, each index from random_interval.
ExprPtr FunctionTyper::randomShuffle(ExprPtr gen, bool permutation, const ast::Call &e) {
  Loc loc = e.loc;
  const std::string fname = permutation ? "Generator.permutation" : "Generator.shuffle";
  checkKeywords(e, {"x", "axis"}, fname);
  if (e.args.size() > 2) error(loc, fname + "() takes at most 2 positional arguments");
  const ast::Expr *xE = e.args.empty() ? keyword(e, "x") : e.args[0].get();
  if (!xE) error(loc, fname + "() needs x");
  if (const ast::Expr *axis = e.args.size() > 1 ? e.args[1].get() : keyword(e, "axis")) {
    auto *i = axis->as<ast::IntLit>();
    if (!i || i->value != 0) notSupported(axis->loc, fname + "() supports only axis=0 in compiled code");
  }
  ExprPtr x = expr(*xE);
  if (isUnknown(x) || isUnknown(gen)) return unknown(loc);
  if (permutation && (x->type.isInt() || x->type.isBool())) { // np.arange(x)
    auto a = std::make_unique<ir::Expr>(ir::ExprOp::ArrayArange, Type::array(DType::Int64, 1, types::Layout::C), loc);
    a->args.push_back(ir::makeConst(Type::int64(), loc, 0));
    a->args.push_back(ir::makeCast(std::move(x), Type::int64()));
    a->args.push_back(ir::makeConst(Type::int64(), loc, 1));
    x = std::move(a);
  } else {
    if (!x->type.isArray()) notSupported(xE->loc, fname + "() of " + x->type.str() + " is not supported in compiled code (a 1-D array" + (permutation ? " or an int)" : ")"));
    if (x->type.ndim != 1) notSupported(xE->loc, fname + "() of a " + std::to_string(x->type.ndim) + "-D array is not supported in compiled code (1-D only)");
    if (!permutation && x->type.readonly) error(xE->loc, fname + "() of a read-only array");
    if (permutation) {
      const Type &t = x->type;
      auto c = std::make_unique<ir::Expr>(ir::ExprOp::ArrayCopy, Type::array(t.dtype, 1, types::Layout::C), loc);
      c->args.push_back(std::move(x));
      x = std::move(c);
    }
  }
  return bindOnce(std::move(gen), [&](const std::function<ExprPtr()> &reloadGen) -> ExprPtr {
    auto shuffle = [&](ExprPtr arr) {
      ExprPtr s = draw(ir::RandomKind::GenShuffle, Type::none(), reloadGen(), loc);
      s->args.push_back(std::move(arr));
      return s;
    };
    if (!permutation) return shuffle(std::move(x));
    return bindOnce(std::move(x), [&](const std::function<ExprPtr()> &reloadArr) -> ExprPtr {
      auto stmts = std::make_shared<ir::Block>();
      auto s = std::make_unique<ir::Stmt>(ir::StmtOp::Eval, loc);
      s->exprs.push_back(shuffle(reloadArr()));
      stmts->push_back(std::move(s));
      return seqExpr(stmts, reloadArr(), loc);
    });
  });
}

} // namespace mahou::sema
