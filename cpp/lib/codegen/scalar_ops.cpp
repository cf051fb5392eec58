// Lowering of scalar expressions: constants, conversions, arithmetic with Python
// semantics (floor division and modulo signs, division by zero), comparisons,
// truth values and math intrinsics.
#include "lowering.h"

#include <llvm/IR/Intrinsics.h>

#include <cmath>

namespace mahou::codegen {

using ir::BinaryOp;
using types::DType;

Value FunctionLowering::expr(const ir::Expr &e) {
  switch (e.op) {
  case ir::ExprOp::Const: return {constant(e), false};
  case ir::ExprOp::LoadVar: return {b_.CreateLoad(slots_[e.var]->getAllocatedType(), slots_[e.var]), false};
  case ir::ExprOp::Cast: return cast(e);
  case ir::ExprOp::Binary: return {binary(e), false};
  case ir::ExprOp::Unary: return {unary(e), false};
  case ir::ExprOp::Datetime: return {datetimeOp(e), false};
  case ir::ExprOp::Compare: {
    if (llvm::Value *v = remainderIsZero(e)) return {v, false};
    llvm::Value *lhs = scalarExpr(*e.args[0]); // Python's order: left operand first
    llvm::Value *rhs = scalarExpr(*e.args[1]);
    return {compare(ir::CmpOp(e.sub), lhs, rhs, e.args[0]->type), false};
  }
  case ir::ExprOp::Truth: return {truth(scalarExpr(*e.args[0]), e.args[0]->type), false};
  case ir::ExprOp::Select: return select(e);
  case ir::ExprOp::ShortCircuit: return shortCircuit(e);
  case ir::ExprOp::Call: return call(e);
  case ir::ExprOp::Intrinsic: return {intrinsic(e), false};
  case ir::ExprOp::TupleMake: return tupleMake(e);
  case ir::ExprOp::TupleGet: return tupleGet(e);
  case ir::ExprOp::ArrayItem: return {arrayItem(e), false};
  case ir::ExprOp::ArrayView: return arrayView(e);
  case ir::ExprOp::ArrayShape:
  case ir::ExprOp::ArrayStride: {
    Value a = expr(*e.args[0]);
    llvm::Value *v = e.op == ir::ExprOp::ArrayShape ? arrayShape(a.v, int(e.ival)) : arrayStride(a.v, int(e.ival));
    release(a, e.args[0]->type);
    return {v, false};
  }
  case ir::ExprOp::ArraySize: return {arraySize(e), false};
  case ir::ExprOp::ArrayAlloc: return arrayAlloc(e);
  case ir::ExprOp::ArrayArange: return arrayArange(e);
  case ir::ExprOp::ArrayCopy: return arrayCopy(e);
  case ir::ExprOp::Transpose: return transpose(e);
  case ir::ExprOp::ArrayStrided: return stridedView(e);
  case ir::ExprOp::GpuOp: return gpuOp(e);
  case ir::ExprOp::TupleIndex: case ir::ExprOp::TupleSlice: case ir::ExprOp::TupleConcat: case ir::ExprOp::ExcMatch: return languageExpr(e);
  case ir::ExprOp::ArrayMap: return arrayMap(e);
  case ir::ExprOp::MapInput: return {mapFrames_.back()[e.ival], false};
  case ir::ExprOp::ParallelPartial: return parallelPartial(e);
  case ir::ExprOp::ArrayReduce: return arrayReduce(e);
  case ir::ExprOp::ArrayReshape: return arrayReshape(e);
  case ir::ExprOp::ArrayDot: return arrayDot(e);
  case ir::ExprOp::ArrayLinspace: return arrayLinspace(e);
  case ir::ExprOp::ArrayEye: return arrayEye(e);
  case ir::ExprOp::ArrayFromPointer: return {arrayFromPointer(e), false};
  case ir::ExprOp::CallNative: return {callNative(e), false};
  case ir::ExprOp::CallForeign: return {callForeign(e), false};
  case ir::ExprOp::ObjModeCall: return objModeCall(e);
  case ir::ExprOp::ArrayConst: return {arrayConst(e), false};
  case ir::ExprOp::ArrayLiteral: return arrayLiteral(e);
  case ir::ExprOp::Random: return {randomDraw(e), false};
  case ir::ExprOp::ArrayGather: return arrayGather(e);
  case ir::ExprOp::ArrayFancyGet: return arrayFancyGet(e);
  case ir::ExprOp::ArrayFlatItem: return {arrayFlatItem(e), false};
  case ir::ExprOp::ArraySort: return arraySort(e);
  case ir::ExprOp::ArraySearch: return {arraySearch(e), false};
  case ir::ExprOp::ArrayBincount: return arrayBincount(e);
  case ir::ExprOp::ArrayHistogram: return arrayHistogram(e);
  case ir::ExprOp::ArrayJoin: return arrayJoin(e);
  case ir::ExprOp::Let: assign(e.var, *e.args[0]); return expr(*e.args[1]);
  case ir::ExprOp::Object: return objectOp(e);
  case ir::ExprOp::GenNext: return genNext(e);
  case ir::ExprOp::Seq: return seq(e);
  }
  internalError("unhandled IR expression");
}

llvm::Value *FunctionLowering::constant(const ir::Expr &e) {
  const Type &t = e.type;
  switch (t.kind) {
  case types::Kind::Scalar:
    if (t.isBool()) return b_.getInt1(e.ival != 0);
    if (t.isInt()) return llvm::ConstantInt::get(types_.scalar(t.dtype), uint64_t(e.ival), types::isSigned(t.dtype));
    if (t.isDatetimeLike()) return b_.getInt64(uint64_t(e.ival)); // the count of its unit
    if (t.isFloat()) return llvm::ConstantFP::get(types_.scalar(t.dtype), e.fval);
    {
      auto *ft = t.dtype == DType::Complex64 ? b_.getFloatTy() : b_.getDoubleTy();
      auto *st = llvm::cast<llvm::StructType>(types_.scalar(t.dtype));
      return llvm::ConstantStruct::get(st, {llvm::ConstantFP::get(ft, e.fval), llvm::ConstantFP::get(ft, e.fval2)});
    }
  case types::Kind::None: case types::Kind::Function: case types::Kind::DTypeObj: case types::Kind::ClassRef:
    return llvm::Constant::getNullValue(types_.ssa(t));
  // An object constant is the null object: an absent optional argument of a runtime call.
  case types::Kind::List: case types::Kind::Dict: case types::Kind::Set: case types::Kind::Unicode:
  case types::Kind::Instance:
    return llvm::ConstantPointerNull::get(b_.getPtrTy());
  case types::Kind::Str: return stringConstant(e.symbol);
  case types::Kind::EnumMember: // its value
    if (t.elems[0].isInt()) return llvm::ConstantInt::get(types_.scalar(t.elems[0].dtype), uint64_t(e.ival), true);
    return llvm::ConstantFP::get(types_.scalar(t.elems[0].dtype), e.fval);
  default: internalError("constant of type " + t.str() + " reached codegen");
  }
}

llvm::Value *FunctionLowering::castScalar(llvm::Value *v, const Type &from, const Type &to) {
  if (from == to) return v;
  if (from.isDatetimeLike() || to.isDatetimeLike()) return datetimeCast(v, from, to);
  DType f = from.dtype, t = to.dtype;
  llvm::Type *lt = types_.scalar(t);
  if (to.isBool()) return truth(v, from);
  if (from.isComplex()) {
    Type fr = Type::scalar(types::realOf(f)), tr = Type::scalar(types::realOf(t));
    // To a real type (a.astype(np.float64) of complex numbers, sema allows no implicit
    // one): the real part, the imaginary part discarded as NumPy does.
    if (!to.isComplex()) return castScalar(b_.CreateExtractValue(v, 0), fr, to);
    llvm::Value *agg = llvm::UndefValue::get(lt);
    agg = b_.CreateInsertValue(agg, castScalar(b_.CreateExtractValue(v, 0), fr, tr), 0);
    return b_.CreateInsertValue(agg, castScalar(b_.CreateExtractValue(v, 1), fr, tr), 1);
  }
  if (to.isComplex()) {
    Type tr = Type::scalar(types::realOf(t));
    llvm::Value *re = castScalar(v, from, tr);
    llvm::Value *agg = llvm::UndefValue::get(lt);
    agg = b_.CreateInsertValue(agg, re, 0);
    return b_.CreateInsertValue(agg, llvm::ConstantFP::get(re->getType(), 0.0), 1);
  }
  bool fromInt = from.isInt() || from.isBool();
  bool fromSigned = from.isInt() && types::isSigned(f);
  if (fromInt && to.isInt()) return b_.CreateIntCast(v, lt, fromSigned);
  if (fromInt && to.isFloat()) return fromSigned ? b_.CreateSIToFP(v, lt) : b_.CreateUIToFP(v, lt);
  if (from.isFloat() && to.isFloat()) return b_.CreateFPCast(v, lt);
  if (from.isFloat() && to.isInt()) // NumPy's conversion on x86-64 hosts; saturating on GPUs
    return floatToInt(b_, v, t, !gpu() && !options_.simulateGpu && hostIsX86());
  internalError("unsupported scalar cast " + from.str() + " -> " + to.str());
}

Value FunctionLowering::cast(const ir::Expr &e) {
  const Type &from = e.args[0]->type, &to = e.type;
  Value v = expr(*e.args[0]);
  if (to.isEnumMember()) return v; // an enum member and its value: one representation
  if (from.isEnumMember())
    return to == from.elems[0] ? v : Value{castScalar(v.v, from.elems[0], to), false};
  if (to.isOptional() || from.isOptional() || to.isUnicode() || to.isList() || from.isTuple()) return castObject(e, v);
  if (from.isNumber() || from.isDatetimeLike()) return {castScalar(v.v, from, to), false};
  if (from.isArray()) return v; // layout relaxation: same representation
  if (from.isTuple()) {
    llvm::Value *agg = llvm::UndefValue::get(types_.mem(to));
    for (unsigned i = 0; i < from.elems.size(); ++i) {
      llvm::Value *x = fromMem(b_.CreateExtractValue(v.v, {i}), from.elems[i]);
      if (from.elems[i].isNumber()) x = castScalar(x, from.elems[i], to.elems[i]);
      agg = b_.CreateInsertValue(agg, toMem(x, to.elems[i]), {i});
    }
    return {agg, v.owned};
  }
  internalError("cast of " + from.str());
}

llvm::Value *FunctionLowering::intBinary(BinaryOp op, llvm::Value *a, llvm::Value *b, const Type &t, bool raising) {
  bool sgn = types::isSigned(t.dtype);
  llvm::Type *lt = a->getType();
  auto zero = llvm::ConstantInt::get(lt, 0);
  switch (op) {
  case BinaryOp::Add: return b_.CreateAdd(a, b);
  case BinaryOp::Sub: return b_.CreateSub(a, b);
  case BinaryOp::Mul: return b_.CreateMul(a, b);
  case BinaryOp::BitAnd: return b_.CreateAnd(a, b);
  case BinaryOp::BitOr: return b_.CreateOr(a, b);
  case BinaryOp::BitXor: return b_.CreateXor(a, b);
  case BinaryOp::FloorDiv:
  case BinaryOp::Mod: {
    // NumPy's semantics (not raising): a zero divisor gives 0.
    llvm::Value *byZero = b_.CreateICmpEQ(b, zero);
    if (raising)
      raiseIf(byZero, types::ExcKind::ZeroDivisionError,
              op == BinaryOp::Mod ? "integer modulo by zero" : "integer division or modulo by zero"); // CPython's
    else b = b_.CreateSelect(byZero, llvm::ConstantInt::get(lt, 1), b);
    auto zeroIfByZero = [&](llvm::Value *r) { return raising ? r : b_.CreateSelect(byZero, zero, r); };
    if (!sgn) return zeroIfByZero(op == BinaryOp::FloorDiv ? b_.CreateUDiv(a, b) : b_.CreateURem(a, b));
    // b == -1 would trap on INT_MIN / -1: use 1 as divisor then negate / zero.
    auto *minusOne = b_.CreateICmpEQ(b, llvm::ConstantInt::get(lt, -1, true));
    auto *safeB = b_.CreateSelect(minusOne, llvm::ConstantInt::get(lt, 1), b);
    llvm::Value *q = b_.CreateSDiv(a, safeB);
    llvm::Value *r = b_.CreateSRem(a, safeB);
    // Python: the remainder takes the divisor's sign.
    auto *adjust = b_.CreateAnd(b_.CreateICmpNE(r, zero), b_.CreateICmpSLT(b_.CreateXor(r, safeB), zero));
    if (op == BinaryOp::FloorDiv) {
      q = b_.CreateSelect(adjust, b_.CreateSub(q, llvm::ConstantInt::get(lt, 1)), q);
      return zeroIfByZero(b_.CreateSelect(minusOne, b_.CreateNeg(a), q));
    }
    r = b_.CreateSelect(adjust, b_.CreateAdd(r, safeB), r);
    return zeroIfByZero(b_.CreateSelect(minusOne, zero, r));
  }
  case BinaryOp::Shl:
  case BinaryOp::Shr: {
    unsigned bits = lt->getIntegerBitWidth();
    // Python raises for a negative count; NumPy's loops shift it as a huge one (0, or -1
    // for a negative value shifted right), as past the width.
    if (sgn && raising) raiseIf(b_.CreateICmpSLT(b, zero), types::ExcKind::ValueError, "negative shift count");
    auto *big = b_.CreateICmpUGE(b, llvm::ConstantInt::get(lt, bits));
    if (op == BinaryOp::Shl) return b_.CreateSelect(big, zero, b_.CreateShl(a, b));
    if (sgn) return b_.CreateAShr(a, b_.CreateSelect(big, llvm::ConstantInt::get(lt, bits - 1), b));
    return b_.CreateSelect(big, zero, b_.CreateLShr(a, b));
  }
  case BinaryOp::Pow: {
    // Exponentiation by squaring; a negative exponent gives 0 unless |a| == 1 (as an
    // integer result must).
    auto *pre = b_.GetInsertBlock();
    auto *loop = newBlock("ipow.loop");
    auto *done = newBlock("ipow.done");
    auto *one = llvm::ConstantInt::get(lt, 1);
    llvm::Value *neg = sgn ? b_.CreateICmpSLT(b, zero) : b_.getFalse();
    llvm::Value *e0 = b_.CreateSelect(neg, zero, b);
    b_.CreateCondBr(b_.CreateICmpEQ(e0, zero), done, loop);
    b_.SetInsertPoint(loop);
    auto *res = b_.CreatePHI(lt, 2), *base = b_.CreatePHI(lt, 2), *ex = b_.CreatePHI(lt, 2);
    res->addIncoming(one, pre);
    base->addIncoming(a, pre);
    ex->addIncoming(e0, pre);
    auto *odd = b_.CreateICmpNE(b_.CreateAnd(ex, one), zero);
    auto *res2 = b_.CreateSelect(odd, b_.CreateMul(res, base), res);
    auto *ex2 = b_.CreateLShr(ex, one);
    auto *base2 = b_.CreateMul(base, base);
    res->addIncoming(res2, loop);
    base->addIncoming(base2, loop);
    ex->addIncoming(ex2, loop);
    b_.CreateCondBr(b_.CreateICmpEQ(ex2, zero), done, loop);
    b_.SetInsertPoint(done);
    auto *out = b_.CreatePHI(lt, 2);
    out->addIncoming(one, pre);
    out->addIncoming(res2, loop);
    if (!sgn) return out;
    if (raising)
      raiseIf(b_.CreateAnd(neg, b_.CreateICmpEQ(a, zero)), types::ExcKind::ZeroDivisionError,
            "0.0 cannot be raised to a negative power"); // CPython's (int ** negative is a float there)
    // negative exponent: 1 → 1, -1 → ±1, otherwise 0
    auto *isOne = b_.CreateICmpEQ(a, one);
    auto *isMinusOne = b_.CreateICmpEQ(a, llvm::ConstantInt::get(lt, -1, true));
    auto *oddExp = b_.CreateICmpNE(b_.CreateAnd(b, one), zero);
    llvm::Value *negResult = b_.CreateSelect(
        isOne, one, b_.CreateSelect(isMinusOne, b_.CreateSelect(oddExp, llvm::ConstantInt::get(lt, -1, true), one), zero));
    return b_.CreateSelect(neg, negResult, out);
  }
  case BinaryOp::TrueDiv: break;
  }
  internalError("integer true division reached codegen");
}

llvm::Value *FunctionLowering::floatBinary(BinaryOp op, llvm::Value *a, llvm::Value *b, const Type &t, bool raising) {
  llvm::Type *lt = a->getType();
  auto zero = llvm::ConstantFP::get(lt, 0.0);
  switch (op) {
  case BinaryOp::Add: return b_.CreateFAdd(a, b);
  case BinaryOp::Sub: return b_.CreateFSub(a, b);
  case BinaryOp::Mul: return b_.CreateFMul(a, b);
  case BinaryOp::TrueDiv: // int / int: 'division by zero'; a float operand: 'float division by zero'
    if (raising)
      raiseIf(b_.CreateFCmpOEQ(b, zero), types::ExcKind::ZeroDivisionError,
              divisionKind_ == 2 ? "float division by zero" : "division by zero");
    return b_.CreateFDiv(a, b);
  case BinaryOp::Pow: return floatPow(a, b, t);
  case BinaryOp::FloorDiv:
  case BinaryOp::Mod: {
    if (raising)
      raiseIf(b_.CreateFCmpOEQ(b, zero), types::ExcKind::ZeroDivisionError,
              divisionKind_ == 3        ? "float divmod()"
              : op == BinaryOp::Mod     ? "float modulo"
                                        : "float floor division by zero");
    // CPython's float_divmod.
    llvm::Value *mod = b_.CreateFRem(a, b);
    llvm::Value *div = b_.CreateFDiv(b_.CreateFSub(a, mod), b);
    auto *modNonZero = b_.CreateFCmpUNE(mod, zero);
    auto *signsDiffer = b_.CreateICmpNE(b_.CreateFCmpOLT(b, zero), b_.CreateFCmpOLT(mod, zero));
    auto *fix = b_.CreateAnd(modNonZero, signsDiffer);
    llvm::Value *modFixed = b_.CreateSelect(fix, b_.CreateFAdd(mod, b), mod);
    llvm::Value *divFixed = b_.CreateSelect(fix, b_.CreateFSub(div, llvm::ConstantFP::get(lt, 1.0)), div);
    if (op == BinaryOp::Mod) {
      // A zero remainder takes the divisor's sign.
      llvm::Value *signedZero = b_.CreateIntrinsic(llvm::Intrinsic::copysign, {lt}, {zero, b});
      return b_.CreateSelect(modNonZero, modFixed, signedZero);
    }
    llvm::Value *floorDiv = b_.CreateUnaryIntrinsic(llvm::Intrinsic::floor, divFixed);
    auto *roundUp = b_.CreateFCmpOGT(b_.CreateFSub(divFixed, floorDiv), llvm::ConstantFP::get(lt, 0.5));
    floorDiv = b_.CreateSelect(roundUp, b_.CreateFAdd(floorDiv, llvm::ConstantFP::get(lt, 1.0)), floorDiv);
    llvm::Value *quotient = b_.CreateFDiv(a, b);
    llvm::Value *zeroDiv = b_.CreateIntrinsic(llvm::Intrinsic::copysign, {lt}, {zero, quotient});
    llvm::Value *r = b_.CreateSelect(b_.CreateFCmpUNE(divFixed, zero), floorDiv, zeroDiv);
    // NumPy: a floor division by zero is the true quotient (±inf or nan); a remainder nan.
    return raising ? r : b_.CreateSelect(b_.CreateFCmpOEQ(b, zero), quotient, r);
  }
  default: break;
  }
  internalError("bitwise operator on floats reached codegen");
}

// Smith's method, scaled by the larger part of the divisor (no overflow of |b|^2). Python
// semantics divide by the scaled denominator (CPython's _Py_c_quot, as Numba's scalars);
// NumPy's loops multiply by its reciprocal (as Numba's array code), and a zero divisor
// gives NumPy's infinities and NaNs. The two differ in the last bit.
void FunctionLowering::complexDivide(llvm::Value *ar, llvm::Value *ai, llvm::Value *br, llvm::Value *bi, bool python,
                                     llvm::Value *&re, llvm::Value *&im) {
  llvm::Type *ft = ar->getType();
  auto one = llvm::ConstantFP::get(ft, 1.0);
  llvm::Value *absR = b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, br);
  llvm::Value *absI = b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, bi);
  // |br| >= |bi| (false when either is NaN: the other branch, as in both libraries)
  llvm::Value *realLarger = b_.CreateFCmpOGE(absR, absI);
  // realLarger: ratio = bi / br, denom = br + bi * ratio; re = ar + ai * ratio, im = ai - ar * ratio
  llvm::Value *ratio1 = b_.CreateFDiv(bi, br);
  llvm::Value *denom1 = b_.CreateFAdd(br, b_.CreateFMul(bi, ratio1));
  llvm::Value *re1 = b_.CreateFAdd(ar, b_.CreateFMul(ai, ratio1));
  llvm::Value *im1 = b_.CreateFSub(ai, b_.CreateFMul(ar, ratio1));
  // otherwise: ratio = br / bi, denom = br * ratio + bi; re = ar * ratio + ai, im = ai * ratio - ar
  llvm::Value *ratio2 = b_.CreateFDiv(br, bi);
  llvm::Value *denom2 = python ? b_.CreateFAdd(b_.CreateFMul(br, ratio2), bi) : b_.CreateFAdd(bi, b_.CreateFMul(br, ratio2));
  llvm::Value *re2 = b_.CreateFAdd(b_.CreateFMul(ar, ratio2), ai);
  llvm::Value *im2 = b_.CreateFSub(b_.CreateFMul(ai, ratio2), ar);
  llvm::Value *denom = b_.CreateSelect(realLarger, denom1, denom2);
  llvm::Value *nr = b_.CreateSelect(realLarger, re1, re2);
  llvm::Value *ni = b_.CreateSelect(realLarger, im1, im2);
  if (python) {
    re = b_.CreateFDiv(nr, denom);
    im = b_.CreateFDiv(ni, denom);
    return;
  }
  llvm::Value *scale = b_.CreateFDiv(one, denom);
  re = b_.CreateFMul(nr, scale);
  im = b_.CreateFMul(ni, scale);
  // NumPy: a zero divisor divides each part by |br| (0): infinities or NaNs.
  auto zero = llvm::ConstantFP::get(ft, 0.0);
  llvm::Value *zeroDivisor = b_.CreateAnd(b_.CreateFCmpOEQ(absR, zero), b_.CreateFCmpOEQ(absI, zero));
  re = b_.CreateSelect(zeroDivisor, b_.CreateFDiv(ar, absR), re);
  im = b_.CreateSelect(zeroDivisor, b_.CreateFDiv(ai, absR), im);
}

