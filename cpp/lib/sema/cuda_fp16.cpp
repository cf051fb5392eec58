// Typing of cuda.fp16 inside kernels: numba-cuda's half-precision intrinsics
// (hadd, hmul, hfma, hsqrt, hexp, heq, hmax, ...) on float16 values. Each is built
// from the IR's own float16 operations (binary ops, comparisons, intrinsics, fma);
// the transcendental ones compute in float32 and round back (codegen/math.cpp).
#include "typer.h"

namespace mahou::sema {

namespace {

using G = ir::GpuOpKind;

const Type kHalf = Type::scalar(DType::Float16);

struct Fp16Fn {
  const char *name;
  int arity;
};

constexpr Fp16Fn kFunctions[] = {
    {"hadd", 2},  {"hsub", 2},   {"hmul", 2},   {"hdiv", 2},   {"hneg", 1},   {"habs", 1},  {"hfma", 3},
    {"hsqrt", 1}, {"hrsqrt", 1}, {"hrcp", 1},   {"hexp", 1},   {"hexp2", 1},  {"hexp10", 1}, {"hlog", 1},
    {"hlog2", 1}, {"hlog10", 1}, {"hsin", 1},   {"hcos", 1},   {"hceil", 1},  {"hfloor", 1}, {"htrunc", 1},
    {"hrint", 1}, {"heq", 2},    {"hne", 2},    {"hgt", 2},    {"hge", 2},    {"hlt", 2},   {"hle", 2},
    {"hmax", 2},  {"hmin", 2},
};

} // namespace

ExprPtr FunctionTyper::cudaFp16Call(const std::string &name, const ast::Call &e) {
  const Fp16Fn *fn = nullptr;
  for (auto &f : kFunctions)
    if (name == f.name) fn = &f;
  std::string fname = "cuda.fp16." + name;
  if (!fn) notSupported(e.loc, fname + " is not supported");
  checkKeywords(e, {}, fname);
  auto args = positionalArgs(e, size_t(fn->arity), size_t(fn->arity), fname);
  for (auto &a : args) {
    if (isUnknown(a)) return unknown(e.loc);
    if (!a->type.isScalar(DType::Float16))
      error(a->loc, fname + "() takes float16 values, not " + a->type.str() + " (convert with numba.float16(x))");
  }
  Loc loc = e.loc;
  auto unaryIntrinsic = [&](ir::Intrinsic id) { return intrinsic(id, kHalf, std::move(args), loc); };
  auto one = [&] { return ir::makeConst(kHalf, loc, 0, 1.0); };
  using B = ast::BinOpKind;
  using C = ast::CmpOpKind;
  if (name == "hadd") return binary(B::Add, std::move(args[0]), std::move(args[1]), loc);
  if (name == "hsub") return binary(B::Sub, std::move(args[0]), std::move(args[1]), loc);
  if (name == "hmul") return binary(B::Mult, std::move(args[0]), std::move(args[1]), loc);
  auto divide = [&](ExprPtr x, ExprPtr y) { // IEEE: a zero divisor gives inf or NaN, as __hdiv does
    auto op = std::make_unique<ir::Expr>(ir::ExprOp::GpuOp, kHalf, loc);
    op->sub = int(G::HDiv);
    op->args.push_back(std::move(x));
    op->args.push_back(std::move(y));
    return op;
  };
  if (name == "hdiv") return divide(std::move(args[0]), std::move(args[1]));
  if (name == "hneg") return unaryValue(ast::UnaryOpKind::USub, std::move(args[0]), loc);
  if (name == "habs") return unaryIntrinsic(ir::Intrinsic::Fabs);
  if (name == "hfma") {
    auto op = std::make_unique<ir::Expr>(ir::ExprOp::GpuOp, kHalf, loc);
    op->sub = int(G::Fma);
    op->args = std::move(args);
    return op;
  }
  if (name == "hsqrt") return unaryIntrinsic(ir::Intrinsic::Sqrt);
  if (name == "hrsqrt" || name == "hrcp") {
    ExprPtr x = name == "hrcp" ? std::move(args[0]) : unaryIntrinsic(ir::Intrinsic::Sqrt);
    return divide(one(), std::move(x));
  }
  if (name == "hexp10") {
    std::vector<ExprPtr> pw;
    pw.push_back(ir::makeConst(kHalf, loc, 0, 10.0));
    pw.push_back(std::move(args[0]));
    return intrinsic(ir::Intrinsic::Pow, kHalf, std::move(pw), loc);
  }
  static const std::pair<const char *, ir::Intrinsic> unary[] = {
      {"hexp", ir::Intrinsic::Exp},   {"hexp2", ir::Intrinsic::Exp2},   {"hlog", ir::Intrinsic::Log},
      {"hlog2", ir::Intrinsic::Log2}, {"hlog10", ir::Intrinsic::Log10}, {"hsin", ir::Intrinsic::Sin},
      {"hcos", ir::Intrinsic::Cos},   {"hceil", ir::Intrinsic::Ceil},   {"hfloor", ir::Intrinsic::Floor},
      {"htrunc", ir::Intrinsic::Trunc}, {"hrint", ir::Intrinsic::Rint},
  };
  for (auto &[n, id] : unary)
    if (name == n) return unaryIntrinsic(id);
  static const std::pair<const char *, C> compares[] = {
      {"heq", C::Eq}, {"hne", C::NotEq}, {"hgt", C::Gt}, {"hge", C::GtE}, {"hlt", C::Lt}, {"hle", C::LtE},
  };
  for (auto &[n, op] : compares)
    if (name == n) return compareOne(op, std::move(args[0]), std::move(args[1]), loc);
  auto op = std::make_unique<ir::Expr>(ir::ExprOp::GpuOp, kHalf, loc); // hmax, hmin
  op->sub = int(name == "hmax" ? G::HMax : G::HMin);
  op->args = std::move(args);
  return op;
}

} // namespace mahou::sema
