// Lowering of the language-level IR added for tuples and exceptions: dynamic tuple
// indexing, tuple slices and concatenation, try/except regions (the error exit is
// redirected to the handler while the protected body is lowered), and the complex
// cmath functions that call into the runtime.
#include "lowering.h"

#include "mahou/runtime.h"

namespace mahou::codegen {

namespace {

// Builds a tuple value of type `t` from memory-form elements.
llvm::Value *buildTuple(llvm::IRBuilder<> &b, llvm::Type *memType, const std::vector<llvm::Value *> &elems) {
  llvm::Value *agg = llvm::UndefValue::get(memType);
  for (size_t i = 0; i < elems.size(); ++i) agg = b.CreateInsertValue(agg, elems[i], {unsigned(i)});
  return agg;
}

} // namespace

Value FunctionLowering::languageExpr(const ir::Expr &e) {
  switch (e.op) {
  case ir::ExprOp::TupleIndex: {
    const Type &tt = e.args[0]->type;
    Value t = expr(*e.args[0]);
    llvm::Value *idx = scalarExpr(*e.args[1]);
    int64_t n = int64_t(tt.elems.size());
    idx = b_.CreateSelect(b_.CreateICmpSLT(idx, c64(0)), b_.CreateAdd(idx, c64(n)), idx);
    raiseIf(b_.CreateICmpUGE(idx, c64(n)), types::ExcKind::IndexError, "tuple index out of range");
    llvm::Type *elemMem = types_.mem(tt.elems[0]);
    auto *arrTy = llvm::ArrayType::get(elemMem, uint64_t(n));
    llvm::Value *slot = entryAlloca(types_.mem(tt), "tuple.tmp");
    b_.CreateStore(t.v, slot);
    llvm::Value *p = b_.CreateInBoundsGEP(arrTy, slot, {c64(0), idx});
    llvm::Value *x = fromMem(b_.CreateLoad(elemMem, p), e.type);
    if (!tt.hasRefs()) return {x, false};
    incref(x, e.type);
    release(t, tt);
    return {x, true};
  }
  case ir::ExprOp::TupleSlice:
  case ir::ExprOp::TupleConcat: {
    std::vector<llvm::Value *> elems;
    std::vector<std::pair<Value, const Type *>> sources;
    for (auto &a : e.args) sources.push_back({expr(*a), &a->type});
    if (e.op == ir::ExprOp::TupleSlice) {
      for (size_t k = 0; k < e.type.elems.size(); ++k)
        elems.push_back(b_.CreateExtractValue(sources[0].first.v, {unsigned(e.ival + int64_t(k) * e.sub)}));
    } else {
      for (auto &[v, t] : sources)
        for (unsigned i = 0; i < t->elems.size(); ++i) elems.push_back(b_.CreateExtractValue(v.v, {i}));
    }
    bool arrays = e.type.hasRefs();
    if (arrays)
      for (size_t k = 0; k < elems.size(); ++k)
        if (e.type.elems[k].hasRefs()) incref(elems[k], e.type.elems[k]);
    for (auto &[v, t] : sources) release(v, *t);
    return {buildTuple(b_, types_.mem(e.type), elems), arrays};
  }
  case ir::ExprOp::ExcMatch: {
    auto fn = runtimeFn("mahou_rt_error_matches", b_.getInt8Ty(), {b_.getInt32Ty()});
    llvm::Value *r = b_.CreateCall(fn, {b_.getInt32(uint32_t(e.ival))});
    return {b_.CreateICmpNE(r, b_.getInt8(0)), false};
  }
  default: break;
  }
  internalError("languageExpr: unexpected IR expression");
}

void FunctionLowering::tryExcept(const ir::Stmt &s) {
  auto *handler = newBlock("try.handler");
  auto *end = newBlock("try.end");
  llvm::BasicBlock *outer = errorBlock_;
  errorBlock_ = handler; // raises and failing calls in the body land in the handler
  // What an enclosing expression holds lives on past a handler that catches: a raise
  // in the body must not release it.
  auto held = std::move(heldForError_);
  heldForError_.clear();
  block(s.body);
  heldForError_ = std::move(held);
  errorBlock_ = outer;
  b_.CreateBr(end);
  b_.SetInsertPoint(handler);
  block(s.orelse);
  b_.CreateBr(end);
  b_.SetInsertPoint(end);
}

void FunctionLowering::languageStmt(const ir::Stmt &s) {
  switch (s.op) {
  case ir::StmtOp::TryExcept: tryExcept(s); return;
  case ir::StmtOp::ClearError:
    b_.CreateCall(runtimeFn("mahou_rt_clear_error", b_.getVoidTy(), {}));
    return;
  case ir::StmtOp::SaveError:
  case ir::StmtOp::RestoreError: {
    llvm::Value *&slot = errorSlots_[s.var];
    if (!slot) slot = entryAlloca(llvm::ArrayType::get(b_.getInt8Ty(), sizeof(MahouError)), "saved.error");
    bool save = s.op == ir::StmtOp::SaveError;
    b_.CreateCall(runtimeFn(save ? "mahou_rt_save_error" : "mahou_rt_restore_error", b_.getVoidTy(), {b_.getPtrTy()}),
                  {slot});
    return;
  }
  case ir::StmtOp::Reraise:
    b_.CreateBr(errorExit());
    startDeadBlock();
    return;
  default: break;
  }
  internalError("languageStmt: unexpected IR statement");
}

llvm::Value *FunctionLowering::complexRuntime(const char *name, llvm::Value *z, const Type &t) {
  // The runtime computes in complex128; complex64 is widened and narrowed around it.
  Type ft = Type::scalar(types::realOf(t.dtype));
  llvm::Value *re = castScalar(b_.CreateExtractValue(z, 0), ft, Type::float64());
  llvm::Value *im = castScalar(b_.CreateExtractValue(z, 1), ft, Type::float64());
  auto *pairTy = llvm::ArrayType::get(b_.getDoubleTy(), 2);
  llvm::Value *out = entryAlloca(pairTy, "cmath.out");
  auto fn = runtimeFn(name, b_.getVoidTy(), {b_.getDoubleTy(), b_.getDoubleTy(), b_.getPtrTy()});
  b_.CreateCall(fn, {re, im, out});
  llvm::Value *r = b_.CreateLoad(b_.getDoubleTy(), b_.CreateConstInBoundsGEP2_64(pairTy, out, 0, 0));
  llvm::Value *i = b_.CreateLoad(b_.getDoubleTy(), b_.CreateConstInBoundsGEP2_64(pairTy, out, 0, 1));
  llvm::Value *agg = llvm::UndefValue::get(z->getType());
  agg = b_.CreateInsertValue(agg, castScalar(r, Type::float64(), ft), {0});
  return b_.CreateInsertValue(agg, castScalar(i, Type::float64(), ft), {1});
}

} // namespace mahou::codegen
