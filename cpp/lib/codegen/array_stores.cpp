// Stores of whole-array values into arrays (a[...] = expr, a op= expr, ufunc out=, index
// arrays) with NumPy's answer when the value reads the destination's memory: as if the
// right-hand side were evaluated completely before the first store.
//
// The fused loop stays when no operand can share bytes with the destination: operands
// the expression allocates itself and the destination's own variable (element for
// element) are known at compile time; the others are tested at run time, the byte range
// [lowest, highest] of the destination against each operand's. An operand at exactly the
// destination's elements (same data, shape, strides and item size) is safe too. When an
// operand does overlap, the value goes into one temporary first (one per statement
// execution). Kernels cannot allocate: there a 1-D store runs forwards or backwards,
// whichever reads every element before it is overwritten, and other overlaps raise.
#include "lowering.h"

namespace mahou::codegen {

namespace {

const ir::Expr &withoutLayoutCasts(const ir::Expr &e) {
  const ir::Expr *p = &e;
  while (p->op == ir::ExprOp::Cast && p->type.isArray() && p->args[0]->type.isArray() &&
         p->args[0]->type.dtype == p->type.dtype)
    p = p->args[0].get();
  return *p;
}

// An operand the expression allocates itself (or a read-only constant): it cannot share
// memory with a writable destination.
bool freshArray(const ir::Expr &operand) {
  const ir::Expr &e = withoutLayoutCasts(operand);
  using O = ir::ExprOp;
  switch (e.op) {
  case O::ArrayAlloc:
  case O::ArrayArange:
  case O::ArrayCopy:
  case O::ArrayLiteral:
  case O::ArrayConst:
  case O::ArrayLinspace:
  case O::ArrayEye:
  case O::ArrayGather:
  case O::ArrayFancyGet:
  case O::ArrayJoin:
  case O::ArrayMap:
  case O::ArrayBincount:
  case O::ArrayDot:
  case O::ArrayReduce: return e.type.isArray();
  case O::ArraySort: return e.type.isArray() && e.sub != 2;
  default: return false;
  }
}

// The destination's own variable read again: the same elements, visited in step.
bool sameVariable(const ir::Expr &dest, const ir::Expr &operand) {
  const ir::Expr &d = withoutLayoutCasts(dest), &o = withoutLayoutCasts(operand);
  return d.op == ir::ExprOp::LoadVar && o.op == ir::ExprOp::LoadVar && d.var == o.var;
}

} // namespace

FunctionLowering::ByteRange FunctionLowering::byteRange(llvm::Value *arr, const Type &t) {
  llvm::Value *lo = b_.CreatePtrToInt(arrayData(arr), i64());
  llvm::Value *hi = lo;
  llvm::Value *empty = b_.getFalse();
  for (int d = 0; d < t.ndim; ++d) {
    llvm::Value *n = arrayShape(arr, d);
    empty = b_.CreateOr(empty, b_.CreateICmpSLE(n, c64(0)));
    llvm::Value *span = b_.CreateMul(b_.CreateSub(n, c64(1)), arrayStride(arr, d));
    llvm::Value *negative = b_.CreateICmpSLT(span, c64(0));
    lo = b_.CreateAdd(lo, b_.CreateSelect(negative, span, c64(0)));
    hi = b_.CreateAdd(hi, b_.CreateSelect(negative, c64(0), span));
  }
  hi = b_.CreateAdd(hi, c64(types::dtypeBytes(t.dtype) - 1));
  return {lo, hi, b_.CreateNot(empty)};
}

llvm::Value *FunctionLowering::sharesBytes(const ByteRange &a, const ByteRange &b) {
  llvm::Value *apart = b_.CreateOr(b_.CreateICmpULT(a.hi, b.lo), b_.CreateICmpULT(b.hi, a.lo));
  return b_.CreateAnd(b_.CreateAnd(a.nonEmpty, b.nonEmpty), b_.CreateNot(apart));
}

llvm::Value *FunctionLowering::sameElements(llvm::Value *dest, const Type &dt, llvm::Value *src, const Type &st) {
  if (st.ndim != dt.ndim || types::dtypeBytes(st.dtype) != types::dtypeBytes(dt.dtype)) return b_.getFalse();
  llvm::Value *same = b_.CreateICmpEQ(arrayData(dest), arrayData(src));
  for (int d = 0; d < dt.ndim; ++d) {
    llvm::Value *n = arrayShape(dest, d);
    same = b_.CreateAnd(same, b_.CreateICmpEQ(n, arrayShape(src, d)));
    llvm::Value *stepsTogether =
        b_.CreateOr(b_.CreateICmpSLE(n, c64(1)), b_.CreateICmpEQ(arrayStride(dest, d), arrayStride(src, d)));
    same = b_.CreateAnd(same, stepsTogether);
  }
  return same;
}

llvm::Value *FunctionLowering::overlapsOperand(llvm::Value *dest, const Type &dt, const ByteRange &destRange,
                                               llvm::Value *src, const Type &st, bool elementwiseSafe) {
  llvm::Value *shares = sharesBytes(destRange, byteRange(src, st));
  if (!elementwiseSafe) return shares;
  return b_.CreateAnd(shares, b_.CreateNot(sameElements(dest, dt, src, st)));
}

llvm::Value *FunctionLowering::storeOverlap(const ir::Expr &destExpr, llvm::Value *dest, const Type &dt,
                                            const ir::Expr &map, const std::vector<Input> &inputs) {
  llvm::Value *any = nullptr;
  std::optional<ByteRange> destRange;
  for (size_t k = 0; k < inputs.size(); ++k) {
    const Input &in = inputs[k];
    if (!in.type.isArray() || freshArray(*map.args[k])) continue;
    if (sameVariable(destExpr, *map.args[k]) && in.type.ndim == dt.ndim) continue;
    if (!destRange) destRange = byteRange(dest, dt);
    llvm::Value *o = overlapsOperand(dest, dt, *destRange, in.value.v, in.type, true);
    any = any ? b_.CreateOr(any, o) : o;
  }
  return any;
}

void FunctionLowering::storeView(const ir::Stmt &s) {
  const Type &dt = s.exprs[0]->type;
  const ir::Expr &map = *s.exprs[1];
  Value dest = expr(*s.exprs[0]);
  const size_t mark = holdForError(dest, dt);
  std::vector<Input> inputs = evaluateInputs(map);
  std::vector<llvm::Value *> extents;
  for (int d = 0; d < dt.ndim; ++d) extents.push_back(arrayShape(dest.v, d));
  Type from = map.args.back()->type, to = Type::scalar(dt.dtype);
  llvm::Type *mt = types_.mem(to);
  auto intoDest = [&](llvm::Value *linear, const std::vector<llvm::Value *> &idx, llvm::Value *v) {
    llvm::Value *p = linear ? b_.CreateInBoundsGEP(mt, arrayData(dest.v), linear) : elementPointer(dest.v, dt, idx);
    b_.CreateStore(toMem(castScalar(v, from, to), to), p);
  };
  auto fused = [&]() { elementLoop(inputs, extents, dt.layout == types::Layout::C, mapBody(map), intoDest); };
  llvm::Value *overlap = storeOverlap(*s.exprs[0], dest.v, dt, map, inputs);
  if (!overlap) {
    fused();
  } else if (gpu() || options_.simulateGpu) {
    storeViewInKernel(dest.v, dt, map, inputs, overlap, intoDest, fused);
  } else {
    auto *direct = newBlock("store.direct");
    auto *viaTemp = newBlock("store.overlap");
    auto *done = newBlock("store.done");
    b_.CreateCondBr(overlap, viaTemp, direct, llvm::MDBuilder(ctx()).createBranchWeights(1, 100));
    b_.SetInsertPoint(direct);
    fused();
    b_.CreateBr(done);
    // The value into a temporary of the destination's shape, then the temporary stored.
    b_.SetInsertPoint(viaTemp);
    Type tt = Type::array(from.dtype, dt.ndim, types::Layout::C);
    Value temp{allocateArray(tt, extents), true};
    const size_t tempMark = holdForError(temp, tt);
    llvm::Type *tmt = types_.mem(from);
    elementLoop(inputs, extents, true, mapBody(map),
                [&](llvm::Value *linear, const std::vector<llvm::Value *> &idx, llvm::Value *v) {
                  llvm::Value *p = linear ? b_.CreateInBoundsGEP(tmt, arrayData(temp.v), linear) : elementPointer(temp.v, tt, idx);
                  b_.CreateStore(toMem(v, from), p);
                });
    elementLoop({{Value{temp.v, false}, tt}}, extents, dt.layout == types::Layout::C,
                [](const std::vector<llvm::Value *> &elements) { return elements[0]; }, intoDest);
    dropHeld(tempMark);
    release(temp, tt);
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
  }
  dropHeld(mark);
  releaseInputs(inputs);
  release(dest, dt);
}

llvm::Value *FunctionLowering::unshared(llvm::Value *operand, const Type &t, const ir::Expr &operandExpr,
                                        llvm::Value *base, const Type &bt, bool elementwiseSafe, llvm::Value *&copy) {
  llvm::Value *none = llvm::Constant::getNullValue(types_.array(t.ndim));
  copy = none;
  if (freshArray(operandExpr) || gpu()) return operand;
  llvm::Value *overlap = overlapsOperand(base, bt, byteRange(base, bt), operand, t, elementwiseSafe);
  auto *pre = b_.GetInsertBlock();
  auto *copyB = newBlock("unshare.copy");
  auto *done = newBlock("unshare.done");
  b_.CreateCondBr(overlap, copyB, done, llvm::MDBuilder(ctx()).createBranchWeights(1, 100));
  b_.SetInsertPoint(copyB);
  llvm::Value *fresh = cOrderCopy(operand, t);
  auto *copied = b_.GetInsertBlock();
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
  auto *read = b_.CreatePHI(operand->getType(), 2);
  read->addIncoming(operand, pre);
  read->addIncoming(fresh, copied);
  auto *made = b_.CreatePHI(none->getType(), 2);
  made->addIncoming(none, pre);
  made->addIncoming(fresh, copied);
  copy = made;
  return read;
}

// A kernel's overlapping store (no temporary on the device): a 1-D destination whose
// overlapping operands have its length and stride, each an exact number of elements
// away, runs backwards when every one of them is behind it, forwards otherwise; any
// other overlap raises ValueError.
void FunctionLowering::storeViewInKernel(llvm::Value *dest, const Type &dt, const ir::Expr &map,
                                         const std::vector<Input> &inputs, llvm::Value *overlap, const SinkFn &sink,
                                         const std::function<void()> &fused) {
  auto *direct = newBlock("store.direct");
  auto *ordered = newBlock("store.overlap");
  auto *done = newBlock("store.done");
  b_.CreateCondBr(overlap, ordered, direct, llvm::MDBuilder(ctx()).createBranchWeights(1, 100));
  b_.SetInsertPoint(direct);
  fused();
  b_.CreateBr(done);
  b_.SetInsertPoint(ordered);
  llvm::Value *forwardOk = b_.getTrue(), *backwardOk = b_.getTrue();
  if (dt.ndim != 1) {
    forwardOk = backwardOk = b_.getFalse();
  } else {
    ByteRange destRange = byteRange(dest, dt);
    llvm::Value *stride = arrayStride(dest, 0);
    for (size_t k = 0; k < inputs.size(); ++k) {
      const Input &in = inputs[k];
      if (!in.type.isArray() || freshArray(*map.args[k])) continue;
      llvm::Value *shares = sharesBytes(destRange, byteRange(in.value.v, in.type));
      if (in.type.ndim != 1 || types::dtypeBytes(in.type.dtype) != types::dtypeBytes(dt.dtype)) {
        forwardOk = b_.CreateAnd(forwardOk, b_.CreateNot(shares));
        backwardOk = b_.CreateAnd(backwardOk, b_.CreateNot(shares));
        continue;
      }
      // Element i reads dest's element i + delta / stride.
      llvm::Value *delta = b_.CreateSub(b_.CreatePtrToInt(arrayData(in.value.v), i64()), b_.CreatePtrToInt(arrayData(dest), i64()));
      llvm::Value *safeStride = b_.CreateSelect(b_.CreateICmpEQ(stride, c64(0)), c64(1), stride);
      llvm::Value *inStep = b_.CreateAnd(b_.CreateICmpEQ(arrayStride(in.value.v, 0), stride),
                                         b_.CreateAnd(b_.CreateICmpEQ(arrayShape(in.value.v, 0), arrayShape(dest, 0)),
                                                      b_.CreateICmpEQ(b_.CreateSRem(delta, safeStride), c64(0))));
      llvm::Value *ahead = b_.CreateICmpSGE(b_.CreateSDiv(delta, safeStride), c64(0)); // read before overwritten forwards
      llvm::Value *behind = b_.CreateICmpSLE(b_.CreateSDiv(delta, safeStride), c64(0));
      forwardOk = b_.CreateAnd(forwardOk, b_.CreateOr(b_.CreateNot(shares), b_.CreateAnd(inStep, ahead)));
      backwardOk = b_.CreateAnd(backwardOk, b_.CreateOr(b_.CreateNot(shares), b_.CreateAnd(inStep, behind)));
    }
  }
  raiseIf(b_.CreateNot(b_.CreateOr(forwardOk, backwardOk)), types::ExcKind::ValueError,
          "overlapping array assignment inside a kernel is supported for 1-D arrays shifted by whole elements only");
  if (dt.ndim == 1) {
    llvm::Value *n = arrayShape(dest, 0);
    llvm::Value *bad = b_.getFalse();
    for (auto &in : inputs)
      if (in.type.isArray() && in.type.ndim == 1) {
        llvm::Value *m = arrayShape(in.value.v, 0);
        bad = b_.CreateOr(bad, b_.CreateAnd(b_.CreateICmpNE(m, n), b_.CreateICmpNE(m, c64(1))));
      }
    raiseIf(bad, types::ExcKind::ValueError, "operands could not be broadcast together");
    llvm::Value *backwards = b_.CreateNot(forwardOk);
    ElementFn body = mapBody(map);
    loopNest({n}, [&](const std::vector<llvm::Value *> &i) {
      llvm::Value *j = b_.CreateSelect(backwards, b_.CreateSub(b_.CreateSub(n, c64(1)), i[0]), i[0]);
      std::vector<llvm::Value *> elems;
      for (auto &in : inputs) {
        if (!in.type.isArray()) {
          elems.push_back(in.value.v);
          continue;
        }
        std::vector<llvm::Value *> own; // a 0-d operand, or one of length 1, broadcasts
        if (in.type.ndim == 1)
          own.push_back(b_.CreateSelect(b_.CreateICmpEQ(arrayShape(in.value.v, 0), c64(1)), c64(0), j));
        Type et = Type::scalar(in.type.dtype);
        elems.push_back(fromMem(b_.CreateLoad(types_.mem(et), elementPointer(in.value.v, in.type, own)), et));
      }
      sink(nullptr, {j}, body(elems));
    });
  }
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
}

} // namespace mahou::codegen
