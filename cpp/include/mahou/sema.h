// Semantic analysis: name resolution and type inference over one function's AST
// for one signature, producing the typed IR.
#pragma once

#include "mahou/ast.h"
#include "mahou/compiler.h"
#include "mahou/ir.h"

namespace mahou::sema {

// Infers a type for every variable (fixpoint with unification at assignments)
// and builds the typed IR with every conversion explicit. `symbol` is the LLVM
// name the function will have (self-recursive calls use it).
// Throws UserError (TypingError / UnsupportedError) naming the line.
ir::Function buildTypedIR(const SourceFile &file, const ast::FunctionDef &def,
                          const std::vector<types::Type> &argTypes, CompileEnvironment &env,
                          const CompileOptions &options, const std::string &symbol);

} // namespace mahou::sema
