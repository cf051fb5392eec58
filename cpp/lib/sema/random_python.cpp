// Typing of the random module in compiled code (its own per-thread state, as in Numba):
// seed, random, getrandbits, randrange, randint, gauss and normalvariate are `random`
// expressions over runtime/random_python.cpp (CPython's algorithms); the others (uniform,
// choice, shuffle, triangular, the *variate distributions) are Python compiled from
// python/mahou/_library/random_module.py over those.
#include "random_draws.h"

namespace mahou::sema {

ExprPtr FunctionTyper::pyRandomCall(const std::string &name, const ast::Call &e) {
  Loc loc = e.loc;
  std::string fname = "random." + name;
  if (gpu_) notSupported(loc, fname + "() is not supported in CUDA kernels (use the xoroshiro128p generators of cuda.random)");
  // Arguments by position or keyword (Python's names); absent ones are null.
  auto bind = [&](std::initializer_list<const char *> names, size_t required) {
    std::vector<const ast::Expr *> out;
    std::vector<const char *> ns(names);
    for (auto &a : e.args)
      if (a->kind == ast::ExprKind::Starred) notSupported(a->loc, "*args in calls is not supported yet");
    if (e.args.size() > ns.size())
      error(loc, fname + "() takes at most " + std::to_string(ns.size()) + " arguments (" + std::to_string(e.args.size()) + " given)");
    for (auto &k : e.keywords) {
      bool ok = false;
      for (size_t i = 0; i < ns.size(); ++i) ok |= k.name == ns[i] && i >= e.args.size();
      if (!ok) error(k.loc, fname + "() got an unexpected keyword argument '" + k.name + "'");
    }
    for (size_t i = 0; i < ns.size(); ++i) {
      const ast::Expr *a = i < e.args.size() ? e.args[i].get() : keyword(e, ns[i]);
      if (!a && i < required) error(loc, fname + "() missing required argument '" + ns[i] + "'");
      out.push_back(a);
    }
    return out;
  };
  auto integer = [&](const ast::Expr *a) -> ExprPtr {
    ExprPtr v = expr(*a);
    if (isUnknown(v)) return v;
    if (!v->type.isInt() && !v->type.isBool()) error(a->loc, fname + "() takes integers in compiled code, not " + v->type.str());
    return ir::makeCast(std::move(v), Type::int64());
  };
  auto real = [&](const ast::Expr *a, double dflt) -> ExprPtr {
    if (!a) return ir::makeConst(Type::float64(), loc, 0, dflt);
    ExprPtr v = expr(*a);
    if (isUnknown(v)) return v;
    if (!v->type.isNumber() || v->type.isComplex()) error(a->loc, fname + "() takes real numbers, not " + v->type.str());
    return ir::makeCast(std::move(v), Type::float64());
  };
  auto make = [&](ir::RandomKind kind, Type t, std::vector<ExprPtr> args) -> ExprPtr {
    for (auto &a : args)
      if (isUnknown(a)) return unknown(loc);
    ExprPtr r = randomExpr(kind, std::move(t), loc);
    r->args = std::move(args);
    return r;
  };
  std::vector<ExprPtr> args;
  if (name == "seed") { // an integer, or None: fresh entropy
    auto a = bind({"a"}, 0);
    if (isNoneArg(a[0])) return randomExpr(ir::RandomKind::PySeedEntropy, Type::none(), loc);
    ExprPtr v = expr(*a[0]);
    if (isUnknown(v)) return unknown(loc);
    // an optional integer (`if seed is not None: np.random.seed(seed)`): its value, a
    // TypeError when it is None at run time
    if (v->type.isOptional()) v = unwrapOptional(std::move(v));
    if (!v->type.isInt() && !v->type.isBool())
      error(a[0]->loc, fname + "() takes an integer seed in compiled code, not " + v->type.str());
    bool isUnsigned = !v->type.isBool() && !types::isSigned(v->type.dtype);
    args.push_back(ir::makeCast(std::move(v), Type::int64()));
    ExprPtr r = make(ir::RandomKind::PySeed, Type::none(), std::move(args));
    r->ival = isUnsigned;
    return r;
  }
  if (name == "random") {
    bind({}, 0);
    return make(ir::RandomKind::PyRandom, Type::float64(), {});
  }
  if (name == "getrandbits") { // uint64, as in Numba: k is at most 64
    auto a = bind({"k"}, 1);
    args.push_back(integer(a[0]));
    return make(ir::RandomKind::PyGetrandbits, Type::scalar(DType::UInt64), std::move(args));
  }
  if (name == "randrange") {
    auto a = bind({"start", "stop", "step"}, 1);
    bool hasStop = !isNoneArg(a[1]);
    if (!hasStop && a[2]) error(a[2]->loc, fname + "(): missing a non-None stop argument");
    args.push_back(integer(a[0]));
    args.push_back(hasStop ? integer(a[1]) : ir::makeConst(Type::int64(), loc, 0));
    args.push_back(a[2] ? integer(a[2]) : ir::makeConst(Type::int64(), loc, 1));
    ExprPtr r = make(ir::RandomKind::PyRandrange, Type::int64(), std::move(args));
    r->ival = hasStop;
    return r;
  }
  if (name == "randint") {
    auto a = bind({"a", "b"}, 2);
    args.push_back(integer(a[0]));
    args.push_back(integer(a[1]));
    return make(ir::RandomKind::PyRandint, Type::int64(), std::move(args));
  }
  if (name == "gauss" || name == "normalvariate") {
    auto a = bind({"mu", "sigma"}, 0);
    args.push_back(real(a[0], 0.0));
    args.push_back(real(a[1], 1.0));
    return make(name == "gauss" ? ir::RandomKind::PyGauss : ir::RandomKind::PyNormalvariate, Type::float64(), std::move(args));
  }
  if (auto r = libraryCall("random." + name, fname, e)) return r; // uniform, choice, shuffle, ...
  notSupported(loc, fname + " is not supported in compiled code");
}

} // namespace mahou::sema
