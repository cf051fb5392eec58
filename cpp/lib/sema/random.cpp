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

// np.random's calls: host code only; fname names the call in messages.
FunctionTyper &npRandomTyper(Use &u, const std::string &fname) {
  FunctionTyper &t = typerOf(u.t);
  if (t.gpu())
    t.notSupported(u.call->loc, fname + "() is not supported in CUDA kernels (use the xoroshiro128p generators of cuda.random)");
  return t;
}

} // namespace

// np.random.seed(seed): an int in [0, 2**32), or None: fresh entropy
ExprPtr numpyRandomSeed(Use &u) {
  const ast::Call &e = *u.call;
  Loc loc = e.loc;
  std::string fname = "np.random." + u.name;
  FunctionTyper &t = npRandomTyper(u, fname);
  t.checkKeywords(e, {"seed"}, fname);
  if (e.args.size() > 1) t.error(loc, fname + "() takes at most 1 argument");
  const ast::Expr *s = e.args.empty() ? t.keyword(e, "seed") : e.args[0].get();
  if (isNoneArg(s)) return randomExpr(ir::RandomKind::NpSeedEntropy, Type::none(), loc);
  ExprPtr v = t.expr(*s);
  if (Typing::isUnknown(v)) return t.unknown(loc);
  // an optional integer (`if seed is not None: np.random.seed(seed)`): its value, a
  // TypeError when it is None at run time
  if (v->type.isOptional()) v = t.unwrapOptional(std::move(v));
  if (!v->type.isInt() && !v->type.isBool())
    t.error(s->loc, fname + "() takes an integer seed in compiled code, not " + v->type.str());
  ExprPtr r = randomExpr(ir::RandomKind::NpSeed, Type::none(), loc);
  r->args.push_back(ir::makeCast(std::move(v), Type::int64()));
  return r;
}

// np.random.rand(d0, d1, ...) (variant 0) / randn (1): the dimensions by position
ExprPtr numpyRandomRand(Use &u) {
  const ast::Call &e = *u.call;
  Loc loc = e.loc;
  std::string fname = "np.random." + u.name;
  FunctionTyper &t = npRandomTyper(u, fname);
  t.checkKeywords(e, {}, fname);
  std::vector<ExprPtr> dims;
  for (auto &a : e.args) dims.push_back(t.toInt64Index(t.expr(*a), fname + " dimension"));
  for (auto &x : dims)
    if (Typing::isUnknown(x)) return t.unknown(loc);
  random::Dist d = u.variant() == 0 ? random::Dist::NpRandom : random::Dist::NpStandardNormal;
  if (dims.empty()) return draw(d, loc);
  return randomArray(t, std::move(dims), DType::Float64, [&] { return draw(d, loc); }, loc);
}

