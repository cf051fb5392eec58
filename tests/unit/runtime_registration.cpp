// The unit tests hold the runtime themselves: its symbols are given to the JIT before
// any test runs (mahou._core does this through the back-end table).
#include "mahou/jit.h"
#include "mahou/runtime.h"

namespace {

const bool registered = [] {
  size_t count = 0;
  const mahou::runtime::RuntimeSymbol *symbols = mahou::runtime::runtimeSymbols(&count);
  mahou::jit::useRuntimeSymbols(symbols, count);
  return true;
}();

} // namespace
