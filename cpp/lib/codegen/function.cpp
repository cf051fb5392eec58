// Lowering of a function: its frame (variable slots, the return and error exits
// that release local references), statements and control flow, calls, tuples,
// and the uniform entry wrapper the dispatcher calls.
#include "lowering.h"

#include <limits>

#include "mahou/native_entries.h"

#include <llvm/Analysis/CFG.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

namespace mahou::codegen {

std::string entrySymbol(const std::string &symbol) { return symbol + ".entry"; }

llvm::Function *declareCompiled(llvm::Module &module, TypeMapper &types, const std::string &symbol,
                                const std::vector<Type> &argTypes) {
  if (auto *f = module.getFunction(symbol)) return f;
  auto &ctx = module.getContext();
  std::vector<llvm::Type *> params{llvm::PointerType::get(ctx, 0)};
  for (auto &t : argTypes) params.push_back(types.ssa(t));
  auto *fty = llvm::FunctionType::get(llvm::Type::getInt32Ty(ctx), params, false);
  return llvm::Function::Create(fty, llvm::Function::ExternalLinkage, symbol, module);
}

FunctionLowering::FunctionLowering(const ir::Function &fn, llvm::Module &module, const CodegenOptions &options)
    : fn_(fn), module_(module), options_(options), types_(module.getContext()), b_(module.getContext()) {}

llvm::BasicBlock *FunctionLowering::newBlock(const char *name) {
  return llvm::BasicBlock::Create(ctx(), name, func_);
}

llvm::Value *FunctionLowering::entryAlloca(llvm::Type *t, const char *name) {
  llvm::IRBuilder<> eb(entryBlock_, entryBlock_->begin());
  return eb.CreateAlloca(t, nullptr, name);
}

llvm::FunctionCallee FunctionLowering::runtimeFn(const char *name, llvm::Type *ret, llvm::ArrayRef<llvm::Type *> args) {
  return module_.getOrInsertFunction(name, llvm::FunctionType::get(ret, args, false));
}

llvm::Value *FunctionLowering::stringConstant(const std::string &s) {
  return b_.CreateGlobalStringPtr(s, "str", 0, &module_);
}

void FunctionLowering::startDeadBlock() { b_.SetInsertPoint(newBlock("dead")); }

llvm::BasicBlock *FunctionLowering::errorExit() {
  if (heldForError_.empty() || gpu()) return errorBlock_;
  llvm::IRBuilderBase::InsertPointGuard guard(b_);
  auto *release = newBlock("raise.release");
  b_.SetInsertPoint(release);
  for (auto it = heldForError_.rbegin(); it != heldForError_.rend(); ++it) decref(it->first, it->second);
  b_.CreateBr(errorBlock_);
  return release;
}

size_t FunctionLowering::holdForError(const Value &v, const Type &t) {
  size_t mark = heldForError_.size();
  if (v.owned && t.hasRefs()) heldForError_.push_back({v.v, t});
  return mark;
}

void FunctionLowering::raise(types::ExcKind kind, const std::string &message) {
  if (gpu()) { // kernels stop the thread's work; with debug=True the launch reports the first raise
    if (options_.raiseSites) recordKernelRaise(kind, message);
    b_.CreateBr(errorBlock_);
    startDeadBlock();
    return;
  }
  auto fn = runtimeFn("mahou_rt_set_error", b_.getVoidTy(), {b_.getInt32Ty(), b_.getPtrTy()});
  b_.CreateCall(fn, {b_.getInt32(uint32_t(kind)), stringConstant(message)});
  b_.CreateBr(errorExit());
  startDeadBlock();
}

void FunctionLowering::raiseIf(llvm::Value *cond, types::ExcKind kind, const std::string &message) {
  auto *fail = newBlock("raise");
  auto *ok = newBlock("ok");
  b_.CreateCondBr(cond, fail, ok, llvm::MDBuilder(ctx()).createBranchWeights(1, 1000));
  b_.SetInsertPoint(fail);
  if (!gpu()) {
    auto fn = runtimeFn("mahou_rt_set_error", b_.getVoidTy(), {b_.getInt32Ty(), b_.getPtrTy()});
    b_.CreateCall(fn, {b_.getInt32(uint32_t(kind)), stringConstant(message)});
  }
  b_.CreateBr(errorExit());
  b_.SetInsertPoint(ok);
}

llvm::Function *FunctionLowering::run() {
  std::vector<Type> params(fn_.argTypes.begin(), fn_.argTypes.end());
  func_ = declareCompiled(module_, types_, fn_.symbol, params);
  if (!func_->empty()) internalError("function " + fn_.symbol + " defined twice");
  func_->addFnAttr(llvm::Attribute::NoUnwind);
  // GPU code may hold barriers (syncthreads, grid sync, warp operations): as clang does
  // for CUDA, every function is convergent, so that no pass duplicates a call into
  // divergent branches (bar.sync is .aligned: a warp must reach one instruction).
  // LLVM drops the attribute where it proves no convergent operation is reached.
  if (gpu()) func_->addFnAttr(llvm::Attribute::Convergent);
  entryBlock_ = newBlock("entry");
  auto *body = newBlock("body");
  returnBlock_ = newBlock("return");
  errorBlock_ = newBlock("error");
  b_.SetInsertPoint(entryBlock_);
  retPtr_ = func_->getArg(0);
  for (size_t i = 0; i < fn_.vars.size(); ++i) {
    llvm::Type *t = types_.ssa(fn_.vars[i].type);
    auto *slot = b_.CreateAlloca(t, nullptr, fn_.vars[i].name);
    slots_.push_back(slot);
  }
  if (fn_.generator) beginGenerator();
  for (size_t i = 0; i < fn_.vars.size(); ++i)
    b_.CreateStore(llvm::Constant::getNullValue(slots_[i]->getAllocatedType()), slots_[i]);
  // Parameters: take a reference for the slot, converting if the variable was widened.
  // A parameter the body never assigns (and a generator's frame does not keep) borrows
  // the caller's reference instead: the caller holds its argument for the whole call.
  // Then no reference is taken here and dropped at the exits, a pair of runtime calls
  // that would keep LLVM from keeping an instance's fields in registers across a loop
  // that calls an inlined method.
  borrowed_ = borrowedParams(fn_);
  for (int i = 0; i < fn_.numParams; ++i) {
    llvm::Value *arg = func_->getArg(i + 1);
    const Type &from = fn_.argTypes[i], &to = fn_.vars[i].type;
    // A number widened, an array of another layout, a value that is None elsewhere
    // (an optional), a literal string stored as a string.
    if (from != to) arg = castValue({arg, false}, from, to, nullptr).v;
    // A generator's frame may outlive the call (returned to Python): an array or
    // Generator borrowed from NumPy gets a holder of its own, as when stored in a list.
    if (fn_.generator) arg = ownedForStore({arg, false}, to);
    else if (!borrowed_[size_t(i)]) incref(arg, to);
    b_.CreateStore(arg, slots_[i]);
    assumeExtentsBounded(func_->getArg(i + 1), from);
  }
  if (fn_.generator) startGenerator(body);
  else b_.CreateBr(body);
  b_.SetInsertPoint(body);
  block(fn_.body);
  if (!b_.GetInsertBlock()->getTerminator()) {
    // Falling off the end returns None: an optional result's None is all zeros.
    if (fn_.ret.isOptional() && !fn_.generator) b_.CreateStore(llvm::Constant::getNullValue(types_.mem(fn_.ret)), retPtr_);
    b_.CreateBr(returnBlock_);
  }

  b_.SetInsertPoint(returnBlock_);
  releaseLocals();
  if (fn_.generator) endGenerator(false);
  else b_.CreateRet(b_.getInt32(0));
  b_.SetInsertPoint(errorBlock_);
  releaseLocals();
  if (fn_.generator) endGenerator(true);
  else b_.CreateRet(b_.getInt32(1));
  // Blocks left open after raise/return (dead code) are unreachable.
  for (auto &bb : *func_)
    if (!bb.getTerminator()) {
      llvm::IRBuilder<> tb(&bb);
      tb.CreateUnreachable();
    }
  return func_;
}

// An array argument's extents are at most PY_SSIZE_T_MAX / itemsize: NumPy refuses a
// larger array ("array is too big"), and so does mahou's allocation. Said to LLVM, it
// proves `i * len(x) + k` (i, k counters of ranges) free of signed overflow, so the
// negative-index test of `a[i * len(x) + k]` folds away and a loop over k reads the array
// with consecutive (vector) loads instead of a gather.
void FunctionLowering::assumeExtentsBounded(llvm::Value *arg, const Type &t) {
  if (!t.isArray() || t.isRecordArray() || t.ndim < 1) return;
  int bytes = types::dtypeBytes(t.dtype);
  if (bytes < 2) return; // every int64 extent is possible
  llvm::Value *limit = c64(std::numeric_limits<int64_t>::max() / bytes);
  for (int d = 0; d < t.ndim; ++d)
    b_.CreateAssumption(b_.CreateICmpULE(arrayShape(arg, d), limit));
}

void FunctionLowering::releaseLocals() {
  for (size_t i = 0; i < fn_.vars.size(); ++i)
    if (fn_.vars[i].type.hasRefs() && !(i < borrowed_.size() && borrowed_[i]))
      decref(b_.CreateLoad(slots_[i]->getAllocatedType(), slots_[i]), fn_.vars[i].type);
}

namespace {

// Marks every variable an IR block may write (assignments, loop counters, lets).
void writtenVars(const ir::Block &b, std::vector<bool> &written);
void writtenVars(const ir::Expr &e, std::vector<bool> &written) {
  if (e.op == ir::ExprOp::Let && e.var >= 0 && size_t(e.var) < written.size()) written[size_t(e.var)] = true;
  for (auto &a : e.args) writtenVars(*a, written);
  if (e.body) writtenVars(*e.body, written);
  for (auto &slot : e.slots)
    for (const ir::ExprPtr *x : {&slot.index, &slot.start, &slot.stop, &slot.step})
      if (*x) writtenVars(**x, written);
}
void writtenVars(const ir::Block &b, std::vector<bool> &written) {
  for (auto &s : b) {
    // Any statement naming a variable (its slot number for SaveError/RestoreError: a
    // false positive only keeps a reference taken).
    if (s->var >= 0 && size_t(s->var) < written.size()) written[size_t(s->var)] = true;
    for (auto &e : s->exprs) writtenVars(*e, written);
    writtenVars(s->body, written);
    writtenVars(s->orelse, written);
  }
}

} // namespace

std::vector<bool> borrowedParams(const ir::Function &fn) {
  std::vector<bool> borrowed(size_t(fn.numParams), false);
  if (fn.generator) return borrowed; // the frame outlives the call that made it
  std::vector<bool> written(size_t(fn.numParams), false);
  writtenVars(fn.body, written);
  for (size_t i = 0; i < borrowed.size(); ++i)
    borrowed[i] = !written[i] && fn.argTypes[i] == fn.vars[i].type && fn.vars[i].type.hasRefs();
  return borrowed;
}

// ------------------------------------------------------------------ statements

void FunctionLowering::block(const ir::Block &b) {
  for (auto &s : b) stmt(*s);
}

void FunctionLowering::assign(int var, const ir::Expr &value) { storeVar(var, expr(value)); }

void FunctionLowering::storeVar(int var, Value v) {
  const Type &t = fn_.vars[var].type;
  if (t.hasRefs()) {
    llvm::Value *owned = own(v, t);
    llvm::Value *old = b_.CreateLoad(slots_[var]->getAllocatedType(), slots_[var]);
    b_.CreateStore(owned, slots_[var]);
    decref(old, t);
    return;
  }
  b_.CreateStore(v.v, slots_[var]);
}

std::string FunctionLowering::where() const {
  if (stmtLoc_.line <= 0) return "";
  return " at " + fn_.file + ":" + std::to_string(stmtLoc_.line) + " in '" + fn_.name + "'";
}

void FunctionLowering::stmt(const ir::Stmt &s) {
  struct LocScope { // the enclosing statement's line again once a nested one is done
    Loc &slot;
    Loc saved;
    ~LocScope() { slot = saved; }
  } scope{stmtLoc_, stmtLoc_};
  stmtLoc_ = s.loc;
  switch (s.op) {
  case ir::StmtOp::Assign: assign(s.var, *s.exprs[0]); return;
  case ir::StmtOp::StoreItem: storeItem(s); return;
  case ir::StmtOp::Eval: {
    Value v = expr(*s.exprs[0]);
    release(v, s.exprs[0]->type);
    return;
  }
  case ir::StmtOp::If: ifStmt(s); return;
  case ir::StmtOp::While: whileLoop(s); return;
  case ir::StmtOp::ForRange: forRange(s); return;
  case ir::StmtOp::ParallelFor: parallelFor(s); return;
  case ir::StmtOp::Break:
    b_.CreateBr(loops_.back().breakTo);
    startDeadBlock();
    return;
  case ir::StmtOp::Continue:
    b_.CreateBr(loops_.back().continueTo);
    startDeadBlock();
    return;
  case ir::StmtOp::Return: returnStmt(s); return;
  case ir::StmtOp::Yield: yieldStmt(s); return;
  case ir::StmtOp::Raise:
    if (!s.exprs.empty()) return raiseWithArgs(s); // exception_args.cpp
    raise(s.exc, s.text);
    return;
  case ir::StmtOp::Print: print(s); return;
  case ir::StmtOp::TryExcept:
  case ir::StmtOp::ClearError:
  case ir::StmtOp::SaveError:
  case ir::StmtOp::RestoreError:
  case ir::StmtOp::Reraise: languageStmt(s); return;
  case ir::StmtOp::StoreView: storeView(s); return;
  case ir::StmtOp::Scatter: scatter(s); return;
  case ir::StmtOp::FancyStore: fancyStore(s); return;
  case ir::StmtOp::StoreFlatItem: storeFlatItem(s); return;
  }
}

void FunctionLowering::ifStmt(const ir::Stmt &s) {
  llvm::Value *cond = scalarExpr(*s.exprs[0]);
  auto *thenB = newBlock("if.then");
  auto *elseB = newBlock("if.else");
  auto *end = newBlock("if.end");
  b_.CreateCondBr(cond, thenB, elseB);
  b_.SetInsertPoint(thenB);
  block(s.body);
  b_.CreateBr(end);
  b_.SetInsertPoint(elseB);
  block(s.orelse);
  b_.CreateBr(end);
  b_.SetInsertPoint(end);
}

void FunctionLowering::whileLoop(const ir::Stmt &s) {
  auto *header = newBlock("while.cond");
  auto *body = newBlock("while.body");
  auto *orelse = newBlock("while.else");
  auto *end = newBlock("while.end");
  b_.CreateBr(header);
  b_.SetInsertPoint(header);
  b_.CreateCondBr(scalarExpr(*s.exprs[0]), body, orelse);
  b_.SetInsertPoint(body);
  loops_.push_back({end, header});
  block(s.body);
  loops_.pop_back();
  b_.CreateBr(header);
  b_.SetInsertPoint(orelse);
  block(s.orelse);
  b_.CreateBr(end);
  b_.SetInsertPoint(end);
}

void FunctionLowering::forRange(const ir::Stmt &s) {
  llvm::Value *start = scalarExpr(*s.exprs[0]);
  llvm::Value *stop = scalarExpr(*s.exprs[1]);
  const ir::Expr &stepE = *s.exprs[2];
  llvm::Value *step = scalarExpr(stepE);
  bool constStep = stepE.op == ir::ExprOp::Const;
  if (constStep && stepE.ival == 0) {
    raise(types::ExcKind::ValueError, "range() arg 3 must not be zero");
    return;
  }
  if (!constStep) raiseIf(b_.CreateICmpEQ(step, c64(0)), types::ExcKind::ValueError, "range() arg 3 must not be zero");
  // A step known only at run time: count the trips first (as range() does), so the loop
  // is a canonical counted loop instead of testing the step's sign every iteration.
  // The span and the step's magnitude are unsigned (a range may span more than 2**63:
  // range(2**63 - 1, -2**63, -2**62)); the trip count is (span - 1) / |step| + 1, which
  // cannot overflow, and is compared unsigned.
  llvm::Value *trips = nullptr;
  if (!constStep) {
    llvm::Value *pos = b_.CreateICmpSGT(step, c64(0));
    llvm::Value *nonEmpty = b_.CreateSelect(pos, b_.CreateICmpSLT(start, stop), b_.CreateICmpSGT(start, stop));
    llvm::Value *span = b_.CreateSelect(pos, b_.CreateSub(stop, start), b_.CreateSub(start, stop));
    llvm::Value *mag = b_.CreateSelect(pos, step, b_.CreateNeg(step));
    llvm::Value *count = b_.CreateAdd(b_.CreateUDiv(b_.CreateSub(span, c64(1)), mag), c64(1));
    trips = b_.CreateSelect(nonEmpty, count, c64(0));
  }
  auto *pre = b_.GetInsertBlock();
  auto *header = newBlock("for.cond");
  auto *body = newBlock("for.body");
  auto *latch = newBlock("for.inc");
  auto *orelse = newBlock("for.else");
  auto *end = newBlock("for.end");
  b_.CreateBr(header);
  b_.SetInsertPoint(header);
  auto *iv = b_.CreatePHI(i64(), 2, "i");
  iv->addIncoming(constStep ? start : c64(0), pre); // the value, or the trip number
  // With a run-time step the value is a second induction, advanced by the step (not
  // start + trip * step: the vectoriser widens a multiply per lane from that, where an
  // added step is one vector add). Its last advance may pass int64's end: no nsw.
  llvm::PHINode *value = nullptr;
  if (!constStep) {
    value = b_.CreatePHI(i64(), 2, "i.value");
    value->addIncoming(start, pre);
  }
  llvm::Value *cond;
  if (constStep) cond = stepE.ival > 0 ? b_.CreateICmpSLT(iv, stop) : b_.CreateICmpSGT(iv, stop);
  else cond = b_.CreateICmpULT(iv, trips);
  b_.CreateCondBr(cond, body, orelse);
  b_.SetInsertPoint(body);
  b_.CreateStore(constStep ? static_cast<llvm::Value *>(iv) : value, slots_[s.var]);
  loops_.push_back({end, latch});
  block(s.body);
  loops_.pop_back();
  b_.CreateBr(latch);
  b_.SetInsertPoint(latch);
  // The value steps without signed overflow (the loop ends first); the trip number
  // counts up to at most 2**64 - 1.
  auto *next = constStep ? b_.CreateAdd(iv, step, "i.next", /*HasNUW=*/false, /*HasNSW=*/true)
                         : b_.CreateAdd(iv, c64(1), "i.next", /*HasNUW=*/true, /*HasNSW=*/false);
  if (value) value->addIncoming(b_.CreateAdd(value, step, "i.value.next"), latch);
  b_.CreateBr(header);
  iv->addIncoming(next, latch);
  b_.SetInsertPoint(orelse);
  block(s.orelse);
  b_.CreateBr(end);
  b_.SetInsertPoint(end);
}

void FunctionLowering::returnStmt(const ir::Stmt &s) {
  if (!s.exprs.empty()) {
    Value v = expr(*s.exprs[0]);
    llvm::Value *owned = fn_.ret.hasRefs() ? own(v, fn_.ret) : v.v;
    b_.CreateStore(toMem(owned, fn_.ret), retPtr_);
  }
  b_.CreateBr(returnBlock_);
  startDeadBlock();
}

void FunctionLowering::print(const ir::Stmt &s) {
  if (gpu() || options_.simulateGpu) return kernelPrint(s);
  auto *voidT = b_.getVoidTy();
  for (size_t i = 0; i < s.exprs.size(); ++i) {
    if (i) b_.CreateCall(runtimeFn("mahou_rt_print_sep", voidT, {}));
    const Type &t = s.exprs[i]->type;
    if (t.isArray()) {
      Value a = expr(*s.exprs[i]);
      printArray(a.v, t);
      release(a, t);
      continue;
    }
    if (t.isUnicode() || t.isOptional()) {
      Value x = expr(*s.exprs[i]);
      printValue(x.v, t);
      release(x, t);
      continue;
    }
    llvm::Value *v = scalarExpr(*s.exprs[i]);
    printScalar(v, t);
  }
  b_.CreateCall(runtimeFn("mahou_rt_print_newline", voidT, {}));
}

void FunctionLowering::printScalar(llvm::Value *v, const Type &t) {
  auto *voidT = b_.getVoidTy();
  if (t.kind == types::Kind::Str) {
    b_.CreateCall(runtimeFn("mahou_rt_print_str", voidT, {b_.getPtrTy()}), {v});
  } else if (t.isNone()) {
    b_.CreateCall(runtimeFn("mahou_rt_print_str", voidT, {b_.getPtrTy()}), {stringConstant("None")});
  } else if (t.isBool()) {
    b_.CreateCall(runtimeFn("mahou_rt_print_bool", voidT, {b_.getInt1Ty()}), {v});
  } else if (t.isInt()) {
    bool sgn = types::isSigned(t.dtype);
    llvm::Value *w = sgn ? b_.CreateSExt(v, i64()) : b_.CreateZExt(v, i64());
    b_.CreateCall(runtimeFn(sgn ? "mahou_rt_print_i64" : "mahou_rt_print_u64", voidT, {i64()}), {w});
  } else if (t.isFloat()) {
    b_.CreateCall(runtimeFn("mahou_rt_print_f64", voidT, {b_.getDoubleTy()}),
                  {castScalar(v, t, Type::float64())});
  } else if (t.isComplex()) {
    // (re+imj) as Python prints it
    auto str = runtimeFn("mahou_rt_print_str", voidT, {b_.getPtrTy()});
    auto f = runtimeFn("mahou_rt_print_f64", voidT, {b_.getDoubleTy()});
    Type ft = Type::scalar(types::realOf(t.dtype));
    b_.CreateCall(str, {stringConstant("(")});
    b_.CreateCall(f, {castScalar(b_.CreateExtractValue(v, 0), ft, Type::float64())});
    b_.CreateCall(str, {stringConstant("+")});
    b_.CreateCall(f, {castScalar(b_.CreateExtractValue(v, 1), ft, Type::float64())});
    b_.CreateCall(str, {stringConstant("j)")});
  }
}

// print() of a string object or an optional (its value, or None).
void FunctionLowering::printValue(llvm::Value *v, const Type &t) {
  auto *voidT = b_.getVoidTy();
  if (t.isUnicode()) {
    b_.CreateCall(runtimeFn("mahou_rt_print_unicode", voidT, {b_.getPtrTy()}), {v});
    return;
  }
  if (!t.isOptional()) internalError("printValue of " + t.str());
  auto *some = newBlock("print.some");
  auto *none = newBlock("print.none");
  auto *done = newBlock("print.done");
  b_.CreateCondBr(b_.CreateICmpNE(b_.CreateExtractValue(v, {1u}), b_.getInt8(0)), some, none);
  b_.SetInsertPoint(none);
  b_.CreateCall(runtimeFn("mahou_rt_print_str", voidT, {b_.getPtrTy()}), {stringConstant("None")});
  b_.CreateBr(done);
  b_.SetInsertPoint(some);
  const Type &inner = t.elems[0];
  llvm::Value *x = fromMem(b_.CreateExtractValue(v, {0u}), inner);
  if (inner.isUnicode()) printValue(x, inner);
  else if (inner.isArray()) printArray(x, inner);
  else printScalar(x, inner);
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
}

void FunctionLowering::printArray(llvm::Value *arr, const Type &t) {
  llvm::Value *slot = entryAlloca(types_.array(t.ndim), "print.array");
  b_.CreateStore(arr, slot);
  b_.CreateCall(runtimeFn("mahou_rt_print_array", b_.getVoidTy(), {b_.getPtrTy(), b_.getInt32Ty(), b_.getInt32Ty()}),
                {slot, b_.getInt32(t.ndim), b_.getInt32(types::dtypeNumpyNum(t.dtype))});
}

// ------------------------------------------------------------------ calls and tuples

Value FunctionLowering::call(const ir::Expr &e) {
  std::vector<Type> argTypes;
  std::vector<Value> args;
  std::vector<llvm::Value *> llArgs;
  size_t mark = heldForError_.size();
  for (auto &a : e.args) {
    argTypes.push_back(a->type);
    Value v = expr(*a);
    // The callee borrows its arguments (borrowedParams): one read from a container or a
    // field (not a variable of this function, which only this function can rebind) gets
    // a reference held over the call, or the callee could drop the last one (xs.clear()).
    if (!v.owned && a->type.hasRefs() && a->op != ir::ExprOp::LoadVar) v = {own(v, a->type), true};
    args.push_back(v);
    holdForError(args.back(), a->type); // a later argument may raise
  }
  dropHeld(mark);
  llvm::Function *callee = declareCompiled(module_, types_, e.symbol, argTypes);
  llvm::Type *retMem = types_.mem(e.type);
  llvm::Value *slot = entryAlloca(retMem, "call.ret");
  llArgs.push_back(slot);
  for (auto &a : args) llArgs.push_back(a.v);
  llvm::Value *status = b_.CreateCall(callee, llArgs);
  for (size_t i = 0; i < args.size(); ++i) release(args[i], argTypes[i]);
  auto *ok = newBlock("call.ok");
  b_.CreateCondBr(b_.CreateICmpNE(status, b_.getInt32(0)), errorExit(), ok,
                  llvm::MDBuilder(ctx()).createBranchWeights(1, 1000));
  b_.SetInsertPoint(ok);
  if (e.type.isNone()) return {llvm::Constant::getNullValue(types_.ssa(e.type)), false};
  return {fromMem(b_.CreateLoad(retMem, slot), e.type), e.type.hasRefs()};
}

Value FunctionLowering::tupleMake(const ir::Expr &e) {
  llvm::Value *agg = llvm::UndefValue::get(types_.mem(e.type));
  bool arrays = e.type.hasRefs();
  size_t mark = heldForError_.size();
  for (size_t i = 0; i < e.args.size(); ++i) {
    Value v = expr(*e.args[i]);
    llvm::Value *x = arrays && e.args[i]->type.hasRefs() ? own(v, e.args[i]->type) : v.v;
    if (arrays) holdForError({x, true}, e.args[i]->type); // a later element may raise
    agg = b_.CreateInsertValue(agg, toMem(x, e.args[i]->type), {unsigned(i)});
  }
  dropHeld(mark);
  return {agg, arrays};
}

Value FunctionLowering::tupleGet(const ir::Expr &e) {
  const Type &tt = e.args[0]->type;
  Value t = expr(*e.args[0]);
  unsigned idx = unsigned(e.ival);
  llvm::Value *x = fromMem(b_.CreateExtractValue(t.v, {idx}), e.type);
  if (!t.owned || !tt.hasRefs()) return {x, false};
  // An owned tuple: keep this element's references, drop the others'.
  for (unsigned i = 0; i < tt.elems.size(); ++i)
    if (i != idx && tt.elems[i].hasRefs()) decref(b_.CreateExtractValue(t.v, {i}), tt.elems[i]);
  return {x, e.type.hasRefs()};
}

Value FunctionLowering::select(const ir::Expr &e) {
  llvm::Value *cond = scalarExpr(*e.args[0]);
  auto *a = newBlock("sel.true");
  auto *b = newBlock("sel.false");
  auto *end = newBlock("sel.end");
  b_.CreateCondBr(cond, a, b);
  bool arrays = e.type.hasRefs();
  b_.SetInsertPoint(a);
  Value va = expr(*e.args[1]);
  llvm::Value *xa = arrays ? own(va, e.type) : va.v;
  auto *aEnd = b_.GetInsertBlock();
  b_.CreateBr(end);
  b_.SetInsertPoint(b);
  Value vb = expr(*e.args[2]);
  llvm::Value *xb = arrays ? own(vb, e.type) : vb.v;
  auto *bEnd = b_.GetInsertBlock();
  b_.CreateBr(end);
  b_.SetInsertPoint(end);
  auto *phi = b_.CreatePHI(xa->getType(), 2);
  phi->addIncoming(xa, aEnd);
  phi->addIncoming(xb, bEnd);
  return {phi, arrays};
}

Value FunctionLowering::shortCircuit(const ir::Expr &e) {
  bool isOr = e.sub == 1;
  llvm::Value *first = scalarExpr(*e.args[0]);
  llvm::Value *t = truth(first, e.type);
  auto *firstEnd = b_.GetInsertBlock();
  auto *second = newBlock(isOr ? "or.rhs" : "and.rhs");
  auto *end = newBlock("sc.end");
  // and: a falsy first operand is the result; or: a truthy one is.
  if (isOr) b_.CreateCondBr(t, end, second);
  else b_.CreateCondBr(t, second, end);
  b_.SetInsertPoint(second);
  llvm::Value *sv = scalarExpr(*e.args[1]);
  auto *secondEnd = b_.GetInsertBlock();
  b_.CreateBr(end);
  b_.SetInsertPoint(end);
  auto *phi = b_.CreatePHI(first->getType(), 2);
  phi->addIncoming(first, firstEnd);
  phi->addIncoming(sv, secondEnd);
  return {phi, false};
}

// ------------------------------------------------------------------ module

bool hasLoops(llvm::Module &module) {
  llvm::SmallVector<std::pair<const llvm::BasicBlock *, const llvm::BasicBlock *>, 8> edges;
  for (llvm::Function &f : module) {
    if (f.isDeclaration()) continue;
    llvm::FindFunctionBackedges(f, edges);
    if (!edges.empty()) return true;
  }
  return false;
}

// i32 @sym.entry(ptr %ret, ptr %argv): loads each argument from argv[i] and calls @sym.
void emitEntry(llvm::Module &module, TypeMapper &types, const ir::Function &fn, llvm::Function *inner,
               bool inlineInner) {
  auto &ctx = module.getContext();
  auto *ptr = llvm::PointerType::get(ctx, 0);
  auto *fty = llvm::FunctionType::get(llvm::Type::getInt32Ty(ctx), {ptr, ptr}, false);
  auto *entry = llvm::Function::Create(fty, llvm::Function::ExternalLinkage, entrySymbol(fn.symbol), module);
  entry->addFnAttr(llvm::Attribute::NoUnwind);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", entry));
  std::vector<llvm::Value *> args{entry->getArg(0)};
  for (size_t i = 0; i < fn.argTypes.size(); ++i) {
    const Type &t = fn.argTypes[i];
    llvm::Value *slot = b.CreateLoad(ptr, b.CreateConstGEP1_64(ptr, entry->getArg(1), i));
    llvm::Value *v = b.CreateLoad(types.mem(t), slot);
    if (t.isBool()) v = b.CreateICmpNE(v, b.getInt8(0));
    args.push_back(v);
  }
  llvm::CallInst *call = b.CreateCall(inner, args);
  if (!inlineInner) call->addFnAttr(llvm::Attribute::NoInline);
  b.CreateRet(call);
}

std::unique_ptr<llvm::Module> lowerFunction(const ir::Function &fn, const std::vector<const ir::Function *> &helpers,
                                            llvm::LLVMContext &ctx, const CodegenOptions &options, bool withEntry,
                                            const PythonAbi *pythonAbi, const NativeEntries *native) {
  auto module = std::make_unique<llvm::Module>(fn.symbol, ctx);
  FunctionLowering lowering(fn, *module, options);
  lowering.helpers_ = &helpers;
  llvm::Function *inner = lowering.run();
  for (const ir::Function *h : helpers) {
    FunctionLowering helper(*h, *module, options);
    helper.helpers_ = &helpers;
    helper.run()->setLinkage(llvm::GlobalValue::InternalLinkage);
  }
  if (withEntry) {
    // The entries call the function: inlined when it is loop-free (a call costs as much
    // as a small body), called when it has loops (inlining would make LLVM optimise and
    // emit every loop two or three times, for a call's worth of time).
    bool inlineInner = !hasLoops(*module);
    TypeMapper types(ctx);
    emitEntry(*module, types, fn, inner, inlineInner);
    if (pythonAbi && pythonEntryFits(fn.argTypes, fn.ret)) emitPythonEntry(*module, fn, inner, *pythonAbi, inlineInner);
    if (native) emitNativeEntries(*module, fn, inner, *native, inlineInner);
  }
  std::string err;
  llvm::raw_string_ostream os(err);
  if (llvm::verifyModule(*module, &os)) {
    std::string text;
    llvm::raw_string_ostream ts(text);
    module->print(ts, nullptr);
    internalError("LLVM verifier failed for " + fn.name + ": " + os.str() + "\n" + ts.str());
  }
  return module;
}

} // namespace mahou::codegen
