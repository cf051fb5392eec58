// np.random's commonest draws emitted inline, as Numba does: random()/uniform() and the
// legacy polar Gaussian (standard_normal, normal) read and advance this thread's MT19937
// in place (random_state_layout.h), so a loop of draws has no call per draw.
#include "lowering.h"

#include "mahou/codegen.h"
#include "mahou/random_distributions.h"
#include "mahou/random_state_layout.h"

#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>

#include <functional>

namespace mahou::codegen {

namespace {

namespace layout = random::state_layout;

// The helpers are per-module internal functions, always inlined, whose floating point
// stays exact under fastmath (kExactFloatAttr): the operations are RandomState's, in
// its order (runtime/random_legacy.h), so a seed gives NumPy's numbers bit for bit.
class Helpers {
public:
  explicit Helpers(llvm::Module &m) : m_(m), c_(m.getContext()), b_(c_) {}

  llvm::Function *next32() {
    return define("mahou.np.next32", b_.getInt32Ty(), {}, [&](llvm::Function *f, llvm::Value *s) {
      llvm::Value *posPtr = b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), s, layout::kPos);
      llvm::Value *pos = b_.CreateLoad(b_.getInt32Ty(), posPtr, "pos");
      llvm::BasicBlock *entry = b_.GetInsertBlock();
      auto *refill = llvm::BasicBlock::Create(c_, "refill", f), *draw = llvm::BasicBlock::Create(c_, "draw", f);
      llvm::MDBuilder md(c_);
      b_.CreateCondBr(b_.CreateICmpSGE(pos, b_.getInt32(layout::kWords)), refill, draw, md.createBranchWeights(1, 623));
      b_.SetInsertPoint(refill);
      b_.CreateCall(refillFn(), {s});
      b_.CreateBr(draw);
      b_.SetInsertPoint(draw);
      llvm::PHINode *at = b_.CreatePHI(b_.getInt32Ty(), 2, "at");
      at->addIncoming(pos, entry);
      at->addIncoming(b_.getInt32(0), refill);
      llvm::Value *y = b_.CreateLoad(b_.getInt32Ty(), b_.CreateInBoundsGEP(b_.getInt32Ty(), s, b_.CreateZExt(at, b_.getInt64Ty())));
      b_.CreateStore(b_.CreateAdd(at, b_.getInt32(1), "", true, true), posPtr);
      y = b_.CreateXor(y, b_.CreateLShr(y, 11)); // tempering
      y = b_.CreateXor(y, b_.CreateAnd(b_.CreateShl(y, 7), b_.getInt32(0x9d2c5680U)));
      y = b_.CreateXor(y, b_.CreateAnd(b_.CreateShl(y, 15), b_.getInt32(0xefc60000U)));
      b_.CreateRet(b_.CreateXor(y, b_.CreateLShr(y, 18)));
    });
  }

  // 53 bits: (a * 2**26 + b) / 2**53 from two words.
  llvm::Function *nextDouble() {
    return define("mahou.np.next_double", f64(), {}, [&](llvm::Function *, llvm::Value *s) {
      llvm::Function *next = next32();
      llvm::Value *a = b_.CreateLShr(b_.CreateCall(next, {s}), 5);
      llvm::Value *bb = b_.CreateLShr(b_.CreateCall(next, {s}), 6);
      llvm::Value *x = b_.CreateFAdd(b_.CreateFMul(b_.CreateUIToFP(a, f64()), f(67108864.0)), b_.CreateUIToFP(bb, f64()));
      b_.CreateRet(b_.CreateFDiv(x, f(9007199254740992.0)));
    });
  }

  // The polar method with its cached second value (RandomState's legacy_gauss).
  llvm::Function *gauss() {
    return define("mahou.np.gauss", f64(), {}, [&](llvm::Function *fn, llvm::Value *s) {
      llvm::Value *hasPtr = b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), s, layout::kHasGauss);
      llvm::Value *cachedPtr = b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), s, layout::kGauss);
      auto *cached = llvm::BasicBlock::Create(c_, "cached", fn), *polar = llvm::BasicBlock::Create(c_, "polar", fn);
      auto *done = llvm::BasicBlock::Create(c_, "done", fn);
      b_.CreateCondBr(b_.CreateICmpNE(b_.CreateLoad(b_.getInt8Ty(), hasPtr), b_.getInt8(0)), cached, polar);
      b_.SetInsertPoint(cached);
      llvm::Value *v = b_.CreateLoad(f64(), cachedPtr);
      b_.CreateStore(b_.getInt8(0), hasPtr);
      b_.CreateStore(f(0.0), cachedPtr);
      b_.CreateRet(v);
      b_.SetInsertPoint(polar);
      llvm::Function *next = nextDouble();
      auto unit = [&] { return b_.CreateFSub(b_.CreateFMul(f(2.0), b_.CreateCall(next, {s})), f(1.0)); };
      llvm::Value *x1 = unit(), *x2 = unit();
      llvm::Value *r2 = b_.CreateFAdd(b_.CreateFMul(x1, x1), b_.CreateFMul(x2, x2));
      llvm::Value *reject = b_.CreateOr(b_.CreateFCmpOGE(r2, f(1.0)), b_.CreateFCmpOEQ(r2, f(0.0)));
      b_.CreateCondBr(reject, polar, done);
      b_.SetInsertPoint(done);
      llvm::Value *q = b_.CreateFDiv(b_.CreateFMul(f(-2.0), logOf(r2)), r2);
      llvm::Value *root = b_.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, q); // exact, as C's sqrt
      b_.CreateStore(b_.CreateFMul(root, x1), cachedPtr);
      b_.CreateStore(b_.getInt8(1), hasPtr);
      b_.CreateRet(b_.CreateFMul(root, x2));
    });
  }

  // loc + scale * gauss() (normal), low + range * random() (uniform).
  llvm::Function *scaled(bool normal) {
    return define(normal ? "mahou.np.normal" : "mahou.np.uniform", f64(), {f64(), f64()},
                  [&](llvm::Function *fn, llvm::Value *s) {
                    llvm::Value *x = b_.CreateCall(normal ? gauss() : nextDouble(), {s});
                    b_.CreateRet(b_.CreateFAdd(fn->getArg(1), b_.CreateFMul(fn->getArg(2), x)));
                  });
  }

  // This thread's state: the declaration reads only what the module cannot see; a
  // call outside a generator reads nothing (below), so a loop of draws fetches it once.
  llvm::FunctionCallee stateFn() {
    auto callee = m_.getOrInsertFunction("mahou_rt_np_state", llvm::FunctionType::get(ptr(), {}, false));
    if (auto *f = llvm::dyn_cast<llvm::Function>(callee.getCallee())) {
      f->setDoesNotThrow();
      f->setWillReturn();
      f->setMemoryEffects(llvm::MemoryEffects::inaccessibleMemOnly(llvm::ModRefInfo::Ref));
      f->addRetAttr(llvm::Attribute::NonNull);
      f->addRetAttr(llvm::Attribute::getWithDereferenceableBytes(c_, layout::kGauss + 8));
      f->addRetAttr(llvm::Attribute::getWithAlignment(c_, llvm::Align(8)));
    }
    return callee;
  }

