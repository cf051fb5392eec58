// Unit tests of the parser and the AST dump: precedence, statements, targets,
// function parsing, and the errors for unsupported or invalid syntax.
#include "mahou/ast.h"
#include "mahou/parser.h"

#include <gtest/gtest.h>

#include <optional>

using namespace mahou;
using namespace mahou::frontend;

namespace {

std::string module(const std::string &src) { return ast::dumpAst(parseModule(SourceFile("t.py", src))); }

// Dump of the expression of a one-line expression statement `src`.
std::string expr(const std::string &src) {
  ast::Module m = parseModule(SourceFile("t.py", src + "\n"));
  const auto *s = m.body.at(0)->as<ast::ExprStmt>();
  return s ? ast::dumpAst(*s->value) : "<not an expression statement>";
}

std::optional<UserError> parseError(const std::string &src, bool function = false) {
  try {
    SourceFile file("t.py", src);
    if (function)
      parseFunction(file);
    else
      parseModule(file);
  } catch (const UserError &e) {
    return e;
  }
  return std::nullopt;
}

#define EXPECT_PARSE_ERROR(src, eline, ecol, emsg)                                          \
  do {                                                                                   \
    auto err = parseError(src);                                                          \
    ASSERT_TRUE(err.has_value()) << "no error for: " << (src);                           \
    EXPECT_EQ(err->kind(), DiagKind::Unsupported);                                       \
    EXPECT_EQ(err->message(), emsg);                                                     \
    EXPECT_EQ(err->loc().line, eline);                                                    \
    EXPECT_EQ(err->loc().col, ecol);                                                      \
  } while (0)

} // namespace

// ------------------------------------------------------------------ precedence

TEST(ParserPrecedence, MultiplicationBindsTighter) {
  EXPECT_EQ(expr("a + b * c"), "BinOp + @1:1\n"
                               "  Name a\n"
                               "  BinOp * @1:5\n"
                               "    Name b\n"
                               "    Name c\n");
  // A node starts at its first token, '(' included, as in CPython.
  EXPECT_EQ(expr("(a + b) * c"), "BinOp * @1:1\n"
                                 "  BinOp + @1:2\n"
                                 "    Name a\n"
                                 "    Name b\n"
                                 "  Name c\n");
}

TEST(ParserPrecedence, LeftAssociative) {
  EXPECT_EQ(expr("a - b - c"), "BinOp - @1:1\n"
                               "  BinOp - @1:1\n"
                               "    Name a\n"
                               "    Name b\n"
                               "  Name c\n");
  EXPECT_EQ(expr("a // b % c @ d / e"), "BinOp / @1:1\n"
                                        "  BinOp @ @1:1\n"
                                        "    BinOp % @1:1\n"
                                        "      BinOp // @1:1\n"
                                        "        Name a\n"
                                        "        Name b\n"
                                        "      Name c\n"
                                        "    Name d\n"
                                        "  Name e\n");
}

TEST(ParserPrecedence, PowerIsRightAssociativeAndBindsTighterThanUnaryMinus) {
  EXPECT_EQ(expr("-2**2"), "UnaryOp - @1:1\n"
                           "  BinOp ** @1:2\n"
                           "    IntLit 2\n"
                           "    IntLit 2\n");
  EXPECT_EQ(expr("2**3**2"), "BinOp ** @1:1\n"
                             "  IntLit 2\n"
                             "  BinOp ** @1:4\n"
                             "    IntLit 3\n"
                             "    IntLit 2\n");
  EXPECT_EQ(expr("2**-1"), "BinOp ** @1:1\n"
                           "  IntLit 2\n"
                           "  UnaryOp - @1:4\n"
                           "    IntLit 1\n");
  EXPECT_EQ(expr("~x**2"), "UnaryOp ~ @1:1\n"
                           "  BinOp ** @1:2\n"
                           "    Name x\n"
                           "    IntLit 2\n");
}

TEST(ParserPrecedence, BitwiseLadder) {
  // | < ^ < & < shifts < +
  EXPECT_EQ(expr("a | b ^ c & d << e + f"), "BinOp | @1:1\n"
                                            "  Name a\n"
                                            "  BinOp ^ @1:5\n"
                                            "    Name b\n"
                                            "    BinOp & @1:9\n"
                                            "      Name c\n"
                                            "      BinOp << @1:13\n"
                                            "        Name d\n"
                                            "        BinOp + @1:18\n"
                                            "          Name e\n"
                                            "          Name f\n");
}

