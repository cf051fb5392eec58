// Typers of NumPy functions that take or make whole arrays (numpy.def): reductions
// (sum, mean, argmax, ..., with axis), cumsum, dot/@, where, clip, linspace,
// eye/identity, transpose, reshape/ravel, shape/size/ndim; the axis argument; a @ b.
#include "typer.h"
#include "sema/typers.h"

#include <algorithm>

namespace mahou::sema {

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
  e->args.push_back(std::move(a));
  e->args.push_back(std::move(b));
  // Float and complex products go to BLAS (codegen/blas.cpp) as in NumPy and Numba, so that
  // they round as theirs: the routines' addresses follow the operands as int64 constants,
  // ?dot (?dotu for complex) then ?gemv then ?gemm, as many as the form uses (a matrix
  // with one row or column is multiplied as a vector, as NumPy does).
  DType da = e->args[0]->type.dtype, db = e->args[1]->type.dtype;
  bool blasType = types::isFloat(d) || types::isComplex(d);
  if (!gpu_ && blasType && da == d && db == d && d != DType::Float16) {
    const char *prefix = d == DType::Float32 ? "s" : d == DType::Float64 ? "d" : d == DType::Complex64 ? "c" : "z";
    auto address = [&](std::string routine) -> int64_t {
      if (routine == "dot" && types::isComplex(d)) routine = "dotu";
      const GlobalValue &g = global(std::string("@blas.") + prefix + routine);
      return g.kind == GlobalValue::Kind::ExternalFunction ? int64_t(g.handle) : 0;
    };
    std::vector<int64_t> routines = {address("dot")};
    if (na + nb >= 3) routines.push_back(address("gemv"));
    if (na + nb == 4) routines.push_back(address("gemm"));
    if (std::find(routines.begin(), routines.end(), 0) == routines.end()) // without SciPy: the loops
      for (int64_t r : routines) e->args.push_back(ir::makeConst(Type::scalar(DType::Int64), loc, r));
  }
  return e;
}

// np.sum(a, axis) and the other reductions (variant: ir::ReduceKind).
ExprPtr numpyReduce(Use &u) {
  Typing &t = u.t;
  const ast::Call &e = *u.call;
  std::string fname = u.qualified();
  if (e.args.empty() || e.args.size() > 2) u.error(fname + "() takes an array and an optional axis");
  auto arr = t.expr(*e.args[0]);
  if (Typing::isUnknown(arr)) return u.unknown();
  if (!arr->type.isArray()) {
    if (arr->type.isNumber()) u.notSupported(fname + "() of a scalar is not supported");
    u.error(fname + "() needs an array, not " + arr->type.str());
  }
  return reduceWithArguments(t, ir::ReduceKind(u.variant()), std::move(arr), e, 1, fname, u.loc);
}

ExprPtr numpyDot(Use &u) { // np.dot, np.matmul
  auto args = u.args(2, 2, {}, u.qualified());
  return u.t.matmul(std::move(args[0]), std::move(args[1]), u.loc);
}

ExprPtr numpyWhere(Use &u) {
  Typing &t = u.t;
  Loc loc = u.loc;
  if (u.call->args.size() == 1 && u.call->keywords.empty()) // np.where(c) is np.nonzero(c)
    if (auto r = t.libraryCall("numpy.nonzero", u.qualified(), *u.call)) return r;
  auto args = u.args(1, 3, {}, u.qualified());
  if (args.size() != 3) u.error("np.where(): either both or neither of x and y should be given");
  return t.elementwise(std::move(args), [&t, loc](std::vector<ExprPtr> v) -> ExprPtr {
    auto common = types::unify(v[1]->type, v[2]->type);
    if (!common || (!common->isNumber() && !common->isDatetimeLike())) t.error(loc, "np.where() branches have incompatible types");
    auto s = std::make_unique<ir::Expr>(ir::ExprOp::Select, *common, loc);
    s->args.push_back(t.truth(std::move(v[0])));
    s->args.push_back(ir::makeCast(std::move(v[1]), *common));
    s->args.push_back(ir::makeCast(std::move(v[2]), *common));
    return s;
  }, loc);
}

