// Typing of np.random in compiled code: seed, rand/randn, randint/random_integers, and the
// draws of random_distributions.def (random_draws.cpp), all from this thread's MT19937
// with RandomState's algorithms (runtime/random.cpp); choice, permutation, shuffle,
// multinomial and dirichlet are Python (python/mahou/_library/numpy_random.py) over these.
#include "random_draws.h"

namespace mahou::sema {

namespace {

ExprPtr draw(random::Dist d, Loc loc) {
  ExprPtr r = randomExpr(ir::RandomKind::Draw, random::distInfo(d).result == random::ValueType::I64 ? Type::int64() : Type::float64(), loc);
  r->ival = int64_t(d);
  return r;
}

} // namespace

// The registry's entries of np.random and the random module: their own dispatch by name
// (random.cpp, random_python.cpp).
ExprPtr numpyRandomTyper(Use &u) { return typerOf(u.t).randomCall(u.name, *u.call); }
ExprPtr pyRandomTyper(Use &u) { return typerOf(u.t).pyRandomCall(u.name, *u.call); }

ExprPtr FunctionTyper::randomCall(const std::string &name, const ast::Call &e) {
  Loc loc = e.loc;
  std::string fname = "np.random." + name;
  if (gpu_) notSupported(loc, fname + "() is not supported in CUDA kernels (use the xoroshiro128p generators of cuda.random)");
  if (name == "seed") { // an int in [0, 2**32), or None: fresh entropy
    checkKeywords(e, {"seed"}, fname);
    if (e.args.size() > 1) error(loc, fname + "() takes at most 1 argument");
    const ast::Expr *s = e.args.empty() ? keyword(e, "seed") : e.args[0].get();
    if (isNoneArg(s)) return randomExpr(ir::RandomKind::NpSeedEntropy, Type::none(), loc);
    ExprPtr v = expr(*s);
    if (isUnknown(v)) return unknown(loc);
    // an optional integer (`if seed is not None: np.random.seed(seed)`): its value, a
    // TypeError when it is None at run time
    if (v->type.isOptional()) v = unwrapOptional(std::move(v));
    if (!v->type.isInt() && !v->type.isBool())
      error(s->loc, fname + "() takes an integer seed in compiled code, not " + v->type.str());
    ExprPtr r = randomExpr(ir::RandomKind::NpSeed, Type::none(), loc);
    r->args.push_back(ir::makeCast(std::move(v), Type::int64()));
    return r;
  }
  if (name == "rand" || name == "randn") { // rand(d0, d1, ...): the dimensions by position
    checkKeywords(e, {}, fname);
    std::vector<ExprPtr> dims;
    for (auto &a : e.args) dims.push_back(toInt64Index(expr(*a), fname + " dimension"));
    for (auto &x : dims)
      if (isUnknown(x)) return unknown(loc);
    random::Dist d = name == "rand" ? random::Dist::NpRandom : random::Dist::NpStandardNormal;
    if (dims.empty()) return draw(d, loc);
    return randomArray(*this, std::move(dims), DType::Float64, [&] { return draw(d, loc); }, loc);
  }
  if (name == "randint" || name == "random_integers") {
    // randint(low, high) draws from [low, high); random_integers(low, high) from [low, high]
    // (randint(low, high + 1)); one bound alone is high, low being 0 (randint) or 1.
    bool closed = name == "random_integers";
    std::vector<const char *> kws = {"low", "high", "size"};
    if (!closed) kws.push_back("dtype");
    for (auto &k : e.keywords) {
      bool ok = false;
      for (auto *w : kws) ok |= k.name == w;
      if (!ok) error(k.loc, fname + "() got an unexpected keyword argument '" + k.name + "'");
    }
    if (e.args.size() > kws.size()) error(loc, fname + "() takes at most " + std::to_string(kws.size()) + " positional arguments");
    auto arg = [&](size_t pos) -> const ast::Expr * { return e.args.size() > pos ? e.args[pos].get() : keyword(e, kws[pos]); };
    const ast::Expr *lowE = arg(0), *highE = arg(1), *sizeE = arg(2);
    if (!lowE) error(loc, fname + "() missing required argument 'low'");
    if (!closed && !isNoneArg(arg(3))) {
      auto dt = dtypeArgument(*arg(3));
      if (!dt || *dt != DType::Int64)
        notSupported(arg(3)->loc, fname + "() supports only dtype int64 (int) in compiled code");
    }
    auto bound = [&](const ast::Expr *a) -> ExprPtr {
      ExprPtr v = expr(*a);
      if (isUnknown(v)) return v;
      if (!v->type.isInt() && !v->type.isBool()) error(a->loc, fname + "() bounds must be integers, not " + v->type.str());
      return ir::makeCast(std::move(v), Type::int64());
    };
    ExprPtr low, high;
    if (isNoneArg(highE)) {
      low = ir::makeConst(Type::int64(), loc, closed ? 1 : 0);
      high = bound(lowE);
    } else {
      low = bound(lowE);
      high = bound(highE);
    }
    std::vector<ExprPtr> dims;
    bool array = !isNoneArg(sizeE);
    if (array) dims = shapeArgument(*sizeE);
    bool unknownArg = isUnknown(low) || isUnknown(high);
    for (auto &x : dims) unknownArg |= isUnknown(x);
    if (unknownArg) return unknown(loc);
    auto stmts = std::make_shared<ir::Block>();
    int lowVar = holdInTemp(std::move(low), loc, *stmts), highVar = holdInTemp(std::move(high), loc, *stmts);
    // The closed interval [low, high - 1] (randint) or [low, high] must not be empty; NumPy
    // words the error by whether low is 0.
    auto empty = std::make_unique<ir::Stmt>(ir::StmtOp::If, loc);
    empty->exprs.push_back(compareOne(closed ? ast::CmpOpKind::Lt : ast::CmpOpKind::LtE, load(highVar, loc), load(lowVar, loc), loc));
    raiseIfStmt(compareOne(ast::CmpOpKind::Eq, load(lowVar, loc), ir::makeConst(Type::int64(), loc, 0), loc), "high <= 0",
                empty->body, loc);
    auto r = std::make_unique<ir::Stmt>(ir::StmtOp::Raise, loc);
    r->exc = types::ExcKind::ValueError;
    r->text = "low >= high";
    empty->body.push_back(std::move(r));
    stmts->push_back(std::move(empty));
    Type u64 = Type::scalar(DType::UInt64);
    ExprPtr rng = binary(ast::BinOpKind::Sub, ir::makeCast(load(highVar, loc), u64), ir::makeCast(load(lowVar, loc), u64), loc);
    if (!closed) rng = binary(ast::BinOpKind::Sub, std::move(rng), ir::makeConst(u64, loc, 1), loc);
    int rngVar = holdInTemp(std::move(rng), loc, *stmts);
    auto one = [&] {
      ExprPtr d = randomExpr(ir::RandomKind::NpInteger, Type::int64(), loc);
      d->args.push_back(load(lowVar, loc));
      d->args.push_back(load(rngVar, loc));
      return d;
    };
    return seqExpr(stmts, array ? randomArray(*this, std::move(dims), DType::Int64, one, loc) : one(), loc);
  }
  if (const random::DistInfo *d = random::findDist(random::Family::Legacy, name.c_str()))
    return randomTableCall(*this, *d, nullptr, e, fname);
  if (auto r = libraryCall("numpy.random." + name, fname, e)) return r; // choice, permutation, ...
  if (name == "default_rng" || name == "Generator" || name == "RandomState") // as in Numba
    notSupported(loc, fname + "() cannot make a generator in compiled code: pass a np.random.Generator in as an argument");
  notSupported(loc, fname + " is not supported in compiled code");
}

} // namespace mahou::sema
