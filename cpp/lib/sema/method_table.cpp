// The method table's lookup (methods.def), and the typers of the built-in members of
// arrays, numbers and dtypes that are not in a file of their own.
#include "sema/method_table.h"

namespace mahou::sema {

namespace {

struct Entry {
  types::Kind kind;
  std::string_view name;
  MemberTyper typer;
};

constexpr Entry kMethods[] = {
#define MAHOU_METHOD(kind, name, typer) {types::Kind::kind, name, &typer},
#include "sema/methods.def"
#undef MAHOU_METHOD
};

constexpr Entry kAttributes[] = {
#define MAHOU_ATTRIBUTE(kind, name, typer) {types::Kind::kind, name, &typer},
#include "sema/methods.def"
#undef MAHOU_ATTRIBUTE
};

template <size_t N> MemberTyper find(const Entry (&table)[N], types::Kind kind, std::string_view name) {
  MemberTyper any = nullptr;
  for (const Entry &e : table) {
    if (e.kind != kind) continue;
    if (e.name == name) return e.typer;
    if (e.name == "*") any = e.typer;
  }
  return any;
}

} // namespace

MemberTyper findMethod(types::Kind kind, std::string_view name) { return find(kMethods, kind, name); }
MemberTyper findAttribute(types::Kind kind, std::string_view name) { return find(kAttributes, kind, name); }

// ------------------------------------------------------------------ arrays

ExprPtr arrayLibraryMethod(MemberAccess &m) { return m.t.arrayMethod(std::move(m.self), m.name, *m.call); }

ExprPtr arrayCopyMethod(MemberAccess &m) {
  m.t.requireHost(m.loc, "a.copy()");
  m.t.checkKeywords(*m.call, {}, m.name);
  m.t.positionalArgs(*m.call, 0, 0, "copy");
  const Type t = m.self->type;
  auto c = std::make_unique<ir::Expr>(ir::ExprOp::ArrayCopy, Type::array(t.dtype, t.ndim, types::Layout::C), m.loc);
  c->args.push_back(std::move(m.self));
  return c;
}

ExprPtr arrayAstypeMethod(MemberAccess &m) {
  m.t.requireHost(m.loc, "a.astype()");
  m.t.checkKeywords(*m.call, {}, m.name);
  if (m.call->args.size() != 1) m.t.error(m.loc, "astype() takes 1 argument");
  auto d = m.t.dtypeArgument(*m.call->args[0]);
  if (!d) return m.t.unknown(m.loc);
  auto c = std::make_unique<ir::Expr>(ir::ExprOp::ArrayCopy, Type::array(*d, m.self->type.ndim, types::Layout::C), m.loc);
  c->args.push_back(std::move(m.self));
  return c;
}

ExprPtr arrayTransposeMethod(MemberAccess &m) {
  if (!m.call->args.empty() || !m.call->keywords.empty()) // a.transpose(axes): the library (shapes.py)
    if (auto r = m.t.libraryCall("ndarray.transpose", "a.transpose", *m.call, std::move(m.self))) return r;
  return m.t.arrayAttribute(std::move(m.self), "T", m.loc);
}

ExprPtr arrayAttributeTyper(MemberAccess &m) { return m.t.arrayAttribute(std::move(m.self), m.name, m.loc); }

// ------------------------------------------------------------------ numbers and dtypes

ExprPtr numberConjugateMethod(MemberAccess &m) {
  m.t.positionalArgs(*m.call, 0, 0, m.name);
  const Type t = m.self->type;
  if (!t.isComplex()) return std::move(m.self);
  std::vector<ExprPtr> args;
  args.push_back(std::move(m.self));
  return m.t.intrinsic(ir::Intrinsic::Conj, t, std::move(args), m.loc);
}

ExprPtr numberPartAttribute(MemberAccess &m) {
  const Type t = m.self->type;
  if (!t.isComplex()) {
    if (m.name == "real") return std::move(m.self);
    return ir::makeConst(t, m.loc, 0);
  }
  Type rt = Type::scalar(types::realOf(t.dtype));
  std::vector<ExprPtr> args;
  args.push_back(std::move(m.self));
  return m.t.intrinsic(m.name == "real" ? ir::Intrinsic::Real : ir::Intrinsic::Imag, rt, std::move(args), m.loc);
}

ExprPtr dtypeItemsizeAttribute(MemberAccess &m) {
  const Type &t = m.self->type; // a structured dtype: its record's size
  return ir::makeConst(Type::int64(), m.loc, t.elems.empty() ? types::dtypeBytes(t.dtype) : t.elems[0].itemsize);
}

// dtype.kind: NumPy's character code of the kind ('b', 'i', 'u', 'f', 'c'; 'V' for records).
ExprPtr dtypeKindAttribute(MemberAccess &m) {
  const Type &t = m.self->type;
  DType d = t.dtype;
  std::string k = !t.elems.empty()           ? "V"
                  : d == DType::Bool         ? "b"
                  : types::isComplex(d)      ? "c"
                  : types::isFloat(d)        ? "f"
                  : types::isSigned(d)       ? "i"
                                             : "u";
  return ir::makeStrConst(k, m.loc);
}

// x.item() of a number is the number (NumPy's scalar.item(), Numba's number.item).
ExprPtr numberItemMethod(MemberAccess &m) {
  m.t.checkKeywords(*m.call, {}, "item");
  m.t.positionalArgs(*m.call, 0, 0, "item");
  return std::move(m.self);
}

// dtype.type: the scalar type (np.dtype('f8').type is np.float64), a dtype value too.
ExprPtr dtypeTypeAttribute(MemberAccess &m) { return ir::makeConst(m.self->type, m.loc, 0); }

} // namespace mahou::sema
