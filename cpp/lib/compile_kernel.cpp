// The GPU drivers: the pipeline's stages (pipeline.h) walked for a CUDA kernel (NVPTX,
// libdevice, PTX), a device function alone, or the CUDA emulator (the host CPU).
#include "mahou/cache.h"
#include "mahou/codegen.h"
#include "mahou/compiler.h"
#include "mahou/jit.h"
#include "mahou/ptx.h"
#include "mahou/sema.h"
#include "module_functions.h"
#include "pipeline.h"

#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <atomic>
#include <memory>

namespace mahou {

namespace {

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
  return (k >= G::SyncThreads && k <= G::SyncThreadsOr) || (k >= G::SyncWarp && k <= G::ActiveMask) ||
         k == G::VoteEq || k == G::MatchAny || k == G::MatchAll;
}

// An operation through which threads may see each other's global-memory writes
// (barriers, fences, warp operations, atomics, grid sync, and any operation not known
// to be private to its thread): a kernel using one keeps its array parameters without
// noalias, since a call such as a barrier would otherwise be assumed not to change
// them. Listed the other way round so that a new operation is treated as communicating.
bool mayCommunicate(const ir::Expr &e) {
  using G = ir::GpuOpKind;
  if (e.op != ir::ExprOp::GpuOp) return false;
  switch (G(e.sub)) {
  case G::TidX: case G::TidY: case G::TidZ: case G::NtidX: case G::NtidY: case G::NtidZ:
  case G::CtaidX: case G::CtaidY: case G::CtaidZ: case G::NctaidX: case G::NctaidY: case G::NctaidZ:
  case G::LaneId: case G::WarpSize: case G::SharedArray: case G::LocalArray:
  case G::Fma: case G::Popc: case G::Clz: case G::Brev: case G::Ffs:
  case G::XoroNext: case G::XoroJump: case G::XoroUniform32: case G::XoroUniform64:
  case G::XoroNormal32: case G::XoroNormal64:
  case G::HMax: case G::HMin: case G::HDiv: case G::Libdevice:
  case G::Selp: case G::LaneMaskLt:
    return false;
  default:
    return true;
  }
}

// A view of a field of a packed record array whose items may sit at addresses that are
// not multiples of the field's alignment (its offset or the record's size is not one).
bool isMisalignedFieldView(const ir::Expr &e) {
  if (e.op != ir::ExprOp::Object || ir::ObjectOp(e.sub) != ir::ObjectOp::RecordFieldView) return false;
  const types::Type &record = e.args[0]->type.elems[0];
  if (record.aligned) return false;
  int64_t align = types::dtypeBytes(e.type.dtype);
  if (types::isComplex(e.type.dtype)) align /= 2;
  return align > 1 && (e.ival % align || record.itemsize % align);
}

// A grid-wide barrier: the kernel needs a cooperative launch.
bool isGridSync(const ir::Expr &e) { return e.op == ir::ExprOp::GpuOp && ir::GpuOpKind(e.sub) == ir::GpuOpKind::GridSync; }

// What sema is told of a kernel's or device function's options.
CompileOptions fastmathOptions(const KernelOptions &options) {
  CompileOptions copts;
  copts.fastmath = options.fastmath;
  copts.declaredReturn = options.declaredReturn;
  return copts;
}

ptx::Target ptxTarget(const KernelOptions &options) {
  ptx::Target t;
  t.ccMajor = options.ccMajor;
  t.ccMinor = options.ccMinor;
  t.libdevicePath = options.libdevicePath;
  return t;
}

// Whether a function of the optimised module calls one the module defines: everything
// else is inlined, so such a call is a recursion, whose frames live on the thread's stack.
bool callsOutOfLine(const llvm::Module &module) {
  for (const auto &f : module.functions())
    for (const auto &bb : f)
      for (const auto &inst : bb)
        if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&inst))
          if (const llvm::Function *callee = call->getCalledFunction(); callee && !callee->isDeclaration())
            return true;
  return false;
}

