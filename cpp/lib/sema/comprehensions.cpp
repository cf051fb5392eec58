// Typing of expressions that run loops: list, set and dict comprehensions (and
// generator expressions, which are materialised as lists), list(iterable), sorted(),
// and the `seq` expressions they build (statements, then a value).
#include "typer.h"

#include <set>

namespace mahou::sema {

using ObjectOp = ir::ObjectOp;

namespace {

void targetNames(const ast::Expr &t, std::vector<std::string> &out) {
  if (auto *n = t.as<ast::Name>()) out.push_back(n->id);
  else if (auto *tu = t.as<ast::Tuple>())
    for (auto &e : tu->elts) targetNames(*e, out);
  else if (auto *l = t.as<ast::List>())
    for (auto &e : l->elts) targetNames(*e, out);
}

std::string locKey(Loc loc) { return std::to_string(loc.line) + ":" + std::to_string(loc.col); }

} // namespace

ExprPtr FunctionTyper::seqExpr(std::shared_ptr<ir::Block> stmts, ExprPtr value, Loc loc) {
  if (isUnknown(value)) return unknown(loc);
  auto e = std::make_unique<ir::Expr>(ir::ExprOp::Seq, value->type, loc);
  e->body = std::move(stmts);
  e->args.push_back(std::move(value));
  return e;
}

int FunctionTyper::holdInTemp(ExprPtr value, Loc loc, ir::Block &stmts) {
  int var = tempVar(value->type, loc);
  stmts.push_back(assignVar(var, std::move(value), loc));
  return var;
}

ExprPtr FunctionTyper::comprehension(const ast::Comprehension &c) {
  requireHost(c.loc, "a comprehension");
  if (c.comp == ast::CompKind::Set || c.comp == ast::CompKind::Dict) return hashedComprehension(c);
  return comprehensionInto(c, [&](int acc, ir::Block &out) -> bool {
    ExprPtr v = expr(*c.elt);
    if (isUnknown(v)) return false;
    Type listType = widenedAccumulator(acc, Type::list(listItemType(*this, v->type, c.elt->loc)), c.elt->loc);
    if (vars_[acc].type != listType) { // the element's type is known (or widened) now
      vars_[acc].type = listType;
      changed_ = true;
    }
    std::vector<ExprPtr> args;
    args.push_back(load(acc, c.loc));
    args.push_back(convert(std::move(v), listType.elems[0], "list comprehension"));
    auto st = std::make_unique<ir::Stmt>(ir::StmtOp::Eval, c.loc);
    st->exprs.push_back(objectOp(*this, ObjectOp::ListAppend, Type::none(), std::move(args), c.loc));
    out.push_back(std::move(st));
    return true;
  });
}

// The accumulator's type with an element of type `t` added: the element's own type at
// first, then the unification with what other elements gave (the versions of a
// literal_unroll loop give one element each: int64 and float64 items make a float64 list).
Type FunctionTyper::widenedAccumulator(int acc, const Type &t, Loc loc) {
  const Type &cur = vars_[acc].type;
  if (cur.containsUnknown() || cur == t || cur.kind != t.kind || cur.elems.size() != t.elems.size()) return t;
  Type out = t;
  for (size_t i = 0; i < t.elems.size(); ++i) { // the items (keys, values) one by one
    auto u = types::unify(cur.elems[i], t.elems[i]);
    if (!u)
      error(loc, "the items of this comprehension have different types: " + cur.elems[i].str() + " and " +
                     t.elems[i].str());
    out.elems[i] = *u;
  }
  return out;
}

ExprPtr FunctionTyper::comprehensionInto(const ast::Comprehension &c,
                                         const std::function<bool(int, ir::Block &)> &emit) {
  // The targets live in a scope of their own: hidden variables bound to their names
  // while the comprehension is typed.
  std::vector<std::string> names;
  for (auto &g : c.generators) targetNames(*g.target, names);
  std::vector<std::pair<std::string, std::optional<int>>> saved;
  for (auto &n : names) {
    auto it = varIndex_.find(n);
    saved.emplace_back(n, it == varIndex_.end() ? std::nullopt : std::optional<int>(it->second));
    std::string hidden = "$comp" + locKey(c.loc) + "." + n;
    auto h = varIndex_.find(hidden);
    int idx;
    if (h == varIndex_.end()) {
      idx = int(vars_.size());
      varIndex_[hidden] = idx;
      vars_.push_back({hidden, Type::unknown()});
    } else {
      idx = h->second;
    }
    varIndex_[n] = idx;
  }
  auto stmts = std::make_shared<ir::Block>();
  int acc = tempVar(Type::unknown(), c.loc);
  ir::Block loops;
  bool sawElement = false;
  std::function<void(size_t, ir::Block &)> generate = [&](size_t level, ir::Block &out) {
    if (level == c.generators.size()) {
      sawElement |= emit(acc, out);
      return;
    }
    const ast::CompFor &g = c.generators[level];
    forLoop(*g.target, *g.iter, g.loc, [&](ir::Block &body) {
      // if-clauses nest: each guards the rest.
      ir::Block *cur = &body;
      for (auto &cond : g.ifs) {
        auto test = condition(*cond);
        auto st = std::make_unique<ir::Stmt>(ir::StmtOp::If, cond->loc);
        st->exprs.push_back(std::move(test));
        cur->push_back(std::move(st));
        cur = &cur->back()->body;
      }
      generate(level + 1, *cur);
    }, nullptr, out);
  };
  generate(0, loops);
  for (auto &[n, old] : saved) {
    if (old) varIndex_[n] = *old;
    else varIndex_.erase(n);
  }
  if (!sawElement || vars_[acc].type.containsUnknown()) return unknown(c.loc);
  const Type &accType = vars_[acc].type;
  ObjectOp make = accType.isDict() ? ObjectOp::DictNew : accType.isSet() ? ObjectOp::SetNew : ObjectOp::ListNew;
  stmts->push_back(assignVar(acc, objectOp(*this, make, accType, {}, c.loc), c.loc));
  if (make == ObjectOp::ListNew && c.generators.size() == 1 && c.generators[0].ifs.empty()) reserveForLoop(acc, loops, c.loc);
  for (auto &s : loops) stmts->push_back(std::move(s));
  return seqExpr(std::move(stmts), load(acc, c.loc), c.loc);
}

// A list comprehension of one loop without conditions (and list(iterable)) appends once per trip: when that
// loop (the last statement of `loops`) counts a range, or the items of a sized iterable,
// the list gets room for them first (a hint: list.reserve never fails), instead of
// growing 7 times on the way to 40 items. The loop's bounds that are not constants are
// evaluated into hidden variables just before it (the order Python evaluates them in),
// so that the reservation and the loop read them once.
void FunctionTyper::reserveForLoop(int acc, ir::Block &loops, Loc loc) {
  if (loops.empty() || loops.back()->op != ir::StmtOp::ForRange || loops.back()->exprs.size() != 3) return;
  ir::Stmt &loop = *loops.back();
  for (auto &b : loop.exprs)
    if (isUnknown(b) || !b->type.isScalar(types::DType::Int64)) return;
  if (loop.exprs[2]->op == ir::ExprOp::Const && loop.exprs[2]->ival == 0) return; // raises ValueError
  ir::Block before;
  std::vector<ExprPtr> args;
  args.push_back(load(acc, loc));
  for (auto &b : loop.exprs) {
    if (b->op != ir::ExprOp::Const) {
      int v = tempVar(Type::int64(), loc);
      before.push_back(assignVar(v, std::move(b), loc));
      b = load(v, loc);
    }
    args.push_back(ir::clone(*b));
  }
  before.push_back(ir::makeEval(objectOp(*this, ObjectOp::ListReserve, Type::none(), std::move(args), loc), loc));
  auto last = std::move(loops.back());
  loops.pop_back();
  for (auto &st : before) loops.push_back(std::move(st));
  loops.push_back(std::move(last));
}

ExprPtr FunctionTyper::listFromIterable(ExprPtr iterable, Loc loc) {
  if (isUnknown(iterable)) return unknown(loc);
  if (iterable->type.isList()) {
    std::vector<ExprPtr> a;
    Type t = Type::list(iterable->type.elems[0]);
    a.push_back(std::move(iterable));
    return objectOp(*this, ObjectOp::ListCopy, t, std::move(a), loc);
  }
  return collectList([&](const LoopBody &each, ir::Block &loop) { forEachValue(std::move(iterable), loc, each, loop); },
                     loc);
}

// A list of the elements a loop gives (list(iterable)): `runLoop` emits the loop into its
// block, calling `each` with every element; the list's item type is the elements'.
ExprPtr FunctionTyper::collectList(const std::function<void(const LoopBody &, ir::Block &)> &runLoop, Loc loc) {
  auto stmts = std::make_shared<ir::Block>();
  int acc = tempVar(Type::unknown(), loc);
  ir::Block loop;
  bool typed = false;
  runLoop([&](ExprPtr x, ir::Block &body) {
    if (isUnknown(x)) return;
    typed = true;
    Type lt = Type::list(listItemType(*this, x->type, loc));
    if (vars_[acc].type != lt) {
      vars_[acc].type = lt;
      changed_ = true;
    }
    std::vector<ExprPtr> a;
    a.push_back(load(acc, loc));
    a.push_back(convert(std::move(x), lt.elems[0], "list()"));
    body.push_back(ir::makeEval(objectOp(*this, ObjectOp::ListAppend, Type::none(), std::move(a), loc), loc));
  }, loop);
  if (!typed || vars_[acc].type.containsUnknown()) return unknown(loc);
  stmts->push_back(assignVar(acc, objectOp(*this, ObjectOp::ListNew, vars_[acc].type, {}, loc), loc));
  reserveForLoop(acc, loop, loc); // list(range(n)), list(a): one item per trip
  for (auto &st : loop) stmts->push_back(std::move(st));
  return seqExpr(std::move(stmts), load(acc, loc), loc);
}

ExprPtr FunctionTyper::listFromAst(const ast::Expr &iterable, Loc loc) {
  // Ranges, zip and enumerate are loop forms, not values: run the loop.
  if (auto *call = iterable.as<ast::Call>()) {
    auto form = loopForm(*call);
    if (form == LoopForm::Range || form == LoopForm::ParallelRange || form == LoopForm::Zip || form == LoopForm::Enumerate) {
      return collectList(
          [&](const LoopBody &each, ir::Block &loop) { forLoopElements(iterable, loc, each, nullptr, loop); }, loc);
    }
  }
  if (auto *c = iterable.as<ast::Comprehension>(); c && c->comp == ast::CompKind::Generator) return comprehension(*c);
  return listFromIterable(expr(iterable), loc);
}

ExprPtr checkedIndex(Typing &t, ExprPtr found, const std::string &message, Loc loc) {
  if (t.isUnknown(found)) return found;
  auto stmts = std::make_shared<ir::Block>();
  int v = t.holdInTemp(std::move(found), loc, *stmts);
  auto check = std::make_unique<ir::Stmt>(ir::StmtOp::If, loc);
  check->exprs.push_back(t.compareOne(ast::CmpOpKind::Lt, t.load(v, loc), ir::makeConst(Type::int64(), loc, 0), loc));
  auto r = std::make_unique<ir::Stmt>(ir::StmtOp::Raise, loc);
  r->exc = types::ExcKind::ValueError;
  r->text = message;
  check->body.push_back(std::move(r));
  stmts->push_back(std::move(check));
  return t.seqExpr(std::move(stmts), t.load(v, loc), loc);
}

ExprPtr listToTuple(Typing &t, ExprPtr list, size_t n, Loc loc) {
  if (t.isUnknown(list)) return list;
  auto stmts = std::make_shared<ir::Block>();
  Type item = list->type.elems[0];
  int v = t.holdInTemp(std::move(list), loc, *stmts);
  std::vector<ExprPtr> items;
  for (size_t i = 0; i < n; ++i) {
    std::vector<ExprPtr> a;
    a.push_back(t.load(v, loc));
    a.push_back(ir::makeConst(Type::int64(), loc, int64_t(i)));
    items.push_back(objectOp(t, ObjectOp::ListGet, item, std::move(a), loc));
  }
  auto ty = std::make_unique<ir::Expr>(ir::ExprOp::TupleMake, Type::tuple(std::vector<Type>(n, item)), loc);
  ty->args = std::move(items);
  return t.seqExpr(std::move(stmts), std::move(ty), loc);
}

ExprPtr FunctionTyper::sortByKey(ExprPtr list, const ast::Expr &key, ExprPtr reverse, bool inPlace, Loc loc) {
  // keys = [key(x) for x in list]; order = the stable permutation sorting keys;
  // sorted = [list[i] for i in order] (in place: list[:] = sorted). key runs once per item.
  if (isUnknown(list) || isUnknown(reverse)) return unknown(loc);
  const Type listType = list->type;
  auto stmts = std::make_shared<ir::Block>();
  int src = holdInTemp(std::move(list), loc, *stmts);
  int rev = holdInTemp(std::move(reverse), loc, *stmts);
  ir::Block loop;
  int keys = -1;
  bool unknownKey = false;
  forEachValue(load(src, loc), loc, [&](ExprPtr x, ir::Block &body) {
    std::vector<ExprPtr> args;
    args.push_back(std::move(x));
    auto k = callFunctionArgument(key, std::move(args), loc, "sort's key");
    if (isUnknown(k)) {
      unknownKey = true;
      return;
    }
    k = itemValue(*this, std::move(k));
    keys = tempVar(Type::list(itemType(*this, k->type, loc, "a sort key")), loc);
    std::vector<ExprPtr> a;
    a.push_back(load(keys, loc));
    a.push_back(std::move(k));
    body.push_back(ir::makeEval(objectOp(*this, ObjectOp::ListAppend, Type::none(), std::move(a), loc), loc));
  }, loop);
  if (unknownKey || keys < 0) return unknown(loc);
  requireComparable(*this, vars_[keys].type.elems[0], loc, "sort", true);
  stmts->push_back(assignVar(keys, objectOp(*this, ObjectOp::ListNew, vars_[keys].type, {}, loc), loc));
  for (auto &st : loop) stmts->push_back(std::move(st));
  std::vector<ExprPtr> sortArgs;
  sortArgs.push_back(load(keys, loc));
  sortArgs.push_back(load(rev, loc));
  int order = holdInTemp(objectOp(*this, ObjectOp::ListArgsort, Type::array(types::DType::Int64, 1, types::Layout::C),
                                  std::move(sortArgs), loc),
                         loc, *stmts);
  int out = holdInTemp(objectOp(*this, ObjectOp::ListNew, listType, {}, loc), loc, *stmts);
  forEachValue(load(order, loc), loc, [&](ExprPtr i, ir::Block &body) {
    std::vector<ExprPtr> get;
    get.push_back(load(src, loc));
    get.push_back(std::move(i));
    std::vector<ExprPtr> a;
    a.push_back(load(out, loc));
    a.push_back(objectOp(*this, ObjectOp::ListGet, listType.elems[0], std::move(get), loc));
    body.push_back(ir::makeEval(objectOp(*this, ObjectOp::ListAppend, Type::none(), std::move(a), loc), loc));
  }, *stmts);
  if (!inPlace) return seqExpr(std::move(stmts), load(out, loc), loc);
  for (ObjectOp op : {ObjectOp::ListClear, ObjectOp::ListExtend}) {
    std::vector<ExprPtr> a;
    a.push_back(load(src, loc));
    if (op == ObjectOp::ListExtend) a.push_back(load(out, loc));
    stmts->push_back(ir::makeEval(objectOp(*this, op, Type::none(), std::move(a), loc), loc));
  }
  return seqExpr(std::move(stmts), ir::makeConst(Type::none(), loc, 0), loc);
}

} // namespace mahou::sema
