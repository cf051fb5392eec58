// What @njit dispatchers and @cuda.jit kernels share as wrappers of a Python function:
// reading its parameters, copying its identity attributes, and inspect_*(signature=None)
// over the compiled overloads.
#include "binding.h"

namespace nb = nanobind;

namespace mahou::binding {

bool readFunctionParameters(PyObject *func, const char *owner, int &count, std::vector<std::string> &names,
                            PyObject **defaults, int *kwonly, PyObject **kwdefaults) {
  try {
    nb::handle f(func);
    nb::object code = f.attr("__code__");
    count = nb::cast<int>(code.attr("co_argcount"));
    int nkw = kwonly ? nb::cast<int>(code.attr("co_kwonlyargcount")) : 0;
    nb::object varnames = code.attr("co_varnames"); // positional, then keyword-only names
    for (int i = 0; i < count + nkw; ++i)
      names.push_back(nb::cast<std::string>(varnames[i]));
    if (defaults) {
      nb::object d = f.attr("__defaults__");
      *defaults = d.is_none() ? nullptr : d.release().ptr();
    }
    if (kwonly) {
      *kwonly = nkw;
      nb::object d = f.attr("__kwdefaults__");
      *kwdefaults = d.is_none() ? nullptr : d.release().ptr();
    }
  } catch (nb::python_error &e) {
    e.restore();
    return false;
  } catch (const std::exception &e) {
    PyErr_Format(PyExc_TypeError, "%s needs a Python function (%s)", owner, e.what());
    return false;
  }
  return true;
}

bool copyWrappedAttributes(PyObject *func, PyObject **dict) {
  *dict = PyDict_New();
  if (!*dict)
    return false;
  for (const char *attr : {"__name__", "__qualname__", "__module__", "__doc__"}) {
    PyObject *v = PyObject_GetAttrString(func, attr);
    if (!v) {
      PyErr_Clear();
      continue;
    }
    int rc = PyDict_SetItemString(*dict, attr, v);
    Py_DECREF(v);
    if (rc < 0)
      return false;
  }
  return PyDict_SetItemString(*dict, "__wrapped__", func) == 0;
}

nb::dict stageTimes(const StageTimes &t) {
  nb::dict times;
  times["parse_ms"] = t.parseMs;
  times["sema_ms"] = t.semaMs;
  times["codegen_ms"] = t.codegenMs;
  times["optimize_ms"] = t.optimizeMs;
  times["jit_ms"] = t.jitMs;
  times["init_ms"] = t.initMs;
  times["cache_ms"] = t.cacheMs;
  times["total_ms"] = t.parseMs + t.semaMs + t.codegenMs + t.optimizeMs + t.jitMs + t.initMs + t.cacheMs;
  return times;
}

PyObject *inspectOverloads(PyObject *sig, const std::vector<std::vector<types::Type>> &overloads,
                           bool (*parse)(PyObject *, types::Signature &), const OverloadText &text) {
  std::string out;
  if (sig != Py_None) {
    types::Signature parsed;
    if (!parse(sig, parsed) || !text(parsed.args, out))
      return nullptr;
    return PyUnicode_FromStringAndSize(out.data(), Py_ssize_t(out.size()));
  }
  nb::dict all;
  for (const auto &args : overloads) {
    nb::object key = nb::steal(toPySignature(args));
    if (!key.is_valid() || !text(args, out))
      return nullptr;
    all[key] = nb::str(out.c_str(), out.size());
  }
  return all.release().ptr();
}

} // namespace mahou::binding
