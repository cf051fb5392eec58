// Unboxing of Python arguments into their native layout (layout.h) and boxing
// of native results into Python objects (arrays made by compiled code own their memory).
#include "binding.h"
#include "numpy_api.h"
#include "objects_binding.h"

#include "mahou/half.h"
#include "mahou/layout.h"
#include "mahou/range_type.h"
#include "mahou/slice_type.h"
#include "mahou/runtime.h"

#include <cmath>
#include <cstring>

namespace nb = nanobind;

namespace mahou::binding {

using types::DType;
using types::Type;

namespace {

constexpr const char *kMemInfoCapsule = "mahou.meminfo";

template <class T> void store(char *dst, T v) { std::memcpy(dst, &v, sizeof(T)); }
template <class T> T load(const char *src) {
  T v;
  std::memcpy(&v, src, sizeof(T));
  return v;
}

bool sameDTypeScalar(PyObject *obj, DType d) {
  return PyArray_IsScalar(obj, Generic) && dtypeOfNumpyScalar(obj) == int(d);
}

// An integer-like object as a Python int (new reference), or null with an error.
PyObject *asPythonInt(PyObject *obj) {
  if (PyLong_Check(obj)) {
    Py_INCREF(obj);
    return obj;
  }
  return PyNumber_Index(obj);
}

void storeInteger(char *dst, DType d, long long v) {
  switch (types::dtypeBytes(d)) {
  case 1: store<int8_t>(dst, int8_t(v)); break;
  case 2: store<int16_t>(dst, int16_t(v)); break;
  case 4: store<int32_t>(dst, int32_t(v)); break;
  default: store<int64_t>(dst, int64_t(v)); break;
  }
}

bool unboxInteger(PyObject *obj, DType d, char *dst) {
  if (PyFloat_Check(obj)) { // unsafe conversion, allowed for explicit signatures
    double v = PyFloat_AS_DOUBLE(obj);
    // int()'s errors where the float has no int64 value (a C cast of it is undefined).
    if (std::isnan(v)) {
      PyErr_SetString(PyExc_ValueError, "cannot convert float NaN to integer");
      return false;
    }
    if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0)) {
      PyErr_SetString(PyExc_OverflowError, "cannot convert float to an integer of 64 bits: out of range");
      return false;
    }
    storeInteger(dst, d, static_cast<long long>(v));
    return true;
  }
  nb::object num = nb::steal(asPythonInt(obj));
  if (!num.is_valid())
    return false;
  if (d == DType::UInt64) {
    unsigned long long u = PyLong_AsUnsignedLongLong(num.ptr());
    if (u == (unsigned long long)-1 && PyErr_Occurred())
      return false;
    store<uint64_t>(dst, u);
    return true;
  }
  long long v = PyLong_AsLongLong(num.ptr());
  if (v == -1 && PyErr_Occurred())
    return false;
  storeInteger(dst, d, v);
  return true;
}

bool unboxScalar(PyObject *obj, DType d, char *dst) {
  if (sameDTypeScalar(obj, d)) {
    PyArray_ScalarAsCtype(obj, dst);
    return true;
  }
  switch (types::dtypeClass(d)) {
  case types::DTypeClass::Datetime:
  case types::DTypeClass::Timedelta: // only a scalar of this very unit (no conversion)
    PyErr_Format(PyExc_TypeError, "expected a numpy.%s, got %s", types::dtypeName(d), Py_TYPE(obj)->tp_name);
    return false;
  case types::DTypeClass::Bool: {
    int truth = PyObject_IsTrue(obj);
    if (truth < 0)
      return false;
    store<uint8_t>(dst, uint8_t(truth));
    return true;
  }
  case types::DTypeClass::SignedInt:
  case types::DTypeClass::UnsignedInt:
    return unboxInteger(obj, d, dst);
  case types::DTypeClass::Float: {
    double v = PyFloat_AsDouble(obj);
    if (v == -1.0 && PyErr_Occurred())
      return false;
    if (d == DType::Float32)
      store<float>(dst, float(v));
    else if (d == DType::Float16)
      store<uint16_t>(dst, doubleToHalf(v));
    else
      store<double>(dst, v);
    return true;
  }
  case types::DTypeClass::Complex: {
    Py_complex c = PyComplex_AsCComplex(obj);
    if (c.real == -1.0 && PyErr_Occurred())
      return false;
    if (d == DType::Complex64) {
      store<float>(dst, float(c.real));
      store<float>(dst + 4, float(c.imag));
    } else {
      store<double>(dst, c.real);
      store<double>(dst + 8, c.imag);
    }
    return true;
  }
  }
  return false;
}

