// The dispatcher's slow path: keyword and default arguments, typing of the
// arguments, compilation of a new overload, conversions for explicit signatures.
#include "binding.h"
#include "objects_binding.h"

#include "mahou/cache.h"
#include "mahou/layout.h"

#include <algorithm>

namespace nb = nanobind;

namespace mahou::binding {

using types::Type;

namespace {

struct Slot {
  size_t size, align;
};

// An argument's or result's bytes in the call buffers: its native layout (layout.h), which
// is none for compile-time-only values. (A list of kinds here once missed records: their
// pointer shared the next argument's slot.)
Slot slotOf(const Type &t) { return {types::nativeSize(t), std::max<size_t>(1, types::nativeAlign(t))}; }

std::unique_ptr<Overload> makeOverload(std::vector<uint64_t> key, CompiledFunction fn) {
  auto ov = std::make_unique<Overload>();
  ov->key = std::move(key);
  ov->fn = std::move(fn);
  size_t offset = 0;
  for (const Type &t : ov->fn.args) {
    Slot slot = slotOf(t);
    offset = (offset + slot.align - 1) / slot.align * slot.align;
    ov->argOffsets.push_back(offset);
    ov->argOps.push_back(argOpFor(t));
    offset += slot.size;
  }
  ov->argBytes = offset;
  for (const Type &t : ov->fn.args) ov->releasesArgs |= holdsObjects(t) || t.containsBuffer();
  ov->retBytes = slotOf(ov->fn.ret).size;
  ov->retOp = retOpFor(ov->fn.ret);
  uint32_t code = 0;
  bool fast = ov->fn.args.size() <= size_t(kMaxScalarArgs) && ov->retOp != RetOp::Generic &&
              ov->argBytes <= 1024;
  for (size_t i = 0; fast && i < ov->fn.args.size(); ++i) {
    const Type &t = ov->fn.args[i];
    ArgOp op = ov->argOps[i];
    if (op == ArgOp::Int64 || op == ArgOp::Float64) {
      code |= scalarArgCode(int(i), op == ArgOp::Float64 ? kFloatCode : kIntCode);
    } else if (op == ArgOp::Array && t.ndim <= 4) {
      code |= scalarArgCode(int(i), kArrayCode);
      std::vector<uint64_t> word;
      appendTypeKey(t, word);
      ov->arrayWords[i] = word.at(0);
    } else {
      fast = false;
    }
  }
  ov->scalarCode = fast ? code : 0;
  ov->nargs = ov->fn.args.size();
  if (ov->scalarCode)
    ov->pythonEntry = reinterpret_cast<vectorcallfunc>(ov->fn.pythonEntry);
  return ov;
}

// Marks a signature as being compiled (for cycle detection) while alive.
class CompilingMark {
public:
  CompilingMark(DispatcherState &st, const std::vector<Type> &args) : st_(st) {
    st_.compiling.push_back(args);
  }
  ~CompilingMark() { st_.compiling.pop_back(); }
  CompilingMark(const CompilingMark &) = delete;
  CompilingMark &operator=(const CompilingMark &) = delete;

private:
  DispatcherState &st_;
};

void keepFunctionArguments(DispatcherState &st, const Type &t) {
  if (t.kind == types::Kind::Function || t.kind == types::Kind::EnumMember) // a function, an enum class
    keepAlive(st, reinterpret_cast<PyObject *>(uintptr_t(t.handle)));
  for (const Type &e : t.elems)
    keepFunctionArguments(st, e);
}

std::string plural(size_t n, const char *word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

bool raiseArity(const DispatcherState &st, size_t given) {
  size_t ndef = st.defaults ? size_t(PyTuple_GET_SIZE(st.defaults)) : 0;
  size_t np = size_t(st.nparams), lo = np - std::min(ndef, np);
  std::string takes = lo == np ? plural(np, "positional argument")
                               : "from " + std::to_string(lo) + " to " +
                                     plural(np, "positional argument");
  PyErr_Format(PyExc_TypeError, "%s() takes %s but %zu %s given", st.name.c_str(),
               takes.c_str(), given, given == 1 ? "was" : "were");
  return false;
}

bool raiseMissing(const DispatcherState &st, const std::vector<std::string> &missing,
                  const char *what = "required positional argument") {
  std::string names;
  for (size_t i = 0; i < missing.size(); ++i) {
    if (i)
      names += i + 1 == missing.size() ? (missing.size() > 2 ? ", and " : " and ") : ", ";
    names += "'" + missing[i] + "'";
  }
  PyErr_Format(PyExc_TypeError, "%s() missing %s: %s", st.name.c_str(),
               plural(missing.size(), what).c_str(), names.c_str());
  return false;
}

int parameterIndex(const DispatcherState &st, PyObject *name) {
  Py_ssize_t size = 0;
  const char *text = PyUnicode_Check(name) ? PyUnicode_AsUTF8AndSize(name, &size) : nullptr;
  if (!text) { // not a str (or not encodable): matches no parameter
    PyErr_Clear();
    return -1;
  }
  std::string_view utf8(text, size_t(size)); // names as Python spells them: 'μ' is not ASCII
  for (size_t i = 0; i < st.paramNames.size(); ++i)
    if (utf8 == st.paramNames[i])
      return int(i);
  return -1;
}

// Positional arguments args[0, npos) and keyword ones (values at kwvalues) + defaults
// → one borrowed object per named parameter (the positional ones, then the keyword-only
// ones).
bool bindNamed(const DispatcherState &st, PyObject *const *args, size_t npos, PyObject *const *kwvalues,
               PyObject *kwnames, std::vector<PyObject *> &out) {
  size_t np = size_t(st.nparams);
  if (npos > np)
    return raiseArity(st, npos);
  out.assign(np + size_t(st.nkwonly), nullptr);
  std::copy(args, args + npos, out.begin());
  Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t k = 0; k < nkw; ++k) {
    PyObject *name = PyTuple_GET_ITEM(kwnames, k);
    int j = parameterIndex(st, name);
    if (j < 0) {
      PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'",
                   st.name.c_str(), name);
      return false;
    }
    if (out[size_t(j)]) {
      PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%U'",
                   st.name.c_str(), name);
      return false;
    }
    out[size_t(j)] = kwvalues[k];
  }
  size_t ndef = st.defaults ? size_t(PyTuple_GET_SIZE(st.defaults)) : 0;
  size_t firstDefault = np - std::min(ndef, np);
  std::vector<std::string> missing;
  for (size_t j = 0; j < np; ++j) {
    if (out[j])
      continue;
    if (j >= firstDefault)
      out[j] = PyTuple_GET_ITEM(st.defaults, Py_ssize_t(j - firstDefault));
    else
      missing.push_back(st.paramNames[j]);
  }
  if (!missing.empty())
    return raiseMissing(st, missing);
  for (size_t j = np; j < out.size(); ++j) { // keyword-only: their defaults are by name
    if (out[j])
      continue;
    PyObject *d = nullptr;
    if (st.kwdefaults && PyDict_Check(st.kwdefaults))
      d = PyDict_GetItemString(st.kwdefaults, st.paramNames[j].c_str());
    if (d)
      out[j] = d;
    else
      missing.push_back(st.paramNames[j]);
  }
  return missing.empty() || raiseMissing(st, missing, "required keyword-only argument");
}

