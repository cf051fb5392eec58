// mahou._core.CUDAKernel: the object @cuda.jit returns (a kernel, or a device
// function with device=True). Construction, lifetime, kernel[config] and the
// hooks the compile environment uses (isCudaKernel, cudaDeviceFunctionSource).
#include "cuda_binding.h"

#include <structmember.h>

#include <algorithm>
#include <vector>

namespace nb = nanobind;

namespace mahou::binding {

namespace {

PyTypeObject *theKernelType = nullptr; // set once in registerKernelType

KernelObject *kernelOf(PyObject *obj) { return reinterpret_cast<KernelObject *>(obj); }

PyObject *kernelVectorcall(PyObject *callable, PyObject *const *, size_t, PyObject *) {
  const KernelState &st = *kernelOf(callable)->state;
  if (st.isDevice)
    PyErr_Format(PyExc_TypeError,
                 "the CUDA device function '%s' can only be called from a @cuda.jit kernel "
                 "or device function",
                 st.name.c_str());
  else
    PyErr_Format(PyExc_ValueError,
                 "Kernel launch configuration was not specified. Use the syntax:\n\n"
                 "%s[blockspergrid, threadsperblock](arg0, arg1, ..., argn)",
                 st.name.c_str());
  return nullptr;
}

bool readKernelOptions(KernelState &st, PyObject *options) {
  if (options == Py_None)
    return true;
  if (!PyDict_Check(options)) {
    PyErr_SetString(PyExc_TypeError, "CUDAKernel options must be a dict");
    return false;
  }
  auto flag = [&](const char *key) {
    PyObject *v = PyDict_GetItemString(options, key); // borrowed
    return v && PyObject_IsTrue(v) == 1;
  };
  st.isDevice = flag("device");
  st.fastmath = flag("fastmath");
  st.lineinfo = flag("lineinfo");
  st.debug = flag("debug");
  st.cache = flag("cache");
  if (PyObject *v = PyDict_GetItemString(options, "link"); v && v != Py_None) { // checked paths (Python side)
    try {
      for (nb::handle path : nb::borrow<nb::sequence>(v))
        addLinkFile(st.linkFiles, nb::cast<std::string>(path));
    } catch (std::exception &) {
      PyErr_SetString(PyExc_TypeError, "cuda.jit(link=...) takes a sequence of file paths");
      return false;
    }
  }
  if (PyObject *v = PyDict_GetItemString(options, "launch_bounds"); v && v != Py_None) { // checked (Python side)
    try {
      nb::tuple bounds = nb::borrow<nb::tuple>(v);
      for (size_t i = 0; i < bounds.size() && i < 3; ++i)
        st.launchBounds[i] = nb::cast<int>(bounds[i]);
    } catch (std::exception &) {
      PyErr_SetString(PyExc_TypeError, "cuda.jit(launch_bounds=...) takes up to three ints");
      return false;
    }
  }
  if (PyObject *v = PyDict_GetItemString(options, "max_registers"); v && v != Py_None) {
    st.maxRegisters = int(PyLong_AsLong(v));
    if (st.maxRegisters == -1 && PyErr_Occurred())
      return false;
  }
  return true;
}

PyObject *kernelNew(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
  PyObject *pyFunc, *resolver, *options = Py_None;
  const char *source, *filename, *name;
  int firstLine;
  static const char *keywords[] = {"py_func", "source_text", "filename", "firstlineno",
                                   "name",    "resolver",    "options",  nullptr};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OssisO|O:CUDAKernel",
                                   const_cast<char **>(keywords), &pyFunc, &source, &filename,
                                   &firstLine, &name, &resolver, &options))
    return nullptr;
  if (!PyCallable_Check(resolver)) {
    PyErr_SetString(PyExc_TypeError, "CUDAKernel resolver must be callable");
    return nullptr;
  }
  if (!ensureNumpyApi()) // the launch path reads NumPy arrays
    return nullptr;
  auto *self = reinterpret_cast<KernelObject *>(type->tp_alloc(type, 0));
  if (!self)
    return nullptr;
  self->vectorcall = kernelVectorcall;
  self->state = new KernelState();
  KernelState &st = *self->state;
  st.pyFunc = Py_NewRef(pyFunc);
  st.resolver = Py_NewRef(resolver);
  st.configs = PyDict_New();
  st.source = source;
  st.filename = filename;
  st.firstLine = firstLine;
  st.name = name;
  if (!st.configs || !readKernelOptions(st, options) ||
      !readFunctionParameters(pyFunc, "cuda.jit", st.nparams, st.paramNames) ||
      !copyWrappedAttributes(pyFunc, &self->dict)) {
    Py_DECREF(self);
    return nullptr;
  }
  return reinterpret_cast<PyObject *>(self);
}

int kernelTraverse(PyObject *obj, visitproc visit, void *arg) {
  KernelObject *self = kernelOf(obj);
  Py_VISIT(Py_TYPE(obj));
  Py_VISIT(self->dict);
  if (KernelState *st = self->state) {
    Py_VISIT(st->pyFunc);
    Py_VISIT(st->resolver);
    Py_VISIT(st->configs);
    Py_VISIT(st->lastConfigKey);
    Py_VISIT(st->lastConfig);
    for (PyObject *o : st->keepAlive)
      Py_VISIT(o);
  }
  return 0;
}

