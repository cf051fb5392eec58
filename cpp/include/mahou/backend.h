// The compiler back end as the Python extension reaches it. Everything that needs LLVM
// (the pipelines, codegen, the JIT, the on-disk cache) is in the mahou._backend module,
// imported on the first compile, so `import mahou` does not load libLLVM; mahou._core
// (dispatchers, boxing, the runtime, the CUDA driver) calls it through this table.
#pragma once

#include "mahou/cache.h"
#include "mahou/compiler.h"
#include "mahou/runtime.h"

#include <cstdint>

namespace mahou::backend {

constexpr uint32_t kAbiVersion = 1;

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
};

// The back end's table (backend_table.cpp, linked into mahou._backend).
const Table &table();

} // namespace mahou::backend
