// Lowering of a.flat[i]: the element at position i of the array in C order. A
// C-contiguous array is indexed linearly; any other layout unravels i into one index
// per dimension (divisions by the trailing extents) and goes through the strides.
#include "lowering.h"

namespace mahou::codegen {

llvm::Value *FunctionLowering::flatElementPointer(llvm::Value *arr, const Type &t, llvm::Value *index, bool inRange) {
  if (!inRange) {
    llvm::Value *size = c64(1);
    for (int k = 0; k < t.ndim; ++k) size = b_.CreateMul(size, arrayShape(arr, k));
    index = wrapIndex(index, size, true);
  }
  if (t.ndim == 0) return arrayData(arr);
  llvm::Value *data = arrayData(arr);
  if (t.layout == types::Layout::C) return b_.CreateInBoundsGEP(types_.mem(Type::scalar(t.dtype)), data, index);
  if (t.ndim == 1) return b_.CreateInBoundsGEP(b_.getInt8Ty(), data, b_.CreateMul(index, arrayStride(arr, 0)));
  // 0 <= index < size, so every extent divided by here is positive.
  std::vector<llvm::Value *> idx(size_t(t.ndim));
  llvm::Value *rest = index;
  for (int k = t.ndim - 1; k > 0; --k) {
    llvm::Value *extent = arrayShape(arr, k);
    idx[size_t(k)] = b_.CreateURem(rest, extent);
    rest = b_.CreateUDiv(rest, extent);
  }
  idx[0] = rest;
  return elementPointer(arr, t, idx);
}

llvm::Value *FunctionLowering::arrayFlatItem(const ir::Expr &e) {
  const Type &t = e.args[0]->type;
  Value arr = expr(*e.args[0]);
  llvm::Value *p = flatElementPointer(arr.v, t, scalarExpr(*e.args[1]), e.ival == 1);
  llvm::LoadInst *load = b_.CreateLoad(types_.mem(e.type), p);
  tagMemory(load, MemoryKind::ArrayElement);
  llvm::Value *v = fromMem(load, e.type);
  release(arr, t);
  return v;
}

void FunctionLowering::storeFlatItem(const ir::Stmt &s) {
  const Type &t = s.exprs[0]->type;
  const ir::Expr &valueE = *s.exprs[2]; // Python's order: the value first
  llvm::Value *v = scalarExpr(valueE);
  Value arr = expr(*s.exprs[0]);
  llvm::Value *index = scalarExpr(*s.exprs[1]);
  tagMemory(b_.CreateStore(toMem(v, valueE.type), flatElementPointer(arr.v, t, index, false)), MemoryKind::ArrayElement);
  release(arr, t);
}

} // namespace mahou::codegen
