// A walk over a typed body that refuses every use of a restricted kind of value (records,
// buffers) outside the operations that take it: an expression whose operand is restricted
// and that the policy does not accept, or a statement outside those the policy allows.
// The policy (records.cpp, buffers.cpp) says what is restricted and what takes it.
#pragma once

#include "typer.h"

#include <string>

namespace mahou::sema {

// Policy: bool restricted(const Type &); bool takes(const ir::Expr &); bool allows(const
// ir::Stmt &) (a statement whose expressions may be restricted values); void visit(const
// ir::Stmt &) (checks of its own, before the walk); [[noreturn]] void refuse(Loc, const
// Type &, const std::string &op).
template <class Policy> struct UseChecker {
  const Policy &policy;

  void expr(const ir::Expr &e) const {
    bool ok = policy.takes(e);
    for (auto &a : e.args) {
      if (!ok && policy.restricted(a->type)) policy.refuse(e.loc, a->type, ir::exprOpName(e.op));
      expr(*a);
    }
    for (auto &s : e.slots)
      for (auto *x : {s.start.get(), s.stop.get(), s.step.get(), s.index.get()})
        if (x) expr(*x);
    if (e.body) block(*e.body);
  }

  void block(const ir::Block &b) const {
    for (auto &s : b) {
      policy.visit(*s);
      bool ok = policy.allows(*s);
      for (auto &x : s->exprs) {
        if (!ok && policy.restricted(x->type)) policy.refuse(s->loc, x->type, ir::stmtOpName(s->op));
        expr(*x);
      }
      block(s->body);
      block(s->orelse);
    }
  }
};

} // namespace mahou::sema
