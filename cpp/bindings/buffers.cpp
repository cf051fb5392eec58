// bytes, bytearray, memoryview and array.array arguments (Numba's Buffer types): their
// type from the buffer protocol, their key, and their unboxing as an array over the same memory.
#include "binding.h"
#include "numpy_api.h"

#include "mahou/runtime.h"

#include <bit>
#include <cstring>

namespace mahou::binding {

using types::BufferKind;
using types::DType;
using types::Layout;
using types::Type;

namespace {

// array.array, imported once (a cache of a Python type object).
PyTypeObject *arrayArrayType() {
  static PyObject *type = nullptr;
  if (!type) {
    PyObject *mod = PyImport_ImportModule("array");
    type = mod ? PyObject_GetAttrString(mod, "array") : nullptr;
    Py_XDECREF(mod);
    if (!type) {
      PyErr_Clear();
      return nullptr;
    }
  }
  return reinterpret_cast<PyTypeObject *>(type);
}

// The dtype of a PEP 3118 item format of `itemsize` bytes (Numba's decode_pep3118_format,
// plus '?' and 'e'), or -1: native or little-endian byte order only, one item per element.
int dtypeOfFormat(const char *format, Py_ssize_t itemsize) {
  if (!format) return int(DType::UInt8); // no format: unsigned bytes
  if (*format == '@' || *format == '=' || (*format == '<' && std::endian::native == std::endian::little)) ++format;
  std::string f(format);
  if (f.size() == 1 && std::strchr("bhilqn", f[0])) {
    switch (itemsize) {
    case 1: return int(DType::Int8);
    case 2: return int(DType::Int16);
    case 4: return int(DType::Int32);
    case 8: return int(DType::Int64);
    }
    return -1;
  }
  if (f.size() == 1 && std::strchr("BHILQN", f[0])) {
    switch (itemsize) {
    case 1: return int(DType::UInt8);
    case 2: return int(DType::UInt16);
    case 4: return int(DType::UInt32);
    case 8: return int(DType::UInt64);
    }
    return -1;
  }
  auto sized = [&](DType d) { return types::dtypeBytes(d) == itemsize ? int(d) : -1; };
  if (f == "?") return sized(DType::Bool);
  if (f == "e") return sized(DType::Float16);
  if (f == "f") return sized(DType::Float32);
  if (f == "d") return sized(DType::Float64);
  if (f == "Zf") return sized(DType::Complex64);
  if (f == "Zd") return sized(DType::Complex128);
  return -1;
}

// C, F or A from the strides, as Numba's infer_layout (memoryview's c_contiguous, f_contiguous).
Layout layoutOfBuffer(const Py_buffer &view) {
  if (PyBuffer_IsContiguous(&view, 'C')) return Layout::C;
  if (PyBuffer_IsContiguous(&view, 'F')) return Layout::F;
  return Layout::A;
}

constexpr int kBufferFlags = PyBUF_RECORDS_RO | PyBUF_FORMAT; // strides, format; writable or not

// The type of the buffer `view` exports for an object of kind `kind`, or nullopt (*why set).
std::optional<Type> typeOfView(BufferKind kind, const Py_buffer &view, std::string *why) {
  auto refuse = [&](const std::string &what) -> std::optional<Type> {
    if (why) *why = std::string(types::bufferKindName(kind)) + " " + what;
    return std::nullopt;
  };
  if (view.suboffsets) return refuse("with suboffsets (an indirect buffer)");
  if (view.ndim < 1 || view.ndim > 32) return refuse("of " + std::to_string(view.ndim) + " dimensions");
  int d = dtypeOfFormat(view.format, view.itemsize);
  if (d < 0) return refuse("of item format '" + std::string(view.format ? view.format : "B") + "'");
  Type t = Type::array(DType(d), view.ndim, layoutOfBuffer(view), view.readonly != 0);
  t.buffer = kind;
  return t;
}

void releaseHeldBuffer(MahouMemInfo *mi) {
  PyGILState_STATE g = PyGILState_Ensure();
  PyBuffer_Release(static_cast<Py_buffer *>(mi->data));
  PyGILState_Release(g);
}

} // namespace

BufferKind bufferKindOf(PyObject *obj) {
  PyTypeObject *t = Py_TYPE(obj);
  if (t == &PyBytes_Type) return BufferKind::Bytes;
  if (t == &PyByteArray_Type) return BufferKind::ByteArray;
  if (t == &PyMemoryView_Type) return BufferKind::MemoryView;
  if (t == arrayArrayType()) return BufferKind::PyArray;
  return BufferKind::None;
}

std::optional<Type> typeOfBuffer(PyObject *obj, std::string *why) {
  BufferKind kind = bufferKindOf(obj);
  if (kind == BufferKind::None) return std::nullopt;
  Py_buffer view;
  if (PyObject_GetBuffer(obj, &view, kBufferFlags) < 0) {
    if (why) {
      PyObject *type, *value, *tb;
      PyErr_Fetch(&type, &value, &tb);
      PyObject *text = value ? PyObject_Str(value) : nullptr;
      *why = std::string(types::bufferKindName(kind)) + " whose buffer cannot be read" +
             (text && PyUnicode_Check(text) ? std::string(" (") + PyUnicode_AsUTF8(text) + ")" : "");
      Py_XDECREF(text);
      Py_XDECREF(type);
      Py_XDECREF(value);
      Py_XDECREF(tb);
    }
    PyErr_Clear();
    return std::nullopt;
  }
  auto t = typeOfView(kind, view, why);
  PyBuffer_Release(&view);
  return t;
}

bool unboxBuffer(PyObject *obj, const Type &t, char *dst) {
  auto fail = [&](const std::string &got) {
    PyErr_Format(PyExc_TypeError, "expected %s, got %s", t.str().c_str(), got.c_str());
    return false;
  };
  if (bufferKindOf(obj) != t.buffer) return fail(Py_TYPE(obj)->tp_name);
  MahouMemInfo *mi = mahou_rt_alloc_object(int64_t(sizeof(Py_buffer)), nullptr);
  if (!mi) {
    MahouError e = mahou_rt_take_error();
    PyErr_SetString(PyExc_MemoryError, e.message);
    return false;
  }
  auto *view = static_cast<Py_buffer *>(mi->data);
  int flags = t.readonly ? kBufferFlags : kBufferFlags | PyBUF_WRITABLE;
  if (PyObject_GetBuffer(obj, view, flags) < 0) {
    mahou_rt_decref(mi);
    return false;
  }
  mi->dtor = releaseHeldBuffer; // from here the meminfo releases the view
  std::string why;
  auto actual = typeOfView(t.buffer, *view, &why);
  bool fits = actual && actual->dtype == t.dtype && actual->ndim == t.ndim &&
              (t.layout == Layout::A || PyBuffer_IsContiguous(view, t.layout == Layout::C ? 'C' : 'F')) &&
              (t.readonly || !actual->readonly);
  if (!fits) {
    mahou_rt_decref(mi);
    return fail(actual ? actual->str() : why);
  }
  auto *head = reinterpret_cast<MahouArrayHead *>(dst);
  head->meminfo = mi; // the call's reference: released after it (afterCall)
  head->parent = obj;
  head->data = static_cast<char *>(view->buf);
  for (int i = 0; i < t.ndim; ++i) {
    head->dims[i] = view->shape ? view->shape[i] : view->len / view->itemsize;
    head->dims[t.ndim + i] = view->strides ? view->strides[i] : view->itemsize;
  }
  return true;
}

} // namespace mahou::binding
