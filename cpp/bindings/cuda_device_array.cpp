// mahou._core.DeviceArray: the C base of mahou.cuda.DeviceNDArray. It holds the
// device pointer, shape, byte strides and dtype in C fields the launch path reads.
#include "cuda_binding.h"
#include "numpy_api.h"

#include <structmember.h>

#include <algorithm>

namespace nb = nanobind;

namespace mahou::binding {

namespace {

PyTypeObject *theDeviceArrayType = nullptr; // set once in registerDeviceArray

DeviceArrayObject *asArray(PyObject *obj) { return reinterpret_cast<DeviceArrayObject *>(obj); }

bool readInt64Sequence(PyObject *seq, const char *what, int64_t *out, int &n) {
  nb::object fast = nb::steal(PySequence_Fast(seq, what));
  if (!fast.is_valid())
    return false;
  Py_ssize_t len = PySequence_Fast_GET_SIZE(fast.ptr());
  if (n >= 0 && len != n) {
    PyErr_Format(PyExc_ValueError, "DeviceArray: %s has %zd items, expected %d", what, len, n);
    return false;
  }
  if (len > kMaxDeviceArrayDims) {
    PyErr_Format(PyExc_ValueError, "DeviceArray: at most %d dimensions", kMaxDeviceArrayDims);
    return false;
  }
  n = int(len);
  for (Py_ssize_t i = 0; i < len; ++i) {
    long long v = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(fast.ptr(), i));
    if (v == -1 && PyErr_Occurred())
      return false;
    out[i] = v;
  }
  return true;
}

PyObject *deviceArrayNew(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
  PyObject *shape, *strides, *dtypeArg, *owner, *stream = nullptr;
  unsigned long long data;
  int device = 0;
  static const char *keywords[] = {"shape", "strides", "dtype", "data", "owner",
                                   "stream", "device", nullptr};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOKO|Oi:DeviceArray",
                                   const_cast<char **>(keywords), &shape, &strides, &dtypeArg,
                                   &data, &owner, &stream, &device))
    return nullptr;
  if (!ensureNumpyApi())
    return nullptr;
  PyArray_Descr *descr = nullptr;
  if (!PyArray_DescrConverter(dtypeArg, &descr))
    return nullptr;
  nb::object dtype = nb::steal(reinterpret_cast<PyObject *>(descr));
  auto *self = reinterpret_cast<DeviceArrayObject *>(type->tp_alloc(type, 0));
  if (!self)
    return nullptr;
  nb::object hold = nb::steal(reinterpret_cast<PyObject *>(self));
  self->owner = Py_NewRef(owner);
  self->dtype = Py_NewRef(dtype.ptr());
  self->stream = stream ? Py_NewRef(stream) : PyLong_FromLong(0);
  self->data = data;
  self->device = device;
  self->itemsize = int64_t(PyDataType_ELSIZE(descr));
  self->dtypeCode = PyDataType_ISNOTSWAPPED(descr) ? dtypeCodeOfTypeNum(descr->type_num) : -1;
  self->uint64Pairs = isUInt64PairRecord(reinterpret_cast<PyObject *>(descr));
  int ndim = -1;
  if (!readInt64Sequence(shape, "shape", self->shape, ndim))
    return nullptr;
  self->ndim = ndim;
  for (int i = 0; i < ndim; ++i)
    if (self->shape[i] < 0) {
      PyErr_SetString(PyExc_ValueError, "DeviceArray: negative dimensions are not allowed");
      return nullptr;
    }
  if (strides == Py_None) { // C order
    int64_t step = self->itemsize;
    for (int i = ndim - 1; i >= 0; --i) {
      self->strides[i] = step;
      step *= std::max<int64_t>(self->shape[i], 1);
    }
  } else if (!readInt64Sequence(strides, "strides", self->strides, ndim)) {
    return nullptr;
  }
  self->layout = layoutOfStrides(ndim, self->shape, self->strides, self->itemsize);
  return hold.release().ptr();
}

int deviceArrayTraverse(PyObject *obj, visitproc visit, void *arg) {
  DeviceArrayObject *self = asArray(obj);
  Py_VISIT(Py_TYPE(obj));
  Py_VISIT(self->owner);
  Py_VISIT(self->dtype);
  Py_VISIT(self->stream);
  return 0;
}