// What the GPU targets share: the signature (a kernel's arity), typing for the GPU
// (device functions typed into the same module) and what the kernel uses.
class GpuTarget : public pipeline::Target {
public:
  GpuTarget(CompileOptions options, bool kernel) : options_(std::move(options)), kernel_(kernel) {}
  // A kernel returns nothing (a device function may).
  void checkTyped(pipeline::Compilation &c) override {
    if (kernel_ && !c.fn->ret.isNone())
      typingError(c.file, c.def->loc, "a CUDA kernel must not return a value (it returns " + c.fn->ret.str() + ")");
  }
  void checkSignature(pipeline::Compilation &c) override {
    if (c.args.size() != c.def->args.size())
      typingError(c.file, c.def->loc, c.name + "() takes " + std::to_string(c.def->args.size()) + " arguments but " +
                                          std::to_string(c.args.size()) + " were given");
  }
  ir::Function type(pipeline::Compilation &c) override {
    c.callees = std::make_unique<ModuleFunctions>(options_, /*gpu=*/true, calleePrefix());
    return sema::buildTypedIR(c.file, *c.def, c.args, c.env, options_, symbol(), sema::TypingContext{true, c.callees.get(), nullptr});
  }
  void passes(pipeline::Compilation &c) override {
    gridSync = kernelUses(*c.fn, *c.callees, isGridSync);
    synchronizes = kernelUses(*c.fn, *c.callees, isBarrierOrWarpOp);
    communicates = kernelUses(*c.fn, *c.callees, mayCommunicate);
    misalignedViews = kernelUses(*c.fn, *c.callees, isMisalignedFieldView);
  }
  bool gridSync = false;     // it synchronises the whole grid: a cooperative launch
  bool synchronizes = false; // it uses barriers or warp operations
  bool communicates = false; // threads may exchange global memory (mayCommunicate)
  bool misalignedViews = false; // it makes a view of a packed record's field (isMisalignedFieldView)

protected:
  virtual std::string symbol() const = 0;       // the typed function's symbol
  virtual std::string calleePrefix() const = 0; // the symbols of its device functions
  CompileOptions options_;
  bool kernel_;
};

// A @cuda.jit kernel to PTX: it returns nothing; libdevice linked, optimised for sm_XX.
class KernelTarget final : public GpuTarget {
public:
  KernelTarget(const std::string &name, const KernelOptions &options)
      : GpuTarget(fastmathOptions(options), /*kernel=*/true), kernelOptions_(options), kernelName(ptxName(name) + "_" + uniqueSuffix()) {}
  void lower(pipeline::Compilation &c) override {
    c.context = std::make_unique<llvm::LLVMContext>();
    codegen::CodegenOptions cg;
    cg.fastmath = kernelOptions_.fastmath;
    cg.target = codegen::Target::NVPTX;
    cg.noaliasArrays = kernelOptions_.disjointArrays && !communicates;
    if (kernelOptions_.exceptions) cg.raiseSites = &raiseSites;
    c.llvmModule = codegen::lowerKernel(*c.fn, c.callees->functions(), kernelName, *c.context, cg);
    if (kernelOptions_.launchBounds[2] > 0 && kernelOptions_.ccMajor < 9)
      unsupported(c.file, c.def ? c.def->loc : Loc{},
                  "launch_bounds: a maximum cluster size needs compute capability 9.0 or later, not " +
                      std::to_string(kernelOptions_.ccMajor) + "." + std::to_string(kernelOptions_.ccMinor));
    ptx::annotateLaunchBounds(*c.llvmModule, kernelName, kernelOptions_.launchBounds);
  }
  void optimize(pipeline::Compilation &c) override {
    if (misalignedViews || !kernelOptions_.alignedArrays) ptx::relaxAlignment(*c.llvmModule);
    ptx::optimize(*c.llvmModule, ptxTarget(kernelOptions_));
    recursive = callsOutOfLine(*c.llvmModule);
  }
  void emit(pipeline::Compilation &c) override { ptxText = ptx::emitPtx(*c.llvmModule, ptxTarget(kernelOptions_)); }
  std::string assembly() const override { return ptxText; }
  std::string ptxText;
  const KernelOptions &kernelOptions_;
  std::string kernelName;
  bool recursive = false; // the optimised module still calls a function it defines
  std::vector<std::pair<types::ExcKind, std::string>> raiseSites; // KernelOptions::exceptions

private:
  std::string symbol() const override { return "mahou_kernel_body_" + kernelName; }
  std::string calleePrefix() const override { return "mahou_dev_" + kernelName; }
};

// The CUDA emulator: the kernel compiled for the host CPU, one thread per call.
class SimTarget final : public GpuTarget {
public:
  SimTarget(const std::string &name, bool boundscheck)
      : GpuTarget(simCompileOptions(boundscheck), /*kernel=*/true), symbol_("mahou_sim_" + ptxName(name) + "_" + uniqueSuffix()) {}
  void lower(pipeline::Compilation &c) override {
    c.context = std::make_unique<llvm::LLVMContext>();
    codegen::CodegenOptions cg;
    cg.boundscheck = options_.boundscheck;
    c.llvmModule = codegen::lowerSimKernel(*c.fn, c.callees->functions(), *c.context, cg);
  }
  void optimize(pipeline::Compilation &c) override { jit::Engine::instance().optimize(*c.llvmModule); }
  void emit(pipeline::Compilation &c) override {
    entry = reinterpret_cast<EntryFn>(
        jit::Engine::instance().add(std::move(c.llvmModule), std::move(c.context), codegen::entrySymbol(symbol_)));
  }
  EntryFn entry = nullptr;

private:
  static CompileOptions simCompileOptions(bool boundscheck) {
    CompileOptions copts;
    copts.boundscheck = boundscheck;
    return copts;
  }
  std::string symbol() const override { return symbol_; }
  std::string calleePrefix() const override { return symbol_ + "_dev"; }
  std::string symbol_;
};

