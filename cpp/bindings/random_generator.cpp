// np.random.Generator arguments: recognised by type (the dispatcher's key), unboxed to
// the bit generator's bitgen_t (from its "BitGenerator" capsule) and the Generator
// object itself, both borrowed from the argument, which the caller keeps alive for the
// call (the third field, a holder of the object, is null until the value is stored
// where it may outlive the call: then the holder keeps the Generator alive). Compiled code draws through bitgen_t's function pointers, so the stream is
// the caller's and continues after the call; returning the generator gives back the
// same object.
#include "objects_binding.h"

#include <cstring>

namespace mahou::binding {

namespace {

// numpy.random.Generator, imported on first use (nullptr when NumPy's random module
// cannot be imported: then no argument is a Generator).
PyTypeObject *generatorClass() {
  static PyTypeObject *cls = [] () -> PyTypeObject * {
    PyObject *mod = PyImport_ImportModule("numpy.random");
    if (!mod) {
      PyErr_Clear();
      return nullptr;
    }
    PyObject *c = PyObject_GetAttrString(mod, "Generator");
    Py_DECREF(mod);
    if (!c || !PyType_Check(c)) {
      Py_XDECREF(c);
      PyErr_Clear();
      return nullptr;
    }
    return reinterpret_cast<PyTypeObject *>(c); // kept for the life of the process
  }();
  return cls;
}

} // namespace

bool isNumpyRandomGenerator(PyObject *obj) {
  PyTypeObject *cls = generatorClass();
  return cls && PyObject_TypeCheck(obj, cls);
}

bool unboxRandomGenerator(PyObject *obj, char *dst) {
  if (!isNumpyRandomGenerator(obj)) {
    PyErr_Format(PyExc_TypeError, "expected a numpy.random.Generator, got %s", Py_TYPE(obj)->tp_name);
    return false;
  }
  PyObject *bitgen = PyObject_GetAttrString(obj, "bit_generator");
  if (!bitgen) return false;
  PyObject *capsule = PyObject_GetAttrString(bitgen, "capsule");
  Py_DECREF(bitgen); // the Generator holds it
  if (!capsule) return false;
  void *state = PyCapsule_GetPointer(capsule, "BitGenerator");
  Py_DECREF(capsule); // the bit generator holds it and the bitgen_t it points to
  if (!state) return false;
  void *fields[3] = {state, obj, nullptr}; // no holder: borrowed from the argument
  std::memcpy(dst, fields, sizeof fields);
  return true;
}

PyObject *boxRandomGenerator(const char *src) {
  void *fields[3];
  std::memcpy(fields, src, sizeof fields);
  auto *obj = static_cast<PyObject *>(fields[1]);
  Py_INCREF(obj);
  mahou_rt_decref(static_cast<MahouMemInfo *>(fields[2])); // the value's reference, taken
  return obj;
}

} // namespace mahou::binding
