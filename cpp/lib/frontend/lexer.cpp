// Lexer: Python source text → tokens (with INDENT/DEDENT/NEWLINE), following
// CPython's tokenizer for the subset mahou accepts.
#include "mahou/lexer.h"
#include "mahou/utf8.h"
#include "frontend/nfkc.h"

#include "repr.h"

#include <array>
#include <cstdint>
#include <cstdio>
#include <string_view>

namespace mahou::frontend {

const char *tokenKindName(TokenKind kind) {
  switch (kind) {
#define MAHOU_TOKEN(name, spelling)                                                      \
  case TokenKind::name:                                                                  \
    return spelling;
#include "mahou/tokens.def"
#undef MAHOU_TOKEN
  }
  return "?";
}

namespace {

struct KeywordEntry {
  std::string_view text;
  TokenKind kind;
};

constexpr std::array<KeywordEntry, 35> kKeywords = {{
    {"False", TokenKind::KwFalse},     {"None", TokenKind::KwNone},
    {"True", TokenKind::KwTrue},       {"and", TokenKind::KwAnd},
    {"as", TokenKind::KwAs},           {"assert", TokenKind::KwAssert},
    {"async", TokenKind::KwAsync},     {"await", TokenKind::KwAwait},
    {"break", TokenKind::KwBreak},     {"class", TokenKind::KwClass},
    {"continue", TokenKind::KwContinue}, {"def", TokenKind::KwDef},
    {"del", TokenKind::KwDel},         {"elif", TokenKind::KwElif},
    {"else", TokenKind::KwElse},       {"except", TokenKind::KwExcept},
    {"finally", TokenKind::KwFinally}, {"for", TokenKind::KwFor},
    {"from", TokenKind::KwFrom},       {"global", TokenKind::KwGlobal},
    {"if", TokenKind::KwIf},           {"import", TokenKind::KwImport},
    {"in", TokenKind::KwIn},           {"is", TokenKind::KwIs},
    {"lambda", TokenKind::KwLambda},   {"nonlocal", TokenKind::KwNonlocal},
    {"not", TokenKind::KwNot},         {"or", TokenKind::KwOr},
    {"pass", TokenKind::KwPass},       {"raise", TokenKind::KwRaise},
    {"return", TokenKind::KwReturn},   {"try", TokenKind::KwTry},
    {"while", TokenKind::KwWhile},     {"with", TokenKind::KwWith},
    {"yield", TokenKind::KwYield},
}};

TokenKind identifierKind(std::string_view word) {
  if (word.size() < 2 || word.size() > 8)
    return TokenKind::Name;
  for (const KeywordEntry &k : kKeywords)
    if (k.text[0] == word[0] && k.text == word)
      return k.kind;
  return TokenKind::Name;
}

constexpr size_t kMaxBrackets = 200; // CPython's limits
constexpr size_t kMaxIndents = 100;

bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}
bool isIdentChar(char c) { return isIdentStart(c) || isDigit(c); }

int digitValue(char c) {
  if (isDigit(c))
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return 99;
}


// Digits (0..base-1 values) of a hex/octal/binary literal → decimal text, with
// arbitrary precision for literals wider than 64 bits.
std::string toDecimal(const std::string &digits, int base) {
  uint64_t value = 0;
  bool fits = true;
  for (char d : digits) {
    uint64_t v = static_cast<uint64_t>(digitValue(d));
    if (value > (UINT64_MAX - v) / static_cast<uint64_t>(base)) {
      fits = false;
      break;
    }
    value = value * base + v;
  }
  if (fits)
    return std::to_string(value);
  std::vector<uint32_t> limbs{0}; // little-endian, base 1e9
  for (char d : digits) {
    uint64_t carry = static_cast<uint64_t>(digitValue(d));
    for (uint32_t &limb : limbs) {
      uint64_t cur = static_cast<uint64_t>(limb) * base + carry;
      limb = static_cast<uint32_t>(cur % 1000000000u);
      carry = cur / 1000000000u;
    }
    if (carry)
      limbs.push_back(static_cast<uint32_t>(carry));
  }
  std::string out = std::to_string(limbs.back());
  for (size_t i = limbs.size() - 1; i-- > 0;) {
    std::string part = std::to_string(limbs[i]);
    out += std::string(9 - part.size(), '0') + part;
  }
  return out;
}

class Lexer {
public:
  explicit Lexer(const SourceFile &file)
      : file_(file), src_(file.text()), line_(file.firstLine()) {}

