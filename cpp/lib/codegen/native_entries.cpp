// The C-ABI entries of native_entries.h, each calling the compiled function's internal
// definition: NumPy ufunc inner loops (a unit-stride version LLVM vectorises and a
// strided one, as Numba's), generalised-ufunc loops over the outer dimension, and C
// callbacks for @cfunc.
#include "lowering.h"

#include "mahou/compiler.h"
#include "mahou/native_entries.h"

namespace mahou {

std::string NativeEntries::key() const {
  std::string k;
  if (ufuncLoop) k += std::string("ufunc->") + (ufuncOut ? types::dtypeName(*ufuncOut) : "auto") + ";";
  if (gufuncCoreDims) {
    k += "gufunc";
    for (const auto &arg : *gufuncCoreDims) {
      k += "(";
      for (int d : arg) k += std::to_string(d) + ",";
      k += ")";
    }
    k += ";";
  }
  if (cfuncRet) k += "cfunc->" + cfuncRet->str() + ";";
  return k;
}

void findNativeEntries(const NativeEntries &native, const std::string &symbol,
                       const std::function<void *(const std::string &)> &lookup, CompiledFunction &out) {
  if (native.ufuncLoop) out.ufuncLoop = lookup(ufuncLoopSymbol(symbol));
  if (native.gufuncCoreDims) out.gufuncLoop = lookup(gufuncLoopSymbol(symbol));
  if (native.cfuncRet) out.cfunc = lookup(cfuncSymbol(symbol));
}

} // namespace mahou

namespace mahou::codegen {

namespace {

using types::DType;

// Converts a number in its register form from one dtype to another, as a C cast
// (floats to integers as NumPy converts them, float_to_int.cpp). Complex to real is refused
// before lowering.
llvm::Value *convertNumber(llvm::IRBuilder<> &b, TypeMapper &types, llvm::Value *v, DType from, DType to) {
  if (from == to) return v;
  llvm::Type *lt = types.scalar(to);
  if (types::isComplex(from) && types::isComplex(to)) {
    DType fr = types::realOf(from), tr = types::realOf(to);
    llvm::Value *agg = llvm::UndefValue::get(lt);
    agg = b.CreateInsertValue(agg, convertNumber(b, types, b.CreateExtractValue(v, 0), fr, tr), 0);
    return b.CreateInsertValue(agg, convertNumber(b, types, b.CreateExtractValue(v, 1), fr, tr), 1);
  }
  if (types::isComplex(from)) {
    if (to != DType::Bool) internalError("complex result converted to a real dtype");
    DType fr = types::realOf(from);
    llvm::Value *re = convertNumber(b, types, b.CreateExtractValue(v, 0), fr, DType::Bool);
    llvm::Value *im = convertNumber(b, types, b.CreateExtractValue(v, 1), fr, DType::Bool);
    return b.CreateOr(re, im);
  }
  if (types::isComplex(to)) {
    llvm::Value *re = convertNumber(b, types, v, from, types::realOf(to));
    llvm::Value *agg = llvm::UndefValue::get(lt);
    agg = b.CreateInsertValue(agg, re, 0);
    return b.CreateInsertValue(agg, llvm::ConstantFP::get(re->getType(), 0.0), 1);
  }
  if (to == DType::Bool) {
    if (types::isFloat(from)) return b.CreateFCmpUNE(v, llvm::ConstantFP::get(v->getType(), 0.0));
    return b.CreateICmpNE(v, llvm::ConstantInt::get(v->getType(), 0));
  }
  bool fromInt = from == DType::Bool || types::isInteger(from);
  bool fromSigned = types::isInteger(from) && types::isSigned(from);
  if (fromInt && types::isInteger(to)) return b.CreateIntCast(v, lt, fromSigned);
  if (fromInt) return fromSigned ? b.CreateSIToFP(v, lt) : b.CreateUIToFP(v, lt);
  if (types::isFloat(to)) return b.CreateFPCast(v, lt);
  return floatToInt(b, v, to, hostIsX86());
}

class EntryBuilder {
public:
  EntryBuilder(llvm::Module &module, const ir::Function &fn, llvm::Function *inner, bool inlineInner)
      : module_(module), ctx_(module.getContext()), fn_(fn), inner_(inner), inlineInner_(inlineInner), types_(ctx_),
        b_(ctx_), ptr_(llvm::PointerType::get(ctx_, 0)), i64_(llvm::Type::getInt64Ty(ctx_)) {}

