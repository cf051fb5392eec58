// Lowering of the typed IR to LLVM IR (the CPU target; the NVPTX target reuses it).
#pragma once

#include "mahou/ir.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace mahou {
struct PythonAbi;
struct NativeEntries; // native_entries.h
}

namespace mahou::codegen {

enum class Target { CPU, NVPTX };

struct CodegenOptions {
  bool boundscheck = false;
  bool fastmath = false;
  Target target = Target::CPU;
  bool simulateGpu = false; // CPU target running a CUDA kernel in the emulator
  bool numpyErrors = false; // error_model='numpy': division by zero gives inf/nan (floats), 0 (ints)
  bool noaliasArrays = false; // NVPTX kernel entry: array data parameters are noalias (KernelOptions::disjointArrays)
  // NVPTX with debug=True: each raise records itself in the module's error slot
  // (compiler.h kKernelErrorSlot, gpu_exceptions.cpp) and appends its exception and message here, its site number
  // being its position + 1. Null: a raise only ends the thread's work.
  std::vector<std::pair<types::ExcKind, std::string>> *raiseSites = nullptr;
};


// Builds a module holding the function's internal definition
//   i32 @symbol(ptr %ret, <args as SSA values>)
// and, when `withEntry`, the uniform entry point
//   i32 @symbol.entry(ptr %ret, ptr %argv)
// the dispatcher calls (compiler.h EntryFn), and, given the running Python's
// `pythonAbi` and a signature pythonEntryFits accepts, the Python entry
//   ptr @symbol.py(ptr %callable, ptr %args, i64 %nargsf, ptr %kwnames)
// (a vectorcall function, python_entry.cpp). `helpers` (inner functions) are
// lowered into the same module with internal linkage. Calls to other compiled
// functions are external declarations resolved by the JIT. With `withEntry`, the
// `native` entries (ufunc loops, C callbacks: native_entries.h) are added too.
std::unique_ptr<llvm::Module> lowerFunction(const ir::Function &fn, const std::vector<const ir::Function *> &helpers,
                                            llvm::LLVMContext &ctx, const CodegenOptions &options, bool withEntry,
                                            const PythonAbi *pythonAbi = nullptr,
                                            const NativeEntries *native = nullptr);

// A function attribute: fastmath's flags leave this function's floating point exact
// (the random draws codegen emits inline give NumPy's numbers under fastmath too).
inline constexpr const char *kExactFloatAttr = "mahou-exact-fp";

std::string entrySymbol(const std::string &symbol);
// True when some function of the module has a CFG cycle (a loop).
bool hasLoops(llvm::Module &module);
std::string pythonEntrySymbol(const std::string &symbol);
// Whether a function of this signature gets a Python entry: int64, float64 and array
// arguments; an int64, float64, bool or None result.
bool pythonEntryFits(const std::vector<types::Type> &args, const types::Type &ret);

// The CUDA emulator: the kernel and its device functions lowered for the CPU, GPU
// operations calling the emulator's runtime, with the uniform entry point.
std::unique_ptr<llvm::Module> lowerSimKernel(const ir::Function &fn, const std::vector<const ir::Function *> &deviceFns,
                                             llvm::LLVMContext &ctx, const CodegenOptions &options);

// GPU, cuda.compile_ptx(device=True): the device function `fn` alone, visible under
// its symbol with mahou's calling convention (i32 status, result pointer, arguments),
// and the functions it calls (internal). With `cAbiName`, the visible function is
// instead `ret cAbiName(args...)`, the C ABI (cuda.compile(abi="c"); numbers only).
std::unique_ptr<llvm::Module> lowerDeviceFunction(const ir::Function &fn, const std::vector<const ir::Function *> &callees,
                                                  llvm::LLVMContext &ctx, const CodegenOptions &options,
                                                  const std::string &cAbiName = {});

// GPU: one module holding the kernel `fn` (as `kernelName`, parameters flattened as
// compiler.h's CompiledKernel documents) and the device functions it calls.
std::unique_ptr<llvm::Module> lowerKernel(const ir::Function &fn, const std::vector<const ir::Function *> &deviceFns,
                                          const std::string &kernelName, llvm::LLVMContext &ctx,
                                          const CodegenOptions &options);

} // namespace mahou::codegen