  std::vector<Token> run() {
    toks_.reserve(src_.size() / 3 + 8);
    while (true) {
      if (atLineStart_) {
        atLineStart_ = false;
        if (brackets_.empty())
          indentation();
      }
      skipSpaces();
      if (atEnd())
        break;
      char c = peek();
      if (c == '#')
        skipComment();
      else if (atNewline())
        endOfLine();
      else if (c == '\\')
        continuation();
      else if (isIdentStart(c))
        identifierOrString();
      else if (isDigit(c) || (c == '.' && isDigit(peek(1))))
        number();
      else if (c == '"' || c == '\'')
        string(here(), false);
      else
        punctuation();
    }
    finish();
    return std::move(toks_);
  }

private:
  struct Bracket {
    char open;
    Loc loc;
  };

  const SourceFile &file_;
  std::string_view src_;
  size_t pos_ = 0;
  bool fstrRaw_ = false; // the f-string being lexed had an r prefix
  int line_;
  size_t lineStart_ = 0;
  bool atLineStart_ = true;
  bool lineHasTokens_ = false;
  Loc lastEnd_{};
  std::vector<Token> toks_;
  std::vector<int> indents_, altIndents_; // empty until the first non-blank line
  std::vector<Bracket> brackets_;

  char peek(size_t k = 0) const { return pos_ + k < src_.size() ? src_[pos_ + k] : '\0'; }
  bool atEnd() const { return pos_ >= src_.size(); }
  bool atNewline() const { return peek() == '\n' || (peek() == '\r' && peek(1) == '\n'); }
  Loc here() const { return {line_, static_cast<int>(pos_ - lineStart_) + 1}; }
  [[noreturn]] void fail(Loc loc, const std::string &msg) const { unsupported(file_, loc, msg); }

  void consumeNewline() {
    pos_ += peek() == '\r' ? 2 : 1;
    ++line_;
    lineStart_ = pos_;
  }

  void emit(TokenKind kind, Loc loc, std::string text = {}) {
    toks_.push_back(Token{kind, std::move(text), loc});
    lineHasTokens_ = true;
    lastEnd_ = here();
  }

  void skipSpaces() {
    while (!atEnd()) {
      char c = peek();
      if (c == ' ' || c == '\t' || c == '\f' || (c == '\r' && peek(1) != '\n'))
        ++pos_;
      else
        break;
    }
  }

  void skipComment() {
    while (!atEnd() && !atNewline())
      ++pos_;
  }

  void endOfLine() {
    Loc loc = lastEnd_;
    consumeNewline();
    if (!brackets_.empty())
      return;
    if (lineHasTokens_)
      toks_.push_back(Token{TokenKind::Newline, {}, loc});
    lineHasTokens_ = false;
    atLineStart_ = true;
  }

  void continuation() {
    Loc loc = here();
    ++pos_;
    if (!atNewline())
      fail(loc, "unexpected character after line continuation character");
    consumeNewline();
    if (atEnd())
      fail(loc, "unexpected end of file after line continuation character");
  }