  // void (ptr args, ptr dims, ptr steps, ptr data)
  llvm::Function *loopFunction(const std::string &name) {
    auto *fty = llvm::FunctionType::get(b_.getVoidTy(), {ptr_, ptr_, ptr_, ptr_}, false);
    func_ = llvm::Function::Create(fty, llvm::Function::ExternalLinkage, name, module_);
    func_->addFnAttr(llvm::Attribute::NoUnwind);
    b_.SetInsertPoint(block("entry"));
    retSlot_ = b_.CreateAlloca(fn_.ret.isNumber() || fn_.ret.isTuple() ? types_.mem(fn_.ret) : i64_, nullptr, "ret");
    failed_ = block("failed");
    return func_;
  }

  void ufuncLoop(DType out) {
    loopFunction(ufuncLoopSymbol(fn_.symbol));
    size_t nin = fn_.argTypes.size();
    llvm::Value *n = b_.CreateLoad(i64_, func_->getArg(1), "n");
    std::vector<llvm::Value *> data, steps;
    llvm::Value *unit = b_.getTrue();
    for (size_t k = 0; k <= nin; ++k) {
      data.push_back(b_.CreateLoad(ptr_, b_.CreateConstGEP1_64(ptr_, func_->getArg(0), k)));
      steps.push_back(b_.CreateLoad(i64_, b_.CreateConstGEP1_64(i64_, func_->getArg(2), k)));
      DType d = k < nin ? fn_.argTypes[k].dtype : out;
      unit = b_.CreateAnd(unit, b_.CreateICmpEQ(steps.back(), b_.getInt64(types::dtypeBytes(d))));
    }
    auto *unitLoop = block("unit"), *stridedLoop = block("strided"), *done = block("done");
    b_.CreateCondBr(unit, unitLoop, stridedLoop);
    for (bool unitStride : {true, false}) {
      b_.SetInsertPoint(unitStride ? unitLoop : stridedLoop);
      countedLoop(n, done, [&](llvm::Value *i) {
        auto at = [&](size_t k, DType d) {
          if (unitStride) return b_.CreateInBoundsGEP(memScalar(d), data[k], i);
          return b_.CreateInBoundsGEP(b_.getInt8Ty(), data[k], b_.CreateMul(i, steps[k]));
        };
        std::vector<llvm::Value *> args{retSlot_};
        for (size_t k = 0; k < nin; ++k) {
          const Type &t = fn_.argTypes[k];
          args.push_back(fromMem(b_.CreateLoad(memScalar(t.dtype), at(k, t.dtype)), t.dtype));
        }
        callInner(args);
        llvm::Value *r = fromMem(b_.CreateLoad(memScalar(fn_.ret.dtype), retSlot_), fn_.ret.dtype);
        b_.CreateStore(toMem(convertNumber(b_, types_, r, fn_.ret.dtype, out), out), at(nin, out));
      });
    }
    b_.SetInsertPoint(done);
    b_.CreateRetVoid();
    emitFailure(nativesym::kLoopError, {});
  }