llvm::Value *FunctionLowering::complexBinary(BinaryOp op, llvm::Value *a, llvm::Value *b, const Type &t, bool raising) {
  llvm::Value *ar = b_.CreateExtractValue(a, 0), *ai = b_.CreateExtractValue(a, 1);
  llvm::Value *br = b_.CreateExtractValue(b, 0), *bi = b_.CreateExtractValue(b, 1);
  llvm::Value *re = nullptr, *im = nullptr;
  switch (op) {
  case BinaryOp::Add: re = b_.CreateFAdd(ar, br); im = b_.CreateFAdd(ai, bi); break;
  case BinaryOp::Sub: re = b_.CreateFSub(ar, br); im = b_.CreateFSub(ai, bi); break;
  case BinaryOp::Mul:
    re = b_.CreateFSub(b_.CreateFMul(ar, br), b_.CreateFMul(ai, bi));
    im = b_.CreateFAdd(b_.CreateFMul(ar, bi), b_.CreateFMul(ai, br));
    break;
  case BinaryOp::TrueDiv: {
    auto zero = llvm::ConstantFP::get(ar->getType(), 0.0);
    if (raising)
      raiseIf(b_.CreateAnd(b_.CreateFCmpOEQ(br, zero), b_.CreateFCmpOEQ(bi, zero)), types::ExcKind::ZeroDivisionError,
              "complex division by zero");
    complexDivide(ar, ai, br, bi, raising, re, im);
    break;
  }
  case BinaryOp::Pow: return complexPower(a, b, t);
  default: internalError("unsupported complex operator");
  }
  llvm::Value *agg = llvm::UndefValue::get(a->getType());
  agg = b_.CreateInsertValue(agg, re, 0);
  return b_.CreateInsertValue(agg, im, 1);
}

