// The Python entry of a compiled function: a CPython vectorcall function
//   ptr @symbol.py(ptr %callable, ptr %args, i64 %nargsf, ptr %kwnames)
// that the dispatcher installs as its call once a call site has used these argument
// types. It checks each argument inline (an exact int of one digit, an exact float,
// an exact ndarray of the compiled key word), unboxes it, calls the function and
// boxes the scalar result. Every other call (other types, keywords, an int past one
// digit) goes unchanged to the dispatcher's general call. Object layouts and the
// CPython functions come from the binding (python_abi.h); nothing here includes Python.
#include "lowering.h"

#include "mahou/python_abi.h"

namespace mahou::codegen {

std::string pythonEntrySymbol(const std::string &symbol) { return symbol + ".py"; }

bool pythonEntryFits(const std::vector<Type> &args, const Type &ret) {
  for (const Type &t : args) {
    bool scalar = t.isScalar() && (t.dtype == types::DType::Int64 || t.dtype == types::DType::Float64);
    if (!scalar && (!t.isArray() || t.isBuffer())) return false; // a buffer: its own unboxing (Py_buffer)
    if (t.isArray() && types::isDatetimeLike(t.dtype)) return false; // the unit is in the descriptor's metadata
  }
  if (ret.kind == types::Kind::None) return true;
  return ret.isScalar() &&
         (ret.dtype == types::DType::Int64 || ret.dtype == types::DType::Float64 || ret.dtype == types::DType::Bool);
}

namespace {

class PythonEntryBuilder {
public:
  PythonEntryBuilder(llvm::Module &module, const ir::Function &fn, llvm::Function *inner, const PythonAbi &abi,
                     bool inlineInner)
      : module_(module), ctx_(module.getContext()), fn_(fn), inner_(inner), abi_(abi), inlineInner_(inlineInner),
        types_(ctx_), b_(ctx_) {}

  void build() {
    ptr_ = llvm::PointerType::get(ctx_, 0);
    i64_ = b_.getInt64Ty();
    auto *fty = llvm::FunctionType::get(ptr_, {ptr_, ptr_, i64_, ptr_}, false);
    entry_ = llvm::Function::Create(fty, llvm::Function::ExternalLinkage, pythonEntrySymbol(fn_.symbol), module_);
    entry_->addFnAttr(llvm::Attribute::NoUnwind);
    auto *start = llvm::BasicBlock::Create(ctx_, "entry", entry_);
    fallback_ = llvm::BasicBlock::Create(ctx_, "general", entry_);
    emitFallback();

    b_.SetInsertPoint(start);
    llvm::Value *retSlot = b_.CreateAlloca(fn_.ret.kind == types::Kind::None ? b_.getInt64Ty() : types_.mem(fn_.ret));
    llvm::Value *nargs = b_.CreateAnd(entry_->getArg(2), b_.getInt64(INT64_MAX)); // PyVectorcall_NARGS
    llvm::Value *plain = b_.CreateAnd(b_.CreateICmpEQ(entry_->getArg(3), llvm::ConstantPointerNull::get(ptr_)),
                                      b_.CreateICmpEQ(nargs, b_.getInt64(fn_.argTypes.size())));
    continueIf(plain, "args");

    std::vector<llvm::Value *> callArgs{retSlot};
    for (size_t i = 0; i < fn_.argTypes.size(); ++i) {
      llvm::Value *obj = b_.CreateLoad(ptr_, b_.CreateConstGEP1_64(ptr_, entry_->getArg(1), i));
      callArgs.push_back(unbox(obj, fn_.argTypes[i]));
    }
    llvm::CallInst *status = b_.CreateCall(inner_, callArgs);
    if (!inlineInner_) status->addFnAttr(llvm::Attribute::NoInline);
    auto *failed = llvm::BasicBlock::Create(ctx_, "raise", entry_);
    auto *done = llvm::BasicBlock::Create(ctx_, "box", entry_);
    b_.CreateCondBr(b_.CreateICmpNE(status, b_.getInt32(0)), failed, done);

    b_.SetInsertPoint(failed);
    b_.CreateCall(declare(pysym::kRaise, b_.getVoidTy(), {}));
    b_.CreateRet(llvm::ConstantPointerNull::get(ptr_));

    b_.SetInsertPoint(done);
    b_.CreateRet(box(retSlot));
  }

private:
  llvm::Function *declare(const char *name, llvm::Type *ret, std::vector<llvm::Type *> params) {
    auto callee = module_.getOrInsertFunction(name, llvm::FunctionType::get(ret, params, false));
    return llvm::cast<llvm::Function>(callee.getCallee());
  }

