// Functions compiled into the module of the function being compiled: device
// functions a kernel calls and inner functions (nested defs, lambdas). Each is
// typed once per argument types; their typed IR is lowered next to the caller's.
#pragma once

#include "mahou/sema.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace mahou {

class ModuleFunctions : public sema::ModuleFunctionSink {
public:
  ModuleFunctions(const CompileOptions &options, bool gpu, std::string symbolPrefix)
      : options_(options), gpu_(gpu), prefix_(std::move(symbolPrefix)) {}

  CalleeSignature require(const CalleeSource &callee, const std::vector<types::Type> &args) override;
  CalleeSignature requireInner(const sema::InnerFunction &inner, const std::vector<types::Type> &args) override;
  uint64_t closureId(const sema::InnerFunction &inner) override;
  const sema::InnerFunction *closure(uint64_t id) const override;
  void noteReturn(const std::string &symbol, const types::Type &ret) override;

  // The function this module is compiled for, while it is typed: a function it calls that
  // calls it back (mutual recursion) is typed into this module and calls it by `symbol`.
  void beginMain(const SourceFile &file, const std::string &name, const std::vector<types::Type> &args,
                 const std::string &symbol);
  // Its typing is done: a TypingError at `loc` if a recursive call was typed with a return
  // type other than the one it ends with.
  void endMain(const SourceFile &file, Loc loc, const std::string &name, const std::vector<types::Type> &args,
               const types::Type &ret);

  // The typed functions, in the order they were finished.
  std::vector<const ir::Function *> functions() const;
  std::vector<ir::Function *> mutableFunctions(); // for the IR passes

private:
  // The memoised signature for `key`, or the symbol being typed (recursion: with the
  // return type it has so far), or null.
  const CalleeSignature *lookup(const std::string &key, CalleeSignature &inProgress);
  // A function whose typing ends: its return type must be the one its recursive calls saw.
  void finishTyping(const SourceFile &file, Loc loc, const std::string &name, const std::string &symbol,
                    const types::Type &ret);
  std::string newSymbol(const std::string &name);

  CompileOptions options_;
  bool gpu_;
  std::string prefix_;
  int counter_ = 0;
  std::map<std::string, CalleeSignature> done_;
  std::map<std::string, std::string> inProgress_;
  std::map<std::string, types::Type> partialRet_; // symbol → return type so far (being typed)
  std::map<std::string, types::Type> handedOut_;  // symbol → the one a recursive call was given
  std::vector<std::unique_ptr<SourceFile>> sources_;
  std::vector<std::unique_ptr<ast::Module>> modules_;
  std::vector<std::unique_ptr<ir::Function>> functions_;
  std::map<const ast::FunctionDef *, uint64_t> closureIds_;
  std::vector<std::unique_ptr<sema::InnerFunction>> closures_; // closures_[id - 1]
};

} // namespace mahou