  void gufuncLoop(const std::vector<std::vector<int>> &coreDims) {
    loopFunction(gufuncLoopSymbol(fn_.symbol));
    size_t nargs = fn_.argTypes.size();
    if (coreDims.size() != nargs) internalError("gufunc layout and signature differ in length");
    llvm::Value *dims = func_->getArg(1), *stepsPtr = func_->getArg(2);
    llvm::Value *n = b_.CreateLoad(i64_, dims, "n");
    auto dim = [&](int64_t k) { return b_.CreateLoad(i64_, b_.CreateConstGEP1_64(i64_, dims, k)); };
    auto step = [&](int64_t k) { return b_.CreateLoad(i64_, b_.CreateConstGEP1_64(i64_, stepsPtr, k)); };
    std::vector<llvm::Value *> data, outerSteps;
    std::vector<std::vector<llvm::Value *>> shapes(nargs), strides(nargs);
    int64_t coreStep = int64_t(nargs);
    for (size_t k = 0; k < nargs; ++k) {
      data.push_back(b_.CreateLoad(ptr_, b_.CreateConstGEP1_64(ptr_, func_->getArg(0), k)));
      outerSteps.push_back(step(int64_t(k)));
      const Type &t = fn_.argTypes[k];
      for (int d : coreDims[k]) {
        shapes[k].push_back(dim(1 + d));
        strides[k].push_back(step(coreStep++));
      }
      if (t.isArray() && coreDims[k].empty()) { // a scalar seen as a 1-element array
        shapes[k].push_back(b_.getInt64(1));
        strides[k].push_back(b_.getInt64(types::dtypeBytes(t.dtype)));
      }
      if (t.isArray() ? int(shapes[k].size()) != t.ndim : !coreDims[k].empty() || !t.isNumber())
        internalError("gufunc argument " + std::to_string(k) + " does not match its core dimensions");
    }
    auto *done = block("done");
    countedLoop(n, done, [&](llvm::Value *i) {
      std::vector<llvm::Value *> args{retSlot_};
      for (size_t k = 0; k < nargs; ++k) {
        const Type &t = fn_.argTypes[k];
        llvm::Value *p = b_.CreateInBoundsGEP(b_.getInt8Ty(), data[k], b_.CreateMul(i, outerSteps[k]));
        if (!t.isArray()) {
          args.push_back(fromMem(b_.CreateLoad(memScalar(t.dtype), p), t.dtype));
          continue;
        }
        llvm::Value *arr = llvm::UndefValue::get(types_.array(t.ndim));
        arr = b_.CreateInsertValue(arr, llvm::ConstantPointerNull::get(ptr_), 0);
        arr = b_.CreateInsertValue(arr, llvm::ConstantPointerNull::get(ptr_), 1);
        arr = b_.CreateInsertValue(arr, p, 2);
        for (unsigned j = 0; j < unsigned(t.ndim); ++j) {
          arr = b_.CreateInsertValue(arr, shapes[k][j], {3, j});
          arr = b_.CreateInsertValue(arr, strides[k][j], {4, j});
        }
        args.push_back(arr);
      }
      callInner(args);
    });
    b_.SetInsertPoint(done);
    b_.CreateRetVoid();
    emitFailure(nativesym::kLoopError, {});
  }

  void cfunc(const Type &ret) {
    std::vector<llvm::Type *> params;
    for (const Type &t : fn_.argTypes) params.push_back(cType(t));
    llvm::Type *retTy = ret.isNone() ? b_.getVoidTy() : cType(ret);
    auto *fty = llvm::FunctionType::get(retTy, params, false);
    func_ = llvm::Function::Create(fty, llvm::Function::ExternalLinkage, cfuncSymbol(fn_.symbol), module_);
    func_->addFnAttr(llvm::Attribute::NoUnwind);
    for (size_t k = 0; k < fn_.argTypes.size(); ++k)
      if (auto ext = extension(fn_.argTypes[k])) func_->addParamAttr(unsigned(k), *ext);
    if (auto ext = extension(ret)) func_->addRetAttr(*ext);
    b_.SetInsertPoint(block("entry"));
    retSlot_ = b_.CreateAlloca(fn_.ret.isNumber() ? types_.mem(fn_.ret) : i64_, nullptr, "ret");
    failed_ = block("failed");
    std::vector<llvm::Value *> args{retSlot_};
    for (size_t k = 0; k < fn_.argTypes.size(); ++k) args.push_back(func_->getArg(unsigned(k)));
    callInner(args);
    if (ret.isNone()) {
      b_.CreateRetVoid();
    } else {
      llvm::Value *r = fromMem(b_.CreateLoad(memScalar(fn_.ret.dtype), retSlot_), fn_.ret.dtype);
      b_.CreateRet(convertNumber(b_, types_, r, fn_.ret.dtype, ret.dtype));
    }
    b_.SetInsertPoint(failed_);
    emitFailure(nativesym::kCallbackError, {b_.CreateGlobalStringPtr(fn_.name, "cfunc.name", 0, &module_)},
                ret.isNone() ? nullptr : llvm::Constant::getNullValue(retTy));
  }

private:
  llvm::BasicBlock *block(const char *name) { return llvm::BasicBlock::Create(ctx_, name, func_); }

