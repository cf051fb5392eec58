// The children of each kind of AST node (ast_walk.h), written once for every pass that
// visits them all.
#include "mahou/ast_walk.h"

namespace mahou::ast {

void forEachChild(const Expr &e, const std::function<void(const Expr &)> &fn) {
  auto sub = [&](const ExprPtr &p) {
    if (p) fn(*p);
  };
  auto all = [&](const std::vector<ExprPtr> &v) {
    for (auto &p : v) sub(p);
  };
  using K = ExprKind;
  switch (e.kind) {
  case K::Name:
  case K::IntLit:
  case K::FloatLit:
  case K::ImagLit:
  case K::StrLit:
  case K::BytesLit:
  case K::BoolLit:
  case K::NoneLit:
  case K::EllipsisLit: return;
  case K::BinOp: sub(e.as<BinOp>()->left); sub(e.as<BinOp>()->right); return;
  case K::UnaryOp: sub(e.as<UnaryOp>()->operand); return;
  case K::BoolOp: all(e.as<BoolOp>()->values); return;
  case K::Compare: sub(e.as<Compare>()->left); all(e.as<Compare>()->comparators); return;
  case K::Call: {
    auto *c = e.as<Call>();
    sub(c->func);
    all(c->args);
    for (auto &k : c->keywords) sub(k.value);
    return;
  }
  case K::Attribute: sub(e.as<Attribute>()->value); return;
  case K::Subscript: sub(e.as<Subscript>()->value); sub(e.as<Subscript>()->index); return;
  case K::Slice: sub(e.as<Slice>()->lower); sub(e.as<Slice>()->upper); sub(e.as<Slice>()->step); return;
  case K::Tuple: all(e.as<Tuple>()->elts); return;
  case K::List: all(e.as<List>()->elts); return;
  case K::IfExp: sub(e.as<IfExp>()->test); sub(e.as<IfExp>()->body); sub(e.as<IfExp>()->orelse); return;
  case K::Starred: sub(e.as<Starred>()->value); return;
  case K::Lambda:
    for (auto &a : e.as<Lambda>()->def->args) sub(a.defaultValue);
    return;
  case K::Dict: all(e.as<Dict>()->keys); all(e.as<Dict>()->values); return;
  case K::Set: all(e.as<Set>()->elts); return;
  case K::Comprehension: {
    auto *c = e.as<Comprehension>();
    sub(c->elt);
    sub(c->value);
    for (auto &g : c->generators) {
      sub(g.target);
      sub(g.iter);
      all(g.ifs);
    }
    return;
  }
  case K::JoinedStr: all(e.as<JoinedStr>()->values); return;
  case K::FormattedValue: sub(e.as<FormattedValue>()->value); sub(e.as<FormattedValue>()->spec); return;
  case K::ObjMode: sub(e.as<ObjMode>()->context); all(e.as<ObjMode>()->inputs); return;
  case K::MatchSequence: sub(e.as<MatchSequence>()->subject); return;
  case K::MatchPossible: sub(e.as<MatchPossible>()->test); return;
  }
}

void forEachChild(Expr &e, const std::function<void(Expr &)> &fn) {
  // The children of a node one may change are nodes one may change.
  forEachChild(static_cast<const Expr &>(e), [&](const Expr &c) { fn(const_cast<Expr &>(c)); });
}

void forEachPart(const Stmt &s, const std::function<void(const Expr &)> &onExpr,
                 const std::function<void(const Body &)> &onBody) {
  auto ex = [&](const ExprPtr &p) {
    if (p) onExpr(*p);
  };
  using K = StmtKind;
  switch (s.kind) {
  case K::FunctionDef: {
    auto *d = s.as<FunctionDef>();
    for (auto &dec : d->decorators) ex(dec);
    for (auto &a : d->args) ex(a.defaultValue);
    for (auto &a : d->kwonlyargs) ex(a.defaultValue);
    return;
  }
  case K::Return: ex(s.as<Return>()->value); return;
  case K::Assign:
    for (auto &t : s.as<Assign>()->targets) ex(t);
    ex(s.as<Assign>()->value);
    return;
  case K::AugAssign: ex(s.as<AugAssign>()->target); ex(s.as<AugAssign>()->value); return;
  case K::AnnAssign: ex(s.as<AnnAssign>()->target); ex(s.as<AnnAssign>()->value); return;
  case K::If:
    ex(s.as<If>()->test);
    onBody(s.as<If>()->body);
    onBody(s.as<If>()->orelse);
    return;
  case K::For:
    ex(s.as<For>()->target);
    ex(s.as<For>()->iter);
    onBody(s.as<For>()->body);
    onBody(s.as<For>()->orelse);
    return;
  case K::While:
    ex(s.as<While>()->test);
    onBody(s.as<While>()->body);
    onBody(s.as<While>()->orelse);
    return;
  case K::ExprStmt: ex(s.as<ExprStmt>()->value); return;
  case K::Assert: ex(s.as<Assert>()->test); ex(s.as<Assert>()->msg); return;
  case K::Raise: ex(s.as<Raise>()->exc); ex(s.as<Raise>()->cause); return;
  case K::Delete:
    for (auto &t : s.as<Delete>()->targets) ex(t);
    return;
  case K::Yield: ex(s.as<Yield>()->value); return;
  case K::Try: {
    auto *t = s.as<Try>();
    onBody(t->body);
    for (auto &h : t->handlers) {
      ex(h.type);
      onBody(h.body);
    }
    onBody(t->orelse);
    onBody(t->finalbody);
    return;
  }
  case K::Break:
  case K::Continue:
  case K::Pass:
  case K::Import:
  case K::ImportFrom:
  case K::Global:
  case K::Nonlocal: return;
  }
}

} // namespace mahou::ast
