// Private to the front end: the recursive-descent Parser class shared by
// parser.cpp (statements) and parser_expr.cpp (expressions).
#pragma once

#include "mahou/ast.h"
#include "mahou/lexer.h"

#include <memory>
#include <string>
#include <vector>

namespace mahou::frontend::detail {

struct MatchPattern; // match_pattern.h

template <class T> std::unique_ptr<T> node(Loc loc) { return std::make_unique<T>(loc); }

class Parser {
public:
  explicit Parser(const SourceFile &file) : file_(file), toks_(tokenize(file)) {}

  ast::Module module();
  std::unique_ptr<ast::FunctionDef> singleFunction();

private:
  const SourceFile &file_;
  std::vector<Token> toks_;
  size_t pos_ = 0;
  int depth_ = 0; // expression nesting, to refuse pathological inputs before the stack does
  // '*x' elements of tuple/list displays in the current statement: legal only as
  // (refused) assignment targets, so any left after target checks is an error.
  std::vector<Loc> pendingStarred_;

  // ------------------------------------------------------------ tokens (parser.cpp)
  const Token &cur() const { return toks_[pos_]; }
  const Token &peek(size_t k) const {
    return toks_[pos_ + k < toks_.size() ? pos_ + k : toks_.size() - 1];
  }
  bool at(TokenKind k) const { return toks_[pos_].kind == k; }
  const Token &advance() { return toks_[pos_ + 1 < toks_.size() ? pos_++ : pos_]; }
  bool accept(TokenKind k) {
    if (!at(k))
      return false;
    advance();
    return true;
  }
  const Token &expect(TokenKind k, const char *what);
  [[noreturn]] void fail(Loc loc, const std::string &message) const;
  [[noreturn]] void unexpected() const;

  // ------------------------------------------------------------ statements (parser.cpp)
  void statement(ast::Body &out);
  void simpleStatements(ast::Body &out);
  ast::StmtPtr simpleStatement();
  ast::StmtPtr exprStatement();
  ast::Body block(const char *what, Loc header);
  std::unique_ptr<ast::FunctionDef> decorated();
  std::unique_ptr<ast::FunctionDef> functionDef(std::vector<ast::ExprPtr> decorators);
  void parameters(ast::FunctionDef &f);
  ast::StmtPtr ifStatement(const char *what);
  ast::StmtPtr forStatement();
  ast::StmtPtr whileStatement();
  ast::StmtPtr tryStatement();
  ast::StmtPtr withStatement(); // parser_with.cpp
  ast::StmtPtr importStatement();
  ast::StmtPtr fromImportStatement();
  std::vector<std::string> nameList();
  std::string dottedName();
  bool atMatchStatement() const;
  void matchStatement(ast::Body &out); // parser_match.cpp
  std::unique_ptr<MatchPattern> casePattern();
  std::unique_ptr<MatchPattern> asPattern();
  std::unique_ptr<MatchPattern> orPattern();
  std::unique_ptr<MatchPattern> closedPattern();
  std::unique_ptr<MatchPattern> itemPattern();
  std::unique_ptr<MatchPattern> bracketPattern(Loc loc);
  std::unique_ptr<MatchPattern> sequencePattern(std::vector<std::unique_ptr<MatchPattern>> items, Loc loc);
  [[noreturn]] void unsupportedStatement() const;
  void validateTarget(const ast::Expr &e) const;
  void checkPendingStarred() const;

  // ------------------------------------------------------------ expressions (parser_expr.cpp)
  ast::ExprPtr expr();                 // lambda / x if c else y / or-expression
  ast::ExprPtr exprList(bool targets); // a, b, *c → Tuple when a comma is present
  ast::ExprPtr orExpr();               // `or` level, without if-else
  ast::ExprPtr bitOr() { return binary(1); }
  ast::ExprPtr andExpr();
  ast::ExprPtr notExpr();
  ast::ExprPtr comparison();
  ast::ExprPtr binary(int minPrecedence); // '|' .. '*' levels
  ast::ExprPtr factor();
  ast::ExprPtr power();
  ast::ExprPtr primary();
  ast::ExprPtr atom();
  ast::ExprPtr lambda();
  ast::ExprPtr starOrExpr();
  ast::ExprPtr starred();
  ast::ExprPtr parenthesized();
  ast::ExprPtr listDisplay();
  ast::ExprPtr braceDisplay();
  // f-strings: the parts of one FString token (body at `offset` in the text).
  void fstringParts(const Token &t, size_t offset, const std::string &body, std::vector<ast::ExprPtr> &out);
  std::string resolveEscapes(const Token &t, const std::string &raw) const;
  ast::ExprPtr embeddedExpression(size_t start, size_t end, Loc loc);
  ast::ExprPtr comprehension(ast::CompKind kind, ast::ExprPtr elt, ast::ExprPtr value, Loc loc);
  ast::ExprPtr call(ast::ExprPtr func, Loc start);
  ast::ExprPtr subscript(ast::ExprPtr value, Loc start);
  ast::ExprPtr sliceItem();
  ast::ExprPtr intLiteral();
  ast::ExprPtr numberLiteral();
  ast::ExprPtr stringLiteral();
  ast::ExprPtr bytesLiteral();
  bool startsExpr() const;
  bool atComprehension() const { return at(TokenKind::KwFor) || at(TokenKind::KwAsync); }
  void enter();
  void leave() { --depth_; }
  friend struct DepthGuard;
};

// Counts expression nesting for the lifetime of one parsing call.
struct DepthGuard {
  Parser &p;
  explicit DepthGuard(Parser &parser) : p(parser) { p.enter(); }
  ~DepthGuard() { p.leave(); }
  DepthGuard(const DepthGuard &) = delete;
  DepthGuard &operator=(const DepthGuard &) = delete;
};

} // namespace mahou::frontend::detail
