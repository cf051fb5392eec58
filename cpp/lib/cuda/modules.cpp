// Loaded kernels: PTX → CUmodule/CUfunction once per (owner, signature, device),
// kept in a process-wide cache until the owner unloads them; and the launch call.
#include "driver_table.h"

#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <vector>

namespace mahou::cuda {

namespace {

struct ModuleKey {
  const void *owner;
  std::string signature;
  int device;
  bool operator<(const ModuleKey &o) const {
    return std::tie(owner, signature, device) < std::tie(o.owner, o.signature, o.device);
  }
};

struct ModuleCache {
  std::mutex mutex;
  std::map<ModuleKey, std::unique_ptr<LoadedKernel>> kernels;
};

ModuleCache &moduleCache() {
  static auto *cache = new ModuleCache(); // never freed: modules die with the process
  return *cache;
}

constexpr size_t kJitLogBytes = 16 * 1024;
constexpr CUjit_option kJitMaxRegisters = 0, kJitErrorLogBuffer = 5,
                       kJitErrorLogBufferBytes = 6, kJitGenerateLineInfo = 13;
constexpr CUjitInputType kJitInputPtx = 1;

// The options of a JIT compile (a module load or a link): the error log and what `options` asks.
unsigned jitOptions(const LoadOptions &options, std::string &errorLog, CUjit_option *keys, void **values) {
  unsigned n = 0;
  keys[n] = kJitErrorLogBuffer;
  values[n++] = errorLog.data();
  keys[n] = kJitErrorLogBufferBytes;
  values[n++] = reinterpret_cast<void *>(uintptr_t(kJitLogBytes));
  if (options.lineinfo) {
    keys[n] = kJitGenerateLineInfo;
    values[n++] = reinterpret_cast<void *>(uintptr_t(1));
  }
  if (options.maxRegisters > 0) {
    keys[n] = kJitMaxRegisters;
    values[n++] = reinterpret_cast<void *>(uintptr_t(options.maxRegisters));
  }
  return n;
}

std::string logText(std::string errorLog) {
  errorLog.resize(errorLog.find('\0'));
  return errorLog;
}

// The kernel's PTX linked with its external code (LoadOptions::linkInputs): a cubin.
CUmodule linkAndLoad(const void *ptx, const LoadOptions &options) {
  std::string errorLog(kJitLogBytes, '\0');
  CUjit_option keys[4];
  void *values[4];
  unsigned n = jitOptions(options, errorLog, keys, values);
  CUlinkState link = nullptr;
  if (CUresult r = detail::driver().cuLinkCreate_v2(n, keys, values, &link); r != kSuccess)
    detail::fail("cuLinkCreate_v2", r, "");
  struct Destroy {
    CUlinkState link;
    ~Destroy() { detail::driver().cuLinkDestroy(link); }
  } destroy{link};
  auto add = [&](CUjitInputType type, const void *data, size_t size, const std::string &name) {
    if (CUresult r = detail::driver().cuLinkAddData_v2(link, type, const_cast<void *>(data), size, name.c_str(), 0,
                                                       nullptr, nullptr);
        r != kSuccess) {
      std::string log = logText(errorLog);
      detail::fail("cuLinkAddData_v2", r, "adding " + name + " to the link" + (log.empty() ? "" : ":\n" + log));
    }
  };
  const char *text = static_cast<const char *>(ptx);
  add(kJitInputPtx, text, std::strlen(text) + 1, "the kernel's PTX");
  for (const LinkInput &in : *options.linkInputs)
    add(in.type, in.data.data(), in.data.size() + (in.type == kJitInputPtx ? 1 : 0), in.name);
  void *cubin = nullptr;
  size_t cubinBytes = 0;
  if (CUresult r = detail::driver().cuLinkComplete(link, &cubin, &cubinBytes); r != kSuccess) {
    std::string log = logText(errorLog);
    detail::fail("cuLinkComplete", r, log.empty() ? std::string() : "link log:\n" + log);
  }
  CUmodule module = nullptr; // loaded before the link state (which owns the cubin) goes
  if (CUresult r = detail::driver().cuModuleLoadDataEx(&module, cubin, 0, nullptr, nullptr); r != kSuccess)
    detail::fail("cuModuleLoadDataEx", r, "the linked cubin");
  return module;
}

CUmodule loadModule(const void *image, const LoadOptions &options) {
  if (options.linkInputs && !options.linkInputs->empty())
    return linkAndLoad(image, options);
  std::string errorLog(kJitLogBytes, '\0');
  CUjit_option keys[4];
  void *values[4];
  unsigned n = jitOptions(options, errorLog, keys, values);
  CUmodule module = nullptr;
  CUresult r = detail::driver().cuModuleLoadDataEx(&module, image, n, keys, values);
  if (r != kSuccess) {
    errorLog.resize(errorLog.find('\0'));
    detail::fail("cuModuleLoadDataEx", r,
                 errorLog.empty() ? std::string() : "PTX JIT log:\n" + errorLog);
  }
  return module;
}

} // namespace

LoadedKernel *loadKernel(const void *owner, const std::string &signature, int device,
                         const void *image, const std::string &entry,
                         const LoadOptions &options) {
  ModuleCache &cache = moduleCache();
  ModuleKey key{owner, signature, device};
  {
    std::lock_guard lock(cache.mutex);
    if (auto it = cache.kernels.find(key); it != cache.kernels.end())
      return it->second.get();
  }
  makeCurrent(device);
  auto loaded = std::make_unique<LoadedKernel>();
  loaded->device = device;
  loaded->module = loadModule(image, options);
  if (options.stackBytes) {
    size_t current = 0;
    if (detail::driver().cuCtxGetLimit(&current, kLimitStackSize) == kSuccess && current < options.stackBytes)
      if (CUresult s = detail::driver().cuCtxSetLimit(kLimitStackSize, options.stackBytes); s != kSuccess) {
        detail::driver().cuModuleUnload(loaded->module);
        detail::fail("cuCtxSetLimit", s, "the stack of a recursive kernel");
      }
  }
  CUresult r = detail::driver().cuModuleGetFunction(&loaded->function, loaded->module,
                                                     entry.c_str());
  if (r != kSuccess) {
    detail::driver().cuModuleUnload(loaded->module);
    detail::fail("cuModuleGetFunction", r, "kernel entry '" + entry + "' not in the PTX");
  }
  if (options.errorSlot) {
    r = detail::driver().cuModuleGetGlobal_v2(&loaded->errorSlot, &loaded->errorSlotBytes, loaded->module,
                                              options.errorSlot);
    if (r != kSuccess) { // the kernel never raises (its raises were optimised away)
      loaded->errorSlot = 0;
      loaded->errorSlotBytes = 0;
    }
  }
  std::lock_guard lock(cache.mutex);
  auto [it, inserted] = cache.kernels.try_emplace(std::move(key), std::move(loaded));
  if (!inserted) // another thread loaded it meanwhile
    detail::driver().cuModuleUnload(loaded->module);
  return it->second.get();
}

bool takeKernelError(const LoadedKernel &kernel, CUstream stream, int32_t *words) {
  if (!kernel.errorSlot)
    return false;
  copyToHost(kernel.device, words, kernel.errorSlot, kernel.errorSlotBytes, stream);
  synchronizeStream(kernel.device, stream);
  if (words[0] == 0)
    return false;
  std::vector<char> zeros(kernel.errorSlotBytes, 0);
  copyToDevice(kernel.device, kernel.errorSlot, zeros.data(), zeros.size(), stream);
  synchronizeStream(kernel.device, stream);
  return true;
}

void unloadKernels(const void *owner) noexcept {
  ModuleCache &cache = moduleCache();
  std::vector<std::unique_ptr<LoadedKernel>> dropped;
  {
    std::lock_guard lock(cache.mutex);
    auto it = cache.kernels.lower_bound(ModuleKey{owner, std::string(), -1});
    while (it != cache.kernels.end() && it->first.owner == owner) {
      dropped.push_back(std::move(it->second));
      it = cache.kernels.erase(it);
    }
  }
  for (auto &k : dropped) {
    try {
      makeCurrent(k->device);
      detail::driver().cuModuleUnload(k->module); // fails only at teardown
    } catch (...) {
    }
  }
}

int functionAttribute(const LoadedKernel &kernel, CUfunction_attribute attribute) {
  makeCurrent(kernel.device);
  int value = 0;
  MAHOU_CU(cuFuncGetAttribute, &value, attribute, kernel.function);
  return value;
}

std::pair<int, int> maxPotentialBlockSize(const LoadedKernel &kernel, size_t dynamicSharedBytes,
                                          int blockSizeLimit) {
  makeCurrent(kernel.device);
  int minGrid = 0, blockSize = 0;
  MAHOU_CU(cuOccupancyMaxPotentialBlockSize, &minGrid, &blockSize, kernel.function, nullptr,
           dynamicSharedBytes, blockSizeLimit);
  return {minGrid, blockSize};
}

int maxActiveBlocksPerMultiprocessor(const LoadedKernel &kernel, int blockSize,
                                     size_t dynamicSharedBytes) {
  makeCurrent(kernel.device);
  int blocks = 0;
  MAHOU_CU(cuOccupancyMaxActiveBlocksPerMultiprocessor, &blocks, kernel.function, blockSize,
           dynamicSharedBytes);
  return blocks;
}

int maxCooperativeBlocks(const LoadedKernel &kernel, int blockSize, size_t dynamicSharedBytes) {
  return maxActiveBlocksPerMultiprocessor(kernel, blockSize, dynamicSharedBytes) *
         deviceAttribute(kernel.device, attr::MultiprocessorCount);
}

namespace {

void raiseSharedLimit(LoadedKernel &kernel, unsigned sharedBytes) {
  if (int(sharedBytes) > kernel.dynamicSharedLimit) {
    MAHOU_CU(cuFuncSetAttribute, kernel.function, kFuncMaxDynamicSharedBytes, int(sharedBytes));
    kernel.dynamicSharedLimit = int(sharedBytes);
  }
}

void checkLaunch(const char *function, CUresult r) {
  if (r == kErrorLaunchFailed && emulated())
    throw KernelFault("a kernel raised an exception in the CUDA emulator");
  detail::check(function, r);
}

} // namespace

void launch(LoadedKernel &kernel, Dim3 grid, Dim3 block, unsigned sharedBytes, CUstream stream,
            void **params) {
  makeCurrent(kernel.device);
  raiseSharedLimit(kernel, sharedBytes);
  checkLaunch("cuLaunchKernel",
              detail::driver().cuLaunchKernel(kernel.function, grid.x, grid.y, grid.z, block.x,
                                              block.y, block.z, sharedBytes, stream, params,
                                              nullptr));
}

void launchCooperative(LoadedKernel &kernel, Dim3 grid, Dim3 block, unsigned sharedBytes,
                       CUstream stream, void **params) {
  makeCurrent(kernel.device);
  if (!deviceAttribute(kernel.device, attr::CooperativeLaunch))
    throw CudaError("cuLaunchCooperativeKernel", kErrorNotSupported, "CUDA_ERROR_NOT_SUPPORTED",
                    "device " + std::to_string(kernel.device) +
                        " does not support cooperative launches (needed by grid sync)");
  raiseSharedLimit(kernel, sharedBytes);
  uint64_t blocks = uint64_t(grid.x) * grid.y * grid.z;
  int threads = int(uint64_t(block.x) * block.y * block.z);
  int limit = maxCooperativeBlocks(kernel, threads, sharedBytes);
  if (blocks > uint64_t(limit))
    throw CudaError("cuLaunchCooperativeKernel", kErrorCooperativeLaunchTooLarge,
                    "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE",
                    "a kernel that synchronises the grid was launched with " +
                        std::to_string(blocks) + " blocks of " + std::to_string(threads) +
                        " threads, but at most " + std::to_string(limit) +
                        " such blocks can be co-resident on device " +
                        std::to_string(kernel.device) + " (kernel.max_cooperative_grid_blocks)");
  checkLaunch("cuLaunchCooperativeKernel",
              detail::driver().cuLaunchCooperativeKernel(kernel.function, grid.x, grid.y, grid.z,
                                                         block.x, block.y, block.z, sharedBytes,
                                                         stream, params));
}

} // namespace mahou::cuda
