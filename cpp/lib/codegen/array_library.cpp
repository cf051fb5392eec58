// Lowering of the NumPy library functions: sort/argsort/unique through the runtime,
// searchsorted as a binary search, bincount, histogram, concatenate and stack.
#include "lowering.h"

#include "mahou/runtime.h"

namespace mahou::codegen {

namespace {
int32_t numpyNum(const Type &t) { return types::dtypeNumpyNum(t.dtype); }
} // namespace

Value FunctionLowering::arraySort(const ir::Expr &e) {
  int kind = e.sub;
  const Type &at = e.args[0]->type;
  if (!runtime::sortsNumpyNum(numpyNum(at))) // sema types sorts of these dtypes only
    internalError("sorting an array of " + at.str() + ": the runtime has no routine for its dtype");
  Value in = expr(*e.args[0]);
  llvm::Value *n = arrayShape(in.v, 0);
  llvm::Value *kth = kind == 4 ? scalarExpr(*e.args[1]) : nullptr; // a.partition(kth)
  auto sortFn = runtimeFn("mahou_rt_sort", b_.getVoidTy(), {b_.getPtrTy(), i64(), b_.getInt32Ty()});
  // In place (2: sort, 4: partition) over contiguous data; the partition's status is 1
  // when kth is out of bounds (the ValueError is set).
  auto inPlace = [&](llvm::Value *data) {
    if (kind == 2) {
      b_.CreateCall(sortFn, {data, n, b_.getInt32(numpyNum(at))});
      return;
    }
    auto partitionFn = runtimeFn("mahou_rt_partition", b_.getInt32Ty(), {b_.getPtrTy(), i64(), i64(), b_.getInt32Ty()});
    checkStatus(b_.CreateCall(partitionFn, {data, n, kth, b_.getInt32(numpyNum(at))}));
  };
  size_t heldIn = holdForError(in, at); // and the array, when it is a temporary
  Value result;
  if ((kind == 2 || kind == 4) && at.layout != types::Layout::C) { // in place, strided: sort a contiguous copy
    Type tmpType = Type::array(at.dtype, 1, types::Layout::C);
    llvm::Value *tmp = allocateArray(tmpType, {n});
    llvm::Type *mt = types_.mem(Type::scalar(at.dtype));
    loopNest({n}, [&](const std::vector<llvm::Value *> &i) {
      b_.CreateStore(b_.CreateLoad(mt, elementPointer(in.v, at, i)), b_.CreateInBoundsGEP(mt, arrayData(tmp), i[0]));
    });
    size_t held = holdForError({tmp, true}, tmpType); // a failed partition releases the copy
    inPlace(arrayData(tmp));
    dropHeld(held);
    loopNest({n}, [&](const std::vector<llvm::Value *> &i) {
      b_.CreateStore(b_.CreateLoad(mt, b_.CreateInBoundsGEP(mt, arrayData(tmp), i[0])), elementPointer(in.v, at, i));
    });
    release({tmp, true}, tmpType);
    result = {llvm::Constant::getNullValue(types_.ssa(Type::none())), false};
  } else if (kind == 2 || kind == 4) { // in place
    inPlace(arrayData(in.v));
    result = {llvm::Constant::getNullValue(types_.ssa(Type::none())), false};
  } else if (kind == 1) {
    llvm::Value *out = allocateArray(e.type, {n});
    b_.CreateCall(runtimeFn("mahou_rt_argsort", b_.getVoidTy(), {b_.getPtrTy(), i64(), i64(), b_.getInt32Ty(), b_.getPtrTy()}),
                  {arrayData(in.v), n, arrayStride(in.v, 0), b_.getInt32(numpyNum(at)), arrayData(out)});
    result = {out, true};
  } else {
    llvm::Value *out = allocateArray(e.type, {n});
    Type elem = Type::scalar(at.dtype);
    llvm::Type *mt = types_.mem(elem);
    loopNest({n}, [&](const std::vector<llvm::Value *> &i) {
      b_.CreateStore(b_.CreateLoad(mt, elementPointer(in.v, at, i)), b_.CreateInBoundsGEP(mt, arrayData(out), i[0]));
    });
    b_.CreateCall(sortFn, {arrayData(out), n, b_.getInt32(numpyNum(at))});
    if (kind == 3) {
      llvm::Value *count = b_.CreateCall(runtimeFn("mahou_rt_unique_sorted", i64(), {b_.getPtrTy(), i64(), b_.getInt32Ty()}),
                                         {arrayData(out), n, b_.getInt32(numpyNum(at))});
      out = b_.CreateInsertValue(out, count, {3u, 0u});
    }
    result = {out, true};
  }
  dropHeld(heldIn);
  release(in, at);
  return result;
}

llvm::Value *FunctionLowering::arraySearch(const ir::Expr &e) {
  const Type &at = e.args[0]->type;
  Value arr = expr(*e.args[0]);
  llvm::Value *x = scalarExpr(*e.args[1]);
  Type elem = Type::scalar(at.dtype);
  const Type &vt = e.args[1]->type; // the comparison's type (the value's, promoted in sema)
  llvm::Value *lo = entryAlloca(i64(), "bs.lo"), *hi = entryAlloca(i64(), "bs.hi");
  b_.CreateStore(c64(0), lo);
  b_.CreateStore(arrayShape(arr.v, 0), hi);
  auto *cond = newBlock("bs.cond"), *body = newBlock("bs.body"), *done = newBlock("bs.done");
  b_.CreateBr(cond);
  b_.SetInsertPoint(cond);
  llvm::Value *l = b_.CreateLoad(i64(), lo), *h = b_.CreateLoad(i64(), hi);
  b_.CreateCondBr(b_.CreateICmpSLT(l, h), body, done);
  b_.SetInsertPoint(body);
  llvm::Value *mid = b_.CreateLShr(b_.CreateAdd(l, h), 1);
  llvm::Value *v = castScalar(fromMem(b_.CreateLoad(types_.mem(elem), elementPointer(arr.v, at, {mid})), elem), elem, vt);
  // left: first index with a[i] >= x; right: first index with a[i] > x. NumPy's order
  // puts NaN after every number: less(p, q) = p < q or (q is NaN and p is not).
  auto less = [&](llvm::Value *p, llvm::Value *q) {
    llvm::Value *lt = compare(ir::CmpOp::Lt, p, q, vt);
    if (!vt.isFloat()) return lt;
    return b_.CreateOr(lt, b_.CreateAnd(b_.CreateFCmpUNO(q, q), b_.CreateFCmpORD(p, p)));
  };
  llvm::Value *goRight = e.ival ? b_.CreateNot(less(x, v)) : less(v, x);
  b_.CreateStore(b_.CreateSelect(goRight, b_.CreateAdd(mid, c64(1)), l), lo);
  b_.CreateStore(b_.CreateSelect(goRight, h, mid), hi);
  b_.CreateBr(cond);
  b_.SetInsertPoint(done);
  release(arr, at);
  return b_.CreateLoad(i64(), lo);
}

Value FunctionLowering::arrayBincount(const ir::Expr &e) {
  const Type &at = e.args[0]->type;
  Value in = expr(*e.args[0]);
  Type elem = Type::scalar(at.dtype);
  llvm::Value *n = arrayShape(in.v, 0);
  llvm::Value *maxV = entryAlloca(i64(), "bc.max");
  b_.CreateStore(c64(-1), maxV);
  auto load = [&](llvm::Value *i) {
    return castScalar(fromMem(b_.CreateLoad(types_.mem(elem), elementPointer(in.v, at, {i})), elem), elem, Type::int64());
  };
  loopNest({n}, [&](const std::vector<llvm::Value *> &i) {
    llvm::Value *x = load(i[0]);
    raiseIf(b_.CreateICmpSLT(x, c64(0)), types::ExcKind::ValueError, "'list' argument must have no negative elements");
    llvm::Value *m = b_.CreateLoad(i64(), maxV);
    b_.CreateStore(b_.CreateSelect(b_.CreateICmpSGT(x, m), x, m), maxV);
  });
  llvm::Value *len = b_.CreateAdd(b_.CreateLoad(i64(), maxV), c64(1));
  llvm::Value *out = allocateArray(e.type, {len});
  b_.CreateMemSet(arrayData(out), b_.getInt8(0), b_.CreateMul(len, c64(8)), llvm::MaybeAlign(8));
  loopNest({n}, [&](const std::vector<llvm::Value *> &i) {
    llvm::Value *p = b_.CreateInBoundsGEP(i64(), arrayData(out), load(i[0]));
    b_.CreateStore(b_.CreateAdd(b_.CreateLoad(i64(), p), c64(1)), p);
  });
  release(in, at);
  return {out, true};
}

Value FunctionLowering::arrayHistogram(const ir::Expr &e) {
  const Type &at = e.args[0]->type;
  Value in = expr(*e.args[0]);
  llvm::Value *bins = scalarExpr(*e.args[1]);
  raiseIf(b_.CreateICmpSLT(bins, c64(1)), types::ExcKind::ValueError, "`bins` must be positive, when an integer");
  Type elem = Type::scalar(at.dtype);
  llvm::Type *d = b_.getDoubleTy();
  std::vector<llvm::Value *> shape;
  for (int k = 0; k < at.ndim; ++k) shape.push_back(arrayShape(in.v, k));
  auto load = [&](const std::vector<llvm::Value *> &idx) {
    return castScalar(fromMem(b_.CreateLoad(types_.mem(elem), elementPointer(in.v, at, idx)), elem), elem, Type::float64());
  };
  llvm::Value *mn = entryAlloca(d, "h.min"), *mx = entryAlloca(d, "h.max");
  b_.CreateStore(llvm::ConstantFP::getInfinity(d, false), mn);
  b_.CreateStore(llvm::ConstantFP::getInfinity(d, true), mx);
  loopNest(shape, [&](const std::vector<llvm::Value *> &idx) {
    llvm::Value *x = load(idx);
    llvm::Value *a = b_.CreateLoad(d, mn), *c = b_.CreateLoad(d, mx);
    b_.CreateStore(b_.CreateSelect(b_.CreateFCmpOLT(x, a), x, a), mn);
    b_.CreateStore(b_.CreateSelect(b_.CreateFCmpOGT(x, c), x, c), mx);
  });
  llvm::Value *lo = b_.CreateLoad(d, mn), *hi = b_.CreateLoad(d, mx);
  llvm::Value *empty = b_.CreateFCmpOGT(lo, hi); // no elements: range (0, 1)
  lo = b_.CreateSelect(empty, llvm::ConstantFP::get(d, 0.0), lo);
  hi = b_.CreateSelect(empty, llvm::ConstantFP::get(d, 1.0), hi);
  llvm::Value *same = b_.CreateFCmpOEQ(lo, hi); // NumPy widens a zero-width range by 0.5 each side
  lo = b_.CreateSelect(same, b_.CreateFSub(lo, llvm::ConstantFP::get(d, 0.5)), lo);
  hi = b_.CreateSelect(same, b_.CreateFAdd(hi, llvm::ConstantFP::get(d, 0.5)), hi);
  Type countsT = e.type.elems[0], edgesT = e.type.elems[1];
  llvm::Value *counts = allocateArray(countsT, {bins});
  b_.CreateMemSet(arrayData(counts), b_.getInt8(0), b_.CreateMul(bins, c64(8)), llvm::MaybeAlign(8));
  llvm::Value *nEdges = b_.CreateAdd(bins, c64(1));
  llvm::Value *edges = allocateArray(edgesT, {nEdges});
  llvm::Value *width = b_.CreateFSub(hi, lo);
  llvm::Value *fb = b_.CreateSIToFP(bins, d);
  // NumPy's edges: np.linspace(lo, hi, bins + 1), i * step + lo, the last one hi itself.
  llvm::Value *step = b_.CreateFDiv(width, fb);
  loopNest({nEdges}, [&](const std::vector<llvm::Value *> &i) {
    llvm::Value *v = b_.CreateFAdd(b_.CreateFMul(b_.CreateSIToFP(i[0], d), step), lo);
    v = b_.CreateSelect(b_.CreateICmpEQ(i[0], bins), hi, v);
    b_.CreateStore(v, b_.CreateInBoundsGEP(d, arrayData(edges), i[0]));
  });
  loopNest(shape, [&](const std::vector<llvm::Value *> &idx) {
    llvm::Value *x = load(idx);
    llvm::Value *inside = b_.CreateAnd(b_.CreateFCmpOGE(x, lo), b_.CreateFCmpOLE(x, hi));
    auto *yes = newBlock("h.in"), *next = newBlock("h.next");
    b_.CreateCondBr(inside, yes, next);
    b_.SetInsertPoint(yes);
    llvm::Value *f = b_.CreateFMul(b_.CreateFDiv(b_.CreateFSub(x, lo), width), fb);
    llvm::Value *bin = b_.CreateFPToSI(f, i64());
    bin = b_.CreateSelect(b_.CreateICmpSGE(bin, bins), b_.CreateSub(bins, c64(1)), bin);
    // As NumPy, the bin is corrected against the edges (the quotient can be off by one
    // within an ulp of an edge): one down below its lower edge, one up at or past its upper.
    llvm::Value *lower = b_.CreateLoad(d, b_.CreateInBoundsGEP(d, arrayData(edges), bin));
    bin = b_.CreateSelect(b_.CreateFCmpOLT(x, lower), b_.CreateSub(bin, c64(1)), bin);
    llvm::Value *upper = b_.CreateLoad(d, b_.CreateInBoundsGEP(d, arrayData(edges), b_.CreateAdd(bin, c64(1))));
    llvm::Value *up = b_.CreateAnd(b_.CreateFCmpOGE(x, upper), b_.CreateICmpNE(bin, b_.CreateSub(bins, c64(1))));
    bin = b_.CreateSelect(up, b_.CreateAdd(bin, c64(1)), bin);
    llvm::Value *p = b_.CreateInBoundsGEP(i64(), arrayData(counts), bin);
    b_.CreateStore(b_.CreateAdd(b_.CreateLoad(i64(), p), c64(1)), p);
    b_.CreateBr(next);
    b_.SetInsertPoint(next);
  });
  release(in, at);
  llvm::Value *tuple = llvm::UndefValue::get(types_.mem(e.type));
  tuple = b_.CreateInsertValue(tuple, counts, {0u});
  tuple = b_.CreateInsertValue(tuple, edges, {1u});
  return {tuple, true};
}

Value FunctionLowering::arrayJoin(const ir::Expr &e) {
  bool stack = e.sub == 1;
  int axis = int(e.ival); // concatenate: an input axis; stack: the new axis of the result
  std::vector<Value> ins;
  for (auto &a : e.args) ins.push_back(expr(*a));
  const Type &t0 = e.args[0]->type;
  int nd = t0.ndim;
  // All inputs agree on the dimensions that are not joined (stack: on every dimension).
  llvm::Value *bad = b_.getFalse();
  for (size_t k = 1; k < ins.size(); ++k)
    for (int d = 0; d < nd; ++d)
      if (stack || d != axis) bad = b_.CreateOr(bad, b_.CreateICmpNE(arrayShape(ins[k].v, d), arrayShape(ins[0].v, d)));
  raiseIf(bad, types::ExcKind::ValueError,
          stack ? "all input arrays must have the same shape"
                : "all the input array dimensions except for the concatenation axis must match exactly");
  std::vector<llvm::Value *> extents;
  for (int d = 0; d < nd; ++d) extents.push_back(arrayShape(ins[0].v, d));
  if (stack) {
    extents.insert(extents.begin() + axis, c64(int64_t(ins.size())));
  } else {
    llvm::Value *total = c64(0);
    for (auto &in : ins) total = b_.CreateAdd(total, arrayShape(in.v, axis));
    extents[axis] = total;
  }
  llvm::Value *out = allocateArray(e.type, extents);
  Type outElem = Type::scalar(e.type.dtype);
  llvm::Value *offset = c64(0);
  for (size_t k = 0; k < ins.size(); ++k) {
    const Type &tk = e.args[k]->type;
    Type ek = Type::scalar(tk.dtype);
    std::vector<llvm::Value *> shape;
    for (int d = 0; d < nd; ++d) shape.push_back(arrayShape(ins[k].v, d));
    llvm::Value *off = offset;
    loopNest(shape, [&](const std::vector<llvm::Value *> &idx) {
      llvm::Value *v = castScalar(fromMem(b_.CreateLoad(types_.mem(ek), elementPointer(ins[k].v, tk, idx)), ek), ek, outElem);
      std::vector<llvm::Value *> dst(idx.begin(), idx.end());
      if (stack) dst.insert(dst.begin() + axis, c64(int64_t(k)));
      else dst[axis] = b_.CreateAdd(idx[axis], off);
      b_.CreateStore(toMem(v, outElem), elementPointer(out, e.type, dst));
    });
    if (!stack) offset = b_.CreateAdd(offset, shape[axis]);
  }
  for (size_t k = 0; k < ins.size(); ++k) release(ins[k], e.args[k]->type);
  return {out, true};
}

} // namespace mahou::codegen