  // The byte at `offset` in `obj`, as a pointer for a load.
  llvm::Value *field(llvm::Value *obj, uint32_t offset) { return b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), obj, offset); }

  // Goes on in a new block when `cond` holds, to the general call otherwise.
  void continueIf(llvm::Value *cond, const char *name) {
    auto *next = llvm::BasicBlock::Create(ctx_, name, entry_);
    b_.CreateCondBr(cond, next, fallback_);
    b_.SetInsertPoint(next);
  }

  void emitFallback() {
    b_.SetInsertPoint(fallback_);
    auto *dispatch = declare(pysym::kDispatch, ptr_, {ptr_, ptr_, i64_, ptr_});
    std::vector<llvm::Value *> args;
    for (auto &a : entry_->args()) args.push_back(&a);
    auto *call = b_.CreateCall(dispatch, args);
    call->setTailCallKind(llvm::CallInst::TCK_MustTail);
    b_.CreateRet(call);
  }

  llvm::Value *isType(llvm::Value *obj, const char *typeSymbol) {
    llvm::Value *type = b_.CreateLoad(ptr_, field(obj, abi_.typeOffset));
    return b_.CreateICmpEQ(type, module_.getOrInsertGlobal(typeSymbol, b_.getInt8Ty()));
  }

  llvm::Value *unbox(llvm::Value *obj, const Type &t) {
    if (t.isArray()) return unboxArray(obj, t);
    if (t.dtype == types::DType::Float64) {
      continueIf(isType(obj, pysym::kFloatType), "float");
      return b_.CreateLoad(b_.getDoubleTy(), field(obj, abi_.floatValueOffset));
    }
    continueIf(isType(obj, pysym::kLongType), "int");
    llvm::Value *size = b_.CreateLoad(i64_, field(obj, abi_.intSizeOffset));
    llvm::Value *fits, *sign;
    if (abi_.intLayout == PythonAbi::IntLayout::SignedSize) {
      fits = b_.CreateICmpULE(b_.CreateAdd(size, b_.getInt64(1)), b_.getInt64(2)); // -1, 0 or 1 digit
      sign = size;
    } else {
      fits = b_.CreateICmpULT(size, b_.getInt64(2 << 3)); // at most one digit
      sign = b_.CreateSub(b_.getInt64(1), b_.CreateAnd(size, b_.getInt64(3)));
    }
    continueIf(fits, "digit");
    llvm::Type *digitTy = abi_.intDigitBytes == 2 ? b_.getInt16Ty() : b_.getInt32Ty();
    llvm::Value *digit = b_.CreateZExt(b_.CreateLoad(digitTy, field(obj, abi_.intDigitOffset)), i64_);
    return b_.CreateMul(sign, digit);
  }