TEST(ParserPrecedence, BooleanOperators) {
  EXPECT_EQ(expr("a or b and not c or d"), "BoolOp or @1:1\n"
                                           "  Name a\n"
                                           "  BoolOp and @1:6\n"
                                           "    Name b\n"
                                           "    UnaryOp not @1:12\n"
                                           "      Name c\n"
                                           "  Name d\n");
  EXPECT_EQ(expr("not a == b"), "UnaryOp not @1:1\n"
                                "  Compare == @1:5\n"
                                "    Name a\n"
                                "    Name b\n");
}

TEST(ParserPrecedence, ConditionalExpressionIsLowest) {
  EXPECT_EQ(expr("a + 1 if x or y else b"), "IfExp @1:1\n"
                                            "  BoolOp or @1:10\n"
                                            "    Name x\n"
                                            "    Name y\n"
                                            "  BinOp + @1:1\n"
                                            "    Name a\n"
                                            "    IntLit 1\n"
                                            "  Name b\n");
  // right-nested: a if c else (b if d else e)
  EXPECT_EQ(expr("a if c else b if d else e"), "IfExp @1:1\n"
                                               "  Name c\n"
                                               "  Name a\n"
                                               "  IfExp @1:13\n"
                                               "    Name d\n"
                                               "    Name b\n"
                                               "    Name e\n");
}

TEST(ParserPrecedence, LambdaIsParsed) {
  EXPECT_EQ(expr("lambda x, y=2: x + y"), "Lambda (x, y) @1:1\n"
                                          "  default y\n"
                                          "    IntLit 2\n"
                                          "  BinOp + @1:16\n"
                                          "    Name x\n"
                                          "    Name y\n");
}

// ------------------------------------------------------------------ comparisons

TEST(ParserCompare, Chained) {
  EXPECT_EQ(expr("a < b <= c != d"), "Compare < <= != @1:1\n"
                                     "  Name a\n"
                                     "  Name b\n"
                                     "  Name c\n"
                                     "  Name d\n");
}

TEST(ParserCompare, NotInAndIsNot) {
  EXPECT_EQ(expr("a not in b is not c is d in e"), "Compare not in is not is in @1:1\n"
                                                   "  Name a\n"
                                                   "  Name b\n"
                                                   "  Name c\n"
                                                   "  Name d\n"
                                                   "  Name e\n");
}

TEST(ParserCompare, ArithmeticBindsTighter) {
  EXPECT_EQ(expr("a + 1 > b | c"), "Compare > @1:1\n"
                                   "  BinOp + @1:1\n"
                                   "    Name a\n"
                                   "    IntLit 1\n"
                                   "  BinOp | @1:9\n"
                                   "    Name b\n"
                                   "    Name c\n");
}

// ------------------------------------------------------------------ primaries and atoms

TEST(ParserPrimary, CallsWithAllArgumentKinds) {
  EXPECT_EQ(expr("f(a, *b, k=1, **kw)"), "Call @1:1\n"
                                         "  Name f\n"
                                         "  Name a\n"
                                         "  Starred @1:6\n"
                                         "    Name b\n"
                                         "  keyword k @1:10\n"
                                         "    IntLit 1\n"
                                         "  keyword ** @1:15\n"
                                         "    Name kw\n");
  EXPECT_EQ(expr("f()"), "Call @1:1\n  Name f\n");
  EXPECT_EQ(expr("f(x,)"), "Call @1:1\n  Name f\n  Name x\n");
}

TEST(ParserPrimary, AttributeAndMethodCall) {
  EXPECT_EQ(expr("np.zeros(n).shape[0]"), "Subscript @1:1\n"
                                          "  Attribute shape @1:1\n"
                                          "    Call @1:1\n"
                                          "      Attribute zeros @1:1\n"
                                          "        Name np\n"
                                          "      Name n\n"
                                          "  IntLit 0\n");
}

