// The mahou._core extension module: NumPy C API import, the Dispatcher and CUDA
// types, runtime counters, type-syntax helpers and the print flush hook.
#include "binding.h"
#include "objects_binding.h"
#define MAHOU_IMPORT_NUMPY
#include "numpy_api.h"

#include "mahou/objects.h"
#include "mahou/runtime.h"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdio>

namespace nb = nanobind;
using namespace mahou;
using namespace mahou::binding;

namespace {

// Compiled code prints with C stdio: flush Python's buffered sys.stdout first so
// output appears in program order.
void flushPythonStdout() {
  if (!Py_IsInitialized())
    return;
  PyGILState_STATE gil = PyGILState_Ensure();
  PyObject *exc = nullptr, *value = nullptr, *tb = nullptr;
  PyErr_Fetch(&exc, &value, &tb);
  if (PyObject *out = PySys_GetObject("stdout"); out && out != Py_None) {
    PyObject *r = PyObject_CallMethod(out, "flush", nullptr);
    if (r)
      Py_DECREF(r);
    else
      PyErr_Clear();
  }
  PyErr_Restore(exc, value, tb);
  PyGILState_Release(gil);
}

std::string parseTypeText(const std::string &text) {
  std::string error;
  auto t = types::parseType(text, &error);
  if (!t)
    throw nb::value_error(error.c_str());
  return typeString(*t);
}

nb::tuple parseSignatureText(const std::string &text) {
  std::string error;
  auto sig = types::parseSignature(text, &error);
  if (!sig)
    throw nb::value_error(error.c_str());
  nb::list args;
  for (const auto &t : sig->args)
    args.append(typeString(t));
  nb::object ret = sig->ret ? nb::object(nb::str(typeString(*sig->ret).c_str())) : nb::none();
  return nb::make_tuple(ret, args);
}

nb::object typeofObject(nb::handle obj) {
  if (!ensureNumpyApi())
    throw nb::python_error();
  std::string why;
  auto t = typeOfObject(obj.ptr(), &why);
  if (!t)
    throw nb::value_error(("cannot determine the mahou type of a " + why + " object").c_str());
  PyObject *py = toPyType(*t);
  if (!py)
    throw nb::python_error();
  return nb::steal(py);
}

std::vector<std::string> exceptionNames() {
  return {
#define MAHOU_EXCEPTION(name) #name,
#include "mahou/exceptions.def"
#undef MAHOU_EXCEPTION
  };
}

std::vector<std::string> dtypeNames() {
  return {
#define MAHOU_DTYPE(Enum, name, numpyNum, bytes, cls) name,
#include "mahou/dtypes.def"
#undef MAHOU_DTYPE
  };
}

std::vector<std::string> builtinNames() {
  return {
#define MAHOU_PYTHON_BUILTIN(name) #name,
#include "mahou/python_builtins.def"
#undef MAHOU_PYTHON_BUILTIN
  };
}

} // namespace

namespace mahou::binding {
bool ensureNumpyApi() {
  static bool imported = false;
  if (!imported && _import_array() < 0)
    return false;
  if (!imported) { // compiled random draws follow this release's algorithms
    int major = 0, minor = 0;
    if (PyObject *numpy = PyImport_ImportModule("numpy")) {
      if (PyObject *v = PyObject_GetAttrString(numpy, "__version__")) {
        if (const char *text = PyUnicode_AsUTF8(v); text && std::sscanf(text, "%d.%d", &major, &minor) == 2)
          runtime::setNumpyVersion(major, minor);
        Py_DECREF(v);
      }
      Py_DECREF(numpy);
    }
    PyErr_Clear();
  }
  imported = true;
  return true;
}
} // namespace mahou::binding

NB_MODULE(_core, m) {
  // NumPy's C API is imported by the first Dispatcher (or typeof), not here: `import
  // mahou` does not import NumPy.
  m.doc() = "mahou's compiler, runtime and Dispatcher (C++).";
  registerDispatcher(m);
  registerTypedContainers(m);
  registerJitClass(m);
  registerObjMode();
  registerGenerators(m);
  registerCuda(m);
  registerParallel(m);
  registerUfuncObjects(m);
  runtime::setPrintFlushHook(flushPythonStdout);
  runtime::setArrayFormatHook(formatArrayWithNumpy);
#if PY_VERSION_HEX >= 0x030E0000
  runtime::setStringHashHook([](const void *data, int64_t bytes) -> int64_t { return Py_HashBuffer(data, bytes); });
#else
  runtime::setStringHashHook([](const void *data, int64_t bytes) -> int64_t { return _Py_HashBytes(data, bytes); });
#endif
  runtime::setNoneHash(int64_t(PyObject_Hash(Py_None))); // CPython's str hash and hash(None), for hash()

  m.def(
      "_import_numpy",
      [] {
        if (!ensureNumpyApi())
          throw nb::python_error();
      },
      "Imports NumPy and its C API (done by the first Dispatcher; import mahou does not).");
  m.def("live_allocations", [] { return mahou_rt_live_allocations(); },
        "Number of arrays allocated by compiled code that are still alive.");
  m.def("linked_code_objects", []() -> size_t {
          // Nothing is linked before the back end was first imported (by a compile).
          PyObject *loaded = PyImport_GetModule(nb::str("mahou._backend").ptr());
          if (!loaded) {
            PyErr_Clear();
            return 0;
          }
          Py_DECREF(loaded);
          return backendTable().linkedObjects();
        },
        "Number of object files the JIT holds linked (each goes with the last overload using it).");
  m.def("parse_type", &parseTypeText, nb::arg("text"),
        "Canonical spelling of a type in signature syntax; ValueError if invalid.");
  m.def("parse_signature", &parseSignatureText, nb::arg("text"),
        "(return type or None, [argument types]) of a signature string.");
  m.def("typeof", &typeofObject, nb::arg("value"),
        "The mahou.types type an argument value is compiled for.");
  m.def("exception_names", &exceptionNames,
        "Builtin exception classes compiled code can raise (exceptions.def).");
  m.def("dtype_names", &dtypeNames, "Scalar dtypes mahou compiles for (dtypes.def).");
  m.def("builtin_names", &builtinNames, "Python's builtins compiled code may name (python_builtins.def).");
  m.def("_preload_backend", &preloadBackend, nb::arg("path"),
        "Loads mahou._backend's shared library (and libLLVM) on a background thread.");
  m.def("_backend_info", &backendInfo,
        "The back end's LLVM version and JIT target (triple, CPU name and features); loads it.");
  m.def("_wait_backend_preload", &waitForPreload,
        "Waits for _preload_backend's thread (registered for exit and fork).");
}
