// Lowering of the two simplest forms of advanced indexing: gathers into a new array
// (a boolean mask in C order, an integer array into a 1-D array, with wraparound and
// bounds checks) and scatters of a scalar or of consecutive elements of a 1-D array
// (the general forms: advanced_index.cpp).
#include "lowering.h"

namespace mahou::codegen {

namespace {
std::vector<llvm::Value *> shapeOf(FunctionLowering &fl, llvm::Value *arr, int ndim) {
  std::vector<llvm::Value *> s;
  for (int d = 0; d < ndim; ++d) s.push_back(fl.arrayShape(arr, d));
  return s;
}
} // namespace

// Calls visit(elementPointer of the base) for each selected element, in order.
static void forEachSelected(FunctionLowering &fl, llvm::IRBuilder<> &b, const Value &base, const Type &bt,
                            const Value &index, const Type &it, bool check,
                            const std::function<void(llvm::Value *ptr, llvm::Value *k)> &visit) {
  std::vector<llvm::Value *> shape = shapeOf(fl, index.v, it.ndim);
  llvm::Value *k = fl.entryAlloca(b.getInt64Ty(), "sel.k");
  b.CreateStore(b.getInt64(0), k);
  if (it.dtype == types::DType::Bool) {
    llvm::Value *same = b.getTrue();
    for (int d = 0; d < bt.ndim; ++d) same = b.CreateAnd(same, b.CreateICmpEQ(shape[d], fl.arrayShape(base.v, d)));
    fl.raiseIf(b.CreateNot(same), types::ExcKind::IndexError, "boolean index did not match the indexed array's shape");
    fl.loopNest(shape, [&](const std::vector<llvm::Value *> &idx) {
      llvm::Value *m = b.CreateLoad(b.getInt8Ty(), fl.elementPointer(index.v, it, idx));
      auto *yes = fl.newBlock("mask.yes");
      auto *next = fl.newBlock("mask.next");
      b.CreateCondBr(b.CreateICmpNE(m, b.getInt8(0)), yes, next);
      b.SetInsertPoint(yes);
      llvm::Value *kv = b.CreateLoad(b.getInt64Ty(), k);
      visit(fl.elementPointer(base.v, bt, idx), kv);
      b.CreateStore(b.CreateAdd(kv, b.getInt64(1)), k);
      b.CreateBr(next);
      b.SetInsertPoint(next);
    });
    return;
  }
  Type et = Type::scalar(it.dtype);
  fl.loopNest(shape, [&](const std::vector<llvm::Value *> &idx) {
    llvm::Value *i = fl.castScalar(fl.fromMem(b.CreateLoad(fl.types_.mem(et), fl.elementPointer(index.v, it, idx)), et), et, Type::int64());
    i = fl.wrapIndex(i, fl.arrayShape(base.v, 0), true);
    llvm::Value *kv = b.CreateLoad(b.getInt64Ty(), k);
    visit(fl.elementPointer(base.v, bt, {i}), kv);
    b.CreateStore(b.CreateAdd(kv, b.getInt64(1)), k);
  });
  (void)check;
}

Value FunctionLowering::arrayGather(const ir::Expr &e) {
  const Type &bt = e.args[0]->type, &it = e.args[1]->type;
  Value base = expr(*e.args[0]);
  Value index = expr(*e.args[1]);
  Type elem = Type::scalar(bt.dtype);
  llvm::Type *mt = types_.mem(elem);
  std::vector<llvm::Value *> extents;
  if (it.dtype == types::DType::Bool) { // count the selected elements first
    llvm::Value *count = entryAlloca(i64(), "mask.count");
    b_.CreateStore(c64(0), count);
    loopNest(shapeOf(*this, index.v, it.ndim), [&](const std::vector<llvm::Value *> &idx) {
      llvm::Value *m = b_.CreateZExt(b_.CreateICmpNE(b_.CreateLoad(b_.getInt8Ty(), elementPointer(index.v, it, idx)), b_.getInt8(0)), i64());
      b_.CreateStore(b_.CreateAdd(b_.CreateLoad(i64(), count), m), count);
    });
    extents.push_back(b_.CreateLoad(i64(), count));
  } else {
    extents = shapeOf(*this, index.v, it.ndim);
  }
  llvm::Value *out = allocateArray(e.type, extents);
  llvm::Value *data = arrayData(out);
  forEachSelected(*this, b_, base, bt, index, it, true, [&](llvm::Value *ptr, llvm::Value *k) {
    b_.CreateStore(b_.CreateLoad(mt, ptr), b_.CreateInBoundsGEP(mt, data, k));
  });
  release(base, bt);
  release(index, it);
  return {out, true};
}

void FunctionLowering::scatter(const ir::Stmt &s) {
  const Type &bt = s.exprs[0]->type, &it = s.exprs[1]->type, &vt = s.exprs[2]->type;
  Value base = expr(*s.exprs[0]);
  Value index = expr(*s.exprs[1]);
  Value value = expr(*s.exprs[2]);
  Type elem = Type::scalar(bt.dtype);
  llvm::Type *mt = types_.mem(elem);
  forEachSelected(*this, b_, base, bt, index, it, true, [&](llvm::Value *ptr, llvm::Value *k) {
    llvm::Value *v;
    if (vt.isArray()) { // consecutive elements of a 1-D array
      Type ve = Type::scalar(vt.dtype);
      raiseIf(b_.CreateICmpSGE(k, arrayShape(value.v, 0)), types::ExcKind::ValueError,
              "the assigned array is shorter than the number of selected elements");
      v = castScalar(fromMem(b_.CreateLoad(types_.mem(ve), elementPointer(value.v, vt, {k})), ve), ve, elem);
    } else {
      v = castScalar(value.v, vt, elem);
    }
    b_.CreateStore(toMem(v, elem), ptr);
    (void)mt;
  });
  release(value, vt);
  release(index, it);
  release(base, bt);
}

} // namespace mahou::codegen