TEST(ParserPrimary, Subscripts) {
  EXPECT_EQ(expr("a[i, j]"), "Subscript @1:1\n"
                             "  Name a\n"
                             "  Tuple @1:3\n"
                             "    Name i\n"
                             "    Name j\n");
  EXPECT_EQ(expr("a[1:n]"), "Subscript @1:1\n"
                            "  Name a\n"
                            "  Slice @1:3\n"
                            "    lower:\n"
                            "      IntLit 1\n"
                            "    upper:\n"
                            "      Name n\n");
  EXPECT_EQ(expr("a[::-1]"), "Subscript @1:1\n"
                             "  Name a\n"
                             "  Slice @1:3\n"
                             "    step:\n"
                             "      UnaryOp - @1:5\n"
                             "        IntLit 1\n");
  EXPECT_EQ(expr("a[:]"), "Subscript @1:1\n  Name a\n  Slice @1:3\n");
  EXPECT_EQ(expr("a[..., 0]"), "Subscript @1:1\n"
                               "  Name a\n"
                               "  Tuple @1:3\n"
                               "    EllipsisLit\n"
                               "    IntLit 0\n");
  EXPECT_EQ(expr("a[i,]"), "Subscript @1:1\n  Name a\n  Tuple @1:3\n    Name i\n");
  EXPECT_EQ(expr("a[1:, :2]"), "Subscript @1:1\n"
                               "  Name a\n"
                               "  Tuple @1:3\n"
                               "    Slice @1:3\n"
                               "      lower:\n"
                               "        IntLit 1\n"
                               "    Slice @1:7\n"
                               "      upper:\n"
                               "        IntLit 2\n");
}

TEST(ParserAtoms, Literals) {
  EXPECT_EQ(expr("[1, 2.5, 3j, 'a' \"b\", True, False, None, ...]"),
            "List @1:1\n"
            "  IntLit 1\n"
            "  FloatLit 2.5\n"
            "  ImagLit 3.0j\n"
            "  StrLit 'ab'\n"
            "  BoolLit True\n"
            "  BoolLit False\n"
            "  NoneLit\n"
            "  EllipsisLit\n");
}

TEST(ParserAtoms, TuplesAndParentheses) {
  EXPECT_EQ(expr("()"), "Tuple @1:1\n");
  EXPECT_EQ(expr("(x)"), "Name x\n");
  EXPECT_EQ(expr("(x,)"), "Tuple @1:1\n  Name x\n");
  EXPECT_EQ(expr("x, y"), "Tuple @1:1\n  Name x\n  Name y\n");
  EXPECT_EQ(expr("[]"), "List @1:1\n");
}

TEST(ParserAtoms, FloatReprRoundTrips) {
  EXPECT_EQ(expr("0.1"), "FloatLit 0.1\n");
  EXPECT_EQ(expr("1."), "FloatLit 1.0\n");
  EXPECT_EQ(expr("1e-5"), "FloatLit 1e-05\n");
  EXPECT_EQ(expr("1e16"), "FloatLit 1e+16\n");
  EXPECT_EQ(expr("1e15"), "FloatLit 1000000000000000.0\n");
  EXPECT_EQ(expr("0.0001"), "FloatLit 0.0001\n");
  EXPECT_EQ(expr("1e999"), "FloatLit inf\n");
  EXPECT_EQ(expr("2.5e-300"), "FloatLit 2.5e-300\n");
}

TEST(ParserAtoms, IntOverflow) {
  ast::Module m = parseModule(SourceFile("t.py", "9223372036854775807\n9223372036854775808\n0xff\n"));
  const auto *a = m.body[0]->as<ast::ExprStmt>()->value->as<ast::IntLit>();
  const auto *b = m.body[1]->as<ast::ExprStmt>()->value->as<ast::IntLit>();
  const auto *c = m.body[2]->as<ast::ExprStmt>()->value->as<ast::IntLit>();
  ASSERT_TRUE(a && b && c);
  EXPECT_EQ(a->value, INT64_MAX);
  EXPECT_FALSE(a->overflow);
  EXPECT_TRUE(b->overflow);
  EXPECT_EQ(c->value, 255);
}

TEST(ParserAtoms, StringEscapesInDump) {
  EXPECT_EQ(expr(R"('it\'s' "\n")"), "StrLit \"it's\\n\"\n");
}

// ------------------------------------------------------------------ statements