  // Measures the indentation of a new logical line and emits INDENT/DEDENTs.
  void indentation() {
    int width = 0, alt = 0; // alt: tabs counted as one column, to catch mixed tabs/spaces
    for (; !atEnd(); ++pos_) {
      char c = peek();
      if (c == ' ') {
        ++width, ++alt;
      } else if (c == '\t') {
        width = (width / 8 + 1) * 8;
        ++alt;
      } else if (c == '\f') {
        width = alt = 0;
      } else {
        break;
      }
    }
    if (atEnd() || peek() == '#' || atNewline() || (peek() == '\r'))
      return; // blank or comment-only line
    Loc loc = here();
    if (indents_.empty()) {
      indents_.push_back(width);
      altIndents_.push_back(alt);
      return;
    }
    if (width > indents_.back()) {
      if (alt <= altIndents_.back())
        fail(loc, "inconsistent use of tabs and spaces in indentation");
      if (indents_.size() >= kMaxIndents)
        fail(loc, "too many levels of indentation");
      indents_.push_back(width);
      altIndents_.push_back(alt);
      emit(TokenKind::Indent, loc);
      return;
    }
    while (indents_.size() > 1 && width < indents_.back()) {
      indents_.pop_back();
      altIndents_.pop_back();
      emit(TokenKind::Dedent, loc);
    }
    if (width != indents_.back())
      fail(loc, "unindent does not match any outer indentation level");
    if (alt != altIndents_.back())
      fail(loc, "inconsistent use of tabs and spaces in indentation");
  }

  void identifierOrString() {
    Loc loc = here();
    size_t start = pos_;
    while (isIdentChar(peek()))
      ++pos_;
    std::string_view word = src_.substr(start, pos_ - start);
    if ((peek() == '"' || peek() == '\'') && word.size() <= 2 && stringPrefix(word, loc))
      return;
    // Keywords are the words as written; names are read as Python reads them, in NFKC
    // ('ϵ' is 'ε', 'µ' is 'μ').
    emit(identifierKind(word), loc, nfkcIdentifier(word));
  }

  // If `word` is a string prefix (r, u, b, f and their valid combinations), lexes
  // the string that follows and returns true.
  bool stringPrefix(std::string_view word, Loc loc) {
    bool raw = false, bytes = false, fstr = false, uni = false;
    for (char c : word) {
      bool *flag = nullptr;
      switch (c | 0x20) {
      case 'r': flag = &raw; break;
      case 'b': flag = &bytes; break;
      case 'f': flag = &fstr; break;
      case 'u': flag = &uni; break;
      default: return false;
      }
      if (*flag)
        return false;
      *flag = true;
    }
    if ((uni && word.size() > 1) || (bytes && fstr))
      return false;
    fstrRaw_ = raw;
    string(loc, raw, fstr, bytes);
    return true;
  }

  // A string literal; an f-string keeps its body as written (the parser splits it); a
  // bytes literal holds its bytes (ASCII characters and \x, octal and C escapes).
  void string(Loc loc, bool raw, bool fstr = false, bool bytes = false) {
    char quote = peek();
    bool triple = peek(1) == quote && peek(2) == quote;
    pos_ += triple ? 3 : 1;
    size_t bodyStart = pos_;
    std::string value;
    if (fstr) raw = true; // escapes are resolved part by part by the parser
    while (true) {
      if (atEnd())
        fail(loc, triple ? "unterminated triple-quoted string literal"
                         : "unterminated string literal");
      char c = peek();
      if (c == quote) {
        if (!triple) {
          ++pos_;
          break;
        }
        if (peek(1) == quote && peek(2) == quote) {
          pos_ += 3;
          break;
        }
        value += c;
        ++pos_;
      } else if (atNewline()) {
        if (!triple)
          fail(loc, "unterminated string literal");
        value += '\n';
        consumeNewline();
      } else if (c == '\\') {
        if (raw)
          rawBackslash(value);
        else if (bytes)
          bytesEscape(value);
        else
          escape(value);
      } else {
        if (bytes && static_cast<unsigned char>(c) >= 0x80)
          fail(here(), "bytes can only contain ASCII literal characters");
        value += c;
        ++pos_;
      }
    }
    if (bytes) {
      emit(TokenKind::Bytes, loc, std::move(value));
      toks_.back().isRawString = raw;
      return;
    }
    if (fstr) {
      emit(TokenKind::FString, loc, std::move(value));
      toks_.back().offset = bodyStart;
      toks_.back().triple = triple;
      toks_.back().isRawString = fstrRaw_;
      return;
    }
    emit(TokenKind::String, loc, std::move(value));
    toks_.back().isRawString = raw;
  }

