// Parser, statement half: modules, function definitions, blocks and simple
// statements (expressions live in parser_expr.cpp).
#include "mahou/parser.h"
#include "mahou/versions.h"

#include "match_pattern.h"
#include "parser_impl.h"

#include <algorithm>
#include <optional>

namespace mahou::frontend {

using namespace ast;
using detail::node;
using K = TokenKind;

namespace {

// How a token is named in "unexpected ..." messages.
std::string describe(const Token &t) {
  switch (t.kind) {
  case K::Name: return "name '" + t.text + "'";
  case K::Int:
  case K::Float:
  case K::Imag: return "number";
  case K::String: return "string";
  case K::Bytes: return "bytes";
  case K::Newline: return "end of line";
  case K::Indent: return "indent";
  case K::Dedent: return "dedent";
  case K::EndOfFile: return "end of input";
  default: return std::string("'") + tokenKindName(t.kind) + "'";
  }
}

// What a non-assignable expression is called in "cannot assign to ..." messages.
const char *describeExpr(const Expr &e) {
  switch (e.kind) {
  case ExprKind::Call: return "function call";
  case ExprKind::Compare: return "comparison";
  case ExprKind::IntLit:
  case ExprKind::FloatLit:
  case ExprKind::ImagLit:
  case ExprKind::StrLit:
  case ExprKind::BytesLit: return "literal";
  case ExprKind::BoolLit: return e.as<BoolLit>()->value ? "True" : "False";
  case ExprKind::NoneLit: return "None";
  case ExprKind::EllipsisLit: return "ellipsis";
  case ExprKind::IfExp: return "conditional expression";
  case ExprKind::Lambda: return "lambda";
  default: return "expression";
  }
}

std::optional<BinOpKind> augmentedOp(K kind) {
  switch (kind) {
  case K::PlusAssign: return BinOpKind::Add;
  case K::MinusAssign: return BinOpKind::Sub;
  case K::StarAssign: return BinOpKind::Mult;
  case K::AtAssign: return BinOpKind::MatMult;
  case K::SlashAssign: return BinOpKind::Div;
  case K::DoubleSlashAssign: return BinOpKind::FloorDiv;
  case K::PercentAssign: return BinOpKind::Mod;
  case K::DoubleStarAssign: return BinOpKind::Pow;
  case K::LShiftAssign: return BinOpKind::LShift;
  case K::RShiftAssign: return BinOpKind::RShift;
  case K::PipeAssign: return BinOpKind::BitOr;
  case K::CaretAssign: return BinOpKind::BitXor;
  case K::AmpAssign: return BinOpKind::BitAnd;
  default: return std::nullopt;
  }
}

bool isSingleTarget(const Expr &e) {
  return e.kind == ExprKind::Name || e.kind == ExprKind::Attribute ||
         e.kind == ExprKind::Subscript;
}

} // namespace

namespace detail {

// ------------------------------------------------------------------ tokens

const Token &Parser::expect(TokenKind k, const char *what) {
  if (!at(k))
    fail(cur().loc, std::string("invalid syntax: expected ") + what);
  return advance();
}

void Parser::fail(Loc loc, const std::string &message) const { unsupported(file_, loc, message); }

void Parser::unexpected() const { fail(cur().loc, "invalid syntax: unexpected " + describe(cur())); }

// ------------------------------------------------------------------ entry points

Module Parser::module() {
  Module m;
  while (!at(K::EndOfFile))
    statement(m.body);
  return m;
}

std::unique_ptr<FunctionDef> Parser::singleFunction() {
  std::unique_ptr<FunctionDef> f;
  if (at(K::At))
    f = decorated();
  else if (at(K::KwDef))
    f = functionDef({});
  else if (at(K::KwClass) || at(K::KwAsync))
    unsupportedStatement();
  else
    fail(cur().loc, "expected a function definition ('def')");
  if (!at(K::EndOfFile))
    fail(cur().loc, "expected only one function definition, found more code after it");
  return f;
}

// ------------------------------------------------------------------ statements

void Parser::statement(Body &out) {
  switch (cur().kind) {
  case K::Indent: fail(cur().loc, "unexpected indent");
  case K::At: out.push_back(decorated()); return;
  case K::KwDef: out.push_back(functionDef({})); return;
  case K::KwIf: out.push_back(ifStatement("'if' statement")); return;
  case K::KwFor: out.push_back(forStatement()); return;
  case K::KwWhile: out.push_back(whileStatement()); return;
  case K::KwTry: out.push_back(tryStatement()); return;
  case K::KwWith: out.push_back(withStatement()); return;
  case K::KwClass:
  case K::KwAsync: unsupportedStatement();
  case K::Name:
    if (atMatchStatement()) {
      matchStatement(out);
      return;
    }
    break;
  default: break;
  }
  simpleStatements(out);
}

// Statements mahou refuses, named after the keyword at the current token.
void Parser::unsupportedStatement() const {
  switch (cur().kind) {
  case K::KwClass: fail(cur().loc, "'class' definitions are not supported");
  case K::KwDel: fail(cur().loc, "'del' statements are not supported");
  case K::KwAsync:
    if (peek(1).kind == K::KwDef)
      fail(cur().loc, "'async def' functions are not supported");
    if (peek(1).kind == K::KwFor)
      fail(cur().loc, "'async for' loops are not supported");
    if (peek(1).kind == K::KwWith)
      fail(cur().loc, "'async with' statements are not supported");
    fail(cur().loc, "'async' is not supported");
  default: unexpected();
  }
}

// `match x:` — a soft keyword: a line starting with the name `match`, not an
// annotation, and ending with ':'.
bool Parser::atMatchStatement() const {
  if (cur().text != "match" || peek(1).kind == K::Colon || peek(1).kind == K::Newline)
    return false;
  size_t i = pos_;
  while (toks_[i].kind != K::Newline && toks_[i].kind != K::EndOfFile)
    ++i;
  return toks_[i - 1].kind == K::Colon;
}

void Parser::simpleStatements(Body &out) {
  while (true) {
    out.push_back(simpleStatement());
    if (!accept(K::Semicolon) || at(K::Newline))
      break;
  }
  if (!accept(K::Newline))
    unexpected();
}

StmtPtr Parser::simpleStatement() {
  pendingStarred_.clear();
  Loc loc = cur().loc;
  StmtPtr result;
  switch (cur().kind) {
  case K::KwPass: advance(); return node<Pass>(loc);
  case K::KwBreak: advance(); return node<Break>(loc);
  case K::KwContinue: advance(); return node<Continue>(loc);
  case K::KwReturn: {
    advance();
    auto r = node<Return>(loc);
    if (startsExpr())
      r->value = exprList(false);
    result = std::move(r);
    break;
  }
  case K::KwRaise: {
    advance();
    auto r = node<Raise>(loc);
    if (startsExpr()) {
      r->exc = expr();
      if (accept(K::KwFrom))
        r->cause = expr();
    }
    result = std::move(r);
    break;
  }
  case K::KwAssert: {
    advance();
    auto a = node<Assert>(loc);
    a->test = expr();
    if (accept(K::Comma))
      a->msg = expr();
    result = std::move(a);
    break;
  }
  case K::KwImport: return importStatement();
  case K::KwFrom: return fromImportStatement();
  case K::KwGlobal: {
    advance();
    auto g = node<Global>(loc);
    g->names = nameList();
    return g;
  }
  case K::KwNonlocal: {
    advance();
    auto n = node<Nonlocal>(loc);
    n->names = nameList();
    return n;
  }
  case K::KwYield: {
    advance();
    if (at(K::KwFrom))
      fail(cur().loc, "'yield from' is not supported (loop over the inner generator and yield each item)");
    auto y = node<Yield>(loc);
    if (startsExpr())
      y->value = exprList(false);
    if (at(K::Assign))
      fail(cur().loc, "'yield' as a statement only: values sent with send() are not supported");
    result = std::move(y);
    break;
  }
  case K::KwDel: {
    advance();
    auto d = node<Delete>(loc);
    ExprPtr targets = exprList(true);
    if (auto *t = targets->as<Tuple>())
      for (auto &e : t->elts) d->targets.push_back(std::move(e));
    else
      d->targets.push_back(std::move(targets));
    result = std::move(d);
    break;
  }
  case K::KwClass:
  case K::KwAsync: unsupportedStatement();
  case K::KwWith:
  case K::KwIf:
  case K::KwFor:
  case K::KwWhile:
  case K::KwTry:
  case K::KwDef:
  case K::At: // compound statement after ';' or after ':' on one line
  case K::KwElif:
  case K::KwElse:
  case K::KwExcept:
  case K::KwFinally: unexpected();
  default: result = exprStatement(); break;
  }
  checkPendingStarred();
  return result;
}

StmtPtr Parser::exprStatement() {
  Loc loc = cur().loc;
  ExprPtr first = exprList(false);
  if (at(K::Colon)) {
    if (first->kind == ExprKind::Tuple)
      fail(first->loc, "only single target (not tuple) can be annotated");
    if (!isSingleTarget(*first))
      fail(first->loc, "illegal target for annotation");
    advance();
    auto a = node<AnnAssign>(loc);
    a->target = std::move(first);
    a->annotation = expr();
    if (accept(K::Assign))
      a->value = exprList(false);
    return a;
  }
  if (auto op = augmentedOp(cur().kind)) {
    if (first->kind == ExprKind::Tuple || first->kind == ExprKind::List)
      fail(first->loc, std::string("'") + (first->kind == ExprKind::Tuple ? "tuple" : "list") +
                           "' is an illegal expression for augmented assignment");
    if (!isSingleTarget(*first))
      fail(first->loc, std::string("invalid syntax: cannot assign to ") + describeExpr(*first));
    advance();
    auto a = node<AugAssign>(loc);
    a->target = std::move(first);
    a->op = *op;
    a->value = exprList(false);
    return a;
  }
  if (!at(K::Assign)) {
    auto s = node<ExprStmt>(loc);
    s->value = std::move(first);
    return s;
  }
  auto a = node<Assign>(loc);
  a->targets.push_back(std::move(first));
  while (accept(K::Assign)) {
    if (at(K::KwYield))
      fail(cur().loc, "'x = yield' (a value sent with send()) is not supported: use 'yield' as a statement");
    a->targets.push_back(exprList(false));
  }
  a->value = std::move(a->targets.back());
  a->targets.pop_back();
  for (const ExprPtr &t : a->targets)
    validateTarget(*t);
  return a;
}

void Parser::validateTarget(const Expr &e) const {
  switch (e.kind) {
  case ExprKind::Name:
  case ExprKind::Attribute:
  case ExprKind::Subscript: return;
  case ExprKind::Tuple:
    for (const ExprPtr &elt : e.as<Tuple>()->elts)
      validateTarget(*elt);
    return;
  case ExprKind::List:
    for (const ExprPtr &elt : e.as<List>()->elts)
      validateTarget(*elt);
    return;
  case ExprKind::Starred: fail(e.loc, "starred assignment targets are not supported");
  default: fail(e.loc, std::string("invalid syntax: cannot assign to ") + describeExpr(e));
  }
}

void Parser::checkPendingStarred() const {
  if (!pendingStarred_.empty())
    fail(pendingStarred_.front(), "starred expressions are not supported here");
}

// The body after a compound statement's ':' — an indented block or simple
// statements on the same line.
Body Parser::block(const char *what, Loc header) {
  Body body;
  if (!accept(K::Newline)) {
    simpleStatements(body);
    return body;
  }
  if (!at(K::Indent))
    fail(cur().loc, std::string("expected an indented block after ") + what + " on line " +
                        std::to_string(header.line));
  advance();
  while (!accept(K::Dedent) && !at(K::EndOfFile))
    statement(body);
  return body;
}

std::unique_ptr<FunctionDef> Parser::decorated() {
  std::vector<ExprPtr> decorators;
  while (accept(K::At)) {
    pendingStarred_.clear();
    decorators.push_back(expr());
    checkPendingStarred();
    if (!accept(K::Newline))
      unexpected();
  }
  if (at(K::KwClass) || at(K::KwAsync))
    unsupportedStatement();
  if (!at(K::KwDef))
    fail(cur().loc, "invalid syntax: expected 'def' after decorators");
  return functionDef(std::move(decorators));
}

std::unique_ptr<FunctionDef> Parser::functionDef(std::vector<ExprPtr> decorators) {
  Loc loc = advance().loc; // def
  auto f = node<FunctionDef>(loc);
  f->decorators = std::move(decorators);
  f->name = expect(K::Name, "a function name").text;
  if (at(K::LBracket))
    fail(cur().loc, "generic type parameters are not supported");
  expect(K::LParen, "'('");
  pendingStarred_.clear();
  parameters(*f);
  if (accept(K::Arrow))
    expr(); // return annotations are ignored
  checkPendingStarred();
  expect(K::Colon, "':'");
  f->body = block("function definition", loc);
  return f;
}

void Parser::parameters(FunctionDef &f) {
  bool sawStar = false, sawSlash = false, sawDefault = false;
  Loc starLoc{};
  std::vector<std::string> seen;
  auto paramName = [&]() -> const Token & {
    const Token &t = expect(K::Name, "a parameter name");
    if (std::find(seen.begin(), seen.end(), t.text) != seen.end())
      fail(t.loc, "duplicate argument '" + t.text + "' in function definition");
    seen.push_back(t.text);
    if (accept(K::Colon))
      expr(); // annotations are ignored
    return t;
  };
  while (!at(K::RParen)) {
    Loc loc = cur().loc;
    if (accept(K::Slash)) {
      if (sawSlash || sawStar || f.args.empty())
        fail(loc, "invalid syntax: unexpected '/'");
      sawSlash = true;
    } else if (accept(K::Star)) {
      if (sawStar)
        fail(loc, "* argument may appear only once");
      sawStar = true;
      starLoc = loc;
      if (at(K::Name))
        f.vararg = paramName().text;
    } else if (accept(K::DoubleStar)) {
      f.kwarg = paramName().text;
      accept(K::Comma);
      if (!at(K::RParen))
        fail(cur().loc, "arguments cannot follow var-keyword argument");
      break;
    } else {
      Arg a;
      a.loc = loc;
      a.name = paramName().text;
      if (accept(K::Assign))
        a.defaultValue = expr();
      if (sawStar) {
        f.kwonlyargs.push_back(std::move(a));
      } else {
        if (!a.defaultValue && sawDefault)
          fail(loc, "parameter without a default follows parameter with a default");
        sawDefault |= a.defaultValue != nullptr;
        f.args.push_back(std::move(a));
      }
    }
    if (!accept(K::Comma))
      break;
  }
  if (sawStar && f.vararg.empty() && f.kwonlyargs.empty())
    fail(starLoc, "named arguments must follow bare *");
  expect(K::RParen, "')'");
}

// `if`/`elif` (the current token) with its elif chain and else, nested as in CPython.
StmtPtr Parser::ifStatement(const char *what) {
  Loc loc = advance().loc;
  auto s = node<If>(loc);
  pendingStarred_.clear();
  s->test = expr();
  checkPendingStarred();
  expect(K::Colon, "':'");
  s->body = block(what, loc);
  if (at(K::KwElif)) {
    s->orelse.push_back(ifStatement("'elif' statement"));
  } else if (at(K::KwElse)) {
    Loc elseLoc = advance().loc;
    expect(K::Colon, "':'");
    s->orelse = block("'else' statement", elseLoc);
  }
  return s;
}

StmtPtr Parser::forStatement() {
  Loc loc = advance().loc;
  auto s = node<For>(loc);
  pendingStarred_.clear();
  s->target = exprList(true);
  validateTarget(*s->target);
  expect(K::KwIn, "'in'");
  s->iter = exprList(false);
  checkPendingStarred();
  expect(K::Colon, "':'");
  s->body = block("'for' statement", loc);
  if (at(K::KwElse)) {
    Loc elseLoc = advance().loc;
    expect(K::Colon, "':'");
    s->orelse = block("'else' statement", elseLoc);
  }
  return s;
}

StmtPtr Parser::whileStatement() {
  Loc loc = advance().loc;
  auto s = node<While>(loc);
  pendingStarred_.clear();
  s->test = expr();
  checkPendingStarred();
  expect(K::Colon, "':'");
  s->body = block("'while' statement", loc);
  if (at(K::KwElse)) {
    Loc elseLoc = advance().loc;
    expect(K::Colon, "':'");
    s->orelse = block("'else' statement", elseLoc);
  }
  return s;
}

StmtPtr Parser::tryStatement() {
  Loc loc = advance().loc;
  auto s = node<Try>(loc);
  expect(K::Colon, "':'");
  s->body = block("'try' statement", loc);
  while (at(K::KwExcept)) {
    ExceptHandler h;
    h.loc = advance().loc;
    if (at(K::Star))
      fail(cur().loc, "'except*' is not supported");
    if (!s->handlers.empty() && !s->handlers.back().type)
      fail(s->handlers.back().loc, "default 'except:' must be last");
    if (!at(K::Colon)) {
      pendingStarred_.clear();
      h.type = expr();
      checkPendingStarred();
      if (accept(K::KwAs))
        h.name = expect(K::Name, "a name after 'as'").text;
    }
    expect(K::Colon, "':'");
    h.body = block("'except' statement", h.loc);
    s->handlers.push_back(std::move(h));
  }
  if (!s->handlers.empty() && at(K::KwElse)) {
    Loc elseLoc = advance().loc;
    expect(K::Colon, "':'");
    s->orelse = block("'else' statement", elseLoc);
  }
  if (at(K::KwFinally)) {
    Loc finallyLoc = advance().loc;
    expect(K::Colon, "':'");
    s->finalbody = block("'finally' statement", finallyLoc);
  }
  if (s->handlers.empty() && s->finalbody.empty())
    fail(cur().loc, "invalid syntax: expected 'except' or 'finally' block");
  return s;
}

std::string Parser::dottedName() {
  std::string name = expect(K::Name, "a module name").text;
  while (accept(K::Dot))
    name += "." + expect(K::Name, "a name after '.'").text;
  return name;
}

std::vector<std::string> Parser::nameList() {
  std::vector<std::string> names;
  do
    names.push_back(expect(K::Name, "a name").text);
  while (accept(K::Comma));
  return names;
}

StmtPtr Parser::importStatement() {
  auto s = node<Import>(advance().loc);
  do {
    Alias a;
    a.loc = cur().loc;
    a.name = dottedName();
    if (accept(K::KwAs))
      a.asname = expect(K::Name, "a name after 'as'").text;
    s->names.push_back(std::move(a));
  } while (accept(K::Comma));
  return s;
}

StmtPtr Parser::fromImportStatement() {
  auto s = node<ImportFrom>(advance().loc);
  for (; at(K::Dot) || at(K::Ellipsis); advance())
    s->module += at(K::Dot) ? "." : "...";
  if (at(K::Name) || s->module.empty())
    s->module += dottedName();
  expect(K::KwImport, "'import'");
  if (at(K::Star)) {
    s->names.push_back(Alias{"*", "", advance().loc});
    return s;
  }
  bool paren = accept(K::LParen);
  do {
    if (paren && at(K::RParen))
      break;
    Alias a;
    a.loc = cur().loc;
    a.name = expect(K::Name, "a name to import").text;
    if (accept(K::KwAs))
      a.asname = expect(K::Name, "a name after 'as'").text;
    s->names.push_back(std::move(a));
  } while (accept(K::Comma));
  if (paren)
    expect(K::RParen, "')'");
  return s;
}

} // namespace detail

ast::Module parseModuleSyntax(const SourceFile &file) { return detail::Parser(file).module(); }

ast::Module parseModule(const SourceFile &file) {
  ast::Module module = parseModuleSyntax(file);
  splitVariableVersions(module);
  return module;
}

std::unique_ptr<ast::FunctionDef> parseFunction(const SourceFile &file) {
  auto fn = detail::Parser(file).singleFunction();
  splitVariableVersions(*fn);
  return fn;
}

} // namespace mahou::frontend
