// mahou._core's way to the compiler back end: mahou._backend (which loads libLLVM) is
// imported on the first compile and its entry-point table checked and kept.
#include "binding.h"

#include "mahou/runtime.h"

#include <dlfcn.h>

#include <thread>

namespace nb = nanobind;

namespace mahou::binding {

namespace {
std::thread *preloadThread = nullptr; // started and joined under the GIL
} // namespace

void preloadBackend(const std::string &path) {
  // dlopen without the GIL, on another core: mahou._backend's later import finds the
  // library loaded. The handle is kept (never closed); a failure is left to the import
  // to report. The thread must be joined before the process exits or forks (libLLVM's
  // static constructors register exit handlers while it runs): waitForPreload.
  if (preloadThread)
    return;
  preloadThread = new std::thread([path] { (void)dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL); });
}

void waitForPreload() {
  if (!preloadThread || !preloadThread->joinable())
    return;
  nb::gil_scoped_release release;
  preloadThread->join();
}

const backend::Table &backendTable() {
  static const backend::Table *table = nullptr; // set once, under the GIL
  if (table)
    return *table;
  nb::object module = nb::module_::import_("mahou._backend"); // python_error if it cannot load
  nb::object capsule = module.attr("_table");
  auto *t = static_cast<const backend::Table *>(PyCapsule_GetPointer(capsule.ptr(), "mahou._backend.table"));
  if (!t)
    throw nb::python_error();
  if (t->abiVersion != backend::kAbiVersion || t->size != sizeof(backend::Table))
    throw std::runtime_error("mahou._backend does not match mahou._core (rebuild mahou)");
  // The runtime's symbols and those of Python entries, kept for the process.
  static std::vector<runtime::RuntimeSymbol> symbols = [] {
    size_t count = 0;
    const runtime::RuntimeSymbol *rt = runtime::runtimeSymbols(&count);
    std::vector<runtime::RuntimeSymbol> all(rt, rt + count);
    for (const runtime::RuntimeSymbol &s : pythonEntrySymbols())
      all.push_back(s);
    for (const runtime::RuntimeSymbol &s : nativeEntrySymbols())
      all.push_back(s);
    return all;
  }();
  t->useRuntimeSymbols(symbols.data(), symbols.size());
  table = t;
  return *t;
}

nb::dict backendInfo() {
  // The table's first use gives the JIT the runtime's symbols, some of which are NumPy's
  // (imported by the first Dispatcher, not by `import mahou`).
  if (!ensureNumpyApi())
    throw nb::python_error();
  backend::TargetInfo info;
  backendTable().targetInfo(&info);
  nb::dict d;
  d["llvm_version"] = info.llvmVersion;
  d["llvm_link"] = info.llvmLink;
  d["triple"] = info.triple;
  d["cpu_name"] = info.cpuName;
  d["cpu_features"] = info.cpuFeatures;
  d["host_cpu_name"] = info.hostCpuName;
  return d;
}

} // namespace mahou::binding
