// The bitcode of compiled functions, linked into their callers' modules for inlining.
#include "inline_library.h"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Module.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include <vector>

namespace mahou::jit {

namespace {

// Bigger functions gain little from inlining and cost their callers compile time.
constexpr size_t kMaxInstructions = 600;

} // namespace

void InlineLibrary::keep(const std::string &symbol, const llvm::Module &module, bool always) {
  const llvm::Function *f = module.getFunction(symbol);
  if (!f || f->isDeclaration()) return;
  size_t count = 0;
  for (const llvm::Function &g : module)
    if (!g.isDeclaration() && !g.hasAvailableExternallyLinkage() && g.getName() != symbol + ".entry" &&
        g.getName() != symbol + ".py")
      count += g.getInstructionCount();
  if (count > kMaxInstructions && !always) return;
  std::string bitcode;
  llvm::raw_string_ostream os(bitcode);
  llvm::WriteBitcodeToFile(module, os);
  os.flush();
  std::lock_guard<std::mutex> lock(mutex_);
  bitcode_.emplace(symbol, std::move(bitcode));
  if (always) always_[symbol] = true;
}

void InlineLibrary::linkInto(llvm::Module &module) const {
  for (bool progress = true; progress;) {
    progress = false;
    std::vector<std::pair<std::string, std::string>> wanted; // declared here, kept there
    std::vector<bool> always;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      for (llvm::Function &f : module)
        if (f.isDeclaration() && !f.isIntrinsic())
          if (auto it = bitcode_.find(f.getName().str()); it != bitcode_.end()) {
            wanted.push_back(*it);
            always.push_back(always_.count(it->first) != 0);
          }
    }
    for (size_t k = 0; k < wanted.size(); ++k) {
      auto &[symbol, bitcode] = wanted[k];
      auto parsed = llvm::parseBitcodeFile(llvm::MemoryBufferRef(bitcode, symbol), module.getContext());
      if (!parsed) {
        llvm::consumeError(parsed.takeError());
        continue;
      }
      std::unique_ptr<llvm::Module> callee = std::move(*parsed);
      callee->setDataLayout(module.getDataLayout());
      callee->setTargetTriple(module.getTargetTriple());
      if (llvm::Linker::linkModules(module, std::move(callee), llvm::Linker::Flags::LinkOnlyNeeded)) continue;
      if (llvm::Function *f = module.getFunction(symbol); f && !f->isDeclaration()) {
        f->setLinkage(llvm::GlobalValue::AvailableExternallyLinkage);
        if (always[k]) {
          f->removeFnAttr(llvm::Attribute::NoInline);
          f->addFnAttr(llvm::Attribute::AlwaysInline);
        }
        progress = true;
      }
    }
  }
}

void InlineLibrary::forget(const std::string &symbol) {
  std::lock_guard<std::mutex> lock(mutex_);
  bitcode_.erase(symbol);
  always_.erase(symbol);
}

} // namespace mahou::jit
