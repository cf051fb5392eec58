// Lowering of the NumPy ufuncs on complex numbers that work part by part: np.rint rounds
// each part; np.minimum/maximum/fmin/fmax and np.less/greater/... order lexicographically
// (NumPy's CLT/CLE/CGT/CGE).
#include "lowering.h"

#include <llvm/IR/Intrinsics.h>

namespace mahou::codegen {

using ir::Intrinsic;

llvm::Value *FunctionLowering::complexElementwise(Intrinsic id, llvm::ArrayRef<llvm::Value *> a) {
  auto re = [&](llvm::Value *z) { return b_.CreateExtractValue(z, 0); };
  auto im = [&](llvm::Value *z) { return b_.CreateExtractValue(z, 1); };
  auto isNan = [&](llvm::Value *v) { return b_.CreateFCmpUNO(v, v); };
  switch (id) {
  case Intrinsic::Rint: {
    llvm::Value *z = b_.CreateInsertValue(a[0], b_.CreateUnaryIntrinsic(llvm::Intrinsic::roundeven, re(a[0])), 0);
    return b_.CreateInsertValue(z, b_.CreateUnaryIntrinsic(llvm::Intrinsic::roundeven, im(a[0])), 1);
  }
  case Intrinsic::NpMin:
  case Intrinsic::NpMax:
  case Intrinsic::FMin:
  case Intrinsic::FMax: {
    bool isMin = id == Intrinsic::NpMin || id == Intrinsic::FMin;
    bool nanPropagates = id == Intrinsic::NpMin || id == Intrinsic::NpMax;
    llvm::Value *xr = re(a[0]), *xi = im(a[0]), *yr = re(a[1]), *yi = im(a[1]);
    // NumPy's CGE (CLE for the minimum): x >= y in the order of the real parts, then the
    // imaginary parts; false when an imaginary part is NaN and the real parts differ.
    llvm::Value *realOrder = isMin ? b_.CreateFCmpOLT(xr, yr) : b_.CreateFCmpOGT(xr, yr);
    llvm::Value *imagsOrdered = b_.CreateNot(b_.CreateOr(isNan(xi), isNan(yi)));
    llvm::Value *realsEqual = b_.CreateFCmpOEQ(xr, yr);
    llvm::Value *imagOrder = isMin ? b_.CreateFCmpOLE(xi, yi) : b_.CreateFCmpOGE(xi, yi);
    llvm::Value *xFirst = b_.CreateOr(b_.CreateAnd(realOrder, imagsOrdered), b_.CreateAnd(realsEqual, imagOrder));
    // minimum/maximum: a NaN in x is kept (x's), else y unless x comes first; fmin/fmax:
    // a NaN in y gives x, else the same.
    llvm::Value *nanSide = nanPropagates ? b_.CreateOr(isNan(xr), isNan(xi)) : b_.CreateOr(isNan(yr), isNan(yi));
    return b_.CreateSelect(b_.CreateOr(nanSide, xFirst), a[0], a[1]);
  }
  case Intrinsic::CLess:
  case Intrinsic::CLessEqual:
  case Intrinsic::CGreater:
  case Intrinsic::CGreaterEqual: {
    // (xr op yr and neither imaginary part NaN) or (xr == yr and xi op= yi)
    bool less = id == Intrinsic::CLess || id == Intrinsic::CLessEqual;
    bool orEqual = id == Intrinsic::CLessEqual || id == Intrinsic::CGreaterEqual;
    llvm::Value *xr = re(a[0]), *xi = im(a[0]), *yr = re(a[1]), *yi = im(a[1]);
    llvm::Value *realOrder = less ? b_.CreateFCmpOLT(xr, yr) : b_.CreateFCmpOGT(xr, yr);
    llvm::Value *imagsOrdered = b_.CreateNot(b_.CreateOr(isNan(xi), isNan(yi)));
    llvm::Value *imagOrder = less ? (orEqual ? b_.CreateFCmpOLE(xi, yi) : b_.CreateFCmpOLT(xi, yi))
                                  : (orEqual ? b_.CreateFCmpOGE(xi, yi) : b_.CreateFCmpOGT(xi, yi));
    return b_.CreateOr(b_.CreateAnd(realOrder, imagsOrdered), b_.CreateAnd(b_.CreateFCmpOEQ(xr, yr), imagOrder));
  }
  default: return nullptr;
  }
}

} // namespace mahou::codegen
