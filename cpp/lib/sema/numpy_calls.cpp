// Typing of math-module functions and of the NumPy functions the core supports:
// scalar ufuncs and array creation (empty/zeros/ones/full(_like), arange, copy).
#include "typer.h"

#include <cmath>

namespace mahou::sema {

namespace {

struct MathFn {
  const char *name;
  ir::Intrinsic id;
  enum Result { Float, IntRounding, Predicate } result;
};

// math-module functions: float64, or float32 when every argument is float32 (Numba's typing).
constexpr MathFn kMathFns[] = {
    {"sqrt", ir::Intrinsic::Sqrt, MathFn::Float},       {"exp", ir::Intrinsic::Exp, MathFn::Float},
    {"expm1", ir::Intrinsic::Expm1, MathFn::Float},     {"log2", ir::Intrinsic::Log2, MathFn::Float},
    {"log10", ir::Intrinsic::Log10, MathFn::Float},     {"log1p", ir::Intrinsic::Log1p, MathFn::Float},
    {"sin", ir::Intrinsic::Sin, MathFn::Float},         {"cos", ir::Intrinsic::Cos, MathFn::Float},
    {"tan", ir::Intrinsic::Tan, MathFn::Float},         {"asin", ir::Intrinsic::Asin, MathFn::Float},
    {"acos", ir::Intrinsic::Acos, MathFn::Float},       {"atan", ir::Intrinsic::Atan, MathFn::Float},
    {"sinh", ir::Intrinsic::Sinh, MathFn::Float},       {"cosh", ir::Intrinsic::Cosh, MathFn::Float},
    {"tanh", ir::Intrinsic::Tanh, MathFn::Float},       {"asinh", ir::Intrinsic::Asinh, MathFn::Float},
    {"acosh", ir::Intrinsic::Acosh, MathFn::Float},     {"atanh", ir::Intrinsic::Atanh, MathFn::Float},
    {"erf", ir::Intrinsic::Erf, MathFn::Float},         {"erfc", ir::Intrinsic::Erfc, MathFn::Float},
    {"gamma", ir::Intrinsic::Gamma, MathFn::Float},     {"lgamma", ir::Intrinsic::Lgamma, MathFn::Float},
    {"fabs", ir::Intrinsic::Fabs, MathFn::Float},       {"floor", ir::Intrinsic::Floor, MathFn::IntRounding},
    {"ceil", ir::Intrinsic::Ceil, MathFn::IntRounding}, {"trunc", ir::Intrinsic::Trunc, MathFn::IntRounding},
    {"isnan", ir::Intrinsic::IsNan, MathFn::Predicate}, {"isinf", ir::Intrinsic::IsInf, MathFn::Predicate},
    {"isfinite", ir::Intrinsic::IsFinite, MathFn::Predicate},
    {"atan2", ir::Intrinsic::Atan2, MathFn::Float},     {"hypot", ir::Intrinsic::Hypot, MathFn::Float},
    {"copysign", ir::Intrinsic::Copysign, MathFn::Float}, {"pow", ir::Intrinsic::Pow, MathFn::Float},
    {"fmod", ir::Intrinsic::Fmod, MathFn::Float},
};

template <size_t N> const MathFn *findFn(const MathFn (&table)[N], const std::string &name) {
  for (auto &f : table)
    if (name == f.name) return &f;
  return nullptr;
}

} // namespace

ExprPtr FunctionTyper::mathCall(types::ModuleId module, const std::string &name, const ast::Call &e) {
  if (module == types::ModuleId::Cmath) return cmathCall(name, e);
  if (auto r = mathExtra(name, e)) return r;
  checkKeywords(e, {}, "math." + name);
  if (name == "log") {
    auto args = positionalArgs(e, 1, 2, "math.log");
    for (auto &a : args) {
      if (isUnknown(a)) return unknown(e.loc);
      if (!a->type.isNumber() || a->type.isComplex()) error(a->loc, "math.log() needs a real number");
    }
    if (args.size() == 1) {
      Type ft = args[0]->type.isScalar(DType::Float32) ? args[0]->type : Type::float64();
      std::vector<ExprPtr> x;
      x.push_back(ir::makeCast(std::move(args[0]), ft));
      return intrinsic(ir::Intrinsic::Log, ft, std::move(x), e.loc);
    }
    std::vector<ExprPtr> x;
    x.push_back(ir::makeCast(std::move(args[0]), Type::float64()));
    auto lx = intrinsic(ir::Intrinsic::Log, Type::float64(), std::move(x), e.loc);
    std::vector<ExprPtr> b;
    b.push_back(ir::makeCast(std::move(args[1]), Type::float64()));
    auto lb = intrinsic(ir::Intrinsic::Log, Type::float64(), std::move(b), e.loc);
    return binary(ast::BinOpKind::Div, std::move(lx), std::move(lb), e.loc);
  }
  if (name == "degrees" || name == "radians") {
    auto args = positionalArgs(e, 1, 1, "math." + name);
    if (isUnknown(args[0])) return unknown(e.loc);
    if (!args[0]->type.isNumber() || args[0]->type.isComplex()) error(args[0]->loc, "math." + name + "() needs a real number");
    double k = name == "degrees" ? 180.0 / M_PI : M_PI / 180.0;
    Type ft = args[0]->type.isScalar(DType::Float32) ? args[0]->type : Type::float64();
    return binary(ast::BinOpKind::Mult, ir::makeCast(std::move(args[0]), ft), ir::makeConst(ft, e.loc, 0, k), e.loc);
  }
  const MathFn *fn = findFn(kMathFns, name);
  if (!fn) notSupported(e.loc, "math." + name + " is not supported yet");
  int arity = ir::intrinsicArity(fn->id);
  auto args = positionalArgs(e, arity, arity, "math." + name);
  for (auto &a : args) {
    if (isUnknown(a)) return unknown(e.loc);
    a = unwrapOptional(std::move(a)); // an optional number is its value (TypeError when None), as in Numba
    if (!a->type.isNumber() || a->type.isComplex())
      error(a->loc, "math." + name + "() needs a real number, got " + a->type.str());
  }
  if (fn->result == MathFn::IntRounding && (args[0]->type.isInt() || args[0]->type.isBool()))
    return ir::makeCast(std::move(args[0]), Type::int64());
  if (fn->result == MathFn::Predicate && (args[0]->type.isInt() || args[0]->type.isBool()))
    return ir::makeConst(Type::boolean(), e.loc, fn->id == ir::Intrinsic::IsFinite ? 1 : 0);
  // Numba: float32 arguments (all of them) compute in float32; anything else in float64.
  bool allFloat32 = true;
  for (auto &a : args) allFloat32 &= a->type.isScalar(DType::Float32);
  Type ft = allFloat32 ? Type::scalar(DType::Float32) : Type::float64();
  if (fn->id == ir::Intrinsic::Pow && (args[1]->type.isInt() || args[1]->type.isBool()))
    return binary(ast::BinOpKind::Pow, ir::makeCast(std::move(args[0]), Type::float64()), std::move(args[1]), e.loc);
  for (auto &a : args) a = ir::makeCast(std::move(a), ft);
  if (fn->result == MathFn::Predicate) return intrinsic(fn->id, Type::boolean(), std::move(args), e.loc);
  auto r = intrinsic(fn->id, ft, std::move(args), e.loc);
  if (fn->result == MathFn::IntRounding) { // an int as Python's: NaN and inf raise
    std::vector<ExprPtr> rounded;
    rounded.push_back(std::move(r));
    return intrinsic(ir::Intrinsic::PyInt, Type::int64(), std::move(rounded), e.loc);
  }
  return r;
}

std::optional<DType> FunctionTyper::dtypeArgument(const ast::Expr &e) {
  if (auto *n = e.as<ast::Name>()) {
    if (!varIndex_.count(n->id)) {
      const GlobalValue &g = global(n->id);
      if (g.kind == GlobalValue::Kind::Builtin) {
        if (g.s == "float") return DType::Float64;
        if (g.s == "int") return DType::Int64;
        if (g.s == "bool") return DType::Bool;
        if (g.s == "complex") return DType::Complex128;
      }
    }
  }
  if (auto *s = e.as<ast::StrLit>()) {
    if (auto d = types::dtypeFromName(s->value)) return d;
    std::string err;
    if (auto t = types::parseType(s->value, &err); t && t->isScalar()) return t->dtype;
    error(e.loc, "unknown dtype '" + s->value + "'");
  }
  auto v = expr(e);
  if (isUnknown(v)) return std::nullopt;
  if (v->type.kind == Kind::DTypeObj && !v->type.elems.empty())
    notSupported(e.loc, "a structured dtype is supported by np.empty() and np.zeros() (and their _like forms) only");
  if (v->type.kind == Kind::DTypeObj) return v->type.dtype;
  if (v->type.isNone()) return DType::Float64;
  error(e.loc, "expected a dtype (such as np.float32), got " + v->type.str());
}

std::vector<ExprPtr> FunctionTyper::shapeArgument(const ast::Expr &e) {
  std::vector<ExprPtr> dims;
  if (auto *t = e.as<ast::Tuple>()) {
    for (auto &x : t->elts) dims.push_back(toInt64Index(expr(*x), "array dimension"));
    return dims;
  }
  auto v = expr(e);
  if (isUnknown(v)) {
    dims.push_back(std::move(v));
    return dims;
  }
  if (v->type.isInt() && !v->type.isBool()) {
    dims.push_back(toInt64Index(std::move(v), "array dimension"));
    return dims;
  }
  if (!v->type.isTuple()) error(e.loc, "shape must be an integer or a tuple of integers, not " + v->type.str());
  if (v->op == ir::ExprOp::TupleMake) {
    for (auto &x : v->args) dims.push_back(toInt64Index(std::move(x), "array dimension"));
    return dims;
  }
  // A computed tuple (a.shape[:-1] + (n,)) is evaluated once into a hidden variable,
  // bound by the first extent (extents are evaluated in order).
  int var = v->op == ir::ExprOp::LoadVar ? v->var : -1;
  ExprPtr computed;
  if (var < 0) {
    var = tempVar(v->type, e.loc);
    computed = std::move(v);
  }
  for (size_t i = 0; i < vars_[var].type.elems.size(); ++i) {
    auto g = std::make_unique<ir::Expr>(ir::ExprOp::TupleGet, vars_[var].type.elems[i], e.loc);
    g->ival = int64_t(i);
    g->args.push_back(load(var, e.loc));
    ExprPtr dim = toInt64Index(std::move(g), "array dimension");
    if (i == 0 && computed) {
      std::vector<std::pair<int, ExprPtr>> binding;
      binding.emplace_back(var, std::move(computed));
      dim = wrapBindings(std::move(binding), std::move(dim), e.loc);
    }
    dims.push_back(std::move(dim));
  }
  return dims;
}

ExprPtr FunctionTyper::numpyCall(const std::string &name, const ast::Call &e) {
  std::string fname = "np." + name;
  if (name == "empty" || name == "zeros" || name == "ones" || name == "full" || name == "arange" || name == "copy" ||
      name.size() > 5 && name.compare(name.size() - 5, 5, "_like") == 0)
    requireHost(e.loc, fname + "()");
  if (name == "empty" || name == "zeros" || name == "ones" || name == "full") {
    bool full = name == "full";
    checkKeywords(e, {"dtype", "shape", "fill_value"}, fname);
    size_t npos = full ? 2 : 1;
    for (auto &a : e.args)
      if (a->kind == ast::ExprKind::Starred) notSupported(a->loc, "*args in calls is not supported yet");
    const ast::Expr *shapeE = e.args.size() > 0 ? e.args[0].get() : keyword(e, "shape");
    const ast::Expr *fillE = full ? (e.args.size() > 1 ? e.args[1].get() : keyword(e, "fill_value")) : nullptr;
    const ast::Expr *dtypeE = e.args.size() > npos ? e.args[npos].get() : keyword(e, "dtype");
    if (e.args.size() > npos + 1) error(e.loc, fname + "() takes at most " + std::to_string(npos + 1) + " positional arguments");
    if (!shapeE || (full && !fillE)) error(e.loc, fname + "() is missing required arguments");
    if (dtypeE)
      if (auto rec = recordDtype(*dtypeE)) { // np.empty(n, dtype=rec) of a structured dtype
        if (name != "empty" && name != "zeros")
          notSupported(dtypeE->loc, fname + "() of a structured dtype is not supported (np.empty and np.zeros are)");
        auto dims = shapeArgument(*shapeE);
        for (auto &d : dims)
          if (isUnknown(d)) return unknown(e.loc);
        auto a = std::make_unique<ir::Expr>(ir::ExprOp::ArrayAlloc, Type::recordArray(*rec, int(dims.size()), types::Layout::C), e.loc);
        a->sub = int(name == "empty" ? ir::AllocKind::Empty : ir::AllocKind::Zeros);
        a->args = std::move(dims);
        return a;
      }
    auto dims = shapeArgument(*shapeE);
    ExprPtr fill;
    if (fillE) fill = expr(*fillE);
    std::optional<DType> dt = DType::Float64;
    if (dtypeE) dt = dtypeArgument(*dtypeE);
    else if (fill && !isUnknown(fill)) {
      if (!fill->type.isNumber()) error(fillE->loc, "fill value must be a number");
      dt = fill->type.dtype;
    }
    for (auto &d : dims)
      if (isUnknown(d)) return unknown(e.loc);
    if (!dt || (fill && isUnknown(fill))) return unknown(e.loc);
    auto a = std::make_unique<ir::Expr>(ir::ExprOp::ArrayAlloc, Type::array(*dt, int(dims.size()), types::Layout::C), e.loc);
    a->sub = int(name == "empty" ? ir::AllocKind::Empty : name == "zeros" ? ir::AllocKind::Zeros
                 : name == "ones" ? ir::AllocKind::Ones : ir::AllocKind::Full);
    a->args = std::move(dims);
    if (fill) a->args.push_back(convert(std::move(fill), Type::scalar(*dt), fname + " fill value"));
    return a;
  }
  if (name == "empty_like" || name == "zeros_like" || name == "ones_like" || name == "full_like") {
    bool full = name == "full_like";
    if (full) checkKeywords(e, {"dtype", "fill_value"}, fname);
    else checkKeywords(e, {"dtype"}, fname);
    const ast::Expr *fillKw = full ? keyword(e, "fill_value") : nullptr;
    if (fillKw && e.args.size() > 1) error(fillKw->loc, fname + "() got multiple values for argument 'fill_value'");
    auto args = positionalArgs(e, full && !fillKw ? 2 : 1, full && !fillKw ? 3 : 2, fname);
    if (fillKw) args.push_back(expr(*fillKw));
    for (auto &a : args)
      if (isUnknown(a)) return unknown(e.loc);
    if (!args[0]->type.isArray()) notSupported(e.loc, fname + "() of " + args[0]->type.str() + " is not supported");
    if (args[0]->type.isRecordArray()) { // np.empty_like / np.zeros_like of an array of records
      if ((name != "empty_like" && name != "zeros_like") || args.size() > 1 || keyword(e, "dtype"))
        notSupported(e.loc, fname + "() of an array of records is not supported (np.empty_like(a) and np.zeros_like(a) are)");
      auto a = std::make_unique<ir::Expr>(ir::ExprOp::ArrayAlloc,
                                          Type::recordArray(args[0]->type.elems[0], args[0]->type.ndim, types::Layout::C), e.loc);
      a->sub = int(name == "empty_like" ? ir::AllocKind::Empty : ir::AllocKind::Zeros);
      a->ival = 1;
      a->args.push_back(std::move(args[0]));
      return a;
    }
    std::optional<DType> dt = args[0]->type.dtype;
    size_t dpos = full ? 2 : 1;
    if (args.size() > dpos) dt = dtypeArgument(*e.args[dpos]);
    else if (auto *k = keyword(e, "dtype")) dt = dtypeArgument(*k);
    if (!dt) return unknown(e.loc);
    auto a = std::make_unique<ir::Expr>(ir::ExprOp::ArrayAlloc,
                                        Type::array(*dt, args[0]->type.ndim, types::Layout::C), e.loc);
    a->sub = int(name == "empty_like" ? ir::AllocKind::Empty : name == "zeros_like" ? ir::AllocKind::Zeros
                 : name == "ones_like" ? ir::AllocKind::Ones : ir::AllocKind::Full);
    a->ival = 1; // args[0] is the prototype array
    a->args.push_back(std::move(args[0]));
    if (full) a->args.push_back(convert(std::move(args[1]), Type::scalar(*dt), fname + " fill value"));
    return a;
  }
  if (name == "arange") {
    checkKeywords(e, {"dtype"}, fname);
    auto args = positionalArgs(e, 1, 3, fname);
    std::optional<DType> dt;
    if (auto *k = keyword(e, "dtype")) {
      dt = dtypeArgument(*k);
      if (!dt) return unknown(e.loc);
    }
    bool anyFloat = false;
    for (auto &a : args) {
      if (isUnknown(a)) return unknown(e.loc);
      if (!a->type.isNumber() || a->type.isComplex()) error(a->loc, "np.arange() arguments must be real numbers");
      anyFloat |= a->type.isFloat();
    }
    DType result = dt ? *dt : anyFloat ? DType::Float64 : DType::Int64;
    Type compute = (anyFloat || types::isFloat(result)) ? Type::float64() : Type::int64();
    ExprPtr start = args.size() >= 2 ? std::move(args[0]) : ir::makeConst(Type::int64(), e.loc, 0);
    ExprPtr stop = args.size() >= 2 ? std::move(args[1]) : std::move(args[0]);
    ExprPtr step = args.size() == 3 ? std::move(args[2]) : ir::makeConst(Type::int64(), e.loc, 1);
    auto a = std::make_unique<ir::Expr>(ir::ExprOp::ArrayArange, Type::array(result, 1, types::Layout::C), e.loc);
    a->args.push_back(ir::makeCast(std::move(start), compute));
    a->args.push_back(ir::makeCast(std::move(stop), compute));
    a->args.push_back(ir::makeCast(std::move(step), compute));
    return a;
  }
  if (name == "copy") {
    checkKeywords(e, {}, fname);
    auto args = positionalArgs(e, 1, 1, fname);
    if (isUnknown(args[0])) return unknown(e.loc);
    if (!args[0]->type.isArray()) notSupported(e.loc, "np.copy() of " + args[0]->type.str() + " is not supported");
    const Type &t = args[0]->type;
    auto c = std::make_unique<ir::Expr>(ir::ExprOp::ArrayCopy, Type::array(t.dtype, t.ndim, types::Layout::C), e.loc);
    c->args.push_back(std::move(args[0]));
    return c;
  }
  if (name == "as_strided") return asStrided(e);
  if (auto r = numpyArrayFunction(name, e)) return r;
  if (auto r = arrayConstruction(name, e)) return r;
  if (auto r = libraryCall("numpy." + name, fname, e)) return r;
  // Ufuncs: elementwise over arrays (fused with their array operands), plain on scalars.
  int arity = ufuncArity(name);
  if (arity < 0) notSupported(e.loc, fname + " is not supported yet");
  if (e.args.size() == size_t(arity) + 1 || keyword(e, "out"))
    notSupported(e.loc, fname + "() with an output array is supported as a statement (" + fname +
                            "(x, out)), not as a value");
  checkKeywords(e, {}, fname);
  auto args = positionalArgs(e, arity, arity, fname);
  Loc loc = e.loc;
  return elementwise(std::move(args), [this, name, loc](std::vector<ExprPtr> v) { return scalarUfunc(name, std::move(v), loc); }, loc);
}

} // namespace mahou::sema
