// The arguments of a call, typed once: positional ones with `*t` spread into the
// tuple's items, keyword ones by name; and bindOnce, which evaluates a value once into
// a hidden variable for an expression that reads it several times (IR `let`).
#include "mahou/literal_dict_type.h"
#include "typer.h"

namespace mahou::sema {

std::vector<std::string> CallArgs::kwnames() const {
  std::vector<std::string> out;
  for (auto &[name, v] : keywords) out.push_back(name);
  return out;
}

namespace {

bool readsOnlyVariables(const ir::Expr &e) {
  if (e.op != ir::ExprOp::LoadVar && e.op != ir::ExprOp::Const && e.op != ir::ExprOp::TupleGet) return false;
  for (auto &a : e.args)
    if (!readsOnlyVariables(*a)) return false;
  return true;
}

} // namespace

// Items of a tuple value for a spread: read from the value itself when it is a
// variable or constant, else from a hidden variable it is evaluated into once.
std::vector<ExprPtr> FunctionTyper::spreadTuple(ExprPtr value, Loc loc, CallArgs *args) {
  if (types::isLiteralDict(value->type)) value = literalDictIterable(*this, std::move(value), loc); // f(*d): its keys
  const Type t = value->type;
  refuseSlice(*this, t, loc, "cannot be spread into arguments");
  if (!t.isTuple()) error(loc, "argument after * must be a tuple, not " + t.str());
  std::vector<ExprPtr> out;
  auto item = [&](ExprPtr base, size_t i) {
    auto g = std::make_unique<ir::Expr>(ir::ExprOp::TupleGet, t.elems[i], loc);
    g->ival = int64_t(i);
    g->args.push_back(std::move(base));
    return g;
  };
  if (readsOnlyVariables(*value)) {
    for (size_t i = 0; i < t.elems.size(); ++i) out.push_back(item(ir::clone(*value), i));
    return out;
  }
  if (!args) { // no enclosing let: only a pure value can be read twice
    for (size_t i = 0; i < t.elems.size(); ++i) out.push_back(item(duplicate(*this, *value, "*args"), i));
    return out;
  }
  int var = tempVar(t, loc);
  for (size_t i = 0; i < t.elems.size(); ++i) out.push_back(item(load(var, loc), i));
  args->lets.emplace_back(var, std::move(value));
  return out;
}

CallArgs FunctionTyper::callArgs(const ast::Call &e) {
  CallArgs out;
  bool spreadsCalls = false;
  for (auto &a : e.args)
    if (auto *s = a->as<ast::Starred>(); s && s->value->kind != ast::ExprKind::Name) spreadsCalls = true;
  for (auto &a : e.args) {
    if (auto *s = a->as<ast::Starred>()) {
      auto v = expr(*s->value);
      if (isUnknown(v)) {
        out.unknown = true;
        continue;
      }
      for (auto &item : spreadTuple(std::move(v), a->loc, &out)) out.positional.push_back(std::move(item));
      continue;
    }
    auto v = expr(*a);
    out.unknown |= isUnknown(v);
    if (spreadsCalls && !out.unknown && !readsOnlyVariables(*v)) {
      // Evaluated in order with the spread values (which are evaluated before the call).
      int var = tempVar(v->type, a->loc);
      out.lets.emplace_back(var, std::move(v));
      v = load(var, a->loc);
    }
    out.positional.push_back(std::move(v));
  }
  for (auto &k : e.keywords) {
    if (k.name.empty())
      notSupported(k.loc, "**kwargs in calls is not supported (as in Numba: pass the arguments by name)");
    auto v = expr(*k.value);
    out.unknown |= isUnknown(v);
    out.keywords.emplace_back(k.name, std::move(v));
  }
  return out;
}

ExprPtr FunctionTyper::bindOnce(ExprPtr value, const std::function<ExprPtr(const std::function<ExprPtr()> &)> &body) {
  if (isUnknown(value)) return body([&] { return unknown(value->loc); });
  if (readsOnlyVariables(*value)) {
    const ir::Expr &v = *value;
    return body([&] { return ir::clone(v); });
  }
  Loc loc = value->loc;
  int var = tempVar(value->type, loc);
  ExprPtr result = body([&] { return load(var, loc); });
  if (isUnknown(result)) return result;
  std::vector<std::pair<int, ExprPtr>> binding;
  binding.emplace_back(var, std::move(value));
  return wrapBindings(std::move(binding), std::move(result), loc);
}

} // namespace mahou::sema
