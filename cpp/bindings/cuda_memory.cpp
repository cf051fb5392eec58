// Host-visible CUDA memory for mahou.cuda: managed (unified) allocations exposed as
// NumPy arrays, and registration of existing host memory (cuda.pinned, cuda.mapped).
#include "cuda_binding.h"
#include "numpy_api.h"

#include <nanobind/stl/pair.h>

namespace nb = nanobind;

namespace mahou::binding {

namespace {

struct ManagedBlock {
  cuda::CUdeviceptr pointer;
  int device;
};

void freeManaged(PyObject *capsule) {
  auto *block = static_cast<ManagedBlock *>(PyCapsule_GetPointer(capsule, "mahou.managed"));
  cuda::release(block->device, block->pointer);
  delete block;
}

// A 1-D uint8 NumPy array over new managed memory (freed with the array) and its
// address, the same on the host and the device.
nb::tuple managedEmpty(size_t bytes, int device) {
  if (!ensureNumpyApi())
    throw nb::python_error();
  auto *block = new ManagedBlock{cuda::allocateManaged(device, bytes), device};
  PyObject *capsule = PyCapsule_New(block, "mahou.managed", freeManaged);
  if (!capsule) {
    cuda::release(device, block->pointer);
    delete block;
    throw nb::python_error();
  }
  nb::object hold = nb::steal(capsule);
  npy_intp dims[1] = {npy_intp(bytes)};
  PyObject *arr = PyArray_SimpleNewFromData(1, dims, NPY_UINT8, reinterpret_cast<void *>(uintptr_t(block->pointer)));
  if (!arr)
    throw nb::python_error();
  if (PyArray_SetBaseObject(reinterpret_cast<PyArrayObject *>(arr), hold.release().ptr()) < 0) {
    Py_DECREF(arr);
    throw nb::python_error();
  }
  return nb::make_tuple(nb::steal(arr), block->pointer);
}

// cuMemHostRegister of [pointer, pointer + bytes): returns (registered by this call,
// device address when mapped). Memory already registered (another array on the same
// pages) stays as it is and is not registered again.
std::pair<bool, cuda::CUdeviceptr> hostRegister(uintptr_t pointer, size_t bytes, bool mapped, int device) {
  constexpr cuda::CUresult kAlreadyRegistered = 712;
  bool registered = true;
  try {
    cuda::registerHost(device, reinterpret_cast<void *>(pointer), bytes, mapped);
  } catch (const cuda::CudaError &e) {
    if (e.code() != kAlreadyRegistered)
      throw;
    registered = false;
  }
  cuda::CUdeviceptr dev = mapped ? cuda::mappedDevicePointer(device, reinterpret_cast<void *>(pointer)) : 0;
  return {registered, dev};
}

} // namespace

void registerCudaMemory(nb::module_ &m) {
  m.def("managed_empty", &managedEmpty, nb::arg("nbytes"), nb::arg("device"),
        "(uint8 array over managed memory, its address)");
  m.def("host_register", &hostRegister, nb::arg("pointer"), nb::arg("nbytes"), nb::arg("mapped"),
        nb::arg("device"), "Page-locks host memory: (registered now, device address if mapped).");
  m.def("host_unregister", [](uintptr_t pointer, int device) {
    cuda::unregisterHost(device, reinterpret_cast<void *>(pointer));
  }, nb::arg("pointer"), nb::arg("device"));
}

} // namespace mahou::binding
