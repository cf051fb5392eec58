// Abstract syntax tree of the Python subset the parser accepts (close to CPython's ast module).
#pragma once

#include "mahou/diagnostics.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace mahou::ast {

enum class BinOpKind { Add, Sub, Mult, MatMult, Div, FloorDiv, Mod, Pow, LShift, RShift, BitOr, BitXor, BitAnd };
enum class UnaryOpKind { UAdd, USub, Not, Invert };
enum class BoolOpKind { And, Or };
enum class CmpOpKind { Eq, NotEq, Lt, LtE, Gt, GtE, Is, IsNot, In, NotIn };

const char *binOpSymbol(BinOpKind op);   // "+", "//", "@", ...
const char *unaryOpSymbol(UnaryOpKind op); // "+", "-", "not", "~"
const char *cmpOpSymbol(CmpOpKind op);   // "==", "is not", "in", ...

// ---------------------------------------------------------------- expressions
enum class ExprKind {
  Name, IntLit, FloatLit, ImagLit, StrLit, BytesLit, BoolLit, NoneLit, EllipsisLit,
  BinOp, UnaryOp, BoolOp, Compare, Call, Attribute, Subscript, Slice,
  Tuple, List, IfExp, Starred, Lambda, Dict, Set, Comprehension, JoinedStr, FormattedValue, ObjMode, MatchSequence, MatchPossible
};

struct Expr {
  ExprKind kind;
  Loc loc;
  explicit Expr(ExprKind k, Loc l) : kind(k), loc(l) {}
  virtual ~Expr() = default;
  template <class T> T *as() { return kind == T::Kind ? static_cast<T *>(this) : nullptr; }
  template <class T> const T *as() const {
    return kind == T::Kind ? static_cast<const T *>(this) : nullptr;
  }
};
using ExprPtr = std::unique_ptr<Expr>;

#define MAHOU_AST_EXPR(Name)                                                             \
  static constexpr ExprKind Kind = ExprKind::Name;                                       \
  explicit Name(Loc l) : Expr(Kind, l) {}

