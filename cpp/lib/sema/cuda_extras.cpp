// Typing of the cuda module's groups, random numbers and print() inside kernels:
// cuda.cg.this_grid().sync() (a grid-wide barrier: the kernel is launched
// cooperatively), cuda.random's xoroshiro128+ functions on the states array that
// create_xoroshiro128p_states makes, and print() of numbers and strings (vprintf).
#include "typer.h"

namespace mahou::sema {

namespace {

using G = ir::GpuOpKind;

ExprPtr gpuOp(G kind, Type t, Loc loc) {
  auto e = std::make_unique<ir::Expr>(ir::ExprOp::GpuOp, std::move(t), loc);
  e->sub = int(kind);
  return e;
}

constexpr size_t kMaxPrintItems = 32; // vprintf's limit on arguments

} // namespace

ExprPtr FunctionTyper::cudaGroupCall(const std::string &name, const ast::Call &e) {
  checkKeywords(e, {}, "cuda.cg." + name);
  if (name == "this_grid") {
    positionalArgs(e, 0, 0, "cuda.cg.this_grid");
    return gpuOp(G::ThisGrid, Type::namespaceObj("cg.grid"), e.loc);
  }
  if (name == "grid.sync") {
    positionalArgs(e, 0, 0, "grid.sync");
    return gpuOp(G::GridSync, Type::none(), e.loc);
  }
  notSupported(e.loc, "cuda.cg." + name + " is not supported (cuda.cg has this_grid() and its sync())");
}

ExprPtr FunctionTyper::cudaRandomCall(const std::string &name, const ast::Call &e) {
  static const std::pair<const char *, G> ops[] = {
      {"xoroshiro128p_next", G::XoroNext},
      {"xoroshiro128p_jump", G::XoroJump},
      {"xoroshiro128p_uniform_float32", G::XoroUniform32},
      {"xoroshiro128p_uniform_float64", G::XoroUniform64},
      {"xoroshiro128p_normal_float32", G::XoroNormal32},
      {"xoroshiro128p_normal_float64", G::XoroNormal64},
  };
  std::optional<G> kind;
  for (auto &[n, k] : ops)
    if (name == n) kind = k;
  std::string fname = "cuda.random." + name;
  if (!kind) {
    if (name.rfind("create_", 0) == 0 || name.rfind("init_", 0) == 0)
      notSupported(e.loc, fname + "() runs on the host: call it before the launch and pass the states to the kernel");
    notSupported(e.loc, fname + " is not supported in kernels");
  }
  checkKeywords(e, {}, fname);
  auto args = positionalArgs(e, 2, 2, fname);
  for (auto &a : args)
    if (isUnknown(a)) return unknown(e.loc);
  const Type &st = args[0]->type;
  if (!st.isArray() || st.dtype != DType::UInt64 || st.ndim != 2)
    error(args[0]->loc, fname + "() needs the states array made by cuda.random.create_xoroshiro128p_states(), not " +
                            st.str());
  if (st.readonly) error(args[0]->loc, fname + "() advances the generator: the states array must be writable");
  if (!args[1]->type.isInt()) error(args[1]->loc, fname + "() needs an integer index, not " + args[1]->type.str());
  Type rt = *kind == G::XoroNext                                        ? Type::scalar(DType::UInt64)
            : *kind == G::XoroJump                                      ? Type::none()
            : *kind == G::XoroUniform32 || *kind == G::XoroNormal32     ? Type::scalar(DType::Float32)
                                                                        : Type::float64();
  auto op = gpuOp(*kind, rt, e.loc);
  op->args.push_back(std::move(args[0]));
  op->args.push_back(toInt64Index(std::move(args[1]), "state index"));
  return op;
}

ir::StmtPtr FunctionTyper::kernelPrint(const ast::Call &e, Loc loc) {
  for (auto &k : e.keywords)
    notSupported(k.loc, "print() in a kernel takes no keyword arguments (sep, end and file are not supported)");
  if (e.args.size() > kMaxPrintItems)
    error(loc, "print() in a kernel prints at most " + std::to_string(kMaxPrintItems) + " items (CUDA's vprintf limit), not " +
                   std::to_string(e.args.size()));
  auto st = std::make_unique<ir::Stmt>(ir::StmtOp::Print, loc);
  for (auto &a : e.args) {
    if (a->kind == ast::ExprKind::Starred) notSupported(a->loc, "print(*args) is not supported");
    auto v = expr(*a);
    if (!isUnknown(v)) {
      const Type &t = v->type;
      bool ok = (t.isNumber() && !t.isComplex()) || t.kind == Kind::Str || t.isNone();
      if (!ok)
        notSupported(a->loc, "print() in a kernel prints numbers, bools, None and strings, not " + t.str());
    }
    st->exprs.push_back(std::move(v));
  }
  return st;
}

} // namespace mahou::sema
