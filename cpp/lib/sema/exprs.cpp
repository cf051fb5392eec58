// Typing of expressions: names, constants, operators with NumPy promotion,
// comparisons, and/or, conditional expressions, attributes and tuples.
#include "typer.h"
#include "sema/datetime.h"
#include "mahou/datetime_units.h"

#include "mahou/literal_list_type.h"
#include "mahou/literal_dict_type.h"

#include <cmath>

namespace mahou::sema {

std::optional<ir::CmpOp> irCompare(ast::CmpOpKind op) {
  switch (op) {
  case ast::CmpOpKind::Eq: return ir::CmpOp::Eq;
  case ast::CmpOpKind::NotEq: return ir::CmpOp::Ne;
  case ast::CmpOpKind::Lt: return ir::CmpOp::Lt;
  case ast::CmpOpKind::LtE: return ir::CmpOp::Le;
  case ast::CmpOpKind::Gt: return ir::CmpOp::Gt;
  case ast::CmpOpKind::GtE: return ir::CmpOp::Ge;
  default: return std::nullopt;
  }
}

// A value that exists only while compiling (a module, a function, a class, ...): it
// cannot be stored, yielded or returned.
bool isCompileTimeOnly(const Type &t) {
  switch (t.kind) {
  case Kind::Module:
  case Kind::Function:
  case Kind::DTypeObj:
  case Kind::ExcClass:
  case Kind::ClassRef:
  case Kind::Namespace:
  case Kind::Range: return true;
  default: return false;
  }
}

namespace {

ir::BinaryOp toIrOp(ast::BinOpKind op) {
  switch (op) {
  case ast::BinOpKind::Add: return ir::BinaryOp::Add;
  case ast::BinOpKind::Sub: return ir::BinaryOp::Sub;
  case ast::BinOpKind::Mult: return ir::BinaryOp::Mul;
  case ast::BinOpKind::Div: return ir::BinaryOp::TrueDiv;
  case ast::BinOpKind::FloorDiv: return ir::BinaryOp::FloorDiv;
  case ast::BinOpKind::Mod: return ir::BinaryOp::Mod;
  case ast::BinOpKind::Pow: return ir::BinaryOp::Pow;
  case ast::BinOpKind::BitAnd: return ir::BinaryOp::BitAnd;
  case ast::BinOpKind::BitOr: return ir::BinaryOp::BitOr;
  case ast::BinOpKind::BitXor: return ir::BinaryOp::BitXor;
  case ast::BinOpKind::LShift: return ir::BinaryOp::Shl;
  case ast::BinOpKind::RShift: return ir::BinaryOp::Shr;
  case ast::BinOpKind::MatMult: break;
  }
  return ir::BinaryOp::Add;
}

} // namespace

ExprPtr FunctionTyper::expr(const ast::Expr &e) {
  switch (e.kind) {
  case ast::ExprKind::Name: return name(*e.as<ast::Name>());
  case ast::ExprKind::IntLit: return *intConstant(e);
  case ast::ExprKind::FloatLit: return ir::makeConst(Type::float64(), e.loc, 0, e.as<ast::FloatLit>()->value);
  case ast::ExprKind::ImagLit:
    return ir::makeConst(Type::scalar(DType::Complex128), e.loc, 0, 0, e.as<ast::ImagLit>()->value);
  case ast::ExprKind::BoolLit: return ir::makeConst(Type::boolean(), e.loc, e.as<ast::BoolLit>()->value);
  case ast::ExprKind::NoneLit: return ir::makeConst(Type::none(), e.loc, 0);
  case ast::ExprKind::StrLit: {
    auto c = ir::makeConst(Type::str_(e.as<ast::StrLit>()->value), e.loc, 0);
    c->symbol = e.as<ast::StrLit>()->value;
    return c;
  }
  case ast::ExprKind::BytesLit: { // a constant bytes value (its items frozen into the code, as a global's)
    requireHost(e.loc, "a bytes literal");
    const std::string &v = e.as<ast::BytesLit>()->value;
    auto a = std::make_unique<ir::Expr>(ir::ExprOp::ArrayConst,
                                        Type::array(DType::UInt8, 1, types::Layout::C, /*readonly=*/true), e.loc);
    a->args.push_back(ir::makeConst(Type::int64(), e.loc, int64_t(v.size())));
    a->symbol = v;
    a->ival = 1; // interned in the runtime: a dict key or list item outlives the code
    Type bt = a->type;
    bt.buffer = types::BufferKind::Bytes;
    return ir::makeCast(std::move(a), bt);
  }
  case ast::ExprKind::BinOp: {
    if (auto c = intConstant(e)) return std::move(*c);
    auto *b = e.as<ast::BinOp>();
    auto lhs = expr(*b->left);
    auto rhs = expr(*b->right);
    return binary(b->op, std::move(lhs), std::move(rhs), e.loc);
  }
  case ast::ExprKind::UnaryOp:
    if (auto c = intConstant(e)) return std::move(*c);
    return unary(*e.as<ast::UnaryOp>());
  case ast::ExprKind::BoolOp: return boolOp(*e.as<ast::BoolOp>());
  case ast::ExprKind::Compare: return compare(*e.as<ast::Compare>());
  case ast::ExprKind::IfExp: return ifExp(*e.as<ast::IfExp>());
  case ast::ExprKind::Call: return call(*e.as<ast::Call>());
  case ast::ExprKind::Attribute: return attribute(*e.as<ast::Attribute>());
  case ast::ExprKind::Subscript: return subscript(*e.as<ast::Subscript>());
  case ast::ExprKind::Tuple: return tupleExpr(*e.as<ast::Tuple>());
  case ast::ExprKind::List: return listDisplay(*e.as<ast::List>());
  case ast::ExprKind::Dict: return dictDisplay(*e.as<ast::Dict>());
  case ast::ExprKind::Set: return setDisplay(*e.as<ast::Set>());
  case ast::ExprKind::Comprehension: return comprehension(*e.as<ast::Comprehension>());
  case ast::ExprKind::JoinedStr: return joinedStr(*e.as<ast::JoinedStr>());
  case ast::ExprKind::FormattedValue: internalError("a formatted value outside an f-string");
  case ast::ExprKind::Slice: error(e.loc, "a slice is only allowed inside []");
  case ast::ExprKind::EllipsisLit: notSupported(e.loc, "'...' is not supported here");
  case ast::ExprKind::Starred: notSupported(e.loc, "starred expressions are not supported here");
  case ast::ExprKind::Lambda: return closureValue(lambdaFunction(*e.as<ast::Lambda>()), e.loc);
  case ast::ExprKind::ObjMode: return objModeBlock(*e.as<ast::ObjMode>());
  case ast::ExprKind::MatchSequence: return matchSequence(*e.as<ast::MatchSequence>());
  case ast::ExprKind::MatchPossible: return matchPossible(*e.as<ast::MatchPossible>());
  }
  internalError("unhandled expression kind");
}

ExprPtr FunctionTyper::name(const ast::Name &e) {
  auto it = varIndex_.find(e.id);
  if (it != varIndex_.end()) return load(it->second, e.loc);
  if (const InnerFunction *inner = innerFunction(e.id)) return closureValue(*inner, e.loc); // closures.cpp
  const GlobalValue &g = global(e.id);
  if (g.kind == GlobalValue::Kind::Missing) error(e.loc, "name '" + e.id + "' is not defined");
  ExprPtr v = constantFromGlobal(g, e.loc);
  if (v->type.kind == Kind::Module) v->type.text = e.id; // its attributes are globals "name.attr"
  return v;
}

ExprPtr FunctionTyper::constantFromGlobal(const GlobalValue &g, Loc loc) {
  using GK = GlobalValue::Kind;
  switch (g.kind) {
  case GK::Int: return ir::makeConst(Type::int64(), loc, g.i);
  case GK::Datetime: {
    auto d = types::datetimeFromName(g.s);
    if (!d) notSupported(loc, "a global of type " + g.s + " is not supported");
    return ir::makeConst(Type::scalar(*d), loc, g.i);
  }
  case GK::Float: return ir::makeConst(Type::float64(), loc, 0, g.f);
  case GK::Complex: return ir::makeConst(Type::scalar(DType::Complex128), loc, 0, g.f, g.imag);
  case GK::Bool: return ir::makeConst(Type::boolean(), loc, g.b);
  case GK::None: return ir::makeConst(Type::none(), loc, 0);
  case GK::Str: {
    auto c = ir::makeConst(Type::str_(g.s), loc, 0);
    c->symbol = g.s;
    return c;
  }
  case GK::Tuple: {
    std::vector<ExprPtr> elems;
    std::vector<Type> ts;
    for (auto &x : g.elems) {
      elems.push_back(constantFromGlobal(x, loc));
      ts.push_back(elems.back()->type);
    }
    Type tt = g.handle ? Type::namedTuple(std::move(ts), g.handle, g.s, g.fields) : Type::tuple(std::move(ts));
    auto t = std::make_unique<ir::Expr>(ir::ExprOp::TupleMake, std::move(tt), loc);
    t->args = std::move(elems);
    return t;
  }
  case GK::Array: {
    auto a = std::make_unique<ir::Expr>(ir::ExprOp::ArrayConst,
                                        Type::array(g.dtype, int(g.shape.size()), types::Layout::C, /*readonly=*/true), loc);
    for (int64_t d : g.shape) a->args.push_back(ir::makeConst(Type::int64(), loc, d));
    a->symbol = g.bytes;
    if (g.b) { // a bytes object: the same constant items as a bytes value
      a->ival = 1; // interned in the runtime, as a literal
      Type bt = a->type;
      bt.buffer = types::BufferKind::Bytes;
      return ir::makeCast(std::move(a), bt);
    }
    return a;
  }
  case GK::Module: return ir::makeConst(Type::moduleRef(g.module), loc, 0);
  case GK::Function: return ir::makeConst(Type::function(g.handle, g.s), loc, 0);
  case GK::JitClass: return ir::makeConst(Type::classRef(g.handle, g.s), loc, 0);
  case GK::DType: {
    Type t = Type::dtypeObj(g.dtype);
    if (!g.s.empty()) { // a structured or S/U dtype: its record or CharSeq (np.empty(n, dtype=rec))
      std::string why;
      auto rec = types::parseType(g.s, &why);
      if (!rec || (!rec->isRecord() && !rec->isCharSeq())) internalError("the item type of a dtype: " + why);
      t.elems.push_back(*rec);
    }
    return ir::makeConst(t, loc, 0);
  }
  case GK::EnumMember: return enumConstant(g, loc);
  case GK::ExcClass: {
    Type t = Type::excClass(g.exc);
    if (types::isUserExc(g.exc)) t.text = g.s; // a user-defined class: its qualified name
    return ir::makeConst(t, loc, 0);
  }
  case GK::ModuleAttr: {
    // A name imported from a module (from math import pi, from numba.cuda import shared):
    // the module's attribute of that name in the registry.
    const Entry *entry = findEntry(receiverOf(g.module), Member::Attribute, g.s);
    if (entry && entry->name != "*")
      return typeUse(*this, *entry, g.s, nullptr, ir::makeConst(Type::moduleRef(g.module), loc, 0), nullptr, loc);
    notSupported(loc, "the function '" + g.s + "' can only be called, not used as a value");
  }
  case GK::Builtin: notSupported(loc, "the builtin '" + g.s + "' can only be called, not used as a value");
  case GK::Unsupported: notSupported(loc, "global value of unsupported type: " + g.s);
  case GK::Overloaded: notSupported(loc, "'" + g.s + "' can only be called in compiled code, not used as a value");
  case GK::NamedTupleClass:
    notSupported(loc, "the namedtuple class '" + g.s + "' can only be called in compiled code, not used as a value");
  case GK::ObjMode: notSupported(loc, "objmode is used only as 'with objmode(name=type, ...):', not as a value");
  case GK::Missing: break;
  }
  error(loc, "name is not defined (not a local, a global of the module, or a builtin)");
}

ExprPtr FunctionTyper::binary(ast::BinOpKind op, ExprPtr lhs, ExprPtr rhs, Loc loc) {
  if (isUnknown(lhs) || isUnknown(rhs)) return unknown(loc);
  // An optional operand is its value (TypeError at run time when it is None), as Numba.
  lhs = intEnumValue(unwrapOptional(std::move(lhs))); // an IntEnum member is its int
  rhs = intEnumValue(unwrapOptional(std::move(rhs)));
  if (lhs->type.isInstance() || rhs->type.isInstance()) return instanceBinary(*this, op, lhs, rhs, loc);
  refuseRecordOperand(*this, lhs, loc, std::string("the operator ") + ast::binOpSymbol(op));
  refuseRecordOperand(*this, rhs, loc, std::string("the operator ") + ast::binOpSymbol(op));
  if (lhs->type.isObject() || rhs->type.isObject() || (lhs->type.isString() && rhs->type.isString()) ||
      ((lhs->type.isString() || rhs->type.isString()) && op == ast::BinOpKind::Mult))
    if (auto r = objectBinary(*this, op, lhs, rhs, loc)) return r;
  if (auto r = bytesBinary(*this, op, lhs, rhs, loc)) return r; // bytes_ops.cpp
  const Type &a = lhs->type, &b = rhs->type;
  const char *sym = ast::binOpSymbol(op);
  refuseLiteralDict(*this, a, loc, std::string("does not support the operator ") + sym);
  refuseLiteralDict(*this, b, loc, std::string("does not support the operator ") + sym);
  if (op == ast::BinOpKind::MatMult) {
    if (!a.isArray() || !b.isArray()) error(loc, "the @ operator needs two arrays");
    return matmul(std::move(lhs), std::move(rhs), loc);
  }
  if (a.isArray() || b.isArray()) {
    std::vector<ExprPtr> ops;
    ops.push_back(std::move(lhs));
    ops.push_back(std::move(rhs));
    return elementwise(std::move(ops), [this, op, loc](std::vector<ExprPtr> v) {
      return binary(op, std::move(v[0]), std::move(v[1]), loc);
    }, loc);
  }

  if (auto r = datetimeBinary(*this, op, lhs, rhs, loc)) return r; // datetime64 / timedelta64 (datetime.cpp)
  if (a.isTuple() && b.isTuple() && op == ast::BinOpKind::Add) return tupleConcat(*this, std::move(lhs), std::move(rhs), loc);
  if (a.isTuple() && b.isTuple()) notSupported(loc, "tuple operators are not supported yet");
  if (op == ast::BinOpKind::Mult && a.isTuple() && b.isNumber()) return tupleRepeat(*this, std::move(lhs), std::move(rhs), false, loc);
  if (op == ast::BinOpKind::Mult && a.isNumber() && b.isTuple()) return tupleRepeat(*this, std::move(rhs), std::move(lhs), true, loc);
  if (!a.isNumber() || !b.isNumber())
    error(loc, std::string("unsupported operand types for ") + sym + ": " + a.str() + " and " + b.str());
  DType da = a.dtype, db = b.dtype;
  DType common = types::promote(da, db);
  DType result = common;
  // Two bools under //, %, **, << and >>: Python ints, or NumPy's first loop (int8) in arrays.
  const DType boolArithmetic = elementwiseDepth_ > 0 ? DType::Int8 : DType::Int64;
  switch (op) {
  case ast::BinOpKind::Add:
  case ast::BinOpKind::Sub:
  case ast::BinOpKind::Mult:
    if (common == DType::Bool && elementwiseDepth_ > 0) { // NumPy arrays: + is or, * is and
      if (op == ast::BinOpKind::Sub)
        error(loc, "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` "
                   "operator, or the logical_xor function instead.");
      return binary(op == ast::BinOpKind::Add ? ast::BinOpKind::BitOr : ast::BinOpKind::BitAnd, std::move(lhs),
                    std::move(rhs), loc);
    }
    if (common == DType::Bool) result = DType::Int64;
    break;
  case ast::BinOpKind::Div:
    if (types::isInteger(common) || common == DType::Bool) result = DType::Float64;
    break;
  case ast::BinOpKind::FloorDiv:
  case ast::BinOpKind::Mod:
    if (types::isComplex(common)) error(loc, std::string("can't take floor or mod of complex numbers"));
    if (common == DType::Bool) result = boolArithmetic;
    break;
  case ast::BinOpKind::Pow:
    // Kernels: the host runtime's complex power is not on the device; the library's, in
    // real math (the same algorithm), for every complex base or exponent.
    if (types::isComplex(common) && gpu_ && elementwiseDepth_ == 0) {
      Type ct = Type::scalar(common);
      std::vector<ExprPtr> ab;
      ab.push_back(ir::makeCast(std::move(lhs), ct));
      ab.push_back(ir::makeCast(std::move(rhs), ct));
      return ir::makeCast(deviceCmathCall(*this, "power", std::move(ab), loc), ct);
    }
    if (types::isComplex(common) && gpu_) notSupported(loc, "complex ** of arrays in CUDA kernels is not supported");
    if (common == DType::Bool) result = boolArithmetic;
    // An integer to a negative constant power is a float, as in Python and Numba
    // (x ** -3 is 0.125 for x = 2): computed as C's pow of the two as floats, as CPython.
    if (elementwiseDepth_ == 0 && (types::isInteger(common) || common == DType::Bool) &&
        rhs->op == ir::ExprOp::Const && (b.isInt() || b.isBool()) && rhs->ival < 0)
      result = DType::Float64;
    // Numba: a float scalar raised to an integer keeps the float's type (float32 **
    // int is float32) and is computed by repeated squaring (codegen: floatIntPower).
    // Array elements follow NumPy's power ufunc instead (pow of the promoted type).
    if (elementwiseDepth_ == 0 && a.isFloat() && (b.isInt() || b.isBool())) {
      auto e = std::make_unique<ir::Expr>(ir::ExprOp::Binary, a, loc);
      e->sub = int(ir::BinaryOp::Pow);
      e->args.push_back(std::move(lhs));
      e->args.push_back(ir::makeCast(std::move(rhs), Type::int64()));
      return e;
    }
    break;
  case ast::BinOpKind::BitAnd:
  case ast::BinOpKind::BitOr:
  case ast::BinOpKind::BitXor:
    if (!types::isInteger(common) && common != DType::Bool)
      error(loc, std::string("unsupported operand types for ") + sym + ": " + a.str() + " and " + b.str());
    break;
  case ast::BinOpKind::LShift:
  case ast::BinOpKind::RShift:
    if (!types::isInteger(common) && common != DType::Bool)
      error(loc, std::string("unsupported operand types for ") + sym + ": " + a.str() + " and " + b.str());
    if (common == DType::Bool) result = boolArithmetic;
    break;
  case ast::BinOpKind::MatMult: break;
  }
  Type rt = Type::scalar(result);
  auto e = std::make_unique<ir::Expr>(ir::ExprOp::Binary, rt, loc);
  e->sub = int(toIrOp(op));
  // Array elements divide and shift as NumPy's ufuncs do: by zero gives inf/nan (integers
  // 0), a negative shift count 0 (or -1), no exception.
  bool division = op == ast::BinOpKind::Div || op == ast::BinOpKind::FloorDiv || op == ast::BinOpKind::Mod ||
                  op == ast::BinOpKind::Pow || op == ast::BinOpKind::LShift || op == ast::BinOpKind::RShift;
  if (elementwiseDepth_ > 0 && division) e->ival = 1;
  else if (op == ast::BinOpKind::Div && (a.isFloat() || b.isFloat())) e->ival = 2; // 'float division by zero'

  e->args.push_back(ir::makeCast(std::move(lhs), rt));
  e->args.push_back(ir::makeCast(std::move(rhs), rt));
  return e;
}

ExprPtr FunctionTyper::unary(const ast::UnaryOp &u) {
  auto v = expr(*u.operand);
  if (isUnknown(v)) return unknown(u.loc);
  if (u.op == ast::UnaryOpKind::Not) {
    auto t = truth(std::move(v));
    if (ir::Expr *known = knownConditionValue(t)) { // after its effects, if any
      known->ival = known->ival == 0;
      return t;
    }
    auto e = std::make_unique<ir::Expr>(ir::ExprOp::Unary, Type::boolean(), u.loc);
    e->sub = int(ir::UnaryOp::Not);
    e->args.push_back(std::move(t));
    return e;
  }
  if (v->type.isArray()) {
    std::vector<ExprPtr> ops;
    ops.push_back(std::move(v));
    ast::UnaryOpKind op = u.op;
    Loc loc = u.loc;
    return elementwise(std::move(ops), [this, op, loc](std::vector<ExprPtr> x) {
      if (op != ast::UnaryOpKind::Invert && x[0]->type.isBool()) // NumPy has no negative/positive of bools
        error(loc, std::string("numpy boolean ") + (op == ast::UnaryOpKind::USub ? "negative, the `-`" : "positive, the `+`") +
                       " operator, is not supported, use the `~` operator or the logical_not function instead.");
      if (op == ast::UnaryOpKind::Invert && x[0]->type.isBool()) { // NumPy: ~ of bools is logical not
        auto n = std::make_unique<ir::Expr>(ir::ExprOp::Unary, Type::boolean(), loc);
        n->sub = int(ir::UnaryOp::Not);
        n->args.push_back(std::move(x[0]));
        return ExprPtr(std::move(n));
      }
      return unaryValue(op, std::move(x[0]), loc);
    }, loc);
  }
  return unaryValue(u.op, std::move(v), u.loc);
}

ExprPtr FunctionTyper::unaryValue(ast::UnaryOpKind op, ExprPtr v, Loc loc) {
  v = intEnumValue(unwrapOptional(std::move(v))); // an optional number is its value (TypeError when None), as in Numba
  if (v->type.isInstance()) return instanceUnary(*this, op, std::move(v), loc);
  refuseRecordOperand(*this, v, loc, std::string("the operator ") + ast::unaryOpSymbol(op));
  if (v->type.isDatetimeLike()) { // timedelta64 only (datetime.cpp)
    std::string what = std::string("unary ") + ast::unaryOpSymbol(op);
    if (op == ast::UnaryOpKind::Invert || !v->type.isTimedelta()) error(loc, "bad operand type for " + what + ": " + v->type.str());
    if (op == ast::UnaryOpKind::UAdd) return v;
    return datetimeUnary(*this, ir::DatetimeOp::Neg, std::move(v), what, loc);
  }
  if (!v->type.isNumber())
    error(loc, std::string("bad operand type for unary ") + ast::unaryOpSymbol(op) + ": " + v->type.str());
  Type t = v->type.isBool() ? Type::int64() : v->type;
  v = ir::makeCast(std::move(v), t);
  if (op == ast::UnaryOpKind::UAdd) return v;
  if (op == ast::UnaryOpKind::Invert && !t.isInt()) error(loc, "bad operand type for unary ~: " + t.str());
  auto e = std::make_unique<ir::Expr>(ir::ExprOp::Unary, t, loc);
  e->sub = int(op == ast::UnaryOpKind::USub ? ir::UnaryOp::Neg : ir::UnaryOp::Invert);
  e->args.push_back(std::move(v));
  return e;
}

// `x is y` of two dtypes. Different dtypes are never the same object; NumPy's dtypes of one
// type are one object (so `a.dtype is b.dtype` is their types' equality, as in Numba),
// but a scalar class (np.float64) is not a dtype (`a.dtype is np.float64` is False, as in
// Python) though both have one type here. The origin is known only for the operands
// written in place (np.float64; a.dtype, np.dtype(...)); otherwise a same-typed pair is
// refused rather than guessed.
bool FunctionTyper::dtypeIdentity(const ExprPtr &lhs, const ExprPtr &rhs, Loc loc) {
  if (lhs->type != rhs->type) return false;
  auto origin = [](const ExprPtr &e) {
    const ir::Expr *v = e.get();
    while (v->op == ir::ExprOp::Seq) v = v->args[0].get(); // f(x).dtype: after f's effects
    return v->op == ir::ExprOp::Const ? v->ival : types::kDTypeUnknownOrigin;
  };
  int64_t x = origin(lhs), y = origin(rhs);
  if (x != types::kDTypeUnknownOrigin && y != types::kDTypeUnknownOrigin) return x == y;
  error(loc, "'is' between two " + lhs->type.str() + " is supported where each is written in place (a.dtype, "
             "np.dtype(...), np.float64): held in a variable, a dtype and its scalar class cannot be told apart here; "
             "compare with ==");
}

ExprPtr FunctionTyper::compareOne(ast::CmpOpKind op, ExprPtr lhs, ExprPtr rhs, Loc loc) {
  // `xs == []`: an empty display takes the other operand's type.
  if (lhs->type.isPartialContainer() && !isUnknown(rhs)) lhs = convert(std::move(lhs), rhs->type, "comparison");
  if (rhs->type.isPartialContainer() && !isUnknown(lhs)) rhs = convert(std::move(rhs), lhs->type, "comparison");
  if (isUnknown(lhs) || isUnknown(rhs)) return unknown(loc);
  if (auto r = enumCompare(*this, op, lhs, rhs, loc)) return r; // enums.cpp
  const Type a = lhs->type, b = rhs->type;
  // A result known at compile time still evaluates both operands, in order, for their
  // effects and exceptions (np.random.rand(2).dtype == x.dtype draws).
  auto decided = [&](bool value) {
    return evaluatedThen(*this, std::move(lhs), evaluatedThen(*this, std::move(rhs), ir::makeConst(Type::boolean(), loc, value), loc), loc);
  };
  if (op == ast::CmpOpKind::Is || op == ast::CmpOpKind::IsNot) {
    bool same;
    if ((a.isOptional() && b.isNone()) || (b.isOptional() && a.isNone()))
      return isNoneTest(a.isOptional() ? std::move(lhs) : std::move(rhs), op == ast::CmpOpKind::IsNot, loc);
    if ((a.isInstance() || a.isList() || a.isDict() || a.isSet() || a.isUnicode()) && a == b) // the same object?
      return instanceIdentity(*this, op == ast::CmpOpKind::IsNot, std::move(lhs), std::move(rhs), loc);
    if (a.isBool() && b.isBool()) // True and False are singletons: `x is True` is `x == True`
      return compareOne(op == ast::CmpOpKind::Is ? ast::CmpOpKind::Eq : ast::CmpOpKind::NotEq, std::move(lhs),
                        std::move(rhs), loc);
    if (a.isNone() || b.isNone()) same = a.isNone() && b.isNone();
    else if ((a.isBool() && (b.isNumber() || b.isUnicode())) || (b.isBool() && (a.isNumber() || a.isUnicode())))
      same = false; // `1 is True`, `"a" is False` (a `case True:` pattern on an int)
    else if (a.kind == Kind::DTypeObj && b.kind == Kind::DTypeObj) same = dtypeIdentity(lhs, rhs, loc);
    else if (!a.isNumber() && !a.isDatetimeLike() && a == b && a.kind != Kind::Array && a.kind != Kind::Tuple) same = true;
    else error(loc, "'is' is only supported for comparisons with None");
    return decided((op == ast::CmpOpKind::Is) == same);
  }
  if (op == ast::CmpOpKind::In || op == ast::CmpOpKind::NotIn) {
    // The needle is evaluated first, as in Python (`xs[i] in xs.pop()`); the operations
    // below take the container first, so operands with effects, or two that can raise
    // (`xs[i % n] in xs[0]`), go to hidden variables.
    std::vector<ExprPtr> operands;
    operands.push_back(std::move(lhs));
    operands.push_back(std::move(rhs));
    auto bindings = bindOperands(operands, loc, /*reordered=*/true);
    lhs = std::move(operands[0]);
    rhs = unwrapOptional(std::move(operands[1]));
    bool negate = op == ast::CmpOpKind::NotIn;
    ExprPtr r;
    if (rhs->type.isInstance()) r = instanceContains(*this, negate, lhs, rhs, loc);
    else if (isBytesValue(rhs->type)) {
      r = bytesContains(*this, std::move(lhs), std::move(rhs), loc);
      if (negate) r = logicalNot(std::move(r));
    }
    else if (types::isLiteralDict(rhs->type)) r = literalDictContains(*this, negate, std::move(lhs), std::move(rhs), loc);
    else if (!(r = containerContains(*this, negate, lhs, rhs, loc))) r = tupleContains(*this, negate, std::move(lhs), std::move(rhs), loc);
    if (isUnknown(r)) return r;
    return wrapBindings(std::move(bindings), std::move(r), loc);
  }
  if ((a.isOptional() && b.isNone()) || (b.isOptional() && a.isNone()))
    if (op == ast::CmpOpKind::Eq || op == ast::CmpOpKind::NotEq)
      return isNoneTest(a.isOptional() ? std::move(lhs) : std::move(rhs), op == ast::CmpOpKind::NotEq, loc);
  if (types::isLiteralDict(a) || types::isLiteralDict(b)) return literalDictCompare(*this, op, std::move(lhs), std::move(rhs), loc);
  if (a.isOptional() || b.isOptional())
    return compareOne(op, unwrapOptional(std::move(lhs)), unwrapOptional(std::move(rhs)), loc);
  if (a.isInstance() || b.isInstance())
    if (auto r = instanceCompare(*this, op, lhs, rhs, loc)) return r;
  if (auto r = bytesCompare(*this, op, lhs, rhs, loc)) return r; // bytes_ops.cpp
  // An array against a string compares elementwise in NumPy (never the scalar False of two
  // unlike objects), and so do arrays of records or strings against anything: refused.
  if ((a.isArray() && (b.isString() || b.isRecordArray())) || (b.isArray() && (a.isString() || a.isRecordArray())))
    notSupported(loc, std::string("comparing ") + a.str() + " and " + b.str() + " with " + ast::cmpOpSymbol(op) +
                          " is not supported (compare the items)");
  auto plainTuple = [](const Type &t) { return t.isTuple() && !t.isClosure(); };
  auto numberOrString = [](const Type &t) { return t.isNumber() || t.isString(); };
  if (((plainTuple(a) && numberOrString(b)) || (plainTuple(b) && numberOrString(a))) &&
      (op == ast::CmpOpKind::Eq || op == ast::CmpOpKind::NotEq)) // never equal (`case 1:` on a tuple)
    return decided(op == ast::CmpOpKind::NotEq);
  if (a.isObject() || b.isObject() || a.isString() || b.isString())
    if (auto r = objectCompare(*this, op, lhs, rhs, loc)) return r;
  if (a.isArray() || b.isArray()) {
    std::vector<ExprPtr> ops;
    ops.push_back(std::move(lhs));
    ops.push_back(std::move(rhs));
    return elementwise(std::move(ops), [this, op, loc](std::vector<ExprPtr> v) {
      return compareOne(op, std::move(v[0]), std::move(v[1]), loc);
    }, loc);
  }
  if (a.isTuple() && b.isTuple()) {
    if (types::isLiteralList(a) != types::isLiteralList(b)) // a list and a tuple: never equal in Python
      refuseLiteralList(*this, types::isLiteralList(a) ? a : b, loc, "cannot be compared with a tuple");
    return tupleCompare(*this, op, std::move(lhs), std::move(rhs), loc);
  }
  if (a.isNone() || b.isNone()) {
    if (op == ast::CmpOpKind::Eq || op == ast::CmpOpKind::NotEq)
      return decided((a.isNone() && b.isNone()) == (op == ast::CmpOpKind::Eq));
  }
  // dtypes as values (np.float64, np.dtype('int64'), a.dtype): known at compile time, so
  // == and != are constants (records compare their layouts, as the types do)
  if (a.kind == Kind::DTypeObj && b.kind == Kind::DTypeObj &&
      (op == ast::CmpOpKind::Eq || op == ast::CmpOpKind::NotEq))
    return decided((a == b) == (op == ast::CmpOpKind::Eq));
  if (auto r = datetimeCompare(*this, op, lhs, rhs, loc)) return r; // datetime64 / timedelta64 (datetime.cpp)
  if (!a.isNumber() || !b.isNumber())
    error(loc, std::string("cannot compare ") + a.str() + " and " + b.str() + " with " + ast::cmpOpSymbol(op));
  Type common = Type::scalar(types::promote(a.dtype, b.dtype));
  bool ordered = op != ast::CmpOpKind::Eq && op != ast::CmpOpKind::NotEq;
  if (ordered && common.isComplex()) error(loc, "complex numbers cannot be ordered");
  ir::CmpOp cop = irCompare(op).value_or(ir::CmpOp::Eq);
  // Integers known at compile time (a.ndim != 1, len(t) == 2) compare at compile time, so
  // that an `if` on them types only its live branch.
  if (lhs->op == ir::ExprOp::Const && rhs->op == ir::ExprOp::Const && (common.isInt() || common.isBool()) &&
      (lhs->type.isInt() || lhs->type.isBool()) && (rhs->type.isInt() || rhs->type.isBool())) {
    bool u = common.isInt() && !types::isSigned(common.dtype);
    int64_t x = lhs->ival, y = rhs->ival;
    auto lt = [&](int64_t p, int64_t q) { return u ? uint64_t(p) < uint64_t(q) : p < q; };
    bool r = false;
    switch (cop) {
    case ir::CmpOp::Eq: r = x == y; break;
    case ir::CmpOp::Ne: r = x != y; break;
    case ir::CmpOp::Lt: r = lt(x, y); break;
    case ir::CmpOp::Le: r = !lt(y, x); break;
    case ir::CmpOp::Gt: r = lt(y, x); break;
    case ir::CmpOp::Ge: r = !lt(x, y); break;
    }
    return ir::makeConst(Type::boolean(), loc, r);
  }
  auto e = std::make_unique<ir::Expr>(ir::ExprOp::Compare, Type::boolean(), loc);
  e->sub = int(cop);
  e->args.push_back(ir::makeCast(std::move(lhs), common));
  e->args.push_back(ir::makeCast(std::move(rhs), common));
  return e;
}

ExprPtr FunctionTyper::compare(const ast::Compare &c) {
  if (c.ops.size() == 1) return compareOne(c.ops[0], expr(*c.left), expr(*c.comparators[0]), c.loc);
  return chainedCompare(c, 0, expr(*c.left));
}

// a < b < c  →  (a < b) and (b < c), b evaluated once and c only when a < b, as
// Python does: a middle operand with effects (and then the one before it) is
// evaluated once into a hidden variable (Let) at its place in the chain.
ExprPtr FunctionTyper::chainedCompare(const ast::Compare &c, size_t i, ExprPtr left) {
  ExprPtr right = expr(*c.comparators[i]);
  if (i + 1 == c.ops.size()) return compareOne(c.ops[i], std::move(left), std::move(right), c.loc);
  if (isUnknown(left) || isUnknown(right)) return unknown(c.loc);
  std::vector<ExprPtr> operands;
  operands.push_back(std::move(left));
  operands.push_back(std::move(right));
  auto bindings = bindOperands(operands, c.loc);
  ExprPtr middle = ir::clone(*operands[1]);
  ExprPtr first = compareOne(c.ops[i], std::move(operands[0]), std::move(operands[1]), c.loc);
  ExprPtr rest = chainedCompare(c, i + 1, std::move(middle));
  if (isUnknown(first) || isUnknown(rest)) return unknown(c.loc);
  first = truth(std::move(first)); // an array comparison here: its truth value is ambiguous, as in Python
  if (!rest->type.isBool())
    notSupported(c.loc, "a chained comparison whose later comparison gives " + rest->type.str() + " is not supported");
  auto sc = std::make_unique<ir::Expr>(ir::ExprOp::ShortCircuit, Type::boolean(), c.loc);
  sc->sub = 0;
  sc->args.push_back(std::move(first));
  sc->args.push_back(std::move(rest));
  return wrapBindings(std::move(bindings), std::move(sc), c.loc);
}

ExprPtr FunctionTyper::boolOp(const ast::BoolOp &b) {
  std::vector<ExprPtr> values;
  Type t = Type::unknown();
  for (auto &v : b.values) {
    values.push_back(expr(*v));
    if (isUnknown(values.back())) return unknown(b.loc);
    auto u = types::unify(t, values.back()->type);
    if (u && u->isOptional() && u->elems[0].isNumber()) {
      t = *u;
      continue;
    }
    if (!u || !(u->isNumber()))
      error(v->loc, "operands of 'and'/'or' must be numbers or bools of compatible types, got " +
                        values.back()->type.str());
    t = *u;
  }
  if (t.isOptional()) return optionalBoolOp(b.op == ast::BoolOpKind::Or, std::move(values), t, b.loc);
  // Bools known at compile time fold (`a.ndim != 1 or b.ndim != 1`), keeping branch pruning.
  if (t.isBool()) {
    bool allConst = true;
    for (auto &v : values) allConst &= v->op == ir::ExprOp::Const;
    if (allConst) {
      bool isOr = b.op == ast::BoolOpKind::Or;
      bool r = !isOr;
      for (auto &v : values) r = isOr ? (r || v->ival != 0) : (r && v->ival != 0);
      return ir::makeConst(Type::boolean(), b.loc, r);
    }
  }
  ExprPtr acc = ir::makeCast(std::move(values.back()), t);
  for (int i = int(values.size()) - 2; i >= 0; --i) {
    auto sc = std::make_unique<ir::Expr>(ir::ExprOp::ShortCircuit, t, b.loc);
    sc->sub = b.op == ast::BoolOpKind::Or ? 1 : 0;
    sc->args.push_back(ir::makeCast(std::move(values[i]), t));
    sc->args.push_back(std::move(acc));
    acc = std::move(sc);
  }
  return acc;
}

// `a or b` / `a and b` with an operand that may be None (false): the operand whose
// truth decides, as in Python, of the operands' unified optional type.
ExprPtr FunctionTyper::optionalBoolOp(bool isOr, std::vector<ExprPtr> values, const Type &t, Loc loc) {
  ExprPtr acc = convert(std::move(values.back()), t, "'and'/'or'");
  for (int i = int(values.size()) - 2; i >= 0; --i) {
    auto stmts = std::make_shared<ir::Block>();
    int v = holdInTemp(std::move(values[i]), loc, *stmts);
    auto sel = std::make_unique<ir::Expr>(ir::ExprOp::Select, t, loc);
    sel->args.push_back(truth(load(v, loc)));
    ExprPtr self = convert(load(v, loc), t, "'and'/'or'");
    sel->args.push_back(isOr ? std::move(self) : std::move(acc));
    sel->args.push_back(isOr ? std::move(acc) : std::move(self));
    acc = seqExpr(std::move(stmts), std::move(sel), loc);
  }
  return acc;
}

ExprPtr FunctionTyper::ifExp(const ast::IfExp &e) {
  auto cond = condition(*e.test);
  // A condition known at compile time (`x if y is None else z`): only the live branch is typed.
  ir::Block effects;
  if (auto known = knownCondition(cond, effects)) {
    ExprPtr live = expr(*known ? *e.body : *e.orelse);
    if (effects.empty() || isUnknown(live)) return live;
    return seqExpr(std::make_shared<ir::Block>(std::move(effects)), std::move(live), e.loc);
  }
  auto a = expr(*e.body);
  auto b = expr(*e.orelse);
  if (isUnknown(cond) || isUnknown(a) || isUnknown(b)) return unknown(e.loc);
  auto u = types::unify(a->type, b->type);
  if (!u) error(e.loc, "the branches of the conditional expression have incompatible types " +
                           a->type.str() + " and " + b->type.str());
  auto s = std::make_unique<ir::Expr>(ir::ExprOp::Select, *u, e.loc);
  s->args.push_back(std::move(cond));
  s->args.push_back(convert(std::move(a), *u, "conditional expression"));
  s->args.push_back(convert(std::move(b), *u, "conditional expression"));
  return s;
}

ExprPtr FunctionTyper::tupleExpr(const ast::Tuple &t) {
  std::vector<ExprPtr> elems;
  std::vector<Type> ts;
  for (auto &e : t.elts) {
    if (e->kind == ast::ExprKind::Starred) notSupported(e->loc, "starred expressions in tuples are not supported");
    elems.push_back(expr(*e));
    if (isUnknown(elems.back())) return unknown(t.loc);
    // A dtype is a value (its type says which, as Numba's dtype values): tuples hold it.
    if (isCompileTimeOnly(elems.back()->type) && elems.back()->type.kind != Kind::DTypeObj)
      notSupported(e->loc, "a " + elems.back()->type.str() + " cannot be put in a tuple");
    ts.push_back(elems.back()->type);
  }
  auto r = std::make_unique<ir::Expr>(ir::ExprOp::TupleMake, Type::tuple(ts), t.loc);
  r->args = std::move(elems);
  return r;
}

} // namespace mahou::sema
