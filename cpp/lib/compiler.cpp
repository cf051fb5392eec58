// The pipeline, read as a script: parse → infer types → verify → lower to LLVM →
// optimise → JIT. Each stage can be dumped (emitStage) for mahouc and inspect_*().
#include "mahou/compiler.h"

#include "mahou/cache.h"
#include "mahou/codegen.h"
#include "mahou/jit.h"
#include "mahou/lexer.h"
#include "mahou/parser.h"
#include "mahou/range_type.h"
#include "jit/inline_library.h"
#include "jit/object_check.h"
#include "mahou/sema.h"
#include "module_functions.h"
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

struct Parsed {
  ast::Module module;
  const ast::FunctionDef *def = nullptr;
};

Parsed parse(const SourceFile &file, const std::string &name) {
  Parsed p{frontend::parseModule(file)};
  p.def = p.module.findFunction(name);
  if (!p.def) unsupported(file, Loc{file.firstLine(), 1}, "no top-level function named '" + name + "' in this source");
  return p;
}

void checkArity(const SourceFile &file, const ast::FunctionDef &def, const std::vector<types::Type> &args) {
  if (!def.vararg.empty() && args.size() + 1 == def.numParams())
    unsupported(file, def.loc, "'*" + def.vararg + "' parameters are only supported in calls from other compiled functions");
  if (args.size() != def.numParams()) // keyword-only ones after the positional ones; *args: one packed tuple
    typingError(file, def.loc, def.name + "() takes " + std::to_string(def.args.size() + def.kwonlyargs.size()) + " arguments but " +
                                   std::to_string(args.size()) + " were given");
}

// parallel=True: each prange loop of the function and its inner functions outlined
// into a chunk function (transforms/outline_parallel_loops). Returns the notes for
// parallel_diagnostics; `helpers` gets every function lowered beside the main one.
std::vector<std::string> outlineParallelLoops(const SourceFile &file, ir::Function &fn, ModuleFunctions &inner,
                                              const CompileOptions &options,
                                              std::vector<std::unique_ptr<ir::Function>> &outlined,
                                              std::vector<const ir::Function *> &helpers) {
  std::vector<std::string> notes;
  if (options.parallel) {
    transforms::parallelizeArrayExprs(fn);
    for (ir::Function *f : inner.mutableFunctions()) transforms::parallelizeArrayExprs(*f);
    if (options.verifyIR) ir::verify(fn);
    notes = transforms::outlineParallelLoops(fn, file, outlined);
    for (ir::Function *f : inner.mutableFunctions())
      for (auto &line : transforms::outlineParallelLoops(*f, file, outlined)) notes.push_back(line);
    if (notes.empty()) notes.push_back("no prange loop in '" + fn.name + "': it runs serially");
    if (options.verifyIR) {
      ir::verify(fn);
      for (ir::Function *f : inner.mutableFunctions()) ir::verify(*f);
      for (auto &f : outlined) ir::verify(*f);
    }
  }
  helpers = inner.functions();
  for (auto &f : outlined) helpers.push_back(f.get());
  return notes;
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

std::string moduleText(const llvm::Module &m) {
  std::string s;
  llvm::raw_string_ostream os(s);
  m.print(os, nullptr);
  return os.str();
}

// A namedtuple anywhere in the type: its class is known by address (not in another process).
bool holdsNamedTuple(const types::Type &t) {
  if (t.isNamedTuple() && !types::isRange(t)) return true; // a range's handle is a constant
  if (t.isEnumMember()) return true;                         // so is an enum class's
  for (const types::Type &e : t.elems)
    if (holdsNamedTuple(e)) return true;
  return false;
}

} // namespace

