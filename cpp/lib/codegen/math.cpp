// Lowering of math intrinsics: LLVM intrinsics where they exist, libm otherwise
// (the NVPTX target will map the same names to libdevice).
#include "lowering.h"

#include <llvm/IR/Intrinsics.h>

#include <cmath>

namespace mahou::codegen {

using ir::Intrinsic;

llvm::Value *FunctionLowering::mathCall(const char *name, const Type &t, llvm::ArrayRef<llvm::Value *> args) {
  if (t.isScalar(types::DType::Float16)) { // float16: computed in float32, rounded back
    std::vector<llvm::Value *> wide;
    for (llvm::Value *a : args) wide.push_back(b_.CreateFPExt(a, b_.getFloatTy()));
    return b_.CreateFPTrunc(mathCall(name, Type::scalar(types::DType::Float32), wide), b_.getHalfTy());
  }
  bool f32 = t.isScalar(types::DType::Float32);
  std::string base = std::string(name) == "gamma" ? "tgamma" : name;
  // CPU: libm; GPU: libdevice (__nv_sin, __nv_sinf, ...), linked only when used.
  std::string sym = (gpu() ? "__nv_" : "") + base + (f32 ? "f" : "");
  llvm::Type *ft = f32 ? b_.getFloatTy() : b_.getDoubleTy();
  std::vector<llvm::Type *> params(args.size(), ft);
  auto callee = module_.getOrInsertFunction(sym, llvm::FunctionType::get(ft, params, false));
  if (auto *f = llvm::dyn_cast<llvm::Function>(callee.getCallee())) {
    f->addFnAttr(llvm::Attribute::NoUnwind);
    f->setMemoryEffects(llvm::MemoryEffects::none());
  }
  return b_.CreateCall(callee, args);
}

// np.gcd / np.lcm of two integers of one type, as NumPy computes them: Euclid's loop on
// the magnitudes (|INT_MIN| is 2^(n-1) unsigned, as NumPy's wraps), lcm = |a| / g * |b|.
llvm::Value *FunctionLowering::gcdOrLcm(llvm::Value *a, llvm::Value *b, bool isSigned, bool lcm) {
  llvm::Type *ty = a->getType();
  llvm::Value *zero = llvm::ConstantInt::get(ty, 0);
  auto magnitude = [&](llvm::Value *v) {
    return isSigned ? b_.CreateSelect(b_.CreateICmpSLT(v, zero), b_.CreateNeg(v), v) : v;
  };
  llvm::Value *x = magnitude(a), *y = magnitude(b);
  auto *pre = b_.GetInsertBlock();
  auto *head = newBlock("gcd.head"), *body = newBlock("gcd.body"), *done = newBlock("gcd.done");
  b_.CreateBr(head);
  b_.SetInsertPoint(head);
  llvm::PHINode *u = b_.CreatePHI(ty, 2), *v = b_.CreatePHI(ty, 2);
  u->addIncoming(x, pre);
  v->addIncoming(y, pre);
  b_.CreateCondBr(b_.CreateICmpEQ(v, zero), done, body);
  b_.SetInsertPoint(body);
  llvm::Value *r = b_.CreateURem(u, v);
  u->addIncoming(v, body);
  v->addIncoming(r, body);
  b_.CreateBr(head);
  b_.SetInsertPoint(done);
  if (!lcm) return u;
  llvm::Value *none = b_.CreateICmpEQ(u, zero); // both zero
  llvm::Value *g = b_.CreateSelect(none, llvm::ConstantInt::get(ty, 1), u);
  return b_.CreateSelect(none, zero, b_.CreateMul(b_.CreateUDiv(x, g), y));
}

llvm::Value *FunctionLowering::intrinsic(const ir::Expr &e) {
  if (Intrinsic(e.sub) == Intrinsic::ThreadId || Intrinsic(e.sub) == Intrinsic::NumThreads) { // parallel.h
    const char *fn = Intrinsic(e.sub) == Intrinsic::ThreadId ? "mahou_rt_get_thread_id" : "mahou_rt_get_num_threads";
    return b_.CreateSExt(b_.CreateCall(runtimeFn(fn, b_.getInt32Ty(), {})), i64());
  }
  std::vector<llvm::Value *> a;
  for (auto &x : e.args) a.push_back(scalarExpr(*x));
  const Type &argT = e.args[0]->type;
  auto unaryLLVM = [&](llvm::Intrinsic::ID id) -> llvm::Value * {
    // NVPTX has no instructions for the transcendental intrinsics: use libdevice.
    if (gpu()) {
      switch (id) {
      case llvm::Intrinsic::exp: return mathCall("exp", e.type, a);
      case llvm::Intrinsic::exp2: return mathCall("exp2", e.type, a);
      case llvm::Intrinsic::log: return mathCall("log", e.type, a);
      case llvm::Intrinsic::log2: return mathCall("log2", e.type, a);
      case llvm::Intrinsic::log10: return mathCall("log10", e.type, a);
      case llvm::Intrinsic::sin: return mathCall("sin", e.type, a);
      case llvm::Intrinsic::cos: return mathCall("cos", e.type, a);
      default: break;
      }
    }
    return b_.CreateUnaryIntrinsic(id, a[0]);
  };
  auto binaryLLVM = [&](llvm::Intrinsic::ID id) { return b_.CreateBinaryIntrinsic(id, a[0], a[1]); };
  if (e.type.isComplex() || argT.isComplex())
    if (llvm::Value *v = complexElementwise(Intrinsic(e.sub), a)) return v;
  switch (Intrinsic(e.sub)) {
  case Intrinsic::Sqrt: return unaryLLVM(llvm::Intrinsic::sqrt);
  case Intrinsic::Exp: return unaryLLVM(llvm::Intrinsic::exp);
  case Intrinsic::Exp2: return unaryLLVM(llvm::Intrinsic::exp2);
  case Intrinsic::Log: return unaryLLVM(llvm::Intrinsic::log);
  case Intrinsic::Log2: return unaryLLVM(llvm::Intrinsic::log2);
  case Intrinsic::Log10: return unaryLLVM(llvm::Intrinsic::log10);
  case Intrinsic::Sin: return unaryLLVM(llvm::Intrinsic::sin);
  case Intrinsic::Cos: return unaryLLVM(llvm::Intrinsic::cos);
  case Intrinsic::Floor: return unaryLLVM(llvm::Intrinsic::floor);
  case Intrinsic::Ceil: return unaryLLVM(llvm::Intrinsic::ceil);
  case Intrinsic::Trunc: return unaryLLVM(llvm::Intrinsic::trunc);
  case Intrinsic::Bitcast: return b_.CreateBitCast(a[0], types_.ssa(e.type));
  case Intrinsic::Rint: return unaryLLVM(llvm::Intrinsic::roundeven);
  case Intrinsic::Fabs: return unaryLLVM(llvm::Intrinsic::fabs);
  case Intrinsic::Copysign: return binaryLLVM(llvm::Intrinsic::copysign);
  case Intrinsic::Pow: return floatPow(a[0], a[1], e.type);
  case Intrinsic::Expm1: return mathCall("expm1", e.type, a);
  case Intrinsic::Log1p: return mathCall("log1p", e.type, a);
  case Intrinsic::Tan: return mathCall("tan", e.type, a);
  case Intrinsic::Asin: return mathCall("asin", e.type, a);
  case Intrinsic::Acos: return mathCall("acos", e.type, a);
  case Intrinsic::Atan: return mathCall("atan", e.type, a);
  case Intrinsic::Sinh: return mathCall("sinh", e.type, a);
  case Intrinsic::Cosh: return mathCall("cosh", e.type, a);
  case Intrinsic::Tanh: return mathCall("tanh", e.type, a);
  case Intrinsic::Asinh: return mathCall("asinh", e.type, a);
  case Intrinsic::Acosh: return mathCall("acosh", e.type, a);
  case Intrinsic::Atanh: return mathCall("atanh", e.type, a);
  case Intrinsic::Erf: return mathCall("erf", e.type, a);
  case Intrinsic::Erfc: return mathCall("erfc", e.type, a);
  case Intrinsic::Gamma: return mathCall("gamma", e.type, a);
  case Intrinsic::Lgamma: return mathCall("lgamma", e.type, a);
  case Intrinsic::Atan2: return mathCall("atan2", e.type, a);
  case Intrinsic::Hypot: return mathCall("hypot", e.type, a);
  case Intrinsic::Fmod: return mathCall("fmod", e.type, a);
  case Intrinsic::IeeeRemainder: return mathCall("remainder", e.type, a); // libm / libdevice: exact
  case Intrinsic::Cbrt: return mathCall("cbrt", e.type, a);
  case Intrinsic::NextAfter: return mathCall("nextafter", e.type, a);
  case Intrinsic::FMin: return binaryLLVM(llvm::Intrinsic::minnum);
  case Intrinsic::FMax: return binaryLLVM(llvm::Intrinsic::maxnum);
  case Intrinsic::IsNan: return b_.CreateFCmpUNO(a[0], a[0]);
  case Intrinsic::IsInf:
    return b_.CreateFCmpOEQ(unaryLLVM(llvm::Intrinsic::fabs), llvm::ConstantFP::getInfinity(a[0]->getType()));
  case Intrinsic::IsFinite:
    return b_.CreateFCmpOLT(unaryLLVM(llvm::Intrinsic::fabs), llvm::ConstantFP::getInfinity(a[0]->getType()));
  case Intrinsic::IAbs: {
    auto *zero = llvm::ConstantInt::get(a[0]->getType(), 0);
    return b_.CreateSelect(b_.CreateICmpSLT(a[0], zero), b_.CreateNeg(a[0]), a[0]);
  }
  case Intrinsic::IPow: internalError("ipow is lowered as a binary operator");
  case Intrinsic::FrexpMantissa:
  case Intrinsic::FrexpExponent: {
    auto *i32 = b_.getInt32Ty();
    llvm::Value *pair = b_.CreateIntrinsic(llvm::Intrinsic::frexp, {a[0]->getType(), i32}, {a[0]});
    llvm::Value *finite = b_.CreateFCmpOLT(b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, a[0]),
                                           llvm::ConstantFP::getInfinity(a[0]->getType()));
    if (Intrinsic(e.sub) == Intrinsic::FrexpMantissa)
      return b_.CreateSelect(finite, b_.CreateExtractValue(pair, {0}), a[0]);
    llvm::Value *exponent = b_.CreateSExt(b_.CreateExtractValue(pair, {1}), b_.getInt64Ty());
    return b_.CreateSelect(finite, exponent, b_.getInt64(0));
  }
  case Intrinsic::Ldexp: {
    // Exponents past +-100000 give the same inf or 0 as any larger one: clamped to fit i32.
    auto *i64 = b_.getInt64Ty();
    llvm::Value *i = b_.CreateBinaryIntrinsic(llvm::Intrinsic::smax, a[1], llvm::ConstantInt::get(i64, -100000));
    i = b_.CreateBinaryIntrinsic(llvm::Intrinsic::smin, i, llvm::ConstantInt::get(i64, 100000));
    return b_.CreateIntrinsic(llvm::Intrinsic::ldexp, {a[0]->getType(), b_.getInt32Ty()},
                              {a[0], b_.CreateTrunc(i, b_.getInt32Ty())});
  }
  case Intrinsic::PyInt: { // Python's int() of a float, into int64
    // In kernels, on the GPU and in the emulator (a raise would silently end the thread)
    // the conversion saturates, as CUDA's own does (docs/cuda.md).
    if (gpu() || options_.simulateGpu) return b_.CreateIntrinsic(llvm::Intrinsic::fptosi_sat, {i64(), a[0]->getType()}, {a[0]});
    llvm::Value *x = a[0]->getType()->isDoubleTy() ? a[0] : b_.CreateFPExt(a[0], b_.getDoubleTy());
    // One test on the hot path, |x| < 2**63 (an ordered compare: false for NaN and the
    // infinities); -2**63 itself and which exception it is are worked out off it.
    llvm::Value *limit = llvm::ConstantFP::get(b_.getDoubleTy(), 9223372036854775808.0);
    llvm::Value *inRange = b_.CreateFCmpOLT(b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x), limit);
    auto *bad = newBlock("pyint.bad"), *raises = newBlock("pyint.raise"), *ok = newBlock("pyint.ok");
    b_.CreateCondBr(inRange, ok, bad, llvm::MDBuilder(ctx()).createBranchWeights(1000, 1));
    b_.SetInsertPoint(bad);
    b_.CreateCondBr(b_.CreateFCmpOEQ(x, b_.CreateFNeg(limit)), ok, raises); // the lowest int64
    b_.SetInsertPoint(raises);
    raiseIf(b_.CreateFCmpUNO(x, x), types::ExcKind::ValueError, "cannot convert float NaN to integer");
    llvm::Value *inf = llvm::ConstantFP::getInfinity(b_.getDoubleTy());
    raiseIf(b_.CreateFCmpOEQ(b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x), inf), types::ExcKind::OverflowError,
            "cannot convert float infinity to integer");
    raiseIf(b_.getTrue(), types::ExcKind::OverflowError, "int too large to convert to int64");
    b_.CreateBr(ok); // not reached
    b_.SetInsertPoint(ok);
    return b_.CreateFPToSI(x, i64());
  }
  case Intrinsic::NpIntStore: { // NumPy's a[i] = x for a float x and an integer array: Python's int(x), range-checked
    // ival 1 (a.flat[i] = x): NumPy reports every failure as one ValueError.
    const bool flat = e.ival == 1;
    if (gpu() || options_.simulateGpu) // kernels saturate (no exception to raise), as every float-to-int conversion there
      return b_.CreateIntrinsic(types::isSigned(e.type.dtype) ? llvm::Intrinsic::fptosi_sat : llvm::Intrinsic::fptoui_sat,
                                {types_.scalar(e.type.dtype), a[0]->getType()}, {a[0]});
    auto raiseIf = [&](llvm::Value *cond, types::ExcKind kind, const std::string &message) {
      if (flat) FunctionLowering::raiseIf(cond, types::ExcKind::ValueError, "Error setting single item of array.");
      else FunctionLowering::raiseIf(cond, kind, message);
    };
    llvm::Type *f64 = b_.getDoubleTy();
    llvm::Value *x = a[0]->getType()->isDoubleTy() ? a[0] : b_.CreateFPExt(a[0], f64);
    raiseIf(b_.CreateFCmpUNO(x, x), types::ExcKind::ValueError, "cannot convert float NaN to integer");
    raiseIf(b_.CreateFCmpOEQ(b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x), llvm::ConstantFP::getInfinity(f64)),
            types::ExcKind::OverflowError, "cannot convert float infinity to integer");
    const types::DType to = e.type.dtype;
    const bool isSigned = types::isSigned(to);
    llvm::Value *t = b_.CreateUnaryIntrinsic(llvm::Intrinsic::trunc, x);
    auto cf = [&](double v) { return llvm::ConstantFP::get(f64, v); };
    const double top = to == types::DType::UInt64 ? 18446744073709551616.0 : 9223372036854775808.0;
    raiseIf(b_.CreateNot(b_.CreateAnd(b_.CreateFCmpOGE(t, cf(-9223372036854775808.0)), b_.CreateFCmpOLT(t, cf(top)))),
            types::ExcKind::OverflowError, "Python int too large to convert to C long");
    const unsigned bits = types_.scalar(to)->getIntegerBitWidth();
    if (bits < 64 || !isSigned) {
      const double lo = isSigned ? -std::ldexp(1.0, int(bits) - 1) : 0.0;
      const double hi = isSigned ? std::ldexp(1.0, int(bits) - 1) - 1 : std::ldexp(1.0, int(bits)) - 1;
      llvm::Value *fits = b_.CreateAnd(b_.CreateFCmpOGE(t, cf(lo)), b_.CreateFCmpOLE(t, cf(hi)));
      raiseIf(b_.CreateNot(fits), types::ExcKind::OverflowError,
              std::string("Python integer out of bounds for ") + types::dtypeName(to));
    }
    return isSigned ? b_.CreateFPToSI(t, types_.scalar(to)) : b_.CreateFPToUI(t, types_.scalar(to));
  }
  case Intrinsic::Gcd:
  case Intrinsic::Lcm: return gcdOrLcm(a[0], a[1], types::isSigned(argT.dtype), Intrinsic(e.sub) == Intrinsic::Lcm);
  case Intrinsic::PowMod: {
    auto *i64 = b_.getInt64Ty();
    auto fn = runtimeFn("mahou_rt_powmod", b_.getInt32Ty(), {i64, i64, i64, b_.getPtrTy()});
    llvm::Value *out = entryAlloca(i64, "powmod.out");
    llvm::Value *status = b_.CreateCall(fn, {a[0], a[1], a[2], out});
    auto *ok = newBlock("powmod.ok");
    b_.CreateCondBr(b_.CreateICmpNE(status, b_.getInt32(0)), errorExit(), ok,
                    llvm::MDBuilder(ctx()).createBranchWeights(1, 1000));
    b_.SetInsertPoint(ok);
    return b_.CreateLoad(i64, out);
  }
  case Intrinsic::Min:
  case Intrinsic::Max: {
    // Python's min/max: the first argument wins unless the second compares strictly less/greater.
    bool isMin = Intrinsic(e.sub) == Intrinsic::Min;
    llvm::Value *better = compare(isMin ? ir::CmpOp::Lt : ir::CmpOp::Gt, a[1], a[0], e.type);
    return b_.CreateSelect(better, a[1], a[0]);
  }
  case Intrinsic::NpMin:
  case Intrinsic::NpMax: {
    bool isMin = Intrinsic(e.sub) == Intrinsic::NpMin;
    if (e.type.isFloat()) return binaryLLVM(isMin ? llvm::Intrinsic::minimum : llvm::Intrinsic::maximum);
    llvm::Value *better = compare(isMin ? ir::CmpOp::Lt : ir::CmpOp::Gt, a[1], a[0], e.type);
    return b_.CreateSelect(better, a[1], a[0]);
  }
  case Intrinsic::CAbs: {
    Type rt = Type::scalar(types::realOf(argT.dtype));
    return mathCall("hypot", rt, {b_.CreateExtractValue(a[0], 0), b_.CreateExtractValue(a[0], 1)});
  }
  case Intrinsic::Real: return b_.CreateExtractValue(a[0], 0);
  case Intrinsic::Imag: return b_.CreateExtractValue(a[0], 1);
  case Intrinsic::Conj: return b_.CreateInsertValue(a[0], b_.CreateFNeg(b_.CreateExtractValue(a[0], 1)), 1);
  // Kernels (and the emulator, which runs them as kernels) compute the complex sqrt, exp
  // and log in real math (gpu_complex.cpp): the host runtime is not on the device; sema
  // types cmath's others there as calls of the library's device_cmath, and refuses the rest.
