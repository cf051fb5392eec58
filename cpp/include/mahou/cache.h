// Deterministic symbols and the on-disk cache of compiled functions (cache=True):
// what a function's code depends on, the keys, the file format and its checks.
#pragma once

#include "mahou/compiler.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mahou::cache {

// Wraps the caller's environment during one compilation and records every global
// the compiler resolved and every callee overload it asked for. The record (text)
// is part of the function's identity: its symbol is a hash of the source, the
// signature, the options and this record, and a cache entry is valid only while
// the same globals resolve to the same values and the callees to the same symbols.
class RecordingEnvironment final : public CompileEnvironment {
public:
  explicit RecordingEnvironment(CompileEnvironment &inner) : inner_(inner) {}
  GlobalValue resolveGlobal(const std::string &name) override;
  CalleeSignature compileCallee(uint64_t handle, const std::vector<types::Type> &args) override;
  std::optional<CalleeSource> calleeSource(uint64_t handle) override { return inner_.calleeSource(handle); }
  // Recorded: the callee's source and, through an environment of its own, its globals
  // (the code is compiled into this function's); such a function is not written to disk.
  std::optional<CalleeSource> hostCalleeSource(uint64_t handle) override;
  // Recorded too: a callee's default argument values are compiled into the caller.
  std::optional<CalleeParams> calleeParams(uint64_t handle) override;
  const PythonAbi *pythonAbi() override { return inner_.pythonAbi(); }
  std::optional<UfuncCallee> calleeUfunc(uint64_t handle) override { return inner_.calleeUfunc(handle); }
  uint64_t selfHandle() override { return inner_.selfHandle(); }
  // Recorded: the implementation chosen is found again under the name "extension#N".
  ExtensionResult resolveExtension(const ExtensionRequest &request) override;
  const JitClassInfo *jitClass(uint64_t handle) override; // recorded: the class's layout
  // Recorded, with a number of its own: the block's Python function lives in this
  // process only, so a function with one is never written to disk nor shared.
  std::optional<ObjModeBlock> objModeBlock(const ObjModeRequest &request) override;

  // Deterministic text of the record (sorted; no addresses).
  std::string dependencies() const;
  // False when a callee cannot be found again by a global name in another process
  // (a function passed as an argument or held in a tuple).
  bool cacheable() const;

private:
  struct Callee {
    uint64_t handle;
    std::vector<types::Type> args;
    CalleeSignature sig;
  };
  CompileEnvironment &inner_;
  std::map<std::string, GlobalValue> globals_;
  std::vector<Callee> callees_;
  std::map<uint64_t, std::string> params_; // handle → serialised CalleeParams
  std::map<std::string, GlobalValue> namedCallees() const; // globals + extension#N
  // Extension requests answered, in order, with the name their implementation is
  // recorded under ("extension#N") and the request as text.
  std::vector<std::pair<uint64_t, std::string>> extensions_;
  bool unfindable_ = false; // an extension request that another process cannot ask again
  std::vector<uint64_t> objModeBlocks_; // handles of the objmode blocks prepared
  std::map<uint64_t, std::string> classes_; // handle → the jitclass's name and fields
  // hostCalleeSource: per callee handle, its source text and the recorder of its globals.
  std::map<uint64_t, std::pair<std::string, std::unique_ptr<RecordingEnvironment>>> inlined_;
  // The methods, static methods and property accessors of those classes: callee handle
  // → its name in the records, "jitclass#<class handle>.<member>" (found again through
  // the class, whose handle is the same in every process).
  std::map<uint64_t, std::string> members_;
};

// The symbol of a compiled overload: "mahou.<name>.<16 hex digits>", a hash of
// everything its machine code is made from. Equal symbols mean identical code, so
// the JIT shares one copy, and a cached object's references to callees resolve by
// name in any later process that compiled (or loaded) the same callees.
std::string contentSymbol(const SourceFile &file, const std::string &name, const std::vector<types::Type> &args,
                          const CompileOptions &options, const std::string &dependencies);

