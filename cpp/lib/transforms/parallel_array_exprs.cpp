// Whole-array expressions of a parallel=True function as prange loops (Numba's parfors),
// for transforms/outline_parallel_loops to outline:
//   v = map(inputs, body)          (1-D)  →  v = empty(n); prange k: v[k] = body(inputs[k])
//   ... sum(map or array) / prod ... (1-D) →  r = 0; prange k: r += element k; ... r ...
// The inputs are evaluated once into hidden variables; the loop runs when every array
// input has the same length n, else the original (broadcasting) expression does. Whether
// a loop is long enough to be worth threads is the grain's business (small ones run as
// one chunk). Expressions inside prange bodies, and statements with calls or random
// draws (their order of effects), are left alone.
#include "transforms/parallel_array_exprs.h"

#include <functional>

namespace mahou::transforms {

namespace {

using ir::Block;
using ir::Expr;
using ir::ExprOp;
using ir::ExprPtr;
using ir::Stmt;
using ir::StmtOp;
using ir::StmtPtr;
using types::Type;

bool contains(const Expr &e, const std::function<bool(const Expr &)> &pred) {
  if (pred(e)) return true;
  for (auto &a : e.args)
    if (contains(*a, pred)) return true;
  for (auto &s : e.slots)
    for (auto *p : {&s.index, &s.start, &s.stop, &s.step})
      if (*p && contains(**p, pred)) return true;
  return false;
}

bool hasEffects(const Expr &e) {
  return contains(e, [](const Expr &x) { return x.op == ExprOp::Call || x.op == ExprOp::Random || x.op == ExprOp::Let; });
}

// A 1-D map whose inputs are 1-D arrays or scalars and whose body is scalar code.
bool isFlatMap(const Expr &e) {
  if (e.op != ExprOp::ArrayMap || e.type.ndim != 1) return false;
  for (int64_t k = 0; k < e.ival; ++k) {
    const Type &t = e.args[k]->type;
    if (t.isArray() ? t.ndim != 1 : !t.isNumber()) return false;
  }
  return !contains(*e.args[e.ival], [](const Expr &x) {
    return x.op == ExprOp::ArrayMap || x.op == ExprOp::ArrayReduce || x.type.isArray() || x.op == ExprOp::Call ||
           x.op == ExprOp::Random || x.op == ExprOp::Let;
  });
}

class ArrayExprs {
public:
  explicit ArrayExprs(ir::Function &fn) : fn_(fn) {}

  void run() { block(fn_.body); }

private:
  int newVar(const std::string &name, const Type &t) {
    fn_.vars.push_back({name + std::to_string(counter_++), t});
    return int(fn_.vars.size()) - 1;
  }

  void block(Block &b) {
    Block out;
    for (auto &s : b) {
      if (s->op != StmtOp::ParallelFor) { // a prange body's expressions stay serial
        block(s->body);
        block(s->orelse);
      }
      Loc loc = s->loc;
      if (s->op == StmtOp::Assign && isFlatMap(*s->exprs[0])) {
        mapAssign(*s, out);
        continue;
      }
      if ((s->op == StmtOp::Assign || s->op == StmtOp::Return || s->op == StmtOp::Eval) && !s->exprs.empty() &&
          !hasEffects(*s->exprs[0]))
        hoistReductions(s->exprs[0], out, loc);
      out.push_back(std::move(s));
    }
    b = std::move(out);
  }

