// `with` statements: the one compiled code has is `with objmode(out='type', ...):`, a
// block the interpreter runs. Its body is any Python, so it is not parsed here: its
// tokens are skipped (nested blocks by their indents) and the names they might read
// are kept as the block's inputs. The statement becomes an assignment of the block's
// outputs (ast.h ObjMode); sema checks that the context manager is objmode.
#include "parser_impl.h"

#include <cctype>
#include <set>

namespace mahou::frontend::detail {

using namespace ast;
using K = TokenKind;

namespace {

// Identifiers inside an f-string's text (its replacement fields are expressions that
// the skipped body may read; words of the literal parts are harmless extra names).
void identifiersIn(const std::string &text, std::set<std::string> &out) {
  size_t i = 0;
  while (i < text.size()) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (std::isalpha(c) || c == '_') {
      size_t start = i;
      while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_'))
        ++i;
      out.insert(text.substr(start, i - start));
    } else if (std::isdigit(c)) {
      while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_'))
        ++i;
    } else {
      ++i;
    }
  }
}

} // namespace

StmtPtr Parser::withStatement() {
  Loc loc = advance().loc;
  if (at(K::LParen) && peek(1).kind == K::LParen)
    fail(cur().loc, "a parenthesized group of context managers is not supported");
  pendingStarred_.clear();
  ExprPtr context = expr();
  checkPendingStarred();
  if (at(K::KwAs))
    fail(cur().loc, "'with ... as name' is not supported: compiled code runs only 'with objmode(...)' blocks, "
                    "which bind no name");
  if (at(K::Comma))
    fail(cur().loc, "a 'with' statement with several context managers is not supported");
  expect(K::Colon, "':'");

  auto block = node<ObjMode>(loc);
  if (auto *call = context->as<Call>())
    for (const Keyword &k : call->keywords) {
      if (k.name.empty())
        fail(k.loc, "objmode(**kwargs) is not supported: name each output and its type, objmode(x='float64')");
      block->outputs.push_back(k.name);
    }
  block->context = std::move(context);

  // Skip the body, keeping the names it may read.
  std::set<std::string> names;
  auto note = [&](size_t i) {
    const Token &t = toks_[i];
    // Not an attribute (`.x`), a keyword argument or the target of a plain `x = ...`.
    if (t.kind == K::Name && (i == 0 || toks_[i - 1].kind != K::Dot) &&
        (i + 1 >= toks_.size() || toks_[i + 1].kind != K::Assign))
      names.insert(t.text);
    else if (t.kind == K::FString)
      identifiersIn(t.text, names);
  };
  if (!accept(K::Newline)) { // `with objmode(): x = f()` on one line
    while (!at(K::Newline) && !at(K::EndOfFile)) {
      note(pos_);
      advance();
    }
    accept(K::Newline);
  } else {
    if (!at(K::Indent))
      fail(cur().loc, "expected an indented block after 'with' statement on line " + std::to_string(loc.line));
    advance();
    int depth = 1;
    while (depth > 0 && !at(K::EndOfFile)) {
      if (at(K::Indent))
        ++depth;
      else if (at(K::Dedent))
        --depth;
      else
        note(pos_);
      advance();
    }
  }
  for (const std::string &n : names) {
    auto read = node<Name>(loc);
    read->id = n;
    block->inputs.push_back(std::move(read));
  }

  // The outputs are assigned by the block: `y = <block>`, `y, z = <block>`.
  std::vector<std::string> outputs = block->outputs;
  if (outputs.empty()) {
    auto s = node<ExprStmt>(loc);
    s->value = std::move(block);
    return s;
  }
  auto s = node<Assign>(loc);
  auto target = [&](const std::string &name) {
    auto n = node<Name>(loc);
    n->id = name;
    return n;
  };
  if (outputs.size() == 1) {
    s->targets.push_back(target(outputs[0]));
  } else {
    auto t = node<Tuple>(loc);
    for (const std::string &name : outputs)
      t->elts.push_back(target(name));
    s->targets.push_back(std::move(t));
  }
  s->value = std::move(block);
  return s;
}

} // namespace mahou::frontend::detail
