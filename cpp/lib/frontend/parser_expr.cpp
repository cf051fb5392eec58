// Parser, expression half: Python's precedence ladder from lambda/if-else down to
// atoms, calls, subscripts and slices.
#include "parser_impl.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>

namespace mahou::frontend::detail {

using namespace ast;
using K = TokenKind;

namespace {

constexpr int kMaxDepth = 200;

// Precedence of a binary operator token, lowest first: | ^ & shifts +- */%@;
// 0 when the token is not a binary operator.
int binaryPrecedence(K kind) {
  switch (kind) {
  case K::Pipe: return 1;
  case K::Caret: return 2;
  case K::Amp: return 3;
  case K::LShift: case K::RShift: return 4;
  case K::Plus: case K::Minus: return 5;
  case K::Star: case K::Slash: case K::DoubleSlash: case K::Percent: case K::At: return 6;
  default: return 0;
  }
}

BinOpKind binaryOperator(K kind) {
  switch (kind) {
  case K::Pipe: return BinOpKind::BitOr;
  case K::Caret: return BinOpKind::BitXor;
  case K::Amp: return BinOpKind::BitAnd;
  case K::LShift: return BinOpKind::LShift;
  case K::RShift: return BinOpKind::RShift;
  case K::Plus: return BinOpKind::Add;
  case K::Minus: return BinOpKind::Sub;
  case K::Star: return BinOpKind::Mult;
  case K::Slash: return BinOpKind::Div;
  case K::DoubleSlash: return BinOpKind::FloorDiv;
  case K::Percent: return BinOpKind::Mod;
  default: return BinOpKind::MatMult;
  }
}

std::optional<CmpOpKind> simpleComparison(K kind) {
  switch (kind) {
  case K::Less: return CmpOpKind::Lt;
  case K::Greater: return CmpOpKind::Gt;
  case K::LessEqual: return CmpOpKind::LtE;
  case K::GreaterEqual: return CmpOpKind::GtE;
  case K::EqualEqual: return CmpOpKind::Eq;
  case K::NotEqual: return CmpOpKind::NotEq;
  case K::KwIn: return CmpOpKind::In;
  default: return std::nullopt;
  }
}

// Float literal text (digits, '.', exponent) → double; out of range gives inf or 0
// as in Python (1e999 → inf, 1e-999 → 0.0).
double parseDouble(const std::string &text) {
  double value = 0;
  auto res = std::from_chars(text.data(), text.data() + text.size(), value);
  if (res.ec == std::errc::result_out_of_range) {
    size_t e = text.find_first_of("eE");
    bool negativeExponent = e != std::string::npos && e + 1 < text.size() && text[e + 1] == '-';
    return negativeExponent ? 0.0 : HUGE_VAL;
  }
  return value;
}

} // namespace

void Parser::enter() {
  if (++depth_ > kMaxDepth) {
    depth_ = 0;
    fail(cur().loc, "expression is too deeply nested");
  }
}

bool Parser::startsExpr() const {
  switch (cur().kind) {
  case K::Name: case K::Int: case K::Float: case K::Imag: case K::String: case K::FString: case K::Bytes:
  case K::KwTrue: case K::KwFalse: case K::KwNone: case K::Ellipsis:
  case K::LParen: case K::LBracket: case K::LBrace:
  case K::Minus: case K::Plus: case K::Tilde: case K::Star:
  case K::KwNot: case K::KwLambda: case K::KwAwait: case K::KwYield:
    return true;
  default:
    return false;
  }
}

ExprPtr Parser::expr() {
  DepthGuard guard(*this);
  if (at(K::KwLambda))
    return lambda();
  Loc start = cur().loc;
  ExprPtr body = orExpr();
  if (accept(K::KwIf)) {
    auto e = node<IfExp>(start);
    e->body = std::move(body);
    e->test = orExpr();
    expect(K::KwElse, "'else' in conditional expression");
    e->orelse = expr();
    return e;
  }
  if (at(K::Walrus))
    fail(cur().loc, "assignment expressions (':=') are not supported");
  return body;
}

// star_expressions (targets=false) or star_targets (targets=true: elements stop
// before comparisons so that `for x in y` leaves `in` alone).
ExprPtr Parser::exprList(bool targets) {
  Loc start = cur().loc;
  ExprPtr first = at(K::Star) ? starred() : targets ? bitOr() : expr();
  if (!at(K::Comma))
    return first;
  auto t = node<Tuple>(start);
  t->elts.push_back(std::move(first));
  while (accept(K::Comma) && startsExpr())
    t->elts.push_back(at(K::Star) ? starred() : targets ? bitOr() : expr());
  return t;
}

// '*x' as an element of a display; recorded so the statement can refuse it.
ExprPtr Parser::starred() {
  auto s = node<Starred>(advance().loc);
  s->value = bitOr();
  pendingStarred_.push_back(s->loc);
  return s;
}

ExprPtr Parser::starOrExpr() { return at(K::Star) ? starred() : expr(); }

ExprPtr Parser::orExpr() {
  Loc start = cur().loc;
  ExprPtr first = andExpr();
  if (!at(K::KwOr))
    return first;
  auto b = node<BoolOp>(start);
  b->op = BoolOpKind::Or;
  b->values.push_back(std::move(first));
  while (accept(K::KwOr))
    b->values.push_back(andExpr());
  return b;
}

ExprPtr Parser::andExpr() {
  Loc start = cur().loc;
  ExprPtr first = notExpr();
  if (!at(K::KwAnd))
    return first;
  auto b = node<BoolOp>(start);
  b->op = BoolOpKind::And;
  b->values.push_back(std::move(first));
  while (accept(K::KwAnd))
    b->values.push_back(notExpr());
  return b;
}

ExprPtr Parser::notExpr() {
  if (!at(K::KwNot))
    return comparison();
  DepthGuard guard(*this);
  auto u = node<UnaryOp>(advance().loc);
  u->op = UnaryOpKind::Not;
  u->operand = notExpr();
  return u;
}

ExprPtr Parser::comparison() {
  Loc start = cur().loc;
  ExprPtr left = bitOr();
  std::unique_ptr<Compare> cmp;
  while (true) {
    std::optional<CmpOpKind> op = simpleComparison(cur().kind);
    if (op) {
      advance();
    } else if (at(K::KwNot) && peek(1).kind == K::KwIn) {
      op = CmpOpKind::NotIn;
      advance(), advance();
    } else if (at(K::KwIs)) {
      advance();
      op = accept(K::KwNot) ? CmpOpKind::IsNot : CmpOpKind::Is;
    } else {
      break;
    }
    if (!cmp) {
      cmp = node<Compare>(start);
      cmp->left = std::move(left);
    }
    cmp->ops.push_back(*op);
    cmp->comparators.push_back(bitOr());
  }
  if (cmp)
    return cmp;
  return left;
}

// Precedence climbing over the binary operators; all are left-associative.
ExprPtr Parser::binary(int minPrecedence) {
  Loc start = cur().loc;
  ExprPtr left = factor();
  while (true) {
    int precedence = binaryPrecedence(cur().kind);
    if (precedence == 0 || precedence < minPrecedence)
      return left;
    auto b = node<BinOp>(start);
    b->op = binaryOperator(advance().kind);
    b->left = std::move(left);
    b->right = binary(precedence + 1);
    left = std::move(b);
  }
}

ExprPtr Parser::factor() {
  UnaryOpKind op;
  switch (cur().kind) {
  case K::Plus: op = UnaryOpKind::UAdd; break;
  case K::Minus: op = UnaryOpKind::USub; break;
  case K::Tilde: op = UnaryOpKind::Invert; break;
  default: return power();
  }
  DepthGuard guard(*this);
  auto u = node<UnaryOp>(advance().loc);
  u->op = op;
  u->operand = factor();
  return u;
}

// primary ['**' factor]: right-associative, and -2**2 is -(2**2).
ExprPtr Parser::power() {
  Loc start = cur().loc;
  ExprPtr base = primary();
  if (!at(K::DoubleStar))
    return base;
  advance();
  DepthGuard guard(*this);
  auto b = node<BinOp>(start);
  b->op = BinOpKind::Pow;
  b->left = std::move(base);
  b->right = factor();
  return b;
}

ExprPtr Parser::primary() {
  if (at(K::KwAwait))
    fail(cur().loc, "'await' expressions are not supported");
  Loc start = cur().loc; // trailers start where the atom does, '(' included
  ExprPtr e = atom();
  while (true) {
    if (at(K::LParen)) {
      e = call(std::move(e), start);
    } else if (at(K::LBracket)) {
      e = subscript(std::move(e), start);
    } else if (accept(K::Dot)) {
      auto a = node<Attribute>(start);
      a->attr = expect(K::Name, "an attribute name after '.'").text;
      a->value = std::move(e);
      e = std::move(a);
    } else {
      return e;
    }
  }
}

ExprPtr Parser::call(ExprPtr func, Loc start) {
  auto c = node<Call>(start);
  c->func = std::move(func);
  advance(); // (
  bool sawKeyword = false, sawKwargs = false;
  while (!at(K::RParen)) {
    Loc loc = cur().loc;
    if (accept(K::Star)) {
      if (sawKwargs)
        fail(loc, "iterable argument unpacking follows keyword argument unpacking");
      auto s = node<Starred>(loc);
      s->value = expr();
      c->args.push_back(std::move(s));
    } else if (accept(K::DoubleStar)) {
      sawKwargs = true;
      c->keywords.push_back(Keyword{"", expr(), loc});
    } else if (at(K::Name) && peek(1).kind == K::Assign) {
      std::string name = advance().text;
      advance(); // =
      for (const Keyword &k : c->keywords)
        if (k.name == name)
          fail(loc, "keyword argument repeated: " + name);
      sawKeyword = true;
      c->keywords.push_back(Keyword{std::move(name), expr(), loc});
    } else {
      ExprPtr arg = expr();
      if (atComprehension()) // f(x for x in y): the generator is the only argument
        arg = comprehension(CompKind::Generator, std::move(arg), nullptr, arg->loc);
      if (sawKwargs)
        fail(loc, "positional argument follows keyword argument unpacking");
      if (sawKeyword)
        fail(loc, "positional argument follows keyword argument");
      c->args.push_back(std::move(arg));
    }
    if (!accept(K::Comma))
      break;
  }
  expect(K::RParen, "')'");
  return c;
}

ExprPtr Parser::subscript(ExprPtr value, Loc start) {
  auto s = node<Subscript>(start);
  s->value = std::move(value);
  advance(); // [
  if (at(K::RBracket))
    fail(cur().loc, "invalid syntax: expected an index");
  Loc indexStart = cur().loc;
  ExprPtr index = sliceItem();
  if (at(K::Comma)) {
    auto t = node<Tuple>(indexStart);
    t->elts.push_back(std::move(index));
    while (accept(K::Comma) && !at(K::RBracket))
      t->elts.push_back(sliceItem());
    index = std::move(t);
  }
  s->index = std::move(index);
  expect(K::RBracket, "']'");
  return s;
}

ExprPtr Parser::sliceItem() {
  if (at(K::Star))
    fail(cur().loc, "starred expressions in subscripts are not supported");
  Loc loc = cur().loc;
  ExprPtr lower;
  if (!at(K::Colon)) {
    lower = expr();
    if (!at(K::Colon))
      return lower;
  }
  advance(); // :
  auto s = node<Slice>(loc);
  s->lower = std::move(lower);
  auto endOfPart = [this] { return at(K::Colon) || at(K::Comma) || at(K::RBracket); };
  if (!endOfPart())
    s->upper = expr();
  if (accept(K::Colon) && !endOfPart())
    s->step = expr();
  return s;
}

ExprPtr Parser::lambda() {
  auto l = node<Lambda>(advance().loc);
  auto def = std::make_shared<FunctionDef>(l->loc);
  def->name = "<lambda>";
  bool sawDefault = false;
  while (!at(K::Colon)) {
    if (at(K::Star) || at(K::DoubleStar) || at(K::Slash))
      fail(cur().loc, "only simple parameters are supported in lambda");
    Arg a;
    a.loc = cur().loc;
    a.name = expect(K::Name, "a parameter name").text;
    for (const Arg &other : def->args)
      if (other.name == a.name)
        fail(a.loc, "duplicate argument '" + a.name + "' in function definition");
    if (accept(K::Assign))
      a.defaultValue = expr();
    else if (sawDefault)
      fail(a.loc, "parameter without a default follows parameter with a default");
    sawDefault |= a.defaultValue != nullptr;
    def->args.push_back(std::move(a));
    if (!accept(K::Comma))
      break;
  }
  expect(K::Colon, "':'");
  auto ret = std::make_unique<Return>(cur().loc);
  ret->value = expr();
  def->body.push_back(std::move(ret));
  l->def = std::move(def);
  return l;
}

ExprPtr Parser::atom() {
  const Token &t = cur();
  switch (t.kind) {
  case K::Name: {
    auto n = node<Name>(t.loc);
    n->id = advance().text;
    if (at(K::Walrus))
      fail(cur().loc, "assignment expressions (':=') are not supported");
    return n;
  }
  case K::Int: return intLiteral();
  case K::Float:
  case K::Imag: return numberLiteral();
  case K::String:
  case K::FString: return stringLiteral();
  case K::Bytes: return bytesLiteral();
  case K::KwTrue:
  case K::KwFalse: {
    auto b = node<BoolLit>(t.loc);
    b->value = advance().kind == K::KwTrue;
    return b;
  }
  case K::KwNone: return node<NoneLit>(advance().loc);
  case K::Ellipsis: return node<EllipsisLit>(advance().loc);
  case K::LParen: return parenthesized();
  case K::LBracket: return listDisplay();
  case K::LBrace: return braceDisplay();
  case K::KwYield: fail(t.loc, "'yield' inside an expression (a value sent with send()) is not supported: use 'yield' as a statement");
  case K::Star: fail(t.loc, "starred expressions are not supported here");
  case K::KwLambda: fail(t.loc, "invalid syntax: lambda must be parenthesized here");
  default: fail(t.loc, "invalid syntax: expected an expression");
  }
}

ExprPtr Parser::intLiteral() {
  auto i = node<IntLit>(cur().loc);
  const std::string &digits = advance().text;
  uint64_t value = 0;
  for (char c : digits) {
    uint64_t d = static_cast<uint64_t>(c - '0');
    if (value > (static_cast<uint64_t>(INT64_MAX) - d) / 10) {
      i->overflow = true;
      i->digits = digits;
      return i;
    }
    value = value * 10 + d;
  }
  i->value = static_cast<int64_t>(value);
  return i;
}

ExprPtr Parser::numberLiteral() {
  const Token &t = advance();
  double value = parseDouble(t.text);
  if (t.kind == K::Imag) {
    auto i = node<ImagLit>(t.loc);
    i->value = value;
    return i;
  }
  auto f = node<FloatLit>(t.loc);
  f->value = value;
  return f;
}

// b'...' b"...": adjacent bytes literals joined (a str next to one is a SyntaxError).
ExprPtr Parser::bytesLiteral() {
  auto b = node<BytesLit>(cur().loc);
  while (at(K::Bytes))
    b->value += advance().text;
  if (at(K::String) || at(K::FString)) fail(cur().loc, "cannot mix bytes and nonbytes literals");
  return b;
}

ExprPtr Parser::stringLiteral() {
  Loc loc = cur().loc;
  auto s = node<StrLit>(loc);
  bool formatted = false;
  for (size_t k = pos_; toks_[k].kind == K::String || toks_[k].kind == K::FString; ++k)
    formatted |= toks_[k].kind == K::FString;
  if (!formatted) {
    while (at(K::String))
      s->value += advance().text;
    if (at(K::Bytes)) fail(cur().loc, "cannot mix bytes and nonbytes literals");
    return s;
  }
  // Adjacent literals with at least one f-string: one JoinedStr of all their parts.
  auto j = node<JoinedStr>(loc);
  while (at(K::String) || at(K::FString)) {
    const Token &t = advance();
    if (t.kind == K::String) {
      auto lit = node<StrLit>(t.loc);
      lit->value = t.text;
      j->values.push_back(std::move(lit));
    } else {
      fstringParts(t, t.offset, t.text, j->values);
    }
  }
  return j;
}

// The literal text of an f-string part with its escapes resolved (as a plain string
// literal of the same kind would have them).
std::string Parser::resolveEscapes(const Token &t, const std::string &raw) const {
  if (raw.find('\\') == std::string::npos || t.isRawString) return raw;
  std::string quoted = raw.find("\"\"\"") == std::string::npos && (raw.empty() || raw.back() != '"')
                           ? "\"\"\"" + raw + "\"\"\"" : "'''" + raw + "'''";
  std::vector<Token> toks = tokenize(SourceFile(file_.path(), quoted, t.loc.line));
  return toks.empty() || toks[0].kind != K::String ? raw : toks[0].text;
}

// The expression written at [start, end) of the source text, parsed where it stands
// (the rest of the text blanked out, so its lines and columns are the file's own).
ExprPtr Parser::embeddedExpression(size_t start, size_t end, Loc loc) {
  const std::string &text = file_.text();
  std::string blanked(text.size(), ' ');
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n' || text[i] == '\r' || (i >= start && i < end)) blanked[i] = text[i];
  bool empty = true;
  for (size_t i = start; i < end; ++i)
    empty &= text[i] == ' ' || text[i] == '\t' || text[i] == '\n';
  if (empty) fail(loc, "f-string: empty expression not allowed");
  // Parenthesised, so that a multi-line expression of a triple-quoted f-string parses.
  blanked[start - 1] = '(';
  if (end < blanked.size() && blanked[end] != '\n') blanked[end] = ')';
  else fail(loc, "f-string: expression ends the line");
  SourceFile sub(file_.path(), blanked, file_.firstLine());
  Parser p(sub);
  ExprPtr e = p.exprList(false);
  if (!p.at(K::Newline) && !p.at(K::EndOfFile)) p.unexpected();
  return e;
}

void Parser::fstringParts(const Token &t, size_t offset, const std::string &body, std::vector<ExprPtr> &out) {
  // body is the source between the quotes; offset is where it starts in the text.
  std::string literal;
  auto flushLiteral = [&](Loc at) {
    if (literal.empty()) return;
    auto lit = node<StrLit>(at);
    lit->value = resolveEscapes(t, literal);
    out.push_back(std::move(lit));
    literal.clear();
  };
  size_t i = 0, n = body.size();
  while (i < n) {
    char c = body[i];
    if (c == '{' && i + 1 < n && body[i + 1] == '{') {
      literal += '{';
      i += 2;
      continue;
    }
    if (c == '}') {
      if (i + 1 < n && body[i + 1] == '}') {
        literal += '}';
        i += 2;
        continue;
      }
      fail(t.loc, "f-string: single '}' is not allowed");
    }
    if (c != '{') {
      literal += c;
      ++i;
      continue;
    }
    flushLiteral(t.loc);
    // {expression[=][!conversion][:spec]}: find where the expression ends (at the top
    // bracket level, outside nested strings).
    size_t exprStart = i + 1, j = exprStart;
    int depth = 0;
    char quote = 0;
    for (; j < n; ++j) {
      char d = body[j];
      if (quote) {
        if (d == quote) quote = 0;
        continue;
      }
      if (d == '\'' || d == '"') quote = d;
      else if (d == '(' || d == '[' || d == '{') ++depth;
      else if (d == ')' || d == ']' || d == '}') {
        if (depth == 0) break;
        --depth;
      } else if (depth == 0 && (d == '!' || d == ':') && !(d == '!' && j + 1 < n && body[j + 1] == '=')) break;
      else if (depth == 0 && d == '=' && j + 1 < n && (body[j + 1] == '}' || body[j + 1] == '!' || body[j + 1] == ':') &&
               j > exprStart && std::string("=!<>").find(body[j - 1]) == std::string::npos)
        break;
    }
    if (j >= n) fail(t.loc, "f-string: expecting '}'");
    size_t exprEnd = j;
    auto fv = node<FormattedValue>(t.loc);
    fv->value = embeddedExpression(offset + exprStart, offset + exprEnd, t.loc);
    if (body[j] == '=') { // f"{x=}": the text, then the repr (or the formatted value)
      auto lit = node<StrLit>(t.loc);
      lit->value = body.substr(exprStart, exprEnd - exprStart + 1);
      out.push_back(std::move(lit));
      fv->conversion = 'r';
      ++j;
    }
    if (body[j] == '!') {
      if (j + 1 >= n || std::string("sra").find(body[j + 1]) == std::string::npos)
        fail(t.loc, "f-string: invalid conversion character: expected 's', 'r', or 'a'");
      fv->conversion = body[j + 1];
      j += 2;
    }
    if (j < n && body[j] == ':') {
      // The spec runs to the matching '}' and may hold {expressions} of its own.
      size_t specStart = j + 1, k = specStart;
      int nested = 0;
      for (; k < n; ++k) {
        if (body[k] == '{') ++nested;
        else if (body[k] == '}') {
          if (nested == 0) break;
          --nested;
        }
      }
      if (k >= n) fail(t.loc, "f-string: expecting '}'");
      auto spec = node<JoinedStr>(t.loc);
      fstringParts(t, offset + specStart, body.substr(specStart, k - specStart), spec->values);
      fv->spec = std::move(spec);
      if (fv->conversion == 'r' && body[exprEnd] == '=') fv->conversion = 0; // {x=:spec} formats the value
      j = k;
    }
    if (j >= n || body[j] != '}') fail(t.loc, "f-string: expecting '}'");
    out.push_back(std::move(fv));
    i = j + 1;
  }
  flushLiteral(t.loc);
}

ExprPtr Parser::parenthesized() {
  Loc loc = advance().loc; // (
  if (accept(K::RParen))
    return node<Tuple>(loc);
  if (at(K::KwYield))
    fail(cur().loc, "'yield' inside an expression (a value sent with send()) is not supported: use 'yield' as a statement");
  ExprPtr first = starOrExpr();
  if (atComprehension()) {
    auto g = comprehension(CompKind::Generator, std::move(first), nullptr, loc);
    expect(K::RParen, "')'");
    return g;
  }
  if (accept(K::RParen)) {
    if (first->kind == ExprKind::Starred)
      fail(first->loc, "starred expressions are not supported here");
    return first;
  }
  auto t = node<Tuple>(loc);
  t->elts.push_back(std::move(first));
  while (accept(K::Comma) && !at(K::RParen))
    t->elts.push_back(starOrExpr());
  expect(K::RParen, "')'");
  return t;
}

ExprPtr Parser::listDisplay() {
  auto l = node<List>(advance().loc); // [
  if (accept(K::RBracket))
    return l;
  l->elts.push_back(starOrExpr());
  if (atComprehension()) {
    auto c = comprehension(CompKind::List, std::move(l->elts[0]), nullptr, l->loc);
    expect(K::RBracket, "']'");
    return c;
  }
  while (accept(K::Comma) && !at(K::RBracket))
    l->elts.push_back(starOrExpr());
  expect(K::RBracket, "']'");
  return l;
}

// The `for ... in ... if ...` clauses after the element of a comprehension.
ExprPtr Parser::comprehension(CompKind kind, ExprPtr elt, ExprPtr value, Loc loc) {
  if (elt->kind == ExprKind::Starred)
    fail(elt->loc, "iterable unpacking cannot be used in comprehension");
  auto c = node<Comprehension>(loc);
  c->comp = kind;
  c->elt = std::move(elt);
  c->value = std::move(value);
  while (atComprehension()) {
    if (at(K::KwAsync))
      fail(cur().loc, "asynchronous comprehensions are not supported");
    CompFor g;
    g.loc = advance().loc; // for
    g.target = exprList(true);
    expect(K::KwIn, "'in'");
    g.iter = orExpr();
    while (accept(K::KwIf))
      g.ifs.push_back(orExpr());
    c->generators.push_back(std::move(g));
  }
  return c;
}

// {k: v, ...}, {k: v for ...}, {a, b}, {a for ...}
ExprPtr Parser::braceDisplay() {
  Loc loc = advance().loc; // {
  if (accept(K::RBrace))
    return node<Dict>(loc);
  if (at(K::DoubleStar))
    fail(cur().loc, "'**' unpacking in dict displays is not supported");
  ExprPtr first = starOrExpr();
  if (accept(K::Colon)) {
    ExprPtr value = expr();
    if (atComprehension()) {
      auto c = comprehension(CompKind::Dict, std::move(first), std::move(value), loc);
      expect(K::RBrace, "'}'");
      return c;
    }
    auto d = node<Dict>(loc);
    d->keys.push_back(std::move(first));
    d->values.push_back(std::move(value));
    while (accept(K::Comma) && !at(K::RBrace)) {
      if (at(K::DoubleStar))
        fail(cur().loc, "'**' unpacking in dict displays is not supported");
      d->keys.push_back(expr());
      expect(K::Colon, "':'");
      d->values.push_back(expr());
    }
    expect(K::RBrace, "'}'");
    return d;
  }
  if (atComprehension()) {
    auto c = comprehension(CompKind::Set, std::move(first), nullptr, loc);
    expect(K::RBrace, "'}'");
    return c;
  }
  auto s = node<Set>(loc);
  s->elts.push_back(std::move(first));
  while (accept(K::Comma) && !at(K::RBrace))
    s->elts.push_back(starOrExpr());
  expect(K::RBrace, "'}'");
  return s;
}

} // namespace mahou::frontend::detail
