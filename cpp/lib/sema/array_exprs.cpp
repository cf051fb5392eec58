// Typing of whole-array computation: elementwise expressions with broadcasting
// fused into one ArrayMap, NumPy 2's rule for Python scalars next to arrays,
// stores into views, reductions and the array-producing NumPy functions.
#include "typer.h"
#include "mahou/datetime_units.h"

#include <functional>

namespace mahou::sema {

namespace {


// Python scalars (int, float, complex, bool) are "weak" next to arrays (NEP 50):
// they take the array's dtype unless they are of a higher kind.
DType weakScalarType(DType scalar, DType arrays) {
  if (types::kindRank(scalar) <= types::kindRank(arrays)) return arrays;
  if (types::kindRank(scalar) == 1) return DType::Int64;
  if (types::kindRank(scalar) == 2) return DType::Float64;
  return types::kindRank(arrays) == 2 ? types::complexOf(arrays) : DType::Complex128;
}

bool isPythonScalarType(DType d) {
  return d == DType::Bool || d == DType::Int64 || d == DType::Float64 || d == DType::Complex128;
}

void shiftInputs(ir::Expr &e, int64_t by) {
  if (e.op == ir::ExprOp::MapInput) e.ival += by;
  for (auto &a : e.args) shiftInputs(*a, by);
}

ExprPtr mapInput(int64_t index, const Type &t, Loc loc) {
  auto in = std::make_unique<ir::Expr>(ir::ExprOp::MapInput, t, loc);
  in->ival = index;
  return in;
}

} // namespace

bool FunctionTyper::anyArray(const std::vector<ExprPtr> &operands) {
  for (auto &o : operands)
    if (o->type.isArray()) return true;
  return false;
}

ExprPtr FunctionTyper::elementwise(std::vector<ExprPtr> operands, const ElementBody &body, Loc loc) {
  for (auto &o : operands)
    if (isUnknown(o)) return unknown(loc);
  if (!anyArray(operands)) return body(std::move(operands));
  int ndim = 0;
  bool haveArrayDtype = false;
  DType arrays = DType::Bool;
  for (auto &o : operands) {
    if (o->type.isArray()) {
      ndim = std::max(ndim, o->type.ndim);
      if (types::isDatetimeLike(o->type.dtype)) continue; // no weak scalars against datetimes
      arrays = haveArrayDtype ? types::promote(arrays, o->type.dtype) : o->type.dtype;
      haveArrayDtype = true;
    } else if (!o->type.isNumber() && !o->type.isDatetimeLike()) {
      error(o->loc, "cannot combine " + o->type.str() + " with an array elementwise");
    }
  }
  std::vector<ExprPtr> inputs, elements;
  for (auto &o : operands) {
    if (o->op == ir::ExprOp::ArrayMap) { // fuse: splice the inner map's inputs and body
      int64_t n = o->ival;
      ExprPtr inner = std::move(o->args.back());
      shiftInputs(*inner, int64_t(inputs.size()));
      for (int64_t i = 0; i < n; ++i) inputs.push_back(std::move(o->args[i]));
      elements.push_back(std::move(inner));
      continue;
    }
    if (o->type.isArray()) {
      Type elem = Type::scalar(o->type.dtype);
      elements.push_back(mapInput(int64_t(inputs.size()), elem, o->loc));
      inputs.push_back(std::move(o));
      continue;
    }
    Type st = o->type;
    if (isPythonScalarType(st.dtype) && haveArrayDtype) st = Type::scalar(weakScalarType(st.dtype, arrays));
    Loc l = o->loc;
    inputs.push_back(ir::makeCast(std::move(o), st));
    elements.push_back(mapInput(int64_t(inputs.size()) - 1, st, l));
  }
  ExprPtr b;
  {
    struct DepthGuard {
      int &depth;
      explicit DepthGuard(int &d) : depth(d) { ++depth; }
      ~DepthGuard() { --depth; }
    } guard(elementwiseDepth_);
    b = body(std::move(elements));
  }
  if (isUnknown(b)) return b;
  if (!b->type.isNumber() && !b->type.isDatetimeLike()) error(loc, "elementwise result must be a number, not " + b->type.str());
  auto map = std::make_unique<ir::Expr>(ir::ExprOp::ArrayMap, Type::array(b->type.dtype, ndim, types::Layout::C), loc);
  map->ival = int64_t(inputs.size());
  map->args = std::move(inputs);
  map->args.push_back(std::move(b));
  return map;
}

ExprPtr FunctionTyper::broadcastTo(ExprPtr value, int ndim, Loc loc) {
  if (value->op == ir::ExprOp::ArrayMap && value->type.ndim <= ndim) {
    value->type.ndim = ndim;
    return value;
  }
  Type elem = value->type.isArray() ? Type::scalar(value->type.dtype) : value->type;
  if (!elem.isNumber() && !elem.isDatetimeLike()) error(loc, "cannot store " + value->type.str() + " into an array");
  auto map = std::make_unique<ir::Expr>(ir::ExprOp::ArrayMap, Type::array(elem.dtype, ndim, types::Layout::C), loc);
  map->ival = 1;
  map->args.push_back(std::move(value));
  map->args.push_back(mapInput(0, elem, loc));
  return map;
}

ir::StmtPtr FunctionTyper::storeView(ExprPtr dest, ExprPtr value, Loc loc) {
  if (dest->type.readonly) error(loc, "cannot assign to a read-only array");
  if (value->type.isArray() && value->type.ndim > dest->type.ndim)
    error(loc, "could not broadcast a " + std::to_string(value->type.ndim) + "-d array into a " +
                   std::to_string(dest->type.ndim) + "-d array");
  if (value->type.isComplex() && !types::isComplex(dest->type.dtype))
    error(loc, "cannot store complex values into an array of " + std::string(types::dtypeName(dest->type.dtype)));
  DType vd = value->type.dtype, dd = dest->type.dtype; // datetimes store only into a unit they reach exactly
  if ((types::isDatetimeLike(vd) || types::isDatetimeLike(dd)) && vd != dd && !types::convertsExactly(vd, dd))
    error(loc, "cannot store " + value->type.str() + " into an array of " + types::dtypeName(dd));
  auto st = std::make_unique<ir::Stmt>(ir::StmtOp::StoreView, loc);
  int nd = dest->type.ndim;
  st->exprs.push_back(std::move(dest));
  st->exprs.push_back(broadcastTo(std::move(value), nd, loc));
  return st;
}

ExprPtr FunctionTyper::reduction(ir::ReduceKind kind, ExprPtr arr, std::optional<int64_t> axis, Loc loc) {
  if (isUnknown(arr)) return unknown(loc);
  if (!arr->type.isArray()) error(loc, std::string(ir::reduceKindName(kind)) + "() needs an array");
  const Type at = arr->type;
  DType d = at.dtype;
  DType result = d;
  using R = ir::ReduceKind;
  if (types::isDatetimeLike(d) && kind != R::Min && kind != R::Max)
    notSupported(loc, std::string(ir::reduceKindName(kind)) + "() of " + at.str() + " is not supported");
  switch (kind) {
  case R::Sum:
  case R::Prod:
  case R::CumSum:
  case R::CumProd:
    // NumPy accumulates small integers and bools in the platform integer.
    if (d == DType::Bool || (types::isInteger(d) && types::dtypeBytes(d) < 8))
      result = types::isSigned(d) || d == DType::Bool ? DType::Int64 : DType::UInt64;
    break;
  case R::Mean:
  case R::Var:
  case R::Std:
    if (!types::isFloat(d) && !types::isComplex(d)) result = DType::Float64;
    // var/std of complex numbers are real: the mean of |x - mean|^2
    if ((kind == R::Var || kind == R::Std) && types::isComplex(d)) result = types::realOf(d);
    break;
  case R::ArgMin:
  case R::ArgMax: result = DType::Int64; break;
  case R::Any:
  case R::All: result = DType::Bool; break;
  case R::Min:
  case R::Max: break; // complex numbers: lexicographic, NaN propagates (codegen)
  }
  bool scan = kind == R::CumSum || kind == R::CumProd;
  Type rt = Type::scalar(result);
  if (scan) rt = Type::array(result, 1, types::Layout::C);
  int64_t ax = -1;
  if (axis) {
    ax = *axis < 0 ? *axis + at.ndim : *axis;
    if (ax < 0 || ax >= at.ndim) error(loc, "axis " + std::to_string(*axis) + " is out of bounds for an array of dimension " + std::to_string(at.ndim));
    if (scan) notSupported(loc, "cumsum/cumprod with an axis are not supported yet");
    if (at.ndim == 1) ax = -1; // the whole array: a scalar, as NumPy gives
    else rt = Type::array(result, at.ndim - 1, types::Layout::C);
  }
  auto r = std::make_unique<ir::Expr>(ir::ExprOp::ArrayReduce, rt, loc);
  r->sub = int(kind);
  r->ival = ax;
  r->args.push_back(std::move(arr));
  return r;
}

} // namespace mahou::sema
