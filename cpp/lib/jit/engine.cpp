// ORC LLJIT engine for the host CPU: runtime symbols by address, libm from the
// process, the new-pass-manager O3 pipeline, and assembly emission.
#include "mahou/jit.h"

#include "mahou/diagnostics.h"
#include "mahou/runtime.h"

#include <llvm/Analysis/CGSCCPassManager.h>
#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Target/TargetMachine.h>

#include <mutex>

namespace mahou::jit {

namespace {
std::string errorText(llvm::Error err) {
  std::string s;
  llvm::handleAllErrors(std::move(err), [&](const llvm::ErrorInfoBase &e) { s += e.message(); });
  return s;
}
template <class T> T unwrap(llvm::Expected<T> v, const char *what) {
  if (!v) internalError(std::string(what) + ": " + errorText(v.takeError()));
  return std::move(*v);
}
} // namespace

struct Engine::Impl {
  std::mutex mutex;
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::unique_ptr<llvm::TargetMachine> tm;
};

Engine &Engine::instance() {
  static Engine engine;
  return engine;
}

Engine::Engine() : impl_(std::make_unique<Impl>()) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::InitializeNativeTargetAsmParser();
  auto jtmb = unwrap(llvm::orc::JITTargetMachineBuilder::detectHost(), "detecting the host CPU");
  jtmb.setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  impl_->tm = unwrap(jtmb.createTargetMachine(), "creating the target machine");
  impl_->jit = unwrap(llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(jtmb).create(), "creating the JIT");
  auto &jd = impl_->jit->getMainJITDylib();
  // libm and libc from the process.
  jd.addGenerator(unwrap(llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
                             impl_->jit->getDataLayout().getGlobalPrefix()),
                         "process symbols"));
  // The runtime by address (the extension module hides its symbols).
  llvm::orc::SymbolMap symbols;
  size_t n = 0;
  const runtime::RuntimeSymbol *rs = runtime::runtimeSymbols(&n);
  for (size_t i = 0; i < n; ++i)
    symbols[impl_->jit->mangleAndIntern(rs[i].name)] = {llvm::orc::ExecutorAddr::fromPtr(rs[i].address),
                                                         llvm::JITSymbolFlags::Exported};
  if (auto err = jd.define(llvm::orc::absoluteSymbols(std::move(symbols))))
    internalError("defining runtime symbols: " + errorText(std::move(err)));
}

Engine::~Engine() = default;

void Engine::optimize(llvm::Module &module) {
  module.setTargetTriple(impl_->tm->getTargetTriple().str());
  module.setDataLayout(impl_->tm->createDataLayout());
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PipelineTuningOptions pto;
  pto.LoopVectorization = true;
  pto.SLPVectorization = true;
  llvm::PassBuilder pb(impl_->tm.get(), pto);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
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
