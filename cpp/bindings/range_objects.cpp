// Python range objects at the boundary: a `range` argument unboxes into a range value
// (types::rangeType: int64 start, stop, step; OverflowError when a bound does not fit),
// and a range value returned to Python is boxed as a `range`.
#include "binding.h"

#include "mahou/layout.h"
#include "mahou/range_type.h"

namespace mahou::binding {

bool unboxRange(PyObject *obj, const types::Type &t, char *dst) {
  if (!PyRange_Check(obj)) {
    PyErr_Format(PyExc_TypeError, "expected a range, got %s", Py_TYPE(obj)->tp_name);
    return false;
  }
  static const char *names[3] = {"start", "stop", "step"};
  std::vector<size_t> offsets = types::tupleOffsets(t);
  for (int i = 0; i < 3; ++i) {
    PyObject *b = PyObject_GetAttrString(obj, names[i]);
    if (!b) return false;
    long long v = PyLong_AsLongLong(b);
    Py_DECREF(b);
    if (v == -1 && PyErr_Occurred()) return false;
    int64_t x = v;
    std::memcpy(dst + offsets[size_t(i)], &x, sizeof x);
  }
  return true;
}

PyObject *boxRange(PyObject *items) {
  PyObject *r = PyObject_Call(reinterpret_cast<PyObject *>(&PyRange_Type), items, nullptr);
  Py_DECREF(items);
  return r;
}

} // namespace mahou::binding