struct Name : Expr { MAHOU_AST_EXPR(Name) std::string id; };
// Integer literal. Values that do not fit int64 set `overflow` and keep their decimal
// `digits` (sema folds constant expressions exactly and refuses what does not fit).
struct IntLit : Expr { MAHOU_AST_EXPR(IntLit) int64_t value = 0; bool overflow = false; std::string digits; };
struct FloatLit : Expr { MAHOU_AST_EXPR(FloatLit) double value = 0; };
struct ImagLit : Expr { MAHOU_AST_EXPR(ImagLit) double value = 0; };        // 2j → 2.0
struct StrLit : Expr { MAHOU_AST_EXPR(StrLit) std::string value; };         // adjacent literals joined
struct BytesLit : Expr { MAHOU_AST_EXPR(BytesLit) std::string value; };       // b'...': its bytes, adjacent joined
struct BoolLit : Expr { MAHOU_AST_EXPR(BoolLit) bool value = false; };
struct NoneLit : Expr { MAHOU_AST_EXPR(NoneLit) };
struct EllipsisLit : Expr { MAHOU_AST_EXPR(EllipsisLit) };
struct BinOp : Expr { MAHOU_AST_EXPR(BinOp) BinOpKind op{}; ExprPtr left, right; };
struct UnaryOp : Expr { MAHOU_AST_EXPR(UnaryOp) UnaryOpKind op{}; ExprPtr operand; };
struct BoolOp : Expr { MAHOU_AST_EXPR(BoolOp) BoolOpKind op{}; std::vector<ExprPtr> values; };
// a < b <= c: left = a, ops = {Lt, LtE}, comparators = {b, c}
struct Compare : Expr {
  MAHOU_AST_EXPR(Compare)
  ExprPtr left;
  std::vector<CmpOpKind> ops;
  std::vector<ExprPtr> comparators;
};
struct Keyword { std::string name; ExprPtr value; Loc loc; }; // name "" for **kwargs
struct Call : Expr {
  MAHOU_AST_EXPR(Call)
  ExprPtr func;
  std::vector<ExprPtr> args; // may contain Starred
  std::vector<Keyword> keywords;
};
struct Attribute : Expr { MAHOU_AST_EXPR(Attribute) ExprPtr value; std::string attr; };
// a[i], a[i, j] (index is a Tuple), a[1:2] (index is a Slice), a[..., 0]
struct Subscript : Expr { MAHOU_AST_EXPR(Subscript) ExprPtr value, index; };
struct Slice : Expr { MAHOU_AST_EXPR(Slice) ExprPtr lower, upper, step; }; // each may be null
struct Tuple : Expr { MAHOU_AST_EXPR(Tuple) std::vector<ExprPtr> elts; };
struct List : Expr { MAHOU_AST_EXPR(List) std::vector<ExprPtr> elts; };
struct IfExp : Expr { MAHOU_AST_EXPR(IfExp) ExprPtr test, body, orelse; };
struct Starred : Expr { MAHOU_AST_EXPR(Starred) ExprPtr value; };
struct Arg { std::string name; ExprPtr defaultValue; Loc loc; }; // defaultValue may be null
struct FunctionDef;
// lambda args: body, held as the function it defines: `def <lambda>(args): return body`.
struct Lambda : Expr { MAHOU_AST_EXPR(Lambda) std::shared_ptr<FunctionDef> def; };
struct Dict : Expr { MAHOU_AST_EXPR(Dict) std::vector<ExprPtr> keys, values; }; // {k: v, ...}
struct Set : Expr { MAHOU_AST_EXPR(Set) std::vector<ExprPtr> elts; };           // {a, b}
// One `for target in iter if cond ...` clause of a comprehension.
struct CompFor { ExprPtr target, iter; std::vector<ExprPtr> ifs; Loc loc; };
enum class CompKind { List, Set, Dict, Generator };
// [elt for ...], {elt for ...}, {elt: value for ...}, (elt for ...)
struct Comprehension : Expr {
  MAHOU_AST_EXPR(Comprehension)
  CompKind comp = CompKind::List;
  ExprPtr elt, value; // value: the dict comprehension's value
  std::vector<CompFor> generators;
};
// f"text {value!r:spec} text": values are StrLit and FormattedValue parts.
struct JoinedStr : Expr { MAHOU_AST_EXPR(JoinedStr) std::vector<ExprPtr> values; };
struct FormattedValue : Expr {
  MAHOU_AST_EXPR(FormattedValue)
  ExprPtr value;
  char conversion = 0; // 0, 's', 'r' or 'a'
  ExprPtr spec;        // a JoinedStr, or null
};
// `with objmode(y='float64', z='int64[:]'): body` — a block the interpreter runs. The
// parser does not compile its body: it keeps the statement as `y, z = <ObjMode>` (one
// target for one output, an expression statement for none), reading every name the
// body might read (`inputs`: over-approximated from its tokens; sema passes those that
// are variables holding a value). Python's own parser reads the body again from the
// source when sema prepares the block (line: the `with` statement's).
struct ObjMode : Expr {
  MAHOU_AST_EXPR(ObjMode)
  ExprPtr context;                  // objmode(...) (or objmode): the context manager expression
  std::vector<ExprPtr> inputs;      // Name reads, sorted by name
  std::vector<std::string> outputs; // the keyword names of objmode(...), in order
};
// The test of a sequence pattern of a `match` statement (`case (a, b):`, `case [x, *_]:`):
// whether `subject` is a sequence of `length` items (or more, with a star). Only the
// match lowering makes one; sema decides it from the subject's type (match_patterns.cpp).
struct MatchSequence : Expr { MAHOU_AST_EXPR(MatchSequence) ExprPtr subject; int64_t length = 0; bool orMore = false; };
// Whether a pattern's test can hold for the subject's type: `test` is typed, never run;
// False when sema folds it to False, else True (a case's body after a guard is then
// pruned as its bindings were). Only the match lowering makes one.
struct MatchPossible : Expr { MAHOU_AST_EXPR(MatchPossible) ExprPtr test; };
#undef MAHOU_AST_EXPR

// ---------------------------------------------------------------- statements
enum class StmtKind {
  FunctionDef, Return, Assign, AugAssign, AnnAssign, If, For, While, Break, Continue,
  Pass, ExprStmt, Assert, Raise, Try, Import, ImportFrom, Global, Nonlocal, Delete, Yield
};

struct Stmt {
  StmtKind kind;
  Loc loc;
  explicit Stmt(StmtKind k, Loc l) : kind(k), loc(l) {}
  virtual ~Stmt() = default;
  template <class T> T *as() { return kind == T::Kind ? static_cast<T *>(this) : nullptr; }
  template <class T> const T *as() const {
    return kind == T::Kind ? static_cast<const T *>(this) : nullptr;
  }
};
using StmtPtr = std::unique_ptr<Stmt>;
using Body = std::vector<StmtPtr>;