// One borrowed object per parameter. A function with *args gets the extra positional
// arguments as one tuple after the named parameters (`packed`, a new reference the
// caller keeps while `out` is used).
bool normaliseArguments(const DispatcherState &st, PyObject *const *args, size_t nargs,
                        PyObject *kwnames, std::vector<PyObject *> &out, nb::object &packed) {
  size_t np = size_t(st.nparams);
  if (!st.varargs)
    return bindNamed(st, args, nargs, args + nargs, kwnames, out);
  size_t extra = nargs > np ? nargs - np : 0;
  packed = nb::steal(PyTuple_New(Py_ssize_t(extra)));
  if (!packed.is_valid())
    return false;
  for (size_t i = 0; i < extra; ++i)
    PyTuple_SET_ITEM(packed.ptr(), Py_ssize_t(i), Py_NewRef(args[np + i]));
  if (!bindNamed(st, args, nargs - extra, args + nargs, kwnames, out))
    return false;
  out.push_back(packed.ptr());
  return true;
}

bool typeArguments(const DispatcherState &st, const std::vector<PyObject *> &objs,
                   std::vector<Type> &out) {
  for (size_t i = 0; i < objs.size(); ++i) {
    std::string why;
    auto t = typeOfObject(objs[i], &why);
    if (!t) {
      PyErr_Format(PyExc_TypeError,
                   "%s(): cannot compile for argument %zu ('%s') of type %s: not supported by mahou",
                   st.name.c_str(), i + 1, i < st.paramNames.size() ? st.paramNames[i].c_str() : "*args",
                   why.c_str());
      return false;
    }
    out.push_back(std::move(*t));
  }
  return true;
}


} // namespace

