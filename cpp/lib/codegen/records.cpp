// Lowering of NumPy records: a record is a pointer to its bytes, so a field is a load
// or store at its offset (unaligned in a packed record); an element of an array of
// records is its address; a field of an array of records is a view of the same shape.
// A U<n> item (charseq.get/.set) is read into a str and written from one by the runtime.
#include "lowering.h"

namespace mahou::codegen {

namespace {
// The alignment a field can be relied on to have: NumPy aligns an aligned record's
// fields (and the array's data) to their own alignment; a packed record, nothing.
llvm::Align fieldAlign(const Type &record, int64_t offset, const Type &field) {
  if (!record.aligned) return llvm::Align(1);
  int64_t a = field.isComplex() ? types::dtypeBytes(field.dtype) / 2 : types::dtypeBytes(field.dtype);
  while (a > 1 && offset % a) a /= 2;
  return llvm::Align(uint64_t(std::max<int64_t>(a, 1)));
}
} // namespace

Value FunctionLowering::recordOp(const ir::Expr &e) {
  auto op = ir::ObjectOp(e.sub);
  if (op == ir::ObjectOp::RecordItem) {
    const Type &t = e.args[0]->type;
    Value arr = expr(*e.args[0]);
    std::vector<llvm::Value *> idx; // every index evaluated before any is checked, as in Python
    for (int k = 0; k < t.ndim; ++k) idx.push_back(scalarExpr(*e.args[size_t(k) + 1]));
    for (int k = 0; k < t.ndim; ++k) idx[size_t(k)] = wrapIndex(idx[size_t(k)], arrayShape(arr.v, k), options_.boundscheck);
    Type byStrides = t; // the byte strides: an element is not one of the placeholder dtype
    byStrides.layout = types::Layout::A;
    llvm::Value *p = elementPointer(arr.v, byStrides, idx);
    release(arr, t);
    return {p, false};
  }
  if (op == ir::ObjectOp::RecordStore) { // Python's order: the value, then the array and the indices
    const Type &t = e.args[0]->type;
    llvm::Value *src = expr(*e.args.back()).v;
    Value arr = expr(*e.args[0]);
    std::vector<llvm::Value *> idx;
    for (int k = 0; k < t.ndim; ++k) idx.push_back(scalarExpr(*e.args[size_t(k) + 1]));
    for (int k = 0; k < t.ndim; ++k) idx[size_t(k)] = wrapIndex(idx[size_t(k)], arrayShape(arr.v, k), options_.boundscheck);
    Type byStrides = t;
    byStrides.layout = types::Layout::A;
    llvm::Value *dst = elementPointer(arr.v, byStrides, idx);
    b_.CreateMemMove(dst, llvm::MaybeAlign(1), src, llvm::MaybeAlign(1), c64(t.elems[0].itemsize)); // a[i] = a[i]
    release(arr, t);
    return {llvm::Constant::getNullValue(types_.ssa(Type::none())), false};
  }
  if (op == ir::ObjectOp::RecordFieldView) {
    Value arr = expr(*e.args[0]);
    llvm::Value *data = b_.CreateGEP(b_.getInt8Ty(), arrayData(arr.v), c64(e.ival));
    return {b_.CreateInsertValue(arr.v, data, {2u}), arr.owned};
  }
  if (op == ir::ObjectOp::CharSeqGet) { // the item's characters into a new str
    const Type &ct = e.args[0]->type;
    llvm::Value *item = expr(*e.args[0]).v; // a pointer into an array or a record: owns nothing
    auto *ptr = b_.getPtrTy();
    llvm::Value *s = b_.CreateCall(runtimeFn("mahou_rt_charseq_get", ptr, {ptr, i64()}), {item, c64(ct.charCount())});
    checkStatus(b_.CreateZExt(b_.CreateIsNull(s), b_.getInt32Ty()));
    return {s, true};
  }
  if (op == ir::ObjectOp::CharSeqSet) { // Python's order: the value, then the item it goes to
    const Type &ct = e.args[0]->type;
    Value s = expr(*e.args[1]);
    const size_t mark = holdForError(s, e.args[1]->type); // released if finding the item raises (IndexError)
    llvm::Value *item = expr(*e.args[0]).v;
    dropHeld(mark);
    auto *ptr = b_.getPtrTy();
    b_.CreateCall(runtimeFn("mahou_rt_charseq_set", b_.getVoidTy(), {ptr, i64(), ptr}), {item, c64(ct.charCount()), s.v});
    release(s, e.args[1]->type);
    return {llvm::Constant::getNullValue(types_.ssa(Type::none())), false};
  }
  if (op == ir::ObjectOp::CharSeqFill) { // a[1:3] = 'x': the value, then the view, then every item
    const Type &at = e.args[0]->type;
    Value s = expr(*e.args[1]);
    const size_t mark = holdForError(s, e.args[1]->type); // released if the view raises
    Value view = expr(*e.args[0]);
    dropHeld(mark);
    std::vector<llvm::Value *> extents;
    for (int k = 0; k < at.ndim; ++k) extents.push_back(arrayShape(view.v, k));
    Type byStrides = at;
    byStrides.layout = types::Layout::A;
    auto *ptr = b_.getPtrTy();
    auto set = runtimeFn("mahou_rt_charseq_set", b_.getVoidTy(), {ptr, i64(), ptr});
    loopNest(extents, [&](const std::vector<llvm::Value *> &idx) {
      b_.CreateCall(set, {elementPointer(view.v, byStrides, idx), c64(at.elems[0].charCount()), s.v});
    });
    release(view, at);
    release(s, e.args[1]->type);
    return {llvm::Constant::getNullValue(types_.ssa(Type::none())), false};
  }
  const Type &rt = e.args[0]->type;
  llvm::Value *rec = expr(*e.args[0]).v; // a record owns nothing
  llvm::Value *field = b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), rec, uint64_t(e.ival));
  if (op == ir::ObjectOp::RecordGet) {
    const Type &ft = e.type;
    if (ft.isCharSeq()) return {field, false}; // a string field: its address (read by charseq.get)
    return {fromMem(b_.CreateAlignedLoad(types_.mem(ft), field, fieldAlign(rt, e.ival, ft)), ft), false};
  }
  if (op != ir::ObjectOp::RecordSet) internalError("record operation not lowered");
  const Type &ft = e.args[1]->type;
  llvm::Value *x = scalarExpr(*e.args[1]);
  b_.CreateAlignedStore(toMem(x, ft), field, fieldAlign(rt, e.ival, ft));
  return {llvm::Constant::getNullValue(types_.ssa(Type::none())), false};
}

} // namespace mahou::codegen
