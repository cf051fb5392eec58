// np.dot / @ / np.matmul of float and complex matrices through BLAS (gemm for
// matrix · matrix, gemv for matrix · vector and vector · matrix), as NumPy and Numba do:
// sema puts the routine's address (SciPy's cython_blas, looked up as '@blas.dgemm' &c.)
// in the ArrayDot's ival. BLAS is called when the product is big enough to pay for the
// call and every operand has unit stride along one axis (C or Fortran order, or a slice
// of either); otherwise the loops of arrayDot run. Row-major data is the transposed
// column-major matrix: C = A·B is computed as Cᵀ = Bᵀ·Aᵀ into the fresh C-ordered result.
#include "lowering.h"

#include <functional>

namespace mahou::codegen {

namespace {
constexpr int64_t kBlasMinWork = 4096; // m·n·k (gemm) or m·k (gemv) from which BLAS is called
constexpr int64_t kIntMax = 0x7fffffff; // BLAS takes 32-bit integers
} // namespace

// A 2-D operand as BLAS sees it: usable when one stride is the element size; `rowMajor`
// when its rows are contiguous (stored column-major it is the transpose), `ld` the
// leading dimension in elements.
FunctionLowering::BlasMatrix FunctionLowering::blasMatrix(llvm::Value *arr, int64_t item) {
  llvm::Value *rows = arrayShape(arr, 0), *cols = arrayShape(arr, 1);
  llvm::Value *s0 = arrayStride(arr, 0), *s1 = arrayStride(arr, 1);
  auto atLeast = [&](llvm::Value *stride, llvm::Value *extent) {
    llvm::Value *one = b_.CreateSelect(b_.CreateICmpSGT(extent, c64(1)), extent, c64(1));
    return b_.CreateAnd(b_.CreateICmpEQ(b_.CreateSRem(stride, c64(item)), c64(0)),
                        b_.CreateAnd(b_.CreateICmpSGE(stride, b_.CreateMul(one, c64(item))),
                                     b_.CreateICmpSLE(stride, c64(kIntMax * item))));
  };
  llvm::Value *row = b_.CreateAnd(b_.CreateICmpEQ(s1, c64(item)), atLeast(s0, cols));
  llvm::Value *col = b_.CreateAnd(b_.CreateICmpEQ(s0, c64(item)), atLeast(s1, rows));
  BlasMatrix m;
  m.usable = b_.CreateOr(row, col);
  m.rowMajor = row;
  m.ld = b_.CreateTrunc(b_.CreateSDiv(b_.CreateSelect(row, s0, s1), c64(item)), b_.getInt32Ty());
  return m;
}

llvm::BasicBlock *FunctionLowering::blasDot(const ir::Expr &e, llvm::Value *a, llvm::Value *b, llvm::Value *out,
                                            llvm::Value *k) {
  const Type &ta = e.args[0]->type, &tb = e.args[1]->type;
  Type rt = Type::scalar(e.type.dtype);
  int64_t item = types::dtypeBytes(e.type.dtype);
  llvm::Type *i32 = b_.getInt32Ty();
  auto fits = [&](llvm::Value *x) { return b_.CreateICmpSLE(x, c64(kIntMax)); };
  auto int32Slot = [&](llvm::Value *v, const char *name) {
    llvm::Value *slot = entryAlloca(i32, name);
    b_.CreateStore(v->getType() == i32 ? v : b_.CreateTrunc(v, i32), slot);
    return slot;
  };
  auto charSlot = [&](llvm::Value *c, const char *name) {
    llvm::Value *slot = entryAlloca(b_.getInt8Ty(), name);
    b_.CreateStore(c, slot);
    return slot;
  };
  auto scalarSlot = [&](int64_t v, const char *name) {
    ir::Expr c(ir::ExprOp::Const, rt, e.loc);
    c.ival = v;
    c.fval = double(v);
    llvm::Value *slot = entryAlloca(types_.mem(rt), name);
    b_.CreateStore(toMem(constant(c), rt), slot);
    return slot;
  };
  llvm::Value *N = b_.getInt8('N'), *T = b_.getInt8('T');
  llvm::Value *ok, *work;
  std::vector<llvm::Value *> args; // filled in the call block
  std::function<void()> makeArgs;
  if (ta.ndim == 2 && tb.ndim == 2) {
    llvm::Value *m = arrayShape(a, 0), *n = arrayShape(b, 1);
    BlasMatrix ma = blasMatrix(a, item), mb = blasMatrix(b, item);
    ok = b_.CreateAnd(ma.usable, mb.usable);
    ok = b_.CreateAnd(ok, b_.CreateAnd(fits(m), b_.CreateAnd(fits(n), fits(k))));
    work = b_.CreateMul(b_.CreateMul(m, n), k);
    makeArgs = [&, m, n, ma, mb] {
      args = {charSlot(b_.CreateSelect(mb.rowMajor, N, T), "blas.transa"),
              charSlot(b_.CreateSelect(ma.rowMajor, N, T), "blas.transb"),
              int32Slot(n, "blas.m"), int32Slot(m, "blas.n"), int32Slot(k, "blas.k"),
              scalarSlot(1, "blas.alpha"), arrayData(b), int32Slot(mb.ld, "blas.ldb"),
              arrayData(a), int32Slot(ma.ld, "blas.lda"), scalarSlot(0, "blas.beta"),
              arrayData(out), int32Slot(n, "blas.ldc")};
    };
  } else {
    // matrix · vector (y = A x) or vector · matrix (y = Bᵀ x): gemv of the matrix
    bool matrixFirst = ta.ndim == 2;
    llvm::Value *mat = matrixFirst ? a : b, *vec = matrixFirst ? b : a;
    llvm::Value *rows = arrayShape(mat, 0), *cols = arrayShape(mat, 1);
    BlasMatrix mm = blasMatrix(mat, item);
    llvm::Value *sx = arrayStride(vec, 0);
    ok = b_.CreateAnd(mm.usable, b_.CreateAnd(b_.CreateICmpSGT(sx, c64(0)),
                                              b_.CreateICmpEQ(b_.CreateSRem(sx, c64(item)), c64(0))));
    ok = b_.CreateAnd(ok, b_.CreateAnd(fits(rows), b_.CreateAnd(fits(cols), fits(b_.CreateSDiv(sx, c64(item))))));
    work = b_.CreateMul(rows, cols);
    makeArgs = [&, matrixFirst, mat, vec, rows, cols, mm, sx] {
      // Stored column-major, a row-major matrix is its transpose (cols x rows).
      llvm::Value *storedRows = b_.CreateSelect(mm.rowMajor, cols, rows);
      llvm::Value *storedCols = b_.CreateSelect(mm.rowMajor, rows, cols);
      // A x needs the stored matrix transposed when it is row-major; Bᵀ x when it is not.
      llvm::Value *trans = matrixFirst ? b_.CreateSelect(mm.rowMajor, T, N) : b_.CreateSelect(mm.rowMajor, N, T);
      args = {charSlot(trans, "blas.trans"), int32Slot(storedRows, "blas.m"), int32Slot(storedCols, "blas.n"),
              scalarSlot(1, "blas.alpha"), arrayData(mat), int32Slot(mm.ld, "blas.lda"), arrayData(vec),
              int32Slot(b_.CreateSDiv(sx, c64(item)), "blas.incx"), scalarSlot(0, "blas.beta"), arrayData(out),
              int32Slot(c64(1), "blas.incy")};
    };
  }
  ok = b_.CreateAnd(ok, b_.CreateAnd(b_.CreateICmpSGT(work, c64(0)), b_.CreateICmpSGE(work, c64(kBlasMinWork))));
  auto *call = newBlock("blas.call");
  auto *loops = newBlock("blas.loops");
  auto *done = newBlock("blas.done");
  b_.CreateCondBr(ok, call, loops);
  b_.SetInsertPoint(call);
  makeArgs();
  std::vector<llvm::Type *> params(args.size(), b_.getPtrTy());
  auto *fty = llvm::FunctionType::get(b_.getVoidTy(), params, false);
  b_.CreateCall(fty, b_.CreateIntToPtr(c64(e.ival), b_.getPtrTy()), args);
  b_.CreateBr(done);
  b_.SetInsertPoint(loops);
  return done;
}

} // namespace mahou::codegen
