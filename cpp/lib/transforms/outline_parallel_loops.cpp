// Outlines each prange loop of a parallel=True function into a chunk function, with
// Numba's semantics ("Automatic parallelization"):
//  - a reduction is a variable whose every use in the body is an update `v = v op x`
//    (op one of + - * | & ^; x not using v), `v = min(v, x)` / `max`, or an in-place
//    array update `acc op= x` of a whole array variable. Each chunk reduces into a
//    private copy that starts at op's identity; the parent combines the copies in chunk
//    order after the loop (a - reduction combines with +);
//  - every other variable the body uses is passed to the chunk function by value:
//    arrays are shared, scalars and arrays assigned in the body are private to a chunk
//    (reading one after the loop is refused: its value would depend on the partition);
//  - a prange nested in another's body runs serially; break and return are refused.
// The chunk function is  f(begin, end, start, step, captured...) -> (partials...)  and
// runs iterations begin <= j < end of the loop (index start + j * step).
#include "transforms/outline_parallel_loops.h"
#include "mahou/versions.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <set>

namespace mahou::transforms {

namespace {

using ir::Block;
using ir::Expr;
using ir::ExprOp;
using ir::ExprPtr;
using ir::Stmt;
using ir::StmtOp;
using types::Type;

// ------------------------------------------------------------------ variable uses
// Every walker below also enters a Seq's statements (a comprehension, a conditional
// expression on an optional): they read and assign the function's variables too.

bool readsVar(const Block &b, int v);
bool readsVar(const Expr &e, int v) {
  if (e.op == ExprOp::LoadVar && e.var == v) return true;
  for (auto &a : e.args)
    if (readsVar(*a, v)) return true;
  for (auto &s : e.slots)
    for (auto *p : {&s.index, &s.start, &s.stop, &s.step})
      if (*p && readsVar(**p, v)) return true;
  return e.body && readsVar(*e.body, v);
}

bool readsVar(const Stmt &s, int v) {
  for (auto &e : s.exprs)
    if (readsVar(*e, v)) return true;
  return readsVar(s.body, v) || readsVar(s.orelse, v);
}
bool readsVar(const Block &b, int v) {
  for (auto &s : b)
    if (readsVar(*s, v)) return true;
  return false;
}

bool definesVar(const Stmt &s) {
  return s.var >= 0 && (s.op == StmtOp::Assign || s.op == StmtOp::ForRange || s.op == StmtOp::ParallelFor);
}

bool writesVar(const Block &b, int v);
bool writesVar(const Expr &e, int v) {
  if (e.op == ExprOp::Let && e.var == v) return true;
  for (auto &a : e.args)
    if (writesVar(*a, v)) return true;
  return e.body && writesVar(*e.body, v);
}
bool writesVar(const Block &b, int v) {
  for (auto &s : b) {
    if (definesVar(*s) && s->var == v) return true;
    for (auto &e : s->exprs)
      if (writesVar(*e, v)) return true;
    if (writesVar(s->body, v) || writesVar(s->orelse, v)) return true;
  }
  return false;
}

// Let (an assignment inside an expression) writes its variable.
void usedVars(const Block &b, std::set<int> &out, std::set<int> &written);
void usedVars(const Expr &e, std::set<int> &out, std::set<int> &written) {
  if (e.op == ExprOp::LoadVar) out.insert(e.var);
  if (e.op == ExprOp::Let) {
    out.insert(e.var);
    written.insert(e.var);
  }
  for (auto &a : e.args) usedVars(*a, out, written);
  for (auto &s : e.slots)
    for (auto *p : {&s.index, &s.start, &s.stop, &s.step})
      if (*p) usedVars(**p, out, written);
  if (e.body) usedVars(*e.body, out, written);
}
void usedVars(const Block &b, std::set<int> &out, std::set<int> &written) {
  for (auto &s : b) {
    for (auto &e : s->exprs) usedVars(*e, out, written);
    if (definesVar(*s)) {
      out.insert(s->var);
      written.insert(s->var);
    }
    usedVars(s->body, out, written);
    usedVars(s->orelse, out, written);
  }
}

// `seen`: a Seq's statements may be shared by copies of the expression (ir::clone);
// they are renumbered once.
void remap(Block &b, const std::map<int, int> &to, std::set<const Block *> &seen);
void remap(Expr &e, const std::map<int, int> &to, std::set<const Block *> &seen) {
  if (e.op == ExprOp::LoadVar || e.op == ExprOp::Let) e.var = to.at(e.var);
  for (auto &a : e.args) remap(*a, to, seen);
  for (auto &s : e.slots)
    for (auto *p : {&s.index, &s.start, &s.stop, &s.step})
      if (*p) remap(**p, to, seen);
  if (e.body && seen.insert(e.body.get()).second) remap(*e.body, to, seen);
}
void remap(Block &b, const std::map<int, int> &to, std::set<const Block *> &seen) {
  for (auto &s : b) {
    for (auto &e : s->exprs) remap(*e, to, seen);
    if (s->var >= 0 && definesVar(*s)) s->var = to.at(s->var);
    remap(s->body, to, seen);
    remap(s->orelse, to, seen);
  }
}

// ------------------------------------------------------------------ reductions

enum class Combine { Add, Mul, Or, And, Xor, Min, Max };

const char *combineName(Combine c) {
  switch (c) {
  case Combine::Add: return "+";
  case Combine::Mul: return "*";
  case Combine::Or: return "|";
  case Combine::And: return "&";
  case Combine::Xor: return "^";
  case Combine::Min: return "min";
  case Combine::Max: return "max";
  }
  return "?";
}

bool isLoadOf(const Expr &e, int v) { return e.op == ExprOp::LoadVar && e.var == v; }

std::optional<Combine> binaryCombine(ir::BinaryOp op) {
  switch (op) {
  case ir::BinaryOp::Add:
  case ir::BinaryOp::Sub: return Combine::Add;
  case ir::BinaryOp::Mul: return Combine::Mul;
  case ir::BinaryOp::BitOr: return Combine::Or;
  case ir::BinaryOp::BitAnd: return Combine::And;
  case ir::BinaryOp::BitXor: return Combine::Xor;
  default: return std::nullopt;
  }
}

// `lhs op rhs` where `isSelf` picks out the reduction variable's own value: the combine
// operation when one operand is it (the left one for -) and the other does not use it.
template <class IsSelf, class Uses>
std::optional<Combine> updateOf(const Expr &e, IsSelf isSelf, Uses uses) {
  if (e.args.size() != 2) return std::nullopt;
  std::optional<Combine> c;
  bool commutes = true;
  if (e.op == ExprOp::Binary) {
    c = binaryCombine(ir::BinaryOp(e.sub));
    commutes = ir::BinaryOp(e.sub) != ir::BinaryOp::Sub;
  } else if (e.op == ExprOp::Intrinsic && !e.type.isComplex()) {
    if (ir::Intrinsic(e.sub) == ir::Intrinsic::Min) c = Combine::Min;
    if (ir::Intrinsic(e.sub) == ir::Intrinsic::Max) c = Combine::Max;
  }
  if (!c) return std::nullopt;
  if (isSelf(*e.args[0]) && !uses(*e.args[1])) return c;
  if (commutes && isSelf(*e.args[1]) && !uses(*e.args[0])) return c;
  return std::nullopt;
}

std::optional<Combine> scalarUpdate(const Expr &e, int v) {
  return updateOf(e, [&](const Expr &x) { return isLoadOf(x, v); }, [&](const Expr &x) { return readsVar(x, v); });
}

bool usesInput(const Expr &e, int64_t k) {
  if (e.op == ExprOp::MapInput && e.ival == k) return true;
  for (auto &a : e.args)
    if (usesInput(*a, k)) return true;
  return false;
}

// setview acc, map(..., acc, ..., body): body updates input `acc` with the others.
std::optional<Combine> arrayUpdate(const Stmt &s, int v) {
  if (s.op != StmtOp::StoreView || !isLoadOf(*s.exprs[0], v)) return std::nullopt;
  const Expr &map = *s.exprs[1];
  int64_t n = map.ival, self = -1;
  for (int64_t k = 0; k < n; ++k) {
    if (isLoadOf(*map.args[k], v)) {
      if (self >= 0) return std::nullopt;
      self = k;
    } else if (readsVar(*map.args[k], v)) {
      return std::nullopt;
    }
  }
  if (self < 0 || map.type.ndim != s.exprs[0]->type.ndim) return std::nullopt;
  return updateOf(
      *map.args[n], [&](const Expr &x) { return x.op == ExprOp::MapInput && x.ival == self; },
      [&](const Expr &x) { return usesInput(x, self); });
}

// The combine operation when every use of `v` in `body` is an update of one kind.
std::optional<Combine> reductionOf(const Block &body, int v) {
  std::optional<Combine> found;
  bool ok = true;
  auto note = [&](std::optional<Combine> c) {
    if (!c || (found && *found != *c)) ok = false;
    else found = c;
  };
  std::function<void(const Block &)> walk = [&](const Block &b) {
    for (auto &s : b) {
      if (!ok) return;
      if (s->op == StmtOp::Assign && s->var == v) {
        note(scalarUpdate(*s->exprs[0], v));
        continue;
      }
      if (s->op == StmtOp::StoreView && isLoadOf(*s->exprs[0], v)) {
        note(arrayUpdate(*s, v));
        continue;
      }
      if (definesVar(*s) && s->var == v) ok = false;
      for (auto &e : s->exprs)
        if (readsVar(*e, v) || writesVar(*e, v)) ok = false;
      walk(s->body);
      walk(s->orelse);
    }
  };
  walk(body);
  return ok ? found : std::nullopt;
}

ExprPtr identity(Combine c, const Type &t, Loc loc) {
  const double inf = INFINITY;
  types::DType d = t.dtype;
  int bits = types::dtypeBits(d);
  bool isSigned = types::isSigned(d);
  int64_t intMax = isSigned ? int64_t((~uint64_t(0)) >> (65 - bits)) : (bits == 64 ? -1 : int64_t((uint64_t(1) << bits) - 1));
  int64_t intMin = isSigned ? int64_t(~uint64_t(0) << (bits - 1)) : 0;
  switch (c) {
  case Combine::Add:
  case Combine::Or:
  case Combine::Xor: return ir::makeConst(t, loc, 0, 0.0, 0.0);
  case Combine::Mul: return ir::makeConst(t, loc, 1, 1.0, 0.0);
  case Combine::And: return ir::makeConst(t, loc, t.isBool() ? 1 : -1);
  case Combine::Min:
    if (t.isBool()) return ir::makeConst(t, loc, 1);
    return t.isFloat() ? ir::makeConst(t, loc, 0, inf) : ir::makeConst(t, loc, intMax);
  case Combine::Max:
    if (t.isBool()) return ir::makeConst(t, loc, 0);
    return t.isFloat() ? ir::makeConst(t, loc, 0, -inf) : ir::makeConst(t, loc, intMin);
  }
  return nullptr;
}

// acc op x, for the combine step: Binary or the min/max intrinsic of type t.
ExprPtr combineExpr(Combine c, ExprPtr acc, ExprPtr x, const Type &t, Loc loc) {
  auto e = std::make_unique<Expr>(ExprOp::Binary, t, loc);
  switch (c) {
  case Combine::Add: e->sub = int(ir::BinaryOp::Add); break;
  case Combine::Mul: e->sub = int(ir::BinaryOp::Mul); break;
  case Combine::Or: e->sub = int(ir::BinaryOp::BitOr); break;
  case Combine::And: e->sub = int(ir::BinaryOp::BitAnd); break;
  case Combine::Xor: e->sub = int(ir::BinaryOp::BitXor); break;
  case Combine::Min:
  case Combine::Max:
    e->op = ExprOp::Intrinsic;
    e->sub = int(c == Combine::Min ? ir::Intrinsic::Min : ir::Intrinsic::Max);
    break;
  }
  e->args.push_back(std::move(acc));
  e->args.push_back(std::move(x));
  return e;
}

// ------------------------------------------------------------------ grain

// How much work a body is, roughly (expressions and statements), or -1 when it has a
// loop or a call (work not known from its size).
int64_t bodySize(const Block &b);
int64_t exprSize(const Expr &e) {
  if (e.op == ExprOp::Call || e.op == ExprOp::ArrayMap || e.op == ExprOp::ArrayReduce || e.op == ExprOp::ArrayDot ||
      e.op == ExprOp::ArraySort || e.op == ExprOp::ArrayAlloc || e.op == ExprOp::ArrayCopy ||
      e.op == ExprOp::ArrayGather || e.op == ExprOp::ArrayFancyGet)
    return -1;
  int64_t n = 1;
  for (auto &a : e.args) {
    int64_t k = exprSize(*a);
    if (k < 0) return -1;
    n += k;
  }
  return n;
}
int64_t bodySize(const Block &b) {
  int64_t n = 0;
  for (auto &s : b) {
    if (s->op == StmtOp::While || s->op == StmtOp::ForRange || s->op == StmtOp::ParallelFor ||
        s->op == StmtOp::StoreView || s->op == StmtOp::Scatter || s->op == StmtOp::FancyStore || s->op == StmtOp::Print)
      return -1;
    n += 1;
    for (auto &e : s->exprs) {
      int64_t k = exprSize(*e);
      if (k < 0) return -1;
      n += k;
    }
    for (const Block *inner : {&s->body, &s->orelse}) {
      int64_t k = bodySize(*inner);
      if (k < 0) return -1;
      n += k;
    }
  }
  return n;
}

// The fewest iterations worth a chunk of their own: a body of a few operations takes a
// nanosecond or two, so a chunk needs thousands of them to outweigh starting a thread's
// share of the loop (about a microsecond); a body with loops or calls may take any time.
int64_t grainOf(const ir::Function &chunk) {
  const Block &loopBody = chunk.body.back()->op == StmtOp::Return ? chunk.body[chunk.body.size() - 2]->body
                                                                  : chunk.body.back()->body;
  int64_t size = bodySize(loopBody);
  constexpr int64_t kOperationsPerChunk = 16384;
  return size <= 0 ? 1 : std::max<int64_t>(1, kOperationsPerChunk / size);
}

// ------------------------------------------------------------------ the pass

struct Reduction {
  int var;      // the parent's variable
  Combine op;
};

// Where a statement sits: its block and its index there.
struct Frame {
  const Block *block;
  size_t index;
};

class Outliner {
public:
  Outliner(ir::Function &fn, const SourceFile &file, std::vector<std::unique_ptr<ir::Function>> &outlined)
      : fn_(fn), file_(file), outlined_(outlined) {}

