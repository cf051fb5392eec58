// Helpers of the array area shared by its typers (array_members.cpp, array_functions.cpp,
// array_library.cpp, array_construction.cpp, records.cpp).
#pragma once

#include "sema/typing.h"

namespace mahou::sema {

// What np.sort and its relatives make (ir::ExprOp::ArraySort's sub).
enum class SortKind : int { Copy = 0, Indices = 1, InPlace = 2, Unique = 3, Partition = 4 }; // Partition: args[1] kth
// np.concatenate and its relatives (numpy.def).
enum class JoinKind : int { Concatenate, Stack, VStack, HStack, DStack, ColumnStack };

// np.shape, np.size, np.ndim (numpy.def): which of a.shape, a.size, a.ndim they read.
enum class ShapeQuery : int { Shape, Size, Ndim };

// np.array and its relatives (numpy.def): how the result relates to an array argument.
enum class ArrayConstruction : int { Array, AsArray, Contiguous, Fortran };

// A (nested) tuple of numbers as an array, for stores (a[:2] = (x, y)).
ExprPtr tupleAsArray(Typing &t, ExprPtr tuple, Loc loc);
// A (nested) list of numbers as a new array (np.array(xs), stores of a list: a[:2] = [x, y]).
ExprPtr arrayFromList(Typing &t, ExprPtr list, std::optional<DType> dtype, const std::string &fname, Loc loc);

// a.T: the same array, its axes reversed.
ExprPtr transposeArray(ExprPtr a, Loc loc);
// A C-contiguous copy of array `a` converted to `dtype` (a.astype(dtype), np.float32(a)).
ExprPtr copyOf(ExprPtr a, types::DType dtype, Loc loc);
// a.reshape(dims): a view of a contiguous array, else of a contiguous copy.
ExprPtr reshapeArray(ExprPtr a, std::vector<ExprPtr> dims, Loc loc);
// a.shape / a.strides as a tuple of int64 (constants for a frozen global array).
ExprPtr arrayShapeTuple(Typing &t, ExprPtr a, bool strides, Loc loc);
// a.ravel(): a view of a contiguous array, a copy of another (always a copy with `copy`).
ExprPtr ravelArray(Typing &t, ExprPtr a, bool copy, Loc loc, const std::string &fname);
// The sorted copy, indices, in-place sort or unique values of a 1-D array.
ExprPtr sortArray(Typing &t, SortKind kind, ExprPtr arr, Loc loc, const std::string &fname);
// kind= of sort/argsort: NumPy's algorithm names (mahou's sort is stable for all).
void checkSortKind(Typing &t, const ast::Call &e, const std::string &fname);
// The axis argument (at `position` or axis=): a constant integer, or none.
std::optional<int64_t> axisArgument(Typing &t, const ast::Call &e, size_t position);
// A reduction of `arr` with the call's axis (constant or not), dtype= (sum/prod) and ddof=
// (var/std) arguments (reduce_arguments.cpp).
ExprPtr reduceWithArguments(Typing &t, ir::ReduceKind kind, ExprPtr arr, const ast::Call &e, size_t axisPosition,
                            const std::string &fname, Loc loc);

// ---- NumPy records and arrays of them (records.cpp)
int recordFieldIndex(Typing &t, const Type &rec, const ast::Expr &index, Loc loc); // -1: index unknown yet
void recordSet(Typing &t, ExprPtr rec, int field, ExprPtr value, Loc loc, ir::Block &out);
ExprPtr recordArrayElement(Typing &t, ExprPtr arr, ExprPtr index, Loc loc);        // a[i] of a 1-D array (a loop's item)
ExprPtr recordSubscript(Typing &t, ExprPtr base, const ast::Expr &index, Loc loc); // r['x'], a[i], a['x'], a[1:]
void storeRecordItem(Typing &t, ExprPtr base, const ast::Expr &index, ExprPtr value, Loc loc, ir::Block &out);
void storeRecordField(Typing &t, ExprPtr rec, const std::string &attr, ExprPtr value, Loc loc, ir::Block &out);
void augAssignRecordField(Typing &t, ExprPtr rec, int field, const ast::AugAssign &s, ir::Block &out);
void refuseRecordOperand(const Typing &t, const ExprPtr &e, Loc loc, const std::string &what);
// Every use of a record or an array of records in the typed body is one that handles
// them (fields, views, shape, passing them on); anything else is UnsupportedError.
void checkRecordUses(const Typing &t, const ir::Block &body);

// ---- NumPy character sequences (charseq.cpp): cs is a CharSeq (record.item of an S/U
// array, record.getattr of an S/U field); reading gives a str (U) or a bytes value (S),
// storing takes one.
ExprPtr charSeqValue(Typing &t, ExprPtr cs, Loc loc);
void storeCharSeq(Typing &t, ExprPtr cs, ExprPtr value, Loc loc, ir::Block &out);
// a[1:3] = 'x': a str stored into every item of a view of an array of strings.
void fillCharSeqs(Typing &t, ExprPtr view, ExprPtr value, Loc loc, ir::Block &out);
// a[i] += 'x' of an array of strings (the array and the indices evaluated once).
void augAssignCharSeqItem(Typing &t, ExprPtr base, const ast::AugAssign &s, const ast::Expr &index, ir::Block &out);

// bytes, bytearray, memoryview and array.array values (buffers.cpp): every use of one in
// the typed body is one Python's object and an array of its items agree on (indexing,
// slicing, iteration, len, passing it on), else UnsupportedError; and a builtin or np
// function given one as a variable that would read the Python object differently is refused.
void checkBufferUses(const Typing &t, const ir::Block &body);
void refuseBufferArguments(Typing &t, Receiver receiver, const Entry &entry, const ast::Call &call);
// An item read from a buffer as the Python number it is (int64, uint64, float64, complex128
// or bool), so that arithmetic on it is Python's and not the narrow dtype's; else `item`.
ExprPtr bufferItem(const Type &buffer, ExprPtr item);
// The value stored into an item of a buffer as Python stores it: an integer item takes an
// integer (a float is a TypingError) in its range (else Python's ValueError or, for an
// array.array, OverflowError at run time); else `value`.
ExprPtr bufferStoredValue(Typing &t, const Type &buffer, ExprPtr value, Loc loc);
// The value of a slice store `v[1:3] = x`: a buffer x as the array of its items; into a
// buffer v, x must be a buffer or array of the same items (Python refuses a number).
ExprPtr bufferSliceValue(Typing &t, const Type &view, ExprPtr value, Loc loc);

// Python's operators on bytes values (bytes_ops.cpp); null (operands untouched) when neither
// operand is one.
bool isBytesValue(const Type &t);
ExprPtr bytesBinary(Typing &t, ast::BinOpKind op, ExprPtr &lhs, ExprPtr &rhs, Loc loc);
ExprPtr bytesCompare(Typing &t, ast::CmpOpKind op, ExprPtr &lhs, ExprPtr &rhs, Loc loc);
// `needle in haystack` of a bytes haystack (an integer or a bytes needle), its truth, hash.
ExprPtr bytesContains(Typing &t, ExprPtr needle, ExprPtr haystack, Loc loc);
ExprPtr bytesTruth(Typing &t, ExprPtr e);
ExprPtr bytesHash(Typing &t, ExprPtr e, Loc loc);

// C pointers (pointers.cpp): p[i] reads and writes through a 1-D view of the pointer;
// carray(p, shape[, dtype]) / farray(...) view the memory as an array.
ExprPtr pointerView(Typing &t, ExprPtr p, Loc loc);
// A call through a C function pointer (a ctypes or cffi function, a @cfunc).
ExprPtr nativeCall(Typing &t, uint64_t address, const std::string &signature, const ast::Call &e);
// A call of a cuda.declare_device function `symbol` (of that signature text) from a kernel.
ExprPtr foreignDeviceCall(Typing &t, const std::string &symbol, const std::string &signature, const ast::Call &e);
// NumPy's atleast_1d/2d/3d (least 1, 2, 3) of an array as a view, or column_stack's column
// (least 4: a 0-d or 1-D array as one column of shape (n, 1)) (library_primitives.cpp).
ExprPtr atleastView(Typing &t, ExprPtr arr, int least, Loc loc);
// The record of a structured dtype given as a dtype argument (np.empty(n, dtype=rec));
// nullopt: another dtype (records.cpp).
std::optional<Type> recordDtype(Typing &t, const ast::Expr &e);
// a.flat[i] reads and stores (flat_index.cpp).
ExprPtr flatItem(Typing &t, ExprPtr base, const ast::Expr &index, Loc loc);
void storeFlatItem(Typing &t, ExprPtr base, const ast::Expr &index, ExprPtr value, Loc loc, ir::Block &out);

} // namespace mahou::sema
