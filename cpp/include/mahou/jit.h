// The process's JIT: host target machine, the LLVM optimisation pipeline, and ORC
// LLJIT with one resource tracker per compiled function.
#pragma once

#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace mahou::jit {

class Engine {
public:
  // The engine is created (and LLVM's native target initialised) on first use,
  // so that importing mahou costs nothing.
  static Engine &instance();

  // Sets the host triple and data layout, then runs the O3 pipeline for the host CPU.
  void optimize(llvm::Module &module);
  // Host assembly of an optimised module.
  std::string emitAssembly(llvm::Module &module);
  // Adds the module (with its context) to the JIT under a resource tracker of its
  // own and returns the address of `symbol` (materialising the module).
  void *add(std::unique_ptr<llvm::Module> module, std::unique_ptr<llvm::LLVMContext> ctx,
            const std::string &symbol);

  ~Engine();

private:
  Engine();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace mahou::jit