  // The map's inputs into hidden variables (the map then loads them), their common
  // length into `n`, and whether every array input has it into `ok`.
  struct Flat {
    std::vector<int> inputs;
    int n = -1, ok = -1;
  };
  Flat evaluateInputs(Expr &map, Block &out, Loc loc) {
    Flat f;
    for (int64_t k = 0; k < map.ival; ++k) {
      int v = newVar("$pin", map.args[k]->type);
      out.push_back(assign(v, std::move(map.args[k]), loc));
      map.args[k] = ir::makeLoad(fn_, v, loc);
      f.inputs.push_back(v);
    }
    f.n = newVar("$pn", Type::int64());
    f.ok = newVar("$pok", Type::boolean());
    ExprPtr ok = ir::makeConst(Type::boolean(), loc, 1);
    bool first = true;
    for (int v : f.inputs) {
      if (!fn_.vars[v].type.isArray()) continue;
      if (first) out.push_back(assign(f.n, shape(v, loc), loc));
      else ok = binary(ir::BinaryOp::BitAnd, std::move(ok), compareEq(shape(v, loc), ir::makeLoad(fn_, f.n, loc)), loc);
      first = false;
    }
    out.push_back(assign(f.ok, std::move(ok), loc));
    return f;
  }

  // Element k of the map: its body with input i read at k.
  ExprPtr element(const Expr &map, const Flat &f, int k, Loc loc) {
    ExprPtr body = ir::clone(*map.args[map.ival]);
    std::function<void(ExprPtr &)> bind = [&](ExprPtr &e) {
      if (e->op == ExprOp::MapInput) {
        int v = f.inputs[size_t(e->ival)];
        const Type &t = fn_.vars[v].type;
        if (!t.isArray()) {
          e = ir::makeLoad(fn_, v, loc);
          return;
        }
        auto item = std::make_unique<Expr>(ExprOp::ArrayItem, Type::scalar(t.dtype), loc);
        item->args.push_back(ir::makeLoad(fn_, v, loc));
        item->args.push_back(ir::makeLoad(fn_, k, loc));
        e = std::move(item);
        return;
      }
      for (auto &a : e->args) bind(a);
    };
    bind(body);
    return body;
  }

  StmtPtr prange(int k, int n, Block body, Loc loc) {
    auto loop = std::make_unique<Stmt>(StmtOp::ParallelFor, loc);
    loop->var = k;
    loop->text = "array expression";
    loop->exprs.push_back(ir::makeConst(Type::int64(), loc, 0));
    loop->exprs.push_back(ir::makeLoad(fn_, n, loc));
    loop->exprs.push_back(ir::makeConst(Type::int64(), loc, 1));
    loop->body = std::move(body);
    return loop;
  }

  // v = map(...): v = empty(n); prange k: v[k] = element k   (else the map itself)
  void mapAssign(Stmt &s, Block &out) {
    Loc loc = s.loc;
    Expr &map = *s.exprs[0];
    Flat f = evaluateInputs(map, out, loc);
    int k = newVar("$pk", Type::int64());
    int result = newVar("$pout", map.type);
    auto alloc = std::make_unique<Expr>(ExprOp::ArrayAlloc, map.type, loc);
    alloc->sub = int(ir::AllocKind::Empty);
    alloc->args.push_back(ir::makeLoad(fn_, f.n, loc));
    Block parallel;
    parallel.push_back(assign(result, std::move(alloc), loc));
    auto store = std::make_unique<Stmt>(StmtOp::StoreItem, loc);
    store->exprs.push_back(ir::makeLoad(fn_, result, loc));
    store->exprs.push_back(ir::makeLoad(fn_, k, loc));
    store->exprs.push_back(ir::makeCast(element(map, f, k, loc), Type::scalar(map.type.dtype)));
    Block body;
    body.push_back(std::move(store));
    parallel.push_back(prange(k, f.n, std::move(body), loc));
    parallel.push_back(assign(s.var, ir::makeLoad(fn_, result, loc), loc));
    // The result's second reference: dropped now, not at the function's exit.
    parallel.push_back(assign(result, emptyArray(map.type, loc), loc));
    auto branch = std::make_unique<Stmt>(StmtOp::If, loc);
    branch->exprs.push_back(ir::makeLoad(fn_, f.ok, loc));
    branch->body = std::move(parallel);
    branch->orelse.push_back(assign(s.var, std::move(s.exprs[0]), loc));
    out.push_back(std::move(branch));
    ++rewritten_;
  }