Overload *findConvertible(DispatcherState &st, const std::vector<Type> &args) {
  Overload *best = nullptr;
  int bestCost = -1;
  for (const auto &ov : st.overloads) {
    if (ov->fn.args.size() != args.size())
      continue;
    int total = 0;
    for (size_t i = 0; i < args.size() && total >= 0; ++i) {
      int c = conversionCost(args[i], ov->fn.args[i]);
      total = c < 0 ? -1 : total + c;
    }
    if (total >= 0 && (!best || total < bestCost)) {
      best = ov.get();
      bestCost = total;
    }
  }
  return best;
}

namespace {

void raiseNoMatch(const DispatcherState &st, const std::vector<Type> &args) {
  std::string text;
  for (size_t i = 0; i < args.size(); ++i)
    text += (i ? ", " : "") + typeString(args[i]);
  PyErr_Format(PyExc_TypeError, "No matching definition for argument type(s) %s of %s()",
               text.c_str(), st.name.c_str());
}

// mahou.config's DUMP_* switches: the dispatcher's `_on_compile(dispatcher, argument
// types)`, when set, runs after each new overload; what it raises becomes a warning.
void notifyCompiled(DispatcherObject *self, const Overload &ov) {
  PyObject *hook = self->dict ? PyDict_GetItemString(self->dict, "_on_compile") : nullptr;
  if (!hook)
    return;
  PyObject *sig = toPySignature(ov.fn.args);
  PyObject *r = sig ? PyObject_CallFunctionObjArgs(hook, reinterpret_cast<PyObject *>(self), sig, nullptr)
                    : nullptr;
  Py_XDECREF(sig);
  if (r)
    Py_DECREF(r);
  else
    PyErr_WriteUnraisable(hook);
}

} // namespace

// Cost of passing a value of type `from` to a parameter of type `to` (-1: impossible).
int conversionCost(const Type &from, const Type &to) {
  if (from == to)
    return 0;
  if (to.isOptional()) { // optional(int32) in a signature: None, or what converts to int32
    if (from.isNone())
      return 1;
    int c = conversionCost(from, to.elems[0]);
    return c < 0 ? -1 : c + 1;
  }
  if (from.isScalar() && to.isScalar()) {
    if (from.isComplex() && !to.isComplex())
      return -1;
    return types::promote(from.dtype, to.dtype) == to.dtype ? 1 : 2;
  }
  if (from.isRecord() && to.isRecord()) // a record with more fields (Numba's width subtyping)
    return isRecordWidthSubtype(from, to) ? 1 : -1;
  if (from.isArray() && to.isArray()) { // an array of records: of that record only, as Numba
    bool ok = from.dtype == to.dtype && from.ndim == to.ndim && from.buffer == to.buffer && from.elems == to.elems &&
              (to.layout == types::Layout::A || to.layout == from.layout) &&
              (to.readonly || !from.readonly);
    return ok ? 1 : -1;
  }
  if (from.isTuple() && to.isTuple() && from.elems.size() == to.elems.size()) {
    int total = 0;
    for (size_t i = 0; i < from.elems.size(); ++i) {
      int c = conversionCost(from.elems[i], to.elems[i]);
      if (c < 0)
        return -1;
      total += c;
    }
    return total;
  }
  return -1;
}

