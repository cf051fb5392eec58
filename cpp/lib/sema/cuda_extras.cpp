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

namespace {

struct LibdeviceFn {
  const char *name;
  int arity;
};
constexpr LibdeviceFn kLibdevice[] = {
#define MAHOU_LIBDEVICE(name, arity, cpu) {#name, arity},
#include "mahou/libdevice.def"
#undef MAHOU_LIBDEVICE
};
// libdevice's fast approximations (float only): on the emulator the accurate function.
constexpr const char *kFastLibdevice[] = {"cos", "exp10", "exp", "log10", "log2", "log", "sin", "tan", "pow"};

} // namespace

// cuda.libdevice.<name>: sin (float64), sinf (float32), fast_sinf, ... Arguments are
// converted to the function's float type, as numba-cuda's typed signatures do.
ExprPtr FunctionTyper::cudaLibdeviceCall(const std::string &name, const ast::Call &e) {
  std::string fname = "cuda.libdevice." + name;
  bool fast = name.rfind("fast_", 0) == 0;
  std::string stem = fast ? name.substr(5) : name;
  int index = -1;
  bool f32 = false;
  auto find = [&](const std::string &base) {
    for (size_t i = 0; i < std::size(kLibdevice); ++i)
      if (base == kLibdevice[i].name) return int(i);
    return -1;
  };
  if (!fast) index = find(stem);
  if (index < 0 && stem.size() > 1 && stem.back() == 'f') {
    index = find(stem.substr(0, stem.size() - 1));
    f32 = true;
  }
  if (fast && name == "fast_fdividef") { // a / b in float32 (__nv_fast_fdividef)
    auto args = positionalArgs(e, 2, 2, fname);
    for (auto &a : args)
      if (isUnknown(a)) return unknown(e.loc);
    Type ft = Type::scalar(DType::Float32);
    auto op = gpuOp(G::Libdevice, ft, e.loc);
    op->ival = -1;
    op->symbol = "__nv_fast_fdividef";
    for (auto &a : args) op->args.push_back(convert(std::move(a), ft, fname + " argument"));
    return op;
  }
  if (fast) {
    bool known = false;
    for (auto *f : kFastLibdevice) known |= stem == std::string(f) + "f";
    if (!known || !f32) index = -1;
  }
  if (index < 0)
    notSupported(e.loc, fname + " is not supported (mahou has libdevice's float math functions, double and f forms, "
                               "and the fast_ approximations)");
  checkKeywords(e, {}, fname);
  auto args = positionalArgs(e, size_t(kLibdevice[index].arity), size_t(kLibdevice[index].arity), fname);
  Type ft = Type::scalar(f32 ? DType::Float32 : DType::Float64);
  auto op = gpuOp(G::Libdevice, ft, e.loc);
  op->ival = index;
  op->symbol = "__nv_" + name;
  for (auto &a : args) {
    if (isUnknown(a)) return unknown(e.loc);
    if (!a->type.isNumber() || a->type.isComplex())
      error(a->loc, fname + "() takes real numbers, not " + a->type.str());
    op->args.push_back(convert(std::move(a), ft, fname + " argument"));
  }
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
