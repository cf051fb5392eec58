// `global` and `nonlocal` declarations. A global is read as every global is (frozen when
// the function is compiled); assigning one is refused. An inner function's nonlocal
// variables are passed in like its other captures and passed back out: it returns
// (result, nonlocals...) and a direct call writes them to the caller's variables.
#include "typer.h"
#include "mahou/ast_walk.h"
#include "mahou/versions.h"

#include <set>

namespace mahou::sema {

namespace {

void assignedNames(const ast::Expr &t, std::vector<std::pair<std::string, Loc>> &out) {
  if (auto *n = t.as<ast::Name>()) out.emplace_back(n->id, n->loc);
  else if (auto *tu = t.as<ast::Tuple>())
    for (auto &e : tu->elts) assignedNames(*e, out);
  else if (auto *l = t.as<ast::List>())
    for (auto &e : l->elts) assignedNames(*e, out);
  else if (auto *s = t.as<ast::Starred>()) assignedNames(*s->value, out);
}

// Each name a statement of `body` binds (not in nested functions), with where.
void bindings(const ast::Body &body, std::vector<std::pair<std::string, Loc>> &out) {
  for (auto &s : body) {
    using K = ast::StmtKind;
    switch (s->kind) {
    case K::Assign:
      for (auto &t : s->as<ast::Assign>()->targets) assignedNames(*t, out);
      break;
    case K::AugAssign: assignedNames(*s->as<ast::AugAssign>()->target, out); break;
    case K::AnnAssign: assignedNames(*s->as<ast::AnnAssign>()->target, out); break;
    case K::For: assignedNames(*s->as<ast::For>()->target, out); break;
    case K::Try:
      for (auto &h : s->as<ast::Try>()->handlers)
        if (!h.name.empty()) out.emplace_back(h.name, h.loc);
      break;
    case K::FunctionDef: out.emplace_back(s->as<ast::FunctionDef>()->name, s->loc); break;
    case K::Delete:
      for (auto &t : s->as<ast::Delete>()->targets) assignedNames(*t, out);
      break;
    default: break;
    }
    ast::forEachPart(*s, [](const ast::Expr &) {}, [&](const ast::Body &b) { bindings(b, out); });
  }
}

void returnsWithNonlocals(ir::Block &block, const std::vector<std::pair<int, Type>> &vars, const Type &ret) {
  for (auto &s : block) {
    returnsWithNonlocals(s->body, vars, ret);
    returnsWithNonlocals(s->orelse, vars, ret);
    if (s->op != ir::StmtOp::Return) continue;
    std::vector<Type> items{ret};
    auto t = std::make_unique<ir::Expr>(ir::ExprOp::TupleMake, Type::unknown(), s->loc);
    t->args.push_back(s->exprs.empty() ? ir::makeConst(Type::none(), s->loc, 0) : std::move(s->exprs[0]));
    for (auto &[var, type] : vars) {
      auto load = std::make_unique<ir::Expr>(ir::ExprOp::LoadVar, type, s->loc);
      load->var = var;
      t->args.push_back(std::move(load));
      items.push_back(type);
    }
    t->type = Type::tuple(items);
    s->exprs.clear();
    s->exprs.push_back(std::move(t));
  }
}

} // namespace

void declaredNames(const ast::Body &body, ast::StmtKind kind, std::set<std::string> &out) {
  for (auto &s : body) {
    if (s->kind == kind) {
      for (auto &n : kind == ast::StmtKind::Global ? s->as<ast::Global>()->names : s->as<ast::Nonlocal>()->names)
        out.insert(n);
      continue;
    }
    ast::forEachPart(*s, [](const ast::Expr &) {}, [&](const ast::Body &b) { declaredNames(b, kind, out); });
  }
}

void FunctionTyper::checkScopeDeclarations() {
  std::set<std::string> globals, nonlocals;
  declaredNames(def_.body, ast::StmtKind::Global, globals);
  declaredNames(def_.body, ast::StmtKind::Nonlocal, nonlocals);
  if (globals.empty() && nonlocals.empty()) return;
  std::vector<std::pair<std::string, Loc>> bound;
  bindings(def_.body, bound);
  for (auto &[name, loc] : bound) {
    if (globals.count(name))
      notSupported(loc, "assigning the global variable '" + frontend::userName(name) +
                            "' is not supported: compiled code reads globals as constants frozen when it is "
                            "compiled (as Numba does)");
    if (nonlocals.count(name) && !innerSelf_)
      notSupported(loc, "assigning '" + frontend::userName(name) +
                            "', a variable of the enclosing Python function, is not supported: compiled code "
                            "reads closure variables as constants frozen when it is compiled (as Numba does)");
  }
}

void FunctionTyper::returnNonlocals(ir::Function &fn) {
  if (!innerSelf_ || innerSelf_->nonlocals.empty()) return;
  std::vector<std::pair<int, Type>> vars;
  std::vector<Type> items{fn.ret};
  for (const std::string &n : innerSelf_->nonlocals) {
    int var = varIndex_.at(n);
    Type t = vars_[var].type.containsUnknown() ? Type::int64() : vars_[var].type;
    vars.emplace_back(var, t);
    items.push_back(t);
  }
  returnsWithNonlocals(fn.body, vars, fn.ret);
  if (!alwaysExits(def_.body)) { // falling off the end returns None and the nonlocals
    ir::Block last;
    last.push_back(std::make_unique<ir::Stmt>(ir::StmtOp::Return, def_.loc));
    returnsWithNonlocals(last, vars, fn.ret);
    fn.body.push_back(std::move(last.back()));
  }
  fn.ret = Type::tuple(items);
}

ExprPtr FunctionTyper::writeBackNonlocals(const InnerFunction &inner, ExprPtr call, Loc loc) {
  const std::string fname = inner.def->name + "()";
  int tmp = tempVar(call->type, loc);
  auto stmts = std::make_shared<ir::Block>();
  stmts->push_back(assignVar(tmp, std::move(call), loc));
  for (size_t i = 0; i < inner.nonlocals.size(); ++i) {
    const std::string &n = inner.nonlocals[i];
    auto it = varIndex_.find(n);
    bool captured = innerSelf_ && std::count(innerSelf_->captured.begin(), innerSelf_->captured.end(), n) &&
                    !std::count(innerSelf_->nonlocals.begin(), innerSelf_->nonlocals.end(), n);
    if (it == varIndex_.end() || captured)
      notSupported(loc, fname + " assigns the nonlocal variable '" + frontend::userName(n) +
                            "' of a function further out than the one calling it; declare it nonlocal here too");
    auto item = std::make_unique<ir::Expr>(ir::ExprOp::TupleGet, vars_[tmp].type.elems[i + 1], loc);
    item->ival = int64_t(i + 1);
    item->args.push_back(load(tmp, loc));
    stmts->push_back(assignVar(it->second, std::move(item), loc));
  }
  auto result = std::make_unique<ir::Expr>(ir::ExprOp::TupleGet, vars_[tmp].type.elems[0], loc);
  result->ival = 0;
  result->args.push_back(load(tmp, loc));
  return seqExpr(std::move(stmts), std::move(result), loc);
}

} // namespace mahou::sema
