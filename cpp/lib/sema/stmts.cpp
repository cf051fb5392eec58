// Typing of statements: assignment (chained, unpacking, item stores), augmented
// assignment, if/while, return, raise, assert, print (for loops: for_loops.cpp).
#include "mahou/bound_method_type.h"
#include "typer.h"
#include "mahou/literal_dict_type.h"
#include "sema/arrays.h"
#include "array_index.h"

#include <cstdio>

namespace mahou::sema {

namespace {

ir::StmtPtr makeStmt(ir::StmtOp op, Loc loc) { return std::make_unique<ir::Stmt>(op, loc); }

std::string constMessage(const ir::Expr &e) {
  if (e.type.kind == Kind::Str) return e.symbol;
  if (e.op == ir::ExprOp::Const && e.type.isInt()) return std::to_string(e.ival);
  if (e.op == ir::ExprOp::Const && e.type.isFloat()) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", e.fval);
    return buf;
  }
  return {};
}

} // namespace

void FunctionTyper::block(const ast::Body &body, ir::Block &out) {
  for (auto &s : body) {
    stmt(*s, out);
    if (deadRest_) { // a branch known at compile time returned or raised: the rest is never run
      deadRest_ = false;
      blockExits_ = true; // and so does this block
      return;
    }
  }
  blockExits_ = false;
}

void FunctionTyper::stmt(const ast::Stmt &s, ir::Block &out) {
  switch (s.kind) {
  case ast::StmtKind::Assign: {
    auto *a = s.as<ast::Assign>();
    if (a->value->kind == ast::ExprKind::Lambda && a->targets.size() == 1)
      if (auto *n = a->targets[0]->as<ast::Name>(); n && innerFunction(n->id)) return; // f = lambda ...
    refuseGeneratorExpression(*a->value);
    auto value = expr(*a->value);
    if (a->targets.size() == 1) {
      assign(*a->targets[0], std::move(value), s.loc, out);
      return;
    }
    int tmp = tempVar(value->type, s.loc);
    out.push_back(assignVar(tmp, std::move(value), s.loc));
    for (auto &t : a->targets) assign(*t, load(tmp, s.loc), s.loc, out);
    return;
  }
  case ast::StmtKind::AnnAssign: {
    auto *a = s.as<ast::AnnAssign>();
    if (a->value) assign(*a->target, expr(*a->value), s.loc, out);
    return;
  }
  case ast::StmtKind::AugAssign: augAssign(*s.as<ast::AugAssign>(), out); return;
  case ast::StmtKind::If: {
    auto *i = s.as<ast::If>();
    auto cond = condition(*i->test);
    auto st = makeStmt(ir::StmtOp::If, s.loc);
    ir::Block effects;
    if (auto known = knownCondition(cond, effects)) {
      // A condition known at compile time: only the live branch is typed (Numba's branch
      // pruning), after the condition's effects (isinstance(f(x), int) calls f).
      for (ir::StmtPtr &e : effects) out.push_back(std::move(e));
      bool value = *known;
      const ast::Body &live = value ? i->body : i->orelse;
      block(live, st->body);
      cond = ir::makeConst(Type::boolean(), s.loc, 1);
      // So is what follows (`if b is None: return ...`), also when the live branch ends in
      // another folded branch that exits (`if a.ndim == 1: return x elif ...: return y`).
      if (blockExits_ || alwaysExits(live)) deadRest_ = true;
    } else {
      block(i->body, st->body);
      block(i->orelse, st->orelse);
    }
    st->exprs.push_back(std::move(cond));
    out.push_back(std::move(st));
    return;
  }
  case ast::StmtKind::While: {
    auto *w = s.as<ast::While>();
    auto st = makeStmt(ir::StmtOp::While, s.loc);
    st->exprs.push_back(condition(*w->test));
    ++loopDepth_;
    block(w->body, st->body);
    --loopDepth_;
    block(w->orelse, st->orelse);
    out.push_back(std::move(st));
    return;
  }
  case ast::StmtKind::For: forStmt(*s.as<ast::For>(), out); return;
  case ast::StmtKind::Break:
  case ast::StmtKind::Continue:
    if (loopDepth_ == 0) error(s.loc, "'break' or 'continue' outside a loop");
    loopExit(s.kind == ast::StmtKind::Break, s.loc, out);
    return;
  case ast::StmtKind::Pass: return;
  case ast::StmtKind::Return: returnStmt(*s.as<ast::Return>(), out); return;
  case ast::StmtKind::Yield: yieldStmt(*s.as<ast::Yield>(), out); return;
  case ast::StmtKind::Raise: raiseStmt(*s.as<ast::Raise>(), out); return;
  case ast::StmtKind::Assert: {
    auto *a = s.as<ast::Assert>();
    auto cond = condition(*a->test);
    auto st = makeStmt(ir::StmtOp::If, s.loc);
    auto notCond = std::make_unique<ir::Expr>(ir::ExprOp::Unary, Type::boolean(), s.loc);
    notCond->sub = int(ir::UnaryOp::Not);
    notCond->args.push_back(std::move(cond));
    if (isUnknown(notCond->args[0])) notCond = unknown(s.loc);
    st->exprs.push_back(std::move(notCond));
    auto r = makeStmt(ir::StmtOp::Raise, s.loc);
    r->exc = types::ExcKind::AssertionError;
    if (a->msg && a->msg->kind != ast::ExprKind::StrLit && !gpu_) {
      r->exprs.push_back(exceptionArgument(*a->msg)); // a run-time message: AssertionError(msg)
    } else if (a->msg) {
      auto m = expr(*a->msg);
      if (!isUnknown(m)) {
        r->text = constMessage(*m);
        if (r->text.empty() && m->type.kind != Kind::Str)
          notSupported(a->msg->loc, "assert messages must be constant strings");
      }
    }
    st->body.push_back(std::move(r));
    out.push_back(std::move(st));
    return;
  }
  case ast::StmtKind::ExprStmt: exprStmt(*s.as<ast::ExprStmt>(), out); return;
  case ast::StmtKind::Try: tryStmt(*s.as<ast::Try>(), out); return;
  case ast::StmtKind::Import:
  case ast::StmtKind::ImportFrom:
    notSupported(s.loc, "import inside a compiled function is not supported; import at module level");
  case ast::StmtKind::Global:   // a global is read as any global (checkScopeDeclarations refuses stores)
  case ast::StmtKind::Nonlocal: // a captured variable passed back out (nonlocals.cpp)
    return;
  case ast::StmtKind::FunctionDef: return; // an inner function: typed at its calls (inner_functions.cpp)
  case ast::StmtKind::Delete:
    for (auto &t : s.as<ast::Delete>()->targets) deleteTarget(*t, out);
    return;
  }
}

