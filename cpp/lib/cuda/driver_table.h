// Internal to cpp/lib/cuda: the resolved driver function table and the checked
// call helper shared by the driver, memory and module files.
#pragma once

#include "mahou/cuda_driver.h"

namespace mahou::cuda::detail {

struct DriverTable {
#define MAHOU_CUDA_FN(name, ret, params) ret(*name) params = nullptr;
#include "cuda_driver.def"
#undef MAHOU_CUDA_FN
};

// The CPU emulator's implementations of the table's functions (emulated_driver.cpp).
void fillEmulatedTable(DriverTable &table);

// The table, loaded on first use; throws CudaError when the driver is unusable.
const DriverTable &driver();
// Throws CudaError naming `function` unless result is CUDA_SUCCESS.
void check(const char *function, CUresult result);
[[noreturn]] void fail(const char *function, CUresult result, const std::string &detail = "");

} // namespace mahou::cuda::detail

// A checked driver call: MAHOU_CU(cuMemAlloc_v2, &pointer, bytes).
#define MAHOU_CU(name, ...)                                                                  \
  ::mahou::cuda::detail::check(#name, ::mahou::cuda::detail::driver().name(__VA_ARGS__))
