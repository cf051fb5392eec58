// The Dispatcher: a raw CPython heap type whose vectorcall keys the arguments,
// finds the compiled overload and calls it (the hot path; no allocation on a hit).
#include "binding.h"
#include "numpy_api.h"
#include "objects_binding.h"

#include "mahou/runtime.h"

#include <structmember.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <vector>

namespace nb = nanobind;

namespace mahou::binding {

namespace {

PyTypeObject *theDispatcherType = nullptr; // set once in registerDispatcher

constexpr size_t kStackArgBytes = 1024;
constexpr size_t kStackRetBytes = 256;

// An exact int as int64: the value of a one-digit int read from the object
// (no call into the interpreter), else PyLong_AsLongLong (OverflowError past int64).
inline bool unboxInt64(PyObject *obj, char *dst) {
  long long v;
#if PY_VERSION_HEX >= 0x030C0000
  if (PyUnstable_Long_IsCompact(reinterpret_cast<PyLongObject *>(obj))) {
    v = static_cast<long long>(PyUnstable_Long_CompactValue(reinterpret_cast<PyLongObject *>(obj)));
    std::memcpy(dst, &v, sizeof v);
    return true;
  }
#else
  Py_ssize_t size = Py_SIZE(obj);
  if (size >= -1 && size <= 1) {
    v = static_cast<long long>(size) * static_cast<long long>(reinterpret_cast<PyLongObject *>(obj)->ob_digit[0]);
    std::memcpy(dst, &v, sizeof v);
    return true;
  }
#endif
  v = PyLong_AsLongLong(obj);
  if (v == -1 && PyErr_Occurred())
    return false;
  std::memcpy(dst, &v, sizeof v);
  return true;
}

inline bool unboxFast(PyObject *obj, ArgOp op, const types::Type &t, char *dst) {
  switch (op) {
  case ArgOp::Int64:
    if (PyLong_CheckExact(obj))
      return unboxInt64(obj, dst);
    if (Py_TYPE(obj) == &PyLongArrType_Type) { // np.int64
      npy_long v = PyArrayScalar_VAL(obj, Long);
      static_assert(sizeof v == 8);
      std::memcpy(dst, &v, sizeof v);
      return true;
    }
    break;
  case ArgOp::Float64:
    if (PyFloat_CheckExact(obj)) {
      double v = PyFloat_AS_DOUBLE(obj);
      std::memcpy(dst, &v, sizeof v);
      return true;
    }
    if (Py_TYPE(obj) == &PyDoubleArrType_Type) { // np.float64
      double v = PyArrayScalar_VAL(obj, Double);
      std::memcpy(dst, &v, sizeof v);
      return true;
    }
    break;
  case ArgOp::Bool:
    if (PyBool_Check(obj)) {
      *dst = obj == Py_True;
      return true;
    }
    break;
  case ArgOp::Array:
    return unboxArray(obj, t.ndim, dst);
  case ArgOp::Generic:
    break;
  }
  return unboxValue(obj, t, dst);
}

// A declared (eager) scalar return type that differs from the inferred one.
PyObject *convertResult(PyObject *result, const types::Type &declared) {
  if (!result || !declared.isScalar())
    return result;
  PyObject *out = nullptr;
  switch (types::dtypeClass(declared.dtype)) {
  case types::DTypeClass::Bool: {
    int truth = PyObject_IsTrue(result);
    out = truth < 0 ? nullptr : PyBool_FromLong(truth);
    break;
  }
  case types::DTypeClass::SignedInt:
  case types::DTypeClass::UnsignedInt:
    out = PyNumber_Long(result);
    break;
  case types::DTypeClass::Float:
    out = PyNumber_Float(result);
    break;
  case types::DTypeClass::Complex: {
    Py_complex c = PyComplex_AsCComplex(result);
    out = (c.real == -1.0 && PyErr_Occurred()) ? nullptr : PyComplex_FromCComplex(c);
    break;
  }
  case types::DTypeClass::Datetime:
  case types::DTypeClass::Timedelta: { // NumPy's conversion to the declared unit
    PyArray_Descr *descr = descrOfDType(declared.dtype);
    out = descr ? PyObject_CallMethod(result, "astype", "O", reinterpret_cast<PyObject *>(descr)) : nullptr;
    Py_XDECREF(descr);
    break;
  }
  }
  Py_DECREF(result);
  return out;
}

PyObject *boxResult(const Overload &ov, char *ret) {
  PyObject *result;
  switch (ov.retOp) {
  case RetOp::Int64: {
    long long v;
    std::memcpy(&v, ret, sizeof v);
    result = PyLong_FromLongLong(v);
    break;
  }
  case RetOp::Float64: {
    double v;
    std::memcpy(&v, ret, sizeof v);
    result = PyFloat_FromDouble(v);
    break;
  }
  case RetOp::Bool:
    result = PyBool_FromLong(*ret != 0);
    break;
  case RetOp::None:
    result = Py_NewRef(Py_None);
    break;
  default:
    result = boxValue(ov.fn.ret, ret);
    if (ov.fn.ret.isGenerator()) holdGeneratorCode(result, ov.fn.code);
    break;
  }
  return ov.declaredRet ? convertResult(result, *ov.declaredRet) : result;
}

// appendObjectKey with the commonest argument types inlined.
inline bool appendKeyFast(PyObject *obj, KeyBuffer &key) {
  PyTypeObject *t = Py_TYPE(obj);
  if (key.size < kMaxKeyWords) {
    if (t == &PyLong_Type) {
      key.words[key.size++] = kInt64Key;
      return true;
    }
    if (t == &PyFloat_Type) {
      key.words[key.size++] = kFloat64Key;
      return true;
    }
  }
  return appendObjectKey(obj, key);
}

inline bool sameKey(const std::vector<uint64_t> &entry, const KeyBuffer &key) {
  if (entry.size() != size_t(key.size))
    return false;
  const uint64_t *a = entry.data();
  for (int i = 0; i < key.size; ++i)
    if (a[i] != key.words[i])
      return false;
  return true;
}

// boxResult with the int64 and float64 results inlined.
inline PyObject *boxScalarResult(const Overload &ov, uint64_t *ret) {
  if (!ov.declaredRet) {
    if (ov.retOp == RetOp::Int64) {
      long long v;
      std::memcpy(&v, ret, sizeof v);
      return PyLong_FromLongLong(v);
    }
    if (ov.retOp == RetOp::Float64) {
      double v;
      std::memcpy(&v, ret, sizeof v);
      return PyFloat_FromDouble(v);
    }
  }
  return boxResult(ov, reinterpret_cast<char *>(ret));
}

// Calls the overload's entry on unboxed arguments (without the GIL under nogil=True)
// and boxes its scalar result; the error compiled code set becomes the exception.
inline PyObject *runEntry(DispatcherState &st, const Overload &ov, void **argv) {
  alignas(16) uint64_t ret[2];
  int32_t status;
  if (__builtin_expect(st.nogil, 0)) {
    Py_BEGIN_ALLOW_THREADS status = ov.fn.entry(ret, argv);
    Py_END_ALLOW_THREADS
  } else {
    status = ov.fn.entry(ret, argv);
  }
  if (__builtin_expect(status != 0, 0)) {
    raiseRuntimeError();
    return nullptr;
  }
  return boxScalarResult(ov, ret);
}

// How unboxing for an overload of the fast path went.
enum class FastUnbox { Done, Mismatch, Error };

// Checks and unboxes the arguments of a fast-path overload in one pass, as its code
// says: an exact int or np.int64 (a one-digit int read in place), an exact float or
// np.float64, or an exact
// ndarray whose key word matches. Mismatch (nothing set) when an argument has another
// type; Error with OverflowError for an int past int64.
inline FastUnbox unboxFastArguments(const Overload &ov, PyObject *const *args, size_t n, char *buf,
                                    void **argv) {
  const size_t *offsets = ov.argOffsets.data();
  const uint32_t code = ov.scalarCode;
  for (size_t i = 0; i < n; ++i) {
    PyObject *obj = args[i];
    PyTypeObject *t = Py_TYPE(obj);
    char *dst = buf + offsets[i];
    argv[i] = dst;
    switch (code >> (2 * i) & 3) {
    case kIntCode:
      if (t == &PyLongArrType_Type) { // np.int64
        npy_long v = PyArrayScalar_VAL(obj, Long);
        std::memcpy(dst, &v, sizeof v);
        break;
      }
      if (t != &PyLong_Type)
        return FastUnbox::Mismatch;
      if (!unboxInt64(obj, dst))
        return FastUnbox::Error;
      break;
    case kFloatCode: {
      double v;
      if (t == &PyFloat_Type)
        v = PyFloat_AS_DOUBLE(obj);
      else if (t == &PyDoubleArrType_Type) // np.float64 (np.min(a), a.sum(), ...)
        v = PyArrayScalar_VAL(obj, Double);
      else
        return FastUnbox::Mismatch;
      std::memcpy(dst, &v, sizeof v);
      break;
    }
    default: {
      if (t != &PyArray_Type || arrayKeyWord(obj) != ov.arrayWords[i])
        return FastUnbox::Mismatch;
      auto *a = reinterpret_cast<PyArrayObject *>(obj);
      auto *head = reinterpret_cast<MahouArrayHead *>(dst);
      int ndim = PyArray_NDIM(a);
      head->meminfo = nullptr;
      head->parent = obj;
      head->data = PyArray_BYTES(a);
      std::memcpy(head->dims, PyArray_DIMS(a), sizeof(int64_t) * size_t(ndim));
      std::memcpy(head->dims + ndim, PyArray_STRIDES(a), sizeof(int64_t) * size_t(ndim));
      break;
    }
    }
  }
  return FastUnbox::Done;
}

// The fast path's overload for these arguments: every argument an exact int, float,
// np.int64, np.float64 or ndarray, and an overload (of int64, float64 and array arguments, a scalar or None
// result) with the same code and array key words. Null when there is none.
inline const Overload *findFastOverload(const DispatcherState &st, PyObject *const *args, size_t n) {
  uint32_t code = 0;
  uint64_t words[kMaxScalarArgs];
  for (size_t i = 0; i < n; ++i) {
    PyTypeObject *t = Py_TYPE(args[i]);
    words[i] = 0;
    if (t == &PyLong_Type || t == &PyLongArrType_Type)
      code |= scalarArgCode(int(i), kIntCode);
    else if (t == &PyFloat_Type || t == &PyDoubleArrType_Type)
      code |= scalarArgCode(int(i), kFloatCode);
    else if (t == &PyArray_Type && (words[i] = arrayKeyWord(args[i])) != 0)
      code |= scalarArgCode(int(i), kArrayCode);
    else
      return nullptr;
  }
  bool arrays = (code & code >> 1 & 0x5555u) != 0;
  for (const auto &[c, ov] : st.scalarEntries) {
    if (c != code)
      continue;
    bool same = true;
    for (size_t j = 0; arrays && j < n; ++j) // a plain loop: std::equal became a memcmp call
      same &= words[j] == ov->arrayWords[j];
    if (same)
      return ov;
  }
  return nullptr;
}

// Unboxes for a fast-path overload and calls it; nullopt when an argument does not match.
inline std::optional<PyObject *> tryFastOverload(DispatcherState &st, const Overload &ov,
                                                 PyObject *const *args, size_t n) {
  alignas(16) char buf[1024];
  void *argv[kMaxScalarArgs];
  switch (unboxFastArguments(ov, args, n, buf, argv)) {
  case FastUnbox::Done:
    return runEntry(st, ov, argv);
  case FastUnbox::Error:
    return nullptr;
  case FastUnbox::Mismatch:
    break;
  }
  return std::nullopt;
}

} // namespace

// The overload found by the fast path becomes the call site's: the dispatcher's
// vectorcall is its Python entry (compiled code that checks, unboxes, calls and boxes,
// and comes back here for any other call) where it has one and nothing else must run
// around the call (nogil: the GIL is released here; a declared return type: the result
// is converted here).
void rememberFastOverload(DispatcherObject *self, const Overload *ov) {
  if (self->state->nkwonly) // its arguments are bound by name (and defaults) on every call
    return;
  self->lastFast = ov;
  bool entry = ov->pythonEntry && !self->state->nogil && !ov->declaredRet;
  self->vectorcall = entry ? ov->pythonEntry : dispatcherCall;
}

// The call. First the overload the fast path called last (a call site usually passes
// the same types again): its code checks and unboxes each argument in one pass. Then
// the fast path's search by type code, then the key search, then the slow path
// (keywords, defaults, conversions, compiling).
PyObject *dispatcherCall(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
  auto *self = reinterpret_cast<DispatcherObject *>(callable);
  DispatcherState &st = *self->state;
  size_t n = size_t(PyVectorcall_NARGS(nargsf));
  if (const Overload *hot = self->lastFast; hot && !kwnames && n == hot->nargs && !st.nkwonly)
    if (std::optional<PyObject *> result = tryFastOverload(st, *hot, args, n))
      return *result;
  if (!kwnames && n == size_t(st.nparams) && !st.nkwonly && !st.scalarEntries.empty() && n <= size_t(kMaxScalarArgs))
    if (const Overload *ov = findFastOverload(st, args, n)) {
      rememberFastOverload(self, ov);
      if (std::optional<PyObject *> result = tryFastOverload(st, *ov, args, n))
        return *result;
    }
  if (!kwnames && n == size_t(st.nparams) && !st.nkwonly) {
    KeyBuffer key;
    size_t i = 0;
    while (i < n && appendKeyFast(args[i], key))
      ++i;
    if (i == n)
      for (const auto &entry : st.entries)
        if (sameKey(entry.key, key))
          return invokeOverload(st, *entry.overload, args);
  }
  return slowCall(self, args, n, kwnames);
}

namespace {

// ------------------------------------------------------------------ construction

// locals={name: type text} (mahou.decorators gives the types as text).
bool readLocalTypes(CompileOptions &options, PyObject *locals) {
  if (!locals)
    return true;
  PyObject *key, *value;
  Py_ssize_t pos = 0;
  while (PyDict_Next(locals, &pos, &key, &value)) {
    const char *name = PyUnicode_AsUTF8(key);
    const char *text = name ? PyUnicode_AsUTF8(value) : nullptr;
    if (!text)
      return false;
    std::string error;
    auto t = types::parseType(text, &error);
    if (!t) {
      PyErr_Format(PyExc_TypeError, "jit(locals=...): invalid type for '%s': %s", name, error.c_str());
      return false;
    }
    options.localTypes.emplace_back(name, *t);
  }
  return true;
}

bool readOptions(DispatcherState &st, PyObject *options) {
  if (options == Py_None)
    return true;
  if (!PyDict_Check(options)) {
    PyErr_SetString(PyExc_TypeError, "Dispatcher options must be a dict");
    return false;
  }
  auto flag = [&](const char *key, bool fallback) {
    PyObject *v = PyDict_GetItemString(options, key); // borrowed
    return v ? PyObject_IsTrue(v) == 1 : fallback;
  };
  st.options.boundscheck = flag("boundscheck", false);
  st.options.fastmath = flag("fastmath", false);
  if (PyObject *bits = PyDict_GetItemString(options, "fastmath_flags"); bits && PyLong_Check(bits))
    st.options.fastmathFlags = unsigned(PyLong_AsUnsignedLong(bits));
  st.options.parallel = flag("parallel", false);
  st.options.verifyIR = flag("verify_ir", true);
  st.options.forceInline = flag("forceinline", false);
  st.nogil = flag("nogil", false);
  st.cache = flag("cache", false);
  if (PyObject *em = PyDict_GetItemString(options, "error_model"); em && PyUnicode_Check(em))
    st.options.numpyErrors = PyUnicode_CompareWithASCIIString(em, "numpy") == 0;
  return readLocalTypes(st.options, PyDict_GetItemString(options, "locals")) &&
         readNativeEntryOptions(st.options.native, options);
}

bool takesVarargs(PyObject *func) {
  PyObject *code = PyObject_GetAttrString(func, "__code__");
  PyObject *flags = code ? PyObject_GetAttrString(code, "co_flags") : nullptr;
  bool varargs = flags && (PyLong_AsLong(flags) & 0x04) != 0; // CO_VARARGS
  Py_XDECREF(flags);
  Py_XDECREF(code);
  PyErr_Clear();
  return varargs;
}

PyObject *dispatcherNew(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
  PyObject *pyFunc, *resolver, *options = Py_None;
  const char *source, *filename, *name;
  int firstLine;
  static const char *keywords[] = {"py_func",  "source_text", "filename", "firstlineno",
                                   "name",     "resolver",    "options",  nullptr};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OssisO|O:Dispatcher",
                                   const_cast<char **>(keywords), &pyFunc, &source, &filename,
                                   &firstLine, &name, &resolver, &options))
    return nullptr;
  if (!ensureNumpyApi())
    return nullptr;
  if (!PyCallable_Check(resolver)) {
    PyErr_SetString(PyExc_TypeError, "Dispatcher resolver must be callable");
    return nullptr;
  }
  auto *self = reinterpret_cast<DispatcherObject *>(type->tp_alloc(type, 0));
  if (!self)
    return nullptr;
  self->vectorcall = dispatcherCall;
  self->state = new DispatcherState();
  self->lastFast = nullptr;
  DispatcherState &st = *self->state;
  st.pyFunc = Py_NewRef(pyFunc);
  st.resolver = Py_NewRef(resolver);
  st.source = source;
  st.filename = filename;
  st.firstLine = firstLine;
  st.name = name;
  st.varargs = takesVarargs(pyFunc);
  if (!readOptions(st, options) || !readFunctionParameters(pyFunc, "Dispatcher", st.nparams, st.paramNames, &st.defaults,
                                                            &st.nkwonly, &st.kwdefaults) ||
      !copyWrappedAttributes(pyFunc, &self->dict)) {
    Py_DECREF(self);
    return nullptr;
  }
  return reinterpret_cast<PyObject *>(self);
}

