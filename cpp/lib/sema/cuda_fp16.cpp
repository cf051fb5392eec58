// Typing of cuda.fp16 (half-precision intrinsics) inside kernels.
#include "typer.h"

namespace mahou::sema {

ExprPtr FunctionTyper::cudaFp16Call(const std::string &name, const ast::Call &e) {
  notSupported(e.loc, "cuda.fp16." + name + " is not supported yet");
}

} // namespace mahou::sema
