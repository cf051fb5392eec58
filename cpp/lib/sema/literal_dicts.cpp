// Literal string-key dicts (`{'a': 1, 'b': 'x'}`, values of different types; Numba's
// LiteralStrKeyDict, mahou/literal_dict_type.h): the display, d['key'] and d.get with a
// constant key, `in`, ==, the keys()/values()/items() views, iteration and the refusals.
#include "typer.h"

#include "mahou/literal_dict_type.h"
#include "mahou/literal_list_type.h"
#include "sema/tuples.h"

#include <algorithm>

namespace mahou::sema {

using types::LiteralDictView;

namespace {

ExprPtr boolConst(Loc loc, bool v) { return ir::makeConst(Type::boolean(), loc, v ? 1 : 0); }

ExprPtr valueAt(ExprPtr d, size_t i, Loc loc) {
  const Type ty = d->type.elems[i];
  auto g = std::make_unique<ir::Expr>(ir::ExprOp::TupleGet, ty, loc);
  g->ival = int64_t(i);
  g->args.push_back(std::move(d));
  return g;
}

ExprPtr tupleOf(std::vector<ExprPtr> items, Loc loc) {
  std::vector<Type> ts;
  for (auto &x : items) ts.push_back(x->type);
  auto m = std::make_unique<ir::Expr>(ir::ExprOp::TupleMake, Type::tuple(std::move(ts)), loc);
  m->args = std::move(items);
  return m;
}

ExprPtr keyConst(Typing &t, const std::string &key, Loc loc) { return toUnicode(t, ir::makeStrConst(key, loc)); }


// The position of `key` among the keys, or none.
std::optional<size_t> keyIndex(const Type &d, const std::string &key) {
  for (size_t i = 0; i < d.fields.size(); ++i)
    if (d.fields[i] == key) return i;
  return std::nullopt;
}

// A key written as a string constant (a literal, or a name bound to one): its text.
std::string constantKey(Typing &t, const Type &d, const ExprPtr &k, Loc loc, const std::string &what) {
  if (k->type.kind != Kind::Str)
    t.error(loc, "Cannot " + what + " on a literal dictionary (" + d.str() + ") with a key that is not a string "
                     "constant (" + k->type.str() + "): the value's type depends on the key");
  return k->type.text;
}

} // namespace

void refuseLiteralDict(const Typing &t, const Type &type, Loc loc, const std::string &what) {
  if (types::isLiteralDict(type))
    t.notSupported(loc, "a " + type.str() + " (a dict of string-constant keys and values of different types) " + what +
                            "; it supports d['key'] and d.get('key') with a constant key, len(), `in`, ==, iteration "
                            "over its keys, keys()/values()/items() and literal_unroll()");
}

void refuseLiteralDictMutation(const Typing &t, const Type &type, Loc loc) {
  if (types::isLiteralDict(type))
    t.error(loc, "Cannot mutate a literal dictionary (" + type.str() +
                     "): its keys and value types are fixed; use a typed dict (values of one type) to change it");
}

ExprPtr literalDictDisplay(Typing &t, const std::vector<std::string> &keys, std::vector<ExprPtr> values, Loc loc) {
  // Repeated keys: the last value at the first key's place, as Python; every value is still
  // evaluated, in order.
  std::vector<std::string> names;
  std::vector<int> slotOf;
  for (auto &k : keys) {
    auto at = std::find(names.begin(), names.end(), k);
    slotOf.push_back(int(at - names.begin()));
    if (at == names.end()) names.push_back(k);
  }
  std::vector<Type> types(names.size());
  for (size_t i = 0; i < values.size(); ++i) {
    Type vt = itemType(t, values[i]->type, values[i]->loc, "a dict value");
    values[i] = t.convert(std::move(values[i]), vt, "dict value");
    types[size_t(slotOf[i])] = vt;
  }
  Type dt = types::literalDictType(names, types);
  auto make = std::make_unique<ir::Expr>(ir::ExprOp::TupleMake, dt, loc);
  if (names.size() == keys.size()) {
    make->args = std::move(values);
    return make;
  }
  auto stmts = std::make_shared<ir::Block>();
  std::vector<int> held;
  for (auto &v : values) held.push_back(t.holdInTemp(std::move(v), loc, *stmts));
  std::vector<int> last(names.size());
  for (size_t i = 0; i < keys.size(); ++i) last[size_t(slotOf[i])] = held[i];
  for (int var : last) make->args.push_back(t.load(var, loc));
  return t.seqExpr(std::move(stmts), std::move(make), loc);
}

ExprPtr literalDictGet(Typing &t, ExprPtr d, ExprPtr key, Loc loc) {
  if (types::literalDictView(d->type) != LiteralDictView::Dict)
    t.error(loc, "'" + types::literalDictViewName(d->type) + "' object is not subscriptable");
  std::string k = constantKey(t, d->type, key, loc, "getitem()");
  auto i = keyIndex(d->type, k);
  if (!i) t.error(loc, "Key '" + k + "' is not in dict (" + d->type.str() + ")");
  return valueAt(std::move(d), *i, loc);
}

ExprPtr literalDictGetMethod(Use &u) {
  if (Typing::isUnknown(u.self)) return u.unknown();
  auto args = u.args(1, 2, {}, "dict.get");
  if (anyUnknown(args)) return u.unknown();
  std::string k = constantKey(u.t, u.self->type, args[0], u.loc, "get()");
  auto i = keyIndex(u.self->type, k);
  ExprPtr dflt = args.size() == 2 ? std::move(args[1]) : ir::makeConst(Type::none(), u.loc, 0);
  if (!i) return evaluatedThen(u.t, std::move(u.self), std::move(dflt), u.loc);
  ExprPtr v = valueAt(std::move(u.self), *i, u.loc);
  if (args.size() == 2 && !isInert(*dflt)) { // the default is evaluated, as Python does (1 / x raises)
    auto stmts = std::make_shared<ir::Block>();
    int held = u.t.holdInTemp(std::move(v), u.loc, *stmts);
    stmts->push_back(ir::makeEval(std::move(dflt), u.loc));
    return u.t.seqExpr(std::move(stmts), u.t.load(held, u.loc), u.loc);
  }
  return v;
}

// d.keys(), d.values(), d.items(): views, the same values under the view's own handle.
ExprPtr literalDictViewMethod(Use &u) {
  if (Typing::isUnknown(u.self)) return u.unknown();
  u.args(0, 0, {}, "dict." + u.name);
  const Type dt = u.self->type;
  const Type vt = types::literalDictType(dt.fields, dt.elems, LiteralDictView(u.variant()));
  Loc loc = u.loc;
  auto view = [&](const std::function<ExprPtr()> &reload) {
    auto m = std::make_unique<ir::Expr>(ir::ExprOp::TupleMake, vt, loc);
    for (size_t i = 0; i < dt.elems.size(); ++i) m->args.push_back(valueAt(reload(), i, loc));
    return ExprPtr(std::move(m));
  };
  if (u.t.isPureValue(*u.self)) {
    ExprPtr v = view([&] { return ir::clone(*u.self); });
    u.self.reset(); // read through its copies
    return v;
  }
  return u.t.bindOnce(std::move(u.self), view);
}

ExprPtr literalDictCopyMethod(Use &u) { // a copy that cannot change is the same values
  if (Typing::isUnknown(u.self)) return u.unknown();
  u.args(0, 0, {}, "dict.copy");
  return std::move(u.self);
}

ExprPtr literalDictMutator(Use &u) {
  refuseLiteralDictMutation(u.t, u.self->type, u.loc);
  u.error("internal compiler error: a literal dict mutator on " + u.self->type.str());
}

ExprPtr literalDictIterable(Typing &t, ExprPtr d, Loc loc) {
  const Type dt = d->type;
  const size_t n = dt.elems.size();
  switch (types::literalDictView(dt)) {
  case LiteralDictView::Dict:
  case LiteralDictView::Keys: { // string constants (a pure tuple: builtins may read it twice)
    std::vector<ExprPtr> keys;
    for (auto &k : dt.fields) keys.push_back(ir::makeStrConst(k, loc));
    return evaluatedThen(t, std::move(d), tupleOf(std::move(keys), loc), loc);
  }
  case LiteralDictView::Values:
  case LiteralDictView::Items: {
    auto items = [&](const std::function<ExprPtr()> &reload) {
      std::vector<ExprPtr> out;
      for (size_t i = 0; i < n; ++i) {
        ExprPtr v = valueAt(reload(), i, loc);
        if (types::literalDictView(dt) == LiteralDictView::Items) {
          std::vector<ExprPtr> pair;
          pair.push_back(keyConst(t, dt.fields[i], loc));
          pair.push_back(std::move(v));
          v = tupleOf(std::move(pair), loc);
        }
        out.push_back(std::move(v));
      }
      return tupleOf(std::move(out), loc);
    };
    if (t.isPureValue(*d)) return items([&] { return ir::clone(*d); }); // pure: read again, as tuples are
    return t.bindOnce(std::move(d), items);
  }
  }
  return nullptr;
}

ExprPtr literalDictContains(Typing &t, bool negate, ExprPtr needle, ExprPtr d, Loc loc) {
  const Type dt = d->type, nt = needle->type;
  if (types::literalDictView(dt) != LiteralDictView::Dict && types::literalDictView(dt) != LiteralDictView::Keys)
    return tupleContains(t, negate, std::move(needle), literalDictIterable(t, std::move(d), loc), loc);
  auto first = std::make_shared<ir::Block>();
  if (!isInert(*needle) && !isInert(*d)) // Python evaluates the needle, then the dict
    needle = t.load(t.holdInTemp(std::move(needle), loc, *first), loc);
  ExprPtr r;
  if (nt.kind == Kind::Str) {
    r = boolConst(loc, keyIndex(dt, nt.text).has_value());
    r = evaluatedThen(t, std::move(needle), std::move(r), loc);
  } else if (nt.isUnicode()) {
    r = t.bindOnce(std::move(needle), [&](const std::function<ExprPtr()> &reload) {
      ExprPtr acc = boolConst(loc, false);
      for (size_t i = dt.fields.size(); i-- > 0;)
        acc = ir::makeBoolOp(true, t.compareOne(ast::CmpOpKind::Eq, reload(), keyConst(t, dt.fields[i], loc), loc),
                             std::move(acc), loc);
      return acc;
    });
  } else if (nt.isNumber() || nt.isNone() || (nt.isTuple() && !types::isLiteralDict(nt) && !types::isLiteralList(nt))) {
    r = evaluatedThen(t, std::move(needle), boolConst(loc, false), loc); // never a string key
  } else {
    t.error(loc, "unhashable type: '" + nt.str() + "' (the key of `in` on a literal dict)");
  }
  r = evaluatedThen(t, std::move(d), std::move(r), loc);
  if (!first->empty()) r = t.seqExpr(first, std::move(r), loc);
  return negate ? t.logicalNot(std::move(r)) : std::move(r);
}

ExprPtr literalDictCompare(Typing &t, ast::CmpOpKind op, ExprPtr lhs, ExprPtr rhs, Loc loc) {
  const Type a = lhs->type, b = rhs->type;
  bool eq = op == ast::CmpOpKind::Eq;
  if (!eq && op != ast::CmpOpKind::NotEq)
    t.error(loc, std::string("'") + ast::cmpOpSymbol(op) + "' not supported between instances of " + a.str() + " and " + b.str());
  const bool la = types::isLiteralDict(a), lb = types::isLiteralDict(b);
  if (!la || !lb || types::literalDictView(a) != LiteralDictView::Dict ||
      types::literalDictView(b) != LiteralDictView::Dict) {
    // A dict and a value of a kind that is never a dict (nor compares as one): never equal.
    const Type &other = la ? b : a;
    bool never = other.isNumber() || other.isString() || other.isNone() || other.isList() || other.isSet() ||
                 (other.isTuple() && !types::isLiteralDict(other) && !other.isClosure()) ||
                 (other.isOptional() && !types::isLiteralDict(other.elems[0]) && !other.elems[0].isDict() &&
                  !other.elems[0].isInstance() && !other.elems[0].isArray());
    if (!never) t.notSupported(loc, "comparing " + a.str() + " with " + b.str() + " is not supported");
    ExprPtr r = evaluatedThen(t, std::move(lhs), evaluatedThen(t, std::move(rhs), boolConst(loc, !eq), loc), loc);
    return r;
  }
  std::vector<std::string> ka = a.fields, kb = b.fields;
  std::sort(ka.begin(), ka.end());
  std::sort(kb.begin(), kb.end());
  if (ka != kb) return evaluatedThen(t, std::move(lhs), evaluatedThen(t, std::move(rhs), boolConst(loc, !eq), loc), loc);
  for (const Type *side : {&a, &b})
    for (const Type &e : side->elems)
      if (e.isArray())
        t.notSupported(loc, "comparing dicts that hold arrays is not supported (the truth value of an array is ambiguous)");
  return t.bindOnce(std::move(lhs), [&](const std::function<ExprPtr()> &l) {
    return t.bindOnce(std::move(rhs), [&](const std::function<ExprPtr()> &r) -> ExprPtr {
      ExprPtr all = boolConst(loc, true);
      for (size_t i = a.fields.size(); i-- > 0;) {
        size_t j = *keyIndex(b, a.fields[i]);
        const Type &x = a.elems[i], &y = b.elems[j];
        bool comparable = (x.isNumber() && y.isNumber()) || (x.isString() && y.isString()) || (x.isNone() || y.isNone()) ||
                          (x.isTuple() && y.isTuple()) || x.isOptional() || y.isOptional() ||
                          (x.isObject() && x.kind == y.kind);
        ExprPtr e = comparable ? t.compareOne(ast::CmpOpKind::Eq, valueAt(l(), i, loc), valueAt(r(), j, loc), loc)
                               : boolConst(loc, false);
        all = ir::makeBoolOp(false, std::move(e), std::move(all), loc);
      }
      return eq ? std::move(all) : t.logicalNot(std::move(all));
    });
  });
}

// The text print() and str() write: {'a': 1, 'b': 'x'}, dict_keys(['a', 'b']), ...
ExprPtr literalDictText(Typing &t, ExprPtr d, Loc loc) {
  const Type dt = d->type;
  auto view = types::literalDictView(dt);
  auto stmts = std::make_shared<ir::Block>();
  int held = t.holdInTemp(std::move(d), loc, *stmts);
  std::vector<ExprPtr> parts;
  std::string open = view == LiteralDictView::Dict ? "{" : types::literalDictViewName(dt) + "([";
  parts.push_back(ir::makeStrConst(open, loc));
  for (size_t i = 0; i < dt.fields.size(); ++i) {
    if (i) parts.push_back(ir::makeStrConst(", ", loc));
    ExprPtr key = reprText(t, keyConst(t, dt.fields[i], loc), loc);
    ExprPtr value = reprText(t, valueAt(t.load(held, loc), i, loc), loc);
    switch (view) {
    case LiteralDictView::Dict:
      parts.push_back(std::move(key));
      parts.push_back(ir::makeStrConst(": ", loc));
      parts.push_back(std::move(value));
      break;
    case LiteralDictView::Keys: parts.push_back(std::move(key)); break;
    case LiteralDictView::Values: parts.push_back(std::move(value)); break;
    case LiteralDictView::Items:
      parts.push_back(ir::makeStrConst("(", loc));
      parts.push_back(std::move(key));
      parts.push_back(ir::makeStrConst(", ", loc));
      parts.push_back(std::move(value));
      parts.push_back(ir::makeStrConst(")", loc));
      break;
    }
  }
  parts.push_back(ir::makeStrConst(view == LiteralDictView::Dict ? "}" : "])", loc));
  return t.seqExpr(std::move(stmts), concatText(t, std::move(parts), loc), loc);
}

} // namespace mahou::sema
