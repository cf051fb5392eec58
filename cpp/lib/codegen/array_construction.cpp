// Lowering of arrays built from values: np.array([x, y, ...]) and nested literals.
#include "lowering.h"

namespace mahou::codegen {

Value FunctionLowering::arrayLiteral(const ir::Expr &e) {
  size_t nd = size_t(e.sub);
  std::vector<llvm::Value *> extents;
  for (size_t k = 0; k < nd; ++k) extents.push_back(scalarExpr(*e.args[k]));
  Type elem = Type::scalar(e.type.dtype);
  // The elements first (one may raise): no array is allocated until they are all known.
  std::vector<llvm::Value *> values;
  for (size_t i = nd; i < e.args.size(); ++i) values.push_back(toMem(scalarExpr(*e.args[i]), elem));
  llvm::Value *out = allocateArray(e.type, extents);
  llvm::Type *mt = types_.mem(elem);
  llvm::Value *data = arrayData(out);
  for (size_t i = 0; i < values.size(); ++i) b_.CreateStore(values[i], b_.CreateInBoundsGEP(mt, data, c64(int64_t(i))));
  return {out, true};
}

} // namespace mahou::codegen
