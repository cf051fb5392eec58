// Lowering of the cuda module's groups and random numbers, and of print() in kernels,
// for the GPU and for the CUDA emulator: grid sync (a barrier over the whole grid in
// global memory on the GPU, the emulator's grid scheduler on the CPU), xoroshiro128+
// on a states array of uint64 pairs (the same arithmetic on both), and print through
// vprintf (GPU) or the emulator's line printer, with one format for both.
#include "lowering.h"

#include <llvm/IR/IntrinsicsNVPTX.h>

#include <cmath>

namespace mahou::codegen {

namespace {
using G = ir::GpuOpKind;
namespace I = llvm::Intrinsic;
} // namespace

// ------------------------------------------------------------------ grid sync

// All threads of the grid meet: a block barrier, then thread 0 of each block counts
// its block in (count, generation) words of the module; the last arrival resets the
// count and bumps the generation the others spin on, then a block barrier again. The
// cooperative launch guarantees the blocks are co-resident, so the spin ends.
void FunctionLowering::gridSync() {
  auto i32 = b_.getInt32Ty();
  if (options_.simulateGpu) {
    b_.CreateCall(runtimeFn("mahou_rt_sim_grid_sync", b_.getVoidTy(), {}));
    return;
  }
  auto *wordsTy = llvm::ArrayType::get(i32, 2);
  auto *words = module_.getGlobalVariable("mahou_grid_barrier");
  if (!words) {
    words = new llvm::GlobalVariable(module_, wordsTy, false, llvm::GlobalValue::InternalLinkage,
                                     llvm::ConstantAggregateZero::get(wordsTy), "mahou_grid_barrier", nullptr,
                                     llvm::GlobalValue::NotThreadLocal, 1);
    words->setAlignment(llvm::Align(8));
  }
  llvm::Value *base = b_.CreateAddrSpaceCast(words, b_.getPtrTy());
  llvm::Value *count = b_.CreateConstInBoundsGEP2_32(wordsTy, base, 0, 0);
  llvm::Value *generation = b_.CreateConstInBoundsGEP2_32(wordsTy, base, 0, 1);
  auto sreg = [&](I::ID id) { return b_.CreateIntrinsic(id, {}, {}); };
  b_.CreateIntrinsic(I::nvvm_barrier0, {}, {});
  llvm::Value *tid = b_.CreateOr(b_.CreateOr(sreg(I::nvvm_read_ptx_sreg_tid_x), sreg(I::nvvm_read_ptx_sreg_tid_y)),
                                 sreg(I::nvvm_read_ptx_sreg_tid_z));
  auto *leader = newBlock("grid.leader"), *last = newBlock("grid.last"), *spin = newBlock("grid.spin"),
       *arrived = newBlock("grid.arrived"), *after = newBlock("grid.after");
  b_.CreateCondBr(b_.CreateICmpEQ(tid, b_.getInt32(0)), leader, after);

  b_.SetInsertPoint(leader);
  llvm::Value *blocks = b_.CreateMul(b_.CreateMul(sreg(I::nvvm_read_ptx_sreg_nctaid_x), sreg(I::nvvm_read_ptx_sreg_nctaid_y)),
                                     sreg(I::nvvm_read_ptx_sreg_nctaid_z));
  llvm::Value *gen = b_.CreateLoad(i32, generation, /*isVolatile=*/true);
  b_.CreateIntrinsic(I::nvvm_membar_gl, {}, {});
  llvm::Value *before = b_.CreateAtomicRMW(llvm::AtomicRMWInst::Add, count, b_.getInt32(1), llvm::MaybeAlign(4),
                                           llvm::AtomicOrdering::Monotonic);
  b_.CreateCondBr(b_.CreateICmpEQ(before, b_.CreateSub(blocks, b_.getInt32(1))), last, spin);

  b_.SetInsertPoint(last);
  b_.CreateStore(b_.getInt32(0), count, /*isVolatile=*/true);
  b_.CreateIntrinsic(I::nvvm_membar_gl, {}, {});
  b_.CreateAtomicRMW(llvm::AtomicRMWInst::Add, generation, b_.getInt32(1), llvm::MaybeAlign(4),
                     llvm::AtomicOrdering::Monotonic);
  b_.CreateBr(arrived);

  b_.SetInsertPoint(spin);
  llvm::Value *now = b_.CreateLoad(i32, generation, /*isVolatile=*/true);
  b_.CreateCondBr(b_.CreateICmpEQ(now, gen), spin, arrived);

  b_.SetInsertPoint(arrived);
  b_.CreateIntrinsic(I::nvvm_membar_gl, {}, {});
  b_.CreateBr(after);

  b_.SetInsertPoint(after);
  b_.CreateIntrinsic(I::nvvm_barrier0, {}, {});
}

// ------------------------------------------------------------------ xoroshiro128+

namespace {
// xoroshiro128+'s jump polynomial: advances a state by 2**64 steps.
constexpr uint64_t kJump[2] = {0xBEAC0467EBA5FACBull, 0xD86B048B86AA9922ull};
} // namespace

llvm::Value *FunctionLowering::xoroshiroNext(llvm::Value *s0Ptr, llvm::Value *s1Ptr) {
  auto *u64 = i64();
  llvm::Value *s0 = b_.CreateLoad(u64, s0Ptr);
  llvm::Value *s1 = b_.CreateLoad(u64, s1Ptr);
  llvm::Value *result = b_.CreateAdd(s0, s1);
  auto rotl = [&](llvm::Value *x, uint64_t k) {
    return b_.CreateIntrinsic(I::fshl, {u64}, {x, x, b_.getInt64(k)});
  };
  s1 = b_.CreateXor(s1, s0);
  b_.CreateStore(b_.CreateXor(b_.CreateXor(rotl(s0, 55), s1), b_.CreateShl(s1, 14)), s0Ptr);
  b_.CreateStore(rotl(s1, 36), s1Ptr);
  return result;
}

void FunctionLowering::xoroshiroJump(llvm::Value *s0Ptr, llvm::Value *s1Ptr) {
  auto *u64 = i64();
  llvm::Value *acc0 = entryAlloca(u64, "jump.s0"), *acc1 = entryAlloca(u64, "jump.s1");
  b_.CreateStore(b_.getInt64(0), acc0);
  b_.CreateStore(b_.getInt64(0), acc1);
  auto *jumpTy = llvm::ArrayType::get(u64, 2);
  auto *table = new llvm::GlobalVariable(module_, jumpTy, true, llvm::GlobalValue::PrivateLinkage,
                                         llvm::ConstantDataArray::get(ctx(), llvm::ArrayRef<uint64_t>(kJump, 2)),
                                         "xoroshiro.jump", nullptr, llvm::GlobalValue::NotThreadLocal, gpu() ? 4 : 0);
  llvm::Value *tablePtr = gpu() ? b_.CreateAddrSpaceCast(table, b_.getPtrTy()) : static_cast<llvm::Value *>(table);
  // for bit in range(128): if jump[bit // 64] >> (bit % 64) & 1: acc ^= state; next()
  auto *head = newBlock("jump.head"), *body = newBlock("jump.body"), *take = newBlock("jump.take"),
       *step = newBlock("jump.step"), *done = newBlock("jump.done");
  llvm::BasicBlock *pre = b_.GetInsertBlock();
  b_.CreateBr(head);
  b_.SetInsertPoint(head);
  auto *bit = b_.CreatePHI(u64, 2, "bit");
  bit->addIncoming(b_.getInt64(0), pre);
  b_.CreateCondBr(b_.CreateICmpULT(bit, b_.getInt64(128)), body, done);
  b_.SetInsertPoint(body);
  llvm::Value *word = b_.CreateLoad(u64, b_.CreateInBoundsGEP(u64, tablePtr, b_.CreateLShr(bit, 6)));
  llvm::Value *set = b_.CreateTrunc(b_.CreateLShr(word, b_.CreateAnd(bit, 63)), b_.getInt1Ty());
  b_.CreateCondBr(set, take, step);
  b_.SetInsertPoint(take);
  b_.CreateStore(b_.CreateXor(b_.CreateLoad(u64, acc0), b_.CreateLoad(u64, s0Ptr)), acc0);
  b_.CreateStore(b_.CreateXor(b_.CreateLoad(u64, acc1), b_.CreateLoad(u64, s1Ptr)), acc1);
  b_.CreateBr(step);
  b_.SetInsertPoint(step);
  xoroshiroNext(s0Ptr, s1Ptr);
  bit->addIncoming(b_.CreateAdd(bit, b_.getInt64(1)), b_.GetInsertBlock());
  b_.CreateBr(head);
  b_.SetInsertPoint(done);
  b_.CreateStore(b_.CreateLoad(u64, acc0), s0Ptr);
  b_.CreateStore(b_.CreateLoad(u64, acc1), s1Ptr);
}

// Numba's conversions: (x >> 11) * 2**-53 in float64; the float32 form rounds that.
llvm::Value *FunctionLowering::xoroshiroUniform(llvm::Value *s0Ptr, llvm::Value *s1Ptr, bool f32) {
  llvm::Value *x = xoroshiroNext(s0Ptr, s1Ptr);
  llvm::Value *u = b_.CreateFMul(b_.CreateUIToFP(b_.CreateLShr(x, 11), b_.getDoubleTy()),
                                 llvm::ConstantFP::get(b_.getDoubleTy(), 1.0 / 9007199254740992.0));
  return f32 ? b_.CreateFPTrunc(u, b_.getFloatTy()) : u;
}

// Box-Muller on two float32 uniforms, as numba-cuda does for both widths:
// sqrt(-2 log u1) * cos(2 pi u2), the log in float32, the rest in the result's width.
llvm::Value *FunctionLowering::xoroshiroNormal(llvm::Value *s0Ptr, llvm::Value *s1Ptr, bool f32) {
  Type f32T = Type::scalar(types::DType::Float32), rt = f32 ? f32T : Type::float64();
  llvm::Value *u1 = xoroshiroUniform(s0Ptr, s1Ptr, true);
  llvm::Value *u2 = xoroshiroUniform(s0Ptr, s1Ptr, true);
  llvm::Type *ft = f32 ? b_.getFloatTy() : b_.getDoubleTy();
  llvm::Value *logU1 = mathCall("log", f32T, {u1});
  if (!f32) {
    logU1 = b_.CreateFPExt(logU1, ft);
    u2 = b_.CreateFPExt(u2, ft);
  }
  const double twoPi64 = 6.283185307179586; // 2 pi
  double twoPi = f32 ? double(float(twoPi64)) : twoPi64;
  llvm::Value *r = b_.CreateUnaryIntrinsic(I::sqrt, b_.CreateFMul(llvm::ConstantFP::get(ft, -2.0), logU1));
  llvm::Value *c = mathCall("cos", rt, {b_.CreateFMul(llvm::ConstantFP::get(ft, twoPi), u2)});
  return b_.CreateFMul(r, c);
}

Value FunctionLowering::gpuExtraOp(const ir::Expr &e) {
  G kind = G(e.sub);
  if (kind >= G::AtomicInc) return gpuIntrinsicOp(e);
  auto none = [&]() -> Value { return {llvm::Constant::getNullValue(types_.ssa(Type::none())), false}; };
  switch (kind) {
  case G::ThisGrid: return {llvm::Constant::getNullValue(types_.ssa(e.type)), false};
  case G::GridSync: gridSync(); return none();
  case G::HMax:
  case G::HMin: { // CUDA's __hmax/__hmin: a NaN operand yields the other one
    llvm::Value *a = scalarExpr(*e.args[0]), *b = scalarExpr(*e.args[1]);
    return {b_.CreateBinaryIntrinsic(kind == G::HMax ? I::maxnum : I::minnum, a, b), false};
  }
  case G::HDiv: return {b_.CreateFDiv(scalarExpr(*e.args[0]), scalarExpr(*e.args[1])), false};
  case G::Libdevice: return {libdeviceCall(e), false};
  default: break;
  }
  // Random numbers: the state is row `index` of the uint64[n, 2] states array.
  const Type &at = e.args[0]->type;
  Value states = expr(*e.args[0]);
  llvm::Value *row = wrapIndex(scalarExpr(*e.args[1]), arrayShape(states.v, 0), options_.boundscheck);
  llvm::Value *s0 = elementPointer(states.v, at, {row, c64(0)});
  llvm::Value *s1 = elementPointer(states.v, at, {row, c64(1)});
  switch (kind) {
  case G::XoroNext: return {xoroshiroNext(s0, s1), false};
  case G::XoroJump: xoroshiroJump(s0, s1); return none();
  case G::XoroUniform32: return {xoroshiroUniform(s0, s1, true), false};
  case G::XoroUniform64: return {xoroshiroUniform(s0, s1, false), false};
  case G::XoroNormal32: return {xoroshiroNormal(s0, s1, true), false};
  case G::XoroNormal64: return {xoroshiroNormal(s0, s1, false), false};
  default: internalError("unhandled GPU operation");
  }
}

// ------------------------------------------------------------------ cuda.libdevice

namespace {
// For each libdevice.def entry: computed by the emulator's mahou_rt_libdevice (true)
// or by the C library's function of the same name (false).
constexpr bool kLibdeviceOwnCpu[] = {
#define MAHOU_LIBDEVICE(name, arity, cpu) cpu != 0,
#include "mahou/libdevice.def"
#undef MAHOU_LIBDEVICE
};
constexpr const char *kLibdeviceNames[] = {
#define MAHOU_LIBDEVICE(name, arity, cpu) #name,
#include "mahou/libdevice.def"
#undef MAHOU_LIBDEVICE
};
} // namespace

// GPU: the libdevice function itself (linked by the NVPTX back end). Emulator: the C
// library's function (sinf for float32), or mahou_rt_libdevice in double rounded back;
// fast_ approximations compute the accurate function; fast_fdividef divides.
llvm::Value *FunctionLowering::libdeviceCall(const ir::Expr &e) {
  std::vector<llvm::Value *> args;
  for (auto &a : e.args) args.push_back(scalarExpr(*a));
  llvm::Type *ft = types_.scalar(e.type.dtype);
  bool f32 = e.type.isScalar(types::DType::Float32);
  if (gpu()) {
    std::vector<llvm::Type *> params(args.size(), ft);
    auto callee = module_.getOrInsertFunction(e.symbol, llvm::FunctionType::get(ft, params, false));
    if (auto *f = llvm::dyn_cast<llvm::Function>(callee.getCallee())) {
      f->addFnAttr(llvm::Attribute::NoUnwind);
      f->setMemoryEffects(llvm::MemoryEffects::none());
    }
    return b_.CreateCall(callee, args);
  }
  if (e.ival < 0) return b_.CreateFDiv(args[0], args[1]); // fast_fdividef
  const char *name = kLibdeviceNames[e.ival];
  if (kLibdeviceOwnCpu[e.ival]) {
    llvm::Value *x = f32 ? b_.CreateFPExt(args[0], b_.getDoubleTy()) : args[0];
    llvm::Value *r = b_.CreateCall(runtimeFn("mahou_rt_libdevice", b_.getDoubleTy(), {b_.getInt32Ty(), b_.getDoubleTy()}),
                                   {b_.getInt32(int32_t(e.ival)), x});
    return f32 ? b_.CreateFPTrunc(r, ft) : r;
  }
  std::vector<llvm::Type *> params(args.size(), ft);
  auto callee = module_.getOrInsertFunction(std::string(name) + (f32 ? "f" : ""), llvm::FunctionType::get(ft, params, false));
  return b_.CreateCall(callee, args);
}

// ------------------------------------------------------------------ print

// One vprintf call per print(): "%lld %f %s\n" with every argument in an 8-byte slot
// (ints widened to 64 bits, floats to double, strings and bools as string pointers).
void FunctionLowering::kernelPrint(const ir::Stmt &s) {
  std::string format;
  std::vector<llvm::Value *> slots;
  auto str = [&](const std::string &text) -> llvm::Value * {
    if (!gpu()) return stringConstant(text);
    auto *init = llvm::ConstantDataArray::getString(ctx(), text);
    auto *gv = new llvm::GlobalVariable(module_, init->getType(), true, llvm::GlobalValue::PrivateLinkage, init, "printstr",
                                        nullptr, llvm::GlobalValue::NotThreadLocal, 4);
    return b_.CreateAddrSpaceCast(gv, b_.getPtrTy());
  };
  for (size_t i = 0; i < s.exprs.size(); ++i) {
    if (i) format += ' ';
    const Type &t = s.exprs[i]->type;
    if (t.kind == types::Kind::Str) {
      format += "%s";
      slots.push_back(str(t.text));
      continue;
    }
    if (t.isNone()) {
      format += "%s";
      slots.push_back(str("None"));
      continue;
    }
    llvm::Value *v = scalarExpr(*s.exprs[i]);
    if (t.isBool()) {
      format += "%s";
      slots.push_back(b_.CreateSelect(v, str("True"), str("False")));
    } else if (t.isInt()) {
      bool sgn = types::isSigned(t.dtype);
      format += sgn ? "%lld" : "%llu";
      slots.push_back(sgn ? b_.CreateSExt(v, i64()) : b_.CreateZExt(v, i64()));
    } else {
      format += "%f";
      slots.push_back(castScalar(v, t, Type::float64()));
    }
  }
  format += '\n';
  auto *slotTy = llvm::ArrayType::get(i64(), std::max<size_t>(1, slots.size()));
  llvm::Value *buf = entryAlloca(slotTy, "print.args");
  for (size_t i = 0; i < slots.size(); ++i) {
    llvm::Value *slot = b_.CreateConstInBoundsGEP2_32(slotTy, buf, 0, unsigned(i));
    b_.CreateStore(slots[i], slot);
  }
  if (gpu()) {
    auto vprintf = module_.getOrInsertFunction(
        "vprintf", llvm::FunctionType::get(b_.getInt32Ty(), {b_.getPtrTy(), b_.getPtrTy()}, false));
    b_.CreateCall(vprintf, {str(format), buf});
  } else {
    b_.CreateCall(runtimeFn("mahou_rt_sim_print", b_.getVoidTy(), {b_.getPtrTy(), b_.getPtrTy()}), {str(format), buf});
  }
}

} // namespace mahou::codegen
