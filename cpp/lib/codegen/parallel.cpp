// Lowering of an outlined prange loop (ParallelFor after transforms/outline_parallel_loops):
// the context the chunks read, the trampoline the runtime calls for each chunk
// (parallel.h), the call of mahou_rt_parallel_for, and the combine of each chunk's
// partial results into the reduction variables, in chunk order.
#include "lowering.h"

namespace mahou::codegen {

namespace {

// The context of a loop's chunks: { i64 start, i64 step, ptr partials, captured... }.
llvm::StructType *contextType(llvm::LLVMContext &ctx, TypeMapper &types, const ir::Function &chunk) {
  std::vector<llvm::Type *> fields{llvm::Type::getInt64Ty(ctx), llvm::Type::getInt64Ty(ctx),
                                   llvm::PointerType::get(ctx, 0)};
  for (int k = 4; k < chunk.numParams; ++k) fields.push_back(types.ssa(chunk.argTypes[k]));
  return llvm::StructType::get(ctx, fields);
}

llvm::Type *partialType(TypeMapper &types, const ir::Function &chunk) {
  return chunk.ret.isNone() ? llvm::Type::getInt8Ty(types.ctx()) : types.mem(chunk.ret);
}

// i32 @chunk.run(ptr ctx, i64 begin, i64 end, i64 chunk): the chunk function on one
// range, its partial results into partials[chunk].
llvm::Function *trampoline(llvm::Module &module, TypeMapper &types, const ir::Function &chunk) {
  std::string name = chunk.symbol + ".run";
  if (llvm::Function *f = module.getFunction(name)) return f;
  auto &ctx = module.getContext();
  auto *i64 = llvm::Type::getInt64Ty(ctx);
  auto *ptr = llvm::PointerType::get(ctx, 0);
  auto *fty = llvm::FunctionType::get(llvm::Type::getInt32Ty(ctx), {ptr, i64, i64, i64}, false);
  auto *f = llvm::Function::Create(fty, llvm::Function::InternalLinkage, name, module);
  f->addFnAttr(llvm::Attribute::NoUnwind);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", f));
  llvm::StructType *ctxT = contextType(ctx, types, chunk);
  llvm::Value *c = f->getArg(0);
  // 0 <= begin <= end: with it LLVM knows a prange(n) index is never negative (no
  // wrap-around of negative indices in the body) and the loop vectorises as range()'s.
  b.CreateAssumption(b.CreateICmpSGE(f->getArg(1), b.getInt64(0)));
  b.CreateAssumption(b.CreateICmpSLE(f->getArg(1), f->getArg(2)));
  auto field = [&](unsigned k) { return b.CreateLoad(ctxT->getElementType(k), b.CreateStructGEP(ctxT, c, k)); };
  llvm::Value *partials = field(2);
  llvm::Value *ret = b.CreateInBoundsGEP(partialType(types, chunk), partials, f->getArg(3));
  std::vector<llvm::Value *> args{ret, f->getArg(1), f->getArg(2), field(0), field(1)};
  for (unsigned k = 3; k < ctxT->getNumElements(); ++k) args.push_back(field(k));
  llvm::Function *callee = declareCompiled(module, types, chunk.symbol, chunk.argTypes);
  b.CreateRet(b.CreateCall(callee, args));
  return f;
}

} // namespace

const ir::Function *FunctionLowering::helperFunction(const std::string &symbol) const {
  if (helpers_)
    for (const ir::Function *h : *helpers_)
      if (h->symbol == symbol) return h;
  return nullptr;
}

void FunctionLowering::parallelFor(const ir::Stmt &s) {
  const ir::Function *chunk = helperFunction(s.text);
  if (!chunk) internalError("prange chunk function " + s.text + " is not in the module");
  llvm::Value *start = scalarExpr(*s.exprs[0]);
  llvm::Value *stop = scalarExpr(*s.exprs[1]);
  llvm::Value *step = scalarExpr(*s.exprs[2]);
  raiseIf(b_.CreateICmpEQ(step, c64(0)), types::ExcKind::ValueError, "range() arg 3 must not be zero");
  llvm::Value *grain = scalarExpr(*s.exprs[3]);
  std::vector<Value> captured;
  for (size_t k = 4; k < s.exprs.size(); ++k) captured.push_back(expr(*s.exprs[k]));
  // Trips as range() counts them: ceil(|stop - start| / |step|) in the step's direction.
  llvm::Value *pos = b_.CreateICmpSGT(step, c64(0));
  llvm::Value *span = b_.CreateSelect(pos, b_.CreateSub(stop, start), b_.CreateSub(start, stop));
  llvm::Value *mag = b_.CreateSelect(pos, step, b_.CreateNeg(step));
  llvm::Value *count = b_.CreateUDiv(b_.CreateAdd(span, b_.CreateSub(mag, c64(1))), mag);
  llvm::Value *trips = b_.CreateSelect(b_.CreateICmpSGT(span, c64(0)), count, c64(0));

  llvm::StructType *ctxT = contextType(ctx(), types_, *chunk);
  llvm::Value *context = entryAlloca(ctxT, "prange.ctx");
  b_.CreateStore(start, b_.CreateStructGEP(ctxT, context, 0));
  b_.CreateStore(step, b_.CreateStructGEP(ctxT, context, 1));
  for (size_t k = 0; k < captured.size(); ++k)
    b_.CreateStore(captured[k].v, b_.CreateStructGEP(ctxT, context, unsigned(3 + k)));
  // One partial result per chunk, on the stack for the loop's duration.
  llvm::Type *partialT = partialType(types_, *chunk);
  llvm::Value *nchunks = b_.CreateCall(runtimeFn("mahou_rt_parallel_chunks_grain", i64(), {i64(), i64()}), {trips, grain});
  llvm::Value *stack = b_.CreateStackSave();
  llvm::Value *partials = b_.CreateAlloca(partialT, nchunks, "prange.partials");
  const llvm::DataLayout &layout = module_.getDataLayout();
  b_.CreateMemSet(partials, b_.getInt8(0), b_.CreateMul(nchunks, c64(int64_t(layout.getTypeAllocSize(partialT)))),
                  llvm::MaybeAlign());
  b_.CreateStore(partials, b_.CreateStructGEP(ctxT, context, 2));
  llvm::Value *status = b_.CreateCall(
      runtimeFn("mahou_rt_parallel_for_grain", b_.getInt32Ty(), {i64(), i64(), b_.getPtrTy(), b_.getPtrTy()}),
      {trips, grain, trampoline(module_, types_, *chunk), context});
  for (size_t k = 0; k < captured.size(); ++k) release(captured[k], s.exprs[4 + k]->type);

  // Over the chunks in order: the combine body with partials[c], then its references dropped.
  const Type &partialsT = chunk->ret;
  auto overChunks = [&](const char *name, const std::function<void()> &each) {
    loopNest({nchunks}, [&](const std::vector<llvm::Value *> &c) {
      partialSlot_ = b_.CreateInBoundsGEP(partialT, partials, c[0], name);
      each();
      if (partialsT.hasRefs()) decref(fromMem(b_.CreateLoad(partialT, partialSlot_), partialsT), partialsT);
    });
    partialSlot_ = nullptr;
  };
  auto *failed = newBlock("prange.failed");
  auto *ok = newBlock("prange.ok");
  b_.CreateCondBr(b_.CreateICmpNE(status, b_.getInt32(0)), failed, ok,
                  llvm::MDBuilder(ctx()).createBranchWeights(1, 1000));
  b_.SetInsertPoint(failed); // the chunks that finished hold partials: release them
  overChunks("prange.partial", [] {});
  b_.CreateStackRestore(stack);
  b_.CreateBr(errorBlock_);
  b_.SetInsertPoint(ok);
  if (!s.body.empty()) overChunks("prange.partial", [&] { block(s.body); });
  b_.CreateStackRestore(stack);
  block(s.orelse);
}

Value FunctionLowering::parallelPartial(const ir::Expr &e) {
  if (!partialSlot_) internalError("a prange partial result outside the loop's combine");
  return {fromMem(b_.CreateLoad(types_.mem(e.type), partialSlot_), e.type), false};
}

} // namespace mahou::codegen
