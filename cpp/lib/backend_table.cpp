// The back end's entry points in one table (backend.h), for mahou._core to call
// across the module boundary.
#include "mahou/backend.h"

#include "mahou/codegen.h"
#include "mahou/jit.h"

#include <llvm/ADT/StringRef.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/TargetParser/Host.h>

namespace mahou::backend {

namespace {
bool objectCode(const std::string &symbol, std::string *object) {
  return jit::Engine::created() && jit::Engine::instance().find(codegen::entrySymbol(symbol), object) != nullptr;
}
size_t linkedObjects() { return jit::Engine::created() ? jit::Engine::instance().linkedObjects() : 0; }

void targetInfo(TargetInfo *out) {
  out->llvmVersion = LLVM_VERSION_STRING;
#ifdef MAHOU_LLVM_STATIC
  out->llvmLink = "static";
#else
  out->llvmLink = "shared";
#endif
  // targetId() is "triple|cpu|features".
  const std::string &id = jit::Engine::instance().targetId();
  size_t a = id.find('|'), b = id.find('|', a + 1);
  out->triple = id.substr(0, a);
  out->cpuName = id.substr(a + 1, b - a - 1);
  out->cpuFeatures = id.substr(b + 1);
  out->hostCpuName = llvm::sys::getHostCPUName().str();
}
} // namespace

const Table &table() {
  static const Table t{
      kAbiVersion,       sizeof(Table),         &jit::useRuntimeSymbols,       &compileFunction,
      &emitStage,        &compileKernel,        &compileSimKernel,             &compileDeviceFunction,
      &emitKernelStage,  &cache::load,          &cache::store,                 &cache::objectCompatibilityKey,
      &objectCode,       &cache::linkEntry,      &linkedObjects,                &targetInfo,
  };
  return t;
}

} // namespace mahou::backend
