// DLPack for device arrays, both ways: a DeviceNDArray's memory as a "dltensor"
// capsule for PyTorch, CuPy, JAX (zero copy, the array kept alive until the consumer
// calls the deleter), and a consumer's view of another library's CUDA tensor.
// The structures are DLPack's ABI (dlpack.h, v0.8 "legacy" capsules).
#include "cuda_binding.h"
#include "numpy_api.h"

namespace nb = nanobind;

namespace mahou::binding {

namespace {

struct DLDevice {
  int32_t deviceType; // kDLCPU 1, kDLCUDA 2, kDLCUDAHost 3, kDLCUDAManaged 13
  int32_t deviceId;
};
struct DLDataType {
  uint8_t code; // kDLInt 0, kDLUInt 1, kDLFloat 2, kDLComplex 5, kDLBool 6
  uint8_t bits;
  uint16_t lanes;
};
struct DLTensor {
  void *data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t *shape;
  int64_t *strides; // in elements; null: C-contiguous
  uint64_t byteOffset;
};
struct DLManagedTensor {
  DLTensor tensor;
  void *managerCtx;
  void (*deleter)(DLManagedTensor *self);
};

constexpr int32_t kDLCUDA = 2, kDLCUDAManaged = 13;
constexpr const char *kCapsuleName = "dltensor", *kUsedName = "used_dltensor";

// What an exported tensor owns: the array that keeps the memory alive, and the
// shape and strides the tensor points at.
struct Export {
  DLManagedTensor managed;
  PyObject *owner;
  std::vector<int64_t> shape, strides;
};

void deleteExport(DLManagedTensor *self) {
  auto *e = static_cast<Export *>(self->managerCtx);
  if (Py_IsInitialized()) {
    PyGILState_STATE gil = PyGILState_Ensure(); // consumers may call this from any thread
    Py_XDECREF(e->owner);
    PyGILState_Release(gil);
  }
  delete e;
}

void exportCapsuleDestructor(PyObject *capsule) {
  if (!PyCapsule_IsValid(capsule, kCapsuleName))
    return; // consumed: the consumer owns the tensor now
  auto *m = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, kCapsuleName));
  if (m && m->deleter)
    m->deleter(m);
}

DLDataType dlType(PyArray_Descr *d) {
  uint8_t bits = uint8_t(PyDataType_ELSIZE(d) * 8);
  switch (d->kind) {
  case 'b': return {6, 8, 1};
  case 'i': return {0, bits, 1};
  case 'u': return {1, bits, 1};
  case 'f': return {2, bits, 1};
  case 'c': return {5, bits, 1};
  default: throw nb::type_error("DLPack: arrays of this dtype cannot be exported");
  }
}

// to_dlpack(data, shape, strides (bytes), dtype, device_type, device_id, owner) → capsule
nb::object toDlpack(uint64_t data, nb::tuple shape, nb::tuple strides, nb::handle dtype, int deviceType,
                    int deviceId, nb::handle owner) {
  if (!ensureNumpyApi())
    throw nb::python_error();
  PyArray_Descr *descr = nullptr;
  if (!PyArray_DescrConverter(dtype.ptr(), &descr))
    throw nb::python_error();
  nb::object holdDescr = nb::steal(reinterpret_cast<PyObject *>(descr));
  if (!PyDataType_ISNOTSWAPPED(descr))
    throw nb::type_error("DLPack: byte-swapped arrays cannot be exported");
  int64_t itemsize = int64_t(PyDataType_ELSIZE(descr));
  auto *e = new Export();
  e->managed.tensor.data = reinterpret_cast<void *>(uintptr_t(data));
  e->managed.tensor.device = {deviceType, deviceId};
  e->managed.tensor.ndim = int32_t(shape.size());
  try {
    e->managed.tensor.dtype = dlType(descr);
    for (size_t i = 0; i < shape.size(); ++i) {
      int64_t step = nb::cast<int64_t>(strides[i]);
      if (step % itemsize)
        throw nb::value_error("DLPack: strides must be multiples of the item size");
      e->shape.push_back(nb::cast<int64_t>(shape[i]));
      e->strides.push_back(step / itemsize);
    }
  } catch (...) {
    delete e;
    throw;
  }
  e->managed.tensor.shape = e->shape.data();
  e->managed.tensor.strides = e->strides.data();
  e->managed.tensor.byteOffset = 0;
  e->managed.managerCtx = e;
  e->managed.deleter = deleteExport;
  e->owner = Py_NewRef(owner.ptr());
  PyObject *capsule = PyCapsule_New(&e->managed, kCapsuleName, exportCapsuleDestructor);
  if (!capsule) {
    deleteExport(&e->managed);
    throw nb::python_error();
  }
  return nb::steal(capsule);
}

