// The builtins over objects (list(), set(), dict(), sorted(), str(), ord(), chr(), int(s),
// float(s)), len() of objects and sum/min/max/any/all over lists and generators.
#include "typer.h"
#include "mahou/literal_dict_type.h"
#include "sema/typers.h"
#include "mahou/range_type.h"

namespace mahou::sema {

using ObjectOp = ir::ObjectOp;

ExprPtr objectLen(Typing &t, ExprPtr v, Loc loc) {
  if (v->type.isInstance()) return instanceLen(t, std::move(v), loc);
  if (v->type.kind == Kind::Str) { // a literal: its length in code points (text is UTF-8)
    int64_t n = 0;
    for (unsigned char c : v->type.text) n += (c & 0xC0) != 0x80;
    return ir::makeConst(Type::int64(), loc, n);
  }
  std::vector<ExprPtr> a;
  Kind k = v->type.kind;
  a.push_back(std::move(v));
  switch (k) {
  case Kind::List: return objectOp(t, ObjectOp::ListLen, Type::int64(), std::move(a), loc);
  case Kind::Unicode: return objectOp(t, ObjectOp::StrLen, Type::int64(), std::move(a), loc);
  case Kind::Dict: return objectOp(t, ObjectOp::DictLen, Type::int64(), std::move(a), loc);
  case Kind::Set: return objectOp(t, ObjectOp::SetLen, Type::int64(), std::move(a), loc);
  default: t.error(loc, "object of type " + a[0]->type.str() + " has no len()");
  }
}

namespace {

// sum/min/max/any/all over a list: a loop into an accumulator.
ExprPtr reduceList(Typing &t, BuiltinReduce how, const std::string &name, ExprPtr list, Loc loc) {
  if (Typing::isUnknown(list)) return list;
  const Type item = list->type.elems[0];
  auto stmts = std::make_shared<ir::Block>();
  int l = t.holdInTemp(std::move(list), loc, *stmts);
  auto loadList = [&] { return t.load(l, loc); };
  int acc;
  if (how == BuiltinReduce::Sum) {
    if (!item.isNumber()) t.error(loc, "sum() of a list of " + item.str() + " is not supported");
    ExprPtr zero = ir::makeConst(Type::int64(), loc, 0);
    Type accType = t.binary(ast::BinOpKind::Add, ir::makeConst(Type::int64(), loc, 0), ir::makeConst(item, loc, 0), loc)->type;
    acc = t.holdInTemp(ir::makeCast(std::move(zero), accType), loc, *stmts);
    t.forEachValue(loadList(), loc, [&](ExprPtr x, ir::Block &body) {
      body.push_back(t.assignVar(acc, t.binary(ast::BinOpKind::Add, t.load(acc, loc), std::move(x), loc), loc));
    }, *stmts);
    return t.seqExpr(std::move(stmts), t.load(acc, loc), loc);
  }
  if (how == BuiltinReduce::Any || how == BuiltinReduce::All) {
    bool isAny = how == BuiltinReduce::Any;
    acc = t.holdInTemp(ir::makeConst(Type::boolean(), loc, !isAny), loc, *stmts);
    t.forEachValue(loadList(), loc, [&](ExprPtr x, ir::Block &body) {
      ExprPtr test = t.truth(std::move(x));
      if (!isAny) test = t.logicalNot(std::move(test));
      auto st = std::make_unique<ir::Stmt>(ir::StmtOp::If, loc);
      st->exprs.push_back(std::move(test));
      st->body.push_back(t.assignVar(acc, ir::makeConst(Type::boolean(), loc, isAny), loc));
      st->body.push_back(std::make_unique<ir::Stmt>(ir::StmtOp::Break, loc));
      body.push_back(std::move(st));
    }, *stmts);
    return t.seqExpr(std::move(stmts), t.load(acc, loc), loc);
  }
  // min / max
  requireComparable(t, item, loc, "ordering", true);
  auto empty = std::make_unique<ir::Stmt>(ir::StmtOp::If, loc);
  std::vector<ExprPtr> lenArgs;
  lenArgs.push_back(loadList());
  empty->exprs.push_back(t.compareOne(ast::CmpOpKind::Eq, objectOp(t, ObjectOp::ListLen, Type::int64(), std::move(lenArgs), loc),
                                      ir::makeConst(Type::int64(), loc, 0), loc));
  auto r = std::make_unique<ir::Stmt>(ir::StmtOp::Raise, loc);
  r->exc = types::ExcKind::ValueError;
  r->text = name + "() arg is an empty sequence";
  empty->body.push_back(std::move(r));
  stmts->push_back(std::move(empty));
  std::vector<ExprPtr> first;
  first.push_back(loadList());
  first.push_back(ir::makeConst(Type::int64(), loc, 0));
  acc = t.holdInTemp(objectOp(t, ObjectOp::ListGet, item, std::move(first), loc), loc, *stmts);
  bool isMin = how == BuiltinReduce::Min;
  t.forEachValue(loadList(), loc, [&](ExprPtr x, ir::Block &body) {
    int xv = t.holdInTemp(std::move(x), loc, body);
    auto st = std::make_unique<ir::Stmt>(ir::StmtOp::If, loc);
    st->exprs.push_back(t.compareOne(isMin ? ast::CmpOpKind::Lt : ast::CmpOpKind::Gt, t.load(xv, loc), t.load(acc, loc), loc));
    st->body.push_back(t.assignVar(acc, t.load(xv, loc), loc));
    body.push_back(std::move(st));
  }, *stmts);
  return t.seqExpr(std::move(stmts), t.load(acc, loc), loc);
}

// sum/any/all of a generator consume it item by item; min/max collect its items first
// (they need the first item and an emptiness test).
ExprPtr reduceGenerator(Typing &t, BuiltinReduce how, const std::string &name, ExprPtr gen, Loc loc) {
  if (gen->type.elems[0].containsUnknown()) return t.unknown(loc);
  if (how == BuiltinReduce::Min || how == BuiltinReduce::Max)
    return reduceList(t, how, name, t.listFromIterable(std::move(gen), loc), loc);
  return reduceList(t, how, name, std::move(gen), loc);
}

bool isListLike(const ast::Expr &e) {
  auto *c = e.as<ast::Comprehension>();
  return e.kind == ast::ExprKind::List || (c && c->comp != ast::CompKind::Set && c->comp != ast::CompKind::Dict);
}


} // namespace

ExprPtr builtinList(Use &u) {
  Typing &t = u.t;
  const ast::Call &e = *u.call;
  t.requireHost(e.loc, "list()");
  t.checkKeywords(e, {}, u.name);
  if (e.args.empty()) return objectOp(t, ObjectOp::ListNew, Type::list(Type::unknown()), {}, e.loc);
  if (e.args.size() != 1 || e.args[0]->kind == ast::ExprKind::Starred)
    u.error("list() takes at most 1 argument (" + std::to_string(e.args.size()) + " given)");
  return t.listFromAst(*e.args[0], e.loc);
}

// set(iterable) (variant 0) / dict(iterable of pairs, or a dict) (1): a loop adding each item.
ExprPtr builtinSetDict(Use &u) {
  Typing &t = u.t;
  const ast::Call &e = *u.call;
  const std::string &name = u.name;
  bool isSet = u.variant() == 0;
  t.requireHost(e.loc, name + "()");
  t.checkKeywords(e, {}, name);
  if (e.args.size() > 1) u.error(name + "() takes at most 1 argument");
  if (e.args.empty())
    return isSet ? objectOp(t, ObjectOp::SetNew, Type::set(Type::unknown()), {}, e.loc)
                 : objectOp(t, ObjectOp::DictNew, Type::dict(Type::unknown(), Type::unknown()), {}, e.loc);
  ExprPtr items;
  const ast::Expr &arg = *e.args[0];
  // set(a) of a 1-D array (a name, subscript or attribute): its elements are added
  // straight from the array, with no list in between (`items` is the array then).
  bool plainValue = arg.kind == ast::ExprKind::Name || arg.kind == ast::ExprKind::Subscript ||
                    arg.kind == ast::ExprKind::Attribute;
  if (isSet && plainValue) {
    ExprPtr value = t.expr(arg);
    if (Typing::isUnknown(value)) return u.unknown();
    bool vector = value->type.isArray() && value->type.ndim == 1;
    items = vector ? std::move(value) : t.listFromIterable(std::move(value), e.loc);
  } else if (!isSet && arg.kind != ast::ExprKind::Call && !arg.as<ast::Comprehension>()) {
    ExprPtr value = t.expr(arg); // dict(d) of a dict: a copy of it
    if (Typing::isUnknown(value)) return u.unknown();
    if (types::isLiteralDict(value->type) && types::literalDictView(value->type) == types::LiteralDictView::Dict)
      return value; // a literal dict cannot change: its values are its copy's
    if (value->type.isDict()) {
      Type dt = value->type;
      std::vector<ExprPtr> a;
      a.push_back(std::move(value));
      return objectOp(t, ObjectOp::DictCopy, dt, std::move(a), e.loc);
    }
    items = t.listFromIterable(std::move(value), e.loc);
  } else {
    items = t.listFromAst(arg, e.loc);
  }
  if (Typing::isUnknown(items)) return u.unknown();
  Type item = items->type.isArray() ? Type::scalar(items->type.dtype) : items->type.elems[0];
  if (!isSet && (!item.isTuple() || item.elems.size() != 2))
    u.error("dict() needs (key, value) pairs, not items of type " + item.str());
  Type rt = isSet ? Type::set(keyType(t, item, e.loc)) : Type::dict(keyType(t, item.elems[0], e.loc), item.elems[1]);
  auto stmts = std::make_shared<ir::Block>();
  int acc = t.holdInTemp(objectOp(t, isSet ? ObjectOp::SetNew : ObjectOp::DictNew, rt, {}, e.loc), e.loc, *stmts);
  t.forEachValue(std::move(items), e.loc, [&](ExprPtr x, ir::Block &body) {
    std::vector<ExprPtr> a;
    a.push_back(t.load(acc, e.loc));
    if (isSet) {
      a.push_back(t.convert(std::move(x), rt.elems[0], "set item"));
    } else {
      int pair = t.holdInTemp(std::move(x), e.loc, body);
      for (int64_t k = 0; k < 2; ++k) {
        auto g = std::make_unique<ir::Expr>(ir::ExprOp::TupleGet, item.elems[k], e.loc);
        g->ival = k;
        g->args.push_back(t.load(pair, e.loc));
        a.push_back(t.convert(std::move(g), rt.elems[k], "dict item"));
      }
    }
    auto st = std::make_unique<ir::Stmt>(ir::StmtOp::Eval, e.loc);
    st->exprs.push_back(objectOp(t, isSet ? ObjectOp::SetAdd : ObjectOp::DictSet, Type::none(), std::move(a), e.loc));
    body.push_back(std::move(st));
  }, *stmts);
  return t.seqExpr(std::move(stmts), t.load(acc, e.loc), e.loc);
}

// sorted(iterable, key=, reverse=) (variant 0) / reversed(iterable) (1): a new list.
ExprPtr builtinSorted(Use &u) {
  Typing &t = u.t;
  const ast::Call &e = *u.call;
  bool sorted = u.variant() == 0;
  u.t.requireHost(u.loc, u.name + "()");
  t.checkKeywords(e, sorted ? std::initializer_list<const char *>{"reverse", "key"} : std::initializer_list<const char *>{},
                  u.name);
  if (e.args.size() != 1) u.error(u.name + "() takes exactly one positional argument");
  auto copy = t.listFromAst(*e.args[0], e.loc);
  if (Typing::isUnknown(copy)) return u.unknown();
  if (const ast::Expr *key = u.keyword("key"); sorted && key && key->kind != ast::ExprKind::NoneLit) {
    const ast::Expr *rev = u.keyword("reverse");
    return t.sortByKey(std::move(copy), *key, rev ? t.truth(t.expr(*rev)) : ir::makeConst(Type::boolean(), e.loc, 0),
                       false, e.loc);
  }
  auto stmts = std::make_shared<ir::Block>();
  int v = t.holdInTemp(std::move(copy), e.loc, *stmts);
  auto eval = std::make_unique<ir::Stmt>(ir::StmtOp::Eval, e.loc);
  std::vector<ExprPtr> a;
  a.push_back(t.load(v, e.loc));
  if (!sorted) {
    eval->exprs.push_back(objectOp(t, ObjectOp::ListReverse, Type::none(), std::move(a), e.loc));
  } else {
    const ast::Expr *rev = u.keyword("reverse");
    ExprPtr reverse = rev ? t.truth(t.expr(*rev)) : ir::makeConst(Type::boolean(), e.loc, 0);
    if (Typing::isUnknown(reverse)) return u.unknown();
    requireComparable(t, t.varType(v).elems[0], e.loc, "sort", true);
    a.push_back(std::move(reverse));
    eval->exprs.push_back(objectOp(t, ObjectOp::ListSort, Type::none(), std::move(a), e.loc));
  }
  stmts->push_back(std::move(eval));
  return t.seqExpr(std::move(stmts), t.load(v, e.loc), e.loc);
}

ExprPtr reduceObjects(Use &u, BuiltinReduce how) {
  Typing &t = u.t;
  const ast::Call &e = *u.call;
  const std::string &name = u.name;
  if (e.args.size() != 1 || e.args[0]->kind == ast::ExprKind::Starred || !e.keywords.empty()) return nullptr;
  const ast::Expr &arg = *e.args[0];
  if (isListLike(arg)) return reduceList(t, how, name, t.listFromAst(arg, e.loc), e.loc);
  // A list value (a variable): reduce it; other iterables keep their own handling.
  if (auto *n = arg.as<ast::Name>(); n && t.localVariable(n->id)) {
    auto v = t.load(*t.localVariable(n->id), arg.loc);
    if (!Typing::isUnknown(v) && v->type.isList()) return reduceList(t, how, name, std::move(v), e.loc);
    if (!Typing::isUnknown(v) && types::isRange(v->type))
      return reduceList(t, how, name, t.listFromIterable(std::move(v), e.loc), e.loc);
    if (!Typing::isUnknown(v) && (v->type.isSet() || v->type.isDict() || v->type.isUnicode()))
      return reduceList(t, how, name, t.listFromIterable(std::move(v), e.loc), e.loc);
    if (!Typing::isUnknown(v) && v->type.isGenerator()) return reduceGenerator(t, how, name, std::move(v), e.loc);
  } else if (arg.kind != ast::ExprKind::Name && arg.kind != ast::ExprKind::Tuple) {
    // Any other expression (a call, s | t, xs[1:], an attribute): a generator made by a
    // call is reduced as it yields; lists, sets, dicts, strings and ranges as a list.
    auto v = t.expr(arg);
    if (Typing::isUnknown(v)) return u.unknown();
    if (v->type.isGenerator()) return reduceGenerator(t, how, name, std::move(v), e.loc);
    if (v->type.isList()) return reduceList(t, how, name, std::move(v), e.loc);
    if (v->type.kind == Kind::Str) v = toUnicode(t, std::move(v));
    if (types::isRange(v->type) || v->type.isSet() || v->type.isDict() || v->type.isUnicode())
      return reduceList(t, how, name, t.listFromIterable(std::move(v), e.loc), e.loc);
  }
  // Evaluated once here; only lists are handled (arrays and tuples go the usual way).
  return nullptr;
}

ExprPtr builtinStr(Use &u) { // str(x) (variant 0), repr(x) (1)
  u.t.requireHost(u.loc, u.name + "()");
  auto a = u.args(0, 1);
  if (a.empty()) return ir::makeStrConst("", u.loc);
  if (Typing::isUnknown(a[0])) return u.unknown();
  return toStr(u.t, std::move(a[0]), u.variant() == 1, u.loc);
}

// x.__str__() / x.__repr__() (variant 1) of an integer, a bool or a string: str(x) /
// repr(x), as Numba's methods; those of other numbers are refused, as in Numba.
ExprPtr dunderStrMethod(Use &u) {
  u.t.requireHost(u.loc, u.name + "()");
  u.args(0, 0);
  const Type ty = u.self->type;
  if (!ty.isString() && !ty.isInt() && !ty.isBool())
    u.notSupported("the method '" + u.name + "' of " + ty.str() + " is not supported (only those of integers, bools "
                   "and strings are, as in Numba)");
  return toStr(u.t, std::move(u.self), u.variant() == 1, u.loc);
}

ExprPtr numberFromString(Use &u, NumberConversion to) {
  Typing &t = u.t;
  const ast::Call &e = *u.call;
  const std::string &name = u.name;
  if (e.args.empty()) return nullptr;
  auto first = t.expr(*e.args[0]);
  if (Typing::isUnknown(first)) return u.unknown();
  if (!first->type.isString()) return nullptr;
  bool isInt = to == NumberConversion::Int;
  t.checkKeywords(e, isInt ? std::initializer_list<const char *>{"base"} : std::initializer_list<const char *>{}, name);
  auto a = t.positionalArgs(e, 1, isInt ? 2 : 1, name);
  std::vector<ExprPtr> rest;
  rest.push_back(toUnicode(t, std::move(a[0])));
  if (isInt) {
    const ast::Expr *baseKw = u.keyword("base");
    ExprPtr base = a.size() > 1 ? std::move(a[1]) : baseKw ? t.expr(*baseKw) : ir::makeConst(Type::int64(), e.loc, 10);
    if (Typing::isUnknown(base)) return u.unknown();
    rest.push_back(t.toInt64Index(std::move(base), "int() base"));
  }
  auto c = objectOp(t, ObjectOp::StrCall, isInt ? Type::int64() : Type::float64(), std::move(rest), e.loc);
  c->symbol = isInt ? "mahou_rt_str_to_int" : "mahou_rt_str_to_float";
  return c;
}

ExprPtr builtinOrd(Use &u) {
  u.t.requireHost(u.loc, "ord()");
  auto a = u.args(1, 1);
  if (Typing::isUnknown(a[0])) return u.unknown();
  if (!a[0]->type.isString()) u.error("ord() expected string of length 1, but " + a[0]->type.str() + " found");
  std::vector<ExprPtr> rest;
  rest.push_back(toUnicode(u.t, std::move(a[0])));
  return objectOp(u.t, ObjectOp::StrOrd, Type::int64(), std::move(rest), u.loc);
}

ExprPtr builtinChr(Use &u) {
  u.t.requireHost(u.loc, "chr()");
  auto a = u.args(1, 1);
  if (Typing::isUnknown(a[0])) return u.unknown();
  std::vector<ExprPtr> rest;
  rest.push_back(u.t.toInt64Index(std::move(a[0]), "chr() argument"));
  return objectOp(u.t, ObjectOp::StrChr, Type::unicode(), std::move(rest), u.loc);
}

namespace {

// A type given as an argument (types.float64 is a dtype, other types come as their text).
Type typeArgument(Typing &t, const ast::Expr &e, const std::string &what) {
  auto v = t.expr(e);
  if (v->type.kind == Kind::DTypeObj) return Type::scalar(v->type.dtype);
  if (v->type.kind == Kind::Str) {
    std::string err;
    if (auto parsed = types::parseType(v->type.text, &err)) return *parsed;
    t.error(e.loc, what + ": not a type: " + v->type.text + " (" + err + ")");
  }
  t.error(e.loc, what + " must be a mahou type (types.int64, types.unicode_type, ...), not " + v->type.str());
}

} // namespace

ExprPtr typedList(Use &u) { // typed.List() / typed.List(iterable)
  Typing &t = u.t;
  const ast::Call &e = *u.call;
  t.checkKeywords(e, {}, "typed.List");
  if (e.args.empty()) return objectOp(t, ObjectOp::ListNew, Type::list(Type::unknown(), true), {}, e.loc);
  if (e.args.size() != 1) u.error("List() takes at most 1 argument");
  auto l = t.listFromAst(*e.args[0], e.loc);
  if (Typing::isUnknown(l)) return l;
  Type lt = Type::list(l->type.elems[0], true);
  return ir::makeCast(std::move(l), lt);
}

ExprPtr typedEmptyList(Use &u) {
  Typing &t = u.t;
  const ast::Call &e = *u.call;
  t.checkKeywords(e, {"item_type", "allocated"}, "List.empty_list");
  const ast::Expr *it = e.args.empty() ? u.keyword("item_type") : e.args[0].get();
  if (!it) u.error("List.empty_list() needs an item_type");
  return objectOp(t, ObjectOp::ListNew, Type::list(typeArgument(t, *it, "item_type"), true), {}, e.loc);
}

ExprPtr typedDict(Use &u) {
  Typing &t = u.t;
  const ast::Call &e = *u.call;
  t.checkKeywords(e, {}, "typed.Dict");
  if (!e.args.empty()) u.notSupported("Dict() with arguments in compiled code is not supported (use Dict.empty)");
  return objectOp(t, ObjectOp::DictNew, Type::dict(Type::unknown(), Type::unknown()), {}, e.loc);
}

ExprPtr typedEmptyDict(Use &u) {
  Typing &t = u.t;
  const ast::Call &e = *u.call;
  t.checkKeywords(e, {"key_type", "value_type", "n_keys"}, "Dict.empty");
  const ast::Expr *kt = e.args.size() > 0 ? e.args[0].get() : u.keyword("key_type");
  const ast::Expr *vt = e.args.size() > 1 ? e.args[1].get() : u.keyword("value_type");
  if (!kt || !vt) u.error("Dict.empty() needs key_type and value_type");
  Type k = typeArgument(t, *kt, "key_type");
  requireHashable(t, k, kt->loc);
  return objectOp(t, ObjectOp::DictNew, Type::dict(k, typeArgument(t, *vt, "value_type")), {}, e.loc);
}

ExprPtr typedSet(Use &u) { // typed.Set(): the key type from the first add
  Typing &t = u.t;
  const ast::Call &e = *u.call;
  t.checkKeywords(e, {}, "typed.Set");
  if (!e.args.empty()) u.notSupported("Set() with arguments in compiled code is not supported (use Set() and add)");
  return objectOp(t, ObjectOp::SetNew, Type::set(Type::unknown(), true), {}, e.loc);
}

ExprPtr typedEmptySet(Use &u) {
  Typing &t = u.t;
  const ast::Call &e = *u.call;
  t.checkKeywords(e, {"key_type"}, "Set.empty");
  const ast::Expr *kt = e.args.empty() ? u.keyword("key_type") : e.args[0].get();
  if (!kt || e.args.size() > 1) u.error("Set.empty() takes one key_type");
  Type k = typeArgument(t, *kt, "key_type");
  requireHashable(t, k, kt->loc);
  return objectOp(t, ObjectOp::SetNew, Type::set(k, true), {}, e.loc);
}

ExprPtr toStr(Typing &t, ExprPtr v, bool repr, Loc loc) {
  v = unwrapOptionalForStr(t, std::move(v));
  const Type ty = v->type;
  if (ty.isInstance()) return instanceStr(t, std::move(v), repr, loc);
  if (ty.containsClosure()) t.notSupported(loc, "an inner function has no text in compiled code");
  std::vector<ExprPtr> rest;
  auto call = [&](const char *fn) {
    auto c = objectOp(t, ObjectOp::StrCall, Type::unicode(), std::move(rest), loc);
    c->symbol = fn;
    return c;
  };
  if (ty.isString()) {
    if (!repr) return toUnicode(t, std::move(v));
    rest.push_back(toUnicode(t, std::move(v)));
    return call("mahou_rt_str_repr");
  }
  if (ty.isNone()) return ir::makeStrConst("None", loc);
  if (ty.isBool()) {
    auto sel = std::make_unique<ir::Expr>(ir::ExprOp::Select, Type::unicode(), loc);
    sel->args.push_back(std::move(v));
    sel->args.push_back(toUnicode(t, ir::makeStrConst("True", loc)));
    sel->args.push_back(toUnicode(t, ir::makeStrConst("False", loc)));
    return sel;
  }
  if (ty.isInt()) {
    bool sgn = types::isSigned(ty.dtype);
    rest.push_back(ir::makeCast(std::move(v), Type::scalar(sgn ? DType::Int64 : DType::UInt64)));
    return call(sgn ? "mahou_rt_str_from_int" : "mahou_rt_str_from_uint");
  }
  if (ty.isFloat()) {
    if (ty.dtype == DType::Float32)
      t.notSupported(loc, "str() of a float32 is not supported (Python prints the float64 value); convert it with float() first");
    rest.push_back(std::move(v));
    return call("mahou_rt_str_from_float");
  }
  t.notSupported(loc, "str() of " + ty.str() + " is not supported");
}

ExprPtr unwrapOptionalForStr(Typing &t, ExprPtr v) {
  if (!v->type.isOptional()) return v;
  // str(None) is "None": an optional becomes the string of its value, or "None".
  Loc loc = v->loc;
  auto stmts = std::make_shared<ir::Block>();
  int o = t.holdInTemp(std::move(v), loc, *stmts);
  auto sel = std::make_unique<ir::Expr>(ir::ExprOp::Select, Type::unicode(), loc);
  sel->args.push_back(t.isNoneTest(t.load(o, loc), false, loc));
  sel->args.push_back(toUnicode(t, ir::makeStrConst("None", loc)));
  sel->args.push_back(toStr(t, t.unwrapOptional(t.load(o, loc)), false, loc));
  return t.seqExpr(std::move(stmts), std::move(sel), loc);
}

} // namespace mahou::sema
