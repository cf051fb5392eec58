// Typing of datetime64 / timedelta64 operations (Numba's npdatetime rules): the unit of a
// result, the conversions of the operands to it, and the combinations refused as NumPy does.
#include "sema/datetime.h"
#include "sema/objects.h"

#include "mahou/datetime_units.h"

namespace mahou::sema {

namespace {

int unitOf(const Type &t) { return types::datetimeUnit(t.dtype); }

Type datetimeType(bool timedelta, int unit) { return Type::scalar(*types::datetimeDType(timedelta, unit)); }

ExprPtr make(ir::DatetimeOp op, Type result, ExprPtr a, ExprPtr b, Loc loc) {
  auto e = std::make_unique<ir::Expr>(ir::ExprOp::Datetime, std::move(result), loc);
  e->sub = int(op);
  e->args.push_back(std::move(a));
  if (b) e->args.push_back(std::move(b));
  return e;
}

[[noreturn]] void refuse(Typing &t, const char *sym, const Type &a, const Type &b, Loc loc) {
  t.error(loc, std::string("unsupported operand types for ") + sym + ": " + a.str() + " and " + b.str());
}

[[noreturn]] void refuseUnits(Typing &t, const char *sym, const Type &a, const Type &b, Loc loc) {
  t.error(loc, std::string("cannot combine ") + a.str() + " and " + b.str() + " with " + sym +
                   ": NumPy has no exact conversion between their units (years and months against days and finer)");
}

// The common unit of two timedeltas, or the refusal.
int timedeltaUnit(Typing &t, const char *sym, const Type &a, const Type &b, Loc loc) {
  auto u = types::commonTimedeltaUnit(unitOf(a), unitOf(b));
  if (!u) refuseUnits(t, sym, a, b, loc);
  return *u;
}

// Both operands reach the unit `target` exactly (NumPy refuses a factor that overflows).
void requireExact(Typing &t, const char *sym, const Type &a, const Type &b, const Type &ta, const Type &tb, Loc loc) {
  if (!types::convertsExactly(a.dtype, ta.dtype) || !types::convertsExactly(b.dtype, tb.dtype)) refuseUnits(t, sym, a, b, loc);
}

// A number operand of timedelta * / //: int64 (integers, as Numba) or float64 (floats).
ExprPtr numberOperand(Typing &t, ExprPtr v, const char *sym, const Type &td, Loc loc) {
  const Type &n = v->type;
  if (n.isInt()) return ir::makeCast(std::move(v), Type::int64());
  if (n.isFloat()) return ir::makeCast(std::move(v), Type::float64());
  refuse(t, sym, td, n, loc);
}

} // namespace

ExprPtr datetimeBinary(Typing &t, ast::BinOpKind op, ExprPtr &lhs, ExprPtr &rhs, Loc loc) {
  const Type a = lhs->type, b = rhs->type;
  if (!a.isDatetimeLike() && !b.isDatetimeLike()) return nullptr;
  const char *sym = ast::binOpSymbol(op);
  using ir::DatetimeOp;
  switch (op) {
  case ast::BinOpKind::Add:
  case ast::BinOpKind::Sub: {
    DatetimeOp dop = op == ast::BinOpKind::Add ? DatetimeOp::Add : DatetimeOp::Sub;
    if (a.isTimedelta() && b.isTimedelta()) {
      Type r = datetimeType(true, timedeltaUnit(t, sym, a, b, loc));
      return make(dop, r, ir::makeCast(std::move(lhs), r), ir::makeCast(std::move(rhs), r), loc);
    }
    if (a.isDatetime() && b.isDatetime() && op == ast::BinOpKind::Sub) { // → timedelta of the finer unit
      int u = types::bestUnit(unitOf(a), unitOf(b));
      Type dt = datetimeType(false, u);
      requireExact(t, sym, a, b, dt, dt, loc);
      return make(dop, datetimeType(true, u), ir::makeCast(std::move(lhs), dt), ir::makeCast(std::move(rhs), dt), loc);
    }
    // datetime ± timedelta, timedelta + datetime
    bool swapped = a.isTimedelta() && b.isDatetime() && op == ast::BinOpKind::Add;
    if (!(a.isDatetime() && b.isTimedelta()) && !swapped) refuse(t, sym, a, b, loc);
    ExprPtr &dtE = swapped ? rhs : lhs, &tdE = swapped ? lhs : rhs;
    auto u = types::combineDatetimeTimedelta(unitOf(dtE->type), unitOf(tdE->type));
    if (!u) refuseUnits(t, sym, a, b, loc);
    // td + dt evaluates td first (Python's order): the operands keep their order when
    // neither has effects; otherwise the timedelta is bound first.
    if (swapped && !(t.isPureValue(*lhs) && t.isPureValue(*rhs))) {
      std::vector<ExprPtr> ops;
      ops.push_back(std::move(lhs));
      ops.push_back(std::move(rhs));
      auto bindings = t.bindOperands(ops, loc);
      ExprPtr l = std::move(ops[0]), r = std::move(ops[1]);
      ExprPtr e = datetimeBinary(t, op, r, l, loc); // dt + td of the bound values
      return t.wrapBindings(std::move(bindings), std::move(e), loc);
    }
    Type r = datetimeType(false, *u);
    requireExact(t, sym, dtE->type, tdE->type, r, datetimeType(true, *u), loc);
    return make(dop, r, ir::makeCast(std::move(dtE), r), ir::makeCast(std::move(tdE), datetimeType(true, *u)), loc);
  }
  case ast::BinOpKind::Mult: {
    if (a.isTimedelta() && !b.isDatetimeLike()) {
      ExprPtr n = numberOperand(t, std::move(rhs), sym, a, loc);
      DatetimeOp dop = n->type.isFloat() ? DatetimeOp::MulFloat : DatetimeOp::MulInt;
      return make(dop, a, std::move(lhs), std::move(n), loc);
    }
    if (b.isTimedelta() && !a.isDatetimeLike()) { // n * td: n first, as Python evaluates
      if (!(t.isPureValue(*lhs) && t.isPureValue(*rhs))) {
        std::vector<ExprPtr> ops;
        ops.push_back(std::move(lhs));
        ops.push_back(std::move(rhs));
        auto bindings = t.bindOperands(ops, loc);
        ExprPtr l = std::move(ops[0]), r = std::move(ops[1]);
        ExprPtr e = datetimeBinary(t, op, r, l, loc);
        return t.wrapBindings(std::move(bindings), std::move(e), loc);
      }
      ExprPtr n = numberOperand(t, std::move(lhs), sym, b, loc);
      DatetimeOp dop = n->type.isFloat() ? DatetimeOp::MulFloat : DatetimeOp::MulInt;
      return make(dop, b, std::move(rhs), std::move(n), loc);
    }
    refuse(t, sym, a, b, loc);
  }
  case ast::BinOpKind::Div:
  case ast::BinOpKind::FloorDiv: {
    if (!a.isTimedelta()) refuse(t, sym, a, b, loc);
    if (b.isTimedelta()) {
      Type c = datetimeType(true, timedeltaUnit(t, sym, a, b, loc));
      bool floor = op == ast::BinOpKind::FloorDiv;
      return make(floor ? DatetimeOp::FloorDivTimedelta : DatetimeOp::DivTimedelta, floor ? Type::int64() : Type::float64(),
                  ir::makeCast(std::move(lhs), c), ir::makeCast(std::move(rhs), c), loc);
    }
    if (b.isDatetimeLike()) refuse(t, sym, a, b, loc);
    ExprPtr n = numberOperand(t, std::move(rhs), sym, a, loc);
    DatetimeOp dop = n->type.isFloat() ? DatetimeOp::DivFloat : DatetimeOp::DivInt;
    return make(dop, a, std::move(lhs), std::move(n), loc);
  }
  default: refuse(t, sym, a, b, loc);
  }
}

ExprPtr datetimeCompare(Typing &t, ast::CmpOpKind op, ExprPtr &lhs, ExprPtr &rhs, Loc loc) {
  const Type a = lhs->type, b = rhs->type;
  if (!a.isDatetimeLike() && !b.isDatetimeLike()) return nullptr;
  const char *sym = ast::cmpOpSymbol(op);
  int u;
  if (a.isDatetime() && b.isDatetime()) u = types::bestUnit(unitOf(a), unitOf(b)); // every pair converts
  else if (a.isTimedelta() && b.isTimedelta()) u = timedeltaUnit(t, sym, a, b, loc);
  else t.error(loc, std::string("cannot compare ") + a.str() + " and " + b.str() + " with " + sym);
  std::optional<ir::CmpOp> known = irCompare(op);
  if (!known) t.error(loc, std::string("cannot compare ") + a.str() + " and " + b.str() + " with " + sym);
  ir::CmpOp cop = *known;
  Type c = datetimeType(a.isTimedelta(), u);
  requireExact(t, sym, a, b, c, c, loc);
  auto e = std::make_unique<ir::Expr>(ir::ExprOp::Compare, Type::boolean(), loc);
  e->sub = int(cop);
  e->args.push_back(ir::makeCast(std::move(lhs), c));
  e->args.push_back(ir::makeCast(std::move(rhs), c));
  return e;
}

ExprPtr datetimeUnary(Typing &t, ir::DatetimeOp op, ExprPtr v, const std::string &what, Loc loc) {
  const Type a = v->type;
  if (op == ir::DatetimeOp::IsNat) {
    if (!a.isDatetimeLike())
      t.error(loc, what + " is only defined for datetime64 and timedelta64, not " + a.str());
    return make(op, Type::boolean(), std::move(v), nullptr, loc);
  }
  if (!a.isTimedelta()) t.error(loc, "bad operand type for " + what + ": " + a.str());
  return make(op, a, std::move(v), nullptr, loc);
}

ExprPtr datetimeExtreme(Typing &t, ir::DatetimeOp op, ExprPtr a, ExprPtr b, const std::string &what, Loc loc) {
  const Type x = a->type, y = b->type;
  int u;
  if (x.isDatetime() && y.isDatetime()) u = types::bestUnit(unitOf(x), unitOf(y));
  else if (x.isTimedelta() && y.isTimedelta()) u = timedeltaUnit(t, what.c_str(), x, y, loc);
  else t.error(loc, what + " needs two datetime64 or two timedelta64 values, got " + x.str() + " and " + y.str());
  Type c = datetimeType(x.isTimedelta(), u);
  requireExact(t, what.c_str(), x, y, c, c, loc);
  return make(op, c, ir::makeCast(std::move(a), c), ir::makeCast(std::move(b), c), loc);
}

ExprPtr datetimeMinMax(Typing &t, bool max, std::vector<ExprPtr> args, const std::string &what, Loc loc) {
  const Type first = args[0]->type;
  int u = unitOf(first);
  for (auto &a : args) {
    const Type &x = a->type;
    if (!x.isDatetimeLike() || x.isDatetime() != first.isDatetime())
      t.error(a->loc, what + "() needs datetime64 values or timedelta64 values alike, got " + first.str() + " and " + x.str());
    if (first.isDatetime()) u = types::bestUnit(u, unitOf(x));
    else if (auto c = types::commonTimedeltaUnit(u, unitOf(x))) u = *c;
    else refuseUnits(t, what.c_str(), first, x, loc);
  }
  Type c = datetimeType(first.isTimedelta(), u);
  for (auto &a : args)
    if (!types::convertsExactly(a->type.dtype, c.dtype)) refuseUnits(t, what.c_str(), first, a->type, loc);
  ExprPtr acc = ir::makeCast(std::move(args[0]), c);
  for (size_t i = 1; i < args.size(); ++i) {
    ExprPtr next = ir::makeCast(std::move(args[i]), c);
    acc = t.bindOnce(std::move(acc), [&](const std::function<ExprPtr()> &best) {
      return t.bindOnce(std::move(next), [&](const std::function<ExprPtr()> &x) {
        auto s = std::make_unique<ir::Expr>(ir::ExprOp::Select, c, loc);
        s->args.push_back(t.compareOne(max ? ast::CmpOpKind::Gt : ast::CmpOpKind::Lt, x(), best(), loc));
        s->args.push_back(x());
        s->args.push_back(best());
        return ExprPtr(std::move(s));
      });
    });
  }
  return acc;
}

} // namespace mahou::sema
