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
  // For String, Bytes and FString tokens: the r prefix.
  bool isRawString = false;
  // For FString tokens: the byte offset of the body in the source text, and whether
  // it was triple-quoted.
  size_t offset = 0;
  bool triple = false;
};

} // namespace mahou::frontend
