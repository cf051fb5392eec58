// ORC LLJIT engine for the host CPU: runtime symbols by address, libm from the
// process, the new-pass-manager pipeline (O3, or O1 for loop-free modules),
// object emission and linking (each object under its own resource tracker, freed
// when the last reference to its code goes), and assembly emission.
#include "mahou/jit.h"

#include "inline_library.h"
#include "constant_pow.h"
#include "refcount_pairs.h"
#include "mahou/codegen.h"

#include "mahou/diagnostics.h"
#include "mahou/runtime.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Analysis/CGSCCPassManager.h>
#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Object/ObjectFile.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/DynamicLibrary.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/Host.h>

#include <llvm/TargetParser/SubtargetFeature.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <mutex>
#include <unordered_map>

namespace mahou::jit {

namespace {
// MAHOU_<name>, else NUMBA_<name>; null when neither is set (or it is empty and
// `emptyIsSet` is false: an empty CPU_FEATURES means no features, an empty CPU_NAME nothing).
const char *cpuSetting(const char *name, bool emptyIsSet) {
  for (const char *prefix : {"MAHOU_", "NUMBA_"})
    if (const char *v = std::getenv((std::string(prefix) + name).c_str()); v && (*v || emptyIsSet))
      return v;
  return nullptr;
}

std::string errorText(llvm::Error err) {
  std::string s;
  llvm::handleAllErrors(std::move(err), [&](const llvm::ErrorInfoBase &e) { s += e.message(); });
  return s;
}
template <class T> T unwrap(llvm::Expected<T> v, const char *what) {
  if (!v) internalError(std::string(what) + ": " + errorText(v.takeError()));
  return std::move(*v);
}

std::atomic<bool> engineCreated{false};
std::atomic<bool> engineDestroyed{false}; // at process exit: references dropped later free nothing

// The runtime's symbol table, given by the process that holds the runtime.
struct RegisteredRuntime {
  const runtime::RuntimeSymbol *symbols = nullptr;
  size_t count = 0;
} registeredRuntime;

// fastmath=True: LLVM's `fast` flags (reassoc, contract, nnan, ninf, nsz, arcp, afn)
// on every floating-point operation and call, so that reductions vectorise; a flag set
// (Engine::FastMathFlag bits) adds just those.
void setFastMathFlags(llvm::Module &module, unsigned bits) {
  llvm::FastMathFlags flags;
  if (bits == 0) {
    flags.setFast(true);
  } else {
    flags.setNoNaNs(bits & Engine::NoNaNs);
    flags.setNoInfs(bits & Engine::NoInfs);
    flags.setNoSignedZeros(bits & Engine::NoSignedZeros);
    flags.setAllowReciprocal(bits & Engine::AllowReciprocal);
    flags.setAllowContract(bits & Engine::AllowContract);
    flags.setApproxFunc(bits & Engine::ApproxFunc);
    flags.setAllowReassoc(bits & Engine::AllowReassoc);
  }
  for (llvm::Function &f : module) {
    if (f.hasFnAttribute(codegen::kExactFloatAttr)) continue; // inlined later, exact
    for (llvm::Instruction &inst : llvm::instructions(f))
      if (llvm::isa<llvm::FPMathOperator>(inst)) inst.setFastMathFlags(inst.getFastMathFlags() | flags);
  }
}
// glibc's libmvec (vector sin, cos, exp, log, pow, ...; glibc >= 2.22 on x86-64): loaded
// into the process so that the JIT resolves its symbols like libm's.
bool loadLibmvec(const llvm::Triple &triple) {
  if (!triple.isOSLinux() || triple.getArch() != llvm::Triple::x86_64 || !triple.isGNUEnvironment()) return false;
  if (std::getenv("MAHOU_DISABLE_LIBMVEC")) return false;
  std::string err;
  return !llvm::sys::DynamicLibrary::LoadLibraryPermanently("libmvec.so.1", &err);
}
} // namespace

struct Engine::Impl {
  std::mutex mutex;
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::unique_ptr<llvm::TargetMachine> tm;
  std::string targetId;
  bool libmvec = false; // glibc's vector math library is loaded (x86-64 Linux)
  // One linked object file, by its entry symbol. `users`: the CodeRefs handed out and
  // the linked objects that call into it (`callees` lists those this one calls, each
  // holding one user); at zero its tracker is removed, which frees its memory.
  struct Linked {
    void *address = nullptr;
    std::string object;
    llvm::orc::ResourceTrackerSP tracker;
    size_t users = 0;
    std::vector<std::string> callees;
  };
  std::unordered_map<std::string, Linked> linked;
  InlineLibrary inlineLibrary;