  llvm::Type *memScalar(DType d) { return d == DType::Bool ? b_.getInt8Ty() : types_.scalar(d); }
  llvm::Value *fromMem(llvm::Value *v, DType d) { return d == DType::Bool ? b_.CreateICmpNE(v, b_.getInt8(0)) : v; }
  llvm::Value *toMem(llvm::Value *v, DType d) { return d == DType::Bool ? b_.CreateZExt(v, b_.getInt8Ty()) : v; }

  llvm::Type *cType(const Type &t) {
    if (t.isNumber() && !t.isComplex()) return types_.scalar(t.dtype);
    if (t.isPointer()) return ptr_;
    internalError("type " + t.str() + " has no C representation");
  }
  std::optional<llvm::Attribute::AttrKind> extension(const Type &t) {
    if (!t.isNumber() || types::dtypeBytes(t.dtype) >= 4) return std::nullopt;
    return t.isBool() || !types::isSigned(t.dtype) ? llvm::Attribute::ZExt : llvm::Attribute::SExt;
  }

  // for (i = 0; i < n; ++i) body(i); then branches to `after`.
  void countedLoop(llvm::Value *n, llvm::BasicBlock *after, const std::function<void(llvm::Value *)> &body) {
    llvm::BasicBlock *pre = b_.GetInsertBlock();
    auto *head = block("loop"), *exit = after;
    b_.CreateCondBr(b_.CreateICmpSGT(n, b_.getInt64(0)), head, exit);
    b_.SetInsertPoint(head);
    llvm::PHINode *i = b_.CreatePHI(i64_, 2, "i");
    i->addIncoming(b_.getInt64(0), pre);
    body(i);
    llvm::Value *next = b_.CreateAdd(i, b_.getInt64(1), "i.next", /*HasNUW=*/true, /*HasNSW=*/true);
    i->addIncoming(next, b_.GetInsertBlock());
    b_.CreateCondBr(b_.CreateICmpSLT(next, n), head, exit);
  }

  // Calls the function; a nonzero status goes to the failure block.
  void callInner(const std::vector<llvm::Value *> &args) {
    llvm::CallInst *status = b_.CreateCall(inner_, args);
    if (inlineInner_) status->addFnAttr(llvm::Attribute::AlwaysInline);
    auto *ok = block("ok");
    b_.CreateCondBr(b_.CreateICmpNE(status, b_.getInt32(0)), failed_, ok,
                    llvm::MDBuilder(ctx_).createBranchWeights(1, 1000000));
    b_.SetInsertPoint(ok);
  }

  // The failure block: calls the binding's handler, then returns `retValue` (null: void).
  void emitFailure(const char *handler, std::vector<llvm::Value *> args, llvm::Value *retValue = nullptr) {
    b_.SetInsertPoint(failed_);
    std::vector<llvm::Type *> params;
    for (llvm::Value *a : args) params.push_back(a->getType());
    auto callee = module_.getOrInsertFunction(handler, llvm::FunctionType::get(b_.getVoidTy(), params, false));
    b_.CreateCall(callee, args);
    failed_->moveAfter(&func_->back());
    if (retValue) b_.CreateRet(retValue);
    else b_.CreateRetVoid();
  }

  llvm::Module &module_;
  llvm::LLVMContext &ctx_;
  const ir::Function &fn_;
  llvm::Function *inner_;
  bool inlineInner_;
  TypeMapper types_;
  llvm::IRBuilder<> b_;
  llvm::PointerType *ptr_;
  llvm::Type *i64_;
  llvm::Function *func_ = nullptr;
  llvm::Value *retSlot_ = nullptr;
  llvm::BasicBlock *failed_ = nullptr;
};

} // namespace

void emitNativeEntries(llvm::Module &module, const ir::Function &fn, llvm::Function *inner,
                       const NativeEntries &entries, bool inlineInner) {
  if (entries.ufuncLoop) EntryBuilder(module, fn, inner, inlineInner).ufuncLoop(entries.ufuncOut.value_or(fn.ret.dtype));
  if (entries.gufuncCoreDims) EntryBuilder(module, fn, inner, inlineInner).gufuncLoop(*entries.gufuncCoreDims);
  if (entries.cfuncRet) EntryBuilder(module, fn, inner, false).cfunc(*entries.cfuncRet);
}

} // namespace mahou::codegen
