// Ahead-of-time compilation (mahou.aot): Dispatcher._compile_object(signature) compiles
// one overload and every compiled function it calls into object files for a shared
// library, none linked into the JIT and none with a Python entry (the extension
// module's wrapper unboxes and boxes itself, without mahou).
#include "binding.h"

#include <map>
#include <set>

namespace nb = nanobind;

namespace mahou::binding {

namespace {

using types::Type;

// The objects of one export: internal symbol → object file, and the callee overloads
// done so far (and in progress, for cycles).
struct ObjectCollector {
  std::map<std::string, std::string> objects;
  std::map<std::string, CalleeSignature> done; // by overloadKey
  std::set<std::string> inProgress;
};

std::string overloadKey(PyObject *dispatcher, const std::vector<Type> &args) {
  std::string key = std::to_string(uintptr_t(dispatcher));
  for (const Type &t : args)
    key += "|" + t.str();
  return key;
}

CompiledFunction compileObject(DispatcherObject *d, const std::vector<Type> &args, ObjectCollector &c);

// The dispatcher's environment, but callees are compiled into objects of their own
// (collected) rather than through their dispatchers, and nothing gets a Python entry.
class ObjectEnvironment final : public CompileEnvironment {
public:
  ObjectEnvironment(DispatcherObject *owner, ObjectCollector &c) : inner_(makeEnvironment(owner)), c_(c) {}

  GlobalValue resolveGlobal(const std::string &name) override { return inner_->resolveGlobal(name); }
  std::optional<CalleeParams> calleeParams(uint64_t handle) override { return inner_->calleeParams(handle); }
  const PythonAbi *pythonAbi() override { return nullptr; }

  CalleeSignature compileCallee(uint64_t handle, const std::vector<Type> &args) override {
    auto *obj = reinterpret_cast<PyObject *>(uintptr_t(handle));
    if (!isDispatcher(obj))
      internalError("compileCallee: handle is not a mahou Dispatcher");
    std::string key = overloadKey(obj, args);
    if (auto it = c_.done.find(key); it != c_.done.end())
      return it->second;
    if (c_.inProgress.count(key))
      return CalleeSignature{"", Type::unknown()}; // a cycle: the compiler reports it
    c_.inProgress.insert(key);
    CompiledFunction fn = compileObject(reinterpret_cast<DispatcherObject *>(obj), args, c_);
    c_.inProgress.erase(key);
    return c_.done[key] = CalleeSignature{fn.symbol, fn.ret};
  }

private:
  std::unique_ptr<CompileEnvironment> inner_;
  ObjectCollector &c_;
};

CompiledFunction compileObject(DispatcherObject *d, const std::vector<Type> &args, ObjectCollector &c) {
  DispatcherState &st = *d->state;
  ObjectEnvironment env(d, c);
  CompileOptions options = st.options;
  options.objectOnly = true;
  SourceFile file(st.filename, st.source, st.firstLine);
  CompiledFunction fn = backendTable().compileFunction(file, st.name, args, env, options);
  c.objects.emplace(fn.symbol, fn.object);
  return fn;
}

} // namespace

// _compile_object(signature text) → (symbol, return type, declared return type or None,
// argument types, {symbol: object bytes}): the overload's internal symbol (its entry is
// "<symbol>.entry", compiler.h's EntryFn convention), its inferred return type, the one
// the signature declares (the caller checks that they fit), its argument types
// (mahou.types objects) and the object files of it and of every compiled function it
// calls.
PyObject *dispatcherCompileObject(PyObject *self, PyObject *sig) {
  types::Signature parsed;
  if (!parseSignatureArg(sig, parsed))
    return nullptr;
  auto *d = reinterpret_cast<DispatcherObject *>(self);
  nb::object hold = nb::borrow(self);
  ObjectCollector collector;
  CompiledFunction fn;
  if (!translateErrors([&] {
        collector.inProgress.insert(overloadKey(self, parsed.args));
        fn = compileObject(d, parsed.args, collector);
      }))
    return nullptr;
  nb::object ret = nb::steal(toPyType(fn.ret));
  nb::object args = nb::steal(toPySignature(fn.args));
  nb::object declared = parsed.ret ? nb::steal(toPyType(*parsed.ret)) : nb::none();
  if (!ret.is_valid() || !args.is_valid() || !declared.is_valid())
    return nullptr;
  nb::dict objects;
  for (const auto &[symbol, object] : collector.objects)
    objects[nb::str(symbol.c_str())] = nb::bytes(object.data(), object.size());
  return nb::make_tuple(nb::str(fn.symbol.c_str()), ret, declared, args, objects).release().ptr();
}

} // namespace mahou::binding
