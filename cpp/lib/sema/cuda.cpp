// Typing of the cuda module inside kernels: thread and block indices, cuda.grid,
// shared and local arrays, barriers and fences, atomics, warp operations and
// the bit helpers (Numba's CUDA names and result types).
#include "typer.h"
#include "sema/typers.h"

namespace mahou::sema {

namespace {

using G = ir::GpuOpKind;

ExprPtr gpuOp(G kind, Type t, Loc loc) {
  auto e = std::make_unique<ir::Expr>(ir::ExprOp::GpuOp, std::move(t), loc);
  e->sub = int(kind);
  return e;
}

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

std::vector<ExprPtr> FunctionTyper::constShape(const ast::Expr &e, const std::string &fname) {
  std::vector<ExprPtr> dims;
  std::vector<const ast::Expr *> parts;
  if (auto *t = e.as<ast::Tuple>())
    for (auto &x : t->elts) parts.push_back(x.get());
  else
    parts.push_back(&e);
  for (auto *p : parts) {
    auto v = constInt(*p);
    if (!v) error(p->loc, fname + "() needs a shape of constant integers");
    if (*v < 0) error(p->loc, fname + "() shape must not be negative");
    dims.push_back(ir::makeConst(Type::int64(), p->loc, *v));
  }
  return dims;
}

ExprPtr FunctionTyper::cudaCall(const std::string &name, const ast::Call &e) {
  if (!gpu_) notSupported(e.loc, "cuda." + name + "() can only be used inside a @cuda.jit kernel or device function");
  Loc loc = e.loc;
  if (name.rfind("cg.", 0) == 0) return cudaGroupCall(name.substr(3), e);
  if (name.rfind("random.", 0) == 0) return cudaRandomCall(name.substr(7), e);
  if (name.rfind("fp16.", 0) == 0) return cudaFp16Call(name.substr(5), e);
  if (name.rfind("libdevice.", 0) == 0) return cudaLibdeviceCall(name.substr(10), e);
  auto widen = [&](G kind) { return ir::makeCast(special(kind, loc), Type::int64()); };
  if (name == "grid" || name == "gridsize") {
    checkKeywords(e, {}, "cuda." + name);
    if (e.args.size() != 1) error(loc, "cuda." + name + "() takes the number of dimensions (1, 2 or 3)");
    auto n = constInt(*e.args[0]);
    if (!n || *n < 1 || *n > 3) error(e.args[0]->loc, "cuda." + name + "() needs a constant 1, 2 or 3");
    std::vector<ExprPtr> axes;
    for (int a = 0; a < *n; ++a) {
      ExprPtr v;
      if (name == "grid")
        v = binary(ast::BinOpKind::Add,
                   binary(ast::BinOpKind::Mult, widen(G(int(G::CtaidX) + a)), widen(G(int(G::NtidX) + a)), loc),
                   widen(G(int(G::TidX) + a)), loc);
      else
        v = binary(ast::BinOpKind::Mult, widen(G(int(G::NtidX) + a)), widen(G(int(G::NctaidX) + a)), loc);
      axes.push_back(std::move(v));
    }
    if (*n == 1) return std::move(axes[0]);
    auto t = std::make_unique<ir::Expr>(ir::ExprOp::TupleMake, Type::tuple(std::vector<Type>(*n, Type::int64())), loc);
    t->args = std::move(axes);
    return t;
  }
  if (name == "shared.array" || name == "local.array") {
    checkKeywords(e, {"shape", "dtype"}, "cuda." + name);
    const ast::Expr *shapeE = e.args.size() > 0 ? e.args[0].get() : keyword(e, "shape");
    const ast::Expr *dtypeE = e.args.size() > 1 ? e.args[1].get() : keyword(e, "dtype");
    if (!shapeE || !dtypeE) error(loc, "cuda." + name + "(shape, dtype) needs both arguments");
    auto dims = constShape(*shapeE, "cuda." + name);
    auto dt = dtypeArgument(*dtypeE);
    if (!dt) return unknown(loc);
    bool shared = name == "shared.array";
    bool dynamic = dims.size() == 1 && dims[0]->ival == 0;
    if (dynamic && !shared) error(loc, "cuda.local.array() needs a positive size");
    for (auto &d : dims)
      if (d->ival == 0 && !dynamic) error(loc, "only a 1-D shared array of size 0 (dynamic shared memory) may have a zero extent");
    auto a = gpuOp(shared ? G::SharedArray : G::LocalArray, Type::array(*dt, int(dims.size()), types::Layout::C), loc);
    a->args = std::move(dims);
    return a;
  }
  if (name == "const.array_like") {
    auto args = positionalArgs(e, 1, 1, "cuda.const.array_like");
    if (isUnknown(args[0])) return unknown(loc);
    if (!args[0]->type.isArray()) error(loc, "cuda.const.array_like() needs an array");
    return std::move(args[0]);
  }
  struct Simple {
    const char *name;
    G kind;
    int nargs;
  };
  static const Simple simple[] = {
      {"syncthreads", G::SyncThreads, 0},           {"threadfence", G::ThreadFence, 0},
      {"threadfence_block", G::ThreadFenceBlock, 0}, {"threadfence_system", G::ThreadFenceSystem, 0},
      {"syncthreads_count", G::SyncThreadsCount, 1}, {"syncthreads_and", G::SyncThreadsAnd, 1},
      {"syncthreads_or", G::SyncThreadsOr, 1},       {"activemask", G::ActiveMask, 0},
  };
  for (auto &s : simple) {
    if (name != s.name) continue;
    checkKeywords(e, {}, "cuda." + name);
    auto args = positionalArgs(e, s.nargs, s.nargs, "cuda." + name);
    Type rt = s.kind == G::ActiveMask ? Type::scalar(DType::UInt32) : s.nargs ? Type::scalar(DType::Int32) : Type::none();
    auto op = gpuOp(s.kind, rt, loc);
    for (auto &a : args) {
      if (isUnknown(a)) return unknown(loc);
      op->args.push_back(truth(std::move(a)));
    }
    return op;
  }
  auto mask = [&](ExprPtr m) -> ExprPtr {
    if (isUnknown(m)) return m;
    if (!m->type.isInt()) error(m->loc, "a warp mask must be an integer");
    return ir::makeCast(std::move(m), Type::scalar(DType::UInt32));
  };
  if (name == "syncwarp") {
    auto args = positionalArgs(e, 0, 1, "cuda.syncwarp");
    auto op = gpuOp(G::SyncWarp, Type::none(), loc);
    op->args.push_back(args.empty() ? ir::makeConst(Type::scalar(DType::UInt32), loc, 0xffffffffLL) : mask(std::move(args[0])));
    if (isUnknown(op->args[0])) return unknown(loc);
    return op;
  }
  if (name == "shfl_sync" || name == "shfl_up_sync" || name == "shfl_down_sync" || name == "shfl_xor_sync") {
    auto args = positionalArgs(e, 3, 3, "cuda." + name);
    for (auto &a : args)
      if (isUnknown(a)) return unknown(loc);
    const Type vt = args[1]->type;
    if (!vt.isNumber() || vt.isComplex() || vt.isBool() || types::dtypeBytes(vt.dtype) < 4)
      notSupported(loc, "cuda." + name + "() of " + vt.str() + " is not supported (32- and 64-bit numbers only)");
    G kind = name == "shfl_sync" ? G::ShflIdx : name == "shfl_up_sync" ? G::ShflUp : name == "shfl_down_sync" ? G::ShflDown : G::ShflXor;
    auto op = gpuOp(kind, vt, loc);
    op->args.push_back(mask(std::move(args[0])));
    op->args.push_back(std::move(args[1]));
    op->args.push_back(convert(std::move(args[2]), Type::scalar(DType::Int32), "lane argument"));
    return op;
  }
  if (name == "ballot_sync" || name == "all_sync" || name == "any_sync") {
    auto args = positionalArgs(e, 2, 2, "cuda." + name);
    for (auto &a : args)
      if (isUnknown(a)) return unknown(loc);
    G kind = name == "ballot_sync" ? G::Ballot : name == "all_sync" ? G::VoteAll : G::VoteAny;
    auto op = gpuOp(kind, kind == G::Ballot ? Type::scalar(DType::UInt32) : Type::scalar(DType::Int32), loc);
    op->args.push_back(mask(std::move(args[0])));
    op->args.push_back(truth(std::move(args[1])));
    return op;
  }
  if (name == "fma") {
    auto args = positionalArgs(e, 3, 3, "cuda.fma");
    DType common = DType::Bool;
    for (auto &a : args) {
      if (isUnknown(a)) return unknown(loc);
      if (!a->type.isNumber() || a->type.isComplex()) error(a->loc, "cuda.fma() needs real numbers");
      common = types::promote(common, a->type.dtype);
    }
    Type t = Type::scalar(types::isFloat(common) ? common : DType::Float64);
    auto op = gpuOp(G::Fma, t, loc);
    for (auto &a : args) op->args.push_back(ir::makeCast(std::move(a), t));
    return op;
  }
  if (name == "popc" || name == "clz" || name == "brev") {
    auto args = positionalArgs(e, 1, 1, "cuda." + name);
    if (isUnknown(args[0])) return unknown(loc);
    if (!args[0]->type.isInt()) error(loc, "cuda." + name + "() needs an integer");
    G kind = name == "popc" ? G::Popc : name == "clz" ? G::Clz : G::Brev;
    auto op = gpuOp(kind, args[0]->type, loc);
    op->args.push_back(std::move(args[0]));
    return op;
  }
  if (name.rfind("atomic.", 0) == 0) {
    std::string op = name.substr(7);
    static const std::pair<const char *, G> ops[] = {
        {"add", G::AtomicAdd}, {"sub", G::AtomicSub}, {"max", G::AtomicMax}, {"min", G::AtomicMin},
        {"exch", G::AtomicExch}, {"and_", G::AtomicAnd}, {"or_", G::AtomicOr}, {"xor", G::AtomicXor},
        {"cas", G::AtomicCas}, {"compare_and_swap", G::AtomicCas}};
    std::optional<G> kind;
    for (auto &[n, k] : ops)
      if (op == n) kind = k;
    if (!kind) notSupported(loc, "cuda." + name + " is not supported");
    bool cas = *kind == G::AtomicCas;
    checkKeywords(e, {}, "cuda." + name);
    if (e.args.size() != (cas ? 4u : 3u)) error(loc, "cuda." + name + "() takes " + (cas ? "4" : "3") + " arguments");
    auto arr = expr(*e.args[0]);
    if (isUnknown(arr)) return unknown(loc);
    if (!arr->type.isArray()) error(e.args[0]->loc, "the first argument of cuda." + name + "() must be an array");
    DType d = arr->type.dtype;
    if (!isAtomicDType(d)) notSupported(loc, std::string("atomics on ") + types::dtypeName(d) + " arrays are not supported");
    if (types::isFloat(d) && (*kind == G::AtomicAnd || *kind == G::AtomicOr || *kind == G::AtomicXor || cas))
      error(loc, "cuda." + name + "() needs an integer array");
    std::vector<ExprPtr> idx;
    if (auto *t = e.args[1]->as<ast::Tuple>()) {
      for (auto &x : t->elts) idx.push_back(toInt64Index(expr(*x), "atomic index"));
    } else {
      auto v = expr(*e.args[1]);
      if (isUnknown(v)) return unknown(loc);
      if (v->type.isTuple()) notSupported(e.args[1]->loc, "write the atomic index as a literal tuple: (i, j)");
      idx.push_back(toInt64Index(std::move(v), "atomic index"));
    }
    if (int(idx.size()) != arr->type.ndim)
      error(e.args[1]->loc, "cuda." + name + "() needs " + std::to_string(arr->type.ndim) + " indices for this array");
    auto r = gpuOp(*kind, Type::scalar(d), loc);
    r->args.push_back(std::move(arr));
    for (auto &i : idx) {
      if (isUnknown(i)) return unknown(loc);
      r->args.push_back(std::move(i));
    }
    for (size_t k = 2; k < e.args.size(); ++k) {
      auto v = expr(*e.args[k]);
      if (isUnknown(v)) return unknown(loc);
      r->args.push_back(convert(std::move(v), Type::scalar(d), "atomic value"));
    }
    return r;
  }
  notSupported(loc, "cuda." + name + " is not supported yet");
}

} // namespace mahou::sema
