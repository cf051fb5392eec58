// CUDA IPC for mahou.cuda's IPC handles (python/mahou/cuda/_ipc.py): ipc_export turns
// the allocation holding a device pointer into handle bytes; IpcMemory maps another
// process's exported allocation into this one, checked to hold the bytes it is opened
// for, and unmaps it when collected (every array made over it keeps it alive).
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

// `size` bytes at `offset` in another process's allocation, mapped into `device`'s context.
class IpcMemory {
public:
  IpcMemory(nb::bytes handle, size_t offset, size_t size, int device) : device_(device) {
    cuda::CUipcMemHandle h = handleOf(handle);
    base_ = cuda::ipcOpen(device, h);
    size_t allocated = 0;
    try {
      allocated = cuda::allocationRange(device, base_).second;
    } catch (...) {
      close();
      throw;
    }
    if (offset > allocated || size > allocated - offset) {
      close();
      throw nb::value_error(("the IPC handle's allocation has " + std::to_string(allocated) +
                             " bytes: it has no " + std::to_string(size) + " bytes at offset " +
                             std::to_string(offset))
                                .c_str());
    }
    pointer_ = base_ + offset;
    size_ = size;
  }
  ~IpcMemory() {
    try {
      close();
    } catch (...) { // interpreter teardown: the process unmaps everything anyway
    }
  }
  IpcMemory(const IpcMemory &) = delete;
  IpcMemory &operator=(const IpcMemory &) = delete;

  CUdeviceptr pointer() const { return pointer_; }
  size_t size() const { return size_; }
  int device() const { return device_; }
  bool mapped() const { return base_ != 0; }
  void close() {
    if (CUdeviceptr base = base_) {
      base_ = pointer_ = 0;
      cuda::ipcClose(device_, base);
    }
  }

private:
  CUdeviceptr base_ = 0, pointer_ = 0;
  size_t size_ = 0;
  int device_;
};

} // namespace

void registerCudaIpc(nb::module_ &m) {
  m.def("ipc_export", &ipcExport, nb::arg("pointer"), nb::arg("device"),
        "(handle bytes, allocation base, allocation bytes) of the allocation holding pointer.");
  nb::class_<IpcMemory>(m, "IpcMemory",
                        "Bytes of another process's device allocation mapped here (CUDA IPC); "
                        "unmapped when collected.")
      .def(nb::init<nb::bytes, size_t, size_t, int>(), nb::arg("handle"), nb::arg("offset"),
           nb::arg("size"), nb::arg("device"))
      .def_prop_ro("device_pointer", &IpcMemory::pointer)
      .def_prop_ro("size", &IpcMemory::size)
      .def_prop_ro("device", &IpcMemory::device)
      .def_prop_ro("mapped", &IpcMemory::mapped);
}

} // namespace mahou::binding
