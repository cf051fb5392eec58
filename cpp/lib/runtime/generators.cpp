// Runtime side of generators (codegen/generators.cpp): the generator object compiled
// code and Python hold. It is one MahouMemInfo block whose coroutine frame starts at a
// fixed offset after the header (the frame's handle, mahou/generators.h); the frame
// starts with the resume and destroy function pointers of LLVM's switched-resume ABI.
// When the last reference goes, the destructor calls the frame's destroy function
// (which releases what the suspended body holds); then the block is freed as any object.
#include "mahou/generators.h"

#include <cstdint>
#include <cstdlib>

namespace {

void generatorDtor(MahouMemInfo *mi) {
  void *handle = mahou::runtime::generatorHandle(mi);
  mahou::runtime::generatorFrame(handle)->destroy(handle);
}

} // namespace

extern "C" {

void *mahou_rt_gen_frame_alloc(int64_t bytes) {
  constexpr int64_t pad = int64_t(mahou::runtime::kGeneratorFrameOffset - sizeof(MahouMemInfo));
  MahouMemInfo *mi = mahou_rt_alloc_object(pad + bytes, generatorDtor);
  if (!mi) std::abort(); // the coroutine's ramp has no failure path
  return mahou::runtime::generatorHandle(mi);
}

} // extern "C"
