// The variants of the cuda area's typers (cuda.def) and the helpers its files share.
#pragma once

#include "sema/typing.h"

namespace mahou::sema {

// The functions of mahou/libdevice.def, by name; a typer's variant is one of them, with
// these flags: the float form (`sinf`) and libdevice's fast approximation (`fast_sinf`).
enum class Libdevice : int {
#define MAHOU_LIBDEVICE(name, arity, cpu) name,
#include "mahou/libdevice.def"
#undef MAHOU_LIBDEVICE
};
constexpr int kLibdeviceFloat = 1 << 12;
constexpr int kLibdeviceFast = 1 << 13;

// A GPU operation of that result type (its operands to be pushed).
inline ExprPtr gpuOp(ir::GpuOpKind kind, Type t, Loc loc) {
  auto e = std::make_unique<ir::Expr>(ir::ExprOp::GpuOp, std::move(t), loc);
  e->sub = int(kind);
  return e;
}

// print() inside a kernel (vprintf): numbers, bools, None and strings (cuda_extras.cpp).
ir::StmtPtr kernelPrint(Typing &t, const ast::Call &e, Loc loc);

} // namespace mahou::sema