  std::vector<std::string> run() {
    walk(fn_.body);
    return std::move(report_);
  }

private:
  void walk(Block &b) {
    for (size_t i = 0; i < b.size(); ++i) {
      frames_.push_back({&b, i});
      Stmt &s = *b[i];
      if (s.op == StmtOp::ParallelFor && s.var >= 0) {
        outline(s);
        enter(s, s.orelse, false);
      } else {
        enter(s, s.body, true);
        enter(s, s.orelse, false);
      }
      frames_.pop_back();
    }
  }
  void enter(Stmt &owner, Block &b, bool inBody) {
    owners_.push_back({&owner, inBody});
    walk(b);
    owners_.pop_back();
  }

  // Is `v` read after the statement at the innermost frame, before being reassigned?
  bool readLater(int v) const {
    for (size_t f = frames_.size(); f-- > 0;) {
      const Frame &fr = frames_[f];
      const Block &b = *fr.block;
      for (size_t k = fr.index + 1; k < b.size(); ++k) {
        const Stmt &s = *b[k];
        if (s.op == StmtOp::Assign && s.var == v && !readsVar(*s.exprs[0], v)) return false;
        if (readsVar(s, v)) return true;
      }
      if (f == 0) break;
      const auto &[owner, inBody] = owners_[f - 1];
      bool loop = owner->op == StmtOp::While || owner->op == StmtOp::ForRange || owner->op == StmtOp::ParallelFor;
      if (loop && (readsVar(owner->body, v) || (!owner->exprs.empty() && readsVar(*owner->exprs[0], v)))) return true;
      if (owner->op == StmtOp::TryExcept && inBody && readsVar(owner->orelse, v)) return true;
    }
    return false;
  }

