// Runtime side of generators (codegen/generators.cpp): coroutine frames and the
// generator object compiled code and Python hold. A frame starts with the resume and
// destroy function pointers of LLVM's switched-resume ABI; a generator object is one
// MahouMemInfo whose payload is the frame's handle, and its destructor calls the
// frame's destroy function (which releases what the suspended body holds, then frees
// the frame through mahou_rt_gen_frame_free).
#include "mahou/generators.h"
#include "mahou/objects.h"
#include "mahou/runtime.h"

#include <cstdint>
#include <cstdlib>

namespace {

constexpr size_t kFrameAlign = 64;

void generatorDtor(MahouMemInfo *mi) {
  void *handle = *static_cast<void **>(mahouObjectPayload(mi));
  mahou::runtime::generatorFrame(handle)->destroy(handle);
}

} // namespace

extern "C" {

void *mahou_rt_gen_frame_alloc(int64_t bytes) {
  // One object block (so live_allocations counts frames) holding the aligned frame; the
  // block's address is kept just before the frame.
  MahouMemInfo *mi = mahou_rt_alloc_object(bytes + int64_t(kFrameAlign + sizeof(void *)), nullptr);
  if (!mi) std::abort(); // the coroutine ramp has no failure path
  auto base = reinterpret_cast<uintptr_t>(mahouObjectPayload(mi)) + sizeof(void *);
  auto frame = (base + kFrameAlign - 1) & ~uintptr_t(kFrameAlign - 1);
  reinterpret_cast<MahouMemInfo **>(frame)[-1] = mi;
  return reinterpret_cast<void *>(frame);
}

void mahou_rt_gen_frame_free(void *frame) { mahou_rt_decref(static_cast<MahouMemInfo **>(frame)[-1]); }

MahouMemInfo *mahou_rt_gen_new(void *handle) {
  MahouMemInfo *mi = mahou_rt_alloc_object(sizeof(void *), generatorDtor);
  if (!mi) std::abort();
  *static_cast<void **>(mahouObjectPayload(mi)) = handle;
  return mi;
}

} // extern "C"