#define MAHOU_AST_STMT(Name)                                                             \
  static constexpr StmtKind Kind = StmtKind::Name;                                       \
  explicit Name(Loc l) : Stmt(Kind, l) {}

struct FunctionDef : Stmt {
  MAHOU_AST_STMT(FunctionDef)
  std::string name;
  std::vector<ExprPtr> decorators;
  std::vector<Arg> args;        // positional-or-keyword parameters (and positional-only)
  std::string vararg;           // *args name, "" if none
  std::vector<Arg> kwonlyargs;  // after * or *args
  std::string kwarg;            // **kwargs name, "" if none
  Body body;
  // The compiled function's parameters, in the order it receives them: the positional
  // ones, the keyword-only ones, then the *args tuple.
  size_t numParams() const { return args.size() + kwonlyargs.size() + (vararg.empty() ? 0 : 1); }
  const std::string &paramName(size_t i) const {
    return i < args.size() ? args[i].name : i < args.size() + kwonlyargs.size() ? kwonlyargs[i - args.size()].name : vararg;
  }
  // Where the assignments of a variable (version) first meet at a read, for the
  // error when their types cannot be unified (frontend/versions.cpp).
  std::map<std::string, Loc> versionJoins;
};
struct Return : Stmt { MAHOU_AST_STMT(Return) ExprPtr value; }; // value may be null
// a = b = expr: targets = {a, b}. Targets are Name, Tuple/List (unpacking), Subscript, Attribute.
struct Assign : Stmt { MAHOU_AST_STMT(Assign) std::vector<ExprPtr> targets; ExprPtr value; };
struct AugAssign : Stmt { MAHOU_AST_STMT(AugAssign) ExprPtr target; BinOpKind op{}; ExprPtr value; };
struct AnnAssign : Stmt { MAHOU_AST_STMT(AnnAssign) ExprPtr target, annotation, value; }; // value may be null
// elif chains are nested If statements in orelse, as in CPython's ast.
struct If : Stmt { MAHOU_AST_STMT(If) ExprPtr test; Body body, orelse; };
struct For : Stmt { MAHOU_AST_STMT(For) ExprPtr target, iter; Body body, orelse; };
struct While : Stmt { MAHOU_AST_STMT(While) ExprPtr test; Body body, orelse; };
struct Break : Stmt { MAHOU_AST_STMT(Break) };
struct Continue : Stmt { MAHOU_AST_STMT(Continue) };
struct Pass : Stmt { MAHOU_AST_STMT(Pass) };
struct ExprStmt : Stmt { MAHOU_AST_STMT(ExprStmt) ExprPtr value; };
struct Assert : Stmt { MAHOU_AST_STMT(Assert) ExprPtr test, msg; }; // msg may be null
struct Raise : Stmt { MAHOU_AST_STMT(Raise) ExprPtr exc, cause; };  // both may be null
struct ExceptHandler { ExprPtr type; std::string name; Body body; Loc loc; }; // type may be null
struct Try : Stmt {
  MAHOU_AST_STMT(Try)
  Body body;
  std::vector<ExceptHandler> handlers;
  Body orelse, finalbody;
};
struct Alias { std::string name, asname; Loc loc; }; // name may be dotted: "os.path"
struct Import : Stmt { MAHOU_AST_STMT(Import) std::vector<Alias> names; };
struct ImportFrom : Stmt { MAHOU_AST_STMT(ImportFrom) std::string module; std::vector<Alias> names; };
struct Global : Stmt { MAHOU_AST_STMT(Global) std::vector<std::string> names; };
struct Nonlocal : Stmt { MAHOU_AST_STMT(Nonlocal) std::vector<std::string> names; };
struct Delete : Stmt { MAHOU_AST_STMT(Delete) std::vector<ExprPtr> targets; }; // del a[i], b[j:k]
// `yield x` / bare `yield` as a statement (a function containing one is a generator).
struct Yield : Stmt { MAHOU_AST_STMT(Yield) ExprPtr value; }; // value may be null
#undef MAHOU_AST_STMT

struct Module {
  Body body;
  // The first FunctionDef named `name` at top level, or null.
  const FunctionDef *findFunction(const std::string &name) const;
};

// Indented tree dump used by `mahouc --emit=ast` and the FileCheck tests, e.g.
//   FunctionDef sum_array(arr) @2:1
//     Assign @3:5
//       Name total
//       FloatLit 0.0
std::string dumpAst(const Module &module);
std::string dumpAst(const Stmt &stmt, int indent = 0);
std::string dumpAst(const Expr &expr, int indent = 0);

} // namespace mahou::ast
