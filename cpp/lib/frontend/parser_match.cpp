// Parser, `match` statements (PEP 634): the subject, the case clauses and their
// patterns; the kinds Numba compiles, sequence patterns (tuples), the others refused.
#include "match_pattern.h"
#include "parser_impl.h"

#include <algorithm>

namespace mahou::frontend::detail {

using namespace ast;
using K = TokenKind;
using PK = MatchPattern::Kind;

bool MatchPattern::irrefutable() const {
  switch (kind) {
  case PK::Capture:
  case PK::Wildcard:
  case PK::Star: return true;
  case PK::As: return alternatives[0]->irrefutable();
  case PK::Or:
    return std::any_of(alternatives.begin(), alternatives.end(), [](auto &p) { return p->irrefutable(); });
  default: return false;
  }
}

int64_t MatchPattern::itemIndex(size_t k) const {
  size_t star = alternatives.size();
  for (size_t i = 0; i < alternatives.size(); ++i)
    if (alternatives[i]->kind == PK::Star) star = i;
  return k < star ? int64_t(k) : -int64_t(alternatives.size() - k);
}

void matchBindings(const MatchPattern &p, std::vector<int64_t> &path, std::vector<MatchBinding> &out) {
  if (p.kind == PK::Capture || p.kind == PK::As) out.push_back({p.name, path, p.loc});
  if ((p.kind == PK::As || p.kind == PK::Or) && !p.alternatives.empty()) matchBindings(*p.alternatives[0], path, out);
  if (p.kind == PK::Sequence)
    for (size_t k = 0; k < p.alternatives.size(); ++k) {
      path.push_back(p.itemIndex(k));
      matchBindings(*p.alternatives[k], path, out);
      path.pop_back();
    }
}

namespace {

std::vector<MatchBinding> bindingsOf(const MatchPattern &p) {
  std::vector<int64_t> path;
  std::vector<MatchBinding> out;
  matchBindings(p, path, out);
  return out;
}

std::vector<std::string> sortedNames(const MatchPattern &p) {
  std::vector<std::string> names;
  for (auto &b : bindingsOf(p)) names.push_back(b.name);
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::pair<std::string, std::vector<int64_t>>> sortedPlaces(const MatchPattern &p) {
  std::vector<std::pair<std::string, std::vector<int64_t>>> places;
  for (auto &b : bindingsOf(p)) places.emplace_back(b.name, b.path);
  std::sort(places.begin(), places.end());
  return places;
}

// CPython's message for an irrefutable pattern that hides what follows it.
std::string unreachableMessage(const MatchPattern &p) {
  const MatchPattern *q = &p;
  while (q->kind == PK::As) q = q->alternatives[0].get();
  if (q->kind == PK::Or)
    for (auto &a : q->alternatives)
      if (a->irrefutable()) return unreachableMessage(*a);
  if (q->kind == PK::Capture) return "name capture '" + q->name + "' makes remaining patterns unreachable";
  return "wildcard makes remaining patterns unreachable";
}

} // namespace

// `match subject:` followed by an indented block of `case pattern [if guard]:` clauses.
void Parser::matchStatement(Body &out) {
  MatchStatement m;
  m.loc = advance().loc; // the soft keyword `match`
  pendingStarred_.clear();
  m.subject = exprList(false);
  checkPendingStarred();
  expect(K::Colon, "':'");
  if (!accept(K::Newline) || !at(K::Indent))
    fail(cur().loc, "expected an indented block of 'case' clauses after 'match' statement on line " +
                        std::to_string(m.loc.line));
  advance();
  while (!accept(K::Dedent) && !at(K::EndOfFile)) {
    if (!at(K::Name) || cur().text != "case")
      fail(cur().loc, "invalid syntax: expected 'case' inside a 'match' statement");
    MatchCase c;
    c.loc = advance().loc;
    c.pattern = casePattern();
    std::vector<MatchBinding> names = bindingsOf(*c.pattern);
    for (size_t i = 0; i < names.size(); ++i)
      for (size_t j = 0; j < i; ++j)
        if (names[i].name == names[j].name)
          fail(names[i].loc, "multiple assignments to name '" + names[i].name + "' in pattern");
    if (accept(K::KwIf)) {
      pendingStarred_.clear();
      c.guard = expr();
      checkPendingStarred();
    }
    expect(K::Colon, "':'");
    c.body = block("'case' statement", c.loc);
    m.cases.push_back(std::move(c));
  }
  if (m.cases.empty())
    fail(m.loc, "expected at least one 'case' clause in a 'match' statement");
  for (size_t i = 0; i + 1 < m.cases.size(); ++i)
    if (!m.cases[i].guard && m.cases[i].pattern->irrefutable())
      fail(m.cases[i].pattern->loc, unreachableMessage(*m.cases[i].pattern));
  lowerMatch(std::move(m), out);
}

// The pattern of one case: `p`, `p as name`; a bare `a, b` is a sequence pattern.
std::unique_ptr<MatchPattern> Parser::casePattern() {
  Loc loc = cur().loc;
  auto p = itemPattern();
  if (!at(K::Comma)) {
    if (p->kind == PK::Star) fail(p->loc, "can't use starred pattern here");
    return p;
  }
  std::vector<std::unique_ptr<MatchPattern>> items;
  items.push_back(std::move(p));
  while (accept(K::Comma) && !at(K::Colon) && !at(K::KwIf))
    items.push_back(itemPattern());
  return sequencePattern(std::move(items), loc);
}

// An item of a sequence pattern: a pattern or `*_`.
std::unique_ptr<MatchPattern> Parser::itemPattern() {
  if (!at(K::Star)) return asPattern();
  auto p = std::make_unique<MatchPattern>();
  p->kind = PK::Star;
  p->loc = advance().loc;
  p->name = expect(K::Name, "a name after '*'").text;
  if (p->name != "_")
    fail(p->loc, "a starred capture ('*" + p->name + "') in a sequence pattern is not supported (it binds a list); '*_' is");
  p->name.clear();
  return p;
}

std::unique_ptr<MatchPattern> Parser::sequencePattern(std::vector<std::unique_ptr<MatchPattern>> items, Loc loc) {
  auto p = std::make_unique<MatchPattern>();
  p->kind = PK::Sequence;
  p->loc = loc;
  bool star = false;
  for (auto &item : items) {
    if (item->kind == PK::Star && star) fail(item->loc, "multiple starred names in sequence pattern");
    star |= item->kind == PK::Star;
  }
  p->alternatives = std::move(items);
  return p;
}

// `( ... )` or `[ ... ]` after its opening bracket: a group `(p)` or a sequence.
std::unique_ptr<MatchPattern> Parser::bracketPattern(Loc loc) {
  bool paren = advance().kind == K::LParen;
  K close = paren ? K::RParen : K::RBracket;
  std::vector<std::unique_ptr<MatchPattern>> items;
  bool comma = false;
  while (!at(close)) {
    items.push_back(itemPattern());
    if (!accept(K::Comma)) break;
    comma = true;
  }
  expect(close, paren ? "')'" : "']'");
  if (paren && items.size() == 1 && !comma && items[0]->kind != PK::Star) return std::move(items[0]); // (p)
  return sequencePattern(std::move(items), loc);
}

std::unique_ptr<MatchPattern> Parser::asPattern() {
  auto p = orPattern();
  if (!at(K::KwAs)) return p;
  Loc loc = p->loc;
  advance();
  const Token &name = expect(K::Name, "a name after 'as'");
  if (name.text == "_") fail(name.loc, "cannot use '_' as a target");
  auto as = std::make_unique<MatchPattern>();
  as->kind = PK::As;
  as->loc = loc;
  as->name = name.text;
  as->alternatives.push_back(std::move(p));
  return as;
}

std::unique_ptr<MatchPattern> Parser::orPattern() {
  Loc loc = cur().loc;
  auto first = closedPattern();
  if (!at(K::Pipe)) return first;
  auto p = std::make_unique<MatchPattern>();
  p->kind = PK::Or;
  p->loc = loc;
  p->alternatives.push_back(std::move(first));
  while (accept(K::Pipe)) {
    if (p->alternatives.back()->irrefutable())
      fail(p->alternatives.back()->loc, unreachableMessage(*p->alternatives.back()));
    p->alternatives.push_back(closedPattern());
  }
  std::vector<std::string> names = sortedNames(*p->alternatives[0]);
  for (auto &a : p->alternatives)
    if (sortedNames(*a) != names) fail(a->loc, "alternative patterns bind different names");
  for (auto &a : p->alternatives) // the lowering binds names once the whole pattern matched
    if (sortedPlaces(*a) != sortedPlaces(*p->alternatives[0]))
      fail(a->loc, "or-patterns whose alternatives bind a name to different items are not supported");
  return p;
}

// A literal, a capture, `_`, a dotted value, or `( pattern )`.
std::unique_ptr<MatchPattern> Parser::closedPattern() {
  auto p = std::make_unique<MatchPattern>();
  p->loc = cur().loc;
  switch (cur().kind) {
  case K::Minus:
  case K::Int:
  case K::Float:
  case K::Imag: {
    // signed_number [('+' | '-') imaginary]
    bool negative = accept(K::Minus);
    if (!at(K::Int) && !at(K::Float) && !at(K::Imag)) fail(cur().loc, "invalid syntax: expected a number after '-'");
    ExprPtr value = at(K::Int) ? intLiteral() : numberLiteral();
    if (negative) {
      auto neg = node<UnaryOp>(p->loc);
      neg->op = UnaryOpKind::USub;
      neg->operand = std::move(value);
      value = std::move(neg);
    }
    if (at(K::Plus) || at(K::Minus)) {
      auto sum = node<BinOp>(cur().loc);
      sum->op = advance().kind == K::Plus ? BinOpKind::Add : BinOpKind::Sub;
      if (!at(K::Imag)) fail(cur().loc, "imaginary number required in complex literal");
      sum->left = std::move(value);
      sum->right = numberLiteral();
      value = std::move(sum);
    }
    p->kind = PK::Literal;
    p->value = std::move(value);
    return p;
  }
  case K::String:
  case K::FString:
    p->kind = PK::Literal;
    p->value = stringLiteral();
    if (p->value->kind != ExprKind::StrLit) fail(p->loc, "patterns may only match literals and attribute lookups");
    return p;
  case K::KwNone:
  case K::KwTrue:
  case K::KwFalse:
    p->kind = PK::Identity;
    p->value = atom();
    return p;
  case K::Name: {
    if (peek(1).kind == K::LParen)
      fail(p->loc, "class patterns ('case " + cur().text + "(...):') are not supported (Numba refuses them too)");
    if (peek(1).kind != K::Dot) {
      p->name = advance().text;
      p->kind = p->name == "_" ? PK::Wildcard : PK::Capture;
      if (p->kind == PK::Wildcard) p->name.clear();
      return p;
    }
    // A dotted name is a value pattern: compared with ==.
    auto n = node<Name>(p->loc);
    n->id = advance().text;
    ExprPtr value = std::move(n);
    while (accept(K::Dot)) {
      auto a = node<Attribute>(p->loc);
      a->value = std::move(value);
      a->attr = expect(K::Name, "a name after '.'").text;
      value = std::move(a);
    }
    if (at(K::LParen)) fail(p->loc, "class patterns ('case C(...):') are not supported (Numba refuses them too)");
    p->kind = PK::Value;
    p->value = std::move(value);
    return p;
  }
  case K::LParen:
  case K::LBracket: return bracketPattern(p->loc);
  case K::Star: fail(p->loc, "can't use starred pattern here");
  case K::LBrace: fail(p->loc, "mapping patterns ('case {\"k\": v}:') are not supported (Numba refuses them too)");
  default: fail(p->loc, "invalid syntax: expected a pattern after 'case'");
  }
}

} // namespace mahou::frontend::detail
