// np.<ufunc>(x, ..., out) with an output array, as a statement: the ufunc's elementwise
// result stored into `out` (broadcast to its shape, cast with NumPy's same_kind rule),
// with no temporary array, so it also works inside CUDA kernels.
#include "typer.h"

namespace mahou::sema {

ir::StmtPtr FunctionTyper::ufuncIntoOut(const std::string &name, const ast::Call &e) {
  int arity = ufuncArity(name);
  if (arity < 0) return nullptr;
  const ast::Expr *outE = keyword(e, "out");
  if (!outE && e.args.size() != size_t(arity) + 1) return nullptr;
  std::string fname = "np." + name;
  checkKeywords(e, {"out"}, fname);
  if (outE && e.args.size() != size_t(arity))
    error(e.loc, fname + "() takes " + std::to_string(arity) + " input" + (arity == 1 ? "" : "s") + " and out=");
  for (auto &a : e.args)
    if (a->kind == ast::ExprKind::Starred) notSupported(a->loc, "*args in calls is not supported yet");
  if (!outE) outE = e.args.back().get();
  std::vector<ExprPtr> inputs;
  for (int i = 0; i < arity; ++i) inputs.push_back(expr(*e.args[size_t(i)]));
  auto dest = expr(*outE);
  for (auto &a : inputs)
    if (isUnknown(a)) return nullptr;
  if (isUnknown(dest)) return nullptr;
  if (!dest->type.isArray())
    error(outE->loc, fname + "(): the output must be an array, not " + dest->type.str());
  Loc loc = e.loc;
  auto result = elementwise(std::move(inputs), [this, name, loc](std::vector<ExprPtr> v) { return scalarUfunc(name, std::move(v), loc); }, loc);
  if (isUnknown(result)) return nullptr;
  // NumPy's default casting='same_kind': no float → int, complex → real, number → bool.
  auto kind = [](DType d) { return d == DType::Bool ? 0 : types::isInteger(d) ? 1 : types::isFloat(d) ? 2 : 3; };
  DType from = result->type.dtype, to = dest->type.dtype;
  if (kind(from) > kind(to) && !(kind(from) == 1 && kind(to) == 1))
    error(outE->loc, "Cannot cast ufunc '" + name + "' output from dtype('" + types::dtypeName(from) + "') to dtype('" +
                         types::dtypeName(to) + "') with casting rule 'same_kind'");
  return storeView(std::move(dest), std::move(result), loc);
}

} // namespace mahou::sema