bool unboxTuple(PyObject *obj, const Type &t, char *dst) {
  if (types::isSlice(t))
    return unboxSlice(obj, t, dst);
  if (types::isRange(t))
    return unboxRange(obj, t, dst);
  if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != Py_ssize_t(t.elems.size())) {
    PyErr_Format(PyExc_TypeError, "expected a tuple of %zu items, got %s", t.elems.size(),
                 Py_TYPE(obj)->tp_name);
    return false;
  }
  if (t.handle && Py_TYPE(obj) != reinterpret_cast<PyTypeObject *>(uintptr_t(t.handle))) {
    PyErr_Format(PyExc_TypeError, "expected a %s, got %s", t.text.c_str(), Py_TYPE(obj)->tp_name);
    return false;
  }
  std::vector<size_t> offsets = types::tupleOffsets(t);
  for (size_t i = 0; i < t.elems.size(); ++i)
    if (!unboxValue(PyTuple_GET_ITEM(obj, Py_ssize_t(i)), t.elems[i], dst + offsets[i]))
      return false;
  return true;
}

// The plain numbers first, by one switch (a list or tuple of them boxes item by item
// through here, so no dtype-table look-up on that path); datetime-like dtypes fall to the end.
PyObject *boxScalar(DType d, const char *src) {
  switch (d) {
  case DType::Bool: return PyBool_FromLong(load<uint8_t>(src));
  case DType::Int8: return PyLong_FromLong(load<int8_t>(src));
  case DType::Int16: return PyLong_FromLong(load<int16_t>(src));
  case DType::Int32: return PyLong_FromLong(load<int32_t>(src));
  case DType::Int64: return PyLong_FromLongLong(load<int64_t>(src));
  case DType::UInt8: return PyLong_FromUnsignedLong(load<uint8_t>(src));
  case DType::UInt16: return PyLong_FromUnsignedLong(load<uint16_t>(src));
  case DType::UInt32: return PyLong_FromUnsignedLong(load<uint32_t>(src));
  case DType::UInt64: return PyLong_FromUnsignedLongLong(load<uint64_t>(src));
  case DType::Float16: return PyFloat_FromDouble(halfToFloat(load<uint16_t>(src)));
  case DType::Float32: return PyFloat_FromDouble(load<float>(src));
  case DType::Float64: return PyFloat_FromDouble(load<double>(src));
  case DType::Complex64: return PyComplex_FromDoubles(load<float>(src), load<float>(src + 4));
  case DType::Complex128: return PyComplex_FromDoubles(load<double>(src), load<double>(src + 8));
  default: break;
  }
  if (types::isDatetimeLike(d)) { // a numpy.datetime64 / numpy.timedelta64 of the unit
    PyArray_Descr *descr = descrOfDType(d);
    if (!descr)
      return nullptr;
    PyObject *r = PyArray_Scalar(const_cast<char *>(src), descr, nullptr);
    Py_DECREF(descr);
    return r;
  }
  PyErr_SetString(PyExc_SystemError, "unknown dtype in result");
  return nullptr;
}

void capsuleDestructor(PyObject *capsule) {
  mahou_rt_decref(static_cast<MahouMemInfo *>(PyCapsule_GetPointer(capsule, kMemInfoCapsule)));
}

