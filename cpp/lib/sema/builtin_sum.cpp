// sum(iterable, start) and sum(iterable, start=s): Python's left-to-right accumulation
// starting from `start` (a tuple's items unrolled, any other iterable looped over; a
// list display, a comprehension or a call's result is made a list first, as sum() of one is). The accumulator
// is a variable of the call site, so its type widens as a variable's does (an int start
// over floats gives a float). Strings are refused as Python refuses them.
#include "sema/typers.h"
#include "mahou/literal_dict_type.h"

namespace mahou::sema {

ExprPtr sumWithStart(Use &u) {
  Typing &t = u.t;
  const ast::Call &e = *u.call;
  t.checkKeywords(e, {"start"}, "sum");
  const ast::Expr *startKeyword = t.keyword(e, "start");
  if (e.args.empty() || e.args.size() > 2 || (e.args.size() == 2 && startKeyword))
    t.error(e.loc, "sum() takes an iterable and an optional start value");
  for (auto &a : e.args)
    if (a->kind == ast::ExprKind::Starred) t.notSupported(a->loc, "sum(*args) is not supported");
  const ast::Expr &iterable = *e.args[0];
  const ast::Expr &startAst = e.args.size() == 2 ? *e.args[1] : *startKeyword;

  auto stmts = std::make_shared<ir::Block>();
  auto *c = iterable.as<ast::Comprehension>();
  // A list display, a comprehension or a t.call (range(), a generator, ...): its items as a list.
  bool listLike = iterable.kind == ast::ExprKind::List || iterable.kind == ast::ExprKind::Call ||
                  (c && c->comp != ast::CompKind::Set && c->comp != ast::CompKind::Dict);
  ExprPtr items = listLike ? t.listFromAst(iterable, iterable.loc) : t.expr(iterable);
  if (t.isUnknown(items)) return t.unknown(e.loc);
  if (types::isLiteralDict(items->type)) items = literalDictIterable(t, std::move(items), e.loc); // its keys, values...
  if (items->type.isArray() && items->type.ndim != 1)
    t.notSupported(e.loc, "sum() over a " + std::to_string(items->type.ndim) + "-D array is not supported (use np.sum)");
  int held = t.holdInTemp(std::move(items), e.loc, *stmts);
  ExprPtr start = t.expr(startAst);
  if (t.isUnknown(start)) return t.unknown(e.loc);
  if (start->type.kind == Kind::Str || start->type.isUnicode())
    t.error(startAst.loc, "sum() can't sum strings [use ''.join(seq) instead]");
  if (!start->type.isNumber()) t.notSupported(startAst.loc, "sum() with a start value of type " + start->type.str());

  int acc = t.hiddenVar("$sum@" + std::to_string(e.loc.line) + ":" + std::to_string(e.loc.col));
  stmts->push_back(t.assignVar(acc, std::move(start), e.loc));
  auto add = [&](ExprPtr x, ir::Block &body) {
    if (!t.isUnknown(x) && !x->type.isNumber()) t.error(e.loc, "sum() of items of type " + x->type.str() + " is not supported");
    body.push_back(t.assignVar(acc, t.binary(ast::BinOpKind::Add, t.load(acc, e.loc), std::move(x), e.loc), e.loc));
  };
  const Type itemsType = t.varType(held);
  if (itemsType.isTuple()) {
    refuseSlice(t, itemsType, e.loc, "is not iterable");
    for (size_t i = 0; i < itemsType.elems.size(); ++i) {
      auto g = std::make_unique<ir::Expr>(ir::ExprOp::TupleGet, itemsType.elems[i], e.loc);
      g->ival = int64_t(i);
      g->args.push_back(t.load(held, e.loc));
      add(std::move(g), *stmts);
    }
  } else {
    t.forEachValue(t.load(held, e.loc), e.loc, add, *stmts);
  }
  return t.seqExpr(std::move(stmts), t.load(acc, e.loc), e.loc);
}

} // namespace mahou::sema
