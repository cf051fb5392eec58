// Semantic analysis: name resolution and type inference over one function's AST
// for one signature, producing the typed IR.
#pragma once

#include "mahou/ast.h"
#include "mahou/compiler.h"
#include "mahou/ir.h"

#include <map>

namespace mahou::sema {

// A function defined inside the one being typed (a nested `def`, or `name = lambda
// ...`), compiled into the same module. The enclosing function's variables it reads
// (`captured`, in order) are passed as extra trailing parameters at each call, so a
// call sees their current values, as a Python closure does.
struct InnerFunction {
  const SourceFile *file = nullptr;
  const ast::FunctionDef *def = nullptr; // owned by the enclosing function's AST
  std::vector<std::string> captured;
  // The captured variables it declares `nonlocal`: it returns them after its result, and
  // a direct call stores them back (sema/nonlocals.cpp).
  std::vector<std::string> nonlocals;
  CompileEnvironment *env = nullptr;     // the enclosing function's globals
  // Inner functions visible from its body (itself, its siblings, those of enclosing
  // functions): the defining function's table, alive while this one is typed.
  const std::map<std::string, InnerFunction> *visible = nullptr;
};

// Functions compiled into the module of the one being typed: device functions a
// kernel calls (GPU target) and inner functions (both targets). Each (function,
// argument types) is typed once.
class ModuleFunctionSink {
public:
  virtual ~ModuleFunctionSink() = default;
  // Returns the callee's symbol and return type (ret unknown while it is being typed).
  virtual CalleeSignature require(const CalleeSource &callee, const std::vector<types::Type> &args) = 0;
  // `args` are the call's arguments followed by the captured variables' values.
  virtual CalleeSignature requireInner(const InnerFunction &inner, const std::vector<types::Type> &args) = 0;
  // Inner functions used as values (sema/closures.cpp): the id of `inner` in this
  // module (the same for every use of one definition; never 0), and the function an
  // id names (null: none).
  virtual uint64_t closureId(const InnerFunction &inner) = 0;
  virtual const InnerFunction *closure(uint64_t id) const = 0;
  // The return type a function being typed (by its symbol) has so far: what a call that
  // recurses back to it (mutual recursion) gets while it is not finished.
  virtual void noteReturn(const std::string &symbol, const types::Type &ret) { (void)symbol, (void)ret; }
};

// Where a function is typed: the target, the sink for functions compiled alongside
// it, and (for an inner function) its captured variables and visible inner functions.
struct TypingContext {
  bool gpu = false; // typed for the GPU target (cuda module, no array allocation)
  ModuleFunctionSink *sink = nullptr;
  const InnerFunction *inner = nullptr; // non-null: typing this inner function
};

// Infers a type for every variable (fixpoint with unification at assignments)
// and builds the typed IR with every conversion explicit. `symbol` is the LLVM
// name the function will have (self-recursive calls use it).
// Throws UserError (TypingError / UnsupportedError) naming the line.
ir::Function buildTypedIR(const SourceFile &file, const ast::FunctionDef &def,
                          const std::vector<types::Type> &argTypes, CompileEnvironment &env,
                          const CompileOptions &options, const std::string &symbol,
                          const TypingContext &context = {});

} // namespace mahou::sema
