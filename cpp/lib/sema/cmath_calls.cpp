// Typing of the cmath module on complex numbers (arguments widen to complex128):
// sqrt/exp/log call the runtime's complex functions; phase, polar, rect, isnan,
// isinf and isfinite are formulas over the real and imaginary parts.
#include "typer.h"

namespace mahou::sema {

namespace {

ExprPtr part(FunctionTyper &t, ir::Intrinsic which, ExprPtr z, Loc loc) {
  std::vector<ExprPtr> a;
  a.push_back(std::move(z));
  return t.intrinsic(which, Type::float64(), std::move(a), loc);
}

ExprPtr call1(FunctionTyper &t, ir::Intrinsic id, Type rt, ExprPtr x, Loc loc) {
  std::vector<ExprPtr> a;
  a.push_back(std::move(x));
  return t.intrinsic(id, std::move(rt), std::move(a), loc);
}

ExprPtr call2(FunctionTyper &t, ir::Intrinsic id, Type rt, ExprPtr x, ExprPtr y, Loc loc) {
  std::vector<ExprPtr> a;
  a.push_back(std::move(x));
  a.push_back(std::move(y));
  return t.intrinsic(id, std::move(rt), std::move(a), loc);
}

} // namespace

ExprPtr FunctionTyper::cmathCall(const std::string &name, const ast::Call &e) {
  const Type c128 = Type::scalar(DType::Complex128);
  Loc loc = e.loc;
  checkKeywords(e, {}, "cmath." + name);
  if (name == "rect") {
    auto args = positionalArgs(e, 2, 2, "cmath.rect");
    for (auto &a : args) {
      if (isUnknown(a)) return unknown(loc);
      if (!a->type.isNumber() || a->type.isComplex()) error(a->loc, "cmath.rect() arguments must be real numbers");
      a = ir::makeCast(std::move(a), Type::float64());
    }
    auto r2 = duplicate(*this, *args[0], "cmath.rect()");
    auto phi2 = duplicate(*this, *args[1], "cmath.rect()");
    auto re = binary(ast::BinOpKind::Mult, std::move(args[0]),
                     call1(*this, ir::Intrinsic::Cos, Type::float64(), std::move(args[1]), loc), loc);
    auto im = binary(ast::BinOpKind::Mult, std::move(r2), call1(*this, ir::Intrinsic::Sin, Type::float64(), std::move(phi2), loc), loc);
    return call2(*this, ir::Intrinsic::MakeComplex, c128, std::move(re), std::move(im), loc);
  }
  bool known = name == "sqrt" || name == "exp" || name == "log" || name == "phase" || name == "polar" ||
               name == "isnan" || name == "isinf" || name == "isfinite" || name == "log10";
  if (!known) notSupported(loc, "cmath." + name + " is not supported yet");
  auto args = positionalArgs(e, 1, 1, "cmath." + name);
  if (isUnknown(args[0])) return unknown(loc);
  if (!args[0]->type.isNumber()) error(loc, "cmath." + name + "() needs a number, not " + args[0]->type.str());
  ExprPtr z = ir::makeCast(std::move(args[0]), c128);
  if (name == "sqrt") return call1(*this, ir::Intrinsic::CSqrt, c128, std::move(z), loc);
  if (name == "exp") return call1(*this, ir::Intrinsic::CExp, c128, std::move(z), loc);
  if (name == "log") return call1(*this, ir::Intrinsic::CLog, c128, std::move(z), loc);
  if (name == "log10") {
    auto l = call1(*this, ir::Intrinsic::CLog, c128, std::move(z), loc);
    return binary(ast::BinOpKind::Div, std::move(l), ir::makeConst(Type::float64(), loc, 0, 2.302585092994045684), loc);
  }
  auto z2 = duplicate(*this, *z, "cmath." + name + "()");
  auto re = part(*this, ir::Intrinsic::Real, std::move(z), loc);
  auto im = part(*this, ir::Intrinsic::Imag, std::move(z2), loc);
  if (name == "isnan" || name == "isinf")
    return ir::makeShortCircuit(true, call1(*this, name == "isnan" ? ir::Intrinsic::IsNan : ir::Intrinsic::IsInf, Type::boolean(), std::move(re), loc),
                  call1(*this, name == "isnan" ? ir::Intrinsic::IsNan : ir::Intrinsic::IsInf, Type::boolean(), std::move(im), loc),
                  loc);
  if (name == "isfinite")
    return ir::makeShortCircuit(false, call1(*this, ir::Intrinsic::IsFinite, Type::boolean(), std::move(re), loc),
                  call1(*this, ir::Intrinsic::IsFinite, Type::boolean(), std::move(im), loc), loc);
  if (name == "phase") return call2(*this, ir::Intrinsic::Atan2, Type::float64(), std::move(im), std::move(re), loc);
  // polar: (abs(z), phase(z))
  auto re2 = ir::clone(*re), im2 = ir::clone(*im);
  auto r = call2(*this, ir::Intrinsic::Hypot, Type::float64(), std::move(re), std::move(im), loc);
  auto ph = call2(*this, ir::Intrinsic::Atan2, Type::float64(), std::move(im2), std::move(re2), loc);
  std::vector<ExprPtr> elems;
  elems.push_back(std::move(r));
  elems.push_back(std::move(ph));
  auto tup = std::make_unique<ir::Expr>(ir::ExprOp::TupleMake, Type::tuple({Type::float64(), Type::float64()}), loc);
  tup->args = std::move(elems);
  return tup;
}

} // namespace mahou::sema
