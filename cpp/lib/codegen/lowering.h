// Private to codegen: the per-function lowering of typed IR to LLVM IR.
// Values carry an ownership flag so array references are counted exactly once.
#pragma once

#include "mahou/codegen.h"
#include "mahou/ir.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>

#include <functional>
#include <map>
#include <optional>

namespace mahou::random {
enum class Dist : int32_t; // random_distributions.h
}

namespace mahou::codegen {

using types::Type;

// An SSA value and whether it holds its own references to the arrays inside it
// (owned: the producer made a new reference that someone must release).
struct Value {
  llvm::Value *v = nullptr;
  bool owned = false;
};

// LLVM types for mahou types (llvm_types.cpp).
class TypeMapper {
public:
  explicit TypeMapper(llvm::LLVMContext &ctx) : ctx_(ctx) {}
  llvm::Type *ssa(const Type &t);    // registers: bool is i1
  llvm::Type *mem(const Type &t);    // memory (arrays, tuples, arguments): bool is i8
  llvm::Type *scalar(types::DType d);
  llvm::StructType *array(int ndim);
  llvm::LLVMContext &ctx() { return ctx_; }

private:
  llvm::LLVMContext &ctx_;
};

class FunctionLowering {
public:
  FunctionLowering(const ir::Function &fn, llvm::Module &module, const CodegenOptions &options);
  llvm::Function *run();

  // ---- helpers shared by the lowering files
  llvm::LLVMContext &ctx() { return module_.getContext(); }
  llvm::Type *i64() { return b_.getInt64Ty(); }
  llvm::Value *c64(int64_t v) { return b_.getInt64(uint64_t(v)); }
  llvm::Value *toMem(llvm::Value *v, const Type &t);   // SSA → memory representation
  llvm::Value *fromMem(llvm::Value *v, const Type &t); // memory → SSA
  llvm::BasicBlock *newBlock(const char *name);
  // Raises `kind` with a constant message: sets the error state, jumps to the error exit.
  void raise(types::ExcKind kind, const std::string &message);
  // A kernel's raise with debug=True: records the site and the thread (gpu_exceptions.cpp).
  void recordKernelRaise(types::ExcKind kind, const std::string &message);
  // Raises s.exc with the run-time arguments s.exprs (exception_args.cpp).
  void raiseWithArgs(const ir::Stmt &s);
  // Branches to a raise when `cond` is true, continuing in a fresh block otherwise.
  void raiseIf(llvm::Value *cond, types::ExcKind kind, const std::string &message);
  // a * b (int64); `overflow` is or-ed with whether it wrapped (size arithmetic).
  llvm::Value *mulChecked(llvm::Value *a, llvm::Value *b, llvm::Value *&overflow);
  // NumPy's size of an array of these extents (>= 0): itemsize times the nonzero extents
  // (0 when one is zero); `overflow` says whether that product passed int64, which is
  // NumPy's ValueError even for an empty array.
  llvm::Value *arrayBytes(const std::vector<llvm::Value *> &extents, int64_t itemsize, llvm::Value *&overflow);
  // Owned temporaries that a raise from here must release (an operand evaluated after
  // them, or the operation itself, may raise): errorExit() is where a raise or a failed
  // call branches, through their releases (function.cpp).
  llvm::BasicBlock *errorExit();
  size_t holdForError(const Value &v, const Type &t); // returns the mark to drop back to
  void dropHeld(size_t mark) { heldForError_.resize(mark); }
  std::vector<std::pair<llvm::Value *, Type>> heldForError_;
  // " at file:line in 'name'" of the statement being lowered (for runtime messages).
  std::string where() const;
  Loc stmtLoc_{}; // the statement being lowered
  llvm::Value *stringConstant(const std::string &s);
  llvm::FunctionCallee runtimeFn(const char *name, llvm::Type *ret, llvm::ArrayRef<llvm::Type *> args);
  llvm::Value *entryAlloca(llvm::Type *t, const char *name);

  // ---- references (arrays.cpp)
  void incref(llvm::Value *v, const Type &t);
  void decref(llvm::Value *v, const Type &t);
  void countRef(llvm::Value *v, const Type &t, const char *fn);
  llvm::Value *own(Value v, const Type &t);  // a value with its own references
  void release(Value v, const Type &t);      // drop a temporary's references

