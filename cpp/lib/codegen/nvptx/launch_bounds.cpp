// cuda.jit(launch_bounds=...): the kernel's NVVM annotations maxntidx, minctasm and
// maxclusterrank, which the NVPTX back end prints as PTX's .maxntid, .minnctapersm and
// .maxclusterrank directives (ptxas then budgets registers for that many threads).
#include "mahou/ptx.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>

namespace mahou::ptx {

void annotateLaunchBounds(llvm::Module &module, const std::string &kernelName, const std::array<int, 3> &bounds) {
  llvm::Function *kernel = module.getFunction(kernelName);
  if (!kernel) return;
  llvm::LLVMContext &ctx = module.getContext();
  llvm::NamedMDNode *annotations = module.getOrInsertNamedMetadata("nvvm.annotations");
  static const char *const keys[] = {"maxntidx", "minctasm", "maxclusterrank"};
  for (size_t i = 0; i < bounds.size(); ++i) {
    if (bounds[i] <= 0) continue;
    llvm::Metadata *md[] = {llvm::ValueAsMetadata::get(kernel), llvm::MDString::get(ctx, keys[i]),
                            llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(ctx), bounds[i]))};
    annotations->addOperand(llvm::MDNode::get(ctx, md));
  }
}

} // namespace mahou::ptx
