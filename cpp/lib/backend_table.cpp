// The back end's entry points in one table (backend.h), for mahou._core to call
// across the module boundary.
#include "mahou/backend.h"

#include "mahou/codegen.h"
#include "mahou/jit.h"

namespace mahou::backend {

namespace {
bool objectCode(const std::string &symbol, std::string *object) {
  return jit::Engine::created() && jit::Engine::instance().find(codegen::entrySymbol(symbol), object) != nullptr;
}
size_t linkedObjects() { return jit::Engine::created() ? jit::Engine::instance().linkedObjects() : 0; }
} // namespace

const Table &table() {
  static const Table t{
      kAbiVersion,       sizeof(Table),         &jit::useRuntimeSymbols,       &compileFunction,
      &emitStage,        &compileKernel,        &compileSimKernel,             &compileDeviceFunction,
      &emitKernelStage,  &cache::load,          &cache::store,                 &cache::objectCompatibilityKey,
      &objectCode,       &cache::linkEntry,      &linkedObjects,
  };
  return t;
}

} // namespace mahou::backend
