// Private to the front end: the patterns of a parsed `match` statement (PEP 634, the
// subset compiled) and the lowering that turns the statement into an if/elif chain.
#pragma once

#include "mahou/ast.h"

#include <memory>
#include <string>
#include <vector>

namespace mahou::frontend::detail {

// One pattern of a `case` clause. Every pattern the subset accepts tests the whole
// subject, so a name it binds is always bound to the subject itself.
struct MatchPattern {
  enum class Kind {
    Literal,  // 1, -2.5, 1+2j, "s": subject == value
    Identity, // None, True, False: subject is value
    Value,    // Color.RED, mod.CONST: subject == value
    Capture,  // x: binds the subject
    Wildcard, // _
    Or,       // p | q | ...
    As,       // p as x
  };
  Kind kind = Kind::Wildcard;
  Loc loc{};
  ast::ExprPtr value;                                // Literal, Identity, Value
  std::string name;                                  // Capture, As
  std::vector<std::unique_ptr<MatchPattern>> alternatives; // Or; As: alternatives[0] is the inner pattern

  // True when the pattern matches any subject (a capture, `_`, or an or/as holding one).
  bool irrefutable() const;
};

struct MatchCase {
  Loc loc{};
  std::unique_ptr<MatchPattern> pattern;
  ast::ExprPtr guard; // may be null
  ast::Body body;
};

struct MatchStatement {
  Loc loc{};
  ast::ExprPtr subject;
  std::vector<MatchCase> cases;
};

// The statements that run the match: `$match@L:C = subject`, then an if/elif chain in case
// order (match_lowering.cpp). Names bound by a pattern are the names its checks collected.
void lowerMatch(MatchStatement m, ast::Body &out);

} // namespace mahou::frontend::detail
