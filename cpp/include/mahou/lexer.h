// Lexer: Python source text → tokens with INDENT/DEDENT/NEWLINE, as CPython's tokenizer.
#pragma once

#include "mahou/diagnostics.h"
#include "mahou/token.h"

#include <string>
#include <vector>

namespace mahou::frontend {

// Tokenizes the whole file. The indentation of the first non-blank line is the
// base level (so a method's source, still indented, lexes as top level).
// Newlines inside (), [], {} and after a backslash are joined; comments and
// blank lines produce no tokens. Unsupported literals (f-strings, bytes) raise
// an UnsupportedError naming the line.
std::vector<Token> tokenize(const SourceFile &file);

// One token per line: "line:col KIND text".
std::string dumpTokens(const std::vector<Token> &tokens);

} // namespace mahou::frontend