// The argument itself when the result is exactly it (Numba returns the parent then).
PyObject *parentIfIdentical(const Type &t, const MahouArrayHead *head) {
  auto *parent = static_cast<PyObject *>(head->parent);
  if (!PyArray_Check(parent))
    return nullptr;
  auto *a = reinterpret_cast<PyArrayObject *>(parent);
  int ndim = t.ndim;
  if (t.isRecordArray()) { // the same layout of records
    auto rec = recordTypeOfDescr(PyArray_DESCR(a), nullptr);
    if (!rec || *rec != t.elems[0])
      return nullptr;
  } else if (dtypeOfDescrNum(PyArray_DESCR(a)) != int(t.dtype)) {
    return nullptr;
  }
  if (PyArray_NDIM(a) != ndim || PyArray_BYTES(a) != head->data ||
      std::memcmp(PyArray_DIMS(a), head->dims, sizeof(int64_t) * size_t(ndim)) != 0 ||
      std::memcmp(PyArray_STRIDES(a), head->dims + ndim, sizeof(int64_t) * size_t(ndim)) != 0)
    return nullptr;
  Py_INCREF(parent);
  return parent;
}

PyObject *newArrayOver(const Type &t, MahouArrayHead *head, bool writeable) {
  PyArray_Descr *descr;
  if (t.isRecordArray()) {
    descr = recordDescr(t.elems[0]);
    Py_XINCREF(descr); // NewFromDescr steals it
  } else {
    descr = descrOfDType(t.dtype);
  }
  if (!descr)
    return nullptr;
  auto *shape = reinterpret_cast<npy_intp *>(head->dims);
  auto *strides = reinterpret_cast<npy_intp *>(head->dims + t.ndim);
  PyObject *arr = PyArray_NewFromDescr(&PyArray_Type, descr, t.ndim, shape, strides, head->data,
                                       writeable ? NPY_ARRAY_WRITEABLE : 0, nullptr);
  if (arr)
    PyArray_UpdateFlags(reinterpret_cast<PyArrayObject *>(arr),
                        NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_F_CONTIGUOUS | NPY_ARRAY_ALIGNED);
  return arr;
}

PyObject *boxOwnedArray(const Type &t, MahouArrayHead *head) {
  MahouMemInfo *mi = head->meminfo;
  PyObject *arr = newArrayOver(t, head, !t.readonly);
  if (!arr) {
    mahou_rt_decref(mi);
    return nullptr;
  }
  PyObject *capsule = PyCapsule_New(mi, kMemInfoCapsule, capsuleDestructor);
  if (!capsule) {
    Py_DECREF(arr);
    mahou_rt_decref(mi);
    return nullptr;
  }
  // SetBaseObject steals the capsule, also when it fails.
  if (PyArray_SetBaseObject(reinterpret_cast<PyArrayObject *>(arr), capsule) < 0) {
    Py_DECREF(arr);
    return nullptr;
  }
  return arr;
}

PyObject *boxViewOfArgument(const Type &t, MahouArrayHead *head) {
  auto *parent = static_cast<PyObject *>(head->parent);
  if (!parent) { // a global array frozen into the code: the caller gets a copy of it
    PyObject *view = newArrayOver(t, head, false);
    if (!view)
      return nullptr;
    PyObject *copy = PyArray_NewCopy(reinterpret_cast<PyArrayObject *>(view), NPY_KEEPORDER);
    Py_DECREF(view);
    return copy;
  }
  if (PyObject *same = parentIfIdentical(t, head))
    return same;
  bool writeable = !t.readonly && (!PyArray_Check(parent) ||
                                   PyArray_ISWRITEABLE(reinterpret_cast<PyArrayObject *>(parent)));
  PyObject *arr = newArrayOver(t, head, writeable);
  if (!arr)
    return nullptr;
  Py_INCREF(parent);
  if (PyArray_SetBaseObject(reinterpret_cast<PyArrayObject *>(arr), parent) < 0) {
    Py_DECREF(arr);
    return nullptr;
  }
  return arr;
}

PyObject *boxTuple(const Type &t, char *src) { return boxTupleAt(t, src, types::tupleOffsets(t)); }

} // namespace

PyArray_Descr *descrOfDType(DType d) {
  if (!types::isDatetimeLike(d))
    return PyArray_DescrFromType(types::dtypeNumpyNum(d));
  // "M8[D]", "m8[ns]", "M8" (generic): NumPy keeps one descriptor per unit.
  std::string spec = std::string(types::isDatetime(d) ? "M8" : "m8");
  const char *unit = types::datetimeUnitCode(types::datetimeUnit(d));
  if (*unit)
    spec += std::string("[") + unit + "]";
  nb::object text = nb::steal(PyUnicode_FromString(spec.c_str()));
  PyArray_Descr *descr = nullptr;
  if (!text.is_valid() || !PyArray_DescrConverter(text.ptr(), &descr))
    return nullptr;
  return descr;
}

