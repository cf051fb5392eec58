// Tokens of the Python source accepted by the front end (the list lives in tokens.def).
#pragma once

#include "mahou/diagnostics.h"

#include <string>
#include <vector>

namespace mahou::frontend {

enum class TokenKind {
#define MAHOU_TOKEN(name, spelling) name,
#include "mahou/tokens.def"
#undef MAHOU_TOKEN
};

// The spelling used by the token dump ("NAME", "+", "def", ...).
const char *tokenKindName(TokenKind kind);

struct Token {
  TokenKind kind;
  std::string text; // identifier, number or string contents (escapes resolved), keyword
  Loc loc;
  // For String tokens: prefix flags. f-strings and bytes are refused by the lexer.
  bool isRawString = false;
};

} // namespace mahou::frontend
