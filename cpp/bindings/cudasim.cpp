// The CUDA emulator's binding: _core.SimKernel compiles a @cuda.jit kernel for the
// CPU once per argument types (mahou::compileSimKernel) and launches it over a grid
// through the emulator runtime, arguments unboxed as for @njit.
#include "binding.h"

#include "mahou/layout.h"
#include "mahou/runtime.h"

#include <nanobind/stl/tuple.h>

#include <map>

namespace nb = nanobind;

namespace mahou::binding {

namespace {

class SimKernelObject {
public:
  SimKernelObject(nb::object pyFunc, std::string source, std::string filename, int firstLine, std::string name,
                  nb::object resolver, bool boundscheck)
      : pyFunc_(std::move(pyFunc)), source_(std::move(source)), filename_(std::move(filename)), name_(std::move(name)),
        firstLine_(firstLine), boundscheck_(boundscheck) {
    resolver_ = resolver.release().ptr();
  }
  ~SimKernelObject() {
    nb::gil_scoped_acquire gil;
    Py_XDECREF(resolver_);
    for (PyObject *o : keepAlive_) Py_DECREF(o);
  }

  void launch(nb::tuple args, std::tuple<int64_t, int64_t, int64_t> grid, std::tuple<int64_t, int64_t, int64_t> block,
              int64_t sharedBytes) {
    std::vector<types::Type> argTypes;
    std::string key;
    for (size_t i = 0; i < args.size(); ++i) {
      std::string why;
      auto t = typeOfObject(args[i].ptr(), &why);
      if (!t) throw nb::type_error(("cannot pass " + why + " to a CUDA kernel (argument " + std::to_string(i + 1) + ")").c_str());
      argTypes.push_back(*t);
      key += t->str() + ";";
    }
    auto it = compiled_.find(key);
    if (it == compiled_.end()) {
      SimKernel k;
      bool ok = translateErrors([&] {
        auto env = makeEnvironment(EnvironmentOwner{&resolver_, &name_, &keepAlive_, true});
        SourceFile file(filename_, source_, firstLine_);
        k = compileSimKernel(file, name_, argTypes, *env, boundscheck_);
      });
      if (!ok) throw nb::python_error();
      it = compiled_.emplace(key, k).first;
    }
    // Arguments in their native layout, as the @njit entry expects them.
    std::vector<size_t> offsets;
    size_t total = 0;
    for (auto &t : argTypes) {
      size_t a = std::max<size_t>(types::nativeAlign(t), 8);
      total = (total + a - 1) / a * a;
      offsets.push_back(total);
      total += std::max<size_t>(types::nativeSize(t), 1);
    }
    std::vector<uint64_t> buffer(total / 8 + 1);
    char *base = reinterpret_cast<char *>(buffer.data());
    std::vector<void *> argv;
    for (size_t i = 0; i < argTypes.size(); ++i) {
      if (!unboxValue(args[i].ptr(), argTypes[i], base + offsets[i])) throw nb::python_error();
      argv.push_back(base + offsets[i]);
    }
    int64_t g[3] = {std::get<0>(grid), std::get<1>(grid), std::get<2>(grid)};
    int64_t b[3] = {std::get<0>(block), std::get<1>(block), std::get<2>(block)};
    if (b[0] * b[1] * b[2] > 1024) throw nb::value_error("a block has at most 1024 threads");
    int32_t status;
    {
      nb::gil_scoped_release release; // kernels never touch Python objects
      status = mahou_rt_sim_launch(it->second.entry, argv.data(), g, b, sharedBytes, it->second.synchronizes);
    }
    if (status != 0) {
      raiseRuntimeError();
      throw nb::python_error();
    }
  }

  nb::object pyFunc() const { return pyFunc_; }

private:
  nb::object pyFunc_;
  std::string source_, filename_, name_;
  int firstLine_;
  bool boundscheck_;
  PyObject *resolver_ = nullptr;
  std::vector<PyObject *> keepAlive_;
  std::map<std::string, SimKernel> compiled_;
};

} // namespace

void registerCudaSim(nb::module_ &m) {
  // Kernel objects held by module globals live until interpreter exit (their resolver
  // refers back to the globals): not a leak worth a warning.
  nb::set_leak_warnings(false);
  nb::class_<SimKernelObject>(m, "SimKernel", "A @cuda.jit kernel run by the CPU emulator (MAHOU_ENABLE_CUDASIM=1).")
      .def(nb::init<nb::object, std::string, std::string, int, std::string, nb::object, bool>(), nb::arg("py_func"),
           nb::arg("source"), nb::arg("filename"), nb::arg("firstlineno"), nb::arg("name"), nb::arg("resolver"),
           nb::arg("boundscheck"))
      .def("launch", &SimKernelObject::launch, nb::arg("args"), nb::arg("grid"), nb::arg("block"), nb::arg("shared_bytes"))
      .def_prop_ro("py_func", &SimKernelObject::pyFunc);
}

} // namespace mahou::binding