  // ---- expressions (scalar_ops.cpp, arrays.cpp, calls in function.cpp)
  Value expr(const ir::Expr &e);
  llvm::Value *scalarExpr(const ir::Expr &e) { return expr(e).v; } // non-array values
  llvm::Value *constant(const ir::Expr &e);
  Value cast(const ir::Expr &e);
  llvm::Value *castScalar(llvm::Value *v, const Type &from, const Type &to);
  llvm::Value *binary(const ir::Expr &e);
  int64_t divisionKind_ = 0; // the Binary being lowered: its ival (the ZeroDivisionError's message, ir_ops.def)
  llvm::Value *intBinary(ir::BinaryOp op, llvm::Value *a, llvm::Value *b, const Type &t, bool raising = true);
  llvm::Value *floatBinary(ir::BinaryOp op, llvm::Value *a, llvm::Value *b, const Type &t, bool raising = true);
  llvm::Value *complexBinary(ir::BinaryOp op, llvm::Value *a, llvm::Value *b, const Type &t, bool raising = true);
  void complexDivide(llvm::Value *ar, llvm::Value *ai, llvm::Value *br, llvm::Value *bi, bool python, llvm::Value *&re,
                     llvm::Value *&im);
  llvm::Value *floatIntPower(const ir::Expr &e); // power.cpp: float ** int64 (Binary Pow, int rhs)
  llvm::Value *floatPow(llvm::Value *a, llvm::Value *b, const Type &t); // power.cpp: C's pow(), exactly
  llvm::Value *unary(const ir::Expr &e);
  llvm::Value *compare(ir::CmpOp op, llvm::Value *a, llvm::Value *b, const Type &t);
  llvm::Value *truth(llvm::Value *v, const Type &t);
  llvm::Value *datetimeOp(const ir::Expr &e);                                      // datetime.cpp
  llvm::Value *datetimeCast(llvm::Value *v, const Type &from, const Type &to);    // datetime.cpp
  llvm::Value *datetimeCompare(ir::CmpOp op, llvm::Value *a, llvm::Value *b);      // datetime.cpp
  llvm::Value *intrinsic(const ir::Expr &e);
  llvm::Value *gcdOrLcm(llvm::Value *a, llvm::Value *b, bool isSigned, bool lcm); // math.cpp
  llvm::Value *mathCall(const char *name, const Type &t, llvm::ArrayRef<llvm::Value *> args);
  Value select(const ir::Expr &e);
  Value shortCircuit(const ir::Expr &e);
  Value call(const ir::Expr &e);
  Value tupleMake(const ir::Expr &e);
  Value tupleGet(const ir::Expr &e);
  Value gpuOp(const ir::Expr &e); // gpu.cpp
  std::optional<Value> simGpuOp(const ir::Expr &e); // gpu_sim.cpp: the emulator's lowering, or nullopt if shared
  // gpu_extras.cpp: cooperative groups, cuda.random, print() in kernels (GPU and emulator)
  Value gpuExtraOp(const ir::Expr &e);
  void gridSync();
  llvm::Value *atomicElement(const ir::Expr &e); // gpu.cpp: the element an atomic works on
  llvm::Value *xoroshiroNext(llvm::Value *s0Ptr, llvm::Value *s1Ptr);
  void xoroshiroJump(llvm::Value *s0Ptr, llvm::Value *s1Ptr);
  llvm::Value *xoroshiroUniform(llvm::Value *s0Ptr, llvm::Value *s1Ptr, bool f32);
  llvm::Value *xoroshiroNormal(llvm::Value *s0Ptr, llvm::Value *s1Ptr, bool f32);
  void kernelPrint(const ir::Stmt &s);
  llvm::Value *libdeviceCall(const ir::Expr &e);
  // gpu_intrinsics.cpp: atomic inc/dec/nanmax/nanmin, selp, nanosleep, lanemask_lt, eq/match
  Value gpuIntrinsicOp(const ir::Expr &e);
  llvm::Value *atomicNanMinMax(llvm::Value *ptr, llvm::Value *val, bool isMax);
  // gpu_complex.cpp: csqrt/cexp/clog in real math for kernels (GPU and emulator)
  llvm::Value *deviceComplexMath(ir::Intrinsic id, llvm::Value *z, const Type &t);
  llvm::Value *deviceComplexLog10(llvm::Value *z, const Type &t); // gpu_complex.cpp: NumPy's log10 in kernels
  bool gpu() const { return options_.target == Target::NVPTX; }

