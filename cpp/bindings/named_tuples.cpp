// collections.namedtuple and typing.NamedTuple at the boundary: which tuple classes
// are namedtuples (their field names), and instances of the user's class for results.
#include "mahou/bound_method_type.h"
#include "binding.h"

#include "numpy_api.h"

#include "mahou/layout.h"
#include "mahou/literal_dict_type.h"
#include "mahou/literal_list_type.h"
#include "mahou/range_type.h"
#include "mahou/slice_type.h"

#include <unordered_map>

namespace mahou::binding {

namespace {

struct ClassInfo {
  bool named = false;
  std::string name;
  std::vector<std::string> fields;
};

// Tuple subclasses seen, by class. A namedtuple class is kept alive from its first use
// (types hold its address, as Numba keeps its types), like a type's interned entry.
std::unordered_map<PyObject *, ClassInfo> &seenClasses() {
  static std::unordered_map<PyObject *, ClassInfo> classes;
  return classes;
}

ClassInfo inspect(PyObject *cls) {
  ClassInfo info;
  PyObject *fields = PyObject_GetAttrString(cls, "_fields");
  if (!fields) {
    PyErr_Clear();
    return info;
  }
  if (PyTuple_Check(fields)) {
    info.named = true;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(fields); ++i) {
      PyObject *f = PyTuple_GET_ITEM(fields, i);
      const char *s = PyUnicode_Check(f) ? PyUnicode_AsUTF8(f) : nullptr;
      if (!s) {
        PyErr_Clear();
        info.named = false;
        break;
      }
      info.fields.push_back(s);
    }
  }
  Py_DECREF(fields);
  const char *qualname = reinterpret_cast<PyTypeObject *>(cls)->tp_name;
  PyObject *q = PyObject_GetAttrString(cls, "__qualname__");
  if (q && PyUnicode_Check(q)) {
    const char *s = PyUnicode_AsUTF8(q);
    info.name = s ? s : qualname;
  } else {
    info.name = qualname;
  }
  Py_XDECREF(q);
  PyErr_Clear();
  return info;
}

const ClassInfo &classInfo(PyObject *cls) {
  auto &classes = seenClasses();
  auto it = classes.find(cls);
  if (it != classes.end())
    return it->second;
  ClassInfo info = inspect(cls);
  Py_INCREF(cls); // the address is a type's handle from now on
  return classes.emplace(cls, std::move(info)).first->second;
}

} // namespace

std::optional<types::Type> namedTupleClass(PyObject *cls, Py_ssize_t size) {
  if (!PyType_Check(cls) || !PyType_IsSubtype(reinterpret_cast<PyTypeObject *>(cls), &PyTuple_Type) ||
      cls == reinterpret_cast<PyObject *>(&PyTuple_Type))
    return std::nullopt;
  const ClassInfo &info = classInfo(cls);
  if (!info.named || (size >= 0 && Py_ssize_t(info.fields.size()) != size))
    return std::nullopt;
  return types::Type::namedTuple({}, uint64_t(reinterpret_cast<uintptr_t>(cls)), info.name, info.fields);
}

namespace {
PyObject *sliceBound(PyObject *s, int i) {
  auto *o = reinterpret_cast<PySliceObject *>(s);
  return i == 0 ? o->start : i == 1 ? o->stop : o->step;
}
} // namespace

std::optional<types::Type> typeOfSlice(PyObject *obj, std::string *why) {
  types::Type bounds[3];
  for (int i = 0; i < 3; ++i) {
    PyObject *b = sliceBound(obj, i);
    if (b == Py_None) {
      bounds[i] = types::Type::none();
    } else if (PyLong_Check(b) || (PyArray_IsScalar(b, Integer))) {
      bounds[i] = types::Type::int64();
    } else {
      if (why)
        *why = std::string("a slice with a bound of type ") + Py_TYPE(b)->tp_name + " (compiled code takes integers or None)";
      return std::nullopt;
    }
  }
  return types::sliceType(bounds[0], bounds[1], bounds[2]);
}

int sliceKeyMask(PyObject *obj) {
  int mask = 0;
  for (int i = 0; i < 3; ++i) {
    PyObject *b = sliceBound(obj, i);
    if (b == Py_None)
      mask |= 1 << i;
    else if (!PyLong_Check(b))
      return -1; // the slow path types (or refuses) it
  }
  return mask;
}

bool unboxSlice(PyObject *obj, const types::Type &t, char *dst) {
  if (!PySlice_Check(obj)) {
    PyErr_Format(PyExc_TypeError, "expected a slice, got %s", Py_TYPE(obj)->tp_name);
    return false;
  }
  std::vector<size_t> offsets = types::tupleOffsets(t);
  for (int i = 0; i < 3; ++i) {
    PyObject *b = sliceBound(obj, i);
    if (t.elems[i].isNone() != (b == Py_None)) {
      PyErr_Format(PyExc_TypeError, "expected %s, got a slice with other bounds None", t.str().c_str());
      return false;
    }
    if (b != Py_None && !unboxValue(b, t.elems[i], dst + offsets[i]))
      return false;
  }
  return true;
}

PyObject *boxNamedTuple(const types::Type &t, PyObject *items) {
  if (t.handle == types::kRangeClass) return boxRange(items);
  if (t.handle == types::kBoundMethodClass) { // refused when compiling; never boxed
    Py_DECREF(items);
    PyErr_SetString(PyExc_TypeError, "a bound method of a jitclass instance cannot leave compiled code");
    return nullptr;
  }
  if (t.handle == types::kLiteralListClass) { // a list, as Python made it
    PyObject *r = PySequence_List(items);
    Py_DECREF(items);
    return r;
  }
  if (types::isLiteralDict(t)) { // a dict of the keys (the type's field names) and the values, or its view
    PyObject *r = PyDict_New();
    for (size_t i = 0; r && i < t.fields.size(); ++i) {
      PyObject *k = PyUnicode_FromStringAndSize(t.fields[i].data(), Py_ssize_t(t.fields[i].size()));
      if (!k || PyDict_SetItem(r, k, PyTuple_GET_ITEM(items, Py_ssize_t(i))) < 0) Py_CLEAR(r);
      Py_XDECREF(k);
    }
    Py_DECREF(items);
    static const char *views[] = {nullptr, "keys", "values", "items"};
    if (const char *view = views[size_t(types::literalDictView(t))]; view && r) {
      PyObject *v = PyObject_CallMethod(r, view, nullptr);
      Py_DECREF(r);
      return v;
    }
    return r;
  }
  if (t.handle == types::kSliceClass) {
    PyObject *r = PySlice_New(PyTuple_GET_ITEM(items, 0), PyTuple_GET_ITEM(items, 1), PyTuple_GET_ITEM(items, 2));
    Py_DECREF(items);
    return r;
  }
  auto *cls = reinterpret_cast<PyObject *>(uintptr_t(t.handle));
  PyObject *r = PyObject_Call(cls, items, nullptr); // cls(*items), as Numba boxes one
  Py_DECREF(items);
  return r;
}

} // namespace mahou::binding
