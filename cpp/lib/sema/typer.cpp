// The inference driver (fixpoint over passes), local-variable discovery and the
// helpers every part of sema uses: conversions, temporaries, globals.
#include "typer.h"
#include "sema/arrays.h"
#include "mahou/datetime_units.h"
#include "mahou/range_type.h"

#include "mahou/versions.h"

#include <functional>

namespace mahou::sema {

void collectTargets(const ast::Expr &t, std::vector<std::string> &names) {
  if (auto *n = t.as<ast::Name>()) names.push_back(n->id);
  else if (auto *tu = t.as<ast::Tuple>())
    for (auto &e : tu->elts) collectTargets(*e, names);
  else if (auto *l = t.as<ast::List>())
    for (auto &e : l->elts) collectTargets(*e, names);
  else if (auto *s = t.as<ast::Starred>()) collectTargets(*s->value, names);
}

// Python scoping: a name assigned anywhere in the function is local everywhere.
void collectLocals(const ast::Body &body, std::vector<std::string> &names) {
  for (auto &s : body) {
    switch (s->kind) {
    case ast::StmtKind::Assign:
      for (auto &t : s->as<ast::Assign>()->targets) collectTargets(*t, names);
      break;
    case ast::StmtKind::AugAssign: collectTargets(*s->as<ast::AugAssign>()->target, names); break;
    case ast::StmtKind::AnnAssign: collectTargets(*s->as<ast::AnnAssign>()->target, names); break;
    case ast::StmtKind::For: {
      auto *f = s->as<ast::For>();
      collectTargets(*f->target, names);
      collectLocals(f->body, names);
      collectLocals(f->orelse, names);
      break;
    }
    case ast::StmtKind::While:
      collectLocals(s->as<ast::While>()->body, names);
      collectLocals(s->as<ast::While>()->orelse, names);
      break;
    case ast::StmtKind::If:
      collectLocals(s->as<ast::If>()->body, names);
      collectLocals(s->as<ast::If>()->orelse, names);
      break;
    case ast::StmtKind::Try: {
      auto *t = s->as<ast::Try>();
      collectLocals(t->body, names);
      for (auto &h : t->handlers) {
        if (!h.name.empty()) names.push_back(h.name);
        collectLocals(h.body, names);
      }
      collectLocals(t->orelse, names);
      collectLocals(t->finalbody, names);
      break;
    }
    case ast::StmtKind::FunctionDef: names.push_back(s->as<ast::FunctionDef>()->name); break;
    default: break;
    }
  }
}



bool bodyYields(const ast::Body &body); // generators.cpp

bool alwaysExits(const ast::Body &body) {
  if (body.empty()) return false;
  const ast::Stmt &last = *body.back();
  switch (last.kind) {
  case ast::StmtKind::Return:
  case ast::StmtKind::Raise: return true;
  case ast::StmtKind::If: {
    auto *i = last.as<ast::If>();
    return alwaysExits(i->body) && alwaysExits(i->orelse);
  }
  case ast::StmtKind::Try: {
    auto *t = last.as<ast::Try>();
    if (alwaysExits(t->finalbody)) return true;
    bool exits = alwaysExits(t->body) || alwaysExits(t->orelse);
    for (auto &h : t->handlers) exits = exits && alwaysExits(h.body);
    return exits;
  }
  case ast::StmtKind::While: {
    // `while True:` without break never falls through.
    auto *w = last.as<ast::While>();
    auto *b = w->test->as<ast::BoolLit>();
    if (!b || !b->value) return false;
    std::function<bool(const ast::Body &)> hasBreak = [&](const ast::Body &bb) {
      for (auto &s : bb) {
        if (s->kind == ast::StmtKind::Break) return true;
        if (auto *i = s->as<ast::If>())
          if (hasBreak(i->body) || hasBreak(i->orelse)) return true;
        if (auto *t = s->as<ast::Try>()) { // a break in a try's body, handler, else or finally
          if (hasBreak(t->body) || hasBreak(t->orelse) || hasBreak(t->finalbody)) return true;
          for (auto &h : t->handlers)
            if (hasBreak(h.body)) return true;
        }
      }
      return false;
    };
    return !hasBreak(w->body);
  }
  default: return false;
  }
}

FunctionTyper::FunctionTyper(const SourceFile &file, const ast::FunctionDef &def,
                             const std::vector<Type> &argTypes, CompileEnvironment &env,
                             const CompileOptions &options, std::string symbol, const TypingContext &context)
    : file_(file), def_(def), argTypes_(argTypes), env_(env), options_(options),
      symbol_(std::move(symbol)), gpu_(context.gpu), sink_(context.sink), innerSelf_(context.inner) {
  if (!def.kwarg.empty())
    notSupported(def.loc, "**kwargs parameters are not supported (as in Numba)");
  // Keyword-only parameters come after the positional ones; *args: the extra positional
  // arguments arrive packed in one tuple after the named ones.
  size_t nparams = def.numParams();
  if (!def.vararg.empty() && (argTypes.size() != nparams || !argTypes.back().isTuple()))
    notSupported(def.loc, "'*" + def.vararg + "' parameters are only supported in calls from other compiled functions");
  // An inner function also receives the enclosing variables it reads, after its own.
  const std::vector<std::string> noCaptures;
  const std::vector<std::string> &captured = innerSelf_ ? innerSelf_->captured : noCaptures;
  if (argTypes.size() != nparams + captured.size())
    internalError("argument count differs from the parameter count of " + def.name);
  checkScopeDeclarations();
  collectInnerFunctions();
  for (size_t i = 0; i < argTypes.size(); ++i) {
    const std::string &pname = i < nparams ? def.paramName(i) : captured[i - nparams];
    if (varIndex_.count(pname)) error(i < def.args.size() ? def.args[i].loc : def.loc, "duplicate parameter name");
    varIndex_[pname] = int(vars_.size());
    vars_.push_back({pname, argTypes[i]});
  }
  std::vector<std::string> locals;
  collectLocals(def.body, locals);
  for (auto &n : locals) {
    if (varIndex_.count(n) || inner_.count(n)) continue;
    varIndex_[n] = int(vars_.size());
    vars_.push_back({n, Type::unknown()});
  }
  // jit(locals={...}): a declared variable has that type; what is assigned is converted.
  // Every version of the variable (frontend/versions.cpp) is declared.
  if (!innerSelf_)
    for (auto &[n, t] : options.localTypes)
      for (int i = int(argTypes.size()); i < int(vars_.size()); ++i) { // parameters keep their types
        if (frontend::userName(vars_[i].name) != n) continue;
        vars_[i].type = t;
        declaredVars_.insert(i);
      }
  generator_ = bodyYields(def.body);
  if (generator_) {
    if (gpu_) notSupported(def.loc, "generators are not supported in CUDA kernels and device functions");
    ret_ = Type::generator(Type::unknown());
  }
  if (!generator_ && !innerSelf_ && options.declaredReturn && options.declaredReturn->isNumber()) {
    ret_ = *options.declaredReturn;
    returnDeclared_ = true;
    if (sink_) sink_->noteReturn(symbol_, ret_);
  }
}

ir::Function FunctionTyper::run() {
  constexpr int kMaxPasses = 64;
  for (int pass = 0;; ++pass) {
    if (pass == kMaxPasses) internalError("type inference did not converge for " + def_.name);
    changed_ = false;
    recursionUnknown_ = false;
    tempCounter_ = 0;
    deferredEffects_.clear();
    errorSlotCounter_ = 0;
    loopDepth_ = 0;
    finallyExits_.clear();
    returnsTyped_ = 0;
    ir::Block body;
    block(def_.body, body);
    bool bodyExits = blockExits_; // it ended in a folded branch that returns or raises
    // No return typed at all (every live path raises, after branch pruning): None.
    if (generator_) {
      // A generator whose yields are all unreachable yields nothing: its items are None.
      if (!changed_ && yield_.isUnknown()) {
        bool unknownVars = false;
        for (auto &v : vars_) unknownVars |= v.type.containsUnknown();
        if (!unknownVars) {
          yield_ = Type::none();
          ret_ = Type::generator(yield_);
          changed_ = true;
        }
      }
    } else if (!(bodyExits || alwaysExits(def_.body)) || (returnsTyped_ == 0 && ret_.isUnknown())) {
      unifyReturn(Type::none(), def_.loc);
    }
    if (changed_) continue;
    bool unknownLeft = ret_.containsUnknown() || recursionUnknown_;
    for (auto &v : vars_) unknownLeft |= v.type.containsUnknown();
    if (unknownLeft && !strict_) {
      strict_ = true; // one more pass that reports the first unknown it meets
      continue;
    }
    if (ret_.containsUnknown())
      error(def_.loc, "cannot infer the return type of '" + def_.name +
                          "' (a recursive function needs a base case that returns first)");
    checkRecordUses(*this, body);
    checkBufferUses(*this, body);
    ir::Function fn;
    fn.name = def_.name;
    fn.file = file_.path();
    fn.symbol = symbol_;
    fn.numParams = int(argTypes_.size());
    fn.argTypes = argTypes_;
    fn.ret = ret_;
    fn.generator = generator_;
    fn.body = std::move(body);
    for (auto &v : vars_) {
      // Locals that are never given a value (only in dead code) get a harmless type.
      ir::Var copy = v;
      if (copy.type.containsUnknown()) copy.type = Type::int64();
      fn.vars.push_back(copy);
    }
    returnNonlocals(fn);
    return fn;
  }
}

ExprPtr FunctionTyper::load(int var, Loc loc) {
  if (vars_[var].type.containsUnknown() && strict_)
    error(loc, "cannot infer the type of variable '" + frontend::userName(vars_[var].name) +
                   "' (is it used before it is assigned?)");
  auto e = std::make_unique<ir::Expr>(ir::ExprOp::LoadVar, vars_[var].type, loc);
  e->var = var;
  return e;
}

ir::StmtPtr FunctionTyper::assignVar(int var, ExprPtr value, Loc loc) {
  Type &vt = vars_[var].type;
  const Type &t = value->type;
  switch (t.kind) {
  case Kind::Function: // f = np.trapezoid, f = g: a compile-time value, one function per variable
    break;
  case Kind::Module:
  case Kind::ExcClass:
  case Kind::ClassRef:
  case Kind::Range:
    notSupported(loc, "cannot store a " + t.str() + " in variable '" + frontend::userName(vars_[var].name) + "'");
  case Kind::Namespace: // a cooperative group (g = cuda.cg.this_grid()) is a value; cuda.shared is not
    if (receiverOf(t) != Receiver::CudaGrid) notSupported(loc, "cannot store a " + t.str() + " in variable '" + frontend::userName(vars_[var].name) + "'");
    break;
  default: break;
  }
  if (declaredVars_.count(var)) { // locals={...}: converted to the declared type
    auto s = std::make_unique<ir::Stmt>(ir::StmtOp::Assign, loc);
    s->var = var;
    s->exprs.push_back(t.containsUnknown() ? std::move(value)
                                           : convert(std::move(value), vt, "assignment to '" + frontend::userName(vars_[var].name) + "' (declared " + vt.str() + " in locals=)"));
    return s;
  }
  bool partial = t.isPartialContainer(); // [] or {}: the item types come from later uses
  if (!t.containsUnknown() || partial) {
    auto u = types::unify(vt, t.kind == Kind::Str && !vt.isUnknown() && vt != t ? Type::unicode() : t);
    if (!u) {
      // The assignments of one version meet at a read (after an if, around a loop).
      auto join = def_.versionJoins.find(vars_[var].name);
      std::string where = join == def_.versionJoins.end()
                              ? ""
                              : " (both values reach the read of '" + frontend::userName(vars_[var].name) +
                                    "' at line " + std::to_string(join->second.line) + ")";
      error(loc, "variable '" + frontend::userName(vars_[var].name) + "' is " + vt.str() + " elsewhere but " + t.str() +
                     " here; the types cannot be unified" + where);
    }
    if (*u != vt) {
      vt = *u;
      changed_ = true;
    }
  }
  auto s = std::make_unique<ir::Stmt>(ir::StmtOp::Assign, loc);
  s->var = var;
  if ((!t.containsUnknown() || partial) && !vt.containsUnknown()) value = convert(std::move(value), vt, "assignment");
  s->exprs.push_back(std::move(value));
  return s;
}

std::optional<int> FunctionTyper::localVariable(const std::string &name) {
  auto it = varIndex_.find(name);
  if (it == varIndex_.end()) return std::nullopt;
  return it->second;
}

int FunctionTyper::hiddenVar(const std::string &name) {
  auto it = varIndex_.find(name);
  if (it != varIndex_.end()) return it->second;
  int idx = int(vars_.size());
  varIndex_[name] = idx;
  vars_.push_back({name, Type::unknown()});
  return idx;
}

int FunctionTyper::tempVar(const Type &t, Loc loc) {
  int idx = hiddenVar("$t" + std::to_string(tempCounter_++));
  // Temporaries are numbered in the order a pass takes them. A branch typed in one pass
  // and pruned in another (or the reverse) shifts the numbers after it, and a number
  // then names another site's value: it starts afresh there instead of unifying with
  // the type it had for the other site (a bool temporary took a float's type).
  auto [site, first] = tempSites_.try_emplace(idx, loc);
  if (!first && (site->second.line != loc.line || site->second.col != loc.col)) {
    site->second = loc;
    Type fresh = t.containsUnknown() ? Type::unknown() : t;
    if (vars_[idx].type != fresh) {
      vars_[idx].type = fresh;
      changed_ = true;
    }
    return idx;
  }
  if (!t.containsUnknown()) {
    auto u = types::unify(vars_[idx].type, t);
    if (!u) { // a temporary gets a new type in a later pass: take the new one
      vars_[idx].type = t;
      changed_ = true;
    } else if (*u != vars_[idx].type) {
      vars_[idx].type = *u;
      changed_ = true;
    }
  }
  return idx;
}

namespace {

// An empty container display or constructor ([] / {} / set() / list()): it takes the
// type its destination has.
bool isFreshEmptyContainer(const ir::Expr &e) {
  if (e.op != ir::ExprOp::Object || !e.args.empty()) return false;
  auto op = ir::ObjectOp(e.sub);
  return op == ir::ObjectOp::ListNew || op == ir::ObjectOp::DictNew || op == ir::ObjectOp::SetNew;
}

// Whether a value of type `from` converts implicitly to `to` (as an assignment, an
// argument or a return value does).
bool implicitlyConverts(const Type &from, const Type &to) {
  if (from == to) return true;
  if (from.isNumber() && to.isNumber()) return !(from.isComplex() && !to.isComplex());
  if (from.isArray() && to.isArray())
    return from.dtype == to.dtype && from.ndim == to.ndim && (to.layout == types::Layout::A || to.layout == from.layout) &&
           (to.readonly || !from.readonly);
  if (from.isTuple() && to.isTuple()) {
    if (from.elems.size() != to.elems.size()) return false;
    for (size_t i = 0; i < from.elems.size(); ++i)
      if (!implicitlyConverts(from.elems[i], to.elems[i])) return false;
    return true;
  }
  if (from.kind == Kind::Str && to.isUnicode()) return true;
  if (to.isOptional()) return from.isNone() || implicitlyConverts(from.isOptional() ? from.elems[0] : from, to.elems[0]);
  if (from.isOptional()) return implicitlyConverts(from.elems[0], to); // checked at run time
  if (from.isList() && to.isList()) return from.elems[0] == to.elems[0];
  return false;
}

} // namespace

ExprPtr FunctionTyper::convert(ExprPtr e, const Type &to, const std::string &what) {
  if (e->type.isPartialContainer() && !to.containsUnknown() && to.kind == e->type.kind && isFreshEmptyContainer(*e)) {
    e->type = to;
    return e;
  }
  if (isUnknown(e) || to.containsUnknown() || e->type == to) return e;
  if (e->type.isEnumMember() && e->type.typed && to.isNumber()) e = enumValue(std::move(e)); // IntEnum → its int
  if (e->type == to) return e;
  const Type &from = e->type;
  if (from.isOptional() || to.isOptional() || from.isObject() || to.isObject() || from.kind == Kind::Str ||
      (from.isTuple() && to.isTuple())) {
    if (!implicitlyConverts(from, to)) error(e->loc, "cannot convert " + from.str() + " to " + to.str() + " in " + what);
    return ir::makeCast(std::move(e), to);
  }
  bool ok = false;
  if (from.isNumber() && to.isNumber()) {
    ok = !(from.isComplex() && !to.isComplex());
  } else if (from.isDatetimeLike() && to.isDatetimeLike()) { // to a unit it reaches exactly (datetime_units.h)
    ok = types::convertsExactly(from.dtype, to.dtype);
  } else if (from.isArray() && to.isArray()) {
    ok = from.dtype == to.dtype && from.ndim == to.ndim &&
         (to.layout == types::Layout::A || to.layout == from.layout) &&
         (to.readonly || !from.readonly) &&
         (to.buffer == from.buffer || to.buffer == types::BufferKind::None); // a buffer's memory as an ndarray
  } else if (from.isTuple() && to.isTuple() && from.elems.size() == to.elems.size()) {
    ok = true;
    for (size_t i = 0; i < from.elems.size(); ++i) {
      const Type &a = from.elems[i], &b = to.elems[i];
      if (a == b) continue;
      bool elemOk = (a.isNumber() && b.isNumber() && !(a.isComplex() && !b.isComplex())) ||
                    (a.isArray() && b.isArray() && a.dtype == b.dtype && a.ndim == b.ndim);
      ok &= elemOk;
    }
  }
  if (!ok) error(e->loc, "cannot convert " + from.str() + " to " + to.str() + " in " + what);
  return ir::makeCast(std::move(e), to);
}

ExprPtr FunctionTyper::toInt64Index(ExprPtr e, const std::string &what) {
  if (isUnknown(e)) return e;
  e = intEnumValue(unwrapOptional(std::move(e))); // an optional index is its value (TypeError when None)
  if (e->type.isBool() || !e->type.isInt())
    error(e->loc, what + " must be an integer, not " + e->type.str());
  return ir::makeCast(std::move(e), Type::int64());
}

ExprPtr FunctionTyper::truth(ExprPtr e) {
  if (isUnknown(e)) return ir::makeConst(Type::unknown(), e->loc, 0);
  if (e->type.isBool()) return e;
  Loc loc = e->loc;
  switch (e->type.kind) {
  case Kind::Scalar: {
    auto t = std::make_unique<ir::Expr>(ir::ExprOp::Truth, Type::boolean(), loc);
    t->args.push_back(std::move(e));
    return t;
  }
  case Kind::None: return evaluatedThen(*this, std::move(e), ir::makeConst(Type::boolean(), loc, 0), loc);
  case Kind::Instance: return instanceTruth(*this, std::move(e));
  case Kind::EnumMember: // an IntEnum's value; an Enum member is true
    if (e->type.typed) return truth(enumValue(std::move(e)));
    return evaluatedThen(*this, std::move(e), ir::makeConst(Type::boolean(), loc, 1), loc);
  case Kind::List:
  case Kind::Unicode: {
    std::vector<ExprPtr> a;
    bool list = e->type.isList();
    a.push_back(std::move(e));
    auto n = objectOp(*this, list ? ir::ObjectOp::ListLen : ir::ObjectOp::StrLen, Type::int64(), std::move(a), loc);
    return compareOne(ast::CmpOpKind::NotEq, std::move(n), ir::makeConst(Type::int64(), loc, 0), loc);
  }
  case Kind::Dict:
  case Kind::Set: return containerTruth(*this, std::move(e));
  case Kind::Optional: {
    // None is false; otherwise the value's truth.
    auto stmts = std::make_shared<ir::Block>();
    int v = holdInTemp(std::move(e), loc, *stmts);
    auto sel = std::make_unique<ir::Expr>(ir::ExprOp::Select, Type::boolean(), loc);
    sel->args.push_back(isNoneTest(load(v, loc), false, loc));
    sel->args.push_back(ir::makeConst(Type::boolean(), loc, 0));
    sel->args.push_back(truth(unwrapOptional(load(v, loc))));
    return seqExpr(std::move(stmts), std::move(sel), loc);
  }
  case Kind::Tuple:
    if (types::isRange(e->type)) return rangeTruth(*this, std::move(e), loc);
    return evaluatedThen(*this, std::move(e), ir::makeConst(Type::boolean(), loc, e->type.elems.empty() ? 0 : 1), loc);
  case Kind::Str: return evaluatedThen(*this, std::move(e), ir::makeConst(Type::boolean(), loc, e->type.text.empty() ? 0 : 1), loc);
  case Kind::Array:
    if (isBytesValue(e->type)) return bytesTruth(*this, std::move(e)); // bytes_ops.cpp
    if (e->type.isBuffer()) notSupported(loc, "the truth value of a " + e->type.str() + " is not supported (use len())");
    [[fallthrough]];
  default:
    error(loc, "the truth value of " + e->type.str() +
                   " is ambiguous; compare explicitly (for arrays use a.size or a.any())");
  }
}

const GlobalValue &FunctionTyper::global(const std::string &name) {
  auto it = globals_.find(name);
  if (it != globals_.end()) return it->second;
  return globals_.emplace(name, env_.resolveGlobal(name)).first->second;
}

std::optional<int64_t> FunctionTyper::constInt(const ast::Expr &e) {
  if (auto v = constIntExpression(e)) return v;
  if (auto *u = e.as<ast::UnaryOp>()) {
    if (u->op == ast::UnaryOpKind::USub)
      if (auto v = constInt(*u->operand)) return -*v;
    if (u->op == ast::UnaryOpKind::UAdd) return constInt(*u->operand);
  }
  if (auto *n = e.as<ast::Name>()) {
    if (varIndex_.count(n->id)) return std::nullopt;
    auto &g = global(n->id);
    if (g.kind == GlobalValue::Kind::Int) return g.i;
  }
  return std::nullopt;
}

void FunctionTyper::unifyReturn(const Type &t, Loc loc) {
  if (t.containsUnknown()) return;
  if (returnDeclared_) { // the signature's type: numbers are converted to it
    if (!t.isNumber())
      error(loc, "'" + def_.name + "' is declared to return " + ret_.str() + " but returns " + t.str() + " here");
    return;
  }
  auto u = types::unify(ret_, t);
  if (!u)
    error(loc, "'" + def_.name + "' returns " + ret_.str() + " elsewhere but " + t.str() +
                   " here; the return types cannot be unified");
  if (*u != ret_) {
    ret_ = *u;
    changed_ = true;
    if (sink_ && !innerSelf_ && !generator_) sink_->noteReturn(symbol_, ret_); // for mutual recursion
  }
}

ir::Function buildTypedIR(const SourceFile &file, const ast::FunctionDef &def,
                          const std::vector<types::Type> &argTypes, CompileEnvironment &env,
                          const CompileOptions &options, const std::string &symbol,
                          const TypingContext &context) {
  TypingNesting nesting;
  FunctionTyper typer(file, def, argTypes, env, options, symbol, context);
  return typer.run();
}

} // namespace mahou::sema