ExprPtr numpyClip(Use &u) { // np.minimum(np.maximum(a, lo), hi), elementwise
  Typing &t = u.t;
  Loc loc = u.loc;
  auto args = u.args(3, 4, {"out"}, u.qualified());
  ExprPtr out = args.size() == 4 ? std::move(args[3]) : nullptr;
  if (auto *k = u.keyword("out")) {
    if (out) u.error(u.qualified() + "() got multiple values for argument 'out'");
    out = t.expr(*k);
  }
  if (out) { // the library's internal.clip_out stores into out and returns it
    if (Typing::isUnknown(out)) return u.unknown();
    if (!out->type.isArray()) u.error(u.qualified() + "() out= must be an array, not " + out->type.str());
    t.requireHost(loc, u.qualified() + "(out=)");
    const GlobalValue &g = t.global("@internal.clip_out");
    if (g.kind != GlobalValue::Kind::Function) internalError("the library helper clip_out is missing");
    CallArgs call;
    for (auto &a : args) call.positional.push_back(std::move(a));
    call.positional.resize(3);
    call.positional.push_back(std::move(out));
    return t.callCompiled(g.handle, u.qualified(), std::move(call), loc);
  }
  args.resize(3);
  return t.elementwise(std::move(args), [&t, loc](std::vector<ExprPtr> v) -> ExprPtr {
    std::vector<ExprPtr> lo;
    lo.push_back(std::move(v[0]));
    lo.push_back(std::move(v[1]));
    auto low = t.scalarUfunc(UfuncId::maximum, std::move(lo), loc);
    std::vector<ExprPtr> hi;
    hi.push_back(std::move(low));
    hi.push_back(std::move(v[2]));
    return t.scalarUfunc(UfuncId::minimum, std::move(hi), loc);
  }, loc);
}

ExprPtr numpyLinspace(Use &u) {
  Typing &t = u.t;
  Loc loc = u.loc;
  auto args = u.args(2, 3, {"num"}, u.qualified());
  ExprPtr num;
  if (args.size() == 3) num = std::move(args[2]);
  else if (auto *k = u.keyword("num")) num = t.expr(*k);
  else num = ir::makeConst(Type::int64(), loc, 50);
  for (auto *x : {&args[0], &args[1], &num})
    if (Typing::isUnknown(*x)) return u.unknown();
  auto l = std::make_unique<ir::Expr>(ir::ExprOp::ArrayLinspace, Type::array(DType::Float64, 1, types::Layout::C), loc);
  l->args.push_back(t.convert(std::move(args[0]), Type::float64(), "np.linspace start"));
  l->args.push_back(t.convert(std::move(args[1]), Type::float64(), "np.linspace stop"));
  l->args.push_back(t.toInt64Index(std::move(num), "np.linspace num"));
  return l;
}

ExprPtr numpyEye(Use &u) { // np.eye(N, M, k) (variant 0), np.identity(N) (1)
  Typing &t = u.t;
  Loc loc = u.loc;
  std::string fname = u.qualified();
  bool eye = u.variant() == 0;
  auto args = eye ? u.args(1, 3, {"M", "k", "dtype"}, fname) : u.args(1, 1, {"dtype"}, fname);
  if (anyUnknown(args)) return u.unknown();
  std::optional<DType> dt = DType::Float64;
  if (auto *k = u.keyword("dtype")) dt = t.dtypeArgument(*k);
  if (!dt) return u.unknown();
  ExprPtr n = t.toInt64Index(std::move(args[0]), fname + " N");
  ExprPtr m, k;
  if (args.size() > 1 && !args[1]->type.isNone()) m = t.toInt64Index(std::move(args[1]), "np.eye M");
  else if (auto *mk = u.keyword("M")) m = t.toInt64Index(t.expr(*mk), "np.eye M");
  if (args.size() > 2) k = t.toInt64Index(std::move(args[2]), "np.eye k");
  else if (auto *kk = u.keyword("k")) k = t.toInt64Index(t.expr(*kk), "np.eye k");
  // args: N, k [, M] (without M the matrix is square)
  auto r = std::make_unique<ir::Expr>(ir::ExprOp::ArrayEye, Type::array(*dt, 2, types::Layout::C), loc);
  r->args.push_back(std::move(n));
  r->args.push_back(k ? std::move(k) : ir::makeConst(Type::int64(), loc, 0));
  if (m) r->args.push_back(std::move(m));
  return r;
}

namespace {

// The array argument of np.reshape / np.ravel (null: not typed yet).
ExprPtr arrayOperand(Use &u) {
  std::string fname = u.qualified();
  u.t.checkKeywords(*u.call, {}, fname);
  if (u.call->args.empty()) u.error(fname + "() needs an array");
  auto arr = u.t.expr(*u.call->args[0]);
  if (Typing::isUnknown(arr)) return nullptr;
  if (!arr->type.isArray()) u.error(fname + "() needs an array");
  return arr;
}

} // namespace

