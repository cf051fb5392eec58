// Unit tests of the lexer (tokens, indentation, literals, errors) and of the
// diagnostic formatting in support/diagnostics.cpp.
#include "mahou/diagnostics.h"
#include "mahou/lexer.h"

#include <gtest/gtest.h>

#include <optional>

using namespace mahou;
using namespace mahou::frontend;

namespace {

std::string dump(const std::string &src, int firstLine = 1) {
  return dumpTokens(tokenize(SourceFile("t.py", src, firstLine)));
}

std::vector<Token> lex(const std::string &src) { return tokenize(SourceFile("t.py", src)); }

// Kinds only, to check structure without locations.
std::string kinds(const std::string &src) {
  std::string out;
  for (const Token &t : lex(src)) {
    if (!out.empty())
      out += ' ';
    out += tokenKindName(t.kind);
  }
  return out;
}

std::optional<UserError> lexError(const std::string &src) {
  try {
    tokenize(SourceFile("t.py", src));
  } catch (const UserError &e) {
    return e;
  }
  return std::nullopt;
}

#define EXPECT_LEX_ERROR(src, eline, ecol, emsg)                                            \
  do {                                                                                   \
    auto err = lexError(src);                                                            \
    ASSERT_TRUE(err.has_value()) << "no error for: " << (src);                           \
    EXPECT_EQ(err->kind(), DiagKind::Unsupported);                                       \
    EXPECT_EQ(err->loc().line, eline);                                                    \
    EXPECT_EQ(err->loc().col, ecol);                                                      \
    EXPECT_EQ(err->message(), emsg);                                                     \
  } while (0)

} // namespace

TEST(Lexer, SimpleStatementDump) {
  EXPECT_EQ(dump("x = 1 + y\n"), "1:1 NAME x\n"
                                 "1:3 =\n"
                                 "1:5 INT 1\n"
                                 "1:7 +\n"
                                 "1:9 NAME y\n"
                                 "1:10 NEWLINE\n"
                                 "2:1 EOF\n");
}

TEST(Lexer, EmptyAndBlankInput) {
  EXPECT_EQ(kinds(""), "EOF");
  EXPECT_EQ(kinds("\n\n   \n# only a comment\n"), "EOF");
}

TEST(Lexer, IndentDedent) {
  std::string src = "def f(x):\n"
                    "    if x:\n"
                    "        return 1\n"
                    "    return 2\n"
                    "y = 3\n";
  EXPECT_EQ(kinds(src), "def NAME ( NAME ) : NEWLINE "
                        "INDENT if NAME : NEWLINE "
                        "INDENT return INT NEWLINE "
                        "DEDENT return INT NEWLINE "
                        "DEDENT NAME = INT NEWLINE EOF");
}

TEST(Lexer, FinalNewlineAndDedentsWhenMissing) {
  EXPECT_EQ(kinds("if x:\n    if y:\n        z"),
            "if NAME : NEWLINE INDENT if NAME : NEWLINE INDENT NAME NEWLINE DEDENT DEDENT EOF");
}

TEST(Lexer, DedentLocationIsNextToken) {
  auto toks = lex("if x:\n    y\nz\n");
  // if x : NEWLINE INDENT y NEWLINE DEDENT z
  ASSERT_EQ(toks[7].kind, TokenKind::Dedent);
  EXPECT_EQ(toks[7].loc.line, 3);
  EXPECT_EQ(toks[7].loc.col, 1);
}

TEST(Lexer, BlankLinesAndCommentsProduceNothing) {
  std::string src = "x = 1  # trailing\n"
                    "\n"
                    "        # oddly indented comment\n"
                    "   \n"
                    "y = 2\n";
  EXPECT_EQ(kinds(src), "NAME = INT NEWLINE NAME = INT NEWLINE EOF");
}

TEST(Lexer, NewlineTokenSitsAfterLastToken) {
  auto toks = lex("x = 1   # comment\n");
  ASSERT_EQ(toks[3].kind, TokenKind::Newline);
  EXPECT_EQ(toks[3].loc.line, 1);
  EXPECT_EQ(toks[3].loc.col, 6);
}

TEST(Lexer, ImplicitLineJoining) {
  std::string src = "x = f(1,\n"
                    "          2,   # comment inside\n"
                    "\n"
                    "  [3,\n"
                    "   {4}])\n"
                    "y\n";
  EXPECT_EQ(kinds(src), "NAME = NAME ( INT , INT , [ INT , { INT } ] ) NEWLINE NAME NEWLINE EOF");
}

TEST(Lexer, BackslashContinuation) {
  EXPECT_EQ(dump("x = 1 + \\\n      2\n"), "1:1 NAME x\n"
                                          "1:3 =\n"
                                          "1:5 INT 1\n"
                                          "1:7 +\n"
                                          "2:7 INT 2\n"
                                          "2:8 NEWLINE\n"
                                          "3:1 EOF\n");
}

