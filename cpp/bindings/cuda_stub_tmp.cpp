// TEMPORARY (being replaced by cuda_kernel.cpp within the hour): CUDA binding hooks.
#include "binding.h"
namespace mahou::binding {
bool isCudaKernel(PyObject *) { return false; }
bool isCudaDeviceFunction(PyObject *) { return false; }
std::optional<FunctionSource> cudaDeviceFunctionSource(PyObject *) { return std::nullopt; }
void registerCuda(nanobind::module_ &) {}
} // namespace mahou::binding