Overload &compileOverload(DispatcherObject *self, const std::vector<Type> &args, const std::optional<Type> &declaredRet) {
  DispatcherState &st = *self->state;
  std::vector<uint64_t> key;
  for (const Type &t : args)
    appendTypeKey(t, key);
  if (Overload *ov = findOverload(st, key))
    return *ov;
  for (const Type &t : args)
    keepFunctionArguments(st, t);
  nb::object hold = nb::borrow(reinterpret_cast<PyObject *>(self)); // alive while compiling
  CompiledFunction fn;
  {
    CompilingMark mark(st, args);
    std::unique_ptr<CompileEnvironment> env = makeEnvironment(self);
    SourceFile file(st.filename, st.source, st.firstLine);
    CompileOptions options = st.options;
    if (declaredRet && declaredRet->isNumber())
      options.declaredReturn = declaredRet; // "i4(i8)": results converted to int32
    std::optional<CompiledFunction> cached;
    if (st.cache)
      cached = backendTable().cacheLoad(file, st.name, args, *env, options);
    if (cached) {
      fn = std::move(*cached);
    } else {
      fn = backendTable().compileFunction(file, st.name, args, *env, options);
      if (st.cache)
        backendTable().cacheStore(file, st.name, fn, options);
    }
    fn.object.clear(); // the JIT keeps its own copy
  }
  // A recursive compilation may have added the same signature meanwhile.
  if (Overload *ov = findOverload(st, key))
    return *ov;
  Overload &ov = addOverload(st, std::move(key), std::move(fn));
  notifyCompiled(self, ov);
  return ov;
}

Overload &addOverload(DispatcherState &st, std::vector<uint64_t> key, CompiledFunction fn) {
  st.overloads.push_back(makeOverload(key, std::move(fn)));
  Overload &ov = *st.overloads.back();
  st.entries.push_back(OverloadEntry{std::move(key), &ov});
  if (ov.scalarCode)
    st.scalarEntries.emplace_back(ov.scalarCode, &ov);
  return ov;
}

PyObject *slowCall(DispatcherObject *self, PyObject *const *args, size_t nargs,
                   PyObject *kwnames) {
  DispatcherState &st = *self->state;
  std::vector<PyObject *> objs;
  nb::object packed;
  if (!normaliseArguments(st, args, nargs, kwnames, objs, packed))
    return nullptr;
  std::vector<nb::object> standIns; // arguments of a class a jitclass stands in for, converted
  if (!convertStandIns(objs, standIns))
    return nullptr;
  std::vector<Type> argTypes;
  if (!typeArguments(st, objs, argTypes)) {
    // an argument of a class whose stand-in is registered when first seen (numpy's Polynomial)
    PyObject *type, *value, *trace;
    PyErr_Fetch(&type, &value, &trace);
    if (!discoverStandIns(objs)) {
      PyErr_Restore(type, value, trace);
      return nullptr;
    }
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(trace);
    argTypes.clear();
    if (!convertStandIns(objs, standIns) || !typeArguments(st, objs, argTypes))
      return nullptr;
  }
  std::vector<uint64_t> key;
  for (const Type &t : argTypes)
    appendTypeKey(t, key);
  Overload *ov = findOverload(st, key);
  if (!ov && !st.canCompile) {
    ov = findConvertible(st, argTypes);
    if (!ov) {
      raiseNoMatch(st, argTypes);
      return nullptr;
    }
    st.entries.push_back(OverloadEntry{std::move(key), ov}); // next time on the hit path
  }
  if (!ov && !translateErrors([&] { ov = &compileOverload(self, argTypes); }))
    return nullptr;
  if (ov->scalarCode && !kwnames)
    rememberFastOverload(self, ov); // the next call of these types takes the fast path at once
  return invokeOverload(st, *ov, objs.data());
}

} // namespace mahou::binding