TEST(ParserStatements, FunctionDump) {
  std::string src = "@mahou.jit\n"
                    "def sum_array(arr):\n"
                    "    total = 0.0\n"
                    "    for i in range(arr.shape[0]):\n"
                    "        total = total + arr[i]\n"
                    "    return total\n";
  EXPECT_EQ(module(src), "FunctionDef sum_array(arr) @2:1\n"
                         "  decorators:\n"
                         "    Attribute jit @1:2\n"
                         "      Name mahou\n"
                         "  Assign @3:5\n"
                         "    Name total\n"
                         "    FloatLit 0.0\n"
                         "  For @4:5\n"
                         "    Name i\n"
                         "    Call @4:14\n"
                         "      Name range\n"
                         "      Subscript @4:20\n"
                         "        Attribute shape @4:20\n"
                         "          Name arr\n"
                         "        IntLit 0\n"
                         "    body:\n"
                         "      Assign @5:9\n"
                         "        Name total\n"
                         "        BinOp + @5:17\n"
                         "          Name total\n"
                         "          Subscript @5:25\n"
                         "            Name arr\n"
                         "            Name i\n"
                         "  Return @6:5\n"
                         "    Name total\n");
}

TEST(ParserStatements, Parameters) {
  ast::Module m = parseModule(SourceFile(
      "t.py", "def f(a, b: int = 1, /, c=2, *args: float, d, e=3, **kw: dict) -> int:\n  pass\n"));
  const auto *f = m.findFunction("f");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(f->args.size(), 3u);
  EXPECT_EQ(f->args[0].name, "a");
  EXPECT_EQ(f->args[0].defaultValue, nullptr);
  EXPECT_NE(f->args[1].defaultValue, nullptr);
  EXPECT_EQ(f->args[2].name, "c");
  EXPECT_EQ(f->vararg, "args");
  ASSERT_EQ(f->kwonlyargs.size(), 2u);
  EXPECT_EQ(f->kwonlyargs[0].name, "d");
  EXPECT_EQ(f->kwonlyargs[0].defaultValue, nullptr);
  EXPECT_NE(f->kwonlyargs[1].defaultValue, nullptr);
  EXPECT_EQ(f->kwarg, "kw");
  EXPECT_EQ(m.findFunction("g"), nullptr);
  EXPECT_EQ(module("def g(x, *, y):\n  pass\n"), "FunctionDef g(x, *, y) @1:1\n  Pass @2:3\n");
}

TEST(ParserStatements, ElifChainsNest) {
  std::string src = "if a:\n"
                    "    x = 1\n"
                    "elif b:\n"
                    "    x = 2\n"
                    "elif c: x = 3\n"
                    "else:\n"
                    "    x = 4\n";
  EXPECT_EQ(module(src), "If @1:1\n"
                         "  Name a\n"
                         "  body:\n"
                         "    Assign @2:5\n"
                         "      Name x\n"
                         "      IntLit 1\n"
                         "  orelse:\n"
                         "    If @3:1\n"
                         "      Name b\n"
                         "      body:\n"
                         "        Assign @4:5\n"
                         "          Name x\n"
                         "          IntLit 2\n"
                         "      orelse:\n"
                         "        If @5:1\n"
                         "          Name c\n"
                         "          body:\n"
                         "            Assign @5:9\n"
                         "              Name x\n"
                         "              IntLit 3\n"
                         "          orelse:\n"
                         "            Assign @7:5\n"
                         "              Name x\n"
                         "              IntLit 4\n");
}

TEST(ParserStatements, UnpackingTargets) {
  EXPECT_EQ(module("a, b = b, a\n"), "Assign @1:1\n"
                                     "  Tuple @1:1\n"
                                     "    Name a\n"
                                     "    Name b\n"
                                     "  Tuple @1:8\n"
                                     "    Name b\n"
                                     "    Name a\n");
  EXPECT_EQ(module("(a, [b, c.d]), e[0] = x\n"), "Assign @1:1\n"
                                                 "  Tuple @1:1\n"
                                                 "    Tuple @1:1\n"
                                                 "      Name a\n"
                                                 "      List @1:5\n"
                                                 "        Name b\n"
                                                 "        Attribute d @1:9\n"
                                                 "          Name c\n"
                                                 "    Subscript @1:16\n"
                                                 "      Name e\n"
                                                 "      IntLit 0\n"
                                                 "  Name x\n");
}

TEST(ParserStatements, ChainedAssignment) {
  EXPECT_EQ(module("a = b[0] = 1\n"), "Assign @1:1\n"
                                      "  Name a\n"
                                      "  Subscript @1:5\n"
                                      "    Name b\n"
                                      "    IntLit 0\n"
                                      "  IntLit 1\n");
}

