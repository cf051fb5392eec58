// The CUDA runtime functions of _core used by mahou.cuda (Python): driver and
// devices, device memory (DeviceMemory owns an allocation), copies, pinned host
// arrays, streams and events. Handles travel as Python ints.
#include "cuda_binding.h"
#include "numpy_api.h"

#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>

namespace nb = nanobind;

namespace mahou::binding {

namespace {

using cuda::CUdeviceptr;

cuda::CUstream asStream(uintptr_t handle) { return reinterpret_cast<cuda::CUstream>(handle); }
cuda::CUevent asEvent(uintptr_t handle) { return reinterpret_cast<cuda::CUevent>(handle); }

// An allocation of device memory, freed when the object is collected.
class DeviceMemory {
public:
  DeviceMemory(size_t bytes, int device)
      : pointer_(cuda::allocate(device, bytes)), bytes_(bytes), device_(device) {}
  ~DeviceMemory() { free(); }
  DeviceMemory(const DeviceMemory &) = delete;
  DeviceMemory &operator=(const DeviceMemory &) = delete;

  CUdeviceptr pointer() const { return pointer_; }
  size_t size() const { return bytes_; }
  int device() const { return device_; }
  void free() {
    cuda::release(device_, pointer_);
    pointer_ = 0;
  }

private:
  CUdeviceptr pointer_;
  size_t bytes_;
  int device_;
};

PyArrayObject *hostArray(nb::handle obj, bool writable) {
  if (!ensureNumpyApi())
    throw nb::python_error();
  if (!PyArray_Check(obj.ptr()))
    throw nb::type_error("expected a numpy.ndarray");
  auto *a = reinterpret_cast<PyArrayObject *>(obj.ptr());
  if (writable && !(PyArray_FLAGS(a) & NPY_ARRAY_WRITEABLE))
    throw nb::value_error("the destination host array is read-only");
  return a;
}

// Host address `offset` bytes from the array's first element, after checking that
// [offset, offset + bytes) lies inside the array's memory span.
char *hostAddress(PyArrayObject *a, int64_t offset, size_t bytes) {
  int64_t lo = 0, hi = PyArray_ITEMSIZE(a);
  for (int i = 0; i < PyArray_NDIM(a); ++i) {
    int64_t extent = (PyArray_DIM(a, i) - 1) * PyArray_STRIDE(a, i);
    if (PyArray_DIM(a, i) == 0)
      return PyArray_BYTES(a) + offset; // empty: no bytes to copy (checked below)
    (extent < 0 ? lo : hi) += extent;
  }
  if (bytes && (offset < lo || offset + int64_t(bytes) > hi))
    throw nb::value_error("copy outside the host array's memory");
  return PyArray_BYTES(a) + offset;
}

void copyHostToDevice(CUdeviceptr dst, nb::handle src, int64_t srcOffset, size_t bytes,
                      uintptr_t stream, int device) {
  char *p = hostAddress(hostArray(src, false), srcOffset, bytes);
  nb::gil_scoped_release release;
  cuda::copyToDevice(device, dst, p, bytes, asStream(stream));
}

void copyDeviceToHost(nb::handle dst, int64_t dstOffset, CUdeviceptr src, size_t bytes,
                      uintptr_t stream, int device) {
  char *p = hostAddress(hostArray(dst, true), dstOffset, bytes);
  nb::gil_scoped_release release;
  cuda::copyToHost(device, p, src, bytes, asStream(stream));
}

void freePinned(PyObject *capsule) {
  void *p = PyCapsule_GetPointer(capsule, "mahou.pinned");
  auto *device = static_cast<int *>(PyCapsule_GetContext(capsule));
  cuda::releaseHost(device ? *device : 0, p);
  delete device;
}

// A 1-D uint8 NumPy array over new page-locked memory (freed with the array),
// and the device address of the memory when `mapped`.
nb::tuple pinnedEmpty(size_t bytes, bool mapped, int device) {
  if (!ensureNumpyApi())
    throw nb::python_error();
  void *p = cuda::allocateHost(device, bytes, mapped);
  CUdeviceptr devicePointer = mapped ? cuda::mappedDevicePointer(device, p) : 0;
  PyObject *capsule = PyCapsule_New(p, "mahou.pinned", freePinned);
  if (!capsule) {
    cuda::releaseHost(device, p);
    throw nb::python_error();
  }
  PyCapsule_SetContext(capsule, new int(device));
  nb::object hold = nb::steal(capsule);
  npy_intp dims[1] = {npy_intp(bytes)};
  PyObject *arr = PyArray_SimpleNewFromData(1, dims, NPY_UINT8, p);
  if (!arr)
    throw nb::python_error();
  if (PyArray_SetBaseObject(reinterpret_cast<PyArrayObject *>(arr), hold.release().ptr()) < 0) {
    Py_DECREF(arr);
    throw nb::python_error();
  }
  return nb::make_tuple(nb::steal(arr), devicePointer);
}

nb::dict deviceInfo(int device) {
  cuda::DeviceInfo info = cuda::deviceInfo(device);
  nb::dict d;
  d["id"] = info.ordinal;
  d["name"] = info.name;
  d["compute_capability"] = nb::make_tuple(info.ccMajor, info.ccMinor);
  d["multiprocessors"] = info.multiprocessors;
  d["warp_size"] = info.warpSize;
  d["max_threads_per_block"] = info.maxThreadsPerBlock;
  d["pci_bus_id"] = info.pciBus;
  d["pci_device_id"] = info.pciDevice;
  d["total_memory"] = info.totalMemory;
  return d;
}

nb::tuple availability() {
  std::string why;
  bool ok = cuda::available(&why);
  return nb::make_tuple(ok, why);
}

} // namespace

void registerCuda(nb::module_ &top) {
  nb::register_exception_translator([](const std::exception_ptr &p, void *) {
    try {
      std::rethrow_exception(p);
    } catch (const cuda::CudaError &e) {
      raiseMahouError("CudaError", e.what());
    }
  });
  registerDeviceArray(top);
  registerKernelType(top);
  registerLaunchConfigType(top);
  nb::module_ m = top.def_submodule("cuda", "CUDA driver functions used by mahou.cuda.");
  registerCudaRandom(m);
  registerCudaMemory(m);
  registerCudaDlpack(m);
  registerCudaIpc(m);

  nb::class_<DeviceMemory>(m, "DeviceMemory", "An allocation of device memory (freed when collected).")
      .def(nb::init<size_t, int>(), nb::arg("nbytes"), nb::arg("device") = 0)
      .def_prop_ro("device_pointer", &DeviceMemory::pointer)
      .def_prop_ro("size", &DeviceMemory::size)
      .def_prop_ro("device", &DeviceMemory::device)
      .def("free", &DeviceMemory::free, "Release the memory now.");

  m.def("use_emulator", &cuda::useEmulator, nb::arg("checks"),
        "Run everything on the CPU emulator (before the driver's first use); False when too late.");
  m.def("emulated", &cuda::emulated, "True when the CPU emulator stands in for the driver.");
  m.def("available", &availability, "(usable, reason): loads the driver on first use.");
  m.def("driver_version", &cuda::driverVersion);
  m.def("libdevice_path", &libdevicePath, "The libdevice.10.bc kernels link (empty if none was found).");
  m.def("device_count", &cuda::deviceCount);
  m.def("device_info", &deviceInfo, nb::arg("device"));
  m.def("device_attribute", &cuda::deviceAttribute, nb::arg("device"), nb::arg("attribute"));
  m.def("can_access_peer", &cuda::canAccessPeer, nb::arg("device"), nb::arg("peer"));
  m.def("current_device", &cuda::currentDevice);
  m.def("select_device", &cuda::selectDevice, nb::arg("device"));
  m.def("synchronize", [](int device) {
    nb::gil_scoped_release release;
    cuda::synchronize(device);
  }, nb::arg("device"));
  m.def("profiler", &cuda::profiler, nb::arg("device"), nb::arg("start"),
        "cuProfilerStart (start) or cuProfilerStop on the device's context.");
  m.def("memory_info", &cuda::memoryInfo, nb::arg("device"));
  m.def("pointer_device", &cuda::pointerDevice, nb::arg("pointer"),
        "Device ordinal owning a pointer, or -1.");

  m.def("copy_htod", &copyHostToDevice, nb::arg("dst"), nb::arg("src"), nb::arg("src_offset"),
        nb::arg("nbytes"), nb::arg("stream"), nb::arg("device"),
        "Copy nbytes from host array src (at byte offset src_offset) to device address dst.");
  m.def("copy_dtoh", &copyDeviceToHost, nb::arg("dst"), nb::arg("dst_offset"), nb::arg("src"),
        nb::arg("nbytes"), nb::arg("stream"), nb::arg("device"));
  m.def("copy_dtod", [](CUdeviceptr dst, CUdeviceptr src, size_t bytes, uintptr_t stream,
                        int device) {
    cuda::copyDeviceToDevice(device, dst, src, bytes, asStream(stream));
  }, nb::arg("dst"), nb::arg("src"), nb::arg("nbytes"), nb::arg("stream"), nb::arg("device"));
  m.def("memset", &cuda::memset8, nb::arg("device"), nb::arg("dst"), nb::arg("value"),
        nb::arg("nbytes"));
  m.def("pinned_empty", &pinnedEmpty, nb::arg("nbytes"), nb::arg("mapped"), nb::arg("device"),
        "(uint8 array over page-locked memory, device address if mapped else 0)");

  m.def("stream_create", [](int device, bool nonBlocking) {
    return reinterpret_cast<uintptr_t>(cuda::createStream(device, nonBlocking));
  }, nb::arg("device"), nb::arg("non_blocking"));
  m.def("stream_destroy", [](int device, uintptr_t s) { cuda::destroyStream(device, asStream(s)); });
  m.def("stream_synchronize", [](int device, uintptr_t s) {
    nb::gil_scoped_release release;
    cuda::synchronizeStream(device, asStream(s));
  });
  m.def("stream_idle", [](int device, uintptr_t s) { return cuda::streamIdle(device, asStream(s)); });
  m.def("stream_wait_event", [](int device, uintptr_t s, uintptr_t e) {
    cuda::streamWaitEvent(device, asStream(s), asEvent(e));
  });
  m.def("event_create", [](int device, bool timing) {
    return reinterpret_cast<uintptr_t>(cuda::createEvent(device, timing));
  });
  m.def("event_destroy", [](int device, uintptr_t e) { cuda::destroyEvent(device, asEvent(e)); });
  m.def("event_record", [](int device, uintptr_t e, uintptr_t s) {
    cuda::recordEvent(device, asEvent(e), asStream(s));
  });
  m.def("event_synchronize", [](int device, uintptr_t e) {
    nb::gil_scoped_release release;
    cuda::synchronizeEvent(device, asEvent(e));
  });
  m.def("event_done", [](int device, uintptr_t e) { return cuda::eventDone(device, asEvent(e)); });
  m.def("event_elapsed_ms", [](int device, uintptr_t a, uintptr_t b) {
    return cuda::elapsedMs(device, asEvent(a), asEvent(b));
  });
}

} // namespace mahou::binding
