// @cuda.jit(cache=True): a kernel's PTX kept on disk in the cache's own entry format
// (cache.h: magic, checksum, the key inside, atomic writes), under a key that adds the
// compute capability and the kernel options to the overload key, and valid only while
// the globals it resolved still resolve to the same values. A kernel that calls device
// functions is not cached: their sources are not part of the record.
#include "mahou/cache.h"

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/SHA256.h>

#include <cstdio>
#include <functional>
#include <string>

namespace mahou::cache {

namespace {

// Forwards to the recording environment and notes whether a device function's source
// was asked for (such a kernel is compiled every time).
class DeviceCalleeWatch final : public CompileEnvironment {
public:
  explicit DeviceCalleeWatch(CompileEnvironment &inner) : inner_(inner) {}
  GlobalValue resolveGlobal(const std::string &name) override { return inner_.resolveGlobal(name); }
  CalleeSignature compileCallee(uint64_t handle, const std::vector<types::Type> &args) override {
    return inner_.compileCallee(handle, args);
  }
  std::optional<CalleeSource> calleeSource(uint64_t handle) override {
    auto s = inner_.calleeSource(handle);
    if (s) usedDeviceFunctions = true;
    return s;
  }
  std::optional<CalleeSource> hostCalleeSource(uint64_t handle) override { return inner_.hostCalleeSource(handle); }
  std::optional<CalleeParams> calleeParams(uint64_t handle) override { return inner_.calleeParams(handle); }
  std::optional<UfuncCallee> calleeUfunc(uint64_t handle) override { return inner_.calleeUfunc(handle); }
  uint64_t selfHandle() override { return inner_.selfHandle(); }
  ExtensionResult resolveExtension(const ExtensionRequest &request) override { return inner_.resolveExtension(request); }
  const PythonAbi *pythonAbi() override { return inner_.pythonAbi(); }
  const JitClassInfo *jitClass(uint64_t handle) override { return inner_.jitClass(handle); }
  std::optional<ObjModeBlock> objModeBlock(const ObjModeRequest &request) override {
    return inner_.objModeBlock(request);
  }
  bool usedDeviceFunctions = false;

private:
  CompileEnvironment &inner_;
};

std::string kernelKey(const SourceFile &file, const std::string &name, const std::vector<types::Type> &args,
                      const KernelOptions &options) {
  llvm::SHA256 h;
  std::string parts = overloadKey(file, name, args, CompileOptions{}) + "\ncuda kernel sm_" +
                      std::to_string(options.ccMajor) + std::to_string(options.ccMinor) +
                      (options.fastmath ? " fastmath" : "") + (options.lineinfo ? " lineinfo" : "") +
                      (options.disjointArrays ? " disjoint" : "") + (options.alignedArrays ? "" : " unaligned") +
                      " bounds " + std::to_string(options.launchBounds[0]) + "," +
                      std::to_string(options.launchBounds[1]) + "," + std::to_string(options.launchBounds[2]) + "\n" +
                      options.libdevicePath;
  h.update(llvm::StringRef(parts));
  auto digest = h.final();
  std::string out;
  char buf[3];
  for (size_t i = 0; i < 16; ++i) {
    std::snprintf(buf, sizeof buf, "%02x", unsigned(digest[i]));
    out += buf;
  }
  return out;
}

constexpr const char *kGridSyncMark = "\tgrid-sync";

} // namespace

CompiledKernel cachedKernel(const SourceFile &file, const std::string &name, const std::vector<types::Type> &args,
                            CompileEnvironment &env, const KernelOptions &options,
                            const std::function<CompiledKernel(CompileEnvironment &)> &compile) {
  const std::string key = kernelKey(file, name, args, options);
  if (std::string path = entryPath(file.path(), name, key, false); !path.empty())
    if (auto entry = readEntry(path, key); entry && dependenciesHold(entry->dependencies, env)) {
      CompiledKernel k;
      k.ptx = std::move(entry->object);
      k.kernelName = entry->symbol;
      if (size_t at = k.kernelName.find(kGridSyncMark); at != std::string::npos) {
        k.gridSync = true;
        k.kernelName.resize(at);
      }
      k.args = args;
      return k;
    }
  RecordingEnvironment recorder(env);
  DeviceCalleeWatch watch(recorder);
  CompiledKernel k = compile(watch);
  if (!watch.usedDeviceFunctions && recorder.cacheable())
    if (std::string path = entryPath(file.path(), name, key, true); !path.empty()) {
      Entry e;
      e.symbol = k.kernelName + (k.gridSync ? kGridSyncMark : "");
      e.ret = types::Type::none();
      e.dependencies = recorder.dependencies();
      e.object = k.ptx;
      writeEntry(path, key, e);
    }
  return k;
}

} // namespace mahou::cache
