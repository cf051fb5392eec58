// Lowering of GPU operations to NVPTX: special registers, shared and local
// arrays, barriers and fences, warp shuffles and votes, bit helpers, atomics.
#include "lowering.h"

#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/IntrinsicsNVPTX.h>

namespace mahou::codegen {

namespace {
using G = ir::GpuOpKind;
namespace I = llvm::Intrinsic;

I::ID specialRegister(G k) {
  static const I::ID ids[] = {
      I::nvvm_read_ptx_sreg_tid_x,    I::nvvm_read_ptx_sreg_tid_y,    I::nvvm_read_ptx_sreg_tid_z,
      I::nvvm_read_ptx_sreg_ntid_x,   I::nvvm_read_ptx_sreg_ntid_y,   I::nvvm_read_ptx_sreg_ntid_z,
      I::nvvm_read_ptx_sreg_ctaid_x,  I::nvvm_read_ptx_sreg_ctaid_y,  I::nvvm_read_ptx_sreg_ctaid_z,
      I::nvvm_read_ptx_sreg_nctaid_x, I::nvvm_read_ptx_sreg_nctaid_y, I::nvvm_read_ptx_sreg_nctaid_z,
      I::nvvm_read_ptx_sreg_laneid,   I::nvvm_read_ptx_sreg_warpsize,
  };
  return ids[int(k)];
}
} // namespace

std::vector<llvm::Value *> FunctionLowering::constantExtents(const ir::Expr &e, int64_t &count) {
  std::vector<llvm::Value *> extents;
  count = 1;
  for (auto &x : e.args) {
    extents.push_back(c64(x->ival));
    count *= x->ival;
  }
  return extents;
}

// The element an atomic operation works on: args = (array, one index per dimension, ...),
// each index wrapped (and checked under boundscheck) as a subscript is.
llvm::Value *FunctionLowering::atomicElement(const ir::Expr &e) {
  const Type &at = e.args[0]->type;
  Value arr = expr(*e.args[0]);
  std::vector<llvm::Value *> idx;
  for (int k = 0; k < at.ndim; ++k)
    idx.push_back(wrapIndex(scalarExpr(*e.args[k + 1]), arrayShape(arr.v, k), options_.boundscheck));
  return elementPointer(arr.v, at, idx);
}

Value FunctionLowering::gpuOp(const ir::Expr &e) {
  if (!gpu() && !options_.simulateGpu) internalError("GPU operation in a CPU function");
  if (options_.simulateGpu)
    if (auto v = simGpuOp(e)) return *v;
  G kind = G(e.sub);
  if (kind >= G::ThisGrid) return gpuExtraOp(e);
  auto none = [&]() -> Value { return {llvm::Constant::getNullValue(types_.ssa(Type::none())), false}; };
  auto i32 = b_.getInt32Ty();
  if (kind <= G::WarpSize) return {b_.CreateIntrinsic(specialRegister(kind), {}, {}), false};

  switch (kind) {
  case G::SharedArray:
  case G::LocalArray: {
    const Type &t = e.type;
    llvm::Type *elem = types_.mem(Type::scalar(t.dtype));
    int64_t itemsize = types::dtypeBytes(t.dtype);
    int64_t count = 1;
    std::vector<llvm::Value *> extents = constantExtents(e, count);
    llvm::Value *data;
    if (kind == G::LocalArray) {
      data = entryAlloca(llvm::ArrayType::get(elem, uint64_t(count)), "local.array");
    } else if (count == 0) { // dynamic shared memory: the launch's dynamic size
      auto *gv = module_.getGlobalVariable("mahou_dynamic_shared");
      if (!gv) {
        gv = new llvm::GlobalVariable(module_, llvm::ArrayType::get(b_.getInt8Ty(), 0), false,
                                      llvm::GlobalValue::ExternalLinkage, nullptr, "mahou_dynamic_shared", nullptr,
                                      llvm::GlobalValue::NotThreadLocal, 3);
        gv->setAlignment(llvm::Align(16));
      }
      data = b_.CreateAddrSpaceCast(gv, b_.getPtrTy());
      auto *asmTy = llvm::FunctionType::get(i32, false);
      auto *readSize = llvm::InlineAsm::get(asmTy, "mov.u32 $0, %dynamic_smem_size;", "=r", false);
      llvm::Value *bytes = b_.CreateZExt(b_.CreateCall(asmTy, readSize), i64());
      extents[0] = b_.CreateUDiv(bytes, c64(itemsize));
    } else {
      auto *gv = new llvm::GlobalVariable(module_, llvm::ArrayType::get(elem, uint64_t(count)), false,
                                          llvm::GlobalValue::InternalLinkage,
                                          llvm::UndefValue::get(llvm::ArrayType::get(elem, uint64_t(count))),
                                          "mahou_shared", nullptr, llvm::GlobalValue::NotThreadLocal, 3);
      gv->setAlignment(llvm::Align(16));
      data = b_.CreateAddrSpaceCast(gv, b_.getPtrTy());
    }
    return {contiguousArray(llvm::ConstantPointerNull::get(b_.getPtrTy()), data, extents, itemsize), false};
  }
  case G::SyncThreads: b_.CreateIntrinsic(I::nvvm_barrier0, {}, {}); return none();
  case G::SyncThreadsCount:
  case G::SyncThreadsAnd:
  case G::SyncThreadsOr: {
    llvm::Value *pred = b_.CreateZExt(scalarExpr(*e.args[0]), i32);
    I::ID id = kind == G::SyncThreadsCount ? I::nvvm_barrier0_popc : kind == G::SyncThreadsAnd ? I::nvvm_barrier0_and : I::nvvm_barrier0_or;
    return {b_.CreateIntrinsic(id, {}, {pred}), false};
  }
  case G::ThreadFence: b_.CreateIntrinsic(I::nvvm_membar_gl, {}, {}); return none();
  case G::ThreadFenceBlock: b_.CreateIntrinsic(I::nvvm_membar_cta, {}, {}); return none();
  case G::ThreadFenceSystem: b_.CreateIntrinsic(I::nvvm_membar_sys, {}, {}); return none();
  case G::SyncWarp: b_.CreateIntrinsic(I::nvvm_bar_warp_sync, {}, {scalarExpr(*e.args[0])}); return none();
  case G::ActiveMask: return {b_.CreateIntrinsic(I::nvvm_activemask, {}, {}), false};
  case G::Ballot:
    return {b_.CreateIntrinsic(I::nvvm_vote_ballot_sync, {}, {scalarExpr(*e.args[0]), scalarExpr(*e.args[1])}), false};
  case G::VoteAll:
  case G::VoteAny: {
    llvm::Value *r = b_.CreateIntrinsic(kind == G::VoteAll ? I::nvvm_vote_all_sync : I::nvvm_vote_any_sync, {},
                                        {scalarExpr(*e.args[0]), scalarExpr(*e.args[1])});
    return {b_.CreateZExt(r, i32), false};
  }
  case G::ShflIdx:
  case G::ShflUp:
  case G::ShflDown:
  case G::ShflXor: {
    llvm::Value *mask = scalarExpr(*e.args[0]);
    llvm::Value *v = scalarExpr(*e.args[1]);
    llvm::Value *lane = scalarExpr(*e.args[2]);
    I::ID id = kind == G::ShflIdx ? I::nvvm_shfl_sync_idx_i32 : kind == G::ShflUp ? I::nvvm_shfl_sync_up_i32
               : kind == G::ShflDown ? I::nvvm_shfl_sync_down_i32 : I::nvvm_shfl_sync_bfly_i32;
    llvm::Value *clamp = b_.getInt32(kind == G::ShflUp ? 0 : 0x1f);
    llvm::Type *vt = v->getType();
    unsigned bits = vt->getPrimitiveSizeInBits();
    auto shfl32 = [&](llvm::Value *x) { return b_.CreateIntrinsic(id, {}, {mask, x, lane, clamp}); };
    if (bits == 32) return {b_.CreateBitCast(shfl32(b_.CreateBitCast(v, i32)), vt), false};
    llvm::Value *w = b_.CreateBitCast(v, b_.getInt64Ty());
    llvm::Value *lo = shfl32(b_.CreateTrunc(w, i32));
    llvm::Value *hi = shfl32(b_.CreateTrunc(b_.CreateLShr(w, 32), i32));
    llvm::Value *joined = b_.CreateOr(b_.CreateZExt(lo, b_.getInt64Ty()), b_.CreateShl(b_.CreateZExt(hi, b_.getInt64Ty()), 32));
    return {b_.CreateBitCast(joined, vt), false};
  }
  case G::Fma: {
    llvm::Value *a = scalarExpr(*e.args[0]), *b = scalarExpr(*e.args[1]), *c = scalarExpr(*e.args[2]);
    return {b_.CreateIntrinsic(I::fma, {a->getType()}, {a, b, c}), false};
  }
  case G::Popc: {
    llvm::Value *x = scalarExpr(*e.args[0]);
    return {b_.CreateUnaryIntrinsic(I::ctpop, x), false};
  }
  case G::Clz: {
    llvm::Value *x = scalarExpr(*e.args[0]);
    return {b_.CreateBinaryIntrinsic(I::ctlz, x, b_.getFalse()), false};
  }
  case G::Brev: {
    llvm::Value *x = scalarExpr(*e.args[0]);
    return {b_.CreateUnaryIntrinsic(I::bitreverse, x), false};
  }
  case G::Ffs: { // 1 + the count of trailing zeros (cttz of 0 is the width), 0 for 0
    llvm::Value *x = scalarExpr(*e.args[0]);
    llvm::Value *tz = b_.CreateBinaryIntrinsic(I::cttz, x, b_.getFalse());
    llvm::Value *pos = b_.CreateZExtOrTrunc(b_.CreateAdd(tz, llvm::ConstantInt::get(x->getType(), 1)), b_.getInt32Ty());
    return {b_.CreateSelect(b_.CreateICmpEQ(x, llvm::ConstantInt::get(x->getType(), 0)), b_.getInt32(0), pos), false};
  }
  default: break;
  }
  // Atomics on an array element.
  const Type &at = e.args[0]->type;
  llvm::Value *ptr = atomicElement(e);
  llvm::Value *val = scalarExpr(*e.args[at.ndim + 1]);
  bool isF = types::isFloat(at.dtype);
  bool sgn = types::isSigned(at.dtype);
  auto order = llvm::AtomicOrdering::Monotonic;
  using Op = llvm::AtomicRMWInst::BinOp;
  if (kind == G::AtomicCas) {
    llvm::Value *newV = scalarExpr(*e.args[at.ndim + 2]);
    auto *cx = b_.CreateAtomicCmpXchg(ptr, val, newV, llvm::MaybeAlign(), order, order);
    return {b_.CreateExtractValue(cx, 0), false};
  }
  Op op;
  switch (kind) {
  case G::AtomicAdd: op = isF ? Op::FAdd : Op::Add; break;
  case G::AtomicSub:
    if (isF) {
      op = Op::FAdd;
      val = b_.CreateFNeg(val);
    } else {
      op = Op::Sub;
    }
    break;
  case G::AtomicMax: op = isF ? Op::FMax : sgn ? Op::Max : Op::UMax; break;
  case G::AtomicMin: op = isF ? Op::FMin : sgn ? Op::Min : Op::UMin; break;
  case G::AtomicExch: op = Op::Xchg; break;
  case G::AtomicAnd: op = Op::And; break;
  case G::AtomicOr: op = Op::Or; break;
  case G::AtomicXor: op = Op::Xor; break;
  default: internalError("unhandled GPU operation");
  }
  return {b_.CreateAtomicRMW(op, ptr, val, llvm::MaybeAlign(), order), false};
}

} // namespace mahou::codegen