TEST(Lexer, IndentedSourceUsesFirstLineAsBase) {
  std::string src = "    @jit\n"
                    "    def method(self):\n"
                    "        return 1\n";
  EXPECT_EQ(kinds(src), "@ NAME NEWLINE def NAME ( NAME ) : NEWLINE INDENT return INT NEWLINE "
                        "DEDENT EOF");
  auto toks = lex(src);
  EXPECT_EQ(toks[0].loc.line, 1);
  EXPECT_EQ(toks[0].loc.col, 5);
}

TEST(Lexer, FirstLineOffset) {
  std::string d = dump("def f():\n    return 1\n", 10);
  EXPECT_EQ(d, "10:1 def\n"
               "10:5 NAME f\n"
               "10:6 (\n"
               "10:7 )\n"
               "10:8 :\n"
               "10:9 NEWLINE\n"
               "11:5 INDENT\n"
               "11:5 return\n"
               "11:12 INT 1\n"
               "11:13 NEWLINE\n"
               "12:1 DEDENT\n"
               "12:1 EOF\n");
}

TEST(Lexer, CrLfLineEndings) {
  EXPECT_EQ(kinds("if x:\r\n    y = 1\r\n"), "if NAME : NEWLINE INDENT NAME = INT NEWLINE DEDENT EOF");
}

TEST(Lexer, TabsIndentation) {
  EXPECT_EQ(kinds("if x:\n\ty\n\tz\n"), "if NAME : NEWLINE INDENT NAME NEWLINE NAME NEWLINE DEDENT EOF");
}

TEST(Lexer, Keywords) {
  EXPECT_EQ(kinds("if elif else for while def return and or not in is None True False lambda "
                  "match print Trueish"),
            "if elif else for while def return and or not in is None True False lambda "
            "NAME NAME NAME NEWLINE EOF");
}

TEST(Lexer, Operators) {
  EXPECT_EQ(kinds("+ += - -= -> * *= ** **= / /= // //= % %= @ @= & &= | |= ^ ^= ~ "
                  "<< <<= >> >>= < <= > >= == != = := : ; , . ..."),
            "+ += - -= -> * *= ** **= / /= // //= % %= @ @= & &= | |= ^ ^= ~ "
            "<< <<= >> >>= < <= > >= == != = := : ; , . ... NEWLINE EOF");
}

TEST(Lexer, IntegerLiterals) {
  auto toks = lex("0 00 123 1_000_000 0x1F 0XfF 0o17 0b1010 0b_1 0x_ff");
  std::vector<std::string> expected = {"0", "0", "123", "1000000", "31", "255", "15", "10", "1", "255"};
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(toks[i].kind, TokenKind::Int) << i;
    EXPECT_EQ(toks[i].text, expected[i]) << i;
  }
}

TEST(Lexer, HugeIntegerLiteralsStillLex) {
  auto toks = lex("99999999999999999999999 0xffffffffffffffffff 0b" + std::string(70, '1'));
  EXPECT_EQ(toks[0].text, "99999999999999999999999");
  EXPECT_EQ(toks[1].text, "4722366482869645213695"); // 2**72 - 1
  EXPECT_EQ(toks[2].text, "1180591620717411303423"); // 2**70 - 1
}

TEST(Lexer, FloatLiterals) {
  auto toks = lex("1. .5 1e-3 1_000.5 3.14 2E+10 1_0e1_0 0.0");
  std::vector<std::string> expected = {"1.", ".5", "1e-3", "1000.5", "3.14", "2e+10", "10e10", "0.0"};
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(toks[i].kind, TokenKind::Float) << i;
    EXPECT_EQ(toks[i].text, expected[i]) << i;
  }
}

TEST(Lexer, ImaginaryLiterals) {
  auto toks = lex("2j 1.5J 1e3j");
  EXPECT_EQ(toks[0].kind, TokenKind::Imag);
  EXPECT_EQ(toks[0].text, "2");
  EXPECT_EQ(toks[1].text, "1.5");
  EXPECT_EQ(toks[2].text, "1e3");
}

TEST(Lexer, AttributeOfNameVsFloat) {
  EXPECT_EQ(kinds("a.b x[1].c"), "NAME . NAME NAME [ INT ] . NAME NEWLINE EOF");
}