void FunctionTyper::assign(const ast::Expr &target, ExprPtr value, Loc loc, ir::Block &out) {
  if (auto *n = target.as<ast::Name>()) {
    out.push_back(assignVar(varIndex_.at(n->id), std::move(value), loc));
    return;
  }
  const std::vector<ast::ExprPtr> *elts = nullptr;
  if (auto *t = target.as<ast::Tuple>()) elts = &t->elts;
  if (auto *l = target.as<ast::List>()) elts = &l->elts;
  if (elts) {
    if (!isUnknown(value) && value->type.isArray()) {
      unpackArray(*elts, std::move(value), loc, out);
      return;
    }
    if (!isUnknown(value) && types::isLiteralDict(value->type)) value = literalDictIterable(*this, std::move(value), loc);
    if (!isUnknown(value)) {
      refuseSlice(*this, value->type, loc, "cannot be unpacked");
      if (!value->type.isTuple())
        notSupported(loc, "unpacking a " + value->type.str() + " is not supported (only tuples)");
      if (value->type.elems.size() != elts->size())
        error(loc, "cannot unpack a tuple of " + std::to_string(value->type.elems.size()) + " values into " +
                       std::to_string(elts->size()) + " targets");
    }
    int tmp = tempVar(value->type, loc);
    bool unknownValue = isUnknown(value);
    out.push_back(assignVar(tmp, std::move(value), loc));
    for (size_t i = 0; i < elts->size(); ++i) {
      ExprPtr item;
      if (unknownValue || vars_[tmp].type.containsUnknown()) item = unknown(loc);
      else {
        item = std::make_unique<ir::Expr>(ir::ExprOp::TupleGet, vars_[tmp].type.elems[i], loc);
        item->ival = int64_t(i);
        item->args.push_back(load(tmp, loc));
      }
      assign(*(*elts)[i], std::move(item), loc, out);
    }
    return;
  }
  if (auto *sub = target.as<ast::Subscript>()) {
    // The number of the temporary that holds the value below, taken whether or not the
    // value is held in this pass: the temporaries after it keep their numbers, and so
    // their types, from one pass to the next while the base's type is still unknown.
    const int valueTemp = tempCounter_++;
    if (auto flat = flatBase(*sub->value)) {
      storeFlatItem(*this, std::move(flat), *sub->index, std::move(value), loc, out);
      return;
    }
    auto base = expr(*sub->value);
    if (isUnknown(base) && !base->type.isPartialContainer()) return;
    base = unwrapOptional(std::move(base));
    if ((base->type.isRecord() || base->type.isRecordArray()) && !isUnknown(base)) {
      storeRecordItem(*this, std::move(base), *sub->index, std::move(value), loc, out);
      return;
    }
    if (base->type.isInstance()) {
      instanceSetItem(*this, std::move(base), *sub->index, std::move(value), loc, out);
      return;
    }
    // Python evaluates the value before the container and the index or key: an index
    // that raises or has effects comes after it.
    if ((base->type.isList() || base->type.isDict()) && !isUnknown(base) && !isUnknown(value) &&
        value->op != ir::ExprOp::Const && value->op != ir::ExprOp::LoadVar) {
      const int next = tempCounter_;
      tempCounter_ = valueTemp;
      int held = holdInTemp(std::move(value), loc, out);
      tempCounter_ = next;
      value = load(held, loc);
    }
    if (base->type.isList() && !isUnknown(base)) {
      requireHost(loc, "a list");
      storeListItem(*this, std::move(base), *sub->index, std::move(value), loc, out);
      return;
    }
    if (base->type.isDict()) {
      storeDictItem(*this, std::move(base), *sub->index, *sub->value, std::move(value), loc, out);
      return;
    }
    if (isUnknown(base)) return;
    if (base->type.isString()) error(loc, "'str' object does not support item assignment");
    if (base->type.isPointer()) base = pointerView(*this, std::move(base), loc);
    refuseLiteralList(*this, base->type, loc, "cannot be changed");
    refuseLiteralDictMutation(*this, base->type, loc);
    if (base->type.isTuple()) error(loc, "'tuple' object does not support item assignment");
    if (!base->type.isArray()) error(loc, "'" + base->type.str() + "' does not support item assignment");
    if (base->type.readonly) error(loc, "cannot assign to an item of a read-only array");
    ArrayIndex ix = arrayIndexParts(base->type, *sub->index);
    if (ix.unknown || isUnknown(value)) return;
    if (ix.advanced()) { // a[mask] = v, a[idx, 1:] = v, ...
      fancyStore(std::move(base), std::move(ix), std::move(value), loc, out);
      return;
    }
    for (auto &[var, v] : ix.lets) out.push_back(assignVar(var, std::move(v), loc));
    if (!ix.element(base->type.ndim)) { // a[1:3] = x, a[i] = row: store into the view, broadcasting
      auto view = basicIndex(std::move(base), std::move(ix.parts), loc);
      if (value->type.isTuple()) value = tupleAsArray(*this, std::move(value), loc); // a[:2] = (x, y)
      else if (value->type.isList()) value = arrayFromList(*this, std::move(value), std::nullopt, "storing a list", loc);
      if (isUnknown(value)) return;
      value = bufferSliceValue(*this, view->type, std::move(value), loc);
      value = storedScalar(std::move(value), view->type.dtype, loc);
      out.push_back(storeView(std::move(view), std::move(value), loc));
      return;
    }
    Type elem = Type::scalar(base->type.dtype);
    if (!value->type.isNumber() && !value->type.isDatetimeLike())
      error(loc, "cannot store " + value->type.str() + " into an array of " + types::dtypeName(base->type.dtype));
    value = bufferStoredValue(*this, base->type, std::move(value), loc); // Python's range check
    if (isUnknown(value)) return;
    auto st = makeStmt(ir::StmtOp::StoreItem, loc);
    st->exprs.push_back(std::move(base));
    for (auto &p : ix.parts) st->exprs.push_back(std::move(p.value));
    st->exprs.push_back(convert(storedScalar(std::move(value), elem.dtype, loc), elem, "array store"));
    out.push_back(std::move(st));
    return;
  }
  if (auto *a = target.as<ast::Attribute>()) {
    storeAttribute(*this, expr(*a->value), a->attr, std::move(value), loc, out);
    return;
  }
  if (target.kind == ast::ExprKind::Starred) notSupported(loc, "starred assignment is not supported");
  error(loc, "cannot assign to this expression");
}

