// C pointers in compiled code (the arguments of @cfunc callbacks): p[i] reads and writes
// through a 1-D view of the pointed-to memory (non-negative indices, no bounds), and
// carray(p, shape, dtype=None) / farray(...) view it as a C / Fortran ordered array,
// as Numba's carray and farray do.
#include "mahou/literal_dict_type.h"
#include "typer.h"
#include "sema/typers.h"

#include <climits>

namespace mahou::sema {

namespace {

ExprPtr fromPointer(ExprPtr p, DType d, std::vector<ExprPtr> extents, types::Layout layout, Loc loc) {
  auto e = std::make_unique<ir::Expr>(ir::ExprOp::ArrayFromPointer,
                                      Type::array(d, int(extents.size()), layout), loc);
  e->args.push_back(std::move(p));
  for (auto &x : extents) e->args.push_back(std::move(x));
  return e;
}

} // namespace

ExprPtr pointerView(Typing &t, ExprPtr p, Loc loc) {
  t.requireHost(loc, "indexing a C pointer");
  if (p->type.elems.empty()) t.error(loc, "cannot index a voidptr: view it with carray(ptr, shape, dtype) first");
  DType d = p->type.elems[0].dtype;
  std::vector<ExprPtr> extent;
  extent.push_back(ir::makeConst(Type::int64(), loc, INT64_MAX / types::dtypeBytes(d)));
  return fromPointer(std::move(p), d, std::move(extent), types::Layout::C, loc);
}

ExprPtr mahouCarray(Use &u) {
  Typing &t = u.t;
  const ast::Call &e = *u.call;
  const std::string &name = u.name;
  t.requireHost(e.loc, name + "()");
  t.checkKeywords(e, {"shape", "dtype"}, name);
  if (e.args.empty() || e.args.size() > 3) t.error(e.loc, name + "(ptr, shape, dtype=None) takes 2 or 3 arguments");
  auto ptr = t.expr(*e.args[0]);
  const ast::Expr *shapeE = e.args.size() > 1 ? e.args[1].get() : t.keyword(e, "shape");
  const ast::Expr *dtypeE = e.args.size() > 2 ? e.args[2].get() : t.keyword(e, "dtype");
  if (!shapeE) t.error(e.loc, name + "() needs a shape");
  auto shape = t.expr(*shapeE);
  ExprPtr dt = dtypeE ? t.expr(*dtypeE) : nullptr;
  if (t.isUnknown(ptr) || t.isUnknown(shape) || (dt && t.isUnknown(dt))) return t.unknown(e.loc);
  if (!ptr->type.isPointer()) t.error(e.args[0]->loc, name + "() needs a C pointer, not " + ptr->type.str());
  std::optional<DType> d;
  if (!ptr->type.elems.empty()) d = ptr->type.elems[0].dtype;
  if (dt) {
    if (dt->type.kind != Kind::DTypeObj) t.error(dtypeE->loc, name + "() dtype must be a NumPy dtype, not " + dt->type.str());
    if (d && *d != dt->type.dtype)
      t.error(dtypeE->loc, std::string("mismatching dtype '") + types::dtypeName(dt->type.dtype) + "' for pointer " +
                             ptr->type.str());
    d = dt->type.dtype;
  }
  if (!d) t.error(e.loc, name + "() of a voidptr needs dtype=");
  std::vector<ExprPtr> extents;
  refuseLiteralDict(t, shape->type, shapeE->loc, "is not a shape");
  if (shape->type.isTuple()) {
    const Type st = shape->type;
    if (st.elems.empty()) t.error(shapeE->loc, name + "() needs at least one dimension");
    for (size_t i = 0; i < st.elems.size(); ++i) {
      auto g = std::make_unique<ir::Expr>(ir::ExprOp::TupleGet, st.elems[i], e.loc);
      g->ival = int64_t(i);
      g->args.push_back(duplicate(t, *shape, name + "() shape")); // read once per extent
      extents.push_back(t.toInt64Index(std::move(g), name + "() shape"));
    }
  } else {
    extents.push_back(t.toInt64Index(std::move(shape), name + "() shape"));
  }
  return fromPointer(std::move(ptr), *d, std::move(extents), types::Layout(u.variant()),
                     e.loc);
}

} // namespace mahou::sema

namespace mahou::sema {

namespace {

// The arguments of a call of an external function of signature `sig` (numbers and
// pointers), converted to its parameters, in `c`: an array passed for a pointer gives its
// data pointer, as Numba allows. `what` names the function in messages.
bool externalArguments(Typing &t, const types::Signature &sig, const ast::Call &e, const std::string &what,
                       ir::Expr &c) {
  for (const Type &ty : sig.args)
    if (!(ty.isNumber() && !ty.isComplex()) && !ty.isPointer())
      t.notSupported(e.loc, "calling " + what + " with a " + ty.str() + " parameter is not supported");
  if (!sig.ret->isNone() && !sig.ret->isPointer() && !(sig.ret->isNumber() && !sig.ret->isComplex()))
    t.notSupported(e.loc, "calling " + what + " returning " + sig.ret->str() + " is not supported");
  t.checkKeywords(e, {}, what);
  auto args = t.positionalArgs(e, sig.args.size(), sig.args.size(), what);
  for (auto &a : args)
    if (t.isUnknown(a)) return false;
  for (size_t i = 0; i < args.size(); ++i) {
    const Type &to = sig.args[i];
    if (to.isPointer() && args[i]->type.isArray()) { // its data pointer, as Numba allows
      if (!to.elems.empty() && to.elems[0].dtype != args[i]->type.dtype)
        t.error(args[i]->loc, "cannot pass " + args[i]->type.str() + " as " + to.str());
      c.args.push_back(std::move(args[i]));
      continue;
    }
    if (to.isPointer() && args[i]->type != to && !(to.elems.empty() && args[i]->type.isPointer()))
      t.error(args[i]->loc, "cannot pass " + args[i]->type.str() + " as " + to.str());
    c.args.push_back(to.isPointer() ? std::move(args[i]) : t.convert(std::move(args[i]), to, what + " argument"));
  }
  return true;
}

types::Signature externalSignature(const std::string &signature) {
  std::string why;
  auto sig = types::parseSignature(signature, &why);
  if (!sig || !sig->ret) internalError("external function with a malformed signature: " + signature);
  return *sig;
}

} // namespace

ExprPtr nativeCall(Typing &t, uint64_t address, const std::string &signature, const ast::Call &e) {
  t.requireHost(e.loc, "calling a C function pointer");
  types::Signature sig = externalSignature(signature);
  auto c = std::make_unique<ir::Expr>(ir::ExprOp::CallNative, *sig.ret, e.loc);
  c->ival = int64_t(address);
  if (!externalArguments(t, sig, e, "a C function", *c)) return t.unknown(e.loc);
  return c;
}

ExprPtr foreignDeviceCall(Typing &t, const std::string &symbol, const std::string &signature, const ast::Call &e) {
  if (!t.gpu())
    t.notSupported(e.loc, "'" + symbol + "' is an external device function (cuda.declare_device): it can only be "
                              "called from a @cuda.jit kernel or device function");
  types::Signature sig = externalSignature(signature);
  auto c = std::make_unique<ir::Expr>(ir::ExprOp::CallForeign, *sig.ret, e.loc);
  c->symbol = symbol;
  if (!externalArguments(t, sig, e, "the external device function '" + symbol + "'", *c)) return t.unknown(e.loc);
  return c;
}

} // namespace mahou::sema
