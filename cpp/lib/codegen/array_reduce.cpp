// Lowering of reductions: sum, prod, min, max, argmin, argmax, any, all, mean,
// var, std over the whole array (fused with an elementwise operand, no temporary)
// or along one axis, and the cumulative sum and product.
#include "lowering.h"

#include "mahou/datetime_units.h"

#include <llvm/IR/Intrinsics.h>

#include <limits>

namespace mahou::codegen {

namespace {
using R = ir::ReduceKind;
}

Value FunctionLowering::arrayReduce(const ir::Expr &e) {
  R kind = R(e.sub);
  const ir::Expr &src = *e.args[0];
  bool fused = src.op == ir::ExprOp::ArrayMap && e.ival < 0;
  // Operands: the map's inputs (fused) or the array itself.
  std::vector<Input> inputs;
  Type elemT;
  ElementFn element;
  std::vector<llvm::Value *> extents;
  const size_t mark = heldForError_.size(); // the operands, held while the reduction may raise
  if (fused) {
    inputs = evaluateInputs(src);
    extents = broadcastShape(inputs, src.type.ndim);
    element = mapBody(src);
    elemT = src.args.back()->type;
  } else {
    inputs.push_back({expr(src), src.type});
    holdForError(inputs[0].value, src.type);
    for (int d = 0; d < src.type.ndim; ++d) extents.push_back(arrayShape(inputs[0].value.v, d));
    element = [](const std::vector<llvm::Value *> &el) { return el[0]; };
    elemT = Type::scalar(src.type.dtype);
  }
  Type rt = e.type.isArray() ? Type::scalar(e.type.dtype) : e.type;
  // The accumulator has the result's type (mean/var/std: float64 for integers); argmin/argmax
  // track the best element itself; var/std of complex numbers sum complex numbers (the mean)
  // for a real result.
  Type accT = kind == R::ArgMin || kind == R::ArgMax ? elemT : rt;
  if ((kind == R::Var || kind == R::Std) && elemT.isComplex()) accT = Type::scalar(types::dtypeBytes(rt.dtype) == 4 ? types::DType::Complex64 : types::DType::Complex128);
  // var/std's ddof (NumPy: the divisor is max(n - ddof, 0)), evaluated before the loops
  llvm::Value *ddof = e.args.size() > 1 ? scalarExpr(*e.args[1]) : nullptr;
  llvm::Type *accTy = types_.ssa(accT);
  auto constOf = [&](const Type &t, double v) {
    ir::Expr c(ir::ExprOp::Const, t, e.loc);
    c.ival = int64_t(v);
    c.fval = v;
    return constant(c);
  };

  // One reduction over `count` elements given by `at(j)`, returning the result.
  auto reduceRange = [&](llvm::Value *count, const std::function<void(const std::function<void(llvm::Value *, llvm::Value *)> &)> &forEach) -> llvm::Value * {
    llvm::Value *acc = entryAlloca(accTy, "red.acc");
    llvm::Value *bestIdx = entryAlloca(i64(), "red.idx");
    b_.CreateStore(c64(-1), bestIdx);
    switch (kind) {
    case R::Sum:
    case R::Mean:
    case R::Var:
    case R::Std: b_.CreateStore(constOf(accT, 0), acc); break;
    case R::Prod: b_.CreateStore(constOf(accT, 1), acc); break;
    case R::Any: b_.CreateStore(b_.getFalse(), acc); break;
    case R::All: b_.CreateStore(b_.getTrue(), acc); break;
    default:
      // min/max/argmin/argmax of real values start from the identity of the comparison
      // (-inf or the type's lowest for max, +inf or its highest for min) at index 0: no
      // element beats it strictly, so all-equal extremes give index 0 as NumPy does, and
      // the loop needs no first-element test. Complex values keep that test, and so do
      // datetimes (NaT is int64's lowest).
      if (!accT.isComplex() && !accT.isDatetimeLike()) {
        bool isMinKind = kind == R::Min || kind == R::ArgMin;
        llvm::Value *start;
        if (accT.isFloat())
          start = llvm::ConstantFP::getInfinity(accTy, /*Negative=*/!isMinKind);
        else if (accT.isBool())
          start = b_.getInt1(isMinKind);
        else if (types::dtypeClass(accT.dtype) == types::DTypeClass::UnsignedInt)
          start = isMinKind ? llvm::ConstantInt::getAllOnesValue(accTy) : llvm::ConstantInt::get(accTy, 0);
        else
          start = isMinKind ? llvm::ConstantInt::get(accTy, llvm::APInt::getSignedMaxValue(accTy->getIntegerBitWidth()))
                            : llvm::ConstantInt::get(accTy, llvm::APInt::getSignedMinValue(accTy->getIntegerBitWidth()));
        b_.CreateStore(start, acc);
        b_.CreateStore(c64(0), bestIdx);
      } else {
        b_.CreateStore(llvm::UndefValue::get(accTy), acc);
      }
      break;
    }
    if (kind == R::Min || kind == R::Max || kind == R::ArgMin || kind == R::ArgMax) {
      const char *msg = kind == R::ArgMin   ? "attempt to get argmin of an empty sequence"
                        : kind == R::ArgMax ? "attempt to get argmax of an empty sequence"
                        : kind == R::Max    ? "zero-size array to reduction operation maximum which has no identity"
                                            : "zero-size array to reduction operation minimum which has no identity";
      raiseIf(b_.CreateICmpEQ(count, c64(0)), types::ExcKind::ValueError, msg);
    }
    bool isMin = kind == R::Min || kind == R::ArgMin;
    forEach([&](llvm::Value *j, llvm::Value *x) {
      switch (kind) {
      case R::Sum:
      case R::Mean:
      case R::Var:
      case R::Std:
        b_.CreateStore(arith(ir::BinaryOp::Add, b_.CreateLoad(accTy, acc), castScalar(x, elemT, accT), accT), acc);
        break;
      case R::Prod: b_.CreateStore(arith(ir::BinaryOp::Mul, b_.CreateLoad(accTy, acc), castScalar(x, elemT, accT), accT), acc); break;
      case R::Any: b_.CreateStore(b_.CreateOr(b_.CreateLoad(accTy, acc), truth(x, elemT)), acc); break;
      case R::All: b_.CreateStore(b_.CreateAnd(b_.CreateLoad(accTy, acc), truth(x, elemT)), acc); break;
      case R::Min:
      case R::Max:
      case R::ArgMin:
      case R::ArgMax: {
        llvm::Value *v = castScalar(x, elemT, accT);
        llvm::Value *best = b_.CreateLoad(accTy, acc);
        llvm::Value *first = accT.isComplex() || accT.isDatetimeLike() ? b_.CreateICmpEQ(b_.CreateLoad(i64(), bestIdx), c64(-1)) : b_.getFalse();
        ir::CmpOp order = isMin ? ir::CmpOp::Lt : ir::CmpOp::Gt;
        llvm::Value *better, *vNan = nullptr, *bestNan = nullptr;
        if (accT.isComplex()) { // NumPy orders complex numbers lexicographically; NaN in a part is NaN
          Type part = Type::scalar(types::realOf(accT.dtype));
          llvm::Value *vr = b_.CreateExtractValue(v, 0), *vi = b_.CreateExtractValue(v, 1);
          llvm::Value *br = b_.CreateExtractValue(best, 0), *bi = b_.CreateExtractValue(best, 1);
          better = b_.CreateOr(compare(order, vr, br, part),
                               b_.CreateAnd(b_.CreateFCmpOEQ(vr, br), compare(order, vi, bi, part)));
          vNan = b_.CreateOr(b_.CreateFCmpUNO(vr, vr), b_.CreateFCmpUNO(vi, vi));
          bestNan = b_.CreateOr(b_.CreateFCmpUNO(br, br), b_.CreateFCmpUNO(bi, bi));
        } else if (accT.isDatetimeLike()) { // NaT wins and stays, as NaN (NumPy)
          better = compare(order, v, best, Type::int64());
          llvm::Value *nat = llvm::ConstantInt::get(accTy, types::kNaT, true);
          vNan = b_.CreateICmpEQ(v, nat), bestNan = b_.CreateICmpEQ(best, nat);
        } else {
          better = compare(order, v, best, accT);
          if (accT.isFloat()) vNan = b_.CreateFCmpUNO(v, v), bestNan = b_.CreateFCmpUNO(best, best);
        }
        if (vNan) // NaN wins and stays (NumPy propagates it; argmax returns its index)
          better = b_.CreateAnd(b_.CreateOr(better, vNan), b_.CreateNot(bestNan));
        llvm::Value *take = b_.CreateOr(first, better);
        b_.CreateStore(b_.CreateSelect(take, v, best), acc);
        b_.CreateStore(b_.CreateSelect(take, j, b_.CreateLoad(i64(), bestIdx)), bestIdx);
        break;
      }
      default: break;
      }
    });
    if (kind == R::ArgMin || kind == R::ArgMax) return b_.CreateLoad(i64(), bestIdx);
    llvm::Value *r = b_.CreateLoad(accTy, acc);
    if (kind == R::Mean || kind == R::Var || kind == R::Std) {
      Type ft = Type::scalar(accT.isComplex() ? types::realOf(accT.dtype) : accT.dtype);
      llvm::Value *n = castScalar(count, Type::int64(), accT);
      llvm::Value *mean;
      if (accT.isComplex()) {
        llvm::Value *re = b_.CreateFDiv(b_.CreateExtractValue(r, 0), castScalar(count, Type::int64(), ft));
        llvm::Value *im = b_.CreateFDiv(b_.CreateExtractValue(r, 1), castScalar(count, Type::int64(), ft));
        mean = b_.CreateInsertValue(b_.CreateInsertValue(r, re, 0), im, 1);
      } else {
        mean = b_.CreateFDiv(r, n);
      }
      if (kind == R::Mean) return mean;
      // Second pass: mean of squared deviations.
      llvm::Value *ss = entryAlloca(types_.ssa(ft), "red.ss");
      b_.CreateStore(constOf(ft, 0), ss);
      forEach([&](llvm::Value *, llvm::Value *x) {
        llvm::Value *sq;
        if (accT.isComplex()) { // |x - mean|^2 = re^2 + im^2, as NumPy's _var
          llvm::Value *z = castScalar(x, elemT, accT);
          llvm::Value *dr = b_.CreateFSub(b_.CreateExtractValue(z, 0), b_.CreateExtractValue(mean, 0));
          llvm::Value *di = b_.CreateFSub(b_.CreateExtractValue(z, 1), b_.CreateExtractValue(mean, 1));
          sq = b_.CreateFAdd(b_.CreateFMul(dr, dr), b_.CreateFMul(di, di));
        } else {
          llvm::Value *dv = b_.CreateFSub(castScalar(x, elemT, accT), mean);
          sq = b_.CreateFMul(dv, dv);
        }
        b_.CreateStore(b_.CreateFAdd(b_.CreateLoad(types_.ssa(ft), ss), sq), ss);
      });
      llvm::Value *divisor = castScalar(count, Type::int64(), ft);
      if (ddof) {
        llvm::Value *d = castScalar(ddof, Type::float64(), ft);
        divisor = b_.CreateFSub(divisor, d);
        divisor = b_.CreateSelect(b_.CreateFCmpOGT(divisor, llvm::ConstantFP::get(divisor->getType(), 0.0)), divisor,
                                  llvm::ConstantFP::get(divisor->getType(), 0.0));
      }
      llvm::Value *var = b_.CreateFDiv(b_.CreateLoad(types_.ssa(ft), ss), divisor);
      return kind == R::Std ? b_.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, var) : var;
    }
    return r;
  };

