// Lowering of the two simplest forms of advanced indexing: gathers into a new array
// (a boolean mask in C order, an integer array into a 1-D array, with wraparound and
// bounds checks) and scatters of a scalar or of consecutive elements of a 1-D array
// (of the selection's length, or one element broadcast). The general forms:
// advanced_index.cpp.
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
  const size_t mark = holdForError(base, bt);
  Value index = expr(*s.exprs[1]);
  holdForError(index, it);
  Value value = expr(*s.exprs[2]);
  holdForError(value, vt);
  // NumPy reads the index and the value as they were before the first store: an operand
  // that shares memory with the base is copied first (a mask at the base's own elements
  // is read in step with the stores and needs no copy).
  llvm::Value *indexCopy = nullptr, *valueCopy = nullptr;
  Value indexRead{unshared(index.v, it, *s.exprs[1], base.v, bt, it.dtype == types::DType::Bool, indexCopy), false};
  Type indexCopyType = Type::array(it.dtype, it.ndim, types::Layout::C);
  // The index or its C copy: a Fortran-layout index is read through its strides.
  const Type itRead = it.layout == types::Layout::F ? Type::array(it.dtype, it.ndim, types::Layout::A, it.readonly) : it;
  holdForError({indexCopy, true}, indexCopyType);
  Value valueRead = value;
  Type valueCopyType = vt.isArray() ? Type::array(vt.dtype, vt.ndim, types::Layout::C) : vt;
  if (vt.isArray()) {
    valueRead = {unshared(value.v, vt, *s.exprs[2], base.v, bt, false, valueCopy), false};
    holdForError({valueCopy, true}, valueCopyType);
  }
  Type elem = Type::scalar(bt.dtype);
  llvm::Value *single = nullptr; // a value array of one element broadcasts
  if (vt.isArray()) { // NumPy checks the value's length against the selection before storing
    llvm::Value *count = c64(1);
    std::vector<llvm::Value *> ishape = shapeOf(*this, indexRead.v, it.ndim);
    if (it.dtype == types::DType::Bool) {
      llvm::Value *acc = entryAlloca(i64(), "mask.count");
      b_.CreateStore(c64(0), acc);
      loopNest(ishape, [&](const std::vector<llvm::Value *> &idx) {
        llvm::Value *m = b_.CreateLoad(b_.getInt8Ty(), elementPointer(indexRead.v, itRead, idx));
        b_.CreateStore(b_.CreateAdd(b_.CreateLoad(i64(), acc), b_.CreateZExt(b_.CreateICmpNE(m, b_.getInt8(0)), i64())), acc);
      });
      count = b_.CreateLoad(i64(), acc);
    } else {
      for (auto *x : ishape) count = b_.CreateMul(count, x);
    }
    llvm::Value *len = arrayShape(valueRead.v, 0);
    single = b_.CreateICmpEQ(len, c64(1));
    raiseIf(b_.CreateAnd(b_.CreateNot(single), b_.CreateICmpNE(len, count)), types::ExcKind::ValueError,
            it.dtype == types::DType::Bool
                ? "NumPy boolean array indexing assignment cannot assign the input values to the output values "
                  "where the mask is true (their numbers differ)"
                : "shape mismatch: value array could not be broadcast to indexing result");
  }
  forEachSelected(*this, b_, base, bt, indexRead, itRead, true, [&](llvm::Value *ptr, llvm::Value *k) {
    llvm::Value *v;
    if (vt.isArray()) { // consecutive elements of a 1-D array
      Type ve = Type::scalar(vt.dtype);
      llvm::Value *at = b_.CreateSelect(single, c64(0), k);
      v = castScalar(fromMem(b_.CreateLoad(types_.mem(ve), elementPointer(valueRead.v, vt, {at})), ve), ve, elem);
    } else {
      v = castScalar(value.v, vt, elem);
    }
    b_.CreateStore(toMem(v, elem), ptr);
  });
  dropHeld(mark);
  if (valueCopy) release({valueCopy, true}, valueCopyType);
  release({indexCopy, true}, indexCopyType);
  release(value, vt);
  release(index, it);
  release(base, bt);
}

} // namespace mahou::codegen