  // ---- arrays (arrays.cpp)
  llvm::Value *arrayData(llvm::Value *arr);
  llvm::Value *arrayShape(llvm::Value *arr, int dim);
  void assumeExtentsBounded(llvm::Value *arg, const Type &t); // an argument's extents <= max bytes / itemsize
  llvm::Value *arrayStride(llvm::Value *arr, int dim);
  llvm::Value *indexValue(const ir::Expr &index); // a uint64 past INT64_MAX stays out of range
  llvm::Value *wrapIndex(llvm::Value *idx, llvm::Value *extent, bool check);
  llvm::Value *checkedIndex(llvm::Value *idx, llvm::Value *extent, const std::string &message); // arrays.cpp
  llvm::Value *elementPointer(llvm::Value *arr, const Type &t, llvm::ArrayRef<llvm::Value *> indices);
  llvm::Value *arrayItem(const ir::Expr &e);
  void storeItem(const ir::Stmt &s);
  // Alias tags (alias_tags.cpp): array elements never alias instance fields.
  enum class MemoryKind { ArrayElement, InstanceField };
  void tagMemory(llvm::Instruction *access, MemoryKind kind);
  Value arrayView(const ir::Expr &e);
  Value transpose(const ir::Expr &e);
  Value stridedView(const ir::Expr &e); // arrays.cpp: as_strided
  llvm::Value *arraySize(const ir::Expr &e);
  Value arrayAlloc(const ir::Expr &e);
  Value arrayArange(const ir::Expr &e);
  Value arrayCopy(const ir::Expr &e);
  // The constant extents (Const args) of a shared/local array op, and their product.
  std::vector<llvm::Value *> constantExtents(const ir::Expr &e, int64_t &count);
  // A global NumPy array frozen into the module (read-only; constant memory on the GPU).
  llvm::Value *arrayConst(const ir::Expr &e);
  llvm::Function *constArrayGetter(llvm::GlobalVariable *global, int64_t n);
  Value arrayLiteral(const ir::Expr &e); // array_construction.cpp: np.array([x, y, ...])
  // A fresh C-contiguous array of `t` with these extents (checked non-negative).
  llvm::Value *allocateArray(const Type &t, const std::vector<llvm::Value *> &extents);
  // A new C-contiguous array (owned) with `arr`'s items, copied one by one (any layout).
  llvm::Value *cOrderCopy(llvm::Value *arr, const Type &t);
  // The array struct of C-contiguous memory at `data` (meminfo may be null).
  llvm::Value *contiguousArray(llvm::Value *meminfo, llvm::Value *data, const std::vector<llvm::Value *> &extents,
                               int64_t itemsize);
  // Emits nested loops over `extents`, calling body with the index of each dimension.
  void loopNest(const std::vector<llvm::Value *> &extents,
                const std::function<void(const std::vector<llvm::Value *> &)> &body);