int deviceArrayClear(PyObject *obj) {
  DeviceArrayObject *self = asArray(obj);
  Py_CLEAR(self->owner);
  Py_CLEAR(self->stream);
  return 0; // dtype stays: it cannot form a cycle and getters read it
}

void deviceArrayDealloc(PyObject *obj) {
  PyTypeObject *type = Py_TYPE(obj);
  PyObject_GC_UnTrack(obj);
  deviceArrayClear(obj);
  Py_CLEAR(asArray(obj)->dtype);
  type->tp_free(obj);
  Py_DECREF(type);
}

PyObject *int64Tuple(const int64_t *values, int n) {
  PyObject *t = PyTuple_New(n);
  if (!t)
    return nullptr;
  for (int i = 0; i < n; ++i) {
    PyObject *v = PyLong_FromLongLong(values[i]);
    if (!v) {
      Py_DECREF(t);
      return nullptr;
    }
    PyTuple_SET_ITEM(t, i, v);
  }
  return t;
}

int64_t elementCount(const DeviceArrayObject *a) {
  int64_t n = 1;
  for (int i = 0; i < a->ndim; ++i)
    n *= a->shape[i];
  return n;
}

PyObject *getShape(PyObject *self, void *) { return int64Tuple(asArray(self)->shape, asArray(self)->ndim); }
PyObject *getStrides(PyObject *self, void *) { return int64Tuple(asArray(self)->strides, asArray(self)->ndim); }
PyObject *getDType(PyObject *self, void *) { return Py_NewRef(asArray(self)->dtype); }
PyObject *getNdim(PyObject *self, void *) { return PyLong_FromLong(asArray(self)->ndim); }
PyObject *getSize(PyObject *self, void *) { return PyLong_FromLongLong(elementCount(asArray(self))); }
PyObject *getItemsize(PyObject *self, void *) { return PyLong_FromLongLong(asArray(self)->itemsize); }
PyObject *getNbytes(PyObject *self, void *) {
  return PyLong_FromLongLong(elementCount(asArray(self)) * asArray(self)->itemsize);
}
PyObject *getDataPtr(PyObject *self, void *) { return PyLong_FromUnsignedLongLong(asArray(self)->data); }
PyObject *getDevice(PyObject *self, void *) { return PyLong_FromLong(asArray(self)->device); }
PyObject *getOwner(PyObject *self, void *) {
  PyObject *o = asArray(self)->owner;
  return Py_NewRef(o ? o : Py_None);
}
PyObject *getStream(PyObject *self, void *) {
  PyObject *s = asArray(self)->stream;
  return s ? Py_NewRef(s) : PyLong_FromLong(0);
}
int setStream(PyObject *self, PyObject *value, void *) {
  if (!value) {
    PyErr_SetString(PyExc_AttributeError, "cannot delete the stream");
    return -1;
  }
  Py_XSETREF(asArray(self)->stream, Py_NewRef(value));
  return 0;
}
PyObject *getLayout(PyObject *self, void *) {
  types::Layout l = asArray(self)->layout;
  return PyUnicode_FromString(l == types::Layout::C ? "C" : l == types::Layout::F ? "F" : "A");
}

