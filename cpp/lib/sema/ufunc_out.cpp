// The NumPy ufuncs called by name (ufuncs.def): np.<ufunc>(x, ...) as a value, elementwise
// over arrays (fused with their array operands) and plain on scalars; and np.<ufunc>(x,
// ..., out) as a statement: the elementwise result stored into `out` (broadcast to its
// shape, cast with NumPy's same_kind rule), with no temporary array, so it also works
// inside CUDA kernels.
#include "sema/typers.h"

namespace mahou::sema {

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
  // NumPy's default casting='same_kind': no float → int, complex → real, number → bool.
  auto kind = [](DType d) { return d == DType::Bool ? 0 : types::isInteger(d) ? 1 : types::isFloat(d) ? 2 : 3; };
  DType from = result->type.dtype, to = dest->type.dtype;
  if (kind(from) > kind(to) && !(kind(from) == 1 && kind(to) == 1))
    t.error(outE->loc, "Cannot cast ufunc '" + u.name + "' output from dtype('" + types::dtypeName(from) + "') to dtype('" +
                           types::dtypeName(to) + "') with casting rule 'same_kind'");
  out.push_back(t.storeView(std::move(dest), std::move(result), loc));
  return true;
}

} // namespace mahou::sema
