// Typing of the random module in compiled code (its own per-thread state, as in Numba):
// seed, random, getrandbits, randrange, randint, gauss and normalvariate are `random`
// expressions over runtime/random_python.cpp (CPython's algorithms); the others (uniform,
// choice, shuffle, triangular, the *variate distributions) are Python compiled from
// python/mahou/_library/random_module.py over those.
#include "random_draws.h"

namespace mahou::sema {

namespace {

// The random module's calls, typed by one FunctionTyper: each binds its arguments (by
// position or keyword, Python's names) and builds a `random` expression.
struct PyRandomCall {
  FunctionTyper &t;
  const ast::Call &e;
  std::string fname;
  Loc loc;

  PyRandomCall(Use &u) : t(typerOf(u.t)), e(*u.call), fname("random." + u.name), loc(u.call->loc) {
    if (t.gpu()) t.notSupported(loc, fname + "() is not supported in CUDA kernels (use the xoroshiro128p generators of cuda.random)");
  }

  // Arguments by position or keyword (Python's names); absent ones are null.
  std::vector<const ast::Expr *> bind(std::initializer_list<const char *> names, size_t required) {
    std::vector<const ast::Expr *> out;
    std::vector<const char *> ns(names);
    for (auto &a : e.args)
      if (a->kind == ast::ExprKind::Starred) t.notSupported(a->loc, "*args in calls is not supported yet");
    if (e.args.size() > ns.size())
      t.error(loc, fname + "() takes at most " + std::to_string(ns.size()) + " arguments (" + std::to_string(e.args.size()) + " given)");
    for (auto &k : e.keywords) {
      bool ok = false;
      for (size_t i = 0; i < ns.size(); ++i) ok |= k.name == ns[i] && i >= e.args.size();
      if (!ok) t.error(k.loc, fname + "() got an unexpected keyword argument '" + k.name + "'");
    }
    for (size_t i = 0; i < ns.size(); ++i) {
      const ast::Expr *a = i < e.args.size() ? e.args[i].get() : t.keyword(e, ns[i]);
      if (!a && i < required) t.error(loc, fname + "() missing required argument '" + ns[i] + "'");
      out.push_back(a);
    }
    return out;
  }
  ExprPtr integer(const ast::Expr *a) {
    ExprPtr v = t.expr(*a);
    if (Typing::isUnknown(v)) return v;
    if (!v->type.isInt() && !v->type.isBool()) t.error(a->loc, fname + "() takes integers in compiled code, not " + v->type.str());
    return ir::makeCast(std::move(v), Type::int64());
  }
  ExprPtr real(const ast::Expr *a, double dflt) {
    if (!a) return ir::makeConst(Type::float64(), loc, 0, dflt);
    ExprPtr v = t.expr(*a);
    if (Typing::isUnknown(v)) return v;
    if (!v->type.isNumber() || v->type.isComplex()) t.error(a->loc, fname + "() takes real numbers, not " + v->type.str());
    return ir::makeCast(std::move(v), Type::float64());
  }
  ExprPtr make(ir::RandomKind kind, Type type, std::vector<ExprPtr> args) {
    for (auto &a : args)
      if (Typing::isUnknown(a)) return t.unknown(loc);
    ExprPtr r = randomExpr(kind, std::move(type), loc);
    r->args = std::move(args);
    return r;
  }
};

} // namespace

// random.seed(a): an integer, or None: fresh entropy
ExprPtr pyRandomSeed(Use &u) {
  PyRandomCall c(u);
  auto a = c.bind({"a"}, 0);
  if (isNoneArg(a[0])) return randomExpr(ir::RandomKind::PySeedEntropy, Type::none(), c.loc);
  ExprPtr v = c.t.expr(*a[0]);
  if (Typing::isUnknown(v)) return c.t.unknown(c.loc);
  // an optional integer (`if seed is not None: np.random.seed(seed)`): its value, a
  // TypeError when it is None at run time
  if (v->type.isOptional()) v = c.t.unwrapOptional(std::move(v));
  if (!v->type.isInt() && !v->type.isBool())
    c.t.error(a[0]->loc, c.fname + "() takes an integer seed in compiled code, not " + v->type.str());
  bool isUnsigned = !v->type.isBool() && !types::isSigned(v->type.dtype);
  std::vector<ExprPtr> args;
  args.push_back(ir::makeCast(std::move(v), Type::int64()));
  ExprPtr r = c.make(ir::RandomKind::PySeed, Type::none(), std::move(args));
  r->ival = isUnsigned;
  return r;
}

// random.random()
ExprPtr pyRandomRandom(Use &u) {
  PyRandomCall c(u);
  c.bind({}, 0);
  return c.make(ir::RandomKind::PyRandom, Type::float64(), {});
}

// random.getrandbits(k): uint64, as in Numba: k is at most 64
ExprPtr pyRandomGetrandbits(Use &u) {
  PyRandomCall c(u);
  auto a = c.bind({"k"}, 1);
  std::vector<ExprPtr> args;
  args.push_back(c.integer(a[0]));
  return c.make(ir::RandomKind::PyGetrandbits, Type::scalar(DType::UInt64), std::move(args));
}

// random.randrange(start[, stop[, step]])
ExprPtr pyRandomRandrange(Use &u) {
  PyRandomCall c(u);
  auto a = c.bind({"start", "stop", "step"}, 1);
  bool hasStop = !isNoneArg(a[1]);
  if (!hasStop && a[2]) c.t.error(a[2]->loc, c.fname + "(): missing a non-None stop argument");
  std::vector<ExprPtr> args;
  args.push_back(c.integer(a[0]));
  args.push_back(hasStop ? c.integer(a[1]) : ir::makeConst(Type::int64(), c.loc, 0));
  args.push_back(a[2] ? c.integer(a[2]) : ir::makeConst(Type::int64(), c.loc, 1));
  ExprPtr r = c.make(ir::RandomKind::PyRandrange, Type::int64(), std::move(args));
  r->ival = hasStop;
  return r;
}

// random.randint(a, b)
ExprPtr pyRandomRandint(Use &u) {
  PyRandomCall c(u);
  auto a = c.bind({"a", "b"}, 2);
  std::vector<ExprPtr> args;
  args.push_back(c.integer(a[0]));
  args.push_back(c.integer(a[1]));
  return c.make(ir::RandomKind::PyRandint, Type::int64(), std::move(args));
}

// random.gauss(mu, sigma) / random.normalvariate(mu, sigma) (variant: the ir::RandomKind)
ExprPtr pyRandomNormal(Use &u) {
  PyRandomCall c(u);
  auto a = c.bind({"mu", "sigma"}, 0);
  std::vector<ExprPtr> args;
  args.push_back(c.real(a[0], 0.0));
  args.push_back(c.real(a[1], 1.0));
  return c.make(ir::RandomKind(u.variant()), Type::float64(), std::move(args));
}

// Every other name of the random module: the library's (uniform, choice, shuffle, ...),
// else refused.
ExprPtr pyRandomTyper(Use &u) {
  PyRandomCall c(u);
  if (auto r = c.t.libraryCall("random." + u.name, c.fname, c.e)) return r;
  c.t.notSupported(c.loc, c.fname + " is not supported in compiled code");
}

} // namespace mahou::sema