TupleBoxing tupleBoxing(const Type &t) {
  TupleBoxing how;
  how.offsets = types::tupleOffsets(t);
  bool plain = !t.handle && !t.elems.empty();
  for (const Type &e : t.elems)
    plain = plain && e.kind == types::Kind::Scalar && !types::isDatetimeLike(e.dtype);
  if (plain)
    for (const Type &e : t.elems) how.plain.push_back(e.dtype);
  return how;
}

PyObject *boxTupleWith(const Type &t, char *src, const TupleBoxing &how) {
  if (how.plain.empty())
    return boxTupleAt(t, src, how.offsets);
  Py_ssize_t n = Py_ssize_t(how.plain.size());
  PyObject *tuple = PyTuple_New(n);
  if (!tuple)
    return nullptr;
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject *item = boxScalar(how.plain[size_t(i)], src + how.offsets[size_t(i)]);
    if (!item) { // the slots not yet filled are null, which tupledealloc skips
      Py_DECREF(tuple);
      return nullptr;
    }
    PyTuple_SET_ITEM(tuple, i, item);
  }
  return tuple;
}

// A tuple whose items lie at `offsets` (types::tupleOffsets(t)): a list of tuples
// computes them once for all its items.
PyObject *boxTupleAt(const Type &t, char *src, const std::vector<size_t> &offsets) {
  PyObject *tuple = PyTuple_New(Py_ssize_t(t.elems.size()));
  for (size_t i = 0; i < t.elems.size(); ++i) {
    PyObject *item = tuple ? boxValue(t.elems[i], src + offsets[i]) : nullptr;
    if (!item) {
      for (size_t j = tuple ? i + 1 : i; j < t.elems.size(); ++j)
        releaseValue(t.elems[j], src + offsets[j]);
      Py_XDECREF(tuple);
      return nullptr;
    }
    PyTuple_SET_ITEM(tuple, Py_ssize_t(i), item);
  }
  return t.handle ? boxNamedTuple(t, tuple) : tuple;
}

bool unboxArray(PyObject *obj, int ndim, char *dst) {
  if (!PyArray_Check(obj) || PyArray_NDIM(reinterpret_cast<PyArrayObject *>(obj)) != ndim) {
    PyErr_Format(PyExc_TypeError, "expected a %d-dimensional array, got %s", ndim,
                 Py_TYPE(obj)->tp_name);
    return false;
  }
  auto *a = reinterpret_cast<PyArrayObject *>(obj);
  auto *head = reinterpret_cast<MahouArrayHead *>(dst);
  head->meminfo = nullptr;
  head->parent = obj;
  head->data = PyArray_BYTES(a);
  std::memcpy(head->dims, PyArray_DIMS(a), sizeof(int64_t) * size_t(ndim));
  std::memcpy(head->dims + ndim, PyArray_STRIDES(a), sizeof(int64_t) * size_t(ndim));
  return true;
}

// The check of every place a Python array becomes a native array of a declared type
// (a jitclass field, a typed container's item, an objmode output, an item of a tuple or
// list argument): compiled code reads the memory by that type, so an array of another
// dtype, a strided one where a contiguous one is declared or a read-only one where a
// writable one is, is a TypeError (never converted: a copy would not alias).
bool unboxCheckedArray(PyObject *obj, const Type &t, char *dst) {
  if (arrayFitsType(obj, t))
    return unboxArray(obj, t.ndim, dst);
  std::string why;
  std::optional<Type> actual = ensureNumpyApi() ? typeOfObject(obj, &why) : std::nullopt;
  if (!actual && why.empty())
    why = Py_TYPE(obj)->tp_name;
  PyErr_Clear();
  PyErr_Format(PyExc_TypeError, "expected %s, got %s", t.str().c_str(), actual ? actual->str().c_str() : why.c_str());
  return false;
}

