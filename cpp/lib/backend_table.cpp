// The back end's entry points in one table (backend.h), for mahou._core to call
// across the module boundary.
#include "mahou/backend.h"

#include "mahou/jit.h"

namespace mahou::backend {

const Table &table() {
  static const Table t{
      kAbiVersion,       sizeof(Table),         &jit::useRuntimeSymbols,       &compileFunction,
      &emitStage,        &compileKernel,        &compileSimKernel,             &compileDeviceFunction,
      &emitKernelStage,  &cache::load,          &cache::store,
  };
  return t;
}

} // namespace mahou::backend
