// Lowering of arrays: reference counting of MahouMemInfo blocks, element access
// with wraparound and optional bounds checks, basic-slicing views, transposes,
// and arrays created in compiled code (empty/zeros/ones/full, arange, copy).
#include "lowering.h"

#include <llvm/IR/MDBuilder.h>

#include <llvm/IR/Intrinsics.h>

namespace mahou::codegen {

// ------------------------------------------------------------------ references

void FunctionLowering::incref(llvm::Value *v, const Type &t) { countRef(v, t, "mahou_rt_incref"); }

void FunctionLowering::decref(llvm::Value *v, const Type &t) { countRef(v, t, "mahou_rt_decref"); }

// Calls `fn` (incref or decref) on every MahouMemInfo* a value holds: an array's
// meminfo (null for NumPy's arrays), an object, a Generator's holder (null while it is
// borrowed from the argument), and those inside tuples and optionals
// (a None optional holds zeros).
void FunctionLowering::countRef(llvm::Value *v, const Type &t, const char *fn) {
  if (gpu()) return; // device arrays are never reference counted
  if (t.isTuple() || t.isOptional()) {
    unsigned n = t.isOptional() ? 1 : unsigned(t.elems.size());
    for (unsigned i = 0; i < n; ++i)
      if (t.elems[i].hasRefs()) countRef(fromMem(b_.CreateExtractValue(v, {i}), t.elems[i]), t.elems[i], fn);
    return;
  }
  llvm::Value *mi;
  if (t.isArray()) mi = b_.CreateExtractValue(v, {0u});
  else if (t.isRandomGenerator()) mi = b_.CreateExtractValue(v, {2u}); // its holder
  else if (t.isObject()) mi = v;
  else return;
  // Unguarded (the runtime accepts null): the JIT's refcount pass removes the pairs that
  // cancel within a block, then adds the null test to the calls that remain
  // (jit/refcount_pairs.cpp).
  b_.CreateCall(runtimeFn(fn, b_.getVoidTy(), {b_.getPtrTy()}), {mi});
}

llvm::Value *FunctionLowering::own(Value v, const Type &t) {
  if (!v.owned) incref(v.v, t);
  return v.v;
}

void FunctionLowering::release(Value v, const Type &t) {
  if (v.owned) decref(v.v, t);
}

// ------------------------------------------------------------------ fields and elements

llvm::Value *FunctionLowering::arrayData(llvm::Value *arr) { return b_.CreateExtractValue(arr, {2u}); }
llvm::Value *FunctionLowering::arrayShape(llvm::Value *arr, int dim) {
  return b_.CreateExtractValue(arr, {3u, unsigned(dim)});
}
llvm::Value *FunctionLowering::arrayStride(llvm::Value *arr, int dim) {
  return b_.CreateExtractValue(arr, {4u, unsigned(dim)});
}

// An index's value as int64. A uint64 index past INT64_MAX is past the end of every
// sequence (NumPy and Python refuse it), not a negative index counted from the end: it
// becomes INT64_MAX, which the bounds check refuses.
llvm::Value *FunctionLowering::indexValue(const ir::Expr &index) {
  llvm::Value *v = scalarExpr(index);
  const ir::Expr &from = index.op == ir::ExprOp::Cast && !index.args.empty() ? *index.args[0] : index;
  if (from.type.kind != types::Kind::Scalar || from.type.dtype != types::DType::UInt64) return v;
  return b_.CreateSelect(b_.CreateICmpSLT(v, c64(0)), c64(INT64_MAX), v);
}

llvm::Value *FunctionLowering::wrapIndex(llvm::Value *idx, llvm::Value *extent, bool check) {
  if (check) return checkedIndex(idx, extent, "index out of bounds" + where());
  return b_.CreateSelect(b_.CreateICmpSLT(idx, c64(0)), b_.CreateAdd(idx, extent), idx);
}

// A checked index: an index in [0, extent) passes with one unsigned compare (so that on
// that path LLVM knows it is neither negative nor past the end: a loop counter's next
// check folds); a negative one wraps into range off the hot path, or raises IndexError.
llvm::Value *FunctionLowering::checkedIndex(llvm::Value *idx, llvm::Value *extent, const std::string &message) {
  llvm::BasicBlock *pre = b_.GetInsertBlock();
  auto *other = newBlock("index.other"), *done = newBlock("index.ok");
  b_.CreateCondBr(b_.CreateICmpULT(idx, extent), done, other, llvm::MDBuilder(ctx()).createBranchWeights(1000, 1));
  b_.SetInsertPoint(other);
  llvm::Value *wrapped = b_.CreateAdd(idx, extent);
  // past the end (idx >= extent), or before the start (idx < -extent)
  raiseIf(b_.CreateOr(b_.CreateICmpSGE(idx, c64(0)), b_.CreateICmpSLT(wrapped, c64(0))), types::ExcKind::IndexError,
          message);
  llvm::BasicBlock *otherEnd = b_.GetInsertBlock();
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
  llvm::PHINode *index = b_.CreatePHI(idx->getType(), 2, "index");
  index->addIncoming(idx, pre);
  index->addIncoming(wrapped, otherEnd);
  return index;
}

llvm::Value *FunctionLowering::elementPointer(llvm::Value *arr, const Type &t, llvm::ArrayRef<llvm::Value *> idx) {
  llvm::Type *elem = types_.mem(Type::scalar(t.dtype));
  llvm::Value *data = arrayData(arr);
  int n = t.ndim;
  if (n == 0) return data; // a 0-d array: its one element
  if (t.layout == types::Layout::C) {
    llvm::Value *linear = idx[0];
    for (int k = 1; k < n; ++k) linear = b_.CreateAdd(b_.CreateMul(linear, arrayShape(arr, k), "", false, true), idx[k], "", false, true);
    return b_.CreateInBoundsGEP(elem, data, linear);
  }
  if (t.layout == types::Layout::F) {
    llvm::Value *linear = idx[n - 1];
    for (int k = n - 2; k >= 0; --k) linear = b_.CreateAdd(b_.CreateMul(linear, arrayShape(arr, k), "", false, true), idx[k], "", false, true);
    return b_.CreateInBoundsGEP(elem, data, linear);
  }
  llvm::Value *offset = b_.CreateMul(idx[0], arrayStride(arr, 0), "", false, true);
  for (int k = 1; k < n; ++k) offset = b_.CreateAdd(offset, b_.CreateMul(idx[k], arrayStride(arr, k), "", false, true), "", false, true);
  return b_.CreateInBoundsGEP(b_.getInt8Ty(), data, offset);
}

llvm::Value *FunctionLowering::arrayItem(const ir::Expr &e) {
  const Type &t = e.args[0]->type;
  Value arr = expr(*e.args[0]);
  std::vector<llvm::Value *> idx; // every index evaluated before any is checked, as in Python
  for (int k = 0; k < t.ndim; ++k) idx.push_back(indexValue(*e.args[k + 1]));
  for (int k = 0; k < t.ndim; ++k) idx[k] = wrapIndex(idx[k], arrayShape(arr.v, k), options_.boundscheck);
  llvm::Value *p = elementPointer(arr.v, t, idx);
  llvm::LoadInst *load = b_.CreateLoad(types_.mem(e.type), p);
  tagMemory(load, MemoryKind::ArrayElement);
  llvm::Value *v = fromMem(load, e.type);
  release(arr, t);
  return v;
}

void FunctionLowering::storeItem(const ir::Stmt &s) {
  const Type &t = s.exprs[0]->type;
  // Python's order: the value, then the array and the indices (whose check may raise).
  const ir::Expr &valueE = *s.exprs.back();
  llvm::Value *v = scalarExpr(valueE);
  Value arr = expr(*s.exprs[0]);
  std::vector<llvm::Value *> idx;
  for (int k = 0; k < t.ndim; ++k) idx.push_back(indexValue(*s.exprs[k + 1]));
  for (int k = 0; k < t.ndim; ++k) idx[k] = wrapIndex(idx[k], arrayShape(arr.v, k), options_.boundscheck);
  llvm::Value *p = elementPointer(arr.v, t, idx);
  tagMemory(b_.CreateStore(toMem(v, valueE.type), p), MemoryKind::ArrayElement);
  release(arr, t);
}

// ------------------------------------------------------------------ views

Value FunctionLowering::arrayView(const ir::Expr &e) {
  Value arr = expr(*e.args[0]);
  llvm::Value *data = arrayData(arr.v);
  std::vector<llvm::Value *> shape, strides;
  int k = 0; // the base's axis the next slot indexes
  for (const ir::ViewSlot &slot : e.slots) {
    if (slot.newAxis) { // np.newaxis: length 1 (its stride never moves)
      shape.push_back(c64(1));
      strides.push_back(c64(0));
      continue;
    }
    llvm::Value *extent = arrayShape(arr.v, k);
    llvm::Value *stride = arrayStride(arr.v, k);
    ++k;
    if (!slot.isSlice) {
      llvm::Value *i = wrapIndex(indexValue(*slot.index), extent, true);
      data = b_.CreateGEP(b_.getInt8Ty(), data, b_.CreateMul(i, stride));
      continue;
    }
    if (!slot.start && !slot.stop && !slot.step) {
      shape.push_back(extent);
      strides.push_back(stride);
      continue;
    }
    // Python's slice.indices(): clamp start/stop to the extent for the step's sign.
    llvm::Value *step = slot.step ? scalarExpr(*slot.step) : c64(1);
    if (slot.step) raiseIf(b_.CreateICmpEQ(step, c64(0)), types::ExcKind::ValueError, "slice step cannot be zero");
    llvm::Value *neg = b_.CreateICmpSLT(step, c64(0));
    llvm::Value *lower = b_.CreateSelect(neg, c64(-1), c64(0));
    llvm::Value *upper = b_.CreateSelect(neg, b_.CreateSub(extent, c64(1)), extent);
    auto clamp = [&](const ir::ExprPtr &bound, llvm::Value *dflt) -> llvm::Value * {
      if (!bound) return dflt;
      llvm::Value *v = scalarExpr(*bound);
      llvm::Value *isNeg = b_.CreateICmpSLT(v, c64(0));
      llvm::Value *adj = b_.CreateAdd(v, extent);
      llvm::Value *negCase = b_.CreateSelect(b_.CreateICmpSLT(adj, c64(0)), lower, adj);
      llvm::Value *posCase = b_.CreateSelect(b_.CreateICmpSGE(v, upper), upper, v);
      return b_.CreateSelect(isNeg, negCase, posCase);
    };
    llvm::Value *start = clamp(slot.start, b_.CreateSelect(neg, upper, lower));
    llvm::Value *stop = clamp(slot.stop, b_.CreateSelect(neg, lower, upper));
    // length = step<0 ? (stop<start ? (start-stop-1)/(-step)+1 : 0) : (start<stop ? (stop-start-1)/step+1 : 0)
    llvm::Value *lenNeg = b_.CreateSelect(
        b_.CreateICmpSLT(stop, start),
        b_.CreateAdd(b_.CreateSDiv(b_.CreateSub(b_.CreateSub(start, stop), c64(1)), b_.CreateNeg(step)), c64(1)), c64(0));
    llvm::Value *lenPos = b_.CreateSelect(
        b_.CreateICmpSLT(start, stop),
        b_.CreateAdd(b_.CreateSDiv(b_.CreateSub(b_.CreateSub(stop, start), c64(1)), step), c64(1)), c64(0));
    shape.push_back(b_.CreateSelect(neg, lenNeg, lenPos));
    strides.push_back(b_.CreateMul(stride, step));
    data = b_.CreateGEP(b_.getInt8Ty(), data, b_.CreateMul(start, stride));
  }
  llvm::Value *view = llvm::UndefValue::get(types_.array(e.type.ndim));
  view = b_.CreateInsertValue(view, b_.CreateExtractValue(arr.v, {0u}), {0u});
  view = b_.CreateInsertValue(view, b_.CreateExtractValue(arr.v, {1u}), {1u});
  view = b_.CreateInsertValue(view, data, {2u});
  for (int k = 0; k < e.type.ndim; ++k) {
    view = b_.CreateInsertValue(view, shape[k], {3u, unsigned(k)});
    view = b_.CreateInsertValue(view, strides[k], {4u, unsigned(k)});
  }
  // The view shares the base's memory: it inherits the base's reference if the base was a temporary.
  return {view, arr.owned};
}

Value FunctionLowering::transpose(const ir::Expr &e) {
  Value arr = expr(*e.args[0]);
  int n = e.type.ndim;
  llvm::Value *out = arr.v;
  for (int k = 0; k < n; ++k) {
    out = b_.CreateInsertValue(out, arrayShape(arr.v, n - 1 - k), {3u, unsigned(k)});
    out = b_.CreateInsertValue(out, arrayStride(arr.v, n - 1 - k), {4u, unsigned(k)});
  }
  return {out, arr.owned};
}

// as_strided: the base's owner and data pointer with the given extents and byte strides.
Value FunctionLowering::stridedView(const ir::Expr &e) {
  int n = e.type.ndim;
  Value arr = expr(*e.args[0]);
  std::vector<llvm::Value *> extents, strides;
  for (int k = 0; k < n; ++k) extents.push_back(scalarExpr(*e.args[1 + k]));
  for (int k = 0; k < n; ++k) strides.push_back(scalarExpr(*e.args[1 + n + k]));
  llvm::Value *anyNeg = b_.getFalse();
  for (auto *x : extents) anyNeg = b_.CreateOr(anyNeg, b_.CreateICmpSLT(x, c64(0)));
  raiseIf(anyNeg, types::ExcKind::ValueError, "negative dimensions are not allowed");
  // NumPy's size check (whatever the strides): a view's extents then stay within
  // PY_SSIZE_T_MAX / itemsize, which the functions it is passed to assume.
  llvm::Value *overflow = b_.getFalse();
  const Type &base = e.args[0]->type;
  arrayBytes(extents, base.isRecordArray() ? base.elems[0].itemsize : types::dtypeBytes(e.type.dtype), overflow);
  raiseIf(overflow, types::ExcKind::ValueError,
          "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size.");
  llvm::Value *data = arrayData(arr.v);
  if (e.args.size() == size_t(2 + 2 * n)) data = b_.CreateGEP(b_.getInt8Ty(), data, scalarExpr(*e.args.back()));
  llvm::Value *view = llvm::UndefValue::get(types_.array(n));
  view = b_.CreateInsertValue(view, b_.CreateExtractValue(arr.v, {0u}), {0u});
  view = b_.CreateInsertValue(view, b_.CreateExtractValue(arr.v, {1u}), {1u});
  view = b_.CreateInsertValue(view, data, {2u});
  for (int k = 0; k < n; ++k) {
    view = b_.CreateInsertValue(view, extents[size_t(k)], {3u, unsigned(k)});
    view = b_.CreateInsertValue(view, strides[size_t(k)], {4u, unsigned(k)});
  }
  return {view, arr.owned}; // shares the base's memory (and its reference, if a temporary)
}

llvm::Value *FunctionLowering::arraySize(const ir::Expr &e) {
  const Type &t = e.args[0]->type;
  Value arr = expr(*e.args[0]);
  llvm::Value *n = c64(1);
  for (int k = 0; k < t.ndim; ++k) n = b_.CreateMul(n, arrayShape(arr.v, k));
  release(arr, t);
  return n;
}

// ------------------------------------------------------------------ creation

void FunctionLowering::loopNest(const std::vector<llvm::Value *> &extents,
                                const std::function<void(const std::vector<llvm::Value *> &)> &body) {
  std::vector<llvm::Value *> idx;
  std::function<void(size_t)> level = [&](size_t k) {
    if (k == extents.size()) {
      body(idx);
      return;
    }
    auto *pre = b_.GetInsertBlock();
    auto *header = newBlock("nest.cond");
    auto *bodyB = newBlock("nest.body");
    auto *end = newBlock("nest.end");
    b_.CreateBr(header);
    b_.SetInsertPoint(header);
    auto *iv = b_.CreatePHI(i64(), 2);
    iv->addIncoming(c64(0), pre);
    b_.CreateCondBr(b_.CreateICmpSLT(iv, extents[k]), bodyB, end);
    b_.SetInsertPoint(bodyB);
    idx.push_back(iv);
    level(k + 1);
    idx.pop_back();
    auto *next = b_.CreateAdd(iv, c64(1), "", true, true);
    iv->addIncoming(next, b_.GetInsertBlock());
    b_.CreateBr(header);
    b_.SetInsertPoint(end);
  };
  level(0);
}

llvm::Value *FunctionLowering::mulChecked(llvm::Value *a, llvm::Value *b, llvm::Value *&overflow) {
  llvm::Value *m = b_.CreateBinaryIntrinsic(llvm::Intrinsic::smul_with_overflow, a, b);
  overflow = b_.CreateOr(overflow, b_.CreateExtractValue(m, {1u}));
  return b_.CreateExtractValue(m, {0u});
}

llvm::Value *FunctionLowering::arrayBytes(const std::vector<llvm::Value *> &extents, int64_t itemsize,
                                          llvm::Value *&overflow) {
  llvm::Value *nbytes = c64(itemsize), *anyZero = b_.getFalse();
  for (auto *x : extents) {
    llvm::Value *zero = b_.CreateICmpEQ(x, c64(0));
    anyZero = b_.CreateOr(anyZero, zero);
    nbytes = mulChecked(nbytes, b_.CreateSelect(zero, c64(1), x), overflow);
  }
  return b_.CreateSelect(anyZero, c64(0), nbytes);
}

llvm::Value *FunctionLowering::allocateArray(const Type &t, const std::vector<llvm::Value *> &extents) {
  // NumPy's size check: the bytes are the item size times every nonzero extent, with
  // overflow past int64 a ValueError (also for an empty array), never a wrapped size.
  int64_t itemsize = t.isRecordArray() ? t.elems[0].itemsize : types::dtypeBytes(t.dtype); // records: np.empty(n, rec)
  llvm::Value *anyNeg = b_.getFalse(), *overflow = b_.getFalse();
  for (auto *x : extents) anyNeg = b_.CreateOr(anyNeg, b_.CreateICmpSLT(x, c64(0)));
  llvm::Value *nbytes = arrayBytes(extents, itemsize, overflow);
  raiseIf(anyNeg, types::ExcKind::ValueError, "negative dimensions are not allowed");
  raiseIf(overflow, types::ExcKind::ValueError,
          "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size.");
  llvm::Value *mi = b_.CreateCall(runtimeFn("mahou_rt_alloc", b_.getPtrTy(), {i64()}), {nbytes});
  auto *ok = newBlock("alloc.ok");
  b_.CreateCondBr(b_.CreateIsNull(mi), errorExit(), ok, llvm::MDBuilder(ctx()).createBranchWeights(1, 1000));
  b_.SetInsertPoint(ok);
  // MahouMemInfo { i64 refcount; ptr data; i64 nbytes }
  llvm::Value *data = b_.CreateLoad(b_.getPtrTy(), b_.CreateConstGEP1_64(b_.getInt8Ty(), mi, 8));
  return contiguousArray(mi, data, extents, itemsize);
}

llvm::Value *FunctionLowering::contiguousArray(llvm::Value *meminfo, llvm::Value *data,
                                               const std::vector<llvm::Value *> &extents, int64_t itemsize) {
  llvm::Value *arr = llvm::UndefValue::get(types_.array(int(extents.size())));
  arr = b_.CreateInsertValue(arr, meminfo, {0u});
  arr = b_.CreateInsertValue(arr, llvm::ConstantPointerNull::get(b_.getPtrTy()), {1u});
  arr = b_.CreateInsertValue(arr, data, {2u});
  llvm::Value *stride = c64(itemsize);
  for (int k = int(extents.size()) - 1; k >= 0; --k) {
    arr = b_.CreateInsertValue(arr, extents[k], {3u, unsigned(k)});
    arr = b_.CreateInsertValue(arr, stride, {4u, unsigned(k)});
    stride = b_.CreateMul(stride, extents[k]);
  }
  return arr;
}

llvm::Value *FunctionLowering::arrayConst(const ir::Expr &e) {
  constexpr unsigned kNvptxConstantSpace = 4; // .const: cached, read-only for kernels
  unsigned space = gpu() ? kNvptxConstantSpace : 0;
  // The elements' bytes as an i8 array (any dtype, bool included); one zero byte when empty.
  llvm::Constant *init = llvm::ConstantDataArray::getString(ctx(), e.symbol.empty() ? std::string(1, '\0') : e.symbol,
                                                            /*AddNull=*/false);
  auto *global = new llvm::GlobalVariable(module_, init->getType(), /*isConstant=*/true,
                                          llvm::GlobalValue::PrivateLinkage, init, "constarray", nullptr,
                                          llvm::GlobalValue::NotThreadLocal, space);
  global->setAlignment(llvm::Align(64));
  global->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
  llvm::Value *data = space ? b_.CreateAddrSpaceCast(global, b_.getPtrTy()) : static_cast<llvm::Value *>(global);
  std::vector<llvm::Value *> extents;
  for (const auto &d : e.args) extents.push_back(c64(d->ival));
  if (!gpu() && e.ival == 1) {
    // A bytes literal or global: stored in a dict, set or list it may outlive this code, so
    // its items are a runtime copy that lives as long as the process (one per content),
    // made once per module.
    std::string slotName = global->getName().str() + ".interned";
    llvm::Value *mi = cachedPointer(slotName, [&] {
      auto fn = runtimeFn("mahou_rt_bytes_const", b_.getPtrTy(), {b_.getPtrTy(), i64()});
      llvm::Value *made = b_.CreateCall(fn, {data, c64(int64_t(e.symbol.size()))});
      checkNotNull(made);
      return made;
    });
    return contiguousArray(mi, objectPayload(mi), extents, types::dtypeBytes(e.type.dtype));
  }
  if (!gpu()) {
    // A frozen global array: a view of it stored in a list, dict or instance, or returned,
    // may outlive this code, so its elements are a runtime copy that lives as long as the
    // process (one per content). A pure call gives it, so LLVM hoists it out of loops.
    llvm::Value *mi = b_.CreateCall(constArrayGetter(global, int64_t(e.symbol.size())));
    auto *items = b_.CreateLoad(b_.getPtrTy(), b_.CreateConstInBoundsGEP1_64(b_.getPtrTy(), mi, 1));
    items->setMetadata(llvm::LLVMContext::MD_invariant_load, llvm::MDNode::get(ctx(), {}));
    return contiguousArray(mi, items, extents, types::dtypeBytes(e.type.dtype));
  }
  return contiguousArray(llvm::ConstantPointerNull::get(b_.getPtrTy()), data, extents, types::dtypeBytes(e.type.dtype));
}

Value FunctionLowering::arrayAlloc(const ir::Expr &e) {
  std::vector<llvm::Value *> extents;
  size_t next = 0;
  if (e.ival == 1) { // *_like: the prototype's shape
    Value proto = expr(*e.args[0]);
    for (int k = 0; k < e.type.ndim; ++k) extents.push_back(arrayShape(proto.v, k));
    release(proto, e.args[0]->type);
    next = 1;
  } else {
    for (int k = 0; k < e.type.ndim; ++k) extents.push_back(scalarExpr(*e.args[next++]));
  }
  llvm::Value *fill = nullptr;
  auto kind = ir::AllocKind(e.sub);
  Type elemT = Type::scalar(e.type.dtype);
  if (kind == ir::AllocKind::Full) fill = scalarExpr(*e.args[next]);
  llvm::Value *arr = allocateArray(e.type, extents);
  llvm::Value *data = arrayData(arr);
  llvm::Value *count = c64(1);
  for (auto *x : extents) count = b_.CreateMul(count, x);
  // np.empty of strings is zeroed too: its items read as '' rather than whatever the memory held.
  if (kind == ir::AllocKind::Zeros || (kind == ir::AllocKind::Empty && e.type.isCharSeqArray())) {
    int64_t itemsize = e.type.isRecordArray() ? e.type.elems[0].itemsize : types::dtypeBytes(e.type.dtype);
    b_.CreateMemSet(data, b_.getInt8(0), b_.CreateMul(count, c64(itemsize)), llvm::MaybeAlign(64));
  } else if (kind == ir::AllocKind::Ones || kind == ir::AllocKind::Full) {
    if (kind == ir::AllocKind::Ones) {
      ir::Expr one(ir::ExprOp::Const, elemT, e.loc);
      one.ival = 1;
      one.fval = 1.0;
      fill = constant(one);
    }
    llvm::Value *m = toMem(fill, elemT);
    loopNest({count}, [&](const std::vector<llvm::Value *> &i) {
      b_.CreateStore(m, b_.CreateInBoundsGEP(types_.mem(elemT), data, i[0]));
    });
  }
  return {arr, true};
}

Value FunctionLowering::arrayArange(const ir::Expr &e) {
  const Type &ct = e.args[0]->type; // int64 or float64
  llvm::Value *start = scalarExpr(*e.args[0]);
  llvm::Value *stop = scalarExpr(*e.args[1]);
  llvm::Value *step = scalarExpr(*e.args[2]);
  llvm::Value *count;
  if (ct.isInt()) {
    raiseIf(b_.CreateICmpEQ(step, c64(0)), types::ExcKind::ZeroDivisionError, "division by zero");
    llvm::Value *span = b_.CreateSub(stop, start);
    // ceil(span / step) for either sign of step, clamped at zero
    llvm::Value *q = b_.CreateSDiv(span, step);
    llvm::Value *r = b_.CreateSRem(span, step);
    llvm::Value *sameSign = b_.CreateICmpSGT(b_.CreateXor(span, step), c64(-1));
    llvm::Value *ceil = b_.CreateSelect(b_.CreateAnd(b_.CreateICmpNE(r, c64(0)), sameSign), b_.CreateAdd(q, c64(1)), q);
    count = b_.CreateSelect(b_.CreateICmpSGT(ceil, c64(0)), ceil, c64(0));
  } else {
    auto *zero = llvm::ConstantFP::get(step->getType(), 0.0);
    raiseIf(b_.CreateFCmpOEQ(step, zero), types::ExcKind::ZeroDivisionError, "division by zero");
    llvm::Value *n = b_.CreateUnaryIntrinsic(llvm::Intrinsic::ceil, b_.CreateFDiv(b_.CreateFSub(stop, start), step));
    llvm::Value *ni = b_.CreateIntrinsic(llvm::Intrinsic::fptosi_sat, {i64(), n->getType()}, {n});
    count = b_.CreateSelect(b_.CreateICmpSGT(ni, c64(0)), ni, c64(0));
  }
  llvm::Value *arr = allocateArray(e.type, {count});
  llvm::Value *data = arrayData(arr);
  Type elemT = Type::scalar(e.type.dtype);
  // NumPy fills start + i * delta with delta = (start + step) - start.
  llvm::Value *delta = ct.isInt() ? step : b_.CreateFSub(b_.CreateFAdd(start, step), start);
  loopNest({count}, [&](const std::vector<llvm::Value *> &i) {
    llvm::Value *v;
    if (ct.isInt()) v = b_.CreateAdd(start, b_.CreateMul(i[0], delta));
    else v = b_.CreateFAdd(start, b_.CreateFMul(b_.CreateSIToFP(i[0], start->getType()), delta));
    v = castScalar(v, ct, elemT);
    b_.CreateStore(toMem(v, elemT), b_.CreateInBoundsGEP(types_.mem(elemT), data, i[0]));
  });
  return {arr, true};
}

Value FunctionLowering::arrayCopy(const ir::Expr &e) {
  const Type &src = e.args[0]->type;
  Value in = expr(*e.args[0]);
  std::vector<llvm::Value *> extents;
  for (int k = 0; k < src.ndim; ++k) extents.push_back(arrayShape(in.v, k));
  llvm::Value *out = allocateArray(e.type, extents);
  if (src.isRecordArray()) { // records or strings: each item's bytes, by the byte strides
    int64_t itemsize = src.elems[0].itemsize;
    Type byStrides = src, outStrides = e.type;
    byStrides.layout = outStrides.layout = types::Layout::A; // an item is not one of the placeholder dtype
    loopNest(extents, [&](const std::vector<llvm::Value *> &idx) {
      b_.CreateMemCpy(elementPointer(out, outStrides, idx), llvm::MaybeAlign(1), elementPointer(in.v, byStrides, idx),
                      llvm::MaybeAlign(1), c64(itemsize));
    });
  } else if (src.layout == types::Layout::C && src.dtype == e.type.dtype) {
    llvm::Value *count = c64(1);
    for (auto *x : extents) count = b_.CreateMul(count, x);
    b_.CreateMemCpy(arrayData(out), llvm::MaybeAlign(64), arrayData(in.v), llvm::MaybeAlign(1),
                    b_.CreateMul(count, c64(types::dtypeBytes(src.dtype))));
  } else {
    Type from = Type::scalar(src.dtype), to = Type::scalar(e.type.dtype);
    loopNest(extents, [&](const std::vector<llvm::Value *> &idx) {
      llvm::Value *v = fromMem(b_.CreateLoad(types_.mem(from), elementPointer(in.v, src, idx)), from);
      v = castScalar(v, from, to);
      b_.CreateStore(toMem(v, to), elementPointer(out, e.type, idx));
    });
  }
  release(in, src);
  return {out, true};
}

llvm::Value *FunctionLowering::cOrderCopy(llvm::Value *arr, const Type &t) {
  std::vector<llvm::Value *> extents;
  for (int d = 0; d < t.ndim; ++d) extents.push_back(arrayShape(arr, d));
  Type ct = Type::array(t.dtype, t.ndim, types::Layout::C);
  llvm::Value *out = allocateArray(ct, extents);
  Type item = Type::scalar(t.dtype);
  loopNest(extents, [&](const std::vector<llvm::Value *> &idx) {
    b_.CreateStore(b_.CreateLoad(types_.mem(item), elementPointer(arr, t, idx)), elementPointer(out, ct, idx));
  });
  return out;
}

} // namespace mahou::codegen