  // In a raw string a backslash is kept together with the character after it.
  void rawBackslash(std::string &value) {
    value += '\\';
    ++pos_;
    if (atEnd())
      return;
    if (atNewline()) {
      value += '\n';
      consumeNewline();
    } else {
      value += peek();
      ++pos_;
    }
  }

  uint32_t hexEscape(Loc loc, int count, const char *name) {
    uint32_t cp = 0;
    for (int i = 0; i < count; ++i) {
      int d = digitValue(peek());
      if (d > 15)
        fail(loc, std::string("(unicode error) truncated ") + name + " escape");
      cp = cp * 16 + static_cast<uint32_t>(d);
      ++pos_;
    }
    return cp;
  }

  void escape(std::string &out) {
    Loc loc = here();
    ++pos_; // the backslash
    if (atEnd())
      return;
    if (atNewline()) {
      consumeNewline();
      return;
    }
    char c = peek();
    ++pos_;
    switch (c) {
    case '\\': case '\'': case '"': out += c; return;
    case 'a': out += '\a'; return;
    case 'b': out += '\b'; return;
    case 'f': out += '\f'; return;
    case 'n': out += '\n'; return;
    case 'r': out += '\r'; return;
    case 't': out += '\t'; return;
    case 'v': out += '\v'; return;
    case 'x': appendUtf8(out, hexEscape(loc, 2, "\\xXX")); return;
    case 'u': appendUtf8(out, hexEscape(loc, 4, "\\uXXXX")); return;
    case 'U': {
      uint32_t cp = hexEscape(loc, 8, "\\UXXXXXXXX");
      if (cp > 0x10FFFF)
        fail(loc, "(unicode error) illegal Unicode character");
      appendUtf8(out, cp);
      return;
    }
    case 'N': fail(loc, "'\\N{...}' escapes are not supported");
    default: break;
    }
    if (c >= '0' && c <= '7') {
      uint32_t cp = static_cast<uint32_t>(c - '0');
      for (int i = 0; i < 2 && peek() >= '0' && peek() <= '7'; ++i, ++pos_)
        cp = cp * 8 + static_cast<uint32_t>(peek() - '0');
      appendUtf8(out, cp);
      return;
    }
    out += '\\'; // unknown escape: kept as written
    --pos_;
  }

  // An escape of a bytes literal: a byte for \xHH, an octal or a C escape; \u, \U, \N
  // and unknown escapes are kept as written, as Python keeps them.
  void bytesEscape(std::string &out) {
    Loc loc = here();
    char c = peek(1);
    if (c == 'x') {
      pos_ += 2;
      uint32_t v = hexEscape(loc, 2, "\\xXX");
      out += static_cast<char>(v);
      return;
    }
    if (c >= '0' && c <= '7') {
      pos_ += 2;
      uint32_t v = static_cast<uint32_t>(c - '0');
      for (int i = 0; i < 2 && peek() >= '0' && peek() <= '7'; ++i, ++pos_)
        v = v * 8 + static_cast<uint32_t>(peek() - '0');
      out += static_cast<char>(v & 0xFF);
      return;
    }
    if (c == 'u' || c == 'U' || c == 'N') {
      out += '\\';
      ++pos_;
      return;
    }
    escape(out); // the C escapes, a newline, unknown escapes kept
  }

  // Decimal digits with single underscores between them, appended to `out`.
  void decimalDigits(std::string &out) {
    while (true) {
      if (isDigit(peek())) {
        out += peek();
        ++pos_;
      } else if (peek() == '_' && isDigit(peek(1)) && !out.empty() && isDigit(out.back())) {
        ++pos_;
      } else {
        return;
      }
    }
  }

