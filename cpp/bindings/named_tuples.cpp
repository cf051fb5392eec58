// collections.namedtuple and typing.NamedTuple at the boundary: which tuple classes
// are namedtuples (their field names), and instances of the user's class for results.
#include "binding.h"

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

PyObject *boxNamedTuple(const types::Type &t, PyObject *items) {
  auto *cls = reinterpret_cast<PyObject *>(uintptr_t(t.handle));
  PyObject *r = PyObject_Call(cls, items, nullptr); // cls(*items), as Numba boxes one
  Py_DECREF(items);
  return r;
}

} // namespace mahou::binding
