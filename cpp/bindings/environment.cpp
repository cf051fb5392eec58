// The compile environment of a dispatcher: global names classified by the Python
// resolver, and calls to other dispatchers compiled on demand (with cycle detection).
#include "binding.h"

#include <algorithm>

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
  if (name == "mahou")
    return types::ModuleId::Mahou;
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

class DispatcherEnvironment final : public CompileEnvironment {
public:
  explicit DispatcherEnvironment(DispatcherObject *self) : self_(self) {}

  GlobalValue resolveGlobal(const std::string &name) override {
    PyObject *resolver = self_->state->resolver;
    if (!resolver)
      internalError("dispatcher of '" + self_->state->name + "' was cleared");
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
      internalError("compileCallee: handle is not a mahou Dispatcher");
    auto *callee = reinterpret_cast<DispatcherObject *>(obj);
    const DispatcherState &st = *callee->state;
    if (std::find(st.compiling.begin(), st.compiling.end(), args) != st.compiling.end())
      return CalleeSignature{"", Type::unknown()}; // a cycle: the compiler reports it
    Overload &ov = compileOverload(callee, args);
    return CalleeSignature{ov.fn.symbol, ov.fn.ret};
  }

private:
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
    } else if (tag == "tuple") {
      g.kind = K::Tuple;
      for (nb::handle elem : t[1])
        g.elems.push_back(classify(elem));
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
    } else if (tag == "exc") {
      std::string name = nb::cast<std::string>(t[1]);
      auto e = excFromName(name);
      if (!e)
        return unsupported("exception class " + name);
      g.kind = K::ExcClass;
      g.exc = *e;
    } else if (tag == "unsupported") {
      return unsupported(nb::cast<std::string>(t[1]));
    } else {
      internalError("unknown resolver classification '" + tag + "'");
    }
    return g;
  }

  GlobalValue function(nb::handle obj, std::string name) {
    if (!isDispatcher(obj.ptr()))
      return unsupported("a Python function '" + name + "' (decorate it with @njit)");
    keepAlive(*self_->state, obj.ptr()); // the handle stays valid as long as we live
    GlobalValue g;
    g.kind = GlobalValue::Kind::Function;
    g.handle = uint64_t(reinterpret_cast<uintptr_t>(obj.ptr()));
    g.s = std::move(name);
    return g;
  }

  DispatcherObject *self_;
};

} // namespace

std::unique_ptr<CompileEnvironment> makeEnvironment(DispatcherObject *self) {
  return std::make_unique<DispatcherEnvironment>(self);
}

void keepAlive(DispatcherState &st, PyObject *obj) {
  if (std::find(st.keepAlive.begin(), st.keepAlive.end(), obj) != st.keepAlive.end())
    return;
  Py_INCREF(obj);
  st.keepAlive.push_back(obj);
}

} // namespace mahou::binding
