// pow(x, y) with a variable y is lowered as a `nobuiltin` call of C's pow (codegen/power.cpp),
// so that LLVM neither rewrites nor folds it (its pow-of-a-power-of-two rewrite is not
// exact). A constant y is lowered as LLVM's pow intrinsic, whose rewrites are exact (x * x
// for 2.0, 1 / x for -1.0, fabs(sqrt(x)) for 0.5). When inlining makes y constant (a
// default argument `c ** (1 - sigma)`, a constant passed down), this pass turns the call
// into the intrinsic, as if the constant had been written there: the same result, and
// the later InstCombine runs fold it as they fold the written constant.
#include "constant_pow.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>

namespace mahou::jit {

llvm::PreservedAnalyses ConstantPowPass::run(llvm::Function &f, llvm::FunctionAnalysisManager &) {
  llvm::SmallVector<llvm::CallInst *, 4> calls;
  for (auto &bb : f)
    for (auto &inst : bb) {
      auto *call = llvm::dyn_cast<llvm::CallInst>(&inst);
      llvm::Function *callee = call ? call->getCalledFunction() : nullptr;
      if (!callee || call->arg_size() != 2 || !call->hasFnAttr(llvm::Attribute::NoBuiltin)) continue;
      llvm::StringRef name = callee->getName();
      bool f64 = name == "pow" && call->getType()->isDoubleTy();
      bool f32 = name == "powf" && call->getType()->isFloatTy();
      if ((f64 || f32) && llvm::isa<llvm::ConstantFP>(call->getArgOperand(1))) calls.push_back(call);
    }
  for (llvm::CallInst *call : calls) {
    llvm::IRBuilder<> b(call);
    llvm::Value *p = b.CreateBinaryIntrinsic(llvm::Intrinsic::pow, call->getArgOperand(0), call->getArgOperand(1));
    call->replaceAllUsesWith(p);
    call->eraseFromParent();
  }
  return calls.empty() ? llvm::PreservedAnalyses::all() : llvm::PreservedAnalyses::none();
}

} // namespace mahou::jit