void importedDestructor(PyObject *keeper) {
  auto *m = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(keeper, "mahou.dlpack"));
  if (m && m->deleter)
    m->deleter(m);
}

// from_dlpack(capsule) → (data, shape, strides (bytes), typestr, device_type, device_id,
// keeper): the keeper owns the tensor (its deleter runs when the keeper goes away).
nb::tuple fromDlpack(nb::handle capsule) {
  if (!PyCapsule_IsValid(capsule.ptr(), kCapsuleName))
    throw nb::type_error("from_dlpack: expected a DLPack capsule named 'dltensor' (not consumed yet)");
  auto *m = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule.ptr(), kCapsuleName));
  const DLTensor &t = m->tensor;
  if (t.device.deviceType != kDLCUDA && t.device.deviceType != kDLCUDAManaged)
    throw nb::type_error("from_dlpack: the tensor is not in CUDA device memory (copy it with cuda.to_device)");
  if (t.dtype.lanes != 1)
    throw nb::type_error("from_dlpack: vector dtypes (lanes > 1) are not supported");
  char kind;
  switch (t.dtype.code) {
  case 0: kind = 'i'; break;
  case 1: kind = 'u'; break;
  case 2: kind = 'f'; break;
  case 5: kind = 'c'; break;
  case 6: kind = 'b'; break;
  default: throw nb::type_error("from_dlpack: unsupported DLPack dtype code");
  }
  int64_t itemsize = t.dtype.bits / 8;
  std::string typestr = std::string("<") + kind + std::to_string(itemsize);
  if (kind == 'b')
    typestr = "|b1";
  nb::list shape, strides;
  int64_t step = itemsize;
  std::vector<int64_t> contiguous(size_t(t.ndim));
  for (int i = t.ndim - 1; i >= 0; --i) {
    contiguous[size_t(i)] = step;
    step *= t.shape[i];
  }
  for (int i = 0; i < t.ndim; ++i) {
    shape.append(t.shape[i]);
    strides.append(t.strides ? t.strides[i] * itemsize : contiguous[size_t(i)]);
  }
  if (PyCapsule_SetName(capsule.ptr(), kUsedName) < 0)
    throw nb::python_error();
  PyObject *keeper = PyCapsule_New(m, "mahou.dlpack", importedDestructor);
  if (!keeper)
    throw nb::python_error();
  uint64_t data = uint64_t(uintptr_t(t.data)) + t.byteOffset;
  return nb::make_tuple(data, nb::tuple(shape), nb::tuple(strides), typestr, t.device.deviceType,
                        t.device.deviceId, nb::steal(keeper));
}

} // namespace

void registerCudaDlpack(nb::module_ &m) {
  m.def("to_dlpack", &toDlpack, nb::arg("data"), nb::arg("shape"), nb::arg("strides"), nb::arg("dtype"),
        nb::arg("device_type"), nb::arg("device_id"), nb::arg("owner"),
        "A 'dltensor' capsule over device memory (owner kept alive until the consumer is done).");
  m.def("from_dlpack", &fromDlpack, nb::arg("capsule"),
        "(data, shape, strides, typestr, device_type, device_id, keeper) of a DLPack capsule.");
}

} // namespace mahou::binding
