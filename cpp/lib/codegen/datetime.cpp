// Lowering of datetime64 / timedelta64 values (an i64 count of the unit, NaT = INT64_MIN):
// the `datetime` expressions, unit conversions (casts) and NaT-aware comparisons.
#include "lowering.h"

#include "mahou/datetime_units.h"

namespace mahou::codegen {

namespace {

using ir::DatetimeOp;

llvm::Value *floorDiv(llvm::IRBuilder<> &b, llvm::Value *a, int64_t d) { // a >= INT64_MIN + 1, d > 0
  llvm::Type *t = a->getType();
  llvm::Value *q = b.CreateSDiv(a, llvm::ConstantInt::get(t, d));
  llvm::Value *r = b.CreateSRem(a, llvm::ConstantInt::get(t, d));
  llvm::Value *adjust = b.CreateICmpSLT(r, llvm::ConstantInt::get(t, 0));
  return b.CreateSub(q, b.CreateZExt(adjust, t));
}

// Days since 1970-01-01 of the first day of month `month` (1..12) of year `year`
// (proleptic Gregorian): the era arithmetic of the civil calendar (400-year cycles).
llvm::Value *daysFromCivil(llvm::IRBuilder<> &b, llvm::Value *year, llvm::Value *month) {
  llvm::Type *t = year->getType();
  auto c = [&](int64_t v) { return llvm::ConstantInt::get(t, v, true); };
  llvm::Value *janFeb = b.CreateICmpSLE(month, c(2));
  llvm::Value *y = b.CreateSub(year, b.CreateZExt(janFeb, t));     // years start in March
  llvm::Value *era = floorDiv(b, y, 400);
  llvm::Value *yoe = b.CreateSub(y, b.CreateMul(era, c(400)));     // [0, 399]
  llvm::Value *mp = b.CreateSelect(janFeb, b.CreateAdd(month, c(9)), b.CreateSub(month, c(3))); // March = 0
  llvm::Value *doy = b.CreateSDiv(b.CreateAdd(b.CreateMul(mp, c(153)), c(2)), c(5)); // day of the year of the 1st
  llvm::Value *doe = b.CreateAdd(b.CreateSub(b.CreateAdd(b.CreateMul(yoe, c(365)), b.CreateSDiv(yoe, c(4))),
                                             b.CreateSDiv(yoe, c(100))),
                                 doy);
  return b.CreateSub(b.CreateAdd(b.CreateMul(era, c(146097)), doe), c(719468));
}

} // namespace

// A datetime64 / timedelta64 converted to another unit (NaT stays NaT). Sema converts
// only to a unit the value reaches exactly: a finer one, or days/weeks from years/months
// for datetimes (the calendar), as NumPy. To or from an integer: the count itself.
llvm::Value *FunctionLowering::datetimeCast(llvm::Value *v, const Type &from, const Type &to) {
  if (!from.isDatetimeLike() || !to.isDatetimeLike()) {
    if ((from.isDatetimeLike() && to.isScalar(types::DType::Int64)) || (to.isDatetimeLike() && from.isScalar(types::DType::Int64)))
      return v;
    internalError("cast " + from.str() + " -> " + to.str());
  }
  if (from.isDatetime() != to.isDatetime()) internalError("cast " + from.str() + " -> " + to.str());
  int fu = types::datetimeUnit(from.dtype), tu = types::datetimeUnit(to.dtype);
  if (fu == tu || fu == types::kUnitGeneric) return v;
  llvm::Type *t = v->getType();
  llvm::Value *nat = llvm::ConstantInt::get(t, types::kNaT, true);
  llvm::Value *isNat = b_.CreateICmpEQ(v, nat);
  llvm::Value *x = v;
  int unit = fu;
  if (from.isDatetime() && fu <= types::kUnitMonths && tu >= types::kUnitWeeks && tu != types::kUnitGeneric) {
    llvm::Value *safe = b_.CreateSelect(isNat, llvm::ConstantInt::get(t, 0), v); // keeps NaT out of the arithmetic
    llvm::Value *year, *month;
    if (fu == types::kUnitYears) {
      year = safe;
      month = llvm::ConstantInt::get(t, 1);
    } else {
      year = floorDiv(b_, safe, 12);
      month = b_.CreateAdd(b_.CreateSub(safe, b_.CreateMul(year, llvm::ConstantInt::get(t, 12))), llvm::ConstantInt::get(t, 1));
    }
    x = daysFromCivil(b_, b_.CreateAdd(year, llvm::ConstantInt::get(t, 1970)), month);
    unit = types::kUnitDays;
    if (tu == types::kUnitWeeks) {
      x = floorDiv(b_, x, 7);
      unit = types::kUnitWeeks;
    }
  }
  auto factor = types::unitFactor(unit, tu);
  if (!factor) internalError("no exact conversion " + from.str() + " -> " + to.str());
  if (*factor != 1) x = b_.CreateMul(x, llvm::ConstantInt::get(t, *factor));
  return b_.CreateSelect(isNat, nat, x);
}

// NaT compares unequal to everything, itself included: every comparison with it is
// false except !=.
llvm::Value *FunctionLowering::datetimeCompare(ir::CmpOp op, llvm::Value *a, llvm::Value *b) {
  using P = llvm::CmpInst::Predicate;
  static const P preds[] = {P::ICMP_EQ, P::ICMP_NE, P::ICMP_SLT, P::ICMP_SLE, P::ICMP_SGT, P::ICMP_SGE};
  llvm::Value *nat = llvm::ConstantInt::get(a->getType(), types::kNaT, true);
  llvm::Value *anyNat = b_.CreateOr(b_.CreateICmpEQ(a, nat), b_.CreateICmpEQ(b, nat));
  llvm::Value *r = b_.CreateICmp(preds[int(op)], a, b);
  return op == ir::CmpOp::Ne ? b_.CreateOr(anyNat, r) : b_.CreateAnd(b_.CreateNot(anyNat), r);
}

llvm::Value *FunctionLowering::datetimeOp(const ir::Expr &e) {
  auto op = DatetimeOp(e.sub);
  llvm::Value *a = scalarExpr(*e.args[0]);
  llvm::Value *b = e.args.size() > 1 ? scalarExpr(*e.args[1]) : nullptr;
  llvm::Type *i64 = b_.getInt64Ty();
  auto c = [&](int64_t v) { return llvm::ConstantInt::get(i64, v, true); };
  llvm::Value *nat = c(types::kNaT);
  llvm::Value *aNat = b_.CreateICmpEQ(a, nat);
  auto eitherNat = [&] { return b_.CreateOr(aNat, b_.CreateICmpEQ(b, nat)); };
  // A float result truncated to the unit; nan and values out of int64's range are NaT.
  auto fromFloat = [&](llvm::Value *f) {
    llvm::Value *inRange = b_.CreateAnd(b_.CreateFCmpOGE(f, llvm::ConstantFP::get(f->getType(), -9223372036854775808.0)),
                                        b_.CreateFCmpOLT(f, llvm::ConstantFP::get(f->getType(), 9223372036854775808.0)));
    llvm::Value *safe = b_.CreateSelect(inRange, f, llvm::ConstantFP::get(f->getType(), 0.0));
    return b_.CreateSelect(inRange, b_.CreateFPToSI(safe, i64), nat);
  };
  switch (op) {
  case DatetimeOp::Add: return b_.CreateSelect(eitherNat(), nat, b_.CreateAdd(a, b));
  case DatetimeOp::Sub: return b_.CreateSelect(eitherNat(), nat, b_.CreateSub(a, b));
  case DatetimeOp::MulInt: return b_.CreateSelect(aNat, nat, b_.CreateMul(a, b));
  case DatetimeOp::MulFloat:
    return b_.CreateSelect(aNat, nat, fromFloat(b_.CreateFMul(b_.CreateSIToFP(a, b->getType()), b)));
  case DatetimeOp::DivInt: {
    llvm::Value *byZero = b_.CreateICmpEQ(b, c(0));
    llvm::Value *safe = b_.CreateSelect(byZero, c(1), b);
    // NaT / -1 would overflow sdiv: NaT is answered before.
    llvm::Value *num = b_.CreateSelect(aNat, c(0), a);
    return b_.CreateSelect(b_.CreateOr(aNat, byZero), nat, b_.CreateSDiv(num, safe));
  }
  case DatetimeOp::DivFloat:
    return b_.CreateSelect(aNat, nat, fromFloat(b_.CreateFDiv(b_.CreateSIToFP(a, b->getType()), b)));
  case DatetimeOp::DivTimedelta: {
    llvm::Type *d = b_.getDoubleTy();
    llvm::Value *q = b_.CreateFDiv(b_.CreateSIToFP(a, d), b_.CreateSIToFP(b, d));
    return b_.CreateSelect(eitherNat(), llvm::ConstantFP::getNaN(d), q);
  }
  case DatetimeOp::FloorDivTimedelta: { // Python's floor division; NaT or by 0: 0 (NumPy)
    llvm::Value *bad = b_.CreateOr(eitherNat(), b_.CreateICmpEQ(b, c(0)));
    llvm::Value *x = b_.CreateSelect(bad, c(0), a), *y = b_.CreateSelect(bad, c(1), b);
    // x / -1 with x = INT64_MIN cannot happen: x is not NaT.
    llvm::Value *q = b_.CreateSDiv(x, y), *r = b_.CreateSRem(x, y);
    llvm::Value *signsDiffer = b_.CreateICmpSLT(b_.CreateXor(r, y), c(0));
    llvm::Value *adjust = b_.CreateAnd(b_.CreateICmpNE(r, c(0)), signsDiffer);
    return b_.CreateSub(q, b_.CreateZExt(adjust, i64));
  }
  case DatetimeOp::Neg: return b_.CreateNeg(a); // -NaT wraps to NaT
  case DatetimeOp::Abs: return b_.CreateSelect(b_.CreateICmpSLT(a, c(0)), b_.CreateNeg(a), a); // abs(NaT) is NaT
  case DatetimeOp::Sign:
    return b_.CreateSub(b_.CreateZExt(b_.CreateICmpSGT(a, c(0)), i64), b_.CreateZExt(b_.CreateICmpSLT(a, c(0)), i64));
  case DatetimeOp::IsNat: return aNat;
  case DatetimeOp::Maximum:
  case DatetimeOp::Minimum:
  case DatetimeOp::FMax:
  case DatetimeOp::FMin: {
    bool max = op == DatetimeOp::Maximum || op == DatetimeOp::FMax;
    bool natWins = op == DatetimeOp::Maximum || op == DatetimeOp::Minimum;
    llvm::Value *bNat = b_.CreateICmpEQ(b, nat);
    llvm::Value *r = b_.CreateSelect(max ? b_.CreateICmpSGE(a, b) : b_.CreateICmpSLE(a, b), a, b);
    if (natWins) return b_.CreateSelect(b_.CreateOr(aNat, bNat), nat, r);
    return b_.CreateSelect(aNat, b, b_.CreateSelect(bNat, a, r));
  }
  }
  internalError("unhandled datetime operation");
}

} // namespace mahou::codegen