  CodeRef reference(const std::string &symbol, Linked &l) {
    ++l.users;
    return CodeRef(l.address, [symbol](const void *) { Engine::instance().release(symbol); });
  }
  // Entry symbols of the linked objects that `object`'s undefined symbols name
  // (calls to other compiled functions are by the callee's internal symbol).
  std::vector<std::string> linkedCallees(const std::string &object, const std::string &self) {
    std::vector<std::string> out;
    auto file = llvm::object::ObjectFile::createObjectFile(llvm::MemoryBufferRef(object, self));
    if (!file) {
      llvm::consumeError(file.takeError());
      return out;
    }
    for (const llvm::object::SymbolRef &sym : (*file)->symbols()) {
      auto flags = sym.getFlags();
      if (!flags) {
        llvm::consumeError(flags.takeError());
        continue;
      }
      if (!(*flags & llvm::object::SymbolRef::SF_Undefined)) continue;
      auto name = sym.getName();
      if (!name) {
        llvm::consumeError(name.takeError());
        continue;
      }
      std::string entry = codegen::entrySymbol(name->str());
      if (entry != self && linked.count(entry) && std::find(out.begin(), out.end(), entry) == out.end())
        out.push_back(entry);
    }
    return out;
  }
};

Engine &Engine::instance() {
  static Engine engine;
  return engine;
}

void useRuntimeSymbols(const runtime::RuntimeSymbol *symbols, size_t count) {
  registeredRuntime = {symbols, count};
}

bool Engine::created() { return engineCreated.load(std::memory_order_relaxed); }

namespace {
// Epilogue vectorisation (a vector loop of a narrower width after the main one, so that
// at most VF/2 - 1 iterations run scalar) from a main loop of 8 lanes. LLVM 19 asks for
// 16 lanes of the width alone, so an AVX-512 loop of <8 x double> interleaved 4 times
// leaves up to 31 of a 150-iteration dot product scalar; LLVM 20 counts width times
// interleave against the same 16 (Numba's LLVM does), which this matches for them. Set
// once, in the engine's constructor (LLVM's option registry is per process; only the
// engine runs LLVM's passes here).
void enableEpilogueVectorizationFromVF8() {
#if LLVM_VERSION_MAJOR < 20
  auto &options = llvm::cl::getRegisteredOptions();
  auto it = options.find("epilogue-vectorization-minimum-VF");
  if (it != options.end()) it->second->addOccurrence(1, "epilogue-vectorization-minimum-VF", "8");
#endif
}

// Runtime unrolling of loops with more than one exit: a loop whose body can raise (int() of
// a float, a checked index, a division) has an exit to the raise besides its own, and LLVM
// 19 runtime-unrolls such loops only with this option (Numba's loops rarely have one: its
// int() does not check). The histogram pattern of bench/patterns.py: 1.15x -> 1.07x Numba;
// the bench kernels' times and compile times unchanged (docs/performance.md).
void enableMultiExitRuntimeUnrolling() {
  auto &options = llvm::cl::getRegisteredOptions();
  auto it = options.find("unroll-runtime-multi-exit");
  if (it != options.end()) it->second->addOccurrence(1, "unroll-runtime-multi-exit", "true");
}
} // namespace

Engine::Engine() : impl_(std::make_unique<Impl>()) {
  enableEpilogueVectorizationFromVF8();
  enableMultiExitRuntimeUnrolling();
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::InitializeNativeTargetAsmParser();
  auto jtmb = unwrap(llvm::orc::JITTargetMachineBuilder::detectHost(), "detecting the host CPU");
  // Numba's NUMBA_CPU_NAME / NUMBA_CPU_FEATURES (MAHOU_ first): code for another CPU
  // (e.g. "generic" for a cache shared by several machines). The name and features are
  // part of every cache and shipped-code key, so code built for one CPU is never loaded
  // on another (a machine lacking a feature recompiles).
  if (const char *cpu = cpuSetting("CPU_NAME", false)) jtmb.setCPU(cpu);
  if (const char *features = cpuSetting("CPU_FEATURES", true)) {
    llvm::SubtargetFeatures set;
    for (llvm::StringRef f : llvm::split(llvm::StringRef(features), ','))
      if (!f.trim().empty()) set.AddFeature(f.trim());
    jtmb.getFeatures() = set;
  }
  // Default rather than Aggressive: 10-20% less instruction-selection time, same
  // kernel times (measured on the bench kernels; docs/performance.md).
  jtmb.setCodeGenOptLevel(llvm::CodeGenOptLevel::Default);
  // Small code model, PIC: direct rip-relative calls and constant loads. JITLink
  // allocates each object's sections together and adds GOT/PLT stubs for external
  // symbols (libm, runtime), so 32-bit displacements always reach. (The default here
  // would be the large model: movabs + indirect call for every external call and
  // every constant-pool load, also inside loops.)
  jtmb.setCodeModel(llvm::CodeModel::Small);
  jtmb.setRelocationModel(llvm::Reloc::PIC_);
  impl_->tm = unwrap(jtmb.createTargetMachine(), "creating the target machine");
  impl_->libmvec = loadLibmvec(impl_->tm->getTargetTriple());
  // Code compiled with fastmath may call libmvec: cached code says whether it may.
  impl_->targetId = impl_->tm->getTargetTriple().str() + "|" + impl_->tm->getTargetCPU().str() + "|" +
                    impl_->tm->getTargetFeatureString().str() + (impl_->libmvec ? "|libmvec" : "");
  impl_->jit = unwrap(llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(jtmb).create(), "creating the JIT");
  auto &jd = impl_->jit->getMainJITDylib();
  // libm and libc from the process.
  jd.addGenerator(unwrap(llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
                             impl_->jit->getDataLayout().getGlobalPrefix()),
                         "process symbols"));
  // The runtime by address (the extension module hides its symbols).
  llvm::orc::SymbolMap symbols;
  size_t n = registeredRuntime.count;
  const runtime::RuntimeSymbol *rs = registeredRuntime.symbols;
  if (!rs) internalError("the runtime's symbols were not given to the JIT (jit::useRuntimeSymbols)");
  for (size_t i = 0; i < n; ++i)
    symbols[impl_->jit->mangleAndIntern(rs[i].name)] = {llvm::orc::ExecutorAddr::fromPtr(rs[i].address),
                                                         llvm::JITSymbolFlags::Exported};
  if (auto err = jd.define(llvm::orc::absoluteSymbols(std::move(symbols))))
    internalError("defining runtime symbols: " + errorText(std::move(err)));
  engineCreated.store(true, std::memory_order_relaxed);
}

