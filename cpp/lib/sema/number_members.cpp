// Typers of the methods and attributes of numbers and of dtypes as values (numbers.def):
// z.conjugate(), x.item(), z.real, z.imag (and np.real/np.imag of a number),
// np.float32.itemsize, dtype.kind, dtype.type
// (enum members' .value and .name: enums.cpp).
#include "sema/typers.h"

namespace mahou::sema {

ExprPtr numberConjugateMethod(Use &u) {
  u.t.positionalArgs(*u.call, 0, 0, u.name);
  const Type t = u.self->type;
  if (t.isBool()) return ir::makeCast(std::move(u.self), Type::int64()); // Python's True.conjugate() is 1
  if (!t.isComplex()) return std::move(u.self);
  std::vector<ExprPtr> args;
  args.push_back(std::move(u.self));
  return u.t.intrinsic(ir::Intrinsic::Conj, t, std::move(args), u.loc);
}

// x.real / x.imag (variant: ir::Intrinsic::Real or Imag); of a real number: itself or 0
// (of a bool, as ints).
ExprPtr numberPartAttribute(Use &u) {
  const Type t = u.self->type;
  auto part = ir::Intrinsic(u.variant());
  if (!t.isComplex()) {
    // Python's True.real is 1 and True.imag 0: a bool's parts are ints
    Type rt = t.isBool() ? Type::int64() : t;
    if (part == ir::Intrinsic::Real) return ir::makeCast(std::move(u.self), rt);
    return ir::makeConst(rt, u.loc, 0);
  }
  Type rt = Type::scalar(types::realOf(t.dtype));
  std::vector<ExprPtr> args;
  args.push_back(std::move(u.self));
  return u.t.intrinsic(part, rt, std::move(args), u.loc);
}

// np.real(x) / np.imag(x): of a number, x.real / x.imag (NumPy's scalar part, also in
// kernels); of an array or a sequence, the library's view (host code).
ExprPtr numpyPartFunction(Use &u) {
  auto args = u.args(1, 1, {}, u.qualified());
  if (Typing::isUnknown(args[0])) return u.unknown();
  if (!args[0]->type.isNumber()) {
    Type at = args[0]->type;
    if (auto r = u.t.libraryCallTyped("numpy." + std::string(u.name), u.qualified(), std::move(args), u.loc)) return r;
    u.notSupported(u.qualified() + "() of " + at.str() + " is not supported here (of a number it is)");
  }
  u.self = std::move(args[0]);
  return numberPartAttribute(u);
}

ExprPtr dtypeItemsizeAttribute(Use &u) {
  const Type &t = u.self->type; // a structured dtype: its record's size
  return ir::makeConst(Type::int64(), u.loc, t.elems.empty() ? types::dtypeBytes(t.dtype) : t.elems[0].itemsize);
}

// x.item() of a number is the number (NumPy's scalar.item(), Numba's number.item).
ExprPtr numberItemMethod(Use &u) {
  u.args(0, 0);
  return std::move(u.self);
}

// x.view(np.int64) of a NumPy scalar: the same bits read as another integer or float type
// of the same size (NumPy refuses another size; bool and complex are refused here).
ExprPtr numberViewMethod(Use &u) {
  u.t.checkKeywords(*u.call, {}, "view");
  if (u.call->args.size() != 1) u.error("view() takes 1 argument (a dtype)");
  auto d = u.t.dtypeArgument(*u.call->args[0]);
  if (!d) return u.unknown();
  const Type from = u.self->type;
  Type to = Type::scalar(*d);
  if (from.isBool() || from.isComplex() || to.isBool() || to.isComplex())
    u.notSupported("view() of " + from.str() + " as " + to.str() + " is not supported (integers and floats only)");
  if (types::dtypeBytes(from.dtype) != types::dtypeBytes(*d))
    u.error("view() of " + from.str() + " as " + to.str() + ": the item sizes differ (" +
            std::to_string(types::dtypeBytes(from.dtype)) + " and " + std::to_string(types::dtypeBytes(*d)) +
            " bytes), which NumPy refuses for a scalar");
  if (from == to) return std::move(u.self);
  std::vector<ExprPtr> args;
  args.push_back(std::move(u.self));
  return u.t.intrinsic(ir::Intrinsic::Bitcast, to, std::move(args), u.loc);
}

// dtype.kind: NumPy's character code of the kind ('b', 'i', 'u', 'f', 'c'; 'V' for records).
ExprPtr dtypeKindAttribute(Use &u) {
  DType d = u.self->type.dtype;
  const char *kind = !u.self->type.elems.empty() ? "V"
                     : d == DType::Bool          ? "b"
                     : types::isComplex(d)     ? "c"
                     : types::isFloat(d)       ? "f"
                     : types::isSigned(d)      ? "i"
                                               : "u";
  return ir::makeStrConst(kind, u.loc);
}

// dtype.type: the scalar type (np.dtype('f8').type is np.float64), a dtype value too.
ExprPtr dtypeTypeAttribute(Use &u) { return ir::makeConst(u.self->type, u.loc, 0); }

} // namespace mahou::sema
