// The LLVM pass that removes reference-count pairs (incref then decref of the same
// object in one basic block, nothing between them able to drop a reference) and then
// guards the remaining refcount calls with their null test (refcount_pairs.cpp).
#pragma once

#include <llvm/IR/PassManager.h>

namespace mahou::jit {

class RefcountPairsPass : public llvm::PassInfoMixin<RefcountPairsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &am);
  static bool isRequired() { return true; } // the null guards are part of the lowering
};

} // namespace mahou::jit