Engine::~Engine() { engineDestroyed.store(true); }

const std::string &Engine::targetId() const { return impl_->targetId; }

InlineLibrary &Engine::inlineLibrary() { return impl_->inlineLibrary; }

namespace {
// Calls `seen` with the module where the optimisation pipeline starts (after the
// simplification, before EliminateAvailableExternally and the vectoriser).
struct SnapshotPass : llvm::PassInfoMixin<SnapshotPass> {
  const std::function<void(const llvm::Module &)> *seen;
  llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &) {
    (*seen)(m);
    return llvm::PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};
} // namespace

void Engine::optimize(llvm::Module &module, bool fastmath, const InlineLibrary *callees, unsigned fastmathFlags,
                      const std::function<void(const llvm::Module &)> &beforeVectorizer) {
  module.setTargetTriple(impl_->tm->getTargetTriple().str());
  module.setDataLayout(impl_->tm->createDataLayout());
  if (fastmath) setFastMathFlags(module, fastmathFlags);
  if (callees) callees->linkInto(module);
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PipelineTuningOptions pto;
  pto.LoopVectorization = true;
  // No SLP vectorisation (Numba's default too): it packed complex recurrences such as
  // `c = c * c + c0` into <2 x double> with shuffles on the loop-carried chain (7% slower
  // escape-time loops) and gained nothing measurable elsewhere (docs/performance.md).
  pto.SLPVectorization = false;
  llvm::PassBuilder pb(impl_->tm.get(), pto);
  // With fastmath's approximate functions ('afn', or fastmath=True), loops calling sin,
  // cos, tan, exp, log, pow ... vectorise through libmvec's variants (at most 4 ulp, as
  // glibc documents; Numba uses SVML's there). Registered before the default analyses.
  llvm::TargetLibraryInfoImpl tlii(impl_->tm->getTargetTriple());
  if (impl_->libmvec && fastmath && (fastmathFlags == 0 || (fastmathFlags & ApproxFunc))) {
    tlii.addVectorizableFunctionsFromVecLib(llvm::TargetLibraryInfoImpl::LIBMVEC_X86, impl_->tm->getTargetTriple());
    fam.registerPass([&] { return llvm::TargetLibraryAnalysis(tlii); });
  }
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  // Loops get O3: O2 leaves the matmul kernel's inner loop scalar (6-9x slower).
  // Loop-free code gains nothing from the loop and vector passes; O1 still inlines,
  // folds and promotes to registers, for a few ms less (docs/performance.md).
  llvm::OptimizationLevel level = codegen::hasLoops(module) ? llvm::OptimizationLevel::O3 : llvm::OptimizationLevel::O1;
  // Before anything else (codegen's blocks as emitted): reference-count pairs that
  // cancel are removed, the rest guarded by their null test.
  pb.registerPipelineStartEPCallback([](llvm::ModulePassManager &m, llvm::OptimizationLevel) {
    m.addPass(llvm::createModuleToFunctionPassAdaptor(RefcountPairsPass()));
  });
  // After each InstCombine of the simplification pipeline (so after inlining too): pow()
  // calls whose exponent became a constant go back to the intrinsic (constant_pow.cpp).
  // Reference-count pairs the simplification has brought together (one object's incref
  // and decref in one block: refcount_pairs.cpp) go too, before LICM and the vectoriser.
  pb.registerPeepholeEPCallback([](llvm::FunctionPassManager &f, llvm::OptimizationLevel) {
    f.addPass(ConstantPowPass());
    f.addPass(RefcountPairsPass(/*guard=*/false));
  });
  if (beforeVectorizer)
    pb.registerOptimizerEarlyEPCallback([&beforeVectorizer](llvm::ModulePassManager &m, llvm::OptimizationLevel) {
      m.addPass(SnapshotPass{{}, &beforeVectorizer});
    });
  llvm::ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(level);
  mpm.run(module, mam);
}