TEST(ParserStatements, ForTargetsStopBeforeIn) {
  EXPECT_EQ(module("for i, (j, k) in enumerate(z):\n    pass\nelse:\n    pass\n"),
            "For @1:1\n"
            "  Tuple @1:5\n"
            "    Name i\n"
            "    Tuple @1:8\n"
            "      Name j\n"
            "      Name k\n"
            "  Call @1:18\n"
            "    Name enumerate\n"
            "    Name z\n"
            "  body:\n"
            "    Pass @2:5\n"
            "  orelse:\n"
            "    Pass @4:5\n");
}

TEST(ParserStatements, AugmentedAndAnnotatedAssignment) {
  const char *ops[] = {"+", "-", "*", "/", "//", "%", "**", "@", "&", "|", "^", "<<", ">>"};
  for (const char *op : ops) {
    std::string src = std::string("x ") + op + "= 2\n";
    EXPECT_EQ(module(src), std::string("AugAssign ") + op + "= @1:1\n  Name x\n  IntLit 2\n") << op;
  }
  EXPECT_EQ(module("x: int = 3\ny: float\n"), "AnnAssign @1:1\n"
                                              "  Name x\n"
                                              "  Name int\n"
                                              "  IntLit 3\n"
                                              "AnnAssign @2:1\n"
                                              "  Name y\n"
                                              "  Name float\n");
}

TEST(ParserStatements, SimpleStatements) {
  std::string src = "while True:\n"
                    "    if x: break\n"
                    "    continue\n"
                    "assert x > 0, 'positive'\n"
                    "raise ValueError('bad') from err\n"
                    "raise\n"
                    "x = 1; y = 2;\n"
                    "global a, b\n"
                    "nonlocal c\n";
  EXPECT_EQ(module(src), "While @1:1\n"
                         "  BoolLit True\n"
                         "  body:\n"
                         "    If @2:5\n"
                         "      Name x\n"
                         "      body:\n"
                         "        Break @2:11\n"
                         "    Continue @3:5\n"
                         "Assert @4:1\n"
                         "  Compare > @4:8\n"
                         "    Name x\n"
                         "    IntLit 0\n"
                         "  StrLit 'positive'\n"
                         "Raise @5:1\n"
                         "  Call @5:7\n"
                         "    Name ValueError\n"
                         "    StrLit 'bad'\n"
                         "  from:\n"
                         "    Name err\n"
                         "Raise @6:1\n"
                         "Assign @7:1\n"
                         "  Name x\n"
                         "  IntLit 1\n"
                         "Assign @7:8\n"
                         "  Name y\n"
                         "  IntLit 2\n"
                         "Global a, b @8:1\n"
                         "Nonlocal c @9:1\n");
}

TEST(ParserStatements, TryExceptElseFinally) {
  std::string src = "try:\n"
                    "    f()\n"
                    "except (KeyError, IndexError) as e:\n"
                    "    pass\n"
                    "except ValueError:\n"
                    "    pass\n"
                    "except:\n"
                    "    raise\n"
                    "else:\n"
                    "    x = 1\n"
                    "finally:\n"
                    "    y = 2\n";
  EXPECT_EQ(module(src), "Try @1:1\n"
                         "  body:\n"
                         "    ExprStmt @2:5\n"
                         "      Call @2:5\n"
                         "        Name f\n"
                         "  ExceptHandler e @3:1\n"
                         "    Tuple @3:8\n"
                         "      Name KeyError\n"
                         "      Name IndexError\n"
                         "    Pass @4:5\n"
                         "  ExceptHandler @5:1\n"
                         "    Name ValueError\n"
                         "    Pass @6:5\n"
                         "  ExceptHandler @7:1\n"
                         "    Raise @8:5\n"
                         "  orelse:\n"
                         "    Assign @10:5\n"
                         "      Name x\n"
                         "      IntLit 1\n"
                         "  finalbody:\n"
                         "    Assign @12:5\n"
                         "      Name y\n"
                         "      IntLit 2\n");
  EXPECT_EQ(module("try: x\nfinally: y\n"), "Try @1:1\n"
                                            "  body:\n"
                                            "    ExprStmt @1:6\n"
                                            "      Name x\n"
                                            "  finalbody:\n"
                                            "    ExprStmt @2:10\n"
                                            "      Name y\n");
}

