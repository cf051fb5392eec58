// Typers of cuda.fp16 inside kernels (cuda.def): numba-cuda's half-precision intrinsics
// (hadd, hmul, hfma, hsqrt, hexp, heq, hmax, ...) on float16 values. Each is built
// from the IR's own float16 operations (binary ops, comparisons, intrinsics, fma);
// the transcendental ones compute in float32 and round back (codegen/math.cpp).
#include "sema/typers.h"

namespace mahou::sema {

namespace {

using G = ir::GpuOpKind;

const Type kHalf = Type::scalar(DType::Float16);

// The float16 arguments of a cuda.fp16 function.
std::vector<ExprPtr> halfArgs(Use &u, size_t n) {
  std::string fname = u.qualified();
  auto args = u.args(n, n, {}, fname);
  for (auto &a : args) {
    if (Typing::isUnknown(a)) return {};
    if (!a->type.isScalar(DType::Float16))
      u.t.error(a->loc, fname + "() takes float16 values, not " + a->type.str() + " (convert with numba.float16(x))");
  }
  return args;
}

ExprPtr gpuOp(G kind, std::vector<ExprPtr> args, Loc loc) {
  auto op = std::make_unique<ir::Expr>(ir::ExprOp::GpuOp, kHalf, loc);
  op->sub = int(kind);
  op->args = std::move(args);
  return op;
}

// IEEE: a zero divisor gives inf or NaN, as __hdiv does.
ExprPtr divide(ExprPtr x, ExprPtr y, Loc loc) {
  std::vector<ExprPtr> a;
  a.push_back(std::move(x));
  a.push_back(std::move(y));
  return gpuOp(G::HDiv, std::move(a), loc);
}

} // namespace

ExprPtr cudaFp16Binary(Use &u) { // hadd, hsub, hmul (variant: the operator)
  auto args = halfArgs(u, 2);
  if (args.empty()) return u.unknown();
  return u.t.binary(ast::BinOpKind(u.variant()), std::move(args[0]), std::move(args[1]), u.loc);
}

ExprPtr cudaFp16Divide(Use &u) { // hdiv (variant 0), hrcp (1), hrsqrt (2)
  int kind = u.variant();
  auto args = halfArgs(u, kind == 0 ? 2 : 1);
  if (args.empty()) return u.unknown();
  if (kind == 0) return divide(std::move(args[0]), std::move(args[1]), u.loc);
  ExprPtr x = kind == 1 ? std::move(args[0]) : u.t.intrinsic(ir::Intrinsic::Sqrt, kHalf, std::move(args), u.loc);
  return divide(ir::makeConst(kHalf, u.loc, 0, 1.0), std::move(x), u.loc);
}

ExprPtr cudaFp16Neg(Use &u) {
  auto args = halfArgs(u, 1);
  if (args.empty()) return u.unknown();
  return u.t.unaryValue(ast::UnaryOpKind::USub, std::move(args[0]), u.loc);
}

ExprPtr cudaFp16Fma(Use &u) {
  auto args = halfArgs(u, 3);
  if (args.empty()) return u.unknown();
  return gpuOp(G::Fma, std::move(args), u.loc);
}

ExprPtr cudaFp16Unary(Use &u) { // habs, hsqrt, hexp, ... (variant: the intrinsic)
  auto args = halfArgs(u, 1);
  if (args.empty()) return u.unknown();
  return u.t.intrinsic(ir::Intrinsic(u.variant()), kHalf, std::move(args), u.loc);
}

ExprPtr cudaFp16Exp10(Use &u) {
  auto args = halfArgs(u, 1);
  if (args.empty()) return u.unknown();
  std::vector<ExprPtr> pw;
  pw.push_back(ir::makeConst(kHalf, u.loc, 0, 10.0));
  pw.push_back(std::move(args[0]));
  return u.t.intrinsic(ir::Intrinsic::Pow, kHalf, std::move(pw), u.loc);
}

ExprPtr cudaFp16Compare(Use &u) { // heq, hne, hgt, ... (variant: the comparison)
  auto args = halfArgs(u, 2);
  if (args.empty()) return u.unknown();
  return u.t.compareOne(ast::CmpOpKind(u.variant()), std::move(args[0]), std::move(args[1]), u.loc);
}

ExprPtr cudaFp16MinMax(Use &u) { // hmax, hmin (variant: the GPU op)
  auto args = halfArgs(u, 2);
  if (args.empty()) return u.unknown();
  return gpuOp(G(u.variant()), std::move(args), u.loc);
}

} // namespace mahou::sema
