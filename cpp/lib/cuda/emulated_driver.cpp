// The CPU emulator's driver: every function of cuda_driver.def implemented on the host,
// so that device arrays, copies, streams, events, kernel objects and the launch path
// above the table run unchanged without a GPU (MAHOU_ENABLE_CUDASIM=1). One device, or
// MAHOU_CUDASIM_DEVICES of them (up to 16), each with its primary context, its memory
// accounting and its allocations' ordinal; "device" memory is host memory (one address
// space, so copies between devices are plain copies); streams are synchronous; events time the host;
// a module is an EmulatorProgram (a kernel compiled for the CPU) that cuLaunchKernel
// runs over the grid through mahou_rt_sim_launch. IPC handles are made but never opened
// (no other process can map this process's memory).
#include "driver_table.h"

#include "mahou/runtime.h"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

namespace mahou::cuda::detail {

namespace {

// cuda.h's error codes the emulator returns, with the driver's names and texts.
constexpr CUresult kInvalidValue = 1, kOutOfMemory = 2, kInvalidDevice = 101,
                   kInvalidImage = 200, kInvalidContext = 201, kInvalidHandle = 400,
                   kNotFound = 500;

struct ErrorText {
  CUresult code;
  const char *name, *text;
};
constexpr ErrorText kErrors[] = {
    {kSuccess, "CUDA_SUCCESS", "no error"},
    {kInvalidValue, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {kOutOfMemory, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {kInvalidDevice, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {kInvalidImage, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
    {kInvalidContext, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
    {kInvalidHandle, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
    {kNotFound, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {kErrorNotReady, "CUDA_ERROR_NOT_READY", "device not ready"},
    {kErrorCooperativeLaunchTooLarge, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE",
     "too many blocks in cooperative launch"},
    {kErrorNotSupported, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported"},
    {kErrorLaunchFailed, "CUDA_ERROR_LAUNCH_FAILED",
     "unspecified launch failure (the kernel raised an exception in the CUDA emulator)"},
};

// What the emulated device reports (an sm_90 part; the host's cores as multiprocessors).
constexpr int kMaxThreadsPerBlock = 1024;
constexpr int kMaxBlockDim[3] = {1024, 1024, 64};
constexpr int kMaxGridDim[3] = {0x7fffffff, 65535, 65535};
constexpr int kSharedPerBlock = 48 * 1024, kSharedPerBlockOptin = 227 * 1024;
constexpr int kComputeMajor = 9, kComputeMinor = 0;
constexpr size_t kAlignment = 256; // cudaMalloc's alignment
constexpr int kDriverVersion = 12040;
// The occupancy model: per multiprocessor at most this many resident threads and blocks
// (sm_90's limits; registers are not modelled).
constexpr int kThreadsPerMultiprocessor = 2048, kBlocksPerMultiprocessor = 32;

constexpr int kMaxDevices = 16;
struct Context {
  int device = 0;
};
Context contexts[kMaxDevices] = {{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}, {8}, {9}, {10}, {11}, {12}, {13}, {14}, {15}};
int deviceCount = 1; // set once when the table is filled
thread_local CUcontext currentContext = nullptr;

bool validDevice(int device) { return device >= 0 && device < deviceCount; }
// The device of the calling thread's current context (0 when none is current).
int currentDevice() { return currentContext ? reinterpret_cast<Context *>(currentContext)->device : 0; }

// Live allocations (device and page-locked host): start → bytes, for cuPointerGetAttribute
// and cuMemGetInfo.
struct Allocations {
  std::mutex mutex;
  std::map<uintptr_t, size_t> device, host;
  std::map<uintptr_t, size_t> registered; // cuMemHostRegister'ed host memory (not owned)
  std::map<uintptr_t, int> ordinal;       // device allocations: the device that made them
  size_t deviceBytes[kMaxDevices] = {};  // live device bytes per device
};
Allocations &allocations() {
  static auto *a = new Allocations(); // never freed: arrays may be released at exit
  return *a;
}

size_t physicalMemory() {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? size_t(pages) * size_t(page) : size_t(16) << 30;
}

void *alignedAllocate(size_t bytes) {
  size_t rounded = (std::max<size_t>(bytes, 1) + kAlignment - 1) / kAlignment * kAlignment;
  return std::aligned_alloc(kAlignment, rounded);
}

// The allocation map holding `p` ([start, start + bytes)), or nullptr.
const std::map<uintptr_t, size_t> *owningMap(Allocations &a, uintptr_t p) {
  for (const auto *m : {&a.device, &a.host, &a.registered}) {
    auto it = m->upper_bound(p);
    if (it == m->begin())
      continue;
    --it;
    if (p < it->first + std::max<size_t>(it->second, 1))
      return m;
  }
  return nullptr;
}

struct Module {
  EmulatorProgram program;
  int dynamicSharedLimit = kSharedPerBlock;
};

struct Stream {};

struct Event {
  bool timing = true, recorded = false;
  std::chrono::steady_clock::time_point time;
};

// ------------------------------------------------------------------ driver and devices

CUresult emuInit(unsigned) { return kSuccess; }

CUresult emuDriverGetVersion(int *version) {
  *version = kDriverVersion;
  return kSuccess;
}

CUresult errorText(CUresult error, const char **out, bool name) {
  for (const ErrorText &e : kErrors)
    if (e.code == error) {
      *out = name ? e.name : e.text;
      return kSuccess;
    }
  *out = nullptr;
  return kInvalidValue;
}
CUresult emuGetErrorName(CUresult error, const char **name) { return errorText(error, name, true); }
CUresult emuGetErrorString(CUresult error, const char **text) {
  return errorText(error, text, false);
}

CUresult emuDeviceGet(CUdevice *device, int ordinal) {
  if (!validDevice(ordinal))
    return kInvalidDevice;
  *device = ordinal;
  return kSuccess;
}

CUresult emuDeviceGetCount(int *count) {
  *count = deviceCount;
  return kSuccess;
}

CUresult emuDeviceGetAttribute(int *value, CUdevice_attribute attribute, CUdevice device) {
  if (!validDevice(device))
    return kInvalidDevice;
  switch (attribute) {
  case attr::MaxThreadsPerBlock: *value = kMaxThreadsPerBlock; break;
  case attr::MaxBlockDimX: *value = kMaxBlockDim[0]; break;
  case attr::MaxBlockDimY: *value = kMaxBlockDim[1]; break;
  case attr::MaxBlockDimZ: *value = kMaxBlockDim[2]; break;
  case attr::MaxGridDimX: *value = kMaxGridDim[0]; break;
  case attr::MaxGridDimY: *value = kMaxGridDim[1]; break;
  case attr::MaxGridDimZ: *value = kMaxGridDim[2]; break;
  case attr::MaxSharedMemoryPerBlock: *value = kSharedPerBlock; break;
  case attr::WarpSize: *value = 32; break;
  case attr::MultiprocessorCount:
    *value = int(std::max(1u, std::thread::hardware_concurrency()));
    break;
  case attr::ComputeCapabilityMajor: *value = kComputeMajor; break;
  case attr::ComputeCapabilityMinor: *value = kComputeMinor; break;
  case attr::MaxSharedMemoryPerBlockOptin: *value = kSharedPerBlockOptin; break;
  case attr::CanMapHostMemory:
  case attr::ManagedMemory:
  case attr::CooperativeLaunch: *value = 1; break;
  case attr::PciBusId: *value = device; break; // one bus per emulated device
  default: *value = 0; break; // PCI device ids, constant memory, ...: nothing to report
  }
  return kSuccess;
}

// The emulated devices are one address space (the host's): each reaches every other's
// memory; a device is not its own peer, as with the driver.
CUresult emuDeviceCanAccessPeer(int *can, CUdevice device, CUdevice peer) {
  if (!validDevice(device) || !validDevice(peer))
    return kInvalidDevice;
  *can = device != peer;
  return kSuccess;
}

CUresult emuDeviceGetName(char *name, int length, CUdevice device) {
  if (!validDevice(device))
    return kInvalidDevice;
  std::snprintf(name, size_t(length), "%s", "mahou CUDA emulator (CPU)");
  return kSuccess;
}

CUresult emuDeviceTotalMem(size_t *bytes, CUdevice device) {
  if (!validDevice(device))
    return kInvalidDevice;
  *bytes = physicalMemory();
  return kSuccess;
}

CUresult emuPrimaryCtxRetain(CUcontext *context, CUdevice device) {
  if (!validDevice(device))
    return kInvalidDevice;
  *context = reinterpret_cast<CUcontext>(&contexts[device]);
  return kSuccess;
}

CUresult emuCtxGetCurrent(CUcontext *context) {
  *context = currentContext;
  return kSuccess;
}

CUresult emuCtxSetCurrent(CUcontext context) {
  currentContext = context;
  return kSuccess;
}

CUresult emuCtxSynchronize() { return kSuccess; } // kernels finish before their launch returns
// The emulator's threads run on the host's stacks: the limit is kept, and changes nothing.
size_t emulatedStackLimit = 1024;
CUresult emuCtxGetLimit(size_t *value, CUlimit limit) {
  if (limit != kLimitStackSize)
    return kErrorNotSupported;
  *value = emulatedStackLimit;
  return kSuccess;
}
CUresult emuCtxSetLimit(CUlimit limit, size_t value) {
  if (limit != kLimitStackSize)
    return kErrorNotSupported;
  emulatedStackLimit = value;
  return kSuccess;
}
// The emulator's kernels raise on the host: their modules have no globals to look up.
CUresult emuModuleGetGlobal(CUdeviceptr *, size_t *, CUmodule, const char *) { return kNotFound; }
CUresult emuProfilerStart() { return kSuccess; }   // no profiler collects the emulator's work
CUresult emuProfilerStop() { return kSuccess; }

CUresult emuMemGetInfo(size_t *freeBytes, size_t *total) {
  Allocations &a = allocations();
  std::lock_guard lock(a.mutex);
  size_t used = a.deviceBytes[currentDevice()];
  *total = physicalMemory();
  *freeBytes = *total > used ? *total - used : 0;
  return kSuccess;
}

// ------------------------------------------------------------------ modules and launch

CUresult emuModuleLoadDataEx(CUmodule *module, const void *image, unsigned, CUjit_option *,
                             void **) {
  const auto *program = static_cast<const EmulatorProgram *>(image);
  if (!program || !program->entry)
    return kInvalidImage;
  *module = reinterpret_cast<CUmodule>(new Module{*program});
  return kSuccess;
}

CUresult emuModuleGetFunction(CUfunction *function, CUmodule module, const char *) {
  if (!module)
    return kInvalidHandle;
  *function = reinterpret_cast<CUfunction>(module); // one kernel per module
  return kSuccess;
}

CUresult emuModuleUnload(CUmodule module) {
  delete reinterpret_cast<Module *>(module);
  return kSuccess;
}

CUresult emuFuncSetAttribute(CUfunction function, CUfunction_attribute attribute, int value) {
  auto *m = reinterpret_cast<Module *>(function);
  if (!m)
    return kInvalidHandle;
  if (attribute == kFuncMaxDynamicSharedBytes) {
    if (value < 0 || value > kSharedPerBlockOptin)
      return kInvalidValue;
    m->dynamicSharedLimit = value;
  }
  return kSuccess;
}

// Registers, static shared, constant and local memory are not modelled: they read 0.
CUresult emuFuncGetAttribute(int *value, CUfunction_attribute attribute, CUfunction function) {
  auto *m = reinterpret_cast<Module *>(function);
  if (!m)
    return kInvalidHandle;
  *value = attribute == kFuncMaxDynamicSharedBytes ? m->dynamicSharedLimit
           : attribute == kFuncMaxThreadsPerBlock  ? kMaxThreadsPerBlock
                                                   : 0;
  return kSuccess;
}

int activeBlocks(int blockSize, size_t dynamicSharedBytes) {
  if (blockSize <= 0 || blockSize > kMaxThreadsPerBlock)
    return 0;
  int blocks = std::min(kBlocksPerMultiprocessor, kThreadsPerMultiprocessor / blockSize);
  if (dynamicSharedBytes)
    blocks = std::min<int>(blocks, int(size_t(kSharedPerBlockOptin) / dynamicSharedBytes));
  return blocks;
}

int multiprocessors() { return int(std::max(1u, std::thread::hardware_concurrency())); }

CUresult emuOccupancyMaxActiveBlocks(int *blocks, CUfunction function, int blockSize,
                                     size_t dynamicSharedBytes) {
  if (!function)
    return kInvalidHandle;
  *blocks = activeBlocks(blockSize, dynamicSharedBytes);
  return kSuccess;
}

CUresult emuOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, CUfunction function,
                                           CUoccupancyB2DSize blockToSharedBytes,
                                           size_t dynamicSharedBytes, int blockSizeLimit) {
  if (!function)
    return kInvalidHandle;
  int limit = blockSizeLimit > 0 ? std::min(blockSizeLimit, kMaxThreadsPerBlock) : kMaxThreadsPerBlock;
  int best = 0, bestThreads = -1;
  // The largest block size (the limit, then multiples of 32 below it) with the most
  // resident threads per multiprocessor.
  for (int size = limit; size > 0; size = size % 32 ? size - size % 32 : size - 32) {
    size_t shared = blockToSharedBytes ? blockToSharedBytes(size) : dynamicSharedBytes;
    int threads = activeBlocks(size, shared) * size;
    if (threads > bestThreads) {
      best = size;
      bestThreads = threads;
    }
  }
  *blockSize = best;
  size_t shared = blockToSharedBytes ? blockToSharedBytes(best) : dynamicSharedBytes;
  *minGridSize = activeBlocks(best, shared) * multiprocessors();
  return kSuccess;
}

// The launch limits a GPU enforces, checked the same way.
bool validLaunch(const unsigned grid[3], const unsigned block[3], unsigned sharedBytes,
                 const Module &m) {
  uint64_t threads = uint64_t(block[0]) * block[1] * block[2];
  for (int i = 0; i < 3; ++i)
    if (grid[i] == 0 || block[i] == 0 || grid[i] > unsigned(kMaxGridDim[i]) ||
        block[i] > unsigned(kMaxBlockDim[i]))
      return false;
  return threads <= kMaxThreadsPerBlock && int64_t(sharedBytes) <= m.dynamicSharedLimit;
}

CUresult launchProgram(CUfunction function, unsigned gridX, unsigned gridY, unsigned gridZ,
                       unsigned blockX, unsigned blockY, unsigned blockZ, unsigned sharedMemBytes,
                       void **kernelParams, bool cooperative) {
  auto *m = reinterpret_cast<Module *>(function);
  if (!m)
    return kInvalidHandle;
  const unsigned grid[3] = {gridX, gridY, gridZ}, block[3] = {blockX, blockY, blockZ};
  if (!validLaunch(grid, block, sharedMemBytes, *m))
    return kInvalidValue;
  if (m->program.gridSync && !cooperative)
    return kInvalidValue; // grid sync needs a cooperative launch
  if (cooperative) {
    uint64_t blocks = uint64_t(gridX) * gridY * gridZ;
    int limit = activeBlocks(int(blockX * blockY * blockZ), sharedMemBytes) * multiprocessors();
    if (blocks > uint64_t(limit))
      return kErrorCooperativeLaunchTooLarge;
  }
  // Kernel parameters (compiler.h's CompiledKernel) → the CPU entry's arguments:
  // an array's data, shape[N], strides[N] become its native struct (runtime.h).
  const EmulatorProgram &p = m->program;
  std::vector<std::unique_ptr<char[]>> arrays;
  std::vector<void *> argv;
  size_t param = 0;
  for (int ndim : p.arrayDims) {
    if (ndim < 0) {
      argv.push_back(kernelParams[param++]);
      continue;
    }
    arrays.emplace_back(new char[mahouArrayBytes(ndim)]());
    auto *head = reinterpret_cast<MahouArrayHead *>(arrays.back().get());
    std::memcpy(&head->data, kernelParams[param++], sizeof(char *));
    for (int d = 0; d < 2 * ndim; ++d)
      std::memcpy(&head->dims[d], kernelParams[param++], sizeof(int64_t));
    argv.push_back(head);
  }
  const int64_t g[3] = {gridX, gridY, gridZ}, b[3] = {blockX, blockY, blockZ};
  int32_t mode = p.gridSync ? 2 : p.synchronizes ? 1 : 0;
  int32_t status = mahou_rt_sim_launch(p.entry, argv.data(), g, b, int64_t(sharedMemBytes), mode);
  return status == 0 ? kSuccess : kErrorLaunchFailed; // the error stays pending (KernelFault)
}

CUresult emuLaunchKernel(CUfunction function, unsigned gridX, unsigned gridY, unsigned gridZ,
                         unsigned blockX, unsigned blockY, unsigned blockZ,
                         unsigned sharedMemBytes, CUstream, void **kernelParams, void **) {
  return launchProgram(function, gridX, gridY, gridZ, blockX, blockY, blockZ, sharedMemBytes,
                       kernelParams, false);
}

CUresult emuLaunchCooperativeKernel(CUfunction function, unsigned gridX, unsigned gridY,
                                    unsigned gridZ, unsigned blockX, unsigned blockY,
                                    unsigned blockZ, unsigned sharedMemBytes, CUstream,
                                    void **kernelParams) {
  return launchProgram(function, gridX, gridY, gridZ, blockX, blockY, blockZ, sharedMemBytes,
                       kernelParams, true);
}

// ------------------------------------------------------------------ memory

CUresult recordAllocation(std::map<uintptr_t, size_t> Allocations::*which, void *p,
                          size_t bytes) {
  if (!p)
    return kOutOfMemory;
  Allocations &a = allocations();
  std::lock_guard lock(a.mutex);
  (a.*which)[uintptr_t(p)] = bytes;
  if (which == &Allocations::device) {
    int device = currentDevice();
    a.ordinal[uintptr_t(p)] = device;
    a.deviceBytes[device] += bytes;
  }
  return kSuccess;
}

CUresult dropAllocation(std::map<uintptr_t, size_t> Allocations::*which, uintptr_t p) {
  Allocations &a = allocations();
  {
    std::lock_guard lock(a.mutex);
    auto it = (a.*which).find(p);
    if (it == (a.*which).end())
      return kInvalidValue;
    if (which == &Allocations::device) {
      a.deviceBytes[a.ordinal[p]] -= it->second;
      a.ordinal.erase(p);
    }
    (a.*which).erase(it);
  }
  std::free(reinterpret_cast<void *>(p));
  return kSuccess;
}

CUresult emuMemAlloc(CUdeviceptr *pointer, size_t bytes) {
  if (bytes == 0)
    return kInvalidValue;
  void *p = alignedAllocate(bytes);
  *pointer = CUdeviceptr(uintptr_t(p));
  return recordAllocation(&Allocations::device, p, bytes);
}

CUresult emuMemAllocManaged(CUdeviceptr *pointer, size_t bytes, unsigned) {
  return emuMemAlloc(pointer, bytes); // host memory serves both sides
}

// Registered host memory: remembered so that cuPointerGetAttribute knows it (not owned).
CUresult emuMemHostRegister(void *pointer, size_t bytes, unsigned) {
  if (!pointer || !bytes)
    return kInvalidValue;
  Allocations &a = allocations();
  std::lock_guard lock(a.mutex);
  a.registered[uintptr_t(pointer)] = bytes;
  return kSuccess;
}

CUresult emuMemHostUnregister(void *pointer) {
  Allocations &a = allocations();
  std::lock_guard lock(a.mutex);
  return a.registered.erase(uintptr_t(pointer)) ? kSuccess : kInvalidValue;
}

CUresult emuMemFree(CUdeviceptr pointer) {
  return dropAllocation(&Allocations::device, uintptr_t(pointer));
}

CUresult emuMemAllocHost(void **pointer, size_t bytes) {
  *pointer = alignedAllocate(bytes);
  return recordAllocation(&Allocations::host, *pointer, bytes);
}

CUresult emuMemHostAlloc(void **pointer, size_t bytes, unsigned) {
  return emuMemAllocHost(pointer, bytes);
}

CUresult emuMemHostGetDevicePointer(CUdeviceptr *device, void *host, unsigned) {
  Allocations &a = allocations();
  std::lock_guard lock(a.mutex);
  const auto *map = owningMap(a, uintptr_t(host));
  if (map != &a.host && map != &a.registered)
    return kInvalidValue;
  *device = CUdeviceptr(uintptr_t(host)); // mapped memory: the same address on both sides
  return kSuccess;
}

CUresult emuMemFreeHost(void *pointer) { return dropAllocation(&Allocations::host, uintptr_t(pointer)); }

void *hostAddress(CUdeviceptr p) { return reinterpret_cast<void *>(uintptr_t(p)); }

CUresult emuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t bytes) {
  std::memmove(hostAddress(dst), src, bytes);
  return kSuccess;
}
CUresult emuMemcpyDtoH(void *dst, CUdeviceptr src, size_t bytes) {
  std::memmove(dst, hostAddress(src), bytes);
  return kSuccess;
}
CUresult emuMemcpyDtoD(CUdeviceptr dst, CUdeviceptr src, size_t bytes) {
  std::memmove(hostAddress(dst), hostAddress(src), bytes);
  return kSuccess;
}
CUresult emuMemcpyHtoDAsync(CUdeviceptr dst, const void *src, size_t bytes, CUstream) {
  return emuMemcpyHtoD(dst, src, bytes);
}
CUresult emuMemcpyDtoHAsync(void *dst, CUdeviceptr src, size_t bytes, CUstream) {
  return emuMemcpyDtoH(dst, src, bytes);
}
CUresult emuMemcpyDtoDAsync(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream) {
  return emuMemcpyDtoD(dst, src, bytes);
}

CUresult emuMemsetD8(CUdeviceptr dst, unsigned char value, size_t count) {
  std::memset(hostAddress(dst), value, count);
  return kSuccess;
}

CUresult emuPointerGetAttribute(void *data, CUpointer_attribute attribute, CUdeviceptr pointer) {
  Allocations &a = allocations();
  std::lock_guard lock(a.mutex);
  const auto *map = owningMap(a, uintptr_t(pointer));
  if (!map)
    return kInvalidValue; // memory the emulated driver did not allocate
  if (attribute == kPointerDeviceOrdinal) {
    // Page-locked host memory belongs to the device current when it is asked about.
    int device = currentDevice();
    if (map == &a.device) {
      auto it = a.ordinal.upper_bound(uintptr_t(pointer));
      device = std::prev(it)->second;
    }
    *static_cast<int *>(data) = device;
  }
  else if (attribute == kPointerMemoryType)
    *static_cast<unsigned *>(data) = map == &a.device ? kMemoryTypeDevice : kMemoryTypeHost;
  else
    return kInvalidValue;
  return kSuccess;
}

// The allocation holding a device pointer: [base, base + bytes).
CUresult emuMemGetAddressRange(CUdeviceptr *base, size_t *bytes, CUdeviceptr pointer) {
  Allocations &a = allocations();
  std::lock_guard lock(a.mutex);
  if (owningMap(a, uintptr_t(pointer)) != &a.device)
    return kNotFound;
  auto it = std::prev(a.device.upper_bound(uintptr_t(pointer)));
  *base = CUdeviceptr(it->first);
  *bytes = it->second;
  return kSuccess;
}

// IPC: a handle names the allocation (a tag, the process, base and size), so that it can
// be made, pickled and sent; no other process can map the emulator's memory, which is
// this process's host memory, so opening one is refused (ipc.cpp says that IPC needs a GPU).
constexpr char kIpcTag[16] = "mahou-emulator";
CUresult emuIpcGetMemHandle(CUipcMemHandle *handle, CUdeviceptr pointer) {
  Allocations &a = allocations();
  std::lock_guard lock(a.mutex);
  auto it = a.device.find(uintptr_t(pointer));
  if (it == a.device.end())
    return kInvalidValue; // as the driver: only the base of a device allocation
  std::memset(handle->reserved, 0, sizeof handle->reserved);
  int64_t words[3] = {int64_t(getpid()), int64_t(it->first), int64_t(it->second)};
  std::memcpy(handle->reserved, kIpcTag, sizeof kIpcTag);
  std::memcpy(handle->reserved + sizeof kIpcTag, words, sizeof words);
  return kSuccess;
}
CUresult emuIpcOpenMemHandle(CUdeviceptr *, CUipcMemHandle, unsigned) { return kErrorNotSupported; }
CUresult emuIpcCloseMemHandle(CUdeviceptr) { return kInvalidValue; } // nothing is ever opened

// ------------------------------------------------------------------ streams and events

CUresult emuStreamCreate(CUstream *stream, unsigned) {
  *stream = reinterpret_cast<CUstream>(new Stream());
  return kSuccess;
}
CUresult emuStreamDestroy(CUstream stream) {
  delete reinterpret_cast<Stream *>(stream);
  return kSuccess;
}
CUresult emuStreamSynchronize(CUstream) { return kSuccess; }
CUresult emuStreamQuery(CUstream) { return kSuccess; }
CUresult emuStreamWaitEvent(CUstream, CUevent, unsigned) { return kSuccess; }

CUresult emuEventCreate(CUevent *event, unsigned flags) {
  constexpr unsigned kDisableTiming = 0x2;
  auto *e = new Event();
  e->timing = !(flags & kDisableTiming);
  *event = reinterpret_cast<CUevent>(e);
  return kSuccess;
}
CUresult emuEventRecord(CUevent event, CUstream) {
  auto *e = reinterpret_cast<Event *>(event);
  if (!e)
    return kInvalidHandle;
  e->recorded = true;
  e->time = std::chrono::steady_clock::now();
  return kSuccess;
}
CUresult emuEventQuery(CUevent) { return kSuccess; }
CUresult emuEventSynchronize(CUevent) { return kSuccess; }
CUresult emuEventElapsedTime(float *milliseconds, CUevent start, CUevent end) {
  auto *s = reinterpret_cast<Event *>(start), *e = reinterpret_cast<Event *>(end);
  if (!s || !e || !s->timing || !e->timing || !s->recorded || !e->recorded)
    return kInvalidHandle;
  *milliseconds = std::chrono::duration<float, std::milli>(e->time - s->time).count();
  return kSuccess;
}
CUresult emuEventDestroy(CUevent event) {
  delete reinterpret_cast<Event *>(event);
  return kSuccess;
}

} // namespace

void fillEmulatedTable(DriverTable &t) {
  if (const char *n = std::getenv("MAHOU_CUDASIM_DEVICES"); n && *n)
    deviceCount = std::max(1, std::min(kMaxDevices, std::atoi(n)));
  t.cuInit = emuInit;
  t.cuDriverGetVersion = emuDriverGetVersion;
  t.cuGetErrorName = emuGetErrorName;
  t.cuGetErrorString = emuGetErrorString;
  t.cuDeviceGet = emuDeviceGet;
  t.cuDeviceGetCount = emuDeviceGetCount;
  t.cuDeviceGetAttribute = emuDeviceGetAttribute;
  t.cuDeviceGetName = emuDeviceGetName;
  t.cuDeviceTotalMem_v2 = emuDeviceTotalMem;
  t.cuDeviceCanAccessPeer = emuDeviceCanAccessPeer;
  t.cuDevicePrimaryCtxRetain = emuPrimaryCtxRetain;
  t.cuCtxGetCurrent = emuCtxGetCurrent;
  t.cuCtxSetCurrent = emuCtxSetCurrent;
  t.cuCtxSynchronize = emuCtxSynchronize;
  t.cuCtxGetLimit = emuCtxGetLimit;
  t.cuCtxSetLimit = emuCtxSetLimit;
  t.cuProfilerStart = emuProfilerStart;
  t.cuProfilerStop = emuProfilerStop;
  t.cuMemGetInfo_v2 = emuMemGetInfo;
  t.cuModuleLoadDataEx = emuModuleLoadDataEx;
  t.cuModuleGetFunction = emuModuleGetFunction;
  t.cuModuleUnload = emuModuleUnload;
  t.cuModuleGetGlobal_v2 = emuModuleGetGlobal;
  t.cuFuncSetAttribute = emuFuncSetAttribute;
  t.cuFuncGetAttribute = emuFuncGetAttribute;
  t.cuLaunchKernel = emuLaunchKernel;
  t.cuMemAlloc_v2 = emuMemAlloc;
  t.cuMemFree_v2 = emuMemFree;
  t.cuMemAllocHost_v2 = emuMemAllocHost;
  t.cuMemHostAlloc = emuMemHostAlloc;
  t.cuMemHostGetDevicePointer_v2 = emuMemHostGetDevicePointer;
  t.cuMemFreeHost = emuMemFreeHost;
  t.cuMemcpyHtoD_v2 = emuMemcpyHtoD;
  t.cuMemcpyDtoH_v2 = emuMemcpyDtoH;
  t.cuMemcpyDtoD_v2 = emuMemcpyDtoD;
  t.cuMemcpyHtoDAsync_v2 = emuMemcpyHtoDAsync;
  t.cuMemcpyDtoHAsync_v2 = emuMemcpyDtoHAsync;
  t.cuMemcpyDtoDAsync_v2 = emuMemcpyDtoDAsync;
  t.cuMemsetD8_v2 = emuMemsetD8;
  t.cuPointerGetAttribute = emuPointerGetAttribute;
  t.cuStreamCreate = emuStreamCreate;
  t.cuStreamDestroy_v2 = emuStreamDestroy;
  t.cuStreamSynchronize = emuStreamSynchronize;
  t.cuStreamQuery = emuStreamQuery;
  t.cuStreamWaitEvent = emuStreamWaitEvent;
  t.cuEventCreate = emuEventCreate;
  t.cuEventRecord = emuEventRecord;
  t.cuEventQuery = emuEventQuery;
  t.cuEventSynchronize = emuEventSynchronize;
  t.cuEventElapsedTime = emuEventElapsedTime;
  t.cuEventDestroy_v2 = emuEventDestroy;
  t.cuOccupancyMaxPotentialBlockSize = emuOccupancyMaxPotentialBlockSize;
  t.cuOccupancyMaxActiveBlocksPerMultiprocessor = emuOccupancyMaxActiveBlocks;
  t.cuLaunchCooperativeKernel = emuLaunchCooperativeKernel;
  t.cuMemAllocManaged = emuMemAllocManaged;
  t.cuMemHostRegister_v2 = emuMemHostRegister;
  t.cuMemHostUnregister = emuMemHostUnregister;
  t.cuMemGetAddressRange_v2 = emuMemGetAddressRange;
  t.cuIpcGetMemHandle = emuIpcGetMemHandle;
  t.cuIpcOpenMemHandle_v2 = emuIpcOpenMemHandle;
  t.cuIpcCloseMemHandle = emuIpcCloseMemHandle;
  // The emulator runs no external CUDA C or PTX (kernels calling it are refused when compiled).
  t.cuLinkCreate_v2 = [](unsigned, CUjit_option *, void **, CUlinkState *) -> CUresult { return kErrorNotSupported; };
  t.cuLinkAddData_v2 = [](CUlinkState, CUjitInputType, void *, size_t, const char *, unsigned, CUjit_option *,
                          void **) -> CUresult { return kErrorNotSupported; };
  t.cuLinkComplete = [](CUlinkState, void **, size_t *) -> CUresult { return kErrorNotSupported; };
  t.cuLinkDestroy = [](CUlinkState) -> CUresult { return kErrorNotSupported; };
  // Every entry of cuda_driver.def must be set: a missing one is a build-time bug.
#define MAHOU_CUDA_FN(name, ret, params)                                                     \
  if (!t.name)                                                                               \
    std::abort();
#include "cuda_driver.def"
#undef MAHOU_CUDA_FN
}

} // namespace mahou::cuda::detail