TEST(Lexer, StringLiterals) {
  auto toks = lex(R"(a = 'x' "y" '' "it's" 'say "hi"')");
  EXPECT_EQ(toks[2].text, "x");
  EXPECT_EQ(toks[3].text, "y");
  EXPECT_EQ(toks[4].text, "");
  EXPECT_EQ(toks[5].text, "it's");
  EXPECT_EQ(toks[6].text, "say \"hi\"");
  EXPECT_EQ(toks[4].loc.col, 13);
}

TEST(Lexer, StringEscapes) {
  auto toks = lex(R"('\n\t\\\'\"\x41\101\u00e9\U0001F600\q\0')");
  EXPECT_EQ(toks[0].text, "\n\t\\'\"AA\xC3\xA9\xF0\x9F\x98\x80\\q" + std::string(1, '\0'));
}

TEST(Lexer, RawAndPrefixedStrings) {
  auto toks = lex(R"(r'\n' R"a\"b" u'x' U"y")");
  EXPECT_EQ(toks[0].text, "\\n");
  EXPECT_TRUE(toks[0].isRawString);
  EXPECT_EQ(toks[1].text, "a\\\"b");
  EXPECT_EQ(toks[2].text, "x");
  EXPECT_FALSE(toks[2].isRawString);
  EXPECT_EQ(toks[3].text, "y");
}

TEST(Lexer, TripleQuotedStringsSpanLines) {
  std::string src = "s = \"\"\"line1\n"
                    "  'quoted' \"\" line2\"\"\"\n"
                    "t = '''a\\\n"
                    "b'''\n";
  auto toks = lex(src);
  EXPECT_EQ(toks[2].kind, TokenKind::String);
  EXPECT_EQ(toks[2].text, "line1\n  'quoted' \"\" line2");
  EXPECT_EQ(toks[3].kind, TokenKind::Newline);
  EXPECT_EQ(toks[4].loc.line, 3); // t
  EXPECT_EQ(toks[6].text, "ab");  // backslash-newline inside a string is removed
  EXPECT_EQ(toks[7].loc.line, 4);
}

TEST(Lexer, DocstringInIndentedBlock) {
  std::string src = "def f():\n"
                    "    \"\"\"Doc\n"
                    "not indented\"\"\"\n"
                    "    return 1\n";
  EXPECT_EQ(kinds(src), "def NAME ( ) : NEWLINE INDENT STRING NEWLINE return INT NEWLINE DEDENT EOF");
}

TEST(Lexer, AdjacentStringsAreSeparateTokens) {
  EXPECT_EQ(kinds("'a' 'b'\n"), "STRING STRING NEWLINE EOF");
}

TEST(Lexer, StringDumpUsesRepr) {
  EXPECT_EQ(dump("'a\\nb'"), "1:1 STRING 'a\\nb'\n1:7 NEWLINE\n1:7 EOF\n");
}

TEST(Lexer, FStringKeepsItsBody) {
  auto toks = tokenize(SourceFile("t.py", "y = rF'{x}\\n'\n"));
  ASSERT_GE(toks.size(), 3u);
  EXPECT_EQ(toks[2].kind, TokenKind::FString);
  EXPECT_EQ(toks[2].text, "{x}\\n");
  EXPECT_TRUE(toks[2].isRawString);
  EXPECT_EQ(toks[2].offset, 7u);
}

TEST(Lexer, BytesLiterals) {
  auto toks = lex("y = b'a\\x00\\xff\\u00e9\\101\\n' Rb'\\x00'\n");
  ASSERT_GE(toks.size(), 4u);
  EXPECT_EQ(toks[2].kind, TokenKind::Bytes);
  EXPECT_EQ(toks[2].text, std::string("a\0\xff\\u00e9A\n", 11)); // \x is a byte, \u kept as written
  EXPECT_EQ(toks[3].kind, TokenKind::Bytes);
  EXPECT_EQ(toks[3].text, "\\x00");
  EXPECT_TRUE(toks[3].isRawString);
  EXPECT_EQ(dump("b'\\xff'"), "1:1 BYTES b'\\xff'\n1:8 NEWLINE\n1:8 EOF\n");
}

TEST(LexerErrors, BytesLiteral) {
  EXPECT_LEX_ERROR("y = b'\xc3\xa9'\n", 1, 7, "bytes can only contain ASCII literal characters");
}

TEST(LexerErrors, UnterminatedStrings) {
  EXPECT_LEX_ERROR("x = 'abc\n", 1, 5, "unterminated string literal");
  EXPECT_LEX_ERROR("x = 1\ny = \"\"\"abc\n\n", 2, 5, "unterminated triple-quoted string literal");
}

TEST(LexerErrors, InconsistentDedent) {
  EXPECT_LEX_ERROR("if x:\n    y\n  z\n", 3, 3, "unindent does not match any outer indentation level");
}

TEST(LexerErrors, DedentBelowBaseLevel) {
  EXPECT_LEX_ERROR("    x = 1\ny = 2\n", 2, 1, "unindent does not match any outer indentation level");
}

TEST(LexerErrors, Brackets) {
  EXPECT_LEX_ERROR("x = (1, 2]\n", 1, 10,
                   "closing parenthesis ']' does not match opening parenthesis '('");
  EXPECT_LEX_ERROR("x = 1)\n", 1, 6, "unmatched ')'");
  EXPECT_LEX_ERROR("x = [1,\n  2\n", 1, 5, "'[' was never closed");
}

TEST(LexerErrors, BadNumbers) {
  EXPECT_LEX_ERROR("x = 0777\n", 1, 5,
                   "leading zeros in decimal integer literals are not permitted; use an 0o "
                   "prefix for octal integers");
  EXPECT_LEX_ERROR("x = 1abc\n", 1, 5, "invalid decimal literal");
  EXPECT_LEX_ERROR("x = 0x\n", 1, 5, "invalid hexadecimal literal");
  EXPECT_LEX_ERROR("x = 0b102\n", 1, 5, "invalid binary literal");
  EXPECT_LEX_ERROR("x = 1__0\n", 1, 5, "invalid decimal literal");
}

TEST(LexerErrors, BadCharacters) {
  EXPECT_LEX_ERROR("x = $\n", 1, 5, "invalid character '$' (U+0024)");
  EXPECT_LEX_ERROR("x = 1 \\ 2\n", 1, 7, "unexpected character after line continuation character");
  EXPECT_LEX_ERROR("x = a ! b\n", 1, 7, "invalid syntax: '!' is not an operator");
}

TEST(LexerErrors, MixedTabsAndSpaces) {
  auto err = lexError("if x:\n        a\n\tb\n");
  ASSERT_TRUE(err.has_value());
  EXPECT_EQ(err->message(), "inconsistent use of tabs and spaces in indentation");
}

TEST(Diagnostics, FormatShowsLineWithIndentationAndCaret) {
  SourceFile file("prog.py", "def f(x):\n    return x +\n", 1);
  EXPECT_EQ(formatDiagnostic(file, {2, 14}, "invalid syntax"),
            "prog.py:2:14: invalid syntax\n"
            "        return x +\n"
            "                 ^");
}

TEST(Diagnostics, LineNumbersFollowFirstLine) {
  SourceFile file("f.py", "a = 1\nb = 2\n", 10);
  EXPECT_EQ(file.lineText(10), "a = 1");
  EXPECT_EQ(file.lineText(11), "b = 2");
  EXPECT_EQ(file.lineText(9), "");
  EXPECT_EQ(file.lineText(12), "");
  EXPECT_EQ(formatDiagnostic(file, {11, 5}, "boom"), "f.py:11:5: boom\n    b = 2\n        ^");
}

TEST(Diagnostics, OutOfRangeLineHasNoSourceLine) {
  SourceFile file("f.py", "a = 1\n", 1);
  EXPECT_EQ(formatDiagnostic(file, {5, 1}, "boom"), "f.py:5:1: boom");
}

TEST(Diagnostics, ThrowingHelpers) {
  SourceFile file("f.py", "x = y\n", 3);
  try {
    typingError(file, {3, 5}, "name 'y' is not defined");
    FAIL();
  } catch (const UserError &e) {
    EXPECT_EQ(e.kind(), DiagKind::Typing);
    EXPECT_EQ(e.message(), "name 'y' is not defined");
    EXPECT_EQ(e.loc().line, 3);
    EXPECT_EQ(std::string(e.what()), "f.py:3:5: name 'y' is not defined\n    x = y\n        ^");
  }
  EXPECT_THROW(unsupported(file, {3, 1}, "no"), UserError);
  try {
    internalError("oops");
    FAIL();
  } catch (const InternalError &e) {
    EXPECT_EQ(std::string(e.what()), "internal compiler error: oops");
  }
}

// Identifiers are read in NFKC, as Python reads them (PEP 3131); keywords as written.
TEST(Lexer, IdentifiersAreNfkc) {
  auto name = [](const std::string &src) { return lex(src).at(0).text; };
  EXPECT_EQ(name("\xcf\xb5"), "\xce\xb5");              // ϵ (lunate epsilon) → ε
  EXPECT_EQ(name("\xc2\xb5_r"), "\xce\xbc_r");          // µ (micro sign) → μ
  EXPECT_EQ(name("\xef\xac\x81x"), "fix");              // ﬁ ligature → fi
  EXPECT_EQ(name("e\xcc\x81t\xc3\xa9"), "\xc3\xa9t\xc3\xa9"); // e + combining acute → é
  EXPECT_EQ(name("\xe1\x84\x80\xe1\x85\xa1"), "\xea\xb0\x80"); // Hangul L + V → 가
  EXPECT_EQ(name("plain_ascii"), "plain_ascii");
  EXPECT_EQ(lex("\xef\xbd\x89\xef\xbd\x86").at(0).kind, TokenKind::Name); // ｉｆ is the name 'if'
}
