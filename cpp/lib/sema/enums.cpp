// enum.Enum and enum.IntEnum members (Numba's EnumMember, IntEnumMember): globals,
// arguments and values of a type per class, represented by their value. `==`, `!=`, `is`
// compare members (members of other classes and other values are unequal: Python's
// Enum equality); `.value` and `.name`; an IntEnum member is also its integer value in
// arithmetic, ordering comparisons, truth and conversions.
#include "sema/typers.h"

#include <bit>

namespace mahou::sema {

Type enumMemberType(const GlobalValue &g) {
  std::vector<int64_t> values;
  bool floats = !g.elems.empty() && g.elems[0].kind == GlobalValue::Kind::Float;
  for (const GlobalValue &v : g.elems) values.push_back(floats ? std::bit_cast<int64_t>(v.f) : v.i);
  return Type::enumMember(floats ? Type::float64() : Type::int64(), g.handle, g.s, g.fields, std::move(values), g.b);
}

ExprPtr enumConstant(const GlobalValue &g, Loc loc) {
  Type t = enumMemberType(g);
  const GlobalValue &v = g.elems.at(size_t(g.i));
  return ir::makeConst(t, loc, v.i, v.f);
}

ExprPtr enumValue(ExprPtr e) {
  if (Typing::isUnknown(e) || !e->type.isEnumMember()) return e;
  Type value = e->type.elems[0];
  if (e->op == ir::ExprOp::Const) return ir::makeConst(value, e->loc, e->ival, e->fval);
  return ir::makeCast(std::move(e), value);
}

ExprPtr intEnumValue(ExprPtr e) {
  if (Typing::isUnknown(e) || !e->type.isEnumMember() || !e->type.typed) return e;
  return enumValue(std::move(e));
}

namespace {

// `a op b` whose result is known when compiling; the operands are still evaluated.
ExprPtr knownComparison(Typing &t, bool result, ExprPtr lhs, ExprPtr rhs, Loc loc) {
  auto stmts = std::make_shared<ir::Block>();
  for (ExprPtr *x : {&lhs, &rhs})
    if ((*x)->op != ir::ExprOp::Const && (*x)->op != ir::ExprOp::LoadVar) stmts->push_back(ir::makeEval(std::move(*x), loc));
  auto c = ir::makeConst(Type::boolean(), loc, result);
  if (stmts->empty()) return c;
  return t.seqExpr(std::move(stmts), std::move(c), loc);
}

} // namespace

ExprPtr enumCompare(Typing &t, ast::CmpOpKind op, ExprPtr &lhs, ExprPtr &rhs, Loc loc) {
  const Type a = lhs->type, b = rhs->type;
  if (!a.isEnumMember() && !b.isEnumMember()) return nullptr;
  using Op = ast::CmpOpKind;
  bool equality = op == Op::Eq || op == Op::NotEq || op == Op::Is || op == Op::IsNot;
  bool negate = op == Op::NotEq || op == Op::IsNot;
  bool intA = a.isEnumMember() && a.typed, intB = b.isEnumMember() && b.typed;
  if (a == b && equality) // members of one class: the same member when their values are
    return t.compareOne(negate ? Op::NotEq : Op::Eq, enumValue(std::move(lhs)), enumValue(std::move(rhs)), loc);
  if (op == Op::Is || op == Op::IsNot) // different classes, or not a member: never the same object
    return knownComparison(t, negate, std::move(lhs), std::move(rhs), loc);
  // An optional number against an IntEnum member: compared as its value (the general
  // optional rule: TypeError when None), never the silent False of unlike objects.
  auto optionalNumber = [](const Type &t) { return t.isOptional() && !t.elems.empty() && t.elems[0].isNumber(); };
  if ((optionalNumber(a) && intB) || (optionalNumber(b) && intA)) return nullptr;
  if ((intA || !a.isEnumMember()) && (intB || !b.isEnumMember()) && !(a.isOptional() || b.isOptional()))
    return t.compareOne(op, intEnumValue(std::move(lhs)), intEnumValue(std::move(rhs)), loc); // IntEnum: an int
  if (op == Op::Eq || op == Op::NotEq) // an Enum member equals only itself
    return knownComparison(t, negate, std::move(lhs), std::move(rhs), loc);
  if (op == Op::In || op == Op::NotIn) return nullptr;
  t.error(loc, std::string("'") + ast::cmpOpSymbol(op) + "' is not supported between " + a.str() + " and " + b.str() +
                 " (Enum members are not ordered)");
}

// member.value (numbers.def)
ExprPtr enumValueAttribute(Use &u) { return enumValue(std::move(u.self)); }

// member.name: its name, picked by its value
ExprPtr enumNameAttribute(Use &u) {
  const Type t = u.self->type;
  if (u.self->op == ir::ExprOp::Const) {
    for (size_t i = 0; i < t.offsets.size(); ++i) {
      int64_t bits = t.elems[0].isFloat() ? std::bit_cast<int64_t>(u.self->fval) : u.self->ival;
      if (t.offsets[i] == bits) return ir::makeStrConst(t.fields[i], u.loc);
    }
  }
  return u.t.bindOnce(enumValue(std::move(u.self)), [&](const std::function<ExprPtr()> &value) -> ExprPtr {
    ExprPtr acc = toUnicode(u.t, ir::makeStrConst(t.fields.back(), u.loc));
    for (int i = int(t.fields.size()) - 2; i >= 0; --i) {
      ExprPtr v = t.elems[0].isFloat() ? ir::makeConst(t.elems[0], u.loc, 0, std::bit_cast<double>(t.offsets[size_t(i)]))
                                       : ir::makeConst(t.elems[0], u.loc, t.offsets[size_t(i)]);
      auto sel = std::make_unique<ir::Expr>(ir::ExprOp::Select, Type::unicode(), u.loc);
      sel->args.push_back(u.t.compareOne(ast::CmpOpKind::Eq, value(), std::move(v), u.loc));
      sel->args.push_back(toUnicode(u.t, ir::makeStrConst(t.fields[size_t(i)], u.loc)));
      sel->args.push_back(std::move(acc));
      acc = std::move(sel);
    }
    return acc;
  });
}

} // namespace mahou::sema
