// Device memory shared between processes (CUDA's legacy IPC): the exporter turns an
// allocation into a 64-byte handle (cuIpcGetMemHandle of the allocation's base, found with
// cuMemGetAddressRange), another process on the same machine maps it into its context
// (cuIpcOpenMemHandle) and unmaps it when done (cuIpcCloseMemHandle).
#include "driver_table.h"

#include <tuple>

namespace mahou::cuda {

std::pair<CUdeviceptr, size_t> allocationRange(int device, CUdeviceptr pointer) {
  makeCurrent(device);
  CUdeviceptr base = 0;
  size_t bytes = 0;
  MAHOU_CU(cuMemGetAddressRange_v2, &base, &bytes, pointer);
  return {base, bytes};
}

IpcExport ipcExport(int device, CUdeviceptr pointer) {
  IpcExport out;
  std::tie(out.base, out.size) = allocationRange(device, pointer);
  MAHOU_CU(cuIpcGetMemHandle, &out.handle, out.base);
  return out;
}

CUdeviceptr ipcOpen(int device, const CUipcMemHandle &handle) {
  makeCurrent(device);
  CUdeviceptr base = 0;
  CUresult r = detail::driver().cuIpcOpenMemHandle_v2(&base, handle, kIpcLazyEnablePeerAccess);
  if (r != kSuccess) [[unlikely]]
    detail::fail("cuIpcOpenMemHandle", r,
                 emulated() ? "IPC handles need a GPU: the CUDA emulator's device memory is "
                              "host memory private to the process that allocated it"
                            : "");
  return base;
}

void ipcClose(int device, CUdeviceptr base) {
  makeCurrent(device);
  MAHOU_CU(cuIpcCloseMemHandle, base);
}

} // namespace mahou::cuda
