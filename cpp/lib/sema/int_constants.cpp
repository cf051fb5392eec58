// Integer constant expressions: literals combined with + - * // % ** << >> & | ^ and
// unary - + ~ are evaluated at compile time exactly, as Python does, and then typed
// as Numba types a Python int: int64, uint64 from 2**63 to 2**64 - 1, and anything
// larger refused with a TypingError naming the expression (never wrapped silently).
// An integer to a negative constant power is a float, as in Python. Operations
// Python would raise on (division by zero, negative shifts) are left to run time.
#include "typer.h"

#include <cmath>

namespace mahou::sema {

namespace {

using Int = __int128;
constexpr Int kInt128Max = Int((unsigned __int128)(-1) >> 1);
constexpr Int kInt128Min = -kInt128Max - 1;

// The value of a constant subexpression: an exact integer (`tooLarge` when it does
// not fit 128 bits), or a float (an integer to a negative power).
struct Folded {
  bool tooLarge = false;
  bool isFloat = false;
  Int value = 0;
  double fvalue = 0;
};

std::optional<Folded> literalValue(const ast::IntLit &lit) {
  Folded f;
  if (!lit.overflow) {
    f.value = lit.value;
    return f;
  }
  for (char c : lit.digits) {
    Int d = c - '0';
    if (f.value > (kInt128Max - d) / 10) {
      f.tooLarge = true;
      return f;
    }
    f.value = f.value * 10 + d;
  }
  return f;
}

Int floorDiv(Int a, Int b) {
  Int q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

Int floorMod(Int a, Int b) {
  Int r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

// Python's exact result of `a op b`, or nullopt when Python would raise (left to run time).
std::optional<Folded> binaryValue(ast::BinOpKind op, const Folded &a, const Folded &b) {
  Folded r;
  if (a.isFloat || b.isFloat) return std::nullopt; // float operands: the float path types it
  if (a.tooLarge || b.tooLarge) {
    r.tooLarge = true;
    return r;
  }
  Int x = a.value, y = b.value;
  switch (op) {
  case ast::BinOpKind::Add: r.tooLarge = __builtin_add_overflow(x, y, &r.value); return r;
  case ast::BinOpKind::Sub: r.tooLarge = __builtin_sub_overflow(x, y, &r.value); return r;
  case ast::BinOpKind::Mult: r.tooLarge = __builtin_mul_overflow(x, y, &r.value); return r;
  case ast::BinOpKind::FloorDiv:
  case ast::BinOpKind::Mod:
    if (y == 0) return std::nullopt;
    if (x == kInt128Min && y == -1) {
      r.tooLarge = op == ast::BinOpKind::FloorDiv;
      return r;
    }
    r.value = op == ast::BinOpKind::FloorDiv ? floorDiv(x, y) : floorMod(x, y);
    return r;
  case ast::BinOpKind::Pow: {
    if (y < 0) {
      if (x == 0) return std::nullopt; // ZeroDivisionError
      r.isFloat = true;
      r.fvalue = std::pow(double(x), double(y));
      return r;
    }
    Int result = 1, base = x;
    while (y > 0 && !r.tooLarge) {
      if (y & 1) r.tooLarge |= __builtin_mul_overflow(result, base, &result);
      y >>= 1;
      if (y > 0) r.tooLarge |= __builtin_mul_overflow(base, base, &base);
    }
    r.value = result;
    return r;
  }
  case ast::BinOpKind::LShift:
    if (y < 0) return std::nullopt; // ValueError: negative shift count
    if (x == 0) return r;
    if (y >= 127 || (x > 0 ? x > (kInt128Max >> int(y)) : x < (kInt128Min >> int(y)))) {
      r.tooLarge = true;
      return r;
    }
    r.value = x * (Int(1) << int(y));
    return r;
  case ast::BinOpKind::RShift:
    if (y < 0) return std::nullopt;
    r.value = y >= 127 ? (x < 0 ? -1 : 0) : x >> int(y); // arithmetic: floor, as Python
    return r;
  case ast::BinOpKind::BitAnd: r.value = x & y; return r;
  case ast::BinOpKind::BitOr: r.value = x | y; return r;
  case ast::BinOpKind::BitXor: r.value = x ^ y; return r;
  case ast::BinOpKind::Div:
  case ast::BinOpKind::MatMult: return std::nullopt;
  }
  return std::nullopt;
}

// The value of `e` when it is an integer constant expression, else nullopt.
std::optional<Folded> fold(const ast::Expr &e) {
  if (auto *i = e.as<ast::IntLit>()) return literalValue(*i);
  if (auto *u = e.as<ast::UnaryOp>()) {
    if (u->op == ast::UnaryOpKind::Not) return std::nullopt;
    auto v = fold(*u->operand);
    if (!v || v->isFloat) return std::nullopt;
    if (u->op == ast::UnaryOpKind::USub) {
      if (v->value == kInt128Min) v->tooLarge = true;
      else v->value = -v->value;
    } else if (u->op == ast::UnaryOpKind::Invert) {
      v->value = ~v->value;
    }
    return v;
  }
  if (auto *b = e.as<ast::BinOp>()) {
    auto l = fold(*b->left);
    if (!l) return std::nullopt;
    auto r = fold(*b->right);
    if (!r) return std::nullopt;
    return binaryValue(b->op, *l, *r);
  }
  return std::nullopt;
}

std::string decimal(Int v) {
  if (v == 0) return "0";
  bool neg = v < 0;
  unsigned __int128 u = neg ? (unsigned __int128)(-(v + 1)) + 1 : (unsigned __int128)v;
  std::string s;
  while (u) {
    s.insert(s.begin(), char('0' + int(u % 10)));
    u /= 10;
  }
  return neg ? "-" + s : s;
}

} // namespace

std::optional<ExprPtr> FunctionTyper::intConstant(const ast::Expr &e) {
  std::optional<Folded> v = fold(e);
  if (!v) return std::nullopt;
  if (v->isFloat) return ir::makeConst(Type::float64(), e.loc, 0, v->fvalue);
  constexpr Int kUInt64Max = Int(UINT64_MAX);
  if (v->tooLarge || v->value < INT64_MIN || v->value > kUInt64Max)
    error(e.loc, "this integer constant" + (v->tooLarge ? std::string() : " (" + decimal(v->value) + ")") +
                     " does not fit in 64 bits; compiled integers are int64 (or uint64 for constants from 2**63 to 2**64 - 1)");
  if (v->value > INT64_MAX) return ir::makeConst(Type::scalar(DType::UInt64), e.loc, int64_t(uint64_t(v->value)));
  return ir::makeConst(Type::int64(), e.loc, int64_t(v->value));
}

std::optional<int64_t> FunctionTyper::constIntExpression(const ast::Expr &e) {
  std::optional<Folded> v = fold(e);
  if (!v || v->isFloat || v->tooLarge || v->value < INT64_MIN || v->value > INT64_MAX) return std::nullopt;
  return int64_t(v->value);
}

} // namespace mahou::sema