// cuda.compile_ptx(device=True): a device function alone, as a visible PTX .func.
class DeviceFunctionTarget final : public GpuTarget {
public:
  DeviceFunctionTarget(const std::string &name, const KernelOptions &options)
      : GpuTarget(fastmathOptions(options), /*kernel=*/false), kernelOptions_(options), symbol_(ptxName(name)),
        prefix_("mahou_dev_" + symbol_ + "_" + uniqueSuffix()) {}
  void lower(pipeline::Compilation &c) override {
    c.context = std::make_unique<llvm::LLVMContext>();
    codegen::CodegenOptions cg;
    cg.fastmath = kernelOptions_.fastmath;
    if (!kernelOptions_.cAbiName.empty()) checkCAbi(c);
    c.llvmModule = codegen::lowerDeviceFunction(*c.fn, c.callees->functions(), *c.context, cg, kernelOptions_.cAbiName);
  }
  void optimize(pipeline::Compilation &c) override {
    if (misalignedViews) ptx::relaxAlignment(*c.llvmModule);
    ptx::optimize(*c.llvmModule, ptxTarget(kernelOptions_), exported());
  }
  void emit(pipeline::Compilation &c) override { ptxText = ptx::emitPtx(*c.llvmModule, ptxTarget(kernelOptions_)); }
  std::string ptxText;
  // mahou's form: visible under the function's name, or internal beside the C ABI form.
  std::string symbol() const override { return kernelOptions_.cAbiName.empty() ? symbol_ : prefix_ + "_body"; }
  // The visible function: the C ABI form's name, or mahou's form under its symbol.
  std::string exported() const { return kernelOptions_.cAbiName.empty() ? symbol_ : kernelOptions_.cAbiName; }

private:
  // The C ABI passes and returns numbers (and bool) only.
  static void checkCAbi(const pipeline::Compilation &c) {
    auto plain = [](const types::Type &t) { return t.isNumber() && !t.isComplex(); };
    Loc at = c.def ? c.def->loc : Loc{};
    for (const types::Type &t : c.fn->argTypes)
      if (!plain(t))
        unsupported(c.file, at, "cuda.compile(abi='c'): the C ABI takes numbers, not " + t.str() + " (use abi='numba')");
    if (!c.fn->ret.isNone() && !plain(c.fn->ret))
      unsupported(c.file, at, "cuda.compile(abi='c'): the C ABI returns a number or nothing, not " + c.fn->ret.str() +
                                  " (use abi='numba')");
  }
  std::string calleePrefix() const override { return prefix_; }
  const KernelOptions &kernelOptions_;
  std::string symbol_, prefix_;
};

} // namespace

SimKernel compileSimKernel(const SourceFile &file, const std::string &name, const std::vector<types::Type> &args,
                           CompileEnvironment &env, bool boundscheck) {
  SimTarget target(name, boundscheck);
  pipeline::Compilation c(file, name, args, env);
  pipeline::run(c, target, pipeline::Step::Emit);
  SimKernel out;
  out.entry = target.entry;
  out.args = args;
  out.synchronizes = target.synchronizes;
  out.gridSync = target.gridSync;
  out.times = c.times;
  return out;
}

CompiledKernel compileKernel(const SourceFile &file, const std::string &name, const std::vector<types::Type> &args,
                             CompileEnvironment &env, const KernelOptions &options) {
  if (options.cache && !options.exceptions) { // (the raise sites are not kept on disk)
    KernelOptions once = options;
    once.cache = false;
    return cache::cachedKernel(file, name, args, env, options,
                               [&](CompileEnvironment &recording) { return compileKernel(file, name, args, recording, once); });
  }
  KernelTarget target(name, options);
  pipeline::Compilation c(file, name, args, env);
  pipeline::run(c, target, pipeline::Step::Emit);
  CompiledKernel out;
  out.ptx = std::move(target.ptxText);
  out.kernelName = target.kernelName;
  out.gridSync = target.gridSync;
  out.recursive = target.recursive;
  out.raiseSites = std::move(target.raiseSites);
  out.args = args;
  out.times = c.times;
  return out;
}

CompiledDeviceFunction compileDeviceFunction(const SourceFile &file, const std::string &name,
                                             const std::vector<types::Type> &args, CompileEnvironment &env,
                                             const KernelOptions &options) {
  DeviceFunctionTarget target(name, options);
  pipeline::Compilation c(file, name, args, env);
  pipeline::run(c, target, pipeline::Step::Emit);
  CompiledDeviceFunction out;
  out.ptx = std::move(target.ptxText);
  out.symbol = target.exported();
  out.ret = c.fn->ret;
  return out;
}

std::string emitKernelStage(const SourceFile &file, const std::string &name, const std::vector<types::Type> &args,
                            CompileEnvironment &env, const KernelOptions &options, Stage stage) {
  KernelTarget target(name, options);
  pipeline::Compilation c(file, name, args, env);
  return pipeline::dumpStage(c, target, stage, /*withHelpers=*/false);
}

} // namespace mahou
