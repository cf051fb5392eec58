// C pointers viewed as arrays (carray/farray, p[i]): the array struct over the pointed-to
// memory with C or Fortran strides and no owner (meminfo and parent null).
#include "lowering.h"

namespace mahou::codegen {

llvm::Value *FunctionLowering::arrayFromPointer(const ir::Expr &e) {
  const Type &t = e.type;
  llvm::Value *data = scalarExpr(*e.args[0]);
  std::vector<llvm::Value *> extents;
  for (size_t i = 1; i < e.args.size(); ++i) {
    llvm::Value *x = scalarExpr(*e.args[i]);
    raiseIf(b_.CreateICmpSLT(x, c64(0)), types::ExcKind::ValueError, "negative dimensions are not allowed");
    extents.push_back(x);
  }
  int nd = t.ndim;
  std::vector<llvm::Value *> strides(static_cast<size_t>(nd));
  llvm::Value *stride = c64(types::dtypeBytes(t.dtype));
  for (int k = 0; k < nd; ++k) {
    int d = t.layout == types::Layout::F ? k : nd - 1 - k;
    strides[size_t(d)] = stride;
    stride = b_.CreateMul(stride, extents[size_t(d)]);
  }
  llvm::Value *arr = llvm::UndefValue::get(types_.array(nd));
  auto *null = llvm::ConstantPointerNull::get(b_.getPtrTy());
  arr = b_.CreateInsertValue(arr, null, 0);
  arr = b_.CreateInsertValue(arr, null, 1);
  arr = b_.CreateInsertValue(arr, data, 2);
  for (unsigned d = 0; d < unsigned(nd); ++d) {
    arr = b_.CreateInsertValue(arr, extents[d], {3, d});
    arr = b_.CreateInsertValue(arr, strides[d], {4, d});
  }
  return arr;
}

} // namespace mahou::codegen

namespace mahou::codegen {

// A call of the C function at address e.ival: arguments and result in the C calling
// convention (small integers and bool extended as C does), no status to check; an
// array argument passes its data pointer.
llvm::Value *FunctionLowering::callNative(const ir::Expr &e) {
  std::vector<llvm::Type *> params;
  std::vector<llvm::Value *> args;
  std::vector<std::pair<Value, const Type *>> arrays; // passed by data pointer, held over the call
  for (const auto &a : e.args) {
    if (a->type.isArray()) {
      Value arr = expr(*a);
      args.push_back(b_.CreateExtractValue(arr.v, 2));
      arrays.emplace_back(arr, &a->type);
    } else {
      args.push_back(scalarExpr(*a));
    }
    params.push_back(args.back()->getType());
  }
  llvm::Type *ret = e.type.isNone() ? b_.getVoidTy() : types_.ssa(e.type);
  auto *fty = llvm::FunctionType::get(ret, params, false);
  llvm::Value *callee = b_.CreateIntToPtr(c64(e.ival), b_.getPtrTy());
  llvm::CallInst *call = b_.CreateCall(fty, callee, args);
  auto extension = [](const Type &t) -> std::optional<llvm::Attribute::AttrKind> {
    if (!t.isNumber() || types::dtypeBytes(t.dtype) >= 4) return std::nullopt;
    return t.isBool() || !types::isSigned(t.dtype) ? llvm::Attribute::ZExt : llvm::Attribute::SExt;
  };
  for (size_t i = 0; i < e.args.size(); ++i)
    if (auto ext = extension(e.args[i]->type)) call->addParamAttr(unsigned(i), *ext);
  if (auto ext = extension(e.type)) call->addRetAttr(*ext);
  for (auto &[arr, type] : arrays) release(arr, *type);
  if (e.type.isNone()) return llvm::Constant::getNullValue(types_.ssa(e.type));
  return call;
}

} // namespace mahou::codegen
