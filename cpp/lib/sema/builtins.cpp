// Typers of Python's builtins over numbers, tuples and arrays (builtins.def): len, abs,
// min/max, sum, int/float/complex/bool, round, pow, divmod, isinstance, next/iter,
// literally, print; and mahou.get_thread_id()/get_num_threads(). The object builtins
// (list, dict, sorted, str, ...) are in object_builtins.cpp.
#include "sema/datetime.h"
#include "sema/typers.h"

#include "mahou/bound_method_type.h"
#include "mahou/literal_dict_type.h"
#include "mahou/literal_list_type.h"
#include "mahou/range_type.h"
#include "mahou/slice_type.h"

#include <algorithm>

namespace mahou::sema {

namespace {

// The items of a tuple value, each read from a copy of it (`what` names the refusal of
// one with effects).
std::vector<ExprPtr> tupleItems(Typing &t, const ExprPtr &tuple, Loc loc, const std::string &what) {
  std::vector<ExprPtr> items;
  for (size_t i = 0; i < tuple->type.elems.size(); ++i) {
    auto g = std::make_unique<ir::Expr>(ir::ExprOp::TupleGet, tuple->type.elems[i], loc);
    g->ival = int64_t(i);
    g->args.push_back(duplicate(t, *tuple, what));
    items.push_back(std::move(g));
  }
  return items;
}

// The same call typed as np.<name> (sum/min/max of a 1-D array).
ExprPtr asNumpyFunction(Use &u) {
  const Entry *entry = findEntry(Receiver::Numpy, Member::Function, u.name);
  if (!entry) internalError("the registry has no np." + u.name);
  return typeUse(u.t, *entry, u.name, u.call, nullptr, nullptr, u.loc);
}

// round(x, ndigits) with a constant ndigits: floats round half to even at that
// decimal (x * 10**n, rint, / 10**n, as Numba does); ints are unchanged for n >= 0.
ExprPtr roundDigits(Typing &t, const ast::Expr *xe, const ast::Expr *ne, const ast::Call &e) {
  auto x = t.expr(*xe);
  auto nd = t.constInt(*ne);
  if (!nd) {
    auto v = t.expr(*ne);
    if (Typing::isUnknown(v)) return t.unknown(e.loc);
    if (v->type.isNone()) {
      if (Typing::isUnknown(x)) return t.unknown(e.loc);
      if (!x->type.isFloat() && !x->type.isInt() && !x->type.isBool()) t.error(e.loc, "round() of " + x->type.str() + " is not supported");
      if (!x->type.isFloat()) return ir::makeCast(std::move(x), Type::int64());
      std::vector<ExprPtr> a;
      a.push_back(std::move(x));
      return ir::makeCast(t.intrinsic(ir::Intrinsic::Rint, a[0]->type, std::move(a), e.loc), Type::int64());
    }
    if (Typing::isUnknown(x)) return t.unknown(e.loc);
    return roundVariableDigits(t, std::move(x), std::move(v), e.loc);
  }
  if (Typing::isUnknown(x)) return t.unknown(e.loc);
  const Type xt = x->type;
  if (xt.isInt() || xt.isBool()) {
    if (*nd < 0) t.notSupported(e.loc, "round() of an integer to negative digits is not supported");
    return ir::makeCast(std::move(x), xt.isBool() ? Type::int64() : xt);
  }
  if (!xt.isFloat()) t.error(e.loc, "round() of " + xt.str() + " is not supported");
  if (*nd > 308 || *nd < -308) t.notSupported(e.loc, "round() to more than 308 digits is not supported");
  double p = 1;
  for (int64_t i = 0; i < (*nd < 0 ? -*nd : *nd); ++i) p *= 10;
  auto pc = [&]() { return ir::makeConst(xt, e.loc, 0, p); };
  bool neg = *nd < 0;
  auto y = t.binary(neg ? ast::BinOpKind::Div : ast::BinOpKind::Mult, std::move(x), pc(), e.loc);
  std::vector<ExprPtr> a;
  a.push_back(std::move(y));
  auto r = t.intrinsic(ir::Intrinsic::Rint, xt, std::move(a), e.loc);
  return t.binary(neg ? ast::BinOpKind::Mult : ast::BinOpKind::Div, std::move(r), pc(), e.loc);
}

// Whether a value of type `xt` is an instance of the builtin class `g` names (nullopt:
// `g` is no class isinstance knows). The builtin classes are the registry's builtins
// of those names, told apart by their entries' typers.
std::optional<bool> isBuiltinInstance(const GlobalValue &g, const Type &xt) {
  const Entry *cls = findEntry(Receiver::Builtins, Member::Function, g.s);
  if (!cls) return std::nullopt;
  if (cls->typer == &builtinNumber) {
    switch (NumberConversion(cls->variant)) {
    case NumberConversion::Int: return xt.isInt() || xt.isBool();
    case NumberConversion::Float: return xt.isFloat();
    case NumberConversion::Complex: return xt.isComplex();
    case NumberConversion::Bool: return xt.isBool();
    }
  }
  if (cls->typer == &builtinSlice) return types::isSlice(xt);
  if (cls->typer == &builtinTuple) // ranges, slices, literal lists, bound methods, closures are tuples inside only
    return xt.isTuple() && (xt.handle == 0 || xt.isNamedTuple()) && !types::isSlice(xt) && !types::isRange(xt) &&
           !types::isLiteralList(xt) && !types::isLiteralDict(xt) && !types::isBoundMethod(xt) && !xt.isClosure();
  if (cls->typer == &builtinStr && cls->variant == 0) return xt.isString();
  if (cls->typer == &builtinList) return xt.isList() || types::isLiteralList(xt);
  if (cls->typer == &builtinSetDict)
    return cls->variant == 0 ? xt.isSet()
                             : xt.isDict() || (types::isLiteralDict(xt) && types::literalDictView(xt) == types::LiteralDictView::Dict);
  return std::nullopt;
}

} // namespace

ExprPtr builtinLen(Use &u) {
  Typing &t = u.t;
  auto args = u.args(1, 1);
  if (Typing::isUnknown(args[0])) return u.unknown();
  const Type &at = args[0]->type;
  if (types::isRange(at) || (at.isOptional() && types::isRange(at.elems[0])))
    return rangeLength(t, t.unwrapOptional(std::move(args[0])), u.loc);
  refuseSlice(t, at, u.loc, "has no len()");
  if (at.isTuple()) { // its length is its type's; the tuple (or literal dict) still evaluated: 1 / x raises
    ExprPtr n = ir::makeConst(Type::int64(), u.loc, int64_t(at.elems.size()));
    if (isInert(*args[0])) return n;
    auto stmts = std::make_shared<ir::Block>();
    stmts->push_back(ir::makeEval(std::move(args[0]), u.loc));
    return t.seqExpr(std::move(stmts), std::move(n), u.loc);
  }
  if (at.isObject() || at.kind == Kind::Str || at.isOptional()) return objectLen(t, t.unwrapOptional(std::move(args[0])), u.loc);
  if (!at.isArray()) u.error("object of type " + at.str() + " has no len()");
  auto s = std::make_unique<ir::Expr>(ir::ExprOp::ArrayShape, Type::int64(), u.loc);
  s->ival = 0;
  s->args.push_back(std::move(args[0]));
  return s;
}

ExprPtr builtinAbs(Use &u) {
  Typing &t = u.t;
  Loc loc = u.loc;
  auto args = u.args(1, 1);
  if (Typing::isUnknown(args[0])) return u.unknown();
  args[0] = t.unwrapOptional(std::move(args[0])); // its value (TypeError when None), as in Numba
  Type at = args[0]->type;
  if (at.isInstance()) {
    if (auto r = specialMethod(t, "__abs__", std::move(args), loc)) return r;
    u.error("bad operand type for abs(): '" + at.text + "' (it defines no __abs__)");
  }
  if (at.isArray()) // elementwise, as np.abs
    return t.elementwise(std::move(args), [&t, loc](std::vector<ExprPtr> v) { return t.scalarUfunc(UfuncId::absolute, std::move(v), loc); }, loc);
  if (at.isDatetimeLike()) return t.scalarUfunc(UfuncId::absolute, std::move(args), loc); // timedelta64 (datetime.cpp)
  if (!at.isNumber()) u.notSupported("abs() of " + at.str() + " is not supported yet");
  if (at.isComplex()) return t.intrinsic(ir::Intrinsic::CAbs, Type::scalar(types::realOf(at.dtype)), std::move(args), loc);
  if (at.isBool()) {
    at = Type::int64();
    args[0] = ir::makeCast(std::move(args[0]), at);
  }
  if (at.isInt() && !types::isSigned(at.dtype)) return std::move(args[0]);
  return t.intrinsic(at.isInt() ? ir::Intrinsic::IAbs : ir::Intrinsic::Fabs, at, std::move(args), loc);
}

namespace {

// min/max of strings: the first least (greatest) one, as Python compares them; each
// argument evaluated once, in order.
ExprPtr stringMinMax(Typing &t, BuiltinReduce how, std::vector<ExprPtr> args, Loc loc) {
  auto stmts = std::make_shared<ir::Block>();
  int best = t.holdInTemp(toUnicode(t, std::move(args[0])), loc, *stmts);
  for (size_t i = 1; i < args.size(); ++i) {
    int next = t.holdInTemp(toUnicode(t, std::move(args[i])), loc, *stmts);
    auto better = t.compareOne(how == BuiltinReduce::Min ? ast::CmpOpKind::Lt : ast::CmpOpKind::Gt, t.load(next, loc),
                               t.load(best, loc), loc);
    auto sel = std::make_unique<ir::Expr>(ir::ExprOp::Select, Type::unicode(), loc);
    sel->args.push_back(std::move(better));
    sel->args.push_back(t.load(next, loc));
    sel->args.push_back(t.load(best, loc));
    stmts->push_back(t.assignVar(best, std::move(sel), loc));
  }
  return t.seqExpr(std::move(stmts), t.load(best, loc), loc);
}

} // namespace

// min(...) / max(...): of an iterable object, of a 1-D array (np.min), of a tuple's items,
// of several numbers or of several strings.
ExprPtr builtinMinMax(Use &u) {
  auto how = BuiltinReduce(u.variant());
  if (auto r = reduceObjects(u, how)) return r;
  Typing &t = u.t;
  const std::string &name = u.name;
  auto args = u.args(1, 64);
  if (anyUnknown(args)) return u.unknown();
  if (args.size() == 1) {
    if (args[0]->type.isArray()) {
      if (args[0]->type.ndim != 1) u.notSupported(name + "() over a " + std::to_string(args[0]->type.ndim) + "-D array is not supported");
      return asNumpyFunction(u);
    }
    refuseSlice(t, args[0]->type, u.loc, "is not iterable");
    if (types::isLiteralDict(args[0]->type)) args[0] = literalDictIterable(t, std::move(args[0]), u.loc); // min(d): of its keys
    if (!args[0]->type.isTuple()) u.error("'" + args[0]->type.str() + "' object is not iterable");
    if (args[0]->type.elems.empty()) { // ValueError when run, as Python (the tuple is still evaluated)
      auto stmts = std::make_shared<ir::Block>();
      auto keep = std::make_unique<ir::Stmt>(ir::StmtOp::Eval, u.loc);
      keep->exprs.push_back(std::move(args[0]));
      stmts->push_back(std::move(keep));
      auto r = std::make_unique<ir::Stmt>(ir::StmtOp::Raise, u.loc);
      r->exc = types::ExcKind::ValueError;
      r->text = name + "() arg is an empty sequence";
      stmts->push_back(std::move(r));
      return t.seqExpr(std::move(stmts), ir::makeConst(Type::int64(), u.loc, 0), u.loc);
    }
    args = tupleItems(t, args[0], u.loc, name + "()");
  }
  bool strings = true;
  for (auto &a : args) strings = strings && a->type.isString();
  if (strings) return stringMinMax(t, how, std::move(args), u.loc);
  auto bindings = t.bindOptionals(args, u.loc);
  if (std::any_of(args.begin(), args.end(), [](auto &a) { return a->type.isDatetimeLike(); }))
    return t.wrapBindings(std::move(bindings), datetimeMinMax(t, how == BuiltinReduce::Max, std::move(args), name, u.loc), u.loc);
  Type rt = Type::unknown();
  for (auto &a : args) {
    if (!a->type.isNumber() || a->type.isComplex())
      t.error(a->loc, name + "() arguments must be real numbers, got " + a->type.str());
    rt = Type::scalar(rt.isUnknown() ? a->type.dtype : types::promote(rt.dtype, a->type.dtype));
  }
  ExprPtr acc = ir::makeCast(std::move(args[0]), rt);
  for (size_t i = 1; i < args.size(); ++i) {
    std::vector<ExprPtr> pair;
    pair.push_back(std::move(acc));
    pair.push_back(ir::makeCast(std::move(args[i]), rt));
    acc = t.intrinsic(how == BuiltinReduce::Min ? ir::Intrinsic::Min : ir::Intrinsic::Max, rt, std::move(pair), u.loc);
  }
  return t.wrapBindings(std::move(bindings), std::move(acc), u.loc);
}

// sum(iterable[, start]): of an iterable object, with a start (builtin_sum.cpp), of a 1-D
// array (np.sum) or of a tuple's items.
ExprPtr builtinSum(Use &u) {
  if (auto r = reduceObjects(u, BuiltinReduce::Sum)) return r;
  if (u.call->args.size() == 2 || u.keyword("start")) return sumWithStart(u);
  Typing &t = u.t;
  auto args = u.args(1, 1);
  if (Typing::isUnknown(args[0])) return u.unknown();
  if (types::isLiteralDict(args[0]->type)) args[0] = literalDictIterable(t, std::move(args[0]), u.loc); // its keys, values...
  const Type at = args[0]->type;
  if (at.isArray()) {
    if (at.ndim != 1) u.notSupported("sum() over a " + std::to_string(at.ndim) + "-D array is not supported (use np.sum)");
    return asNumpyFunction(u);
  }
  refuseSlice(t, at, u.loc, "is not iterable");
  if (!at.isTuple()) u.error("'" + at.str() + "' object is not iterable");
  ExprPtr acc = ir::makeConst(Type::int64(), u.loc, 0);
  for (auto &item : tupleItems(t, args[0], u.loc, "sum()")) acc = t.binary(ast::BinOpKind::Add, std::move(acc), std::move(item), u.loc);
  return acc;
}

ExprPtr builtinAnyAll(Use &u) {
  if (auto r = reduceObjects(u, BuiltinReduce(u.variant()))) return r;
  if (u.call->args.size() == 1 && u.call->keywords.empty()) { // any(a) of a 1-D array
    auto v = u.t.expr(*u.call->args[0]);
    if (Typing::isUnknown(v)) return u.unknown();
    if (v->type.isArray()) {
      if (v->type.ndim != 1)
        u.error(u.name + "() of a " + std::to_string(v->type.ndim) + "-D array takes the truth value of each row, "
                "which is ambiguous: use np." + u.name + "(a) or a." + u.name + "()");
      bool any = BuiltinReduce(u.variant()) == BuiltinReduce::Any;
      return u.t.reduction(any ? ir::ReduceKind::Any : ir::ReduceKind::All, std::move(v), std::nullopt, u.loc);
    }
  }
  u.notSupported(u.name + "() of this argument is not supported (only of lists, sets, dicts, strings, ranges and generators)");
}

// int(), float(), complex(), bool() (variant: NumberConversion)
ExprPtr builtinNumber(Use &u) {
  Typing &t = u.t;
  const std::string &name = u.name;
  auto to = NumberConversion(u.variant());
  if (to == NumberConversion::Int || to == NumberConversion::Float)
    if (auto r = numberFromString(u, to)) return r;
  bool isComplex = to == NumberConversion::Complex;
  auto args = u.args(isComplex ? 1 : 0, isComplex ? 2 : 1);
  if (anyUnknown(args)) return u.unknown();
  if (args.empty()) {
    if (to == NumberConversion::Bool) return ir::makeConst(Type::boolean(), u.loc, 0);
    return ir::makeConst(to == NumberConversion::Int ? Type::int64() : Type::float64(), u.loc, 0);
  }
  if (args.size() == 1 && args[0]->type.isInstance()) return instanceConversion(t, to, name, std::move(args[0]), u.loc);
  // bool() of anything with a truth value (a container, a string, None or an optional);
  // the others take an optional's value (TypeError when None), as in Numba.
  if (to == NumberConversion::Bool) return t.truth(std::move(args[0]));
  for (auto &a : args) {
    a = intEnumValue(t.unwrapOptional(std::move(a))); // an IntEnum member: its int
    if (a->type.isDatetimeLike() && to == NumberConversion::Int) { // the count (Numba: datetimes of ns only)
      if (a->type.isDatetime() && a->type.dtype != DType::Datetimens)
        u.error("only datetime64[ns] can be converted by int(), not " + a->type.str());
      return ir::makeCast(std::move(a), Type::int64());
    }
    if (!a->type.isNumber()) u.notSupported(name + "() of " + a->type.str() + " is not supported");
  }
  if (to == NumberConversion::Int) {
    if (args[0]->type.isComplex()) u.error("int() can't convert complex");
    if (args[0]->type.isFloat()) return t.intrinsic(ir::Intrinsic::PyInt, Type::int64(), std::move(args), u.loc);
    return ir::makeCast(std::move(args[0]), Type::int64());
  }
  if (to == NumberConversion::Float) {
    if (args[0]->type.isComplex()) u.error("float() can't convert complex");
    return ir::makeCast(std::move(args[0]), Type::float64());
  }
  Type c = Type::scalar(DType::Complex128);
  if (args.size() == 1) return ir::makeCast(std::move(args[0]), c);
  for (auto &a : args)
    if (a->type.isComplex()) u.notSupported("complex() with complex parts is not supported");
  std::vector<ExprPtr> parts;
  parts.push_back(ir::makeCast(std::move(args[0]), Type::float64()));
  parts.push_back(ir::makeCast(std::move(args[1]), Type::float64()));
  return t.intrinsic(ir::Intrinsic::MakeComplex, c, std::move(parts), u.loc);
}

ExprPtr builtinRound(Use &u) {
  Typing &t = u.t;
  const ast::Call &e = *u.call;
  t.checkKeywords(e, {"ndigits"}, u.name);
  if (e.args.size() == 1 && u.keyword("ndigits")) return roundDigits(t, e.args[0].get(), u.keyword("ndigits"), e);
  auto args = t.positionalArgs(e, 1, 2, u.name);
  if (args.size() == 2) return roundDigits(t, e.args[0].get(), e.args[1].get(), e);
  if (Typing::isUnknown(args[0])) return u.unknown();
  args[0] = t.unwrapOptional(std::move(args[0])); // its value (TypeError when None), as in Numba
  const Type at = args[0]->type;
  if (at.isInt() || at.isBool()) return ir::makeCast(std::move(args[0]), Type::int64());
  if (!at.isFloat()) u.error("round() of " + at.str() + " is not supported");
  std::vector<ExprPtr> rounded;
  rounded.push_back(t.intrinsic(ir::Intrinsic::Rint, at, std::move(args), u.loc));
  return t.intrinsic(ir::Intrinsic::PyInt, Type::int64(), std::move(rounded), u.loc);
}

ExprPtr builtinPow(Use &u) {
  Typing &t = u.t;
  if (u.call->args.size() == 3) {
    t.requireHost(u.loc, "pow() with a modulus");
    auto args = u.args(3, 3);
    if (anyUnknown(args)) return u.unknown();
    auto bindings = t.bindOptionals(args, u.loc);
    for (auto &a : args)
      if (!a->type.isInt() && !a->type.isBool())
        t.error(a->loc, "pow() 3rd argument not allowed unless all arguments are integers (got " + a->type.str() + ")");
    for (auto &a : args) a = ir::makeCast(std::move(a), Type::int64());
    return t.wrapBindings(std::move(bindings), t.intrinsic(ir::Intrinsic::PowMod, Type::int64(), std::move(args), u.loc),
                          u.loc);
  }
  auto args = u.args(2, 2);
  auto bindings = t.bindOptionals(args, u.loc);
  return t.wrapBindings(std::move(bindings), t.binary(ast::BinOpKind::Pow, std::move(args[0]), std::move(args[1]), u.loc),
                        u.loc);
}

ExprPtr builtinDivmod(Use &u) {
  Typing &t = u.t;
  Loc loc = u.loc;
  auto args = u.args(2, 2);
  if (anyUnknown(args)) return u.unknown();
  auto bindings = t.bindOperands(args, loc); // each operand evaluated once
  for (auto &a : args) a = t.unwrapOptional(std::move(a)); // once both are evaluated, as in Python
  for (auto &a : args)
    if (!a->type.isNumber() || a->type.isComplex())
      t.error(a->loc, "divmod() arguments must be real numbers, not " + a->type.str());
  auto q = t.binary(ast::BinOpKind::FloorDiv, ir::clone(*args[0]), ir::clone(*args[1]), loc);
  if (q->op == ir::ExprOp::Binary && q->ival == 0) q->ival = 3; // its ZeroDivisionError says 'float divmod()'
  auto r = t.binary(ast::BinOpKind::Mod, std::move(args[0]), std::move(args[1]), loc);
  auto tup = std::make_unique<ir::Expr>(ir::ExprOp::TupleMake, Type::tuple({q->type, r->type}), loc);
  tup->args.push_back(std::move(q));
  tup->args.push_back(std::move(r));
  return t.wrapBindings(std::move(bindings), std::move(tup), loc);
}

// isinstance(x, cls): decided at compile time from x's type.
ExprPtr builtinIsinstance(Use &u) {
  Typing &t = u.t;
  const ast::Call &e = *u.call;
  t.checkKeywords(e, {}, "isinstance");
  if (e.args.size() != 2) u.error("isinstance expected 2 arguments");
  auto x = t.expr(*e.args[0]);
  if (Typing::isUnknown(x)) return u.unknown();
  const Type xt = x->type;
  std::vector<const ast::Expr *> classes;
  if (auto *tu = e.args[1]->as<ast::Tuple>())
    for (auto &c : tu->elts) classes.push_back(c.get());
  else classes.push_back(e.args[1].get());
  bool result = false;
  for (auto *c : classes) {
    std::optional<bool> match;
    if (auto *n = c->as<ast::Name>(); n && !t.localVariable(n->id)) {
      const GlobalValue &g = t.global(n->id);
      if (g.kind == GlobalValue::Kind::Builtin) match = isBuiltinInstance(g, xt);
      else if (g.kind == GlobalValue::Kind::NamedTupleClass) // the exact class, not a subclass
        match = xt.isNamedTuple() && xt.handle == g.handle;
    }
    if (!match) {
      if (auto *a = c->as<ast::Attribute>()) { // np.ndarray
        auto base = t.expr(*a->value);
        if (base->type.kind == Kind::Module && base->type.module == types::ModuleId::Numpy)
          if (const Entry *cls = findEntry(Receiver::Numpy, Member::Attribute, a->attr); cls && cls->typer == &numpyNdarrayClass)
            match = xt.isArray();
      }
    }
    if (!match) {
      auto v = t.expr(*c);
      if (v->type.kind == Kind::DTypeObj) match = xt.isScalar(v->type.dtype);
      else if (v->type.kind == Kind::ExcClass) match = false;
      else if (v->type.kind == Kind::ClassRef) match = xt.isInstance() && xt.handle == v->type.handle; // a jitclass
    }
    if (!match)
      t.notSupported(c->loc, "isinstance() is only supported with int, float, complex, bool, tuple, str, np.ndarray "
                             "and NumPy scalar types");
    result |= *match;
  }
  return evaluatedThen(t, std::move(x), ir::makeConst(Type::boolean(), u.loc, result), u.loc);
}

// next(it) / next(it, default) (variant 0) and iter(x) (1). A generator is its own
// iterator; iter() of a list, tuple, array, range, string, set or dict is the library's
// generator over its items (internal.iterate), so next() and for-loops resume it.
ExprPtr builtinNextIter(Use &u) {
  const std::string &name = u.name;
  auto args = u.args(1, u.variant() == 0 ? 2 : 1);
  for (auto &a : args)
    if (Typing::isUnknown(a)) return u.unknown();
  if (u.variant() == 1) {
    if (args[0]->type.isGenerator()) return std::move(args[0]);
    const Type it = args[0]->type;
    if (it.isNumber() || it.isNone() || it.isOptional())
      u.error("'" + it.str() + "' object is not iterable");
    if (!u.t.gpu())
      if (auto r = u.t.libraryCallTyped("internal.iterate", "iter", std::move(args), u.loc)) return r;
    u.notSupported("iter() of " + it.str() + " is not supported here");
  }
  if (!args[0]->type.isGenerator())
    u.error(name + "(): '" + args[0]->type.str() + "' object is not an iterator (call iter() on it first)");
  if (args.size() == 2) return generatorNextOr(u.t, std::move(args[0]), std::move(args[1]), u.loc);
  return generatorNext(u.t, std::move(args[0]), u.loc);
}

ExprPtr builtinLiterally(Use &u) {
  auto args = u.args(1, 1);
  if (Typing::isUnknown(args[0])) return u.unknown();
  if (args[0]->op != ir::ExprOp::Const && args[0]->type.kind != Kind::Str)
    u.error("literally(): the value (" + args[0]->type.str() +
            ") is not known at compile time here; mahou compiles a function once per argument "
            "type, not once per argument value");
  return std::move(args[0]);
}

ExprPtr builtinTuple(Use &u) { u.notSupported("the builtin 'tuple' is not supported yet"); }

ExprPtr builtinLoopOnly(Use &u) { u.notSupported(u.name + "() is only supported as the iterable of a for loop"); }

ExprPtr builtinPrint(Use &u) { u.notSupported("print() is only supported as a statement"); }

// print(...) as a statement: its values' text, as Python prints it (in a kernel: vprintf).
bool printStatement(Use &u, ir::Block &out) {
  Typing &t = u.t;
  const ast::Call &e = *u.call;
  if (t.gpu()) {
    out.push_back(kernelPrint(t, e, u.loc));
    return true;
  }
  for (auto &k : e.keywords) t.notSupported(k.loc, "print() keyword arguments are not supported yet");
  auto st = std::make_unique<ir::Stmt>(ir::StmtOp::Print, u.loc);
  for (auto &a : e.args) {
    if (a->kind == ast::ExprKind::Starred) t.notSupported(a->loc, "print(*args) is not supported");
    auto v = t.expr(*a);
    if (!Typing::isUnknown(v) && !v->type.isNumber() && !v->type.isArray() && !v->type.isString() && !v->type.isNone() &&
        !v->type.isOptional())
      v = printableText(t, std::move(v), a->loc);
    st->exprs.push_back(std::move(v));
  }
  out.push_back(std::move(st));
  return true;
}

// mahou.get_thread_id() / get_num_threads() (variant: the intrinsic); host code only.
ExprPtr mahouThreadQuery(Use &u) {
  if (u.t.gpu()) u.notSupported("mahou." + u.name + " cannot be called in compiled code");
  u.args(0, 0);
  return u.t.intrinsic(ir::Intrinsic(u.variant()), Type::int64(), {}, u.loc);
}

} // namespace mahou::sema