  // ---- whole-array computation (array_exprs.cpp, array_reduce.cpp)
  struct Input {
    Value value;
    Type type;
  };
  using ElementFn = std::function<llvm::Value *(const std::vector<llvm::Value *> &elements)>;
  // linear: flat C-order index when the loop runs flat (all operands C-contiguous with the
  // same shape), else null and `index` holds one index per dimension.
  using SinkFn = std::function<void(llvm::Value *linear, const std::vector<llvm::Value *> &index, llvm::Value *value)>;
  std::vector<Input> evaluateInputs(const ir::Expr &map);
  void releaseInputs(const std::vector<Input> &inputs);
  std::vector<llvm::Value *> broadcastShape(const std::vector<Input> &inputs, int ndim);
  void elementLoop(const std::vector<Input> &inputs, const std::vector<llvm::Value *> &extents, bool sinkIsC,
                   const ElementFn &element, const SinkFn &sink);
  ElementFn mapBody(const ir::Expr &map);
  Value arrayMap(const ir::Expr &e);
  // array_stores.cpp: stores whose value may read the destination's memory (NumPy's rule)
  void storeView(const ir::Stmt &s);
  struct ByteRange {
    llvm::Value *lo, *hi, *nonEmpty; // the lowest and highest byte address of the elements
  };
  ByteRange byteRange(llvm::Value *arr, const Type &t);
  llvm::Value *sharesBytes(const ByteRange &a, const ByteRange &b);
  // src's elements are dest's, visited in step (same data, shape, strides, item size).
  llvm::Value *sameElements(llvm::Value *dest, const Type &dt, llvm::Value *src, const Type &st);
  // src shares bytes with dest (other than at the same elements, when elementwiseSafe).
  llvm::Value *overlapsOperand(llvm::Value *dest, const Type &dt, const ByteRange &destRange, llvm::Value *src,
                               const Type &st, bool elementwiseSafe);
  // Whether some operand of the map overlaps the destination (null: none can).
  llvm::Value *storeOverlap(const ir::Expr &destExpr, llvm::Value *dest, const Type &dt, const ir::Expr &map,
                            const std::vector<Input> &inputs);
  void storeViewInKernel(llvm::Value *dest, const Type &dt, const ir::Expr &map, const std::vector<Input> &inputs,
                         llvm::Value *overlap, const SinkFn &sink, const std::function<void()> &fused);
  // The array an index-array store reads: `operand`, or a fresh copy of it when it
  // overlaps the base; `copy` is set to the copy to release (a null meminfo when none).
  llvm::Value *unshared(llvm::Value *operand, const Type &t, const ir::Expr &operandExpr, llvm::Value *base,
                        const Type &bt, bool elementwiseSafe, llvm::Value *&copy);
  llvm::Value *remainderIsZero(const ir::Expr &e); // scalar_ops.cpp: `a % b == 0` without the sign fix-up
  Value arrayReduce(const ir::Expr &e);
  // arg_extreme.cpp: argmax/argmin of `count` contiguous items at `data`, blockwise.
  bool blockedArgExtremeFits(const Type &elemT) const;
  llvm::Value *blockedArgExtreme(llvm::Value *data, llvm::Value *count, const Type &elemT, bool isMin);
  Value arrayReshape(const ir::Expr &e);
  Value arrayDot(const ir::Expr &e);
  struct BlasMatrix { llvm::Value *usable, *rowMajor, *ld; };          // blas.cpp
  BlasMatrix blasMatrix(llvm::Value *arr, int64_t itemBytes);
  llvm::BasicBlock *blasDot(const ir::Expr &e, llvm::Value *a, llvm::Value *b, llvm::Value *out, llvm::Value *k);
  std::pair<llvm::Value *, llvm::Value *> blasOperand(llvm::Value *arr, const Type &t, llvm::Value *usable);
  llvm::Value *blasDotCall(int64_t fn, const Type &rt, const std::vector<llvm::Value *> &args);
  void releaseBlasOperand(llvm::Value *arr, llvm::Value *isCopy, const Type &t);
  llvm::BasicBlock *blasVectorDot(const ir::Expr &e, llvm::Value *a, llvm::Value *b, llvm::Value *n, llvm::Value *acc);
  Value arrayLinspace(const ir::Expr &e);
  Value arrayEye(const ir::Expr &e);
  llvm::Value *arrayFromPointer(const ir::Expr &e); // pointers.cpp
  llvm::Value *callNative(const ir::Expr &e);       // a C function by address
  llvm::Value *callForeign(const ir::Expr &e);      // pointers.cpp: a cuda.declare_device function by symbol
  std::vector<llvm::Value *> externalArgs(const ir::Expr &e, std::vector<std::pair<Value, const Type *>> &arrays);
  Value objModeCall(const ir::Expr &e);             // objmode.cpp: a `with objmode(...)` block
  llvm::Value *randomDraw(const ir::Expr &e); // random.cpp
  // random_inline.cpp: np.random's draw `d` emitted inline (CPU), or null where it is not
  llvm::Value *inlineLegacyDraw(random::Dist d, llvm::ArrayRef<llvm::Value *> params);
  Value arrayGather(const ir::Expr &e);       // fancy_index.cpp
  Value arrayFancyGet(const ir::Expr &e);     // advanced_index.cpp: NumPy's advanced indexing
  void fancyStore(const ir::Stmt &s);
  // a.flat (flat_index.cpp): the element at C-order position `index` (checked and
  // wrapped unless `inRange`).
  llvm::Value *flatElementPointer(llvm::Value *arr, const Type &t, llvm::Value *index, bool inRange);
  llvm::Value *arrayFlatItem(const ir::Expr &e);
  void storeFlatItem(const ir::Stmt &s);
  Value arraySort(const ir::Expr &e);         // array_library.cpp
  llvm::Value *arraySearch(const ir::Expr &e);
  Value arrayBincount(const ir::Expr &e);
  Value arrayHistogram(const ir::Expr &e);
  Value arrayJoin(const ir::Expr &e);
  void scatter(const ir::Stmt &s);
  llvm::Value *arith(ir::BinaryOp op, llvm::Value *a, llvm::Value *b, const Type &t);
  std::vector<std::vector<llvm::Value *>> mapFrames_; // current elements of enclosing maps

