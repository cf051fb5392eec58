// Typing of the NumPy library functions built on loops and the runtime: sort,
// argsort, unique, searchsorted, bincount, histogram, concatenate, stack.
#include "mahou/literal_dict_type.h"
#include "sema/typers.h"

#include "mahou/runtime.h"

namespace mahou::sema {

namespace {

ExprPtr op(ir::ExprOp o, Type t, Loc loc, int sub = 0) {
  auto e = std::make_unique<ir::Expr>(o, std::move(t), loc);
  e->sub = sub;
  return e;
}

} // namespace

ExprPtr sortArray(Typing &t, SortKind kind, ExprPtr arr, Loc loc, const std::string &fname) {
  if (Typing::isUnknown(arr)) return t.unknown(loc);
  if (!arr->type.isArray()) t.error(loc, fname + "() needs an array");
  const Type at = arr->type;
  if (types::isComplex(at.dtype)) t.notSupported(loc, fname + "() of complex arrays is not supported");
  if (!runtime::sortsNumpyNum(types::dtypeNumpyNum(at.dtype))) // float16: the runtime orders no halves
    t.notSupported(loc, fname + "() of " + Type::scalar(at.dtype).str() + " arrays is not supported");
  if (at.ndim != 1) t.notSupported(loc, fname + "() is supported for 1-D arrays only");
  t.requireHost(loc, fname + "()");
  const bool inPlace = kind == SortKind::InPlace || kind == SortKind::Partition;
  if (inPlace && at.readonly) t.error(loc, "cannot " + std::string(kind == SortKind::Partition ? "partition" : "sort") + " a read-only array in place");
  Type rt = kind == SortKind::Indices ? Type::array(DType::Int64, 1, types::Layout::C)
            : inPlace                 ? Type::none()
                                      : Type::array(at.dtype, 1, types::Layout::C);
  auto e = op(ir::ExprOp::ArraySort, rt, loc, int(kind));
  e->args.push_back(std::move(arr));
  return e;
}

void checkSortKind(Typing &t, const ast::Call &e, const std::string &fname) {
  // kind= names NumPy's algorithm; every kind sorts the same values, and mahou's sort is
  // stable (as 'stable' and 'mergesort'), so ties among equal keys come out in order.
  t.checkKeywords(e, {"kind"}, fname);
  const ast::Expr *k = t.keyword(e, "kind");
  if (!k || k->kind == ast::ExprKind::NoneLit) return;
  auto v = t.expr(*k);
  if (Typing::isUnknown(v)) return;
  static const char *kinds[] = {"quicksort", "mergesort", "heapsort", "stable"};
  if (v->type.kind == Kind::Str)
    for (const char *kind : kinds)
      if (v->type.text == kind) return;
  t.error(k->loc, fname + "(): kind must be a constant string, one of 'quicksort', 'mergesort', 'heapsort', 'stable'");
}

namespace {

// The forms the library (python/mahou/_library) writes for np.sort/argsort/unique and
// np.bincount: more arguments, an axis, bincount's weights and minlength.
bool libraryForm(const Use &u) {
  return u.call->args.size() > 1 || u.keyword("axis") || u.keyword("weights") || u.keyword("minlength");
}

} // namespace

ExprPtr numpySort(Use &u) {
  Typing &t = u.t;
  const ast::Call &e = *u.call;
  std::string fname = u.qualified();
  Loc loc = u.loc;
  auto kind = SortKind(u.variant());
  if (libraryForm(u)) // an axis: the library's (python/mahou/_library)
    if (auto r = t.libraryCall("numpy." + u.name, fname, e)) return r;
  if (kind == SortKind::Unique) t.checkKeywords(e, {}, fname);
  else checkSortKind(t, e, fname);
  auto args = t.positionalArgs(e, 1, 1, fname);
  if (!t.isUnknown(args[0]) && (!args[0]->type.isArray() || args[0]->type.ndim != 1)) // N-D arrays, sequences
    if (auto r = t.libraryCallTyped("numpy." + u.name, fname, std::move(args), loc)) return r;
  return sortArray(t, kind, std::move(args[0]), loc, fname);
}

ExprPtr numpySearchsorted(Use &u) {
  Typing &t = u.t;
  const ast::Call &e = *u.call;
  std::string fname = u.qualified();
  Loc loc = u.loc;
  t.checkKeywords(e, {"side"}, fname);
  auto args = t.positionalArgs(e, 2, 3, fname);
  const ast::Expr *sideE = e.args.size() > 2 ? e.args[2].get() : t.keyword(e, "side");
  int64_t side = 0;
  if (sideE) {
    auto *s = sideE->as<ast::StrLit>();
    if (!s || (s->value != "left" && s->value != "right")) t.error(sideE->loc, "side must be 'left' or 'right'");
    side = s->value == "right";
  }
  for (auto &a : args)
    if (t.isUnknown(a)) return t.unknown(loc);
  if (!args[0]->type.isArray() || args[0]->type.ndim != 1) t.error(loc, "np.searchsorted() needs a 1-D sorted array");
  // A computed sorted array (np.searchsorted(a[::-1], x)) is evaluated once, before the values.
  std::vector<std::pair<int, ExprPtr>> bound;
  if (args[0]->op != ir::ExprOp::LoadVar) {
    int var = t.tempVar(args[0]->type, loc);
    bound.emplace_back(var, std::move(args[0]));
    args[0] = t.load(var, loc);
  }
  std::shared_ptr<ir::Expr> sorted(std::move(args[0])); // cloned into each element's search
  std::vector<ExprPtr> values;
  values.push_back(std::move(args[1]));
  auto search = t.elementwise(std::move(values), [&t, sorted, side, loc](std::vector<ExprPtr> v) -> ExprPtr {
    if (t.isUnknown(v[0])) return t.unknown(loc);
    if (!v[0]->type.isNumber() || v[0]->type.isComplex() || sorted->type.isComplex() ||
        types::isDatetimeLike(sorted->type.dtype))
      t.notSupported(loc, "np.searchsorted() of " + v[0]->type.str() + " in " + sorted->type.str());
    // Compared in the array's type unless the value is of a higher kind (a float in ints);
    // integers in both compare in their common type (a negative value in an unsigned array).
    DType ad = sorted->type.dtype, vd = v[0]->type.dtype;
    bool higher = (types::isFloat(vd) && !types::isFloat(ad)) || (ad == DType::Bool && vd != DType::Bool) ||
                  (types::isInteger(ad) && types::isInteger(vd));
    DType common = higher ? types::promote(ad, vd) : ad;
    auto s = op(ir::ExprOp::ArraySearch, Type::int64(), loc);
    s->ival = side;
    s->args.push_back(ir::clone(*sorted));
    s->args.push_back(ir::makeCast(std::move(v[0]), Type::scalar(common)));
    return s;
  }, loc);
  return t.wrapBindings(std::move(bound), std::move(search), loc);
}

ExprPtr numpyBincount(Use &u) {
  Typing &t = u.t;
  const ast::Call &e = *u.call;
  std::string fname = u.qualified();
  Loc loc = u.loc;
  if (libraryForm(u)) // weights, minlength: the library's
    if (auto r = t.libraryCall("numpy.bincount", fname, e)) return r;
  t.checkKeywords(e, {}, fname);
  auto args = t.positionalArgs(e, 1, 1, fname);
  if (t.isUnknown(args[0])) return t.unknown(loc);
  if (!args[0]->type.isArray())
    if (auto r = t.libraryCallTyped("numpy.bincount", fname, std::move(args), loc)) return r;
  const Type at = args[0]->type;
  if (!at.isArray() || at.ndim != 1 || !types::isInteger(at.dtype)) t.error(loc, "np.bincount() needs a 1-D array of non-negative integers");
  t.requireHost(loc, fname + "()");
  auto b = op(ir::ExprOp::ArrayBincount, Type::array(DType::Int64, 1, types::Layout::C), loc);
  b->args.push_back(std::move(args[0]));
  return b;
}

ExprPtr numpyHistogram(Use &u) {
  Typing &t = u.t;
  const ast::Call &e = *u.call;
  std::string fname = u.qualified();
  Loc loc = u.loc;
  // np.histogram is the library's in every form (its edges keep a float32 array's dtype).
  if (auto r = t.libraryCall("numpy.histogram", fname, e)) return r;
  t.checkKeywords(e, {"bins"}, fname);
  auto args = t.positionalArgs(e, 1, 2, fname);
  ExprPtr bins;
  if (args.size() == 2) bins = std::move(args[1]);
  else if (auto *k = t.keyword(e, "bins")) bins = t.expr(*k);
  else bins = ir::makeConst(Type::int64(), loc, 10);
  if (t.isUnknown(args[0]) || t.isUnknown(bins)) return t.unknown(loc);
  if (!args[0]->type.isArray() || types::isComplex(args[0]->type.dtype)) t.error(loc, "np.histogram() needs a real array");
  if (bins->type.isArray() || bins->type.isList() || bins->type.isTuple())
    t.notSupported(loc, "np.histogram() with explicit bin edges is not supported here");
  t.requireHost(loc, fname + "()");
  auto h = op(ir::ExprOp::ArrayHistogram,
              Type::tuple({Type::array(DType::Int64, 1, types::Layout::C), Type::array(DType::Float64, 1, types::Layout::C)}), loc);
  h->args.push_back(std::move(args[0]));
  h->args.push_back(t.toInt64Index(std::move(bins), "bins"));
  return h;
}

ExprPtr numpyJoin(Use &u) {
  Typing &t = u.t;
  const ast::Call &e = *u.call;
  std::string fname = u.qualified();
  Loc loc = u.loc;
  auto join = JoinKind(u.variant());
  t.checkKeywords(e, {"axis"}, fname);
  bool takesAxis = join == JoinKind::Concatenate || join == JoinKind::Stack;
  if (e.args.size() < 1 || e.args.size() > (takesAxis ? 2 : 1))
    t.error(loc, fname + "() takes a sequence of arrays" + (takesAxis ? " and an optional axis" : ""));
  if (!takesAxis && t.keyword(e, "axis")) t.error(loc, fname + "() got an unexpected keyword argument 'axis'");
  const ast::Expr *axisE = e.args.size() > 1 ? e.args[1].get() : t.keyword(e, "axis");
  bool flatten = join == JoinKind::Concatenate && axisE && axisE->kind == ast::ExprKind::NoneLit; // axis=None
  if (join == JoinKind::Stack && axisE && axisE->kind == ast::ExprKind::NoneLit) t.error(axisE->loc, "np.stack() needs an integer axis");
  // The arrays: a literal tuple or list (a, b), or a tuple of arrays held in a variable.
  std::vector<ExprPtr> arrays;
  std::vector<Loc> locs;
  const std::vector<ast::ExprPtr> *elts = nullptr;
  if (auto *t = e.args[0]->as<ast::Tuple>()) elts = &t->elts;
  if (auto *l = e.args[0]->as<ast::List>()) elts = &l->elts;
  if (elts) {
    for (auto &x : *elts) {
      if (x->kind == ast::ExprKind::Starred) t.notSupported(x->loc, fname + "() of a starred sequence is not supported");
      arrays.push_back(t.expr(*x));
      locs.push_back(x->loc);
    }
  } else {
    auto seq = t.expr(*e.args[0]);
    if (t.isUnknown(seq)) return t.unknown(loc);
    refuseLiteralDict(t, seq->type, e.args[0]->loc, "is not a sequence of arrays");
    if (!seq->type.isTuple()) t.error(e.args[0]->loc, fname + "() needs a tuple of arrays, not " + seq->type.str());
    for (size_t i = 0; i < seq->type.elems.size(); ++i) {
      auto g = std::make_unique<ir::Expr>(ir::ExprOp::TupleGet, seq->type.elems[i], loc);
      g->ival = int64_t(i);
      g->args.push_back(duplicate(t, *seq, fname + "() of a computed tuple"));
      arrays.push_back(std::move(g));
      locs.push_back(e.args[0]->loc);
    }
  }
  for (size_t i = 0; i < arrays.size(); ++i) {
    if (t.isUnknown(arrays[i])) return t.unknown(loc);
    if (!arrays[i]->type.isArray()) t.error(locs[i], fname + "() needs arrays, not " + arrays[i]->type.str());
    if (flatten) arrays[i] = ravelArray(t, std::move(arrays[i]), false, locs[i], "a.ravel");
  }
  if (arrays.empty()) t.error(loc, "need at least one array to " + std::string(join == JoinKind::Stack ? "stack" : "concatenate"));
  // vstack, hstack, dstack and column_stack: NumPy's atleast_2d/1d/3d of each (views), or
  // a 1-D column of column_stack, then a concatenation.
  int least = join == JoinKind::VStack ? 2 : join == JoinKind::HStack ? 1 : join == JoinKind::DStack ? 3
              : join == JoinKind::ColumnStack ? 4 : 0;
  if (least)
    for (auto &a : arrays) a = atleastView(t, std::move(a), least, loc);
  int ndim = arrays[0]->type.ndim;
  DType d = arrays[0]->type.dtype;
  for (auto &a : arrays) {
    if (a->type.ndim != ndim) t.error(loc, "all the input arrays must have the same number of dimensions");
    d = types::promote(d, a->type.dtype);
  }
  bool stack = join == JoinKind::Stack;
  int64_t ax = 0;
  if (takesAxis && !flatten) ax = axisArgument(t, e, 1).value_or(0);
  if (join == JoinKind::HStack) ax = ndim == 1 ? 0 : 1; // 1-D arrays are concatenated, others side by side
  if (join == JoinKind::ColumnStack) ax = 1;
  if (join == JoinKind::DStack) ax = 2;
  int outNdim = stack ? ndim + 1 : ndim;
  if (!stack && ndim == 0) t.error(loc, "zero-dimensional arrays cannot be concatenated");
  int64_t given = ax;
  if (ax < 0) ax += outNdim;
  if (ax < 0 || ax >= outNdim)
    t.error(axisE ? axisE->loc : loc, "axis " + std::to_string(given) + " is out of bounds for array of dimension " + std::to_string(outNdim));
  t.requireHost(loc, fname + "()");
  auto j = op(ir::ExprOp::ArrayJoin, Type::array(d, outNdim, types::Layout::C), loc, stack ? 1 : 0);
  j->ival = ax;
  for (auto &a : arrays) j->args.push_back(std::move(a));
  return j;
}

} // namespace mahou::sema