  if ((kind == R::ArgMax || kind == R::ArgMin) && e.ival < 0 && e.args.size() == 1 && !fused &&
      src.type.layout == types::Layout::C &&
      blockedArgExtremeFits(elemT)) { // the whole of a contiguous array: arg_extreme.cpp
    llvm::Value *total = c64(1);
    for (auto *x : extents) total = b_.CreateMul(total, x);
    llvm::Value *r = blockedArgExtreme(arrayData(inputs[0].value.v), total, elemT, kind == R::ArgMin);
    dropHeld(mark);
    releaseInputs(inputs);
    return {r, false};
  }

  Value result;
  if (kind == R::CumSum || kind == R::CumProd) {
    llvm::Value *total = c64(1);
    for (auto *x : extents) total = b_.CreateMul(total, x);
    llvm::Value *out = allocateArray(e.type, {total});
    llvm::Value *acc = entryAlloca(accTy, "scan.acc");
    // NumPy's accumulate copies the first item as it is (np.cumsum of [-0.0] is [-0.0],
    // np.cumprod of [-31-infj] is [-31-infj], where 1 * x would make a NaN): the first
    // position takes the item itself.
    llvm::Value *start = constOf(accT, kind == R::CumSum ? 0 : 1);
    b_.CreateStore(start, acc);
    llvm::Value *pos = entryAlloca(i64(), "scan.pos");
    b_.CreateStore(c64(0), pos);
    elementLoop(inputs, extents, false, element, [&](llvm::Value *, const std::vector<llvm::Value *> &, llvm::Value *x) {
      llvm::Value *p = b_.CreateLoad(i64(), pos);
      llvm::Value *item = castScalar(x, elemT, accT);
      llvm::Value *v = arith(kind == R::CumSum ? ir::BinaryOp::Add : ir::BinaryOp::Mul, b_.CreateLoad(accTy, acc), item, accT);
      v = b_.CreateSelect(b_.CreateICmpEQ(p, c64(0)), item, v);
      b_.CreateStore(v, acc);
      b_.CreateStore(toMem(v, accT), b_.CreateInBoundsGEP(types_.mem(accT), arrayData(out), p));
      b_.CreateStore(b_.CreateAdd(p, c64(1)), pos);
    });
    result = {out, true};
  } else if (e.ival < 0) {
    llvm::Value *total = c64(1);
    for (auto *x : extents) total = b_.CreateMul(total, x);
    llvm::Value *r = reduceRange(total, [&](const std::function<void(llvm::Value *, llvm::Value *)> &visit) {
      llvm::Value *pos = entryAlloca(i64(), "red.pos");
      b_.CreateStore(c64(0), pos);
      elementLoop(inputs, extents, false, element, [&](llvm::Value *, const std::vector<llvm::Value *> &, llvm::Value *x) {
        llvm::Value *p = b_.CreateLoad(i64(), pos);
        visit(p, x);
        b_.CreateStore(b_.CreateAdd(p, c64(1)), pos);
      });
    });
    result = {r, false};
  } else {
    // Along one axis: loop over the other dimensions, reduce each line.
    int axis = int(e.ival);
    const Value &arr = inputs[0].value;
    const Type &at = inputs[0].type;
    std::vector<llvm::Value *> outExtents;
    for (int d = 0; d < at.ndim; ++d)
      if (d != axis) outExtents.push_back(extents[d]);
    if (kind == R::Min || kind == R::Max || kind == R::ArgMin || kind == R::ArgMax) // also when no line is reduced
      raiseIf(b_.CreateICmpEQ(extents[axis], c64(0)), types::ExcKind::ValueError,
              kind == R::ArgMin   ? "attempt to get argmin of an empty sequence"
              : kind == R::ArgMax ? "attempt to get argmax of an empty sequence"
              : kind == R::Max    ? "zero-size array to reduction operation maximum which has no identity"
                                  : "zero-size array to reduction operation minimum which has no identity");
    llvm::Value *out = allocateArray(e.type, outExtents);
    Type et = Type::scalar(at.dtype);
    if ((kind == R::Sum || kind == R::Prod) && axis != at.ndim - 1) {
      // Sum/prod along an axis other than the last: every element in the array's index
      // order, added into its output element (out[j] += a[i, j]): the inner loop walks
      // rows and out contiguously and vectorises, where one line per output walked a
      // column. Each output still accumulates in axis order, so the rounding is the same.
      llvm::Type *outMem = types_.mem(rt);
      llvm::Value *identity = toMem(constOf(rt, kind == R::Sum ? 0 : 1), rt);
      loopNest(outExtents, [&](const std::vector<llvm::Value *> &oi) {
        b_.CreateStore(identity, elementPointer(out, e.type, oi));
      });
      loopNest(extents, [&](const std::vector<llvm::Value *> &idx) {
        std::vector<llvm::Value *> oi;
        for (int d = 0; d < at.ndim; ++d)
          if (d != axis) oi.push_back(idx[d]);
        llvm::Value *p = elementPointer(out, e.type, oi);
        llvm::Value *x = castScalar(fromMem(b_.CreateLoad(types_.mem(et), elementPointer(arr.v, at, idx)), et), et, rt);
        llvm::Value *cur = fromMem(b_.CreateLoad(outMem, p), rt);
        b_.CreateStore(toMem(arith(kind == R::Sum ? ir::BinaryOp::Add : ir::BinaryOp::Mul, cur, x, rt), rt), p);
      });
      dropHeld(mark);
      releaseInputs(inputs);
      return {out, true};
    }
    loopNest(outExtents, [&](const std::vector<llvm::Value *> &oi) {
      llvm::Value *r = reduceRange(extents[axis], [&](const std::function<void(llvm::Value *, llvm::Value *)> &visit) {
        loopNest({extents[axis]}, [&](const std::vector<llvm::Value *> &j) {
          std::vector<llvm::Value *> idx;
          size_t o = 0;
          for (int d = 0; d < at.ndim; ++d) idx.push_back(d == axis ? j[0] : oi[o++]);
          visit(j[0], fromMem(b_.CreateLoad(types_.mem(et), elementPointer(arr.v, at, idx)), et));
        });
      });
      b_.CreateStore(toMem(r, rt), elementPointer(out, e.type, oi));
    });
    result = {out, true};
  }
  dropHeld(mark);
  releaseInputs(inputs);
  return result;
}

} // namespace mahou::codegen