  void noIdentifierAfterNumber(Loc loc, const char *what) {
    if (isIdentChar(peek()))
      fail(loc, std::string("invalid ") + what + " literal");
  }

  void basedInteger(Loc loc) {
    char p = peek(1) | 0x20;
    int base = p == 'x' ? 16 : p == 'o' ? 8 : 2;
    const char *what = p == 'x' ? "hexadecimal" : p == 'o' ? "octal" : "binary";
    pos_ += 2;
    std::string digits;
    while (true) {
      char c = peek() == '_' ? peek(1) : peek();
      if (digitValue(c) >= base)
        break;
      pos_ += peek() == '_' ? 2 : 1;
      digits += c;
    }
    if (digits.empty())
      fail(loc, std::string("invalid ") + what + " literal");
    noIdentifierAfterNumber(loc, what);
    emit(TokenKind::Int, loc, toDecimal(digits, base));
  }

  void number() {
    Loc loc = here();
    char p = peek(1) | 0x20;
    if (peek() == '0' && (p == 'x' || p == 'o' || p == 'b'))
      return basedInteger(loc);
    std::string text;
    bool isFloat = false;
    if (peek() != '.')
      decimalDigits(text);
    if (peek() == '.') {
      isFloat = true;
      text += '.';
      ++pos_;
      if (isDigit(peek()))
        decimalDigits(text);
    }
    char e1 = peek(1);
    if ((peek() | 0x20) == 'e' &&
        (isDigit(e1) || ((e1 == '+' || e1 == '-') && isDigit(peek(2))))) {
      isFloat = true;
      text += 'e';
      ++pos_;
      if (!isDigit(peek())) {
        text += peek();
        ++pos_;
      }
      decimalDigits(text);
    }
    if ((peek() | 0x20) == 'j') {
      ++pos_;
      noIdentifierAfterNumber(loc, "imaginary");
      return emit(TokenKind::Imag, loc, std::move(text));
    }
    noIdentifierAfterNumber(loc, "decimal");
    if (isFloat)
      return emit(TokenKind::Float, loc, std::move(text));
    size_t nz = text.find_first_not_of('0');
    if (nz == std::string::npos)
      return emit(TokenKind::Int, loc, "0");
    if (nz != 0)
      fail(loc, "leading zeros in decimal integer literals are not permitted; "
                "use an 0o prefix for octal integers");
    emit(TokenKind::Int, loc, std::move(text));
  }

  void openBracket(char c, Loc loc) {
    if (brackets_.size() >= kMaxBrackets)
      fail(loc, "too many nested parentheses");
    brackets_.push_back({c, loc});
  }

  void closeBracket(char c, Loc loc) {
    char open = c == ')' ? '(' : c == ']' ? '[' : '{';
    if (brackets_.empty())
      fail(loc, std::string("unmatched '") + c + "'");
    if (brackets_.back().open != open)
      fail(loc, std::string("closing parenthesis '") + c +
                    "' does not match opening parenthesis '" + brackets_.back().open + "'");
    brackets_.pop_back();
  }

  // An operator that may be followed by '=' to form its augmented assignment.
  TokenKind withAssign(TokenKind plain, TokenKind assign, size_t &len) const {
    if (peek(len) == '=') {
      ++len;
      return assign;
    }
    return plain;
  }

  void invalidCharacter(Loc loc) {
    unsigned char c = static_cast<unsigned char>(peek());
    char buf[16];
    std::snprintf(buf, sizeof buf, "U+%04X", c);
    std::string shown = c >= 0x20 && c < 0x7F ? std::string(1, static_cast<char>(c)) : "";
    fail(loc, "invalid character '" + shown + "' (" + buf + ")");
  }

