// The LLVM pass that gives pow() calls whose exponent became a constant after inlining
// (a default argument, a constant passed down) back to LLVM's pow intrinsic (constant_pow.cpp).
#pragma once

#include <llvm/IR/PassManager.h>

namespace mahou::jit {

class ConstantPowPass : public llvm::PassInfoMixin<ConstantPowPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &am);
};

} // namespace mahou::jit