// np.random.randint(low, high) (variant 0) draws from [low, high); random_integers(low,
// high) (variant 1) from [low, high] (randint(low, high + 1)); one bound alone is high, low
// being 0 (randint) or 1.
ExprPtr numpyRandomIntegers(Use &u) {
  const ast::Call &e = *u.call;
  Loc loc = e.loc;
  std::string fname = "np.random." + u.name;
  FunctionTyper &t = npRandomTyper(u, fname);
  bool closed = u.variant() == 1;
  std::vector<const char *> kws = {"low", "high", "size"};
  if (!closed) kws.push_back("dtype");
  for (auto &k : e.keywords) {
    bool ok = false;
    for (auto *w : kws) ok |= k.name == w;
    if (!ok) t.error(k.loc, fname + "() got an unexpected keyword argument '" + k.name + "'");
  }
  if (e.args.size() > kws.size()) t.error(loc, fname + "() takes at most " + std::to_string(kws.size()) + " positional arguments");
  auto arg = [&](size_t pos) -> const ast::Expr * { return e.args.size() > pos ? e.args[pos].get() : t.keyword(e, kws[pos]); };
  const ast::Expr *lowE = arg(0), *highE = arg(1), *sizeE = arg(2);
  if (!lowE) t.error(loc, fname + "() missing required argument 'low'");
  if (!closed && !isNoneArg(arg(3))) {
    auto dt = t.dtypeArgument(*arg(3));
    if (!dt || *dt != DType::Int64)
      t.notSupported(arg(3)->loc, fname + "() supports only dtype int64 (int) in compiled code");
  }
  auto bound = [&](const ast::Expr *a) -> ExprPtr {
    ExprPtr v = t.expr(*a);
    if (Typing::isUnknown(v)) return v;
    if (!v->type.isInt() && !v->type.isBool()) t.error(a->loc, fname + "() bounds must be integers, not " + v->type.str());
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
  if (array) dims = t.shapeArgument(*sizeE);
  bool unknownArg = Typing::isUnknown(low) || Typing::isUnknown(high);
  for (auto &x : dims) unknownArg |= Typing::isUnknown(x);
  if (unknownArg) return t.unknown(loc);
  auto stmts = std::make_shared<ir::Block>();
  int lowVar = t.holdInTemp(std::move(low), loc, *stmts), highVar = t.holdInTemp(std::move(high), loc, *stmts);
  // The closed interval [low, high - 1] (randint) or [low, high] must not be empty; NumPy
  // words the error by whether low is 0.
  auto empty = std::make_unique<ir::Stmt>(ir::StmtOp::If, loc);
  empty->exprs.push_back(t.compareOne(closed ? ast::CmpOpKind::Lt : ast::CmpOpKind::LtE, t.load(highVar, loc), t.load(lowVar, loc), loc));
  raiseIfStmt(t.compareOne(ast::CmpOpKind::Eq, t.load(lowVar, loc), ir::makeConst(Type::int64(), loc, 0), loc), "high <= 0",
              empty->body, loc);
  auto r = std::make_unique<ir::Stmt>(ir::StmtOp::Raise, loc);
  r->exc = types::ExcKind::ValueError;
  r->text = "low >= high";
  empty->body.push_back(std::move(r));
  stmts->push_back(std::move(empty));
  Type u64 = Type::scalar(DType::UInt64);
  ExprPtr rng = t.binary(ast::BinOpKind::Sub, ir::makeCast(t.load(highVar, loc), u64), ir::makeCast(t.load(lowVar, loc), u64), loc);
  if (!closed) rng = t.binary(ast::BinOpKind::Sub, std::move(rng), ir::makeConst(u64, loc, 1), loc);
  int rngVar = t.holdInTemp(std::move(rng), loc, *stmts);
  auto one = [&] {
    ExprPtr d = randomExpr(ir::RandomKind::NpInteger, Type::int64(), loc);
    d->args.push_back(t.load(lowVar, loc));
    d->args.push_back(t.load(rngVar, loc));
    return d;
  };
  return t.seqExpr(stmts, array ? randomArray(t, std::move(dims), DType::Int64, one, loc) : one(), loc);
}

// np.random.default_rng, Generator, RandomState: refused, as in Numba.
ExprPtr numpyRandomGeneratorMaker(Use &u) {
  std::string fname = "np.random." + u.name;
  FunctionTyper &t = npRandomTyper(u, fname);
  t.notSupported(u.call->loc, fname + "() cannot make a generator in compiled code: pass a np.random.Generator in as an argument");
}

// Every other np.random name: a draw of random_distributions.def's Legacy rows, else the
// library's (choice, permutation, shuffle, ...), else refused.
ExprPtr numpyRandomTyper(Use &u) {
  const ast::Call &e = *u.call;
  std::string fname = "np.random." + u.name;
  FunctionTyper &t = npRandomTyper(u, fname);
  if (const random::DistInfo *d = random::findDist(random::Family::Legacy, u.name.c_str()))
    return randomTableCall(t, *d, nullptr, e, fname);
  if (auto r = t.libraryCall("numpy.random." + u.name, fname, e)) return r;
  t.notSupported(e.loc, fname + " is not supported in compiled code");
}

} // namespace mahou::sema
