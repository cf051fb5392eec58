// argmax/argmin of a whole C-contiguous array of real numbers, in blocks: each block's
// extreme is a reduction LLVM vectorises (llvm.maximum/minimum, NaN-propagating, or the
// integer smax/umax/...); only the block that holds the answer is scanned again for its
// first index. NumPy's answer: the first extreme, or the first NaN.
#include "lowering.h"

#include <llvm/IR/Intrinsics.h>

namespace mahou::codegen {

namespace {
constexpr int64_t kBlock = 512; // items per block: the scan of the winning block stays in L1
} // namespace

bool FunctionLowering::blockedArgExtremeFits(const Type &elemT) const {
  if (!elemT.isScalar() || elemT.isComplex() || elemT.isBool()) return false;
  if (elemT.isFloat()) return elemT.dtype == types::DType::Float32 || elemT.dtype == types::DType::Float64;
  return true; // integers of every width and sign
}

llvm::Value *FunctionLowering::blockedArgExtreme(llvm::Value *data, llvm::Value *count, const Type &elemT,
                                                 bool isMin) {
  namespace I = llvm::Intrinsic;
  raiseIf(b_.CreateICmpEQ(count, c64(0)), types::ExcKind::ValueError,
          isMin ? "attempt to get argmin of an empty sequence" : "attempt to get argmax of an empty sequence");
  llvm::Type *ty = types_.mem(elemT);
  bool isFloat = elemT.isFloat();
  bool isUnsigned = !isFloat && types::dtypeClass(elemT.dtype) == types::DTypeClass::UnsignedInt;
  I::ID fold = isFloat      ? (isMin ? I::minimum : I::maximum)
               : isUnsigned ? (isMin ? I::umin : I::umax)
                            : (isMin ? I::smin : I::smax);
  llvm::Value *identity;
  if (isFloat) {
    identity = llvm::ConstantFP::getInfinity(ty, /*Negative=*/!isMin);
  } else {
    unsigned bits = ty->getIntegerBitWidth();
    identity = llvm::ConstantInt::get(ty, isUnsigned ? (isMin ? llvm::APInt::getMaxValue(bits) : llvm::APInt::getMinValue(bits))
                                                     : (isMin ? llvm::APInt::getSignedMaxValue(bits)
                                                              : llvm::APInt::getSignedMinValue(bits)));
  }
  auto load = [&](llvm::Value *i) { return b_.CreateLoad(ty, b_.CreateInBoundsGEP(ty, data, i)); };
  // Strictly better than the best so far: a later block with an equal extreme does not win.
  auto better = [&](llvm::Value *x, llvm::Value *best) -> llvm::Value * {
    if (isFloat) return isMin ? b_.CreateFCmpOLT(x, best) : b_.CreateFCmpOGT(x, best);
    if (isUnsigned) return isMin ? b_.CreateICmpULT(x, best) : b_.CreateICmpUGT(x, best);
    return isMin ? b_.CreateICmpSLT(x, best) : b_.CreateICmpSGT(x, best);
  };

  llvm::Function *fn = b_.GetInsertBlock()->getParent();
  auto block = [&](const char *name) { return llvm::BasicBlock::Create(ctx(), name, fn); };
  llvm::BasicBlock *pre = b_.GetInsertBlock();
  llvm::BasicBlock *blockHead = block("argx.block"), *itemLoop = block("argx.items"), *blockEnd = block("argx.blockend"),
                   *nanScan = block("argx.nanscan"), *nanScanBody = block("argx.nanscan.body"),
                   *next = block("argx.next"), *finalScan = block("argx.scan"), *finalBody = block("argx.scan.body"),
                   *done = block("argx.done");
  b_.CreateBr(blockHead);

  // for lo in range(0, n, kBlock): m = fold(a[lo:hi]); NaN → scan it; m better → remember
  b_.SetInsertPoint(blockHead);
  llvm::PHINode *lo = b_.CreatePHI(i64(), 2, "argx.lo");
  llvm::PHINode *best = b_.CreatePHI(ty, 2, "argx.best");
  llvm::PHINode *bestLo = b_.CreatePHI(i64(), 2, "argx.bestlo");
  lo->addIncoming(c64(0), pre);
  best->addIncoming(identity, pre);
  bestLo->addIncoming(c64(0), pre);
  llvm::Value *hi = b_.CreateBinaryIntrinsic(I::smin, b_.CreateAdd(lo, c64(kBlock)), count);
  b_.CreateBr(itemLoop);

  b_.SetInsertPoint(itemLoop);
  llvm::PHINode *i = b_.CreatePHI(i64(), 2, "argx.i");
  llvm::PHINode *m = b_.CreatePHI(ty, 2, "argx.m");
  i->addIncoming(lo, blockHead);
  m->addIncoming(identity, blockHead);
  llvm::Value *m2 = b_.CreateBinaryIntrinsic(fold, m, load(i));
  llvm::Value *i2 = b_.CreateAdd(i, c64(1), "", /*HasNUW=*/true, /*HasNSW=*/true);
  i->addIncoming(i2, itemLoop);
  m->addIncoming(m2, itemLoop);
  b_.CreateCondBr(b_.CreateICmpSLT(i2, hi), itemLoop, blockEnd);

  b_.SetInsertPoint(blockEnd);
  llvm::PHINode *mEnd = b_.CreatePHI(ty, 1, "argx.mend");
  mEnd->addIncoming(m2, itemLoop);
  if (isFloat) // a NaN in the block: the answer is the first NaN, which is in this block
    b_.CreateCondBr(b_.CreateFCmpUNO(mEnd, mEnd), nanScan, next);
  else
    b_.CreateBr(next);

  b_.SetInsertPoint(next);
  llvm::Value *take = better(mEnd, best);
  llvm::Value *best2 = b_.CreateSelect(take, mEnd, best);
  llvm::Value *bestLo2 = b_.CreateSelect(take, lo, bestLo);
  lo->addIncoming(hi, next);
  best->addIncoming(best2, next);
  bestLo->addIncoming(bestLo2, next);
  b_.CreateCondBr(b_.CreateICmpSLT(hi, count), blockHead, finalScan);

  // The first NaN of block [lo, hi): it is there, so the scan ends inside it.
  b_.SetInsertPoint(nanScan);
  b_.CreateBr(nanScanBody);
  b_.SetInsertPoint(nanScanBody);
  llvm::PHINode *k = b_.CreatePHI(i64(), 2, "argx.k");
  k->addIncoming(lo, nanScan);
  llvm::Value *xk = load(k);
  k->addIncoming(b_.CreateAdd(k, c64(1)), nanScanBody);
  b_.CreateCondBr(isFloat ? b_.CreateFCmpUNO(xk, xk) : b_.getTrue(), done, nanScanBody);

  // The first item equal to the best extreme, in the block that first reached it (an
  // array of identities only: block 0, item 0).
  b_.SetInsertPoint(finalScan);
  llvm::PHINode *bestEnd = b_.CreatePHI(ty, 1, "argx.bestend");
  llvm::PHINode *bestLoEnd = b_.CreatePHI(i64(), 1, "argx.bestloend");
  bestEnd->addIncoming(best2, next);
  bestLoEnd->addIncoming(bestLo2, next);
  b_.CreateBr(finalBody);
  b_.SetInsertPoint(finalBody);
  llvm::PHINode *j = b_.CreatePHI(i64(), 2, "argx.j");
  j->addIncoming(bestLoEnd, finalScan);
  llvm::Value *xj = load(j);
  llvm::Value *limit = b_.CreateBinaryIntrinsic(I::smin, b_.CreateAdd(bestLoEnd, c64(kBlock - 1)), b_.CreateSub(count, c64(1)));
  llvm::Value *found = isFloat ? b_.CreateFCmpOEQ(xj, bestEnd) : b_.CreateICmpEQ(xj, bestEnd);
  // The block's last item ends the scan too (never reached without a match: the best
  // is an item of the block, or the identity when every item is the identity, at bestLo).
  llvm::Value *pick = b_.CreateSelect(found, j, bestLoEnd);
  j->addIncoming(b_.CreateAdd(j, c64(1)), finalBody);
  b_.CreateCondBr(b_.CreateOr(found, b_.CreateICmpSGE(j, limit)), done, finalBody);

  b_.SetInsertPoint(done);
  llvm::PHINode *answer = b_.CreatePHI(i64(), 2, "argx.answer");
  answer->addIncoming(k, nanScanBody);
  answer->addIncoming(pick, finalBody);
  return answer;
}

} // namespace mahou::codegen
