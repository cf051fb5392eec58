// Typing of the cuda module inside kernels: thread and block indices, cuda.grid,
// shared and local arrays, barriers and fences, atomics, warp operations and
// the bit helpers (Numba's CUDA names and result types).
#include "sema/typers.h"

namespace mahou::sema {

namespace {

using G = ir::GpuOpKind;

ExprPtr special(G kind, Loc loc) { return gpuOp(kind, Type::scalar(DType::Int32), loc); }

bool isAtomicDType(DType d) {
  return d == DType::Int32 || d == DType::Int64 || d == DType::UInt32 || d == DType::UInt64 ||
         d == DType::Float32 || d == DType::Float64;
}

} // namespace

// cuda.threadIdx, cuda.shared, ...: a compile-time object of the cuda module.
ExprPtr cudaNamespaceAttribute(Use &u) { return ir::makeConst(Type::namespaceObj(u.name), u.loc, 0); }

// threadIdx.x, cuda.laneid, ...: a special register (variant: the GPU operation).
ExprPtr cudaRegisterAttribute(Use &u) { return special(G(u.variant()), u.loc); }

namespace {

// A shape of constant integers (cuda.shared.array((16, 16), ...)).
std::vector<ExprPtr> constShape(Typing &t, const ast::Expr &e, const std::string &fname) {
  std::vector<ExprPtr> dims;
  std::vector<const ast::Expr *> parts;
  if (auto *tu = e.as<ast::Tuple>())
    for (auto &x : tu->elts) parts.push_back(x.get());
  else
    parts.push_back(&e);
  for (auto *p : parts) {
    auto v = t.constInt(*p);
    if (!v) t.error(p->loc, fname + "() needs a shape of constant integers");
    if (*v < 0) t.error(p->loc, fname + "() shape must not be negative");
    dims.push_back(ir::makeConst(Type::int64(), p->loc, *v));
  }
  return dims;
}

// A warp mask argument, as uint32.
ExprPtr mask(Typing &t, ExprPtr m) {
  if (Typing::isUnknown(m)) return m;
  if (!m->type.isInt()) t.error(m->loc, "a warp mask must be an integer");
  return ir::makeCast(std::move(m), Type::scalar(DType::UInt32));
}

} // namespace

// cuda.grid(ndim) (variant 0) / cuda.gridsize(ndim) (1): int64, or a tuple of them.
ExprPtr cudaGrid(Use &u) {
  Typing &t = u.t;
  const ast::Call &e = *u.call;
  std::string fname = u.qualified();
  Loc loc = u.loc;
  t.checkKeywords(e, {}, fname);
  if (e.args.size() != 1) u.error(fname + "() takes the number of dimensions (1, 2 or 3)");
  auto n = t.constInt(*e.args[0]);
  if (!n || *n < 1 || *n > 3) t.error(e.args[0]->loc, fname + "() needs a constant 1, 2 or 3");
  auto widen = [&](G kind) { return ir::makeCast(special(kind, loc), Type::int64()); };
  std::vector<ExprPtr> axes;
  for (int a = 0; a < *n; ++a) {
    ExprPtr v;
    if (u.variant() == 0)
      v = t.binary(ast::BinOpKind::Add,
                   t.binary(ast::BinOpKind::Mult, widen(G(int(G::CtaidX) + a)), widen(G(int(G::NtidX) + a)), loc),
                   widen(G(int(G::TidX) + a)), loc);
    else
      v = t.binary(ast::BinOpKind::Mult, widen(G(int(G::NtidX) + a)), widen(G(int(G::NctaidX) + a)), loc);
    axes.push_back(std::move(v));
  }
  if (*n == 1) return std::move(axes[0]);
  auto tup = std::make_unique<ir::Expr>(ir::ExprOp::TupleMake, Type::tuple(std::vector<Type>(*n, Type::int64())), loc);
  tup->args = std::move(axes);
  return tup;
}

// cuda.shared.array(shape, dtype) / cuda.local.array(shape, dtype) (variant: the GPU op).
ExprPtr cudaArray(Use &u) {
  Typing &t = u.t;
  const ast::Call &e = *u.call;
  std::string fname = u.qualified();
  t.checkKeywords(e, {"shape", "dtype"}, fname);
  const ast::Expr *shapeE = e.args.size() > 0 ? e.args[0].get() : u.keyword("shape");
  const ast::Expr *dtypeE = e.args.size() > 1 ? e.args[1].get() : u.keyword("dtype");
  if (!shapeE || !dtypeE) u.error(fname + "(shape, dtype) needs both arguments");
  auto dims = constShape(t, *shapeE, fname);
  auto dt = t.dtypeArgument(*dtypeE);
  if (!dt) return u.unknown();
  bool shared = G(u.variant()) == G::SharedArray;
  bool dynamic = dims.size() == 1 && dims[0]->ival == 0;
  if (dynamic && !shared) u.error("cuda.local.array() needs a positive size");
  for (auto &d : dims)
    if (d->ival == 0 && !dynamic) u.error("only a 1-D shared array of size 0 (dynamic shared memory) may have a zero extent");
  auto a = gpuOp(G(u.variant()), Type::array(*dt, int(dims.size()), types::Layout::C), u.loc);
  a->args = std::move(dims);
  return a;
}

ExprPtr cudaConstArrayLike(Use &u) {
  auto args = u.t.positionalArgs(*u.call, 1, 1, "cuda.const.array_like");
  if (Typing::isUnknown(args[0])) return u.unknown();
  if (!args[0]->type.isArray()) u.error("cuda.const.array_like() needs an array");
  return std::move(args[0]);
}

// Barriers and fences (variant: the GPU op); syncthreads_count/and/or take a predicate.
ExprPtr cudaBarrier(Use &u) {
  auto kind = G(u.variant());
  int nargs = kind == G::SyncThreadsCount || kind == G::SyncThreadsAnd || kind == G::SyncThreadsOr ? 1 : 0;
  auto args = u.args(nargs, nargs, {}, u.qualified());
  Type rt = kind == G::ActiveMask ? Type::scalar(DType::UInt32) : nargs ? Type::scalar(DType::Int32) : Type::none();
  auto op = gpuOp(kind, rt, u.loc);
  for (auto &a : args) {
    if (Typing::isUnknown(a)) return u.unknown();
    op->args.push_back(u.t.truth(std::move(a)));
  }
  return op;
}

ExprPtr cudaSyncwarp(Use &u) {
  auto args = u.t.positionalArgs(*u.call, 0, 1, "cuda.syncwarp");
  auto op = gpuOp(G::SyncWarp, Type::none(), u.loc);
  op->args.push_back(args.empty() ? ir::makeConst(Type::scalar(DType::UInt32), u.loc, 0xffffffffLL) : mask(u.t, std::move(args[0])));
  if (Typing::isUnknown(op->args[0])) return u.unknown();
  return op;
}

// shfl_sync, shfl_up_sync, shfl_down_sync, shfl_xor_sync (variant: the GPU op)
ExprPtr cudaShuffle(Use &u) {
  std::string fname = u.qualified();
  auto args = u.t.positionalArgs(*u.call, 3, 3, fname);
  if (anyUnknown(args)) return u.unknown();
  const Type vt = args[1]->type;
  if (!vt.isNumber() || vt.isComplex() || vt.isBool() || types::dtypeBytes(vt.dtype) < 4)
    u.notSupported(fname + "() of " + vt.str() + " is not supported (32- and 64-bit numbers only)");
  auto op = gpuOp(G(u.variant()), vt, u.loc);
  op->args.push_back(mask(u.t, std::move(args[0])));
  op->args.push_back(std::move(args[1]));
  op->args.push_back(u.t.convert(std::move(args[2]), Type::scalar(DType::Int32), "lane argument"));
  return op;
}

// ballot_sync, all_sync, any_sync (variant: the GPU op)
ExprPtr cudaVote(Use &u) {
  auto args = u.t.positionalArgs(*u.call, 2, 2, u.qualified());
  if (anyUnknown(args)) return u.unknown();
  auto kind = G(u.variant());
  auto op = gpuOp(kind, kind == G::Ballot ? Type::scalar(DType::UInt32) : Type::scalar(DType::Int32), u.loc);
  op->args.push_back(mask(u.t, std::move(args[0])));
  op->args.push_back(u.t.truth(std::move(args[1])));
  return op;
}

ExprPtr cudaFma(Use &u) {
  auto args = u.t.positionalArgs(*u.call, 3, 3, "cuda.fma");
  DType common = DType::Bool;
  for (auto &a : args) {
    if (Typing::isUnknown(a)) return u.unknown();
    if (!a->type.isNumber() || a->type.isComplex()) u.t.error(a->loc, "cuda.fma() needs real numbers");
    common = types::promote(common, a->type.dtype);
  }
  Type ft = Type::scalar(types::isFloat(common) ? common : DType::Float64);
  auto op = gpuOp(G::Fma, ft, u.loc);
  for (auto &a : args) op->args.push_back(ir::makeCast(std::move(a), ft));
  return op;
}

// popc, clz, brev of an integer (variant: the GPU op), in its own type; ffs, a uint32
// (as Numba types it).
ExprPtr cudaBitOp(Use &u) {
  std::string fname = u.qualified();
  auto args = u.t.positionalArgs(*u.call, 1, 1, fname);
  if (Typing::isUnknown(args[0])) return u.unknown();
  if (!args[0]->type.isInt()) u.error(fname + "() needs an integer");
  G kind = G(u.variant());
  auto op = gpuOp(kind, kind == G::Ffs ? Type::scalar(DType::UInt32) : args[0]->type, u.loc);
  op->args.push_back(std::move(args[0]));
  return op;
}

// cuda.atomic.<op>(array, index, value[, value]) (variant: the GPU op): the old value.
ExprPtr cudaAtomic(Use &u) {
  Typing &t = u.t;
  const ast::Call &e = *u.call;
  std::string fname = u.qualified();
  auto kind = G(u.variant());
  bool cas = kind == G::AtomicCas;
  t.checkKeywords(e, {}, fname);
  if (e.args.size() != (cas ? 4u : 3u)) u.error(fname + "() takes " + (cas ? "4" : "3") + " arguments");
  auto arr = t.expr(*e.args[0]);
  if (Typing::isUnknown(arr)) return u.unknown();
  if (!arr->type.isArray()) t.error(e.args[0]->loc, "the first argument of " + fname + "() must be an array");
  DType d = arr->type.dtype;
  if (!isAtomicDType(d)) u.notSupported(std::string("atomics on ") + types::dtypeName(d) + " arrays are not supported");
  if (types::isFloat(d) && (kind == G::AtomicAnd || kind == G::AtomicOr || kind == G::AtomicXor || cas))
    u.error(fname + "() needs an integer array");
  if ((kind == G::AtomicInc || kind == G::AtomicDec) && d != DType::UInt32 && d != DType::UInt64)
    u.error(fname + "() needs a uint32 or uint64 array, not " + types::dtypeName(d));
  std::vector<ExprPtr> idx;
  if (auto *tu = e.args[1]->as<ast::Tuple>()) {
    for (auto &x : tu->elts) idx.push_back(t.toInt64Index(t.expr(*x), "atomic index"));
  } else {
    auto v = t.expr(*e.args[1]);
    if (Typing::isUnknown(v)) return u.unknown();
    if (v->type.isTuple()) t.notSupported(e.args[1]->loc, "write the atomic index as a literal tuple: (i, j)");
    idx.push_back(t.toInt64Index(std::move(v), "atomic index"));
  }
  if (int(idx.size()) != arr->type.ndim)
    t.error(e.args[1]->loc, fname + "() needs " + std::to_string(arr->type.ndim) + " indices for this array");
  auto r = gpuOp(kind, Type::scalar(d), u.loc);
  r->args.push_back(std::move(arr));
  for (auto &i : idx) {
    if (Typing::isUnknown(i)) return u.unknown();
    r->args.push_back(std::move(i));
  }
  for (size_t k = 2; k < e.args.size(); ++k) {
    auto v = t.expr(*e.args[k]);
    if (Typing::isUnknown(v)) return u.unknown();
    r->args.push_back(t.convert(std::move(v), Type::scalar(d), "atomic value"));
  }
  return r;
}

} // namespace mahou::sema
