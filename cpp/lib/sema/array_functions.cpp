// Typing of NumPy functions and array methods that take or make whole arrays:
// reductions (sum, mean, argmax, ..., with axis), cumsum, dot/@, where, clip,
// linspace, eye/identity, reshape/ravel/flatten.
#include "typer.h"
#include "sema/arrays.h"

namespace mahou::sema {

namespace {

std::optional<ir::ReduceKind> reduceKindByName(const std::string &n) {
  using R = ir::ReduceKind;
  static const std::pair<const char *, R> names[] = {
      {"sum", R::Sum},       {"prod", R::Prod},     {"min", R::Min},       {"amin", R::Min},
      {"max", R::Max},       {"amax", R::Max},      {"argmin", R::ArgMin}, {"argmax", R::ArgMax},
      {"any", R::Any},       {"all", R::All},       {"mean", R::Mean},     {"var", R::Var},
      {"std", R::Std},       {"cumsum", R::CumSum}, {"cumprod", R::CumProd}, {"nansum", R::Sum}};
  for (auto &[name, k] : names)
    if (n == name && n != "nansum") return k;
  return std::nullopt;
}

} // namespace

std::optional<int64_t> axisArgument(Typing &t, const ast::Call &e, size_t position) {
  const ast::Expr *a = e.args.size() > position ? e.args[position].get() : t.keyword(e, "axis");
  if (!a) return std::nullopt;
  if (a->kind == ast::ExprKind::NoneLit) return std::nullopt;
  auto v = t.constInt(*a);
  if (!v) t.notSupported(a->loc, "axis must be a constant integer");
  return v;
}

ExprPtr FunctionTyper::matmul(ExprPtr a, ExprPtr b, Loc loc) {
  if (isUnknown(a) || isUnknown(b)) return unknown(loc);
  if (!a->type.isArray() || !b->type.isArray()) error(loc, "np.dot() / @ needs two arrays");
  int na = a->type.ndim, nb = b->type.ndim;
  if (na > 2 || nb > 2) notSupported(loc, "np.dot() / @ of arrays with more than 2 dimensions is not supported");
  DType d = types::promote(a->type.dtype, b->type.dtype);
  if (d == DType::Bool) d = DType::Int64;
  Type rt = Type::scalar(d);
  if (na + nb == 3) rt = Type::array(d, 1, types::Layout::C);
  if (na == 2 && nb == 2) rt = Type::array(d, 2, types::Layout::C);
  auto e = std::make_unique<ir::Expr>(ir::ExprOp::ArrayDot, rt, loc);
  // Float and complex products with a matrix go to BLAS (codegen/blas.cpp) when they pay.
  bool blasType = types::isFloat(d) || types::isComplex(d);
  if (!gpu_ && blasType && na + nb >= 3 && a->type.dtype == d && b->type.dtype == d && d != DType::Float16) {
    const char *prefix = d == DType::Float32 ? "s" : d == DType::Float64 ? "d" : d == DType::Complex64 ? "c" : "z";
    const GlobalValue &g = global(std::string("@blas.") + prefix + (na + nb == 4 ? "gemm" : "gemv"));
    if (g.kind == GlobalValue::Kind::ExternalFunction) e->ival = int64_t(g.handle);
  }
  e->args.push_back(std::move(a));
  e->args.push_back(std::move(b));
  return e;
}

ExprPtr FunctionTyper::numpyArrayFunction(const std::string &name, const ast::Call &e) {
  std::string fname = "np." + name;
  Loc loc = e.loc;
  if (auto kind = reduceKindByName(name)) {
    checkKeywords(e, {"axis"}, fname);
    if (e.args.empty() || e.args.size() > 2) error(loc, fname + "() takes an array and an optional axis");
    auto arr = expr(*e.args[0]);
    if (isUnknown(arr)) return unknown(loc);
    if (!arr->type.isArray()) {
      if (arr->type.isNumber()) notSupported(loc, fname + "() of a scalar is not supported");
      error(loc, fname + "() needs an array, not " + arr->type.str());
    }
    return reduction(*kind, std::move(arr), axisArgument(*this, e, 1), loc);
  }
  if (name == "dot" || name == "matmul") {
    checkKeywords(e, {}, fname);
    auto args = positionalArgs(e, 2, 2, fname);
    return matmul(std::move(args[0]), std::move(args[1]), loc);
  }
  if (name == "where") {
    checkKeywords(e, {}, fname);
    auto args = positionalArgs(e, 1, 3, fname);
    if (args.size() != 3) notSupported(loc, "np.where() with one argument (np.nonzero) is not supported yet");
    return elementwise(std::move(args), [this, loc](std::vector<ExprPtr> v) -> ExprPtr {
      auto u = types::unify(v[1]->type, v[2]->type);
      if (!u || !u->isNumber()) error(loc, "np.where() branches have incompatible types");
      auto s = std::make_unique<ir::Expr>(ir::ExprOp::Select, *u, loc);
      s->args.push_back(truth(std::move(v[0])));
      s->args.push_back(ir::makeCast(std::move(v[1]), *u));
      s->args.push_back(ir::makeCast(std::move(v[2]), *u));
      return s;
    }, loc);
  }
  if (name == "clip") {
    checkKeywords(e, {}, fname);
    auto args = positionalArgs(e, 3, 3, fname);
    return elementwise(std::move(args), [this, loc](std::vector<ExprPtr> v) -> ExprPtr {
      std::vector<ExprPtr> lo;
      lo.push_back(std::move(v[0]));
      lo.push_back(std::move(v[1]));
      auto low = scalarUfunc("maximum", std::move(lo), loc);
      std::vector<ExprPtr> hi;
      hi.push_back(std::move(low));
      hi.push_back(std::move(v[2]));
      return scalarUfunc("minimum", std::move(hi), loc);
    }, loc);
  }
  if (name == "linspace") {
    checkKeywords(e, {"num"}, fname);
    auto args = positionalArgs(e, 2, 3, fname);
    ExprPtr num;
    if (args.size() == 3) num = std::move(args[2]);
    else if (auto *k = keyword(e, "num")) num = expr(*k);
    else num = ir::makeConst(Type::int64(), loc, 50);
    for (auto *x : {&args[0], &args[1], &num})
      if (isUnknown(*x)) return unknown(loc);
    auto l = std::make_unique<ir::Expr>(ir::ExprOp::ArrayLinspace, Type::array(DType::Float64, 1, types::Layout::C), loc);
    l->args.push_back(convert(std::move(args[0]), Type::float64(), "np.linspace start"));
    l->args.push_back(convert(std::move(args[1]), Type::float64(), "np.linspace stop"));
    l->args.push_back(toInt64Index(std::move(num), "np.linspace num"));
    return l;
  }
  if (name == "eye" || name == "identity") {
    bool eye = name == "eye";
    checkKeywords(e, eye ? std::initializer_list<const char *>{"M", "k", "dtype"} : std::initializer_list<const char *>{"dtype"}, fname);
    auto args = positionalArgs(e, 1, eye ? 3 : 1, fname);
    for (auto &a : args)
      if (isUnknown(a)) return unknown(loc);
    std::optional<DType> dt = DType::Float64;
    if (auto *k = keyword(e, "dtype")) dt = dtypeArgument(*k);
    if (!dt) return unknown(loc);
    ExprPtr n = toInt64Index(std::move(args[0]), fname + " N");
    ExprPtr m, k;
    if (args.size() > 1 && !args[1]->type.isNone()) m = toInt64Index(std::move(args[1]), "np.eye M");
    else if (auto *mk = keyword(e, "M")) m = toInt64Index(expr(*mk), "np.eye M");
    if (args.size() > 2) k = toInt64Index(std::move(args[2]), "np.eye k");
    else if (auto *kk = keyword(e, "k")) k = toInt64Index(expr(*kk), "np.eye k");
    // args: N, k [, M] (without M the matrix is square)
    auto r = std::make_unique<ir::Expr>(ir::ExprOp::ArrayEye, Type::array(*dt, 2, types::Layout::C), loc);
    r->args.push_back(std::move(n));
    r->args.push_back(k ? std::move(k) : ir::makeConst(Type::int64(), loc, 0));
    if (m) r->args.push_back(std::move(m));
    return r;
  }
  if (name == "reshape" || name == "ravel") {
    checkKeywords(e, {}, fname);
    if (e.args.empty()) error(loc, fname + "() needs an array");
    auto arr = expr(*e.args[0]);
    if (isUnknown(arr)) return unknown(loc);
    if (!arr->type.isArray()) error(loc, fname + "() needs an array");
    if (name == "ravel") {
      if (e.args.size() != 1) error(loc, "np.ravel() takes one argument");
      return ravelArray(*this, std::move(arr), false, loc, "a.ravel");
    }
    if (e.args.size() != 2) error(loc, "np.reshape(a, shape) takes two arguments");
    auto dims = shapeArgument(*e.args[1]);
    for (auto &d : dims)
      if (isUnknown(d)) return unknown(loc);
    const Type at = arr->type;
    if (at.layout != types::Layout::C) {
      auto c = std::make_unique<ir::Expr>(ir::ExprOp::ArrayCopy, Type::array(at.dtype, at.ndim, types::Layout::C), loc);
      c->args.push_back(std::move(arr));
      arr = std::move(c);
    }
    auto r = std::make_unique<ir::Expr>(ir::ExprOp::ArrayReshape, Type::array(at.dtype, int(dims.size()), types::Layout::C, at.readonly), loc);
    r->args.push_back(std::move(arr));
    for (auto &d : dims) r->args.push_back(std::move(d));
    return r;
  }
  return numpyLibraryFunction(name, e);
}

} // namespace mahou::sema