bool unboxValue(PyObject *obj, const Type &t, char *dst) {
  switch (t.kind) {
  case types::Kind::Scalar:
    return unboxScalar(obj, t.dtype, dst);
  case types::Kind::Array:
    return t.isBuffer() ? unboxBuffer(obj, t, dst) : unboxCheckedArray(obj, t, dst);
  case types::Kind::Tuple:
    return unboxTuple(obj, t, dst);
  case types::Kind::None:
  case types::Kind::Function:
  case types::Kind::DTypeObj:
    return true; // no runtime data
  case types::Kind::Record:
    return unboxRecord(obj, t, dst);
  case types::Kind::EnumMember: { // its value (the dispatcher matched its class)
    PyObject *value = PyObject_GetAttrString(obj, "_value_");
    if (!value)
      return false;
    bool ok = unboxScalar(value, t.elems[0].dtype, dst);
    Py_DECREF(value);
    return ok;
  }
  default:
    return unboxObject(obj, t, dst);
  }
}

PyObject *boxValue(const Type &t, char *src) {
  switch (t.kind) {
  case types::Kind::Scalar:
    return boxScalar(t.dtype, src);
  case types::Kind::Array: {
    auto *head = reinterpret_cast<MahouArrayHead *>(src);
    if (t.isBuffer() && t.buffer == types::BufferKind::Bytes && t.ndim == 1) { // a new bytes of the items
      PyObject *out = PyBytes_FromStringAndSize(nullptr, Py_ssize_t(head->dims[0]));
      if (out) {
        char *to = PyBytes_AS_STRING(out);
        for (int64_t i = 0; i < head->dims[0]; ++i) to[i] = head->data[i * head->dims[1]];
      }
      mahou_rt_decref(head->meminfo);
      return out;
    }
    if (t.isBuffer()) { // sema refuses returning one (Numba cannot box a Buffer either)
      mahou_rt_decref(head->meminfo);
      PyErr_Format(PyExc_TypeError, "cannot return a %s to Python", t.str().c_str());
      return nullptr;
    }
    return head->meminfo ? boxOwnedArray(t, head) : boxViewOfArgument(t, head);
  }
  case types::Kind::Tuple:
    return boxTuple(t, src);
  case types::Kind::None:
    Py_RETURN_NONE;
  case types::Kind::DTypeObj: { // a dtype returned: the np.dtype it names
    if (!t.elems.empty()) {
      PyArray_Descr *d = recordDescr(t.elems[0]);
      Py_XINCREF(d);
      return reinterpret_cast<PyObject *>(d);
    }
    return reinterpret_cast<PyObject *>(descrOfDType(t.dtype));
  }
  case types::Kind::Record:
    return boxRecord(t, src);
  case types::Kind::EnumMember: { // the member of its class with this value: cls(value)
    PyObject *value = boxValue(t.elems[0], src);
    if (!value)
      return nullptr;
    PyObject *member = PyObject_CallOneArg(reinterpret_cast<PyObject *>(uintptr_t(t.handle)), value);
    Py_DECREF(value);
    return member;
  }
  default:
    return boxObject(t, src);
  }
}

void releaseValue(const Type &t, char *src) {
  if (t.kind == types::Kind::Array) {
    mahou_rt_decref(reinterpret_cast<MahouArrayHead *>(src)->meminfo);
  } else if (t.kind == types::Kind::Tuple) {
    std::vector<size_t> offsets = types::tupleOffsets(t);
    for (size_t i = 0; i < t.elems.size(); ++i)
      releaseValue(t.elems[i], src + offsets[i]);
  } else {
    releaseObject(t, src);
  }
}

ArgOp argOpFor(const Type &t) {
  if (t.isScalar(DType::Int64))
    return ArgOp::Int64;
  if (t.isScalar(DType::Float64))
    return ArgOp::Float64;
  if (t.isBool())
    return ArgOp::Bool;
  if (t.isArray() && !t.isRecordArray() && !t.isBuffer()) // the hit path's array key is one word
    return ArgOp::Array;
  return ArgOp::Generic;
}

RetOp retOpFor(const Type &t) {
  if (t.isScalar(DType::Int64))
    return RetOp::Int64;
  if (t.isScalar(DType::Float64))
    return RetOp::Float64;
  if (t.isBool())
    return RetOp::Bool;
  if (t.isNone())
    return RetOp::None;
  return RetOp::Generic;
}

} // namespace mahou::binding
