// Reference-count pairs: codegen counts references conservatively (a field read, an
// item of a list, a temporary view each take a reference and drop it after use). Where
// `mahou_rt_incref(p)` and then `mahou_rt_decref(p)` of the same object sit in one basic
// block with nothing between them that could drop a reference (no other decref, no call
// that may run arbitrary code), the pair leaves every count as it was and is removed
// (Numba's refprune does the same, per block); an incref whose
// paths out of its block each meet the decref first pairs with those decrefs (removeFanout). A loop `self.a[i] += v` then has no call
// left, so its field loads can be hoisted and the loop vectorised. The remaining calls get
// the test that skips them for a null meminfo (an array from NumPy) here, after pairing:
// codegen emits them unguarded so that a pair is one block. The optimiser meets more pairs
// later: `Q[i][j] += v` keeps the row view in a hidden variable until the next iteration,
// so codegen's block holds incref(Q's owner) then decref(the previous view's owner), which
// only SROA and GVN show to be the same object; the run after each InstCombine (no
// guarding: the calls are guarded already, a known non-null owner folded) removes those.
#include "refcount_pairs.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

namespace mahou::jit {
namespace {

struct Counters {
  llvm::Function *incref = nullptr;
  llvm::Function *decref = nullptr;
};

llvm::CallInst *callOf(llvm::Instruction &i, llvm::Function *fn) {
  auto *call = llvm::dyn_cast<llvm::CallInst>(&i);
  return fn && call && call->getCalledFunction() == fn ? call : nullptr;
}

// The same object: one value, or the same field of the same aggregate (codegen reads an
// array's meminfo with an extractvalue at each count).
bool sameObject(const llvm::Value *a, const llvm::Value *b) {
  if (a == b) return true;
  auto *ea = llvm::dyn_cast<llvm::ExtractValueInst>(a);
  auto *eb = llvm::dyn_cast<llvm::ExtractValueInst>(b);
  return ea && eb && ea->getIndices() == eb->getIndices() &&
         sameObject(ea->getAggregateOperand(), eb->getAggregateOperand());
}

// Whether `i` could drop a reference (and so free an object whose incref we remove):
// any call but an incref, a read-only function, or an intrinsic other than a coroutine's
// (resuming a generator runs its body).
bool mayRelease(llvm::Instruction &i, const Counters &rc) {
  auto *call = llvm::dyn_cast<llvm::CallBase>(&i);
  if (!call) return false;
  llvm::Function *callee = call->getCalledFunction();
  if (callee && callee == rc.incref) return false;
  if (call->onlyReadsMemory()) return false;
  if (callee && (callee->getName() == "mahou_rt_set_error" || callee->getName() == "mahou_rt_set_error_i64"))
    return false; // records the pending exception: a code and a copied message, no reference

  if (callee && callee->isIntrinsic()) {
    llvm::StringRef name = callee->getName();
    return name.starts_with("llvm.coro.");
  }
  return true;
}

// An incref whose block ends with nothing after it that could release: when every path
// from there meets a decref of the same object first (the use's end, and the release on
// the path that raises IndexError from a bounds check in between) and no block on those
// paths can be entered from elsewhere, the incref and those decrefs cancel (Numba's
// refprune "fanout"). `row = a[i]; row[j] = v` then counts nothing per item.
bool removeFanout(llvm::CallInst *inc, const Counters &rc) {
  llvm::BasicBlock *start = inc->getParent();
  llvm::Value *obj = inc->getArgOperand(0);
  for (auto it = std::next(inc->getIterator()); it != start->end(); ++it)
    if (callOf(*it, rc.decref) || mayRelease(*it, rc)) return false;
  llvm::SmallVector<llvm::BasicBlock *, 16> work(llvm::successors(start).begin(), llvm::successors(start).end());
  llvm::SmallPtrSet<llvm::BasicBlock *, 16> region;
  llvm::SmallVector<llvm::CallInst *, 8> decs;
  while (!work.empty()) {
    llvm::BasicBlock *bb = work.pop_back_val();
    if (bb == start) return false; // round a loop without a release
    if (!region.insert(bb).second) continue;
    if (region.size() > 32) return false;
    llvm::CallInst *found = nullptr;
    for (llvm::Instruction &i : *bb) {
      if (llvm::CallInst *dec = callOf(i, rc.decref)) {
        if (!sameObject(dec->getArgOperand(0), obj)) return false;
        found = dec;
        break;
      }
      if (mayRelease(i, rc)) return false;
    }
    if (found) {
      decs.push_back(found);
      continue;
    }
    if (llvm::succ_empty(bb)) return false; // a return or unreachable with the reference held
    for (llvm::BasicBlock *next : llvm::successors(bb)) work.push_back(next);
  }
  for (llvm::BasicBlock *bb : region) // entered only from the incref's block or each other
    for (llvm::BasicBlock *pred : llvm::predecessors(bb))
      if (pred != start && !region.contains(pred)) return false;
  if (decs.empty()) return false;
  inc->eraseFromParent();
  for (llvm::CallInst *dec : decs) dec->eraseFromParent();
  return true;
}

bool removePairs(llvm::BasicBlock &bb, const Counters &rc) {
  bool changed = false;
  llvm::SmallVector<llvm::CallInst *, 8> pending; // increfs since the last release point
  for (llvm::Instruction &i : llvm::make_early_inc_range(bb)) {
    if (llvm::CallInst *inc = callOf(i, rc.incref)) {
      pending.push_back(inc);
      continue;
    }
    if (llvm::CallInst *dec = callOf(i, rc.decref)) {
      llvm::Value *obj = dec->getArgOperand(0);
      auto it = std::find_if(pending.rbegin(), pending.rend(),
                             [&](llvm::CallInst *inc) { return sameObject(inc->getArgOperand(0), obj); });
      if (it != pending.rend()) {
        llvm::CallInst *inc = *it;
        pending.erase(std::next(it).base());
        inc->eraseFromParent();
        dec->eraseFromParent();
        changed = true;
        continue;
      }
      pending.clear(); // another object's decref may free this one's holder
      continue;
    }
    if (mayRelease(i, rc)) pending.clear();
  }
  if (!pending.empty()) changed |= removeFanout(pending.back(), rc);
  return changed;
}

// `call fn(p)` becomes `if (p) call fn(p)`: a NumPy array's meminfo is null.
bool guardCalls(llvm::Function &f, llvm::Function *fn) {
  if (!fn) return false;
  llvm::SmallVector<llvm::CallInst *, 16> calls;
  for (llvm::BasicBlock &bb : f)
    for (llvm::Instruction &i : bb)
      if (llvm::CallInst *call = callOf(i, fn)) calls.push_back(call);
  for (llvm::CallInst *call : calls) {
    llvm::Value *p = call->getArgOperand(0);
    if (llvm::isa<llvm::Constant>(p)) {
      if (llvm::isa<llvm::ConstantPointerNull>(p)) call->eraseFromParent();
      continue;
    }
    llvm::IRBuilder<> b(call);
    llvm::Value *nonNull = b.CreateIsNotNull(p);
    llvm::Instruction *then = llvm::SplitBlockAndInsertIfThen(nonNull, call->getIterator(), false);
    call->moveBefore(then);
  }
  return !calls.empty();
}

} // namespace

llvm::PreservedAnalyses RefcountPairsPass::run(llvm::Function &f, llvm::FunctionAnalysisManager &) {
  llvm::Module *m = f.getParent();
  Counters rc{m->getFunction("mahou_rt_incref"), m->getFunction("mahou_rt_decref")};
  if (!rc.incref && !rc.decref) return llvm::PreservedAnalyses::all();
  bool changed = false;
  if (rc.incref && rc.decref)
    for (llvm::BasicBlock &bb : f) changed |= removePairs(bb, rc);
  if (guard_) {
    changed |= guardCalls(f, rc.incref);
    changed |= guardCalls(f, rc.decref);
  }
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

} // namespace mahou::jit
