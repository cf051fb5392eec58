// Variable versions (a renaming pass before type inference). Numba types each
// assignment of a variable on its own and unifies types only where the values meet: at
// a read that more than one assignment reaches. This pass computes reaching definitions
// over the structured AST (if/else joins, loop heads to a fixed point, except handlers
// and finally blocks reached from any point of their try body), groups the assignments
// that reach a common read (union-find), and renames every group but the first of a
// name to a version of its own (`x$v1`), so sema gives each version its own type.
// The analysis only ever over-approximates what reaches a read, so a read always names
// the version holding its value. Left whole: names read or bound by nested functions
// and lambdas (they capture the variable by name), inner function names, imported,
// global and nonlocal names, except-handler names.
#include "mahou/versions.h"

#include "mahou/ast_walk.h"

#include <algorithm>
#include <functional>
#include <set>

namespace mahou::frontend {

std::string userName(std::string_view name) {
  size_t cut = name.find('$');
  if (cut == 0 || cut == std::string_view::npos) return std::string(name);
  return std::string(name.substr(0, cut));
}

namespace {

using DefSet = std::vector<int>; // sorted, unique definition ids

void unite(DefSet &a, const DefSet &b) {
  DefSet out;
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  a = std::move(out);
}

// The definitions reaching a program point, per candidate name (absent: none).
struct State {
  bool live = true; // false after return/raise/break/continue
  std::map<std::string, DefSet> defs;
  bool operator==(const State &o) const { return live == o.live && defs == o.defs; }
};

void joinInto(State &a, const State &b) {
  if (!b.live) return;
  if (!a.live) {
    a = b;
    return;
  }
  for (auto &[n, s] : b.defs) unite(a.defs[n], s);
}

State dead() {
  State s;
  s.live = false;
  return s;
}

// Every name that appears in a nested function or lambda of `body` (read or bound).
void namesInNested(const ast::Body &body, std::set<std::string> &out, bool nested);

void namesInExpr(const ast::Expr *e, std::set<std::string> &out, bool nested) {
  if (!e) return;
  if (auto *n = e->as<ast::Name>()) {
    if (nested) out.insert(n->id);
    return;
  }
  if (auto *l = e->as<ast::Lambda>()) {
    for (auto &a : l->def->args) {
      namesInExpr(a.defaultValue.get(), out, nested);
      out.insert(a.name);
    }
    namesInNested(l->def->body, out, true);
    return;
  }
  ast::forEachChild(*e, [&](const ast::Expr &x) { namesInExpr(&x, out, nested); });
}

void namesInNested(const ast::Body &body, std::set<std::string> &out, bool nested) {
  for (auto &s : body) {
    ast::forEachPart(*s, [&](const ast::Expr &x) { namesInExpr(&x, out, nested); },
                     [&](const ast::Body &b) { namesInNested(b, out, nested); });
    if (auto *d = s->as<ast::FunctionDef>()) { // a scope of its own: every name in it counts
      for (auto &a : d->args) out.insert(a.name);
      namesInNested(d->body, out, true);
    } else if (auto *t = s->as<ast::Try>()) {
      for (auto &h : t->handlers)
        if (nested && !h.name.empty()) out.insert(h.name);
    }
  }
}

// Names this function's own statements bind in a way versions must not split.
void pinnedNames(const ast::Body &body, std::set<std::string> &out) {
  for (auto &s : body) {
    using K = ast::StmtKind;
    switch (s->kind) {
    case K::FunctionDef: out.insert(s->as<ast::FunctionDef>()->name); break;
    case K::Assign:
      if (s->as<ast::Assign>()->value->kind == ast::ExprKind::Lambda)
        for (auto &t : s->as<ast::Assign>()->targets)
          if (auto *n = t->as<ast::Name>()) out.insert(n->id);
      break;
    case K::Import:
      for (auto &a : s->as<ast::Import>()->names) {
        const std::string &n = a.asname.empty() ? a.name : a.asname;
        out.insert(n.substr(0, n.find('.')));
      }
      break;
    case K::ImportFrom:
      for (auto &a : s->as<ast::ImportFrom>()->names) out.insert(a.asname.empty() ? a.name : a.asname);
      break;
    case K::Global:
      for (auto &n : s->as<ast::Global>()->names) out.insert(n);
      break;
    case K::Nonlocal:
      for (auto &n : s->as<ast::Nonlocal>()->names) out.insert(n);
      break;
    case K::If:
      pinnedNames(s->as<ast::If>()->body, out);
      pinnedNames(s->as<ast::If>()->orelse, out);
      break;
    case K::For:
      pinnedNames(s->as<ast::For>()->body, out);
      pinnedNames(s->as<ast::For>()->orelse, out);
      break;
    case K::While:
      pinnedNames(s->as<ast::While>()->body, out);
      pinnedNames(s->as<ast::While>()->orelse, out);
      break;
    case K::Try: {
      auto *t = s->as<ast::Try>();
      pinnedNames(t->body, out);
      for (auto &h : t->handlers) {
        if (!h.name.empty()) out.insert(h.name);
        pinnedNames(h.body, out);
      }
      pinnedNames(t->orelse, out);
      pinnedNames(t->finalbody, out);
      break;
    }
    default: break;
    }
  }
}

class Versioner {
public:
  explicit Versioner(ast::FunctionDef &fn) : fn_(fn) {}

