// Shared declarations of the CUDA part of the _core binding: the DeviceArray base
// type, kernel objects with their compiled overloads, and launch configurations.
#pragma once

#include "binding.h"

#include "mahou/cuda_driver.h"

#include <array>

namespace mahou::binding {

constexpr int kMaxDeviceArrayDims = 32;

// ------------------------------------------------------------------ device arrays
// mahou._core.DeviceArray: the fields the launch path reads; mahou.cuda.DeviceNDArray
// (Python) subclasses it with the methods.
struct DeviceArrayObject {
  PyObject_HEAD
  PyObject *owner;  // keeps the memory alive: a DeviceMemory, a parent array, a CAI object
  PyObject *dtype;  // numpy.dtype
  PyObject *stream; // the stream the array was created on (0 or a Stream)
  cuda::CUdeviceptr data;
  int ndim;
  int device;
  int dtypeCode; // types::DType, or -1 when kernels cannot take this dtype
  bool uint64Pairs; // cuda.random's state records (s0, s1 uint64): kernels see uint64[..., 2]
  types::Layout layout;
  int64_t itemsize;
  int64_t shape[kMaxDeviceArrayDims];
  int64_t strides[kMaxDeviceArrayDims];
};
bool isDeviceArray(PyObject *obj);
void registerDeviceArray(nanobind::module_ &m);
// C, F or A from shape and byte strides (dimensions of extent 1 do not count).
types::Layout layoutOfStrides(int ndim, const int64_t *shape, const int64_t *strides,
                              int64_t itemsize);
// True for cuda.random's xoroshiro128p_dtype: records of two uint64 fields s0, s1.
bool isUInt64PairRecord(PyObject *descr); // a numpy.dtype object
// DType of a NumPy type number (LONGLONG/ULONGLONG included), or -1.
int dtypeCodeOfTypeNum(int typeNum);

// ------------------------------------------------------------------ kernels
struct KernelOverload {
  std::vector<uint64_t> key; // launch key of its argument types
  std::vector<types::Type> args;
  std::string signature;     // text of the argument types: the module cache key
  CompiledKernel compiled;   // PTX for (ccMajor, ccMinor); empty under the emulator
  cuda::EmulatorProgram program; // under the emulator: the kernel compiled for the CPU
  int ccMajor = 0, ccMinor = 0;
  std::vector<size_t> argFirstParam; // index of each argument's first kernel parameter
  std::vector<size_t> paramOffsets;  // byte offset of each kernel parameter in the buffer
  size_t paramBytes = 0;
  bool cooperative = false; // synchronises the grid: launched with cuLaunchCooperativeKernel
  std::vector<cuda::LoadedKernel *> loaded; // by device ordinal; null until loaded
  // `compiled` assumes what each launch checks first: no two array arguments share memory
  // (their data pointers are noalias, KernelOptions::disjointArrays) and every array's
  // items sit at multiples of their alignment (KernelOptions::alignedArrays). A launch
  // that breaks one runs the same overload compiled without it, made on first need:
  // `forms`, indexed by the assumptions that hold (kDisjointArrays | kAlignedArrays).
  static constexpr unsigned kDisjointArrays = 1, kAlignedArrays = 2;
  unsigned assumptions = kDisjointArrays | kAlignedArrays;
  std::unique_ptr<KernelOverload> forms[4];
};

struct KernelEntry {
  std::vector<uint64_t> key;
  KernelOverload *overload;
};

struct KernelState {
  PyObject *pyFunc = nullptr;   // owned
  PyObject *resolver = nullptr; // owned
  PyObject *configs = nullptr;  // owned dict: launch configuration tuple → LaunchConfig
  // The last kernel[...] key and its LaunchConfig (owned): a loop that launches with the
  // same constant tuple finds it by identity, without hashing the tuple.
  PyObject *lastConfigKey = nullptr, *lastConfig = nullptr;
  std::string source, filename, name;
  int firstLine = 1;
  bool isDevice = false; // @cuda.jit(device=True): called from kernels only
  bool fastmath = false, lineinfo = false, debug = false;
  bool cache = false; // cuda.jit(cache=True): kernels' PTX kept on disk
  int maxRegisters = 0;
  // cuda.jit(launch_bounds=...): max threads per block, min blocks per multiprocessor,
  // max blocks per cluster (0: not given); checked at kernel[grid, block].
  std::array<int, 3> launchBounds{0, 0, 0};
  // cuda.jit(link=...)'s files, then those of the external device functions
  // (cuda.declare_device) and device functions its compiled code calls: linked with its
  // PTX when it is loaded on a GPU.
  std::vector<std::string> linkFiles;
  bool canCompile = true;
  // A device function's explicit signatures (@cuda.jit("float32(int32)", device=True)):
  // its callers convert their arguments to one of them and get its return type.
  std::vector<types::Signature> deviceSignatures;
  int nparams = 0;
  std::vector<std::string> paramNames;
  std::vector<std::unique_ptr<KernelOverload>> overloads;
  std::vector<KernelEntry> entries;
  std::vector<PyObject *> keepAlive; // owned: callees referenced by the compiled code
};

struct KernelObject {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  PyObject *dict;
  PyObject *weakrefs;
  KernelState *state;
};

// One kernel[grid, block, stream, shared] configuration: calling it launches.
struct LaunchConfigObject {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  KernelObject *kernel; // owned
  PyObject *streamObj;  // owned: what the stream argument was (kept alive)
  cuda::CUstream stream;
  cuda::Dim3 grid, block;
  unsigned sharedBytes;
};

KernelObject *asKernel(PyObject *obj); // null when obj is not a kernel object
// The compile environment's owner for a kernel or device function (its link files collected).
EnvironmentOwner kernelEnvironmentOwner(KernelState &st);
void registerKernelType(nanobind::module_ &m);
void registerLaunchConfigType(nanobind::module_ &m);
// kernel[config]: the (cached) LaunchConfig object.
PyObject *kernelSubscript(PyObject *self, PyObject *config);
extern PyMethodDef kernelMethods[];
extern PyGetSetDef kernelGetSets[];

// Compiles (or finds) the overload for these argument types; C++ errors propagate.
KernelOverload &compileKernelOverload(KernelObject *self, const std::vector<types::Type> &args,
                                      std::vector<uint64_t> key);
// The overload's kernel loaded on `device` (compiled again first when the
// device's compute capability differs from the PTX's).
cuda::LoadedKernel &loadedKernel(KernelObject *self, KernelOverload &ov, int device);
// The same, in the form for launches whose array arguments overlap (see KernelOverload).
cuda::LoadedKernel &loadedKernelForm(KernelObject *self, KernelOverload &ov, int device, unsigned assumptions);
// Launch key of argument types (the same words the launch path builds from objects).
std::vector<uint64_t> kernelKeyOf(const std::vector<types::Type> &args);
uint64_t deviceArrayKeyWord(types::DType dtype, int ndim, types::Layout layout, bool readonly);
// Compiler options of a kernel for compute capability (major, minor).
KernelOptions kernelOptions(const KernelState &st, int ccMajor, int ccMinor);
// A signature object (text, mahou.types.Signature, tuple) → types; false with an error.
bool parseKernelSignature(PyObject *sig, types::Signature &out);

// The overload a launch with these arguments selects (compiled when needed); null
// with an error set (cuda_launch.cpp).
KernelOverload *overloadForArguments(KernelObject *k, PyObject *const *args, size_t nargs);
// Methods of the kernel launch API (specialize, occupancy, attributes: cuda_kernel_api.cpp).
extern PyMethodDef kernelApiMethods[];

// _core.cuda.xoroshiro128p_init (cuda_random.cpp), registered by registerCuda.
void registerCudaRandom(nanobind::module_ &cudaModule);
// managed_empty, host_register/unregister (cuda_memory.cpp) and DLPack (cuda_dlpack.cpp).
void registerCudaMemory(nanobind::module_ &cudaModule);
void registerCudaDlpack(nanobind::module_ &cudaModule);
// ipc_export and IpcMapping: device memory shared between processes (cuda_ipc.cpp).
void registerCudaIpc(nanobind::module_ &cudaModule);
// The libdevice.10.bc kernels link: under $CUDA_HOME, $CUDA_PATH, /usr/local/cuda or
// PyPI's nvidia-cuda-nvcc (cuda_compile.cpp); empty when none was found.
std::string libdevicePath();

// The launch itself (cuda_launch.cpp).
PyObject *launchKernel(LaunchConfigObject *config, PyObject *const *args, size_t nargs,
                       PyObject *kwnames);

} // namespace mahou::binding
