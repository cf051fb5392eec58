// The compile environment of a dispatcher or CUDA kernel: global names classified by
// the Python resolver, calls to other dispatchers compiled on demand (with cycle
// detection) and, for the GPU target, the source of the device functions it calls.
#include "binding.h"
#include "objects_binding.h"

#include "mahou/jitclass.h"

#include <algorithm>
#include <bit>
#include <map>

namespace nb = nanobind;

namespace mahou::binding {

using types::Type;

namespace {

std::optional<types::ModuleId> moduleFromName(const std::string &name) {
  if (name == "math")
    return types::ModuleId::Math;
  if (name == "cmath")
    return types::ModuleId::Cmath;
  if (name == "numpy")
    return types::ModuleId::Numpy;
  if (name == "numpy.random")
    return types::ModuleId::NumpyRandom;
  if (name == "random")
    return types::ModuleId::PyRandom;
  if (name == "mahou")
    return types::ModuleId::Mahou;
  if (name == "mahou.cuda")
    return types::ModuleId::Cuda;
  return std::nullopt;
}

std::optional<types::DType> dtypeFromPyName(const std::string &name) {
#define MAHOU_DTYPE(Enum, dname, numpyNum, bytes, cls)                                     \
  if (name == dname)                                                                     \
    return types::DType::Enum;
#include "mahou/dtypes.def"
#undef MAHOU_DTYPE
  return std::nullopt;
}

std::optional<types::ExcKind> excFromName(const std::string &name) {
#define MAHOU_EXCEPTION(ename)                                                             \
  if (name == #ename)                                                                    \
    return types::ExcKind::ename;
#include "mahou/exceptions.def"
#undef MAHOU_EXCEPTION
  return std::nullopt;
}

GlobalValue unsupported(std::string description) {
  GlobalValue g;
  g.kind = GlobalValue::Kind::Unsupported;
  g.s = std::move(description);
  return g;
}

class ResolverEnvironment final : public CompileEnvironment {
public:
  explicit ResolverEnvironment(const EnvironmentOwner &owner) : owner_(owner) {}

  GlobalValue resolveGlobal(const std::string &name) override {
    PyObject *resolver = *owner_.resolver;
    if (!resolver)
      internalError("the compiled object of '" + *owner_.name + "' was cleared");
    nb::object result = nb::steal(PyObject_CallFunction(resolver, "s", name.c_str()));
    if (!result.is_valid())
      throwPendingPythonError();
    try {
      return classify(result);
    } catch (nb::python_error &) {
      throwPendingPythonError();
    } catch (const std::exception &e) {
      internalError("resolver returned a malformed value for '" + name + "': " + e.what());
    }
  }

  CalleeSignature compileCallee(uint64_t handle, const std::vector<Type> &args) override {
    auto *obj = reinterpret_cast<PyObject *>(uintptr_t(handle));
    if (!isDispatcher(obj))
      obj = specializeCallable(obj, args, *owner_.keepAlive, owner_.parallel); // a stencil: one Dispatcher per types
    if (!isDispatcher(obj))
      internalError("compileCallee: handle is not a mahou Dispatcher");
    auto *callee = reinterpret_cast<DispatcherObject *>(obj);
    const DispatcherState &st = *callee->state;
    if (std::find(st.compiling.begin(), st.compiling.end(), args) != st.compiling.end())
      return CalleeSignature{"", Type::unknown()}; // a cycle: the compiler reports it
    if (!st.canCompile) { // explicit signatures: one of them, the arguments converted
      Overload *ov = findConvertible(*callee->state, args);
      if (!ov) {
        std::string text;
        for (size_t i = 0; i < args.size(); ++i)
          text += (i ? ", " : "") + typeString(args[i]);
        CalleeSignature none;
        none.ret = Type::unknown();
        none.noMatch = "No matching definition for argument type(s) " + text + " of " + st.name +
                       "() (compiled for its explicit signatures only)";
        return none;
      }
      return CalleeSignature{ov->fn.symbol, ov->fn.ret, ov->fn.args, {}};
    }
    Overload &ov = compileOverload(callee, args);
    return CalleeSignature{ov.fn.symbol, ov.fn.ret, {}, {}};
  }

  // GPU target: CUDA device functions and @njit dispatchers (as Numba allows) are
  // compiled from source into the kernel's module, each with its own globals.
  std::optional<CalleeSource> calleeSource(uint64_t handle) override {
    if (!owner_.gpu)
      return std::nullopt;
    return sourceOf(handle, true, callees_);
  }

  // CPU target: an @njit function that receives an inner function is compiled from
  // source into the caller's module.
  std::optional<CalleeSource> hostCalleeSource(uint64_t handle) override {
    if (owner_.gpu)
      return std::nullopt;
    return sourceOf(handle, false, hostCallees_);
  }

  std::optional<UfuncCallee> calleeUfunc(uint64_t handle) override {
    return ufuncCallee(reinterpret_cast<PyObject *>(uintptr_t(handle)), *owner_.keepAlive);
  }

  const PythonAbi *pythonAbi() override { return owner_.gpu ? nullptr : &binding::pythonAbi(); }

  uint64_t selfHandle() override { return owner_.self; }

  std::optional<ObjModeBlock> objModeBlock(const ObjModeRequest &request) override {
    if (owner_.gpu) return std::nullopt;
    return prepareObjModeBlock(*owner_.resolver, *owner_.keepAlive, request);
  }

  // mahou.extending._resolve(kind, template, name, argument types, keyword names,
  // literal values) → None, ("impl", dispatcher, name) or ("error", message).
  ExtensionResult resolveExtension(const ExtensionRequest &request) override {
    ExtensionResult out;
    try {
      nb::object resolve = nb::module_::import_("mahou.extending").attr("_resolve");
      nb::object args = nb::steal(toPySignature(request.args));
      if (!args.is_valid())
        throw nb::python_error();
      nb::list kwnames, literals;
      for (const std::string &k : request.kwnames)
        kwnames.append(nb::str(k.c_str(), k.size()));
      for (size_t i = 0; i < request.args.size(); ++i) {
        const std::optional<GlobalValue> *lit = i < request.literals.size() ? &request.literals[i] : nullptr;
        literals.append(lit && *lit ? literalObject(**lit) : nb::none());
      }
      nb::handle tmpl = request.kind == ExtensionRequest::Kind::Function
                            ? nb::handle(reinterpret_cast<PyObject *>(uintptr_t(request.handle)))
                            : nb::handle(Py_None);
      nb::object r = resolve(int(request.kind), tmpl, nb::str(request.name.c_str(), request.name.size()), args,
                             kwnames, literals);
      if (r.is_none())
        return out;
      nb::tuple t = nb::cast<nb::tuple>(r);
      if (nb::cast<std::string>(t[0]) == "declined") {
        out.declined = true;
        return out;
      }
      if (nb::cast<std::string>(t[0]) == "error") {
        out.error = nb::cast<std::string>(t[1]);
        return out;
      }
      out.impl = function(t[1], nb::cast<std::string>(t[2]));
    } catch (nb::python_error &e) {
      e.restore();
      throwPendingPythonError();
    }
    return out;
  }

  const JitClassInfo *jitClass(uint64_t handle) override {
    auto &slot = classes_[handle];
    if (!slot) {
      PyObject *box = jitClassBoxType(handle);
      if (!box) {
        classes_.erase(handle);
        return nullptr; // no class of this process has it (a cache entry of another class)
      }
      slot = jitClassInfo(box);
      for (auto *m : {&slot->methods, &slot->staticMethods})
        for (auto &[name, h] : *m) keepAliveIn(*owner_.keepAlive, reinterpret_cast<PyObject *>(uintptr_t(h)));
      for (auto &[name, p] : slot->properties)
        for (uint64_t h : {p.getter, p.setter})
          if (h) keepAliveIn(*owner_.keepAlive, reinterpret_cast<PyObject *>(uintptr_t(h)));
    }
    return slot.get();
  }

  std::optional<CalleeParams> calleeParams(uint64_t handle) override {
    auto *obj = reinterpret_cast<PyObject *>(uintptr_t(handle));
    if (!isDispatcher(obj))
      return objectParams(obj);
    const DispatcherState &st = *reinterpret_cast<DispatcherObject *>(obj)->state;
    CalleeParams p;
    p.names = st.paramNames;
    p.nkwonly = size_t(st.nkwonly);
    p.defaults.resize(p.names.size());
    size_t npos = size_t(st.nparams);
    size_t ndef = st.defaults ? size_t(PyTuple_GET_SIZE(st.defaults)) : 0;
    size_t first = npos - std::min(ndef, npos);
    for (size_t j = first; j < npos; ++j)
      p.defaults[j] = constantValue(PyTuple_GET_ITEM(st.defaults, Py_ssize_t(j - first)));
    for (size_t j = npos; j < p.names.size(); ++j) // keyword-only: __kwdefaults__ by name
      if (PyObject *d = st.kwdefaults && PyDict_Check(st.kwdefaults)
                            ? PyDict_GetItemString(st.kwdefaults, p.names[j].c_str()) : nullptr)
        p.defaults[j] = constantValue(d);
    if (st.pyFunc) {
      PyObject *code = PyObject_GetAttrString(st.pyFunc, "__code__");
      if (code) {
        PyObject *flags = PyObject_GetAttrString(code, "co_flags");
        if (flags) {
          p.varargs = (PyLong_AsLong(flags) & 0x04) != 0; // CO_VARARGS
          Py_DECREF(flags);
        }
        Py_DECREF(code);
      }
      PyErr_Clear();
    }
    return p;
  }

private:
  // A compiled callable that is not a Dispatcher (a stencil) names its parameters with
  // `_mahou_params()` → (names, {name: default}); nullopt when it has none.
  static std::optional<CalleeParams> objectParams(PyObject *obj) {
    if (!PyObject_HasAttrString(obj, "_mahou_params"))
      return std::nullopt;
    try {
      nb::tuple r = nb::cast<nb::tuple>(nb::handle(obj).attr("_mahou_params")());
      CalleeParams p;
      nb::dict defaults = nb::cast<nb::dict>(r[1]);
      for (nb::handle name : nb::cast<nb::list>(r[0])) {
        p.names.push_back(nb::cast<std::string>(name));
        if (defaults.contains(name))
          p.defaults.push_back(constantValue(defaults[name].ptr()));
        else
          p.defaults.push_back(std::nullopt);
      }
      return p;
    } catch (nb::python_error &) {
      throwPendingPythonError();
    }
  }

  static nb::object literalObject(const GlobalValue &g) {
    using K = GlobalValue::Kind;
    switch (g.kind) {
    case K::Int: return nb::int_(g.i);
    case K::Bool: return nb::bool_(g.b);
    case K::Float: return nb::float_(g.f);
    case K::Str: return nb::str(g.s.c_str(), g.s.size());
    default: return nb::none();
    }
  }

  // A default argument value as a compile-time constant.
  static GlobalValue constantValue(PyObject *v) {
    GlobalValue g;
    using K = GlobalValue::Kind;
    if (v == Py_None) {
      g.kind = K::None;
    } else if (PyBool_Check(v)) {
      g.kind = K::Bool;
      g.b = v == Py_True;
    } else if (PyLong_CheckExact(v)) {
      int overflow = 0;
      long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
      if (overflow)
        return unsupported("an integer default value that does not fit in int64");
      g.kind = K::Int;
      g.i = x;
    } else if (PyFloat_CheckExact(v)) {
      g.kind = K::Float;
      g.f = PyFloat_AS_DOUBLE(v);
    } else if (PyComplex_CheckExact(v)) {
      g.kind = K::Complex;
      g.f = PyComplex_RealAsDouble(v);
      g.imag = PyComplex_ImagAsDouble(v);
    } else if (PyUnicode_Check(v)) {
      g.kind = K::Str;
      Py_ssize_t n = 0;
      const char *text = PyUnicode_AsUTF8AndSize(v, &n);
      if (!text) {
        PyErr_Clear();
        return unsupported("a default string that is not valid UTF-8");
      }
      g.s.assign(text, size_t(n));
    } else if (PyTuple_CheckExact(v)) {
      g.kind = K::Tuple;
      for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(v); ++i)
        g.elems.push_back(constantValue(PyTuple_GET_ITEM(v, i)));
    } else {
      return unsupported(std::string("a default value of type ") + Py_TYPE(v)->tp_name);
    }
    return g;
  }

  GlobalValue classify(nb::handle item) {
    nb::tuple t = nb::cast<nb::tuple>(item);
    std::string tag = nb::cast<std::string>(t[0]);
    GlobalValue g;
    using K = GlobalValue::Kind;
    if (tag == "missing") {
      g.kind = K::Missing;
    } else if (tag == "int") {
      g.kind = K::Int;
      g.i = nb::cast<int64_t>(t[1]);
    } else if (tag == "datetime") { // ("datetime", "timedelta64[s]", count)
      g.kind = K::Datetime;
      g.s = nb::cast<std::string>(t[1]);
      g.i = nb::cast<int64_t>(t[2]);
    } else if (tag == "float") {
      g.kind = K::Float;
      g.f = nb::cast<double>(t[1]);
    } else if (tag == "complex") {
      g.kind = K::Complex;
      g.f = nb::cast<double>(t[1]);
      g.imag = nb::cast<double>(t[2]);
    } else if (tag == "bool") {
      g.kind = K::Bool;
      g.b = nb::cast<bool>(t[1]);
    } else if (tag == "str") {
      g.kind = K::Str;
      g.s = nb::cast<std::string>(t[1]);
    } else if (tag == "none") {
      g.kind = K::None;
    } else if (tag == "tuple") { // ("tuple", [items]) or ("tuple", [items], its namedtuple class)
      g.kind = K::Tuple;
      for (nb::handle elem : t[1])
        g.elems.push_back(classify(elem));
      if (nb::len(t) > 2)
        if (auto nt = namedTupleClass(t[2].ptr(), Py_ssize_t(g.elems.size()))) {
          g.handle = nt->handle;
          g.s = nt->text;
          g.fields = nt->fields;
        }
    } else if (tag == "array") { // ("array", dtype name, shape, C-order bytes)
      std::string name = nb::cast<std::string>(t[1]);
      auto d = dtypeFromPyName(name);
      if (!d)
        return unsupported("an array of dtype " + name);
      g.kind = K::Array;
      g.dtype = *d;
      for (nb::handle extent : t[2])
        g.shape.push_back(nb::cast<int64_t>(extent));
      nb::bytes data = nb::cast<nb::bytes>(t[3]);
      g.bytes.assign(data.c_str(), data.size());
    } else if (tag == "bytes") { // ("bytes", the object): its items as a uint8 array, typed bytes
      nb::bytes data = nb::cast<nb::bytes>(t[1]);
      g.kind = K::Array;
      g.dtype = types::DType::UInt8;
      g.shape.push_back(int64_t(data.size()));
      g.bytes.assign(data.c_str(), data.size());
      g.b = true;
    } else if (tag == "pymodule") { // ("pymodule", module name): any other module
      g.kind = K::Module;
      g.module = types::ModuleId::Python;
      g.s = nb::cast<std::string>(t[1]);
    } else if (tag == "overloaded") { // ("overloaded", template, name, what it is otherwise)
      keepAliveIn(*owner_.keepAlive, t[1].ptr());
      g.kind = K::Overloaded;
      g.handle = uint64_t(reinterpret_cast<uintptr_t>(t[1].ptr()));
      g.s = nb::cast<std::string>(t[2]);
      g.elems.push_back(classify(t[3]));
    } else if (tag == "module" || tag == "modattr") {
      auto m = moduleFromName(nb::cast<std::string>(t[1]));
      if (!m)
        return unsupported("module " + nb::cast<std::string>(t[1]));
      g.kind = tag == "module" ? K::Module : K::ModuleAttr;
      g.module = *m;
      if (tag == "modattr")
        g.s = nb::cast<std::string>(t[2]);
    } else if (tag == "function") {
      return function(t[1], nb::cast<std::string>(t[2]));
    } else if (tag == "builtin") {
      g.kind = K::Builtin;
      g.s = nb::cast<std::string>(t[1]);
    } else if (tag == "dtype") {
      std::string name = nb::cast<std::string>(t[1]);
      auto d = dtypeFromPyName(name);
      if (!d)
        return unsupported("dtype " + name);
      g.kind = K::DType;
      g.dtype = *d;
    } else if (tag == "recorddtype") { // ("recorddtype", a structured or S/U np.dtype): its item type as text
      std::string why;
      auto rec = recordTypeOfDescr(reinterpret_cast<::_PyArray_Descr *>(t[1].ptr()), &why);
      if (!rec)
        return unsupported("the dtype " + nb::cast<std::string>(nb::str(t[1])) + ": " + why);
      g.kind = K::DType;
      g.dtype = types::DType::UInt8; // a placeholder: the record is g.s
      g.s = rec->str();
    } else if (tag == "exc") {
      std::string name = nb::cast<std::string>(t[1]);
      auto e = excFromName(name);
      if (!e)
        return unsupported("exception class " + name);
      g.kind = K::ExcClass;
      g.exc = *e;
    } else if (tag == "userexc") { // ("userexc", a subclass of Exception defined outside builtins)
      auto r = registerUserException(t[1].ptr());
      if (!r)
        return unsupported("exception class " + nb::cast<std::string>(nb::str(t[1])));
      g.kind = K::ExcClass;
      g.exc = r->first;
      g.s = r->second;
    } else if (tag == "cudadecl") { // ("cudadecl", symbol, signature text, (link file, ...))
      g.kind = K::DeviceFunctionDecl;
      g.s = nb::cast<std::string>(t[2]);
      g.fields.push_back(nb::cast<std::string>(t[1]));
      if (owner_.linkFiles)
        for (nb::handle f : nb::borrow<nb::tuple>(t[3]))
          addLinkFile(*owner_.linkFiles, nb::cast<std::string>(f));
    } else if (tag == "cfuncptr") { // ("cfuncptr", address, signature text)
      g.kind = K::ExternalFunction;
      g.handle = nb::cast<uint64_t>(t[1]);
      g.s = nb::cast<std::string>(t[2]);
    } else if (tag == "jitclass") { // ("jitclass", its box type, name)
      if (!isJitClassBoxType(t[1].ptr()))
        internalError("the resolver's jitclass is not a jitclass type");
      keepAliveIn(*owner_.keepAlive, t[1].ptr());
      g.kind = K::JitClass;
      g.handle = jitClassHandle(t[1].ptr());
      g.s = nb::cast<std::string>(t[2]);
    } else if (tag == "namedtuple") { // ("namedtuple", the class, {field: classified default})
      auto nt = namedTupleClass(t[1].ptr(), -1);
      if (!nt)
        internalError("the resolver's namedtuple is not a namedtuple class");
      g.kind = K::NamedTupleClass;
      g.handle = nt->handle;
      g.s = nt->text;
      nb::dict defaults = nb::cast<nb::dict>(t[2]);
      for (const std::string &name : nt->fields) {
        GlobalValue f;
        f.kind = K::Str;
        f.s = name;
        if (defaults.contains(name.c_str()))
          f.elems.push_back(classify(defaults[name.c_str()]));
        g.elems.push_back(std::move(f));
      }
    } else if (tag == "enummember") { // ("enummember", *enum_parts: class, name, names, values, index, ...)
      keepAliveIn(*owner_.keepAlive, t[1].ptr());
      nb::tuple parts = nb::steal<nb::tuple>(PyTuple_GetSlice(t.ptr(), 1, PyTuple_GET_SIZE(t.ptr())));
      types::Type et = enumTypeOfParts(parts);
      g.kind = K::EnumMember;
      g.handle = et.handle;
      g.s = et.text;
      g.fields = et.fields;
      g.b = et.typed;
      g.i = nb::cast<int64_t>(parts[4]);
      for (int64_t v : et.offsets) {
        GlobalValue x;
        x.kind = et.elems[0].isFloat() ? K::Float : K::Int;
        x.i = v;
        x.f = std::bit_cast<double>(v);
        g.elems.push_back(std::move(x));
      }
    } else if (tag == "objmode") {
      g.kind = K::ObjMode;
    } else if (tag == "unsupported") {
      return unsupported(nb::cast<std::string>(t[1]));
    } else {
      internalError("unknown resolver classification '" + tag + "'");
    }
    return g;
  }

  GlobalValue function(nb::handle obj, std::string name) {
    if (isCudaKernel(obj.ptr())) {
      if (!isCudaDeviceFunction(obj.ptr()))
        return unsupported("the CUDA kernel '" + name +
                           "' (kernels are launched from Python: " + name + "[grid, block](...))");
      if (!owner_.gpu)
        return unsupported("the CUDA device function '" + name +
                           "' (callable only from @cuda.jit kernels and device functions)");
    } else if (!isDispatcher(obj.ptr()) && !isCompiledCallable(obj.ptr())) {
      return unsupported("a Python function '" + name + "' (decorate it with @njit)");
    }
    keepAliveIn(*owner_.keepAlive, obj.ptr()); // the handle stays valid as long as we live
    GlobalValue g;
    g.kind = GlobalValue::Kind::Function;
    g.handle = uint64_t(reinterpret_cast<uintptr_t>(obj.ptr()));
    g.s = std::move(name);
    return g;
  }

  std::optional<CalleeSource> sourceOf(uint64_t handle, bool gpu,
                                       std::map<uint64_t, std::unique_ptr<ResolverEnvironment>> &envs) {
    auto *obj = reinterpret_cast<PyObject *>(uintptr_t(handle));
    std::optional<FunctionSource> src = functionSource(obj);
    if (!src)
      return std::nullopt;
    auto &env = envs[handle];
    if (!env) {
      EnvironmentOwner owner = src->owner;
      owner.gpu = gpu;
      if (gpu && owner_.linkFiles) { // a device function's external code is linked into the kernel
        if (owner.linkFiles)
          for (const std::string &f : *owner.linkFiles)
            addLinkFile(*owner_.linkFiles, f);
        owner.linkFiles = owner_.linkFiles;
      }
      env = std::make_unique<ResolverEnvironment>(owner);
    }
    return CalleeSource{SourceFile(*src->filename, *src->source, src->firstLine), *src->name,
                        env.get(), src->signatures};
  }

  EnvironmentOwner owner_;
  std::map<uint64_t, std::unique_ptr<ResolverEnvironment>> callees_; // calleeSource environments
  std::map<uint64_t, std::unique_ptr<ResolverEnvironment>> hostCallees_; // hostCalleeSource environments
  std::map<uint64_t, std::unique_ptr<JitClassInfo>> classes_;         // jitclasses asked about
};

} // namespace

std::unique_ptr<CompileEnvironment> makeEnvironment(const EnvironmentOwner &owner) {
  return std::make_unique<ResolverEnvironment>(owner);
}

std::unique_ptr<CompileEnvironment> makeEnvironment(DispatcherObject *self) {
  DispatcherState &st = *self->state;
  return makeEnvironment(EnvironmentOwner{&st.resolver, &st.name, &st.keepAlive, false, st.options.parallel,
                                          uint64_t(reinterpret_cast<uintptr_t>(self))});
}

std::optional<FunctionSource> functionSource(PyObject *obj) {
  if (isDispatcher(obj)) {
    DispatcherState &st = *reinterpret_cast<DispatcherObject *>(obj)->state;
    std::vector<types::Signature> fixed; // explicit signatures: its callers convert to them
    if (!st.canCompile)
      for (const auto &ov : st.overloads)
        fixed.push_back(types::Signature{ov->fn.ret, ov->fn.args});
    return FunctionSource{&st.source, &st.filename, &st.name, st.firstLine,
                          EnvironmentOwner{&st.resolver, &st.name, &st.keepAlive, false, st.options.parallel,
                                           uint64_t(reinterpret_cast<uintptr_t>(obj))},
                          std::move(fixed)};
  }
  return cudaDeviceFunctionSource(obj);
}

void keepAliveIn(std::vector<PyObject *> &kept, PyObject *obj) {
  if (std::find(kept.begin(), kept.end(), obj) != kept.end())
    return;
  Py_INCREF(obj);
  kept.push_back(obj);
}

void keepAlive(DispatcherState &st, PyObject *obj) { keepAliveIn(st.keepAlive, obj); }

} // namespace mahou::binding
