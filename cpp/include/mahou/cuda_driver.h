// The CUDA driver API as mahou uses it: libcuda.so.1 loaded lazily with dlopen,
// every call checked (CudaError), primary contexts, memory, streams, modules, launch.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace mahou::cuda {

// ------------------------------------------------------------------ driver types
// The few cuda.h types the table needs (no CUDA headers at build time).
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;
using CUdevice_attribute = int;
using CUfunction_attribute = int;
using CUpointer_attribute = int;
using CUjit_option = int;
using CUjitInputType = int;
using CUlinkState = struct CUlinkState_st *;
using CUlimit = int;
using CUoccupancyB2DSize = size_t (*)(int blockSize); // dynamic shared bytes of a block size
// An exported allocation (cuIpcGetMemHandle): 64 opaque bytes another process opens.
struct CUipcMemHandle {
  char reserved[64];
};

// cuda.h's values of the enumerators mahou uses (the one place they are written).
namespace attr {
constexpr CUdevice_attribute MaxThreadsPerBlock = 1;
constexpr CUdevice_attribute MaxBlockDimX = 2, MaxBlockDimY = 3, MaxBlockDimZ = 4;
constexpr CUdevice_attribute MaxGridDimX = 5, MaxGridDimY = 6, MaxGridDimZ = 7;
constexpr CUdevice_attribute MaxSharedMemoryPerBlock = 8;
constexpr CUdevice_attribute WarpSize = 10;
constexpr CUdevice_attribute MultiprocessorCount = 16;
constexpr CUdevice_attribute PciBusId = 33, PciDeviceId = 34;
constexpr CUdevice_attribute ComputeCapabilityMajor = 75, ComputeCapabilityMinor = 76;
constexpr CUdevice_attribute MaxSharedMemoryPerBlockOptin = 97;
constexpr CUdevice_attribute CanMapHostMemory = 19, ManagedMemory = 83, CooperativeLaunch = 95;
} // namespace attr
constexpr CUfunction_attribute kFuncMaxDynamicSharedBytes = 8;
constexpr CUfunction_attribute kFuncMaxThreadsPerBlock = 0, kFuncSharedSizeBytes = 1,
                               kFuncConstSizeBytes = 2, kFuncLocalSizeBytes = 3, kFuncNumRegs = 4;
constexpr CUlimit kLimitStackSize = 0;
constexpr CUpointer_attribute kPointerMemoryType = 2, kPointerDeviceOrdinal = 9;
constexpr int kMemoryTypeHost = 1, kMemoryTypeDevice = 2, kMemoryTypeUnified = 4;
constexpr unsigned kIpcLazyEnablePeerAccess = 0x1; // CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS
constexpr CUresult kSuccess = 0, kErrorNotReady = 600, kErrorLaunchFailed = 719,
                   kErrorCooperativeLaunchTooLarge = 720, kErrorNotSupported = 801;

// A failed driver call: what() = "cuMemAlloc_v2 failed: CUDA_ERROR_OUT_OF_MEMORY (out of memory)".
class CudaError : public std::runtime_error {
public:
  CudaError(std::string function, CUresult code, std::string errorName, const std::string &what)
      : std::runtime_error(what), function_(std::move(function)), code_(code),
        errorName_(std::move(errorName)) {}
  const std::string &function() const { return function_; }
  CUresult code() const { return code_; }
  const std::string &errorName() const { return errorName_; } // "CUDA_ERROR_..."

private:
  std::string function_;
  CUresult code_;
  std::string errorName_;
};

// A kernel run by the CPU emulator raised a Python exception (IndexError from a bounds
// check, ZeroDivisionError, a failed syncthreads): the runtime error state of the
// calling thread (runtime.h) holds it.
class KernelFault : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// ------------------------------------------------------------------ the CPU emulator
// useEmulator() before the driver's first use makes every call in this header run on
// the host instead of libcuda (emulated_driver.cpp): one device, host memory,
// synchronous streams, events that time the host, and kernels that are programs
// compiled for the CPU (EmulatorProgram) instead of PTX. `checks`: kernels are
// compiled with bounds checks. Returns false when the driver was already loaded.
bool useEmulator(bool checks);
bool emulated();
bool emulatorChecks();
// The emulator's module image (what cuModuleLoadDataEx takes instead of PTX): the
// kernel compiled for the CPU, run once per thread by mahou_rt_sim_launch.
struct EmulatorProgram {
  int32_t (*entry)(void *ret, void **argv) = nullptr; // compiler.h's EntryFn
  std::vector<int> arrayDims; // per kernel argument: ndim of an array, -1 for a scalar or tuple
  bool synchronizes = false;  // uses barriers or warp operations: threads run as fibers
  bool gridSync = false;      // uses cuda.cg grid sync: launched cooperatively, all blocks as fibers
};

