// GPU modules: the kernel entry (flattened parameters, global-memory data
// pointers, the NVVM kernel annotation) around the lowered kernel body and the
// device functions it calls.
#include "lowering.h"

#include "mahou/ptx.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

namespace mahou::codegen {

namespace {

// Kernel parameters of one argument (compiler.h documents the order).
void appendParams(TypeMapper &types, const Type &t, std::vector<llvm::Type *> &params) {
  auto &ctx = types.ctx();
  if (t.isArray()) {
    params.push_back(llvm::PointerType::get(ctx, 0));
    for (int k = 0; k < 2 * t.ndim; ++k) params.push_back(llvm::Type::getInt64Ty(ctx));
    return;
  }
  params.push_back(types.mem(t));
}

} // namespace

std::unique_ptr<llvm::Module> lowerKernel(const ir::Function &fn, const std::vector<const ir::Function *> &deviceFns,
                                          const std::string &kernelName, llvm::LLVMContext &ctx,
                                          const CodegenOptions &options) {
  auto module = std::make_unique<llvm::Module>(kernelName, ctx);
  ptx::prepareModule(*module);
  CodegenOptions gpuOptions = options;
  gpuOptions.target = Target::NVPTX;
  std::vector<llvm::Function *> bodies;
  bodies.push_back(FunctionLowering(fn, *module, gpuOptions).run());
  for (auto *d : deviceFns) bodies.push_back(FunctionLowering(*d, *module, gpuOptions).run());
  for (auto *f : bodies) {
    f->setLinkage(llvm::GlobalValue::InternalLinkage);
    f->addFnAttr(llvm::Attribute::AlwaysInline);
  }

  TypeMapper types(ctx);
  std::vector<llvm::Type *> params;
  for (auto &t : fn.argTypes) appendParams(types, t, params);
  auto *fty = llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), params, false);
  auto *kernel = llvm::Function::Create(fty, llvm::Function::ExternalLinkage, kernelName, *module);
  kernel->setCallingConv(llvm::CallingConv::PTX_Kernel);
  kernel->addFnAttr(llvm::Attribute::NoUnwind);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", kernel));
  std::vector<llvm::Value *> args;
  auto *ret = b.CreateAlloca(types.mem(Type::none()));
  args.push_back(ret);
  unsigned p = 0;
  auto *ptr = llvm::PointerType::get(ctx, 0);
  for (auto &t : fn.argTypes) {
    if (t.isArray()) {
      // Device arrays live in global memory: say so, so loads become ld.global.
      // With noalias (the launch checked the arrays are disjoint), stores through one array
      // no longer force reloads from another, and read-only arrays load through the
      // non-coherent cache (ld.global.nc).
      if (options.noaliasArrays) kernel->addParamAttr(p, llvm::Attribute::NoAlias);
      llvm::Value *data = kernel->getArg(p++);
      data = b.CreateAddrSpaceCast(b.CreateAddrSpaceCast(data, llvm::PointerType::get(ctx, 1)), ptr);
      llvm::Value *arr = llvm::UndefValue::get(types.array(t.ndim));
      arr = b.CreateInsertValue(arr, llvm::ConstantPointerNull::get(ptr), {0u});
      arr = b.CreateInsertValue(arr, llvm::ConstantPointerNull::get(ptr), {1u});
      arr = b.CreateInsertValue(arr, data, {2u});
      for (int k = 0; k < t.ndim; ++k) arr = b.CreateInsertValue(arr, kernel->getArg(p++), {3u, unsigned(k)});
      for (int k = 0; k < t.ndim; ++k) arr = b.CreateInsertValue(arr, kernel->getArg(p++), {4u, unsigned(k)});
      args.push_back(arr);
      continue;
    }
    llvm::Value *v = kernel->getArg(p++);
    if (t.isBool()) v = b.CreateICmpNE(v, b.getInt8(0));
    args.push_back(v);
  }
  b.CreateCall(bodies[0], args); // a raised exception ends the thread's work
  b.CreateRetVoid();

  llvm::Metadata *md[] = {llvm::ValueAsMetadata::get(kernel), llvm::MDString::get(ctx, "kernel"),
                          llvm::ConstantAsMetadata::get(b.getInt32(1))};
  module->getOrInsertNamedMetadata("nvvm.annotations")->addOperand(llvm::MDNode::get(ctx, md));

  std::string err;
  llvm::raw_string_ostream os(err);
  if (llvm::verifyModule(*module, &os)) internalError("LLVM verifier failed for kernel " + fn.name + ": " + os.str());
  return module;
}