int kernelClear(PyObject *obj) {
  KernelObject *self = kernelOf(obj);
  Py_CLEAR(self->dict);
  if (KernelState *st = self->state) {
    Py_CLEAR(st->resolver);
    Py_CLEAR(st->configs);
    Py_CLEAR(st->lastConfigKey);
    Py_CLEAR(st->lastConfig);
    std::vector<PyObject *> kept;
    kept.swap(st->keepAlive);
    for (PyObject *o : kept)
      Py_DECREF(o);
  }
  return 0;
}

void kernelDealloc(PyObject *obj) {
  KernelObject *self = kernelOf(obj);
  PyTypeObject *type = Py_TYPE(obj);
  PyObject_GC_UnTrack(obj);
  if (self->weakrefs)
    PyObject_ClearWeakRefs(obj);
  kernelClear(obj);
  if (KernelState *st = self->state) {
    if (!st->overloads.empty())
      cuda::unloadKernels(st);
    Py_CLEAR(st->pyFunc);
    delete st;
    self->state = nullptr;
  }
  type->tp_free(obj);
  Py_DECREF(type);
}

PyObject *kernelRepr(PyObject *obj) {
  KernelState *st = kernelOf(obj)->state;
  const char *kind = st && st->isDevice ? "CUDADeviceFunction" : "CUDAKernel";
  if (!st || !st->pyFunc)
    return PyUnicode_FromFormat("%s(<cleared>)", kind);
  return PyUnicode_FromFormat("%s(%R)", kind, st->pyFunc);
}

PyMemberDef kernelMembers[] = {
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(KernelObject, vectorcall), READONLY, nullptr},
    {"__dictoffset__", T_PYSSIZET, offsetof(KernelObject, dict), READONLY, nullptr},
    {"__weaklistoffset__", T_PYSSIZET, offsetof(KernelObject, weakrefs), READONLY, nullptr},
    {nullptr, 0, 0, 0, nullptr},
};

PyType_Slot kernelSlots[] = {
    {Py_tp_new, reinterpret_cast<void *>(kernelNew)},
    {Py_tp_dealloc, reinterpret_cast<void *>(kernelDealloc)},
    {Py_tp_traverse, reinterpret_cast<void *>(kernelTraverse)},
    {Py_tp_clear, reinterpret_cast<void *>(kernelClear)},
    {Py_tp_call, reinterpret_cast<void *>(PyVectorcall_Call)},
    {Py_tp_repr, reinterpret_cast<void *>(kernelRepr)},
    {Py_mp_subscript, reinterpret_cast<void *>(kernelSubscript)},
    {Py_tp_members, kernelMembers},
    {Py_tp_methods, kernelMethods},
    {Py_tp_getset, kernelGetSets},
    {Py_tp_doc, const_cast<char *>("A CUDA kernel compiled by mahou: kernel[grid, block](args).")},
    {0, nullptr},
};

PyType_Spec kernelSpec = {
    "mahou._core.CUDAKernel",
    sizeof(KernelObject),
    0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    kernelSlots,
};

} // namespace

KernelObject *asKernel(PyObject *obj) {
  return theKernelType && Py_TYPE(obj) == theKernelType ? kernelOf(obj) : nullptr;
}

bool isCudaKernel(PyObject *obj) { return asKernel(obj) != nullptr; }

bool isCudaDeviceFunction(PyObject *obj) {
  KernelObject *k = asKernel(obj);
  return k && k->state && k->state->isDevice;
}

EnvironmentOwner kernelEnvironmentOwner(KernelState &st) {
  EnvironmentOwner owner{&st.resolver, &st.name, &st.keepAlive, true};
  owner.linkFiles = &st.linkFiles;
  return owner;
}

void addLinkFile(std::vector<std::string> &files, const std::string &path) {
  if (std::find(files.begin(), files.end(), path) == files.end())
    files.push_back(path);
}

std::optional<FunctionSource> cudaDeviceFunctionSource(PyObject *obj) {
  if (!isCudaDeviceFunction(obj))
    return std::nullopt;
  KernelState &st = *asKernel(obj)->state;
  return FunctionSource{&st.source, &st.filename, &st.name, st.firstLine,
                        kernelEnvironmentOwner(st), st.deviceSignatures};
}

void registerKernelType(nb::module_ &m) {
  // One method table: the compile side's (cuda_compile.cpp) and the launch API's.
  static std::vector<PyMethodDef> methods = [] {
    std::vector<PyMethodDef> all;
    for (PyMethodDef *table : {kernelMethods, kernelApiMethods})
      for (PyMethodDef *d = table; d->ml_name; ++d)
        all.push_back(*d);
    all.push_back({nullptr, nullptr, 0, nullptr});
    return all;
  }();
  for (PyType_Slot *slot = kernelSlots; slot->slot; ++slot)
    if (slot->slot == Py_tp_methods)
      slot->pfunc = methods.data();
  PyObject *type = PyType_FromSpec(&kernelSpec);
  if (!type)
    throw nb::python_error();
  theKernelType = reinterpret_cast<PyTypeObject *>(type);
  m.attr("CUDAKernel") = nb::borrow(type);
}

} // namespace mahou::binding