std::string Engine::emitAssembly(llvm::Module &module) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  llvm::SmallString<4096> buf;
  llvm::raw_svector_ostream os(buf);
  llvm::legacy::PassManager pm;
  if (impl_->tm->addPassesToEmitFile(pm, os, nullptr, llvm::CodeGenFileType::AssemblyFile))
    internalError("the target cannot emit assembly");
  pm.run(module);
  return std::string(buf.str());
}

std::string Engine::emitObject(llvm::Module &module) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  llvm::SmallString<16384> buf;
  llvm::raw_svector_ostream os(buf);
  llvm::legacy::PassManager pm;
  if (impl_->tm->addPassesToEmitFile(pm, os, nullptr, llvm::CodeGenFileType::ObjectFile))
    internalError("the target cannot emit object files");
  pm.run(module);
  return std::string(buf.str());
}

void *Engine::addObject(const std::string &object, const std::string &symbol, CodeRef *ref) {
  if (ref) ref->reset(); // its deleter takes the lock
  std::lock_guard<std::mutex> lock(impl_->mutex);
  if (auto it = impl_->linked.find(symbol); it != impl_->linked.end()) {
    if (ref) *ref = impl_->reference(symbol, it->second);
    return it->second.address;
  }
  auto &jd = impl_->jit->getMainJITDylib();
  auto tracker = jd.createResourceTracker();
  auto buffer = llvm::MemoryBuffer::getMemBufferCopy(object, symbol);
  if (auto err = impl_->jit->addObjectFile(tracker, std::move(buffer)))
    internalError("adding an object file to the JIT: " + errorText(std::move(err)));
  auto addr = impl_->jit->lookup(symbol);
  if (!addr) {
    std::string why = errorText(addr.takeError());
    // Drop the half-linked object, so that a recompilation can define the symbol again.
    if (auto err = tracker->remove()) llvm::consumeError(std::move(err));
    internalError("looking up " + symbol + ": " + why);
  }
  Impl::Linked l;
  l.address = addr->toPtr<void *>();
  l.object = object;
  l.tracker = std::move(tracker);
  l.callees = impl_->linkedCallees(object, symbol);
  for (const std::string &callee : l.callees) ++impl_->linked.at(callee).users;
  Impl::Linked &stored = impl_->linked.emplace(symbol, std::move(l)).first->second;
  if (ref) *ref = impl_->reference(symbol, stored);
  return stored.address;
}

