// Typing of advanced indexing: a[mask] and a[indices] give new arrays; a[mask] = v
// and a[indices] = v store through them; a[i0, i1, ...] with one integer index array
// per axis reads the elements at those coordinates.
#include "typer.h"

namespace mahou::sema {

std::optional<ExprPtr> FunctionTyper::arrayIndex(const ast::Expr &index) {
  switch (index.kind) {
  case ast::ExprKind::Tuple:
  case ast::ExprKind::Slice:
  case ast::ExprKind::EllipsisLit:
  case ast::ExprKind::IntLit: return std::nullopt;
  default: break;
  }
  auto v = expr(index); // typed here and again by the caller when it is not an array: pure typing
  if (!isUnknown(v) && v->type.isArray()) return v;
  return std::nullopt;
}

ExprPtr gather(Typing &t, ExprPtr base, ExprPtr index, Loc loc) {
  const Type at = base->type, it = index->type;
  Type rt;
  if (it.isBool()) t.error(loc, "internal: scalar mask");
  if (it.dtype == DType::Bool) {
    if (it.ndim != at.ndim) t.error(loc, "a boolean index must have the array's number of dimensions");
    rt = Type::array(at.dtype, 1, types::Layout::C);
  } else if (types::isInteger(it.dtype)) {
    if (at.ndim != 1) t.notSupported(loc, "indexing an N-D array with an integer array is not supported yet (1-D only)");
    rt = Type::array(at.dtype, it.ndim, types::Layout::C);
  } else {
    t.error(loc, "arrays used as indices must be of integer or boolean type, not " + std::string(types::dtypeName(it.dtype)));
  }
  t.requireHost(loc, "advanced indexing");
  auto g = std::make_unique<ir::Expr>(ir::ExprOp::ArrayGather, rt, loc);
  g->args.push_back(std::move(base));
  g->args.push_back(std::move(index));
  return g;
}

ExprPtr gatherMulti(Typing &t, ExprPtr base, std::vector<ExprPtr> indices, Loc loc) {
  const Type at = base->type;
  for (auto &i : indices) {
    if (!i->type.isArray()) { // an integer takes part as a length-1 index array would
      i = t.toInt64Index(std::move(i), "array index");
      continue;
    }
    if (i->type.dtype == DType::Bool)
      t.notSupported(i->loc, "a boolean index array together with other indices is not supported yet");
    if (!types::isInteger(i->type.dtype))
      t.error(i->loc, "arrays used as indices must be of integer or boolean type, not " + std::string(types::dtypeName(i->type.dtype)));
    if (i->type.ndim != 1) t.notSupported(i->loc, "several index arrays are supported when they are 1-D only");
  }
  if (int(indices.size()) != at.ndim)
    t.notSupported(loc, "several index arrays must index every axis of the array (one per dimension)");
  t.requireHost(loc, "advanced indexing");
  auto g = std::make_unique<ir::Expr>(ir::ExprOp::ArrayGather, Type::array(at.dtype, 1, types::Layout::C), loc);
  g->args.push_back(std::move(base));
  for (auto &i : indices) g->args.push_back(std::move(i));
  return g;
}

ir::StmtPtr scatter(Typing &t, ExprPtr base, ExprPtr index, ExprPtr value, Loc loc) {
  const Type at = base->type, it = index->type;
  if (at.readonly) t.error(loc, "cannot assign to a read-only array");
  if (it.dtype == DType::Bool) {
    if (it.ndim != at.ndim) t.error(loc, "a boolean index must have the array's number of dimensions");
  } else if (types::isInteger(it.dtype)) {
    if (at.ndim != 1) t.notSupported(loc, "assigning through an integer index array is only supported for 1-D arrays");
  } else {
    t.error(loc, "arrays used as indices must be of integer or boolean type");
  }
  if (value->type.isArray() && value->type.ndim != 1)
    t.notSupported(loc, "the value stored through an index array must be a scalar or a 1-D array");
  if (!value->type.isNumber() && !value->type.isArray()) t.error(loc, "cannot store " + value->type.str() + " into an array");
  auto st = std::make_unique<ir::Stmt>(ir::StmtOp::Scatter, loc);
  st->exprs.push_back(std::move(base));
  st->exprs.push_back(std::move(index));
  st->exprs.push_back(std::move(value));
  return st;
}

} // namespace mahou::sema
