// Private to the front end: the patterns of a parsed `match` statement (PEP 634, the
// subset compiled) and the lowering that turns the statement into an if/elif chain.
#pragma once

#include "mahou/ast.h"

#include <memory>
#include <string>
#include <vector>

namespace mahou::frontend::detail {

// One pattern of a `case` clause. A name it binds is bound to the subject or, inside
// sequence patterns, to an item of it: its access path (the indices from the subject).
struct MatchPattern {
  enum class Kind {
    Literal,  // 1, -2.5, 1+2j, "s": subject == value
    Identity, // None, True, False: subject is value
    Value,    // Color.RED, mod.CONST: subject == value
    Capture,  // x: binds the subject
    Wildcard, // _
    Or,       // p | q | ...
    As,       // p as x
    Sequence, // (a, b), [x, *_], a, b: a tuple of that length, items matched in turn
    Star,     // *_ inside a sequence (a starred capture is refused)
  };
  Kind kind = Kind::Wildcard;
  Loc loc{};
  ast::ExprPtr value;                                // Literal, Identity, Value
  std::string name;                                  // Capture, As
  // Or: the alternatives; As: alternatives[0] is the inner pattern; Sequence: the items.
  std::vector<std::unique_ptr<MatchPattern>> alternatives;

  // True when the pattern matches any subject (a capture, `_`, or an or/as holding one).
  bool irrefutable() const;
  // The index of item `k` of a sequence pattern in the subject (from the end after a star).
  int64_t itemIndex(size_t k) const;
};

// A name a pattern binds, where it binds it, and where it is written.
struct MatchBinding {
  std::string name;
  std::vector<int64_t> path;
  Loc loc{};
};
// The bindings of a pattern in source order (an or-pattern's: its first alternative's).
void matchBindings(const MatchPattern &p, std::vector<int64_t> &path, std::vector<MatchBinding> &out);

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
