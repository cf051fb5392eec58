// Typed IR: op names and the small constructors shared by sema and passes.
#include "mahou/ir.h"

namespace mahou::ir {

namespace {
constexpr const char *kExprOpNames[] = {
#define MAHOU_EXPR_OP(name, text) text,
#include "mahou/ir_ops.def"
#undef MAHOU_EXPR_OP
};
constexpr const char *kStmtOpNames[] = {
#define MAHOU_STMT_OP(name, text) text,
#include "mahou/ir_ops.def"
#undef MAHOU_STMT_OP
};
struct IntrinsicInfo {
  const char *name;
  int arity;
};
constexpr IntrinsicInfo kIntrinsics[] = {
#define MAHOU_INTRINSIC(name, text, arity) {text, arity},
#include "mahou/intrinsics.def"
#undef MAHOU_INTRINSIC
};
} // namespace

const char *gpuOpName(GpuOpKind k) {
  static const char *names[] = {
#define MAHOU_GPU_OP(name, text) text,
#include "mahou/gpu_ops.def"
#undef MAHOU_GPU_OP
  };
  return names[static_cast<int>(k)];
}

const char *objectOpName(ObjectOp op) {
  static const char *names[] = {
#define MAHOU_OBJECT_OP(name, text, kind) text,
#include "mahou/object_ops.def"
#undef MAHOU_OBJECT_OP
  };
  return names[static_cast<int>(op)];
}

ObjectOpKind objectOpKind(ObjectOp op) {
  static const ObjectOpKind kinds[] = {
#define MAHOU_OBJECT_OP(name, text, kind) ObjectOpKind::kind,
#include "mahou/object_ops.def"
#undef MAHOU_OBJECT_OP
  };
  return kinds[static_cast<int>(op)];
}

const char *exprOpName(ExprOp op) { return kExprOpNames[static_cast<int>(op)]; }
const char *stmtOpName(StmtOp op) { return kStmtOpNames[static_cast<int>(op)]; }
const char *intrinsicName(Intrinsic i) { return kIntrinsics[static_cast<int>(i)].name; }
int intrinsicArity(Intrinsic i) { return kIntrinsics[static_cast<int>(i)].arity; }

const char *binaryOpName(BinaryOp op) {
  static const char *names[] = {"add", "sub", "mul", "truediv", "floordiv", "mod",
                                "pow", "and", "or",  "xor",     "shl",      "shr"};
  return names[static_cast<int>(op)];
}
const char *datetimeOpName(DatetimeOp op) {
  static const char *names[] = {"add", "sub", "mulint", "mulfloat", "divint", "divfloat", "divtd", "floordivtd",
                                "neg", "abs", "sign",   "isnat",    "maximum", "minimum", "fmax",  "fmin"};
  return names[static_cast<int>(op)];
}
const char *reduceKindName(ReduceKind k) {
  static const char *names[] = {"sum", "prod", "min",  "max", "argmin", "argmax", "any",
                                "all", "mean", "var", "std", "cumsum", "cumprod"};
  return names[static_cast<int>(k)];
}

const char *randomKindName(RandomKind k) {
  static const char *names[] = {"draw",      "check",    "npseed",    "npseed.entropy", "npinteger", "pyseed",
                                "pyseed.entropy", "pyrandom", "getrandbits", "randrange", "randint", "gauss",
                                "normalvariate", "bounded64", "bounded32", "shuffle"};
  return names[static_cast<int>(k)];
}

const char *unaryOpName(UnaryOp op) {
  static const char *names[] = {"neg", "invert", "not"};
  return names[static_cast<int>(op)];
}
const char *cmpOpName(CmpOp op) {
  static const char *names[] = {"eq", "ne", "lt", "le", "gt", "ge"};
  return names[static_cast<int>(op)];
}

ExprPtr makeConst(const types::Type &t, Loc loc, int64_t i, double f, double f2) {
  auto e = std::make_unique<Expr>(ExprOp::Const, t, loc);
  e->ival = i;
  e->fval = f;
  e->fval2 = f2;
  return e;
}

ExprPtr makeBoolOp(bool isOr, ExprPtr a, ExprPtr b, Loc loc) {
  auto e = std::make_unique<Expr>(ExprOp::ShortCircuit, types::Type::boolean(), loc);
  e->sub = isOr ? 1 : 0;
  e->args.push_back(std::move(a));
  e->args.push_back(std::move(b));
  return e;
}

ExprPtr makeLoad(const Function &fn, int var, Loc loc) {
  auto e = std::make_unique<Expr>(ExprOp::LoadVar, fn.vars[var].type, loc);
  e->var = var;
  return e;
}

ExprPtr clone(const Expr &e) {
  auto c = std::make_unique<Expr>(e.op, e.type, e.loc);
  c->ival = e.ival;
  c->fval = e.fval;
  c->fval2 = e.fval2;
  c->var = e.var;
  c->sub = e.sub;
  c->symbol = e.symbol;
  c->body = e.body; // a seq's statements are shared (such expressions are not duplicated)
  for (auto &a : e.args) c->args.push_back(clone(*a));
  for (auto &s : e.slots) {
    ViewSlot n;
    n.isSlice = s.isSlice;
    n.newAxis = s.newAxis;
    if (s.index) n.index = clone(*s.index);
    if (s.start) n.start = clone(*s.start);
    if (s.stop) n.stop = clone(*s.stop);
    if (s.step) n.step = clone(*s.step);
    c->slots.push_back(std::move(n));
  }
  return c;
}

ExprPtr makeStrConst(const std::string &text, Loc loc) {
  auto c = makeConst(types::Type::str_(text), loc, 0);
  c->symbol = text;
  return c;
}

StmtPtr makeEval(ExprPtr e, Loc loc) {
  auto st = std::make_unique<Stmt>(StmtOp::Eval, loc);
  st->exprs.push_back(std::move(e));
  return st;
}

ExprPtr makeShortCircuit(bool isOr, ExprPtr a, ExprPtr b, Loc loc) {
  auto sc = std::make_unique<Expr>(ExprOp::ShortCircuit, types::Type::boolean(), loc);
  sc->sub = isOr ? 1 : 0;
  sc->args.push_back(std::move(a));
  sc->args.push_back(std::move(b));
  return sc;
}

ExprPtr makeSelect(ExprPtr cond, ExprPtr a, ExprPtr b, Loc loc) {
  auto s = std::make_unique<Expr>(ExprOp::Select, a->type, loc);
  s->args.push_back(std::move(cond));
  s->args.push_back(std::move(a));
  s->args.push_back(std::move(b));
  return s;
}

ExprPtr makeCast(ExprPtr e, const types::Type &to) {
  if (e->type == to) return e;
  auto c = std::make_unique<Expr>(ExprOp::Cast, to, e->loc);
  c->args.push_back(std::move(e));
  return c;
}

} // namespace mahou::ir