namespace {

// Whether evaluating `e` can neither run user code nor store into an instance's field:
// numbers and their operators, reads of variables, array items and shapes, tuple items and
// instance fields. (Raising is allowed: it ends the statement either way.)
bool isPureExpr(const ir::Expr &e) {
  switch (e.op) {
  case ir::ExprOp::Const:
  case ir::ExprOp::LoadVar: return true;
  case ir::ExprOp::Cast:
  case ir::ExprOp::Binary:
  case ir::ExprOp::Unary:
  case ir::ExprOp::Compare:
  case ir::ExprOp::Truth:
  case ir::ExprOp::Select:
  case ir::ExprOp::Intrinsic:
    if (!e.type.isNumber()) return false;
    for (auto &a : e.args)
      if (!a->type.isNumber() || !isPureExpr(*a)) return false;
    return true;
  case ir::ExprOp::TupleGet:
  case ir::ExprOp::ArrayItem:
  case ir::ExprOp::ArrayShape:
  case ir::ExprOp::ArrayStride:
  case ir::ExprOp::ArraySize: break;
  case ir::ExprOp::Object:
    if (ir::ObjectOp(e.sub) != ir::ObjectOp::InstanceGet) return false;
    break;
  case ir::ExprOp::ArrayView: // a basic-index view: its bounds are expressions too
    for (auto &slot : e.slots)
      for (const ExprPtr *part : {&slot.index, &slot.start, &slot.stop, &slot.step})
        if (*part && !isPureExpr(**part)) return false;
    break;
  default: return false;
  }
  for (auto &a : e.args)
    if (!isPureExpr(*a)) return false;
  return true;
}

// An instance's field (of a field ...) of a variable: `self.a`, `self.grid.data`.
bool isFieldRead(const ir::Expr &e) {
  if (e.op != ir::ExprOp::Object || ir::ObjectOp(e.sub) != ir::ObjectOp::InstanceGet) return false;
  const ir::Expr &obj = *e.args[0];
  return obj.op == ir::ExprOp::LoadVar || isFieldRead(obj);
}

// A view of a variable or a field by pure bounds (`q[i]`, `self.a[i, 1:]`, `q[i][j:]`):
// made again it is the same view when nothing between could assign what it reads.
bool isRereadableView(const ir::Expr &e) {
  if (e.op != ir::ExprOp::ArrayView || !isPureExpr(e)) return false;
  const ir::Expr &base = *e.args[0];
  return base.op == ir::ExprOp::LoadVar || isFieldRead(base) || isRereadableView(base);
}

} // namespace