  // An exact ndarray of the compiled type: dimension count, dtype (native byte order),
  // layout (typeof's rule: C-contiguous, else Fortran-contiguous, else any) and
  // writeability, read from the object.
  llvm::Value *unboxArray(llvm::Value *obj, const Type &t) {
    continueIf(isType(obj, pysym::kArrayType), "ndarray");
    llvm::Value *ok = b_.CreateICmpEQ(b_.CreateLoad(b_.getInt32Ty(), field(obj, abi_.arrayNdOffset)), b_.getInt32(t.ndim));
    llvm::Value *descr = b_.CreateLoad(ptr_, field(obj, abi_.arrayDescrOffset));
    llvm::Value *typeNum = b_.CreateLoad(b_.getInt32Ty(), field(descr, abi_.descrTypeNumOffset));
    llvm::Value *sameType = b_.CreateICmpEQ(typeNum, b_.getInt32(uint32_t(types::dtypeNumpyNum(t.dtype))));
    int alias = t.dtype == types::DType::Int64 ? abi_.int64AliasTypeNum : t.dtype == types::DType::UInt64 ? abi_.uint64AliasTypeNum : -1;
    if (alias >= 0) sameType = b_.CreateOr(sameType, b_.CreateICmpEQ(typeNum, b_.getInt32(uint32_t(alias))));
    ok = b_.CreateAnd(ok, sameType);
    llvm::Value *byteOrder = b_.CreateLoad(b_.getInt8Ty(), field(descr, abi_.descrByteOrderOffset));
    ok = b_.CreateAnd(ok, b_.CreateICmpNE(byteOrder, b_.getInt8(uint8_t(abi_.swappedByteOrder))));
    llvm::Value *flags = b_.CreateLoad(b_.getInt32Ty(), field(obj, abi_.arrayFlagsOffset));
    uint32_t layoutMask = t.layout == types::Layout::C ? abi_.flagC : abi_.flagC | abi_.flagF;
    uint32_t layoutBits = t.layout == types::Layout::C ? abi_.flagC : t.layout == types::Layout::F ? abi_.flagF : 0;
    uint32_t mask = layoutMask | abi_.flagWriteable, bits = layoutBits | (t.readonly ? 0 : abi_.flagWriteable);
    ok = b_.CreateAnd(ok, b_.CreateICmpEQ(b_.CreateAnd(flags, b_.getInt32(mask)), b_.getInt32(bits)));
    continueIf(ok, "array");
    llvm::Value *shape = b_.CreateLoad(ptr_, field(obj, abi_.arrayShapeOffset));
    llvm::Value *strides = b_.CreateLoad(ptr_, field(obj, abi_.arrayStridesOffset));
    llvm::Value *head = llvm::UndefValue::get(types_.array(t.ndim));
    head = b_.CreateInsertValue(head, llvm::ConstantPointerNull::get(ptr_), {0}); // no meminfo: borrowed
    head = b_.CreateInsertValue(head, obj, {1});
    head = b_.CreateInsertValue(head, b_.CreateLoad(ptr_, field(obj, abi_.arrayDataOffset)), {2});
    for (int d = 0; d < t.ndim; ++d) {
      head = b_.CreateInsertValue(head, b_.CreateLoad(i64_, b_.CreateConstGEP1_64(i64_, shape, d)), {3u, unsigned(d)});
      head = b_.CreateInsertValue(head, b_.CreateLoad(i64_, b_.CreateConstGEP1_64(i64_, strides, d)), {4u, unsigned(d)});
    }
    return head;
  }

  llvm::Value *box(llvm::Value *retSlot) {
    const Type &r = fn_.ret;
    if (r.kind == types::Kind::None) return b_.CreateCall(declare(pysym::kNone, ptr_, {}));
    if (r.dtype == types::DType::Float64)
      return b_.CreateCall(declare(pysym::kFromDouble, ptr_, {b_.getDoubleTy()}),
                           {b_.CreateLoad(b_.getDoubleTy(), retSlot)});
    if (r.dtype == types::DType::Bool)
      return b_.CreateCall(declare(pysym::kFromBool, ptr_, {i64_}),
                           {b_.CreateZExt(b_.CreateLoad(b_.getInt8Ty(), retSlot), i64_)});
    return b_.CreateCall(declare(pysym::kFromInt64, ptr_, {i64_}), {b_.CreateLoad(i64_, retSlot)});
  }

  llvm::Module &module_;
  llvm::LLVMContext &ctx_;
  const ir::Function &fn_;
  llvm::Function *inner_;
  const PythonAbi &abi_;
  bool inlineInner_;
  TypeMapper types_;
  llvm::IRBuilder<> b_;
  llvm::PointerType *ptr_ = nullptr;
  llvm::IntegerType *i64_ = nullptr;
  llvm::Function *entry_ = nullptr;
  llvm::BasicBlock *fallback_ = nullptr;
};

} // namespace

void emitPythonEntry(llvm::Module &module, const ir::Function &fn, llvm::Function *inner, const PythonAbi &abi,
                     bool inlineInner) {
  PythonEntryBuilder(module, fn, inner, abi, inlineInner).build();
}

} // namespace mahou::codegen