// ------------------------------------------------------------------ GC and lifetime

int dispatcherTraverse(PyObject *obj, visitproc visit, void *arg) {
  auto *self = reinterpret_cast<DispatcherObject *>(obj);
  Py_VISIT(Py_TYPE(obj));
  Py_VISIT(self->dict);
  if (DispatcherState *st = self->state) {
    Py_VISIT(st->pyFunc);
    Py_VISIT(st->resolver);
    Py_VISIT(st->defaults);
    Py_VISIT(st->kwdefaults);
    for (PyObject *o : st->keepAlive)
      Py_VISIT(o);
  }
  return 0;
}

int dispatcherClear(PyObject *obj) {
  auto *self = reinterpret_cast<DispatcherObject *>(obj);
  Py_CLEAR(self->dict);
  if (DispatcherState *st = self->state) {
    Py_CLEAR(st->resolver);
    Py_CLEAR(st->defaults);
    Py_CLEAR(st->kwdefaults);
    std::vector<PyObject *> kept;
    kept.swap(st->keepAlive);
    for (PyObject *o : kept)
      Py_DECREF(o);
    // pyFunc stays until dealloc: __repr__ and errors may still use it.
  }
  return 0;
}

void dispatcherDealloc(PyObject *obj) {
  auto *self = reinterpret_cast<DispatcherObject *>(obj);
  PyTypeObject *type = Py_TYPE(obj);
  PyObject_GC_UnTrack(obj);
  if (self->weakrefs)
    PyObject_ClearWeakRefs(obj);
  dispatcherClear(obj);
  if (self->state) {
    Py_CLEAR(self->state->pyFunc);
    delete self->state;
    self->state = nullptr;
    self->lastFast = nullptr;
  }
  type->tp_free(obj);
  Py_DECREF(type);
}

