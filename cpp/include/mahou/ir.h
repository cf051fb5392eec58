// Typed IR: a structured tree (functions of blocks of statements over typed
// expressions; control flow as If/While/ForRange regions, like Halide's Stmt IR).
// Every expression carries its final type; sema inserts every conversion as a Cast.
#pragma once

#include "mahou/diagnostics.h"
#include "mahou/types.h"

#include <memory>
#include <string>
#include <vector>

namespace mahou::ir {

enum class ExprOp {
#define MAHOU_EXPR_OP(name, text) name,
#include "mahou/ir_ops.def"
#undef MAHOU_EXPR_OP
};
enum class StmtOp {
#define MAHOU_STMT_OP(name, text) name,
#include "mahou/ir_ops.def"
#undef MAHOU_STMT_OP
};
enum class Intrinsic {
#define MAHOU_INTRINSIC(name, text, arity) name,
#include "mahou/intrinsics.def"
#undef MAHOU_INTRINSIC
};
enum class GpuOpKind {
#define MAHOU_GPU_OP(name, text) name,
#include "mahou/gpu_ops.def"
#undef MAHOU_GPU_OP
};
enum class ObjectOp {
#define MAHOU_OBJECT_OP(name, text, kind) name,
#include "mahou/object_ops.def"
#undef MAHOU_OBJECT_OP
};
const char *gpuOpName(GpuOpKind k);
const char *objectOpName(ObjectOp op);
// The kind of object an operation works on (the table's third column).
enum class ObjectOpKind { List, Str, Dict, Set, Optional, Instance, Hash, Record };
ObjectOpKind objectOpKind(ObjectOp op);
const char *exprOpName(ExprOp op);
const char *stmtOpName(StmtOp op);
const char *intrinsicName(Intrinsic i);
int intrinsicArity(Intrinsic i);

enum class BinaryOp { Add, Sub, Mul, TrueDiv, FloorDiv, Mod, Pow, BitAnd, BitOr, BitXor, Shl, Shr };
enum class UnaryOp { Neg, Invert, Not };
enum class CmpOp { Eq, Ne, Lt, Le, Gt, Ge };
// A `datetime` expression: any NaT operand gives NaT (nan for DivTimedelta, 0 for
// FloorDivTimedelta), except where the row says otherwise.
enum class DatetimeOp {
  Add, Sub,           // args[0], args[1] of the result's unit (datetime - datetime: timedelta of it)
  MulInt, MulFloat,   // timedelta * int64 / float64 (truncated; nan or an unrepresentable product: NaT)
  DivInt, DivFloat,   // timedelta / int64 / float64 (truncated, as NumPy; by 0 or nan: NaT)
  DivTimedelta,       // timedelta / timedelta → float64
  FloorDivTimedelta,  // timedelta // timedelta → int64 (by 0: 0)
  Neg, Abs, Sign,     // timedelta → timedelta (sign: -1, 0, 1 of the unit; of NaT -1, as NumPy)
  IsNat,              // → bool (never NaT itself)
  Maximum, Minimum,   // NaT wins (as NaN does)
  FMax, FMin,         // NaT loses
};
enum class AllocKind { Empty, Zeros, Ones, Full };
// A `random` expression (sema/random*.cpp, codegen/random.cpp, runtime/random*.cpp).
enum class RandomKind {
  Draw,  // a row of random_distributions.def (ival = random::Dist): args [generator,] parameters
  Check, // NumPy's check of a parameter before drawing: ival = constraint, symbol = its name; args value
  NpSeed, NpSeedEntropy, // np.random.seed(s) (args: int64 s; ValueError outside [0, 2**32)), seed()
  NpInteger,             // np.random.randint's draw: args off (int64), rng (uint64) → off + [0, rng]
  // The random module (its own state): seed(n) (args n, ival 1 if n is unsigned), seed(),
  // random(), getrandbits(k) (uint64), randrange(start, stop, step) (ival 0: randrange(stop)),
  // randint(a, b), gauss(mu, sigma), normalvariate(mu, sigma).
  PySeed, PySeedEntropy, PyRandom, PyGetrandbits, PyRandrange, PyRandint, PyGauss, PyNormalvariate,
  // Draws from a np.random.Generator (args[0]); GenBounded64/32: args off, rng → off + [0, rng].
  GenBounded64, GenBounded32,
  GenShuffle, // args gen, a 1-D array shuffled in place → none
};
enum class ReduceKind { Sum, Prod, Min, Max, ArgMin, ArgMax, Any, All, Mean, Var, Std, CumSum, CumProd };
const char *reduceKindName(ReduceKind k);
const char *randomKindName(RandomKind k);
const char *binaryOpName(BinaryOp op);
const char *datetimeOpName(DatetimeOp op);
const char *unaryOpName(UnaryOp op);
const char *cmpOpName(CmpOp op);

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;
struct Stmt;
using StmtPtr = std::unique_ptr<Stmt>;
using Block = std::vector<StmtPtr>;

// One index position of an ArrayView: an integer index (drops the axis), a slice
// (keeps it) or a new axis of length 1 (np.newaxis / None: consumes no axis of the
// base). Missing slice parts are null (Python defaults).
struct ViewSlot {
  bool isSlice = false;
  bool newAxis = false;      // consumes nothing; isSlice is false and every part null
  ExprPtr index;             // !isSlice: int64
  ExprPtr start, stop, step; // isSlice: int64 or null
};

struct Expr {
  ExprOp op;
  types::Type type;
  Loc loc;
  std::vector<ExprPtr> args;
  int64_t ival = 0;     // Const int/bool, TupleGet index, ArrayShape dim
  double fval = 0;      // Const float, real part
  double fval2 = 0;     // Const complex imaginary part
  int var = -1;         // LoadVar
  int sub = 0;          // BinaryOp / UnaryOp / CmpOp / Intrinsic / AllocKind / ShortCircuit (0 and, 1 or)
  std::string symbol;   // Call: callee symbol; Const of Str: the string
  std::vector<ViewSlot> slots; // ArrayView
  std::shared_ptr<Block> body; // Seq: statements run before args[0] is evaluated

