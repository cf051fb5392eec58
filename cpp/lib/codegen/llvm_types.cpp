// LLVM types of mahou values, and conversions between the register (bool = i1)
// and memory (bool = i8) representations; these must match types/layout.cpp.
#include "lowering.h"

namespace mahou::codegen {

llvm::Type *TypeMapper::scalar(types::DType d) {
  if (types::isDatetimeLike(d)) return llvm::Type::getInt64Ty(ctx_); // a count of its unit
  switch (d) {
  case types::DType::Bool: return llvm::Type::getInt1Ty(ctx_);
  case types::DType::Int8:
  case types::DType::UInt8: return llvm::Type::getInt8Ty(ctx_);
  case types::DType::Int16:
  case types::DType::UInt16: return llvm::Type::getInt16Ty(ctx_);
  case types::DType::Int32:
  case types::DType::UInt32: return llvm::Type::getInt32Ty(ctx_);
  case types::DType::Int64:
  case types::DType::UInt64: return llvm::Type::getInt64Ty(ctx_);
  case types::DType::Float16: return llvm::Type::getHalfTy(ctx_);
  case types::DType::Float32: return llvm::Type::getFloatTy(ctx_);
  case types::DType::Float64: return llvm::Type::getDoubleTy(ctx_);
  case types::DType::Complex64: {
    auto *f = llvm::Type::getFloatTy(ctx_);
    return llvm::StructType::get(ctx_, {f, f});
  }
  case types::DType::Complex128: {
    auto *f = llvm::Type::getDoubleTy(ctx_);
    return llvm::StructType::get(ctx_, {f, f});
  }
  default: break;
  }
  internalError("unknown dtype");
}

llvm::StructType *TypeMapper::array(int ndim) {
  auto *ptr = llvm::PointerType::get(ctx_, 0);
  auto *dims = llvm::ArrayType::get(llvm::Type::getInt64Ty(ctx_), ndim);
  return llvm::StructType::get(ctx_, {ptr, ptr, ptr, dims, dims});
}

llvm::Type *TypeMapper::ssa(const Type &t) {
  switch (t.kind) {
  case types::Kind::Scalar: return scalar(t.dtype);
  case types::Kind::Array: return array(t.ndim);
  case types::Kind::Tuple: return mem(t);
  case types::Kind::None:
  case types::Kind::Namespace: // a cooperative group (cuda.cg): no data
  case types::Kind::Function: // functions are static: no data
  case types::Kind::DTypeObj: return llvm::StructType::get(ctx_); // a dtype held in a variable: its type says it
  case types::Kind::ClassRef: return llvm::StructType::get(ctx_); // a jitclass as a value: no data
  case types::Kind::Str:
  case types::Kind::List:
  case types::Kind::Dict:
  case types::Kind::Set:
  case types::Kind::Instance:
  case types::Kind::Generator:
  case types::Kind::Unicode: return llvm::PointerType::get(ctx_, 0);
  case types::Kind::Optional: return mem(t);
  case types::Kind::EnumMember: return ssa(t.elems[0]); // its value (int64 or float64)
  case types::Kind::CPointer:
  case types::Kind::Record:
  case types::Kind::CharSeq: return llvm::PointerType::get(ctx_, 0); // the record's (the characters') bytes
  case types::Kind::NumPyRandomGenerator: { // {bitgen_t *, the Generator object, its holder} (layout.cpp)
    auto *p = llvm::PointerType::get(ctx_, 0);
    return llvm::StructType::get(ctx_, {p, p, p});
  }
  default: internalError("type " + t.str() + " has no runtime representation");
  }
}

llvm::Type *TypeMapper::mem(const Type &t) {
  if (t.isBool()) return llvm::Type::getInt8Ty(ctx_);
  if (t.isTuple()) {
    std::vector<llvm::Type *> elems;
    for (auto &e : t.elems) elems.push_back(mem(e));
    return llvm::StructType::get(ctx_, elems);
  }
  if (t.isOptional()) // the value, then a presence byte (layout.cpp); zero when None
    return llvm::StructType::get(ctx_, {mem(t.elems[0]), llvm::Type::getInt8Ty(ctx_)});
  return ssa(t);
}

llvm::Value *FunctionLowering::toMem(llvm::Value *v, const Type &t) {
  if (t.isBool()) return b_.CreateZExt(v, b_.getInt8Ty());
  return v; // tuples are kept in memory representation in registers too
}

llvm::Value *FunctionLowering::fromMem(llvm::Value *v, const Type &t) {
  if (t.isBool()) return b_.CreateICmpNE(v, b_.getInt8(0));
  return v;
}

} // namespace mahou::codegen
