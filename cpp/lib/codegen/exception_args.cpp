// Lowering of `raise E(args...)` with run-time arguments: the arguments are evaluated
// in order, then packed into the pending error one runtime call each (runtime/
// exception_args.cpp); the function then leaves through its error exit.
#include "lowering.h"

#include "mahou/exception_args.h"

namespace mahou::codegen {

void FunctionLowering::raiseWithArgs(const ir::Stmt &s) {
  if (gpu()) { // kernels stop the thread's work; there is no host error state on the device
    raise(s.exc, "");
    return;
  }
  std::vector<Value> values;
  for (auto &e : s.exprs) values.push_back(expr(*e));
  auto *i32 = b_.getInt32Ty();
  b_.CreateCall(runtimeFn("mahou_rt_error_begin", b_.getVoidTy(), {i32}), {b_.getInt32(uint32_t(s.exc))});
  auto scalar = runtimeFn("mahou_rt_error_arg_scalar", b_.getVoidTy(), {i32, i64()});
  for (size_t i = 0; i < values.size(); ++i) {
    const Type &t = s.exprs[i]->type;
    llvm::Value *v = values[i].v;
    if (t.isNone()) {
      b_.CreateCall(scalar, {b_.getInt32(MAHOU_ERRARG_NONE), c64(0)});
    } else if (t.isBool()) {
      b_.CreateCall(scalar, {b_.getInt32(MAHOU_ERRARG_BOOL), b_.CreateZExt(v, i64())});
    } else if (t.isInt()) {
      bool sign = types::isSigned(t.dtype);
      llvm::Value *wide = sign ? b_.CreateSExt(v, i64()) : b_.CreateZExt(v, i64());
      b_.CreateCall(scalar, {b_.getInt32(sign || types::dtypeBytes(t.dtype) < 8 ? MAHOU_ERRARG_INT : MAHOU_ERRARG_UINT), wide});
    } else if (t.isFloat()) {
      llvm::Value *d = t.dtype == types::DType::Float64 ? v : b_.CreateFPExt(v, b_.getDoubleTy());
      b_.CreateCall(runtimeFn("mahou_rt_error_arg_float", b_.getVoidTy(), {b_.getDoubleTy()}), {d});
    } else if (t.isUnicode()) {
      b_.CreateCall(runtimeFn("mahou_rt_error_arg_str", b_.getVoidTy(), {b_.getPtrTy()}), {v});
    } else {
      internalError("an exception argument of type " + t.str());
    }
    release(values[i], t);
  }
  b_.CreateBr(errorBlock_);
  startDeadBlock();
}

} // namespace mahou::codegen