// l += xs and l *= n change the list itself, as Python's list.__iadd__/__imul__ do (a
// caller's list passed in, or another name for it, sees the change): l.extend(xs), and
// for *= the repeated list put back into l (cleared, then extended). False when the items'
// type is not known yet (a list still being typed): then the operator's new list.
bool FunctionTyper::listInPlace(int var, ExprPtr cur, const ast::AugAssign &s, ir::Block &out) {
  const Type list = cur->type;
  if (list.elems.empty() || list.elems[0].containsUnknown()) return false;
  Loc loc = s.loc;
  auto extend = [&](ExprPtr other) {
    std::vector<ExprPtr> a;
    a.push_back(load(var, loc));
    a.push_back(std::move(other));
    out.push_back(ir::makeEval(objectOp(*this, ir::ObjectOp::ListExtend, Type::none(), std::move(a), loc), loc));
  };
  if (s.op == ast::BinOpKind::Add) {
    ExprPtr other = expr(*s.value);
    if (isUnknown(other)) return true;
    if (!other->type.isList()) other = listFromIterable(std::move(other), loc);
    if (isUnknown(other)) return true;
    if (other->type.elems.empty() || other->type.elems[0] != list.elems[0])
      error(loc, "cannot extend a " + list.str() + " with items of type " +
                     (other->type.elems.empty() ? std::string("unknown") : other->type.elems[0].str()));
    extend(ir::makeCast(std::move(other), Type::list(list.elems[0])));
    return true;
  }
  ExprPtr repeated = binary(s.op, std::move(cur), expr(*s.value), loc);
  if (isUnknown(repeated)) return true;
  int held = tempVar(repeated->type, loc);
  out.push_back(assignVar(held, std::move(repeated), loc));
  std::vector<ExprPtr> a;
  a.push_back(load(var, loc));
  out.push_back(ir::makeEval(objectOp(*this, ir::ObjectOp::ListClear, Type::none(), std::move(a), loc), loc));
  extend(load(held, loc));
  return true;
}

