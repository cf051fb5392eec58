// `with objmode(...)` blocks (ObjModeCall): the inputs, a tuple whose references the
// runtime passes on to the interpreter, go to mahou_rt_objmode_call on the stack with
// the block's handle; its outputs come back in a stack slot, owned.
#include "lowering.h"

namespace mahou::codegen {

Value FunctionLowering::objModeCall(const ir::Expr &e) {
  const Type &inputsType = e.args[0]->type;
  llvm::Value *inputs = own(expr(*e.args[0]), inputsType);
  llvm::Value *inSlot = entryAlloca(types_.mem(inputsType), "objmode.in");
  b_.CreateStore(toMem(inputs, inputsType), inSlot);
  llvm::Type *ptr = b_.getPtrTy();
  llvm::Value *outSlot = e.type.isNone() ? llvm::ConstantPointerNull::get(b_.getPtrTy())
                                         : entryAlloca(types_.mem(e.type), "objmode.out");
  llvm::FunctionCallee fn = runtimeFn("mahou_rt_objmode_call", b_.getInt32Ty(), {ptr, ptr, ptr});
  llvm::Value *site = b_.CreateIntToPtr(c64(e.ival), ptr);
  checkStatus(b_.CreateCall(fn, {site, inSlot, outSlot}));
  if (e.type.isNone()) return {llvm::Constant::getNullValue(types_.ssa(e.type)), false};
  return {fromMem(b_.CreateLoad(types_.mem(e.type), outSlot), e.type), true};
}

} // namespace mahou::codegen