PyObject *dispatcherRepr(PyObject *obj) {
  auto *self = reinterpret_cast<DispatcherObject *>(obj);
  PyObject *func = self->state ? self->state->pyFunc : nullptr;
  if (!func)
    return PyUnicode_FromString("CPUDispatcher(<cleared>)");
  return PyUnicode_FromFormat("CPUDispatcher(%R)", func);
}

PyObject *dispatcherDescrGet(PyObject *self, PyObject *instance, PyObject *owner) {
  // Like a function stored on a class: bound when looked up on an instance.
  if (!instance || instance == Py_None)
    return Py_NewRef(self);
  return PyMethod_New(self, instance);
}

PyMemberDef dispatcherMembers[] = {
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(DispatcherObject, vectorcall), READONLY,
     nullptr},
    {"__dictoffset__", T_PYSSIZET, offsetof(DispatcherObject, dict), READONLY, nullptr},
    {"__weaklistoffset__", T_PYSSIZET, offsetof(DispatcherObject, weakrefs), READONLY, nullptr},
    {nullptr, 0, 0, 0, nullptr},
};

PyType_Slot dispatcherSlots[] = {
    {Py_tp_new, reinterpret_cast<void *>(dispatcherNew)},
    {Py_tp_dealloc, reinterpret_cast<void *>(dispatcherDealloc)},
    {Py_tp_traverse, reinterpret_cast<void *>(dispatcherTraverse)},
    {Py_tp_clear, reinterpret_cast<void *>(dispatcherClear)},
    {Py_tp_call, reinterpret_cast<void *>(PyVectorcall_Call)},
    {Py_tp_repr, reinterpret_cast<void *>(dispatcherRepr)},
    {Py_tp_descr_get, reinterpret_cast<void *>(dispatcherDescrGet)},
    {Py_tp_members, dispatcherMembers},
    {Py_tp_methods, dispatcherMethods},
    {Py_tp_getset, dispatcherGetSets},
    {Py_tp_doc, const_cast<char *>("A function compiled by mahou, one overload per argument types.")},
    {0, nullptr},
};

