// print(a) of arrays in compiled code: the runtime asks this formatter for NumPy's
// str() of the array, so the text (print options, summarisation of large arrays)
// is exactly what CPython prints. The memory is wrapped without a copy.
#include "binding.h"
#include "numpy_api.h"

namespace mahou::binding {

bool formatArrayWithNumpy(const void *data, int ndim, const int64_t *shape, const int64_t *strides, int dtype,
                          std::string *out) {
  if (!Py_IsInitialized())
    return false;
  PyGILState_STATE gil = PyGILState_Ensure();
  PyObject *exc = nullptr, *value = nullptr, *tb = nullptr;
  PyErr_Fetch(&exc, &value, &tb); // an exception pending in the caller survives the print
  bool ok = false;
  if (ensureNumpyApi()) {
    PyArray_Descr *descr = PyArray_DescrFromType(dtype);
    auto *dims = reinterpret_cast<npy_intp *>(const_cast<int64_t *>(shape));
    auto *steps = reinterpret_cast<npy_intp *>(const_cast<int64_t *>(strides));
    // Read-only (flags 0); NewFromDescr steals descr.
    PyObject *arr = descr ? PyArray_NewFromDescr(&PyArray_Type, descr, ndim, dims, steps, const_cast<void *>(data), 0,
                                                 nullptr)
                          : nullptr;
    if (arr) {
      PyArray_UpdateFlags(reinterpret_cast<PyArrayObject *>(arr),
                          NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_F_CONTIGUOUS | NPY_ARRAY_ALIGNED);
      if (PyObject *text = PyObject_Str(arr)) {
        Py_ssize_t n = 0;
        if (const char *utf8 = PyUnicode_AsUTF8AndSize(text, &n)) {
          out->assign(utf8, size_t(n));
          ok = true;
        }
        Py_DECREF(text);
      }
      Py_DECREF(arr);
    }
  }
  PyErr_Clear();
  PyErr_Restore(exc, value, tb);
  PyGILState_Release(gil);
  return ok;
}

} // namespace mahou::binding
