// Lowering of hash(): numbers and None through the runtime's CPython hashes
// (runtime/hashing.cpp), strings through their cached hash, and CPython's xxHash-based
// tuple hash inline over the items' hashes that sema computed.
#include "lowering.h"

#include <llvm/IR/Intrinsics.h>

namespace mahou::codegen {

Value FunctionLowering::hashOp(const ir::Expr &e) {
  auto op = ir::ObjectOp(e.sub);
  llvm::Type *f64 = b_.getDoubleTy();
  if (op == ir::ObjectOp::HashTuple) {
    // CPython 3.8+'s tuplehash: xxHash's round over each item's hash, then the length.
    constexpr uint64_t p1 = 11400714785074694791ULL, p2 = 14029467366897019727ULL, p5 = 2870177450012600261ULL;
    llvm::Value *acc = b_.getInt64(p5);
    for (auto &a : e.args) {
      llvm::Value *lane = expr(*a).v;
      acc = b_.CreateAdd(acc, b_.CreateMul(lane, b_.getInt64(p2)));
      acc = b_.CreateIntrinsic(llvm::Intrinsic::fshl, {i64()}, {acc, acc, b_.getInt64(31)}); // rotate left 31
      acc = b_.CreateMul(acc, b_.getInt64(p1));
    }
    acc = b_.CreateAdd(acc, b_.getInt64(uint64_t(e.args.size()) ^ (p5 ^ 3527539ULL)));
    return {b_.CreateSelect(b_.CreateICmpEQ(acc, b_.getInt64(uint64_t(-1))), b_.getInt64(1546275796), acc), false};
  }
  if (op == ir::ObjectOp::HashFinish) {
    llvm::Value *h = expr(*e.args[0]).v;
    return {b_.CreateSelect(b_.CreateICmpEQ(h, b_.getInt64(uint64_t(-1))), b_.getInt64(uint64_t(-2)), h), false};
  }
  const Type &t = e.args[0]->type;
  Value x = expr(*e.args[0]);
  llvm::Value *h = nullptr;
  if (t.isUnicode()) {
    h = b_.CreateCall(runtimeFn("mahou_rt_str_hash", i64(), {b_.getPtrTy()}), {x.v});
  } else if (t.isNone()) {
    h = b_.CreateCall(runtimeFn("mahou_rt_hash_none", i64(), {}), {});
  } else if (t.isBool()) {
    h = b_.CreateZExt(x.v, i64()); // hash(True) == 1
  } else if (t.isInt()) {
    bool sgn = types::isSigned(t.dtype);
    llvm::Value *v = castScalar(x.v, t, Type::scalar(sgn ? types::DType::Int64 : types::DType::UInt64));
    h = b_.CreateCall(runtimeFn(sgn ? "mahou_rt_hash_int" : "mahou_rt_hash_uint", i64(), {i64()}), {v});
  } else if (t.isComplex()) {
    Type part = Type::scalar(types::realOf(t.dtype));
    llvm::Value *re = castScalar(b_.CreateExtractValue(x.v, 0), part, Type::float64());
    llvm::Value *im = castScalar(b_.CreateExtractValue(x.v, 1), part, Type::float64());
    h = b_.CreateCall(runtimeFn("mahou_rt_hash_complex", i64(), {f64, f64}), {re, im});
  } else if (t.isFloat()) {
    h = b_.CreateCall(runtimeFn("mahou_rt_hash_float", i64(), {f64}), {castScalar(x.v, t, Type::float64())});
  } else {
    internalError("hash of " + t.str() + " not lowered");
  }
  release(x, t);
  return {h, false};
}

} // namespace mahou::codegen
