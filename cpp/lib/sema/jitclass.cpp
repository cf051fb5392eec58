// Typing of @jitclass instances: construction (allocation, then __init__), field reads
// and writes at their offsets (with the spec's types), properties, methods and static
// methods (compiled functions taking the instance first), and the special methods
// operators, len(), subscripts and `in` call.
#include "mahou/bound_method_type.h"
#include "typer.h"
#include "sema/typers.h"

#include "mahou/jitclass.h"
#include "mahou/layout.h"

namespace mahou::sema {

using ObjectOp = ir::ObjectOp;

namespace {

ir::StmtPtr evalStmt(ExprPtr e, Loc loc) {
  auto st = std::make_unique<ir::Stmt>(ir::StmtOp::Eval, loc);
  st->exprs.push_back(std::move(e));
  return st;
}

int64_t fieldOffset(const JitClassInfo &c, int field) {
  return int64_t(kJitInstanceFieldsOffset + types::tupleOffsets(fieldsType(c))[size_t(field)]);
}

// The special method of a binary operator and of its reflected form.
std::pair<const char *, const char *> binaryMethods(ast::BinOpKind op) {
  switch (op) {
  case ast::BinOpKind::Add: return {"__add__", "__radd__"};
  case ast::BinOpKind::Sub: return {"__sub__", "__rsub__"};
  case ast::BinOpKind::Mult: return {"__mul__", "__rmul__"};
  case ast::BinOpKind::Div: return {"__truediv__", "__rtruediv__"};
  case ast::BinOpKind::FloorDiv: return {"__floordiv__", "__rfloordiv__"};
  case ast::BinOpKind::Mod: return {"__mod__", "__rmod__"};
  case ast::BinOpKind::Pow: return {"__pow__", "__rpow__"};
  case ast::BinOpKind::MatMult: return {"__matmul__", "__rmatmul__"};
  case ast::BinOpKind::BitAnd: return {"__and__", "__rand__"};
  case ast::BinOpKind::BitOr: return {"__or__", "__ror__"};
  case ast::BinOpKind::BitXor: return {"__xor__", "__rxor__"};
  case ast::BinOpKind::LShift: return {"__lshift__", "__rlshift__"};
  case ast::BinOpKind::RShift: return {"__rshift__", "__rrshift__"};
  }
  return {"", ""};
}

// A comparison's method and the one the other operand answers it with.
std::pair<const char *, const char *> compareMethods(ast::CmpOpKind op) {
  switch (op) {
  case ast::CmpOpKind::Eq: return {"__eq__", "__eq__"};
  case ast::CmpOpKind::NotEq: return {"__ne__", "__ne__"};
  case ast::CmpOpKind::Lt: return {"__lt__", "__gt__"};
  case ast::CmpOpKind::LtE: return {"__le__", "__ge__"};
  case ast::CmpOpKind::Gt: return {"__gt__", "__lt__"};
  case ast::CmpOpKind::GtE: return {"__ge__", "__le__"};
  default: return {"", ""};
  }
}

} // namespace

const JitClassInfo &FunctionTyper::jitClassOf(const Type &t, Loc loc) {
  requireHost(loc, "a jitclass");
  const JitClassInfo *c = env_.jitClass(t.handle);
  if (!c) notSupported(loc, "the jitclass '" + t.text + "' is not known to this function");
  return *c;
}

ExprPtr newInstance(Typing &t, uint64_t classHandle, const std::string &className, const ast::Call &e) {
  const JitClassInfo &c = t.jitClassOf(Type::classRef(classHandle, className), e.loc);
  Type withFields = c.instanceType();
  withFields.elems = c.fieldTypes; // the layout InstanceNew allocates (jitclass.h)
  auto stmts = std::make_shared<ir::Block>();
  int self = t.holdInTemp(objectOp(t, ObjectOp::InstanceNew, withFields, {}, e.loc), e.loc, *stmts);
  if (uint64_t init = c.method("__init__")) {
    auto r = t.compiledCall(init, c.name, e, t.load(self, e.loc));
    if (t.isUnknown(r)) return t.unknown(e.loc);
    if (!r->type.isNone()) t.error(e.loc, "__init__() of '" + c.name + "' should return None, not " + r->type.str());
    stmts->push_back(evalStmt(std::move(r), e.loc));
  } else if (!e.args.empty() || !e.keywords.empty()) {
    t.error(e.loc, c.name + "() takes no arguments");
  }
  return t.seqExpr(std::move(stmts), t.load(self, e.loc), e.loc);
}

namespace {

// A field or a property of an instance (an optional one: None is an error at run time).
ExprPtr instanceAttribute(Typing &t, ExprPtr obj, const std::string &attr, Loc loc) {
  obj = t.unwrapOptional(std::move(obj));
  const Type ot = obj->type;
  const JitClassInfo &c = t.jitClassOf(ot, loc);
  if (ot.kind == Kind::ClassRef)
    t.notSupported(loc, "'" + attr + "' of the class '" + c.name + "' is only supported as a call of a static method");
  int i = c.fieldIndex(attr);
  if (i >= 0) {
    std::vector<ExprPtr> a;
    a.push_back(std::move(obj));
    return objectOp(t, ObjectOp::InstanceGet, c.fieldTypes[size_t(i)], std::move(a), loc, fieldOffset(c, i));
  }
  auto p = c.properties.find(attr);
  if (p != c.properties.end()) {
    if (!p->second.getter) t.error(loc, "the property '" + attr + "' of '" + c.name + "' has no getter");
    CallArgs a;
    a.positional.push_back(std::move(obj));
    return t.callCompiled(p->second.getter, c.name + "." + attr, std::move(a), loc);
  }
  if (c.method(attr)) { // `f = obj.method`: the instance, called later with it first
    auto bound = std::make_unique<ir::Expr>(ir::ExprOp::TupleMake, types::boundMethodType(ot, c.name, attr), loc);
    bound->args.push_back(std::move(obj));
    return bound;
  }
  if (c.staticMethods.count(attr))
    t.notSupported(loc, "the static method '" + attr + "' of '" + c.name + "' can only be called, not used as a value");
  t.error(loc, "'" + c.name + "' object has no attribute '" + attr + "'");
}

} // namespace

ExprPtr instanceAttributeTyper(Use &u) { return instanceAttribute(u.t, std::move(u.self), u.name, u.loc); }

void storeAttribute(Typing &t, ExprPtr obj, const std::string &attr, ExprPtr value, Loc loc, ir::Block &out) {
  if (t.isUnknown(obj)) return;
  obj = t.unwrapOptional(std::move(obj));
  if (obj->type.isRecord() || obj->type.isRecordArray()) return storeRecordField(t, std::move(obj), attr, std::move(value), loc, out);
  if (!obj->type.isInstance())
    t.notSupported(loc, "assigning to an attribute of a " + obj->type.str() + " is not supported");
  const JitClassInfo &c = t.jitClassOf(obj->type, loc);
  int i = c.fieldIndex(attr);
  if (i >= 0) {
    if (t.isUnknown(value) && !value->type.isPartialContainer()) return;
    const Type &ft = c.fieldTypes[size_t(i)];
    if (ft.isUnicode()) value = toUnicode(t, std::move(value));
    value = t.convert(std::move(value), ft, "the assignment to field '" + attr + "' of jitclass '" + c.name + "'");
    if (t.isUnknown(value)) return;
    std::vector<ExprPtr> a;
    a.push_back(std::move(obj));
    a.push_back(std::move(value));
    out.push_back(evalStmt(objectOp(t, ObjectOp::InstanceSet, Type::none(), std::move(a), loc, fieldOffset(c, i)), loc));
    return;
  }
  auto p = c.properties.find(attr);
  if (p != c.properties.end()) {
    if (!p->second.setter) t.error(loc, "the property '" + attr + "' of '" + c.name + "' has no setter");
    CallArgs a;
    a.positional.push_back(std::move(obj));
    a.positional.push_back(std::move(value));
    auto r = t.callCompiled(p->second.setter, c.name + "." + attr, std::move(a), loc);
    if (!t.isUnknown(r)) out.push_back(evalStmt(std::move(r), loc));
    return;
  }
  t.error(loc, "'" + c.name + "' object has no field '" + attr + "' (a jitclass's fields are those of its spec)");
}

void FunctionTyper::augAssignAttribute(const ast::Attribute &target, const ast::AugAssign &s, ir::Block &out) {
  auto obj = expr(*target.value);
  if (isUnknown(obj)) {
    expr(*s.value);
    return;
  }
  obj = unwrapOptional(std::move(obj));
  if (obj->type.isRecord()) { // r.x += v
    int k = obj->type.fieldIndex(target.attr);
    if (k < 0) error(s.loc, obj->type.str() + " has no field '" + target.attr + "'");
    return augAssignRecordField(*this, std::move(obj), k, s, out);
  }
  if (!obj->type.isInstance())
    notSupported(s.loc, "augmented assignment to an attribute of a " + obj->type.str() + " is not supported");
  // The instance is evaluated once: a variable is read again, anything else is held in a
  // hidden variable.
  int self = -1;
  if (!isPureValue(*obj)) self = holdInTemp(std::move(obj), s.loc, out);
  auto instance = [&] { return self >= 0 ? load(self, s.loc) : ir::clone(*obj); };
  auto cur = instanceAttribute(*this, instance(), target.attr, s.loc);
  if (!isUnknown(cur) && cur->type.isArray()) { // in place: o.a += b writes into the array
    auto v = binary(s.op, instanceAttribute(*this, instance(), target.attr, s.loc), expr(*s.value), s.loc);
    if (!isUnknown(v)) out.push_back(storeView(std::move(cur), std::move(v), s.loc));
    return;
  }
  auto rhs = expr(*s.value);
  ExprPtr v;
  if (!isUnknown(cur) && cur->type.isInstance()) v = instanceInPlace(*this, s.op, cur, rhs, s.loc);
  if (!v) v = binary(s.op, std::move(cur), std::move(rhs), s.loc);
  storeAttribute(*this, instance(), target.attr, std::move(v), s.loc, out);
}

// o.name(...): a method of the instance's class (self first) or a static method.
ExprPtr instanceMethodTyper(Use &u) {
  const std::string &name = u.name;
  const JitClassInfo &c = u.t.jitClassOf(u.self->type, u.loc);
  if (uint64_t m = c.method(name)) {
    return u.t.compiledCall(m, c.name + "." + name, *u.call, std::move(u.self));
  }
  auto st = c.staticMethods.find(name);
  if (st != c.staticMethods.end()) return u.t.compiledCall(st->second, c.name + "." + name, *u.call);
  if (c.fieldIndex(name) >= 0 || c.properties.count(name))
    u.notSupported("calling the field '" + name + "' of '" + c.name + "' is not supported");
  if (auto r = u.t.extensionMember(u)) return r; // @overload_method (a structref's methods)
  u.error("'" + c.name + "' object has no attribute '" + name + "'");
}

std::optional<CalleeRef> FunctionTyper::classAttributeCallee(const Type &cls, const std::string &attr, Loc loc) {
  const JitClassInfo &c = jitClassOf(cls, loc);
  auto st = c.staticMethods.find(attr);
  if (st == c.staticMethods.end())
    notSupported(loc, "'" + attr + "' of the class '" + c.name + "': only static methods can be called on a jitclass");
  CalleeRef r{CalleeRef::Kind::Compiled, c.name + "." + attr};
  r.handle = st->second;
  return r;
}

ExprPtr specialMethod(Typing &t, const std::string &method, std::vector<ExprPtr> args, Loc loc) {
  const JitClassInfo &c = t.jitClassOf(args[0]->type, loc);
  uint64_t m = c.method(method);
  if (!m) return nullptr;
  CallArgs call;
  call.positional = std::move(args);
  return t.callCompiled(m, c.name + "." + method, std::move(call), loc);
}

ExprPtr instanceBinary(Typing &t, ast::BinOpKind op, ExprPtr &lhs, ExprPtr &rhs, Loc loc) {
  auto [fwd, refl] = binaryMethods(op);
  if (lhs->type.isInstance() && t.jitClassOf(lhs->type, loc).method(fwd)) {
    std::vector<ExprPtr> a;
    a.push_back(std::move(lhs));
    a.push_back(std::move(rhs));
    return specialMethod(t, fwd, std::move(a), loc);
  }
  if (rhs->type.isInstance() && t.jitClassOf(rhs->type, loc).method(refl)) {
    std::vector<ExprPtr> a;
    a.push_back(std::move(rhs));
    a.push_back(std::move(lhs));
    return specialMethod(t, refl, std::move(a), loc);
  }
  t.error(loc, std::string("unsupported operand type(s) for ") + ast::binOpSymbol(op) + ": " + lhs->type.str() +
                 " and " + rhs->type.str());
}

ExprPtr instanceInPlace(Typing &t, ast::BinOpKind op, ExprPtr &lhs, ExprPtr &rhs, Loc loc) {
  if (t.isUnknown(rhs)) return nullptr;
  std::string method = std::string("__i") + (binaryMethods(op).first + 2); // __add__ -> __iadd__
  if (!t.jitClassOf(lhs->type, loc).method(method)) return nullptr;
  std::vector<ExprPtr> a;
  a.push_back(std::move(lhs));
  a.push_back(std::move(rhs));
  return specialMethod(t, method, std::move(a), loc);
}

ExprPtr instanceUnary(Typing &t, ast::UnaryOpKind op, ExprPtr obj, Loc loc) {
  if (op == ast::UnaryOpKind::Not) return t.logicalNot(t.truth(std::move(obj)));
  const char *method = op == ast::UnaryOpKind::USub ? "__neg__" : op == ast::UnaryOpKind::UAdd ? "__pos__" : "__invert__";
  std::string name = obj->type.text;
  std::vector<ExprPtr> a;
  a.push_back(std::move(obj));
  if (auto r = specialMethod(t, method, std::move(a), loc)) return r;
  t.error(loc, std::string("bad operand type for unary ") + ast::unaryOpSymbol(op) + ": '" + name + "' (it defines no " +
                 method + ")");
}

ExprPtr instanceCompare(Typing &t, ast::CmpOpKind op, ExprPtr &lhs, ExprPtr &rhs, Loc loc) {
  auto [fwd, refl] = compareMethods(op);
  if (!*fwd) return nullptr;
  bool eqOp = op == ast::CmpOpKind::Eq || op == ast::CmpOpKind::NotEq;
  auto call = [&](const char *m, ExprPtr &self, ExprPtr &other) {
    std::vector<ExprPtr> a;
    a.push_back(std::move(self));
    a.push_back(std::move(other));
    return specialMethod(t, m, std::move(a), loc);
  };
  if (lhs->type.isInstance() && t.jitClassOf(lhs->type, loc).method(fwd)) return call(fwd, lhs, rhs);
  if (rhs->type.isInstance() && t.jitClassOf(rhs->type, loc).method(refl)) return call(refl, rhs, lhs);
  if (op == ast::CmpOpKind::NotEq) { // != is the negation of __eq__ when __ne__ is not defined
    if (lhs->type.isInstance() && t.jitClassOf(lhs->type, loc).method("__eq__")) {
      auto r = call("__eq__", lhs, rhs);
      return t.isUnknown(r) ? std::move(r) : t.logicalNot(t.truth(std::move(r)));
    }
  }
  if (eqOp) { // without __eq__: identity
    bool ne = op == ast::CmpOpKind::NotEq;
    if (lhs->type != rhs->type) return ir::makeConst(Type::boolean(), loc, ne);
    std::vector<ExprPtr> a;
    a.push_back(std::move(lhs));
    a.push_back(std::move(rhs));
    auto same = objectOp(t, ObjectOp::InstanceIs, Type::boolean(), std::move(a), loc);
    return ne ? t.logicalNot(std::move(same)) : std::move(same);
  }
  t.error(loc, std::string("'") + ast::cmpOpSymbol(op) + "' is not supported between " + lhs->type.str() + " and " +
                 rhs->type.str() + " (the class defines no " + fwd + ")");
}

ExprPtr instanceIdentity(Typing &t, bool negate, ExprPtr lhs, ExprPtr rhs, Loc loc) {
  std::vector<ExprPtr> a;
  a.push_back(std::move(lhs));
  a.push_back(std::move(rhs));
  auto same = objectOp(t, ObjectOp::InstanceIs, Type::boolean(), std::move(a), loc);
  return negate ? t.logicalNot(std::move(same)) : std::move(same);
}

ExprPtr instanceContains(Typing &t, bool negate, ExprPtr &needle, ExprPtr &container, Loc loc) {
  std::vector<ExprPtr> a;
  a.push_back(std::move(container));
  a.push_back(std::move(needle));
  Type ct = a[0]->type;
  auto r = specialMethod(t, "__contains__", std::move(a), loc);
  if (!r) t.error(loc, "argument of type '" + ct.text + "' is not iterable (it defines no __contains__)");
  if (t.isUnknown(r)) return r;
  r = t.truth(std::move(r));
  return negate ? t.logicalNot(std::move(r)) : std::move(r);
}

ExprPtr instanceLen(Typing &t, ExprPtr obj, Loc loc) {
  std::string name = obj->type.text;
  std::vector<ExprPtr> a;
  a.push_back(std::move(obj));
  auto r = specialMethod(t, "__len__", std::move(a), loc);
  if (!r) t.error(loc, "object of type '" + name + "' has no len()");
  if (t.isUnknown(r)) return r;
  if (!r->type.isInt() && !r->type.isBool()) t.error(loc, "__len__() of '" + name + "' should return an integer");
  return ir::makeCast(std::move(r), Type::int64());
}

ExprPtr instanceTruth(Typing &t, ExprPtr obj) {
  Loc loc = obj->loc;
  const JitClassInfo &c = t.jitClassOf(obj->type, loc);
  if (c.method("__bool__") || c.method("__len__")) {
    bool viaBool = c.method("__bool__") != 0;
    std::vector<ExprPtr> a;
    a.push_back(std::move(obj));
    auto r = specialMethod(t, viaBool ? "__bool__" : "__len__", std::move(a), loc);
    return t.truth(std::move(r));
  }
  return ir::makeConst(Type::boolean(), loc, 1); // an object is true
}

ExprPtr instanceGetItem(Typing &t, ExprPtr obj, const ast::Expr &index, Loc loc) {
  std::string name = obj->type.text;
  std::vector<ExprPtr> a;
  a.push_back(std::move(obj));
  a.push_back(t.expr(index));
  auto r = specialMethod(t, "__getitem__", std::move(a), loc);
  if (!r) t.error(loc, "'" + name + "' object is not subscriptable (it defines no __getitem__)");
  return r;
}

void instanceSetItem(Typing &t, ExprPtr obj, const ast::Expr &index, ExprPtr value, Loc loc, ir::Block &out) {
  std::string name = obj->type.text;
  std::vector<ExprPtr> a;
  a.push_back(std::move(obj));
  a.push_back(t.expr(index));
  a.push_back(std::move(value));
  auto r = specialMethod(t, "__setitem__", std::move(a), loc);
  if (!r) t.error(loc, "'" + name + "' object does not support item assignment (it defines no __setitem__)");
  if (!t.isUnknown(r)) out.push_back(evalStmt(std::move(r), loc));
}

} // namespace mahou::sema