  Expr(ExprOp op, types::Type type, Loc loc) : op(op), type(std::move(type)), loc(loc) {}
};

struct Stmt {
  StmtOp op;
  Loc loc;
  int var = -1;                // Assign, ForRange; SaveError/RestoreError: the slot
  std::vector<ExprPtr> exprs;
  Block body, orelse;
  types::ExcKind exc{};        // Raise
  std::string text;            // Raise message
  Stmt(StmtOp op, Loc loc) : op(op), loc(loc) {}
};

struct Var {
  std::string name;
  types::Type type;
};

struct Function {
  std::string name;       // Python name
  std::string file;       // source path (runtime error messages name file:line)
  std::string symbol;     // LLVM symbol of the internal function
  std::vector<Var> vars;  // parameters first
  int numParams = 0;
  // Types of the incoming arguments; a parameter variable reassigned with a wider
  // type (int then float) has vars[i].type != argTypes[i] and is converted on entry.
  std::vector<types::Type> argTypes;
  types::Type ret;
  // A generator function (its body yields): calling it makes a Generator (ret) whose
  // body runs as a coroutine, item by item (codegen/generators.cpp).
  bool generator = false;
  Block body;
};

// Textual form for --emit=ir and FileCheck tests.
std::string print(const Function &fn);
// Checks types and structure (operand types match each op's rules, break/continue
// only in loops, vars in range, no Unknown types). Throws InternalError on failure.
void verify(const Function &fn);

// Convenience constructors used by sema and the passes.
ExprPtr makeConst(const types::Type &t, Loc loc, int64_t i, double f = 0, double f2 = 0);
ExprPtr makeLoad(const Function &fn, int var, Loc loc);
ExprPtr makeCast(ExprPtr e, const types::Type &to); // returns e unchanged if types match
ExprPtr makeShortCircuit(bool isOr, ExprPtr a, ExprPtr b, Loc loc); // a and b / a or b (bools)
ExprPtr makeSelect(ExprPtr cond, ExprPtr a, ExprPtr b, Loc loc); // cond ? a : b (a's type)
StmtPtr makeEval(ExprPtr e, Loc loc);               // a statement evaluating e for its effects
ExprPtr makeStrConst(const std::string &text, Loc loc); // a string literal (type Str of `text`)
ExprPtr makeBoolOp(bool isOr, ExprPtr a, ExprPtr b, Loc loc); // a and/or b of two bools
ExprPtr clone(const Expr &e);                       // deep copy (of a pure expression)

} // namespace mahou::ir
