// Conversions of @jitclass instances through their special methods, as Python does
// them: int() (__int__, else __index__), float() (__float__, else __index__), complex()
// (__complex__, else __float__, else __index__), bool() (__bool__, else __len__, else
// true), str() (__str__, else __repr__) and repr() (__repr__); print() and f-strings
// use str(). Each method's result must have the type Python requires of it.
#include "typer.h"
#include "sema/numbers.h"

#include "mahou/jitclass.h"

namespace mahou::sema {

namespace {

bool isIntegral(const Type &t) { return t.isInt() || t.isBool(); }

} // namespace

ExprPtr instanceConversion(Typing &t, NumberConversion to, const std::string &builtin, ExprPtr obj, Loc loc) {
  if (to == NumberConversion::Bool) return t.truth(std::move(obj));
  const JitClassInfo &c = t.jitClassOf(obj->type, loc);
  // The methods Python tries, in order, and what each must return.
  struct Method {
    const char *name;
    NumberConversion gives;
  };
  std::vector<Method> order;
  if (to == NumberConversion::Int) order = {{"__int__", NumberConversion::Int}, {"__index__", NumberConversion::Int}};
  else if (to == NumberConversion::Float)
    order = {{"__float__", NumberConversion::Float}, {"__index__", NumberConversion::Int}};
  else
    order = {{"__complex__", NumberConversion::Complex},
             {"__float__", NumberConversion::Float},
             {"__index__", NumberConversion::Int}};
  const Method *method = nullptr;
  for (const Method &m : order)
    if (c.method(m.name)) {
      method = &m;
      break;
    }
  if (!method)
    t.error(loc, builtin + "() argument must be a string or a" + (to == NumberConversion::Int ? " real number" : " number") +
                   ", not '" + c.name + "' (it defines none of " + order[0].name + (order.size() > 2 ? ", " : " or ") +
                   order[1].name + (order.size() > 2 ? std::string(" or ") + order[2].name : "") + ")");
  std::vector<ExprPtr> a;
  a.push_back(std::move(obj));
  auto r = specialMethod(t, method->name, std::move(a), loc);
  if (Typing::isUnknown(r)) return r;
  const Type rt = r->type;
  bool ok = method->gives == NumberConversion::Complex ? rt.isComplex()
            : method->gives == NumberConversion::Float ? rt.isFloat()
                                                       : isIntegral(rt);
  if (!ok) {
    const char *want = method->gives == NumberConversion::Complex ? "complex"
                       : method->gives == NumberConversion::Float ? "float"
                                                                  : "int";
    t.error(loc, std::string(method->name) + " of '" + c.name + "' returned non-" + want + " (type " + rt.str() + ")");
  }
  Type target = to == NumberConversion::Int     ? Type::int64()
                : to == NumberConversion::Float ? Type::float64()
                                                : Type::scalar(DType::Complex128);
  if (rt.isInt() && !types::isSigned(rt.dtype) && to == NumberConversion::Int) target = rt; // a uint64 keeps its range
  return ir::makeCast(std::move(r), target);
}

ExprPtr instanceStr(Typing &t, ExprPtr obj, bool repr, Loc loc) {
  const JitClassInfo &c = t.jitClassOf(obj->type, loc);
  const char *method = repr ? "__repr__" : c.method("__str__") ? "__str__" : "__repr__";
  if (!c.method(method))
    t.notSupported(loc, std::string(repr ? "repr()" : "str() or print()") + " of a '" + c.name + "' instance needs its class to define " +
                          (repr ? "__repr__" : "__str__ or __repr__") + " (the default text shows an address)");
  std::vector<ExprPtr> a;
  a.push_back(std::move(obj));
  auto r = specialMethod(t, method, std::move(a), loc);
  if (t.isUnknown(r)) return r;
  if (!r->type.isString())
    t.error(loc, std::string(method) + " of '" + c.name + "' returned non-string (type " + r->type.str() + ")");
  return toUnicode(t, std::move(r));
}

} // namespace mahou::sema