llvm::Value *FunctionLowering::binary(const ir::Expr &e) {
  if (BinaryOp(e.sub) == BinaryOp::Pow && e.type.isFloat() && e.args[1]->type.isInt()) return floatIntPower(e);
  llvm::Value *a = scalarExpr(*e.args[0]);
  llvm::Value *b = scalarExpr(*e.args[1]);
  BinaryOp op = BinaryOp(e.sub);
  const Type &t = e.type;
  // ival 1 (ir_ops.def) or error_model='numpy' for the whole function: NumPy's division semantics.
  bool raising = e.ival != 1 && !options_.numpyErrors;
  divisionKind_ = e.ival;
  if (t.isComplex()) return complexBinary(op, a, b, t, raising);
  if (t.isFloat()) return floatBinary(op, a, b, t, raising);
  if (t.isBool()) {
    switch (op) {
    case BinaryOp::BitAnd: return b_.CreateAnd(a, b);
    case BinaryOp::BitOr: return b_.CreateOr(a, b);
    case BinaryOp::BitXor: return b_.CreateXor(a, b);
    default: internalError("arithmetic on bool reached codegen");
    }
  }
  return intBinary(op, a, b, t, raising);
}

// `a % b == 0` (or `!=`) of signed integers: Python's remainder takes the divisor's sign,
// but it is zero exactly when C's is, so the sign fix-up (which LLVM keeps) is skipped.
// The zero divisor raises (or, under NumPy's error model, gives 0: true) as `%` does; a
// divisor of -1 leaves no remainder (and must not reach srem with INT_MIN). Null when the
// comparison is not of that form.
llvm::Value *FunctionLowering::remainderIsZero(const ir::Expr &e) {
  auto op = ir::CmpOp(e.sub);
  if (op != ir::CmpOp::Eq && op != ir::CmpOp::Ne) return nullptr;
  const ir::Expr &m = *e.args[0], &z = *e.args[1];
  if (m.op != ir::ExprOp::Binary || BinaryOp(m.sub) != BinaryOp::Mod || !m.type.isInt() ||
      !types::isSigned(m.type.dtype) || z.op != ir::ExprOp::Const || !z.type.isInt() || z.ival != 0 ||
      m.args[0]->type != m.type || m.args[1]->type != m.type || z.type != m.type)
    return nullptr;
  llvm::Value *a = scalarExpr(*m.args[0]);
  llvm::Value *b = scalarExpr(*m.args[1]);
  llvm::Type *lt = a->getType();
  auto zero = llvm::ConstantInt::get(lt, 0);
  bool raising = m.ival != 1 && !options_.numpyErrors;
  divisionKind_ = m.ival;
  llvm::Value *byZero = b_.CreateICmpEQ(b, zero);
  if (raising) raiseIf(byZero, types::ExcKind::ZeroDivisionError, "integer modulo by zero");
  // b == 0 (NumPy's model: remainder 0) and b == -1 divide by 1 instead
  auto *special = b_.CreateOr(byZero, b_.CreateICmpEQ(b, llvm::ConstantInt::get(lt, -1, true)));
  llvm::Value *r = b_.CreateSRem(a, b_.CreateSelect(special, llvm::ConstantInt::get(lt, 1), b));
  return op == ir::CmpOp::Eq ? b_.CreateICmpEQ(r, zero) : b_.CreateICmpNE(r, zero);
}