// s |= t, s &= t, s -= t and s ^= t change the set itself, as Python's set.__ior__ and
// the others do (a caller's set passed in, or another name for it, sees the change): for |=
// s.update(t); for the others the combined set put back into s (cleared, then updated), so
// that s op= s is right. False when the items' type is not known yet.
bool FunctionTyper::setInPlace(int var, ExprPtr cur, const ast::AugAssign &s, ir::Block &out) {
  const Type set = cur->type;
  if (set.elems.empty() || set.elems[0].containsUnknown()) return false;
  Loc loc = s.loc;
  auto update = [&](ExprPtr other) {
    std::vector<ExprPtr> a;
    a.push_back(load(var, loc));
    a.push_back(std::move(other));
    out.push_back(ir::makeEval(objectOp(*this, ir::ObjectOp::SetUpdate, Type::none(), std::move(a), loc), loc));
  };
  ExprPtr other = expr(*s.value);
  if (isUnknown(other)) return true;
  if (s.op == ast::BinOpKind::BitOr && other->type == set) {
    update(std::move(other));
    return true;
  }
  ExprPtr combined = binary(s.op, std::move(cur), std::move(other), loc);
  if (isUnknown(combined)) return true;
  int held = tempVar(combined->type, loc);
  out.push_back(assignVar(held, std::move(combined), loc));
  std::vector<ExprPtr> a;
  a.push_back(load(var, loc));
  out.push_back(ir::makeEval(objectOp(*this, ir::ObjectOp::SetClear, Type::none(), std::move(a), loc), loc));
  update(load(held, loc));
  return true;
}

