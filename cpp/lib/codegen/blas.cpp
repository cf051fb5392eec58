// np.dot / @ / np.matmul of float and complex arrays through BLAS, as NumPy and Numba do,
// so that a product of any size rounds as theirs: sema appends the addresses of ?dot, ?gemv
// and ?gemm (SciPy's cython_blas, looked up as '@blas.ddot' &c.) to the ArrayDot's operands.
// As in NumPy, a matrix with one row or column is multiplied as a vector: a 1 x 1 result is
// ?dot, a single column or row ?gemv, anything else ?gemm. A matrix
// without a unit-stride axis (C or Fortran order, or a slice of either) or a vector without
// a positive stride is first copied in C order, as np.dot and Numba do. Row-major data is
// the transposed column-major matrix: C = A·B is computed as Cᵀ = Bᵀ·Aᵀ into the fresh
// C-ordered result.
#include "lowering.h"

#include <functional>

namespace mahou::codegen {

namespace {
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

// An operand as BLAS takes it: `arr` itself when `usable`, else a C-ordered copy; the
// second value says whether it is a copy (released by releaseBlasOperand).
std::pair<llvm::Value *, llvm::Value *> FunctionLowering::blasOperand(llvm::Value *arr, const Type &t,
                                                                      llvm::Value *usable) {
  llvm::BasicBlock *from = b_.GetInsertBlock();
  auto *copy = newBlock("blas.copy"), *join = newBlock("blas.operand");
  b_.CreateCondBr(usable, join, copy);
  b_.SetInsertPoint(copy);
  llvm::Value *out = cOrderCopy(arr, t);
  llvm::BasicBlock *copied = b_.GetInsertBlock();
  b_.CreateBr(join);
  b_.SetInsertPoint(join);
  auto *value = b_.CreatePHI(arr->getType(), 2, "blas.arr");
  value->addIncoming(arr, from);
  value->addIncoming(out, copied);
  auto *isCopy = b_.CreatePHI(b_.getInt1Ty(), 2, "blas.copied");
  isCopy->addIncoming(b_.getFalse(), from);
  isCopy->addIncoming(b_.getTrue(), copied);
  return {value, isCopy};
}

void FunctionLowering::releaseBlasOperand(llvm::Value *arr, llvm::Value *isCopy, const Type &t) {
  auto *rel = newBlock("blas.release"), *next = newBlock("blas.released");
  b_.CreateCondBr(isCopy, rel, next);
  b_.SetInsertPoint(rel);
  decref(arr, Type::array(t.dtype, t.ndim, types::Layout::C));
  b_.CreateBr(next);
  b_.SetInsertPoint(next);
}

// A call of ?dot (sdot, ddot, cdotu, zdotu) at `fn`, its value in the scalar's SSA form. The
// routines return C values: a complex128 is two doubles in registers ({double, double}),
// a complex64 on x86-64 one register of two floats (<2 x float>), elsewhere two floats.
llvm::Value *FunctionLowering::blasDotCall(int64_t fn, const Type &rt, const std::vector<llvm::Value *> &args) {
  llvm::Type *ssa = types_.ssa(rt);
  bool packed = rt.dtype == types::DType::Complex64 && hostIsX86();
  llvm::Type *ret = packed ? llvm::FixedVectorType::get(b_.getFloatTy(), 2) : ssa;
  auto *fty = llvm::FunctionType::get(ret, std::vector<llvm::Type *>(args.size(), b_.getPtrTy()), false);
  llvm::Value *r = b_.CreateCall(fty, b_.CreateIntToPtr(c64(fn), b_.getPtrTy()), args);
  if (!packed) return r;
  llvm::Value *out = llvm::UndefValue::get(ssa);
  out = b_.CreateInsertValue(out, b_.CreateExtractElement(r, uint64_t(0)), {0u});
  return b_.CreateInsertValue(out, b_.CreateExtractElement(r, uint64_t(1)), {1u});
}

llvm::BasicBlock *FunctionLowering::blasDot(const ir::Expr &e, llvm::Value *a, llvm::Value *b, llvm::Value *out,
                                            llvm::Value *k) {
  const Type &ta = e.args[0]->type, &tb = e.args[1]->type;
  Type rt = Type::scalar(e.type.dtype);
  int64_t item = types::dtypeBytes(e.type.dtype);
  llvm::Type *i32 = b_.getInt32Ty();
  auto routine = [&](size_t i) { return e.args.size() > 2 + i ? e.args[2 + i]->ival : int64_t(0); };
  int64_t dotFn = routine(0), gemvFn = routine(1), gemmFn = routine(2);
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
  // A vector's stride in elements, when BLAS takes it (NumPy's blas_stride).
  auto vectorOk = [&](llvm::Value *stride) {
    return b_.CreateAnd(b_.CreateICmpSGT(stride, c64(0)),
                        b_.CreateAnd(b_.CreateICmpEQ(b_.CreateSRem(stride, c64(item)), c64(0)),
                                     b_.CreateICmpSLE(stride, c64(kIntMax * item))));
  };
  auto call = [&](int64_t fn, llvm::Type *ret, const std::vector<llvm::Value *> &args) {
    auto *fty = llvm::FunctionType::get(ret, std::vector<llvm::Type *>(args.size(), b_.getPtrTy()), false);
    return b_.CreateCall(fty, b_.CreateIntToPtr(c64(fn), b_.getPtrTy()), args);
  };
  llvm::Value *N = b_.getInt8('N'), *T = b_.getInt8('T');
  // out[0] = x · y over n items.
  auto dotCall = [&](llvm::Value *n, llvm::Value *x, llvm::Value *sx, llvm::Value *y, llvm::Value *sy) {
    llvm::Value *r = blasDotCall(dotFn, rt,
                                 {int32Slot(n, "blas.n"), x, int32Slot(b_.CreateSDiv(sx, c64(item)), "blas.incx"),
                                  y, int32Slot(b_.CreateSDiv(sy, c64(item)), "blas.incy")});
    b_.CreateStore(toMem(r, rt), arrayData(out));
  };
  // out = M·x (matrixFirst) or Mᵀ·x: gemv of the stored matrix, transposed when needed.
  auto gemvCall = [&](llvm::Value *mat, const BlasMatrix &mm, bool matrixFirst, llvm::Value *x, llvm::Value *sx) {
    llvm::Value *rows = arrayShape(mat, 0), *cols = arrayShape(mat, 1);
    // Stored column-major, a row-major matrix is its transpose (cols x rows).
    llvm::Value *storedRows = b_.CreateSelect(mm.rowMajor, cols, rows);
    llvm::Value *storedCols = b_.CreateSelect(mm.rowMajor, rows, cols);
    llvm::Value *trans = matrixFirst ? b_.CreateSelect(mm.rowMajor, T, N) : b_.CreateSelect(mm.rowMajor, N, T);
    call(gemvFn, b_.getVoidTy(),
         {charSlot(trans, "blas.trans"), int32Slot(storedRows, "blas.m"), int32Slot(storedCols, "blas.n"),
          scalarSlot(1, "blas.alpha"), arrayData(mat), int32Slot(mm.ld, "blas.lda"), x,
          int32Slot(b_.CreateSDiv(sx, c64(item)), "blas.incx"), scalarSlot(0, "blas.beta"), arrayData(out),
          int32Slot(c64(1), "blas.incy")});
  };
  // Branches on `cond` into two emitters, joined in the block returned.
  auto ifElse = [&](llvm::Value *cond, const std::function<void()> &then, const std::function<void()> &other) {
    auto *t = newBlock("blas.then"), *o = newBlock("blas.else"), *join = newBlock("blas.join");
    b_.CreateCondBr(cond, t, o);
    b_.SetInsertPoint(t);
    then();
    b_.CreateBr(join);
    b_.SetInsertPoint(o);
    other();
    b_.CreateBr(join);
    b_.SetInsertPoint(join);
  };
  llvm::Value *one = c64(1);
  llvm::Value *ok;
  std::function<void()> emit;
  if (ta.ndim == 2 && tb.ndim == 2) {
    llvm::Value *m = arrayShape(a, 0), *n = arrayShape(b, 1);
    ok = b_.CreateAnd(fits(m), b_.CreateAnd(fits(n), fits(k)));
    ok = b_.CreateAnd(ok, b_.CreateICmpSGT(b_.CreateMul(b_.CreateMul(m, n), k), c64(0)));
    emit = [&, m, n] {
      auto opA = blasOperand(a, ta, blasMatrix(a, item).usable);
      auto opB = blasOperand(b, tb, blasMatrix(b, item).usable);
      llvm::Value *av = opA.first, *bv = opB.first;
      BlasMatrix ma = blasMatrix(av, item), mb = blasMatrix(bv, item);
      llvm::Value *rowOfA = arrayStride(av, 1), *colOfB = arrayStride(bv, 0); // positive: BLAS takes them
      auto gemm = [&] {
        call(gemmFn, b_.getVoidTy(),
             {charSlot(b_.CreateSelect(mb.rowMajor, N, T), "blas.transa"),
              charSlot(b_.CreateSelect(ma.rowMajor, N, T), "blas.transb"), int32Slot(n, "blas.m"),
              int32Slot(m, "blas.n"), int32Slot(k, "blas.k"), scalarSlot(1, "blas.alpha"), arrayData(bv),
              int32Slot(mb.ld, "blas.ldb"), arrayData(av), int32Slot(ma.ld, "blas.lda"), scalarSlot(0, "blas.beta"),
              arrayData(out), int32Slot(n, "blas.ldc")});
      };
      auto columnOfB = [&] { gemvCall(av, ma, true, arrayData(bv), colOfB); }; // (m, k)·(k, 1)
      auto rowOfAByB = [&] { gemvCall(bv, mb, false, arrayData(av), rowOfA); }; // (1, k)·(k, n)
      auto single = [&] { // (1, k)·(k, 1)
        if (dotFn) dotCall(k, arrayData(av), rowOfA, arrayData(bv), colOfB);
        else columnOfB();
      };
      ifElse(b_.CreateICmpEQ(n, one), [&] { ifElse(b_.CreateICmpEQ(m, one), single, columnOfB); },
             [&] { ifElse(b_.CreateICmpEQ(m, one), rowOfAByB, gemm); });
      releaseBlasOperand(av, opA.second, ta);
      releaseBlasOperand(bv, opB.second, tb);
    };
  } else {
    // matrix · vector (y = A x) or vector · matrix (y = Bᵀ x): gemv of the matrix, or
    // ?dot when the matrix has one row (A x) or one column (x B).
    bool matrixFirst = ta.ndim == 2;
    llvm::Value *mat = matrixFirst ? a : b, *vec = matrixFirst ? b : a;
    const Type &tm = matrixFirst ? ta : tb, &tv = matrixFirst ? tb : ta;
    llvm::Value *rows = arrayShape(mat, 0), *cols = arrayShape(mat, 1);
    ok = b_.CreateAnd(fits(rows), fits(cols));
    ok = b_.CreateAnd(ok, b_.CreateICmpSGT(b_.CreateMul(rows, cols), c64(0)));
    emit = [&, matrixFirst, mat, vec, rows, cols] {
      auto opM = blasOperand(mat, tm, blasMatrix(mat, item).usable);
      auto opV = blasOperand(vec, tv, vectorOk(arrayStride(vec, 0)));
      llvm::Value *mv = opM.first, *vv = opV.first, *sx = arrayStride(vv, 0);
      BlasMatrix mm = blasMatrix(mv, item);
      auto gemv = [&] { gemvCall(mv, mm, matrixFirst, arrayData(vv), sx); };
      if (dotFn) {
        llvm::Value *single = matrixFirst ? b_.CreateICmpEQ(rows, one) : b_.CreateICmpEQ(cols, one);
        llvm::Value *matStride = arrayStride(mv, matrixFirst ? 1 : 0); // along the one row / column
        ifElse(single, [&] { dotCall(k, arrayData(vv), sx, arrayData(mv), matStride); }, gemv);
      } else {
        gemv();
      }
      releaseBlasOperand(mv, opM.second, tm);
      releaseBlasOperand(vv, opV.second, tv);
    };
  }
  auto *callBlock = newBlock("blas.call");
  auto *loops = newBlock("blas.loops");
  auto *done = newBlock("blas.done");
  b_.CreateCondBr(ok, callBlock, loops);
  b_.SetInsertPoint(callBlock);
  emit();
  b_.CreateBr(done);
  b_.SetInsertPoint(loops);
  return done;
}

// vector · vector: ?dot (sdot, ddot, cdotu, zdotu), of C-ordered copies of vectors whose stride is not
// a positive multiple of the item (NumPy's blas_stride; np.dot and Numba copy them too).
// The call stores the result in `acc` and branches to the returned block; the insert point
// is left where the loop goes (empty vectors, or more items than BLAS counts).
llvm::BasicBlock *FunctionLowering::blasVectorDot(const ir::Expr &e, llvm::Value *a, llvm::Value *b, llvm::Value *n,
                                                  llvm::Value *acc) {
  Type rt = Type::scalar(e.type.dtype);
  int64_t item = types::dtypeBytes(e.type.dtype);
  llvm::Type *i32 = b_.getInt32Ty();
  auto blasStride = [&](llvm::Value *s) {
    return b_.CreateAnd(b_.CreateICmpSGT(s, c64(0)),
                        b_.CreateAnd(b_.CreateICmpEQ(b_.CreateSRem(s, c64(item)), c64(0)),
                                     b_.CreateICmpSLE(s, c64(kIntMax * item))));
  };
  llvm::Value *ok = b_.CreateAnd(b_.CreateICmpSGT(n, c64(0)), b_.CreateICmpSLE(n, c64(kIntMax)));
  auto *call = newBlock("blas.dot");
  auto *loop = newBlock("blas.dotloop");
  auto *done = newBlock("blas.dotdone");
  b_.CreateCondBr(ok, call, loop);
  b_.SetInsertPoint(call);
  const Type &ta = e.args[0]->type, &tb = e.args[1]->type;
  auto opA = blasOperand(a, ta, blasStride(arrayStride(a, 0)));
  auto opB = blasOperand(b, tb, blasStride(arrayStride(b, 0)));
  llvm::Value *av = opA.first, *bv = opB.first;
  auto int32Slot = [&](llvm::Value *v, const char *name) {
    llvm::Value *slot = entryAlloca(i32, name);
    b_.CreateStore(b_.CreateTrunc(v, i32), slot);
    return slot;
  };
  std::vector<llvm::Value *> args = {int32Slot(n, "blas.n"), arrayData(av),
                                     int32Slot(b_.CreateSDiv(arrayStride(av, 0), c64(item)), "blas.incx"),
                                     arrayData(bv), int32Slot(b_.CreateSDiv(arrayStride(bv, 0), c64(item)), "blas.incy")};
  b_.CreateStore(blasDotCall(e.args[2]->ival, rt, args), acc);
  releaseBlasOperand(av, opA.second, ta);
  releaseBlasOperand(bv, opB.second, tb);
  b_.CreateBr(done);
  b_.SetInsertPoint(loop);
  return done;
}

} // namespace mahou::codegen