  // An objmode block in the loop: its threads would wait for the interpreter's lock,
  // which the thread that started the loop holds.
  void refuseObjMode(const Expr &e) {
    if (e.op == ExprOp::ObjModeCall)
      unsupported(file_, e.loc, "an objmode block inside a prange loop is not supported (its iterations run on "
                                "threads without the interpreter)");
    for (auto &a : e.args) refuseObjMode(*a);
    if (e.body) checkBodyExprs(*e.body);
  }
  void checkBodyExprs(const Block &b) {
    for (auto &s : b) {
      for (auto &e : s->exprs) refuseObjMode(*e);
      checkBodyExprs(s->body);
      checkBodyExprs(s->orelse);
    }
  }

  void checkBody(const Block &b, int depth, std::vector<Loc> &nested) {
    if (depth == 0) checkBodyExprs(b);
    for (auto &s : b) {
      if (s->op == StmtOp::Return)
        unsupported(file_, s->loc, "'return' in a prange loop is not supported (its iterations run in parallel)");
      if (s->op == StmtOp::Break && depth == 0)
        unsupported(file_, s->loc, "'break' in a prange loop is not supported (its iterations run in parallel)");
      if (s->op == StmtOp::ParallelFor) {
        s->op = StmtOp::ForRange; // nested prange: serial, as Numba runs it
        nested.push_back(s->loc);
      }
      bool loop = s->op == StmtOp::While || s->op == StmtOp::ForRange;
      checkBody(s->body, depth + (loop ? 1 : 0), nested);
      checkBody(s->orelse, depth, nested);
    }
  }

