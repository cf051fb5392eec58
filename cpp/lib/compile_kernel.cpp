// The GPU pipeline, read as a script: parse → infer types (cuda module, device
// functions typed into the same module) → verify → lower the kernel → link
// libdevice and optimise for sm_XX → PTX.
#include "mahou/codegen.h"
#include "mahou/compiler.h"
#include "mahou/jit.h"
#include "mahou/parser.h"
#include "mahou/ptx.h"
#include "mahou/sema.h"
#include "module_functions.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

#include <atomic>
#include <chrono>
#include <map>
#include <memory>

namespace mahou {

namespace {

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

std::string uniqueSuffix() {
  static std::atomic<uint64_t> counter{0};
  return std::to_string(counter.fetch_add(1));
}

// A PTX-safe name: letters, digits and underscores.
std::string ptxName(const std::string &name) {
  std::string s;
  for (char c : name) s += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  return s;
}

// The kernel's definition in the parsed source, checked against the argument count.
const ast::FunctionDef &kernelDef(const SourceFile &file, const ast::Module &module, const std::string &name,
                                  const std::vector<types::Type> &args) {
  const ast::FunctionDef *def = module.findFunction(name);
  if (!def) unsupported(file, Loc{file.firstLine(), 1}, "no top-level function named '" + name + "' in this source");
  if (args.size() != def->args.size())
    typingError(file, def->loc, name + "() takes " + std::to_string(def->args.size()) + " arguments but " +
                                    std::to_string(args.size()) + " were given");
  return *def;
}

struct LoweredKernel {
  std::unique_ptr<llvm::LLVMContext> ctx;
  std::unique_ptr<llvm::Module> module;
  std::string kernelName;
  std::string irText; // the kernel's typed IR
  bool gridSync = false;
  StageTimes times;
};

// The kernel's typed IR (GPU typing, device and inner functions into `devices`); a
// kernel returns nothing.
ir::Function typeKernel(const SourceFile &file, const ast::FunctionDef &def, const std::vector<types::Type> &args,
                        CompileEnvironment &env, const CompileOptions &copts, const std::string &symbol,
                        ModuleFunctions &devices) {
  ir::Function fn = sema::buildTypedIR(file, def, args, env, copts, symbol, sema::TypingContext{true, &devices, nullptr});
  if (!fn.ret.isNone()) typingError(file, def.loc, "a CUDA kernel must not return a value (it returns " + fn.ret.str() + ")");
  return fn;
}

// Whether an expression of `b` (or of a block nested in it) satisfies `pred`.
template <class Pred> bool anyExpr(const ir::Expr &e, const Pred &pred) {
  if (pred(e)) return true;
  for (auto &a : e.args)
    if (anyExpr(*a, pred)) return true;
  return false;
}
template <class Pred> bool anyExpr(const ir::Block &b, const Pred &pred) {
  for (auto &s : b) {
    for (auto &e : s->exprs)
      if (anyExpr(*e, pred)) return true;
    if (anyExpr(s->body, pred) || anyExpr(s->orelse, pred)) return true;
  }
  return false;
}

// Whether the kernel or a function it calls satisfies `pred` somewhere.
template <class Pred>
bool kernelUses(const ir::Function &fn, const ModuleFunctions &devices, const Pred &pred) {
  if (anyExpr(fn.body, pred)) return true;
  for (auto *d : devices.functions())
    if (anyExpr(d->body, pred)) return true;
  return false;
}

// A barrier or a warp operation: the emulator runs the block's threads as fibers.
bool isBarrierOrWarpOp(const ir::Expr &e) {
  using G = ir::GpuOpKind;
  if (e.op != ir::ExprOp::GpuOp) return false;
  G k = G(e.sub);
  return (k >= G::SyncThreads && k <= G::SyncThreadsOr) || (k >= G::SyncWarp && k <= G::ActiveMask);
}

// A grid-wide barrier: the kernel needs a cooperative launch.
bool isGridSync(const ir::Expr &e) { return e.op == ir::ExprOp::GpuOp && ir::GpuOpKind(e.sub) == ir::GpuOpKind::GridSync; }

LoweredKernel lower(const SourceFile &file, const std::string &name, const std::vector<types::Type> &args,
                    CompileEnvironment &env, const KernelOptions &options, bool wantIRText = false) {
  LoweredKernel out;
  auto t0 = Clock::now();
  ast::Module module = frontend::parseModule(file);
  const ast::FunctionDef *def = &kernelDef(file, module, name, args);
  out.times.parseMs = msSince(t0);

  t0 = Clock::now();
  CompileOptions copts;
  copts.fastmath = options.fastmath;
  out.kernelName = ptxName(name) + "_" + uniqueSuffix();
  ModuleFunctions devices(copts, /*gpu=*/true, "mahou_dev_" + out.kernelName);
  ir::Function fn = typeKernel(file, *def, args, env, copts, "mahou_kernel_body_" + out.kernelName, devices);
  ir::verify(fn);
  out.gridSync = kernelUses(fn, devices, isGridSync);
  if (wantIRText) out.irText = ir::print(fn); // only for inspection: not on the launch path
  out.times.semaMs = msSince(t0);

  t0 = Clock::now();
  out.ctx = std::make_unique<llvm::LLVMContext>();
  codegen::CodegenOptions cg;
  cg.fastmath = options.fastmath;
  cg.target = codegen::Target::NVPTX;
  out.module = codegen::lowerKernel(fn, devices.functions(), out.kernelName, *out.ctx, cg);
  out.times.codegenMs = msSince(t0);
  return out;
}

ptx::Target ptxTarget(const KernelOptions &options) {
  ptx::Target t;
  t.ccMajor = options.ccMajor;
  t.ccMinor = options.ccMinor;
  t.libdevicePath = options.libdevicePath;
  return t;
}

std::string moduleText(const llvm::Module &m) {
  std::string s;
  llvm::raw_string_ostream os(s);
  m.print(os, nullptr);
  return os.str();
}

} // namespace

SimKernel compileSimKernel(const SourceFile &file, const std::string &name, const std::vector<types::Type> &args,
                           CompileEnvironment &env, bool boundscheck) {
  SimKernel out;
  auto t0 = Clock::now();
  ast::Module module = frontend::parseModule(file);
  const ast::FunctionDef *def = &kernelDef(file, module, name, args);
  out.times.parseMs = msSince(t0);
  t0 = Clock::now();
  CompileOptions copts;
  copts.boundscheck = boundscheck;
  std::string symbol = "mahou_sim_" + ptxName(name) + "_" + uniqueSuffix();
  ModuleFunctions devices(copts, /*gpu=*/true, symbol + "_dev");
  ir::Function fn = typeKernel(file, *def, args, env, copts, symbol, devices);
  ir::verify(fn);
  out.synchronizes = kernelUses(fn, devices, isBarrierOrWarpOp);
  out.gridSync = kernelUses(fn, devices, isGridSync);
  out.times.semaMs = msSince(t0);
  t0 = Clock::now();
  auto ctx = std::make_unique<llvm::LLVMContext>();
  codegen::CodegenOptions cg;
  cg.boundscheck = boundscheck;
  auto llmod = codegen::lowerSimKernel(fn, devices.functions(), *ctx, cg);
  out.times.codegenMs = msSince(t0);
  t0 = Clock::now();
  jit::Engine &engine = jit::Engine::instance();
  engine.optimize(*llmod);
  out.times.optimizeMs = msSince(t0);
  t0 = Clock::now();
  out.entry = reinterpret_cast<EntryFn>(engine.add(std::move(llmod), std::move(ctx), codegen::entrySymbol(symbol)));
  out.times.jitMs = msSince(t0);
  out.args = args;
  return out;
}

CompiledKernel compileKernel(const SourceFile &file, const std::string &name, const std::vector<types::Type> &args,
                             CompileEnvironment &env, const KernelOptions &options) {
  LoweredKernel k = lower(file, name, args, env, options);
  CompiledKernel out;
  out.times = k.times;
  auto t0 = Clock::now();
  ptx::optimize(*k.module, ptxTarget(options));
  out.times.optimizeMs = msSince(t0);
  t0 = Clock::now();
  out.ptx = ptx::emitPtx(*k.module, ptxTarget(options));
  out.times.jitMs = msSince(t0);
  out.kernelName = k.kernelName;
  out.gridSync = k.gridSync;
  out.args = args;
  return out;
}

CompiledDeviceFunction compileDeviceFunction(const SourceFile &file, const std::string &name,
                                             const std::vector<types::Type> &args, CompileEnvironment &env,
                                             const KernelOptions &options) {
  ast::Module module = frontend::parseModule(file);
  const ast::FunctionDef *def = &kernelDef(file, module, name, args);
  CompileOptions copts;
  copts.fastmath = options.fastmath;
  CompiledDeviceFunction out;
  out.symbol = ptxName(name);
  ModuleFunctions callees(copts, /*gpu=*/true, "mahou_dev_" + out.symbol + "_" + uniqueSuffix());
  ir::Function fn = sema::buildTypedIR(file, *def, args, env, copts, out.symbol, sema::TypingContext{true, &callees, nullptr});
  ir::verify(fn);
  out.ret = fn.ret;
  llvm::LLVMContext ctx;
  codegen::CodegenOptions cg;
  cg.fastmath = options.fastmath;
  auto llmod = codegen::lowerDeviceFunction(fn, callees.functions(), ctx, cg);
  ptx::optimize(*llmod, ptxTarget(options), out.symbol);
  out.ptx = ptx::emitPtx(*llmod, ptxTarget(options));
  return out;
}

std::string emitKernelStage(const SourceFile &file, const std::string &name, const std::vector<types::Type> &args,
                            CompileEnvironment &env, const KernelOptions &options, Stage stage) {
  LoweredKernel k = lower(file, name, args, env, options, stage == Stage::IR);
  if (stage == Stage::IR) return k.irText;
  if (stage == Stage::LLVM) return moduleText(*k.module);
  ptx::optimize(*k.module, ptxTarget(options));
  if (stage == Stage::OptLLVM) return moduleText(*k.module);
  return ptx::emitPtx(*k.module, ptxTarget(options));
}

} // namespace mahou
