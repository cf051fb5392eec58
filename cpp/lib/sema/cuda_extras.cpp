// Typers of the cuda module's groups, random numbers, libdevice and print() inside
// kernels (cuda.def): cuda.cg.this_grid().sync() (a grid-wide barrier: the kernel is
// launched cooperatively), cuda.random's xoroshiro128+ functions on the states array that
// create_xoroshiro128p_states makes, cuda.libdevice's float math, and print() of numbers
// and strings (vprintf).
#include "sema/typers.h"

namespace mahou::sema {

namespace {

using G = ir::GpuOpKind;

constexpr size_t kMaxPrintItems = 32; // vprintf's limit on arguments

// The arity of each function of mahou/libdevice.def.
constexpr int kLibdeviceArity[] = {
#define MAHOU_LIBDEVICE(name, arity, cpu) arity,
#include "mahou/libdevice.def"
#undef MAHOU_LIBDEVICE
};

} // namespace

ExprPtr cudaThisGrid(Use &u) {
  u.args(0, 0, {}, "cuda.cg.this_grid");
  return gpuOp(G::ThisGrid, Type::namespaceObj("cg.grid"), u.loc);
}

ExprPtr cudaGridSync(Use &u) {
  u.args(0, 0, {}, "grid.sync");
  return gpuOp(G::GridSync, Type::none(), u.loc);
}

// cuda.random.xoroshiro128p_*(states, index) (variant: the GPU op).
ExprPtr cudaXoroshiro(Use &u) {
  Typing &t = u.t;
  auto kind = G(u.variant());
  std::string fname = u.qualified();
  auto args = u.args(2, 2, {}, fname);
  if (anyUnknown(args)) return u.unknown();
  const Type &st = args[0]->type;
  if (!st.isArray() || st.dtype != DType::UInt64 || st.ndim != 2)
    t.error(args[0]->loc, fname + "() needs the states array made by cuda.random.create_xoroshiro128p_states(), not " +
                              st.str());
  if (st.readonly) t.error(args[0]->loc, fname + "() advances the generator: the states array must be writable");
  if (!args[1]->type.isInt()) t.error(args[1]->loc, fname + "() needs an integer index, not " + args[1]->type.str());
  Type rt = kind == G::XoroNext                                   ? Type::scalar(DType::UInt64)
            : kind == G::XoroJump                                 ? Type::none()
            : kind == G::XoroUniform32 || kind == G::XoroNormal32 ? Type::scalar(DType::Float32)
                                                                  : Type::float64();
  auto op = gpuOp(kind, rt, u.loc);
  op->args.push_back(std::move(args[0]));
  op->args.push_back(t.toInt64Index(std::move(args[1]), "state index"));
  return op;
}

ExprPtr cudaHostOnly(Use &u) {
  u.notSupported(u.qualified() + "() runs on the host: call it before the launch and pass the states to the kernel");
}

// cuda.libdevice.<name>: sin (float64), sinf (float32), fast_sinf, ... (variant: the function
// of libdevice.def, with kLibdeviceFloat, kLibdeviceFast). Arguments are converted to the
// function's float type, as numba-cuda's typed signatures do.
ExprPtr cudaLibdevice(Use &u) {
  Typing &t = u.t;
  std::string fname = u.qualified();
  int index = u.variant() & (kLibdeviceFloat - 1);
  bool f32 = u.variant() & kLibdeviceFloat;
  int arity = kLibdeviceArity[index];
  auto args = u.args(size_t(arity), size_t(arity), {}, fname);
  Type ft = Type::scalar(f32 ? DType::Float32 : DType::Float64);
  auto op = gpuOp(G::Libdevice, ft, u.loc);
  op->ival = index;
  op->symbol = "__nv_" + u.name;
  for (auto &a : args) {
    if (Typing::isUnknown(a)) return u.unknown();
    if (!a->type.isNumber() || a->type.isComplex())
      t.error(a->loc, fname + "() takes real numbers, not " + a->type.str());
    op->args.push_back(t.convert(std::move(a), ft, fname + " argument"));
  }
  return op;
}

// cuda.libdevice.fast_fdividef(a, b): a / b in float32 (__nv_fast_fdividef).
ExprPtr cudaFastDivide(Use &u) {
  std::string fname = u.qualified();
  auto args = u.t.positionalArgs(*u.call, 2, 2, fname);
  if (anyUnknown(args)) return u.unknown();
  Type ft = Type::scalar(DType::Float32);
  auto op = gpuOp(G::Libdevice, ft, u.loc);
  op->ival = -1;
  op->symbol = "__nv_fast_fdividef";
  for (auto &a : args) op->args.push_back(u.t.convert(std::move(a), ft, fname + " argument"));
  return op;
}

ir::StmtPtr kernelPrint(Typing &t, const ast::Call &e, Loc loc) {
  for (auto &k : e.keywords)
    t.notSupported(k.loc, "print() in a kernel takes no keyword arguments (sep, end and file are not supported)");
  if (e.args.size() > kMaxPrintItems)
    t.error(loc, "print() in a kernel prints at most " + std::to_string(kMaxPrintItems) +
                     " items (CUDA's vprintf limit), not " + std::to_string(e.args.size()));
  auto st = std::make_unique<ir::Stmt>(ir::StmtOp::Print, loc);
  for (auto &a : e.args) {
    if (a->kind == ast::ExprKind::Starred) t.notSupported(a->loc, "print(*args) is not supported");
    auto v = t.expr(*a);
    if (!Typing::isUnknown(v)) {
      const Type &vt = v->type;
      bool ok = (vt.isNumber() && !vt.isComplex()) || vt.kind == Kind::Str || vt.isNone();
      if (!ok) t.notSupported(a->loc, "print() in a kernel prints numbers, bools, None and strings, not " + vt.str());
    }
    st->exprs.push_back(std::move(v));
  }
  return st;
}

} // namespace mahou::sema
