// Typing of the functions compiled alongside the one being compiled (module_functions.h).
#include "module_functions.h"

#include "mahou/parser.h"

#include <cctype>

namespace mahou {

namespace {

std::string keyOf(const std::string &identity, const std::vector<types::Type> &args) {
  std::string key = identity + "(";
  for (const auto &a : args) key += a.str() + ",";
  return key + ")";
}

} // namespace

const CalleeSignature *ModuleFunctions::lookup(const std::string &key, CalleeSignature &inProgress) {
  if (auto it = done_.find(key); it != done_.end()) return &it->second;
  if (auto it = inProgress_.find(key); it != inProgress_.end()) {
    auto ret = partialRet_.find(it->second);
    inProgress = {it->second, ret == partialRet_.end() ? types::Type::unknown() : ret->second};
    if (!inProgress.ret.containsUnknown()) handedOut_[it->second] = inProgress.ret;
    return &inProgress;
  }
  return nullptr;
}

void ModuleFunctions::noteReturn(const std::string &symbol, const types::Type &ret) { partialRet_[symbol] = ret; }

void ModuleFunctions::finishTyping(const SourceFile &file, Loc loc, const std::string &name, const std::string &symbol,
                                   const types::Type &ret) {
  auto given = handedOut_.find(symbol);
  if (given != handedOut_.end() && given->second != ret)
    typingError(file, loc, "the recursive calls of '" + name + "' were typed as returning " + given->second.str() +
                               ", but it returns " + ret.str() + " (mutual recursion needs a base case that " +
                               "returns the final type first)");
  handedOut_.erase(symbol);
  partialRet_.erase(symbol);
}

void ModuleFunctions::beginMain(const SourceFile &file, const std::string &name, const std::vector<types::Type> &args,
                                const std::string &symbol) {
  inProgress_[keyOf(file.path() + ":" + std::to_string(file.firstLine()) + ":" + name, args)] = symbol;
}

void ModuleFunctions::endMain(const SourceFile &file, Loc loc, const std::string &name,
                              const std::vector<types::Type> &args, const types::Type &ret) {
  std::string key = keyOf(file.path() + ":" + std::to_string(file.firstLine()) + ":" + name, args);
  auto it = inProgress_.find(key);
  if (it == inProgress_.end()) return;
  std::string symbol = it->second;
  inProgress_.erase(it);
  finishTyping(file, loc, name, symbol, ret);
}

std::string ModuleFunctions::newSymbol(const std::string &name) {
  std::string clean; // PTX-safe: letters, digits, underscores
  for (char c : name) clean += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  return prefix_ + "_" + clean + "_" + std::to_string(counter_++);
}

CalleeSignature ModuleFunctions::require(const CalleeSource &callee, const std::vector<types::Type> &args) {
  std::string key = keyOf(callee.file.path() + ":" + std::to_string(callee.file.firstLine()) + ":" + callee.name, args);
  CalleeSignature pending;
  if (const CalleeSignature *known = lookup(key, pending)) return *known;
  std::string symbol = newSymbol(callee.name);
  inProgress_[key] = symbol;
  auto source = std::make_unique<SourceFile>(callee.file);
  auto module = std::make_unique<ast::Module>(frontend::parseModule(*source));
  const ast::FunctionDef *def = module->findFunction(callee.name);
  if (!def) unsupported(*source, Loc{source->firstLine(), 1}, "no function named '" + callee.name + "' in this source");
  if (args.size() != def->numParams()) // keyword-only ones after the positional ones; *args: one packed tuple
    typingError(*source, def->loc, callee.name + "() takes " + std::to_string(def->args.size() + def->kwonlyargs.size()) +
                                       " arguments but " + std::to_string(args.size()) + " were given");
  sema::TypingContext context{gpu_, this, nullptr};
  auto fn = std::make_unique<ir::Function>(sema::buildTypedIR(*source, *def, args, *callee.env, options_, symbol, context));
  if (options_.verifyIR) ir::verify(*fn);
  inProgress_.erase(key);
  finishTyping(*source, def->loc, callee.name, symbol, fn->ret);
  CalleeSignature sig{symbol, fn->ret};
  sources_.push_back(std::move(source));
  modules_.push_back(std::move(module));
  functions_.push_back(std::move(fn));
  return done_[key] = sig;
}

CalleeSignature ModuleFunctions::requireInner(const sema::InnerFunction &inner, const std::vector<types::Type> &args) {
  const ast::FunctionDef &def = *inner.def;
  std::string identity = inner.file->path() + ":" + std::to_string(def.loc.line) + ":" + std::to_string(def.loc.col) +
                         ":" + def.name;
  std::string key = keyOf(identity, args);
  CalleeSignature pending;
  if (const CalleeSignature *known = lookup(key, pending)) return *known;
  std::string symbol = newSymbol(def.name == "<lambda>" ? "lambda" : def.name);
  inProgress_[key] = symbol;
  sema::TypingContext context{gpu_, this, &inner};
  auto fn = std::make_unique<ir::Function>(sema::buildTypedIR(*inner.file, def, args, *inner.env, options_, symbol, context));
  if (options_.verifyIR) ir::verify(*fn);
  inProgress_.erase(key);
  CalleeSignature sig{symbol, fn->ret};
  functions_.push_back(std::move(fn));
  return done_[key] = sig;
}

std::vector<ir::Function *> ModuleFunctions::mutableFunctions() {
  std::vector<ir::Function *> out;
  for (const auto &f : functions_) out.push_back(f.get());
  return out;
}

std::vector<const ir::Function *> ModuleFunctions::functions() const {
  std::vector<const ir::Function *> out;
  for (const auto &f : functions_) out.push_back(f.get());
  return out;
}

uint64_t ModuleFunctions::closureId(const sema::InnerFunction &inner) {
  auto [it, fresh] = closureIds_.try_emplace(inner.def, closures_.size() + 1);
  if (fresh) closures_.push_back(std::make_unique<sema::InnerFunction>(inner));
  else *closures_[it->second - 1] = inner; // the latest definition's scope (alive while it is used)
  return it->second;
}

const sema::InnerFunction *ModuleFunctions::closure(uint64_t id) const {
  return id >= 1 && id <= closures_.size() ? closures_[id - 1].get() : nullptr;
}

} // namespace mahou
