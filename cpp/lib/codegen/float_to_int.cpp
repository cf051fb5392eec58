// Float to integer conversion with NumPy's results on the host: on x86-64 NumPy's C casts
// truncate through cvttsd2si (NaN and out-of-range values give the target's lowest value
// or wrap through a wider integer); elsewhere (and on GPUs) the conversion saturates.
#include "lowering.h"

#include <llvm/TargetParser/Host.h>
#include <llvm/TargetParser/Triple.h>

namespace mahou::codegen {

bool hostIsX86() {
  static const bool x86 = llvm::Triple(llvm::sys::getProcessTriple()).isX86();
  return x86;
}

namespace {

// x86's truncating conversion to a `bits`-bit integer: NaN and values out of range give
// the "integer indefinite" value, the lowest integer of that width.
llvm::Value *truncating(llvm::IRBuilder<> &b, llvm::Value *d, unsigned bits) {
  llvm::Type *it = b.getIntNTy(bits);
  double hi = bits == 64 ? 9223372036854775808.0 : 2147483648.0;
  // The lowest double that truncates into range: -2^63 itself; for 32 bits, above -2^31 - 1.
  llvm::Value *above = bits == 64 ? b.CreateFCmpOGE(d, llvm::ConstantFP::get(d->getType(), -hi))
                                  : b.CreateFCmpOGT(d, llvm::ConstantFP::get(d->getType(), -hi - 1.0));
  llvm::Value *inRange = b.CreateAnd(above, b.CreateFCmpOLT(d, llvm::ConstantFP::get(d->getType(), hi)));
  llvm::Value *safe = b.CreateSelect(inRange, d, llvm::ConstantFP::get(d->getType(), 0.0));
  llvm::Value *lowest = llvm::ConstantInt::get(it, llvm::APInt::getSignedMinValue(bits));
  return b.CreateSelect(inRange, b.CreateFPToSI(safe, it), lowest);
}

} // namespace

llvm::Value *floatToInt(llvm::IRBuilder<> &b, llvm::Value *v, types::DType to, bool numpyX86) {
  unsigned bits = unsigned(types::dtypeBytes(to) * 8);
  llvm::Type *lt = b.getIntNTy(bits);
  if (!numpyX86) { // saturating: NaN → 0, out of range → the nearest bound (never poison)
    auto id = types::isSigned(to) ? llvm::Intrinsic::fptosi_sat : llvm::Intrinsic::fptoui_sat;
    return b.CreateIntrinsic(id, {lt, v->getType()}, {v});
  }
  llvm::Value *d = v->getType()->isDoubleTy() ? v : b.CreateFPExt(v, b.getDoubleTy()); // exact
  using types::DType;
  switch (to) {
  case DType::Int32: return truncating(b, d, 32);
  case DType::Int64: return truncating(b, d, 64);
  case DType::UInt32: return b.CreateTrunc(truncating(b, d, 64), lt); // as C compilers convert a scalar
  case DType::UInt64: {
    // Values from 2^63 convert with the top bit moved: cvtt(x - 2^63) ^ 2^63.
    llvm::Value *two63 = llvm::ConstantFP::get(d->getType(), 9223372036854775808.0);
    llvm::Value *big = b.CreateFCmpOGE(d, two63);
    llvm::Value *high = b.CreateXor(truncating(b, b.CreateFSub(d, two63), 64),
                                    llvm::ConstantInt::get(lt, llvm::APInt::getSignedMinValue(64)));
    return b.CreateSelect(big, high, truncating(b, d, 64));
  }
  default: return b.CreateTrunc(truncating(b, d, 32), lt); // int8, int16, uint8, uint16: through int32
  }
}

} // namespace mahou::codegen
