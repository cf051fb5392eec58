// Typing of the cmath module on complex numbers (arguments widen to complex128):
// sqrt/exp/log and the trigonometric and hyperbolic functions call the runtime's
// complex functions (C99's, as CPython's up to an ulp or so; in kernels, the library's
// device_cmath for the trigonometric and hyperbolic ones); phase, polar, rect, isnan,
// isinf and isfinite are formulas over the real and imaginary parts.
#include "sema/typers.h"

namespace mahou::sema {

namespace {

ExprPtr part(Typing &t, ir::Intrinsic which, ExprPtr z, Loc loc) {
  std::vector<ExprPtr> a;
  a.push_back(std::move(z));
  return t.intrinsic(which, Type::float64(), std::move(a), loc);
}

ExprPtr call1(Typing &t, ir::Intrinsic id, Type rt, ExprPtr x, Loc loc) {
  std::vector<ExprPtr> a;
  a.push_back(std::move(x));
  return t.intrinsic(id, std::move(rt), std::move(a), loc);
}

ExprPtr call2(Typing &t, ir::Intrinsic id, Type rt, ExprPtr x, ExprPtr y, Loc loc) {
  std::vector<ExprPtr> a;
  a.push_back(std::move(x));
  a.push_back(std::move(y));
  return t.intrinsic(id, std::move(rt), std::move(a), loc);
}

} // namespace

// cmath.rect(r, phi)
ExprPtr cmathRect(Use &u) {
  Typing &t = u.t;
  Loc loc = u.loc;
  const Type c128 = Type::scalar(DType::Complex128);
  auto args = u.args(2, 2, {}, "cmath.rect");
  for (auto &a : args) {
    if (Typing::isUnknown(a)) return t.unknown(loc);
    if (!a->type.isNumber() || a->type.isComplex()) t.error(a->loc, "cmath.rect() arguments must be real numbers");
    a = ir::makeCast(std::move(a), Type::float64());
  }
  auto r2 = duplicate(t, *args[0], "cmath.rect()");
  auto phi2 = duplicate(t, *args[1], "cmath.rect()");
  auto re = t.binary(ast::BinOpKind::Mult, std::move(args[0]),
                     call1(t, ir::Intrinsic::Cos, Type::float64(), std::move(args[1]), loc), loc);
  auto im = t.binary(ast::BinOpKind::Mult, std::move(r2), call1(t, ir::Intrinsic::Sin, Type::float64(), std::move(phi2), loc), loc);
  return call2(t, ir::Intrinsic::MakeComplex, c128, std::move(re), std::move(im), loc);
}

// A function of python/mahou/_library/device_cmath.py: cmath's functions and complex **
// in real math for kernels, where the host runtime's functions do not exist.
namespace {
ExprPtr deviceLibraryCall(Typing &t, const std::string &module, const std::string &shown, std::vector<ExprPtr> args,
                          Loc loc) {
  const GlobalValue &g = t.global("@" + module);
  if (g.kind != GlobalValue::Kind::Function) internalError("the library's " + module + " is missing");
  CallArgs call;
  call.positional = std::move(args);
  return t.callCompiled(g.handle, shown, std::move(call), loc);
}
} // namespace

ExprPtr deviceCmathCall(Typing &t, const std::string &name, std::vector<ExprPtr> args, Loc loc) {
  return deviceLibraryCall(t, "device_cmath." + name, "cmath." + name, std::move(args), loc);
}

// A function of python/mahou/_library/device_npcomplex.py: NumPy's ufuncs of a complex
// number (C99's special values) in real math for kernels.
ExprPtr deviceNpComplexCall(Typing &t, const std::string &name, std::vector<ExprPtr> args, Loc loc) {
  return deviceLibraryCall(t, "device_npcomplex." + name, "np." + name, std::move(args), loc);
}

// cmath.sin(z), cmath.acosh(z), ... (variant: the runtime's intrinsic) on complex128; in
// kernels the library's functions of the same name.
ExprPtr cmathRuntime(Use &u) {
  Typing &t = u.t;
  std::string fname = u.qualified();
  const Type c128 = Type::scalar(DType::Complex128);
  auto args = u.args(1, 1, {}, fname);
  if (Typing::isUnknown(args[0])) return t.unknown(u.loc);
  if (!args[0]->type.isNumber()) t.error(u.loc, fname + "() needs a number, not " + args[0]->type.str());
  ExprPtr z = ir::makeCast(std::move(args[0]), c128);
  if (t.gpu()) {
    std::vector<ExprPtr> one;
    one.push_back(std::move(z));
    return deviceCmathCall(t, std::string(u.name), std::move(one), u.loc);
  }
  return call1(t, ir::Intrinsic(u.variant()), c128, std::move(z), u.loc);
}

// cmath.<name>(z) of one number (variant: CmathFunction), computed on complex128.
ExprPtr cmathFunction(Use &u) {
  Typing &t = u.t;
  auto fn = CmathFunction(u.variant());
  std::string fname = u.qualified();
  const Type c128 = Type::scalar(DType::Complex128);
  Loc loc = u.loc;
  auto args = u.args(1, fn == CmathFunction::Log ? 2 : 1, {}, fname);
  for (auto &a : args) {
    if (Typing::isUnknown(a)) return t.unknown(loc);
    if (!a->type.isNumber()) t.error(a->loc, fname + "() needs a number, not " + a->type.str());
  }
  ExprPtr z = ir::makeCast(std::move(args[0]), c128);
  switch (fn) {
  case CmathFunction::Sqrt: return call1(t, ir::Intrinsic::CSqrt, c128, std::move(z), loc);
  case CmathFunction::Exp: return call1(t, ir::Intrinsic::CExp, c128, std::move(z), loc);
  case CmathFunction::Log: {
    auto l = call1(t, ir::Intrinsic::CLog, c128, std::move(z), loc);
    if (args.size() == 1) return l;
    // cmath.log(z, base): log(z) / log(base), a complex division, as CPython computes it
    auto lb = call1(t, ir::Intrinsic::CLog, c128, ir::makeCast(std::move(args[1]), c128), loc);
    return t.binary(ast::BinOpKind::Div, std::move(l), std::move(lb), loc);
  }
  case CmathFunction::Log10: {
    auto l = call1(t, ir::Intrinsic::CLog, c128, std::move(z), loc);
    return t.binary(ast::BinOpKind::Div, std::move(l), ir::makeConst(Type::float64(), loc, 0, 2.302585092994045684), loc);
  }
  default: break;
  }
  auto z2 = duplicate(t, *z, fname + "()");
  auto re = part(t, ir::Intrinsic::Real, std::move(z), loc);
  auto im = part(t, ir::Intrinsic::Imag, std::move(z2), loc);
  switch (fn) {
  case CmathFunction::IsNan:
  case CmathFunction::IsInf: {
    auto id = fn == CmathFunction::IsNan ? ir::Intrinsic::IsNan : ir::Intrinsic::IsInf;
    return ir::makeShortCircuit(true, call1(t, id, Type::boolean(), std::move(re), loc),
                                call1(t, id, Type::boolean(), std::move(im), loc), loc);
  }
  case CmathFunction::IsFinite:
    return ir::makeShortCircuit(false, call1(t, ir::Intrinsic::IsFinite, Type::boolean(), std::move(re), loc),
                                call1(t, ir::Intrinsic::IsFinite, Type::boolean(), std::move(im), loc), loc);
  case CmathFunction::Phase: return call2(t, ir::Intrinsic::Atan2, Type::float64(), std::move(im), std::move(re), loc);
  default: break;
  }
  // polar: (abs(z), phase(z))
  auto re2 = ir::clone(*re), im2 = ir::clone(*im);
  auto r = call2(t, ir::Intrinsic::Hypot, Type::float64(), std::move(re), std::move(im), loc);
  auto ph = call2(t, ir::Intrinsic::Atan2, Type::float64(), std::move(im2), std::move(re2), loc);
  std::vector<ExprPtr> elems;
  elems.push_back(std::move(r));
  elems.push_back(std::move(ph));
  auto tup = std::make_unique<ir::Expr>(ir::ExprOp::TupleMake, Type::tuple({Type::float64(), Type::float64()}), loc);
  tup->args = std::move(elems);
  return tup;
}

} // namespace mahou::sema
