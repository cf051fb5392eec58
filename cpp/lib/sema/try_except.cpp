// Typing of try/except/else/finally. The protected body becomes a TryExcept whose
// handler tests the pending exception against each except clause in order
// (ExcMatch), moves it into a slot of the frame (SaveError) and runs the clause, or
// re-raises it; a bare `raise` in the clause restores it (RestoreError) and re-raises.
// `else` runs under a hidden flag set at the end of the body; `finally` runs after a
// TryExcept that records whether an exception is in flight (saved in a slot, so that
// code in the finally block may raise and catch others), then restores and re-raises it.
// A break/continue leaving a try with `finally` leaves a one-trip loop around its body
// (recording which in a hidden variable), runs the finally block, then is taken.
#include "typer.h"

namespace mahou::sema {

namespace {

ir::StmtPtr makeStmt(ir::StmtOp op, Loc loc) { return std::make_unique<ir::Stmt>(op, loc); }

// A return inside a try with `finally` would have to run the finally block on the way
// out: refused. Whether a break/continue leaves the try (one not inside a loop of its own).
bool checkFinallyExits(const FunctionTyper &t, const ast::Body &body, bool inLoop) {
  bool leaves = false;
  for (auto &s : body) {
    switch (s->kind) {
    case ast::StmtKind::Return:
      t.notSupported(s->loc, "'return' inside a try statement with 'finally' is not supported");
    case ast::StmtKind::Yield: // a generator dropped there would have to run the finally block
      t.notSupported(s->loc, "'yield' inside a try statement with 'finally' is not supported");
    case ast::StmtKind::Break:
    case ast::StmtKind::Continue: leaves |= !inLoop; break;
    case ast::StmtKind::If:
      leaves |= checkFinallyExits(t, s->as<ast::If>()->body, inLoop);
      leaves |= checkFinallyExits(t, s->as<ast::If>()->orelse, inLoop);
      break;
    case ast::StmtKind::For:
      checkFinallyExits(t, s->as<ast::For>()->body, true);
      leaves |= checkFinallyExits(t, s->as<ast::For>()->orelse, inLoop);
      break;
    case ast::StmtKind::While:
      checkFinallyExits(t, s->as<ast::While>()->body, true);
      leaves |= checkFinallyExits(t, s->as<ast::While>()->orelse, inLoop);
      break;
    case ast::StmtKind::Try: {
      auto *tr = s->as<ast::Try>();
      leaves |= checkFinallyExits(t, tr->body, inLoop);
      leaves |= checkFinallyExits(t, tr->orelse, inLoop);
      leaves |= checkFinallyExits(t, tr->finalbody, inLoop);
      for (auto &h : tr->handlers) leaves |= checkFinallyExits(t, h.body, inLoop);
      break;
    }
    default: break;
    }
  }
  return leaves;
}

} // namespace

void FunctionTyper::tryStmt(const ast::Try &s, ir::Block &out) {
  if (gpu_) notSupported(s.loc, "try/except is not supported in CUDA kernels");
  // A break/continue that leaves a try with `finally` sets exitVar and leaves a one-trip
  // loop around the try's body; the finally block runs, then the break or continue is taken.
  int exitVar = -1;
  if (!s.finalbody.empty()) {
    bool leaves = checkFinallyExits(*this, s.body, false);
    leaves |= checkFinallyExits(*this, s.orelse, false);
    for (auto &h : s.handlers) leaves |= checkFinallyExits(*this, h.body, false);
    if (leaves && loopDepth_ > 0) {
      exitVar = tempVar(Type::int64(), s.loc);
      out.push_back(assignVar(exitVar, ir::makeConst(Type::int64(), s.loc, 0), s.loc));
      finallyExits_.push_back({exitVar, loopDepth_});
    }
  }
  ir::Block inner; // try / except / else
  if (s.handlers.empty()) {
    block(s.body, inner);
  } else {
    int okVar = -1;
    if (!s.orelse.empty()) {
      okVar = tempVar(Type::boolean(), s.loc);
      inner.push_back(assignVar(okVar, ir::makeConst(Type::boolean(), s.loc, 0), s.loc));
    }
    auto tr = makeStmt(ir::StmtOp::TryExcept, s.loc);
    block(s.body, tr->body);
    if (okVar >= 0) tr->body.push_back(assignVar(okVar, ir::makeConst(Type::boolean(), s.loc, 1), s.loc));
    ++handlerDepth_;
    ir::Block *chain = &tr->orelse;
    bool caughtAll = false;
    for (auto &h : s.handlers) {
      if (!h.name.empty())
        notSupported(h.loc, "'except ... as " + h.name +
                                "' is not supported (exception objects are not available in compiled code)");
      // The classes this clause catches; none: all of them.
      std::vector<types::ExcKind> kinds;
      bool all = !h.type;
      if (h.type) {
        std::vector<const ast::Expr *> items;
        if (auto *tu = h.type->as<ast::Tuple>())
          for (auto &e : tu->elts) items.push_back(e.get());
        else items.push_back(h.type.get());
        for (auto *item : items) {
          auto c = expr(*item);
          if (c->type.kind != Kind::ExcClass)
            notSupported(item->loc, "except clauses must name builtin exception classes (ValueError, ...), not " +
                                        c->type.str());
          if (c->type.exc == types::ExcKind::Exception) all = true;
          kinds.push_back(c->type.exc);
        }
      }
      ir::Block body;
      int slot = errorSlotCounter_++;
      auto save = makeStmt(ir::StmtOp::SaveError, h.loc);
      save->var = slot;
      body.push_back(std::move(save));
      handlerSlots_.push_back(slot);
      block(h.body, body);
      handlerSlots_.pop_back();
      if (all) {
        for (auto &st : body) chain->push_back(std::move(st));
        caughtAll = true;
        break;
      }
      ExprPtr cond;
      for (auto k : kinds) {
        auto m = std::make_unique<ir::Expr>(ir::ExprOp::ExcMatch, Type::boolean(), h.loc);
        m->ival = int64_t(k);
        if (!cond) {
          cond = std::move(m);
          continue;
        }
        auto sc = std::make_unique<ir::Expr>(ir::ExprOp::ShortCircuit, Type::boolean(), h.loc);
        sc->sub = 1;
        sc->args.push_back(std::move(cond));
        sc->args.push_back(std::move(m));
        cond = std::move(sc);
      }
      auto ifs = makeStmt(ir::StmtOp::If, h.loc);
      ifs->exprs.push_back(std::move(cond));
      ifs->body = std::move(body);
      chain->push_back(std::move(ifs));
      chain = &chain->back()->orelse;
    }
    if (!caughtAll) chain->push_back(makeStmt(ir::StmtOp::Reraise, s.loc));
    --handlerDepth_;
    inner.push_back(std::move(tr));
    if (okVar >= 0) {
      auto ifs = makeStmt(ir::StmtOp::If, s.loc);
      ifs->exprs.push_back(load(okVar, s.loc));
      block(s.orelse, ifs->body);
      inner.push_back(std::move(ifs));
    }
  }
  if (exitVar >= 0) {
    finallyExits_.pop_back();
    auto once = makeStmt(ir::StmtOp::While, s.loc);
    once->exprs.push_back(ir::makeConst(Type::boolean(), s.loc, 1));
    once->body = std::move(inner);
    once->body.push_back(makeStmt(ir::StmtOp::Break, s.loc));
    inner.clear();
    inner.push_back(std::move(once));
  }
  if (s.finalbody.empty()) {
    for (auto &st : inner) out.push_back(std::move(st));
    return;
  }
  int raised = tempVar(Type::boolean(), s.loc);
  out.push_back(assignVar(raised, ir::makeConst(Type::boolean(), s.loc, 0), s.loc));
  auto tr = makeStmt(ir::StmtOp::TryExcept, s.loc);
  tr->body = std::move(inner);
  int slot = errorSlotCounter_++;
  tr->orelse.push_back(assignVar(raised, ir::makeConst(Type::boolean(), s.loc, 1), s.loc));
  auto save = makeStmt(ir::StmtOp::SaveError, s.loc);
  save->var = slot;
  tr->orelse.push_back(std::move(save));
  out.push_back(std::move(tr));
  block(s.finalbody, out);
  auto ifs = makeStmt(ir::StmtOp::If, s.loc);
  ifs->exprs.push_back(load(raised, s.loc));
  auto restore = makeStmt(ir::StmtOp::RestoreError, s.loc);
  restore->var = slot;
  ifs->body.push_back(std::move(restore));
  ifs->body.push_back(makeStmt(ir::StmtOp::Reraise, s.loc));
  out.push_back(std::move(ifs));
  if (exitVar < 0) return;
  for (int how : {1, 2}) { // the break or continue the body asked for, through any outer finally
    auto taken = makeStmt(ir::StmtOp::If, s.loc);
    taken->exprs.push_back(compareOne(ast::CmpOpKind::Eq, load(exitVar, s.loc), ir::makeConst(Type::int64(), s.loc, how), s.loc));
    loopExit(how == 1, s.loc, taken->body);
    out.push_back(std::move(taken));
  }
}

void FunctionTyper::loopExit(bool isBreak, Loc loc, ir::Block &out) {
  if (!finallyExits_.empty() && finallyExits_.back().depth == loopDepth_) {
    out.push_back(assignVar(finallyExits_.back().var, ir::makeConst(Type::int64(), loc, isBreak ? 1 : 2), loc));
    out.push_back(makeStmt(ir::StmtOp::Break, loc));
    return;
  }
  out.push_back(makeStmt(isBreak ? ir::StmtOp::Break : ir::StmtOp::Continue, loc));
}

} // namespace mahou::sema