#define MAHOU_COMPLEX_FUNCTION(id, text, symbol)                                                                 \
  case Intrinsic::id:                                                                                            \
    if ((gpu() || options_.simulateGpu) &&                                                                       \
        (Intrinsic::id == Intrinsic::CSqrt || Intrinsic::id == Intrinsic::CExp || Intrinsic::id == Intrinsic::CLog)) \
      return deviceComplexMath(Intrinsic::id, a[0], e.type);                                                     \
    if ((gpu() || options_.simulateGpu) && Intrinsic::id == Intrinsic::CLog10)                                   \
      return deviceComplexLog10(a[0], e.type);                                                                   \
    return complexRuntime(#symbol, a[0], e.type);
#include "mahou/complex_functions.def"
#undef MAHOU_COMPLEX_FUNCTION
  case Intrinsic::CReciprocal: {
    // NumPy's loop: scaled by the larger part, dividing (not multiplying by 1/d), so that
    // 1/(0+0j) is nan+nanj as NumPy's.
    llvm::Value *re = b_.CreateExtractValue(a[0], 0), *im = b_.CreateExtractValue(a[0], 1);
    auto *one = llvm::ConstantFP::get(re->getType(), 1.0);
    llvm::Value *imSmaller = b_.CreateFCmpOLE(b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, im),
                                              b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, re));
    llvm::Value *r1 = b_.CreateFDiv(im, re), *d1 = b_.CreateFAdd(re, b_.CreateFMul(im, r1));
    llvm::Value *r2 = b_.CreateFDiv(re, im), *d2 = b_.CreateFAdd(b_.CreateFMul(re, r2), im);
    llvm::Value *outRe = b_.CreateSelect(imSmaller, b_.CreateFDiv(one, d1), b_.CreateFDiv(r2, d2));
    llvm::Value *outIm = b_.CreateSelect(imSmaller, b_.CreateFNeg(b_.CreateFDiv(r1, d1)), b_.CreateFNeg(b_.CreateFDiv(one, d2)));
    llvm::Value *agg = llvm::UndefValue::get(a[0]->getType());
    agg = b_.CreateInsertValue(agg, outRe, 0);
    return b_.CreateInsertValue(agg, outIm, 1);
  }
  case Intrinsic::MakeComplex: {
    llvm::Value *agg = llvm::UndefValue::get(types_.ssa(e.type));
    agg = b_.CreateInsertValue(agg, castScalar(a[0], e.args[0]->type, Type::scalar(types::realOf(e.type.dtype))), 0);
    return b_.CreateInsertValue(agg, castScalar(a[1], e.args[1]->type, Type::scalar(types::realOf(e.type.dtype))), 1);
  }
  case Intrinsic::Sign: {
    if (e.type.isInt()) {
      auto *zero = llvm::ConstantInt::get(a[0]->getType(), 0);
      // Unsigned: every nonzero value is positive (an unsigned compare).
      if (!types::isSigned(e.type.dtype)) return b_.CreateZExt(b_.CreateICmpNE(a[0], zero), a[0]->getType());
      llvm::Value *pos = b_.CreateZExt(b_.CreateICmpSGT(a[0], zero), a[0]->getType());
      llvm::Value *neg = b_.CreateZExt(b_.CreateICmpSLT(a[0], zero), a[0]->getType());
      return b_.CreateSub(pos, neg);
    }
    auto *t = a[0]->getType();
    auto *zero = llvm::ConstantFP::get(t, 0.0);
    llvm::Value *r = b_.CreateSelect(b_.CreateFCmpOGT(a[0], zero), llvm::ConstantFP::get(t, 1.0),
                                     b_.CreateSelect(b_.CreateFCmpOLT(a[0], zero), llvm::ConstantFP::get(t, -1.0), a[0]));
    return r;
  }
  }
  internalError("unhandled intrinsic");
}

} // namespace mahou::codegen
