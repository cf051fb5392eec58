// Loading of libcuda.so.1 (dlopen, once), error reporting, devices and their
// primary contexts, device and page-locked memory, copies, streams and events.
#include "driver_table.h"

#include <dlfcn.h>

#include <array>
#include <atomic>
#include <mutex>
#include <vector>

namespace mahou::cuda {

namespace detail {

namespace {

// The outcome of loading the driver: the table, or why it is unusable.
struct DriverState {
  DriverTable table;
  bool ok = false;
  CUresult initResult = kSuccess; // cuInit's result when it failed
  std::string why;
};

const char *const kLibraryNames[] = {"libcuda.so.1", "libcuda.so"};

// Which driver the process uses, fixed when the table is first loaded.
enum EmulatorMode : int { kRealDriver = 0, kEmulator = 1, kEmulatorWithChecks = 2 };
std::atomic<int> emulatorMode{kRealDriver};
std::atomic<bool> driverLoading{false};

DriverState *loadDriver() {
  auto *state = new DriverState(); // never freed: modules may be released at exit
  driverLoading = true;
  if (emulatorMode != kRealDriver) {
    fillEmulatedTable(state->table);
    state->ok = true;
    return state;
  }
  void *lib = nullptr;
  std::string errors;
  for (const char *name : kLibraryNames) {
    if ((lib = dlopen(name, RTLD_NOW | RTLD_LOCAL)))
      break;
    const char *err = dlerror();
    errors += std::string(errors.empty() ? "" : "; ") + (err ? err : name);
  }
  if (!lib) {
    state->why = "the CUDA driver library could not be loaded (" + errors + ")";
    return state;
  }
  DriverTable &t = state->table;
#define MAHOU_CUDA_FN(name, ret, params)                                                     \
  t.name = reinterpret_cast<ret(*) params>(dlsym(lib, #name));                               \
  if (!t.name) {                                                                             \
    state->why = "the CUDA driver has no " #name " (driver too old?)";                       \
    return state;                                                                            \
  }
#include "cuda_driver.def"
#undef MAHOU_CUDA_FN
  if (CUresult r = t.cuInit(0); r != kSuccess) {
    const char *name = nullptr;
    if (t.cuGetErrorName(r, &name) != kSuccess || !name)
      name = "unknown error";
    state->initResult = r;
    state->why = std::string("cuInit failed: ") + name;
    return state;
  }
  state->ok = true;
  return state;
}

const DriverState &driverState() {
  static const DriverState *state = loadDriver(); // thread-safe once
  return *state;
}

} // namespace

const DriverTable &driver() {
  const DriverState &s = driverState();
  if (!s.ok)
    throw CudaError(s.initResult ? "cuInit" : "dlopen", s.initResult,
                    s.initResult ? "CUDA_ERROR_NO_DEVICE" : "CUDA_ERROR_NOT_FOUND",
                    "CUDA is not available: " + s.why);
  return s.table;
}

void fail(const char *function, CUresult result, const std::string &detail) {
  const DriverTable &t = driverState().table;
  const char *name = nullptr, *text = nullptr;
  if (!t.cuGetErrorName || t.cuGetErrorName(result, &name) != kSuccess || !name)
    name = "CUDA_ERROR_UNKNOWN";
  if (!t.cuGetErrorString || t.cuGetErrorString(result, &text) != kSuccess || !text)
    text = "unknown error";
  std::string what = std::string(function) + " failed: " + name + " (" + text + ")";
  if (!detail.empty())
    what += "\n" + detail;
  throw CudaError(function, result, name, what);
}

void check(const char *function, CUresult result) {
  if (result != kSuccess) [[unlikely]]
    fail(function, result);
}

} // namespace detail

using detail::driver;

bool useEmulator(bool checks) {
  int mode = checks ? detail::kEmulatorWithChecks : detail::kEmulator;
  if (detail::driverLoading)
    return detail::emulatorMode == mode;
  detail::emulatorMode = mode;
  return true;
}

bool emulated() { return detail::emulatorMode != detail::kRealDriver; }

bool emulatorChecks() { return detail::emulatorMode == detail::kEmulatorWithChecks; }

namespace {

constexpr int kMaxDevices = 64;

// Primary contexts, retained once per device for the life of the process.
struct ContextTable {
  std::mutex mutex;
  std::array<CUcontext, kMaxDevices> contexts{};
  std::array<std::pair<int, int>, kMaxDevices> cc{};
};

ContextTable &contextTable() {
  static auto *table = new ContextTable(); // never freed: used until exit
  return *table;
}

thread_local int tlsDevice = 0;

void checkOrdinal(int device) {
  int count = deviceCount();
  if (device < 0 || device >= count || device >= kMaxDevices)
    throw CudaError("cuDeviceGet", 101, "CUDA_ERROR_INVALID_DEVICE",
                    "invalid CUDA device " + std::to_string(device) + " (" +
                        std::to_string(count) + " available)");
}

CUcontext primaryContext(int device) {
  ContextTable &table = contextTable();
  if (device >= 0 && device < kMaxDevices) {
    if (CUcontext c = __atomic_load_n(&table.contexts[size_t(device)], __ATOMIC_ACQUIRE))
      return c;
  }
  checkOrdinal(device);
  std::lock_guard lock(table.mutex);
  CUcontext &slot = table.contexts[size_t(device)];
  if (!slot) {
    CUdevice dev = 0;
    MAHOU_CU(cuDeviceGet, &dev, device);
    CUcontext ctx = nullptr;
    MAHOU_CU(cuDevicePrimaryCtxRetain, &ctx, dev);
    __atomic_store_n(&slot, ctx, __ATOMIC_RELEASE);
  }
  return slot;
}

} // namespace

// ------------------------------------------------------------------ driver and devices

bool available(std::string *why) {
  const auto &s = detail::driverState();
  if (!s.ok) {
    if (why)
      *why = s.why;
    return false;
  }
  int count = 0;
  if (CUresult r = s.table.cuDeviceGetCount(&count); r != kSuccess || count == 0) {
    if (why)
      *why = r != kSuccess ? "cuDeviceGetCount failed" : "no CUDA device found";
    return false;
  }
  return true;
}

int driverVersion() {
  int v = 0;
  MAHOU_CU(cuDriverGetVersion, &v);
  return v;
}

int deviceCount() {
  if (!detail::driverState().ok)
    return 0;
  int count = 0;
  MAHOU_CU(cuDeviceGetCount, &count);
  return count;
}

int deviceAttribute(int device, CUdevice_attribute attribute) {
  checkOrdinal(device);
  CUdevice dev = 0;
  MAHOU_CU(cuDeviceGet, &dev, device);
  int value = 0;
  MAHOU_CU(cuDeviceGetAttribute, &value, attribute, dev);
  return value;
}

bool canAccessPeer(int device, int peer) {
  checkOrdinal(device);
  checkOrdinal(peer);
  if (device == peer) // not its own peer (numba-cuda's IPC handles answer True there before asking)
    return false;
  CUdevice dev = 0, other = 0;
  MAHOU_CU(cuDeviceGet, &dev, device);
  MAHOU_CU(cuDeviceGet, &other, peer);
  int can = 0;
  MAHOU_CU(cuDeviceCanAccessPeer, &can, dev, other);
  return can != 0;
}

std::pair<int, int> computeCapability(int device) {
  ContextTable &table = contextTable();
  checkOrdinal(device);
  {
    std::lock_guard lock(table.mutex);
    if (table.cc[size_t(device)].first)
      return table.cc[size_t(device)];
  }
  std::pair<int, int> cc{deviceAttribute(device, attr::ComputeCapabilityMajor),
                         deviceAttribute(device, attr::ComputeCapabilityMinor)};
  std::lock_guard lock(table.mutex);
  table.cc[size_t(device)] = cc;
  return cc;
}

DeviceInfo deviceInfo(int device) {
  checkOrdinal(device);
  CUdevice dev = 0;
  MAHOU_CU(cuDeviceGet, &dev, device);
  DeviceInfo info;
  info.ordinal = device;
  char name[256] = {};
  MAHOU_CU(cuDeviceGetName, name, int(sizeof name - 1), dev);
  info.name = name;
  std::tie(info.ccMajor, info.ccMinor) = computeCapability(device);
  info.multiprocessors = deviceAttribute(device, attr::MultiprocessorCount);
  info.warpSize = deviceAttribute(device, attr::WarpSize);
  info.maxThreadsPerBlock = deviceAttribute(device, attr::MaxThreadsPerBlock);
  info.pciBus = deviceAttribute(device, attr::PciBusId);
  info.pciDevice = deviceAttribute(device, attr::PciDeviceId);
  MAHOU_CU(cuDeviceTotalMem_v2, &info.totalMemory, dev);
  return info;
}

int currentDevice() { return tlsDevice; }

void selectDevice(int device) {
  checkOrdinal(device);
  tlsDevice = device;
  makeCurrent(device);
}

void makeCurrent(int device) {
  CUcontext ctx = primaryContext(device);
  CUcontext current = nullptr;
  MAHOU_CU(cuCtxGetCurrent, &current);
  if (current != ctx)
    MAHOU_CU(cuCtxSetCurrent, ctx);
}

void synchronize(int device) {
  makeCurrent(device);
  MAHOU_CU(cuCtxSynchronize);
}

void profiler(int device, bool start) {
  makeCurrent(device);
  if (start)
    MAHOU_CU(cuProfilerStart);
  else
    MAHOU_CU(cuProfilerStop);
}

std::pair<size_t, size_t> memoryInfo(int device) {
  makeCurrent(device);
  size_t freeBytes = 0, total = 0;
  MAHOU_CU(cuMemGetInfo_v2, &freeBytes, &total);
  return {freeBytes, total};
}

// ------------------------------------------------------------------ memory

CUdeviceptr allocate(int device, size_t bytes) {
  if (bytes == 0)
    return 0;
  makeCurrent(device);
  CUdeviceptr p = 0;
  MAHOU_CU(cuMemAlloc_v2, &p, bytes);
  return p;
}

void release(int device, CUdeviceptr pointer) noexcept {
  if (!pointer)
    return;
  try {
    makeCurrent(device);
    driver().cuMemFree_v2(pointer); // fails only at teardown: nothing to do then
  } catch (...) {
  }
}

void *allocateHost(int device, size_t bytes, bool mapped) {
  makeCurrent(device);
  void *p = nullptr;
  constexpr unsigned kPortable = 0x01, kDeviceMap = 0x02;
  if (mapped)
    MAHOU_CU(cuMemHostAlloc, &p, bytes ? bytes : 1, kPortable | kDeviceMap);
  else
    MAHOU_CU(cuMemAllocHost_v2, &p, bytes ? bytes : 1);
  return p;
}

void releaseHost(int device, void *pointer) noexcept {
  if (!pointer)
    return;
  try {
    makeCurrent(device);
    driver().cuMemFreeHost(pointer);
  } catch (...) {
  }
}

CUdeviceptr mappedDevicePointer(int device, void *host) {
  makeCurrent(device);
  CUdeviceptr p = 0;
  MAHOU_CU(cuMemHostGetDevicePointer_v2, &p, host, 0);
  return p;
}

CUdeviceptr allocateManaged(int device, size_t bytes) {
  if (!deviceAttribute(device, attr::ManagedMemory))
    throw CudaError("cuMemAllocManaged", kErrorNotSupported, "CUDA_ERROR_NOT_SUPPORTED",
                    "device " + std::to_string(device) + " has no managed memory");
  makeCurrent(device);
  constexpr unsigned kAttachGlobal = 0x1;
  CUdeviceptr p = 0;
  MAHOU_CU(cuMemAllocManaged, &p, bytes ? bytes : 1, kAttachGlobal);
  return p;
}

void registerHost(int device, void *pointer, size_t bytes, bool mapped) {
  if (!bytes)
    return;
  makeCurrent(device);
  constexpr unsigned kPortable = 0x01, kDeviceMap = 0x02;
  MAHOU_CU(cuMemHostRegister_v2, pointer, bytes, kPortable | (mapped ? kDeviceMap : 0u));
}

void unregisterHost(int device, void *pointer) noexcept {
  try {
    makeCurrent(device);
    driver().cuMemHostUnregister(pointer);
  } catch (...) {
  }
}

void copyToDevice(int device, CUdeviceptr dst, const void *src, size_t bytes, CUstream stream) {
  if (!bytes)
    return;
  makeCurrent(device);
  if (stream)
    MAHOU_CU(cuMemcpyHtoDAsync_v2, dst, src, bytes, stream);
  else
    MAHOU_CU(cuMemcpyHtoD_v2, dst, src, bytes);
}

void copyToHost(int device, void *dst, CUdeviceptr src, size_t bytes, CUstream stream) {
  if (!bytes)
    return;
  makeCurrent(device);
  if (stream)
    MAHOU_CU(cuMemcpyDtoHAsync_v2, dst, src, bytes, stream);
  else
    MAHOU_CU(cuMemcpyDtoH_v2, dst, src, bytes);
}

void copyDeviceToDevice(int device, CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                        CUstream stream) {
  if (!bytes)
    return;
  makeCurrent(device);
  if (stream)
    MAHOU_CU(cuMemcpyDtoDAsync_v2, dst, src, bytes, stream);
  else
    MAHOU_CU(cuMemcpyDtoD_v2, dst, src, bytes);
}

void memset8(int device, CUdeviceptr dst, unsigned char value, size_t bytes) {
  if (!bytes)
    return;
  makeCurrent(device);
  MAHOU_CU(cuMemsetD8_v2, dst, value, bytes);
}

int pointerDevice(CUdeviceptr pointer) {
  int ordinal = -1;
  CUresult r = driver().cuPointerGetAttribute(&ordinal, kPointerDeviceOrdinal, pointer);
  return r == kSuccess ? ordinal : -1;
}

// ------------------------------------------------------------------ streams and events

CUstream createStream(int device, bool nonBlocking) {
  makeCurrent(device);
  CUstream s = nullptr;
  MAHOU_CU(cuStreamCreate, &s, nonBlocking ? 1u : 0u);
  return s;
}

void destroyStream(int device, CUstream stream) noexcept {
  if (!stream)
    return;
  try {
    makeCurrent(device);
    driver().cuStreamDestroy_v2(stream);
  } catch (...) {
  }
}

void synchronizeStream(int device, CUstream stream) {
  makeCurrent(device);
  MAHOU_CU(cuStreamSynchronize, stream);
}

bool streamIdle(int device, CUstream stream) {
  makeCurrent(device);
  CUresult r = driver().cuStreamQuery(stream);
  if (r == kErrorNotReady)
    return false;
  detail::check("cuStreamQuery", r);
  return true;
}

CUevent createEvent(int device, bool timing) {
  makeCurrent(device);
  constexpr unsigned kDisableTiming = 0x2;
  CUevent e = nullptr;
  MAHOU_CU(cuEventCreate, &e, timing ? 0u : kDisableTiming);
  return e;
}

void destroyEvent(int device, CUevent event) noexcept {
  if (!event)
    return;
  try {
    makeCurrent(device);
    driver().cuEventDestroy_v2(event);
  } catch (...) {
  }
}

void recordEvent(int device, CUevent event, CUstream stream) {
  makeCurrent(device);
  MAHOU_CU(cuEventRecord, event, stream);
}

void synchronizeEvent(int device, CUevent event) {
  makeCurrent(device);
  MAHOU_CU(cuEventSynchronize, event);
}

bool eventDone(int device, CUevent event) {
  makeCurrent(device);
  CUresult r = driver().cuEventQuery(event);
  if (r == kErrorNotReady)
    return false;
  detail::check("cuEventQuery", r);
  return true;
}

void streamWaitEvent(int device, CUstream stream, CUevent event) {
  makeCurrent(device);
  MAHOU_CU(cuStreamWaitEvent, stream, event, 0);
}

float elapsedMs(int device, CUevent start, CUevent end) {
  makeCurrent(device);
  float ms = 0;
  MAHOU_CU(cuEventElapsedTime, &ms, start, end);
  return ms;
}

} // namespace mahou::cuda
