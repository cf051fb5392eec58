// mahou.typed.Dict: a Python object around the native dict compiled code uses.
#include "binding.h"
#include "objects_binding.h"

namespace nb = nanobind;

namespace mahou::binding {

using types::Type;

bool isTypedDict(PyObject *) { return false; }
std::optional<Type> typedDictType(PyObject *) { return std::nullopt; }
bool unboxTypedDict(PyObject *, const Type &t, char *) {
  PyErr_Format(PyExc_TypeError, "expected a typed dict of %s", t.str().c_str());
  return false;
}
PyObject *wrapTypedDict(MahouMemInfo *dict, const Type &) {
  mahou_rt_decref(dict);
  PyErr_SetString(PyExc_NotImplementedError, "typed dicts are not supported yet");
  return nullptr;
}

void registerTypedList(nb::module_ &m);

void registerTypedContainers(nb::module_ &m) { registerTypedList(m); }

} // namespace mahou::binding
