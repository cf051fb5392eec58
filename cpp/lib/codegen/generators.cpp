// Generators as LLVM coroutines (the switched-resume lowering C++20 coroutines use).
// A generator function is lowered as usual with its variables in allocas, plus:
//   entry:   coro.id (the promise: {i32 state, item}), the frame from
//            mahou_rt_gen_frame_alloc (inside the generator object, at a fixed offset
//            after its header), coro.begin; parameters are stored (with their
//            references); the generator object is written to the result; an initial
//            suspend returns it to the caller.
//   yield x: the item (owned) into the promise, state 0, suspend; a destroy there
//            releases the locals (gen.cleanup); the runtime then frees the object.
//   return / end / error: the locals released, state 2 (done) or 1 (raised), final suspend.
// CoroSplit turns this into a ramp (the function's own symbol and calling convention),
// a resume and a destroy function; the frame keeps every value live across a yield.
// Consumers (GenNext) resume through the handle, read the state, and take the item.
// The promise sits at a fixed offset in the frame (after the resume and destroy
// pointers, aligned), so any function can consume any generator of a yield type.
#include "lowering.h"

#include "mahou/generators.h"

#include <llvm/IR/Intrinsics.h>

namespace mahou::codegen {

namespace {
constexpr uint32_t kGenReady = runtime::kGeneratorReady, kGenRaised = runtime::kGeneratorRaised,
                   kGenDone = runtime::kGeneratorDone;
}

llvm::StructType *FunctionLowering::promiseType(const Type &yieldType) {
  return llvm::StructType::get(ctx(), {b_.getInt32Ty(), types_.mem(yieldType)});
}

unsigned FunctionLowering::promiseAlign(const Type &yieldType) {
  return unsigned(module_.getDataLayout().getABITypeAlign(promiseType(yieldType)).value());
}

llvm::Value *FunctionLowering::coroIntrinsic(llvm::Intrinsic::ID id, llvm::ArrayRef<llvm::Value *> args,
                                             llvm::ArrayRef<llvm::Type *> overloads) {
  llvm::Function *f = llvm::Intrinsic::getDeclaration(&module_, id, overloads);
  return b_.CreateCall(f, args);
}

void FunctionLowering::beginGenerator() {
  func_->setPresplitCoroutine();
  const Type &item = fn_.ret.elems[0];
  auto *pty = promiseType(item);
  auto *promise = b_.CreateAlloca(pty, nullptr, "gen.promise");
  promise->setAlignment(llvm::Align(promiseAlign(item)));
  promise_ = promise;
  auto *null = llvm::ConstantPointerNull::get(b_.getPtrTy());
  // The frame is always on the heap, inside the generator object (no coro.alloc: the
  // object's address is derived from the frame's, so the frame is never elided).
  coroId_ = coroIntrinsic(llvm::Intrinsic::coro_id, {b_.getInt32(16), promise, null, null});
  llvm::Value *size = coroIntrinsic(llvm::Intrinsic::coro_size, {}, {i64()});
  auto *alloc = llvm::cast<llvm::CallInst>(
      b_.CreateCall(runtimeFn("mahou_rt_gen_frame_alloc", b_.getPtrTy(), {i64()}), {size}));
  alloc->addRetAttr(llvm::Attribute::NoAlias);
  alloc->addRetAttr(llvm::Attribute::NonNull);
  coroHandle_ = coroIntrinsic(llvm::Intrinsic::coro_begin, {coroId_, alloc});

  // The exits every suspend point shares.
  auto *here = b_.GetInsertBlock();
  genSuspendRet_ = newBlock("gen.suspend");
  b_.SetInsertPoint(genSuspendRet_);
  coroIntrinsic(llvm::Intrinsic::coro_end,
                {coroHandle_, b_.getFalse(), llvm::ConstantTokenNone::get(ctx())});
  b_.CreateRet(b_.getInt32(0));
  genFree_ = newBlock("gen.free"); // the object's block (the frame with it) is freed by the runtime
  b_.SetInsertPoint(genFree_);
  b_.CreateBr(genSuspendRet_);
  genCleanup_ = newBlock("gen.cleanup"); // destroyed at a yield: the locals are still held
  b_.SetInsertPoint(genCleanup_);
  releaseLocals();
  b_.CreateBr(genFree_);
  b_.SetInsertPoint(here);
}

void FunctionLowering::suspendGenerator(bool final, llvm::BasicBlock *resume) {
  llvm::Value *s = coroIntrinsic(llvm::Intrinsic::coro_suspend, {llvm::ConstantTokenNone::get(ctx()), b_.getInt1(final)});
  auto *sw = b_.CreateSwitch(s, genSuspendRet_, 2);
  sw->addCase(b_.getInt8(0), resume);
  sw->addCase(b_.getInt8(1), final ? genFree_ : genCleanup_);
}

void FunctionLowering::startGenerator(llvm::BasicBlock *body) {
  b_.CreateStore(b_.getInt32(kGenReady), b_.CreateStructGEP(promiseType(fn_.ret.elems[0]), promise_, 0));
  llvm::Value *gen = b_.CreateConstGEP1_64(b_.getInt8Ty(), coroHandle_, -int64_t(runtime::kGeneratorFrameOffset));
  b_.CreateStore(gen, retPtr_);
  suspendGenerator(false, body);
}

void FunctionLowering::endGenerator(bool raised) {
  b_.CreateStore(b_.getInt32(raised ? kGenRaised : kGenDone),
                 b_.CreateStructGEP(promiseType(fn_.ret.elems[0]), promise_, 0));
  if (!genFinal_) { // one final suspend point (LLVM allows only one) for both ends
    auto *here = b_.GetInsertBlock();
    genFinal_ = newBlock("gen.final");
    b_.SetInsertPoint(genFinal_);
    auto *never = newBlock("gen.resumed.after.end");
    suspendGenerator(true, never);
    b_.SetInsertPoint(never);
    b_.CreateUnreachable();
    b_.SetInsertPoint(here);
  }
  b_.CreateBr(genFinal_);
}

void FunctionLowering::yieldStmt(const ir::Stmt &s) {
  const Type &item = fn_.ret.elems[0];
  Value v = expr(*s.exprs[0]);
  llvm::Value *owned = item.hasRefs() ? own(v, item) : v.v;
  auto *pty = promiseType(item);
  b_.CreateStore(toMem(owned, item), b_.CreateStructGEP(pty, promise_, 1));
  b_.CreateStore(b_.getInt32(kGenReady), b_.CreateStructGEP(pty, promise_, 0));
  auto *resume = newBlock("gen.resume");
  suspendGenerator(false, resume);
  b_.SetInsertPoint(resume);
}

Value FunctionLowering::genNext(const ir::Expr &e) {
  const Type &genType = e.args[0]->type;
  const Type &item = genType.elems[0];
  Value g = expr(*e.args[0]);
  llvm::Value *handle =
      b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), g.v, int64_t(runtime::kGeneratorFrameOffset), "gen.handle");
  auto *pty = promiseType(item);
  llvm::Value *promise =
      coroIntrinsic(llvm::Intrinsic::coro_promise, {handle, b_.getInt32(promiseAlign(item)), b_.getFalse()});
  llvm::Value *statePtr = b_.CreateStructGEP(pty, promise, 0);
  if (e.sub == 1) { // take the item the last resume left (its reference moves to us)
    llvm::Value *v = fromMem(b_.CreateLoad(types_.mem(item), b_.CreateStructGEP(pty, promise, 1)), item);
    release(g, genType);
    return {v, item.hasRefs()};
  }
  // Resume only a generator suspended at a yield (or not started): one that ended or
  // raised stays exhausted.
  auto *pre = b_.GetInsertBlock();
  auto *doResume = newBlock("gen.doresume");
  auto *raised = newBlock("gen.raised");
  auto *after = newBlock("gen.after");
  b_.CreateCondBr(b_.CreateICmpEQ(b_.CreateLoad(b_.getInt32Ty(), statePtr), b_.getInt32(kGenReady)), doResume, after);
  b_.SetInsertPoint(doResume);
  coroIntrinsic(llvm::Intrinsic::coro_resume, {handle});
  llvm::Value *state = b_.CreateLoad(b_.getInt32Ty(), statePtr);
  llvm::Value *isReady = b_.CreateICmpEQ(state, b_.getInt32(kGenReady));
  auto *resumed = b_.GetInsertBlock();
  b_.CreateCondBr(b_.CreateICmpEQ(state, b_.getInt32(kGenRaised)), raised, after,
                  llvm::MDBuilder(ctx()).createBranchWeights(1, 1000));
  b_.SetInsertPoint(raised); // the error it raised propagates; next() after it is StopIteration
  b_.CreateStore(b_.getInt32(kGenDone), statePtr);
  release(g, genType);
  b_.CreateBr(errorBlock_);
  b_.SetInsertPoint(after);
  auto *ready = b_.CreatePHI(b_.getInt1Ty(), 2, "gen.ready");
  ready->addIncoming(b_.getFalse(), pre);
  ready->addIncoming(isReady, resumed);
  if (e.sub == 0) {
    release(g, genType);
    return {ready, false};
  }
  auto *stop = newBlock("gen.stop");
  auto *ok = newBlock("gen.item");
  b_.CreateCondBr(ready, ok, stop);
  b_.SetInsertPoint(stop);
  release(g, genType);
  b_.CreateCall(runtimeFn("mahou_rt_set_error", b_.getVoidTy(), {b_.getInt32Ty(), b_.getPtrTy()}),
                {b_.getInt32(uint32_t(types::ExcKind::StopIteration)), stringConstant("")});
  b_.CreateBr(errorBlock_);
  b_.SetInsertPoint(ok);
  llvm::Value *v = fromMem(b_.CreateLoad(types_.mem(item), b_.CreateStructGEP(pty, promise, 1)), item);
  release(g, genType);
  return {v, item.hasRefs()};
}

} // namespace mahou::codegen
