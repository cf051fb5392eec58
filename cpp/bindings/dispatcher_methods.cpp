// Python-visible methods and attributes of the Dispatcher other than the call:
// compile(sig), signatures, inspect_llvm/asm/types, stats, py_func, disable_compile.
#include "binding.h"

namespace nb = nanobind;

namespace mahou::binding {

using types::Type;

namespace {

DispatcherObject *asDispatcher(PyObject *self) {
  return reinterpret_cast<DispatcherObject *>(self);
}

std::string textOf(PyObject *obj) {
  nb::str s = nb::str(nb::handle(obj));
  return s.c_str();
}

bool checkDeclaredReturn(Overload &ov, const Type &declared) {
  if (declared == ov.fn.ret) {
    if (declared.isNumber())
      ov.declaredRet = declared; // compiled in: kept for recompile() and pickling
    return true;
  }
  if (declared.isScalar() && ov.fn.ret.isScalar()) {
    ov.declaredRet = declared; // the result is converted when boxed
    return true;
  }
  if (declared.isArray() && ov.fn.ret.isArray() && declared.dtype == ov.fn.ret.dtype &&
      declared.ndim == ov.fn.ret.ndim)
    return true; // layouts differ only: boxing does not depend on them
  raiseMahouError("TypingError", "declared return type " + typeString(declared) +
                                     " does not match the inferred return type " +
                                     typeString(ov.fn.ret));
  return false;
}

PyObject *dispCompile(PyObject *self, PyObject *sig) {
  types::Signature parsed;
  if (!parseSignatureArg(sig, parsed))
    return nullptr;
  Overload *ov = nullptr;
  if (!translateErrors([&] { ov = &compileOverload(asDispatcher(self), parsed.args, parsed.ret); }))
    return nullptr;
  if (parsed.ret && !checkDeclaredReturn(*ov, *parsed.ret))
    return nullptr;
  Py_RETURN_NONE;
}

PyObject *dispDisableCompile(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  int disable = 1;
  if (nargs > 0 && (disable = PyObject_IsTrue(args[0])) < 0)
    return nullptr;
  asDispatcher(self)->state->canCompile = !disable;
  Py_RETURN_NONE;
}

bool emit(DispatcherObject *self, const std::vector<Type> &args, Stage stage, std::string &text) {
  DispatcherState &st = *self->state;
  return translateErrors([&] {
    std::unique_ptr<CompileEnvironment> env = makeEnvironment(self);
    SourceFile file(st.filename, st.source, st.firstLine);
    text = backendTable().emitStage(file, st.name, args, *env, st.options, stage);
  });
}

// inspect_*(signature=None): text of one signature, or a dict over all overloads.
PyObject *inspectStage(PyObject *self, PyObject *args, PyObject *kwargs, Stage stage) {
  PyObject *sig = Py_None;
  static const char *keywords[] = {"signature", nullptr};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O", const_cast<char **>(keywords), &sig))
    return nullptr;
  DispatcherObject *d = asDispatcher(self);
  std::vector<std::vector<Type>> sigs;
  for (const auto &ov : d->state->overloads)
    sigs.push_back(ov->fn.args);
  return inspectOverloads(sig, sigs, parseSignatureArg,
                          [&](const std::vector<Type> &args, std::string &text) { return emit(d, args, stage, text); });
}

PyObject *dispInspectLLVM(PyObject *self, PyObject *args, PyObject *kwargs) {
  return inspectStage(self, args, kwargs, Stage::OptLLVM);
}

PyObject *dispInspectAsm(PyObject *self, PyObject *args, PyObject *kwargs) {
  return inspectStage(self, args, kwargs, Stage::Asm);
}

// Prints the typed IR of every overload (or of one signature) to sys.stdout.
PyObject *dispInspectTypes(PyObject *self, PyObject *args, PyObject *kwargs) {
  PyObject *sig = Py_None, *file = Py_None, *pretty = Py_False;
  static const char *keywords[] = {"file", "signature", "pretty", nullptr};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OOO", const_cast<char **>(keywords), &file,
                                   &sig, &pretty))
    return nullptr;
  nb::object texts;
  {
    nb::object noArgs = nb::steal(PyTuple_New(0));
    nb::dict kw;
    kw["signature"] = nb::handle(sig);
    texts = nb::steal(inspectStage(self, noArgs.ptr(), kw.ptr(), Stage::IR));
    if (!texts.is_valid())
      return nullptr;
  }
  try {
    nb::object print = nb::module_::import_("builtins").attr("print");
    nb::dict kw;
    if (file != Py_None)
      kw["file"] = nb::handle(file);
    if (nb::isinstance<nb::dict>(texts)) {
      for (auto [key, value] : nb::cast<nb::dict>(texts)) {
        print(nb::str("{} {}").format(nb::handle(self).attr("__name__"), key), **kw);
        print(value, **kw);
      }
    } else {
      print(texts, **kw);
    }
  } catch (nb::python_error &e) {
    e.restore();
    return nullptr;
  }
  Py_RETURN_NONE;
}

