// The compiler's entry points: source of one function + argument types → native
// code (or a dump of any stage). Used by the Python binding and by mahouc.
#pragma once

#include "mahou/diagnostics.h"
#include "mahou/native_entries.h"
#include "mahou/types.h"

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mahou {

struct PythonAbi; // python_abi.h

// What a global name of the function's module refers to, as classified by the
// caller (the binding classifies Python objects; mahouc reads the file's imports).
struct GlobalValue {
  enum class Kind {
    Missing,     // not defined anywhere: a NameError at compile time (TypingError)
    Int, Float, Complex, Bool, Str, None, Tuple, // constants captured at compile time
    Array,       // a NumPy array, frozen at compile time (read-only, as Numba does); b: a bytes
                 // object (its uint8 items, typed as a bytes value)
    Module,      // module: math, cmath, numpy, numpy.random, mahou, mahou.cuda, or any other (Python)
    ModuleAttr,  // a function or constant of such a module: `from math import sqrt`
    Function,    // another compiled function (dispatcher): handle + name
    Builtin,     // a Python builtin: range, len, abs, min, max, print, ...
    DType,       // np.float32, np.int64, ...: the dtype class itself
    ExcClass,    // a builtin exception class
    JitClass,    // a @jitclass class: handle (CompileEnvironment::jitClass) + name
    Unsupported, // anything else: description says what (e.g. "list object")
    ExternalFunction, // a C function pointer (ctypes, cffi, @cfunc): handle = address, s = "float64(float64)"
    DeviceFunctionDecl, // cuda.declare_device(name, sig): s = its signature, fields[0] = its symbol (linked
                        // from the kernel's link= files or the declaration's own)
    Overloaded,  // an object with mahou.extending.overload implementations: handle + name;
                 // elems[0] is what it is otherwise (used when no implementation applies)
    NamedTupleClass, // a collections.namedtuple / typing.NamedTuple class: handle + name; elems:
                     // one Str per field (its name), holding its default value in elems[0] if any
    ObjMode,     // mahou.objmode (numba.objmode): the context manager of `with objmode(...)` blocks
    Datetime,    // a numpy.datetime64 / timedelta64 constant: s its dtype's name ("datetime64[D]"), i its count
    EnumMember,  // a member of an enum.Enum / IntEnum class: handle (the class) + s (its name);
                 // fields: the members' names, elems: their values (Int or Float), i: this one's
                 // index, b: an IntEnum
  };
  Kind kind = Kind::Missing;
  int64_t i = 0;
  double f = 0, imag = 0;
  bool b = false;
  std::string s;                  // Str value, Builtin name, ModuleAttr attr, Function/Overloaded name,
                                  // Python module name, Unsupported description
  std::vector<GlobalValue> elems; // Tuple
  std::vector<std::string> fields; // Tuple: a namedtuple constant's field names (handle: its class, s: its name)
  types::ModuleId module{};       // Module, ModuleAttr
  uint64_t handle = 0;            // Function, Overloaded, JitClass, NamedTupleClass; Tuple: a namedtuple's class
  types::DType dtype{};           // DType, Array
  std::vector<int64_t> shape;     // Array: its extents
  std::string bytes;              // Array: its elements in C order
  types::ExcKind exc{};           // ExcClass
};

// The parameters of a compiled function, for calls with keyword arguments and
// defaults: positional-or-keyword names in order, then the `nkwonly` keyword-only ones,
// each one's default value (a constant, nullopt when it has none) and whether it takes
// *args (passed packed into one tuple after the named parameters).
struct CalleeParams {
  std::vector<std::string> names;
  std::vector<std::optional<GlobalValue>> defaults;
  bool varargs = false;
  size_t nkwonly = 0;
};

// A compiled overload of another function, as seen by its callers.
struct CalleeSignature {
  std::string symbol; // LLVM name of its internal function
  types::Type ret;
  // The overload's parameter types when the call's arguments convert to them (a function
  // compiled from explicit signatures compiles nothing new, as in Numba): the caller
  // converts each argument. Empty: the arguments' own types.
  std::vector<types::Type> params;
  std::string noMatch; // set: no fixed signature takes these arguments (sema reports it at the call)
};

// A ufunc made by @vectorize as compiled code that calls it sees it: elementwise on
// arrays (broadcasting, as NumPy), a plain call on scalars.
struct UfuncCallee {
  uint64_t scalarHandle = 0; // the Dispatcher of its scalar function (compileCallee)
  int nin = 0;
  // Its loops in NumPy's order of preference: the input dtypes, then the output dtype.
  std::vector<std::vector<types::DType>> loops;
  bool dynamic = false; // argument dtypes no loop takes get a loop of their own
};

// The source of a function the GPU target compiles into the same module as its
// caller (a @cuda.jit(device=True) function): its text and its own globals.
class CompileEnvironment;
struct CalleeSource {
  SourceFile file;
  std::string name;
  CompileEnvironment *env; // resolves the callee's globals; owned by the caller's environment
  // Its explicit signatures (a device function's, or an @njit function's whose compiling
  // is disabled): a call converts its arguments to the cheapest and gets its return
  // type, as numba-cuda. Empty: compiled for the call's argument types.
  std::vector<types::Signature> signatures;
};

// A question to the user extensions (mahou.extending): which implementation of a
// function (overload), a method (overload_method) or an attribute (overload_attribute)
// applies to these argument types.
struct ExtensionRequest {
  enum class Kind { Function, Method, Attribute } kind = Kind::Function;
  uint64_t handle = 0;              // Function: the Overloaded global's handle
  std::string name;                 // the function's or the member's name
  std::vector<types::Type> args;    // Method and Attribute: the receiver first
  std::vector<std::string> kwnames; // the last kwnames.size() arguments were passed by keyword
  // For each argument, its value when known at compile time (an Int, Bool, Float or Str),
  // offered to typing functions as a literal type when they refuse the plain one.
  std::vector<std::optional<GlobalValue>> literals;
};
struct ExtensionResult {
  std::optional<GlobalValue> impl; // a Function: the compiled function to call with the arguments
  std::string error;               // set when a typing function failed: what it raised
  bool declined = false;           // implementations exist but none accepts these types
};

struct JitClassInfo; // jitclass.h

// A `with objmode(...)` block to be run by the interpreter (ast.h ObjMode): the line of
// its `with`, the names of its outputs (objmode's keywords) and the variables it gets
// as inputs with their types. The environment reads the block from the function's
// source, evaluates the outputs' declared types and makes the Python function that runs
// it; `handle` is what compiled code passes to the runtime (mahou_rt_objmode_call).
struct ObjModeRequest {
  int line = 0;
  std::vector<std::string> outputs;
  std::vector<std::pair<std::string, types::Type>> inputs;
};
struct ObjModeBlock {
  std::vector<types::Type> outputs; // the declared types, in the order of the request's names
  uint64_t handle = 0;
  std::string error; // set when the block cannot run (an undeclared output, a bad type...)
};

// Everything outside the function that the compiler asks about.
class CompileEnvironment {
public:
  virtual ~CompileEnvironment() = default;
  virtual GlobalValue resolveGlobal(const std::string &name) = 0;
  // Compiles (or finds) the overload of compiled function `handle` for these
  // argument types. Errors in the callee propagate as UserError.
  virtual CalleeSignature compileCallee(uint64_t handle, const std::vector<types::Type> &args) = 0;
  // GPU target: the source of device function `handle` (compiled into the kernel's
  // module), or nullopt when `handle` is not a device function.
  virtual std::optional<CalleeSource> calleeSource(uint64_t handle) { (void)handle; return std::nullopt; }
  // CPU target: the source of @njit function `handle`, to be compiled into the caller's
  // module when an argument is an inner function (sema/closures.cpp); nullopt: none.
  virtual std::optional<CalleeSource> hostCalleeSource(uint64_t handle) { (void)handle; return std::nullopt; }
  // The parameter names and default values of compiled function `handle`, or
  // nullopt when unknown (calls then pass positional arguments only).
  virtual std::optional<CalleeParams> calleeParams(uint64_t handle) { (void)handle; return std::nullopt; }
  // The loops of `handle` when it is a @vectorize ufunc (calls become elementwise), or nullopt.
  virtual std::optional<UfuncCallee> calleeUfunc(uint64_t handle) { (void)handle; return std::nullopt; }
  // The compiled function (dispatcher) this environment compiles, or 0: a call of it
  // with the same argument types is self-recursion.
  virtual uint64_t selfHandle() { return 0; }
  // The implementation a user extension gives for this call, method or attribute;
  // neither impl nor error when no extension applies.
  virtual ExtensionResult resolveExtension(const ExtensionRequest &request) { (void)request; return {}; }
  // The running Python's layouts, when compiled functions are called from Python: each
  // fitting overload then also gets a Python entry (codegen.h). Null: none.
  virtual const PythonAbi *pythonAbi() { return nullptr; }
  // The @jitclass with this handle (its fields, methods and properties), or null when
  // the environment knows none; owned by the environment.
  virtual const JitClassInfo *jitClass(uint64_t handle) { (void)handle; return nullptr; }
  // Prepares an objmode block (nullopt: this environment cannot run Python, e.g. mahouc).
  virtual std::optional<ObjModeBlock> objModeBlock(const ObjModeRequest &request) {
    (void)request;
    return std::nullopt;
  }
};

struct CompileOptions {
  bool boundscheck = false;
  bool fastmath = false;
  unsigned fastmathFlags = 0; // with fastmath: a flag set (jit.h FastMathFlag bits); 0: all of them
  bool parallel = false; // parallel=True: prange loops run on threads (transforms/outline_parallel_loops)
  bool verifyIR = true; // run the IR verifier after every pass
  // jit(locals={...}): variables whose type is declared (values are converted to it).
  std::vector<std::pair<std::string, types::Type>> localTypes;
  // An eager signature's scalar return type ("i4(i8)"): returned values are converted
  // to it, as Numba does, instead of the inferred type.
  std::optional<types::Type> declaredReturn;
  // Ahead-of-time compilation (mahou.aot): compileFunction returns the object file
  // without linking it into the JIT (entry stays null), for a shared library.
  bool objectOnly = false;
  bool numpyErrors = false; // error_model='numpy' (codegen.h); @vectorize's default, as Numba
  bool forceInline = false; // forceinline=True: compiled callers always inline it (jit/inline_library)
  NativeEntries native; // C-ABI entries to add (ufunc loops, C callbacks)
};

enum class Stage { Tokens, Ast, IR, LLVM, OptLLVM, Asm };

struct StageTimes {
  double parseMs = 0, semaMs = 0, codegenMs = 0, optimizeMs = 0, jitMs = 0;
  double initMs = 0;  // creating the JIT (LLVM target, LLJIT): the first compile of a process only
  double cacheMs = 0; // on-disk cache: reading, checking and validating an entry, or writing one
};

// Calling convention of `entry`: int32 entry(void *ret, void **args).
// args[i] points to argument i in its native layout (types/layout.h); the result
// is written to *ret in its native layout (arrays returned are owned references).
// Returns 0, or 1 with the runtime error state set.
using EntryFn = int32_t (*)(void *ret, void **args);

struct CompiledFunction {
  EntryFn entry = nullptr;
  // The Python entry, a CPython vectorcallfunc (codegen.h), or null when the
  // environment gave no Python ABI or the signature has none.
  void *pythonEntry = nullptr;
  // The entries CompileOptions::native asked for (native_entries.h), or null.
  void *ufuncLoop = nullptr, *gufuncLoop = nullptr, *cfunc = nullptr;
  std::string symbol; // internal function: what other compiled functions call
  types::Type ret;
  std::vector<types::Type> args;
  StageTimes times;
  // For the on-disk cache (cache.h): the machine code (an ELF relocatable object;
  // empty when an identical function was already compiled in this process), what
  // the code depends on besides its source and signature (globals and callees, as
  // text), whether every dependency can be found again in another process, and
  // whether this function was loaded from the cache.
  std::string object;
  std::string dependencies;
  bool cacheable = false;
  bool fromCache = false;
  // parallel=True: which loops run in parallel and which reductions were found
  // (parallel_diagnostics), one line each.
  std::vector<std::string> parallelNotes;
  // Keeps the linked machine code (entry, Python entry) alive: the JIT frees it when
  // the last copy of this reference goes (jit.h CodeRef). Empty when not linked here.
  std::shared_ptr<const void> code;
};

// Sets out.ufuncLoop / gufuncLoop / cfunc for the entries `native` asks for, found by
// their symbols with `lookup` (native_entries.cpp).
void findNativeEntries(const NativeEntries &native, const std::string &symbol,
                       const std::function<void *(const std::string &)> &lookup, CompiledFunction &out);

// `name` is the function to compile: the single def in `file` (JIT) or a
// top-level def of a whole file (mahouc). Throws UserError / InternalError.
CompiledFunction compileFunction(const SourceFile &file, const std::string &name,
                                 const std::vector<types::Type> &args, CompileEnvironment &env,
                                 const CompileOptions &options);

// The text of one stage for the same inputs (tokens, AST, typed IR, LLVM IR
// before/after optimisation, host assembly).
std::string emitStage(const SourceFile &file, const std::string &name,
                      const std::vector<types::Type> &args, CompileEnvironment &env,
                      const CompileOptions &options, Stage stage);

// ------------------------------------------------------------------ GPU kernels

struct KernelOptions {
  int ccMajor = 9, ccMinor = 0; // compute capability: sm_90
  bool fastmath = false;
  bool lineinfo = false;
  bool cache = false;           // cuda.jit(cache=True): the PTX kept on disk (cache.h cachedKernel)
  bool exceptions = false;      // debug=True: the launch raises the first exception a thread raised
  // The launch checked that no two array arguments share memory (cuda_launch.cpp): array
  // data pointers become noalias (C's restrict) unless the kernel's threads communicate
  // (barriers, warp operations, fences, atomics, grid sync). See docs/cuda.md.
  bool disjointArrays = false;
  // The launch checked that every array argument's data and strides are multiples of its
  // element's alignment (a field view of a packed record array is not): false compiles
  // the form whose global loads and stores assume nothing (ptx::relaxAlignment).
  bool alignedArrays = true;
  std::string libdevicePath;    // libdevice.10.bc; empty: looked up under CUDA_HOME and /usr/local/cuda
  // A device function compiled alone (compileDeviceFunction) with the C ABI under this
  // name (cuda.compile(abi="c")); empty: mahou's calling convention under its own symbol.
  std::string cAbiName;
  // A device function compiled alone from a signature with a (number) return type: the
  // values it returns are converted to it, as Numba does (CompileOptions::declaredReturn).
  std::optional<types::Type> declaredReturn;
  // cuda.jit(launch_bounds=...): the most threads a block is launched with, the fewest
  // blocks resident on a multiprocessor, the most blocks of a cluster (0: not given).
  // PTX's .maxntid, .minnctapersm and .maxclusterrank directives.
  std::array<int, 3> launchBounds{0, 0, 0};
};

// A kernel compiled to PTX. Kernel parameters, in order, for each argument:
//   array of ndim N: data pointer (8 bytes), then shape[N] and strides[N] (int64 each, strides in bytes)
//   scalar: its native value (bool as one byte, complex as {re, im})
//   tuple: its native layout (layout.h) as one parameter
// The module global a kernel compiled with KernelOptions::exceptions writes its first
// raise into: i32 site (0: none), then the raising thread's threadIdx x, y, z and
// blockIdx x, y, z.
inline constexpr const char *kKernelErrorSlot = "mahou_kernel_error";
inline constexpr int kKernelErrorWords = 7;

struct CompiledKernel {
  std::string ptx;
  std::string kernelName; // the .entry symbol
  bool gridSync = false;  // synchronises the whole grid (cuda.cg): a cooperative launch
  bool recursive = false; // calls device functions left out of line (recursion): a deeper stack
  // KernelOptions::exceptions: each raise site's exception and message, numbered from 1
  // in the module's error slot (kKernelErrorSlot).
  std::vector<std::pair<types::ExcKind, std::string>> raiseSites;
  std::vector<types::Type> args;
  StageTimes times;
};

// @cuda.jit kernels: same front end and typed IR, lowered through NVPTX. The
// cuda module's names (cuda.grid, threadIdx, shared.array, atomic.add, ...) are
// typed by sema; device functions come through CompileEnvironment::calleeSource.
CompiledKernel compileKernel(const SourceFile &file, const std::string &name,
                             const std::vector<types::Type> &args, CompileEnvironment &env,
                             const KernelOptions &options);
// The CUDA emulator (MAHOU_ENABLE_CUDASIM=1): the same kernel compiled for the host
// CPU. `entry` (compiler.h's EntryFn convention, arguments as for @njit) runs one
// thread; mahou_rt_sim_launch runs it over a grid. `synchronizes`: the kernel uses
// barriers or warp operations, so its threads must run as fibers.
struct SimKernel {
  EntryFn entry = nullptr;
  std::vector<types::Type> args;
  bool synchronizes = false;
  bool gridSync = false; // synchronises the whole grid: every thread of the grid is a fiber
  StageTimes times;
};
SimKernel compileSimKernel(const SourceFile &file, const std::string &name, const std::vector<types::Type> &args,
                           CompileEnvironment &env, bool boundscheck);

// cuda.compile_ptx(device=True): a device function alone, as a visible PTX .func named
// `symbol` (the function's name made PTX-safe) with mahou's calling convention: an i32
// status, a pointer to the result, then the arguments (an array as its native struct,
// layout.h). `ret` is the inferred return type.
struct CompiledDeviceFunction {
  std::string ptx;
  std::string symbol;
  types::Type ret;
};
CompiledDeviceFunction compileDeviceFunction(const SourceFile &file, const std::string &name,
                                             const std::vector<types::Type> &args, CompileEnvironment &env,
                                             const KernelOptions &options);

// LLVM IR (Stage::LLVM / OptLLVM) or PTX (Stage::Asm) of a kernel.
std::string emitKernelStage(const SourceFile &file, const std::string &name,
                            const std::vector<types::Type> &args, CompileEnvironment &env,
                            const KernelOptions &options, Stage stage);

} // namespace mahou
