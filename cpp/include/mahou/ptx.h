// The NVPTX back end: target machines per compute capability, libdevice linking,
// the optimisation pipeline and PTX emission. Works on machines without a GPU.
#pragma once

#include <array>
#include <string>

namespace llvm {
class Module;
}

namespace mahou::ptx {

struct Target {
  int ccMajor = 9, ccMinor = 0;
  std::string libdevicePath; // empty: CUDA_HOME, /usr/local/cuda, the pip nvidia-cuda-nvcc package
};

// Links the libdevice functions the module calls (if any), internalises all but
// the kernels, sets the data layout, and runs the O3 pipeline for sm_XY.
// Throws a UserError-free InternalError when libdevice is needed but not found.
void optimize(llvm::Module &module, const Target &target, const std::string &exported = {});
std::string emitPtx(llvm::Module &module, const Target &target);
// "sm_90"
std::string smName(const Target &target);
// Gives a new module NVPTX's triple and data layout before any IR is built, so that
// loads, stores and atomics get the target's natural alignments (i64 is 8-byte
// aligned there, 4 in LLVM's default layout: the difference splits 64-bit accesses).
void prepareModule(llvm::Module &module);
// Gives every load and store of memory that is neither a local nor a shared/constant
// variable the alignment 1: the GPU traps on a misaligned access, and an array may be a
// view of a packed record's field (its data or strides not multiples of its item).
void relaxAlignment(llvm::Module &module);
// cuda.jit(launch_bounds=...) on the kernel named kernelName: max threads per block, min
// blocks per multiprocessor, max blocks per cluster (a 0 is not given).
void annotateLaunchBounds(llvm::Module &module, const std::string &kernelName, const std::array<int, 3> &bounds);

} // namespace mahou::ptx
