// Typers of modules read as values (modules.def): math/np constants, NumPy's dtypes,
// np.random, and the modules and globals a global path reaches (`pkg.mod.CONST`).
#include "sema/typers.h"

#include <cmath>

namespace mahou::sema {

// The global `module.attr` of a module reached by a global path (user modules, and
// `np.linalg` and the like): looked up like a global name, so compiled once and
// recorded for the cache as such.
const GlobalValue *moduleMember(Typing &t, const Type &module, const std::string &attr) {
  if (module.kind != Kind::Module || module.text.empty()) return nullptr;
  return &t.global(module.text + "." + attr);
}

ExprPtr moduleAttribute(Typing &t, const Type &module, const std::string &attr, Loc loc) {
  const GlobalValue *g = moduleMember(t, module, attr);
  if (!g || g->kind == GlobalValue::Kind::Missing)
    t.error(loc, "module '" + module.text + "' has no attribute '" + attr + "'");
  if (g->kind == GlobalValue::Kind::Unsupported)
    t.notSupported(loc, "'" + module.text + "." + attr + "' is " + g->s + ", which compiled code cannot use");
  if (g->kind == GlobalValue::Kind::Overloaded)
    t.notSupported(loc, "'" + module.text + "." + attr + "' can only be called, not used as a value");
  ExprPtr v = t.constantFromGlobal(*g, loc);
  if (v->type.kind == Kind::Module) v->type.text = module.text + "." + attr;
  return v;
}

ExprPtr moduleConstant(Use &u) {
  double v = 0;
  switch (ModuleConstant(u.variant())) {
  case ModuleConstant::Pi: v = M_PI; break;
  case ModuleConstant::E: v = M_E; break;
  case ModuleConstant::Tau: v = 2 * M_PI; break;
  case ModuleConstant::Inf: v = INFINITY; break;
  case ModuleConstant::NaN: v = NAN; break;
  }
  return ir::makeConst(Type::float64(), u.loc, 0, v);
}

// np.float64, np.int32, ...: the scalar class (ival kDTypeClass: `is` tells it from a dtype)
ExprPtr numpyDTypeAttribute(Use &u) {
  return ir::makeConst(Type::dtypeObj(DType(u.variant())), u.loc, types::kDTypeClass);
}

ExprPtr numpyRandomModule(Use &u) { return ir::makeConst(Type::moduleRef(types::ModuleId::NumpyRandom), u.loc, 0); }

ExprPtr numpyNdarrayClass(Use &u) {
  u.notSupported("'ndarray' of module " + u.self->type.str() + " is not supported as a value");
}

// Another name of math, numpy, ...: a module the global path reaches (np.linalg).
ExprPtr moduleValueAttribute(Use &u) {
  const Type module = u.self->type;
  if (const GlobalValue *g = moduleMember(u.t, module, u.name))
    if (g->kind == GlobalValue::Kind::Module) return moduleAttribute(u.t, module, u.name, u.loc);
  if (u.receiver() == Receiver::Numpy && !u.t.gpu()) { // f = np.trapezoid: the library's function
    const GlobalValue &g = u.t.global("@numpy." + u.name);
    if (g.kind == GlobalValue::Kind::Function) return u.t.constantFromGlobal(g, u.loc);
  }
  u.notSupported("'" + u.name + "' of module " + module.str() + " is not supported as a value");
}

// np.newaxis: None, as NumPy's.
ExprPtr numpyNewAxis(Use &u) { return ir::makeConst(Type::none(), u.loc, 0); }

// numba.<name> of the mahou module: a module its path reaches, or one of its type objects
// as a value (numba.uint32: a dtype, as in np.zeros(n, dtype=numba.uint32)).
ExprPtr mahouValueAttribute(Use &u) {
  const Type module = u.self->type;
  if (const GlobalValue *g = moduleMember(u.t, module, u.name)) {
    if (g->kind == GlobalValue::Kind::Module) return moduleAttribute(u.t, module, u.name, u.loc);
    if (g->kind == GlobalValue::Kind::DType) return u.t.constantFromGlobal(*g, u.loc);
  }
  u.notSupported("'" + u.name + "' of module " + module.str() + " is not supported as a value");
}

// A user's module: its attribute is the global of that path.
ExprPtr pythonModuleAttribute(Use &u) { return moduleAttribute(u.t, u.self->type, u.name, u.loc); }

} // namespace mahou::sema
