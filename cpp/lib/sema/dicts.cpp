// Typing of dicts and sets: displays, comprehensions, subscripts, `in`, del, their
// methods and operators, and the text print() writes for them.
#include "typer.h"

#include "mahou/literal_dict_type.h"
#include "mahou/literal_list_type.h"

namespace mahou::sema {

using ObjectOp = ir::ObjectOp;

namespace {
// A bytes key of any layout (an argument, a literal, a slice with a step) is stored as a
// bytes value of any strides, so that every bytes key converts to the table's key type.
Type anyLayoutBytes(Type k) {
  if (isBytesValue(k)) k.layout = types::Layout::A;
  else if (k.isTuple() && !k.isNamedTuple())
    for (auto &e : k.elems) e = anyLayoutBytes(e);
  return k;
}
} // namespace

Type keyType(Typing &t, const Type &ty, Loc loc) {
  Type k = anyLayoutBytes(itemType(t, ty, loc, "a dict key or set item"));
  requireHashable(t, k, loc);
  return k;
}

ExprPtr FunctionTyper::dictDisplay(const ast::Dict &d) {
  requireHost(d.loc, "a dict");
  if (d.keys.empty()) return objectOp(*this, ObjectOp::DictNew, Type::dict(Type::unknown(), Type::unknown()), {}, d.loc);
  std::vector<ExprPtr> keys, values;
  Type kt = Type::unknown(), vt = Type::unknown();
  for (size_t i = 0; i < d.keys.size(); ++i) {
    keys.push_back(expr(*d.keys[i]));
    values.push_back(expr(*d.values[i]));
  }
  for (size_t i = 0; i < d.keys.size(); ++i)
    if (isUnknown(keys[i]) || isUnknown(values[i])) return unknown(d.loc);
  // String-constant keys and values that do not all convert safely to the first value's
  // type (int into float does, float into int does not; or a value a typed dict cannot hold:
  // a literal list or dict): Numba's literal string-key dict (literal_dicts.cpp), whose
  // values keep their own types, as Python's.
  bool constantKeys = true, common = true;
  const Type first = itemType(*this, values[0]->type, d.values[0]->loc, "a dict value");
  for (size_t i = 0; i < d.keys.size(); ++i) {
    constantKeys = constantKeys && keys[i]->type.kind == Kind::Str;
    const Type &x = values[i]->type;
    if (types::isLiteralList(x) || types::isLiteralDict(x)) common = false;
    auto uv = types::unify(first, itemType(*this, x, d.values[i]->loc, "a dict value"));
    if (!uv || *uv != first) common = false;
  }
  if (constantKeys && !common) {
    std::vector<std::string> names;
    for (auto &k : keys) names.push_back(k->type.text);
    return literalDictDisplay(*this, names, std::move(values), d.loc);
  }
  vt = Type::unknown();
  for (size_t i = 0; i < d.keys.size(); ++i) {
    auto uk = types::unify(kt, keyType(*this, keys[i]->type, d.keys[i]->loc));
    auto uv = types::unify(vt, itemType(*this, values[i]->type, d.values[i]->loc, "a dict value"));
    if (!uk || uk->isOptional()) error(d.keys[i]->loc, "dict keys of different types: " + kt.str() + " and " + keys[i]->type.str());
    if (!uv || uv->isOptional())
      error(d.values[i]->loc, "dict values of different types: " + vt.str() + " and " + values[i]->type.str() +
                                  " (values of different types need string-constant keys, Numba's literal dict)");
    kt = *uk;
    vt = *uv;
  }
  auto stmts = std::make_shared<ir::Block>();
  int v = holdInTemp(objectOp(*this, ObjectOp::DictNew, Type::dict(kt, vt), {}, d.loc), d.loc, *stmts);
  for (size_t i = 0; i < keys.size(); ++i) {
    std::vector<ExprPtr> a;
    a.push_back(load(v, d.loc));
    a.push_back(convert(std::move(keys[i]), kt, "dict key"));
    a.push_back(convert(std::move(values[i]), vt, "dict value"));
    stmts->push_back(ir::makeEval(objectOp(*this, ObjectOp::DictSet, Type::none(), std::move(a), d.loc), d.loc));
  }
  return seqExpr(std::move(stmts), load(v, d.loc), d.loc);
}

ExprPtr FunctionTyper::setDisplay(const ast::Set &s) {
  requireHost(s.loc, "a set");
  std::vector<ExprPtr> items;
  Type it = Type::unknown();
  for (auto &x : s.elts) {
    if (x->kind == ast::ExprKind::Starred) notSupported(x->loc, "starred items in a set display are not supported");
    items.push_back(expr(*x));
    if (isUnknown(items.back())) return unknown(s.loc);
    auto u = types::unify(it, keyType(*this, items.back()->type, x->loc));
    if (!u || u->isOptional()) error(x->loc, "set items of different types: " + it.str() + " and " + items.back()->type.str());
    it = *u;
  }
  auto stmts = std::make_shared<ir::Block>();
  int v = holdInTemp(objectOp(*this, ObjectOp::SetNew, Type::set(it), {}, s.loc), s.loc, *stmts);
  for (auto &x : items) {
    std::vector<ExprPtr> a;
    a.push_back(load(v, s.loc));
    a.push_back(convert(std::move(x), it, "set item"));
    stmts->push_back(ir::makeEval(objectOp(*this, ObjectOp::SetAdd, Type::none(), std::move(a), s.loc), s.loc));
  }
  return seqExpr(std::move(stmts), load(v, s.loc), s.loc);
}

ExprPtr FunctionTyper::hashedComprehension(const ast::Comprehension &c) {
  // As a list comprehension (comprehensions.cpp) into a dict or a set: the targets in a
  // scope of their own, each element added in the innermost loop.
  bool isDict = c.comp == ast::CompKind::Dict;
  return comprehensionInto(c, [&](int acc, ir::Block &out) -> bool {
    ExprPtr k = expr(*c.elt);
    ExprPtr v = isDict ? expr(*c.value) : nullptr;
    if (isUnknown(k) || (v && isUnknown(v))) return false;
    Type kt = keyType(*this, k->type, c.elt->loc);
    Type t = widenedAccumulator(
        acc, isDict ? Type::dict(kt, itemType(*this, v->type, c.value->loc, "a dict value")) : Type::set(kt), c.loc);
    if (vars_[acc].type != t) {
      vars_[acc].type = t;
      changed_ = true;
    }
    std::vector<ExprPtr> a;
    a.push_back(load(acc, c.loc));
    a.push_back(convert(std::move(k), t.elems[0], "key"));
    if (isDict) a.push_back(convert(std::move(v), t.elems[1], "dict value"));
    out.push_back(ir::makeEval(objectOp(*this, isDict ? ObjectOp::DictSet : ObjectOp::SetAdd, Type::none(), std::move(a), c.loc), c.loc));
    return true;
  });
}

ExprPtr hashedKey(Typing &t, ExprPtr key, const Type &keyType, const std::string &what) {
  return convertItem(t, itemValue(t, std::move(key)), keyType, what);
}

ExprPtr hashedContains(Typing &t, ExprPtr needle, ExprPtr container, Loc loc) {
  if (container->type.isPartialContainer()) return ir::makeConst(Type::boolean(), loc, 0);
  const Type &kt = container->type.elems[0];
  Type nt = anyLayoutBytes(itemType(t, needle->type, loc, "a key"));
  bool comparable = (nt.isNumber() && kt.isNumber()) || nt == anyLayoutBytes(kt);
  if (!comparable) return ir::makeConst(Type::boolean(), loc, 0); // never equal
  std::vector<ExprPtr> a;
  bool isDict = container->type.isDict();
  a.push_back(std::move(container));
  a.push_back(hashedKey(t, std::move(needle), kt, "'in'"));
  return objectOp(t, isDict ? ObjectOp::DictContains : ObjectOp::SetContains, Type::boolean(), std::move(a), loc);
}

ExprPtr dictSubscript(Typing &t, ExprPtr dict, const ast::Expr &key, Loc loc) {
  t.requireHost(loc, "a dict");
  if (key.kind == ast::ExprKind::Slice) t.error(loc, "a dict cannot be sliced");
  auto k = t.expr(key);
  if (t.isUnknown(k) || t.isUnknown(dict)) return t.unknown(loc);
  Type vt = dict->type.elems[1];
  std::vector<ExprPtr> a;
  Type kt = dict->type.elems[0];
  a.push_back(std::move(dict));
  a.push_back(hashedKey(t, std::move(k), kt, "dict key"));
  return objectOp(t, ObjectOp::DictGet, vt, std::move(a), loc);
}

void storeDictItem(Typing &t, ExprPtr dict, const ast::Expr &keyExpr, const ast::Expr &target, ExprPtr value,
                                  Loc loc, ir::Block &out) {
  t.requireHost(loc, "a dict");
  auto k = t.expr(keyExpr);
  if (t.isUnknown(k) || t.isUnknown(value)) return;
  if (dict->type.isPartialContainer()) { // d = {}; d[k] = v: the first store gives the types
    t.refineContainer(target, Type::dict(keyType(t, k->type, keyExpr.loc), itemType(t, value->type, loc, "a dict value")), loc);
    return;
  }
  Type kt = dict->type.elems[0], vt = dict->type.elems[1];
  std::vector<ExprPtr> a;
  a.push_back(std::move(dict));
  a.push_back(hashedKey(t, std::move(k), kt, "dict key"));
  a.push_back(convertItem(t, std::move(value), vt, "dict value"));
  out.push_back(ir::makeEval(objectOp(t, ObjectOp::DictSet, Type::none(), std::move(a), loc), loc));
}

void dictDelete(Typing &t, ExprPtr dict, const ast::Expr &key, Loc loc, ir::Block &out) {
  auto k = t.expr(key);
  if (t.isUnknown(k)) return;
  Type kt = dict->type.elems[0];
  std::vector<ExprPtr> a;
  a.push_back(std::move(dict));
  a.push_back(hashedKey(t, std::move(k), kt, "dict key"));
  out.push_back(ir::makeEval(objectOp(t, ObjectOp::DictDelItem, Type::none(), std::move(a), loc), loc));
}

ExprPtr containerTruth(Typing &t, ExprPtr e) {
  Loc loc = e->loc;
  return t.compareOne(ast::CmpOpKind::NotEq, objectLen(t, std::move(e), loc), ir::makeConst(Type::int64(), loc, 0), loc);
}

ExprPtr dictReprText(Typing &t, ExprPtr d, Loc loc) {
  auto stmts = std::make_shared<ir::Block>();
  int dv = t.holdInTemp(std::move(d), loc, *stmts);
  int pieces = t.holdInTemp(objectOp(t, ObjectOp::ListNew, Type::list(Type::unicode()), {}, loc), loc, *stmts);
  t.forEachEntry(t.load(dv, loc), Typing::EntryPart::Items, loc, [&](ExprPtr item, ir::Block &body) {
    int it = t.holdInTemp(std::move(item), loc, body);
    auto part = [&](int64_t i) {
      auto g = std::make_unique<ir::Expr>(ir::ExprOp::TupleGet, t.varType(it).elems[i], loc);
      g->ival = i;
      g->args.push_back(t.load(it, loc));
      return reprText(t, std::move(g), loc);
    };
    std::vector<ExprPtr> kv;
    kv.push_back(part(0));
    kv.push_back(ir::makeStrConst(": ", loc));
    kv.push_back(part(1));
    std::vector<ExprPtr> a;
    a.push_back(t.load(pieces, loc));
    a.push_back(concatText(t, std::move(kv), loc));
    body.push_back(ir::makeEval(objectOp(t, ObjectOp::ListAppend, Type::none(), std::move(a), loc), loc));
  }, *stmts);
  std::vector<ExprPtr> join;
  join.push_back(toUnicode(t, ir::makeStrConst(", ", loc)));
  join.push_back(t.load(pieces, loc));
  auto joined = objectOp(t, ObjectOp::StrCall, Type::unicode(), std::move(join), loc);
  joined->symbol = "mahou_rt_str_join";
  std::vector<ExprPtr> parts;
  parts.push_back(ir::makeStrConst("{", loc));
  parts.push_back(std::move(joined));
  parts.push_back(ir::makeStrConst("}", loc));
  return t.seqExpr(std::move(stmts), concatText(t, std::move(parts), loc), loc);
}

void FunctionTyper::forEachEntry(ExprPtr table, EntryPart part, Loc loc,
                                 const std::function<void(ExprPtr, ir::Block &)> &body, ir::Block &out,
                                 const ast::Body *orelse) {
  // i over the entry slots (read again each step); dead slots skipped; a change of size
  // during the loop is Python's RuntimeError.
  bool isDict = table->type.isDict();
  Type tt = table->type;
  int t = holdInTemp(std::move(table), loc, out);
  int size0 = holdInTemp(objectLen(*this, load(t, loc), loc), loc, out);
  int counter = tempVar(Type::int64(), loc);
  out.push_back(assignVar(counter, ir::makeConst(Type::int64(), loc, 0), loc));
  int remaining = tempVar(Type::int64(), loc); // live entries still to come (dicts)
  out.push_back(assignVar(remaining, load(size0, loc), loc));
  auto w = std::make_unique<ir::Stmt>(ir::StmtOp::While, loc);
  std::vector<ExprPtr> ua;
  ua.push_back(load(t, loc));
  w->exprs.push_back(compareOne(ast::CmpOpKind::Lt, load(counter, loc),
                                objectOp(*this, isDict ? ObjectOp::DictUsed : ObjectOp::SetUsed, Type::int64(), std::move(ua), loc), loc));
  int i = holdInTemp(load(counter, loc), loc, w->body);
  w->body.push_back(
      assignVar(counter, binary(ast::BinOpKind::Add, load(counter, loc), ir::makeConst(Type::int64(), loc, 1), loc), loc));
  auto sizeCheck = [&] {
    auto changed = std::make_unique<ir::Stmt>(ir::StmtOp::If, loc);
    changed->exprs.push_back(compareOne(ast::CmpOpKind::NotEq, objectLen(*this, load(t, loc), loc), load(size0, loc), loc));
    auto r = std::make_unique<ir::Stmt>(ir::StmtOp::Raise, loc);
    r->exc = types::ExcKind::RuntimeError;
    r->text = isDict ? "dictionary changed size during iteration" : "Set changed size during iteration";
    changed->body.push_back(std::move(r));
    return changed;
  };
  w->body.push_back(sizeCheck());
  auto live = std::make_unique<ir::Stmt>(ir::StmtOp::If, loc);
  std::vector<ExprPtr> la;
  la.push_back(load(t, loc));
  la.push_back(load(i, loc));
  live->exprs.push_back(objectOp(*this, isDict ? ObjectOp::DictEntryLive : ObjectOp::SetEntryLive, Type::boolean(), std::move(la), loc));
  auto entry = [&](bool value) {
    std::vector<ExprPtr> a;
    a.push_back(load(t, loc));
    a.push_back(load(i, loc));
    if (!isDict) return objectOp(*this, ObjectOp::SetEntryKey, tt.elems[0], std::move(a), loc);
    return objectOp(*this, value ? ObjectOp::DictEntryValue : ObjectOp::DictEntryKey, tt.elems[value ? 1 : 0], std::move(a), loc);
  };
  ExprPtr element;
  if (part == EntryPart::Keys) element = entry(false);
  else if (part == EntryPart::Values) element = entry(true);
  else {
    std::vector<ExprPtr> kv;
    kv.push_back(entry(false));
    kv.push_back(entry(true));
    element = std::make_unique<ir::Expr>(ir::ExprOp::TupleMake, Type::tuple({tt.elems[0], tt.elems[1]}), loc);
    element->args = std::move(kv);
  }
  if (isDict) {
    // CPython's second check: more live entries than the dict had when the loop began
    // (a key popped and added again keeps the size) is a RuntimeError too.
    auto extra = std::make_unique<ir::Stmt>(ir::StmtOp::If, loc);
    extra->exprs.push_back(compareOne(ast::CmpOpKind::Eq, load(remaining, loc), ir::makeConst(Type::int64(), loc, 0), loc));
    auto r = std::make_unique<ir::Stmt>(ir::StmtOp::Raise, loc);
    r->exc = types::ExcKind::RuntimeError;
    r->text = "dictionary keys changed during iteration";
    extra->body.push_back(std::move(r));
    live->body.push_back(std::move(extra));
    live->body.push_back(assignVar(
        remaining, binary(ast::BinOpKind::Sub, load(remaining, loc), ir::makeConst(Type::int64(), loc, 1), loc), loc));
  }
  ++loopDepth_;
  body(std::move(element), live->body);
  --loopDepth_;
  w->body.push_back(std::move(live));
  // Past the last slot Python's iterator checks the size once more (after a change in the
  // last entry's body), before any else clause; a break skips it.
  w->orelse.push_back(sizeCheck());
  if (orelse) block(*orelse, w->orelse);
  out.push_back(std::move(w));
}

} // namespace mahou::sema
