// Lowers a parsed `match` statement to the statements sema already types: the subject
// in a hidden variable, then an if/elif chain in case order (PEP 634's semantics).
#include "match_pattern.h"

#include "parser_impl.h"

namespace mahou::frontend::detail {

using namespace ast;
using PK = MatchPattern::Kind;

namespace {

ExprPtr nameExpr(const std::string &id, Loc loc) {
  auto n = node<Name>(loc);
  n->id = id;
  return n;
}

StmtPtr assignStmt(const std::string &target, ExprPtr value, Loc loc) {
  auto a = node<Assign>(loc);
  a->targets.push_back(nameExpr(target, loc));
  a->value = std::move(value);
  return a;
}

ExprPtr boolExpr(bool value, Loc loc) {
  auto b = node<BoolLit>(loc);
  b->value = value;
  return b;
}

StmtPtr ifStmt(ExprPtr test, Body body, Body orelse, Loc loc) {
  auto s = node<If>(loc);
  s->test = std::move(test);
  s->body = std::move(body);
  s->orelse = std::move(orelse);
  return s;
}

// A copy of a pattern's value (a literal, a signed or complex number, a dotted name):
// a test may be written twice.
ExprPtr copyValue(const Expr &e) {
  switch (e.kind) {
  case ExprKind::IntLit: {
    auto c = node<IntLit>(e.loc);
    *c = *e.as<IntLit>();
    return c;
  }
  case ExprKind::FloatLit: {
    auto c = node<FloatLit>(e.loc);
    *c = *e.as<FloatLit>();
    return c;
  }
  case ExprKind::ImagLit: {
    auto c = node<ImagLit>(e.loc);
    *c = *e.as<ImagLit>();
    return c;
  }
  case ExprKind::StrLit: {
    auto c = node<StrLit>(e.loc);
    *c = *e.as<StrLit>();
    return c;
  }
  case ExprKind::BoolLit: return boolExpr(e.as<BoolLit>()->value, e.loc);
  case ExprKind::NoneLit: return node<NoneLit>(e.loc);
  case ExprKind::Name: return nameExpr(e.as<Name>()->id, e.loc);
  case ExprKind::UnaryOp: {
    auto c = node<UnaryOp>(e.loc);
    c->op = e.as<UnaryOp>()->op;
    c->operand = copyValue(*e.as<UnaryOp>()->operand);
    return c;
  }
  case ExprKind::BinOp: {
    auto c = node<BinOp>(e.loc);
    c->op = e.as<BinOp>()->op;
    c->left = copyValue(*e.as<BinOp>()->left);
    c->right = copyValue(*e.as<BinOp>()->right);
    return c;
  }
  case ExprKind::Attribute: {
    auto c = node<Attribute>(e.loc);
    c->value = copyValue(*e.as<Attribute>()->value);
    c->attr = e.as<Attribute>()->attr;
    return c;
  }
  default: internalError("a match pattern's value of an unexpected kind");
  }
}

class Lowering {
public:
  explicit Lowering(const MatchStatement &m)
      : subject_("$match@" + std::to_string(m.loc.line) + ":" + std::to_string(m.loc.col)) {}

  const std::string &subject() const { return subject_; }

  // What runs for `c` when the cases before it did not match: `rest` is the chain of the
  // cases after it.
  Body caseChain(MatchCase &c, Body rest) {
    MatchPattern &p = *c.pattern;
    Body binds;
    bindNames(p, binds);
    if (p.irrefutable()) {
      Body out = std::move(binds);
      if (!c.guard) {
        for (auto &s : c.body) out.push_back(std::move(s));
        return out;
      }
      out.push_back(ifStmt(std::move(c.guard), std::move(c.body), std::move(rest), c.loc));
      return out;
    }
    std::vector<int64_t> path;
    ExprPtr test = patternTest(p, path);
    if (!c.guard) {
      for (auto &s : c.body) binds.push_back(std::move(s));
      Body out;
      out.push_back(ifStmt(std::move(test), std::move(binds), std::move(rest), c.loc));
      return out;
    }
    if (binds.empty()) { // `case 1 if flag:`: one condition
      auto both = node<BoolOp>(c.loc);
      both->op = BoolOpKind::And;
      both->values.push_back(std::move(test));
      both->values.push_back(std::move(c.guard));
      Body out;
      out.push_back(ifStmt(std::move(both), std::move(c.body), std::move(rest), c.loc));
      return out;
    }
    // The guard reads the names the pattern bound, which stay bound when it fails: the
    // bindings and the guard run under the pattern's test, a flag carries the verdict.
    std::string flag = "$guard@" + std::to_string(c.loc.line) + ":" + std::to_string(c.loc.col);
    Loc gl = c.guard->loc;
    auto verdict = node<IfExp>(gl);
    verdict->test = std::move(c.guard);
    verdict->body = boolExpr(true, gl);
    verdict->orelse = boolExpr(false, gl);
    binds.push_back(assignStmt(flag, std::move(verdict), gl));
    Body failed;
    failed.push_back(assignStmt(flag, boolExpr(false, c.loc), c.loc));
    Body out;
    out.push_back(ifStmt(std::move(test), std::move(binds), std::move(failed), c.loc));
    // Whether the test can hold for the subject's type (a constant in sema; the test is not
    // run again), so that a body whose bindings were pruned with the test is pruned too.
    auto possible = node<MatchPossible>(c.loc);
    path.clear();
    possible->test = patternTest(p, path);
    auto verdictTest = node<BoolOp>(c.loc);
    verdictTest->op = BoolOpKind::And;
    verdictTest->values.push_back(std::move(possible));
    verdictTest->values.push_back(nameExpr(flag, c.loc));
    out.push_back(ifStmt(std::move(verdictTest), std::move(c.body), std::move(rest), c.loc));
    return out;
  }

private:
  std::string subject_;

