// Shared declarations of the _core binding: the Dispatcher object and its
// overloads, argument keys, boxing, compilation and error translation.
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include "mahou/backend.h"
#include "mahou/compiler.h"
#include "mahou/python_abi.h"
#include "mahou/runtime.h"
#include "mahou/types.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

struct _PyArray_Descr; // NumPy's PyArray_Descr (numpy_api.h)

namespace mahou::binding {

// The compiler back end (mahou._backend, imported on the first call: it loads libLLVM).
// Throws nb::python_error when it cannot be imported. Needs the GIL.
const backend::Table &backendTable();
// Wrapping a Python function (function_objects.cpp): its positional parameters (and,
// when `defaults` is given, a new reference to __defaults__ or null; when `kwonly` is
// given, its keyword-only parameters' count, their names after the positional ones', and
// a new reference to __kwdefaults__ or null); a new dict with __name__, __qualname__,
// __module__, __doc__ and __wrapped__ as functools.update_wrapper.
bool readFunctionParameters(PyObject *func, const char *owner, int &count, std::vector<std::string> &names,
                            PyObject **defaults = nullptr, int *kwonly = nullptr, PyObject **kwdefaults = nullptr);
bool copyWrappedAttributes(PyObject *func, PyObject **dict);
// Compile times (ms) per stage as the `stats` attributes show them.
nanobind::dict stageTimes(const StageTimes &t);
// inspect_*(signature=None): the text of one signature (parsed with `parse`), or a dict
// {signature: text} over the overloads' argument types.
using OverloadText = std::function<bool(const std::vector<types::Type> &args, std::string &out)>;
PyObject *inspectOverloads(PyObject *sig, const std::vector<std::vector<types::Type>> &overloads,
                           bool (*parse)(PyObject *, types::Signature &), const OverloadText &text);

// Starts loading the back end's shared library (libLLVM with it) on a background
// thread, so that the first compile does not wait for it.
void preloadBackend(const std::string &path);
// Waits for that load to end (before exit and fork: mahou/__init__.py registers it).
void waitForPreload();
// The back end's LLVM version and JIT target as a dict (mahou -s; loads the back end).
nanobind::dict backendInfo();


// ------------------------------------------------------------------ argument keys
// A type is encoded as a short sequence of 64-bit words (tag in the top byte);
// equal sequences mean equal types. The hit path builds the key of the actual
// arguments in a fixed stack buffer and compares it with each overload's.
constexpr int kMaxKeyWords = 32;
constexpr int kMaxFastArgs = 16;

struct KeyBuffer {
  uint64_t words[kMaxKeyWords];
  int size = 0;
};

// Keys of Python int and float arguments (the hit path checks these first).
extern const uint64_t kInt64Key, kFloat64Key;
// Appends the key of `obj`'s type. Returns false (no Python error set) when the
// object needs the slow path (unknown type, subclass, key too long).
bool appendObjectKey(PyObject *obj, KeyBuffer &key);
void appendTypeKey(const types::Type &t, std::vector<uint64_t> &key);
// The key word of an exact ndarray (what appendObjectKey pushes), or 0 when it needs
// the slow path (unsupported dtype, byte-swapped).
uint64_t arrayKeyWord(PyObject *obj);

// Whether `obj` is an ndarray that compiled code may use as a value of the array type
// t: its dimensions, its dtype (or record layout) in native byte order, a layout that
// satisfies t's (C or F contiguous when t says so) and writeable unless t is read-only.
bool arrayFitsType(PyObject *obj, const types::Type &t);

// The full type of a Python argument, or nullopt with *why describing the
// object ("list", "array(float16)") when it cannot be typed.
std::optional<types::Type> typeOfObject(PyObject *obj, std::string *why);
// An enum member's type from mahou._resolver.enum_parts' tuple (the class, its name, the
// members' names and values, this member's index, an IntEnum, float values).
types::Type enumTypeOfParts(nanobind::tuple parts);

// A tuple subclass with `_fields` (collections.namedtuple, typing.NamedTuple) of `size`
// fields (any number when size < 0): its namedtuple type with no items yet; else nullopt.
// The class is kept alive from then on (types hold its address). named_tuples.cpp.
std::optional<types::Type> namedTupleClass(PyObject *cls, Py_ssize_t size);
// An instance of t's class made from `items` (a tuple; its reference is taken).
PyObject *boxNamedTuple(const types::Type &t, PyObject *items);
// Slice objects (named_tuples.cpp): the type of a slice, its key word's mask of None
// bounds (-1: not all integers or None), unboxing into the slice type's layout.
std::optional<types::Type> typeOfSlice(PyObject *obj, std::string *why);
int sliceKeyMask(PyObject *obj);
bool unboxSlice(PyObject *obj, const types::Type &t, char *dst);
bool unboxRange(PyObject *obj, const types::Type &t, char *dst); // range_objects.cpp
PyObject *boxRange(PyObject *items);                             // steals the (start, stop, step) tuple

// NumPy records (records.cpp): the record type of a structured dtype (nullopt with *why
// when a field is not a scalar in native byte order), the process's number for a record
// layout (dispatcher keys), the dtype of a record type (borrowed), unboxing an np.void
// as a pointer to its bytes, boxing a record as a copy.
// The item type of a structured dtype (a Record) or of an S<n>/U<n> dtype (a CharSeq): an
// array of either is a record array (Type::recordArray); isItemDescr says which dtypes.
std::optional<types::Type> recordTypeOfDescr(::_PyArray_Descr *d, std::string *why);
bool isItemDescr(::_PyArray_Descr *d);
std::optional<types::Type> recordTypeOfVoid(PyObject *obj, std::string *why); // an np.void argument
uint64_t recordLayoutId(const types::Type &rec);
uint64_t recordLayoutIdOfVoid(PyObject *obj); // recordLayoutId of its record type; 0 when it has none
::_PyArray_Descr *recordDescr(const types::Type &rec);
bool unboxRecord(PyObject *obj, const types::Type &t, char *dst);
// Numba's width subtyping of records: `narrow`'s fields are the first fields of `wide`
// (same names, types and byte offsets, in order), so code compiled for `narrow` reads a
// `wide` record correctly (records.cpp).
bool isRecordWidthSubtype(const types::Type &wide, const types::Type &narrow);
PyObject *boxRecord(const types::Type &t, const char *src);

// bytes, bytearray, memoryview and array.array arguments (buffers.cpp): which of them an
// object is (exact types), its array type read through the buffer protocol (nullopt with
// *why when its format or layout is one compiled code cannot read), and its unboxing: the
// Py_buffer is held by a meminfo (the call's reference, released after it; compiled code
// keeping the array keeps the buffer), no copy. False with a TypeError when obj does not fit t.
types::BufferKind bufferKindOf(PyObject *obj);
std::optional<types::Type> typeOfBuffer(PyObject *obj, std::string *why);
bool unboxBuffer(PyObject *obj, const types::Type &t, char *dst);

// DType number of a NumPy scalar object (numpy.float32(1) → Float32), or -1.
int dtypeOfNumpyScalar(PyObject *obj);
// DType number of a native-byte-order descriptor (datetime64 / timedelta64 with their unit), or -1.
int dtypeOfDescrNum(::_PyArray_Descr *descr);
// The NumPy descriptor of a scalar dtype (new reference; datetime64[D] with its unit), or null.
::_PyArray_Descr *descrOfDType(types::DType d);

// mahou.types objects for a core type / a tuple of argument types (new references).
PyObject *toPyType(const types::Type &t);
PyObject *toPySignature(const std::vector<types::Type> &args);
std::string typeString(const types::Type &t);

// ------------------------------------------------------------------ boxing
// How one argument is unboxed on the hit path.
enum class ArgOp : uint8_t { Int64, Float64, Bool, Array, Generic };
enum class RetOp : uint8_t { Int64, Float64, Bool, None, Generic };

// Writes the native form of `obj` (of type `t`, after conversion if needed)
// into dst. Returns false with a Python error set. Checked: an array must fit t
// (arrayFitsType), whatever the caller knows.
bool unboxValue(PyObject *obj, const types::Type &t, char *dst);
// An ndarray's native form without checks: only for an argument whose type key the
// dispatcher has matched to the overload's (the hit path).
bool unboxArray(PyObject *obj, int ndim, char *dst);
// Builds the Python object for the native value at src, consuming the array
// references it holds (also on failure). Returns a new reference or null.
PyObject *boxValue(const types::Type &t, char *src);
PyObject *boxTupleAt(const types::Type &t, char *src, const std::vector<size_t> &offsets);
// How a container boxes its tuple items, worked out once for all of them: the items'
// offsets, and their dtypes when every item is a plain number (no datetime, not a named
// tuple) so that each tuple boxes by a loop over dtypes with nothing to release on failure.
struct TupleBoxing {
  std::vector<size_t> offsets;
  std::vector<types::DType> plain; // empty: box item by item through boxValue
};
TupleBoxing tupleBoxing(const types::Type &t);
PyObject *boxTupleWith(const types::Type &t, char *src, const TupleBoxing &how);
// Drops the array references held by a native value that will not be boxed.
void releaseValue(const types::Type &t, char *src);
ArgOp argOpFor(const types::Type &t);
RetOp retOpFor(const types::Type &t);

// ------------------------------------------------------------------ dispatcher
struct Overload {
  std::vector<uint64_t> key; // appendTypeKey of every argument, in order
  CompiledFunction fn;
  std::optional<types::Type> declaredRet; // eager signature's return type, if it differs
  std::vector<size_t> argOffsets;
  std::vector<ArgOp> argOps;
  size_t argBytes = 0;
  size_t retBytes = 0;
  RetOp retOp = RetOp::Generic;
  // Nonzero when every argument is an int64, a float64 or an array of at most 4
  // dimensions (2 bits each: 1 int64, 2 float64, 3 array; at most kMaxScalarArgs),
  // and the result is int64, float64, bool or None: such overloads are also found by
  // the fast path of the call, which compares this code and the arrays' key words.
  uint32_t scalarCode = 0;
  size_t nargs = 0;            // number of arguments (fn.args.size())
  bool releasesArgs = false;   // arguments unbox into objects (lists, str): written back and released after the call
  uint64_t arrayWords[8] = {}; // key word of each array argument (0 for scalars)
  // The overload's Python entry (compiler.h CompiledFunction::pythonEntry): installed
  // as the dispatcher's vectorcall while a call site passes these types, or null.
  vectorcallfunc pythonEntry = nullptr;
  bool shipped = false; // machine code that came in a pickle, linked without compiling
};

constexpr int kMaxScalarArgs = 8;
constexpr uint32_t kIntCode = 1, kFloatCode = 2, kArrayCode = 3;
// Code of argument i (scalarCode's layout).
constexpr uint32_t scalarArgCode(int i, uint32_t kind) { return kind << (2 * i); }

// A key that selects an overload: its own key, or (for dispatchers with compiling
// disabled) the key of argument types that convert to it.
struct OverloadEntry {
  std::vector<uint64_t> key;
  Overload *overload;
};

struct DispatcherState {
  PyObject *pyFunc = nullptr;   // owned
  PyObject *resolver = nullptr; // owned
  PyObject *defaults = nullptr; // owned tuple or null
  PyObject *kwdefaults = nullptr; // owned dict (the keyword-only parameters' defaults) or null
  std::string source, filename, name;
  int firstLine = 1;
  CompileOptions options;
  bool nogil = false;
  bool cache = false; // cache=True: overloads are loaded from / stored to the on-disk cache
  bool canCompile = true;
  int nparams = 0;     // named (positional-or-keyword) parameters
  int nkwonly = 0;     // keyword-only parameters (after them in paramNames and in the arguments)
  bool varargs = false; // the function takes *args (packed into one tuple after them)
  std::vector<std::string> paramNames; // nparams positional ones, then nkwonly keyword-only ones
  std::vector<std::unique_ptr<Overload>> overloads; // in compilation order
  std::vector<OverloadEntry> entries;
  std::vector<std::pair<uint32_t, Overload *>> scalarEntries; // overloads with a scalarCode
  std::vector<std::vector<types::Type>> compiling; // signatures being compiled now
  std::vector<std::unique_ptr<Overload>> retired;  // replaced by recompile(): their code may still run
  std::vector<PyObject *> keepAlive;               // owned: callees and function arguments
};

struct DispatcherObject {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  PyObject *dict;
  PyObject *weakrefs;
  DispatcherState *state;
  const Overload *lastFast; // the overload the fast path called last (owned by state), or null
};

// Imports NumPy's C API on first use (module.cpp). False with a Python error set.
bool ensureNumpyApi();
// print(a) in compiled code (array_print.cpp): NumPy's str() of the memory, wrapped as
// a read-only ndarray without a copy. The runtime's ArrayFormatter; takes the GIL.
bool formatArrayWithNumpy(const void *data, int ndim, const int64_t *shape, const int64_t *strides, int dtype,
                          std::string *out);

PyTypeObject *dispatcherType(); // null until registerDispatcher ran
bool isDispatcher(PyObject *obj);
void registerDispatcher(nanobind::module_ &m);
// Dispatcher methods other than the call (dispatcher_methods.cpp).
extern PyMethodDef dispatcherMethods[];
extern PyGetSetDef dispatcherGetSets[];

// Calls an overload with positional arguments already matched to its types.
PyObject *invokeOverload(DispatcherState &st, const Overload &ov, PyObject *const *args);
Overload *findOverload(DispatcherState &st, const std::vector<uint64_t> &key);
// Cost of passing a value of type `from` to a parameter of type `to` (-1: impossible);
// eager signatures of @njit functions and CUDA kernels pick the cheapest (compile.cpp).
int conversionCost(const types::Type &from, const types::Type &to);
// The overload of `st` the arguments convert to most cheaply (exact first), or null.
Overload *findConvertible(DispatcherState &st, const std::vector<types::Type> &args);
// Finds or compiles the overload for these argument types; throws C++ errors.
// declaredRet: an eager signature's return type (a scalar one is compiled in).
Overload &compileOverload(DispatcherObject *self, const std::vector<types::Type> &args,
                          const std::optional<types::Type> &declaredRet = std::nullopt);
// Adds a compiled (or shipped) overload under its argument key.
Overload &addOverload(DispatcherState &st, std::vector<uint64_t> key, CompiledFunction fn);
// Pickling (shipped_code.cpp): the machine code of the overloads as bytes, keyed by
// the code generator, LLVM, the host CPU and the Python ABI; and linking such bytes
// into a dispatcher (the overloads whose key and dependencies fit; the others are
// compiled when called).
PyObject *dispatcherExportCode(PyObject *self, PyObject *);
PyObject *dispatcherImportCode(PyObject *self, PyObject *payload);
// A signature given as text ("f8(f8[:])", "(int64,)"), a mahou.types Signature, or a
// tuple of types / type strings (dispatcher_methods.cpp). False with a TypingError set.
bool parseSignatureArg(PyObject *sig, types::Signature &out);
// Ahead-of-time compilation (aot_compile.cpp): object files of an overload and its callees.
PyObject *dispatcherCompileObject(PyObject *self, PyObject *argTypes);
// What a compile environment needs from the object it compiles for (a Dispatcher,
// a CUDA kernel or device function): its resolver slot (cleared by tp_clear), its
// name, the list holding the objects its compiled code refers to, and the target.
struct EnvironmentOwner {
  PyObject *const *resolver;
  const std::string *name;
  std::vector<PyObject *> *keepAlive;
  bool gpu = false; // compiling for the CUDA target: callees come from calleeSource
  bool parallel = false; // the owner is compiled with parallel=True (stencils it calls run on threads)
  uint64_t self = 0; // the Dispatcher compiled (its handle), or 0
  // CUDA: where the files of external code the compiled code calls are collected (a
  // kernel's link= files gain those of the cuda.declare_device functions and device
  // functions it calls). Null: not collected.
  std::vector<std::string> *linkFiles = nullptr;
};
// Appends `path` to `files` unless it is there (cuda_kernel.cpp).
void addLinkFile(std::vector<std::string> &files, const std::string &path);
// The compile environment of one dispatcher or kernel (environment.cpp).
std::unique_ptr<CompileEnvironment> makeEnvironment(const EnvironmentOwner &owner);
std::unique_ptr<CompileEnvironment> makeEnvironment(DispatcherObject *self);
// Holds a reference to obj for the owner's lifetime (once per object).
void keepAliveIn(std::vector<PyObject *> &kept, PyObject *obj);
// A `with objmode(...)` block of the function `resolver` resolves for: its Python
// function (mahou/_objmode.py) held, as long as `kept` lives, by the site whose address
// is the handle (objmode_binding.cpp).
std::optional<ObjModeBlock> prepareObjModeBlock(PyObject *resolver, std::vector<PyObject *> &kept,
                                                const ObjModeRequest &request);
void registerObjMode(); // installs the runtime's hooks that run the blocks
// The Python error being raised, kept whole as the pending runtime error of compiled
// code (kind: its nearest builtin class), to be raised again at the call's boundary (errors.cpp).
void setForeignRuntimeError();
void releaseForeignRuntimeError(void *exception);
void keepAlive(DispatcherState &st, PyObject *obj);

// The source of a function the GPU target compiles from text: a CPU Dispatcher or
// a CUDA device function (pointers into the object's state, valid while it lives).
struct FunctionSource {
  const std::string *source, *filename, *name;
  int firstLine;
  EnvironmentOwner owner;
  std::vector<types::Signature> signatures; // fixed ones (CalleeSource::signatures)
};
std::optional<FunctionSource> functionSource(PyObject *obj);

// ------------------------------------------------------------------ CUDA (cuda_*.cpp)
bool isCudaKernel(PyObject *obj);         // a @cuda.jit kernel or device function
bool isCudaDeviceFunction(PyObject *obj); // @cuda.jit(device=True)
std::optional<FunctionSource> cudaDeviceFunctionSource(PyObject *obj);
void registerCuda(nanobind::module_ &m);
void registerParallel(nanobind::module_ &m); // parallel_binding.cpp: thread control
// The Python-call slow path: keywords, defaults, typing, compile, conversions.
PyObject *slowCall(DispatcherObject *self, PyObject *const *args, size_t nargs, PyObject *kwnames);
// The dispatcher's general call (its vectorcall until an overload's Python entry takes
// over a call site's types; then where that entry sends every call it does not take).
PyObject *dispatcherCall(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames);
// Makes `ov` (an overload of the fast path) the one tried first, and its Python entry
// the dispatcher's call where it has one.
void rememberFastOverload(DispatcherObject *self, const Overload *ov);
// The running interpreter's layouts and the symbols compiled Python entries use
// (python_entry.cpp); given to the JIT with the runtime's symbols.
const PythonAbi &pythonAbi();
std::vector<runtime::RuntimeSymbol> pythonEntrySymbols();

// ------------------------------------------------------------------ ufuncs (ufunc_objects.cpp)
// Reads the native-entry options of a dispatcher (ufunc_out, gufunc_core_dims, cfunc_ret).
bool readNativeEntryOptions(NativeEntries &native, PyObject *options);
std::vector<runtime::RuntimeSymbol> nativeEntrySymbols(); // the failure handlers entries call
void registerUfuncObjects(nanobind::module_ &m);
// Objects compiled code calls that are not Dispatchers: @vectorize ufuncs (their
// `_mahou_ufunc_info()`) and stencils (`_mahou_specialize(types, parallel)` → a Dispatcher;
// parallel: the caller has parallel=True).
bool isCompiledCallable(PyObject *obj);
// The ufunc's loops, or nullopt when `obj` is not a ufunc; its scalar Dispatcher is
// kept alive in `keep`. Throws PendingPythonError.
std::optional<UfuncCallee> ufuncCallee(PyObject *obj, std::vector<PyObject *> &keep);
// The Dispatcher that implements `obj` for these argument types (borrowed: kept in `keep`),
// or `obj` itself when it is not a specialising callable. Throws PendingPythonError.
PyObject *specializeCallable(PyObject *obj, const std::vector<types::Type> &args, std::vector<PyObject *> &keep,
                              bool parallel);

// ------------------------------------------------------------------ errors
// A Python exception raised while the core was running (the resolver failed);
// carried through the C++ compiler and restored at the binding boundary.
struct PendingPythonError {
  std::shared_ptr<nanobind::python_error> error;
};
[[noreturn]] void throwPendingPythonError();
// Sets the Python error for the C++ exception being handled; call in a catch (...).
void setPythonErrorFromCurrentException();
// Runs f (which may throw compiler errors); returns false with a Python error set.
template <class F> bool translateErrors(F &&f) {
  try {
    f();
    return true;
  } catch (...) {
    setPythonErrorFromCurrentException();
    return false;
  }
}
// The Python exception for status 1 of a compiled function (takes the runtime error).
void raiseRuntimeError();
PyObject *mahouErrorClass(const char *name); // mahou.errors.<name>, borrowed
PyObject *builtinExceptionClass(types::ExcKind kind); // borrowed
// user_exceptions.cpp: a subclass of Exception as compiled code knows it (its ExcKind
// value and its qualified name; a builtin of exceptions.def is itself), registered on
// first use; nullopt for other objects. And the class of a user value (borrowed; null).
std::optional<std::pair<types::ExcKind, std::string>> registerUserException(PyObject *cls);
PyObject *userExceptionClass(int32_t kind);
void raiseMahouError(const char *className, const std::string &message);

} // namespace mahou::binding