TEST(ParserStatements, Imports) {
  EXPECT_EQ(module("import numpy as np, os.path\n"
                   "from math import sqrt, pi as PI\n"
                   "from . import (a,\n    b,)\n"
                   "from ..pkg.mod import *\n"),
            "Import numpy as np, os.path @1:1\n"
            "ImportFrom math import sqrt, pi as PI @2:1\n"
            "ImportFrom . import a, b @3:1\n"
            "ImportFrom ..pkg.mod import * @5:1\n");
}

TEST(ParserStatements, MainGuardModule) {
  std::string src = "import mahou\n"
                    "\n"
                    "@mahou.jit\n"
                    "def f(x):\n"
                    "    return x + 1\n"
                    "\n"
                    "if __name__ == \"__main__\":\n"
                    "    print(f(2))\n";
  ast::Module m = parseModule(SourceFile("t.py", src));
  ASSERT_EQ(m.body.size(), 3u);
  EXPECT_NE(m.findFunction("f"), nullptr);
  const auto *guard = m.body[2]->as<ast::If>();
  ASSERT_NE(guard, nullptr);
  EXPECT_EQ(guard->body.size(), 1u);
}

TEST(ParserStatements, DocstringAndNestedDef) {
  std::string src = "def f():\n"
                    "    \"\"\"Doc.\"\"\"\n"
                    "    def g(y): return y\n"
                    "    return g(1)\n";
  EXPECT_EQ(module(src), "FunctionDef f() @1:1\n"
                         "  ExprStmt @2:5\n"
                         "    StrLit 'Doc.'\n"
                         "  FunctionDef g(y) @3:5\n"
                         "    Return @3:15\n"
                         "      Name y\n"
                         "  Return @4:5\n"
                         "    Call @4:12\n"
                         "      Name g\n"
                         "      IntLit 1\n");
}

// ------------------------------------------------------------------ parseFunction

TEST(ParseFunction, IndentedMethodWithFileLineOffset) {
  std::string src = "    @jit(cache=True)\n"
                    "    def method(self, x):\n"
                    "        if x:\n"
                    "            return 1\n"
                    "        return 2\n";
  auto f = parseFunction(SourceFile("f.py", src, 10));
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->name, "method");
  EXPECT_EQ(f->loc.line, 11);
  EXPECT_EQ(f->loc.col, 5);
  ASSERT_EQ(f->decorators.size(), 1u);
  EXPECT_EQ(f->decorators[0]->loc.line, 10);
  EXPECT_EQ(ast::dumpAst(*f), "FunctionDef method(self, x) @11:5\n"
                              "  decorators:\n"
                              "    Call @10:6\n"
                              "      Name jit\n"
                              "      keyword cache @10:10\n"
                              "        BoolLit True\n"
                              "  If @12:9\n"
                              "    Name x\n"
                              "    body:\n"
                              "      Return @13:13\n"
                              "        IntLit 1\n"
                              "  Return @14:9\n"
                              "    IntLit 2\n");
}

TEST(ParseFunction, ErrorsUseFileLineNumbers) {
  try {
    parseFunction(SourceFile("f.py", "def f(x):\n    class A:\n        pass\n", 10));
    FAIL() << "expected an error";
  } catch (const UserError &e) {
    EXPECT_EQ(e.loc().line, 11);
    EXPECT_EQ(e.loc().col, 5);
    EXPECT_EQ(std::string(e.what()),
              "f.py:11:5: 'class' definitions are not supported\n"
              "        class A:\n"
              "        ^");
  }
}

TEST(ParseFunction, ExactlyOneDef) {
  auto err = parseError("def f(): pass\nx = 1\n", true);
  ASSERT_TRUE(err.has_value());
  EXPECT_EQ(err->loc().line, 2);
  err = parseError("x = 1\n", true);
  ASSERT_TRUE(err.has_value());
  EXPECT_EQ(err->message(), "expected a function definition ('def')");
  err = parseError("class A: pass\n", true);
  ASSERT_TRUE(err.has_value());
  EXPECT_EQ(err->message(), "'class' definitions are not supported");
  err = parseError("async def f(): pass\n", true);
  ASSERT_TRUE(err.has_value());
  EXPECT_EQ(err->message(), "'async def' functions are not supported");
}

// ------------------------------------------------------------------ unsupported constructs

