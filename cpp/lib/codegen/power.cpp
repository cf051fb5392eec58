// A float raised to an integer, as Numba computes it: repeated squaring in the
// float's own type (unrolled for a constant exponent), 1/r for a negative one; a complex
// power as Numba (a multiplication for a square, CPython's polar formula otherwise);
// a float to a float power as C's pow(), which CPython calls.
#include "lowering.h"

#include <cstdlib>

namespace mahou::codegen {

namespace {

constexpr int64_t kSquaringLimit = 0x10000; // beyond it Numba calls pow()

} // namespace

// pow(a, b) with C's result. LLVM rewrites pow of a constant power of two to exp2(n * b)
// without fast-math, which rounds n * b first (2.0**62 ** -5.04 was 70 units in the last
// place off); a variable exponent calls pow() as a `nobuiltin` library call, which LLVM
// neither rewrites nor folds. A constant exponent keeps the intrinsic: what LLVM makes of
// it then is exact (x * x for 2.0, 1 / x for -1.0, fabs(sqrt(x)) for 0.5) or C's pow()
// of two constants, folded with the host's pow(). fastmath=True allows the rewrites.
llvm::Value *FunctionLowering::floatPow(llvm::Value *a, llvm::Value *b, const Type &t) {
  if (gpu()) return mathCall("pow", t, {a, b});
  if (options_.fastmath || llvm::isa<llvm::Constant>(b)) return b_.CreateBinaryIntrinsic(llvm::Intrinsic::pow, a, b);
  if (a->getType()->isHalfTy()) // float16: computed in float32, rounded back
    return b_.CreateFPTrunc(floatPow(b_.CreateFPExt(a, b_.getFloatTy()), b_.CreateFPExt(b, b_.getFloatTy()),
                                     Type::scalar(types::DType::Float32)),
                            b_.getHalfTy());
  llvm::Type *ft = a->getType();
  auto callee = module_.getOrInsertFunction(ft->isFloatTy() ? "powf" : "pow", llvm::FunctionType::get(ft, {ft, ft}, false));
  if (auto *f = llvm::dyn_cast<llvm::Function>(callee.getCallee())) {
    f->addFnAttr(llvm::Attribute::NoUnwind);
    f->setMemoryEffects(llvm::MemoryEffects::none());
  }
  llvm::CallInst *call = b_.CreateCall(callee, {a, b});
  call->addFnAttr(llvm::Attribute::NoBuiltin);
  return call;
}

llvm::Value *FunctionLowering::floatIntPower(const ir::Expr &e) {
  const Type &t = e.type;
  llvm::Value *base = scalarExpr(*e.args[0]);
  llvm::Value *exponent = scalarExpr(*e.args[1]); // int64
  llvm::Type *ft = base->getType();
  llvm::Value *one = llvm::ConstantFP::get(ft, 1.0);
  auto invert = [&](llvm::Value *r) {
    raiseIf(b_.CreateFCmpOEQ(r, llvm::ConstantFP::get(ft, 0.0)), types::ExcKind::ZeroDivisionError,
            "0.0 cannot be raised to a negative power");
    return b_.CreateFDiv(one, r);
  };
  const ir::Expr &ex = *e.args[1];
  if (ex.op == ir::ExprOp::Const && std::llabs(ex.ival) <= kSquaringLimit) {
    // Unrolled: x**6 = (x*x) * ((x*x)*(x*x)), the multiplications Numba emits.
    uint64_t n = uint64_t(std::llabs(ex.ival));
    llvm::Value *r = nullptr, *square = base;
    for (; n != 0; n >>= 1) {
      if (n & 1) r = r ? b_.CreateFMul(r, square) : square;
      if (n > 1) square = b_.CreateFMul(square, square);
    }
    if (!r) return one;
    return ex.ival < 0 ? invert(r) : r;
  }
  // Runtime exponent: the same squaring loop, pow() past the limit.
  llvm::Value *negative = b_.CreateICmpSLT(exponent, c64(0));
  llvm::Value *magnitude = b_.CreateSelect(negative, b_.CreateNeg(exponent), exponent);
  auto *viaPow = newBlock("fpowi.pow");
  auto *squaring = newBlock("fpowi.check");
  auto *loop = newBlock("fpowi.loop");
  auto *done = newBlock("fpowi.done");
  auto *join = newBlock("fpowi.join");
  // magnitude < 0 only for INT64_MIN (unsigned compare sends it to pow()).
  b_.CreateCondBr(b_.CreateICmpUGT(magnitude, c64(kSquaringLimit)), viaPow, squaring);

  b_.SetInsertPoint(viaPow);
  llvm::Value *fexp = b_.CreateSIToFP(exponent, ft);
  llvm::Value *powed = floatPow(base, fexp, t);
  auto *powEnd = b_.GetInsertBlock();
  b_.CreateBr(join);

  b_.SetInsertPoint(squaring);
  b_.CreateCondBr(b_.CreateICmpEQ(magnitude, c64(0)), done, loop);
  b_.SetInsertPoint(loop);
  auto *r = b_.CreatePHI(ft, 2), *sq = b_.CreatePHI(ft, 2), *n = b_.CreatePHI(i64(), 2);
  r->addIncoming(one, squaring);
  sq->addIncoming(base, squaring);
  n->addIncoming(magnitude, squaring);
  llvm::Value *odd = b_.CreateICmpNE(b_.CreateAnd(n, c64(1)), c64(0));
  llvm::Value *r2 = b_.CreateSelect(odd, b_.CreateFMul(r, sq), r);
  llvm::Value *n2 = b_.CreateLShr(n, c64(1));
  llvm::Value *sq2 = b_.CreateFMul(sq, sq);
  r->addIncoming(r2, loop);
  sq->addIncoming(sq2, loop);
  n->addIncoming(n2, loop);
  b_.CreateCondBr(b_.CreateICmpEQ(n2, c64(0)), done, loop);

  b_.SetInsertPoint(done);
  auto *product = b_.CreatePHI(ft, 2);
  product->addIncoming(one, squaring);
  product->addIncoming(r2, loop);
  auto *positiveEnd = newBlock("fpowi.positive");
  auto *negativeEnd = newBlock("fpowi.negative");
  b_.CreateCondBr(negative, negativeEnd, positiveEnd);
  b_.SetInsertPoint(negativeEnd);
  llvm::Value *inverted = invert(product);
  auto *invertedEnd = b_.GetInsertBlock();
  b_.CreateBr(join);
  b_.SetInsertPoint(positiveEnd);
  b_.CreateBr(join);

  b_.SetInsertPoint(join);
  auto *result = b_.CreatePHI(ft, 3);
  result->addIncoming(powed, powEnd);
  result->addIncoming(inverted, invertedEnd);
  result->addIncoming(product, positiveEnd);
  return result;
}

} // namespace mahou::codegen

