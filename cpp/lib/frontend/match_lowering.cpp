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
    ExprPtr test = patternTest(p);
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
    out.push_back(ifStmt(nameExpr(flag, c.loc), std::move(c.body), std::move(rest), c.loc));
    return out;
  }

private:
  std::string subject_;

  // Every name a pattern of the subset binds is bound to the subject itself.
  void bindNames(const MatchPattern &p, Body &out) {
    if (p.kind == PK::Capture || p.kind == PK::As) out.push_back(assignStmt(p.name, nameExpr(subject_, p.loc), p.loc));
    if (p.kind == PK::As || (p.kind == PK::Or && !p.alternatives.empty())) bindNames(*p.alternatives[0], out);
  }

  // The test of a refutable pattern: subject == literal, subject is None, a | b → or.
  ExprPtr patternTest(MatchPattern &p) {
    switch (p.kind) {
    case PK::Literal:
    case PK::Value:
    case PK::Identity: {
      auto c = node<Compare>(p.loc);
      c->left = nameExpr(subject_, p.loc);
      c->ops.push_back(p.kind == PK::Identity ? CmpOpKind::Is : CmpOpKind::Eq);
      c->comparators.push_back(std::move(p.value));
      return c;
    }
    case PK::As: return patternTest(*p.alternatives[0]);
    case PK::Or: {
      auto any = node<BoolOp>(p.loc);
      any->op = BoolOpKind::Or;
      for (auto &a : p.alternatives) any->values.push_back(patternTest(*a));
      return any;
    }
    case PK::Capture:
    case PK::Wildcard: return boolExpr(true, p.loc);
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
