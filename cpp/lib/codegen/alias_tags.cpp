// Type-based alias tags: array elements and @jitclass instance fields live in distinct
// memory (an instance's payload is never an array's data), so a store to one never
// changes the other and LLVM may hoist field reads out of loops that write arrays.
#include "lowering.h"

#include <llvm/IR/MDBuilder.h>

namespace mahou::codegen {

// One TBAA tree per module: a root with two scalar types under it. Metadata nodes are
// uniqued by the context, so building them again yields the same nodes.
void FunctionLowering::tagMemory(llvm::Instruction *access, MemoryKind kind) {
  llvm::MDBuilder md(ctx());
  llvm::MDNode *root = md.createTBAARoot("mahou memory");
  llvm::MDNode *type =
      md.createTBAAScalarTypeNode(kind == MemoryKind::ArrayElement ? "array element" : "instance field", root);
  access->setMetadata(llvm::LLVMContext::MD_tbaa, md.createTBAAStructTagNode(type, type, 0));
}

} // namespace mahou::codegen
