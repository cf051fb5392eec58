// The compiler back end as the Python extension reaches it. Everything that needs LLVM
// (the pipelines, codegen, the JIT, the on-disk cache) is in the mahou._backend module,
// imported on the first compile, so `import mahou` does not load libLLVM; mahou._core
// (dispatchers, boxing, the runtime, the CUDA driver) calls it through this table.
#pragma once

#include "mahou/cache.h"
#include "mahou/compiler.h"
#include "mahou/runtime.h"

#include <cstdint>
#include <string>

namespace mahou::backend {

constexpr uint32_t kAbiVersion = 2;

// What the back end was built with and compiles for (mahou -s).
struct TargetInfo {
  std::string llvmVersion;   // LLVM_VERSION_STRING
  std::string llvmLink;      // "shared" or "static" (how _backend links LLVM)
  std::string triple;        // the JIT's target triple
  std::string cpuName;       // the CPU the JIT compiles for (NUMBA_CPU_NAME or the host's)
  std::string cpuFeatures;   // its feature string (+avx2,...)
  std::string hostCpuName;   // the host's own CPU name
};

struct Table {
  uint32_t abiVersion; // kAbiVersion of the back end's build
  size_t size;         // sizeof(Table) of the back end's build
  // Called once by _core before anything else: the runtime compiled code calls.
  void (*useRuntimeSymbols)(const runtime::RuntimeSymbol *symbols, size_t count);
  decltype(&mahou::compileFunction) compileFunction;
  decltype(&mahou::emitStage) emitStage;
  decltype(&mahou::compileKernel) compileKernel;
  decltype(&mahou::compileSimKernel) compileSimKernel;
  decltype(&mahou::compileDeviceFunction) compileDeviceFunction;
  decltype(&mahou::emitKernelStage) emitKernelStage;
  decltype(&mahou::cache::load) cacheLoad;
  decltype(&mahou::cache::store) cacheStore;
  // Shipped machine code (pickled dispatchers): the key it must match, the object code
  // of a compiled function linked in this process (by its symbol; false when none),
  // and linking a shipped entry.
  decltype(&mahou::cache::objectCompatibilityKey) objectCompatibilityKey;
  bool (*objectCode)(const std::string &symbol, std::string *object);
  decltype(&mahou::cache::linkEntry) linkEntry;
  // Object files the JIT holds linked now (they go with the last overload using them).
  size_t (*linkedObjects)();
  // The LLVM version and the JIT's target (creates the JIT if needed).
  void (*targetInfo)(TargetInfo *out);
};

// The back end's table (backend_table.cpp, linked into mahou._backend).
const Table &table();

} // namespace mahou::backend