CompiledFunction compileFunction(const SourceFile &file, const std::string &name,
                                 const std::vector<types::Type> &args, CompileEnvironment &env,
                                 const CompileOptions &options) {
  CompiledFunction out;
  auto t0 = Clock::now();
  Parsed parsed = parse(file, name);
  checkArity(file, *parsed.def, args);
  out.times.parseMs = msSince(t0);

  t0 = Clock::now();
  std::string symbol = freshSymbol(name);
  cache::RecordingEnvironment recorder(env); // what the code depends on: globals, callees
  ModuleFunctions inner(options, /*gpu=*/false, symbol); // nested defs and lambdas
  inner.beginMain(file, name, args, symbol); // a callee that calls it back is typed into this module
  ir::Function fn = sema::buildTypedIR(file, *parsed.def, args, recorder, options, symbol,
                                       sema::TypingContext{false, &inner, nullptr});
  inner.endMain(file, parsed.def->loc, name, args, fn.ret);
  if (options.verifyIR) ir::verify(fn);
  checkNativeEntries(file, *parsed.def, fn, options.native);
  std::vector<std::unique_ptr<ir::Function>> outlined;
  std::vector<const ir::Function *> helpers;
  out.parallelNotes = outlineParallelLoops(file, fn, inner, options, outlined, helpers);
  out.symbol = cache::contentSymbol(file, name, args, options, out.dependencies = recorder.dependencies());
  out.cacheable = recorder.cacheable() && !holdsNamedTuple(fn.ret) &&
                  std::none_of(args.begin(), args.end(), holdsNamedTuple);
  out.ret = fn.ret;
  out.args = args;
  out.times.semaMs = msSince(t0);

  t0 = Clock::now();
  bool firstCompile = !jit::Engine::created();
  jit::Engine &engine = jit::Engine::instance();
  if (firstCompile) out.times.initMs = msSince(t0);
  const PythonAbi *pythonAbi = env.pythonAbi(); // called from Python: also a Python entry
  bool withPythonEntry = pythonAbi && !options.objectOnly && codegen::pythonEntryFits(args, fn.ret);
  // Same symbol, same code: an identical function compiled earlier in this process
  // (not for an object file of its own: that one may not have a Python entry).
  if (void *entry = options.objectOnly ? nullptr : engine.find(codegen::entrySymbol(out.symbol), &out.object, &out.code)) {
    out.entry = reinterpret_cast<EntryFn>(entry);
    if (withPythonEntry) out.pythonEntry = engine.lookup(codegen::pythonEntrySymbol(out.symbol));
    findNativeEntries(options.native, out.symbol, [&](const std::string &s) { return engine.lookup(s); }, out);
    return out;
  }

  t0 = Clock::now();
  auto ctx = std::make_unique<llvm::LLVMContext>();
  codegen::CodegenOptions cg{options.boundscheck, options.fastmath};
  cg.numpyErrors = options.numpyErrors;
  auto module = codegen::lowerFunction(fn, helpers, *ctx, cg, /*withEntry=*/true,
                                       withPythonEntry ? pythonAbi : nullptr, &options.native);
  llvm::Function *internal = module->getFunction(symbol), *entry = module->getFunction(codegen::entrySymbol(symbol));
  MAHOU_INTERNAL_ASSERT(internal && entry, "the lowered module defines the function and its entry");
  internal->setName(out.symbol);
  entry->setName(codegen::entrySymbol(out.symbol));
  if (llvm::Function *py = module->getFunction(codegen::pythonEntrySymbol(symbol)))
    py->setName(codegen::pythonEntrySymbol(out.symbol));
  for (auto *name : {&ufuncLoopSymbol, &gufuncLoopSymbol, &cfuncSymbol})
    if (llvm::Function *f = module->getFunction((*name)(symbol))) f->setName((*name)(out.symbol));
  out.times.codegenMs = msSince(t0);

  t0 = Clock::now();
  // A generator is kept before CoroSplit: a caller that inlines it splits it again in its
  // own module, where LLVM sees the frame its loop resumes and inlines the resume function.
  if (fn.generator) engine.inlineLibrary().keep(out.symbol, *module);
  engine.optimize(*module, options.fastmath, &engine.inlineLibrary(), options.fastmathFlags);
  if (!fn.generator) engine.inlineLibrary().keep(out.symbol, *module);
  out.times.optimizeMs = msSince(t0);

  t0 = Clock::now();
  // The signature record a loader checks the types it is given against (object_check.h):
  // added after the module was kept for inlining, so callers never define it too.
  llvm::Constant *record = llvm::ConstantDataArray::getString(*ctx, jit::signatureRecord(args, fn.ret), false);
  new llvm::GlobalVariable(*module, record->getType(), /*isConstant=*/true, llvm::GlobalValue::ExternalLinkage, record,
                           jit::signatureSymbol(out.symbol));
  out.object = engine.emitObject(*module);
  if (options.objectOnly) {
    out.times.jitMs = msSince(t0);
    return out;
  }
  out.entry = reinterpret_cast<EntryFn>(engine.addObject(out.object, codegen::entrySymbol(out.symbol), &out.code));
  if (withPythonEntry) out.pythonEntry = engine.lookup(codegen::pythonEntrySymbol(out.symbol));
  findNativeEntries(options.native, out.symbol, [&](const std::string &s) { return engine.lookup(s); }, out);
  out.times.jitMs = msSince(t0);
  return out;
}

std::string emitStage(const SourceFile &file, const std::string &name, const std::vector<types::Type> &args,
                      CompileEnvironment &env, const CompileOptions &options, Stage stage) {
  if (stage == Stage::Tokens) return frontend::dumpTokens(frontend::tokenize(file));
  Parsed parsed = parse(file, name);
  if (stage == Stage::Ast) return ast::dumpAst(*parsed.def);
  checkArity(file, *parsed.def, args);
  std::string symbol = freshSymbol(name);
  ModuleFunctions inner(options, /*gpu=*/false, symbol);
  ir::Function fn = sema::buildTypedIR(file, *parsed.def, args, env, options, symbol,
                                       sema::TypingContext{false, &inner, nullptr});
  if (options.verifyIR) ir::verify(fn);
  std::vector<std::unique_ptr<ir::Function>> outlined;
  std::vector<const ir::Function *> helpers;
  outlineParallelLoops(file, fn, inner, options, outlined, helpers);
  if (stage == Stage::IR) {
    std::string text = ir::print(fn);
    for (const ir::Function *f : helpers) text += ir::print(*f);
    return text;
  }
  llvm::LLVMContext ctx;
  codegen::CodegenOptions cg{options.boundscheck, options.fastmath};
  cg.numpyErrors = options.numpyErrors;
  auto module = codegen::lowerFunction(fn, helpers, ctx, cg, /*withEntry=*/false);
  if (stage == Stage::LLVM) return moduleText(*module);
  jit::Engine &engine = jit::Engine::instance();
  engine.optimize(*module, options.fastmath, &engine.inlineLibrary(), options.fastmathFlags);
  if (stage == Stage::OptLLVM) return moduleText(*module);
  return engine.emitAssembly(*module);
}

} // namespace mahou
