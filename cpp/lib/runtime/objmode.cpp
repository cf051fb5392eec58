// Calls from compiled code into the interpreter: `with objmode(...)` blocks. The
// runtime does not know Python; the binding installs the hooks that run a block's
// function (boxing its inputs, unboxing its outputs) and that drop a Python exception
// once a compiled except clause has handled it.
#include "mahou/runtime.h"
#include "mahou/types.h"

#include <atomic>

namespace {

std::atomic<mahou::runtime::ObjModeHook> callHook{nullptr};
std::atomic<void (*)(void *)> releaseHook{nullptr};

} // namespace

void mahou::runtime::setObjModeHooks(ObjModeHook call, void (*releaseForeign)(void *exception)) {
  callHook.store(call, std::memory_order_release);
  releaseHook.store(releaseForeign, std::memory_order_release);
}

void mahou::runtime::releaseForeignError(void *exception) {
  if (auto hook = releaseHook.load(std::memory_order_acquire)) hook(exception);
}

extern "C" int32_t mahou_rt_objmode_call(void *site, void *inputs, void *outputs) {
  auto hook = callHook.load(std::memory_order_acquire);
  if (!hook) {
    mahou_rt_set_error(int32_t(mahou::types::ExcKind::RuntimeError),
                       "an objmode block needs the Python interpreter (not in an ahead-of-time library)");
    return 1;
  }
  return hook(site, inputs, outputs);
}
