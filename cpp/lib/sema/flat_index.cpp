// Typing of a.flat: `for x in a.flat` (in stmts.cpp, as a loop over a.size positions),
// a.flat[i] reads, a.flat[i] = v and a.flat[i] op= v stores, with i a C-order position
// of any N-D array of any layout. a.flat as a value of its own is refused.
#include "typer.h"

namespace mahou::sema {

ExprPtr FunctionTyper::flatBase(const ast::Expr &e) {
  auto *attr = e.as<ast::Attribute>();
  // a.flat: the array attribute of that typer (the registry's)
  const Entry *flat = attr ? findEntry(Receiver::Array, Member::Attribute, attr->attr) : nullptr;
  if (!flat || flat->typer != &arrayFlatAttribute) return nullptr;
  auto base = expr(*attr->value);
  if (isUnknown(base)) return unknown(e.loc);
  if (!base->type.isArray()) error(e.loc, base->type.str() + " has no attribute 'flat'");
  return base;
}

namespace {

ExprPtr flatIndex(Typing &t, const ast::Expr &index) {
  if (index.kind == ast::ExprKind::Slice || index.kind == ast::ExprKind::Tuple ||
      index.kind == ast::ExprKind::EllipsisLit)
    t.notSupported(index.loc, "a.flat[...] is supported with one integer index only");
  auto i = t.expr(index);
  if (Typing::isUnknown(i)) return i;
  if (i->type.isArray()) t.notSupported(index.loc, "a.flat[...] with an index array is not supported");
  return t.toInt64Index(std::move(i), "a.flat index");
}

} // namespace

ExprPtr flatItem(Typing &t, ExprPtr base, const ast::Expr &index, Loc loc) {
  auto i = flatIndex(t, index);
  if (t.isUnknown(base) || t.isUnknown(i)) return t.unknown(loc);
  auto item = std::make_unique<ir::Expr>(ir::ExprOp::ArrayFlatItem, Type::scalar(base->type.dtype), loc);
  item->args.push_back(std::move(base));
  item->args.push_back(std::move(i));
  return item;
}

void storeFlatItem(Typing &t, ExprPtr base, const ast::Expr &index, ExprPtr value, Loc loc, ir::Block &out) {
  auto i = flatIndex(t, index);
  if (t.isUnknown(base) || t.isUnknown(i) || t.isUnknown(value)) return;
  if (base->type.readonly) t.error(loc, "cannot assign to an item of a read-only array");
  if (!value->type.isNumber() && !value->type.isDatetimeLike())
    t.error(loc, "cannot store " + value->type.str() + " into an array of " + types::dtypeName(base->type.dtype));
  auto st = std::make_unique<ir::Stmt>(ir::StmtOp::StoreFlatItem, loc);
  Type elem = Type::scalar(base->type.dtype);
  st->exprs.push_back(std::move(base));
  st->exprs.push_back(std::move(i));
  st->exprs.push_back(t.convert(t.storedScalar(std::move(value), elem.dtype, loc, true), elem, "array store"));
  out.push_back(std::move(st));
}

void FunctionTyper::augAssignFlat(ExprPtr base, const ast::AugAssign &s, ir::Block &out) {
  auto *sub = s.target->as<ast::Subscript>();
  auto i = flatIndex(*this, *sub->index);
  if (isUnknown(base) || isUnknown(i)) return;
  if (base->type.readonly) error(s.loc, "cannot assign to an item of a read-only array");
  // The array and the index are evaluated once.
  int arr = tempVar(base->type, s.loc);
  out.push_back(assignVar(arr, std::move(base), s.loc));
  int idx = tempVar(Type::int64(), s.loc);
  out.push_back(assignVar(idx, std::move(i), s.loc));
  const Type at = vars_[arr].type;
  auto item = std::make_unique<ir::Expr>(ir::ExprOp::ArrayFlatItem, Type::scalar(at.dtype), s.loc);
  item->args.push_back(load(arr, s.loc));
  item->args.push_back(load(idx, s.loc));
  auto value = binary(s.op, std::move(item), expr(*s.value), s.loc);
  if (isUnknown(value)) return;
  if (!value->type.isNumber() && !value->type.isDatetimeLike()) error(s.loc, "cannot store " + value->type.str() + " into an array");
  auto st = std::make_unique<ir::Stmt>(ir::StmtOp::StoreFlatItem, s.loc);
  st->exprs.push_back(load(arr, s.loc));
  st->exprs.push_back(load(idx, s.loc));
  st->exprs.push_back(convert(storedScalar(std::move(value), at.dtype, s.loc, true), Type::scalar(at.dtype), "array store"));
  out.push_back(std::move(st));
}

} // namespace mahou::sema
