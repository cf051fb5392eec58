// The CUDA emulator's lowering of GPU operations on the CPU: thread and block
// indices, shared memory, barriers and warp operations call the emulator runtime
// (cudasim.cpp); local arrays, atomics and bit helpers share the GPU lowering.
#include "lowering.h"

namespace mahou::codegen {

namespace {
using G = ir::GpuOpKind;
}

std::optional<Value> FunctionLowering::simGpuOp(const ir::Expr &e) {
  G kind = G(e.sub);
  auto i32 = b_.getInt32Ty();
  auto none = [&]() -> Value { return {llvm::Constant::getNullValue(types_.ssa(Type::none())), false}; };
  if (kind <= G::WarpSize)
    return Value{b_.CreateCall(runtimeFn("mahou_rt_sim_sreg", i32, {i32}), {b_.getInt32(uint32_t(kind))}), false};
  switch (kind) {
  case G::SharedArray: {
    const Type &t = e.type;
    int64_t itemsize = types::dtypeBytes(t.dtype);
    int64_t count = 1;
    std::vector<llvm::Value *> extents = constantExtents(e, count);
    llvm::Value *data;
    if (count == 0) { // dynamic shared memory of the launch
      llvm::Value *bytes = entryAlloca(i64(), "dyn.bytes");
      data = b_.CreateCall(runtimeFn("mahou_rt_sim_dynamic_shared", b_.getPtrTy(), {b_.getPtrTy()}), {bytes});
      extents[0] = b_.CreateUDiv(b_.CreateLoad(i64(), bytes), c64(itemsize));
    } else { // one buffer per block, identified by a private global of this module
      auto *id = new llvm::GlobalVariable(module_, b_.getInt8Ty(), true, llvm::GlobalValue::PrivateLinkage, b_.getInt8(0),
                                          "mahou.sim.shared");
      data = b_.CreateCall(runtimeFn("mahou_rt_sim_shared", b_.getPtrTy(), {b_.getPtrTy(), i64()}), {id, c64(count * itemsize)});
    }
    return Value{contiguousArray(llvm::ConstantPointerNull::get(b_.getPtrTy()), data, extents, itemsize), false};
  }
  case G::SyncThreads:
  case G::SyncThreadsCount:
  case G::SyncThreadsAnd:
  case G::SyncThreadsOr: {
    int k = kind == G::SyncThreads ? 0 : kind == G::SyncThreadsCount ? 1 : kind == G::SyncThreadsAnd ? 2 : 3;
    llvm::Value *pred = k ? scalarExpr(*e.args[0]) : b_.getFalse();
    llvm::Value *r = b_.CreateCall(runtimeFn("mahou_rt_sim_syncthreads", i32, {i32, b_.getInt1Ty()}), {b_.getInt32(k), pred});
    return k ? Value{r, false} : none();
  }
  case G::ThreadFence:
  case G::ThreadFenceBlock:
  case G::ThreadFenceSystem: return none(); // fibers of a block share one CPU thread
  case G::SyncWarp:
    b_.CreateCall(runtimeFn("mahou_rt_sim_syncwarp", b_.getVoidTy(), {i32}), {scalarExpr(*e.args[0])});
    return none();
  case G::ActiveMask: return Value{b_.CreateCall(runtimeFn("mahou_rt_sim_activemask", i32, {})), false};
  case G::Ballot:
  case G::VoteAll:
  case G::VoteAny: {
    int k = kind == G::Ballot ? 0 : kind == G::VoteAll ? 1 : 2;
    return Value{b_.CreateCall(runtimeFn("mahou_rt_sim_vote", i32, {i32, i32, b_.getInt1Ty()}),
                               {b_.getInt32(k), scalarExpr(*e.args[0]), scalarExpr(*e.args[1])}),
                 false};
  }
  case G::ShflIdx:
  case G::ShflUp:
  case G::ShflDown:
  case G::ShflXor: {
    int k = kind == G::ShflIdx ? 0 : kind == G::ShflUp ? 1 : kind == G::ShflDown ? 2 : 3;
    llvm::Value *mask = scalarExpr(*e.args[0]);
    llvm::Value *v = scalarExpr(*e.args[1]);
    llvm::Value *lane = scalarExpr(*e.args[2]);
    llvm::Type *vt = v->getType();
    unsigned bits = vt->getPrimitiveSizeInBits();
    llvm::Value *asInt = b_.CreateBitCast(v, b_.getIntNTy(bits));
    llvm::Value *wide = b_.CreateZExt(asInt, i64());
    llvm::Value *r = b_.CreateCall(runtimeFn("mahou_rt_sim_shfl", i64(), {i32, i32, i64(), i32}), {b_.getInt32(k), mask, wide, lane});
    return Value{b_.CreateBitCast(b_.CreateTrunc(r, b_.getIntNTy(bits)), vt), false};
  }
  default: return std::nullopt; // local arrays, atomics, fma, popc, clz, brev: as on the GPU
  }
}

} // namespace mahou::codegen
