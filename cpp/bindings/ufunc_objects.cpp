// NumPy ufuncs whose inner loops are compiled functions (@vectorize, @guvectorize):
// made with PyUFunc_FromFuncAndDataAndSignature, their loop tables in one block the
// ufunc frees (its `ptr`) and the compiled code kept alive by its `obj`; the native
// entries (native_entries.h) of a dispatcher's overload; and the handlers those
// entries call when the compiled function fails.
#include "binding.h"
#include "numpy_api.h"

#include "mahou/parallel.h"

#include <numpy/ufuncobject.h>
#include <nanobind/stl/vector.h>

#include <cstring>

namespace nb = nanobind;

namespace mahou::binding {

using types::Type;

namespace {

bool ensureUfuncApi() {
  static bool imported = false;
  if (!imported && (!ensureNumpyApi() || _import_umath() < 0))
    return false;
  imported = true;
  return true;
}

// ------------------------------------------------------------------ the parallel target
// target='parallel': NumPy calls `parallelLoop` with the loop's `ParallelLoop` as data; it
// cuts the outer dimension into the parallel runtime's chunks and runs the compiled
// serial loop on each (with the GIL held or not, as NumPy left it: chunks never need it).
struct ParallelLoop {
  PyUFuncGenericFunction serial;
  int ndims; // entries of `dims`: 1 + the gufunc's core dimensions
  int nargs;
  int nin;
};

thread_local bool inParallelChunk = false; // a chunk of a parallel loop runs on this thread
thread_local bool chunkFailed = false;     // its compiled loop failed (runtime error pending)

struct ChunkCall {
  const ParallelLoop *loop;
  char **args;
  const npy_intp *dims, *steps;
};

int32_t runChunk(void *ctx, int64_t begin, int64_t end, int64_t) {
  auto *c = static_cast<ChunkCall *>(ctx);
  char *args[NPY_MAXARGS];
  npy_intp dims[NPY_MAXDIMS * 2 + 1];
  for (int k = 0; k < c->loop->nargs; ++k)
    args[k] = c->args[k] + begin * c->steps[k];
  for (int k = 0; k < c->loop->ndims; ++k)
    dims[k] = c->dims[k];
  dims[0] = end - begin;
  bool outer = inParallelChunk;
  inParallelChunk = true;
  chunkFailed = false;
  c->loop->serial(args, dims, const_cast<npy_intp *>(c->steps), nullptr);
  bool failed = chunkFailed;
  inParallelChunk = outer;
  chunkFailed = false;
  return failed ? 1 : 0;
}

// Whether the outer loop's iterations are independent, so that chunks may run at once:
// an output written at the same place every iteration (NumPy's reduce passes the
// accumulator with step 0) or overlapping an input elsewhere than in place (accumulate
// reads the previous output) makes each iteration depend on the one before.
bool iterationsIndependent(const ParallelLoop &loop, char **args, const npy_intp *dims, const npy_intp *steps) {
  const npy_intp n = dims[0];
  auto range = [&](int k, char *&lo, char *&hi) {
    npy_intp span = (n - 1) * steps[k];
    lo = args[k] + (span < 0 ? span : 0);
    hi = args[k] + (span > 0 ? span : 0) + 16; // + the widest item (complex128)
  };
  for (int k = loop.nin; k < loop.nargs; ++k) {
    if (steps[k] == 0) return false;
    if (loop.ndims > 1) continue; // a gufunc's core operands: only the step is checked
    char *olo, *ohi;
    range(k, olo, ohi);
    for (int j = 0; j < loop.nargs; ++j) {
      if (j == k || (args[j] == args[k] && steps[j] == steps[k])) continue; // in place: item by item
      char *lo, *hi;
      range(j, lo, hi);
      if (lo < ohi && olo < hi) return false;
    }
  }
  return true;
}

void parallelLoop(char **args, npy_intp const *dims, npy_intp const *steps, void *data) {
  auto *loop = static_cast<const ParallelLoop *>(data);
  // Elementwise loops below a few thousand elements are not worth a fork/join.
  npy_intp minimum = loop->ndims > 1 ? 2 : 4096;
  if (dims[0] < minimum || !iterationsIndependent(*loop, args, dims, steps)) {
    loop->serial(args, const_cast<npy_intp *>(dims), const_cast<npy_intp *>(steps), nullptr);
    return;
  }
  ChunkCall call{loop, args, dims, steps};
  if (mahou_rt_parallel_for(dims[0], runChunk, &call) != 0) {
    if (inParallelChunk) { // nested in another parallel loop's chunk: pass the failure up
      chunkFailed = true;
      return;
    }
    PyGILState_STATE gil = PyGILState_Ensure();
    if (PyErr_Occurred())
      mahou_rt_clear_error();
    else
      raiseRuntimeError();
    PyGILState_Release(gil);
  }
}

Type parseTypeOrThrow(const std::string &text) {
  std::string error;
  auto t = types::parseType(text, &error);
  if (!t)
    throw nb::value_error(error.c_str());
  return *t;
}

// make_ufunc(name, doc, loops, nin, nout, identity, keepalive, signature, writable): loops
// is a list of (address of a PyUFuncGenericFunction, [NumPy type number of each operand]);
// signature a gufunc layout or None; writable the inputs the loops may write (Numba's
// writable_args: written back when NumPy had to copy them); parallel_dims nonzero for
// target='parallel': the entries NumPy's dims array has (1 + the core dimensions).
nb::object makeUfunc(const std::string &name, const std::string &doc, nb::list loops, int nin, int nout,
                     int identity, nb::object keepalive, nb::object signature, std::vector<int> writable,
                     int parallelDims) {
  if (!ensureUfuncApi())
    throw nb::python_error();
  size_t ntypes = loops.size(), nargs = size_t(nin + nout);
  std::string sig = signature.is_none() ? "" : nb::cast<std::string>(signature);
  if (nargs > NPY_MAXARGS || parallelDims > 2 * NPY_MAXDIMS + 1)
    throw nb::value_error("too many ufunc operands or core dimensions");
  // One block: functions, data, the parallel loops' data, types, then the NUL-terminated
  // name, doc and signature.
  size_t fnBytes = ntypes * sizeof(PyUFuncGenericFunction), dataBytes = ntypes * sizeof(void *);
  size_t parBytes = parallelDims > 0 ? ntypes * sizeof(ParallelLoop) : 0;
  size_t typeBytes = ntypes * nargs;
  size_t total = fnBytes + dataBytes + parBytes + typeBytes + name.size() + doc.size() + sig.size() + 3;
  auto *block = static_cast<char *>(PyArray_malloc(total));
  if (!block)
    throw std::bad_alloc();
  auto *functions = reinterpret_cast<PyUFuncGenericFunction *>(block);
  auto *data = reinterpret_cast<void **>(block + fnBytes);
  auto *parallel = reinterpret_cast<ParallelLoop *>(block + fnBytes + dataBytes);
  char *typeNums = block + fnBytes + dataBytes + parBytes;
  char *text = typeNums + typeBytes;
  try {
    for (size_t i = 0; i < ntypes; ++i) {
      nb::tuple loop = nb::cast<nb::tuple>(loops[i]);
      functions[i] = reinterpret_cast<PyUFuncGenericFunction>(nb::cast<uintptr_t>(loop[0]));
      data[i] = nullptr;
      if (parallelDims > 0) { // NumPy calls the trampoline, which calls the compiled loop
        parallel[i] = ParallelLoop{functions[i], parallelDims, int(nargs), nin};
        functions[i] = reinterpret_cast<PyUFuncGenericFunction>(&parallelLoop);
        data[i] = &parallel[i];
      }
      nb::list nums = nb::cast<nb::list>(loop[1]);
      if (nums.size() != nargs)
        throw nb::value_error("each ufunc loop needs one type number per operand");
      for (size_t k = 0; k < nargs; ++k)
        typeNums[i * nargs + k] = char(nb::cast<int>(nums[k]));
    }
  } catch (...) {
    PyArray_free(block);
    throw;
  }
  auto place = [&](const std::string &s) {
    char *at = text;
    std::memcpy(text, s.c_str(), s.size() + 1);
    text += s.size() + 1;
    return at;
  };
  char *namePtr = place(name), *docPtr = place(doc), *sigPtr = place(sig);
  PyObject *uf = PyUFunc_FromFuncAndDataAndSignature(functions, data, typeNums, int(ntypes), nin, nout, identity,
                                                     namePtr, docPtr, 0, sig.empty() ? nullptr : sigPtr);
  if (!uf) {
    PyArray_free(block);
    throw nb::python_error();
  }
  auto *u = reinterpret_cast<PyUFuncObject *>(uf);
  u->ptr = block;                            // freed with the ufunc
  u->obj = Py_NewRef(keepalive.ptr());       // the dispatchers owning the compiled loops
  for (int j = 0; !sig.empty() && j < nout; ++j) // a gufunc may read its outputs too (accumulating)
    u->op_flags[nin + j] |= NPY_ITER_READWRITE | NPY_ITER_UPDATEIFCOPY | NPY_ITER_ALLOCATE;
  for (int j : writable) {
    if (j < 0 || j >= nin) {
      Py_DECREF(uf);
      throw nb::value_error("writable_args must name inputs");
    }
    u->op_flags[j] |= NPY_ITER_READWRITE | NPY_ITER_UPDATEIFCOPY;
  }
  return nb::steal(uf);
}

// native_entries(dispatcher, arg type texts) → (ufunc loop, gufunc loop, C callback
// addresses (0 when absent), result type text, C callback's symbol) of the overload,
// compiled if needed.
nb::tuple nativeEntries(nb::handle dispatcher, std::vector<std::string> argTexts) {
  if (!isDispatcher(dispatcher.ptr()))
    throw nb::type_error("native_entries() needs a mahou Dispatcher");
  std::vector<Type> args;
  for (const std::string &t : argTexts)
    args.push_back(parseTypeOrThrow(t));
  Overload *ov = nullptr;
  if (!translateErrors([&] { ov = &compileOverload(reinterpret_cast<DispatcherObject *>(dispatcher.ptr()), args); }))
    throw nb::python_error();
  auto addr = [](void *p) { return uintptr_t(p); };
  return nb::make_tuple(addr(ov->fn.ufuncLoop), addr(ov->fn.gufuncLoop), addr(ov->fn.cfunc), typeString(ov->fn.ret),
                        cfuncSymbol(ov->fn.symbol));
}

// ------------------------------------------------------------------ failure handlers

void loopError() {
  if (inParallelChunk) { // the chunk's trampoline raises it on the calling thread
    chunkFailed = true;
    return;
  }
  PyGILState_STATE gil = PyGILState_Ensure();
  if (PyErr_Occurred())
    mahou_rt_clear_error(); // an earlier failure of this call is the one reported
  else
    raiseRuntimeError();
  PyGILState_Release(gil);
}

void callbackError(const char *name) {
  PyGILState_STATE gil = PyGILState_Ensure();
  raiseRuntimeError();
  PyObject *where = PyUnicode_FromFormat("<mahou cfunc '%s'>", name);
  PyErr_WriteUnraisable(where);
  Py_XDECREF(where);
  PyGILState_Release(gil);
}

} // namespace

bool isCompiledCallable(PyObject *obj) {
  return PyObject_HasAttrString(obj, "_mahou_ufunc_info") || PyObject_HasAttrString(obj, "_mahou_specialize");
}

std::optional<UfuncCallee> ufuncCallee(PyObject *obj, std::vector<PyObject *> &keep) {
  if (isDispatcher(obj) || !PyObject_HasAttrString(obj, "_mahou_ufunc_info"))
    return std::nullopt;
  try {
    // (scalar Dispatcher, nin, [[dtype name, ...] per loop], dynamic)
    nb::tuple info = nb::cast<nb::tuple>(nb::handle(obj).attr("_mahou_ufunc_info")());
    UfuncCallee uf;
    nb::handle disp = info[0];
    if (!isDispatcher(disp.ptr()))
      internalError("_mahou_ufunc_info() must give a Dispatcher");
    keepAliveIn(keep, disp.ptr());
    uf.scalarHandle = uint64_t(reinterpret_cast<uintptr_t>(disp.ptr()));
    uf.nin = nb::cast<int>(info[1]);
    for (nb::handle loop : info[2]) {
      uf.loops.emplace_back();
      for (nb::handle name : loop) {
        auto d = types::dtypeFromName(nb::cast<std::string>(name));
        if (!d)
          internalError("a ufunc loop of an unknown dtype");
        uf.loops.back().push_back(*d);
      }
    }
    uf.dynamic = nb::cast<bool>(info[3]);
    return uf;
  } catch (nb::python_error &e) {
    e.restore();
    throwPendingPythonError();
  }
}

PyObject *specializeCallable(PyObject *obj, const std::vector<types::Type> &args, std::vector<PyObject *> &keep,
                              bool parallel) {
  if (isDispatcher(obj) || !PyObject_HasAttrString(obj, "_mahou_specialize"))
    return obj;
  nb::object argTypes = nb::steal(toPySignature(args));
  if (!argTypes.is_valid())
    throwPendingPythonError();
  nb::object disp = nb::steal(PyObject_CallMethod(obj, "_mahou_specialize", "(OO)", argTypes.ptr(),
                                                      parallel ? Py_True : Py_False));
  if (!disp.is_valid())
    throwPendingPythonError();
  if (!isDispatcher(disp.ptr()))
    internalError("_mahou_specialize() must give a Dispatcher");
  keepAliveIn(keep, disp.ptr());
  return disp.ptr();
}

bool readNativeEntryOptions(NativeEntries &native, PyObject *options) {
  try {
    nb::handle opts(options);
    nb::dict d = nb::borrow<nb::dict>(opts);
    if (d.contains("ufunc_out")) { // a dtype name, or "auto": the function's result dtype
      native.ufuncLoop = true;
      std::string out = nb::cast<std::string>(d["ufunc_out"]);
      if (out != "auto") {
        auto dt = types::dtypeFromName(out);
        if (!dt)
          throw nb::value_error("ufunc_out must name a dtype or be 'auto'");
        native.ufuncOut = *dt;
      }
    }
    if (d.contains("gufunc_core_dims")) {
      std::vector<std::vector<int>> dims;
      for (nb::handle arg : d["gufunc_core_dims"]) {
        dims.emplace_back();
        for (nb::handle k : arg)
          dims.back().push_back(nb::cast<int>(k));
      }
      native.gufuncCoreDims = std::move(dims);
    }
    if (d.contains("cfunc_ret"))
      native.cfuncRet = parseTypeOrThrow(nb::cast<std::string>(d["cfunc_ret"]));
    return true;
  } catch (nb::python_error &e) {
    e.restore();
  } catch (const std::exception &e) {
    PyErr_SetString(PyExc_ValueError, e.what());
  }
  return false;
}

std::vector<runtime::RuntimeSymbol> nativeEntrySymbols() {
  return {
      {nativesym::kLoopError, reinterpret_cast<void *>(&loopError)},
      {nativesym::kCallbackError, reinterpret_cast<void *>(&callbackError)},
  };
}

void registerUfuncObjects(nb::module_ &m) {
  m.def("make_ufunc", &makeUfunc, nb::arg("name"), nb::arg("doc"), nb::arg("loops"), nb::arg("nin"),
        nb::arg("nout"), nb::arg("identity"), nb::arg("keepalive"), nb::arg("signature").none() = nb::none(),
        nb::arg("writable") = std::vector<int>(), nb::arg("parallel_dims") = 0,
        "A NumPy ufunc (or generalised ufunc, given a signature) over compiled loops.");
  m.def("native_entries", &nativeEntries, nb::arg("dispatcher"), nb::arg("args"),
        "(ufunc loop, gufunc loop, C callback, result type) of the overload for these argument types.");
}

} // namespace mahou::binding
