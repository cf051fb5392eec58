// Semantic analysis: name resolution and type inference over one function's AST
// for one signature, producing the typed IR.
#pragma once

#include "mahou/ast.h"
#include "mahou/compiler.h"
#include "mahou/ir.h"

namespace mahou::sema {

// GPU target: device functions a kernel calls are typed and compiled into the
// kernel's module; the sink types each (callee, argument types) once.
class DeviceFunctionSink {
public:
  virtual ~DeviceFunctionSink() = default;
  // Returns the callee's symbol and return type (ret unknown while it is being typed).
  virtual CalleeSignature require(const CalleeSource &callee, const std::vector<types::Type> &args) = 0;
};

// Infers a type for every variable (fixpoint with unification at assignments)
// and builds the typed IR with every conversion explicit. `symbol` is the LLVM
// name the function will have (self-recursive calls use it). With `gpu`, the
// function is typed for the GPU target (cuda module, no array allocation).
// Throws UserError (TypingError / UnsupportedError) naming the line.
ir::Function buildTypedIR(const SourceFile &file, const ast::FunctionDef &def,
                          const std::vector<types::Type> &argTypes, CompileEnvironment &env,
                          const CompileOptions &options, const std::string &symbol,
                          DeviceFunctionSink *gpu = nullptr);

} // namespace mahou::sema