void FunctionTyper::augAssign(const ast::AugAssign &s, ir::Block &out) {
  if (auto *n = s.target->as<ast::Name>()) {
    int var = varIndex_.at(n->id);
    auto cur = load(var, s.loc);
    // in place: a += b writes into a's memory; a bytes value is immutable (b += c makes a new one)
    if (!isUnknown(cur) && cur->type.isArray() && !isBytesValue(cur->type)) {
      auto v = binary(s.op, load(var, s.loc), expr(*s.value), s.loc);
      if (isUnknown(v)) return;
      out.push_back(storeView(std::move(cur), std::move(v), s.loc));
      return;
    }
    if (!isUnknown(cur) && cur->type.isList() && (s.op == ast::BinOpKind::Add || s.op == ast::BinOpKind::Mult)) {
      if (listInPlace(var, std::move(cur), s, out)) return;
      cur = load(var, s.loc);
    }
    if (!isUnknown(cur) && cur->type.isSet() &&
        (s.op == ast::BinOpKind::BitOr || s.op == ast::BinOpKind::BitAnd || s.op == ast::BinOpKind::Sub ||
         s.op == ast::BinOpKind::BitXor)) {
      if (setInPlace(var, std::move(cur), s, out)) return;
      cur = load(var, s.loc);
    }
    if (!isUnknown(cur) && cur->type.isInstance()) { // x += y: x.__iadd__(y) when the class has it
      auto rhs = expr(*s.value);
      if (auto r = instanceInPlace(*this, s.op, cur, rhs, s.loc)) {
        out.push_back(assignVar(var, std::move(r), s.loc));
        return;
      }
      out.push_back(assignVar(var, binary(s.op, std::move(cur), std::move(rhs), s.loc), s.loc));
      return;
    }
    auto v = binary(s.op, std::move(cur), expr(*s.value), s.loc);
    out.push_back(assignVar(var, std::move(v), s.loc));
    return;
  }
  if (auto *a = s.target->as<ast::Attribute>()) {
    augAssignAttribute(*a, s, out);
    return;
  }
  auto *sub = s.target->as<ast::Subscript>();
  if (!sub) notSupported(s.loc, "augmented assignment to this target is not supported");
  if (auto flat = flatBase(*sub->value)) {
    augAssignFlat(std::move(flat), s, out);
    return;
  }
  auto base = expr(*sub->value);
  if (isUnknown(base)) return;
  base = unwrapOptional(std::move(base));
  if (base->type.isRecord()) { // r['x'] += v
    int k = recordFieldIndex(*this, base->type, *sub->index, s.loc);
    if (k >= 0) augAssignRecordField(*this, std::move(base), k, s, out);
    return;
  }
  if (base->type.isCharSeqArray()) { // a[i] += 'x'
    augAssignCharSeqItem(*this, std::move(base), s, *sub->index, out);
    return;
  }
  refuseRecordOperand(*this, base, s.loc, "augmented assignment to an item");
  if (base->type.isList() || base->type.isDict()) {
    augAssignContainerItem(std::move(base), s, *sub, out);
    return;
  }
  if (base->type.isPointer()) base = pointerView(*this, std::move(base), s.loc);
  refuseLiteralDictMutation(*this, base->type, s.loc);
  if (!base->type.isArray()) error(s.loc, "'" + base->type.str() + "' does not support item assignment");
  ArrayIndex ix = arrayIndexParts(base->type, *sub->index);
  if (ix.unknown) return;
  if (ix.advanced()) { // a[idx] += v, a[mask] *= w
    fancyAugAssign(std::move(base), std::move(ix), s, out);
    return;
  }
  for (auto &[var, v] : ix.lets) out.push_back(assignVar(var, std::move(v), s.loc));
  std::optional<std::vector<ExprPtr>> idx;
  if (ix.element(base->type.ndim)) {
    idx.emplace();
    for (auto &p : ix.parts) idx->push_back(std::move(p.value));
  }
  if (!idx) { // a[1:3] += x: the view is evaluated once
    auto view = basicIndex(std::move(base), std::move(ix.parts), s.loc);
    int tmp = tempVar(view->type, s.loc);
    out.push_back(assignVar(tmp, std::move(view), s.loc));
    auto v = binary(s.op, load(tmp, s.loc), expr(*s.value), s.loc);
    if (isUnknown(v) || vars_[tmp].type.containsUnknown()) return;
    out.push_back(storeView(load(tmp, s.loc), std::move(v), s.loc));
    return;
  }
  for (auto &i : *idx)
    if (isUnknown(i)) return;
  auto rhs = expr(*s.value);
  // self.a[i] += v, q[i][j] += v: the field or the row view is read (made) again for the
  // store instead of held in a temporary (whose reference would be counted every
  // iteration and held until the next, calls that keep the loop from being optimised)
  // when nothing in the statement can assign what it reads meanwhile.
  bool reread = (isFieldRead(*base) || isRereadableView(*base)) && isPureExpr(*rhs);
  for (auto &i : *idx) reread = reread && isPureExpr(*i);
  // Evaluate the array and each index once: a variable or a constant is simply read
  // twice (a temporary holding an array would be reference-counted every iteration).
  auto once = [&](ExprPtr e) -> ExprPtr {
    if (e->op == ir::ExprOp::LoadVar || e->op == ir::ExprOp::Const) return e;
    int v = tempVar(e->type, s.loc);
    out.push_back(assignVar(v, std::move(e), s.loc));
    return load(v, s.loc);
  };
  ExprPtr arr = reread ? std::move(base) : once(std::move(base));
  if (arr->type.containsUnknown()) return;
  std::vector<ExprPtr> indices;
  for (auto &i : *idx) indices.push_back(once(std::move(i)));
  const Type at = arr->type;
  auto item = std::make_unique<ir::Expr>(ir::ExprOp::ArrayItem, Type::scalar(at.dtype), s.loc);
  item->args.push_back(ir::clone(*arr));
  for (auto &i : indices) item->args.push_back(ir::clone(*i));
  auto value = binary(s.op, bufferItem(at, std::move(item)), std::move(rhs), s.loc);
  if (isUnknown(value)) return;
  value = bufferStoredValue(*this, at, std::move(value), s.loc); // Python's range check
  if (isUnknown(value)) return;
  auto st = makeStmt(ir::StmtOp::StoreItem, s.loc);
  st->exprs.push_back(std::move(arr));
  for (auto &i : indices) st->exprs.push_back(std::move(i));
  st->exprs.push_back(convert(storedScalar(std::move(value), at.dtype, s.loc), Type::scalar(at.dtype), "array store"));
  out.push_back(std::move(st));
}

