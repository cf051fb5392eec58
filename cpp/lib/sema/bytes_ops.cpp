// Python's operators and methods of bytes values (read-only 1-D C uint8 arrays with
// BufferKind::Bytes): comparisons, +, *, in, truth, hash and the methods of buffers.def:
// comparisons, hash and decode one call of the runtime (bytes_values.cpp), the others
// calls of the compiled library (mahou/_library/bytes_methods.py). bytearray,
// memoryview and array.array keep the buffer rules (buffers.cpp).
#include "sema/arrays.h"
#include "sema/objects.h"
#include "sema/typers.h"

namespace mahou::sema {

namespace {

ExprPtr bytesCall(Typing &t, const std::string &name, const std::string &shown, std::vector<ExprPtr> args, Loc loc) {
  auto r = t.libraryCallTyped("bytes." + name, shown, std::move(args), loc);
  if (!r) t.notSupported(loc, shown + " is not available (the library is missing)");
  return r;
}

// One call of the runtime (bytes_values.cpp) over whole buffers: hash, compare, decode.
ExprPtr runtimeCall(Typing &t, const char *symbol, Type result, std::vector<ExprPtr> args, Loc loc) {
  t.requireHost(loc, "a bytes value");
  auto c = objectOp(t, ir::ObjectOp::BytesCall, std::move(result), std::move(args), loc);
  c->symbol = symbol;
  return c;
}

std::vector<ExprPtr> two(ExprPtr a, ExprPtr b) {
  std::vector<ExprPtr> v;
  v.push_back(std::move(a));
  v.push_back(std::move(b));
  return v;
}

[[noreturn]] void refuseOperands(const Typing &t, const std::string &sym, const Type &a, const Type &b, Loc loc) {
  t.error(loc, "unsupported operand types for " + sym + ": " + a.str() + " and " + b.str() +
                   " (a bytes value takes another bytes value, and * an integer, as in Python)");
}

} // namespace

bool isBytesValue(const Type &t) { return t.isBuffer() && t.buffer == types::BufferKind::Bytes && t.ndim == 1; }

ExprPtr bytesBinary(Typing &t, ast::BinOpKind op, ExprPtr &lhs, ExprPtr &rhs, Loc loc) {
  const Type a = lhs->type, b = rhs->type;
  if (!isBytesValue(a) && !isBytesValue(b)) return nullptr;
  const std::string sym = ast::binOpSymbol(op);
  if (op == ast::BinOpKind::Add) {
    if (!isBytesValue(a) || !isBytesValue(b)) refuseOperands(t, sym, a, b, loc);
    return bytesCall(t, "concat", "bytes +", two(std::move(lhs), std::move(rhs)), loc);
  }
  if (op == ast::BinOpKind::Mult) {
    bool left = isBytesValue(a);
    const Type &n = left ? b : a;
    if (!(n.isInt() || n.isBool())) refuseOperands(t, sym, a, b, loc);
    ExprPtr count = t.convert(left ? std::move(rhs) : std::move(lhs), Type::int64(), "bytes *");
    return bytesCall(t, "repeat", "bytes *", two(left ? std::move(lhs) : std::move(rhs), std::move(count)), loc);
  }
  refuseOperands(t, sym, a, b, loc);
}

ExprPtr bytesCompare(Typing &t, ast::CmpOpKind op, ExprPtr &lhs, ExprPtr &rhs, Loc loc) {
  const Type a = lhs->type, b = rhs->type;
  if (!isBytesValue(a) && !isBytesValue(b)) return nullptr;
  if (!isBytesValue(a) || !isBytesValue(b))
    t.notSupported(loc, std::string("comparing ") + a.str() + " and " + b.str() + " with " + ast::cmpOpSymbol(op) +
                            " is not supported (bytes values compare with bytes values)");
  auto c = runtimeCall(t, "mahou_rt_bytes_compare", Type::int64(), two(std::move(lhs), std::move(rhs)), loc);
  return t.compareOne(op, std::move(c), ir::makeConst(Type::int64(), loc, 0), loc);
}

ExprPtr bytesContains(Typing &t, ExprPtr needle, ExprPtr haystack, Loc loc) {
  const Type n = needle->type;
  if (isBytesValue(n))
    return bytesCall(t, "contains", "bytes in", two(std::move(haystack), std::move(needle)), loc);
  if (n.isInt() || n.isBool())
    return bytesCall(t, "contains_int", "bytes in",
                     two(std::move(haystack), t.convert(std::move(needle), Type::int64(), "in bytes")), loc);
  t.error(loc, "a bytes-like object is required, not '" + n.str() + "' (the left operand of 'in bytes' is an integer "
               "or a bytes value)");
}

ExprPtr bytesTruth(Typing &t, ExprPtr e) {
  Loc loc = e->loc;
  auto n = std::make_unique<ir::Expr>(ir::ExprOp::ArrayShape, Type::int64(), loc);
  n->ival = 0;
  n->args.push_back(std::move(e));
  return t.compareOne(ast::CmpOpKind::NotEq, std::move(n), ir::makeConst(Type::int64(), loc, 0), loc);
}

ExprPtr bytesHash(Typing &t, ExprPtr e, Loc loc) {
  std::vector<ExprPtr> args;
  args.push_back(std::move(e));
  return runtimeCall(t, "mahou_rt_bytes_hash", Type::int64(), std::move(args), loc);
}

// b.decode(), b.find(sub[, start[, end]]), rfind, count, startswith, endswith.
ExprPtr bytesMethod(Use &u) {
  static constexpr const char *kNames[] = {"decode", "find", "rfind", "count", "startswith", "endswith"};
  const int which = u.variant();
  const std::string name = kNames[which];
  if (!isBytesValue(u.self->type))
    u.notSupported("the method '" + name + "' of a " + u.self->type.str() +
                   " is not supported (only bytes values have it in compiled code)");
  std::vector<ExprPtr> args;
  args.push_back(std::move(u.self));
  if (which == 0) { // decode(encoding='utf-8', errors='strict'): UTF-8 (ASCII) only
    auto rest = u.args(0, 2, {}, "bytes.decode");
    for (auto &a : rest) {
      if (Typing::isUnknown(a)) return u.unknown();
      const Type &at = a->type;
      bool utf8 = at.kind == Kind::Str && (at.text == "utf-8" || at.text == "utf8" || at.text == "ascii" ||
                                           at.text == "UTF-8" || at.text == "strict");
      if (!utf8)
        u.notSupported("bytes.decode() decodes UTF-8 (or ASCII) with errors='strict' only; the encoding and errors "
                       "must be those constant strings");
    }
    // ASCII is UTF-8's subset, except that a byte over 127 must fail: checked in the runtime
    bool ascii = !rest.empty() && rest[0]->type.text == "ascii";
    args.push_back(ir::makeConst(Type::boolean(), u.loc, ascii));
    return runtimeCall(u.t, "mahou_rt_bytes_decode", Type::unicode(), std::move(args), u.loc);
  }
  auto rest = u.args(1, 3, {}, "bytes." + name);
  for (auto &a : rest)
    if (Typing::isUnknown(a)) return u.unknown();
  if (!isBytesValue(rest[0]->type)) {
    if ((which == 1 || which == 2 || which == 3) && (rest[0]->type.isInt() || rest[0]->type.isBool()))
      u.notSupported("bytes." + name + "() of an integer is not supported (give a bytes value)");
    u.error("bytes." + name + "() argument 1 must be a bytes value, not " + rest[0]->type.str());
  }
  args.push_back(std::move(rest[0]));
  for (size_t i = 1; i < rest.size(); ++i) {
    if (!(rest[i]->type.isInt() || rest[i]->type.isBool() || rest[i]->type.isNone()))
      u.error("slice indices must be integers or None, not " + rest[i]->type.str());
    args.push_back(rest[i]->type.isNone() ? std::move(rest[i])
                                          : u.t.convert(std::move(rest[i]), Type::int64(), "bytes." + name));
  }
  return bytesCall(u.t, name, "bytes." + name, std::move(args), u.loc);
}

} // namespace mahou::sema
