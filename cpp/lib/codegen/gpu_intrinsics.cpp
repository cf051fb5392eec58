// Lowering of numba-cuda's further kernel intrinsics, for the GPU and the CUDA emulator:
// atomic inc/dec (CUDA's wrapping counters) and nanmax/nanmin (compare-and-swap loops),
// selp, nanosleep, lanemask_lt, and the warp votes and matches eq/match_any/match_all.
#include "lowering.h"

#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/IntrinsicsNVPTX.h>

namespace mahou::codegen {

namespace {
using G = ir::GpuOpKind;
namespace I = llvm::Intrinsic;
} // namespace

// ptr[0] = max(ptr[0], val) (min with `isMax` false) ignoring NaN: a NaN `val` changes
// nothing, a NaN element is replaced. A compare-and-swap loop on the value's bits;
// returns the element's value before the store (or the value seen when none is made).
llvm::Value *FunctionLowering::atomicNanMinMax(llvm::Value *ptr, llvm::Value *val, bool isMax) {
  llvm::Type *ft = val->getType();
  unsigned bits = ft->getPrimitiveSizeInBits();
  llvm::Type *it = b_.getIntNTy(bits);
  auto order = llvm::AtomicOrdering::Monotonic;
  auto *first = b_.CreateLoad(it, ptr, "nan.old0");
  first->setAtomic(order);
  first->setAlignment(llvm::Align(bits / 8));
  llvm::Value *valBits = b_.CreateBitCast(val, it);
  llvm::Value *valIsNan = b_.CreateFCmpUNO(val, val);
  llvm::BasicBlock *entry = b_.GetInsertBlock();
  auto *loop = newBlock("nan.loop"), *cas = newBlock("nan.cas"), *done = newBlock("nan.done");
  b_.CreateBr(loop);

  b_.SetInsertPoint(loop);
  auto *oldBits = b_.CreatePHI(it, 2, "nan.bits");
  oldBits->addIncoming(first, entry);
  llvm::Value *old = b_.CreateBitCast(oldBits, ft);
  // unordered-or-less (greater): also true when the element is NaN
  llvm::Value *better = isMax ? b_.CreateFCmpULT(old, val) : b_.CreateFCmpUGT(old, val);
  b_.CreateCondBr(b_.CreateAnd(better, b_.CreateNot(valIsNan)), cas, done);

  b_.SetInsertPoint(cas);
  auto *cx = b_.CreateAtomicCmpXchg(ptr, oldBits, valBits, llvm::MaybeAlign(bits / 8), order, order);
  llvm::Value *seen = b_.CreateExtractValue(cx, 0);
  oldBits->addIncoming(seen, cas);
  b_.CreateCondBr(b_.CreateExtractValue(cx, 1), done, loop);

  b_.SetInsertPoint(done);
  return old;
}

Value FunctionLowering::gpuIntrinsicOp(const ir::Expr &e) {
  G kind = G(e.sub);
  auto i32 = b_.getInt32Ty();
  bool sim = options_.simulateGpu;
  auto none = [&]() -> Value { return {llvm::Constant::getNullValue(types_.ssa(Type::none())), false}; };
  switch (kind) {
  case G::Selp: {
    llvm::Value *p = scalarExpr(*e.args[0]);
    llvm::Value *a = scalarExpr(*e.args[1]);
    llvm::Value *c = scalarExpr(*e.args[2]);
    return {b_.CreateSelect(p, a, c), false};
  }
  case G::NanoSleep: {
    llvm::Value *ns = scalarExpr(*e.args[0]);
    if (sim) return none(); // the emulator's threads do not sleep
    auto *asmTy = llvm::FunctionType::get(b_.getVoidTy(), {i32}, false);
    b_.CreateCall(asmTy, llvm::InlineAsm::get(asmTy, "nanosleep.u32 $0;", "r", /*hasSideEffects=*/true), {ns});
    return none();
  }
  case G::LaneMaskLt: {
    if (!sim) return {b_.CreateIntrinsic(I::nvvm_read_ptx_sreg_lanemask_lt, {}, {}), false};
    llvm::Value *lane = b_.CreateCall(runtimeFn("mahou_rt_sim_sreg", i32, {i32}), {b_.getInt32(uint32_t(G::LaneId))});
    return {b_.CreateSub(b_.CreateShl(b_.getInt32(1), lane), b_.getInt32(1)), false};
  }
  case G::VoteEq: {
    llvm::Value *mask = scalarExpr(*e.args[0]);
    llvm::Value *pred = scalarExpr(*e.args[1]);
    if (sim)
      return {b_.CreateCall(runtimeFn("mahou_rt_sim_vote", i32, {i32, i32, b_.getInt1Ty()}), {b_.getInt32(3), mask, pred}),
              false};
    return {b_.CreateZExt(b_.CreateIntrinsic(I::nvvm_vote_uni_sync, {}, {mask, pred}), i32), false};
  }
  case G::MatchAny:
  case G::MatchAll: {
    bool all = kind == G::MatchAll;
    llvm::Value *mask = scalarExpr(*e.args[0]);
    llvm::Value *v = scalarExpr(*e.args[1]);
    unsigned bits = v->getType()->getPrimitiveSizeInBits();
    llvm::Value *asInt = b_.CreateBitCast(v, b_.getIntNTy(bits));
    llvm::Value *lanes, *pred;
    if (sim) {
      lanes = b_.CreateCall(runtimeFn("mahou_rt_sim_match", i32, {i32, i32, i64()}),
                            {b_.getInt32(all ? 1 : 0), mask, b_.CreateZExt(asInt, i64())});
      pred = b_.CreateICmpNE(lanes, b_.getInt32(0));
    } else if (!all) {
      lanes = b_.CreateIntrinsic(bits == 32 ? I::nvvm_match_any_sync_i32 : I::nvvm_match_any_sync_i64, {}, {mask, asInt});
      pred = nullptr;
    } else {
      llvm::Value *pair =
          b_.CreateIntrinsic(bits == 32 ? I::nvvm_match_all_sync_i32p : I::nvvm_match_all_sync_i64p, {}, {mask, asInt});
      lanes = b_.CreateExtractValue(pair, 0);
      pred = b_.CreateExtractValue(pair, 1);
    }
    if (!all) return {lanes, false};
    llvm::Value *agg = llvm::UndefValue::get(types_.mem(e.type));
    agg = b_.CreateInsertValue(agg, lanes, {0u});
    agg = b_.CreateInsertValue(agg, toMem(pred, Type::boolean()), {1u});
    return {agg, false};
  }
  default: break;
  }
  // Atomics on an array element: (array, indices, value).
  const Type &at = e.args[0]->type;
  llvm::Value *ptr = atomicElement(e);
  llvm::Value *val = scalarExpr(*e.args[at.ndim + 1]);
  auto order = llvm::AtomicOrdering::Monotonic;
  using Op = llvm::AtomicRMWInst::BinOp;
  bool isF = types::isFloat(at.dtype);
  bool sgn = types::isSigned(at.dtype);
  switch (kind) {
  case G::AtomicInc: return {b_.CreateAtomicRMW(Op::UIncWrap, ptr, val, llvm::MaybeAlign(), order), false};
  case G::AtomicDec: return {b_.CreateAtomicRMW(Op::UDecWrap, ptr, val, llvm::MaybeAlign(), order), false};
  case G::AtomicNanMax:
  case G::AtomicNanMin: {
    bool isMax = kind == G::AtomicNanMax;
    if (isF) return {atomicNanMinMax(ptr, val, isMax), false};
    Op op = isMax ? (sgn ? Op::Max : Op::UMax) : (sgn ? Op::Min : Op::UMin);
    return {b_.CreateAtomicRMW(op, ptr, val, llvm::MaybeAlign(), order), false};
  }
  default: internalError("unhandled GPU operation");
  }
}

} // namespace mahou::codegen
