// The runtime ABI of generators shared by compiled code (codegen/generators.cpp), the
// runtime (runtime/generators.cpp) and the binding (a generator returned to Python).
#pragma once

#include "mahou/layout.h"
#include "mahou/objects.h"
#include "mahou/runtime.h"

#include <cstdint>

namespace mahou::runtime {

// The start of an LLVM switched-resume coroutine frame; resume is null once the body
// has ended (suspended at its final point).
struct GeneratorFrame {
  void (*resume)(void *);
  void (*destroy)(void *);
};
inline GeneratorFrame *generatorFrame(void *handle) { return static_cast<GeneratorFrame *>(handle); }

// The promise compiled code keeps in the frame: {int32 state; item}, at a fixed offset
// after the two function pointers (aligned to the promise's alignment).
enum GeneratorState : int32_t { kGeneratorReady = 0, kGeneratorRaised = 1, kGeneratorDone = 2 };
inline size_t generatorItemOffset(const types::Type &item) {
  size_t a = std::max<size_t>(4, types::nativeAlign(item));
  return (4 + a - 1) / a * a;
}
inline char *generatorPromise(void *handle, const types::Type &item) {
  size_t a = std::max<size_t>(4, types::nativeAlign(item));
  size_t off = (2 * sizeof(void *) + a - 1) / a * a;
  return static_cast<char *>(handle) + off;
}
// A generator object is one MahouMemInfo block holding the coroutine frame at this
// offset (16-byte aligned: malloc's alignment; codegen adds it to get the handle).
constexpr size_t kGeneratorFrameOffset = 48;
static_assert(kGeneratorFrameOffset >= sizeof(MahouMemInfo) && kGeneratorFrameOffset % 16 == 0);
inline void *generatorHandle(MahouMemInfo *gen) { return reinterpret_cast<char *>(gen) + kGeneratorFrameOffset; }

} // namespace mahou::runtime
