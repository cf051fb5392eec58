// The process's JIT: host target machine, the LLVM optimisation pipeline, object
// emission, and ORC LLJIT linking one object file per compiled function.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace mahou::runtime {
struct RuntimeSymbol;
} // namespace mahou::runtime

namespace mahou::jit {

// A reference to linked machine code (its entry address): the object file stays
// linked while a reference lives and is freed (its resource tracker removed) when the
// last one goes, unless other linked code calls into it. Whatever can call the code
// later must hold one: a dispatcher's overloads do (CompiledFunction::code), and so
// must a runtime object that keeps a pointer to a compiled function (a destructor).
using CodeRef = std::shared_ptr<const void>;

// The runtime's functions by name and address (runtime.h's runtimeSymbols()): compiled
// code calls them. Given once, before the engine is first used, by whoever holds the
// runtime: mahou._core (through the back-end table), mahouc, the unit tests.
void useRuntimeSymbols(const runtime::RuntimeSymbol *symbols, size_t count);

class InlineLibrary; // inline_library.h

class Engine {
public:
  // The engine is created (and LLVM's native target initialised) on first use,
  // so that importing mahou costs nothing.
  static Engine &instance();
  // Whether instance() has run (the stage timings count its creation once).
  static bool created();

  // "triple|cpu|features" of the host: what cached machine code must match.
  const std::string &targetId() const;

  // Sets the host triple and data layout, then runs the optimisation pipeline for
  // the host CPU: O3 for modules with loops, a cheaper O1 pipeline for modules
  // without (nothing for the vectorisers to do there). With `fastmath`, every
  // floating-point instruction and call gets LLVM's fast-math flags first.
  // Given `callees`, the kept definitions of the compiled functions the module calls
  // are linked in (after the flags: they keep their own) so that LLVM can inline them.
  // `fastmathFlags`: the flags of a set (fastmath={'nnan', 'contract'}), FastMathFlag
  // bits; 0: all of them. `beforeVectorizer` is called with the module as the
  // simplification left it (inlined, promoted, folded), before the loop vectoriser and
  // the runtime unroller: the form kept for callers to inline (they vectorise it anew,
  // knowing their arguments).
  void optimize(llvm::Module &module, bool fastmath = false, const InlineLibrary *callees = nullptr,
                unsigned fastmathFlags = 0,
                const std::function<void(const llvm::Module &)> &beforeVectorizer = {});
  // Numba's fast-math flag names, bit i for the i-th (decorators.py _FASTMATH_FLAGS).
  enum FastMathFlag : unsigned { NoNaNs = 1, NoInfs = 2, NoSignedZeros = 4, AllowReciprocal = 8,
                                 AllowContract = 16, ApproxFunc = 32, AllowReassoc = 64 };
  // Compiled functions kept for their callers to inline (inline_library.h).
  InlineLibrary &inlineLibrary();
  // Host assembly of an optimised module.
  std::string emitAssembly(llvm::Module &module);
  // Machine code of an optimised module: an ELF relocatable object file.
  std::string emitObject(llvm::Module &module);
  // Links an object file (from emitObject, in this process or an earlier one) under
  // a resource tracker of its own and returns the address of `symbol`, its entry
  // (an object linked already under that symbol is reused). External references
  // resolve by name: runtime, libm, and earlier objects' symbols; the objects it calls
  // stay linked while it does. *ref, when given, gets a reference to the code.
  void *addObject(const std::string &object, const std::string &symbol, CodeRef *ref = nullptr);
  // The address of `symbol` if a linked object has it as its entry (that object's
  // code in *object and a reference in *ref, when given), else nullptr.
  void *find(const std::string &symbol, std::string *object = nullptr, CodeRef *ref = nullptr);
  // Drops one reference to the object whose entry is `symbol` (CodeRef's deleter).
  void release(const std::string &symbol);
  // Object files linked now (addObject's; not the modules of add()).
  size_t linkedObjects();
  // The address of `symbol` among everything linked so far, or nullptr.
  void *lookup(const std::string &symbol);
  // Adds the module (with its context) to the JIT under a resource tracker of its
  // own and returns the address of `symbol` (materialising the module). Never freed.
  void *add(std::unique_ptr<llvm::Module> module, std::unique_ptr<llvm::LLVMContext> ctx,
            const std::string &symbol);

  ~Engine();

private:
  Engine();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace mahou::jit
