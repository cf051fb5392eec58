// Typing of collections.namedtuple and typing.NamedTuple values: construction from a
// global class (positional, keyword and default arguments), fields by name, _replace.
// A namedtuple is a tuple whose type remembers its class (Type::namedTuple), so
// indexing, unpacking, iteration, len and comparisons are the tuple's own.
#include "typer.h"
#include "sema/typers.h"

namespace mahou::sema {

namespace {

ExprPtr tupleItem(ExprPtr tuple, size_t i, Loc loc) {
  auto g = std::make_unique<ir::Expr>(ir::ExprOp::TupleGet, tuple->type.elems[i], loc);
  g->ival = int64_t(i);
  g->args.push_back(std::move(tuple));
  return g;
}

} // namespace

ExprPtr newNamedTuple(Typing &t, const GlobalValue &cls, const ast::Call &e) {
  CallArgs call = t.callArgs(e);
  if (call.unknown) return t.unknown(e.loc);
  const size_t n = cls.elems.size();
  auto fieldName = [&](size_t i) { return cls.elems[i].s; };
  if (call.positional.size() > n)
    t.error(e.loc, cls.s + "() takes " + std::to_string(n) + " positional argument" + (n == 1 ? "" : "s") + " but " +
                     std::to_string(call.positional.size()) + " were given");
  // Every argument in the order Python evaluates them (positional, then keywords), each
  // once; then placed by field.
  std::vector<ExprPtr> values;
  std::vector<int> slotOf;
  for (size_t i = 0; i < call.positional.size(); ++i) {
    values.push_back(std::move(call.positional[i]));
    slotOf.push_back(int(i));
  }
  for (auto &[name, v] : call.keywords) {
    int slot = -1;
    for (size_t i = 0; i < n; ++i)
      if (fieldName(i) == name) slot = int(i);
    if (slot < 0) t.error(v->loc, cls.s + "() got an unexpected keyword argument '" + name + "'");
    if (std::find(slotOf.begin(), slotOf.end(), slot) != slotOf.end())
      t.error(v->loc, cls.s + "() got multiple values for argument '" + name + "'");
    values.push_back(std::move(v));
    slotOf.push_back(slot);
  }
  auto bindings = call.keywords.empty() ? decltype(t.bindOperands(values, e.loc)){} : t.bindOperands(values, e.loc);
  std::vector<ExprPtr> items(n);
  for (size_t k = 0; k < values.size(); ++k) items[size_t(slotOf[k])] = std::move(values[k]);
  std::vector<std::string> fields;
  std::vector<Type> types;
  for (size_t i = 0; i < n; ++i) {
    if (!items[i]) {
      if (cls.elems[i].elems.empty())
        t.error(e.loc, cls.s + "() missing required argument '" + fieldName(i) + "'");
      items[i] = t.constantFromGlobal(cls.elems[i].elems[0], e.loc);
    }
    fields.push_back(fieldName(i));
    types.push_back(items[i]->type);
  }
  auto ty = std::make_unique<ir::Expr>(ir::ExprOp::TupleMake, Type::namedTuple(std::move(types), cls.handle, cls.s, fields),
                                      e.loc);
  ty->args = std::move(items);
  for (auto &let : bindings) call.lets.push_back(std::move(let));
  return t.wrapBindings(std::move(call.lets), std::move(ty), e.loc);
}

// p.x (also the bounds of range and slice objects); a name that is no field: the
// registry's run-time layer (user extensions), else the miss diagnostic.
ExprPtr namedTupleFieldAttribute(Use &u) {
  int i = u.self->type.fieldIndex(u.name);
  if (i < 0) return runtimeMember(u);
  return tupleItem(std::move(u.self), size_t(i), u.loc);
}

// p._replace(x=1): a new tuple of the same class.
ExprPtr namedTupleReplaceMethod(Use &u) {
  Typing &t = u.t;
  const ast::Call &e = *u.call;
  ExprPtr tuple = std::move(u.self);
  const Type tt = tuple->type;
  if (!e.args.empty()) u.error("_replace() takes keyword arguments only");
  CallArgs call = t.callArgs(e);
  if (call.unknown) return u.unknown();
  // The receiver is evaluated first, then the new values, each once.
  std::vector<ExprPtr> values;
  values.push_back(std::move(tuple));
  std::vector<int> slotOf{-1};
  for (auto &[field, v] : call.keywords) {
    int slot = tt.fieldIndex(field);
    if (slot < 0) t.error(v->loc, "_replace() got an unexpected field name '" + field + "' (" + tt.text + " has no such field)");
    values.push_back(std::move(v));
    slotOf.push_back(slot);
  }
  auto bindings = t.bindOperands(values, e.loc);
  std::vector<ExprPtr> items(tt.elems.size());
  for (size_t k = 1; k < values.size(); ++k) items[size_t(slotOf[k])] = std::move(values[k]);
  std::vector<Type> types;
  for (size_t i = 0; i < items.size(); ++i) {
    if (!items[i]) items[i] = tupleItem(ir::clone(*values[0]), i, e.loc);
    types.push_back(items[i]->type);
  }
  auto r = std::make_unique<ir::Expr>(ir::ExprOp::TupleMake, Type::namedTuple(std::move(types), tt.handle, tt.text, tt.fields),
                                      e.loc);
  r->args = std::move(items);
  return t.wrapBindings(std::move(bindings), std::move(r), e.loc);
}

} // namespace mahou::sema