// ------------------------------------------------------------------ driver and devices
// Loads libcuda.so.1 and runs cuInit once; false (with the reason) when there is
// no driver or no device. Never throws.
bool available(std::string *why = nullptr);
int driverVersion();     // 13000 for CUDA 13.0
int deviceCount();       // 0 when the driver is missing
struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  int ccMajor = 0, ccMinor = 0;
  int multiprocessors = 0, warpSize = 32, maxThreadsPerBlock = 0;
  int pciBus = 0, pciDevice = 0;
  size_t totalMemory = 0;
};
DeviceInfo deviceInfo(int device);
int deviceAttribute(int device, CUdevice_attribute attribute);
// cuDeviceCanAccessPeer: whether `device` can map `peer`'s memory (false for the device itself).
bool canAccessPeer(int device, int peer);
std::pair<int, int> computeCapability(int device); // cached per device

// The calling thread's device (thread-local, 0 by default), as cuda.select_device sets.
int currentDevice();
void selectDevice(int device);
// Retains the device's primary context once and makes it current on this thread.
void makeCurrent(int device);
void synchronize(int device); // cuCtxSynchronize
void profiler(int device, bool start); // cuProfilerStart / cuProfilerStop (no-ops in the emulator)
std::pair<size_t, size_t> memoryInfo(int device); // (free, total) bytes

// ------------------------------------------------------------------ memory
CUdeviceptr allocate(int device, size_t bytes); // 0 for 0 bytes
void release(int device, CUdeviceptr pointer) noexcept; // errors ignored (teardown)
void *allocateHost(int device, size_t bytes, bool mapped); // page-locked
void releaseHost(int device, void *pointer) noexcept;
CUdeviceptr mappedDevicePointer(int device, void *host);
// Managed (unified) memory, accessible from host and device; CudaError naming the
// device when it has no managed memory.
CUdeviceptr allocateManaged(int device, size_t bytes);
// Page-locks existing host memory (cuda.pinned / cuda.mapped); `mapped` also maps it
// into the device's address space.
void registerHost(int device, void *pointer, size_t bytes, bool mapped);
void unregisterHost(int device, void *pointer) noexcept;
// stream == nullptr: synchronous copy (legacy default stream); else asynchronous on it.
void copyToDevice(int device, CUdeviceptr dst, const void *src, size_t bytes, CUstream stream);
void copyToHost(int device, void *dst, CUdeviceptr src, size_t bytes, CUstream stream);
void copyDeviceToDevice(int device, CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                        CUstream stream);
void memset8(int device, CUdeviceptr dst, unsigned char value, size_t bytes);
// Device ordinal owning `pointer`, or -1 when the driver does not know it (host memory).
int pointerDevice(CUdeviceptr pointer);

// (allocation base, allocation bytes) of the device allocation holding `pointer`
// (cuMemGetAddressRange; ipc.cpp).
std::pair<CUdeviceptr, size_t> allocationRange(int device, CUdeviceptr pointer);

// ------------------------------------------------------------------ IPC (ipc.cpp)
// An allocation exported for other processes: its handle, base and size.
struct IpcExport {
  CUipcMemHandle handle{};
  CUdeviceptr base = 0;
  size_t size = 0;
};
// Exports the allocation holding `pointer` (cuIpcGetMemHandle of its base). CudaError
// for memory the driver cannot export (managed, host or another process's memory).
IpcExport ipcExport(int device, CUdeviceptr pointer);
// Maps another process's exported allocation into the device's primary context
// (cuIpcOpenMemHandle with CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS): its base here. Under the
// CPU emulator a CudaError saying that IPC needs a GPU.
CUdeviceptr ipcOpen(int device, const CUipcMemHandle &handle);
// Unmaps what ipcOpen mapped (cuIpcCloseMemHandle).
void ipcClose(int device, CUdeviceptr base);