void *Engine::find(const std::string &symbol, std::string *object, CodeRef *ref) {
  if (ref) ref->reset(); // its deleter takes the lock
  std::lock_guard<std::mutex> lock(impl_->mutex);
  auto it = impl_->linked.find(symbol);
  if (it == impl_->linked.end()) return nullptr;
  if (object) *object = it->second.object;
  if (ref) *ref = impl_->reference(symbol, it->second);
  return it->second.address;
}

void Engine::release(const std::string &symbol) {
  if (engineDestroyed.load()) return;
  std::lock_guard<std::mutex> lock(impl_->mutex);
  std::vector<std::string> pending{symbol};
  bool removed = false;
  while (!pending.empty()) {
    std::string s = std::move(pending.back());
    pending.pop_back();
    auto it = impl_->linked.find(s);
    if (it == impl_->linked.end() || --it->second.users > 0) continue;
    if (auto err = it->second.tracker->remove()) llvm::consumeError(std::move(err));
    pending.insert(pending.end(), it->second.callees.begin(), it->second.callees.end());
    // Its bitcode goes too: a later caller links the code compiled again, or none.
    impl_->inlineLibrary.forget(s.substr(0, s.size() - codegen::entrySymbol("").size()));
    impl_->linked.erase(it);
    removed = true;
  }
  // The symbol names of removed code stay interned until dead entries are cleared.
  if (removed) impl_->jit->getExecutionSession().getSymbolStringPool()->clearDeadEntries();
}

size_t Engine::linkedObjects() {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->linked.size();
}

void *Engine::lookup(const std::string &symbol) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  auto addr = impl_->jit->lookup(symbol);
  if (!addr) {
    llvm::consumeError(addr.takeError());
    return nullptr;
  }
  return addr->toPtr<void *>();
}

void *Engine::add(std::unique_ptr<llvm::Module> module, std::unique_ptr<llvm::LLVMContext> ctx,
                  const std::string &symbol) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  auto &jd = impl_->jit->getMainJITDylib();
  auto tracker = jd.createResourceTracker();
  llvm::orc::ThreadSafeModule tsm(std::move(module), std::move(ctx));
  if (auto err = impl_->jit->addIRModule(tracker, std::move(tsm)))
    internalError("adding a module to the JIT: " + errorText(std::move(err)));
  auto addr = impl_->jit->lookup(symbol);
  if (!addr) internalError("looking up " + symbol + ": " + errorText(addr.takeError()));
  return addr->toPtr<void *>();
}

} // namespace mahou::jit