ExprPtr FunctionTyper::storedScalar(ExprPtr value, types::DType dtype, Loc loc, bool flat) {
  if (!value->type.isFloat() || !types::isInteger(dtype)) return value;
  std::vector<ExprPtr> args;
  args.push_back(std::move(value));
  auto e = intrinsic(ir::Intrinsic::NpIntStore, Type::scalar(dtype), std::move(args), loc);
  e->ival = flat ? 1 : 0;
  return e;
}

// xs[i] += v, d[k] += v: the container and the index or key are evaluated once, the
// item read, combined and stored back (Python's order: container, key, get, value, set).
void FunctionTyper::augAssignContainerItem(ExprPtr base, const ast::AugAssign &s, const ast::Subscript &sub,
                                           ir::Block &out) {
  requireHost(s.loc, base->type.isList() ? "a list" : "a dict");
  const bool isList = base->type.isList();
  if (sub.index->kind == ast::ExprKind::Slice)
    notSupported(s.loc, isList ? "augmented assignment to a list slice is not supported" : "a dict cannot be sliced");
  auto once = [&](ExprPtr e) -> ExprPtr {
    if (e->op == ir::ExprOp::LoadVar || e->op == ir::ExprOp::Const) return e;
    return load(holdInTemp(std::move(e), s.loc, out), s.loc);
  };
  const Type t = base->type;
  ExprPtr container = once(std::move(base));
  auto key = expr(*sub.index);
  if (isUnknown(key)) return;
  if (isList) {
    if (!key->type.isInt() && !key->type.isBool())
      error(sub.index->loc, "list indices must be integers or slices, not " + key->type.str());
    key = ir::makeCast(std::move(key), Type::int64());
  } else {
    key = hashedKey(*this, std::move(key), t.elems[0], "dict key");
  }
  key = once(std::move(key));
  const Type item = isList ? t.elems[0] : t.elems[1];
  std::vector<ExprPtr> getArgs;
  getArgs.push_back(ir::clone(*container));
  getArgs.push_back(ir::clone(*key));
  auto current = objectOp(*this, isList ? ir::ObjectOp::ListGet : ir::ObjectOp::DictGet, item, std::move(getArgs), s.loc);
  auto value = binary(s.op, std::move(current), expr(*s.value), s.loc);
  if (isUnknown(value)) return;
  std::vector<ExprPtr> setArgs;
  setArgs.push_back(std::move(container));
  setArgs.push_back(std::move(key));
  setArgs.push_back(convertItem(*this, std::move(value), item, isList ? "list item assignment" : "dict value"));
  out.push_back(ir::makeEval(objectOp(*this, isList ? ir::ObjectOp::ListSet : ir::ObjectOp::DictSet, Type::none(), std::move(setArgs), s.loc), s.loc));
}

void FunctionTyper::returnStmt(const ast::Return &s, ir::Block &out) {
  ++returnsTyped_;
  auto st = makeStmt(ir::StmtOp::Return, s.loc);
  if (generator_) { // ends the generator (StopIteration); a value would be StopIteration.value
    if (s.value && s.value->kind != ast::ExprKind::NoneLit)
      notSupported(s.value->loc, "returning a value from a generator is not supported (use a bare 'return')");
    out.push_back(std::move(st));
    return;
  }
  if (s.value) refuseGeneratorExpression(*s.value);
  ExprPtr v = s.value ? expr(*s.value) : ir::makeConst(Type::none(), s.loc, 0);
  if (isUnknown(v)) {
    out.push_back(std::move(st)); // discarded: another pass follows
    return;
  }
  // A dtype is returned as the np.dtype it names (boxing makes it from the type alone).
  if (isCompileTimeOnly(v->type) && v->type.kind != Kind::DTypeObj)
    notSupported(s.loc, "returning a " + v->type.str() + " is not supported");
  if (v->type.containsClosure()) notSupported(s.loc, "returning an inner function is not supported (Numba refuses it too)");
  if (types::containsBoundMethod(v->type))
    notSupported(s.loc, "returning a bound method of a jitclass instance is not supported (call it, or return the instance)");
  v = itemValue(*this, std::move(v)); // a string literal is returned as a str
  unifyReturn(v->type, s.loc);
  if (!ret_.isNone()) {
    st->exprs.push_back(convert(std::move(v), ret_, "return value"));
  } else if (v->op != ir::ExprOp::Const) { // `return f(x)` of a None-returning call still calls f
    auto eval = makeStmt(ir::StmtOp::Eval, s.loc);
    eval->exprs.push_back(std::move(v));
    out.push_back(std::move(eval));
  }
  out.push_back(std::move(st));
}

