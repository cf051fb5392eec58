// Comparisons of tuples as Python does them: == and != item by item (tuples of other
// lengths, or items that cannot be equal, compare unequal), and <, <=, >, >= in
// lexicographic order: the first items that differ decide, else the lengths do.
#include "typer.h"
#include "mahou/range_type.h"

namespace mahou::sema {

namespace {

ExprPtr boolConst(Loc loc, bool v) { return ir::makeConst(Type::boolean(), loc, v ? 1 : 0); }

ExprPtr notOf(ExprPtr a, Loc loc) {
  auto n = std::make_unique<ir::Expr>(ir::ExprOp::Unary, Type::boolean(), loc);
  n->sub = int(ir::UnaryOp::Not);
  n->args.push_back(std::move(a));
  return n;
}

ExprPtr item(const std::function<ExprPtr()> &tuple, const Type &t, size_t i, Loc loc) {
  auto g = std::make_unique<ir::Expr>(ir::ExprOp::TupleGet, t.elems[i], loc);
  g->ival = int64_t(i);
  g->args.push_back(tuple());
  return g;
}

} // namespace

bool canBeEqual(const Type &a, const Type &b) {
  if (a.isNumber() && b.isNumber()) return true;
  if (a.isTuple() && b.isTuple()) return true;
  if (a.isNone() && b.isNone()) return true;
  if (a.kind == Kind::DTypeObj && b.kind == Kind::DTypeObj) return true; // compared by their types
  if (a.isString() && b.isString()) return true;
  if (a.isOptional() || b.isOptional()) return true; // compareOne looks inside
  return a.isObject() && a.kind == b.kind;
}

ExprPtr tupleCompare(Typing &t, ast::CmpOpKind op, ExprPtr lhs, ExprPtr rhs, Loc loc) {
  const Type a = lhs->type, b = rhs->type;
  if (types::isRange(a) || types::isRange(b)) t.notSupported(loc, "comparing range objects is not supported");
  if (a.containsClosure() || b.containsClosure()) t.notSupported(loc, "comparing inner functions is not supported");
  for (const Type *side : {&a, &b})
    for (const Type &e : side->elems)
      if (e.isArray())
        t.notSupported(loc, "comparing tuples that hold arrays is not supported (the truth value of an array "
                          "is ambiguous)");
  bool equality = op == ast::CmpOpKind::Eq || op == ast::CmpOpKind::NotEq;
  return t.bindOnce(std::move(lhs), [&](const std::function<ExprPtr()> &l) {
    return t.bindOnce(std::move(rhs), [&](const std::function<ExprPtr()> &r) -> ExprPtr {
      size_t n = std::min(a.elems.size(), b.elems.size());
      if (equality) {
        ExprPtr all = boolConst(loc, a.elems.size() == b.elems.size());
        if (a.elems.size() == b.elems.size())
          for (size_t i = n; i-- > 0;) {
            ExprPtr eq = canBeEqual(a.elems[i], b.elems[i])
                             ? t.compareOne(ast::CmpOpKind::Eq, item(l, a, i, loc), item(r, b, i, loc), loc)
                             : boolConst(loc, false);
            all = ir::makeBoolOp(false, std::move(eq), std::move(all), loc);
          }
        return op == ast::CmpOpKind::Eq ? std::move(all) : notOf(std::move(all), loc);
      }
      // Lexicographic: from the last item backwards, result_i = (a_i OP' b_i) or
      // (a_i == b_i and result_{i+1}), where OP' is strict and the end compares lengths.
      ast::CmpOpKind strict = op == ast::CmpOpKind::LtE ? ast::CmpOpKind::Lt
                              : op == ast::CmpOpKind::GtE ? ast::CmpOpKind::Gt
                                                          : op;
      int64_t la = int64_t(a.elems.size()), lb = int64_t(b.elems.size());
      ExprPtr acc = t.compareOne(op, ir::makeConst(Type::int64(), loc, la), ir::makeConst(Type::int64(), loc, lb), loc);
      for (size_t i = n; i-- > 0;) {
        const Type &x = a.elems[i], &y = b.elems[i];
        if (!((x.isNumber() && y.isNumber()) || (x.isTuple() && y.isTuple()) || (x.isString() && y.isString())))
          t.error(loc, "'" + std::string(ast::cmpOpSymbol(op)) + "' is not supported between items " + x.str() +
                         " and " + y.str() + " of the tuples");
        ExprPtr less = t.compareOne(strict, item(l, a, i, loc), item(r, b, i, loc), loc);
        ExprPtr same = t.compareOne(ast::CmpOpKind::Eq, item(l, a, i, loc), item(r, b, i, loc), loc);
        acc = ir::makeBoolOp(true, std::move(less), ir::makeBoolOp(false, std::move(same), std::move(acc), loc), loc);
      }
      return acc;
    });
  });
}

} // namespace mahou::sema
