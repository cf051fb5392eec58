// Typing of generators: `yield` statements in a generator function (their items unify
// into one yield type; the function's result is Generator(yield type)), and the
// consumers of a generator value (loops, next()). A loop over a generator is
//   while gennext.resume(g): x = gennext.item(g); body
// so break, continue and for/else keep their meaning; codegen resumes the coroutine.
#include "typer.h"

namespace mahou::sema {

// Whether a function body yields (nested functions and lambdas are their own scopes).
bool bodyYields(const ast::Body &body) {
  for (auto &s : body) {
    switch (s->kind) {
    case ast::StmtKind::Yield: return true;
    case ast::StmtKind::If:
      if (bodyYields(s->as<ast::If>()->body) || bodyYields(s->as<ast::If>()->orelse)) return true;
      break;
    case ast::StmtKind::For:
      if (bodyYields(s->as<ast::For>()->body) || bodyYields(s->as<ast::For>()->orelse)) return true;
      break;
    case ast::StmtKind::While:
      if (bodyYields(s->as<ast::While>()->body) || bodyYields(s->as<ast::While>()->orelse)) return true;
      break;
    case ast::StmtKind::Try: {
      auto *t = s->as<ast::Try>();
      if (bodyYields(t->body) || bodyYields(t->orelse) || bodyYields(t->finalbody)) return true;
      for (auto &h : t->handlers)
        if (bodyYields(h.body)) return true;
      break;
    }
    default: break;
    }
  }
  return false;
}

void FunctionTyper::yieldStmt(const ast::Yield &s, ir::Block &out) {
  ExprPtr v = s.value ? expr(*s.value) : ir::makeConst(Type::none(), s.loc, 0);
  if (isUnknown(v)) return; // another pass follows
  if (isCompileTimeOnly(v->type)) notSupported(s.loc, "yielding a " + v->type.str() + " is not supported");
  v = itemValue(*this, std::move(v)); // a string literal is yielded as a str
  if (!v->type.containsUnknown()) {
    auto u = types::unify(yield_, v->type);
    if (!u)
      error(s.loc, "'" + def_.name + "' yields " + yield_.str() + " elsewhere but " + v->type.str() +
                       " here; the yielded types cannot be unified");
    if (*u != yield_) {
      yield_ = *u;
      ret_ = Type::generator(yield_);
      changed_ = true;
    }
  }
  if (yield_.containsUnknown()) return;
  auto st = std::make_unique<ir::Stmt>(ir::StmtOp::Yield, s.loc);
  st->exprs.push_back(convert(std::move(v), yield_, "yielded value"));
  out.push_back(std::move(st));
}

void FunctionTyper::refuseGeneratorExpression(const ast::Expr &value) {
  auto *c = value.as<ast::Comprehension>();
  if (c && c->comp == ast::CompKind::Generator)
    notSupported(value.loc, "a generator expression as a value is not supported (write a generator function with "
                            "'yield', or a list comprehension); builtins such as sum() and any() take one");
}

ExprPtr FunctionTyper::genResume(int genVar, Loc loc) {
  auto e = std::make_unique<ir::Expr>(ir::ExprOp::GenNext, Type::boolean(), loc);
  e->sub = 0;
  e->args.push_back(load(genVar, loc));
  return e;
}

ExprPtr FunctionTyper::genItem(int genVar, Loc loc) {
  auto e = std::make_unique<ir::Expr>(ir::ExprOp::GenNext, vars_[genVar].type.elems[0], loc);
  e->sub = 1;
  e->args.push_back(load(genVar, loc));
  return e;
}

ExprPtr generatorNext(Typing &t, ExprPtr gen, Loc loc) {
  if (t.isUnknown(gen) || !gen->type.isGenerator()) return nullptr;
  if (gen->type.elems[0].containsUnknown()) return t.unknown(loc);
  auto e = std::make_unique<ir::Expr>(ir::ExprOp::GenNext, gen->type.elems[0], loc);
  e->sub = 2;
  e->args.push_back(std::move(gen));
  return e;
}

// next(g, default): the next item, or the default once g is exhausted (both arguments are
// evaluated first, as in Python), of the item's and the default's unified type.
ExprPtr generatorNextOr(Typing &t, ExprPtr gen, ExprPtr dflt, Loc loc) {
  if (t.isUnknown(gen) || t.isUnknown(dflt)) return t.unknown(loc);
  const Type item = gen->type.elems[0];
  auto u = types::unify(item, dflt->type);
  if (!u)
    t.error(loc, "next(): the default (" + dflt->type.str() + ") and the iterator's items (" + item.str() +
                     ") have incompatible types");
  auto stmts = std::make_shared<ir::Block>();
  int g = t.holdInTemp(std::move(gen), loc, *stmts);
  int d = t.holdInTemp(std::move(dflt), loc, *stmts);
  auto ready = std::make_unique<ir::Expr>(ir::ExprOp::GenNext, Type::boolean(), loc);
  ready->sub = 0;
  ready->args.push_back(t.load(g, loc));
  auto take = std::make_unique<ir::Expr>(ir::ExprOp::GenNext, item, loc);
  take->sub = 1;
  take->args.push_back(t.load(g, loc));
  auto sel = std::make_unique<ir::Expr>(ir::ExprOp::Select, *u, loc);
  sel->args.push_back(std::move(ready));
  sel->args.push_back(t.convert(std::move(take), *u, "next()"));
  sel->args.push_back(t.convert(t.load(d, loc), *u, "next()"));
  return t.seqExpr(std::move(stmts), std::move(sel), loc);
}

void FunctionTyper::loopOverGenerator(ExprPtr gen, Loc loc, const std::function<void(ExprPtr, ir::Block &)> &body,
                                      const ast::Body *orelse, ir::Block &out) {
  int g = tempVar(gen->type, loc);
  out.push_back(assignVar(g, std::move(gen), loc));
  auto w = std::make_unique<ir::Stmt>(ir::StmtOp::While, loc);
  if (vars_[g].type.elems[0].containsUnknown()) { // a recursive generator's own type, not known yet
    w->exprs.push_back(unknown(loc));
    ++loopDepth_;
    body(unknown(loc), w->body);
    --loopDepth_;
    if (orelse) block(*orelse, w->orelse);
    out.push_back(std::move(w));
    return;
  }
  w->exprs.push_back(genResume(g, loc));
  int item = tempVar(vars_[g].type.elems[0], loc);
  w->body.push_back(assignVar(item, genItem(g, loc), loc));
  ++loopDepth_;
  body(load(item, loc), w->body);
  --loopDepth_;
  if (orelse) block(*orelse, w->orelse);
  out.push_back(std::move(w));
}

} // namespace mahou::sema
