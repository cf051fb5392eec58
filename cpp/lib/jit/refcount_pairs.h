// The LLVM pass that removes reference-count pairs (incref then decref of the same
// object in one basic block, nothing between them able to drop a reference) and then
// guards the remaining refcount calls with their null test (refcount_pairs.cpp). Run
// again after each InstCombine (guard = false) for the pairs that only meet once the
// optimiser has proved two objects the same (a view's owner and its array's).
#pragma once

#include <llvm/IR/PassManager.h>

namespace mahou::jit {

class RefcountPairsPass : public llvm::PassInfoMixin<RefcountPairsPass> {
public:
  explicit RefcountPairsPass(bool guard = true) : guard_(guard) {}
  llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &am);
  static bool isRequired() { return true; } // the null guards are part of the lowering

private:
  bool guard_; // also guard the remaining calls (the first run only: codegen's blocks)
};

} // namespace mahou::jit