  void punctuation() {
    using K = TokenKind;
    Loc loc = here();
    char c = peek(), c1 = peek(1);
    size_t len = 1;
    K kind;
    switch (c) {
    case '(': openBracket(c, loc); kind = K::LParen; break;
    case '[': openBracket(c, loc); kind = K::LBracket; break;
    case '{': openBracket(c, loc); kind = K::LBrace; break;
    case ')': closeBracket(c, loc); kind = K::RParen; break;
    case ']': closeBracket(c, loc); kind = K::RBracket; break;
    case '}': closeBracket(c, loc); kind = K::RBrace; break;
    case ',': kind = K::Comma; break;
    case ';': kind = K::Semicolon; break;
    case '~': kind = K::Tilde; break;
    case ':': kind = withAssign(K::Colon, K::Walrus, len); break;
    case '+': kind = withAssign(K::Plus, K::PlusAssign, len); break;
    case '%': kind = withAssign(K::Percent, K::PercentAssign, len); break;
    case '&': kind = withAssign(K::Amp, K::AmpAssign, len); break;
    case '|': kind = withAssign(K::Pipe, K::PipeAssign, len); break;
    case '^': kind = withAssign(K::Caret, K::CaretAssign, len); break;
    case '@': kind = withAssign(K::At, K::AtAssign, len); break;
    case '=': kind = withAssign(K::Assign, K::EqualEqual, len); break;
    case '-':
      if (c1 == '>') {
        len = 2;
        kind = K::Arrow;
      } else {
        kind = withAssign(K::Minus, K::MinusAssign, len);
      }
      break;
    case '*':
      kind = c1 == '*' ? (len = 2, withAssign(K::DoubleStar, K::DoubleStarAssign, len))
                       : withAssign(K::Star, K::StarAssign, len);
      break;
    case '/':
      kind = c1 == '/' ? (len = 2, withAssign(K::DoubleSlash, K::DoubleSlashAssign, len))
                       : withAssign(K::Slash, K::SlashAssign, len);
      break;
    case '<':
      kind = c1 == '<' ? (len = 2, withAssign(K::LShift, K::LShiftAssign, len))
                       : withAssign(K::Less, K::LessEqual, len);
      break;
    case '>':
      kind = c1 == '>' ? (len = 2, withAssign(K::RShift, K::RShiftAssign, len))
                       : withAssign(K::Greater, K::GreaterEqual, len);
      break;
    case '!':
      if (c1 != '=')
        fail(loc, "invalid syntax: '!' is not an operator");
      len = 2;
      kind = K::NotEqual;
      break;
    case '.':
      if (c1 == '.' && peek(2) == '.') {
        len = 3;
        kind = K::Ellipsis;
      } else {
        kind = K::Dot;
      }
      break;
    default: invalidCharacter(loc);
    }
    pos_ += len;
    emit(kind, loc);
  }

  void finish() {
    if (!brackets_.empty())
      fail(brackets_.back().loc, std::string("'") + brackets_.back().open + "' was never closed");
    Loc end = here();
    if (lineHasTokens_)
      toks_.push_back(Token{TokenKind::Newline, {}, lastEnd_});
    for (size_t i = 1; i < indents_.size(); ++i)
      toks_.push_back(Token{TokenKind::Dedent, {}, end});
    toks_.push_back(Token{TokenKind::EndOfFile, {}, end});
  }
};

} // namespace

std::vector<Token> tokenize(const SourceFile &file) { return Lexer(file).run(); }

std::string dumpTokens(const std::vector<Token> &tokens) {
  std::string out;
  for (const Token &t : tokens) {
    out += std::to_string(t.loc.line) + ":" + std::to_string(t.loc.col) + " " +
           tokenKindName(t.kind);
    switch (t.kind) {
    case TokenKind::Name:
    case TokenKind::Int:
    case TokenKind::Float:
    case TokenKind::Imag:
      out += " " + t.text;
      break;
    case TokenKind::String:
      out += " " + pyStrRepr(t.text);
      break;
    case TokenKind::Bytes:
      out += " " + pyBytesRepr(t.text);
      break;
    default:
      break;
    }
    out += '\n';
  }
  return out;
}

} // namespace mahou::frontend