  // ---- tuples, try/except, complex cmath (language.cpp)
  Value languageExpr(const ir::Expr &e);    // TupleIndex, TupleSlice, TupleConcat, ExcMatch
  void languageStmt(const ir::Stmt &s);     // TryExcept, ClearError, Reraise
  void tryExcept(const ir::Stmt &s);
  llvm::Value *complexRuntime(const char *name, llvm::Value *z, const Type &t); // mahou_rt_csqrt, ...
  // np.rint/minimum/maximum/fmin/fmax of complex numbers (complex_ops.cpp); nullptr for others.
  llvm::Value *complexElementwise(ir::Intrinsic id, llvm::ArrayRef<llvm::Value *> a);
  llvm::Value *complexPower(llvm::Value *a, llvm::Value *b, const Type &t);    // power.cpp

  // ---- heap objects (objects.cpp, strings.cpp)
  Value objectOp(const ir::Expr &e);
  Value listOp(const ir::Expr &e);
  Value stringOp(const ir::Expr &e);
  Value hashedOp(const ir::Expr &e); // dicts and sets (dicts.cpp)
  // Inline probes of int64- and str-keyed tables (table_probe.cpp).
  bool probesInline(const Type &keyType, const Type &argType);
  llvm::Value *inlineIntHash(llvm::Value *v);
  llvm::Value *inlineFind(llvm::Value *table, llvm::Value *key, const Type &keyType);
  // Keys hashed and compared by compiled code (instance_keys.cpp).
  struct KeyProbe {
    llvm::BasicBlock *missing;
    llvm::Value *entry, *keyAt;
  };
  KeyProbe probeByCode(llvm::Value *table, llvm::Value *key, llvm::Value *hash, const ir::Expr &ops, const Type &kt);
  Value codeKeyedOp(const ir::Expr &e);
  Value codeKeyedTables(const ir::Expr &e);
  Value instanceOp(const ir::Expr &e); // @jitclass instances (jitclass.cpp)
  Value recordOp(const ir::Expr &e);   // NumPy records (records.cpp)
  Value hashOp(const ir::Expr &e);     // hash() (hashing.cpp)
  llvm::Value *adoptArgumentArray(llvm::Value *arr);
  // `value` with a holder of its Python object (field parentField) in field holderField
  // when it has none (a value borrowed from an argument, stored where it may outlive it).
  llvm::Value *adoptParent(llvm::Value *value, unsigned holderField, unsigned parentField);
  llvm::Value *adoptBorrowed(llvm::Value *value, const Type &t); // the above, also inside tuples
  // A value stored into a container that may outlive the call: an owned reference, and an
  // array from NumPy (no meminfo) given one holding the ndarray (adoptArgumentArray).
  llvm::Value *ownedForStore(Value v, const types::Type &t);
  Value seq(const ir::Expr &e);
  // Casts that involve optionals, string literals → unicode, list → typed list.
  Value castObject(const ir::Expr &e, Value v);
  // Converts a value between two types sema allows to convert (numbers, layouts, tuples
  // elementwise, optionals, literals); `source` is the expression when it is known.
  Value castValue(Value v, const Type &from, const Type &to, const ir::Expr *source);
  llvm::Value *objectPayload(llvm::Value *mi);
  llvm::Value *listField(llvm::Value *list, unsigned field); // address of a MahouList field (all 8 bytes)
  void checkNotNull(llvm::Value *p);       // null → the error exit (the runtime set the error)
  void checkStatus(llvm::Value *status);   // nonzero → the error exit
  llvm::Value *spill(llvm::Value *v, const Type &t); // a stack copy (memory form) and its address
  llvm::Value *cachedPointer(const std::string &slotName, const std::function<llvm::Value *()> &make);
  llvm::Value *bytesConstant(const std::string &bytes, const std::string &prefix);
  llvm::Value *typeDescriptor(const Type &item); // the interned MahouTypeDesc* of an item type
  llvm::Value *stringObject(const std::string &utf8); // the interned string object of a literal