  void run() {
    std::set<std::string> pinned;
    pinnedNames(fn_.body, pinned);
    namesInNested(fn_.body, pinned, false);
    // Candidates: parameters and assigned names that are not pinned.
    std::vector<std::string> params;
    for (size_t i = 0; i < fn_.numParams(); ++i) params.push_back(fn_.paramName(i));
    for (auto &p : params)
      if (!pinned.count(p)) candidates_.insert(p);
    collectAssigned(fn_.body, pinned);
    if (candidates_.empty()) return;
    for (auto &p : params) {
      if (!candidates_.count(p)) continue;
      int id = newDef(nullptr, p);
      state_.defs[p] = {id};
    }
    body(fn_.body);
    rename();
  }

private:
  struct Def {
    ast::Name *node; // null: a parameter
    std::string name;
  };

  ast::FunctionDef &fn_;
  std::set<std::string> candidates_;
  std::vector<Def> defs_;
  std::vector<int> parent_; // union-find over definitions
  std::map<const ast::Name *, int> defOf_;
  std::map<ast::Name *, DefSet> uses_;      // the definitions reaching each read
  std::vector<ast::Name *> useOrder_;       // reads in the order first met
  std::vector<ast::Name *> augmented_;      // x op= v: read and definition in one node
  std::set<const ast::Name *> objModeInputs_; // the names objmode blocks may read
  struct Loop {
    std::vector<State> breaks, continues;
  };
  std::vector<Loop> loops_;
  std::vector<State *> collectors_; // states seen in try bodies (for their handlers and finally)
  std::vector<std::string> shadowed_; // comprehension targets in scope
  State state_;

  void collectAssigned(const ast::Body &b, const std::set<std::string> &pinned) {
    std::function<void(const ast::Expr &)> target = [&](const ast::Expr &t) {
      if (auto *n = t.as<ast::Name>()) {
        if (!pinned.count(n->id)) candidates_.insert(n->id);
      } else if (auto *tu = t.as<ast::Tuple>()) {
        for (auto &e : tu->elts) target(*e);
      } else if (auto *l = t.as<ast::List>()) {
        for (auto &e : l->elts) target(*e);
      } else if (auto *s = t.as<ast::Starred>()) {
        target(*s->value);
      }
    };
    for (auto &s : b) {
      using K = ast::StmtKind;
      switch (s->kind) {
      case K::Assign:
        for (auto &t : s->as<ast::Assign>()->targets) target(*t);
        break;
      case K::AugAssign: target(*s->as<ast::AugAssign>()->target); break;
      case K::AnnAssign: target(*s->as<ast::AnnAssign>()->target); break;
      case K::For:
        target(*s->as<ast::For>()->target);
        collectAssigned(s->as<ast::For>()->body, pinned);
        collectAssigned(s->as<ast::For>()->orelse, pinned);
        break;
      case K::While:
        collectAssigned(s->as<ast::While>()->body, pinned);
        collectAssigned(s->as<ast::While>()->orelse, pinned);
        break;
      case K::If:
        collectAssigned(s->as<ast::If>()->body, pinned);
        collectAssigned(s->as<ast::If>()->orelse, pinned);
        break;
      case K::Try: {
        auto *t = s->as<ast::Try>();
        collectAssigned(t->body, pinned);
        for (auto &h : t->handlers) collectAssigned(h.body, pinned);
        collectAssigned(t->orelse, pinned);
        collectAssigned(t->finalbody, pinned);
        break;
      }
      default: break;
      }
    }
  }

