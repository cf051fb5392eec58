// Typers of numba-cuda's further kernel intrinsics (cuda.def): match_any_sync /
// match_all_sync, lanemask_lt, selp, cbrt and nanosleep.
#include "sema/cuda.h"
#include "sema/typers.h"

namespace mahou::sema {

namespace {

using G = ir::GpuOpKind;

ExprPtr warpMask(Typing &t, ExprPtr m) {
  if (!m->type.isInt()) t.error(m->loc, "a warp mask must be an integer");
  return ir::makeCast(std::move(m), Type::scalar(DType::UInt32));
}

} // namespace

// cuda.match_any_sync(mask, value) → uint32; cuda.match_all_sync(mask, value) → (uint32,
// bool) (variant: the GPU op). The value is a 32- or 64-bit number, compared bit for bit.
ExprPtr cudaMatch(Use &u) {
  std::string fname = u.qualified();
  auto args = u.args(2, 2, {}, fname);
  if (anyUnknown(args)) return u.unknown();
  const Type vt = args[1]->type;
  if (!vt.isNumber() || vt.isComplex() || vt.isBool() || types::dtypeBytes(vt.dtype) < 4)
    u.t.error(args[1]->loc, fname + "() takes a 32- or 64-bit integer or float value, not " + vt.str());
  auto kind = G(u.variant());
  Type rt = kind == G::MatchAny ? Type::scalar(DType::UInt32)
                                : Type::tuple({Type::scalar(DType::UInt32), Type::boolean()});
  auto op = gpuOp(kind, rt, u.loc);
  op->args.push_back(warpMask(u.t, std::move(args[0])));
  op->args.push_back(std::move(args[1]));
  return op;
}

// cuda.lanemask_lt() → uint32: the lanes whose id is below this thread's.
ExprPtr cudaLaneMaskLt(Use &u) {
  u.args(0, 0, {}, u.qualified());
  return gpuOp(G::LaneMaskLt, Type::scalar(DType::UInt32), u.loc);
}

// cuda.selp(pred, a, b): a if pred else b, both evaluated (PTX selp). a and b are numbers
// of one type after NumPy's promotion (numba-cuda asks for one type: a wider rule).
ExprPtr cudaSelp(Use &u) {
  std::string fname = u.qualified();
  auto args = u.args(3, 3, {}, fname);
  if (anyUnknown(args)) return u.unknown();
  for (int k = 1; k < 3; ++k)
    if (!args[k]->type.isNumber() || args[k]->type.isComplex())
      u.t.error(args[k]->loc, fname + "() selects between real numbers, not " + args[k]->type.str());
  DType d = args[1]->type.dtype == args[2]->type.dtype ? args[1]->type.dtype
                                                       : types::promote(args[1]->type.dtype, args[2]->type.dtype);
  Type rt = Type::scalar(d);
  auto op = gpuOp(G::Selp, rt, u.loc);
  op->args.push_back(u.t.truth(std::move(args[0])));
  op->args.push_back(ir::makeCast(std::move(args[1]), rt));
  op->args.push_back(ir::makeCast(std::move(args[2]), rt));
  return op;
}

// cuda.cbrt(x): the cube root of a float32 or float64 (libdevice's cbrtf / cbrt).
ExprPtr cudaCbrt(Use &u) {
  std::string fname = u.qualified();
  auto args = u.args(1, 1, {}, fname);
  if (Typing::isUnknown(args[0])) return u.unknown();
  const Type &xt = args[0]->type;
  if (!xt.isScalar(DType::Float32) && !xt.isScalar(DType::Float64))
    u.t.error(args[0]->loc, fname + "() takes a float32 or float64, not " + xt.str());
  bool f32 = xt.isScalar(DType::Float32);
  auto op = gpuOp(G::Libdevice, xt, u.loc);
  op->ival = int(Libdevice::cbrt);
  op->symbol = f32 ? "__nv_cbrtf" : "__nv_cbrt";
  op->args.push_back(std::move(args[0]));
  return op;
}

// cuda.nanosleep(ns): suspends the thread for about ns nanoseconds (sm_70+).
ExprPtr cudaNanosleep(Use &u) {
  std::string fname = u.qualified();
  auto args = u.args(1, 1, {}, fname);
  if (Typing::isUnknown(args[0])) return u.unknown();
  if (!args[0]->type.isInt()) u.t.error(args[0]->loc, fname + "() takes an integer number of nanoseconds");
  auto op = gpuOp(G::NanoSleep, Type::none(), u.loc);
  op->args.push_back(ir::makeCast(std::move(args[0]), Type::scalar(DType::UInt32)));
  return op;
}

} // namespace mahou::sema
