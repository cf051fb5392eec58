// Typing of np.array / np.asarray / np.ascontiguousarray / np.asfortranarray: arrays
// from literal lists and tuples (nested: N-D, dtype by NumPy's promotion), from tuples
// held in variables, from arrays (copies or the same array), and stacks of arrays.
#include "mahou/literal_dict_type.h"
#include "mahou/datetime_units.h"
#include "sema/typers.h"

namespace mahou::sema {

namespace {

// The leaves of a nested sequence in C order, with the extent of each level.
struct Collected {
  std::vector<ExprPtr> leaves;
  std::vector<int64_t> shape;
  std::vector<std::pair<int, ExprPtr>> bindings; // computed tuples evaluated once
  bool unknown = false;
  bool arrays = false; // the leaves are arrays (np.array([a, b]) stacks them)
};

} // namespace

namespace {

class SequenceCollector {
public:
  SequenceCollector(Typing &t, const std::string &fname) : t_(t), fname_(fname) {}

  void node(const ast::Expr &n, size_t depth, Collected &out) {
    const std::vector<ast::ExprPtr> *elts = nullptr;
    if (auto *l = n.as<ast::List>()) elts = &l->elts;
    if (auto *tu = n.as<ast::Tuple>()) elts = &tu->elts;
    if (elts) {
      level(depth, int64_t(elts->size()), n.loc, out);
      for (auto &x : *elts) {
        if (x->kind == ast::ExprKind::Starred) t_.notSupported(x->loc, fname_ + "() of a starred element is not supported");
        node(*x, depth + 1, out);
      }
      return;
    }
    value(t_.expr(n), depth, n.loc, out);
  }

  void value(ExprPtr v, size_t depth, Loc loc, Collected &out) {
    if (Typing::isUnknown(v)) {
      out.unknown = true;
      return;
    }
    const Type vt = v->type;
    refuseLiteralDict(t_, vt, loc, "cannot be made into an array");
    if (vt.isTuple()) {
      int64_t n = int64_t(vt.elems.size());
      level(depth, n, loc, out);
      if (v->op == ir::ExprOp::TupleMake) {
        for (auto &x : v->args) value(std::move(x), depth + 1, loc, out);
        return;
      }
      int var = v->op == ir::ExprOp::LoadVar ? v->var : -1;
      if (var < 0) {
        var = t_.tempVar(vt, loc);
        out.bindings.emplace_back(var, std::move(v));
      }
      for (int64_t i = 0; i < n; ++i) {
        auto g = std::make_unique<ir::Expr>(ir::ExprOp::TupleGet, vt.elems[size_t(i)], loc);
        g->ival = i;
        g->args.push_back(t_.load(var, loc));
        value(std::move(g), depth + 1, loc, out);
      }
      return;
    }
    if (vt.isNumber() || vt.isArray()) {
      bool isArray = vt.isArray();
      if (!out.leaves.empty() && isArray != out.arrays)
        t_.error(loc, fname_ + "(): cannot mix arrays and numbers in one sequence");
      out.arrays = isArray;
      if (!leafDepth_) leafDepth_ = depth;
      else if (*leafDepth_ != depth)
        t_.error(loc, fname_ + "(): setting an array element with a sequence. The requested array has an "
                                 "inhomogeneous shape");
      out.leaves.push_back(std::move(v));
      return;
    }
    if (vt.isNone()) t_.notSupported(loc, fname_ + "() of None is not supported");
    t_.notSupported(loc, fname_ + "() of " + vt.str() + " is not supported");
  }

private:
  void level(size_t depth, int64_t n, Loc loc, Collected &out) {
    if (out.shape.size() == depth) {
      if (leafDepth_ && *leafDepth_ <= depth)
        t_.error(loc, fname_ + "(): setting an array element with a sequence. The requested array has an "
                                 "inhomogeneous shape");
      out.shape.push_back(n);
    } else if (out.shape[depth] != n) {
      t_.error(loc, fname_ + "(): setting an array element with a sequence. The requested array has an "
                               "inhomogeneous shape after " + std::to_string(depth) + " dimensions");
    }
  }