namespace mahou::codegen {

// complex ** complex as Numba: a square (b == 2+0j) is a multiplication, anything else
// CPython's algorithm in the runtime (complex128; complex64 widened around it).
llvm::Value *FunctionLowering::complexPower(llvm::Value *a, llvm::Value *b, const Type &t) {
  Type ft = Type::scalar(types::realOf(t.dtype));
  llvm::Value *br = b_.CreateExtractValue(b, 0), *bi = b_.CreateExtractValue(b, 1);
  llvm::Value *two = llvm::ConstantFP::get(br->getType(), 2.0), *zero = llvm::ConstantFP::get(br->getType(), 0.0);
  llvm::Value *square = b_.CreateAnd(b_.CreateFCmpOEQ(br, two), b_.CreateFCmpOEQ(bi, zero));
  auto *squareBlock = newBlock("cpow.square");
  auto *generalBlock = newBlock("cpow.general");
  auto *done = newBlock("cpow.done");
  b_.CreateCondBr(square, squareBlock, generalBlock);
  b_.SetInsertPoint(squareBlock);
  llvm::Value *squared = complexBinary(ir::BinaryOp::Mul, a, a, t, false);
  llvm::BasicBlock *squareEnd = b_.GetInsertBlock();
  b_.CreateBr(done);
  b_.SetInsertPoint(generalBlock);
  auto wide = [&](llvm::Value *z, unsigned i) { return castScalar(b_.CreateExtractValue(z, i), ft, Type::float64()); };
  auto *pairTy = llvm::ArrayType::get(b_.getDoubleTy(), 2);
  llvm::Value *out = entryAlloca(pairTy, "cpow.out");
  llvm::Type *d = b_.getDoubleTy();
  auto fn = runtimeFn("mahou_rt_cpow", b_.getVoidTy(), {d, d, d, d, b_.getPtrTy()});
  b_.CreateCall(fn, {wide(a, 0), wide(a, 1), wide(b, 0), wide(b, 1), out});
  llvm::Value *general = llvm::UndefValue::get(a->getType());
  for (unsigned i = 0; i < 2; ++i) {
    llvm::Value *part = b_.CreateLoad(d, b_.CreateConstInBoundsGEP2_64(pairTy, out, 0, i));
    general = b_.CreateInsertValue(general, castScalar(part, Type::float64(), ft), {i});
  }
  llvm::BasicBlock *generalEnd = b_.GetInsertBlock();
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
  llvm::PHINode *phi = b_.CreatePHI(a->getType(), 2, "cpow");
  phi->addIncoming(squared, squareEnd);
  phi->addIncoming(general, generalEnd);
  return phi;
}

} // namespace mahou::codegen
