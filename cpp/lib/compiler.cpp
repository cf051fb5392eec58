// The CPU driver: the pipeline's stages (pipeline.h) walked for the host, to the JIT or
// an object file (AOT), or as far as the stage mahouc and inspect_*() dump.
#include "mahou/compiler.h"

#include "mahou/cache.h"
#include "mahou/codegen.h"
#include "mahou/jit.h"
#include "mahou/parser.h"
#include "mahou/range_type.h"
#include "jit/inline_library.h"
#include "jit/object_check.h"
#include "mahou/sema.h"
#include "module_functions.h"
#include "pipeline.h"
#include "transforms/outline_parallel_loops.h"
#include "transforms/parallel_array_exprs.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

#include <atomic>
#include <chrono>

namespace mahou {

namespace {

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

// A process-unique LLVM symbol per compiled signature: the provisional name of a
// function until compileFunction renames it to its content symbol (cache.h).
std::string freshSymbol(const std::string &name) {
  static std::atomic<uint64_t> counter{0};
  return "mahou." + name + "." + std::to_string(counter.fetch_add(1));
}

void checkArity(const SourceFile &file, const ast::FunctionDef &def, const std::vector<types::Type> &args) {
  if (!def.vararg.empty() && args.size() + 1 == def.numParams())
    unsupported(file, def.loc, "'*" + def.vararg + "' parameters are only supported in calls from other compiled functions");
  if (args.size() != def.numParams()) // keyword-only ones after the positional ones; *args: one packed tuple
    typingError(file, def.loc, def.name + "() takes " + std::to_string(def.args.size() + def.kwonlyargs.size()) + " arguments but " +
                                   std::to_string(args.size()) + " were given");
}

// The function's types must suit the native entries asked for (a TypingError at the def).
void checkNativeEntries(const SourceFile &file, const ast::FunctionDef &def, const ir::Function &fn,
                        const NativeEntries &native) {
  auto cRepresentable = [](const types::Type &t) {
    return (t.isNumber() && !t.isComplex() && t.dtype != types::DType::Float16) || t.isPointer();
  };
  if (native.ufuncLoop) {
    if (!fn.ret.isNumber())
      typingError(file, def.loc, "a @vectorize function must return a number, not " + fn.ret.str());
    if (native.ufuncOut && fn.ret.isComplex() && !types::isComplex(*native.ufuncOut) &&
        *native.ufuncOut != types::DType::Bool)
      typingError(file, def.loc, "cannot convert the complex result of '" + def.name + "' to " +
                                     types::dtypeName(*native.ufuncOut));
  }
  if (native.gufuncCoreDims && fn.ret.hasRefs())
    typingError(file, def.loc, "a @guvectorize function writes its outputs and returns nothing, not " + fn.ret.str());
  if (native.cfuncRet) {
    for (size_t i = 0; i < fn.argTypes.size(); ++i)
      if (!cRepresentable(fn.argTypes[i]))
        typingError(file, def.loc, "@cfunc argument " + std::to_string(i + 1) + " of type " + fn.argTypes[i].str() +
                                       " is not C-representable");
    const types::Type &r = *native.cfuncRet;
    if (!r.isNone() && !cRepresentable(r))
      typingError(file, def.loc, "@cfunc return type " + r.str() + " is not C-representable");
    if (r.isPointer())
      typingError(file, def.loc, "a @cfunc returning a pointer is not supported");
    if (!r.isNone() && !fn.ret.isNumber())
      typingError(file, def.loc, "'" + def.name + "' returns " + fn.ret.str() + ", not a number as its @cfunc signature " +
                                     "says (" + r.str() + ")");
    if (!r.isNone() && fn.ret.isComplex())
      typingError(file, def.loc, "cannot convert the complex result of '" + def.name + "' to " + r.str());
  }
}

// A namedtuple anywhere in the type: its class is known by address (not in another process).
bool holdsNamedTuple(const types::Type &t) {
  if (t.isNamedTuple() && !types::isRange(t)) return true; // a range's handle is a constant
  if (t.isEnumMember()) return true;                         // so is an enum class's
  for (const types::Type &e : t.elems)
    if (holdsNamedTuple(e)) return true;
  return false;
}

// The CPU target: typed for the host (the cache records what the code depends on),
// parallel=True loops outlined, lowered with the entries the caller asked for, optimised
// at O3 and linked into the JIT (or left an object file: AOT); or, for a dump, each stage's
// text (no entries, nothing linked).
class HostTarget final : public pipeline::Target {
public:
  HostTarget(const CompileOptions &options, CompiledFunction *out) : options_(options), out_(out) {}

