// math.frexp and math.ldexp (LLVM's frexp/ldexp), and round(x, n) with an n known only
// at run time. math.gcd/lcm/comb/perm/isclose/modf are written in Python
// (mahou/_math_impls.py) and compiled through mahou.extending.
#include "sema/typers.h"

namespace mahou::sema {

namespace {

ExprPtr mathFrexpLdexp(Use &u, bool ldexp) {
  Typing &t = u.t;
  const ast::Call &e = *u.call;
  const std::string &name = u.name;
  t.requireHost(e.loc, "math." + name + "()");
  t.checkKeywords(e, {}, "math." + name);
  auto args = t.positionalArgs(e, ldexp ? 2 : 1, ldexp ? 2 : 1, "math." + name);
  for (auto &a : args)
    if (Typing::isUnknown(a)) return t.unknown(e.loc);
  if (!args[0]->type.isNumber() || args[0]->type.isComplex())
    t.error(args[0]->loc, "math." + name + "() needs a real number, got " + args[0]->type.str());
  ExprPtr x = ir::makeCast(std::move(args[0]), Type::float64());
  if (ldexp) {
    if (!args[1]->type.isInt() && !args[1]->type.isBool())
      t.error(args[1]->loc, "math.ldexp() needs an integer exponent, got " + args[1]->type.str());
    std::vector<ExprPtr> a;
    a.push_back(std::move(x));
    a.push_back(ir::makeCast(std::move(args[1]), Type::int64()));
    return t.intrinsic(ir::Intrinsic::Ldexp, Type::float64(), std::move(a), e.loc);
  }
  return t.bindOnce(std::move(x), [&](const std::function<ExprPtr()> &v) -> ExprPtr {
    std::vector<ExprPtr> m, k;
    m.push_back(v());
    k.push_back(v());
    auto tup = std::make_unique<ir::Expr>(ir::ExprOp::TupleMake, Type::tuple({Type::float64(), Type::int64()}), e.loc);
    tup->args.push_back(t.intrinsic(ir::Intrinsic::FrexpMantissa, Type::float64(), std::move(m), e.loc));
    tup->args.push_back(t.intrinsic(ir::Intrinsic::FrexpExponent, Type::int64(), std::move(k), e.loc));
    return tup;
  });
}

} // namespace

ExprPtr mathFrexp(Use &u) { return mathFrexpLdexp(u, false); }
ExprPtr mathLdexp(Use &u) { return mathFrexpLdexp(u, true); }

// round(x, n), n an integer known at run time. Floats: as with a constant n (rounded
// half to even at the n-th decimal on x * 10**n; x itself where that overflows);
// integers: unchanged for n >= 0, else rounded half to even to a multiple of 10**-n.
ExprPtr roundVariableDigits(Typing &t, ExprPtr x, ExprPtr n, Loc loc) {
  if (!n->type.isInt() && !n->type.isBool()) t.error(n->loc, "round() ndigits must be an integer, not " + n->type.str());
  n = ir::makeCast(std::move(n), Type::int64());
  const Type xt = x->type;
  if (!xt.isFloat() && !xt.isInt() && !xt.isBool()) t.error(loc, "round() of " + xt.str() + " is not supported");
  auto i64 = [&](int64_t v) { return ir::makeConst(Type::int64(), loc, v); };
  return t.bindOnce(std::move(x), [&](const std::function<ExprPtr()> &xv) {
    return t.bindOnce(std::move(n), [&](const std::function<ExprPtr()> &nv) -> ExprPtr {
      auto nonNegative = [&] { return t.compareOne(ast::CmpOpKind::GtE, nv(), i64(0), loc); };
      if (xt.isFloat()) {
        auto rint = [&](ExprPtr v) {
          std::vector<ExprPtr> a;
          a.push_back(std::move(v));
          return t.intrinsic(ir::Intrinsic::Rint, xt, std::move(a), loc);
        };
        auto power = [&] { // 10.0 ** |n| in x's type
          std::vector<ExprPtr> a;
          a.push_back(ir::makeConst(Type::float64(), loc, 0, 10.0));
          std::vector<ExprPtr> absn;
          absn.push_back(nv());
          a.push_back(ir::makeCast(t.intrinsic(ir::Intrinsic::IAbs, Type::int64(), std::move(absn), loc), Type::float64()));
          return ir::makeCast(t.intrinsic(ir::Intrinsic::Pow, Type::float64(), std::move(a), loc), xt);
        };
        return t.bindOnce(power(), [&](const std::function<ExprPtr()> &p) -> ExprPtr {
          auto up = t.binary(ast::BinOpKind::Mult, xv(), p(), loc);
          return t.bindOnce(std::move(up), [&](const std::function<ExprPtr()> &y) -> ExprPtr {
            std::vector<ExprPtr> yi;
            yi.push_back(y());
            auto finite = t.intrinsic(ir::Intrinsic::IsFinite, Type::boolean(), std::move(yi), loc);
            auto positive = ir::makeSelect(std::move(finite), t.binary(ast::BinOpKind::Div, rint(y()), p(), loc), xv(), loc);
            std::vector<ExprPtr> pi;
            pi.push_back(p());
            auto huge = t.intrinsic(ir::Intrinsic::IsInf, Type::boolean(), std::move(pi), loc); // 0 with x's sign
            auto negative = ir::makeSelect(std::move(huge), t.binary(ast::BinOpKind::Mult, xv(), ir::makeConst(xt, loc, 0, 0.0), loc),
                                   t.binary(ast::BinOpKind::Mult, rint(t.binary(ast::BinOpKind::Div, xv(), p(), loc)), p(), loc), loc);
            std::vector<ExprPtr> xi;
            xi.push_back(xv());
            auto xFinite = t.intrinsic(ir::Intrinsic::IsFinite, Type::boolean(), std::move(xi), loc); // inf, nan: x
            return ir::makeSelect(std::move(xFinite), ir::makeSelect(nonNegative(), std::move(positive), std::move(negative), loc), xv(),
                          loc);
          });
        });
      }
      // Integers: q = x // p, r = x - q * p (0 <= r < p); ties go to the even q.
      Type it = xt.isBool() ? Type::int64() : xt;
      auto xi = [&] { return ir::makeCast(xv(), Type::int64()); };
      auto kDigits = t.binary(ast::BinOpKind::Sub, i64(0), nv(), loc);
      return t.bindOnce(std::move(kDigits), [&](const std::function<ExprPtr()> &k) -> ExprPtr {
        // 10**19 does not fit (the result is 0 then); for n >= 0 the result is x: p = 1 there.
        auto outside = ir::makeBoolOp(true, t.compareOne(ast::CmpOpKind::Gt, k(), i64(18), loc),
                                      t.compareOne(ast::CmpOpKind::Lt, k(), i64(0), loc), loc);
        auto p = t.binary(ast::BinOpKind::Pow, i64(10), ir::makeSelect(std::move(outside), i64(0), k(), loc), loc);
        return t.bindOnce(std::move(p), [&](const std::function<ExprPtr()> &pv) -> ExprPtr {
          auto q = t.binary(ast::BinOpKind::FloorDiv, xi(), pv(), loc);
          return t.bindOnce(std::move(q), [&](const std::function<ExprPtr()> &qv) -> ExprPtr {
            auto twiceR = t.binary(ast::BinOpKind::Mult, i64(2),
                                 t.binary(ast::BinOpKind::Sub, xi(), t.binary(ast::BinOpKind::Mult, qv(), pv(), loc), loc), loc);
            return t.bindOnce(std::move(twiceR), [&](const std::function<ExprPtr()> &r2) -> ExprPtr {
              auto odd = t.compareOne(ast::CmpOpKind::Eq, t.binary(ast::BinOpKind::BitAnd, qv(), i64(1), loc), i64(1), loc);
              auto roundUp = t.compareOne(ast::CmpOpKind::Gt, r2(), pv(), loc);
              auto tieUp = ir::makeBoolOp(false, t.compareOne(ast::CmpOpKind::Eq, r2(), pv(), loc), std::move(odd), loc);
              auto up = ir::makeBoolOp(true, std::move(roundUp), std::move(tieUp), loc);
              auto q2 = ir::makeSelect(std::move(up), t.binary(ast::BinOpKind::Add, qv(), i64(1), loc), qv(), loc);
              auto rounded = t.binary(ast::BinOpKind::Mult, std::move(q2), pv(), loc);
              auto farResult = t.compareOne(ast::CmpOpKind::Gt, k(), i64(18), loc);
              auto negative = ir::makeSelect(std::move(farResult), i64(0), std::move(rounded), loc);
              return ir::makeCast(ir::makeSelect(nonNegative(), xi(), std::move(negative), loc), it);
            });
          });
        });
      });
    });
  });
}

} // namespace mahou::sema
