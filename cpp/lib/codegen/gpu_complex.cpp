// The complex square root, exponential and logarithm for CUDA kernels (the GPU and the
// emulator alike): C99's csqrt/cexp/clog (what the host runtime calls) in terms of real
// math (libdevice on the GPU), computed in double as the host does, with their branch cuts
// and special values (signed zeros, infinities, NaNs).
#include "lowering.h"

#include <cfloat>
#include <cmath>

namespace mahou::codegen {

namespace {
using ir::Intrinsic;
} // namespace

llvm::Value *FunctionLowering::deviceComplexMath(Intrinsic id, llvm::Value *z, const Type &t) {
  Type ft = Type::scalar(types::realOf(t.dtype));
  const Type f64 = Type::float64();
  llvm::Type *d = b_.getDoubleTy();
  llvm::Value *x = castScalar(b_.CreateExtractValue(z, 0), ft, f64);
  llvm::Value *y = castScalar(b_.CreateExtractValue(z, 1), ft, f64);
  auto k = [&](double v) { return llvm::ConstantFP::get(d, v); };
  auto call = [&](const char *name, llvm::ArrayRef<llvm::Value *> args) { return mathCall(name, f64, args); };
  auto fabs = [&](llvm::Value *v) { return b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, v); };
  auto copysign = [&](llvm::Value *mag, llvm::Value *sgn) {
    return b_.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, mag, sgn);
  };
  auto isInf = [&](llvm::Value *v) { return b_.CreateFCmpOEQ(fabs(v), k(INFINITY)); };
  auto isFinite = [&](llvm::Value *v) { return b_.CreateFCmpOLT(fabs(v), k(INFINITY)); };
  llvm::Value *re = nullptr, *im = nullptr;
  switch (id) {
  case Intrinsic::CSqrt: {
    // CPython's scaled form: s = sqrt((|x| + |z|) / 2) without overflow (|x|, |y| / 8) or
    // loss in subnormals (scaled up by 2^53); d = |y| / 2s; the root in the right half-plane.
    llvm::Value *ax = fabs(x), *ay = fabs(y);
    llvm::Value *tiny = b_.CreateAnd(b_.CreateFCmpOLT(ax, k(DBL_MIN)), b_.CreateFCmpOLT(ay, k(DBL_MIN)));
    llvm::Value *axUp = b_.CreateFMul(ax, k(0x1p53));
    llvm::Value *sTiny = b_.CreateFMul(call("sqrt", {b_.CreateFAdd(axUp, call("hypot", {axUp, b_.CreateFMul(ay, k(0x1p53))}))}),
                                       k(0x1p-27));
    llvm::Value *ax8 = b_.CreateFMul(ax, k(0.125));
    llvm::Value *sBig = b_.CreateFMul(k(2.0), call("sqrt", {b_.CreateFAdd(ax8, call("hypot", {ax8, b_.CreateFMul(ay, k(0.125))}))}));
    llvm::Value *s = b_.CreateSelect(tiny, sTiny, sBig);
    llvm::Value *dd = b_.CreateFDiv(ay, b_.CreateFMul(k(2.0), s));
    llvm::Value *xNonNeg = b_.CreateFCmpOGE(x, k(0.0));
    re = b_.CreateSelect(xNonNeg, s, dd);
    im = copysign(b_.CreateSelect(xNonNeg, dd, s), y);
    // sqrt(±0 ± 0j) = +0 ± 0j; an infinite imaginary part gives +inf + that infinity j
    llvm::Value *zero = b_.CreateAnd(b_.CreateFCmpOEQ(x, k(0.0)), b_.CreateFCmpOEQ(y, k(0.0)));
    re = b_.CreateSelect(zero, k(0.0), re);
    im = b_.CreateSelect(zero, y, im);
    llvm::Value *yInf = isInf(y);
    re = b_.CreateSelect(yInf, k(INFINITY), re);
    im = b_.CreateSelect(yInf, y, im);
    break;
  }
  case Intrinsic::CExp: {
    // e^x (cos y + i sin y); e^x as two halves past 700 so that a finite result does not
    // overflow on the way; a zero imaginary part stays exactly that zero (exp(x) + 0j).
    llvm::Value *big = b_.CreateFCmpOGT(x, k(700.0));
    llvm::Value *half = call("exp", {b_.CreateFMul(x, k(0.5))});
    llvm::Value *ex = call("exp", {x});
    llvm::Value *c = call("cos", {y}), *sn = call("sin", {y});
    llvm::Value *reBig = b_.CreateFMul(b_.CreateFMul(half, c), half);
    llvm::Value *imBig = b_.CreateFMul(b_.CreateFMul(half, sn), half);
    re = b_.CreateSelect(big, reBig, b_.CreateFMul(ex, c));
    im = b_.CreateSelect(big, imBig, b_.CreateFMul(ex, sn));
    // x = -inf, y not finite: 0 + 0j (C99: the signs unspecified; glibc's +0, +0);
    // x = +inf, y not finite: inf + nan j
    llvm::Value *yBad = b_.CreateNot(isFinite(y));
    llvm::Value *negInf = b_.CreateAnd(b_.CreateFCmpOEQ(x, k(-INFINITY)), yBad);
    llvm::Value *posInf = b_.CreateAnd(b_.CreateFCmpOEQ(x, k(INFINITY)), yBad);
    re = b_.CreateSelect(negInf, k(0.0), b_.CreateSelect(posInf, k(INFINITY), re));
    im = b_.CreateSelect(negInf, copysign(k(0.0), y), b_.CreateSelect(posInf, k(NAN), im));
    llvm::Value *yZero = b_.CreateFCmpOEQ(y, k(0.0));
    re = b_.CreateSelect(yZero, ex, re);
    im = b_.CreateSelect(yZero, y, im);
    break;
  }
  case Intrinsic::CLog: {
    // log|z| + i arg z. Near |z| = 1, log|z| is log1p(x^2 + y^2 - 1) / 2 with the squares
    // split exactly by fma (x^2 - 1 is exact there), so that it keeps its digits; log(0)
    // is -inf (as the host's).
    llvm::Value *ax = fabs(x), *ay = fabs(y);
    llvm::Value *hi = b_.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, ax, ay);
    llvm::Value *lo = b_.CreateBinaryIntrinsic(llvm::Intrinsic::minnum, ax, ay);
    llvm::Value *h = call("hypot", {x, y});
    llvm::Value *nearOne = b_.CreateAnd(b_.CreateFCmpOGT(h, k(0.75)), b_.CreateFCmpOLT(h, k(1.25)));
    auto fma = [&](llvm::Value *a, llvm::Value *b, llvm::Value *c) {
      return b_.CreateIntrinsic(llvm::Intrinsic::fma, {d}, {a, b, c});
    };
    llvm::Value *p1 = b_.CreateFMul(hi, hi), *e1 = fma(hi, hi, b_.CreateFNeg(p1));
    llvm::Value *p2 = b_.CreateFMul(lo, lo), *e2 = fma(lo, lo, b_.CreateFNeg(p2));
    llvm::Value *t = b_.CreateFAdd(b_.CreateFAdd(b_.CreateFSub(p1, k(1.0)), p2), b_.CreateFAdd(e1, e2));
    llvm::Value *near = b_.CreateFMul(k(0.5), call("log1p", {t}));
    // |z| below DBL_MIN: hypot of the parts scaled by 2^60 (a subnormal |z| has lost digits)
    llvm::Value *tiny = b_.CreateFCmpOLT(hi, k(DBL_MIN));
    llvm::Value *hs = call("hypot", {b_.CreateFMul(x, k(0x1p60)), b_.CreateFMul(y, k(0x1p60))});
    llvm::Value *far = b_.CreateSelect(tiny, b_.CreateFSub(call("log", {hs}), k(60 * M_LN2)), call("log", {h}));
    re = b_.CreateSelect(nearOne, near, far);
    im = call("atan2", {y, x});
    break;
  }
  default: internalError("not a device complex function");
  }
  llvm::Value *agg = llvm::UndefValue::get(z->getType());
  agg = b_.CreateInsertValue(agg, castScalar(re, f64, ft), {0});
  return b_.CreateInsertValue(agg, castScalar(im, f64, ft), {1});
}

} // namespace mahou::codegen

namespace mahou::codegen {

// NumPy's log10 of a complex number in a kernel: the logarithm above times log10(e), as
// the host runtime's mahou_rt_clog10 computes it.
llvm::Value *FunctionLowering::deviceComplexLog10(llvm::Value *z, const Type &t) {
  llvm::Value *l = deviceComplexMath(ir::Intrinsic::CLog, z, t);
  llvm::Type *part = l->getType()->getStructElementType(0);
  llvm::Value *k = llvm::ConstantFP::get(part, 0.43429448190325182765); // log10(e)
  l = b_.CreateInsertValue(l, b_.CreateFMul(b_.CreateExtractValue(l, 0), k), 0);
  return b_.CreateInsertValue(l, b_.CreateFMul(b_.CreateExtractValue(l, 1), k), 1);
}

} // namespace mahou::codegen
