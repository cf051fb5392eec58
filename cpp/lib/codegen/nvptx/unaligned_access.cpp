// Alignment relaxed for kernels that may see misaligned array elements: a view of a
// field of a packed record array (r.x of dtype [('a', i1), ('x', f4)]) or a misaligned
// array argument. The GPU traps on a load or store at an address that is not a multiple
// of its alignment, so such kernels access global memory with alignment 1 (the PTX
// back end splits the accesses into bytes); locals, shared and constant arrays keep theirs.
#include "mahou/ptx.h"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

namespace mahou::ptx {

namespace {
bool ownAlignment(const llvm::Value *ptr) {
  const llvm::Value *base = llvm::getUnderlyingObject(ptr, 0);
  return llvm::isa<llvm::AllocaInst>(base) || llvm::isa<llvm::GlobalVariable>(base);
}
} // namespace

void relaxAlignment(llvm::Module &module) {
  for (auto &f : module.functions())
    for (auto &bb : f)
      for (auto &inst : bb) {
        if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst)) {
          if (!load->isAtomic() && !ownAlignment(load->getPointerOperand())) load->setAlignment(llvm::Align(1));
        } else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst)) {
          if (!store->isAtomic() && !ownAlignment(store->getPointerOperand())) store->setAlignment(llvm::Align(1));
        }
      }
}

} // namespace mahou::ptx
