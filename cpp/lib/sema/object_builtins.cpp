// The builtins over objects (list(), set(), dict(), sorted(), str(), ord(), chr(), int(s),
// float(s)), len() of objects and sum/min/max/any/all over lists and generators.
#include "typer.h"
#include "mahou/range_type.h"

namespace mahou::sema {

using ObjectOp = ir::ObjectOp;

ExprPtr FunctionTyper::objectLen(ExprPtr v, Loc loc) {
  if (v->type.isInstance()) return instanceLen(std::move(v), loc);
  if (v->type.kind == Kind::Str) { // a literal: its length in code points (text is UTF-8)
    int64_t n = 0;
    for (unsigned char c : v->type.text) n += (c & 0xC0) != 0x80;
    return ir::makeConst(Type::int64(), loc, n);
  }
  std::vector<ExprPtr> a;
  Kind k = v->type.kind;
  a.push_back(std::move(v));
  switch (k) {
  case Kind::List: return objectOp(ObjectOp::ListLen, Type::int64(), std::move(a), loc);
  case Kind::Unicode: return objectOp(ObjectOp::StrLen, Type::int64(), std::move(a), loc);
  case Kind::Dict: return objectOp(ObjectOp::DictLen, Type::int64(), std::move(a), loc);
  case Kind::Set: return objectOp(ObjectOp::SetLen, Type::int64(), std::move(a), loc);
  default: error(loc, "object of type " + a[0]->type.str() + " has no len()");
  }
}

namespace {

// sum/min/max/any/all over a list: a loop into an accumulator.
ExprPtr reduceList(FunctionTyper &t, const std::string &name, ExprPtr list, Loc loc) {
  if (FunctionTyper::isUnknown(list)) return list;
  const Type item = list->type.elems[0];
  auto stmts = std::make_shared<ir::Block>();
  int l = t.holdInTemp(std::move(list), loc, *stmts);
  auto loadList = [&] { return t.load(l, loc); };
  int acc;
  if (name == "sum") {
    if (!item.isNumber()) t.error(loc, "sum() of a list of " + item.str() + " is not supported");
    ExprPtr zero = ir::makeConst(Type::int64(), loc, 0);
    Type accType = t.binary(ast::BinOpKind::Add, ir::makeConst(Type::int64(), loc, 0), ir::makeConst(item, loc, 0), loc)->type;
    acc = t.holdInTemp(ir::makeCast(std::move(zero), accType), loc, *stmts);
    t.forEachValue(loadList(), loc, [&](ExprPtr x, ir::Block &body) {
      body.push_back(t.assignVar(acc, t.binary(ast::BinOpKind::Add, t.load(acc, loc), std::move(x), loc), loc));
    }, *stmts);
    return t.seqExpr(std::move(stmts), t.load(acc, loc), loc);
  }
  if (name == "any" || name == "all") {
    bool isAny = name == "any";
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
  t.requireComparable(item, loc, "ordering");
  auto empty = std::make_unique<ir::Stmt>(ir::StmtOp::If, loc);
  std::vector<ExprPtr> lenArgs;
  lenArgs.push_back(loadList());
  empty->exprs.push_back(t.compareOne(ast::CmpOpKind::Eq, t.objectOp(ObjectOp::ListLen, Type::int64(), std::move(lenArgs), loc),
                                      ir::makeConst(Type::int64(), loc, 0), loc));
  auto r = std::make_unique<ir::Stmt>(ir::StmtOp::Raise, loc);
  r->exc = types::ExcKind::ValueError;
  r->text = name + "() arg is an empty sequence";
  empty->body.push_back(std::move(r));
  stmts->push_back(std::move(empty));
  std::vector<ExprPtr> first;
  first.push_back(loadList());
  first.push_back(ir::makeConst(Type::int64(), loc, 0));
  acc = t.holdInTemp(t.objectOp(ObjectOp::ListGet, item, std::move(first), loc), loc, *stmts);
  bool isMin = name == "min";
  t.forEachValue(loadList(), loc, [&](ExprPtr x, ir::Block &body) {
    int xv = t.holdInTemp(std::move(x), loc, body);
    auto st = std::make_unique<ir::Stmt>(ir::StmtOp::If, loc);
    st->exprs.push_back(t.compareOne(isMin ? ast::CmpOpKind::Lt : ast::CmpOpKind::Gt, t.load(xv, loc), t.load(acc, loc), loc));
    st->body.push_back(t.assignVar(acc, t.load(xv, loc), loc));
    body.push_back(std::move(st));
  }, *stmts);
  return t.seqExpr(std::move(stmts), t.load(acc, loc), loc);
}

} // namespace

// sum/any/all of a generator consume it item by item; min/max collect its items first
// (they need the first item and an emptiness test).
ExprPtr FunctionTyper::reduceGenerator(const std::string &name, ExprPtr gen, Loc loc) {
  if (gen->type.elems[0].containsUnknown()) return unknown(loc);
  if (name == "min" || name == "max") return reduceList(*this, name, listFromIterable(std::move(gen), loc), loc);
  return reduceList(*this, name, std::move(gen), loc);
}

namespace {

bool isListLike(const ast::Expr &e) {
  auto *c = e.as<ast::Comprehension>();
  return e.kind == ast::ExprKind::List || (c && c->comp != ast::CompKind::Set && c->comp != ast::CompKind::Dict);
}


} // namespace

ExprPtr FunctionTyper::objectBuiltin(const std::string &name, const ast::Call &e) {
  auto single = [&]() -> const ast::Expr * {
    if (e.args.size() == 1 && e.args[0]->kind != ast::ExprKind::Starred) return e.args[0].get();
    return nullptr;
  };
  if (name == "list") {
    requireHost(e.loc, "list()");
    checkKeywords(e, {}, name);
    if (e.args.empty()) return objectOp(ObjectOp::ListNew, Type::list(Type::unknown()), {}, e.loc);
    if (e.args.size() != 1 || e.args[0]->kind == ast::ExprKind::Starred)
      error(e.loc, "list() takes at most 1 argument (" + std::to_string(e.args.size()) + " given)");
    return listFromAst(*e.args[0], e.loc);
  }
  if (name.rfind("typed.", 0) == 0) return typedContainerCall(name, e);
  if (name == "set" || name == "dict") {
    requireHost(e.loc, name + "()");
    checkKeywords(e, {}, name);
    if (e.args.size() > 1) error(e.loc, name + "() takes at most 1 argument");
    bool isSet = name == "set";
    if (e.args.empty())
      return isSet ? objectOp(ObjectOp::SetNew, Type::set(Type::unknown()), {}, e.loc)
                   : objectOp(ObjectOp::DictNew, Type::dict(Type::unknown(), Type::unknown()), {}, e.loc);
    // set(iterable) / dict(iterable of pairs, or a dict): a loop adding each item.
    ExprPtr items;
    const ast::Expr &arg = *e.args[0];
    if (!isSet && arg.kind != ast::ExprKind::Call && !arg.as<ast::Comprehension>()) {
      ExprPtr value = expr(arg); // dict(d) of a dict: a copy of it
      if (isUnknown(value)) return unknown(e.loc);
      if (value->type.isDict()) {
        Type t = value->type;
        std::vector<ExprPtr> a;
        a.push_back(std::move(value));
        return objectOp(ObjectOp::DictCopy, t, std::move(a), e.loc);
      }
      items = listFromIterable(std::move(value), e.loc);
    } else {
      items = listFromAst(arg, e.loc);
    }
    if (isUnknown(items)) return unknown(e.loc);
    Type item = items->type.elems[0];
    if (!isSet && (!item.isTuple() || item.elems.size() != 2))
      error(e.loc, "dict() needs (key, value) pairs, not items of type " + item.str());
    Type t = isSet ? Type::set(keyType(item, e.loc)) : Type::dict(keyType(item.elems[0], e.loc), item.elems[1]);
    auto stmts = std::make_shared<ir::Block>();
    int acc = holdInTemp(objectOp(isSet ? ObjectOp::SetNew : ObjectOp::DictNew, t, {}, e.loc), e.loc, *stmts);
    forEachValue(std::move(items), e.loc, [&](ExprPtr x, ir::Block &body) {
      std::vector<ExprPtr> a;
      a.push_back(load(acc, e.loc));
      if (isSet) {
        a.push_back(convert(std::move(x), t.elems[0], "set item"));
      } else {
        int pair = holdInTemp(std::move(x), e.loc, body);
        for (int64_t k = 0; k < 2; ++k) {
          auto g = std::make_unique<ir::Expr>(ir::ExprOp::TupleGet, item.elems[k], e.loc);
          g->ival = k;
          g->args.push_back(load(pair, e.loc));
          a.push_back(convert(std::move(g), t.elems[k], "dict item"));
        }
      }
      auto st = std::make_unique<ir::Stmt>(ir::StmtOp::Eval, e.loc);
      st->exprs.push_back(objectOp(isSet ? ObjectOp::SetAdd : ObjectOp::DictSet, Type::none(), std::move(a), e.loc));
      body.push_back(std::move(st));
    }, *stmts);
    return seqExpr(std::move(stmts), load(acc, e.loc), e.loc);
  }
  if (name == "sorted" || name == "reversed") {
    requireHost(e.loc, name + "()");
    checkKeywords(e, name == "sorted" ? std::initializer_list<const char *>{"reverse", "key"}
                                      : std::initializer_list<const char *>{},
                  name);
    if (e.args.size() != 1) error(e.loc, name + "() takes exactly one positional argument");
    auto copy = listFromAst(*e.args[0], e.loc);
    if (isUnknown(copy)) return unknown(e.loc);
    if (const ast::Expr *key = keyword(e, "key"); name == "sorted" && key && key->kind != ast::ExprKind::NoneLit) {
      const ast::Expr *rev = keyword(e, "reverse");
      return sortByKey(std::move(copy), *key, rev ? truth(expr(*rev)) : ir::makeConst(Type::boolean(), e.loc, 0), false,
                       e.loc);
    }
    auto stmts = std::make_shared<ir::Block>();
    int v = holdInTemp(std::move(copy), e.loc, *stmts);
    auto eval = std::make_unique<ir::Stmt>(ir::StmtOp::Eval, e.loc);
    std::vector<ExprPtr> a;
    a.push_back(load(v, e.loc));
    if (name == "reversed") {
      eval->exprs.push_back(objectOp(ObjectOp::ListReverse, Type::none(), std::move(a), e.loc));
    } else {
      const ast::Expr *rev = keyword(e, "reverse");
      ExprPtr reverse = rev ? truth(expr(*rev)) : ir::makeConst(Type::boolean(), e.loc, 0);
      if (isUnknown(reverse)) return unknown(e.loc);
      requireComparable(vars_[v].type.elems[0], e.loc, "sort");
      a.push_back(std::move(reverse));
      eval->exprs.push_back(objectOp(ObjectOp::ListSort, Type::none(), std::move(a), e.loc));
    }
    stmts->push_back(std::move(eval));
    return seqExpr(std::move(stmts), load(v, e.loc), e.loc);
  }
  if ((name == "sum" || name == "min" || name == "max" || name == "any" || name == "all") && single() &&
      e.keywords.empty()) {
    const ast::Expr &arg = *single();
    if (isListLike(arg)) return reduceList(*this, name, listFromAst(arg, e.loc), e.loc);
    if (name == "any" || name == "all" || name == "sum" || name == "min" || name == "max") {
      // A list value (a variable): reduce it; other iterables keep their own handling.
      if (auto *n = arg.as<ast::Name>(); n && varIndex_.count(n->id)) {
        auto v = load(varIndex_[n->id], arg.loc);
        if (!isUnknown(v) && v->type.isList()) return reduceList(*this, name, std::move(v), e.loc);
        if (!isUnknown(v) && types::isRange(v->type))
          return reduceList(*this, name, listFromIterable(std::move(v), e.loc), e.loc);
        if (!isUnknown(v) && (v->type.isSet() || v->type.isDict() || v->type.isUnicode()))
          return reduceList(*this, name, listFromIterable(std::move(v), e.loc), e.loc);
        if (!isUnknown(v) && v->type.isGenerator()) return reduceGenerator(name, std::move(v), e.loc);
      } else if (arg.kind == ast::ExprKind::Call) { // a generator made by the call: reduced as it yields
        auto v = expr(arg);
        if (isUnknown(v)) return unknown(e.loc);
        if (v->type.isGenerator()) return reduceGenerator(name, std::move(v), e.loc);
        if (types::isRange(v->type)) return reduceList(*this, name, listFromIterable(std::move(v), e.loc), e.loc);
        return nullptr;
      } else if (arg.kind == ast::ExprKind::Subscript || arg.kind == ast::ExprKind::Attribute) {
        // Evaluated once here; only lists are handled (arrays and tuples go the usual way).
        return nullptr;
      }
    }
    return nullptr;
  }
  if (name == "str" || name == "repr") {
    requireHost(e.loc, name + "()");
    checkKeywords(e, {}, name);
    auto a = positionalArgs(e, 0, 1, name);
    if (a.empty()) return ir::makeStrConst("", e.loc);
    if (isUnknown(a[0])) return unknown(e.loc);
    return toStr(std::move(a[0]), name == "repr", e.loc);
  }
  if ((name == "int" || name == "float") && !e.args.empty()) {
    auto first = expr(*e.args[0]);
    if (isUnknown(first)) return unknown(e.loc);
    if (!first->type.isString()) return nullptr;
    checkKeywords(e, name == "int" ? std::initializer_list<const char *>{"base"} : std::initializer_list<const char *>{}, name);
    auto a = positionalArgs(e, 1, name == "int" ? 2 : 1, name);
    std::vector<ExprPtr> rest;
    rest.push_back(toUnicode(std::move(a[0])));
    if (name == "int") {
      const ast::Expr *baseKw = keyword(e, "base");
      ExprPtr base = a.size() > 1 ? std::move(a[1]) : baseKw ? expr(*baseKw) : ir::makeConst(Type::int64(), e.loc, 10);
      if (isUnknown(base)) return unknown(e.loc);
      rest.push_back(toInt64Index(std::move(base), "int() base"));
    }
    auto c = objectOp(ObjectOp::StrCall, name == "int" ? Type::int64() : Type::float64(), std::move(rest), e.loc);
    c->symbol = name == "int" ? "mahou_rt_str_to_int" : "mahou_rt_str_to_float";
    return c;
  }
  if (name == "ord" || name == "chr") {
    requireHost(e.loc, name + "()");
    checkKeywords(e, {}, name);
    auto a = positionalArgs(e, 1, 1, name);
    if (isUnknown(a[0])) return unknown(e.loc);
    std::vector<ExprPtr> rest;
    if (name == "ord") {
      if (!a[0]->type.isString()) error(e.loc, "ord() expected string of length 1, but " + a[0]->type.str() + " found");
      rest.push_back(toUnicode(std::move(a[0])));
      return objectOp(ObjectOp::StrOrd, Type::int64(), std::move(rest), e.loc);
    }
    rest.push_back(toInt64Index(std::move(a[0]), "chr() argument"));
    return objectOp(ObjectOp::StrChr, Type::unicode(), std::move(rest), e.loc);
  }
  return nullptr;
}

// A type given as an argument (types.float64 is a dtype, other types come as their text).
Type FunctionTyper::typeArgument(const ast::Expr &e, const std::string &what) {
  auto v = expr(e);
  if (v->type.kind == Kind::DTypeObj) return Type::scalar(v->type.dtype);
  if (v->type.kind == Kind::Str) {
    std::string err;
    if (auto t = types::parseType(v->type.text, &err)) return *t;
    error(e.loc, what + ": not a type: " + v->type.text + " (" + err + ")");
  }
  error(e.loc, what + " must be a mahou type (types.int64, types.unicode_type, ...), not " + v->type.str());
}

ExprPtr FunctionTyper::typedContainerCall(const std::string &name, const ast::Call &e) {
  requireHost(e.loc, name + "()");
  if (name == "typed.List") { // typed.List() / typed.List(iterable)
    checkKeywords(e, {}, name);
    if (e.args.empty()) return objectOp(ObjectOp::ListNew, Type::list(Type::unknown(), true), {}, e.loc);
    if (e.args.size() != 1) error(e.loc, "List() takes at most 1 argument");
    auto l = listFromAst(*e.args[0], e.loc);
    if (isUnknown(l)) return l;
    Type t = Type::list(l->type.elems[0], true);
    return ir::makeCast(std::move(l), t);
  }
  if (name == "typed.List.empty_list") {
    checkKeywords(e, {"item_type", "allocated"}, "List.empty_list");
    const ast::Expr *it = e.args.empty() ? keyword(e, "item_type") : e.args[0].get();
    if (!it) error(e.loc, "List.empty_list() needs an item_type");
    return objectOp(ObjectOp::ListNew, Type::list(typeArgument(*it, "item_type"), true), {}, e.loc);
  }
  if (name == "typed.Dict") {
    checkKeywords(e, {}, name);
    if (!e.args.empty()) notSupported(e.loc, "Dict() with arguments in compiled code is not supported (use Dict.empty)");
    return objectOp(ObjectOp::DictNew, Type::dict(Type::unknown(), Type::unknown()), {}, e.loc);
  }
  if (name == "typed.Dict.empty") {
    checkKeywords(e, {"key_type", "value_type", "n_keys"}, "Dict.empty");
    const ast::Expr *kt = e.args.size() > 0 ? e.args[0].get() : keyword(e, "key_type");
    const ast::Expr *vt = e.args.size() > 1 ? e.args[1].get() : keyword(e, "value_type");
    if (!kt || !vt) error(e.loc, "Dict.empty() needs key_type and value_type");
    Type k = typeArgument(*kt, "key_type");
    requireHashable(k, kt->loc);
    return objectOp(ObjectOp::DictNew, Type::dict(k, typeArgument(*vt, "value_type")), {}, e.loc);
  }
  notSupported(e.loc, name + " is not supported in compiled code");
}

ExprPtr FunctionTyper::toStr(ExprPtr v, bool repr, Loc loc) {
  v = unwrapOptionalForStr(std::move(v));
  const Type t = v->type;
  if (t.isInstance()) return instanceStr(std::move(v), repr, loc);
  if (t.containsClosure()) notSupported(loc, "an inner function has no text in compiled code");
  std::vector<ExprPtr> rest;
  auto call = [&](const char *fn) {
    auto c = objectOp(ObjectOp::StrCall, Type::unicode(), std::move(rest), loc);
    c->symbol = fn;
    return c;
  };
  if (t.isString()) {
    if (!repr) return toUnicode(std::move(v));
    rest.push_back(toUnicode(std::move(v)));
    return call("mahou_rt_str_repr");
  }
  if (t.isNone()) return ir::makeStrConst("None", loc);
  if (t.isBool()) {
    auto sel = std::make_unique<ir::Expr>(ir::ExprOp::Select, Type::unicode(), loc);
    sel->args.push_back(std::move(v));
    sel->args.push_back(toUnicode(ir::makeStrConst("True", loc)));
    sel->args.push_back(toUnicode(ir::makeStrConst("False", loc)));
    return sel;
  }
  if (t.isInt()) {
    bool sgn = types::isSigned(t.dtype);
    rest.push_back(ir::makeCast(std::move(v), Type::scalar(sgn ? DType::Int64 : DType::UInt64)));
    return call(sgn ? "mahou_rt_str_from_int" : "mahou_rt_str_from_uint");
  }
  if (t.isFloat()) {
    if (t.dtype == DType::Float32)
      notSupported(loc, "str() of a float32 is not supported (Python prints the float64 value); convert it with float() first");
    rest.push_back(std::move(v));
    return call("mahou_rt_str_from_float");
  }
  notSupported(loc, "str() of " + t.str() + " is not supported");
}

ExprPtr FunctionTyper::unwrapOptionalForStr(ExprPtr v) {
  if (!v->type.isOptional()) return v;
  // str(None) is "None": an optional becomes the string of its value, or "None".
  Loc loc = v->loc;
  auto stmts = std::make_shared<ir::Block>();
  int o = holdInTemp(std::move(v), loc, *stmts);
  auto sel = std::make_unique<ir::Expr>(ir::ExprOp::Select, Type::unicode(), loc);
  sel->args.push_back(isNoneTest(load(o, loc), false, loc));
  sel->args.push_back(toUnicode(ir::makeStrConst("None", loc)));
  sel->args.push_back(toStr(unwrapOptional(load(o, loc)), false, loc));
  return seqExpr(std::move(stmts), std::move(sel), loc);
}

} // namespace mahou::sema
