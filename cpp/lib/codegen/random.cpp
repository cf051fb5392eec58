// Lowering of np.random draws to the runtime's per-thread generator, and of draws from
// a np.random.Generator argument to the runtime's functions over its bitgen_t.
#include "lowering.h"

namespace mahou::codegen {

llvm::Value *FunctionLowering::randomDraw(const ir::Expr &e) {
  switch (ir::RandomKind(e.sub)) {
  case ir::RandomKind::Seed:
    b_.CreateCall(runtimeFn("mahou_rt_random_seed", b_.getVoidTy(), {i64()}), {scalarExpr(*e.args[0])});
    return llvm::Constant::getNullValue(types_.ssa(Type::none()));
  case ir::RandomKind::Uniform01: return b_.CreateCall(runtimeFn("mahou_rt_random_double", b_.getDoubleTy(), {}));
  case ir::RandomKind::Normal: return b_.CreateCall(runtimeFn("mahou_rt_random_normal", b_.getDoubleTy(), {}));
  case ir::RandomKind::Integer: {
    llvm::Value *low = scalarExpr(*e.args[0]), *high = scalarExpr(*e.args[1]);
    raiseIf(b_.CreateICmpSLE(high, low), types::ExcKind::ValueError, "low >= high");
    return b_.CreateCall(runtimeFn("mahou_rt_random_int", i64(), {i64(), i64()}), {low, high});
  }
  default: break;
  }
  // A np.random.Generator: {bitgen_t *, object}; the draw takes the bitgen_t.
  llvm::Value *bitgen = b_.CreateExtractValue(expr(*e.args[0]).v, 0);
  llvm::Type *ptr = llvm::PointerType::get(b_.getContext(), 0);
  auto call = [&](const char *fn, llvm::Type *ret) { return b_.CreateCall(runtimeFn(fn, ret, {ptr}), {bitgen}); };
  switch (ir::RandomKind(e.sub)) {
  case ir::RandomKind::GenDouble: return call("mahou_rt_gen_double", b_.getDoubleTy());
  case ir::RandomKind::GenFloat: return call("mahou_rt_gen_float", b_.getFloatTy());
  case ir::RandomKind::GenNormal: return call("mahou_rt_gen_normal", b_.getDoubleTy());
  case ir::RandomKind::GenNormalF: return call("mahou_rt_gen_normal_f", b_.getFloatTy());
  case ir::RandomKind::GenExp: return call("mahou_rt_gen_exponential", b_.getDoubleTy());
  case ir::RandomKind::GenExpF: return call("mahou_rt_gen_exponential_f", b_.getFloatTy());
  case ir::RandomKind::GenBounded64:
  case ir::RandomKind::GenBounded32: {
    bool wide = ir::RandomKind(e.sub) == ir::RandomKind::GenBounded64;
    llvm::Type *word = wide ? i64() : b_.getInt32Ty();
    llvm::Value *off = scalarExpr(*e.args[1]), *rng = scalarExpr(*e.args[2]);
    return b_.CreateCall(runtimeFn(wide ? "mahou_rt_gen_bounded64" : "mahou_rt_gen_bounded32", word, {ptr, word, word}),
                         {bitgen, off, rng});
  }
  case ir::RandomKind::GenShuffle: {
    const Type &at = e.args[1]->type;
    Value arr = expr(*e.args[1]);
    b_.CreateCall(runtimeFn("mahou_rt_gen_shuffle", b_.getVoidTy(), {ptr, ptr, i64(), i64(), i64()}),
                  {bitgen, arrayData(arr.v), arrayShape(arr.v, 0), arrayStride(arr.v, 0),
                   b_.getInt64(types::dtypeBytes(at.dtype))});
    release(arr, at);
    return llvm::Constant::getNullValue(types_.ssa(Type::none()));
  }
  default: break;
  }
  internalError("unhandled random draw");
}

} // namespace mahou::codegen
