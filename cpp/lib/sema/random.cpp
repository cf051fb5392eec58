// Typing of np.random in compiled code: seed, random/rand/random_sample, randn/
// standard_normal, normal, uniform, randint, as scalars or arrays of a given size.
#include "typer.h"
#include "sema/typers.h"

namespace mahou::sema {

namespace {

ExprPtr draw(ir::RandomKind kind, Type t, Loc loc) {
  auto r = std::make_unique<ir::Expr>(ir::ExprOp::Random, std::move(t), loc);
  r->sub = int(kind);
  return r;
}

} // namespace

ExprPtr numpyRandomTyper(Use &u) { return typerOf(u.t).randomCall(u.name, *u.call); }

ExprPtr FunctionTyper::randomCall(const std::string &name, const ast::Call &e) {
  Loc loc = e.loc;
  std::string fname = "np.random." + name;
  requireHost(loc, fname + "()");
  if (name == "seed") {
    checkKeywords(e, {}, fname);
    auto args = positionalArgs(e, 1, 1, fname);
    if (isUnknown(args[0])) return unknown(loc);
    auto r = draw(ir::RandomKind::Seed, Type::none(), loc);
    r->args.push_back(toInt64Index(std::move(args[0]), "seed"));
    return r;
  }
  // Arguments by position or keyword, with defaults; `size` makes an array.
  auto param = [&](size_t pos, const char *kw) -> const ast::Expr * {
    if (e.args.size() > pos) return e.args[pos].get();
    return keyword(e, kw);
  };
  std::vector<ExprPtr> params; // scalar parameters of the distribution
  const ast::Expr *sizeE = nullptr;
  std::vector<ExprPtr> dims;   // rand(d0, d1, ...) / randn(...) form
  ir::RandomKind kind;
  DType dt = DType::Float64;
  if (name == "random" || name == "random_sample" || name == "rand" || name == "randn" || name == "standard_normal") {
    kind = (name == "randn" || name == "standard_normal") ? ir::RandomKind::Normal : ir::RandomKind::Uniform01;
    if (name == "rand" || name == "randn") {
      checkKeywords(e, {}, fname);
      for (auto &a : e.args) dims.push_back(toInt64Index(expr(*a), fname + " dimension"));
    } else {
      checkKeywords(e, {"size"}, fname);
      if (e.args.size() > 1) error(loc, fname + "() takes at most one argument (size)");
      sizeE = param(0, "size");
    }
  } else if (name == "normal" || name == "uniform") {
    kind = name == "normal" ? ir::RandomKind::Normal : ir::RandomKind::Uniform01;
    const char *k0 = name == "normal" ? "loc" : "low", *k1 = name == "normal" ? "scale" : "high";
    checkKeywords(e, {k0, k1, "size"}, fname);
    if (e.args.size() > 3) error(loc, fname + "() takes at most 3 arguments");
    const ast::Expr *a0 = param(0, k0), *a1 = param(1, k1);
    params.push_back(a0 ? expr(*a0) : ir::makeConst(Type::float64(), loc, 0, 0.0));
    params.push_back(a1 ? expr(*a1) : ir::makeConst(Type::float64(), loc, 0, 1.0));
    sizeE = param(2, "size");
  } else if (name == "randint") {
    kind = ir::RandomKind::Integer;
    dt = DType::Int64;
    checkKeywords(e, {"low", "high", "size"}, fname);
    const ast::Expr *a0 = param(0, "low"), *a1 = param(1, "high");
    if (!a0) error(loc, "np.random.randint() needs low");
    if (a1 && a1->kind == ast::ExprKind::NoneLit) a1 = nullptr;
    if (a1) {
      params.push_back(expr(*a0));
      params.push_back(expr(*a1));
    } else { // randint(high): [0, high)
      params.push_back(ir::makeConst(Type::int64(), loc, 0));
      params.push_back(expr(*a0));
    }
    sizeE = param(2, "size");
  } else if (name == "default_rng" || name == "Generator") { // as in Numba
    notSupported(loc, fname + "() cannot make a Generator in compiled code: pass a np.random.Generator in as an argument");
  } else {
    notSupported(loc, fname + " is not supported yet");
  }
  for (auto &p : params) {
    if (isUnknown(p)) return unknown(loc);
    if (!p->type.isNumber() || p->type.isComplex()) error(p->loc, fname + "() parameters must be real numbers");
    p = kind == ir::RandomKind::Integer ? toInt64Index(std::move(p), fname + " bound") : ir::makeCast(std::move(p), Type::float64());
  }
  if (sizeE && sizeE->kind != ast::ExprKind::NoneLit) dims = shapeArgument(*sizeE);
  for (auto &d : dims)
    if (isUnknown(d)) return unknown(loc);

  // One draw from the distribution given its (element) parameters.
  auto one = [this, kind, loc](std::vector<ExprPtr> p) -> ExprPtr {
    if (kind == ir::RandomKind::Integer) {
      auto r = draw(kind, Type::int64(), loc);
      r->args = std::move(p);
      return r;
    }
    ExprPtr x = draw(kind, Type::float64(), loc);
    if (p.empty()) return x;
    if (kind == ir::RandomKind::Normal) // loc + scale * z
      return binary(ast::BinOpKind::Add, std::move(p[0]), binary(ast::BinOpKind::Mult, std::move(p[1]), std::move(x), loc), loc);
    // low + (high - low) * u
    auto low2 = ir::clone(*p[0]);
    return binary(ast::BinOpKind::Add, std::move(p[0]),
                  binary(ast::BinOpKind::Mult, binary(ast::BinOpKind::Sub, std::move(p[1]), std::move(low2), loc), std::move(x), loc),
                  loc);
  };
  bool array = !dims.empty() || (sizeE && sizeE->kind != ast::ExprKind::NoneLit);
  if (!array) return one(std::move(params));
  // An array of draws: an elementwise map over an uninitialised array of the shape.
  auto shape = std::make_unique<ir::Expr>(ir::ExprOp::ArrayAlloc, Type::array(dt, int(dims.size()), types::Layout::C), loc);
  shape->sub = int(ir::AllocKind::Empty);
  shape->args = std::move(dims);
  std::vector<ExprPtr> operands;
  operands.push_back(std::move(shape));
  for (auto &p : params) operands.push_back(std::move(p));
  return elementwise(std::move(operands), [one](std::vector<ExprPtr> v) {
    v.erase(v.begin()); // the shape array's (unused) element
    return one(std::move(v));
  }, loc);
}

} // namespace mahou::sema
