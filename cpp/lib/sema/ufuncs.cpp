// Typing of NumPy ufuncs on scalars and array elements (ufuncs.def): NumPy's loop
// selection (the first loop every input casts to safely; Python scalars weak, NEP 50)
// and the element computation of each ufunc in typed IR.
#include "typer.h"
#include "sema/datetime.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <sstream>

namespace mahou::sema {

namespace {

// The element computations the table's rows name.
enum class Kernel {
  Sqrt,
  Exp,
  Exp2,
  Expm1,
  Log,
  Log2,
  Log10,
  Log1p,
  Sin,
  Cos,
  Tan,
  Asin,
  Acos,
  Atan,
  Sinh,
  Cosh,
  Tanh,
  Asinh,
  Acosh,
  Atanh,
  Rint,
  Cbrt,
  Fabs,
  Floor,
  Ceil,
  Trunc,
  Deg2Rad,
  Rad2Deg,
  Spacing,
  SignBit,
  IsNan,
  IsInf,
  IsFinite,
  Absolute,
  Negative,
  Positive,
  Sign,
  Square,
  Reciprocal,
  Conjugate,
  LogicalNot,
  Invert,
  Minimum,
  Maximum,
  Fmin,
  Fmax,
  Power,
  Fmod,
  Atan2,
  Hypot,
  Copysign,
  NextAfter,
  LogAddExp,
  LogAddExp2,
  Heaviside,
  BitAnd,
  BitOr,
  BitXor,
  LeftShift,
  RightShift,
  LogicalAnd,
  LogicalOr,
  LogicalXor,
  Gcd,
  Lcm,
  Add,
  Subtract,
  Multiply,
  TrueDivide,
  FloorDivide,
  Remainder,
  Greater,
  GreaterEqual,
  Less,
  LessEqual,
  Equal,
  NotEqual,
  IsNat,
};

struct Ufunc {
  const char *name;
  int nin;
  const char *loops;
  Kernel kernel;
};

// In kernels, the library's function (python/mahou/_library/device_npcomplex.py, named as
// the ufunc) that computes a ufunc's complex loop in real math, where the host calls its
// runtime; null where the loop is lowered in place on the device too (sqrt, exp, log and
// log10 in codegen; abs, conj, the operators, ...).
const char *deviceComplexFunction(Kernel k) {
  switch (k) {
  case Kernel::Exp2: return "exp2";
  case Kernel::Expm1: return "expm1";
  case Kernel::Log2: return "log2";
  case Kernel::Log1p: return "log1p";
  case Kernel::Sin: return "sin";
  case Kernel::Cos: return "cos";
  case Kernel::Tan: return "tan";
  case Kernel::Asin: return "arcsin";
  case Kernel::Acos: return "arccos";
  case Kernel::Atan: return "arctan";
  case Kernel::Sinh: return "sinh";
  case Kernel::Cosh: return "cosh";
  case Kernel::Tanh: return "tanh";
  case Kernel::Asinh: return "arcsinh";
  case Kernel::Acosh: return "arccosh";
  case Kernel::Atanh: return "arctanh";
  case Kernel::Sign: return "sign";
  default: return nullptr;
  }
}

constexpr Ufunc kUfuncs[] = {
#define MAHOU_UFUNC(name, nin, loops, kernel) {#name, nin, loops, Kernel::kernel},
#include "ufuncs.def"
#undef MAHOU_UFUNC
};


std::optional<DType> fromChar(char c) {
  switch (c) {
  case '?': return DType::Bool;
  case 'b': return DType::Int8;
  case 'B': return DType::UInt8;
  case 'h': return DType::Int16;
  case 'H': return DType::UInt16;
  case 'i': return DType::Int32;
  case 'I': return DType::UInt32;
  case 'l': case 'q': return DType::Int64;
  case 'L': case 'Q': return DType::UInt64;
  case 'e': return DType::Float16;
  case 'f': return DType::Float32;
  case 'd': return DType::Float64;
  case 'F': return DType::Complex64;
  case 'D': return DType::Complex128;
  default: return std::nullopt;
  }
}

// NumPy's can_cast(from, to, 'safe').
bool canCastSafely(DType from, DType to) {
  using types::DTypeClass;
  if (from == to || from == DType::Bool) return true;
  DTypeClass cf = types::dtypeClass(from), ct = types::dtypeClass(to);
  int bf = types::dtypeBytes(from), bt = types::dtypeBytes(to);
  switch (cf) {
  case DTypeClass::Bool: return true;
  case DTypeClass::SignedInt:
    if (ct == DTypeClass::SignedInt) return bt >= bf;
    if (ct == DTypeClass::Float) return bt > bf;  // int8 → float16, int16 → float32, int32/64 → float64
    if (ct == DTypeClass::Complex) return bt / 2 > bf || (bf == 8 && bt == 16);
    return false;
  case DTypeClass::UnsignedInt:
    if (ct == DTypeClass::UnsignedInt) return bt >= bf;
    if (ct == DTypeClass::SignedInt) return bt > bf;
    if (ct == DTypeClass::Float) return bt > bf;
    if (ct == DTypeClass::Complex) return bt / 2 > bf || (bf == 8 && bt == 16);
    return false;
  case DTypeClass::Float:
    if (ct == DTypeClass::Float) return bt >= bf;
    if (ct == DTypeClass::Complex) return bt / 2 >= bf;
    return false;
  case DTypeClass::Complex: return ct == DTypeClass::Complex && bt >= bf;
  case DTypeClass::Datetime:
  case DTypeClass::Timedelta: return false; // datetime ufuncs are typed by datetime.cpp
  }
  return false;
}

// int64 → float64 is 'safe' in NumPy (bytes 8 → 8); the rule above needs it.
bool canCast(DType from, DType to) {
  if (types::isInteger(from) && types::dtypeBytes(from) == 8 && to == DType::Float64) return true;
  if (types::isInteger(from) && types::dtypeBytes(from) == 8 && to == DType::Complex128) return true;
  return canCastSafely(from, to);
}

struct Loop {
  std::vector<DType> in;
  DType out;
};

std::optional<Loop> parseLoop(const std::string &text) {
  auto arrow = text.find("->");
  if (arrow == std::string::npos || arrow + 3 != text.size()) return std::nullopt;
  Loop l;
  for (size_t i = 0; i < arrow; ++i) {
    auto d = fromChar(text[i]);
    if (!d) return std::nullopt;
    l.in.push_back(*d);
  }
  auto o = fromChar(text[arrow + 2]);
  if (!o) return std::nullopt;
  l.out = *o;
  return l;
}

// The first of `loops` all `inputs` cast to safely; float16 loops only for float16 inputs.
std::optional<Loop> selectLoop(const char *loops, const std::vector<DType> &inputs) {
  bool half = false;
  for (DType d : inputs) half |= d == DType::Float16;
  std::istringstream words(loops);
  std::string w;
  while (words >> w) {
    auto l = parseLoop(w);
    if (!l || l->in.size() != inputs.size()) continue;
    bool ok = true;
    for (size_t i = 0; i < inputs.size() && ok; ++i) {
      if (l->in[i] == DType::Float16 && !half) ok = false;
      else ok = canCast(inputs[i], l->in[i]);
    }
    if (ok) return l;
  }
  return std::nullopt;
}

bool isPythonScalarType(DType d) {
  return d == DType::Bool || d == DType::Int64 || d == DType::Float64 || d == DType::Complex128;
}

// The Python operator a ufunc is on scalars (np.add: +), and the comparison (np.less: <).
std::optional<ast::BinOpKind> operatorOf(Kernel k) {
  switch (k) {
  case Kernel::Add: return ast::BinOpKind::Add;
  case Kernel::Subtract: return ast::BinOpKind::Sub;
  case Kernel::Multiply: return ast::BinOpKind::Mult;
  case Kernel::TrueDivide: return ast::BinOpKind::Div;
  case Kernel::FloorDivide: return ast::BinOpKind::FloorDiv;
  case Kernel::Remainder: return ast::BinOpKind::Mod;
  default: return std::nullopt;
  }
}

std::optional<ast::CmpOpKind> comparisonOf(Kernel k) {
  switch (k) {
  case Kernel::Greater: return ast::CmpOpKind::Gt;
  case Kernel::GreaterEqual: return ast::CmpOpKind::GtE;
  case Kernel::Less: return ast::CmpOpKind::Lt;
  case Kernel::LessEqual: return ast::CmpOpKind::LtE;
  case Kernel::Equal: return ast::CmpOpKind::Eq;
  case Kernel::NotEqual: return ast::CmpOpKind::NotEq;
  default: return std::nullopt;
  }
}


} // namespace

// A ufunc of datetime64 / timedelta64 values: the ufuncs Numba lists for them
// (the operators' typing, or datetime.cpp's).
ExprPtr FunctionTyper::datetimeUfunc(UfuncId ufunc, std::vector<ExprPtr> args, Loc loc) {
  const Ufunc *u = &kUfuncs[size_t(ufunc)];
  std::string fname = std::string("np.") + u->name + "()";
  auto op2 = [&](ast::BinOpKind k) { return binary(k, std::move(args[0]), std::move(args[1]), loc); };
  auto cmp = [&](ast::CmpOpKind k) { return compareOne(k, std::move(args[0]), std::move(args[1]), loc); };
  auto extreme = [&](ir::DatetimeOp op) { return datetimeExtreme(*this, op, std::move(args[0]), std::move(args[1]), fname, loc); };
  if (auto k = operatorOf(u->kernel); k && u->kernel != Kernel::Remainder) return op2(*k); // no % of timedeltas
  if (auto k = comparisonOf(u->kernel)) return cmp(*k);
  switch (u->kernel) {
  case Kernel::Negative: return datetimeUnary(*this, ir::DatetimeOp::Neg, std::move(args[0]), fname, loc);
  case Kernel::Positive:
    if (!args[0]->type.isTimedelta()) error(loc, fname + " is not supported for " + args[0]->type.str());
    return std::move(args[0]);
  case Kernel::Absolute: return datetimeUnary(*this, ir::DatetimeOp::Abs, std::move(args[0]), fname, loc);
  case Kernel::Sign: return datetimeUnary(*this, ir::DatetimeOp::Sign, std::move(args[0]), fname, loc);
  case Kernel::IsNat: return datetimeUnary(*this, ir::DatetimeOp::IsNat, std::move(args[0]), fname, loc);
  case Kernel::Maximum: return extreme(ir::DatetimeOp::Maximum);
  case Kernel::Minimum: return extreme(ir::DatetimeOp::Minimum);
  case Kernel::Fmax: return extreme(ir::DatetimeOp::FMax);
  case Kernel::Fmin: return extreme(ir::DatetimeOp::FMin);
  default: break;
  }
  std::string types;
  for (auto &a : args) types += (types.empty() ? "" : ", ") + a->type.str();
  error(loc, "ufunc '" + std::string(u->name) + "' not supported for the input types (" + types + ")");
}

int ufuncInputs(UfuncId ufunc) { return kUfuncs[size_t(ufunc)].nin; }
const char *ufuncName(UfuncId ufunc) { return kUfuncs[size_t(ufunc)].name; }

ExprPtr FunctionTyper::scalarUfunc(UfuncId ufunc, std::vector<ExprPtr> args, Loc loc) {
  const Ufunc *u = &kUfuncs[size_t(ufunc)];
  const std::string name = u->name;
  std::string fname = "np." + name;
  for (auto &a : args)
    if (isUnknown(a)) return unknown(loc);
  if (u->kernel == Kernel::IsNat || std::any_of(args.begin(), args.end(), [](auto &a) { return a->type.isDatetimeLike(); }))
    return datetimeUfunc(ufunc, std::move(args), loc);
  for (auto &a : args) {
    if (!a->type.isNumber()) error(a->loc, fname + "() needs numbers, got " + a->type.str());
  }
  // The operands' dtypes for the loop search: outside array expressions (which did it
  // already), Python scalars are weak next to the other operands (NEP 50).
  std::vector<DType> dts;
  for (auto &a : args) dts.push_back(a->type.dtype);
  if (elementwiseDepth_ == 0 && args.size() > 1) {
    bool haveStrong = false;
    DType strong = DType::Bool;
    for (DType d : dts)
      if (!isPythonScalarType(d)) {
        strong = haveStrong ? types::promote(strong, d) : d;
        haveStrong = true;
      }
    if (haveStrong)
      for (DType &d : dts)
        if (isPythonScalarType(d) && types::kindRank(d) <= types::kindRank(strong)) d = strong;
  }
  // The operators take the weak scalars in the other operands' type; loops convert each
  // value straight to the loop's type.
  auto weakToStrong = [&] {
    for (size_t i = 0; i < args.size(); ++i)
      if (dts[i] != args[i]->type.dtype) args[i] = ir::makeCast(std::move(args[i]), Type::scalar(dts[i]));
  };
  auto op2 = [&](ast::BinOpKind k) {
    weakToStrong();
    auto e = binary(k, std::move(args[0]), std::move(args[1]), loc);
    // A ufunc is NumPy's loop on scalars too: a division by zero is inf, nan or 0 and a
    // negative shift count shifts everything out, with no exception (as Numba's ufuncs).
    if (e->op == ir::ExprOp::Binary) e->ival = 1;
    return e;
  };
  auto cmp = [&](ast::CmpOpKind k) -> ExprPtr {
    weakToStrong();
    bool ordering = k == ast::CmpOpKind::Lt || k == ast::CmpOpKind::LtE || k == ast::CmpOpKind::Gt || k == ast::CmpOpKind::GtE;
    if (ordering && (args[0]->type.isComplex() || args[1]->type.isComplex())) {
      // NumPy 2 orders complex numbers lexicographically (Python's operators refuse them)
      Type common = Type::scalar(types::promote(args[0]->type.dtype, args[1]->type.dtype));
      for (auto &a : args) a = ir::makeCast(std::move(a), common);
      ir::Intrinsic id = k == ast::CmpOpKind::Lt    ? ir::Intrinsic::CLess
                         : k == ast::CmpOpKind::LtE ? ir::Intrinsic::CLessEqual
                         : k == ast::CmpOpKind::Gt  ? ir::Intrinsic::CGreater
                                                    : ir::Intrinsic::CGreaterEqual;
      return intrinsic(id, Type::boolean(), std::move(args), loc);
    }
    return compareOne(k, std::move(args[0]), std::move(args[1]), loc);
  };
  if (auto k = operatorOf(u->kernel)) return op2(*k);
  if (auto k = comparisonOf(u->kernel)) return cmp(*k);
  auto loop = selectLoop(u->loops, dts);
  if (!loop) {
    std::string types;
    for (auto &a : args) types += (types.empty() ? "" : ", ") + a->type.str();
    error(loc, "ufunc '" + name + "' not supported for the input types (" + types + ")");
  }
  for (size_t i = 0; i < args.size(); ++i) args[i] = ir::makeCast(std::move(args[i]), Type::scalar(loop->in[i]));
  const Type in = Type::scalar(loop->in[0]);
  const Type out = Type::scalar(loop->out);
  auto call = [&](ir::Intrinsic id, const Type &t) { return intrinsic(id, t, std::move(args), loc); };
  auto one = [&](const Type &t) { return ir::makeConst(t, loc, 1, 1.0); };
  auto floatConst = [&](double v) { return ir::makeConst(in, loc, int64_t(v), v); };
  bool isFloat = in.isFloat(), isComplex = in.isComplex();
  if (isComplex && gpu()) {
    // Kernels: the host runtime's complex functions are not on the device; the library's,
    // in real math, on complex128 (as the host widens complex64), narrowed to the loop's type.
    const char *lib = deviceComplexFunction(u->kernel);
    bool power = u->kernel == Kernel::Power;
    if (lib || power) {
      if (elementwiseDepth_ > 0)
        notSupported(loc, "np." + name + "() of complex arrays in CUDA kernels is not supported (of complex "
                          "scalars it is)");
      const Type c128 = Type::scalar(DType::Complex128);
      for (auto &a : args) a = ir::makeCast(std::move(a), power ? in : c128);
      // np.power: complex ** as the host (Numba's: CPython's algorithm, a square in the type)
      ExprPtr r = power ? deviceCmathCall(*this, "power", std::move(args), loc)
                        : deviceNpComplexCall(*this, lib, std::move(args), loc);
      return ir::makeCast(std::move(r), out);
    }
  }
  switch (u->kernel) {
  case Kernel::Sqrt:
    if (isComplex) return call(ir::Intrinsic::CSqrt, out);
    return call(ir::Intrinsic::Sqrt, out);
  case Kernel::Exp:
    if (isComplex) return call(ir::Intrinsic::CExp, out);
    return call(ir::Intrinsic::Exp, out);
  case Kernel::Log:
    if (isComplex) return call(ir::Intrinsic::CLog, out);
    return call(ir::Intrinsic::Log, out);
  case Kernel::Exp2: return call(isComplex ? ir::Intrinsic::CExp2 : ir::Intrinsic::Exp2, out);
  case Kernel::Expm1: return call(isComplex ? ir::Intrinsic::CExpm1 : ir::Intrinsic::Expm1, out);
  case Kernel::Log2: return call(isComplex ? ir::Intrinsic::CLog2 : ir::Intrinsic::Log2, out);
  case Kernel::Log10: return call(isComplex ? ir::Intrinsic::CLog10 : ir::Intrinsic::Log10, out);
  case Kernel::Log1p: return call(isComplex ? ir::Intrinsic::CLog1p : ir::Intrinsic::Log1p, out);
  case Kernel::Sin: return call(isComplex ? ir::Intrinsic::CSin : ir::Intrinsic::Sin, out);
  case Kernel::Cos: return call(isComplex ? ir::Intrinsic::CCos : ir::Intrinsic::Cos, out);
  case Kernel::Tan: return call(isComplex ? ir::Intrinsic::CTan : ir::Intrinsic::Tan, out);
  case Kernel::Asin: return call(isComplex ? ir::Intrinsic::CAsin : ir::Intrinsic::Asin, out);
  case Kernel::Acos: return call(isComplex ? ir::Intrinsic::CAcos : ir::Intrinsic::Acos, out);
  case Kernel::Atan: return call(isComplex ? ir::Intrinsic::CAtan : ir::Intrinsic::Atan, out);
  case Kernel::Sinh: return call(isComplex ? ir::Intrinsic::CSinh : ir::Intrinsic::Sinh, out);
  case Kernel::Cosh: return call(isComplex ? ir::Intrinsic::CCosh : ir::Intrinsic::Cosh, out);
  case Kernel::Tanh: return call(isComplex ? ir::Intrinsic::CTanh : ir::Intrinsic::Tanh, out);
  case Kernel::Asinh: return call(isComplex ? ir::Intrinsic::CAsinh : ir::Intrinsic::Asinh, out);
  case Kernel::Acosh: return call(isComplex ? ir::Intrinsic::CAcosh : ir::Intrinsic::Acosh, out);
  case Kernel::Atanh: return call(isComplex ? ir::Intrinsic::CAtanh : ir::Intrinsic::Atanh, out);
  case Kernel::Rint: return call(ir::Intrinsic::Rint, out);
  case Kernel::Cbrt: return call(ir::Intrinsic::Cbrt, out);
  case Kernel::Fabs: return call(ir::Intrinsic::Fabs, out);
  case Kernel::Floor:
  case Kernel::Ceil:
  case Kernel::Trunc:
    if (!isFloat) return std::move(args[0]); // integers and bools: themselves (NumPy 2)
    return call(u->kernel == Kernel::Floor ? ir::Intrinsic::Floor : u->kernel == Kernel::Ceil ? ir::Intrinsic::Ceil
                                                                                              : ir::Intrinsic::Trunc,
                out);
  case Kernel::Deg2Rad: return binary(ast::BinOpKind::Mult, std::move(args[0]), floatConst(M_PI / 180.0), loc);
  case Kernel::Rad2Deg: return binary(ast::BinOpKind::Mult, std::move(args[0]), floatConst(180.0 / M_PI), loc);
  case Kernel::IsNan:
  case Kernel::IsInf:
  case Kernel::IsFinite: {
    ir::Intrinsic id = u->kernel == Kernel::IsNan ? ir::Intrinsic::IsNan
                       : u->kernel == Kernel::IsInf ? ir::Intrinsic::IsInf : ir::Intrinsic::IsFinite;
    if (!isFloat && !isComplex) return ir::makeConst(Type::boolean(), loc, id == ir::Intrinsic::IsFinite);
    if (isFloat) return call(id, Type::boolean());
    // complex: of the parts (nan or inf if either part is; finite if both are)
    std::vector<ExprPtr> z;
    z.push_back(std::move(args[0]));
    auto bound = bindOperands(z, loc);
    Type part = Type::scalar(types::realOf(in.dtype));
    auto partOf = [&](ir::Intrinsic which) {
      std::vector<ExprPtr> x;
      x.push_back(ir::clone(*z[0]));
      std::vector<ExprPtr> p;
      p.push_back(intrinsic(which, part, std::move(x), loc));
      return intrinsic(id, Type::boolean(), std::move(p), loc);
    };
    auto sc = std::make_unique<ir::Expr>(ir::ExprOp::ShortCircuit, Type::boolean(), loc);
    sc->sub = id == ir::Intrinsic::IsFinite ? 0 : 1;
    sc->args.push_back(partOf(ir::Intrinsic::Real));
    sc->args.push_back(partOf(ir::Intrinsic::Imag));
    return wrapBindings(std::move(bound), std::move(sc), loc);
  }
  case Kernel::SignBit: {
    // copysign(1, x) < 0: true for -0.0 and negative NaNs too
    std::vector<ExprPtr> c;
    c.push_back(floatConst(1.0));
    c.push_back(std::move(args[0]));
    return compareOne(ast::CmpOpKind::Lt, intrinsic(ir::Intrinsic::Copysign, in, std::move(c), loc), floatConst(0.0), loc);
  }
  case Kernel::Spacing: {
    // NumPy: nextafter(x, copysign(inf, x)) - x; nan for infinities
    auto bound = bindOperands(args, loc);
    std::vector<ExprPtr> cs;
    cs.push_back(floatConst(INFINITY));
    cs.push_back(ir::clone(*args[0]));
    std::vector<ExprPtr> na;
    na.push_back(ir::clone(*args[0]));
    na.push_back(intrinsic(ir::Intrinsic::Copysign, in, std::move(cs), loc));
    auto next = intrinsic(ir::Intrinsic::NextAfter, in, std::move(na), loc);
    auto diff = binary(ast::BinOpKind::Sub, std::move(next), ir::clone(*args[0]), loc);
    std::vector<ExprPtr> inf;
    inf.push_back(ir::clone(*args[0]));
    auto s = std::make_unique<ir::Expr>(ir::ExprOp::Select, in, loc);
    s->args.push_back(intrinsic(ir::Intrinsic::IsInf, Type::boolean(), std::move(inf), loc));
    s->args.push_back(floatConst(NAN));
    s->args.push_back(std::move(diff));
    return wrapBindings(std::move(bound), std::move(s), loc);
  }
  case Kernel::Absolute:
    if (isComplex) return call(ir::Intrinsic::CAbs, out);
    if (in.isBool() || (in.isInt() && !types::isSigned(in.dtype))) return std::move(args[0]);
    return call(in.isInt() ? ir::Intrinsic::IAbs : ir::Intrinsic::Fabs, out);
  case Kernel::Negative: {
    auto e = std::make_unique<ir::Expr>(ir::ExprOp::Unary, in, loc);
    e->sub = int(ir::UnaryOp::Neg);
    e->args.push_back(std::move(args[0]));
    return e;
  }
  case Kernel::Positive: return std::move(args[0]);
  case Kernel::Sign:
    if (isComplex) return call(ir::Intrinsic::CSign, out);
    return call(ir::Intrinsic::Sign, out);
  case Kernel::Square: {
    auto bound = bindOperands(args, loc);
    auto e = binary(ast::BinOpKind::Mult, ir::clone(*args[0]), ir::clone(*args[0]), loc);
    return wrapBindings(std::move(bound), ir::makeCast(std::move(e), out), loc);
  }
  case Kernel::Reciprocal: {
    if (isComplex) return call(ir::Intrinsic::CReciprocal, out);
    if (isFloat) {
      auto e = binary(ast::BinOpKind::Div, one(in), std::move(args[0]), loc);
      if (e->op == ir::ExprOp::Binary) e->ival = 1; // NumPy: 1/0 is inf, no exception
      return e;
    }
    // integers: 1/x truncated: 1 for 1, -1 for -1, 0 otherwise; for 0, the x86 conversion
    // of 1.0/0 NumPy and Numba do: the minimum of int32 and int64, 0 for the other types
    auto bound = bindOperands(args, loc);
    auto isOne = compareOne(ast::CmpOpKind::Eq, ir::clone(*args[0]), one(in), loc);
    ExprPtr result = ir::makeConst(in, loc, 0);
    int bytes = types::dtypeBytes(in.dtype);
    if (types::isSigned(in.dtype) && bytes >= 4) {
      auto isZero = compareOne(ast::CmpOpKind::Eq, ir::clone(*args[0]), ir::makeConst(in, loc, 0), loc);
      auto s = std::make_unique<ir::Expr>(ir::ExprOp::Select, in, loc);
      s->args.push_back(std::move(isZero));
      s->args.push_back(ir::makeConst(in, loc, bytes == 8 ? INT64_MIN : int64_t(INT32_MIN)));
      s->args.push_back(std::move(result));
      result = std::move(s);
    }
    if (types::isSigned(in.dtype)) {
      auto minusOne = ir::makeConst(in, loc, -1);
      auto isMinus = compareOne(ast::CmpOpKind::Eq, ir::clone(*args[0]), ir::clone(*minusOne), loc);
      auto s = std::make_unique<ir::Expr>(ir::ExprOp::Select, in, loc);
      s->args.push_back(std::move(isMinus));
      s->args.push_back(std::move(minusOne));
      s->args.push_back(std::move(result));
      result = std::move(s);
    }
    auto s = std::make_unique<ir::Expr>(ir::ExprOp::Select, in, loc);
    s->args.push_back(std::move(isOne));
    s->args.push_back(one(in));
    s->args.push_back(std::move(result));
    return wrapBindings(std::move(bound), std::move(s), loc);
  }
  case Kernel::Conjugate:
    if (isComplex) return call(ir::Intrinsic::Conj, out);
    return std::move(args[0]);
  case Kernel::LogicalNot: {
    auto e = std::make_unique<ir::Expr>(ir::ExprOp::Unary, Type::boolean(), loc);
    e->sub = int(ir::UnaryOp::Not);
    e->args.push_back(truth(std::move(args[0])));
    return e;
  }
  case Kernel::Invert:
    if (in.isBool()) {
      auto e = std::make_unique<ir::Expr>(ir::ExprOp::Unary, Type::boolean(), loc);
      e->sub = int(ir::UnaryOp::Not);
      e->args.push_back(std::move(args[0]));
      return e;
    }
    return unaryValue(ast::UnaryOpKind::Invert, std::move(args[0]), loc);
  case Kernel::Minimum:
  case Kernel::Maximum:
  case Kernel::Fmin:
  case Kernel::Fmax: {
    bool isMin = u->kernel == Kernel::Minimum || u->kernel == Kernel::Fmin;
    if (in.isBool())
      return binary(isMin ? ast::BinOpKind::BitAnd : ast::BinOpKind::BitOr, std::move(args[0]), std::move(args[1]), loc);
    bool nanPropagates = u->kernel == Kernel::Minimum || u->kernel == Kernel::Maximum;
    if ((isFloat || isComplex) && !nanPropagates) return call(isMin ? ir::Intrinsic::FMin : ir::Intrinsic::FMax, out);
    return call(isMin ? ir::Intrinsic::NpMin : ir::Intrinsic::NpMax, out);
  }
  case Kernel::Power:
    if (isFloat) return call(ir::Intrinsic::Pow, out);
    {
      auto e = std::make_unique<ir::Expr>(ir::ExprOp::Binary, out, loc);
      e->sub = int(ir::BinaryOp::Pow);
      e->ival = 1;
      e->args = std::move(args);
      return e;
    }
  case Kernel::Fmod:
    if (isFloat) return call(ir::Intrinsic::Fmod, out);
    {
      // integers: C's remainder (the dividend's sign), 0 for a zero divisor, as NumPy
      auto bound = bindOperands(args, loc);
      auto q = std::make_unique<ir::Expr>(ir::ExprOp::Binary, in, loc);
      q->sub = int(ir::BinaryOp::Mod);
      q->ival = 1;
      q->args.push_back(ir::clone(*args[0]));
      q->args.push_back(ir::clone(*args[1]));
      // Python's modulo differs from C's when the signs differ and the result is nonzero.
      auto pyMod = wrapBindings({}, std::move(q), loc);
      if (!types::isSigned(in.dtype)) return wrapBindings(std::move(bound), std::move(pyMod), loc);
      auto fix = binary(ast::BinOpKind::Sub, ir::clone(*pyMod), ir::clone(*args[1]), loc);
      auto zero = ir::makeConst(in, loc, 0);
      auto nonzero = compareOne(ast::CmpOpKind::NotEq, ir::clone(*pyMod), ir::clone(*zero), loc);
      auto aNeg = compareOne(ast::CmpOpKind::Lt, ir::clone(*args[0]), ir::clone(*zero), loc);
      auto rNeg = compareOne(ast::CmpOpKind::Lt, ir::clone(*pyMod), ir::clone(*zero), loc);
      auto signsDiffer = compareOne(ast::CmpOpKind::NotEq, std::move(aNeg), std::move(rNeg), loc);
      auto need = std::make_unique<ir::Expr>(ir::ExprOp::ShortCircuit, Type::boolean(), loc);
      need->sub = 0;
      need->args.push_back(std::move(nonzero));
      need->args.push_back(std::move(signsDiffer));
      auto s = std::make_unique<ir::Expr>(ir::ExprOp::Select, in, loc);
      s->args.push_back(std::move(need));
      s->args.push_back(ir::makeCast(std::move(fix), in));
      s->args.push_back(std::move(pyMod));
      return wrapBindings(std::move(bound), std::move(s), loc);
    }
  case Kernel::Atan2: return call(ir::Intrinsic::Atan2, out);
  case Kernel::Hypot: return call(ir::Intrinsic::Hypot, out);
  case Kernel::Copysign: return call(ir::Intrinsic::Copysign, out);
  case Kernel::NextAfter: return call(ir::Intrinsic::NextAfter, out);
  case Kernel::LogAddExp:
  case Kernel::LogAddExp2: {
    // NumPy: x == y → x + log(2) (or + 1); else the larger plus log1p(exp(-|x - y|)); NaN → NaN
    bool two = u->kernel == Kernel::LogAddExp2;
    auto bound = bindOperands(args, loc);
    auto x = [&] { return ir::clone(*args[0]); };
    auto y = [&] { return ir::clone(*args[1]); };
    auto term = [&](ExprPtr larger, ExprPtr negDiff) {
      std::vector<ExprPtr> e1;
      e1.push_back(std::move(negDiff));
      auto ex = intrinsic(two ? ir::Intrinsic::Exp2 : ir::Intrinsic::Exp, in, std::move(e1), loc);
      std::vector<ExprPtr> l1;
      l1.push_back(std::move(ex));
      ExprPtr lp = intrinsic(ir::Intrinsic::Log1p, in, std::move(l1), loc);
      if (two) lp = binary(ast::BinOpKind::Mult, std::move(lp), floatConst(1.0 / M_LN2), loc);
      return binary(ast::BinOpKind::Add, std::move(larger), std::move(lp), loc);
    };
    auto tmp = [&] { return binary(ast::BinOpKind::Sub, x(), y(), loc); };
    auto neg = [&](ExprPtr v) {
      auto e = std::make_unique<ir::Expr>(ir::ExprOp::Unary, in, loc);
      e->sub = int(ir::UnaryOp::Neg);
      e->args.push_back(std::move(v));
      return e;
    };
    auto positive = compareOne(ast::CmpOpKind::Gt, tmp(), floatConst(0.0), loc);
    auto nonPositive = compareOne(ast::CmpOpKind::LtE, tmp(), floatConst(0.0), loc);
    auto inner = std::make_unique<ir::Expr>(ir::ExprOp::Select, in, loc);
    inner->args.push_back(std::move(nonPositive));
    inner->args.push_back(term(y(), tmp()));
    inner->args.push_back(tmp()); // NaN
    auto mid = std::make_unique<ir::Expr>(ir::ExprOp::Select, in, loc);
    mid->args.push_back(std::move(positive));
    mid->args.push_back(term(x(), neg(tmp())));
    mid->args.push_back(std::move(inner));
    auto top = std::make_unique<ir::Expr>(ir::ExprOp::Select, in, loc);
    top->args.push_back(compareOne(ast::CmpOpKind::Eq, x(), y(), loc));
    top->args.push_back(binary(ast::BinOpKind::Add, x(), floatConst(two ? 1.0 : M_LN2), loc));
    top->args.push_back(std::move(mid));
    return wrapBindings(std::move(bound), std::move(top), loc);
  }
  case Kernel::Heaviside: {
    // 0 for x < 0, h for x == 0, 1 for x > 0, NaN for NaN
    auto bound = bindOperands(args, loc);
    auto x = [&] { return ir::clone(*args[0]); };
    auto sel = [&](ExprPtr c, ExprPtr a, ExprPtr b) {
      auto s = std::make_unique<ir::Expr>(ir::ExprOp::Select, in, loc);
      s->args.push_back(std::move(c));
      s->args.push_back(std::move(a));
      s->args.push_back(std::move(b));
      return s;
    };
    auto r = sel(compareOne(ast::CmpOpKind::Lt, x(), floatConst(0.0), loc), floatConst(0.0),
                 sel(compareOne(ast::CmpOpKind::Gt, x(), floatConst(0.0), loc), floatConst(1.0),
                     sel(compareOne(ast::CmpOpKind::Eq, x(), floatConst(0.0), loc), ir::clone(*args[1]), x())));
    return wrapBindings(std::move(bound), std::move(r), loc);
  }
  case Kernel::BitAnd: return op2(ast::BinOpKind::BitAnd);
  case Kernel::BitOr: return op2(ast::BinOpKind::BitOr);
  case Kernel::BitXor: return op2(ast::BinOpKind::BitXor);
  case Kernel::LeftShift: return ir::makeCast(op2(ast::BinOpKind::LShift), out);
  case Kernel::Gcd: return call(ir::Intrinsic::Gcd, out);
  case Kernel::Lcm: return call(ir::Intrinsic::Lcm, out);
  case Kernel::RightShift: return ir::makeCast(op2(ast::BinOpKind::RShift), out);
  case Kernel::LogicalAnd:
  case Kernel::LogicalOr:
  case Kernel::LogicalXor: {
    auto a = truth(std::move(args[0]));
    auto b = truth(std::move(args[1]));
    auto k = u->kernel == Kernel::LogicalAnd ? ast::BinOpKind::BitAnd
             : u->kernel == Kernel::LogicalOr ? ast::BinOpKind::BitOr : ast::BinOpKind::BitXor;
    return binary(k, std::move(a), std::move(b), loc);
  }
  default: break;
  }
  internalError("unhandled ufunc kernel for " + name);
}

} // namespace mahou::sema
