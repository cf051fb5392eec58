// Error translation of the binding: compiler and CUDA driver exceptions → mahou.errors
// classes, runtime error state of compiled code → builtin Python exceptions.
#include "binding.h"

#include "mahou/cuda_driver.h"
#include "mahou/diagnostics.h"
#include "mahou/exception_args.h"
#include "mahou/runtime.h"

#include <cstring>
#include <exception>
#include <utility>
#include <vector>

namespace nb = nanobind;

namespace mahou::binding {

namespace {

constexpr int32_t kExceptionCount = 0
#define MAHOU_EXCEPTION(name) +1
#include "mahou/exceptions.def"
#undef MAHOU_EXCEPTION
    ;

PyObject *excClassFromIndex(int32_t kind) {
  // PyExc_* are not constants: build the table on first use.
  static PyObject *const *table = [] {
    // numpy.linalg.LinAlgError, the one class that is not a builtin (NumPy is imported)
    nb::object linalg = nb::module_::import_("numpy.linalg");
    PyObject *PyExc_LinAlgError = nb::object(linalg.attr("LinAlgError")).release().ptr();
    static PyObject *classes[] = {
#define MAHOU_EXCEPTION(name) PyExc_##name,
#include "mahou/exceptions.def"
#undef MAHOU_EXCEPTION
    };
    return static_cast<PyObject *const *>(classes);
  }();
  if (kind >= 0 && kind < kExceptionCount) return table[kind];
  if (PyObject *user = userExceptionClass(kind)) return user;
  return PyExc_Exception;
}

// The Python value of one packed exception argument (new reference).
PyObject *argumentObject(const MahouErrorArg &a) {
  switch (a.tag) {
  case MAHOU_ERRARG_NONE: Py_RETURN_NONE;
  case MAHOU_ERRARG_BOOL: return PyBool_FromLong(long(a.bits));
  case MAHOU_ERRARG_INT: return PyLong_FromLongLong(a.bits);
  case MAHOU_ERRARG_UINT: return PyLong_FromUnsignedLongLong(uint64_t(a.bits));
  case MAHOU_ERRARG_FLOAT: {
    double d;
    std::memcpy(&d, &a.bits, sizeof d);
    return PyFloat_FromDouble(d);
  }
  case MAHOU_ERRARG_STR: return PyUnicode_FromKindAndData(a.kind, a.data, Py_ssize_t(a.length));
  case MAHOU_ERRARG_BYTES: return PyBytes_FromStringAndSize(a.data, Py_ssize_t(a.length));
  default: return PyUnicode_FromString("..."); // did not fit in the error's buffer
  }
}

// cls(*args) of the arguments packed in `err`, set as the pending Python exception;
// false when they cannot be read (a Python error may be set).
bool raiseWithArguments(PyObject *cls, const MahouError &err) {
  nb::list items;
  // Tuples being filled: the list of their items and how many they take.
  std::vector<std::pair<nb::list, uint32_t>> open;
  auto add = [&](nb::object o) {
    while (true) {
      if (open.empty()) {
        items.append(o);
        return;
      }
      open.back().first.append(o);
      if (nb::len(open.back().first) < open.back().second) return;
      o = nb::steal(PyList_AsTuple(open.back().first.ptr()));
      open.pop_back();
      if (!o.is_valid()) throw nb::python_error();
    }
  };
  bool ok;
  try {
    ok = mahouUnpackErrorArgs(err, [&](const MahouErrorArg &a) {
      if (a.tag == MAHOU_ERRARG_TUPLE) {
        if (a.length == 0) add(nb::steal(PyTuple_New(0)));
        else open.push_back({nb::list(), a.length});
        return true;
      }
      PyObject *o = argumentObject(a);
      if (!o) return false;
      add(nb::steal(o));
      return true;
    });
  } catch (nb::python_error &e) {
    e.restore();
    return false;
  }
  if (!ok || !open.empty()) return false;
  PyObject *args = PyList_AsTuple(items.ptr());
  if (!args) return false;
  PyObject *exc = PyObject_Call(cls, args, nullptr);
  Py_DECREF(args);
  if (!exc) return false;
  PyErr_SetObject(cls, exc);
  Py_DECREF(exc);
  return true;
}

} // namespace

PyObject *builtinExceptionClass(types::ExcKind kind) { return excClassFromIndex(int32_t(kind)); }

PyObject *mahouErrorClass(const char *name) {
  nb::object errors = nb::module_::import_("mahou.errors");
  nb::object cls = errors.attr(name);
  // The module stays imported (sys.modules holds it), so the borrowed class outlives us.
  return cls.ptr();
}

void raiseMahouError(const char *className, const std::string &message) {
  PyObject *cls = nullptr;
  try {
    cls = mahouErrorClass(className);
  } catch (nb::python_error &e) {
    e.restore();
    return;
  }
  PyErr_SetString(cls, message.c_str());
}

[[noreturn]] void throwPendingPythonError() {
  throw PendingPythonError{std::make_shared<nb::python_error>()};
}

void setPythonErrorFromCurrentException() {
  try {
    throw;
  } catch (PendingPythonError &e) {
    e.error->restore();
  } catch (nb::python_error &e) {
    e.restore();
  } catch (const UserError &e) {
    raiseMahouError(e.kind() == DiagKind::Typing ? "TypingError" : "UnsupportedError", e.what());
  } catch (const InternalError &e) {
    raiseMahouError("InternalCompilerError", e.what());
  } catch (const cuda::KernelFault &) {
    raiseRuntimeError(); // the exception the emulated kernel raised
  } catch (const cuda::CudaError &e) {
    raiseMahouError("CudaError", e.what());
  } catch (const std::bad_alloc &) {
    PyErr_NoMemory();
  } catch (const std::exception &e) {
    raiseMahouError("InternalCompilerError", std::string("internal compiler error: ") + e.what());
  } catch (...) {
    raiseMahouError("InternalCompilerError", "internal compiler error: unknown C++ exception");
  }
}

void setForeignRuntimeError() {
  PyObject *type = nullptr, *value = nullptr, *traceback = nullptr;
  PyErr_Fetch(&type, &value, &traceback);
  PyErr_NormalizeException(&type, &value, &traceback);
  if (!value) { // cannot happen after normalising; keep compiled code's contract anyway
    Py_XDECREF(type);
    Py_XDECREF(traceback);
    mahou_rt_set_error(int32_t(types::ExcKind::RuntimeError), "an objmode block failed");
    return;
  }
  if (traceback) PyException_SetTraceback(value, traceback);
  Py_XDECREF(traceback);
  Py_XDECREF(type);
  // Its class as compiled code knows it (a builtin of the runtime's table, or a user class
  // registered with its bases), else its nearest builtin class: a compiled `except` matches on it.
  int32_t kind = int32_t(types::ExcKind::Exception);
  PyObject *mro = Py_TYPE(value)->tp_mro;
  bool found = false;
  try {
    if (auto known = registerUserException(reinterpret_cast<PyObject *>(Py_TYPE(value)))) {
      kind = int32_t(known->first);
      found = true;
    }
  } catch (nb::python_error &) { // its module or name cannot be read: the nearest builtin
  }
  for (Py_ssize_t i = 0; mro && !found && i < PyTuple_GET_SIZE(mro); ++i)
    for (int32_t k = 0; k < kExceptionCount && !found; ++k)
      if (PyTuple_GET_ITEM(mro, i) == excClassFromIndex(k)) {
        kind = k;
        found = true;
      }
  PyObject *text = PyObject_Str(value);
  const char *message = text ? PyUnicode_AsUTF8(text) : nullptr;
  if (!message) PyErr_Clear();
  mahou_rt_set_error(kind, message ? message : "");
  Py_XDECREF(text);
  mahou_rt_pending_error()->foreign = value; // the reference moves into the error
}

void releaseForeignRuntimeError(void *exception) {
  PyGILState_STATE gil = PyGILState_Ensure();
  Py_DECREF(static_cast<PyObject *>(exception));
  PyGILState_Release(gil);
}

void raiseRuntimeError() {
  MahouError err = mahou_rt_take_error();
  if (!err.set) {
    PyErr_SetString(PyExc_SystemError, "compiled function failed without setting an error");
    return;
  }
  if (err.foreign) { // an objmode block's exception: raised as it was, with its traceback
    auto *exc = static_cast<PyObject *>(err.foreign);
    PyErr_Restore(Py_NewRef(reinterpret_cast<PyObject *>(Py_TYPE(exc))), exc, PyException_GetTraceback(exc));
    return;
  }
  PyObject *cls = excClassFromIndex(err.kind);
  if (err.hasArgs) {
    if (!raiseWithArguments(cls, err) && !PyErr_Occurred())
      PyErr_SetString(PyExc_SystemError, "compiled function raised an exception whose arguments could not be read");
    return;
  }
  if (err.message[0])
    PyErr_SetString(cls, err.message);
  else
    PyErr_SetNone(cls);
}

} // namespace mahou::binding