// recompile(): every signature compiled again (globals are read afresh). The old
// overloads stay alive (code running now, or callers compiled against them, use them).
PyObject *dispRecompile(PyObject *self, PyObject *) {
  DispatcherObject *d = asDispatcher(self);
  DispatcherState &st = *d->state;
  std::vector<std::pair<std::vector<Type>, std::optional<Type>>> sigs;
  for (auto &ov : st.overloads) {
    sigs.emplace_back(ov->fn.args, ov->declaredRet);
    st.retired.push_back(std::move(ov));
  }
  st.overloads.clear();
  st.entries.clear();
  st.scalarEntries.clear();
  d->lastFast = nullptr;
  d->vectorcall = dispatcherCall;
  for (auto &[args, declared] : sigs) {
    Overload *ov = nullptr;
    if (!translateErrors([&] { ov = &compileOverload(d, args, declared); }))
      return nullptr;
    ov->declaredRet = declared;
  }
  Py_RETURN_NONE;
}

// {argument types: mahou.decorators.CompileResult} like Numba's Dispatcher.overloads.
PyObject *getOverloads(PyObject *self, void *) {
  try {
    nb::object make = nb::module_::import_("mahou.decorators").attr("CompileResult");
    nb::dict out;
    for (const auto &ov : asDispatcher(self)->state->overloads) {
      nb::object args = nb::steal(toPySignature(ov->fn.args));
      nb::object ret = nb::steal(toPyType(ov->declaredRet ? *ov->declaredRet : ov->fn.ret));
      if (!args.is_valid() || !ret.is_valid())
        return nullptr;
      out[args] = make(ret, args, uintptr_t(reinterpret_cast<void *>(ov->fn.entry)), ov->fn.symbol,
                       stageTimes(ov->fn.times));
    }
    return out.release().ptr();
  } catch (nb::python_error &e) {
    e.restore();
    return nullptr;
  }
}

PyObject *getPyFunc(PyObject *self, void *) {
  PyObject *f = asDispatcher(self)->state->pyFunc;
  return Py_NewRef(f ? f : Py_None);
}

PyObject *getSignatures(PyObject *self, void *) {
  nb::list out;
  for (const auto &ov : asDispatcher(self)->state->overloads) {
    PyObject *sig = toPySignature(ov->fn.args);
    if (!sig)
      return nullptr;
    out.append(nb::steal(sig));
  }
  return out.release().ptr();
}

// [mahou.types.Signature(return, args)] like Numba's nopython_signatures.
PyObject *getNopythonSignatures(PyObject *self, void *) {
  try {
    nb::object signature = nb::module_::import_("mahou.types").attr("signature");
    nb::list out;
    for (const auto &ov : asDispatcher(self)->state->overloads) {
      nb::object args = nb::steal(toPySignature(ov->fn.args));
      nb::object ret = nb::steal(toPyType(ov->declaredRet ? *ov->declaredRet : ov->fn.ret));
      if (!args.is_valid() || !ret.is_valid())
        return nullptr;
      out.append(signature(ret, *args));
    }
    return out.release().ptr();
  } catch (nb::python_error &e) {
    e.restore();
    return nullptr;
  }
}

PyObject *getStats(PyObject *self, void *) {
  nb::dict out;
  for (const auto &ov : asDispatcher(self)->state->overloads) {
    nb::object key = nb::steal(toPySignature(ov->fn.args));
    if (!key.is_valid())
      return nullptr;
    nb::dict times = stageTimes(ov->fn.times);
    times["cached"] = ov->fn.fromCache && !ov->shipped;
    times["shipped"] = ov->shipped;
    out[key] = times;
  }
  return out.release().ptr();
}

// parallel=True: {signature: [what ran in parallel, the reductions found, ...]}.
PyObject *getParallelNotes(PyObject *self, void *) {
  nb::dict out;
  for (const auto &ov : asDispatcher(self)->state->overloads) {
    nb::object key = nb::steal(toPySignature(ov->fn.args));
    if (!key.is_valid())
      return nullptr;
    nb::list lines;
    for (const auto &line : ov->fn.parallelNotes)
      lines.append(nb::str(line.c_str()));
    out[key] = lines;
  }
  return out.release().ptr();
}

