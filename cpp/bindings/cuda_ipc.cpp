// CUDA IPC for mahou.cuda's IPC handles (python/mahou/cuda/_ipc.py): ipc_export turns
// the allocation holding a device pointer into handle bytes; IpcMapping maps another
// process's exported allocation into this one and unmaps it when collected (every array
// made over it keeps it alive).
#include "cuda_binding.h"

#include <cstring>

namespace nb = nanobind;

namespace mahou::binding {

namespace {

using cuda::CUdeviceptr;

cuda::CUipcMemHandle handleOf(nb::bytes bytes) {
  cuda::CUipcMemHandle handle;
  if (bytes.size() != sizeof handle.reserved)
    throw nb::value_error(("a CUDA IPC handle is " + std::to_string(sizeof handle.reserved) +
                           " bytes, not " + std::to_string(bytes.size()))
                              .c_str());
  std::memcpy(handle.reserved, bytes.c_str(), sizeof handle.reserved);
  return handle;
}

// (handle bytes, allocation base, allocation bytes) of the allocation holding `pointer`.
nb::tuple ipcExport(CUdeviceptr pointer, int device) {
  cuda::IpcExport e = cuda::ipcExport(device, pointer);
  return nb::make_tuple(nb::bytes(e.handle.reserved, sizeof e.handle.reserved), e.base, e.size);
}

// Another process's exported allocation mapped into `device`'s context: its base here and
// its size; unmapped when collected.
class IpcMapping {
public:
  IpcMapping(nb::bytes handle, int device) : device_(device) {
    cuda::CUipcMemHandle h = handleOf(handle);
    base_ = cuda::ipcOpen(device, h);
    try {
      size_ = cuda::allocationRange(device, base_).second;
    } catch (...) {
      close();
      throw;
    }
  }
  ~IpcMapping() {
    try {
      close();
    } catch (...) { // interpreter teardown: the process unmaps everything anyway
    }
  }
  IpcMapping(const IpcMapping &) = delete;
  IpcMapping &operator=(const IpcMapping &) = delete;

  CUdeviceptr base() const { return base_; }
  size_t size() const { return size_; }
  int device() const { return device_; }

private:
  void close() {
    if (CUdeviceptr base = base_) {
      base_ = 0;
      cuda::ipcClose(device_, base);
    }
  }
  CUdeviceptr base_ = 0;
  size_t size_ = 0;
  int device_;
};

} // namespace

void registerCudaIpc(nb::module_ &m) {
  m.def("ipc_export", &ipcExport, nb::arg("pointer"), nb::arg("device"),
        "(handle bytes, allocation base, allocation bytes) of the allocation holding pointer.");
  nb::class_<IpcMapping>(m, "IpcMapping",
                         "Another process's device allocation mapped here (cuIpcOpenMemHandle); "
                         "unmapped when collected.",
                         nb::is_weak_referenceable())
      .def(nb::init<nb::bytes, int>(), nb::arg("handle"), nb::arg("device"))
      .def_prop_ro("base", &IpcMapping::base)
      .def_prop_ro("size", &IpcMapping::size)
      .def_prop_ro("device", &IpcMapping::device);
}

} // namespace mahou::binding
