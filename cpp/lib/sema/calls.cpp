// Typing of calls: resolving what is called, Python builtins, dtype constructors,
// methods of arrays and numbers, and calls to other compiled functions.
#include "mahou/bound_method_type.h"
#include "typer.h"
#include "sema/typers.h"
#include "mahou/versions.h"

#include "mahou/range_type.h"
#include "mahou/slice_type.h"

namespace mahou::sema {

namespace {

// A name of the registry, called: a builtin ("len"), a module's function, or a dotted
// name of a receiver ("typed.List.empty_list", "cuda.random.xoroshiro128p_next").
CalleeRef namedCallee(CalleeRef::Kind kind, Receiver receiver, const std::string &name) {
  CalleeRef r{kind, name};
  r.receiver = receiver;
  std::string_view spelling = receiverSpelling(receiver);
  std::string dotted = spelling.empty() ? name : std::string(spelling) + "." + name;
  if (name.find('.') != std::string::npos)
    if (auto split = splitReceiver(dotted)) {
      r.receiver = split->first;
      r.name = split->second;
      r.kind = CalleeRef::Kind::ModuleFn;
    }
  return r;
}

} // namespace

std::optional<CalleeRef> FunctionTyper::calleeFromGlobal(const GlobalValue &g) {
  using CK = CalleeRef::Kind;
  using GK = GlobalValue::Kind;
  switch (g.kind) {
  case GK::Builtin: return namedCallee(CK::Builtin, Receiver::Builtins, g.s);
  case GK::ModuleAttr: {
    CalleeRef r = namedCallee(CK::ModuleFn, receiverOf(g.module), g.s);
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
  case GK::DeviceFunctionDecl: {
    CalleeRef r{CK::DeviceForeign, g.fields.at(0)};
    r.overloaded = &g;
    return r;
  }
  case GK::DType: {
    if (!g.s.empty()) return std::nullopt; // a structured dtype is not called in compiled code
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
      if (v->type.isClosure() || types::isBoundMethod(v->type)) { // an inner function or a bound method held in a variable (closures.cpp)
        CalleeRef r{CK::Closure, v->type.text};
        r.self = &func;
        return r;
      }
      if (v->type.kind == Kind::DTypeObj) { // t(x) with t = np.float32 (or a parameter given one)
        CalleeRef r{CK::DTypeCtor, types::dtypeName(v->type.dtype)};
        r.dtype = v->type.dtype;
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
        // types.Array.make(...): an @overload_classmethod, reached by its global path
        if (path == &full && g.kind == GlobalValue::Kind::Overloaded) return calleeFromGlobal(g);
        if (g.kind != GlobalValue::Kind::Builtin) continue;
        CalleeRef r = namedCallee(CK::Builtin, Receiver::Builtins, path == &full ? g.s : g.s + "." + a->attr);
        if (r.receiver != Receiver::Builtins) return r;
      }
      // mahou.typed.List(...), numba.typed.Dict.empty(...): through the mahou module.
      size_t dot = full.find('.');
      const GlobalValue &head = global(full.substr(0, dot));
      if (head.kind == GlobalValue::Kind::Module && head.module == types::ModuleId::Mahou)
        if (auto split = splitReceiver(full.substr(dot + 1)); split && split->first == Receiver::Typed)
          if (const Entry *entry = findEntry(Receiver::Typed, Member::Function, split->second); entry && entry->name != "*")
            return namedCallee(CK::ModuleFn, Receiver::Typed, split->second);
    }
    // module.function or value.method
    auto base = expr(*a->value);
    if (isUnknown(base) && !base->type.isPartialContainer()) return CalleeRef{CK::Unknown};
    if (base->type.kind == Kind::Module) {
      // A module reached by a global path: its attribute is the global of that path (a
      // user module's function, or an @overload implementation of a NumPy function).
      if (const GlobalValue *g = moduleMember(*this, base->type, a->attr)) {
        if (g->kind == GlobalValue::Kind::Overloaded) return calleeFromGlobal(*g);
        // numba.uint8(x): a type object of the mahou module converts as the NumPy type does
        if (g->kind == GlobalValue::Kind::DType && base->type.module == types::ModuleId::Mahou)
          return calleeFromGlobal(*g);
        if (base->type.module == types::ModuleId::Python) {
          if (g->kind == GlobalValue::Kind::Missing)
            error(a->loc, "module '" + base->type.text + "' has no attribute '" + a->attr + "'");
          if (auto r = calleeFromGlobal(*g)) return r;
          if (g->kind == GlobalValue::Kind::Unsupported)
            notSupported(a->loc, "'" + base->type.text + "." + a->attr + "' is " + g->s + ", which compiled code cannot call");
          return std::nullopt;
        }
      }
      CalleeRef r{CK::ModuleFn, a->attr};
      r.module = base->type.module;
      r.receiver = receiverOf(base->type);
      return r;
    }
    if (base->type.kind == Kind::Namespace) { // cuda.shared.array, cuda.atomic.add, ...
      CalleeRef r{CK::ModuleFn, a->attr};
      r.module = types::ModuleId::Cuda;
      r.receiver = receiverOf(base->type);
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

namespace {

// What a call's argument may convert to when the callee has fixed signatures (the rules
// FunctionTyper::convert applies): -1 impossible, 0 the same type, 1 a conversion.
int fixedConversionCost(const Type &from, const Type &to) {
  if (from == to) return 0;
  if (from.isNumber() && to.isNumber()) return from.isComplex() && !to.isComplex() ? -1 : 1;
  if (from.isArray() && to.isArray())
    return from.dtype == to.dtype && from.ndim == to.ndim && from.elems == to.elems &&
                   (to.layout == types::Layout::A || to.layout == from.layout) && (to.readonly || !from.readonly)
               ? 1
               : -1;
  return -1;
}

// The cheapest of a callee's fixed signatures for these arguments (a TypingError at the
// call when none takes them).
const types::Signature &fixedSignature(Typing &t, const std::vector<types::Signature> &signatures,
                                       const std::vector<Type> &args, const std::string &fname, Loc loc) {
  const types::Signature *best = nullptr;
  int bestCost = -1;
  for (const auto &sig : signatures) {
    if (sig.args.size() != args.size()) continue;
    int total = 0;
    for (size_t i = 0; i < args.size() && total >= 0; ++i) {
      int c = fixedConversionCost(args[i], sig.args[i]);
      total = c < 0 ? -1 : total + c;
    }
    if (total >= 0 && (!best || total < bestCost)) {
      best = &sig;
      bestCost = total;
    }
  }
  if (!best) {
    std::string text;
    for (size_t i = 0; i < args.size(); ++i) text += (i ? ", " : "") + args[i].str();
    t.error(loc, "No matching definition for argument type(s) " + text + " of " + fname +
                     "() (compiled for its explicit signatures only)");
  }
  return *best;
}

// A file of mahou's NumPy library (python/mahou/_library).
bool inLibrary(const std::string &path) { return path.find("/mahou/_library/") != std::string::npos; }

// Runs `call`; a TypingError/UnsupportedError raised in the library's own code is reported
// at the user's call `loc` instead, naming the library line.
ExprPtr atLibraryCall(const SourceFile &file, const std::string &fname, Loc loc, const std::function<ExprPtr()> &call) {
  if (inLibrary(file.path())) return call(); // a library function calling another: its caller reports
  try {
    return call();
  } catch (const UserError &err) {
    // What the library cannot type is the user's call that led there: reported at it.
    if (!inLibrary(err.path())) throw;
    std::string where = err.path().substr(err.path().rfind("/_library/") + 1);
    userError(err.kind(), file, loc, fname + "(): " + err.message() + " (in mahou/" + where + ":" +
                                          std::to_string(err.loc().line) + ")");
  }
}

} // namespace


ExprPtr FunctionTyper::libraryCall(const std::string &qualified, const std::string &fname, const ast::Call &e,
                                   ExprPtr self) {
  if (gpu_) return nullptr; // the library allocates arrays: host code only
  const GlobalValue &g = global("@" + qualified);
  if (g.kind != GlobalValue::Kind::Function) return nullptr;
  return atLibraryCall(file_, fname, e.loc, [&] { return compiledCall(g.handle, fname, e, std::move(self)); });
}

ExprPtr FunctionTyper::libraryCallTyped(const std::string &qualified, const std::string &fname, std::vector<ExprPtr> args,
                                        Loc loc) {
  if (gpu_) return nullptr;
  const GlobalValue &g = global("@" + qualified);
  if (g.kind != GlobalValue::Kind::Function) return nullptr;
  CallArgs call;
  for (auto &a : args) {
    call.unknown |= isUnknown(a);
    call.positional.push_back(std::move(a));
  }
  return atLibraryCall(file_, fname, loc, [&] { return callCompiled(g.handle, fname, std::move(call), loc); });
}

ExprPtr FunctionTyper::call(const ast::Call &e) {
  auto callee = resolveCallee(*e.func);
  if (!callee) {
    auto v = expr(*e.func);
    if (isUnknown(v)) return unknown(e.loc);
    if (v->type.isClosure() || types::isBoundMethod(v->type)) return closureCall(std::move(v), e); // (lambda x: ...)(1), fs[0](x)
    // A class made by an expression (type(x)(y)): the value is only its type; its effects are kept.
    if (v->type.kind == Kind::DTypeObj || v->type.kind == Kind::ClassRef) {
      CalleeRef r{v->type.kind == Kind::DTypeObj ? CalleeRef::Kind::DTypeCtor : CalleeRef::Kind::JitClass,
                  v->type.kind == Kind::DTypeObj ? std::string(types::dtypeName(v->type.dtype)) : v->type.text};
      r.dtype = v->type.dtype;
      r.handle = v->type.handle;
      auto made = callResolved(r, e);
      if (isPureValue(*v) || isUnknown(made)) return made;
      auto stmts = std::make_shared<ir::Block>();
      stmts->push_back(ir::makeEval(std::move(v), e.loc));
      return seqExpr(std::move(stmts), std::move(made), e.loc);
    }
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
  case CalleeRef::Kind::Builtin:
  case CalleeRef::Kind::ModuleFn: return callFunction(callee->receiver, callee->name, e);
  case CalleeRef::Kind::Compiled: return compiledCall(callee->handle, callee->name, e);
  case CalleeRef::Kind::Inner: return innerCall(*innerFunction(callee->name), e);
  case CalleeRef::Kind::Closure: return closureCall(expr(*callee->self), e);
  case CalleeRef::Kind::DTypeCtor: return convertToDType(*this, callee->dtype, callee->name, e);
  case CalleeRef::Kind::ExcCtor:
    error(e.loc, "exception classes can only be instantiated in a 'raise' statement");
  case CalleeRef::Kind::Method: return methodCall(*callee->self, callee->name, e);
  case CalleeRef::Kind::External: return nativeCall(*this, callee->handle, callee->name, e);
  case CalleeRef::Kind::DeviceForeign: return foreignDeviceCall(*this, callee->name, callee->overloaded->s, e);
  case CalleeRef::Kind::JitClass: return newInstance(*this, callee->handle, callee->name, e);
  case CalleeRef::Kind::NamedTuple: return newNamedTuple(*this, *callee->overloaded, e);
  }
  internalError("unhandled callee kind");
}

// receiver.name(...) of the registry: a builtin, a module's function, cuda.shared.array, ...
ExprPtr FunctionTyper::callFunction(Receiver receiver, const std::string &name, const ast::Call &e) {
  std::string_view spelling = receiverSpelling(receiver);
  std::string shown = spelling.empty() ? name : std::string(spelling) + "." + name;
  if (gpuOnly(receiver) && !gpu_)
    notSupported(e.loc, shown + "() can only be used inside a @cuda.jit kernel or device function");
  if (hostOnly(receiver)) requireHost(e.loc, shown + "()");
  const Entry *entry = lookup(receiver, Member::Function, name);
  if (!entry) refuseMissing(*this, receiver, Member::Function, name, e.loc);
  refuseBufferArguments(*this, receiver, *entry, e); // buffers.cpp
  return typeUse(*this, *entry, name, &e, nullptr, nullptr, e.loc);
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
    // Keyword-only parameters follow the positional ones; only keywords reach them.
    size_t np = params->names.size(), positional = np - params->nkwonly;
    std::vector<ExprPtr> slots(np);
    std::vector<ExprPtr> extra;
    size_t npos = call.positional.size();
    for (size_t i = 0; i < npos; ++i) {
      if (i < positional) slots[i] = std::move(call.positional[i]);
      else if (params->varargs) extra.push_back(std::move(call.positional[i]));
      else
        error(loc, fname + "() takes " + std::to_string(positional) + " positional argument" +
                       (positional == 1 ? "" : "s") + " but " + std::to_string(npos) + (npos == 1 ? " was" : " were") +
                       " given");
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
        error(loc, fname + "() missing required " + (j >= positional ? "keyword-only " : "") + "argument '" +
                       params->names[j] + "'");
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
    if (!isUnknown(a) && (a->type.kind == Kind::Str || a->type.isTuple())) a = itemValue(*this, std::move(a)); // literals as str
    types.push_back(a->type);
  }
  if (unknownArg) return unknown(loc);
  if (auto uf = env_.calleeUfunc(handle))
    return wrapBindings(std::move(call.lets), ufuncCall(*uf, fname, std::move(args), loc), loc);
  for (auto &t : types)
    if (t.kind == Kind::Module || t.kind == Kind::ExcClass)
      notSupported(loc, "passing a " + t.str() + " to a compiled function is not supported");
  // Self-recursion: same function, same argument types → our own symbol and the
  // return type inferred so far (unknown until a base case has been seen).
  std::string key;
  for (auto &t : types) key += t.str() + (t.kind == Kind::Function ? "#" + std::to_string(t.handle) : "") + ";";
  Type ret;
  std::string symbol;
  std::optional<Type> declaredRet; // a fixed signature's return type: the result converts to it
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
    if (!src->signatures.empty()) { // explicit signatures: the arguments convert to one of them
      const types::Signature &fixed = fixedSignature(*this, src->signatures, types, fname, loc);
      for (size_t i = 0; i < args.size(); ++i)
        args[i] = convert(std::move(args[i]), fixed.args[i], "the call of '" + fname + "'");
      types = fixed.args;
      declaredRet = fixed.ret;
    }
    CalleeSignature sig = sink_->require(*src, types);
    symbol = sig.symbol;
    ret = sig.ret;
  } else {
    auto it = callees_.find({handle, key});
    if (it == callees_.end()) {
      checkCallLimits(types, "'" + fname + "'", loc);
      CalleeSignature sig = env_.compileCallee(handle, types);
      if (!sig.noMatch.empty()) error(loc, sig.noMatch);
      if (sig.symbol.empty()) {
        // Mutual recursion: the callee is being compiled further up (it called us). It is
        // typed again into this module, where its call back to us is ours (Numba's
        // RecursiveCall: the return type a function has so far, from a base case first).
        auto src = sink_ ? env_.hostCalleeSource(handle) : std::nullopt;
        if (!src)
          notSupported(loc, "mutual recursion between '" + def_.name + "' and '" + fname + "' is not supported here");
        sig = sink_->require(*src, types);
      }
      it = callees_.emplace(std::make_pair(handle, key), sig).first;
    }
    symbol = it->second.symbol;
    ret = it->second.ret;
    const std::vector<Type> &params = it->second.params; // a fixed signature's parameters
    for (size_t i = 0; i < params.size() && i < args.size(); ++i)
      args[i] = convert(std::move(args[i]), params[i], "the call of '" + fname + "'");
  }
  if (ret.containsUnknown()) {
    if (strict_) error(loc, "cannot infer the return type of the recursive call to '" + fname + "'");
    recursionUnknown_ = true; // a strict pass reports it if no later pass knows it
    return unknown(loc);
  }
  auto c = std::make_unique<ir::Expr>(ir::ExprOp::Call, ret, loc);
  c->symbol = symbol;
  c->args = std::move(args);
  ExprPtr result = std::move(c);
  if (declaredRet && !declaredRet->isNone() && *declaredRet != ret)
    result = convert(std::move(result), *declaredRet, "the result of '" + fname + "' (its declared type)");
  return wrapBindings(std::move(call.lets), std::move(result), loc);
}

} // namespace mahou::sema