private:
  llvm::Type *f64() { return b_.getDoubleTy(); }
  llvm::Type *ptr() { return b_.getPtrTy(); }
  llvm::Constant *f(double v) { return llvm::ConstantFP::get(f64(), v); }

  llvm::FunctionCallee refillFn() {
    auto callee = m_.getOrInsertFunction("mahou_rt_np_state_refill", llvm::FunctionType::get(b_.getVoidTy(), {ptr()}, false));
    if (auto *f = llvm::dyn_cast<llvm::Function>(callee.getCallee())) {
      f->setDoesNotThrow();
      f->setWillReturn();
      f->setMemoryEffects(llvm::MemoryEffects::argMemOnly());
    }
    return callee;
  }

  // C's log (what the runtime calls), not the builtin: no vector variant or folding
  // may stand in for it.
  llvm::Value *logOf(llvm::Value *x) {
    auto callee = m_.getOrInsertFunction("log", llvm::FunctionType::get(f64(), {f64()}, false));
    llvm::CallInst *call = b_.CreateCall(callee, {x});
    call->addFnAttr(llvm::Attribute::NoBuiltin);
    call->addFnAttr(llvm::Attribute::NoUnwind);
    call->addFnAttr(llvm::Attribute::WillReturn);
    call->setMemoryEffects(llvm::MemoryEffects::none());
    return call;
  }

  // The helper `name`(ptr state, extra...) of the module, defined by `body` on first use.
  llvm::Function *define(const char *name, llvm::Type *ret, std::vector<llvm::Type *> extra,
                         const std::function<void(llvm::Function *, llvm::Value *)> &body) {
    if (llvm::Function *f = m_.getFunction(name)) return f;
    extra.insert(extra.begin(), ptr());
    auto *f = llvm::Function::Create(llvm::FunctionType::get(ret, extra, false), llvm::Function::InternalLinkage, name, m_);
    f->addFnAttr(llvm::Attribute::AlwaysInline);
    f->addFnAttr(llvm::Attribute::NoUnwind);
    f->addFnAttr(kExactFloatAttr);
    llvm::IRBuilderBase::InsertPointGuard guard(b_);
    b_.SetInsertPoint(llvm::BasicBlock::Create(c_, "entry", f));
    body(f, f->getArg(0));
    return f;
  }

  llvm::Module &m_;
  llvm::LLVMContext &c_;
  llvm::IRBuilder<> b_;
};

} // namespace

llvm::Value *FunctionLowering::inlineLegacyDraw(random::Dist d, llvm::ArrayRef<llvm::Value *> params) {
  if (gpu() || options_.simulateGpu) return nullptr;
  Helpers h(module_);
  llvm::Function *fn = nullptr;
  switch (d) {
  case random::Dist::NpRandom:
  case random::Dist::NpRandomSample:
  case random::Dist::NpRanf:
  case random::Dist::NpSample: fn = h.nextDouble(); break;
  case random::Dist::NpStandardNormal: fn = h.gauss(); break;
  case random::Dist::NpNormal: fn = h.scaled(true); break;
  case random::Dist::NpUniform: fn = h.scaled(false); break;
  default: return nullptr;
  }
  // The same pointer all through one call of a function: it may be hoisted and shared
  // by every draw. Not in a generator, whose body may resume on another thread (the
  // suspend points clobber what the declaration reads). A state is never freed, only
  // handed to a later thread (runtime/random.cpp), so a stale pointer stays valid.
  llvm::CallInst *state = b_.CreateCall(h.stateFn());
  if (!fn_.generator) state->setMemoryEffects(llvm::MemoryEffects::none());
  std::vector<llvm::Value *> args{state};
  args.insert(args.end(), params.begin(), params.end());
  return b_.CreateCall(fn, args);
}

} // namespace mahou::codegen