PyObject *getCanCompile(PyObject *self, void *) {
  return PyBool_FromLong(asDispatcher(self)->state->canCompile);
}

// The argument types of the overload whose Python entry is the dispatcher's call now,
// or None while calls go through the dispatcher's general call.
PyObject *getPythonEntry(PyObject *self, void *) {
  DispatcherObject *d = asDispatcher(self);
  if (d->vectorcall == dispatcherCall || !d->lastFast)
    Py_RETURN_NONE;
  return toPySignature(d->lastFast->fn.args);
}

PyObject *getTargetOptions(PyObject *self, void *) {
  const DispatcherState &st = *asDispatcher(self)->state;
  nb::dict out;
  out["boundscheck"] = st.options.boundscheck;
  out["fastmath"] = st.options.fastmath;
  out["parallel"] = st.options.parallel;
  out["nogil"] = st.nogil;
  out["forceinline"] = st.options.forceInline;
  out["cache"] = st.cache;
  out["nopython"] = true;
  return out.release().ptr();
}

} // namespace

// A signature given as text ("f8(f8[:])", "(int64,)"), a mahou.types Signature,
// or a tuple of types / type strings → argument types (+ return type if given).
bool parseSignatureArg(PyObject *sig, types::Signature &out) {
  std::string error;
  if (PyTuple_Check(sig)) {
    out.ret.reset();
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(sig); ++i) {
      std::string text = textOf(PyTuple_GET_ITEM(sig, i));
      auto t = types::parseType(text, &error);
      if (!t) {
        raiseMahouError("TypingError", error);
        return false;
      }
      out.args.push_back(std::move(*t));
    }
    return true;
  }
  std::string text = textOf(sig);
  auto parsed = types::parseSignature(text, &error);
  if (!parsed) {
    raiseMahouError("TypingError", error);
    return false;
  }
  out = std::move(*parsed);
  return true;
}

PyMethodDef dispatcherMethods[] = {
    {"compile", reinterpret_cast<PyCFunction>(dispCompile), METH_O,
     "compile(signature): compile the overload for this signature now."},
    {"disable_compile", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(dispDisableCompile)),
     METH_FASTCALL, "disable_compile(val=True): only use the overloads compiled so far."},
    {"inspect_llvm", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(dispInspectLLVM)),
     METH_VARARGS | METH_KEYWORDS, "Optimised LLVM IR: one signature's text, or {signature: text}."},
    {"inspect_asm", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(dispInspectAsm)),
     METH_VARARGS | METH_KEYWORDS, "Host assembly: one signature's text, or {signature: text}."},
    {"inspect_types", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(dispInspectTypes)),
     METH_VARARGS | METH_KEYWORDS, "Print the typed IR of each overload."},
    {"_export_code", dispatcherExportCode, METH_NOARGS, "Machine code of the overloads, for pickling."},
    {"_import_code", dispatcherImportCode, METH_O, "Links machine code from _export_code; returns how many overloads."},
    {"recompile", reinterpret_cast<PyCFunction>(dispRecompile), METH_NOARGS,
     "recompile(): compile every signature again, reading the globals afresh."},
    {"_compile_object", dispatcherCompileObject, METH_O, "Object files of an overload and its callees (mahou.aot)."},
    {nullptr, nullptr, 0, nullptr},
};

PyGetSetDef dispatcherGetSets[] = {
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, nullptr, nullptr},
    {"py_func", getPyFunc, nullptr, "The original Python function.", nullptr},
    {"signatures", getSignatures, nullptr, "Argument types of each compiled overload.", nullptr},
    {"overloads", getOverloads, nullptr, "{argument types: CompileResult} of the compiled overloads.", nullptr},
    {"nopython_signatures", getNopythonSignatures, nullptr, "Full signatures of each overload.",
     nullptr},
    {"stats", getStats, nullptr, "Compile times (ms) per stage of each overload.", nullptr},
    {"_parallel_notes", getParallelNotes, nullptr,
     "parallel=True: {signature: [the loops that run in parallel, their reductions]}.", nullptr},
    {"_can_compile", getCanCompile, nullptr, "False once disable_compile() was called.", nullptr},
    {"_python_entry", getPythonEntry, nullptr,
     "Argument types of the overload whose compiled Python entry takes the calls now, or None.", nullptr},
    {"targetoptions", getTargetOptions, nullptr, "Options the overloads are compiled with.",
     nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

} // namespace mahou::binding
