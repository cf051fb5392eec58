// Typers of the math module's functions (math.def) and of NumPy's array creation
// (numpy.def: empty/zeros/ones/full(_like), arange, copy, dtypes called as functions);
// the dtype and shape arguments of calls.
#include "mahou/literal_dict_type.h"
#include "typer.h"
#include "mahou/datetime_units.h"
#include "sema/arrays.h"
#include "sema/typers.h"

#include <cmath>

namespace mahou::sema {

namespace {

enum class MathResult { Float, IntRounding, Predicate };

// What a math function of one intrinsic gives: int64 for floor/ceil/trunc, bool for the
// predicates, a float otherwise.
MathResult mathResult(ir::Intrinsic id) {
  switch (id) {
  case ir::Intrinsic::Floor:
  case ir::Intrinsic::Ceil:
  case ir::Intrinsic::Trunc: return MathResult::IntRounding;
  case ir::Intrinsic::IsNan:
  case ir::Intrinsic::IsInf:
  case ir::Intrinsic::IsFinite: return MathResult::Predicate;
  default: return MathResult::Float;
  }
}

// The arguments of math.<name>, real numbers (an optional is its value: TypeError when None).
std::vector<ExprPtr> realArguments(Use &u, size_t minArgs, size_t maxArgs) {
  auto args = u.args(minArgs, maxArgs, {}, u.qualified());
  for (auto &a : args) {
    if (Typing::isUnknown(a)) return {};
    a = u.t.unwrapOptional(std::move(a));
    if (!a->type.isNumber() || a->type.isComplex())
      u.t.error(a->loc, u.qualified() + "() needs a real number, got " + a->type.str());
  }
  return args;
}

} // namespace

// math.<name> of one intrinsic (variant): float64, or float32 when every argument is float32.
ExprPtr mathFunction(Use &u) {
  auto id = ir::Intrinsic(u.variant());
  MathResult result = mathResult(id);
  int arity = ir::intrinsicArity(id);
  auto args = realArguments(u, arity, arity);
  if (args.empty()) return u.unknown();
  if (result == MathResult::IntRounding && (args[0]->type.isInt() || args[0]->type.isBool()))
    return ir::makeCast(std::move(args[0]), Type::int64());
  if (result == MathResult::Predicate && (args[0]->type.isInt() || args[0]->type.isBool()))
    return ir::makeConst(Type::boolean(), u.loc, id == ir::Intrinsic::IsFinite ? 1 : 0);
  // Numba: float32 arguments (all of them) compute in float32; anything else in float64.
  bool allFloat32 = true;
  for (auto &a : args) allFloat32 &= a->type.isScalar(DType::Float32);
  Type ft = allFloat32 ? Type::scalar(DType::Float32) : Type::float64();
  if (id == ir::Intrinsic::Pow && (args[1]->type.isInt() || args[1]->type.isBool()))
    return u.t.binary(ast::BinOpKind::Pow, ir::makeCast(std::move(args[0]), Type::float64()), std::move(args[1]), u.loc);
  for (auto &a : args) a = ir::makeCast(std::move(a), ft);
  if (result == MathResult::Predicate) return u.t.intrinsic(id, Type::boolean(), std::move(args), u.loc);
  auto r = u.t.intrinsic(id, ft, std::move(args), u.loc);
  if (result == MathResult::IntRounding) { // an int as Python's: NaN and inf raise
    std::vector<ExprPtr> rounded;
    rounded.push_back(std::move(r));
    return u.t.intrinsic(ir::Intrinsic::PyInt, Type::int64(), std::move(rounded), u.loc);
  }
  return r;
}

// math.log(x[, base])
ExprPtr mathLog(Use &u) {
  Typing &t = u.t;
  Loc loc = u.loc;
  auto args = u.args(1, 2, {}, "math.log");
  for (auto &a : args) {
    if (Typing::isUnknown(a)) return u.unknown();
    if (!a->type.isNumber() || a->type.isComplex()) t.error(a->loc, "math.log() needs a real number");
  }
  if (args.size() == 1) {
    Type ft = args[0]->type.isScalar(DType::Float32) ? args[0]->type : Type::float64();
    std::vector<ExprPtr> x;
    x.push_back(ir::makeCast(std::move(args[0]), ft));
    return t.intrinsic(ir::Intrinsic::Log, ft, std::move(x), loc);
  }
  std::vector<ExprPtr> x;
  x.push_back(ir::makeCast(std::move(args[0]), Type::float64()));
  auto lx = t.intrinsic(ir::Intrinsic::Log, Type::float64(), std::move(x), loc);
  std::vector<ExprPtr> b;
  b.push_back(ir::makeCast(std::move(args[1]), Type::float64()));
  auto lb = t.intrinsic(ir::Intrinsic::Log, Type::float64(), std::move(b), loc);
  return t.binary(ast::BinOpKind::Div, std::move(lx), std::move(lb), loc);
}

// math.degrees(x) (variant 0) / math.radians(x) (1)
ExprPtr mathDegrees(Use &u) {
  std::string fname = u.qualified();
  auto args = u.args(1, 1, {}, fname);
  if (Typing::isUnknown(args[0])) return u.unknown();
  if (!args[0]->type.isNumber() || args[0]->type.isComplex()) u.t.error(args[0]->loc, fname + "() needs a real number");
  double k = u.variant() == 0 ? 180.0 / M_PI : M_PI / 180.0;
  Type ft = args[0]->type.isScalar(DType::Float32) ? args[0]->type : Type::float64();
  return u.t.binary(ast::BinOpKind::Mult, ir::makeCast(std::move(args[0]), ft), ir::makeConst(ft, u.loc, 0, k), u.loc);
}

std::optional<DType> FunctionTyper::dtypeArgument(const ast::Expr &e) {
  if (auto *n = e.as<ast::Name>()) {
    if (!varIndex_.count(n->id)) {
      const GlobalValue &g = global(n->id);
      // The builtin number classes (the registry's int, float, bool, complex)
      if (const Entry *cls = g.kind == GlobalValue::Kind::Builtin ? findEntry(Receiver::Builtins, Member::Function, g.s) : nullptr;
          cls && cls->typer == &builtinNumber)
        switch (NumberConversion(cls->variant)) {
        case NumberConversion::Int: return DType::Int64;
        case NumberConversion::Float: return DType::Float64;
        case NumberConversion::Complex: return DType::Complex128;
        case NumberConversion::Bool: return DType::Bool;
        }
    }
  }
  if (auto *s = e.as<ast::StrLit>()) {
    if (auto d = types::dtypeFromName(s->value)) return d;
    if (auto d = types::datetimeFromName(s->value)) return d; // "M8[D]", "timedelta64[ns]"
    std::string err;
    if (auto t = types::parseType(s->value, &err); t && t->isScalar()) return t->dtype;
    error(e.loc, "unknown dtype '" + s->value + "'");
  }
  auto v = expr(e);
  if (isUnknown(v)) return std::nullopt;
  if (v->type.kind == Kind::DTypeObj && !v->type.elems.empty())
    notSupported(e.loc, "a structured dtype or an S/U string dtype is supported by np.empty() and np.zeros() (and their _like forms) only");
  if (v->type.kind == Kind::DTypeObj || v->type.isNone()) {
    DType d = v->type.isNone() ? DType::Float64 : v->type.dtype;
    if (!isInert(*v)) deferredEffects_.push_back(std::move(v));
    return d;
  }
  error(e.loc, "expected a dtype (such as np.float32), got " + v->type.str());
}

ir::Block FunctionTyper::takeDeferredEffectStmts(size_t mark, Loc loc) {
  ir::Block stmts;
  for (size_t i = mark; i < deferredEffects_.size(); ++i) stmts.push_back(ir::makeEval(std::move(deferredEffects_[i]), loc));
  if (mark < deferredEffects_.size()) deferredEffects_.resize(mark);
  return stmts;
}

ExprPtr FunctionTyper::takeDeferredEffects(size_t mark, ExprPtr value, Loc loc) {
  ir::Block stmts = takeDeferredEffectStmts(mark, loc);
  if (stmts.empty() || !value || isUnknown(value)) return value; // typed again in the next pass
  return seqExpr(std::make_shared<ir::Block>(std::move(stmts)), std::move(value), loc);
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
  if (!v->type.isTuple() || types::isLiteralDict(v->type))
    error(e.loc, "shape must be an integer or a tuple of integers, not " + v->type.str());
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

namespace {

// What np.zeros, np.zeros_like and their relatives start with: the allocation asked for
// (the variant), with a fill value or not, and the name messages give; host code only.
struct AllocCall {
  std::string fname;
  ir::AllocKind kind;
  bool full;
};

AllocCall allocCall(Use &u) {
  auto kind = ir::AllocKind(u.variant());
  AllocCall c{u.qualified(), kind, kind == ir::AllocKind::Full};
  u.t.requireHost(u.loc, c.fname + "()");
  return c;
}

} // namespace

ExprPtr numpyAlloc(Use &u) {
  Typing &t = u.t;
  const ast::Call &e = *u.call;
  auto [fname, kind, full] = allocCall(u);
  t.checkKeywords(e, {"dtype", "shape", "fill_value"}, fname);
  size_t npos = full ? 2 : 1;
  for (auto &a : e.args)
    if (a->kind == ast::ExprKind::Starred) t.notSupported(a->loc, "*args in calls is not supported yet");
  const ast::Expr *shapeE = e.args.size() > 0 ? e.args[0].get() : u.keyword("shape");
  const ast::Expr *fillE = full ? (e.args.size() > 1 ? e.args[1].get() : u.keyword("fill_value")) : nullptr;
  const ast::Expr *dtypeE = e.args.size() > npos ? e.args[npos].get() : u.keyword("dtype");
  if (e.args.size() > npos + 1) u.error(fname + "() takes at most " + std::to_string(npos + 1) + " positional arguments");
  if (!shapeE || (full && !fillE)) u.error(fname + "() is missing required arguments");
  if (dtypeE)
    if (auto rec = recordDtype(t, *dtypeE)) { // np.empty(n, dtype=rec) of a structured dtype
      if (kind != ir::AllocKind::Empty && kind != ir::AllocKind::Zeros)
        t.notSupported(dtypeE->loc, fname + "() of a structured dtype or an S/U string dtype is not supported (np.empty and np.zeros are)");
      auto dims = t.shapeArgument(*shapeE);
      if (anyUnknown(dims)) return u.unknown();
      auto a = std::make_unique<ir::Expr>(ir::ExprOp::ArrayAlloc, Type::recordArray(*rec, int(dims.size()), types::Layout::C), e.loc);
      a->sub = int(kind);
      a->args = std::move(dims);
      return a;
    }
  auto dims = t.shapeArgument(*shapeE);
  ExprPtr fill;
  if (fillE) fill = t.expr(*fillE);
  std::optional<DType> dt = DType::Float64;
  if (dtypeE) dt = t.dtypeArgument(*dtypeE);
  else if (fill && !Typing::isUnknown(fill)) {
    if (!fill->type.isNumber()) t.error(fillE->loc, "fill value must be a number");
    dt = fill->type.dtype;
  }
  if (anyUnknown(dims)) return u.unknown();
  if (!dt || (fill && Typing::isUnknown(fill))) return u.unknown();
  auto a = std::make_unique<ir::Expr>(ir::ExprOp::ArrayAlloc, Type::array(*dt, int(dims.size()), types::Layout::C), e.loc);
  a->sub = int(kind);
  a->args = std::move(dims);
  if (fill) a->args.push_back(t.convert(std::move(fill), Type::scalar(*dt), fname + " fill value"));
  return a;
}

ExprPtr numpyAllocLike(Use &u) {
  Typing &t = u.t;
  const ast::Call &e = *u.call;
  auto [fname, kind, full] = allocCall(u);
  if (full) t.checkKeywords(e, {"dtype", "fill_value"}, fname);
  else t.checkKeywords(e, {"dtype"}, fname);
  const ast::Expr *fillKw = full ? u.keyword("fill_value") : nullptr;
  if (fillKw && e.args.size() > 1) t.error(fillKw->loc, fname + "() got multiple values for argument 'fill_value'");
  auto args = t.positionalArgs(e, full && !fillKw ? 2 : 1, full && !fillKw ? 3 : 2, fname);
  if (fillKw) args.push_back(t.expr(*fillKw));
  if (anyUnknown(args)) return u.unknown();
  if (!args[0]->type.isArray()) u.notSupported(fname + "() of " + args[0]->type.str() + " is not supported");
  if (args[0]->type.isRecordArray()) { // np.empty_like / np.zeros_like of an array of records
    if ((kind != ir::AllocKind::Empty && kind != ir::AllocKind::Zeros) || args.size() > 1 || u.keyword("dtype"))
      u.notSupported(fname + "() of an array of records is not supported (np.empty_like(a) and np.zeros_like(a) are)");
    auto a = std::make_unique<ir::Expr>(ir::ExprOp::ArrayAlloc,
                                        Type::recordArray(args[0]->type.elems[0], args[0]->type.ndim, types::Layout::C), e.loc);
    a->sub = int(kind);
    a->ival = 1;
    a->args.push_back(std::move(args[0]));
    return a;
  }
  std::optional<DType> dt = args[0]->type.dtype;
  size_t dpos = full ? 2 : 1;
  if (args.size() > dpos) dt = t.dtypeArgument(*e.args[dpos]);
  else if (auto *k = u.keyword("dtype")) dt = t.dtypeArgument(*k);
  if (!dt) return u.unknown();
  auto a = std::make_unique<ir::Expr>(ir::ExprOp::ArrayAlloc, Type::array(*dt, args[0]->type.ndim, types::Layout::C), e.loc);
  a->sub = int(kind);
  a->ival = 1; // args[0] is the prototype array
  a->args.push_back(std::move(args[0]));
  if (full) a->args.push_back(t.convert(std::move(args[1]), Type::scalar(*dt), fname + " fill value"));
  return a;
}

ExprPtr numpyArange(Use &u) {
  Typing &t = u.t;
  const ast::Call &e = *u.call;
  std::string fname = u.qualified();
  t.requireHost(e.loc, fname + "()");
  auto args = u.args(0, 3, {"start", "stop", "step", "dtype"}, fname);
  std::optional<DType> dt;
  if (auto *k = u.keyword("dtype")) {
    dt = t.dtypeArgument(*k);
    if (!dt) return u.unknown();
  }
  // NumPy's roles: arange(stop), arange(start, stop[, step]); start=, stop=, step= by
  // keyword fill the others (one positional with stop= given is the start).
  ExprPtr start, stop, step;
  bool stopByKeyword = u.keyword("stop") != nullptr;
  if (args.size() == 1) (stopByKeyword ? start : stop) = std::move(args[0]);
  if (args.size() >= 2) start = std::move(args[0]), stop = std::move(args[1]);
  if (args.size() == 3) step = std::move(args[2]);
  static const char *const kRoles[] = {"start", "stop", "step"};
  ExprPtr *slots[] = {&start, &stop, &step};
  for (const auto &k : e.keywords) // in the order written (evaluation order)
    for (size_t r = 0; r < 3; ++r) {
      if (k.name != kRoles[r]) continue;
      if (*slots[r]) t.error(k.loc, fname + "() got multiple values for argument '" + k.name + "'");
      *slots[r] = t.expr(*k.value);
    }
  if (!stop) t.error(e.loc, fname + "() requires stop");
  bool anyFloat = false;
  for (ExprPtr *a : {&start, &stop, &step}) {
    if (!*a) continue;
    if (Typing::isUnknown(*a)) return u.unknown();
    if (!(*a)->type.isNumber() || (*a)->type.isComplex()) t.error((*a)->loc, "np.arange() arguments must be real numbers");
    anyFloat |= (*a)->type.isFloat();
  }
  DType result = dt ? *dt : anyFloat ? DType::Float64 : DType::Int64;
  Type compute = (anyFloat || types::isFloat(result)) ? Type::float64() : Type::int64();
  if (!start) start = ir::makeConst(Type::int64(), e.loc, 0);
  if (!step) step = ir::makeConst(Type::int64(), e.loc, 1);
  auto a = std::make_unique<ir::Expr>(ir::ExprOp::ArrayArange, Type::array(result, 1, types::Layout::C), e.loc);
  a->args.push_back(ir::makeCast(std::move(start), compute));
  a->args.push_back(ir::makeCast(std::move(stop), compute));
  a->args.push_back(ir::makeCast(std::move(step), compute));
  return a;
}

ExprPtr numpyCopy(Use &u) {
  std::string fname = u.qualified();
  u.t.requireHost(u.loc, fname + "()");
  auto args = u.args(1, 1, {}, fname);
  if (Typing::isUnknown(args[0])) return u.unknown();
  if (!args[0]->type.isArray()) u.notSupported("np.copy() of " + args[0]->type.str() + " is not supported");
  const Type &at = args[0]->type;
  auto c = std::make_unique<ir::Expr>(ir::ExprOp::ArrayCopy, Type::array(at.dtype, at.ndim, types::Layout::C), u.loc);
  c->args.push_back(std::move(args[0]));
  return c;
}

// np.dtype(x) of a dtype given as a class (np.float32, float), a string ('int64', 'f4') or a
// dtype value (a.dtype): that dtype as a compile-time value (dtype.def's comparisons,
// itemsize, kind, and np.empty(n, d) take it).
ExprPtr numpyDtype(Use &u) {
  u.t.checkKeywords(*u.call, {}, "np.dtype");
  if (u.call->args.size() != 1) u.error("np.dtype() takes one argument (a dtype) in compiled code");
  auto d = u.t.dtypeArgument(*u.call->args[0]);
  if (!d) return u.unknown();
  return ir::makeConst(Type::dtypeObj(*d), u.loc, types::kDTypeValue);
}

// np.float32(x), ...: a number converted to the dtype (variant: types::DType).
ExprPtr dtypeConstructor(Use &u) { return convertToDType(u.t, DType(u.variant()), u.name, *u.call); }

ExprPtr convertToDType(Typing &t, DType dtype, const std::string &fname, const ast::Call &e) {
  t.checkKeywords(e, {}, fname);
  auto args = t.positionalArgs(e, 1, 1, fname);
  if (Typing::isUnknown(args[0])) return t.unknown(e.loc);
  args[0] = intEnumValue(std::move(args[0])); // np.int32(an IntEnum member): its int
  // The sequence form: np.float32([1, 2]) or of a tuple is np.array(x, np.float32) (Numba's
  // form); of an array (NumPy's, beyond Numba's) a converted copy as a.astype(np.float32).
  // A 0-d array would give NumPy's scalar, which is not done here.
  const Type &xt = args[0]->type;
  if (xt.isList() || (xt.isTuple() && !xt.elems.empty()) || (xt.isArray() && !xt.isRecordArray() && xt.ndim > 0)) {
    t.requireHost(e.loc, fname + "() of a sequence");
    if (xt.isList()) return arrayFromList(t, std::move(args[0]), dtype, fname, e.loc);
    ExprPtr a = xt.isTuple() ? tupleAsArray(t, std::move(args[0]), e.loc) : std::move(args[0]);
    if (Typing::isUnknown(a)) return a;
    return copyOf(std::move(a), dtype, e.loc);
  }
  if (!args[0]->type.isNumber()) t.notSupported(e.loc, fname + "() of " + args[0]->type.str() + " is not supported");
  Type to = Type::scalar(dtype);
  if (to.isBool()) return t.truth(std::move(args[0]));
  return t.convert(std::move(args[0]), to, fname + "()");
}

} // namespace mahou::sema