void FunctionTyper::raiseStmt(const ast::Raise &s, ir::Block &out) {
  if (!s.exc) {
    if (handlerDepth_ == 0 || handlerSlots_.empty())
      notSupported(s.loc, "a bare 'raise' is only supported inside an except clause");
    auto restore = makeStmt(ir::StmtOp::RestoreError, s.loc); // the exception this clause handles
    restore->var = handlerSlots_.back();
    out.push_back(std::move(restore));
    out.push_back(makeStmt(ir::StmtOp::Reraise, s.loc));
    return;
  }
  if (s.cause) notSupported(s.loc, "'raise ... from ...' is not supported");
  const ast::Expr *cls = s.exc.get();
  const ast::Call *call = s.exc->as<ast::Call>();
  if (call) cls = call->func.get();
  auto c = resolveCallee(*cls);
  if (!c || c->kind != CalleeRef::Kind::ExcCtor)
    notSupported(s.loc, "only builtin exception classes (ValueError, IndexError, ...) can be raised");
  auto st = makeStmt(ir::StmtOp::Raise, s.loc);
  st->exc = c->exc;
  if (call) {
    if (!call->keywords.empty()) notSupported(s.loc, "keyword arguments of exceptions are not supported");
    bool literalMessage = call->args.size() == 1 && call->args[0]->kind == ast::ExprKind::StrLit;
    if (!literalMessage && !call->args.empty() && !gpu_) { // run-time values: the exception's args
      raiseArguments(*call, *st);
      out.push_back(std::move(st));
      return;
    }
    if (call->args.size() > 1) notSupported(s.loc, "exceptions in CUDA kernels take at most one constant message argument");
    if (call->args.size() == 1) {
      auto m = expr(*call->args[0]);
      if (!isUnknown(m)) {
        st->text = constMessage(*m);
        if (m->type.kind != Kind::Str && !(m->op == ir::ExprOp::Const && m->type.isNumber()))
          notSupported(call->args[0]->loc, "exception messages must be constant strings");
      }
    }
  }
  out.push_back(std::move(st));
}

void FunctionTyper::exprStmt(const ast::ExprStmt &s, ir::Block &out) {
  if (s.value->kind == ast::ExprKind::StrLit) return; // docstring
  if (auto *call = s.value->as<ast::Call>()) {
    auto c = resolveCallee(*call->func);
    // A statement form's own statements, after the effects of its dtype arguments; when
    // it declines, those are typed again below.
    auto statementForm = [&](const Entry &entry, Use &use) {
      size_t mark = deferredEffectsMark(), first = out.size();
      bool typed = entry.statement(use, out);
      ir::Block effects = takeDeferredEffectStmts(mark, call->loc);
      if (!typed) return false;
      out.insert(out.begin() + ptrdiff_t(first), std::make_move_iterator(effects.begin()),
                 std::make_move_iterator(effects.end()));
      return true;
    };
    // A method with a statement form of its own (a.fill(v): a store into the whole array).
    if (c && c->kind == CalleeRef::Kind::Method && hasStatementForm(c->name)) {
      auto self = expr(*c->self);
      if (!isUnknown(self)) {
        if (const Entry *entry = findEntry(receiverOf(self->type), Member::Statement, c->name)) {
          Use use{*this, *entry, c->name, call, std::move(self), c->self, call->loc};
          if (statementForm(*entry, use)) return;
        }
      }
    }
    // A function with a statement form of its own (np.sin(x, out), print(...)).
    if (c && (c->kind == CalleeRef::Kind::Builtin || c->kind == CalleeRef::Kind::ModuleFn))
      if (const Entry *entry = findEntry(c->receiver, Member::Statement, c->name)) {
        Use use{*this, *entry, c->name, call, nullptr, nullptr, call->loc};
        if (statementForm(*entry, use)) return;
      }
  }
  auto v = expr(*s.value);
  if (v->op == ir::ExprOp::Const || v->op == ir::ExprOp::LoadVar) return; // no effect
  auto st = makeStmt(ir::StmtOp::Eval, s.loc);
  st->exprs.push_back(std::move(v));
  out.push_back(std::move(st));
}

} // namespace mahou::sema