  // ---- statements (function.cpp)
  void block(const ir::Block &b);
  void stmt(const ir::Stmt &s);
  void assign(int var, const ir::Expr &value);
  void storeVar(int var, Value v); // the variable takes its own reference (the old one released)
  void forRange(const ir::Stmt &s);
  void whileLoop(const ir::Stmt &s);
  void ifStmt(const ir::Stmt &s);
  void returnStmt(const ir::Stmt &s);
  void print(const ir::Stmt &s);
  void printArray(llvm::Value *arr, const Type &t); // mahou_rt_print_array on a stack copy of the struct
  void printScalar(llvm::Value *v, const Type &t);  // numbers, bools, literals, None
  void printValue(llvm::Value *v, const Type &t);   // strings, optionals
  void startDeadBlock(); // after a terminator: continue emitting into an unreachable block
  void releaseLocals();  // drops the references every variable holds (the function's exits)

  // ---- generators as coroutines (generators.cpp)
  llvm::StructType *promiseType(const Type &yieldType); // {i32 state, item}
  unsigned promiseAlign(const Type &yieldType);
  llvm::Value *coroIntrinsic(llvm::Intrinsic::ID id, llvm::ArrayRef<llvm::Value *> args,
                             llvm::ArrayRef<llvm::Type *> overloads = {});
  void beginGenerator();                         // entry: coro.id, the frame, coro.begin
  void startGenerator(llvm::BasicBlock *body);   // the generator object, the initial suspend
  void endGenerator(bool raised);                // state done/raised, the final suspend
  void suspendGenerator(bool final, llvm::BasicBlock *resume);
  void yieldStmt(const ir::Stmt &s);
  Value genNext(const ir::Expr &e);
  llvm::Value *promise_ = nullptr, *coroId_ = nullptr, *coroHandle_ = nullptr;
  llvm::BasicBlock *genSuspendRet_ = nullptr, *genFree_ = nullptr, *genCleanup_ = nullptr, *genFinal_ = nullptr;

  // ---- outlined prange loops (parallel.cpp)
  void parallelFor(const ir::Stmt &s);
  Value parallelPartial(const ir::Expr &e);
  const ir::Function *helperFunction(const std::string &symbol) const;
  const std::vector<const ir::Function *> *helpers_ = nullptr; // the module's other functions
  llvm::Value *partialSlot_ = nullptr; // the chunk's partial results while combining them

  std::vector<bool> borrowed_; // parameters that borrow the caller's reference (borrowedParams)
  const ir::Function &fn_;
  llvm::Module &module_;
  CodegenOptions options_;
  TypeMapper types_;
  llvm::IRBuilder<> b_;
  llvm::Function *func_ = nullptr;
  llvm::Value *retPtr_ = nullptr;
  std::vector<llvm::AllocaInst *> slots_;
  llvm::BasicBlock *entryBlock_ = nullptr;
  llvm::BasicBlock *returnBlock_ = nullptr; // releases locals, returns 0
  llvm::BasicBlock *errorBlock_ = nullptr;  // releases locals, returns 1
  std::map<int64_t, llvm::Value *> errorSlots_; // SaveError/RestoreError slots, by id (language.cpp)
  struct LoopTargets {
    llvm::BasicBlock *breakTo, *continueTo;
  };
  std::vector<LoopTargets> loops_;
};

// Float to integer as NumPy converts on the host (float_to_int.cpp): x86-64's truncating
// conversions when `numpyX86`, else saturating.
llvm::Value *floatToInt(llvm::IRBuilder<> &b, llvm::Value *v, types::DType to, bool numpyX86);
bool hostIsX86();

// Which parameters of `fn` the body never assigns, so that they borrow the caller's
// reference (not for generators, not for parameters converted on entry) (function.cpp).
std::vector<bool> borrowedParams(const ir::Function &fn);

// Defines `i32 @symbol.entry(ptr %ret, ptr %argv)` calling `inner` (function.cpp).
void emitEntry(llvm::Module &module, TypeMapper &types, const ir::Function &fn, llvm::Function *inner,
               bool inlineInner);

// Declares (or finds) `i32 @symbol(ptr, args...)` of a compiled function in `module`.
llvm::Function *declareCompiled(llvm::Module &module, TypeMapper &types, const std::string &symbol,
                                const std::vector<Type> &argTypes);

// The ufunc/gufunc loops and C callback of `fn` (native_entries.cpp), calling `inner`.
void emitNativeEntries(llvm::Module &module, const ir::Function &fn, llvm::Function *inner,
                       const NativeEntries &entries, bool inlineInner);

// The Python entry of `fn` (python_entry.cpp), calling `inner` (never inlined there
// unless `inlineInner`).
void emitPythonEntry(llvm::Module &module, const ir::Function &fn, llvm::Function *inner, const PythonAbi &abi,
                     bool inlineInner);

} // namespace mahou::codegen