  // The subject, or an item of it: `$match[0][-1]` for the path {0, -1}.
  ExprPtr access(const std::vector<int64_t> &path, Loc loc) {
    ExprPtr e = nameExpr(subject_, loc);
    for (int64_t index : path) {
      auto i = node<IntLit>(loc);
      i->value = index < 0 ? -index : index;
      ExprPtr idx = std::move(i);
      if (index < 0) {
        auto neg = node<UnaryOp>(loc);
        neg->op = UnaryOpKind::USub;
        neg->operand = std::move(idx);
        idx = std::move(neg);
      }
      auto s = node<Subscript>(loc);
      s->value = std::move(e);
      s->index = std::move(idx);
      e = std::move(s);
    }
    return e;
  }

  // A name is bound to the subject or to the item of it at its path (the alternatives of
  // an or-pattern bind each name at the same path: the parser checked it).
  void bindNames(const MatchPattern &p, Body &out) {
    std::vector<int64_t> path;
    std::vector<MatchBinding> bindings;
    matchBindings(p, path, bindings);
    for (auto &b : bindings) out.push_back(assignStmt(b.name, access(b.path, b.loc), b.loc));
  }

  // The part of a pattern's test that sema decides from the subject's type (the lengths
  // of its sequence patterns), or null when there is none.
  ExprPtr shapeTest(const MatchPattern &p, std::vector<int64_t> &path) {
    switch (p.kind) {
    case PK::As: return shapeTest(*p.alternatives[0], path);
    case PK::Or: {
      auto any = node<BoolOp>(p.loc);
      any->op = BoolOpKind::Or;
      for (auto &a : p.alternatives) {
        ExprPtr shape = shapeTest(*a, path);
        if (!shape) return nullptr; // an alternative without one may match any type
        any->values.push_back(std::move(shape));
      }
      return any;
    }
    case PK::Sequence: {
      auto all = node<BoolOp>(p.loc);
      all->op = BoolOpKind::And;
      auto shape = node<MatchSequence>(p.loc);
      shape->subject = access(path, p.loc);
      for (auto &item : p.alternatives)
        if (item->kind == PK::Star) shape->orMore = true;
        else ++shape->length;
      all->values.push_back(std::move(shape));
      for (size_t k = 0; k < p.alternatives.size(); ++k) {
        path.push_back(p.itemIndex(k));
        if (ExprPtr inner = shapeTest(*p.alternatives[k], path)) all->values.push_back(std::move(inner));
        path.pop_back();
      }
      if (all->values.size() == 1) return std::move(all->values[0]);
      return all;
    }
    default: return nullptr;
    }
  }

  // The test of a refutable pattern: subject == literal, subject is None, a | b → or, a
  // sequence → its shape (lengths, from the type), then the tests of its refutable items.
  ExprPtr patternTest(MatchPattern &p, std::vector<int64_t> &path) {
    switch (p.kind) {
    case PK::Literal:
    case PK::Value:
    case PK::Identity: {
      auto c = node<Compare>(p.loc);
      c->left = access(path, p.loc);
      c->ops.push_back(p.kind == PK::Identity ? CmpOpKind::Is : CmpOpKind::Eq);
      c->comparators.push_back(copyValue(*p.value));
      if (p.kind == PK::Identity) return c;
      // `subject is not None and subject == value`: an optional subject that is None does
      // not match (`==` on an optional would raise TypeError); a constant True otherwise.
      auto notNone = node<Compare>(p.loc);
      notNone->left = access(path, p.loc);
      notNone->ops.push_back(CmpOpKind::IsNot);
      notNone->comparators.push_back(node<NoneLit>(p.loc));
      auto both = node<BoolOp>(p.loc);
      both->op = BoolOpKind::And;
      both->values.push_back(std::move(notNone));
      both->values.push_back(std::move(c));
      return both;
    }
    case PK::As: return patternTest(*p.alternatives[0], path);
    case PK::Or: {
      auto any = node<BoolOp>(p.loc);
      any->op = BoolOpKind::Or;
      for (auto &a : p.alternatives) any->values.push_back(patternTest(*a, path));
      return any;
    }
    case PK::Sequence: {
      // The shape first, nested sequences' too: constants in sema, so that the tests of
      // items that a subject of another shape does not have are never typed.
      auto all = node<BoolOp>(p.loc);
      all->op = BoolOpKind::And;
      all->values.push_back(shapeTest(p, path));
      for (size_t k = 0; k < p.alternatives.size(); ++k) {
        if (p.alternatives[k]->irrefutable()) continue;
        path.push_back(p.itemIndex(k));
        all->values.push_back(patternTest(*p.alternatives[k], path));
        path.pop_back();
      }
      if (all->values.size() == 1) return std::move(all->values[0]);
      return all;
    }
    case PK::Capture:
    case PK::Wildcard:
    case PK::Star: return boolExpr(true, p.loc);
    }
    return boolExpr(true, p.loc);
  }
};

} // namespace

void lowerMatch(MatchStatement m, Body &out) {
  Lowering lowering(m);
  out.push_back(assignStmt(lowering.subject(), std::move(m.subject), m.loc));
  Body chain;
  for (size_t i = m.cases.size(); i-- > 0;)
    chain = lowering.caseChain(m.cases[i], std::move(chain));
  for (auto &s : chain) out.push_back(std::move(s));
}

} // namespace mahou::frontend::detail
