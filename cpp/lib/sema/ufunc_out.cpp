// The NumPy ufuncs called by name (ufuncs.def): np.<ufunc>(x, ...) as a value, elementwise
// over arrays (fused with their array operands) and plain on scalars; and np.<ufunc>(x,
// ..., out) and np.copyto(dst, src) as statements: the elementwise result stored into the
// destination (broadcast to its shape, cast with NumPy's same_kind rule), with no
// temporary array unless the operands overlap it.
#include "sema/typers.h"

namespace mahou::sema {

namespace {
// NumPy's casting='same_kind': no float → int, complex → real, number → bool.
bool sameKindCast(DType from, DType to) {
  auto kind = [](DType d) { return d == DType::Bool ? 0 : types::isInteger(d) ? 1 : types::isFloat(d) ? 2 : 3; };
  return kind(from) <= kind(to) || (kind(from) == 1 && kind(to) == 1);
}
} // namespace

ExprPtr numpyUfunc(Use &u) {
  const ast::Call &e = *u.call;
  auto ufunc = UfuncId(u.variant());
  int arity = ufuncInputs(ufunc);
  std::string fname = u.qualified();
  if (e.args.size() == size_t(arity) + 1 || u.keyword("out"))
    u.notSupported(fname + "() with an output array is supported as a statement (" + fname +
                   "(x, out)), not as a value");
  auto args = u.args(arity, arity, {}, fname);
  Typing &t = u.t;
  Loc loc = u.loc;
  return t.elementwise(std::move(args), [&t, ufunc, loc](std::vector<ExprPtr> v) { return t.scalarUfunc(ufunc, std::move(v), loc); }, loc);
}

bool numpyUfuncIntoOut(Use &u, ir::Block &out) {
  Typing &t = u.t;
  const ast::Call &e = *u.call;
  auto ufunc = UfuncId(u.variant());
  int arity = ufuncInputs(ufunc);
  const ast::Expr *outE = u.keyword("out");
  if (!outE && e.args.size() != size_t(arity) + 1) return false;
  std::string fname = u.qualified();
  t.checkKeywords(e, {"out"}, fname);
  if (outE && e.args.size() != size_t(arity))
    u.error(fname + "() takes " + std::to_string(arity) + " input" + (arity == 1 ? "" : "s") + " and out=");
  for (auto &a : e.args)
    if (a->kind == ast::ExprKind::Starred) t.notSupported(a->loc, "*args in calls is not supported yet");
  if (!outE) outE = e.args.back().get();
  std::vector<ExprPtr> inputs;
  for (int i = 0; i < arity; ++i) inputs.push_back(t.expr(*e.args[size_t(i)]));
  auto dest = t.expr(*outE);
  if (anyUnknown(inputs) || Typing::isUnknown(dest)) return true;
  if (!dest->type.isArray())
    t.error(outE->loc, fname + "(): the output must be an array, not " + dest->type.str());
  Loc loc = e.loc;
  auto result = t.elementwise(std::move(inputs), [&t, ufunc, loc](std::vector<ExprPtr> v) { return t.scalarUfunc(ufunc, std::move(v), loc); }, loc);
  if (Typing::isUnknown(result)) return true;
  DType from = result->type.dtype, to = dest->type.dtype;
  if (!sameKindCast(from, to))
    t.error(outE->loc, "Cannot cast ufunc '" + u.name + "' output from dtype('" + types::dtypeName(from) + "') to dtype('" +
                           types::dtypeName(to) + "') with casting rule 'same_kind'");
  out.push_back(t.storeView(std::move(dest), std::move(result), loc));
  return true;
}

// np.copyto(dst, src[, casting]) (a statement): src broadcast and cast into dst (where=
// is not supported).
bool numpyCopyTo(Use &u, ir::Block &out) {
  Typing &t = u.t;
  const ast::Call &e = *u.call;
  t.checkKeywords(e, {"casting"}, "np.copyto");
  if (e.args.size() != 2) u.error("np.copyto() takes the destination and the source (where= is not supported)");
  for (auto &a : e.args)
    if (a->kind == ast::ExprKind::Starred) t.notSupported(a->loc, "*args in calls is not supported yet");
  std::string casting = "same_kind";
  if (const ast::Expr *c = u.keyword("casting")) {
    auto *lit = c->as<ast::StrLit>();
    if (!lit) t.notSupported(c->loc, "np.copyto(casting=...) must be a constant string");
    casting = lit->value;
    // NumPy's casting rules, values of an argument (not names compiled code calls).
    if (casting != "no" && casting != "equiv" && casting != "safe" && casting != "same_kind" && casting != "unsafe")
      t.error(c->loc, "casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe'");
  }
  auto dest = t.expr(*e.args[0]);
  auto src = t.expr(*e.args[1]);
  if (Typing::isUnknown(dest) || Typing::isUnknown(src)) return true;
  if (!dest->type.isArray()) t.error(e.args[0]->loc, "np.copyto(): the destination must be an array, not " + dest->type.str());
  if (src->type.isTuple()) src = tupleAsArray(t, std::move(src), e.args[1]->loc);
  if (Typing::isUnknown(src)) return true;
  if (!src->type.isArray() && !src->type.isNumber())
    t.error(e.args[1]->loc, "np.copyto(): cannot copy a " + src->type.str() + " into an array");
  DType from = src->type.dtype, to = dest->type.dtype;
  bool python = !src->type.isArray(); // a Python scalar takes the destination's kind when it can (NEP 50)
  bool ok = casting == "unsafe" || from == to || (python && sameKindCast(from, to)) ||
            (casting == "same_kind" && sameKindCast(from, to)) ||
            (casting == "safe" && types::promote(from, to) == to);
  if (!ok)
    t.error(e.args[1]->loc, "Cannot cast array data from dtype('" + std::string(types::dtypeName(from)) + "') to dtype('" +
                                types::dtypeName(to) + "') according to the rule '" + casting + "'");
  out.push_back(t.storeView(std::move(dest), std::move(src), u.loc));
  return true;
}

} // namespace mahou::sema