namespace mahou::codegen {

// The meminfo of a frozen global array's process-lifetime copy (mahou_rt_array_const),
// asked for once per module and cached in a slot. The getter is pure as its callers see
// it (the same pointer every time, nothing else observable), so it is declared so and
// kept out of line: LLVM then hoists it out of loops and merges repeated calls, and a
// loop over the array runs as it did over the module constant. It never fails: should
// the copy not be allocated, it returns a meminfo in the module (never freed, its data
// the constant itself), as before this copy existed.
llvm::Function *FunctionLowering::constArrayGetter(llvm::GlobalVariable *global, int64_t n) {
  std::string name = global->getName().str() + ".get";
  if (auto *f = module_.getFunction(name)) return f;
  auto *ptrT = b_.getPtrTy();
  auto *fn = llvm::Function::Create(llvm::FunctionType::get(ptrT, false), llvm::GlobalValue::InternalLinkage, name, module_);
  fn->addFnAttr(llvm::Attribute::NoInline);
  fn->addFnAttr(llvm::Attribute::NoUnwind);
  fn->addFnAttr(llvm::Attribute::WillReturn);
  fn->addFnAttr(llvm::Attribute::Speculatable);
  fn->setMemoryEffects(llvm::MemoryEffects::none());
  auto *slot = new llvm::GlobalVariable(module_, ptrT, false, llvm::GlobalValue::InternalLinkage,
                                        llvm::ConstantPointerNull::get(ptrT), name + ".slot");
  auto *i64T = b_.getInt64Ty();
  auto *miT = llvm::StructType::get(ctx(), {i64T, ptrT, i64T, i64T, ptrT}); // MahouMemInfo
  auto *fallback = new llvm::GlobalVariable(
      module_, miT, false, llvm::GlobalValue::InternalLinkage,
      llvm::ConstantStruct::get(miT, {llvm::ConstantInt::get(i64T, int64_t(1) << 60), global, llvm::ConstantInt::get(i64T, n),
                                      llvm::ConstantInt::get(i64T, 0), llvm::ConstantPointerNull::get(ptrT)}),
      name + ".held");
  llvm::IRBuilder<> gb(llvm::BasicBlock::Create(ctx(), "entry", fn));
  auto *make = llvm::BasicBlock::Create(ctx(), "make", fn);
  auto *done = llvm::BasicBlock::Create(ctx(), "done", fn);
  auto *cached = gb.CreateLoad(ptrT, slot);
  cached->setAtomic(llvm::AtomicOrdering::Monotonic);
  cached->setAlignment(llvm::Align(8));
  gb.CreateCondBr(gb.CreateIsNull(cached), make, done, llvm::MDBuilder(ctx()).createBranchWeights(1, 1000));
  gb.SetInsertPoint(make);
  auto intern = module_.getOrInsertFunction("mahou_rt_array_const", llvm::FunctionType::get(ptrT, {ptrT, i64T}, false));
  llvm::Value *made = gb.CreateCall(intern, {global, llvm::ConstantInt::get(i64T, n)});
  made = gb.CreateSelect(gb.CreateIsNull(made), fallback, made);
  auto *store = gb.CreateStore(made, slot);
  store->setAtomic(llvm::AtomicOrdering::Monotonic);
  store->setAlignment(llvm::Align(8));
  gb.CreateRet(made);
  gb.SetInsertPoint(done);
  gb.CreateRet(cached);
  return fn;
}

} // namespace mahou::codegen
