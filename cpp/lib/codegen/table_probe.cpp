// Inline lookups in dicts and sets keyed by int64 or str (`k in s`, `d[k]`, `d.get(k)`):
// the key hashed as CPython hashes it and the table's index probed as runtime/dict.cpp
// probes it, keys compared in compiled code, so an int lookup makes no call and a str
// lookup calls only to compare a candidate that has the same hash but another object.
#include "lowering.h"

#include "mahou/objects.h"

#include <cstddef>

namespace mahou::codegen {

bool FunctionLowering::probesInline(const Type &keyType, const Type &argType) {
  if (gpu() || !(argType == keyType)) return false;
  return keyType.isScalar(types::DType::Int64) || keyType.isUnicode();
}

// CPython's hash of an int64: |v| mod 2**61 - 1 with v's sign, -1 becoming -2. The
// common case 0 <= v < 2**61 - 1 is v itself, taken by a branch so that the division's
// latency is off the lookup's critical path.
llvm::Value *FunctionLowering::inlineIntHash(llvm::Value *v) {
  llvm::Value *modulus = b_.getInt64((uint64_t(1) << 61) - 1);
  auto *before = b_.GetInsertBlock();
  auto *slow = newBlock("inthash.reduce");
  auto *done = newBlock("inthash.done");
  b_.CreateCondBr(b_.CreateICmpULT(v, modulus), done, slow, llvm::MDBuilder(ctx()).createBranchWeights(100, 1));
  b_.SetInsertPoint(slow);
  llvm::Value *neg = b_.CreateICmpSLT(v, c64(0));
  llvm::Value *mag = b_.CreateSelect(neg, b_.CreateSub(c64(0), v), v);
  llvm::Value *h = b_.CreateURem(mag, modulus);
  h = b_.CreateSelect(neg, b_.CreateSub(c64(0), h), h);
  h = b_.CreateSelect(b_.CreateICmpEQ(h, c64(-1)), c64(-2), h);
  auto *slowEnd = b_.GetInsertBlock();
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
  auto *phi = b_.CreatePHI(i64(), 2);
  phi->addIncoming(v, before);
  phi->addIncoming(h, slowEnd);
  return phi;
}

// The address of the value of `key` in the table (for a set: past the key), or null.
llvm::Value *FunctionLowering::inlineFind(llvm::Value *table, llvm::Value *key, const Type &keyType) {
  auto *ptr = b_.getPtrTy();
  bool str = keyType.isUnicode();
  llvm::Value *d = objectPayload(table);
  auto field = [&](size_t offset, llvm::Type *t) {
    return b_.CreateLoad(t, b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), d, offset));
  };
  llvm::Value *mask = field(offsetof(MahouDict, indexMask), i64());
  llvm::Value *index = field(offsetof(MahouDict, index), ptr);
  llvm::Value *entries = field(offsetof(MahouDict, entries), ptr);
  llvm::Value *entrySize = field(offsetof(MahouDict, entrySize), i64());
  llvm::Value *keyOffset = field(offsetof(MahouDict, keyOffset), i64());
  llvm::Value *valueOffset = field(offsetof(MahouDict, valueOffset), i64());

  llvm::Value *hash;
  if (str) { // the string's cached hash, computed by the runtime the first time
    llvm::Value *cachedAt = b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), objectPayload(key), offsetof(MahouStr, hash));
    llvm::Value *cached = b_.CreateLoad(i64(), cachedAt);
    auto *before = b_.GetInsertBlock();
    auto *compute = newBlock("probe.strhash");
    auto *known = newBlock("probe.hashed");
    b_.CreateCondBr(b_.CreateICmpEQ(cached, c64(-1)), compute, known, llvm::MDBuilder(ctx()).createBranchWeights(1, 100));
    b_.SetInsertPoint(compute);
    llvm::Value *computed = b_.CreateCall(runtimeFn("mahou_rt_str_hash", i64(), {ptr}), {key});
    b_.CreateBr(known);
    b_.SetInsertPoint(known);
    auto *phi = b_.CreatePHI(i64(), 2);
    phi->addIncoming(cached, before);
    phi->addIncoming(computed, compute);
    hash = phi;
  } else {
    hash = inlineIntHash(key);
  }

  llvm::Value *first = b_.CreateAnd(hash, mask);
  auto *pre = b_.GetInsertBlock();
  auto *head = newBlock("probe.head");
  auto *check = newBlock("probe.check");
  auto *compare = newBlock("probe.compare");
  auto *found = newBlock("probe.found");
  auto *next = newBlock("probe.next");
  auto *done = newBlock("probe.done");
  b_.CreateBr(head);
  b_.SetInsertPoint(head);
  llvm::PHINode *slot = b_.CreatePHI(i64(), 2, "slot");
  llvm::PHINode *perturb = b_.CreatePHI(i64(), 2, "perturb");
  slot->addIncoming(first, pre);
  perturb->addIncoming(hash, pre);
  llvm::Value *ix = b_.CreateLoad(i64(), b_.CreateInBoundsGEP(i64(), index, slot));
  b_.CreateCondBr(b_.CreateICmpEQ(ix, c64(-1)), done, check); // empty: absent
  b_.SetInsertPoint(check);
  b_.CreateCondBr(b_.CreateICmpSGE(ix, c64(0)), compare, next); // deleted: go on
  b_.SetInsertPoint(compare);
  llvm::Value *entry = b_.CreateInBoundsGEP(b_.getInt8Ty(), entries, b_.CreateMul(ix, entrySize));
  llvm::Value *stored = b_.CreateLoad(str ? ptr : i64(), b_.CreateInBoundsGEP(b_.getInt8Ty(), entry, keyOffset));
  if (str) {
    llvm::Value *storedHash = b_.CreateLoad(i64(), entry); // the entry's first field
    auto *sameHash = newBlock("probe.samehash");
    auto *callEq = newBlock("probe.streq");
    b_.CreateCondBr(b_.CreateICmpEQ(storedHash, hash), sameHash, next);
    b_.SetInsertPoint(sameHash);
    b_.CreateCondBr(b_.CreateICmpEQ(stored, key), found, callEq);
    b_.SetInsertPoint(callEq);
    llvm::FunctionCallee eq = runtimeFn("mahou_rt_str_equal", b_.getInt8Ty(), {ptr, ptr});
    if (auto *f = llvm::dyn_cast<llvm::Function>(eq.getCallee())) {
      f->setOnlyReadsMemory();
      f->setDoesNotThrow();
    }
    b_.CreateCondBr(b_.CreateICmpNE(b_.CreateCall(eq, {stored, key}), b_.getInt8(0)), found, next);
  } else {
    b_.CreateCondBr(b_.CreateICmpEQ(stored, key), found, next);
  }
  b_.SetInsertPoint(found);
  llvm::Value *valueAt = b_.CreateInBoundsGEP(b_.getInt8Ty(), entry, valueOffset);
  b_.CreateBr(done);
  b_.SetInsertPoint(next);
  llvm::Value *p = b_.CreateLShr(perturb, 5);
  llvm::Value *nextSlot = b_.CreateAnd(b_.CreateAdd(b_.CreateAdd(b_.CreateMul(slot, c64(5)), p), c64(1)), mask);
  slot->addIncoming(nextSlot, next);
  perturb->addIncoming(p, next);
  b_.CreateBr(head);
  b_.SetInsertPoint(done);
  llvm::PHINode *at = b_.CreatePHI(ptr, 2, "found.at");
  at->addIncoming(llvm::ConstantPointerNull::get(ptr), head);
  at->addIncoming(valueAt, found);
  return at;
}

} // namespace mahou::codegen
