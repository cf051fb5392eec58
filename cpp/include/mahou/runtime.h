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
struct MahouMemInfo {
  int64_t refcount; // updated atomically
  void *data;       // 64-byte aligned, in the same block as this header
  int64_t nbytes;
  size_t capacity;  // bytes of the whole block (header, padding, data)
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

// Allocates nbytes (rounded up, 64-byte aligned, zero bytes allowed) with refcount 1.
// Returns nullptr and sets a MemoryError when malloc fails.
MahouMemInfo *mahou_rt_alloc(int64_t nbytes);
void mahou_rt_incref(MahouMemInfo *mi); // null is a no-op
void mahou_rt_decref(MahouMemInfo *mi); // null is a no-op; frees at zero
// Number of MahouMemInfo blocks alive now (tests use it to prove no leaks).
int64_t mahou_rt_live_allocations();

// Error state of the current thread. Compiled functions return status 1 after
// setting it; the dispatcher turns it into the Python exception.
// kind is a types::ExcKind value; msg is a NUL-terminated string with static
// lifetime (a constant of the compiled module) or null.
void mahou_rt_set_error(int32_t kind, const char *msg);
// Same, with an int64 formatted into msg at the first "%lld" (index errors).
void mahou_rt_set_error_i64(int32_t kind, const char *fmt, int64_t value);
struct MahouError {
  int32_t kind;
  bool set;
  char message[512];
};
// Returns the pending error of this thread and clears it.
MahouError mahou_rt_take_error();
// try/except (exceptions.cpp): whether a pending error is an instance of class
// `cls` (an ExcKind, following the builtin hierarchy), and dropping it once handled.
bool mahou_rt_error_matches(int32_t cls);
void mahou_rt_clear_error();
// pow(a, b, m) with Python's rules (int_math.cpp): the result has m's sign; a negative
// b uses the modular inverse of a. Returns 1 with a ValueError set (m == 0, or a not
// invertible), else 0 with the result in *out.
int32_t mahou_rt_powmod(int64_t a, int64_t b, int64_t m, int64_t *out);
// cmath on complex128 (complex_math.cpp): out[0] = real part, out[1] = imaginary part.
void mahou_rt_csqrt(double re, double im, double *out);
void mahou_rt_cexp(double re, double im, double *out);
void mahou_rt_clog(double re, double im, double *out);

// print() support: writes to stdout (flushes Python's sys.stdout first via a hook the
// binding installs; without it, plain stdio).
// The CUDA emulator (cudasim.cpp): a kernel compiled for the CPU runs once per
// simulated thread; its GPU operations call these. Threads of a block are fibers when
// `fibers` (the kernel synchronises), else they run one after another.
typedef int32_t (*MahouSimEntry)(void *ret, void **argv);
int32_t mahou_rt_sim_launch(MahouSimEntry entry, void **argv, const int64_t *grid, const int64_t *block,
                            int64_t dynamicSharedBytes, bool fibers);
int32_t mahou_rt_sim_sreg(int32_t which); // gpu_ops.def order: tid.xyz, ntid, ctaid, nctaid, laneid, warpsize
void *mahou_rt_sim_shared(const void *id, int64_t bytes);
void *mahou_rt_sim_dynamic_shared(int64_t *bytes);
int32_t mahou_rt_sim_syncthreads(int32_t kind, bool pred); // 0 plain, 1 count, 2 and, 3 or
void mahou_rt_sim_syncwarp(uint32_t mask);
int64_t mahou_rt_sim_shfl(int32_t kind, uint32_t mask, int64_t value, int32_t lane); // 0 idx 1 up 2 down 3 xor
int32_t mahou_rt_sim_vote(int32_t kind, uint32_t mask, bool pred);                  // 0 ballot 1 all 2 any
uint32_t mahou_rt_sim_activemask();

// Sorting (sorting.cpp): dtype is the NumPy type number; complex data is not handled.
void mahou_rt_sort(void *data, int64_t n, int32_t dtype);
void mahou_rt_argsort(const void *data, int64_t n, int64_t stride, int32_t dtype, int64_t *out);
int64_t mahou_rt_unique_sorted(void *data, int64_t n, int32_t dtype); // returns the new length

// np.random in compiled code (random.cpp): a per-thread generator of its own.
void mahou_rt_random_seed(int64_t seed);
double mahou_rt_random_double();                       // [0, 1)
double mahou_rt_random_normal();                       // N(0, 1)
int64_t mahou_rt_random_int(int64_t low, int64_t high); // [low, high), high > low

void mahou_rt_print_i64(int64_t v);
void mahou_rt_print_u64(uint64_t v);
void mahou_rt_print_f64(double v);
void mahou_rt_print_bool(bool v);
void mahou_rt_print_str(const char *s);
void mahou_rt_print_sep();     // " "
void mahou_rt_print_newline(); // "\n"
// print(a) of an array: `arr` points at the array struct of `ndim` dimensions (layout
// above), dtype is the NumPy type number. The text is NumPy's str(a) through a
// formatter the binding installs (it wraps the memory as an ndarray, no copy); without
// one, a plain nested-bracket form.
void mahou_rt_print_array(const MahouArrayHead *arr, int32_t ndim, int32_t dtype);

} // extern "C"

namespace mahou::runtime {
// Name → address of every mahou_rt_* function, for the JIT's symbol table.
struct RuntimeSymbol {
  const char *name;
  void *address;
};
const RuntimeSymbol *runtimeSymbols(size_t *count);
// The binding installs a hook that flushes sys.stdout before compiled code prints.
void setPrintFlushHook(void (*hook)());
// And one that formats an array as NumPy's str() does: true and the text in *out, or
// false (then the runtime's plain form is printed). Strides are in bytes.
using ArrayFormatter = bool (*)(const void *data, int ndim, const int64_t *shape, const int64_t *strides,
                                int dtype, std::string *out);
void setArrayFormatHook(ArrayFormatter hook);
} // namespace mahou::runtime
