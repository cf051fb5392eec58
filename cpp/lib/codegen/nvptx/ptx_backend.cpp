// NVPTX back end: target machine (sm_XX, PTX ISA chosen for LLVM 19 and current
// drivers), libdevice linked only when used, O3 with NVVMReflect, PTX text.
#include "mahou/ptx.h"

#include "mahou/diagnostics.h"

#include <llvm/Analysis/CGSCCPassManager.h>
#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Linker/Linker.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>

extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
}

namespace mahou::ptx {

namespace {

constexpr const char *kTriple = "nvptx64-nvidia-cuda";

// PTX ISA 8.0 (CUDA 12.0): supported by LLVM 19 for sm_50..sm_90 and by every driver since 525.
constexpr const char *kPtxFeature = "+ptx80";

class TargetMachines {
public:
  static TargetMachines &instance() {
    static TargetMachines t;
    return t;
  }
  llvm::TargetMachine &get(const Target &target) {
    std::lock_guard<std::mutex> lock(mutex_);
    std::string sm = smName(target);
    auto it = machines_.find(sm);
    if (it != machines_.end()) return *it->second;
    std::string err;
    const llvm::Target *t = llvm::TargetRegistry::lookupTarget(kTriple, err);
    if (!t) internalError("the NVPTX target is not available in this LLVM: " + err);
    llvm::TargetOptions opts;
    std::unique_ptr<llvm::TargetMachine> tm(
        t->createTargetMachine(kTriple, sm, kPtxFeature, opts, std::nullopt, std::nullopt, llvm::CodeGenOptLevel::Aggressive));
    if (!tm) internalError("cannot create the NVPTX target machine for " + sm);
    return *(machines_[sm] = std::move(tm));
  }

private:
  TargetMachines() {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  }
  std::mutex mutex_;
  std::map<std::string, std::unique_ptr<llvm::TargetMachine>> machines_;
};

std::string findLibdevice(const Target &target) {
  namespace fs = std::filesystem;
  std::vector<std::string> candidates;
  if (!target.libdevicePath.empty()) candidates.push_back(target.libdevicePath);
  for (const char *var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char *home = std::getenv(var)) candidates.push_back(std::string(home) + "/nvvm/libdevice/libdevice.10.bc");
  candidates.push_back("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc");
  candidates.push_back("/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc");
  for (auto &c : candidates)
    if (fs::exists(c)) return c;
  return {};
}

bool usesLibdevice(const llvm::Module &m) {
  for (auto &f : m.functions())
    if (f.isDeclaration() && f.getName().starts_with("__nv_")) return true;
  return false;
}

void linkLibdevice(llvm::Module &module, const Target &target) {
  std::string path = findLibdevice(target);
  if (path.empty())
    internalError("libdevice.10.bc was not found (set CUDA_HOME to the CUDA toolkit); it is needed for math functions in kernels");
  auto buf = llvm::MemoryBuffer::getFile(path);
  if (!buf) internalError("cannot read " + path);
  auto lib = llvm::parseBitcodeFile((*buf)->getMemBufferRef(), module.getContext());
  if (!lib) {
    std::string msg;
    llvm::handleAllErrors(lib.takeError(), [&](const llvm::ErrorInfoBase &e) { msg = e.message(); });
    internalError("cannot parse " + path + ": " + msg);
  }
  (*lib)->setTargetTriple(module.getTargetTriple());
  (*lib)->setDataLayout(module.getDataLayout());
  if (llvm::Linker::linkModules(module, std::move(*lib), llvm::Linker::Flags::LinkOnlyNeeded))
    internalError("linking libdevice failed");
}

} // namespace

std::string smName(const Target &target) {
  return "sm_" + std::to_string(target.ccMajor) + std::to_string(target.ccMinor);
}

void prepareModule(llvm::Module &module) {
  module.setTargetTriple(kTriple);
  module.setDataLayout(TargetMachines::instance().get(Target{}).createDataLayout());
}

namespace {
// libdevice's inline assembly (mad.lo.cc / madc.hi in the slow path of sinf/cosf) is
// marked as not touching memory but not as returning: LLVM then cannot prove that a loop
// around it reaches its exit, and keeps every store of the loop in it (a kernel drawing
// xoroshiro normals stored its state back on every draw). Assembly without side effects
// that touches no memory returns.
void markPureAsmWillReturn(llvm::Module &module) {
  for (auto &f : module.functions())
    for (auto &bb : f)
      for (auto &inst : bb)
        if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst))
          if (auto *asmCode = llvm::dyn_cast<llvm::InlineAsm>(call->getCalledOperand()))
            if (!asmCode->hasSideEffects() && call->doesNotAccessMemory())
              call->addFnAttr(llvm::Attribute::WillReturn);
}
} // namespace

void optimize(llvm::Module &module, const Target &target, const std::string &exported) {
  llvm::TargetMachine &tm = TargetMachines::instance().get(target);
  module.setTargetTriple(kTriple);
  module.setDataLayout(tm.createDataLayout());
  // libdevice branches on __nvvm_reflect("__CUDA_FTZ"): no flush-to-zero.
  module.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", uint32_t(0));
  if (usesLibdevice(module)) linkLibdevice(module, target);
  for (auto &f : module.functions())
    if (!f.isDeclaration() && f.getCallingConv() != llvm::CallingConv::PTX_Kernel && f.getName() != exported)
      f.setLinkage(llvm::GlobalValue::InternalLinkage);
  markPureAsmWillReturn(module);
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(&tm);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3).run(module, mam);
}

std::string emitPtx(llvm::Module &module, const Target &target) {
  llvm::TargetMachine &tm = TargetMachines::instance().get(target);
  llvm::SmallString<8192> buf;
  llvm::raw_svector_ostream os(buf);
  llvm::legacy::PassManager pm;
  if (tm.addPassesToEmitFile(pm, os, nullptr, llvm::CodeGenFileType::AssemblyFile))
    internalError("the NVPTX target cannot emit PTX");
  pm.run(module);
  return std::string(buf.str());
}

} // namespace mahou::ptx
