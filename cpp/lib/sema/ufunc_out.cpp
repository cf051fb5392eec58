// np.<ufunc>(x, ..., out) with an output array, and np.copyto(dst, src), as statements:
// the elementwise result stored into the destination (broadcast to its shape, cast with
// NumPy's same_kind rule), with no temporary array unless the operands overlap it.
#include "typer.h"

namespace mahou::sema {

namespace {
// NumPy's casting='same_kind': no float → int, complex → real, number → bool.
bool sameKindCast(DType from, DType to) {
  auto kind = [](DType d) { return d == DType::Bool ? 0 : types::isInteger(d) ? 1 : types::isFloat(d) ? 2 : 3; };
  return kind(from) <= kind(to) || (kind(from) == 1 && kind(to) == 1);
}
} // namespace

ir::StmtPtr FunctionTyper::ufuncIntoOut(const std::string &name, const ast::Call &e) {
  if (name == "copyto") return copyInto(e);
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
  DType from = result->type.dtype, to = dest->type.dtype;
  if (!sameKindCast(from, to))
    error(outE->loc, "Cannot cast ufunc '" + name + "' output from dtype('" + types::dtypeName(from) + "') to dtype('" +
                         types::dtypeName(to) + "') with casting rule 'same_kind'");
  return storeView(std::move(dest), std::move(result), loc);
}

// np.copyto(dst, src[, casting]): src broadcast and cast into dst (where= is not supported).
ir::StmtPtr FunctionTyper::copyInto(const ast::Call &e) {
  checkKeywords(e, {"casting"}, "np.copyto");
  if (e.args.size() != 2) error(e.loc, "np.copyto() takes the destination and the source (where= is not supported)");
  for (auto &a : e.args)
    if (a->kind == ast::ExprKind::Starred) notSupported(a->loc, "*args in calls is not supported yet");
  std::string casting = "same_kind";
  if (const ast::Expr *c = keyword(e, "casting")) {
    auto *lit = c->as<ast::StrLit>();
    if (!lit) notSupported(c->loc, "np.copyto(casting=...) must be a constant string");
    casting = lit->value;
    if (casting != "no" && casting != "equiv" && casting != "safe" && casting != "same_kind" && casting != "unsafe")
      error(c->loc, "casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe'");
  }
  auto dest = expr(*e.args[0]);
  auto src = expr(*e.args[1]);
  if (isUnknown(dest) || isUnknown(src)) return nullptr;
  if (!dest->type.isArray()) error(e.args[0]->loc, "np.copyto(): the destination must be an array, not " + dest->type.str());
  if (src->type.isTuple()) src = tupleAsArray(std::move(src), e.args[1]->loc);
  if (isUnknown(src)) return nullptr;
  if (!src->type.isArray() && !src->type.isNumber())
    error(e.args[1]->loc, "np.copyto(): cannot copy a " + src->type.str() + " into an array");
  DType from = src->type.dtype, to = dest->type.dtype;
  bool python = !src->type.isArray(); // a Python scalar takes the destination's kind when it can (NEP 50)
  bool ok = casting == "unsafe" || from == to || (python && sameKindCast(from, to)) ||
            (casting == "same_kind" && sameKindCast(from, to)) ||
            (casting == "safe" && types::promote(from, to) == to);
  if (!ok)
    error(e.args[1]->loc, "Cannot cast array data from dtype('" + std::string(types::dtypeName(from)) + "') to dtype('" +
                              types::dtypeName(to) + "') according to the rule '" + casting + "'");
  return storeView(std::move(dest), std::move(src), e.loc);
}

} // namespace mahou::sema