TEST(ParserUnsupported, NamedConstructs) {
  EXPECT_PARSE_ERROR("class A:\n    pass\n", 1, 1, "'class' definitions are not supported");
  EXPECT_PARSE_ERROR("def f():\n    with open(p) as fh:\n        pass\n", 2, 18,
                     "'with ... as name' is not supported: compiled code runs only 'with objmode(...)' blocks, "
                     "which bind no name");
  EXPECT_PARSE_ERROR("def f():\n    with a(), b():\n        pass\n", 2, 13,
                     "a 'with' statement with several context managers is not supported");
  EXPECT_PARSE_ERROR("def f():\n    yield from g\n", 2, 11,
                     "'yield from' is not supported (loop over the inner generator and yield each item)");
  EXPECT_PARSE_ERROR("def f():\n    x = yield\n", 2, 9,
                     "'x = yield' (a value sent with send()) is not supported: use 'yield' as a statement");
  EXPECT_PARSE_ERROR("def f():\n    print((yield 1))\n", 2, 12,
                     "'yield' inside an expression (a value sent with send()) is not supported: use 'yield' as "
                     "a statement");
  EXPECT_PARSE_ERROR("async def f():\n    pass\n", 1, 1, "'async def' functions are not supported");
  EXPECT_PARSE_ERROR("x = await y\n", 1, 5, "'await' expressions are not supported");
  EXPECT_PARSE_ERROR("if (n := 10) > 5:\n    pass\n", 1, 7,
                     "assignment expressions (':=') are not supported");
  EXPECT_PARSE_ERROR("match x:\n    case {1: y}:\n        pass\n", 2, 10,
                     "mapping patterns ('case {\"k\": v}:') are not supported (Numba refuses them too)");
  EXPECT_PARSE_ERROR("match x:\n    case P(y):\n        pass\n", 2, 10,
                     "class patterns ('case P(...):') are not supported (Numba refuses them too)");
  EXPECT_PARSE_ERROR("match x:\n    case (a, *rest):\n        pass\n", 2, 14,
                     "a starred capture ('*rest') in a sequence pattern is not supported (it binds a list); '*_' is");
  EXPECT_PARSE_ERROR("match x:\n    case _:\n        pass\n    case 1:\n        pass\n", 2, 10,
                     "wildcard makes remaining patterns unreachable");
  EXPECT_PARSE_ERROR("try:\n    pass\nexcept* E:\n    pass\n", 3, 7, "'except*' is not supported");
}

TEST(ParserUnsupported, StarredInOddPlaces) {
  EXPECT_PARSE_ERROR("a, *b = c\n", 1, 4, "starred assignment targets are not supported");
  EXPECT_PARSE_ERROR("for *a, b in c:\n    pass\n", 1, 5,
                     "starred assignment targets are not supported");
  EXPECT_PARSE_ERROR("x = *a, b\n", 1, 5, "starred expressions are not supported here");
  EXPECT_PARSE_ERROR("x = [*a]\n", 1, 6, "starred expressions are not supported here");
  EXPECT_PARSE_ERROR("return f((*a, 1))\n", 1, 11, "starred expressions are not supported here");
  EXPECT_PARSE_ERROR("x = a[*b]\n", 1, 7, "starred expressions in subscripts are not supported");
}

TEST(ParserUnsupported, MatchIsStillAName) {
  EXPECT_EQ(module("match = 1\nmatch(x)\nmatch: int = 2\n"), "Assign @1:1\n"
                                                         "  Name match\n"
                                                         "  IntLit 1\n"
                                                         "ExprStmt @2:1\n"
                                                         "  Call @2:1\n"
                                                         "    Name match\n"
                                                         "    Name x\n"
                                                         "AnnAssign @3:1\n"
                                                         "  Name match\n"
                                                         "  Name int\n"
                                                         "  IntLit 2\n");
  EXPECT_EQ(module("case = match\n"), "Assign @1:1\n"
                                      "  Name case\n"
                                      "  Name match\n");
}

// ------------------------------------------------------------------ syntax errors

TEST(ParserErrors, MissingColon) {
  EXPECT_PARSE_ERROR("def f(x):\n    if x\n        return 1\n", 2, 9, "invalid syntax: expected ':'");
  EXPECT_PARSE_ERROR("def f(x)\n    return 1\n", 1, 9, "invalid syntax: expected ':'");
}

