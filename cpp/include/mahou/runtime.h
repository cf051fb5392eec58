// The runtime ABI shared by compiled code, the runtime library and the binding:
// reference-counted array memory, the native array struct, the error state.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" {

// Reference-counted block that owns the data of an array created in compiled code.
// Arrays that come from NumPy have meminfo == nullptr and keep `parent` (the ndarray)
// instead; views share their base's meminfo and parent.
// Objects (lists, strings, dicts, sets: mahou/objects.h) are blocks of the same kind
// whose destructor releases what they hold before the block is freed.
struct MahouMemInfo {
  int64_t refcount; // updated atomically
  void *data;       // arrays: 64-byte aligned, in the same block; objects: the payload after the header
  int64_t nbytes;
  size_t capacity;  // bytes of the whole block (header, padding, data)
  void (*dtor)(MahouMemInfo *); // null for array data; run when the count reaches zero
};

// Native layout of an array of ndim N (the LLVM struct type of an array value):
//   { MahouMemInfo* meminfo; void* parent /* PyObject*, borrowed */; char* data;
//     int64_t shape[N]; int64_t strides[N] /* bytes */ }
// Use the accessors below rather than this struct for N != 1.
struct MahouArrayHead {
  MahouMemInfo *meminfo;
  void *parent;
  char *data;
  int64_t dims[]; // shape[0..N), then strides[0..N)
};
constexpr size_t mahouArrayBytes(int ndim) { return sizeof(void *) * 3 + 16 * size_t(ndim); }

struct MahouError {
  int32_t kind;
  bool set;
  char message[512]; // text, or with hasArgs the exception's arguments packed (exception_args.h)
  bool hasArgs;
  // A Python exception raised inside an objmode block (an owned reference the binding
  // raises as it is; kind is its nearest builtin class, message its text), or null.
  void *foreign;
};
// The entry of a kernel compiled for the CUDA emulator (mahou_rt_sim_launch).
typedef int32_t (*MahouSimEntry)(void *ret, void **argv);
// One chunk of a parallel loop (parallel.h, mahou_rt_parallel_for).
typedef int32_t (*MahouChunkFn)(void *ctx, int64_t begin, int64_t end, int64_t chunk);

struct MahouTypeDesc; // mahou/objects.h

// Every runtime function, declared from the one table (runtime_functions.def).
#define MAHOU_RT_FUNCTION(ret, name, params) ret name params;
#include "mahou/runtime_functions.def"
#undef MAHOU_RT_FUNCTION

} // extern "C"

namespace mahou::runtime {
// The NumPy type numbers mahou_rt_sort, _argsort and _unique_sorted order (bool, the
// integers, float32/64, datetime64/timedelta64); codegen refuses to call them for others,
// which they would leave unsorted (runtime/sorting.cpp's switch lists the same).
constexpr bool sortsNumpyNum(int32_t num) { return (num >= 0 && num <= 12) || num == 21 || num == 22; }
// Name → address of every mahou_rt_* function, for the JIT's symbol table.
struct RuntimeSymbol {
  const char *name;
  void *address;
};
const RuntimeSymbol *runtimeSymbols(size_t *count);
// objmode blocks (objmode.cpp): the binding's hook that runs one (mahou_rt_objmode_call's
// contract), and the one that drops a Python exception a compiled except clause handled.
using ObjModeHook = int32_t (*)(void *site, void *inputs, void *outputs);
void setObjModeHooks(ObjModeHook call, void (*releaseForeign)(void *exception));
void releaseForeignError(void *exception);
// The binding installs a hook that flushes sys.stdout before compiled code prints.
void setPrintFlushHook(void (*hook)());
// And one that formats an array as NumPy's str() does: true and the text in *out, or
// false (then the runtime's plain form is printed). Strides are in bytes.
using ArrayFormatter = bool (*)(const void *data, int ndim, const int64_t *shape, const int64_t *strides,
                                int dtype, std::string *out);
void setArrayFormatHook(ArrayFormatter hook);
// A user-defined exception class (its ExcKind value, from types::kFirstUserExc on) and its
// direct base (a builtin's value or another user class's), for except clauses to match
// (exceptions.cpp; the binding registers each class it resolves).
void registerExceptionClass(int32_t kind, int32_t base);
// The NumPy release in use (numpy.__version__), whose random algorithms compiled draws
// follow where they changed between releases (random.cpp).
void setNumpyVersion(int major, int minor);
} // namespace mahou::runtime