ExprPtr numpyTranspose(Use &u) {
  u.t.checkKeywords(*u.call, {"axes"}, "np.transpose");
  if (u.call->args.empty() || u.call->args.size() > 2) u.error("np.transpose() takes an array and optional axes");
  if (u.call->args.size() == 2 || u.keyword("axes")) { // with axes: the library (shapes.py)
    if (auto r = u.t.libraryCall("numpy.transpose", "np.transpose", *u.call)) return r;
    u.notSupported("np.transpose() with axes is not supported here");
  }
  auto arr = u.t.expr(*u.call->args[0]);
  if (Typing::isUnknown(arr)) return u.unknown();
  if (!arr->type.isArray() && !arr->type.isNumber()) { // a list or tuple: the library's np.asarray first
    std::vector<ExprPtr> args;
    args.push_back(std::move(arr));
    if (auto r = u.t.libraryCallTyped("numpy.transpose", "np.transpose", std::move(args), u.loc)) return r;
    u.error("np.transpose() needs an array");
  }
  if (!arr->type.isArray()) {
    if (arr->type.isNumber()) u.notSupported("np.transpose() of a scalar is not supported");
    u.error("np.transpose() needs an array, not " + arr->type.str());
  }
  return transposeArray(std::move(arr), u.loc);
}

ExprPtr numpyReshape(Use &u) {
  auto arr = arrayOperand(u);
  if (!arr) return u.unknown();
  if (u.call->args.size() != 2) u.error("np.reshape(a, shape) takes two arguments");
  auto dims = u.t.shapeArgument(*u.call->args[1]);
  if (anyUnknown(dims)) return u.unknown();
  return reshapeArray(std::move(arr), std::move(dims), u.loc);
}

ExprPtr numpyRavel(Use &u) {
  auto arr = arrayOperand(u);
  if (!arr) return u.unknown();
  if (u.call->args.size() != 1) u.error("np.ravel() takes one argument");
  return ravelArray(u.t, std::move(arr), false, u.loc, "a.ravel");
}

// np.shape(a), np.size(a), np.ndim(a) (variant: ShapeQuery): a.shape, a.size, a.ndim of
// an array; of a number (a 0-d value) (), 1 and 0. The argument is evaluated once, first.
ExprPtr numpyShapeQuery(Use &u) {
  // np.size(a, axis) and np.shape/size/ndim of a sequence: the library's (shapes.py).
  if (u.call->args.size() != 1 || !u.call->keywords.empty())
    if (auto r = u.t.libraryCall("numpy." + u.name, u.qualified(), *u.call)) return r;
  auto args = u.args(1, 1);
  ExprPtr a = std::move(args[0]);
  if (Typing::isUnknown(a)) return u.unknown();
  if (!a->type.isArray() && !a->type.isNumber()) {
    Type at = a->type;
    std::vector<ExprPtr> seq;
    seq.push_back(std::move(a));
    if (auto r = u.t.libraryCallTyped("numpy." + u.name, u.qualified(), std::move(seq), u.loc)) return r;
    u.notSupported(u.qualified() + "() of " + at.str() + " is not supported (it needs an array or a number)");
  }
  auto stmts = std::make_shared<ir::Block>();
  if (!u.t.isPureValue(*a) && a->op != ir::ExprOp::ArrayConst) {
    int held = u.t.holdInTemp(std::move(a), u.loc, *stmts);
    a = u.t.load(held, u.loc);
  }
  const Type at = a->type;
  ExprPtr result;
  switch (ShapeQuery(u.variant())) {
  case ShapeQuery::Shape:
    if (at.isArray()) result = arrayShapeTuple(u.t, std::move(a), /*strides=*/false, u.loc);
    else result = std::make_unique<ir::Expr>(ir::ExprOp::TupleMake, Type::tuple({}), u.loc);
    break;
  case ShapeQuery::Size:
    if (at.isArray()) {
      result = std::make_unique<ir::Expr>(ir::ExprOp::ArraySize, Type::int64(), u.loc);
      result->args.push_back(std::move(a));
    } else {
      result = ir::makeConst(Type::int64(), u.loc, 1);
    }
    break;
  case ShapeQuery::Ndim: result = ir::makeConst(Type::int64(), u.loc, at.isArray() ? at.ndim : 0); break;
  }
  if (stmts->empty()) return result;
  return u.t.seqExpr(std::move(stmts), std::move(result), u.loc);
}

} // namespace mahou::sema