PyType_Spec dispatcherSpec = {
    "mahou._core.Dispatcher",
    sizeof(DispatcherObject),
    0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    dispatcherSlots,
};

} // namespace

PyTypeObject *dispatcherType() { return theDispatcherType; }

bool isDispatcher(PyObject *obj) { return theDispatcherType && Py_TYPE(obj) == theDispatcherType; }

void registerDispatcher(nb::module_ &m) {
  PyObject *type = PyType_FromSpec(&dispatcherSpec);
  if (!type)
    throw nb::python_error();
  theDispatcherType = reinterpret_cast<PyTypeObject *>(type);
  m.attr("Dispatcher") = nb::borrow(type); // the module and the cache each hold a reference
}

Overload *findOverload(DispatcherState &st, const std::vector<uint64_t> &key) {
  for (const auto &entry : st.entries)
    if (entry.key == key)
      return entry.overload;
  return nullptr;
}

namespace {

// The call of an overload whose arguments hold objects: the result is boxed while the
// arguments still live, then lists are written back and the objects released.
PyObject *callEntryWithObjects(DispatcherState &st, const Overload &ov, PyObject *const *args, char *retBuf,
                               void **argv) {
  int32_t status;
  if (st.nogil) {
    Py_BEGIN_ALLOW_THREADS status = ov.fn.entry(retBuf, argv);
    Py_END_ALLOW_THREADS
  } else {
    status = ov.fn.entry(retBuf, argv);
  }
  PyObject *result = nullptr;
  if (status != 0) {
    raiseRuntimeError();
    // Changes made before the error are still written back (the caller's list is the
    // one the function changed, as in Python).
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    if (!afterCall(ov.fn.args, args, argv)) PyErr_Clear();
    PyErr_Restore(type, value, tb);
    return nullptr;
  }
  result = boxResult(ov, retBuf);
  if (!afterCall(ov.fn.args, args, argv) && result) Py_CLEAR(result);
  return result;
}

// Unboxes the arguments into argBuf (pointers in argv), calls the entry, boxes the result.
inline PyObject *callEntry(DispatcherState &st, const Overload &ov, PyObject *const *args, char *argBuf,
                           char *retBuf, void **argv) {
  size_t n = ov.argOps.size();
  const ArgOp *ops = ov.argOps.data();
  const size_t *offsets = ov.argOffsets.data();
  std::optional<SharedUnboxing> shared; // one native list per Python list, however often passed
  if (__builtin_expect(ov.releasesArgs, 0))
    shared.emplace();
  for (size_t i = 0; i < n; ++i) {
    char *dst = argBuf + offsets[i];
    argv[i] = dst;
    if (!unboxFast(args[i], ops[i], ov.fn.args[i], dst)) {
      if (ov.releasesArgs) // the objects made for the arguments before this one
        for (size_t j = 0; j < i; ++j)
          releaseValue(ov.fn.args[j], static_cast<char *>(argv[j]));
      return nullptr;
    }
  }
  if (__builtin_expect(ov.releasesArgs, 0)) {
    ReflectedOrigins origins(*shared); // until the lists are written back
    shared.reset();                    // for these arguments only, not for what the call unboxes
    return callEntryWithObjects(st, ov, args, retBuf, argv);
  }
  shared.reset();
  EntryFn entry = ov.fn.entry;
  int32_t status;
  if (__builtin_expect(st.nogil, 0)) {
    Py_BEGIN_ALLOW_THREADS status = entry(retBuf, argv);
    Py_END_ALLOW_THREADS
  } else {
    status = entry(retBuf, argv);
  }
  if (__builtin_expect(status != 0, 0)) {
    raiseRuntimeError();
    return nullptr;
  }
  return boxResult(ov, retBuf);
}

// Overloads whose arguments or result do not fit the stack buffers.
PyObject *invokeOnHeap(DispatcherState &st, const Overload &ov, PyObject *const *args) {
  std::vector<char> argBuf(std::max<size_t>(ov.argBytes, 1)), retBuf(std::max<size_t>(ov.retBytes, 1));
  std::vector<void *> argv(std::max<size_t>(ov.argOps.size(), 1));
  return callEntry(st, ov, args, argBuf.data(), retBuf.data(), argv.data());
}

} // namespace

PyObject *invokeOverload(DispatcherState &st, const Overload &ov, PyObject *const *args) {
  // The hit path: buffers on the stack, no allocation.
  if (ov.argBytes > kStackArgBytes || ov.retBytes > kStackRetBytes || ov.argOps.size() > size_t(kMaxFastArgs))
    return invokeOnHeap(st, ov, args);
  alignas(16) char argStack[kStackArgBytes];
  alignas(16) char retStack[kStackRetBytes];
  void *argvStack[kMaxFastArgs];
  return callEntry(st, ov, args, argStack, retStack, argvStack);
}

} // namespace mahou::binding