  void checkSignature(pipeline::Compilation &c) override { checkArity(c.file, *c.def, c.args); }

  ir::Function type(pipeline::Compilation &c) override {
    symbol_ = freshSymbol(c.name);
    c.callees = std::make_unique<ModuleFunctions>(options_, /*gpu=*/false, symbol_); // nested defs and lambdas
    if (out_) recorder_ = std::make_unique<cache::RecordingEnvironment>(c.env); // what the code depends on
    CompileEnvironment &env = recorder_ ? *recorder_ : c.env;
    c.callees->beginMain(c.file, c.name, c.args, symbol_); // a callee that calls it back is typed into this module
    ir::Function fn = sema::buildTypedIR(c.file, *c.def, c.args, env, options_, symbol_,
                                         sema::TypingContext{false, c.callees.get(), nullptr});
    c.callees->endMain(c.file, c.def->loc, c.name, c.args, fn.ret);
    return fn;
  }

  void checkTyped(pipeline::Compilation &c) override {
    if (out_) checkNativeEntries(c.file, *c.def, *c.fn, options_.native);
  }

  bool verifyIR() const override { return options_.verifyIR; }

  // parallel=True: each prange loop of the function and its inner functions outlined
  // into a chunk function (transforms/outline_parallel_loops), with the notes for
  // parallel_diagnostics.
  void passes(pipeline::Compilation &c) override {
    ir::Function &fn = *c.fn;
    if (options_.parallel) {
      std::vector<std::string> notes;
      transforms::parallelizeArrayExprs(fn);
      for (ir::Function *f : c.callees->mutableFunctions()) transforms::parallelizeArrayExprs(*f);
      if (options_.verifyIR) ir::verify(fn);
      notes = transforms::outlineParallelLoops(fn, c.file, c.outlined);
      for (ir::Function *f : c.callees->mutableFunctions())
        for (auto &line : transforms::outlineParallelLoops(*f, c.file, c.outlined)) notes.push_back(line);
      if (notes.empty()) notes.push_back("no prange loop in '" + fn.name + "': it runs serially");
      if (options_.verifyIR) {
        ir::verify(fn);
        for (ir::Function *f : c.callees->mutableFunctions()) ir::verify(*f);
        for (auto &f : c.outlined) ir::verify(*f);
      }
      if (out_) out_->parallelNotes = std::move(notes);
    }
    if (!out_) return;
    out_->symbol = cache::contentSymbol(c.file, c.name, c.args, options_, out_->dependencies = recorder_->dependencies());
    out_->cacheable = recorder_->cacheable() && !holdsNamedTuple(fn.ret) &&
                      std::none_of(c.args.begin(), c.args.end(), holdsNamedTuple);
    out_->ret = fn.ret;
    out_->args = c.args;
  }

  // The JIT created (the first compile of a process); a function of the same symbol
  // compiled earlier in this process is the result (not for an object file of its own:
  // that one may not have a Python entry).
  void prepare(pipeline::Compilation &c) override {
    if (!out_) return;
    auto t0 = Clock::now();
    bool firstCompile = !jit::Engine::created();
    jit::Engine &engine = jit::Engine::instance();
    if (firstCompile) c.times.initMs = msSince(t0);
    const PythonAbi *pythonAbi = c.env.pythonAbi(); // called from Python: also a Python entry
    pythonAbi_ = pythonAbi && !options_.objectOnly && codegen::pythonEntryFits(c.args, c.fn->ret) ? pythonAbi : nullptr;
    if (void *entry = options_.objectOnly ? nullptr : engine.find(codegen::entrySymbol(out_->symbol), &out_->object, &out_->code)) {
      out_->entry = reinterpret_cast<EntryFn>(entry);
      link(engine);
      c.finished = true;
    }
  }

