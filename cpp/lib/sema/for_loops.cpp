// Typing of for loops and of what they iterate: ranges, arrays, tuples, lists (read live,
// as Python does when the body changes them), strings, reversed(xs), zip/enumerate over
// any of these, np.ndindex, generators (stepped, having no length); the iterable is
// evaluated once into hidden variables. Also `a, b = arr` (the first axis's items).
#include "typer.h"
#include "mahou/literal_dict_type.h"

#include "mahou/range_type.h"

namespace mahou::sema {

namespace {

ir::StmtPtr makeStmt(ir::StmtOp op, Loc loc) { return std::make_unique<ir::Stmt>(op, loc); }

} // namespace

namespace {

// What a for loop iterates over, evaluated once into hidden variables before the
// loop: its length and its element at a given counter value (zip and enumerate
// nest). A loop over anything but a plain range counts i = 0 .. len-1.
struct IterSource {
  enum class K { Range, Array, Flat, Tuple, List, Str, Enumerate, Zip, NdIndex, Gen } kind = K::Array;
  int var = -1;                       // Array, Tuple, List, Str: the iterable; Flat: the array of a.flat
  int start = -1, stop = -1, step = -1; // Range: int64 bounds
  int enumStart = -1;                 // Enumerate: int64 start value
  std::vector<IterSource> subs;       // Enumerate (1), Zip (n)
  std::vector<int> dims;              // NdIndex: int64 extents
  int item = -1;                      // Gen: the item it gave last (var: the generator)
};

bool isRange(std::optional<LoopForm> form) { return form == LoopForm::Range || form == LoopForm::ParallelRange; }

bool iterSourceOfValue(FunctionTyper &t, ExprPtr it, IterSource &src, ir::Block &out, Loc loc, bool topLevel);
ExprPtr iterLength(FunctionTyper &t, const IterSource &src, Loc loc);

// reversed(range(...)) or reversed(r) of a range variable: iterated as a range, no list made.
bool reversesRange(FunctionTyper &t, const ast::Call &call) {
  if (call.args.size() != 1 || !call.keywords.empty()) return false;
  if (auto form = t.loopForm(*call.args[0]); isRange(form)) return form == LoopForm::Range;
  auto *name = call.args[0]->as<ast::Name>();
  return name && t.varIndex_.count(name->id) && types::isRange(t.vars_[t.varIndex_.at(name->id)].type);
}

// The bounds of a Range source, reversed: start + (len-1)*step down to start - step by -step.
void reverseRange(FunctionTyper &t, IterSource &src, ir::Block &out, Loc loc) {
  auto i64 = [&](int64_t v) { return ir::makeConst(Type::int64(), loc, v); };
  auto last = t.binary(ast::BinOpKind::Sub, iterLength(t, src, loc), i64(1), loc);
  auto first = t.binary(ast::BinOpKind::Add, t.load(src.start, loc),
                        t.binary(ast::BinOpKind::Mult, std::move(last), t.load(src.step, loc), loc), loc);
  auto stop = t.binary(ast::BinOpKind::Sub, t.load(src.start, loc), t.load(src.step, loc), loc);
  auto step = t.binary(ast::BinOpKind::Sub, i64(0), t.load(src.step, loc), loc);
  int slots[3] = {t.tempVar(Type::int64(), loc), t.tempVar(Type::int64(), loc), t.tempVar(Type::int64(), loc)};
  out.push_back(t.assignVar(slots[0], std::move(first), loc));
  out.push_back(t.assignVar(slots[1], std::move(stop), loc));
  out.push_back(t.assignVar(slots[2], std::move(step), loc));
  src.start = slots[0];
  src.stop = slots[1];
  src.step = slots[2];
}

// Evaluates the iterable into hidden variables; false when a type is still unknown.
bool iterSource(FunctionTyper &t, const ast::Expr &e, IterSource &src, ir::Block &out, bool topLevel = false) {
  const ast::Call *call = nullptr;
  Loc loc = e.loc;
  auto form = t.loopForm(e, &call);
  if (isRange(form)) {
    t.checkKeywords(*call, {}, "range");
    auto args = t.positionalArgs(*call, 1, 3, "range");
    bool ok = true;
    for (auto &a : args) {
      a = t.toInt64Index(std::move(a), "range() argument");
      ok &= !FunctionTyper::isUnknown(a);
    }
    if (args.size() == 1) args.insert(args.begin(), ir::makeConst(Type::int64(), loc, 0));
    if (args.size() == 2) args.push_back(ir::makeConst(Type::int64(), loc, 1));
    src.kind = IterSource::K::Range;
    int *slots[3] = {&src.start, &src.stop, &src.step};
    for (int i = 0; i < 3; ++i) {
      *slots[i] = t.tempVar(Type::int64(), loc);
      out.push_back(t.assignVar(*slots[i], std::move(args[i]), loc));
    }
    // range() arg 3 must not be zero
    auto zero = t.compareOne(ast::CmpOpKind::Eq, t.load(src.step, loc), ir::makeConst(Type::int64(), loc, 0), loc);
    auto chk = std::make_unique<ir::Stmt>(ir::StmtOp::If, loc);
    chk->exprs.push_back(std::move(zero));
    auto r = std::make_unique<ir::Stmt>(ir::StmtOp::Raise, loc);
    r->exc = types::ExcKind::ValueError;
    r->text = "range() arg 3 must not be zero";
    chk->body.push_back(std::move(r));
    out.push_back(std::move(chk));
    return ok;
  }
  if (form == LoopForm::Reversed && reversesRange(t, *call)) {
    bool ok = iterSource(t, *call->args[0], src, out);
    if (ok) reverseRange(t, src, out, loc);
    return ok;
  }
  if (form == LoopForm::Enumerate) {
    t.checkKeywords(*call, {"start"}, "enumerate");
    if (call->args.size() < 1 || call->args.size() > 2 || (call->args.size() == 2 && !call->keywords.empty()))
      t.error(loc, "enumerate() takes an iterable and an optional start");
    src.kind = IterSource::K::Enumerate;
    src.subs.emplace_back();
    bool ok = iterSource(t, *call->args[0], src.subs[0], out);
    const ast::Expr *startE = call->args.size() == 2 ? call->args[1].get() : t.keyword(*call, "start");
    ExprPtr st = startE ? t.toInt64Index(t.expr(*startE), "enumerate() start") : ir::makeConst(Type::int64(), loc, 0);
    ok &= !FunctionTyper::isUnknown(st);
    src.enumStart = t.tempVar(Type::int64(), loc);
    out.push_back(t.assignVar(src.enumStart, std::move(st), loc));
    return ok;
  }
  if (form == LoopForm::Zip) {
    t.checkKeywords(*call, {}, "zip");
    if (call->args.empty()) t.notSupported(loc, "zip() without arguments is not supported");
    src.kind = IterSource::K::Zip;
    bool ok = true;
    src.subs.resize(call->args.size());
    for (size_t i = 0; i < call->args.size(); ++i) {
      if (call->args[i]->kind == ast::ExprKind::Starred) t.notSupported(call->args[i]->loc, "zip(*args) is not supported");
      ok &= iterSource(t, *call->args[i], src.subs[i], out);
    }
    return ok;
  }
  if (form == LoopForm::NdIndex) { // every index tuple of the shape, in C order
    const ast::Call *nd = call;
    t.checkKeywords(*nd, {}, "np.ndindex");
    std::vector<ExprPtr> dims;
    if (nd->args.size() == 1 && nd->args[0]->kind != ast::ExprKind::Starred) {
      auto v = t.expr(*nd->args[0]);
      if (FunctionTyper::isUnknown(v)) return false;
      if (v->type.isTuple()) dims = t.spreadTuple(std::move(v), loc, nullptr);
      else dims.push_back(std::move(v));
    } else {
      CallArgs a = t.callArgs(*nd);
      if (a.unknown) return false;
      if (!a.lets.empty()) t.notSupported(loc, "np.ndindex(*dims) needs a variable: assign the shape first");
      dims = std::move(a.positional);
    }
    src.kind = IterSource::K::NdIndex;
    for (auto &d : dims) {
      auto v = t.toInt64Index(std::move(d), "np.ndindex() dimension");
      src.dims.push_back(t.tempVar(Type::int64(), loc));
      out.push_back(t.assignVar(src.dims.back(), std::move(v), loc));
    }
    return true;
  }
  if (auto flat = t.flatBase(e)) { // a.flat: every element in C order
    if (FunctionTyper::isUnknown(flat)) return false;
    src.kind = IterSource::K::Flat;
    src.var = t.tempVar(flat->type, loc);
    out.push_back(t.assignVar(src.var, std::move(flat), loc));
    return true;
  }
  return iterSourceOfValue(t, t.expr(e), src, out, loc, topLevel);
}

// The source of a loop over a value already typed (arrays, tuples, lists, strings).
bool iterSourceOfValue(FunctionTyper &t, ExprPtr it, IterSource &src, ir::Block &out, Loc loc, bool topLevel) {
  if (FunctionTyper::isUnknown(it)) return false;
  if (it->type.kind == Kind::Str) it = toUnicode(t, std::move(it));
  if (types::isLiteralDict(it->type)) { // its keys, values or (key, value) pairs
    const Type dt = it->type;
    it = literalDictIterable(t, std::move(it), loc);
    if (types::literalDictView(dt) != types::LiteralDictView::Dict &&
        types::literalDictView(dt) != types::LiteralDictView::Keys && !it->type.isHomogeneousTuple())
      t.notSupported(loc, "a loop over " + dt.str() + " (values of different types) is not supported; use " +
                              "literal_unroll() on it, as Numba does: for v in literal_unroll(d." +
                              types::literalDictViewName(dt).substr(5) + "())");
  }
  if (it->type.isOptional()) it = t.unwrapOptional(std::move(it));
  if ((it->type.isSet() || it->type.isDict()) && !t.gpu()) {
    // A set or dict that is not a variable (set(a), s | t, f()): stepped as iter() steps it,
    // by the library's generator over its keys (variables are walked entry by entry).
    std::vector<ExprPtr> a;
    a.push_back(std::move(it));
    const Type table = a[0]->type;
    it = t.libraryCallTyped("internal.iterate", "iteration", std::move(a), loc);
    if (!it) t.notSupported(loc, "iterating over " + table.str() + " is not supported here");
    if (FunctionTyper::isUnknown(it)) return false;
  }
  if (types::isRange(it->type)) { // a range object: its bounds, as range(...) in the loop
    src.kind = IterSource::K::Range;
    int r = t.tempVar(it->type, loc);
    out.push_back(t.assignVar(r, std::move(it), loc));
    int *slots[3] = {&src.start, &src.stop, &src.step};
    for (int i = 0; i < 3; ++i) {
      auto g = std::make_unique<ir::Expr>(ir::ExprOp::TupleGet, Type::int64(), loc);
      g->ival = i;
      g->args.push_back(t.load(r, loc));
      *slots[i] = t.tempVar(Type::int64(), loc);
      out.push_back(t.assignVar(*slots[i], std::move(g), loc));
    }
    return true;
  }
  if (it->type.isList()) {
    src.kind = IterSource::K::List;
  } else if (it->type.isUnicode()) {
    src.kind = IterSource::K::Str;
  } else if (it->type.isArray()) {
    if (it->type.ndim == 0) t.error(loc, "iteration over a 0-d array");
    src.kind = IterSource::K::Array;
  } else if (it->type.isGenerator()) {
    if (it->type.elems[0].containsUnknown()) return false; // a recursive generator's type, not known yet
    src.kind = IterSource::K::Gen;
    src.item = t.tempVar(it->type.elems[0], loc);
  } else if (it->type.isTuple()) {
    refuseSlice(t, it->type, loc, "is not iterable");
    if (it->type.elems.empty() && !topLevel)
      t.notSupported(loc, "zip() or enumerate() over an empty tuple is not supported");
    bool literals = !it->type.elems.empty();
    for (auto &e : it->type.elems) literals = literals && e.kind == Kind::Str;
    if (literals && !it->type.isHomogeneousTuple()) it = itemValue(t, std::move(it)); // ('GGT', 'GGTA'): strings
    if (!it->type.isHomogeneousTuple())
      t.notSupported(loc, "iterating over the heterogeneous tuple " + it->type.str() +
                              " is not supported (its elements have different types)");
    src.kind = IterSource::K::Tuple;
  } else {
    t.notSupported(loc, "iterating over " + it->type.str() + " is not supported");
  }
  src.var = t.tempVar(it->type, loc);
  out.push_back(t.assignVar(src.var, std::move(it), loc));
  return true;
}

ExprPtr intrinsic2(FunctionTyper &t, ir::Intrinsic id, ExprPtr a, ExprPtr b, Loc loc) {
  std::vector<ExprPtr> args;
  args.push_back(std::move(a));
  args.push_back(std::move(b));
  return t.intrinsic(id, Type::int64(), std::move(args), loc);
}

ExprPtr iterLength(FunctionTyper &t, const IterSource &src, Loc loc) {
  switch (src.kind) {
  case IterSource::K::Range: {
    // max(0, -((start - stop) // step)): ceil((stop - start) / step) for either sign of step
    auto diff = t.binary(ast::BinOpKind::Sub, t.load(src.start, loc), t.load(src.stop, loc), loc);
    auto q = t.binary(ast::BinOpKind::FloorDiv, std::move(diff), t.load(src.step, loc), loc);
    auto neg = t.binary(ast::BinOpKind::Sub, ir::makeConst(Type::int64(), loc, 0), std::move(q), loc);
    return intrinsic2(t, ir::Intrinsic::Max, ir::makeConst(Type::int64(), loc, 0), std::move(neg), loc);
  }
  case IterSource::K::Array: {
    auto len = std::make_unique<ir::Expr>(ir::ExprOp::ArrayShape, Type::int64(), loc);
    len->args.push_back(t.load(src.var, loc));
    return len;
  }
  case IterSource::K::Flat: {
    auto size = std::make_unique<ir::Expr>(ir::ExprOp::ArraySize, Type::int64(), loc);
    size->args.push_back(t.load(src.var, loc));
    return size;
  }
  case IterSource::K::Tuple: return ir::makeConst(Type::int64(), loc, int64_t(t.vars_[src.var].type.elems.size()));
  case IterSource::K::List:
  case IterSource::K::Str: {
    std::vector<ExprPtr> a;
    a.push_back(t.load(src.var, loc));
    bool list = src.kind == IterSource::K::List;
    return objectOp(t, list ? ir::ObjectOp::ListLen : ir::ObjectOp::StrLen, Type::int64(), std::move(a), loc);
  }
  case IterSource::K::Enumerate: return iterLength(t, src.subs[0], loc);
  case IterSource::K::Gen: internalError("the length of a generator");
  case IterSource::K::NdIndex: {
    ExprPtr n = ir::makeConst(Type::int64(), loc, 1);
    for (int d : src.dims) // a negative extent counts as empty
      n = t.binary(ast::BinOpKind::Mult, std::move(n),
                   intrinsic2(t, ir::Intrinsic::Max, ir::makeConst(Type::int64(), loc, 0), t.load(d, loc), loc), loc);
    return n;
  }
  case IterSource::K::Zip: {
    ExprPtr n = iterLength(t, src.subs[0], loc);
    for (size_t i = 1; i < src.subs.size(); ++i)
      n = intrinsic2(t, ir::Intrinsic::Min, std::move(n), iterLength(t, src.subs[i], loc), loc);
    return n;
  }
  }
  return nullptr;
}

ExprPtr arrayElement(FunctionTyper &t, int arrayVar, ExprPtr index, Loc loc) {
  // a[i] of an N-D array is the view a[i, :, ...].
  const Type at = t.vars_[arrayVar].type;
  if (at.isRecordArray() && at.ndim == 1) return recordArrayElement(t, t.load(arrayVar, loc), std::move(index), loc);
  if (at.ndim == 1) {
    auto element = std::make_unique<ir::Expr>(ir::ExprOp::ArrayItem, Type::scalar(at.dtype), loc);
    element->args.push_back(t.load(arrayVar, loc));
    element->args.push_back(std::move(index));
    return bufferItem(at, std::move(element)); // a bytes' item is a Python int
  }
  const types::Layout layout = at.layout == types::Layout::C ? types::Layout::C : types::Layout::A;
  auto v = std::make_unique<ir::Expr>(ir::ExprOp::ArrayView,
                                      at.isRecordArray() ? Type::recordArray(at.elems[0], at.ndim - 1, layout, at.readonly)
                                                         : Type::array(at.dtype, at.ndim - 1, layout, at.readonly),
                                      loc);
  v->type.buffer = at.buffer; // a row of a memoryview is one
  v->args.push_back(t.load(arrayVar, loc));
  ir::ViewSlot first;
  first.index = std::move(index);
  v->slots.push_back(std::move(first));
  for (int k = 1; k < at.ndim; ++k) {
    ir::ViewSlot full;
    full.isSlice = true;
    v->slots.push_back(std::move(full));
  }
  return v;
}

ExprPtr iterElement(FunctionTyper &t, const IterSource &src, int counter, Loc loc) {
  switch (src.kind) {
  case IterSource::K::Gen: return t.load(src.item, loc);
  case IterSource::K::Range: {
    auto off = t.binary(ast::BinOpKind::Mult, t.load(counter, loc), t.load(src.step, loc), loc);
    return t.binary(ast::BinOpKind::Add, t.load(src.start, loc), std::move(off), loc);
  }
  case IterSource::K::Array: return arrayElement(t, src.var, t.load(counter, loc), loc);
  case IterSource::K::Flat: {
    auto item = std::make_unique<ir::Expr>(ir::ExprOp::ArrayFlatItem, Type::scalar(t.vars_[src.var].type.dtype), loc);
    item->ival = 1; // the counter stays below a.size
    item->args.push_back(t.load(src.var, loc));
    item->args.push_back(t.load(counter, loc));
    return item;
  }
  case IterSource::K::Tuple: {
    const Type &tt = t.vars_[src.var].type;
    auto g = std::make_unique<ir::Expr>(ir::ExprOp::TupleIndex, tt.elems[0], loc);
    g->args.push_back(t.load(src.var, loc));
    g->args.push_back(t.load(counter, loc));
    return g;
  }
  case IterSource::K::List:
  case IterSource::K::Str: {
    std::vector<ExprPtr> a;
    a.push_back(t.load(src.var, loc));
    a.push_back(t.load(counter, loc));
    bool list = src.kind == IterSource::K::List;
    Type et = list ? t.vars_[src.var].type.elems[0] : Type::unicode();
    return objectOp(t, list ? ir::ObjectOp::ListGet : ir::ObjectOp::StrGet, et, std::move(a), loc);
  }
  case IterSource::K::NdIndex: {
    // index k = (counter // (extent_{k+1} * ... * extent_last)) % extent_k
    std::vector<ExprPtr> elems(src.dims.size());
    ExprPtr stride = ir::makeConst(Type::int64(), loc, 1);
    for (size_t k = src.dims.size(); k-- > 0;) {
      auto q = t.binary(ast::BinOpKind::FloorDiv, t.load(counter, loc), ir::clone(*stride), loc);
      elems[k] = t.binary(ast::BinOpKind::Mod, std::move(q), t.load(src.dims[k], loc), loc);
      stride = t.binary(ast::BinOpKind::Mult, std::move(stride), t.load(src.dims[k], loc), loc);
    }
    std::vector<Type> ts(elems.size(), Type::int64());
    auto m = std::make_unique<ir::Expr>(ir::ExprOp::TupleMake, Type::tuple(ts), loc);
    m->args = std::move(elems);
    return m;
  }
  case IterSource::K::Enumerate:
  case IterSource::K::Zip: {
    std::vector<ExprPtr> elems;
    if (src.kind == IterSource::K::Enumerate)
      elems.push_back(t.binary(ast::BinOpKind::Add, t.load(counter, loc), t.load(src.enumStart, loc), loc));
    for (auto &sub : src.subs) elems.push_back(iterElement(t, sub, counter, loc));
    std::vector<Type> ts;
    for (auto &e : elems) ts.push_back(e->type);
    auto m = std::make_unique<ir::Expr>(ir::ExprOp::TupleMake, Type::tuple(ts), loc);
    m->args = std::move(elems);
    return m;
  }
  }
  return nullptr;
}

bool hasGenerator(const IterSource &src) {
  if (src.kind == IterSource::K::Gen) return true;
  for (auto &sub : src.subs)
    if (hasGenerator(sub)) return true;
  return false;
}

// Advances every iterator of `src` in order (zip stops at the first one exhausted, as
// Python's does): `more` is set false at the first that has no item; a generator's
// item is taken into its variable.
void stepSources(FunctionTyper &t, const IterSource &src, int counter, int more, Loc loc, ir::Block &out) {
  if (src.kind == IterSource::K::Enumerate || src.kind == IterSource::K::Zip) {
    for (auto &sub : src.subs) stepSources(t, sub, counter, more, loc, out);
    return;
  }
  auto guard = makeStmt(ir::StmtOp::If, loc);
  guard->exprs.push_back(t.load(more, loc));
  if (src.kind == IterSource::K::Gen) {
    guard->body.push_back(t.assignVar(more, t.genResume(src.var, loc), loc));
    auto take = makeStmt(ir::StmtOp::If, loc);
    take->exprs.push_back(t.load(more, loc));
    take->body.push_back(t.assignVar(src.item, t.genItem(src.var, loc), loc));
    guard->body.push_back(std::move(take));
  } else {
    guard->body.push_back(
        t.assignVar(more, t.compareOne(ast::CmpOpKind::Lt, t.load(counter, loc), iterLength(t, src, loc), loc), loc));
  }
  out.push_back(std::move(guard));
}

// The body of a while loop over counted items: item = element; counter += 1; body(item);
// then its else clause, and the loop goes to `out`.
void countedLoopBody(FunctionTyper &t, ir::StmtPtr w, ExprPtr element, int counter, Loc loc,
                     const std::function<void(ExprPtr, ir::Block &)> &body, const ast::Body *orelse,
                     ir::Block &out) {
  int item = t.tempVar(element->type, loc);
  w->body.push_back(t.assignVar(item, std::move(element), loc));
  w->body.push_back(
      t.assignVar(counter, t.binary(ast::BinOpKind::Add, t.load(counter, loc), ir::makeConst(Type::int64(), loc, 1), loc), loc));
  ++t.loopDepth_;
  body(t.load(item, loc), w->body);
  --t.loopDepth_;
  if (orelse) t.block(*orelse, w->orelse);
  out.push_back(std::move(w));
}

// for x in <a generator, or zip/enumerate over one>: a while loop whose condition steps
// each iterator (a generator has no length to count to).
void loopStepping(FunctionTyper &t, const IterSource &src, int counter, Loc loc,
                  const std::function<void(ExprPtr, ir::Block &)> &body, const ast::Body *orelse, ir::Block &out) {
  out.push_back(t.assignVar(counter, ir::makeConst(Type::int64(), loc, 0), loc));
  int more = t.tempVar(Type::boolean(), loc);
  auto step = std::make_shared<ir::Block>();
  step->push_back(t.assignVar(more, ir::makeConst(Type::boolean(), loc, 1), loc));
  stepSources(t, src, counter, more, loc, *step);
  auto w = makeStmt(ir::StmtOp::While, loc);
  w->exprs.push_back(t.seqExpr(std::move(step), t.load(more, loc), loc));
  countedLoopBody(t, std::move(w), iterElement(t, src, counter, loc), counter, loc, body, orelse, out);
}

// A list can change while it is iterated: its length is read again at every step.
bool readsList(const IterSource &src) {
  if (src.kind == IterSource::K::List) return true;
  for (auto &sub : src.subs)
    if (readsList(sub)) return true;
  return false;
}

// for x in <a list, or zip/enumerate over one>: a while loop that reads the length at
// every step, so that a list changed in the body never reads past its end.
void loopOverChangingLength(FunctionTyper &t, const IterSource &src, int counter, Loc loc,
                            const std::function<void(ExprPtr, ir::Block &)> &body, const ast::Body *orelse,
                            ir::Block &out) {
  out.push_back(t.assignVar(counter, ir::makeConst(Type::int64(), loc, 0), loc));
  auto w = makeStmt(ir::StmtOp::While, loc);
  w->exprs.push_back(t.compareOne(ast::CmpOpKind::Lt, t.load(counter, loc), iterLength(t, src, loc), loc));
  countedLoopBody(t, std::move(w), iterElement(t, src, counter, loc), counter, loc, body, orelse, out);
}

// for x in reversed(xs), xs a list variable: Python's reversed iterator reads the list
// (the object, whatever the variable is rebound to) live, from its last index down, and
// stops at an index the list no longer has:
// i = len(xs) - 1; while i >= 0 and i < len(xs): x = xs[i]; i -= 1; body.
bool loopOverReversedList(FunctionTyper &t, const ast::Call &call, int counter, Loc loc,
                          const std::function<void(ExprPtr, ir::Block &)> &body, const ast::Body *orelse,
                          ir::Block &out) {
  if (call.args.size() != 1 || !call.keywords.empty()) return false;
  auto *name = call.args[0]->as<ast::Name>();
  if (!name || !t.varIndex_.count(name->id)) return false;
  int named = t.varIndex_.at(name->id);
  if (!t.vars_[named].type.isList()) return false;
  // The iterator holds the list it was made from: the body may rebind the variable.
  int var = t.holdInTemp(t.load(named, loc), loc, out);
  auto length = [&] {
    std::vector<ExprPtr> a;
    a.push_back(t.load(var, loc));
    return objectOp(t, ir::ObjectOp::ListLen, Type::int64(), std::move(a), loc);
  };
  auto one = [&] { return ir::makeConst(Type::int64(), loc, 1); };
  out.push_back(t.assignVar(counter, t.binary(ast::BinOpKind::Sub, length(), one(), loc), loc));
  auto w = makeStmt(ir::StmtOp::While, loc);
  w->exprs.push_back(ir::makeShortCircuit(
      false, t.compareOne(ast::CmpOpKind::GtE, t.load(counter, loc), ir::makeConst(Type::int64(), loc, 0), loc),
      t.compareOne(ast::CmpOpKind::Lt, t.load(counter, loc), length(), loc), loc));
  std::vector<ExprPtr> a;
  a.push_back(t.load(var, loc));
  a.push_back(t.load(counter, loc));
  ExprPtr element = objectOp(t, ir::ObjectOp::ListGet, t.vars_[var].type.elems[0], std::move(a), loc);
  int item = t.tempVar(element->type, loc);
  w->body.push_back(t.assignVar(item, std::move(element), loc));
  w->body.push_back(t.assignVar(counter, t.binary(ast::BinOpKind::Sub, t.load(counter, loc), one(), loc), loc));
  ++t.loopDepth_;
  body(t.load(item, loc), w->body);
  --t.loopDepth_;
  if (orelse) t.block(*orelse, w->orelse);
  out.push_back(std::move(w));
  return true;
}

} // namespace

std::optional<LoopForm> FunctionTyper::loopForm(const ast::Expr &iterable, const ast::Call **call) {
  auto *c = iterable.as<ast::Call>();
  if (!c) return std::nullopt;
  auto callee = resolveCallee(*c->func);
  if (!callee || (callee->kind != CalleeRef::Kind::Builtin && callee->kind != CalleeRef::Kind::ModuleFn))
    return std::nullopt;
  const Entry *loop = findEntry(callee->receiver, Member::Loop, callee->name);
  if (!loop) return std::nullopt;
  if (call) *call = c;
  return LoopForm(loop->variant);
}

std::optional<std::pair<ExprPtr, FunctionTyper::EntryPart>> FunctionTyper::tableIteration(const ast::Expr &iter) {
  // d.keys() / d.values() / d.items(), or a dict or set variable.
  if (auto *call = iter.as<ast::Call>()) {
    auto *attr = call->func->as<ast::Attribute>();
    if (!attr || !call->args.empty() || !call->keywords.empty()) return std::nullopt;
    const Entry *loop = findEntry(Receiver::Dict, Member::Loop, attr->attr);
    if (!loop) return std::nullopt;
    EntryPart part = LoopForm(loop->variant) == LoopForm::Keys     ? EntryPart::Keys
                     : LoopForm(loop->variant) == LoopForm::Values ? EntryPart::Values
                                                                   : EntryPart::Items;
    auto base = expr(*attr->value);
    if (isUnknown(base)) return std::make_pair(unknown(iter.loc), part);
    if (!base->type.isDict()) return std::nullopt;
    return std::make_pair(std::move(base), part);
  }
  if (auto *n = iter.as<ast::Name>(); n && varIndex_.count(n->id)) {
    const Type &t = vars_[varIndex_[n->id]].type;
    if (t.isDict() || t.isSet()) return std::make_pair(load(varIndex_[n->id], iter.loc), EntryPart::Keys);
  }
  // A dict or set field of a @jitclass instance variable (self.children).
  if (auto *a = iter.as<ast::Attribute>()) {
    auto *n = a->value->as<ast::Name>();
    if (n && varIndex_.count(n->id) && vars_[varIndex_[n->id]].type.isInstance()) {
      auto field = expr(iter);
      if (!isUnknown(field) && (field->type.isDict() || field->type.isSet()))
        return std::make_pair(std::move(field), EntryPart::Keys);
    }
  }
  return std::nullopt;
}

// a, b = arr: the array's first axis must have one item per target (ValueError
// otherwise, as Python's unpacking); items of an N-D array are its rows (views).
void FunctionTyper::unpackArray(const std::vector<ast::ExprPtr> &targets, ExprPtr value, Loc loc, ir::Block &out) {
  if (value->type.ndim == 0) error(loc, "cannot unpack a 0-d array");
  int tmp = tempVar(value->type, loc);
  out.push_back(assignVar(tmp, std::move(value), loc));
  if (vars_[tmp].type.containsUnknown()) return;
  int64_t n = int64_t(targets.size());
  for (int check = 0; check < 2; ++check) {
    auto len = std::make_unique<ir::Expr>(ir::ExprOp::ArrayShape, Type::int64(), loc);
    len->args.push_back(load(tmp, loc));
    auto test = compareOne(check == 0 ? ast::CmpOpKind::Gt : ast::CmpOpKind::Lt, std::move(len),
                           ir::makeConst(Type::int64(), loc, n), loc);
    auto st = makeStmt(ir::StmtOp::If, loc);
    st->exprs.push_back(std::move(test));
    auto r = makeStmt(ir::StmtOp::Raise, loc);
    r->exc = types::ExcKind::ValueError;
    r->text = (check == 0 ? "too many values to unpack (expected " : "not enough values to unpack (expected ") +
              std::to_string(n) + ")";
    st->body.push_back(std::move(r));
    out.push_back(std::move(st));
  }
  for (int64_t i = 0; i < n; ++i)
    assign(*targets[size_t(i)], arrayElement(*this, tmp, ir::makeConst(Type::int64(), loc, i), loc), loc, out);
}

void FunctionTyper::forStmt(const ast::For &s, ir::Block &out) {
  forLoop(*s.target, *s.iter, s.loc, [&](ir::Block &body) { block(s.body, body); }, &s.orelse, out, true);
}

void FunctionTyper::forLoop(const ast::Expr &target, const ast::Expr &iter, Loc loc,
                            const std::function<void(ir::Block &)> &body, const ast::Body *orelse, ir::Block &out,
                            bool parallelAllowed) {
  if (literalUnrollLoop(target, iter, loc, body, orelse, out)) return;
  forLoopElements(iter, loc, [&](ExprPtr element, ir::Block &b) {
    assign(target, std::move(element), loc, b);
    body(b);
  }, orelse, out, parallelAllowed);
}

void FunctionTyper::forLoopElements(const ast::Expr &iter, Loc loc,
                                    const std::function<void(ExprPtr, ir::Block &)> &body, const ast::Body *orelse,
                                    ir::Block &out, bool parallelAllowed) {
  auto st = makeStmt(ir::StmtOp::ForRange, loc);
  int counter = tempVar(Type::int64(), loc);
  st->var = counter;
  ExprPtr element; // what the target gets each iteration (null: the counter itself)
  const ast::Call *call = nullptr;
  auto form = loopForm(iter, &call);
  if (isRange(form)) {
    // A plain range: the counter runs over the range itself. A prange statement under
    // parallel=True is marked for transforms/outline_parallel_loops (not the loops of
    // comprehensions: their appends must stay in order).
    if (parallelAllowed && options_.parallel && !gpu_ && form == LoopForm::ParallelRange)
      st->op = ir::StmtOp::ParallelFor;
    checkKeywords(*call, {}, "range");
    auto args = positionalArgs(*call, 1, 3, "range");
    for (auto &a : args) a = toInt64Index(std::move(a), "range() argument");
    if (args.size() == 1) {
      st->exprs.push_back(ir::makeConst(Type::int64(), loc, 0));
      st->exprs.push_back(std::move(args[0]));
      st->exprs.push_back(ir::makeConst(Type::int64(), loc, 1));
    } else {
      st->exprs.push_back(std::move(args[0]));
      st->exprs.push_back(std::move(args[1]));
      st->exprs.push_back(args.size() == 3 ? std::move(args[2]) : ir::makeConst(Type::int64(), loc, 1));
    }
    element = load(counter, loc);
  } else if (auto table = tableIteration(iter)) {
    if (!isUnknown(table->first)) forEachEntry(std::move(table->first), table->second, loc, body, out, orelse);
    return;
  } else if (form == LoopForm::Reversed && loopOverReversedList(*this, *call, counter, loc, body, orelse, out)) {
    return;
  } else {
    IterSource src;
    bool known = iterSource(*this, iter, src, out, true);
    if (known && src.kind == IterSource::K::Tuple && vars_[src.var].type.elems.empty()) {
      if (orelse) block(*orelse, out); // an empty tuple: the body never runs
      return;
    }
    if (known && hasGenerator(src)) {
      loopStepping(*this, src, counter, loc, body, orelse, out);
      return;
    }
    if (known && readsList(src)) {
      loopOverChangingLength(*this, src, counter, loc, body, orelse, out);
      return;
    }
    st->exprs.push_back(ir::makeConst(Type::int64(), loc, 0));
    st->exprs.push_back(known ? iterLength(*this, src, loc) : unknown(loc));
    st->exprs.push_back(ir::makeConst(Type::int64(), loc, 1));
    element = known ? iterElement(*this, src, counter, loc) : unknown(loc);
  }
  ++loopDepth_;
  body(std::move(element), st->body);
  --loopDepth_;
  if (orelse) block(*orelse, st->orelse);
  out.push_back(std::move(st));
}

void FunctionTyper::forEachValue(ExprPtr iterable, Loc loc, const std::function<void(ExprPtr, ir::Block &)> &body,
                                 ir::Block &out) {
  if (!isUnknown(iterable) && (iterable->type.isDict() || iterable->type.isSet())) {
    forEachEntry(std::move(iterable), EntryPart::Keys, loc, body, out);
    return;
  }
  if (!isUnknown(iterable) && iterable->type.isGenerator()) {
    loopOverGenerator(std::move(iterable), loc, body, nullptr, out);
    return;
  }
  IterSource src;
  if (!iterSourceOfValue(*this, std::move(iterable), src, out, loc, true)) return;
  int counter = tempVar(Type::int64(), loc);
  // counter = 0; while counter < len: x = element(counter); counter += 1; body(x)
  out.push_back(assignVar(counter, ir::makeConst(Type::int64(), loc, 0), loc));
  auto w = makeStmt(ir::StmtOp::While, loc);
  w->exprs.push_back(compareOne(ast::CmpOpKind::Lt, load(counter, loc), iterLength(*this, src, loc), loc));
  ExprPtr element = iterElement(*this, src, counter, loc);
  int item = tempVar(element->type, loc);
  ir::Block &b = w->body;
  b.push_back(assignVar(item, std::move(element), loc));
  b.push_back(assignVar(counter, binary(ast::BinOpKind::Add, load(counter, loc), ir::makeConst(Type::int64(), loc, 1), loc), loc));
  ++loopDepth_;
  body(load(item, loc), b);
  --loopDepth_;
  out.push_back(std::move(w));
}

} // namespace mahou::sema