TEST(ParserErrors, Indentation) {
  EXPECT_PARSE_ERROR("x = 1\n    y = 2\n", 2, 5, "unexpected indent");
  EXPECT_PARSE_ERROR("def f():\nreturn 1\n", 2, 1,
                     "expected an indented block after function definition on line 1");
  EXPECT_PARSE_ERROR("if x:\n    y\n  z\n", 3, 3, "unindent does not match any outer indentation level");
}

TEST(ParserErrors, BadTargets) {
  EXPECT_PARSE_ERROR("f() = 1\n", 1, 1, "invalid syntax: cannot assign to function call");
  EXPECT_PARSE_ERROR("1 = x\n", 1, 1, "invalid syntax: cannot assign to literal");
  EXPECT_PARSE_ERROR("a + b += 1\n", 1, 1, "invalid syntax: cannot assign to expression");
  EXPECT_PARSE_ERROR("a, b += 1\n", 1, 1, "'tuple' is an illegal expression for augmented assignment");
  EXPECT_PARSE_ERROR("a, b: int = 1\n", 1, 1, "only single target (not tuple) can be annotated");
}

TEST(ParserErrors, Arguments) {
  EXPECT_PARSE_ERROR("f(a=1, b)\n", 1, 8, "positional argument follows keyword argument");
  EXPECT_PARSE_ERROR("f(a=1, a=2)\n", 1, 8, "keyword argument repeated: a");
  EXPECT_PARSE_ERROR("def f(a=1, b):\n    pass\n", 1, 12,
                     "parameter without a default follows parameter with a default");
  EXPECT_PARSE_ERROR("def f(a, a):\n    pass\n", 1, 10, "duplicate argument 'a' in function definition");
  EXPECT_PARSE_ERROR("def f(*):\n    pass\n", 1, 7, "named arguments must follow bare *");
}

TEST(ParserErrors, Misc) {
  EXPECT_PARSE_ERROR("x = \n", 1, 4, "invalid syntax: expected an expression");
  EXPECT_PARSE_ERROR("x y\n", 1, 3, "invalid syntax: unexpected name 'y'");
  EXPECT_PARSE_ERROR("else:\n    pass\n", 1, 1, "invalid syntax: unexpected 'else'");
  EXPECT_PARSE_ERROR("try:\n    pass\nx = 1\n", 3, 1, "invalid syntax: expected 'except' or 'finally' block");
  EXPECT_PARSE_ERROR("x = a if b\n", 1, 11, "invalid syntax: expected 'else' in conditional expression");
  EXPECT_PARSE_ERROR("x = 1; if y: pass\n", 1, 8, "invalid syntax: unexpected 'if'");
}

TEST(ParserErrors, DeepNestingIsAnErrorNotACrash) {
  auto err = parseError("x = " + std::string(1000, '-') + "1\n");
  ASSERT_TRUE(err.has_value());
  EXPECT_EQ(err->message(), "expression is too deeply nested");
  err = parseError("x = " + std::string(300, '(') + "1" + std::string(300, ')') + "\n");
  ASSERT_TRUE(err.has_value());
  EXPECT_EQ(err->message(), "too many nested parentheses");
}

TEST(Parser, ComprehensionsDisplaysAndDel) {
  auto dump = [](const char *src) { return module(src); };
  EXPECT_NE(dump("x = [i for i in y if i]\n").find("ListComp"), std::string::npos);
  EXPECT_NE(dump("x = sum(i for i in y)\n").find("GeneratorExp"), std::string::npos);
  EXPECT_NE(dump("x = {k: v for k, v in y}\n").find("DictComp"), std::string::npos);
  EXPECT_NE(dump("x = {i for i in y}\n").find("SetComp"), std::string::npos);
  EXPECT_NE(dump("x = {1: 2, 3: 4}\n").find("Dict"), std::string::npos);
  EXPECT_NE(dump("x = {1, 2}\n").find("Set"), std::string::npos);
  EXPECT_NE(dump("del x[0], y[1:2]\n").find("Delete"), std::string::npos);
  std::string f = dump("x = f'a{b!r:>{w}} {c=}'\n");
  EXPECT_NE(f.find("JoinedStr"), std::string::npos);
  EXPECT_NE(f.find("FormattedValue !r"), std::string::npos);
  EXPECT_NE(f.find("Name w"), std::string::npos);
}