  void lower(pipeline::Compilation &c) override {
    c.context = std::make_unique<llvm::LLVMContext>();
    codegen::CodegenOptions cg{options_.boundscheck, options_.fastmath};
    cg.numpyErrors = options_.numpyErrors;
    if (!out_) {
      c.llvmModule = codegen::lowerFunction(*c.fn, c.helpers, *c.context, cg, /*withEntry=*/false);
      return;
    }
    c.llvmModule = codegen::lowerFunction(*c.fn, c.helpers, *c.context, cg, /*withEntry=*/true, pythonAbi_, &options_.native);
    // The provisional symbols become the content symbol (cache.h).
    llvm::Module &module = *c.llvmModule;
    llvm::Function *internal = module.getFunction(symbol_), *entry = module.getFunction(codegen::entrySymbol(symbol_));
    MAHOU_INTERNAL_ASSERT(internal && entry, "the lowered module defines the function and its entry");
    internal->setName(out_->symbol);
    entry->setName(codegen::entrySymbol(out_->symbol));
    if (llvm::Function *py = module.getFunction(codegen::pythonEntrySymbol(symbol_)))
      py->setName(codegen::pythonEntrySymbol(out_->symbol));
    for (auto *name : {&ufuncLoopSymbol, &gufuncLoopSymbol, &cfuncSymbol})
      if (llvm::Function *f = module.getFunction((*name)(symbol_))) f->setName((*name)(out_->symbol));
  }

  void optimize(pipeline::Compilation &c) override {
    jit::Engine &engine = jit::Engine::instance();
    // A generator is kept before CoroSplit: a caller that inlines it splits it again in its
    // own module, where LLVM sees the frame its loop resumes and inlines the resume function.
    // Any other function is kept as the simplification left it, before the vectoriser: a
    // caller that inlines it vectorises its loops with the caller's facts (a row view's
    // index that cannot be negative there, a constant trip count) instead of inheriting
    // the gathers and versioning made for unknown arguments.
    bool always = options_.forceInline;
    if (out_ && c.fn->generator) engine.inlineLibrary().keep(out_->symbol, *c.llvmModule, always);
    std::function<void(const llvm::Module &)> keep;
    if (out_ && !c.fn->generator)
      keep = [&engine, symbol = out_->symbol, always](const llvm::Module &m) {
        engine.inlineLibrary().keep(symbol, m, always);
      };
    engine.optimize(*c.llvmModule, options_.fastmath, &engine.inlineLibrary(), options_.fastmathFlags, keep);
  }

  void emit(pipeline::Compilation &c) override {
    jit::Engine &engine = jit::Engine::instance();
    if (!out_) {
      assembly_ = engine.emitAssembly(*c.llvmModule);
      return;
    }
    // The signature record a loader checks the types it is given against (object_check.h):
    // added after the module was kept for inlining, so callers never define it too.
    llvm::Constant *record =
        llvm::ConstantDataArray::getString(*c.context, jit::signatureRecord(c.args, c.fn->ret), false);
    new llvm::GlobalVariable(*c.llvmModule, record->getType(), /*isConstant=*/true, llvm::GlobalValue::ExternalLinkage,
                             record, jit::signatureSymbol(out_->symbol));
    out_->object = engine.emitObject(*c.llvmModule);
    if (options_.objectOnly) return;
    out_->entry =
        reinterpret_cast<EntryFn>(engine.addObject(out_->object, codegen::entrySymbol(out_->symbol), &out_->code));
    link(engine);
  }

  std::string assembly() const override { return assembly_; }

private:
  // The Python entry and the native entries of the linked code.
  void link(jit::Engine &engine) {
    if (pythonAbi_) out_->pythonEntry = engine.lookup(codegen::pythonEntrySymbol(out_->symbol));
    findNativeEntries(options_.native, out_->symbol, [&](const std::string &s) { return engine.lookup(s); }, *out_);
  }

  const CompileOptions &options_;
  CompiledFunction *out_; // null: a dump
  std::string symbol_;    // the provisional symbol the function is typed and lowered under
  std::unique_ptr<cache::RecordingEnvironment> recorder_;
  const PythonAbi *pythonAbi_ = nullptr;
  std::string assembly_;
};

} // namespace

CompiledFunction compileFunction(const SourceFile &file, const std::string &name,
                                 const std::vector<types::Type> &args, CompileEnvironment &env,
                                 const CompileOptions &options) {
  CompiledFunction out;
  HostTarget host(options, &out);
  pipeline::Compilation c(file, name, args, env);
  pipeline::run(c, host, pipeline::Step::Emit);
  out.times = c.times;
  return out;
}

std::string emitStage(const SourceFile &file, const std::string &name, const std::vector<types::Type> &args,
                      CompileEnvironment &env, const CompileOptions &options, Stage stage) {
  HostTarget host(options, nullptr);
  pipeline::Compilation c(file, name, args, env);
  return pipeline::dumpStage(c, host, stage);
}

} // namespace mahou
