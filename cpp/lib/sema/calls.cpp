// Typing of calls: resolving what is called, Python builtins, dtype constructors,
// methods of arrays and numbers, and calls to other compiled functions.
#include "typer.h"
#include "sema/modules.h"
#include "mahou/versions.h"

#include "mahou/range_type.h"
#include "mahou/slice_type.h"

namespace mahou::sema {

std::optional<CalleeRef> FunctionTyper::calleeFromGlobal(const GlobalValue &g) {
  using CK = CalleeRef::Kind;
  using GK = GlobalValue::Kind;
  switch (g.kind) {
  case GK::Builtin: return CalleeRef{CK::Builtin, g.s};
  case GK::ModuleAttr: {
    CalleeRef r{CK::ModuleFn, g.s};
    r.module = g.module;
    return r;
  }
  case GK::Function: {
    CalleeRef r{CK::Compiled, g.s};
    r.handle = g.handle;
    return r;
  }
  case GK::ExternalFunction: {
    CalleeRef r{CK::External, g.s};
    r.handle = g.handle;
    return r;
  }
  case GK::DType: {
    CalleeRef r{CK::DTypeCtor, types::dtypeName(g.dtype)};
    r.dtype = g.dtype;
    return r;
  }
  case GK::ExcClass: {
    CalleeRef r{CK::ExcCtor, types::isUserExc(g.exc) ? g.s : types::excName(g.exc)};
    r.exc = g.exc;
    return r;
  }
  case GK::JitClass: {
    CalleeRef r{CK::JitClass, g.s};
    r.handle = g.handle;
    return r;
  }
  case GK::Overloaded: {
    CalleeRef r{CK::Overloaded, g.s};
    r.overloaded = &g;
    return r;
  }
  case GK::NamedTupleClass: {
    CalleeRef r{CK::NamedTuple, g.s};
    r.overloaded = &g;
    return r;
  }
  default: return std::nullopt;
  }
}

std::optional<CalleeRef> FunctionTyper::resolveCallee(const ast::Expr &func) {
  using CK = CalleeRef::Kind;
  if (auto *n = func.as<ast::Name>()) {
    if (varIndex_.count(n->id)) {
      auto v = load(varIndex_[n->id], n->loc);
      if (v->type.isUnknown()) return CalleeRef{CK::Unknown};
      if (v->type.kind == Kind::Function) { // a compiled function passed as an argument
        CalleeRef r{CK::Compiled, v->type.text};
        r.handle = v->type.handle;
        return r;
      }
      if (v->type.isClosure()) { // an inner function held in a variable (closures.cpp)
        CalleeRef r{CK::Closure, v->type.text};
        r.self = &func;
        return r;
      }
      error(n->loc, "'" + frontend::userName(n->id) + "' (" + v->type.str() + ") is not callable");
    }
    if (innerFunction(n->id)) return CalleeRef{CK::Inner, n->id};
    const GlobalValue &g = global(n->id);
    if (g.kind == GlobalValue::Kind::Missing) error(n->loc, "name '" + n->id + "' is not defined");
    return calleeFromGlobal(g);
  }
  if (auto *a = func.as<ast::Attribute>()) {
    // typed.List.empty_list, Dict.empty: a class method of a typed container class.
    std::string dotted;
    for (const ast::Expr *p = a->value.get(); p;) {
      if (auto *n = p->as<ast::Name>()) {
        dotted = n->id + dotted;
        break;
      }
      auto *pa = p->as<ast::Attribute>();
      if (!pa) {
        dotted.clear();
        break;
      }
      dotted = "." + pa->attr + dotted;
      p = pa->value.get();
    }
    if (!dotted.empty() && !varIndex_.count(dotted.substr(0, dotted.find('.')))) {
      std::string full = dotted + "." + a->attr;
      for (const std::string *path : {&full, &dotted}) {
        const GlobalValue &g = global(*path);
        if (g.kind == GlobalValue::Kind::Builtin && g.s.rfind("typed.", 0) == 0)
          return CalleeRef{CK::Builtin, path == &full ? g.s : g.s + "." + a->attr};
      }
      // mahou.typed.List(...), numba.typed.Dict.empty(...): through the mahou module.
      size_t dot = full.find('.');
      const GlobalValue &head = global(full.substr(0, dot));
      if (head.kind == GlobalValue::Kind::Module && head.module == types::ModuleId::Mahou &&
          full.compare(dot, 7, ".typed.") == 0) {
        std::string rest = full.substr(dot + 7); // List, Dict, List.empty_list, Dict.empty
        if (rest == "List" || rest == "Dict" || rest == "List.empty_list" || rest == "Dict.empty")
          return CalleeRef{CK::Builtin, "typed." + rest};
      }
    }
    // module.function or value.method
    auto base = expr(*a->value);
    if (isUnknown(base) && !base->type.isPartialContainer()) return CalleeRef{CK::Unknown};
    if (base->type.kind == Kind::Module) {
      // A module reached by a global path: its attribute is the global of that path (a
      // user module's function, or an @overload implementation of a NumPy function).
      if (const GlobalValue *g = moduleMember(*this, base->type, a->attr)) {
        if (g->kind == GlobalValue::Kind::Overloaded) return calleeFromGlobal(*g);
        if (base->type.module == types::ModuleId::Python) {
          if (g->kind == GlobalValue::Kind::Missing)
            error(a->loc, "module '" + base->type.text + "' has no attribute '" + a->attr + "'");
          if (auto r = calleeFromGlobal(*g)) return r;
          if (g->kind == GlobalValue::Kind::Unsupported)
            notSupported(a->loc, "'" + base->type.text + "." + a->attr + "' is " + g->s + ", which compiled code cannot call");
          return std::nullopt;
        }
      }
      if (base->type.module == types::ModuleId::Numpy) {
        std::string n = a->attr == "bool_" ? "bool" : a->attr == "float_" ? "float64" : a->attr;
        if (n == "intp" || n == "uintp") n = n == "intp" ? "int64" : "uint64"; // 64-bit platforms
        if (auto d = types::dtypeFromName(n)) {
          CalleeRef r{CK::DTypeCtor, n};
          r.dtype = *d;
          return r;
        }
      }
      CalleeRef r{CK::ModuleFn, a->attr};
      r.module = base->type.module;
      return r;
    }
    if (base->type.kind == Kind::Namespace) { // cuda.shared.array, cuda.atomic.add, ...
      CalleeRef r{CK::ModuleFn, base->type.text + "." + a->attr};
      r.module = types::ModuleId::Cuda;
      return r;
    }
    if (base->type.kind == Kind::ClassRef) return classAttributeCallee(base->type, a->attr, a->loc);
    CalleeRef r{CK::Method, a->attr};
    r.self = a->value.get();
    return r;
  }
  return std::nullopt;
}

const ast::Expr *FunctionTyper::keyword(const ast::Call &e, const std::string &name) {
  for (auto &k : e.keywords)
    if (k.name == name) return k.value.get();
  return nullptr;
}

void FunctionTyper::checkKeywords(const ast::Call &e, std::initializer_list<const char *> allowed,
                                  const std::string &fname) {
  for (auto &k : e.keywords) {
    bool ok = false;
    for (auto *a : allowed) ok |= k.name == a;
    if (k.name.empty()) notSupported(k.loc, "**kwargs in calls is not supported");
    if (!ok) error(k.loc, fname + "() got an unexpected or unsupported keyword argument '" + k.name + "'");
  }
}

std::vector<ExprPtr> FunctionTyper::positionalArgs(const ast::Call &e, size_t minArgs, size_t maxArgs,
                                                   const std::string &fname) {
  for (auto &a : e.args)
    if (a->kind == ast::ExprKind::Starred) notSupported(a->loc, "*args in calls is not supported yet");
  if (e.args.size() < minArgs || e.args.size() > maxArgs) {
    std::string expect = minArgs == maxArgs ? std::to_string(minArgs)
                                            : std::to_string(minArgs) + " to " + std::to_string(maxArgs);
    error(e.loc, fname + "() takes " + expect + " positional argument" + (maxArgs == 1 ? "" : "s") + " but " +
                     std::to_string(e.args.size()) + " were given");
  }
  std::vector<ExprPtr> out;
  for (auto &a : e.args) out.push_back(expr(*a));
  return out;
}

ExprPtr FunctionTyper::libraryCall(const std::string &qualified, const std::string &fname, const ast::Call &e,
                                   ExprPtr self) {
  if (gpu_) return nullptr; // the library allocates arrays: host code only
  const GlobalValue &g = global("@" + qualified);
  if (g.kind != GlobalValue::Kind::Function) return nullptr;
  return compiledCall(g.handle, fname, e, std::move(self));
}

ExprPtr FunctionTyper::call(const ast::Call &e) {
  auto callee = resolveCallee(*e.func);
  if (!callee) {
    auto v = expr(*e.func);
    if (isUnknown(v)) return unknown(e.loc);
    if (v->type.isClosure()) return closureCall(std::move(v), e); // (lambda x: ...)(1), fs[0](x)
    error(e.func->loc, "'" + v->type.str() + "' object is not callable");
  }
  return callResolved(*callee, e);
}

ExprPtr FunctionTyper::callResolved(const CalleeRef &c, const ast::Call &e) {
  const CalleeRef *callee = &c;
  switch (callee->kind) {
  case CalleeRef::Kind::Overloaded: {
    const GlobalValue &g = *callee->overloaded;
    return overloadedCall(g, e, [&]() -> ExprPtr {
      auto otherwise = calleeFromGlobal(g.elems[0]);
      if (!otherwise) notSupported(e.loc, "'" + g.s + "' (" + g.elems[0].s + ") cannot be called in compiled code");
      return callResolved(*otherwise, e);
    });
  }
  case CalleeRef::Kind::Unknown: {
    for (auto &a : e.args) expr(*a);
    return unknown(e.loc);
  }
  case CalleeRef::Kind::Builtin: return builtinCall(callee->name, e);
  case CalleeRef::Kind::ModuleFn:
    if (callee->module == types::ModuleId::Numpy) return numpyCall(callee->name, e);
    if (callee->module == types::ModuleId::Cuda) return cudaCall(callee->name, e);
    if (callee->module == types::ModuleId::NumpyRandom) return randomCall(callee->name, e);
    if (callee->module == types::ModuleId::Mahou) {
      if (callee->name == "prange") return builtinCall("range", e);
      if ((callee->name == "get_thread_id" || callee->name == "get_num_threads") && !gpu_) {
        checkKeywords(e, {}, callee->name);
        positionalArgs(e, 0, 0, callee->name);
        return intrinsic(callee->name == "get_thread_id" ? ir::Intrinsic::ThreadId : ir::Intrinsic::NumThreads,
                         Type::int64(), {}, e.loc);
      }
      if (callee->name == "carray" || callee->name == "farray") return carrayCall(callee->name, e);
      notSupported(e.loc, "mahou." + callee->name + " cannot be called in compiled code");
    }
    return mathCall(callee->module, callee->name, e);
  case CalleeRef::Kind::Compiled: return compiledCall(callee->handle, callee->name, e);
  case CalleeRef::Kind::Inner: return innerCall(*innerFunction(callee->name), e);
  case CalleeRef::Kind::Closure: return closureCall(expr(*callee->self), e);
  case CalleeRef::Kind::DTypeCtor: {
    checkKeywords(e, {}, callee->name);
    auto args = positionalArgs(e, 1, 1, callee->name);
    if (isUnknown(args[0])) return unknown(e.loc);
    if (!args[0]->type.isNumber())
      notSupported(e.loc, callee->name + "() of " + args[0]->type.str() + " is not supported");
    Type to = Type::scalar(callee->dtype);
    if (to.isBool()) return truth(std::move(args[0]));
    return convert(std::move(args[0]), to, callee->name + "()");
  }
  case CalleeRef::Kind::ExcCtor:
    error(e.loc, "exception classes can only be instantiated in a 'raise' statement");
  case CalleeRef::Kind::Method: return methodCall(*callee->self, callee->name, e);
  case CalleeRef::Kind::External: return nativeCall(callee->handle, callee->name, e);
  case CalleeRef::Kind::JitClass: return newInstance(callee->handle, callee->name, e);
  case CalleeRef::Kind::NamedTuple: return newNamedTuple(*callee->overloaded, e);
  }
  internalError("unhandled callee kind");
}

ExprPtr FunctionTyper::compiledCall(uint64_t handle, const std::string &fname, const ast::Call &e, ExprPtr receiver) {
  CallArgs call = callArgs(e);
  if (receiver) call.positional.insert(call.positional.begin(), std::move(receiver)); // a method's self comes first
  return callCompiled(handle, fname, std::move(call), e.loc);
}

ExprPtr FunctionTyper::callCompiled(uint64_t handle, const std::string &fname, CallArgs call, Loc loc) {
  std::vector<ExprPtr> args;
  std::vector<Type> types;
  bool unknownArg = call.unknown;
  std::optional<CalleeParams> params = env_.calleeParams(handle);
  if (!params) {
    if (!call.keywords.empty())
      notSupported(loc, "keyword arguments in calls to '" + fname + "' are not supported");
    args = std::move(call.positional);
  } else {
    // Bind positional and keyword arguments to the parameters; fill in defaults.
    size_t np = params->names.size();
    std::vector<ExprPtr> slots(np);
    std::vector<ExprPtr> extra;
    size_t npos = call.positional.size();
    for (size_t i = 0; i < npos; ++i) {
      if (i < np) slots[i] = std::move(call.positional[i]);
      else if (params->varargs) extra.push_back(std::move(call.positional[i]));
      else
        error(loc, fname + "() takes " + std::to_string(np) + " positional argument" + (np == 1 ? "" : "s") +
                       " but " + std::to_string(npos) + " were given");
    }
    for (auto &[name, value] : call.keywords) {
      size_t j = 0;
      while (j < np && params->names[j] != name) ++j;
      if (j == np) error(value->loc, fname + "() got an unexpected keyword argument '" + name + "'");
      if (slots[j]) error(value->loc, fname + "() got multiple values for argument '" + name + "'");
      slots[j] = std::move(value);
    }
    for (size_t j = 0; j < np; ++j) {
      if (slots[j]) continue;
      if (!params->defaults[j])
        error(loc, fname + "() missing required argument '" + params->names[j] + "'");
      slots[j] = constantFromGlobal(*params->defaults[j], loc);
    }
    args = std::move(slots);
    if (params->varargs) {
      std::vector<Type> ts;
      bool unk = false;
      for (auto &x : extra) {
        unk |= isUnknown(x);
        ts.push_back(x->type);
      }
      if (unk) args.push_back(unknown(loc));
      else {
        auto t = std::make_unique<ir::Expr>(ir::ExprOp::TupleMake, Type::tuple(ts), loc);
        t->args = std::move(extra);
        args.push_back(std::move(t));
      }
    }
  }
  for (auto &a : args) {
    unknownArg |= isUnknown(a);
    if (!isUnknown(a) && (a->type.kind == Kind::Str || a->type.isTuple())) a = itemValue(std::move(a)); // literals as str
    types.push_back(a->type);
  }
  if (unknownArg) return unknown(loc);
  if (auto uf = env_.calleeUfunc(handle))
    return wrapBindings(std::move(call.lets), ufuncCall(*uf, fname, std::move(args), loc), loc);
  for (auto &t : types)
    if (t.kind == Kind::Module || t.kind == Kind::DTypeObj || t.kind == Kind::ExcClass)
      notSupported(loc, "passing a " + t.str() + " to a compiled function is not supported");
  // Self-recursion: same function, same argument types → our own symbol and the
  // return type inferred so far (unknown until a base case has been seen).
  std::string key;
  for (auto &t : types) key += t.str() + (t.kind == Kind::Function ? "#" + std::to_string(t.handle) : "") + ";";
  Type ret;
  std::string symbol;
  bool self = false;
  {
    const GlobalValue &g = global(def_.name);
    self = g.kind == GlobalValue::Kind::Function && g.handle == handle && types == argTypes_;
    // Reached through another name (an @overload or register_jitable implementation).
    if (!self && !innerSelf_ && handle == env_.selfHandle() && types == argTypes_) self = true;
  }
  bool closures = std::any_of(types.begin(), types.end(), [](const Type &t) { return t.containsClosure(); });
  if (self) {
    symbol = symbol_;
    ret = ret_;
  } else if (closures && !gpu_) {
    // An inner function passed in: the callee is compiled into this module for it (closures.cpp).
    checkCallLimits(types, "'" + fname + "'", loc);
    auto src = env_.hostCalleeSource(handle);
    if (!src || !sink_) notSupported(loc, "an inner function cannot be passed to '" + fname + "'");
    CalleeSignature sig = sink_->require(*src, types);
    symbol = sig.symbol;
    ret = sig.ret;
  } else if (gpu_) {
    checkCallLimits(types, "'" + fname + "'", loc);
    auto src = env_.calleeSource(handle);
    if (!src) notSupported(loc, "a CUDA kernel can only call @cuda.jit(device=True) and @njit functions, not '" + fname + "'");
    if (!sink_) internalError("GPU typing without a function sink");
    CalleeSignature sig = sink_->require(*src, types);
    symbol = sig.symbol;
    ret = sig.ret;
  } else {
    auto it = callees_.find({handle, key});
    if (it == callees_.end()) {
      checkCallLimits(types, "'" + fname + "'", loc);
      CalleeSignature sig = env_.compileCallee(handle, types);
      if (sig.symbol.empty())
        notSupported(loc, "mutual recursion between '" + def_.name + "' and '" + fname +
                                "' is not supported yet");
      it = callees_.emplace(std::make_pair(handle, key), sig).first;
    }
    symbol = it->second.symbol;
    ret = it->second.ret;
  }
  if (ret.containsUnknown()) {
    if (strict_) error(loc, "cannot infer the return type of the recursive call to '" + fname + "'");
    return unknown(loc);
  }
  auto c = std::make_unique<ir::Expr>(ir::ExprOp::Call, ret, loc);
  c->symbol = symbol;
  c->args = std::move(args);
  return wrapBindings(std::move(call.lets), std::move(c), loc);
}

namespace {

// round(x, ndigits) with a constant ndigits: floats round half to even at that
// decimal (x * 10**n, rint, / 10**n, as Numba does); ints are unchanged for n >= 0.
ExprPtr roundDigits(FunctionTyper &t, const ast::Expr *xe, const ast::Expr *ne, const ast::Call &e) {
  auto x = t.expr(*xe);
  auto nd = t.constInt(*ne);
  if (!nd) {
    auto v = t.expr(*ne);
    if (FunctionTyper::isUnknown(v)) return t.unknown(e.loc);
    if (v->type.isNone()) {
      if (FunctionTyper::isUnknown(x)) return t.unknown(e.loc);
      if (!x->type.isFloat() && !x->type.isInt() && !x->type.isBool()) t.error(e.loc, "round() of " + x->type.str() + " is not supported");
      if (!x->type.isFloat()) return ir::makeCast(std::move(x), Type::int64());
      std::vector<ExprPtr> a;
      a.push_back(std::move(x));
      return ir::makeCast(t.intrinsic(ir::Intrinsic::Rint, a[0]->type, std::move(a), e.loc), Type::int64());
    }
    if (FunctionTyper::isUnknown(x)) return t.unknown(e.loc);
    return t.roundVariableDigits(std::move(x), std::move(v), e.loc);
  }
  if (FunctionTyper::isUnknown(x)) return t.unknown(e.loc);
  const Type xt = x->type;
  if (xt.isInt() || xt.isBool()) {
    if (*nd < 0) t.notSupported(e.loc, "round() of an integer to negative digits is not supported");
    return ir::makeCast(std::move(x), xt.isBool() ? Type::int64() : xt);
  }
  if (!xt.isFloat()) t.error(e.loc, "round() of " + xt.str() + " is not supported");
  if (*nd > 308 || *nd < -308) t.notSupported(e.loc, "round() to more than 308 digits is not supported");
  double p = 1;
  for (int64_t i = 0; i < (*nd < 0 ? -*nd : *nd); ++i) p *= 10;
  auto pc = [&]() { return ir::makeConst(xt, e.loc, 0, p); };
  bool neg = *nd < 0;
  auto y = t.binary(neg ? ast::BinOpKind::Div : ast::BinOpKind::Mult, std::move(x), pc(), e.loc);
  std::vector<ExprPtr> a;
  a.push_back(std::move(y));
  auto r = t.intrinsic(ir::Intrinsic::Rint, xt, std::move(a), e.loc);
  return t.binary(neg ? ast::BinOpKind::Mult : ast::BinOpKind::Div, std::move(r), pc(), e.loc);
}

// isinstance(x, cls): decided at compile time from x's type.
ExprPtr isinstanceCall(FunctionTyper &t, const ast::Call &e) {
  t.checkKeywords(e, {}, "isinstance");
  if (e.args.size() != 2) t.error(e.loc, "isinstance expected 2 arguments");
  auto x = t.expr(*e.args[0]);
  if (FunctionTyper::isUnknown(x)) return t.unknown(e.loc);
  const Type xt = x->type;
  std::vector<const ast::Expr *> classes;
  if (auto *tu = e.args[1]->as<ast::Tuple>())
    for (auto &c : tu->elts) classes.push_back(c.get());
  else classes.push_back(e.args[1].get());
  bool result = false;
  for (auto *c : classes) {
    bool match = false;
    bool knownClass = false;
    if (auto *n = c->as<ast::Name>(); n && !t.varIndex_.count(n->id)) {
      const GlobalValue &g = t.global(n->id);
      if (g.kind == GlobalValue::Kind::Builtin) {
        knownClass = true;
        if (g.s == "int") match = xt.isInt() || xt.isBool();
        else if (g.s == "float") match = xt.isFloat();
        else if (g.s == "complex") match = xt.isComplex();
        else if (g.s == "bool") match = xt.isBool();
        else if (g.s == "tuple") match = xt.isTuple() && !types::isSlice(xt);
        else if (g.s == "slice") match = types::isSlice(xt);
        else if (g.s == "str") match = xt.isString();
        else if (g.s == "list") match = xt.isList();
        else if (g.s == "dict") match = xt.isDict();
        else if (g.s == "set") match = xt.isSet();
        else knownClass = false;
      } else if (g.kind == GlobalValue::Kind::NamedTupleClass) { // the exact class, not a subclass
        knownClass = true;
        match = xt.isNamedTuple() && xt.handle == g.handle;
      }
    }
    if (!knownClass) {
      if (auto *a = c->as<ast::Attribute>(); a && a->attr == "ndarray") {
        auto base = t.expr(*a->value);
        if (base->type.kind == Kind::Module && base->type.module == types::ModuleId::Numpy) {
          knownClass = true;
          match = xt.isArray();
        }
      }
    }
    if (!knownClass) {
      auto v = t.expr(*c);
      if (v->type.kind == Kind::DTypeObj) {
        knownClass = true;
        match = xt.isScalar(v->type.dtype);
      } else if (v->type.kind == Kind::ExcClass) {
        knownClass = true;
      } else if (v->type.kind == Kind::ClassRef) { // a jitclass
        knownClass = true;
        match = xt.isInstance() && xt.handle == v->type.handle;
      }
    }
    if (!knownClass)
      t.notSupported(c->loc, "isinstance() is only supported with int, float, complex, bool, tuple, str, np.ndarray "
                             "and NumPy scalar types");
    result |= match;
  }
  return ir::makeConst(Type::boolean(), e.loc, result);
}

} // namespace

ExprPtr FunctionTyper::builtinCall(const std::string &name, const ast::Call &e) {
  if (auto r = objectBuiltin(name, e)) return r;
  if (name == "slice") return sliceCall(e);
  if (name == "range") return rangeValue(e);
  if (name == "prange") notSupported(e.loc, "prange() is only supported as the iterable of a for loop");
  if (name == "next" || name == "iter") {
    checkKeywords(e, {}, name);
    if (name == "next" && e.args.size() == 2)
      notSupported(e.loc, "next() with a default is not supported (catch StopIteration instead)");
    auto args = positionalArgs(e, 1, 1, name);
    if (isUnknown(args[0])) return unknown(e.loc);
    if (!args[0]->type.isGenerator())
      notSupported(e.loc, name + "() of " + args[0]->type.str() + " is not supported (only of generators)");
    if (name == "iter") return std::move(args[0]); // a generator is its own iterator
    return generatorNext(std::move(args[0]), e.loc);
  }
  if (name == "print") notSupported(e.loc, "print() is only supported as a statement");
  if (name == "literal_unroll")
    notSupported(e.loc, "literal_unroll() is only supported as the iterable of a for loop");
  if (name == "literally") {
    checkKeywords(e, {}, name);
    auto args = positionalArgs(e, 1, 1, name);
    if (isUnknown(args[0])) return unknown(e.loc);
    if (args[0]->op != ir::ExprOp::Const && args[0]->type.kind != Kind::Str)
      error(e.loc, "literally(): the value (" + args[0]->type.str() +
                       ") is not known at compile time here; mahou compiles a function once per argument "
                       "type, not once per argument value");
    return std::move(args[0]);
  }
  if (name == "len") {
    checkKeywords(e, {}, name);
    auto args = positionalArgs(e, 1, 1, name);
    if (isUnknown(args[0])) return unknown(e.loc);
    const Type &t = args[0]->type;
    if (types::isRange(t) || (t.isOptional() && types::isRange(t.elems[0])))
      return rangeLength(unwrapOptional(std::move(args[0])), e.loc);
    refuseSlice(t, e.loc, "has no len()");
    if (t.isTuple()) return ir::makeConst(Type::int64(), e.loc, int64_t(t.elems.size()));
    if (t.isObject() || t.kind == Kind::Str || t.isOptional()) return objectLen(unwrapOptional(std::move(args[0])), e.loc);
    if (!t.isArray()) error(e.loc, "object of type " + t.str() + " has no len()");
    auto s = std::make_unique<ir::Expr>(ir::ExprOp::ArrayShape, Type::int64(), e.loc);
    s->ival = 0;
    s->args.push_back(std::move(args[0]));
    return s;
  }
  if (name == "abs") {
    checkKeywords(e, {}, name);
    auto args = positionalArgs(e, 1, 1, name);
    if (isUnknown(args[0])) return unknown(e.loc);
    args[0] = unwrapOptional(std::move(args[0])); // its value (TypeError when None), as in Numba
    Type t = args[0]->type;
    if (t.isInstance()) {
      if (auto r = specialMethod("__abs__", std::move(args), e.loc)) return r;
      error(e.loc, "bad operand type for abs(): '" + t.text + "' (it defines no __abs__)");
    }
    if (t.isArray()) { // elementwise, as np.abs
      Loc loc = e.loc;
      return elementwise(std::move(args), [this, loc](std::vector<ExprPtr> v) { return scalarUfunc("absolute", std::move(v), loc); }, loc);
    }
    if (!t.isNumber()) notSupported(e.loc, "abs() of " + t.str() + " is not supported yet");
    if (t.isComplex()) return intrinsic(ir::Intrinsic::CAbs, Type::scalar(types::realOf(t.dtype)), std::move(args), e.loc);
    if (t.isBool()) {
      t = Type::int64();
      args[0] = ir::makeCast(std::move(args[0]), t);
    }
    if (t.isInt() && !types::isSigned(t.dtype)) return std::move(args[0]);
    return intrinsic(t.isInt() ? ir::Intrinsic::IAbs : ir::Intrinsic::Fabs, t, std::move(args), e.loc);
  }
  if (name == "min" || name == "max") {
    checkKeywords(e, {}, name);
    auto args = positionalArgs(e, 1, 64, name);
    for (auto &a : args)
      if (isUnknown(a)) return unknown(e.loc);
    if (args.size() == 1) {
      if (args[0]->type.isArray()) {
        if (args[0]->type.ndim != 1) notSupported(e.loc, name + "() over a " + std::to_string(args[0]->type.ndim) + "-D array is not supported");
        return numpyCall(name, e);
      }
      refuseSlice(args[0]->type, e.loc, "is not iterable");
      if (!args[0]->type.isTuple()) error(e.loc, "'" + args[0]->type.str() + "' object is not iterable");
      if (args[0]->type.elems.empty()) error(e.loc, name + "() arg is an empty sequence");
      std::vector<ExprPtr> items;
      for (size_t i = 0; i < args[0]->type.elems.size(); ++i) {
        auto g = std::make_unique<ir::Expr>(ir::ExprOp::TupleGet, args[0]->type.elems[i], e.loc);
        g->ival = int64_t(i);
        g->args.push_back(duplicate(*this, *args[0], name + "()"));
        items.push_back(std::move(g));
      }
      args = std::move(items);
    }
    auto bindings = bindOptionals(args, e.loc);
    Type t = Type::unknown();
    for (auto &a : args) {
      if (!a->type.isNumber() || a->type.isComplex())
        error(a->loc, name + "() arguments must be real numbers, got " + a->type.str());
      t = Type::scalar(t.isUnknown() ? a->type.dtype : types::promote(t.dtype, a->type.dtype));
    }
    ExprPtr acc = ir::makeCast(std::move(args[0]), t);
    for (size_t i = 1; i < args.size(); ++i) {
      std::vector<ExprPtr> pair;
      pair.push_back(std::move(acc));
      pair.push_back(ir::makeCast(std::move(args[i]), t));
      acc = intrinsic(name == "min" ? ir::Intrinsic::Min : ir::Intrinsic::Max, t, std::move(pair), e.loc);
    }
    return wrapBindings(std::move(bindings), std::move(acc), e.loc);
  }
  if (name == "int" || name == "float" || name == "bool" || name == "complex") {
    checkKeywords(e, {}, name);
    auto args = positionalArgs(e, name == "complex" ? 1 : 0, name == "complex" ? 2 : 1, name);
    for (auto &a : args)
      if (isUnknown(a)) return unknown(e.loc);
    if (args.empty()) {
      if (name == "bool") return ir::makeConst(Type::boolean(), e.loc, 0);
      return ir::makeConst(name == "int" ? Type::int64() : Type::float64(), e.loc, 0);
    }
    if (args.size() == 1 && args[0]->type.isInstance()) return instanceConversion(name, std::move(args[0]), e.loc);
    // bool() of anything with a truth value (a container, a string, None or an optional);
    // the others take an optional's value (TypeError when None), as in Numba.
    if (name == "bool") return truth(std::move(args[0]));
    for (auto &a : args) {
      a = unwrapOptional(std::move(a));
      if (!a->type.isNumber()) notSupported(e.loc, name + "() of " + a->type.str() + " is not supported");
    }
    if (name == "int") {
      if (args[0]->type.isComplex()) error(e.loc, "int() can't convert complex");
      return ir::makeCast(std::move(args[0]), Type::int64());
    }
    if (name == "float") {
      if (args[0]->type.isComplex()) error(e.loc, "float() can't convert complex");
      return ir::makeCast(std::move(args[0]), Type::float64());
    }
    Type c = Type::scalar(DType::Complex128);
    if (args.size() == 1) return ir::makeCast(std::move(args[0]), c);
    for (auto &a : args)
      if (a->type.isComplex()) notSupported(e.loc, "complex() with complex parts is not supported");
    std::vector<ExprPtr> parts;
    parts.push_back(ir::makeCast(std::move(args[0]), Type::float64()));
    parts.push_back(ir::makeCast(std::move(args[1]), Type::float64()));
    return intrinsic(ir::Intrinsic::MakeComplex, c, std::move(parts), e.loc);
  }
  if (name == "round") {
    checkKeywords(e, {"ndigits"}, name);
    if (e.args.size() == 1 && keyword(e, "ndigits")) return roundDigits(*this, e.args[0].get(), keyword(e, "ndigits"), e);
    auto args = positionalArgs(e, 1, 2, name);
    if (args.size() == 2) return roundDigits(*this, e.args[0].get(), e.args[1].get(), e);
    if (isUnknown(args[0])) return unknown(e.loc);
    args[0] = unwrapOptional(std::move(args[0])); // its value (TypeError when None), as in Numba
    const Type t = args[0]->type;
    if (t.isInt() || t.isBool()) return ir::makeCast(std::move(args[0]), Type::int64());
    if (!t.isFloat()) error(e.loc, "round() of " + t.str() + " is not supported");
    auto r = intrinsic(ir::Intrinsic::Rint, t, std::move(args), e.loc);
    return ir::makeCast(std::move(r), Type::int64());
  }
  if (name == "pow") {
    checkKeywords(e, {}, name);
    if (e.args.size() == 3) {
      requireHost(e.loc, "pow() with a modulus");
      auto args = positionalArgs(e, 3, 3, name);
      for (auto &a : args)
        if (isUnknown(a)) return unknown(e.loc);
      auto bindings = bindOptionals(args, e.loc);
      for (auto &a : args)
        if (!a->type.isInt() && !a->type.isBool())
          error(a->loc, "pow() 3rd argument not allowed unless all arguments are integers (got " + a->type.str() + ")");
      for (auto &a : args) a = ir::makeCast(std::move(a), Type::int64());
      return wrapBindings(std::move(bindings), intrinsic(ir::Intrinsic::PowMod, Type::int64(), std::move(args), e.loc),
                          e.loc);
    }
    auto args = positionalArgs(e, 2, 2, name);
    auto bindings = bindOptionals(args, e.loc);
    return wrapBindings(std::move(bindings), binary(ast::BinOpKind::Pow, std::move(args[0]), std::move(args[1]), e.loc),
                        e.loc);
  }
  if (name == "divmod") {
    checkKeywords(e, {}, name);
    auto args = positionalArgs(e, 2, 2, name);
    if (isUnknown(args[0]) || isUnknown(args[1])) return unknown(e.loc);
    auto bindings = bindOperands(args, e.loc); // each operand evaluated once
    for (auto &a : args) a = unwrapOptional(std::move(a)); // once both are evaluated, as in Python
    for (auto &a : args)
      if (!a->type.isNumber() || a->type.isComplex())
        error(a->loc, "divmod() arguments must be real numbers, not " + a->type.str());
    auto q = binary(ast::BinOpKind::FloorDiv, ir::clone(*args[0]), ir::clone(*args[1]), e.loc);
    auto r = binary(ast::BinOpKind::Mod, std::move(args[0]), std::move(args[1]), e.loc);
    auto t = std::make_unique<ir::Expr>(ir::ExprOp::TupleMake, Type::tuple({q->type, r->type}), e.loc);
    t->args.push_back(std::move(q));
    t->args.push_back(std::move(r));
    return wrapBindings(std::move(bindings), std::move(t), e.loc);
  }
  if (name == "isinstance") return isinstanceCall(*this, e);
  if (name == "hash") return hashCall(e);
  if (name == "sum" && (e.args.size() == 2 || keyword(e, "start"))) return sumWithStart(e); // builtin_sum.cpp
  if (name == "sum") {
    checkKeywords(e, {}, name);
    auto args = positionalArgs(e, 1, 1, name);
    if (isUnknown(args[0])) return unknown(e.loc);
    const Type t = args[0]->type;
    if (t.isArray()) {
      if (t.ndim != 1) notSupported(e.loc, "sum() over a " + std::to_string(t.ndim) + "-D array is not supported (use np.sum)");
      return numpyCall("sum", e);
    }
    refuseSlice(t, e.loc, "is not iterable");
    if (!t.isTuple()) error(e.loc, "'" + t.str() + "' object is not iterable");
    ExprPtr acc = ir::makeConst(Type::int64(), e.loc, 0);
    for (size_t i = 0; i < t.elems.size(); ++i) {
      auto g = std::make_unique<ir::Expr>(ir::ExprOp::TupleGet, t.elems[i], e.loc);
      g->ival = int64_t(i);
      g->args.push_back(duplicate(*this, *args[0], "sum()"));
      acc = binary(ast::BinOpKind::Add, std::move(acc), std::move(g), e.loc);
    }
    return acc;
  }
  notSupported(e.loc, "the builtin '" + name + "' is not supported yet");
}

} // namespace mahou::sema