  void outline(Stmt &loop) {
    ++loops_;
    std::string what = loop.text.empty() ? "prange loop" : loop.text; // "array expression": parallel_array_exprs
    Loc loc = loop.loc;
    std::vector<Loc> nested;
    checkBody(loop.body, 0, nested);
    int counter = loop.var;

    std::set<int> used, written;
    usedVars(loop.body, used, written);
    used.erase(counter);
    written.erase(counter);

    // Reductions first: they are not passed in (arrays are, for their shape).
    std::vector<Reduction> reductions;
    for (int v : used) {
      const Type &t = fn_.vars[v].type;
      if (!t.isNumber() && !t.isArray()) continue;
      if (auto c = reductionOf(loop.body, v)) reductions.push_back({v, *c});
    }
    std::set<int> reduced;
    for (auto &r : reductions) reduced.insert(r.var);
    for (int v : written)
      if (!reduced.count(v) && readLater(v))
        unsupported(file_, loc,
                    "variable '" + frontend::userName(fn_.vars[v].name) +
                        "' is assigned in this prange loop and read after it, but it is not a reduction "
                        "(v = v op x with op one of + - * | & ^, or v = min(v, x) / max(v, x)): each thread has its "
                        "own copy, so its value after the loop is undefined");

    // The chunk function: begin, end, start, step, then every used variable's value.
    auto chunk = std::make_unique<ir::Function>();
    chunk->name = fn_.name;
    chunk->file = fn_.file;
    chunk->symbol = fn_.symbol + ".prange" + std::to_string(loops_);
    auto addVar = [&](const std::string &name, const Type &t) {
      chunk->vars.push_back({name, t});
      return int(chunk->vars.size()) - 1;
    };
    int begin = addVar("$begin", Type::int64()), end = addVar("$end", Type::int64());
    int start = addVar("$start", Type::int64()), step = addVar("$step", Type::int64());
    std::map<int, int> to;
    std::vector<int> captured; // parent variables, in parameter order
    for (int v : used) {
      const Type &t = fn_.vars[v].type;
      if (reduced.count(v) && !t.isArray()) continue;
      int p = addVar(fn_.vars[v].name, t);
      captured.push_back(v);
      if (!reduced.count(v)) to[v] = p;
    }
    chunk->numParams = int(chunk->vars.size());
    for (auto &v : chunk->vars) chunk->argTypes.push_back(v.type);
    int j = addVar("$j", Type::int64());
    to[counter] = addVar(fn_.vars[counter].name, Type::int64());
    std::vector<int> privates; // the chunk's partial result of each reduction
    std::vector<Type> partialTypes;
    for (auto &r : reductions) {
      const Type &t = fn_.vars[r.var].type;
      int priv = addVar(fn_.vars[r.var].name, t);
      to[r.var] = priv;
      privates.push_back(priv);
      partialTypes.push_back(t);
    }
    chunk->ret = reductions.empty() ? Type::none() : Type::tuple(partialTypes);

    // Body: partials = identities; for j in range(begin, end): i = start + j * step; body
    for (size_t k = 0; k < reductions.size(); ++k) {
      const Type &t = partialTypes[k];
      ExprPtr init;
      if (t.isArray()) { // full_like(acc, identity)
        init = std::make_unique<Expr>(ExprOp::ArrayAlloc, t, loc);
        init->sub = int(ir::AllocKind::Full);
        init->ival = 1;
        init->args.push_back(ir::makeLoad(*chunk, 4 + paramOf(captured, reductions[k].var), loc));
        init->args.push_back(identity(reductions[k].op, Type::scalar(t.dtype), loc));
      } else {
        init = identity(reductions[k].op, t, loc);
      }
      auto assign = std::make_unique<Stmt>(StmtOp::Assign, loc);
      assign->var = privates[k];
      assign->exprs.push_back(std::move(init));
      chunk->body.push_back(std::move(assign));
    }
    std::set<const Block *> remapped;
    remap(loop.body, to, remapped);
    auto serial = std::make_unique<Stmt>(StmtOp::ForRange, loc);
    serial->var = j;
    serial->exprs.push_back(ir::makeLoad(*chunk, begin, loc));
    serial->exprs.push_back(ir::makeLoad(*chunk, end, loc));
    serial->exprs.push_back(ir::makeConst(Type::int64(), loc, 1));
    // start + j * step, with the parent's constants folded in (prange(n): the index is j,
    // so accesses stay unit-stride and the loop vectorises).
    const Expr &startE = *loop.exprs[0], &stepE = *loop.exprs[2];
    ExprPtr offset = ir::makeLoad(*chunk, j, loc);
    if (stepE.op != ExprOp::Const || stepE.ival != 1) {
      auto scaled = std::make_unique<Expr>(ExprOp::Binary, Type::int64(), loc);
      scaled->sub = int(ir::BinaryOp::Mul);
      scaled->args.push_back(std::move(offset));
      scaled->args.push_back(stepE.op == ExprOp::Const ? ir::clone(stepE) : ir::makeLoad(*chunk, step, loc));
      offset = std::move(scaled);
    }
    ExprPtr index = std::move(offset);
    if (startE.op != ExprOp::Const || startE.ival != 0) {
      auto sum = std::make_unique<Expr>(ExprOp::Binary, Type::int64(), loc);
      sum->sub = int(ir::BinaryOp::Add);
      sum->args.push_back(startE.op == ExprOp::Const ? ir::clone(startE) : ir::makeLoad(*chunk, start, loc));
      sum->args.push_back(std::move(index));
      index = std::move(sum);
    }
    auto setIndex = std::make_unique<Stmt>(StmtOp::Assign, loc);
    setIndex->var = to[counter];
    setIndex->exprs.push_back(std::move(index));
    serial->body.push_back(std::move(setIndex));
    for (auto &s : loop.body) serial->body.push_back(std::move(s));
    chunk->body.push_back(std::move(serial));
    auto ret = std::make_unique<Stmt>(StmtOp::Return, loc);
    if (!reductions.empty()) {
      auto tuple = std::make_unique<Expr>(ExprOp::TupleMake, chunk->ret, loc);
      for (int p : privates) tuple->args.push_back(ir::makeLoad(*chunk, p, loc));
      ret->exprs.push_back(std::move(tuple));
    }
    chunk->body.push_back(std::move(ret));

    // The parent: parallel_for @chunk(start, stop, step, grain, captured...), then the combine.
    int64_t grain = grainOf(*chunk);
    loop.body.clear();
    loop.var = -1;
    loop.text = chunk->symbol;
    loop.exprs.push_back(ir::makeConst(Type::int64(), loc, grain));
    for (int v : captured) loop.exprs.push_back(ir::makeLoad(fn_, v, loc));
    for (size_t k = 0; k < reductions.size(); ++k) {
      int v = reductions[k].var;
      const Type &t = fn_.vars[v].type;
      auto partials = std::make_unique<Expr>(ExprOp::ParallelPartial, chunk->ret, loc);
      auto part = std::make_unique<Expr>(ExprOp::TupleGet, t, loc);
      part->ival = int64_t(k);
      part->args.push_back(std::move(partials));
      if (t.isArray()) { // acc op= partial, elementwise
        auto map = std::make_unique<Expr>(ExprOp::ArrayMap, Type::array(t.dtype, t.ndim, types::Layout::C), loc);
        map->ival = 2;
        map->args.push_back(ir::makeLoad(fn_, v, loc));
        map->args.push_back(std::move(part));
        Type elem = Type::scalar(t.dtype);
        auto in0 = std::make_unique<Expr>(ExprOp::MapInput, elem, loc);
        auto in1 = std::make_unique<Expr>(ExprOp::MapInput, elem, loc);
        in1->ival = 1;
        map->args.push_back(combineExpr(reductions[k].op, std::move(in0), std::move(in1), elem, loc));
        auto store = std::make_unique<Stmt>(StmtOp::StoreView, loc);
        store->exprs.push_back(ir::makeLoad(fn_, v, loc));
        store->exprs.push_back(std::move(map));
        loop.body.push_back(std::move(store));
      } else {
        auto assign = std::make_unique<Stmt>(StmtOp::Assign, loc);
        assign->var = v;
        assign->exprs.push_back(combineExpr(reductions[k].op, ir::makeLoad(fn_, v, loc), std::move(part), t, loc));
        loop.body.push_back(std::move(assign));
      }
    }

    std::string line = what + " #" + std::to_string(loops_) + " at line " + std::to_string(loc.line) + " of '" +
                       fn_.name + "' runs in parallel";
    if (grain > 1) line += " (at least " + std::to_string(grain) + " iterations per thread: its body is small)";
    if (!reductions.empty()) {
      line += "; reductions:";
      for (size_t k = 0; k < reductions.size(); ++k)
        line += (k ? ", " : " ") + frontend::userName(fn_.vars[reductions[k].var].name) + " (" + combineName(reductions[k].op) +
                (fn_.vars[reductions[k].var].type.isArray() ? ", array" : "") + ")";
    }
    report_.push_back(line);
    for (Loc n : nested)
      report_.push_back("prange at line " + std::to_string(n.line) + " is nested in prange loop #" +
                        std::to_string(loops_) + ": it runs serially");
    outlined_.push_back(std::move(chunk));
  }

  static int paramOf(const std::vector<int> &captured, int v) {
    for (size_t k = 0; k < captured.size(); ++k)
      if (captured[k] == v) return int(k);
    return -1;
  }

  ir::Function &fn_;
  const SourceFile &file_;
  std::vector<std::unique_ptr<ir::Function>> &outlined_;
  std::vector<Frame> frames_;
  std::vector<std::pair<const Stmt *, bool>> owners_; // owners_[k] owns frames_[k + 1]'s block
  std::vector<std::string> report_;
  int loops_ = 0;
};

} // namespace

std::vector<std::string> outlineParallelLoops(ir::Function &fn, const SourceFile &file,
                                              std::vector<std::unique_ptr<ir::Function>> &outlined) {
  return Outliner(fn, file, outlined).run();
}

} // namespace mahou::transforms
