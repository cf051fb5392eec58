// Lowering of np.random draws to the runtime's per-thread generator.
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
  }
  internalError("unhandled random draw");
}

} // namespace mahou::codegen