  int newDef(ast::Name *node, const std::string &name) {
    int id = int(defs_.size());
    defs_.push_back({node, name});
    parent_.push_back(id);
    return id;
  }
  int find(int d) {
    while (parent_[d] != d) d = parent_[d] = parent_[parent_[d]];
    return d;
  }
  void join(int a, int b) {
    a = find(a), b = find(b);
    if (a != b) parent_[std::max(a, b)] = std::min(a, b);
  }

  bool tracked(const std::string &name) const {
    return candidates_.count(name) && std::find(shadowed_.begin(), shadowed_.end(), name) == shadowed_.end();
  }

  void use(ast::Name &n) {
    if (!tracked(n.id)) return;
    auto [it, fresh] = uses_.try_emplace(&n);
    if (fresh) useOrder_.push_back(&n);
    if (!state_.live) return;
    auto d = state_.defs.find(n.id);
    if (d != state_.defs.end()) unite(it->second, d->second);
  }

  void define(ast::Name &n) {
    if (!tracked(n.id)) return;
    auto [it, fresh] = defOf_.try_emplace(&n, 0);
    if (fresh) it->second = newDef(&n, n.id);
    state_.defs[n.id] = {it->second};
    for (State *c : collectors_) joinInto(*c, state_);
  }

  void expr(ast::Expr *e) {
    if (!e) return;
    if (auto *n = e->as<ast::Name>()) use(*n);
    else if (auto *c = e->as<ast::Comprehension>()) comprehension(*c);
    else if (auto *o = e->as<ast::ObjMode>()) {
      expr(o->context.get());
      for (auto &x : o->inputs) {
        objModeInputs_.insert(x->as<ast::Name>());
        expr(x.get());
      }
    } else ast::forEachChild(*e, [&](ast::Expr &x) { expr(&x); }); // a lambda: its defaults (its body reads only pinned names)
  }

  // A comprehension's targets are its own: the first iterable is read outside them.
  void comprehension(ast::Comprehension &c) {
    size_t depth = shadowed_.size();
    for (size_t i = 0; i < c.generators.size(); ++i) {
      expr(c.generators[i].iter.get());
      std::vector<std::string> names;
      targetNames(*c.generators[i].target, names);
      shadowed_.insert(shadowed_.end(), names.begin(), names.end());
      for (auto &cond : c.generators[i].ifs) expr(cond.get());
    }
    expr(c.elt.get());
    expr(c.value.get());
    shadowed_.resize(depth);
  }

  static void targetNames(const ast::Expr &t, std::vector<std::string> &out) {
    if (auto *n = t.as<ast::Name>()) out.push_back(n->id);
    else if (auto *tu = t.as<ast::Tuple>())
      for (auto &e : tu->elts) targetNames(*e, out);
    else if (auto *l = t.as<ast::List>())
      for (auto &e : l->elts) targetNames(*e, out);
    else if (auto *s = t.as<ast::Starred>()) targetNames(*s->value, out);
  }

  void target(ast::Expr *t) {
    if (auto *n = t->as<ast::Name>()) define(*n);
    else if (auto *tu = t->as<ast::Tuple>())
      for (auto &e : tu->elts) target(e.get());
    else if (auto *l = t->as<ast::List>())
      for (auto &e : l->elts) target(e.get());
    else if (auto *s = t->as<ast::Starred>()) target(s->value.get());
    else expr(t); // a[i] = v, o.f = v: reads a, i, o
  }