PyGetSetDef deviceArrayGetSets[] = {
    {"shape", getShape, nullptr, "Shape (tuple of ints).", nullptr},
    {"strides", getStrides, nullptr, "Strides in bytes (tuple of ints).", nullptr},
    {"dtype", getDType, nullptr, "numpy.dtype of the elements.", nullptr},
    {"ndim", getNdim, nullptr, "Number of dimensions.", nullptr},
    {"size", getSize, nullptr, "Number of elements.", nullptr},
    {"itemsize", getItemsize, nullptr, "Bytes per element.", nullptr},
    {"nbytes", getNbytes, nullptr, "Bytes of the elements (size * itemsize).", nullptr},
    {"_data_ptr", getDataPtr, nullptr, "Device address of the first element.", nullptr},
    {"_device_id", getDevice, nullptr, "Ordinal of the device holding the memory.", nullptr},
    {"_owner", getOwner, nullptr, "The object that keeps the memory alive.", nullptr},
    {"_layout", getLayout, nullptr, "'C', 'F' or 'A'.", nullptr},
    {"stream", getStream, setStream, "The stream the array is associated with.", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

PyType_Slot deviceArraySlots[] = {
    {Py_tp_new, reinterpret_cast<void *>(deviceArrayNew)},
    {Py_tp_dealloc, reinterpret_cast<void *>(deviceArrayDealloc)},
    {Py_tp_traverse, reinterpret_cast<void *>(deviceArrayTraverse)},
    {Py_tp_clear, reinterpret_cast<void *>(deviceArrayClear)},
    {Py_tp_getset, deviceArrayGetSets},
    {Py_tp_doc, const_cast<char *>("Fields of an array in CUDA device memory (base of "
                                   "mahou.cuda.DeviceNDArray).")},
    {0, nullptr},
};

PyType_Spec deviceArraySpec = {
    "mahou._core.DeviceArray",
    sizeof(DeviceArrayObject),
    0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE,
    deviceArraySlots,
};

} // namespace

bool isUInt64PairRecord(PyObject *dtype) {
  auto *descr = reinterpret_cast<PyArray_Descr *>(dtype);
  if (descr->type_num != NPY_VOID || PyDataType_ELSIZE(descr) != 16 || !PyDataType_HASFIELDS(descr))
    return false;
  PyObject *names = PyDataType_NAMES(descr), *fields = PyDataType_FIELDS(descr);
  if (!names || !fields || PyTuple_GET_SIZE(names) != 2)
    return false;
  const char *expected[] = {"s0", "s1"};
  for (Py_ssize_t i = 0; i < 2; ++i) {
    PyObject *name = PyTuple_GET_ITEM(names, i);
    if (!PyUnicode_Check(name) || PyUnicode_CompareWithASCIIString(name, expected[i]) != 0)
      return false;
    PyObject *field = PyDict_GetItem(fields, name); // borrowed: (dtype, offset[, title])
    if (!field || !PyTuple_Check(field) || PyTuple_GET_SIZE(field) < 2)
      return false;
    auto *fd = reinterpret_cast<PyArray_Descr *>(PyTuple_GET_ITEM(field, 0));
    long offset = PyLong_AsLong(PyTuple_GET_ITEM(field, 1));
    if (offset == -1 && PyErr_Occurred()) {
      PyErr_Clear();
      return false;
    }
    if (fd->type_num != NPY_UINT64 && fd->type_num != NPY_ULONGLONG)
      return false;
    if (!PyDataType_ISNOTSWAPPED(fd) || offset != 8 * i)
      return false;
  }
  return true;
}

int dtypeCodeOfTypeNum(int typeNum) {
  if (typeNum == NPY_LONGLONG)
    return int(types::DType::Int64);
  if (typeNum == NPY_ULONGLONG)
    return int(types::DType::UInt64);
  auto d = types::dtypeFromNumpyNum(typeNum);
  return d ? int(*d) : -1;
}

types::Layout layoutOfStrides(int ndim, const int64_t *shape, const int64_t *strides,
                              int64_t itemsize) {
  bool c = true, f = true;
  int64_t step = itemsize;
  for (int i = ndim - 1; i >= 0; --i) {
    if (shape[i] != 1 && strides[i] != step)
      c = false;
    step *= shape[i];
  }
  step = itemsize;
  for (int i = 0; i < ndim; ++i) {
    if (shape[i] != 1 && strides[i] != step)
      f = false;
    step *= shape[i];
  }
  for (int i = 0; i < ndim; ++i)
    if (shape[i] == 0)
      c = true; // an empty array is contiguous
  return c ? types::Layout::C : f ? types::Layout::F : types::Layout::A;
}

bool isDeviceArray(PyObject *obj) {
  return theDeviceArrayType && PyObject_TypeCheck(obj, theDeviceArrayType);
}

void registerDeviceArray(nb::module_ &m) {
  PyObject *type = PyType_FromSpec(&deviceArraySpec);
  if (!type)
    throw nb::python_error();
  theDeviceArrayType = reinterpret_cast<PyTypeObject *>(type);
  m.attr("DeviceArray") = nb::borrow(type);
}

} // namespace mahou::binding
