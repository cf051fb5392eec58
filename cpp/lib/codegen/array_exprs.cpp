// Lowering of whole-array computation: fused elementwise maps with NumPy
// broadcasting (a flat loop when every operand is C-contiguous with the result's
// shape, strided loops otherwise), reshape, dot/@, linspace, eye (stores: array_stores.cpp).
#include "lowering.h"

#include <llvm/IR/Intrinsics.h>

namespace mahou::codegen {

std::vector<FunctionLowering::Input> FunctionLowering::evaluateInputs(const ir::Expr &map) {
  std::vector<Input> inputs;
  for (int64_t i = 0; i < map.ival; ++i) {
    inputs.push_back({expr(*map.args[i]), map.args[i]->type});
    holdForError(inputs.back().value, inputs.back().type); // the caller drops it before releaseInputs
  }
  return inputs;
}

void FunctionLowering::releaseInputs(const std::vector<Input> &inputs) {
  for (auto &in : inputs) release(in.value, in.type);
}

std::vector<llvm::Value *> FunctionLowering::broadcastShape(const std::vector<Input> &inputs, int ndim) {
  std::vector<llvm::Value *> extents(ndim, c64(1));
  for (auto &in : inputs) {
    if (!in.type.isArray()) continue;
    int off = ndim - in.type.ndim;
    for (int d = 0; d < in.type.ndim; ++d) {
      llvm::Value *e = arrayShape(in.value.v, d);
      extents[off + d] = b_.CreateSelect(b_.CreateICmpNE(e, c64(1)), e, extents[off + d]);
    }
  }
  return extents;
}

FunctionLowering::ElementFn FunctionLowering::mapBody(const ir::Expr &map) {
  return [this, &map](const std::vector<llvm::Value *> &elements) {
    mapFrames_.push_back(elements);
    llvm::Value *v = scalarExpr(*map.args.back());
    mapFrames_.pop_back();
    return v;
  };
}

void FunctionLowering::elementLoop(const std::vector<Input> &inputs, const std::vector<llvm::Value *> &extents,
                                   bool sinkIsC, const ElementFn &element, const SinkFn &sink) {
  int ndim = int(extents.size());
  // Every array operand must broadcast to `extents`.
  llvm::Value *bad = b_.getFalse();
  llvm::Value *sameShape = b_.getTrue();
  bool flatPossible = sinkIsC;
  for (auto &in : inputs) {
    if (!in.type.isArray()) continue;
    int off = ndim - in.type.ndim;
    if (in.type.layout != types::Layout::C || in.type.ndim != ndim) flatPossible = false;
    for (int d = 0; d < in.type.ndim; ++d) {
      llvm::Value *e = arrayShape(in.value.v, d);
      bad = b_.CreateOr(bad, b_.CreateAnd(b_.CreateICmpNE(e, extents[off + d]), b_.CreateICmpNE(e, c64(1))));
      sameShape = b_.CreateAnd(sameShape, b_.CreateICmpEQ(e, extents[off + d]));
    }
  }
  raiseIf(bad, types::ExcKind::ValueError, "operands could not be broadcast together");

  auto loadElement = [&](const Input &in, llvm::Value *ptr) {
    Type et = Type::scalar(in.type.dtype);
    return fromMem(b_.CreateLoad(types_.mem(et), ptr), et);
  };
  auto strided = [&]() {
    loopNest(extents, [&](const std::vector<llvm::Value *> &idx) {
      std::vector<llvm::Value *> elems;
      for (auto &in : inputs) {
        if (!in.type.isArray()) {
          elems.push_back(in.value.v);
          continue;
        }
        int off = ndim - in.type.ndim;
        std::vector<llvm::Value *> own;
        for (int d = 0; d < in.type.ndim; ++d) {
          llvm::Value *e = arrayShape(in.value.v, d);
          own.push_back(b_.CreateSelect(b_.CreateICmpEQ(e, c64(1)), c64(0), idx[off + d]));
        }
        elems.push_back(loadElement(in, elementPointer(in.value.v, in.type, own)));
      }
      sink(nullptr, idx, element(elems));
    });
  };
  if (!flatPossible) {
    strided();
    return;
  }
  llvm::Value *total = c64(1);
  for (auto *e : extents) total = b_.CreateMul(total, e);
  auto *flatB = newBlock("map.flat");
  auto *stridedB = newBlock("map.strided");
  auto *done = newBlock("map.done");
  b_.CreateCondBr(sameShape, flatB, stridedB);
  b_.SetInsertPoint(flatB);
  loopNest({total}, [&](const std::vector<llvm::Value *> &i) {
    std::vector<llvm::Value *> elems;
    for (auto &in : inputs) {
      if (!in.type.isArray()) {
        elems.push_back(in.value.v);
        continue;
      }
      llvm::Type *mt = types_.mem(Type::scalar(in.type.dtype));
      elems.push_back(loadElement(in, b_.CreateInBoundsGEP(mt, arrayData(in.value.v), i[0])));
    }
    sink(i[0], {}, element(elems));
  });
  b_.CreateBr(done);
  b_.SetInsertPoint(stridedB);
  strided();
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
}

Value FunctionLowering::arrayMap(const ir::Expr &e) {
  const size_t mark = heldForError_.size(); // the inputs, held while broadcasting and allocating may raise
  std::vector<Input> inputs = evaluateInputs(e);
  std::vector<llvm::Value *> extents = broadcastShape(inputs, e.type.ndim);
  llvm::Value *out = allocateArray(e.type, extents);
  Type elem = Type::scalar(e.type.dtype);
  llvm::Type *mt = types_.mem(elem);
  llvm::Value *data = arrayData(out);
  elementLoop(inputs, extents, true, mapBody(e), [&](llvm::Value *linear, const std::vector<llvm::Value *> &idx, llvm::Value *v) {
    llvm::Value *p = linear ? b_.CreateInBoundsGEP(mt, data, linear) : elementPointer(out, e.type, idx);
    b_.CreateStore(toMem(v, elem), p);
  });
  dropHeld(mark);
  releaseInputs(inputs);
  return {out, true};
}

Value FunctionLowering::arrayReshape(const ir::Expr &e) {
  const Type &src = e.args[0]->type;
  Value in = expr(*e.args[0]);
  llvm::Value *total = c64(1);
  for (int d = 0; d < src.ndim; ++d) total = b_.CreateMul(total, arrayShape(in.v, d));
  std::vector<llvm::Value *> dims;
  llvm::Value *known = c64(1);
  llvm::Value *unknownCount = c64(0);
  for (size_t i = 1; i < e.args.size(); ++i) {
    llvm::Value *d = scalarExpr(*e.args[i]);
    dims.push_back(d);
    llvm::Value *isMinus = b_.CreateICmpSLT(d, c64(0)); // NumPy takes any negative extent as the unknown one
    unknownCount = b_.CreateAdd(unknownCount, b_.CreateZExt(isMinus, i64()));
    known = b_.CreateMul(known, b_.CreateSelect(isMinus, c64(1), d));
  }
  raiseIf(b_.CreateICmpSGT(unknownCount, c64(1)), types::ExcKind::ValueError, "can only specify one unknown dimension");
  // An unknown extent beside a zero one cannot be inferred (NumPy's error, also for an empty array).
  raiseIf(b_.CreateAnd(b_.CreateICmpEQ(unknownCount, c64(1)), b_.CreateICmpEQ(known, c64(0))), types::ExcKind::ValueError,
          "cannot reshape array into the requested shape");
  llvm::Value *safeKnown = b_.CreateSelect(b_.CreateICmpEQ(known, c64(0)), c64(1), known);
  llvm::Value *inferred = b_.CreateSDiv(total, safeKnown);
  for (auto &d : dims) d = b_.CreateSelect(b_.CreateICmpSLT(d, c64(0)), inferred, d);
  llvm::Value *product = c64(1);
  llvm::Value *negative = b_.getFalse(), *overflow = b_.getFalse();
  for (auto *d : dims) {
    product = mulChecked(product, d, overflow); // a wrapped product must not match an empty array's 0
    negative = b_.CreateOr(negative, b_.CreateICmpSLT(d, c64(0)));
  }
  arrayBytes(dims, types::dtypeBytes(e.type.dtype), overflow); // NumPy's size check of the new shape
  raiseIf(b_.CreateOr(b_.CreateOr(negative, overflow), b_.CreateICmpNE(product, total)), types::ExcKind::ValueError,
          "cannot reshape array into the requested shape");
  llvm::Value *out = llvm::UndefValue::get(types_.array(e.type.ndim));
  out = b_.CreateInsertValue(out, b_.CreateExtractValue(in.v, {0u}), {0u});
  out = b_.CreateInsertValue(out, b_.CreateExtractValue(in.v, {1u}), {1u});
  out = b_.CreateInsertValue(out, arrayData(in.v), {2u});
  llvm::Value *stride = c64(types::dtypeBytes(e.type.dtype));
  for (int k = e.type.ndim - 1; k >= 0; --k) {
    out = b_.CreateInsertValue(out, dims[k], {3u, unsigned(k)});
    out = b_.CreateInsertValue(out, stride, {4u, unsigned(k)});
    stride = b_.CreateMul(stride, dims[k]);
  }
  return {out, in.owned};
}

llvm::Value *FunctionLowering::arith(ir::BinaryOp op, llvm::Value *a, llvm::Value *b, const Type &t) {
  if (t.isComplex()) return complexBinary(op, a, b, t);
  if (t.isFloat()) return floatBinary(op, a, b, t);
  return intBinary(op, a, b, t);
}

Value FunctionLowering::arrayDot(const ir::Expr &e) {
  const Type &ta = e.args[0]->type, &tb = e.args[1]->type;
  Value a = expr(*e.args[0]);
  Value b = expr(*e.args[1]);
  Type rt = Type::scalar(e.type.dtype);
  llvm::Type *rty = types_.ssa(rt);
  auto load = [&](const Value &arr, const Type &t, std::vector<llvm::Value *> idx) {
    Type et = Type::scalar(t.dtype);
    llvm::Value *v = fromMem(b_.CreateLoad(types_.mem(et), elementPointer(arr.v, t, idx)), et);
    return castScalar(v, et, rt);
  };
  auto zero = [&]() {
    ir::Expr z(ir::ExprOp::Const, rt, e.loc);
    return constant(z);
  };
  // Contracted dimension: last of a, first (2-D) or only (1-D) of b.
  llvm::Value *ka = arrayShape(a.v, ta.ndim - 1);
  llvm::Value *kb = arrayShape(b.v, tb.ndim == 2 ? 0 : 0);
  raiseIf(b_.CreateICmpNE(ka, kb), types::ExcKind::ValueError, "shapes not aligned for dot/matmul");
  Value result;
  if (ta.ndim == 1 && tb.ndim == 1) {
    // Float vectors go to BLAS's sdot/ddot (blas.cpp), whose order NumPy and Numba share;
    // the loop then runs for the strides BLAS does not take, adding in order as NumPy's
    // fallback does. Without BLAS (complex, mixed or integer items) the adds may be
    // reassociated (LLVM's `reassoc` on this loop alone) so that the loop vectorises with
    // several partial sums; sequential, it was bound by the add's latency.
    llvm::Value *acc = entryAlloca(rty, "dot.acc");
    llvm::BasicBlock *blasDone = e.args.size() > 2 ? blasVectorDot(e, a.v, b.v, ka, acc) : nullptr;
    llvm::IRBuilderBase::FastMathFlagGuard keepFlags(b_);
    if (!blasDone) {
      llvm::FastMathFlags reassoc;
      reassoc.setAllowReassoc();
      b_.setFastMathFlags(reassoc);
    }
    b_.CreateStore(zero(), acc);
    loopNest({ka}, [&](const std::vector<llvm::Value *> &k) {
      llvm::Value *prod = arith(ir::BinaryOp::Mul, load(a, ta, {k[0]}), load(b, tb, {k[0]}), rt);
      b_.CreateStore(arith(ir::BinaryOp::Add, b_.CreateLoad(rty, acc), prod, rt), acc);
    });
    if (blasDone) {
      b_.CreateBr(blasDone);
      b_.SetInsertPoint(blasDone);
    }
    result = {b_.CreateLoad(rty, acc), false};
  } else {
    std::vector<llvm::Value *> extents;
    if (ta.ndim == 2) extents.push_back(arrayShape(a.v, 0));
    if (tb.ndim == 2) extents.push_back(arrayShape(b.v, 1));
    llvm::Value *out = allocateArray(e.type, extents);
    llvm::Value *count = c64(1);
    for (auto *x : extents) count = b_.CreateMul(count, x);
    llvm::BasicBlock *blasDone = e.args.size() > 2 ? blasDot(e, a.v, b.v, out, ka) : nullptr; // BLAS when it takes the operands
    b_.CreateMemSet(arrayData(out), b_.getInt8(0), b_.CreateMul(count, c64(types::dtypeBytes(e.type.dtype))), llvm::MaybeAlign(64));
    llvm::Type *mt = types_.mem(rt);
    if (ta.ndim == 2 && tb.ndim == 2) {
      // i, k, j order: the inner loop walks rows of b and out contiguously.
      loopNest({extents[0], ka}, [&](const std::vector<llvm::Value *> &ik) {
        llvm::Value *aik = load(a, ta, {ik[0], ik[1]});
        loopNest({extents[1]}, [&](const std::vector<llvm::Value *> &j) {
          llvm::Value *p = elementPointer(out, e.type, {ik[0], j[0]});
          llvm::Value *cur = b_.CreateLoad(mt, p);
          b_.CreateStore(arith(ir::BinaryOp::Add, cur, arith(ir::BinaryOp::Mul, aik, load(b, tb, {ik[1], j[0]}), rt), rt), p);
        });
      });
    } else if (ta.ndim == 2) { // matrix · vector
      // Rows in blocks of four, each summed in a register of its own in the order k =
      // 0, 1, ...: four independent chains of adds instead of one (the loop was bound by
      // the add's latency and by a store to out in every step), and the same rounding as
      // one row at a time. The rows left over go one by one.
      constexpr int kRows = 4;
      llvm::Value *rows = extents[0];
      llvm::Value *blocks = b_.CreateSDiv(rows, c64(kRows));
      std::vector<llvm::Value *> accs;
      for (int r = 0; r < kRows; ++r) accs.push_back(entryAlloca(rty, "mv.acc"));
      auto rowsFrom = [&](llvm::Value *first, int n) {
        for (int r = 0; r < n; ++r) b_.CreateStore(zero(), accs[r]);
        loopNest({ka}, [&](const std::vector<llvm::Value *> &k) {
          llvm::Value *bk = load(b, tb, {k[0]});
          for (int r = 0; r < n; ++r) {
            llvm::Value *prod = arith(ir::BinaryOp::Mul, load(a, ta, {b_.CreateAdd(first, c64(r)), k[0]}), bk, rt);
            b_.CreateStore(arith(ir::BinaryOp::Add, b_.CreateLoad(rty, accs[r]), prod, rt), accs[r]);
          }
        });
        for (int r = 0; r < n; ++r)
          b_.CreateStore(toMem(b_.CreateLoad(rty, accs[r]), rt), elementPointer(out, e.type, {b_.CreateAdd(first, c64(r))}));
      };
      loopNest({blocks}, [&](const std::vector<llvm::Value *> &blk) { rowsFrom(b_.CreateMul(blk[0], c64(kRows)), kRows); });
      llvm::Value *done = b_.CreateMul(blocks, c64(kRows));
      loopNest({b_.CreateSub(rows, done)}, [&](const std::vector<llvm::Value *> &i) { rowsFrom(b_.CreateAdd(done, i[0]), 1); });
    } else { // vector · matrix
      loopNest({ka, extents[0]}, [&](const std::vector<llvm::Value *> &kj) {
        llvm::Value *p = elementPointer(out, e.type, {kj[1]});
        llvm::Value *prod = arith(ir::BinaryOp::Mul, load(a, ta, {kj[0]}), load(b, tb, {kj[0], kj[1]}), rt);
        b_.CreateStore(arith(ir::BinaryOp::Add, b_.CreateLoad(mt, p), prod, rt), p);
      });
    }
    if (blasDone) {
      b_.CreateBr(blasDone);
      b_.SetInsertPoint(blasDone);
    }
    result = {out, true};
  }
  release(a, ta);
  release(b, tb);
  return result;
}

Value FunctionLowering::arrayLinspace(const ir::Expr &e) {
  llvm::Value *start = scalarExpr(*e.args[0]);
  llvm::Value *stop = scalarExpr(*e.args[1]);
  llvm::Value *num = scalarExpr(*e.args[2]);
  raiseIf(b_.CreateICmpSLT(num, c64(0)), types::ExcKind::ValueError, "Number of samples must be non-negative");
  llvm::Value *out = allocateArray(e.type, {num});
  llvm::Value *data = arrayData(out);
  llvm::Type *d = b_.getDoubleTy();
  llvm::Value *div = b_.CreateSIToFP(b_.CreateSub(num, c64(1)), d);
  llvm::Value *step = b_.CreateFDiv(b_.CreateFSub(stop, start), div);
  step = b_.CreateSelect(b_.CreateICmpSGT(num, c64(1)), step, llvm::ConstantFP::get(d, 0.0)); // num == 1: [start]
  loopNest({num}, [&](const std::vector<llvm::Value *> &i) {
    llvm::Value *v = b_.CreateFAdd(b_.CreateFMul(b_.CreateSIToFP(i[0], d), step), start);
    b_.CreateStore(v, b_.CreateInBoundsGEP(d, data, i[0]));
  });
  // NumPy sets the last sample to stop exactly.
  auto *fix = newBlock("linspace.last");
  auto *done = newBlock("linspace.done");
  b_.CreateCondBr(b_.CreateICmpSGT(num, c64(1)), fix, done);
  b_.SetInsertPoint(fix);
  b_.CreateStore(stop, b_.CreateInBoundsGEP(d, data, b_.CreateSub(num, c64(1))));
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
  return {out, true};
}

Value FunctionLowering::arrayEye(const ir::Expr &e) {
  llvm::Value *n = scalarExpr(*e.args[0]);
  llvm::Value *k = scalarExpr(*e.args[1]);
  llvm::Value *m = e.args.size() > 2 ? scalarExpr(*e.args[2]) : n;
  llvm::Value *out = allocateArray(e.type, {n, m});
  Type elem = Type::scalar(e.type.dtype);
  b_.CreateMemSet(arrayData(out), b_.getInt8(0), b_.CreateMul(b_.CreateMul(n, m), c64(types::dtypeBytes(e.type.dtype))),
                  llvm::MaybeAlign(64));
  ir::Expr one(ir::ExprOp::Const, elem, e.loc);
  one.ival = 1;
  one.fval = 1.0;
  llvm::Value *oneV = toMem(constant(one), elem);
  loopNest({n}, [&](const std::vector<llvm::Value *> &i) {
    llvm::Value *j = b_.CreateAdd(i[0], k);
    llvm::Value *inside = b_.CreateAnd(b_.CreateICmpSGE(j, c64(0)), b_.CreateICmpSLT(j, m));
    auto *set = newBlock("eye.set");
    auto *next = newBlock("eye.next");
    b_.CreateCondBr(inside, set, next);
    b_.SetInsertPoint(set);
    b_.CreateStore(oneV, elementPointer(out, e.type, {i[0], j}));
    b_.CreateBr(next);
    b_.SetInsertPoint(next);
  });
  return {out, true};
}

} // namespace mahou::codegen
