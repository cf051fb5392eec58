// The truth of a test (if, while, assert, conditional expressions, comprehension
// filters): `a and b` / `a or b` there is the short circuit of the operands' truths,
// whatever their types (`if xs and xs[-1] == i` with a list), `not` negates, and an
// operand known at compile time decides without typing the rest (Numba's branch pruning:
// `if b is not None and b.shape[0] > 2` with b None types nothing after the `and`).
#include "typer.h"

namespace mahou::sema {

ExprPtr FunctionTyper::condition(const ast::Expr &e) {
  if (auto *b = e.as<ast::BoolOp>()) {
    bool isOr = b->op == ast::BoolOpKind::Or;
    std::vector<ExprPtr> parts;
    auto chain = [&]() {
      ExprPtr acc = std::move(parts.back());
      for (int i = int(parts.size()) - 2; i >= 0; --i)
        acc = ir::makeShortCircuit(isOr, std::move(parts[size_t(i)]), std::move(acc), e.loc);
      return acc;
    };
    // The effects of operands known at compile time that did not decide (True in an
    // `and`): they run before the next operand, if the chain reaches it.
    auto pending = std::make_shared<ir::Block>();
    for (auto &v : b->values) {
      auto c = condition(*v);
      if (isUnknown(c)) return unknown(e.loc);
      ir::Block effects;
      if (auto known = knownCondition(c, effects)) {
        for (ir::StmtPtr &s : effects) pending->push_back(std::move(s));
        if (*known != isOr) continue; // True in an `and`, False in an `or`: no say in the value
        // decided here
        ExprPtr decided = ir::makeConst(Type::boolean(), e.loc, isOr);
        bool canRaise = !pending->empty();
        for (auto &p : parts) canRaise |= p->op != ir::ExprOp::Const && p->op != ir::ExprOp::LoadVar;
        if (!canRaise) return decided;
        if (parts.empty()) return seqExpr(std::move(pending), std::move(decided), e.loc);
        // the operands before it still run, short-circuited, as Python evaluates them
        // (`x % n < 3 and False` raises ZeroDivisionError when n is 0), and this one's
        // effects when the chain reaches it
        if (!pending->empty())
          parts.push_back(seqExpr(std::move(pending), ir::makeConst(Type::boolean(), e.loc, isOr), e.loc));
        auto stmts = std::make_shared<ir::Block>();
        stmts->push_back(ir::makeEval(chain(), e.loc));
        return seqExpr(std::move(stmts), std::move(decided), e.loc);
      }
      if (!pending->empty()) {
        c = seqExpr(std::move(pending), std::move(c), e.loc);
        pending = std::make_shared<ir::Block>();
      }
      parts.push_back(std::move(c));
    }
    if (parts.empty()) {
      ExprPtr value = ir::makeConst(Type::boolean(), e.loc, !isOr);
      return pending->empty() ? std::move(value) : seqExpr(std::move(pending), std::move(value), e.loc);
    }
    if (!pending->empty()) // the last operands' effects, when the chain reaches them
      parts.push_back(seqExpr(std::move(pending), ir::makeConst(Type::boolean(), e.loc, !isOr), e.loc));
    return chain();
  }
  if (auto *u = e.as<ast::UnaryOp>(); u && u->op == ast::UnaryOpKind::Not) {
    auto c = condition(*u->operand);
    if (isUnknown(c)) return c;
    if (ir::Expr *known = knownConditionValue(c)) { // after its effects, if any
      known->ival = known->ival == 0;
      return c;
    }
    auto n = std::make_unique<ir::Expr>(ir::ExprOp::Unary, Type::boolean(), e.loc);
    n->sub = int(ir::UnaryOp::Not);
    n->args.push_back(std::move(c));
    return n;
  }
  return truth(expr(e));
}

} // namespace mahou::sema
