// Exceptions raised in kernels compiled with debug=True: the first raising thread of a
// launch writes its raise site and its thread and block indices into the module's error
// slot (one compare-and-swap decides which thread is first); the launch reads the slot
// back and raises the site's exception on the host, as numba-cuda does in debug mode.
#include "lowering.h"

#include "mahou/compiler.h"

#include <llvm/IR/IntrinsicsNVPTX.h>

namespace mahou::codegen {

void FunctionLowering::recordKernelRaise(types::ExcKind kind, const std::string &message) {
  namespace I = llvm::Intrinsic;
  auto &sites = *options_.raiseSites;
  sites.emplace_back(kind, message);
  auto *i32 = b_.getInt32Ty();
  auto *slotTy = llvm::ArrayType::get(i32, kKernelErrorWords);
  auto *slot = module_.getGlobalVariable(kKernelErrorSlot);
  if (!slot) { // external: the launch finds it by name (cuModuleGetGlobal)
    slot = new llvm::GlobalVariable(module_, slotTy, false, llvm::GlobalValue::ExternalLinkage,
                                    llvm::ConstantAggregateZero::get(slotTy), kKernelErrorSlot, nullptr,
                                    llvm::GlobalValue::NotThreadLocal, 1);
    slot->setAlignment(llvm::Align(4));
  }
  llvm::Value *base = b_.CreateAddrSpaceCast(slot, b_.getPtrTy());
  llvm::Value *first = b_.CreateAtomicCmpXchg(b_.CreateConstInBoundsGEP2_32(slotTy, base, 0, 0), b_.getInt32(0),
                                              b_.getInt32(uint32_t(sites.size())), llvm::MaybeAlign(4),
                                              llvm::AtomicOrdering::Monotonic, llvm::AtomicOrdering::Monotonic);
  auto *record = newBlock("raise.record"), *done = newBlock("raise.recorded");
  b_.CreateCondBr(b_.CreateExtractValue(first, {1u}), record, done);
  b_.SetInsertPoint(record);
  const I::ID where[] = {I::nvvm_read_ptx_sreg_tid_x,   I::nvvm_read_ptx_sreg_tid_y,   I::nvvm_read_ptx_sreg_tid_z,
                     I::nvvm_read_ptx_sreg_ctaid_x, I::nvvm_read_ptx_sreg_ctaid_y, I::nvvm_read_ptx_sreg_ctaid_z};
  for (unsigned k = 0; k < 6; ++k)
    b_.CreateStore(b_.CreateIntrinsic(where[k], {}, {}), b_.CreateConstInBoundsGEP2_32(slotTy, base, 0, k + 1),
                   /*isVolatile=*/true);
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
}

} // namespace mahou::codegen