namespace {

// The C ABI form of a device function (cuda.compile(abi="c")): `ret name(args...)`
// calling mahou's form, whose status it drops (a device function's raise only ends the
// thread's work). Numbers only: bool travels as a byte, as in C.
void emitCAbiWrapper(llvm::Module &module, const ir::Function &fn, llvm::Function *inner, const std::string &name) {
  auto &ctx = module.getContext();
  TypeMapper types(ctx);
  std::vector<llvm::Type *> params;
  for (const Type &t : fn.argTypes) params.push_back(types.mem(t));
  llvm::Type *ret = fn.ret.isNone() ? llvm::Type::getVoidTy(ctx) : types.mem(fn.ret);
  auto *wrapper = llvm::Function::Create(llvm::FunctionType::get(ret, params, false),
                                         llvm::GlobalValue::ExternalLinkage, name, module);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", wrapper));
  llvm::Type *slotTy = fn.ret.isNone() ? llvm::Type::getInt8Ty(ctx) : types.ssa(fn.ret);
  llvm::Value *slot = b.CreateAlloca(slotTy);
  std::vector<llvm::Value *> args{slot};
  for (size_t i = 0; i < fn.argTypes.size(); ++i) {
    llvm::Value *a = wrapper->getArg(unsigned(i));
    args.push_back(fn.argTypes[i].isBool() ? b.CreateICmpNE(a, llvm::ConstantInt::get(a->getType(), 0)) : a);
  }
  b.CreateCall(inner, args);
  if (fn.ret.isNone()) {
    b.CreateRetVoid();
    return;
  }
  llvm::Value *v = b.CreateLoad(slotTy, slot);
  b.CreateRet(fn.ret.isBool() ? b.CreateZExt(v, ret) : v);
}

} // namespace

std::unique_ptr<llvm::Module> lowerDeviceFunction(const ir::Function &fn, const std::vector<const ir::Function *> &callees,
                                                  llvm::LLVMContext &ctx, const CodegenOptions &options,
                                                  const std::string &cAbiName) {
  auto module = std::make_unique<llvm::Module>(fn.symbol, ctx);
  ptx::prepareModule(*module);
  CodegenOptions gpuOptions = options;
  gpuOptions.target = Target::NVPTX;
  llvm::Function *body = FunctionLowering(fn, *module, gpuOptions).run(); // external: the PTX's visible .func
  for (auto *d : callees) FunctionLowering(*d, *module, gpuOptions).run()->setLinkage(llvm::GlobalValue::InternalLinkage);
  if (!cAbiName.empty()) { // the C ABI form is the visible one
    body->setLinkage(llvm::GlobalValue::InternalLinkage);
    body->addFnAttr(llvm::Attribute::AlwaysInline);
    emitCAbiWrapper(*module, fn, body, cAbiName);
  }
  std::string err;
  llvm::raw_string_ostream os(err);
  if (llvm::verifyModule(*module, &os)) internalError("LLVM verifier failed for device function " + fn.name + ": " + os.str());
  return module;
}

std::unique_ptr<llvm::Module> lowerSimKernel(const ir::Function &fn, const std::vector<const ir::Function *> &deviceFns,
                                             llvm::LLVMContext &ctx, const CodegenOptions &options) {
  auto module = std::make_unique<llvm::Module>(fn.symbol, ctx);
  CodegenOptions sim = options;
  sim.target = Target::CPU;
  sim.simulateGpu = true;
  llvm::Function *inner = FunctionLowering(fn, *module, sim).run();
  for (auto *d : deviceFns) FunctionLowering(*d, *module, sim).run()->setLinkage(llvm::GlobalValue::InternalLinkage);
  TypeMapper types(ctx);
  emitEntry(*module, types, fn, inner, /*inlineInner=*/!hasLoops(*module));
  std::string err;
  llvm::raw_string_ostream os(err);
  if (llvm::verifyModule(*module, &os)) internalError("LLVM verifier failed for simulated kernel " + fn.name + ": " + os.str());
  return module;
}

} // namespace mahou::codegen