  Typing &t_;
  std::string fname_;
  std::optional<size_t> leafDepth_;
};

ExprPtr arrayFromSequence(Typing &t, std::vector<ExprPtr> leaves, const std::vector<int64_t> &shape,
                          std::vector<std::pair<int, ExprPtr>> bindings, bool arrays, std::optional<DType> dtype,
                          bool fortran, Loc loc);

} // namespace

ExprPtr numpyArrayConstruction(Use &u) {
  Typing &t = u.t;
  const ast::Call &e = *u.call;
  const std::string &name = u.name;
  auto form = ArrayConstruction(u.variant());
  bool asarray = form == ArrayConstruction::AsArray;
  bool contiguous = form == ArrayConstruction::Contiguous, fortran = form == ArrayConstruction::Fortran;
  std::string fname = "np." + name;
  t.requireHost(e.loc, fname + "()");
  t.checkKeywords(e, {"dtype"}, fname);
  if (e.args.empty() || e.args.size() > 2) t.error(e.loc, fname + "() takes an object and an optional dtype");
  const ast::Expr *dtypeE = e.args.size() > 1 ? e.args[1].get() : t.keyword(e, "dtype");
  std::optional<DType> dtype;
  if (dtypeE && dtypeE->kind != ast::ExprKind::NoneLit) {
    dtype = t.dtypeArgument(*dtypeE);
    if (!dtype) return t.unknown(e.loc);
  }
  const ast::Expr &obj = *e.args[0];
  bool literal = obj.kind == ast::ExprKind::List || obj.kind == ast::ExprKind::Tuple;
  if (!literal) {
    auto v = t.expr(obj);
    if (t.isUnknown(v)) return t.unknown(e.loc);
    if (v->type.isArray()) {
      const Type at = v->type;
      DType d = dtype.value_or(at.dtype);
      bool same = d == at.dtype;
      if (!types::datetimeConversionAllowed(at.dtype, d))
        t.error(e.loc, std::string("converting ") + types::dtypeName(at.dtype) + " to " + types::dtypeName(d) + " is not supported");
      // asarray: the same array unless the dtype changes; array: always a copy.
      if (asarray && same) return v;
      if (contiguous && same && at.layout == types::Layout::C) return v;
      if (fortran && same && (at.layout == types::Layout::F || at.ndim == 1)) return v;
      if (fortran) { // a C copy of the transpose, read through .T: Fortran order
        auto tr = transposeArray(std::move(v), e.loc);
        auto c = std::make_unique<ir::Expr>(ir::ExprOp::ArrayCopy, Type::array(d, at.ndim, types::Layout::C), e.loc);
        c->args.push_back(std::move(tr));
        return transposeArray(std::move(c), e.loc);
      }
      auto c = std::make_unique<ir::Expr>(ir::ExprOp::ArrayCopy, Type::array(d, at.ndim, types::Layout::C), e.loc);
      c->args.push_back(std::move(v));
      return c;
    }
    if (v->type.isList()) return arrayFromList(t, std::move(v), dtype, fname, e.loc);
    if (v->type.kind == Kind::Str) t.notSupported(obj.loc, fname + "() of a string is not supported");
    v = t.unwrapOptional(std::move(v));
    if (v->type.isNumber()) { // a 0-d array (ascontiguousarray/asfortranarray: 1-D, as NumPy)
      DType d = dtype.value_or(v->type.dtype);
      int nd = contiguous || fortran ? 1 : 0;
      auto a = std::make_unique<ir::Expr>(ir::ExprOp::ArrayAlloc, Type::array(d, nd, types::Layout::C), e.loc);
      a->sub = int(ir::AllocKind::Full);
      if (nd) a->args.push_back(ir::makeConst(Type::int64(), e.loc, 1));
      a->args.push_back(t.convert(std::move(v), Type::scalar(d), fname + " value"));
      return a;
    }
    if (!v->type.isTuple())
      t.notSupported(obj.loc, fname + "() of " + v->type.str() +
                                " is not supported (a list held in a variable needs the list type; use a literal list or a tuple)");
    Collected c;
    SequenceCollector collector(t, fname);
    collector.value(std::move(v), 0, obj.loc, c);
    return arrayFromSequence(t, std::move(c.leaves), c.shape, std::move(c.bindings), c.arrays, dtype, fortran, e.loc);
  }
  Collected c;
  SequenceCollector collector(t, fname);
  collector.node(obj, 0, c);
  if (c.unknown) return t.unknown(e.loc);
  return arrayFromSequence(t, std::move(c.leaves), c.shape, std::move(c.bindings), c.arrays, dtype, fortran, e.loc);
}

ExprPtr tupleAsArray(Typing &t, ExprPtr tuple, Loc loc) {
  Collected c;
  SequenceCollector collector(t, "storing a tuple into an array");
  collector.value(std::move(tuple), 0, loc, c);
  if (c.unknown) return t.unknown(loc);
  return arrayFromSequence(t, std::move(c.leaves), c.shape, std::move(c.bindings), c.arrays, std::nullopt, false, loc);
}

// A list held in a variable (or computed): its items are known at run time only, so a
// compiled helper (python/mahou/_library/internal.py) fills the array, checking that the
// rows have one length. A list of arrays stacks them.
ExprPtr arrayFromList(Typing &t, ExprPtr list, std::optional<DType> dtype, const std::string &fname, Loc loc) {
  const Type item = list->type.elems[0];
  const char *helper = nullptr;
  DType d{};
  if (item.isNumber()) {
    helper = "list_to_array", d = item.dtype;
  } else if (item.isList() && item.elems[0].isNumber()) {
    helper = "nested_list_to_array", d = item.elems[0].dtype;
  } else if (item.isArray()) {
    helper = "stack_list_of_arrays", d = item.dtype;
  } else if (item.isHomogeneousTuple() && !item.elems.empty() && item.elems[0].isNumber()) { // [(i, j), ...]
    helper = "list_of_tuples_to_array", d = item.elems[0].dtype;
  } else {
    t.notSupported(loc, fname + "() of " + list->type.str() + " is not supported (a list of numbers, of lists or tuples of numbers or of arrays is)");
  }
  if (dtype) d = *dtype;
  const GlobalValue &g = t.global(std::string("@internal.") + helper);
  if (g.kind != GlobalValue::Kind::Function) internalError(std::string("the library helper ") + helper + " is missing");
  CallArgs call;
  call.positional.push_back(std::move(list));
  call.positional.push_back(ir::makeConst(Type::scalar(d), loc, 0));
  return t.callCompiled(g.handle, fname, std::move(call), loc);
}

namespace {

ExprPtr arrayFromSequence(Typing &t, std::vector<ExprPtr> leaves, const std::vector<int64_t> &shape,
                          std::vector<std::pair<int, ExprPtr>> bindings, bool arrays, std::optional<DType> dtype,
                          bool fortran, Loc loc) {
  for (auto &x : leaves)
    if (t.isUnknown(x)) return t.unknown(loc);
  ExprPtr result;
  if (arrays) { // np.array([a, b, ...]) of equal-shaped arrays: stacked on a new first axis
    if (shape.size() != 1) t.notSupported(loc, "np.array() of nested sequences of arrays is not supported");
    int nd = leaves[0]->type.ndim;
    DType d = leaves[0]->type.dtype;
    for (auto &x : leaves) {
      if (x->type.ndim != nd) t.error(loc, "np.array(): the arrays must have the same shape");
      d = types::promote(d, x->type.dtype);
    }
    auto j = std::make_unique<ir::Expr>(ir::ExprOp::ArrayJoin, Type::array(d, nd + 1, types::Layout::C), loc);
    j->sub = 1;
    j->ival = 0;
    j->args = std::move(leaves);
    result = std::move(j);
    if (dtype && *dtype != d) {
      auto c = std::make_unique<ir::Expr>(ir::ExprOp::ArrayCopy, Type::array(*dtype, nd + 1, types::Layout::C), loc);
      c->args.push_back(std::move(result));
      result = std::move(c);
    }
  } else {
    DType d = DType::Bool;
    bool first = true;
    for (auto &x : leaves) {
      d = first ? x->type.dtype : types::promote(d, x->type.dtype);
      first = false;
    }
    if (leaves.empty()) d = DType::Float64; // np.array([]) is float64
    if (dtype) d = *dtype;
    Type elem = Type::scalar(d);
    auto lit = std::make_unique<ir::Expr>(ir::ExprOp::ArrayLiteral, Type::array(d, int(shape.size()), types::Layout::C), loc);
    lit->sub = int(shape.size());
    for (int64_t n : shape) lit->args.push_back(ir::makeConst(Type::int64(), loc, n));
    for (auto &x : leaves) {
      if (x->type.isComplex() && !elem.isComplex())
        t.error(x->loc, "np.array(): cannot store a complex number in an array of " + std::string(types::dtypeName(d)));
      lit->args.push_back(ir::makeCast(std::move(x), elem));
    }
    result = std::move(lit);
  }
  if (fortran && result->type.ndim > 1) {
    const Type rt = result->type;
    auto tr = transposeArray(std::move(result), loc);
    auto c = std::make_unique<ir::Expr>(ir::ExprOp::ArrayCopy, Type::array(rt.dtype, rt.ndim, types::Layout::C), loc);
    c->args.push_back(std::move(tr));
    result = transposeArray(std::move(c), loc);
  }
  return t.wrapBindings(std::move(bindings), std::move(result), loc);
}

} // namespace

} // namespace mahou::sema