  void body(ast::Body &b) {
    for (auto &s : b) stmt(*s);
  }

  // A loop: `head` runs before each iteration (the while test, the for target), then
  // the body; iterated until the state at the loop head stops growing.
  void loop(const std::function<void()> &head, ast::Body &loopBody, ast::Body &orelse) {
    State entry = state_;
    State top = entry;
    loops_.emplace_back();
    for (;;) {
      loops_.back() = Loop{};
      state_ = top;
      head();
      body(loopBody);
      State next = top;
      joinInto(next, state_);
      for (auto &c : loops_.back().continues) joinInto(next, c);
      if (next == top) break;
      top = std::move(next);
    }
    Loop done = std::move(loops_.back());
    loops_.pop_back();
    state_ = top; // the loop ends at its head (test false, iterator exhausted)
    body(orelse);
    for (auto &b : done.breaks) joinInto(state_, b);
  }

  void tryStmt(ast::Try &t) {
    State collected = state_; // every state inside the body: where a handler may start
    collectors_.push_back(&collected);
    body(t.body);
    collectors_.pop_back();
    State out = dead();
    State escaped = collected; // states that may leave through finally abnormally
    collectors_.push_back(&escaped);
    State afterBody = state_;
    for (auto &h : t.handlers) {
      state_ = collected;
      expr(h.type.get());
      body(h.body);
      joinInto(out, state_);
    }
    state_ = std::move(afterBody);
    body(t.orelse);
    joinInto(out, state_);
    collectors_.pop_back();
    if (t.finalbody.empty()) {
      state_ = std::move(out);
      for (State *c : collectors_) joinInto(*c, escaped);
      return;
    }
    state_ = out;
    joinInto(state_, escaped);
    body(t.finalbody);
    // A break or continue in the try passes through finally: its defs reach the loop's exits.
    if (!loops_.empty() && state_.live) {
      loops_.back().breaks.push_back(state_);
      loops_.back().continues.push_back(state_);
    }
    if (!out.live) state_ = dead(); // finally then re-raises or returns
  }

  void stmt(ast::Stmt &s) {
    using K = ast::StmtKind;
    switch (s.kind) {
    case K::FunctionDef: {
      auto *d = s.as<ast::FunctionDef>();
      for (auto &dec : d->decorators) expr(dec.get());
      for (auto &a : d->args) expr(a.defaultValue.get());
      return;
    }
    case K::Return:
      expr(s.as<ast::Return>()->value.get());
      state_ = dead();
      return;
    case K::Assign: {
      auto *a = s.as<ast::Assign>();
      expr(a->value.get());
      for (auto &t : a->targets) target(t.get());
      return;
    }
    case K::AugAssign: {
      auto *a = s.as<ast::AugAssign>();
      if (auto *n = a->target->as<ast::Name>()) {
        expr(a->value.get());
        use(*n);
        if (tracked(n->id)) augmented_.push_back(n);
        define(*n);
      } else {
        expr(a->target.get());
        expr(a->value.get());
      }
      return;
    }
    case K::AnnAssign: {
      auto *a = s.as<ast::AnnAssign>();
      if (!a->value) return;
      expr(a->value.get());
      target(a->target.get());
      return;
    }
    case K::If: {
      auto *i = s.as<ast::If>();
      expr(i->test.get());
      State entry = state_;
      body(i->body);
      State then = std::move(state_);
      state_ = std::move(entry);
      body(i->orelse);
      joinInto(state_, then);
      return;
    }
    case K::For: {
      auto *f = s.as<ast::For>();
      expr(f->iter.get());
      loop([&] { target(f->target.get()); }, f->body, f->orelse);
      return;
    }
    case K::While: {
      auto *w = s.as<ast::While>();
      loop([&] { expr(w->test.get()); }, w->body, w->orelse);
      return;
    }
    case K::Break:
    case K::Continue:
      if (!loops_.empty() && state_.live)
        (s.kind == K::Break ? loops_.back().breaks : loops_.back().continues).push_back(state_);
      state_ = dead();
      return;
    case K::ExprStmt: expr(s.as<ast::ExprStmt>()->value.get()); return;
    case K::Assert:
      expr(s.as<ast::Assert>()->test.get());
      expr(s.as<ast::Assert>()->msg.get());
      return;
    case K::Raise:
      expr(s.as<ast::Raise>()->exc.get());
      expr(s.as<ast::Raise>()->cause.get());
      state_ = dead();
      return;
    case K::Yield: // the value is read; the generator resumes here with the same variables
      expr(s.as<ast::Yield>()->value.get());
      return;
    case K::Try: tryStmt(*s.as<ast::Try>()); return;
    case K::Delete:
      for (auto &t : s.as<ast::Delete>()->targets) expr(t.get());
      return;
    case K::Import:
    case K::ImportFrom:
    case K::Global:
    case K::Nonlocal:
    case K::Pass: return;
    }
  }