// The on-disk key of an overload, known before compiling: mahou's version and build,
// LLVM's version, the host target (triple, CPU, features), the options, the source
// file's path, the function's name, first line and source text, and the signature.
std::string overloadKey(const SourceFile &file, const std::string &name, const std::vector<types::Type> &args,
                        const CompileOptions &options);

// Where the entry for `key` lives: under $MAHOU_CACHE_DIR (or $NUMBA_CACHE_DIR) when
// set, else __pycache__ beside the source file or ~/.cache/mahou. For reading, the
// first of these that holds the entry (a read-only directory is read); for writing,
// the first that can be written. Empty when the source is not a file or none fits.
std::string entryPath(const std::string &sourcePath, const std::string &name, const std::string &key,
                      bool forWriting);

// A cached overload as stored: the internal symbol, the return type, the
// dependency record and the object code.
struct Entry {
  std::string symbol;
  types::Type ret;
  std::string dependencies;
  std::string object;
};

// Reads and checks an entry: magic, format version, size, SHA-256 checksum, and the
// key stored inside it. nullopt for a missing, truncated, corrupted or foreign file.
std::optional<Entry> readEntry(const std::string &path, const std::string &key);
// Writes atomically (a temporary file in the same directory, then rename), so that
// readers and concurrent writers only ever see complete files. False on failure
// (the cache is an optimisation: a failed write is not an error).
bool writeEntry(const std::string &path, const std::string &key, const Entry &entry);
// True when the globals recorded in `dependencies` resolve to the same values now
// and the callees (compiled or loaded on the way) have the same symbols.
bool dependenciesHold(const std::string &dependencies, CompileEnvironment &env);

// Checks and links an entry read from a cache file or shipped in a pickle: its symbol
// must be the content symbol of this source, signature, options and its recorded
// dependencies, and those must hold in `env` (callees compiled or loaded on the way).
// nullopt when it does not fit (the caller compiles instead). The object file must be
// well formed and its signature record must name these argument types and entry.ret
// (jit/object_check.h): else nullopt with the reason in *corrupt (when given), and
// nothing linked, so a payload edited inconsistently is never run.
std::optional<CompiledFunction> linkEntry(const SourceFile &file, const std::string &name,
                                          const std::vector<types::Type> &args, CompileEnvironment &env,
                                          const CompileOptions &options, Entry entry, std::string *corrupt = nullptr);
// The identity of the code generator that runs, for keys of machine code kept outside
// the process (cache entries, pickles): mahou's version, the GNU build ID of the
// library holding the back end (content-based: equal on every machine with the same
// build), or its path, size and modification time when it has none.
const std::string &generatorId();
// What machine code must match to run here: generatorId(), LLVM's version, and the
// host target (triple, CPU, features).
std::string objectCompatibilityKey();

// Finds, checks, validates and links the cached overload; nullopt on a miss.
std::optional<CompiledFunction> load(const SourceFile &file, const std::string &name,
                                     const std::vector<types::Type> &args, CompileEnvironment &env,
                                     const CompileOptions &options);
// Stores a freshly compiled overload (when fn.cacheable and it has object code);
// adds the time taken to fn.times.cacheMs.
void store(const SourceFile &file, const std::string &name, CompiledFunction &fn, const CompileOptions &options);

// @cuda.jit(cache=True) (kernel_cache.cpp): the kernel's PTX from the cache when an entry
// for this source, signature, compute capability and options exists and its recorded
// globals hold; else `compile` (given the environment to compile in), whose result is
// written unless the kernel calls device functions or depends on something another
// process cannot find again.
CompiledKernel cachedKernel(const SourceFile &file, const std::string &name, const std::vector<types::Type> &args,
                            CompileEnvironment &env, const KernelOptions &options,
                            const std::function<CompiledKernel(CompileEnvironment &)> &compile);

} // namespace mahou::cache
