// Inner functions: nested `def`s and lambdas assigned to a name. Each is typed per
// argument types as a function of its own, compiled into the same module and called
// directly (LLVM inlines it, as Numba inlines closures). The enclosing variables it
// reads are passed as extra arguments at each call, so it sees their current values.
#include "typer.h"
#include "mahou/versions.h"

#include "mahou/ast_walk.h"

#include <set>

namespace mahou::sema {

namespace {

// Every name read in an expression or a body, looking into nested functions too
// (an over-approximation: callers intersect it with the enclosing variables).
void namesIn(const ast::Body &body, std::set<std::string> &out);

void namesIn(const ast::Expr *e, std::set<std::string> &out) {
  if (!e) return;
  if (auto *n = e->as<ast::Name>()) {
    out.insert(n->id);
    return;
  }
  if (auto *l = e->as<ast::Lambda>()) {
    for (auto &a : l->def->args) namesIn(a.defaultValue.get(), out);
    namesIn(l->def->body, out);
    return;
  }
  if (auto *c = e->as<ast::Comprehension>()) { // its targets are its own
    namesIn(c->elt.get(), out);
    namesIn(c->value.get(), out);
    for (auto &g : c->generators) {
      namesIn(g.iter.get(), out);
      for (auto &cond : g.ifs) namesIn(cond.get(), out);
    }
    return;
  }
  ast::forEachChild(*e, [&](const ast::Expr &x) { namesIn(&x, out); });
}

void namesIn(const ast::Body &body, std::set<std::string> &out) {
  for (auto &s : body) {
    if (auto *f = s->as<ast::For>()) { // the target is bound, not read
      namesIn(f->iter.get(), out);
      namesIn(f->body, out);
      namesIn(f->orelse, out);
    } else if (auto *d = s->as<ast::FunctionDef>()) {
      for (auto &a : d->args) namesIn(a.defaultValue.get(), out);
      namesIn(d->body, out);
    } else {
      ast::forEachPart(*s, [&](const ast::Expr &x) { namesIn(&x, out); }, [&](const ast::Body &b) { namesIn(b, out); });
    }
  }
}

// The inner functions a body defines (in nested blocks too, not inside other defs).
using Definitions = std::vector<std::pair<std::string, const ast::FunctionDef *>>;

void findDefinitions(const ast::Body &body, Definitions &out) {
  for (auto &s : body) {
    if (auto *d = s->as<ast::FunctionDef>()) {
      out.emplace_back(d->name, d);
    } else if (auto *a = s->as<ast::Assign>()) {
      if (a->targets.size() == 1)
        if (auto *n = a->targets[0]->as<ast::Name>())
          if (auto *l = a->value->as<ast::Lambda>()) out.emplace_back(n->id, l->def.get());
    } else if (auto *i = s->as<ast::If>()) {
      findDefinitions(i->body, out);
      findDefinitions(i->orelse, out);
    } else if (auto *f = s->as<ast::For>()) {
      findDefinitions(f->body, out);
      findDefinitions(f->orelse, out);
    } else if (auto *w = s->as<ast::While>()) {
      findDefinitions(w->body, out);
      findDefinitions(w->orelse, out);
    } else if (auto *t = s->as<ast::Try>()) {
      findDefinitions(t->body, out);
      for (auto &h : t->handlers) findDefinitions(h.body, out);
      findDefinitions(t->orelse, out);
      findDefinitions(t->finalbody, out);
    }
  }
}

} // namespace

void FunctionTyper::collectInnerFunctions() {
  if (innerSelf_ && innerSelf_->visible) inner_ = *innerSelf_->visible; // the enclosing scopes' ones
  Definitions found;
  findDefinitions(def_.body, found);
  if (found.empty()) return;
  // Names bound in this function: each counted once per binding (defs included).
  std::vector<std::string> bound;
  collectLocals(def_.body, bound);
  std::map<std::string, int> bindings;
  for (auto &n : bound) ++bindings[n];
  std::set<std::string> own;
  for (auto &[name, d] : found)
    if (!own.insert(name).second)
      notSupported(d->loc, "the inner function '" + name + "' is defined more than once; give each its own name");
  for (auto &[name, d] : found) {
    if (bindings[name] > 1)
      notSupported(d->loc, "'" + name + "' is both an inner function and a variable; give them different names");
    for (auto &p : def_.args)
      if (p.name == name) notSupported(d->loc, "the inner function '" + name + "' has the name of a parameter");
    if (!d->decorators.empty()) notSupported(d->decorators[0]->loc, "decorators on inner functions are not supported");
    if (!d->vararg.empty() || !d->kwarg.empty() || !d->kwonlyargs.empty())
      notSupported(d->loc, "inner functions take positional-or-keyword parameters only (no *args, **kwargs)");
  }
  // The variables of this function an inner function could capture.
  std::set<std::string> scopeVars;
  for (size_t i = 0; i < def_.numParams(); ++i) scopeVars.insert(def_.paramName(i));
  if (innerSelf_) scopeVars.insert(innerSelf_->captured.begin(), innerSelf_->captured.end());
  for (auto &n : bound)
    if (!own.count(n)) scopeVars.insert(n);
  // Inner functions of enclosing scopes shadowed by a variable here are not visible.
  for (auto &v : scopeVars) inner_.erase(v);
  // Each inner function reads: names in its body that are not its own parameters or locals.
  std::map<std::string, std::set<std::string>> reads;
  for (auto &[name, d] : found) {
    std::set<std::string> names;
    for (auto &a : d->args) namesIn(a.defaultValue.get(), names);
    namesIn(d->body, names);
    std::vector<std::string> locals;
    collectLocals(d->body, locals);
    std::set<std::string> nonlocals; // assigned, yet the enclosing function's variables
    declaredNames(d->body, ast::StmtKind::Nonlocal, nonlocals);
    for (auto &a : d->args) names.erase(a.name);
    for (auto &l : locals)
      if (!nonlocals.count(l)) names.erase(l);
    for (auto &n : nonlocals)
      if (!scopeVars.count(n))
        notSupported(d->loc, "'" + name + "' declares '" + frontend::userName(n) +
                                 "' nonlocal, which is not a variable of the function defining it");
    reads[name] = std::move(names);
    InnerFunction f;
    f.nonlocals.assign(nonlocals.begin(), nonlocals.end());
    f.file = &file_;
    f.def = d;
    f.env = &env_;
    f.visible = &inner_;
    inner_[name] = std::move(f);
  }
  // Captured = enclosing variables read, plus those of the inner functions it calls
  // (transitively: a call passes them on).
  std::map<std::string, std::set<std::string>> captured;
  for (bool changed = true; changed;) {
    changed = false;
    for (auto &[name, names] : reads) {
      std::set<std::string> &cap = captured[name];
      size_t before = cap.size();
      for (auto &r : names) {
        if (scopeVars.count(r)) cap.insert(r);
        if (auto it = inner_.find(r); it != inner_.end() && r != name) {
          if (auto ct = captured.find(r); ct != captured.end()) cap.insert(ct->second.begin(), ct->second.end());
          for (auto &c : it->second.captured) cap.insert(c);
        }
      }
      changed |= cap.size() != before;
    }
  }
  for (auto &[name, cap] : captured) inner_[name].captured.assign(cap.begin(), cap.end());
}

void innerFunctionReads(const ast::FunctionDef &d, std::set<std::string> &out) {
  for (auto &a : d.args) namesIn(a.defaultValue.get(), out);
  namesIn(d.body, out);
  std::vector<std::string> locals;
  collectLocals(d.body, locals);
  for (auto &a : d.args) out.erase(a.name);
  for (auto &l : locals) out.erase(l);
}

const InnerFunction *FunctionTyper::innerFunction(const std::string &name) const {
  if (varIndex_.count(name)) return nullptr;
  auto it = inner_.find(name);
  return it == inner_.end() ? nullptr : &it->second;
}

std::vector<ExprPtr> FunctionTyper::bindInnerArguments(const ast::FunctionDef &d, std::vector<ExprPtr> positional,
                                                       std::vector<std::pair<std::string, ExprPtr>> keywords, Loc loc,
                                                       const std::function<void(const ast::Arg &)> &checkDefault) {
  std::string fname = d.name == "<lambda>" ? "the lambda" : d.name + "()";
  size_t np = d.args.size();
  if (positional.size() > np)
    error(loc, fname + " takes " + std::to_string(np) + " positional argument" + (np == 1 ? "" : "s") + " but " +
                   std::to_string(positional.size()) + " were given");
  std::vector<ExprPtr> args = std::move(positional);
  args.resize(np);
  for (auto &[name, value] : keywords) {
    size_t j = 0;
    while (j < np && d.args[j].name != name) ++j;
    if (j == np) error(value->loc, fname + " got an unexpected keyword argument '" + name + "'");
    if (args[j]) error(value->loc, fname + " got multiple values for argument '" + name + "'");
    args[j] = std::move(value);
  }
  for (size_t j = 0; j < np; ++j) {
    if (args[j]) continue;
    if (!d.args[j].defaultValue) error(loc, fname + " missing required argument '" + d.args[j].name + "'");
    if (checkDefault) checkDefault(d.args[j]);
    args[j] = expr(*d.args[j].defaultValue);
  }
  return args;
}

ExprPtr FunctionTyper::innerCall(const InnerFunction &inner, const ast::Call &e) {
  // Positional and keyword arguments bound to the parameters; defaults are evaluated here.
  CallArgs call = callArgs(e);
  auto args = bindInnerArguments(*inner.def, std::move(call.positional), std::move(call.keywords), e.loc);
  return wrapBindings(std::move(call.lets), callInner(inner, std::move(args), e.loc), e.loc);
}

ExprPtr FunctionTyper::callInner(const InnerFunction &inner, std::vector<ExprPtr> args, Loc loc,
                                 std::vector<ExprPtr> *captured) {
  const ast::FunctionDef &d = *inner.def;
  std::string fname = d.name == "<lambda>" ? "the lambda" : d.name + "()";
  if (captured) {
    if (!inner.nonlocals.empty())
      notSupported(loc, fname + " assigns the nonlocal variable '" + frontend::userName(inner.nonlocals[0]) +
                            "': it can only be called directly, not through a value (as Numba inlines it)");
    for (auto &c : *captured) args.push_back(std::move(c));
  } else {
    for (const std::string &c : inner.captured) {
      auto it = varIndex_.find(c);
      if (it == varIndex_.end())
        notSupported(loc, fname + " reads '" + c + "', a variable of an enclosing function that is not visible here");
      args.push_back(load(it->second, loc));
    }
  }
  std::vector<Type> types;
  for (auto &a : args) {
    if (isUnknown(a)) return unknown(loc);
    if (a->type.kind == Kind::Module || a->type.kind == Kind::ExcClass)
      notSupported(a->loc, "passing a " + a->type.str() + " to an inner function is not supported");
    types.push_back(a->type);
  }
  Type ret;
  std::string symbol;
  if (innerSelf_ && innerSelf_->def == &d && types == argTypes_) { // recursion with the same types
    if (!inner.nonlocals.empty())
      notSupported(loc, "a recursive inner function that assigns a nonlocal variable is not supported");
    symbol = symbol_;
    ret = ret_;
  } else {
    if (!sink_) internalError("inner function typed without a function sink");
    checkCallLimits(types, fname, loc);
    CalleeSignature sig = sink_->requireInner(inner, types);
    symbol = sig.symbol;
    ret = sig.ret;
  }
  if (ret.containsUnknown()) {
    if (strict_) error(loc, "cannot infer the return type of the recursive call to " + fname);
    return unknown(loc);
  }
  auto c = std::make_unique<ir::Expr>(ir::ExprOp::Call, ret, loc);
  c->symbol = symbol;
  c->args = std::move(args);
  if (!inner.nonlocals.empty()) return writeBackNonlocals(inner, std::move(c), loc);
  return c;
}

ExprPtr FunctionTyper::callFunctionArgument(const ast::Expr &fn, std::vector<ExprPtr> args, Loc loc,
                                            const std::string &what) {
  for (auto &a : args)
    if (isUnknown(a)) return unknown(loc);
  auto bindDefaults = [&](const ast::FunctionDef &d, const std::string &fname) {
    if (args.size() > d.args.size())
      error(fn.loc, fname + " takes " + std::to_string(d.args.size()) + " argument(s) but " +
                        std::to_string(args.size()) + " are given by " + what);
    for (size_t j = args.size(); j < d.args.size(); ++j) {
      if (!d.args[j].defaultValue) error(fn.loc, fname + " missing required argument '" + d.args[j].name + "'");
      args.push_back(expr(*d.args[j].defaultValue));
    }
  };
  if (auto *l = fn.as<ast::Lambda>()) {
    const InnerFunction &f = lambdaFunction(*l);
    bindDefaults(*l->def, "the lambda");
    return callInner(f, std::move(args), loc);
  }
  if (auto *n = fn.as<ast::Name>()) {
    if (const InnerFunction *inner = innerFunction(n->id)) {
      bindDefaults(*inner->def, n->id + "()");
      return callInner(*inner, std::move(args), loc);
    }
    if (auto it = varIndex_.find(n->id); it != varIndex_.end()) { // an inner function held in a variable
      auto v = load(it->second, fn.loc);
      if (isUnknown(v)) return unknown(loc);
      if (v->type.isClosure()) return closureCall(std::move(v), std::move(args), {}, loc);
    }
  }
  auto callee = resolveCallee(fn);
  if (callee && callee->kind == CalleeRef::Kind::Unknown) return unknown(loc);
  if (callee && callee->kind == CalleeRef::Kind::Compiled) {
    CallArgs call;
    call.positional = std::move(args);
    return callCompiled(callee->handle, callee->name, std::move(call), loc);
  }
  notSupported(fn.loc, what + " must be a lambda, an inner function or an @njit function");
}

} // namespace mahou::sema