// ------------------------------------------------------------------ streams and events
CUstream createStream(int device, bool nonBlocking);
void destroyStream(int device, CUstream stream) noexcept;
void synchronizeStream(int device, CUstream stream);
bool streamIdle(int device, CUstream stream); // cuStreamQuery: true when all work is done
CUevent createEvent(int device, bool timing);
void destroyEvent(int device, CUevent event) noexcept;
void recordEvent(int device, CUevent event, CUstream stream);
void synchronizeEvent(int device, CUevent event);
bool eventDone(int device, CUevent event);
void streamWaitEvent(int device, CUstream stream, CUevent event);
float elapsedMs(int device, CUevent start, CUevent end);

// ------------------------------------------------------------------ modules and launch
// One input of the driver's JIT linker, joined with a kernel's PTX (cuda.jit(link=...)):
// its CUjitInputType (cuda.h: 0 cubin, 1 PTX, 2 fat binary, 3 object, 4 library), its
// bytes and the name the link log gives it.
struct LinkInput {
  CUjitInputType type = 1;
  std::string data;
  std::string name;
};
struct LoadOptions {
  bool lineinfo = false;
  int maxRegisters = 0; // 0: the driver's choice
  // The per-thread stack the kernel needs at least (0: the context's, 1 KiB by default):
  // a recursive device function keeps its frames there. Raised for the whole context.
  size_t stackBytes = 0;
  // The name of the module global a debug kernel records its first raise in (null: none).
  const char *errorSlot = nullptr;
  // External code the kernel calls (cuda.declare_device): the PTX is linked with these
  // by cuLinkCreate/cuLinkAddData/cuLinkComplete, then the cubin loaded. Null or empty: none.
  const std::vector<LinkInput> *linkInputs = nullptr;
};
// A kernel loaded into one device's primary context. Owned by the module cache.
struct LoadedKernel {
  CUmodule module = nullptr;
  CUfunction function = nullptr;
  int device = 0;
  int dynamicSharedLimit = 48 * 1024; // dynamic shared bytes allowed without an attribute call
  CUdeviceptr errorSlot = 0;          // LoadOptions::errorSlot's address (0: none)
  size_t errorSlotBytes = 0;
};
// The kernel `entry` of `image` (NUL-terminated PTX text; an EmulatorProgram under the
// emulator), loaded once per (owner, signature, device): later calls return the cached
// entry (image is not looked at again). The pointer stays valid until
// unloadKernels(owner). A JIT failure throws CudaError with the log.
LoadedKernel *loadKernel(const void *owner, const std::string &signature, int device,
                         const void *image, const std::string &entry,
                         const LoadOptions &options);
// After a launch of a kernel with an error slot: waits for `stream`, copies the slot into
// `words` (errorSlotBytes of them) and, when a thread raised (words[0] != 0), clears it
// for the next launch and returns true.
bool takeKernelError(const LoadedKernel &kernel, CUstream stream, int32_t *words);
// Unloads every module loaded for `owner` (its kernel object is going away).
void unloadKernels(const void *owner) noexcept;

struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
};
// cuFuncGetAttribute of a loaded kernel (registers, static shared bytes, ...).
int functionAttribute(const LoadedKernel &kernel, CUfunction_attribute attribute);
// (minimum grid size, block size) maximising occupancy, as cuOccupancyMaxPotentialBlockSize.
std::pair<int, int> maxPotentialBlockSize(const LoadedKernel &kernel, size_t dynamicSharedBytes,
                                          int blockSizeLimit);
int maxActiveBlocksPerMultiprocessor(const LoadedKernel &kernel, int blockSize,
                                     size_t dynamicSharedBytes);
// The most blocks of `blockSize` threads a cooperative launch of the kernel may have on
// its device (all co-resident): active blocks per multiprocessor times multiprocessors.
int maxCooperativeBlocks(const LoadedKernel &kernel, int blockSize, size_t dynamicSharedBytes);

// cuLaunchKernel with the context of kernel.device current; raises the dynamic
// shared memory limit (cuFuncSetAttribute) first when sharedBytes needs it. Under the
// emulator the kernel has run when this returns; KernelFault when it raised.
void launch(LoadedKernel &kernel, Dim3 grid, Dim3 block, unsigned sharedBytes, CUstream stream,
            void **params);
// cuLaunchCooperativeKernel (a kernel that synchronises the whole grid): CudaError naming
// the limit when the grid has more blocks than can be co-resident.
void launchCooperative(LoadedKernel &kernel, Dim3 grid, Dim3 block, unsigned sharedBytes,
                       CUstream stream, void **params);

} // namespace mahou::cuda
