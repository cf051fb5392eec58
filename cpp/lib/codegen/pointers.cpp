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

namespace {

// The LLVM extension attribute C gives a narrow integer argument or result.
std::optional<llvm::Attribute::AttrKind> cExtension(const Type &t) {
  if (!t.isNumber() || types::dtypeBytes(t.dtype) >= 4) return std::nullopt;
  return t.isBool() || !types::isSigned(t.dtype) ? llvm::Attribute::ZExt : llvm::Attribute::SExt;
}

} // namespace

// The arguments of an external call as C sees them: an array gives its data pointer
// (the array is kept in `arrays`, to be released after the call).
std::vector<llvm::Value *> FunctionLowering::externalArgs(const ir::Expr &e,
                                                          std::vector<std::pair<Value, const Type *>> &arrays) {
  std::vector<llvm::Value *> args;
  for (const auto &a : e.args) {
    if (a->type.isArray()) {
      Value arr = expr(*a);
      args.push_back(b_.CreateExtractValue(arr.v, 2));
      arrays.emplace_back(arr, &a->type);
    } else {
      args.push_back(scalarExpr(*a));
    }
  }
  return args;
}

// A call of the C function at address e.ival: arguments and result in the C calling
// convention (small integers and bool extended as C does), no status to check.
llvm::Value *FunctionLowering::callNative(const ir::Expr &e) {
  std::vector<std::pair<Value, const Type *>> arrays; // passed by data pointer, held over the call
  std::vector<llvm::Value *> args = externalArgs(e, arrays);
  std::vector<llvm::Type *> params;
  for (llvm::Value *a : args) params.push_back(a->getType());
  llvm::Type *ret = e.type.isNone() ? b_.getVoidTy() : types_.ssa(e.type);
  auto *fty = llvm::FunctionType::get(ret, params, false);
  llvm::Value *callee = b_.CreateIntToPtr(c64(e.ival), b_.getPtrTy());
  llvm::CallInst *call = b_.CreateCall(fty, callee, args);
  for (size_t i = 0; i < e.args.size(); ++i)
    if (auto ext = cExtension(e.args[i]->type)) call->addParamAttr(unsigned(i), *ext);
  if (auto ext = cExtension(e.type)) call->addRetAttr(*ext);
  for (auto &[arr, type] : arrays) release(arr, *type);
  if (e.type.isNone()) return llvm::Constant::getNullValue(types_.ssa(e.type));
  return call;
}

// Numba's device ABI for external functions (cuda.declare_device):
//   extern "C" __device__ int symbol(T *result, args...)
// the status is ignored (foreign code raises no Python exception); a function declared
// to return nothing still gets a (byte) result slot.
llvm::Value *FunctionLowering::callForeign(const ir::Expr &e) {
  if (options_.simulateGpu) {
    std::string msg = "the external device function '" + e.symbol +
                      "' (cuda.declare_device) cannot run in the CUDA emulator: it is CUDA C or PTX, linked "
                      "only on a GPU";
    throw UserError(DiagKind::Unsupported, fn_.file + ":" + std::to_string(e.loc.line) + ": " + msg, msg, e.loc,
                    fn_.file);
  }
  if (!gpu())
    internalError("an external device function is called outside the NVPTX target");
  std::vector<std::pair<Value, const Type *>> arrays;
  std::vector<llvm::Value *> args = externalArgs(e, arrays);
  llvm::Type *retTy = e.type.isNone() ? b_.getInt8Ty() : types_.ssa(e.type);
  llvm::Value *slot = entryAlloca(retTy, "foreign.result");
  args.insert(args.begin(), slot);
  std::vector<llvm::Type *> params;
  for (llvm::Value *a : args) params.push_back(a->getType());
  auto *fty = llvm::FunctionType::get(b_.getInt32Ty(), params, false);
  llvm::Function *declared = module_.getFunction(e.symbol);
  if (!declared)
    declared = llvm::Function::Create(fty, llvm::GlobalValue::ExternalLinkage, e.symbol, module_);
  else if (declared->getFunctionType() != fty)
    internalError("the external device function '" + e.symbol + "' has two signatures in one module");
  llvm::CallInst *call = b_.CreateCall(declared, args);
  for (size_t i = 0; i < e.args.size(); ++i)
    if (auto ext = cExtension(e.args[i]->type)) call->addParamAttr(unsigned(i + 1), *ext);
  for (auto &[arr, type] : arrays) release(arr, *type);
  if (e.type.isNone()) return llvm::Constant::getNullValue(types_.ssa(e.type));
  return b_.CreateLoad(retTy, slot);
}

} // namespace mahou::codegen