  // sum/prod of a 1-D map or array inside a statement's expression, hoisted before it.
  void hoistReductions(ExprPtr &e, Block &out, Loc loc) {
    if (e->op == ExprOp::Select || e->op == ExprOp::ShortCircuit || e->op == ExprOp::ArrayMap) return; // lazy / per element
    for (auto &a : e->args) hoistReductions(a, out, loc);
    if (e->op != ExprOp::ArrayReduce || e->ival != -1 || !e->type.isNumber()) return;
    auto kind = ir::ReduceKind(e->sub);
    if (kind != ir::ReduceKind::Sum && kind != ir::ReduceKind::Prod) return;
    ExprPtr &source = e->args[0];
    if (!source->type.isArray() || source->type.ndim != 1) return;
    if (source->op != ExprOp::ArrayMap) { // a plain array: the map of its elements
      auto map = std::make_unique<Expr>(ExprOp::ArrayMap, Type::array(source->type.dtype, 1, types::Layout::C), loc);
      map->ival = 1;
      map->args.push_back(std::move(source));
      map->args.push_back(std::make_unique<Expr>(ExprOp::MapInput, Type::scalar(map->type.dtype), loc));
      source = std::move(map);
    }
    if (!isFlatMap(*source)) return;
    Flat f = evaluateInputs(*source, out, loc);
    const Type rt = e->type;
    int r = newVar("$pred", rt), k = newVar("$pk", Type::int64());
    Block parallel;
    bool sum = kind == ir::ReduceKind::Sum;
    parallel.push_back(assign(r, ir::makeConst(rt, loc, sum ? 0 : 1, sum ? 0.0 : 1.0), loc));
    Block body;
    body.push_back(assign(r,
                          binary(sum ? ir::BinaryOp::Add : ir::BinaryOp::Mul, ir::makeLoad(fn_, r, loc),
                                 ir::makeCast(element(*source, f, k, loc), rt), loc),
                          loc));
    parallel.push_back(prange(k, f.n, std::move(body), loc));
    auto branch = std::make_unique<Stmt>(StmtOp::If, loc);
    branch->exprs.push_back(ir::makeLoad(fn_, f.ok, loc));
    branch->body = std::move(parallel);
    branch->orelse.push_back(assign(r, std::move(e), loc));
    out.push_back(std::move(branch));
    e = ir::makeLoad(fn_, r, loc);
    ++rewritten_;
  }

  StmtPtr assign(int var, ExprPtr value, Loc loc) {
    auto s = std::make_unique<Stmt>(StmtOp::Assign, loc);
    s->var = var;
    s->exprs.push_back(std::move(value));
    return s;
  }
  ExprPtr shape(int var, Loc loc) {
    auto e = std::make_unique<Expr>(ExprOp::ArrayShape, Type::int64(), loc);
    e->args.push_back(ir::makeLoad(fn_, var, loc));
    return e;
  }
  ExprPtr emptyArray(const Type &t, Loc loc) {
    auto alloc = std::make_unique<Expr>(ExprOp::ArrayAlloc, t, loc);
    alloc->sub = int(ir::AllocKind::Empty);
    alloc->args.push_back(ir::makeConst(Type::int64(), loc, 0));
    return alloc;
  }
  ExprPtr compareEq(ExprPtr a, ExprPtr b) {
    auto e = std::make_unique<Expr>(ExprOp::Compare, Type::boolean(), a->loc);
    e->sub = int(ir::CmpOp::Eq);
    e->args.push_back(std::move(a));
    e->args.push_back(std::move(b));
    return e;
  }
  ExprPtr binary(ir::BinaryOp op, ExprPtr a, ExprPtr b, Loc loc) {
    auto e = std::make_unique<Expr>(ExprOp::Binary, a->type, loc);
    e->sub = int(op);
    e->args.push_back(std::move(a));
    e->args.push_back(std::move(b));
    return e;
  }

  ir::Function &fn_;
  int counter_ = 0;
  int rewritten_ = 0;
};

} // namespace

void parallelizeArrayExprs(ir::Function &fn) { ArrayExprs(fn).run(); }

} // namespace mahou::transforms
