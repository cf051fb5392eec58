// The kernel launch API's native part: which overload a set of launch arguments
// selects, and what the driver says about a loaded overload (registers, shared and
// local memory, occupancy, cooperative grid limits). mahou.cuda._kernel_api builds
// Numba's methods (forall, specialize, get_regs_per_thread, ...) on these.
#include "cuda_binding.h"

#include <algorithm>

namespace nb = nanobind;

namespace mahou::binding {

namespace {

KernelObject *kernelOf(PyObject *obj) { return reinterpret_cast<KernelObject *>(obj); }

// The overload at `index` of st.overloads, loaded on the current device; null with an error.
cuda::LoadedKernel *loadedOverload(KernelObject *k, Py_ssize_t index) {
  KernelState &st = *k->state;
  if (index < 0 || size_t(index) >= st.overloads.size()) {
    PyErr_Format(PyExc_IndexError, "kernel '%s' has no overload %zd", st.name.c_str(), index);
    return nullptr;
  }
  cuda::LoadedKernel *loaded = nullptr;
  if (!translateErrors([&] { loaded = &loadedKernel(k, *st.overloads[size_t(index)], cuda::currentDevice()); }))
    return nullptr;
  return loaded;
}

// _overload_index(*args): index in `signatures` of the overload these launch arguments
// select (compiled now when compiling is allowed).
PyObject *kernelOverloadIndex(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  KernelObject *k = kernelOf(self);
  KernelState &st = *k->state;
  if (st.isDevice) {
    PyErr_Format(PyExc_TypeError, "'%s' is a device function, not a kernel", st.name.c_str());
    return nullptr;
  }
  KernelOverload *ov = overloadForArguments(k, args, size_t(nargs));
  if (!ov)
    return nullptr;
  for (size_t i = 0; i < st.overloads.size(); ++i)
    if (st.overloads[i].get() == ov)
      return PyLong_FromSize_t(i);
  PyErr_SetString(PyExc_RuntimeError, "internal error: overload not in the kernel's list");
  return nullptr;
}

// _function_attribute(index, attribute): cuFuncGetAttribute of that overload.
PyObject *kernelFunctionAttribute(PyObject *self, PyObject *args) {
  Py_ssize_t index;
  int attribute;
  if (!PyArg_ParseTuple(args, "ni:_function_attribute", &index, &attribute))
    return nullptr;
  cuda::LoadedKernel *loaded = loadedOverload(kernelOf(self), index);
  if (!loaded)
    return nullptr;
  int value = 0;
  if (!translateErrors([&] { value = cuda::functionAttribute(*loaded, attribute); }))
    return nullptr;
  // launch_bounds=: at most that many threads, as the driver reads the PTX's .maxntid (the
  // emulator runs the host's code, which has no such directive)
  int most = kernelOf(self)->state->launchBounds[0];
  if (attribute == cuda::kFuncMaxThreadsPerBlock && most > 0) value = std::min(value, most);
  return PyLong_FromLong(value);
}

// _occupancy(index, what, block_size, dynamic_shared_bytes): what = "block_size"
// → (min grid size, block size); "active_blocks" → blocks per multiprocessor;
// "cooperative_blocks" → the most blocks a cooperative launch may have.
PyObject *kernelOccupancy(PyObject *self, PyObject *args) {
  Py_ssize_t index;
  const char *what;
  int blockSize;
  unsigned long long shared;
  if (!PyArg_ParseTuple(args, "nsiK:_occupancy", &index, &what, &blockSize, &shared))
    return nullptr;
  cuda::LoadedKernel *loaded = loadedOverload(kernelOf(self), index);
  if (!loaded)
    return nullptr;
  std::string kind = what;
  PyObject *out = nullptr;
  bool ok = translateErrors([&] {
    if (kind == "block_size") {
      // the block size picked is within the kernel's launch bound (see kernelFunctionAttribute)
      if (int most = kernelOf(self)->state->launchBounds[0]; most > 0 && (blockSize <= 0 || blockSize > most))
        blockSize = most;
      auto [minGrid, size] = cuda::maxPotentialBlockSize(*loaded, size_t(shared), blockSize);
      out = Py_BuildValue("(ii)", minGrid, size);
    } else if (kind == "active_blocks") {
      out = PyLong_FromLong(cuda::maxActiveBlocksPerMultiprocessor(*loaded, blockSize, size_t(shared)));
    } else if (kind == "cooperative_blocks") {
      out = PyLong_FromLong(cuda::maxCooperativeBlocks(*loaded, blockSize, size_t(shared)));
    } else {
      throw nb::value_error("unknown occupancy query");
    }
  });
  return ok ? out : nullptr;
}

// _is_cooperative(index): the overload synchronises the grid.
PyObject *kernelIsCooperative(PyObject *self, PyObject *arg) {
  KernelState &st = *kernelOf(self)->state;
  Py_ssize_t index = PyLong_AsSsize_t(arg);
  if (index == -1 && PyErr_Occurred())
    return nullptr;
  if (index < 0 || size_t(index) >= st.overloads.size()) {
    PyErr_Format(PyExc_IndexError, "kernel '%s' has no overload %zd", st.name.c_str(), index);
    return nullptr;
  }
  return PyBool_FromLong(st.overloads[size_t(index)]->cooperative);
}

} // namespace

PyMethodDef kernelApiMethods[] = {
    {"_overload_index", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(kernelOverloadIndex)),
     METH_FASTCALL, "_overload_index(*args): index of the overload these launch arguments select."},
    {"_function_attribute", reinterpret_cast<PyCFunction>(kernelFunctionAttribute), METH_VARARGS,
     "_function_attribute(index, attribute): cuFuncGetAttribute of an overload."},
    {"_occupancy", reinterpret_cast<PyCFunction>(kernelOccupancy), METH_VARARGS,
     "_occupancy(index, what, block_size, shared_bytes): occupancy queries of an overload."},
    {"_is_cooperative", reinterpret_cast<PyCFunction>(kernelIsCooperative), METH_O,
     "_is_cooperative(index): the overload synchronises the grid."},
    {nullptr, nullptr, 0, nullptr},
};

} // namespace mahou::binding