llvm::Value *FunctionLowering::unary(const ir::Expr &e) {
  llvm::Value *v = scalarExpr(*e.args[0]);
  const Type &t = e.type;
  switch (ir::UnaryOp(e.sub)) {
  case ir::UnaryOp::Not: return b_.CreateNot(v);
  case ir::UnaryOp::Invert: return b_.CreateNot(v);
  case ir::UnaryOp::Neg:
    if (t.isInt()) return b_.CreateNeg(v);
    if (t.isFloat()) return b_.CreateFNeg(v);
    {
      llvm::Value *agg = llvm::UndefValue::get(v->getType());
      agg = b_.CreateInsertValue(agg, b_.CreateFNeg(b_.CreateExtractValue(v, 0)), 0);
      return b_.CreateInsertValue(agg, b_.CreateFNeg(b_.CreateExtractValue(v, 1)), 1);
    }
  }
  internalError("unhandled unary operator");
}

llvm::Value *FunctionLowering::compare(ir::CmpOp op, llvm::Value *a, llvm::Value *b, const Type &t) {
  using P = llvm::CmpInst::Predicate;
  if (t.isDatetimeLike()) return datetimeCompare(op, a, b);
  if (t.isComplex()) {
    llvm::Value *re = compare(op, b_.CreateExtractValue(a, 0), b_.CreateExtractValue(b, 0), Type::scalar(types::realOf(t.dtype)));
    llvm::Value *im = compare(op, b_.CreateExtractValue(a, 1), b_.CreateExtractValue(b, 1), Type::scalar(types::realOf(t.dtype)));
    return op == ir::CmpOp::Eq ? b_.CreateAnd(re, im) : b_.CreateOr(re, im);
  }
  if (t.isFloat()) {
    static const P preds[] = {P::FCMP_OEQ, P::FCMP_UNE, P::FCMP_OLT, P::FCMP_OLE, P::FCMP_OGT, P::FCMP_OGE};
    return b_.CreateFCmp(preds[int(op)], a, b);
  }
  bool sgn = t.isInt() && types::isSigned(t.dtype);
  static const P spreds[] = {P::ICMP_EQ, P::ICMP_NE, P::ICMP_SLT, P::ICMP_SLE, P::ICMP_SGT, P::ICMP_SGE};
  static const P upreds[] = {P::ICMP_EQ, P::ICMP_NE, P::ICMP_ULT, P::ICMP_ULE, P::ICMP_UGT, P::ICMP_UGE};
  return b_.CreateICmp(sgn ? spreds[int(op)] : upreds[int(op)], a, b);
}

llvm::Value *FunctionLowering::truth(llvm::Value *v, const Type &t) {
  if (t.isBool()) return v;
  if (t.isInt() || t.isDatetimeLike()) return b_.CreateICmpNE(v, llvm::ConstantInt::get(v->getType(), 0));
  if (t.isFloat()) return b_.CreateFCmpUNE(v, llvm::ConstantFP::get(v->getType(), 0.0));
  if (t.isComplex()) {
    auto *re = b_.CreateExtractValue(v, 0), *im = b_.CreateExtractValue(v, 1);
    auto zero = llvm::ConstantFP::get(re->getType(), 0.0);
    return b_.CreateOr(b_.CreateFCmpUNE(re, zero), b_.CreateFCmpUNE(im, zero));
  }
  internalError("truth of " + t.str());
}

} // namespace mahou::codegen
