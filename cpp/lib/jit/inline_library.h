// Compiled functions kept as LLVM bitcode so that their callers can inline them:
// a caller's module gets each callee it declares as an available_externally
// definition (Numba links its callees' LLVM IR the same way).
#pragma once

#include <mutex>
#include <string>
#include <unordered_map>

namespace llvm {
class Module;
} // namespace llvm

namespace mahou::jit {

class InlineLibrary {
public:
  // Keeps the optimised module defining `symbol` (small functions only, unless `always`:
  // forceinline=True, where every caller inlines it, as LLVM's alwaysinline).
  void keep(const std::string &symbol, const llvm::Module &module, bool always = false);
  // Links into `module` the definitions of the kept functions it declares (and of
  // theirs, transitively) as available_externally: inlinable, never emitted; the
  // calls that stay calls resolve to the JIT's copy.
  void linkInto(llvm::Module &module) const;
  // Drops the bitcode of `symbol` (its machine code was freed: engine.cpp).
  void forget(const std::string &symbol);

private:
  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::string> bitcode_; // symbol → bitcode of its module
  std::unordered_map<std::string, bool> always_;         // symbol → forceinline=True
};

} // namespace mahou::jit
