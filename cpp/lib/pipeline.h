// The pipeline once: the stages every compile walks (parse, versions, type, IR passes,
// prepare, lower, optimise, emit), and the Target each driver walks them with (the CPU
// JIT and AOT objects in compiler.cpp; CUDA kernels, device functions and the CUDA
// emulator in compile_kernel.cpp).
#pragma once

#include "mahou/compiler.h"
#include "mahou/ir.h"
#include "mahou/sema.h"
#include "module_functions.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <memory>
#include <optional>

namespace mahou::pipeline {

enum class Step { Parse, Versions, Type, Passes, Prepare, Lower, Optimize, Emit };

// What one compile carries from stage to stage.
struct Compilation {
  Compilation(const SourceFile &file, std::string name, std::vector<types::Type> args, CompileEnvironment &env)
      : file(file), name(std::move(name)), args(std::move(args)), env(env) {}
  const SourceFile &file;
  std::string name;                 // the function to compile (a top-level def of the source)
  std::vector<types::Type> args;
  CompileEnvironment &env;
  ast::Module module;               // Parse
  const ast::FunctionDef *def = nullptr;
  std::unique_ptr<ModuleFunctions> callees; // Type: device and inner functions typed into the module
  std::optional<ir::Function> fn;           // Type
  std::vector<std::unique_ptr<ir::Function>> outlined; // Passes: prange bodies
  std::vector<const ir::Function *> helpers; // every function lowered beside fn
  std::unique_ptr<llvm::LLVMContext> context; // Lower
  std::unique_ptr<llvm::Module> llvmModule;
  StageTimes times;
  bool finished = false; // a stage found the result already made (an identical function compiled earlier)
  int nextStep = 0;      // the first Step not run yet
};

// What each stage does for one kind of compile. The pipeline runs the stages in order,
// times them and verifies the typed IR after Type and Passes.
class Target {
public:
  virtual ~Target() = default;
  // Type: the definition found is the one to compile for these argument types; then the
  // environment sema asks, the options and symbol it types with, where its callees go;
  // then what this target requires of the typed function.
  virtual void checkSignature(Compilation &c) = 0;
  virtual ir::Function type(Compilation &c) = 0;
  virtual void checkTyped(Compilation &) {}
  virtual void passes(Compilation &) {} // IR passes (parallel=True outlining; what a kernel uses)
  virtual void prepare(Compilation &) {} // the back end made ready (may find the result: c.finished)
  virtual void lower(Compilation &c) = 0;
  virtual void optimize(Compilation &c) = 0;
  virtual void emit(Compilation &c) = 0;
  virtual bool verifyIR() const { return true; }
  virtual std::string assembly() const { return {}; } // Emit's text (assembly, PTX), for dumps
};

// Walks the stages after those already run, up to and including `last`.
void run(Compilation &c, Target &target, Step last);

// The last step a dump of `stage` runs (the AST: Versions; the IR: Passes; ...).
Step lastStep(Stage stage);

// The text of a stage's product, for mahouc and inspect_*(): the tokens, the AST, the
// typed IR (with the functions lowered beside it when `withHelpers`), the LLVM module or
// the target's assembly; the stages run up to the one asked for.
std::string dumpStage(Compilation &c, Target &target, Stage stage, bool withHelpers = true);

} // namespace mahou::pipeline
