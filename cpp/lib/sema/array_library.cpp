// Typing of the NumPy library functions built on loops and the runtime: sort,
// argsort, unique, searchsorted, bincount, histogram, concatenate, stack.
#include "typer.h"
#include "sema/arrays.h"

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
  if (at.ndim != 1) t.notSupported(loc, fname + "() is supported for 1-D arrays only");
  t.requireHost(loc, fname + "()");
  if (kind == SortKind::InPlace && at.readonly) t.error(loc, "cannot sort a read-only array in place");
  Type rt = kind == SortKind::Indices   ? Type::array(DType::Int64, 1, types::Layout::C)
            : kind == SortKind::InPlace ? Type::none()
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
    for (const char *name : kinds)
      if (v->type.text == name) return;
  t.error(k->loc, fname + "(): kind must be a constant string, one of 'quicksort', 'mergesort', 'heapsort', 'stable'");
}

ExprPtr FunctionTyper::numpyLibraryFunction(const std::string &name, const ast::Call &e) {
  std::string fname = "np." + name;
  Loc loc = e.loc;
  if (name == "sort" || name == "argsort" || name == "unique") {
    if (name == "unique") checkKeywords(e, {}, fname);
    else checkSortKind(*this, e, fname);
    auto args = positionalArgs(e, 1, 1, fname);
    return sortArray(*this, name == "sort" ? SortKind::Copy : name == "argsort" ? SortKind::Indices : SortKind::Unique,
                     std::move(args[0]), loc, fname);
  }
  if (name == "searchsorted") {
    checkKeywords(e, {"side"}, fname);
    auto args = positionalArgs(e, 2, 3, fname);
    const ast::Expr *sideE = e.args.size() > 2 ? e.args[2].get() : keyword(e, "side");
    int64_t side = 0;
    if (sideE) {
      auto *s = sideE->as<ast::StrLit>();
      if (!s || (s->value != "left" && s->value != "right")) error(sideE->loc, "side must be 'left' or 'right'");
      side = s->value == "right";
    }
    for (auto &a : args)
      if (isUnknown(a)) return unknown(loc);
    if (!args[0]->type.isArray() || args[0]->type.ndim != 1) error(loc, "np.searchsorted() needs a 1-D sorted array");
    // A computed sorted array (np.searchsorted(a[::-1], x)) is evaluated once, before the values.
    std::vector<std::pair<int, ExprPtr>> bound;
    if (args[0]->op != ir::ExprOp::LoadVar) {
      int var = tempVar(args[0]->type, loc);
      bound.emplace_back(var, std::move(args[0]));
      args[0] = load(var, loc);
    }
    std::shared_ptr<ir::Expr> sorted(std::move(args[0])); // cloned into each element's search
    std::vector<ExprPtr> values;
    values.push_back(std::move(args[1]));
    auto search = elementwise(std::move(values), [this, sorted, side, loc](std::vector<ExprPtr> v) -> ExprPtr {
      if (isUnknown(v[0])) return unknown(loc);
      if (!v[0]->type.isNumber() || v[0]->type.isComplex() || sorted->type.isComplex())
        notSupported(loc, "np.searchsorted() of " + v[0]->type.str() + " in " + sorted->type.str());
      // Compared in the array's type unless the value is of a higher kind (a float in ints).
      DType ad = sorted->type.dtype, vd = v[0]->type.dtype;
      bool higher = (types::isFloat(vd) && !types::isFloat(ad)) || (ad == DType::Bool && vd != DType::Bool);
      DType common = higher ? types::promote(ad, vd) : ad;
      auto s = op(ir::ExprOp::ArraySearch, Type::int64(), loc);
      s->ival = side;
      s->args.push_back(ir::clone(*sorted));
      s->args.push_back(ir::makeCast(std::move(v[0]), Type::scalar(common)));
      return s;
    }, loc);
    return wrapBindings(std::move(bound), std::move(search), loc);
  }
  if (name == "bincount") {
    checkKeywords(e, {}, fname);
    auto args = positionalArgs(e, 1, 1, fname);
    if (isUnknown(args[0])) return unknown(loc);
    const Type t = args[0]->type;
    if (!t.isArray() || t.ndim != 1 || !types::isInteger(t.dtype)) error(loc, "np.bincount() needs a 1-D array of non-negative integers");
    requireHost(loc, fname + "()");
    auto b = op(ir::ExprOp::ArrayBincount, Type::array(DType::Int64, 1, types::Layout::C), loc);
    b->args.push_back(std::move(args[0]));
    return b;
  }
  if (name == "histogram") {
    checkKeywords(e, {"bins"}, fname);
    auto args = positionalArgs(e, 1, 2, fname);
    ExprPtr bins;
    if (args.size() == 2) bins = std::move(args[1]);
    else if (auto *k = keyword(e, "bins")) bins = expr(*k);
    else bins = ir::makeConst(Type::int64(), loc, 10);
    if (isUnknown(args[0]) || isUnknown(bins)) return unknown(loc);
    if (!args[0]->type.isArray() || types::isComplex(args[0]->type.dtype)) error(loc, "np.histogram() needs a real array");
    if (bins->type.isArray()) notSupported(loc, "np.histogram() with explicit bin edges is not supported yet");
    requireHost(loc, fname + "()");
    auto h = op(ir::ExprOp::ArrayHistogram,
                Type::tuple({Type::array(DType::Int64, 1, types::Layout::C), Type::array(DType::Float64, 1, types::Layout::C)}), loc);
    h->args.push_back(std::move(args[0]));
    h->args.push_back(toInt64Index(std::move(bins), "bins"));
    return h;
  }
  if (name == "concatenate" || name == "stack" || name == "vstack" || name == "hstack") {
    checkKeywords(e, {"axis"}, fname);
    bool takesAxis = name == "concatenate" || name == "stack";
    if (e.args.size() < 1 || e.args.size() > (takesAxis ? 2 : 1))
      error(loc, fname + "() takes a sequence of arrays" + (takesAxis ? " and an optional axis" : ""));
    if (!takesAxis && keyword(e, "axis")) error(loc, fname + "() got an unexpected keyword argument 'axis'");
    const ast::Expr *axisE = e.args.size() > 1 ? e.args[1].get() : keyword(e, "axis");
    bool flatten = name == "concatenate" && axisE && axisE->kind == ast::ExprKind::NoneLit; // axis=None
    if (name == "stack" && axisE && axisE->kind == ast::ExprKind::NoneLit) error(axisE->loc, "np.stack() needs an integer axis");
    // The arrays: a literal tuple or list (a, b), or a tuple of arrays held in a variable.
    std::vector<ExprPtr> arrays;
    std::vector<Loc> locs;
    const std::vector<ast::ExprPtr> *elts = nullptr;
    if (auto *t = e.args[0]->as<ast::Tuple>()) elts = &t->elts;
    if (auto *l = e.args[0]->as<ast::List>()) elts = &l->elts;
    if (elts) {
      for (auto &x : *elts) {
        if (x->kind == ast::ExprKind::Starred) notSupported(x->loc, fname + "() of a starred sequence is not supported");
        arrays.push_back(expr(*x));
        locs.push_back(x->loc);
      }
    } else {
      auto seq = expr(*e.args[0]);
      if (isUnknown(seq)) return unknown(loc);
      if (!seq->type.isTuple()) error(e.args[0]->loc, fname + "() needs a tuple of arrays, not " + seq->type.str());
      for (size_t i = 0; i < seq->type.elems.size(); ++i) {
        auto g = std::make_unique<ir::Expr>(ir::ExprOp::TupleGet, seq->type.elems[i], loc);
        g->ival = int64_t(i);
        g->args.push_back(duplicate(*this, *seq, fname + "() of a computed tuple"));
        arrays.push_back(std::move(g));
        locs.push_back(e.args[0]->loc);
      }
    }
    for (size_t i = 0; i < arrays.size(); ++i) {
      if (isUnknown(arrays[i])) return unknown(loc);
      if (!arrays[i]->type.isArray()) error(locs[i], fname + "() needs arrays, not " + arrays[i]->type.str());
      if (flatten) arrays[i] = ravelArray(*this, std::move(arrays[i]), false, locs[i], "a.ravel");
    }
    if (arrays.empty()) error(loc, "need at least one array to " + std::string(name == "stack" ? "stack" : "concatenate"));
    int ndim = arrays[0]->type.ndim;
    DType d = arrays[0]->type.dtype;
    for (auto &a : arrays) {
      if (a->type.ndim != ndim) error(loc, "all the input arrays must have the same number of dimensions");
      d = types::promote(d, a->type.dtype);
    }
    // vstack of 1-D arrays stacks them as rows; hstack of 1-D arrays concatenates them.
    bool stack = name == "stack" || (name == "vstack" && ndim == 1);
    int64_t ax = 0;
    if (takesAxis && !flatten) ax = axisArgument(*this, e, 1).value_or(0);
    if (name == "hstack") ax = ndim == 1 ? 0 : 1;
    int outNdim = stack ? ndim + 1 : ndim;
    if (!stack && ndim == 0) error(loc, "zero-dimensional arrays cannot be concatenated");
    int64_t given = ax;
    if (ax < 0) ax += outNdim;
    if (ax < 0 || ax >= outNdim)
      error(axisE ? axisE->loc : loc, "axis " + std::to_string(given) + " is out of bounds for array of dimension " + std::to_string(outNdim));
    requireHost(loc, fname + "()");
    auto j = op(ir::ExprOp::ArrayJoin, Type::array(d, outNdim, types::Layout::C), loc, stack ? 1 : 0);
    j->ival = ax;
    for (auto &a : arrays) j->args.push_back(std::move(a));
    return j;
  }
  return nullptr;
}

} // namespace mahou::sema