  void rename() {
    for (auto &[n, reaching] : uses_)
      for (size_t i = 1; i < reaching.size(); ++i) join(reaching[0], reaching[i]);
    for (ast::Name *n : augmented_) {
      auto &reaching = uses_[n];
      int d = defOf_.at(n);
      for (int r : reaching) join(d, r);
    }
    // Versions of each name, in the order of their first definition; the one holding
    // the parameter (or else the first) keeps the name.
    std::map<std::string, std::vector<int>> roots;
    for (size_t d = 0; d < defs_.size(); ++d) {
      auto &v = roots[defs_[d].name];
      int r = find(int(d));
      if (std::find(v.begin(), v.end(), r) == v.end()) v.push_back(r);
    }
    std::map<int, std::string> versionName;
    for (auto &[name, rs] : roots)
      for (size_t i = 0; i < rs.size(); ++i)
        versionName[rs[i]] = i == 0 ? name : name + "$v" + std::to_string(i);
    for (size_t d = 0; d < defs_.size(); ++d)
      if (defs_[d].node) defs_[d].node->id = versionName.at(find(int(d)));
    std::set<int> joined;
    for (ast::Name *n : useOrder_) {
      auto &reaching = uses_[n];
      if (reaching.empty()) { // no assignment reaches it: the name as written
        // An objmode block's input no assignment reaches: not a variable there (the
        // block's own name, or unbound: Python's NameError in the block).
        if (objModeInputs_.count(n)) n->id += "$unassigned";
        continue;
      }
      int r = find(reaching[0]);
      n->id = versionName.at(r);
      if (reaching.size() > 1 && joined.insert(r).second) fn_.versionJoins.emplace(n->id, n->loc);
    }
  }
};

void splitNested(ast::Body &body);

void splitFunction(ast::FunctionDef &fn) {
  Versioner(fn).run();
  splitNested(fn.body);
}

// Nested defs are versioned as functions of their own (a lambda binds nothing).
void splitNested(ast::Body &body) {
  for (auto &s : body) {
    using K = ast::StmtKind;
    switch (s->kind) {
    case K::FunctionDef: splitFunction(*s->as<ast::FunctionDef>()); break;
    case K::If: splitNested(s->as<ast::If>()->body); splitNested(s->as<ast::If>()->orelse); break;
    case K::For: splitNested(s->as<ast::For>()->body); splitNested(s->as<ast::For>()->orelse); break;
    case K::While: splitNested(s->as<ast::While>()->body); splitNested(s->as<ast::While>()->orelse); break;
    case K::Try: {
      auto *t = s->as<ast::Try>();
      splitNested(t->body);
      for (auto &h : t->handlers) splitNested(h.body);
      splitNested(t->orelse);
      splitNested(t->finalbody);
      break;
    }
    default: break;
    }
  }
}

} // namespace

void splitVariableVersions(ast::FunctionDef &fn) { splitFunction(fn); }

void splitVariableVersions(ast::Module &module) {
  for (auto &s : module.body)
    if (auto *d = s->as<ast::FunctionDef>()) splitFunction(*d);
}

} // namespace mahou::frontend
