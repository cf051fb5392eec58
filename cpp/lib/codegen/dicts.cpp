// Lowering of the dict and set operations of the `object` expression.
#include "lowering.h"

namespace mahou::codegen {

Value FunctionLowering::hashedOp(const ir::Expr &e) {
  internalError(std::string("dict/set operation ") + ir::objectOpName(ir::ObjectOp(e.sub)) + " is not lowered");
}

} // namespace mahou::codegen
