// Primitives the NumPy library in Python (python/mahou/_library) builds on (numpy.def,
// builtins.def): as_strided (a view with other extents and byte strides: ArrayStrided),
// atleast views, mahou._language's refuse and tuple_setitem (a new tuple).
#include "mahou/literal_dict_type.h"
#include "sema/typers.h"

namespace mahou::sema {

ExprPtr numpyAsStrided(Use &u) {
  Typing &t = u.t;
  const ast::Call &e = *u.call;
  const std::string fname = "np.lib.stride_tricks.as_strided";
  Loc loc = e.loc;
  t.checkKeywords(e, {"shape", "strides", "subok", "writeable"}, fname);
  if (e.args.empty() || e.args.size() > 3) t.error(loc, fname + "(x, shape, strides) takes 1 to 3 positional arguments");
  if (t.keyword(e, "subok")) t.notSupported(t.keyword(e, "subok")->loc, fname + "(): subok is not supported");
  auto isNone = [](const ast::Expr *x) { return !x || x->kind == ast::ExprKind::NoneLit; };
  const ast::Expr *shapeE = e.args.size() > 1 ? e.args[1].get() : t.keyword(e, "shape");
  const ast::Expr *stridesE = e.args.size() > 2 ? e.args[2].get() : t.keyword(e, "strides");
  bool readonly = false;
  if (const ast::Expr *w = t.keyword(e, "writeable")) {
    auto v = t.expr(*w);
    if (t.isUnknown(v)) return t.unknown(loc);
    if (v->op != ir::ExprOp::Const || !(v->type.isBool() || v->type.isInt()))
      t.notSupported(w->loc, fname + "(): writeable must be a constant True or False");
    readonly = v->ival == 0;
  }
  auto arr = t.expr(*e.args[0]);
  if (isNone(stridesE)) t.notSupported(loc, fname + "() needs the strides argument (as in Numba)");
  std::vector<ExprPtr> extents;
  if (!isNone(shapeE)) extents = t.shapeArgument(*shapeE);
  auto strides = t.shapeArgument(*stridesE);
  if (t.isUnknown(arr)) return t.unknown(loc);
  for (auto &x : extents)
    if (t.isUnknown(x)) return t.unknown(loc);
  for (auto &x : strides)
    if (t.isUnknown(x)) return t.unknown(loc);
  if (!arr->type.isArray()) t.error(e.args[0]->loc, fname + "() needs an array, not " + arr->type.str());
  const Type at = arr->type;
  bool shapeOfArray = isNone(shapeE);
  size_t nd = shapeOfArray ? size_t(at.ndim) : extents.size();
  if (strides.size() != nd)
    t.error(stridesE->loc, fname + "(): strides has " + std::to_string(strides.size()) + " items for " +
                             std::to_string(nd) + " dimensions");
  Type rt = at.isRecordArray() ? Type::recordArray(at.elems[0], int(nd), types::Layout::A, at.readonly || readonly)
                               : Type::array(at.dtype, int(nd), types::Layout::A, at.readonly || readonly);
  return t.bindOnce(std::move(arr), [&](const std::function<ExprPtr()> &reload) -> ExprPtr {
    auto v = std::make_unique<ir::Expr>(ir::ExprOp::ArrayStrided, rt, loc);
    v->args.push_back(reload());
    for (size_t k = 0; k < nd; ++k) {
      if (shapeOfArray) {
        auto d = std::make_unique<ir::Expr>(ir::ExprOp::ArrayShape, Type::int64(), loc);
        d->ival = int64_t(k);
        d->args.push_back(reload());
        v->args.push_back(std::move(d));
      } else {
        v->args.push_back(std::move(extents[k]));
      }
    }
    for (auto &s : strides) v->args.push_back(std::move(s));
    return v;
  });
}

// NumPy's atleast_1d/2d/3d (least 1, 2, 3) of an array as a view, or column_stack's column
// (least 4: a 0-d or 1-D array as one column of shape (n, 1)); other arrays are returned as
// they are. New axes have extent 1 (stride 0).
ExprPtr atleastView(Typing &t, ExprPtr arr, int least, Loc loc) {
  if (t.isUnknown(arr) || !arr->type.isArray()) return arr;
  const Type at = arr->type;
  int want = least == 4 ? 2 : least;
  if (at.ndim >= want) return arr;
  // Where each old axis goes among the `want` axes (the others are new, of extent 1).
  std::vector<int> from(size_t(want), -1);
  if (at.ndim == 1) from[size_t(least == 1 || least == 4 ? 0 : 1)] = 0;
  if (at.ndim == 2) from[0] = 0, from[1] = 1;
  Type rt = Type::array(at.dtype, want, types::Layout::A, at.readonly);
  return t.bindOnce(std::move(arr), [&](const std::function<ExprPtr()> &reload) -> ExprPtr {
    auto v = std::make_unique<ir::Expr>(ir::ExprOp::ArrayStrided, rt, loc);
    v->args.push_back(reload());
    for (int pass = 0; pass < 2; ++pass)
      for (int k = 0; k < want; ++k) {
        if (from[size_t(k)] < 0) {
          v->args.push_back(ir::makeConst(Type::int64(), loc, pass == 0 ? 1 : 0));
          continue;
        }
        auto d = std::make_unique<ir::Expr>(pass == 0 ? ir::ExprOp::ArrayShape : ir::ExprOp::ArrayStride, Type::int64(), loc);
        d->ival = from[size_t(k)];
        d->args.push_back(reload());
        v->args.push_back(std::move(d));
      }
    return v;
  });
}

// mahou._language.refuse("message"): an UnsupportedError when typed (a branch the library
// folds away for the types it supports), reported at the user's call (atLibraryCall, calls.cpp).
ExprPtr mahouRefuse(Use &u) {
  Typing &t = u.t;
  const ast::Call &e = *u.call;
  const ast::StrLit *msg = e.args.size() == 1 ? e.args[0]->as<ast::StrLit>() : nullptr;
  if (!msg) t.error(e.loc, "refuse() takes one constant string");
  t.notSupported(e.loc, msg->value);
}

// mahou._language.as_bytes(a): the 1-D C-contiguous uint8 array a as a bytes value (the
// same memory, read-only; boxed as Python bytes). a.tobytes() in the library makes one.
ExprPtr mahouAsBytes(Use &u) {
  Typing &t = u.t;
  const ast::Call &e = *u.call;
  t.checkKeywords(e, {}, "as_bytes");
  auto args = t.positionalArgs(e, 1, 1, "as_bytes");
  if (t.isUnknown(args[0])) return t.unknown(e.loc);
  Type at = args[0]->type;
  if (!at.isArray() || at.isRecordArray() || at.isBuffer() || at.dtype != DType::UInt8 || at.ndim != 1 ||
      at.layout != types::Layout::C)
    t.error(e.loc, "as_bytes() needs a 1-D C-contiguous uint8 array, not " + at.str());
  at.buffer = types::BufferKind::Bytes;
  at.readonly = true;
  return ir::makeCast(std::move(args[0]), at);
}

// mahou._language.tuple_setitem(t, i, v): t with item i (a run-time index, negative
// counted from the end) replaced by v converted to the items' type; IndexError outside.
ExprPtr mahouTupleSetitem(Use &u) {
  Typing &t = u.t;
  const ast::Call &e = *u.call;
  const std::string fname = "tuple_setitem";
  Loc loc = e.loc;
  t.checkKeywords(e, {}, fname);
  auto args = t.positionalArgs(e, 3, 3, fname);
  for (auto &a : args)
    if (t.isUnknown(a)) return t.unknown(loc);
  const Type tt = args[0]->type;
  refuseLiteralDict(t, tt, loc, "cannot be given to " + fname + "()");
  if (!tt.isTuple() || tt.isClosure()) t.error(loc, fname + "() needs a tuple, not " + tt.str());
  if (!tt.elems.empty() && !tt.isHomogeneousTuple()) t.error(loc, fname + "() needs a tuple of items of one type, not " + tt.str());
  size_t n = tt.elems.size();
  if (n == 0) { // always out of range: IndexError when run (a loop over no axes never runs it)
    auto stmts = std::make_shared<ir::Block>();
    for (size_t k = 1; k < 3; ++k) {
      auto ev = std::make_unique<ir::Stmt>(ir::StmtOp::Eval, loc);
      ev->exprs.push_back(std::move(args[k]));
      stmts->push_back(std::move(ev));
    }
    auto r = std::make_unique<ir::Stmt>(ir::StmtOp::Raise, loc);
    r->exc = types::ExcKind::IndexError;
    r->text = "tuple index out of range";
    stmts->push_back(std::move(r));
    return t.seqExpr(std::move(stmts), std::move(args[0]), loc);
  }
  Type item = tt.elems[0];
  args[1] = t.toInt64Index(std::move(args[1]), fname + " index");
  args[2] = t.convert(std::move(args[2]), item, fname + " value");
  auto bindings = t.bindOperands(args, loc);
  // The index wrapped and checked once: i < 0 → i + n; outside [0, n) raises IndexError.
  auto index = std::make_unique<ir::Expr>(ir::ExprOp::TupleIndex, Type::int64(), loc);
  std::vector<Type> positions(n, Type::int64());
  auto table = std::make_unique<ir::Expr>(ir::ExprOp::TupleMake, Type::tuple(positions), loc);
  for (size_t k = 0; k < positions.size(); ++k) table->args.push_back(ir::makeConst(Type::int64(), loc, int64_t(k)));
  index->args.push_back(std::move(table));
  index->args.push_back(std::move(args[1]));
  int pos = t.tempVar(Type::int64(), loc);
  bindings.emplace_back(pos, std::move(index));
  auto out = std::make_unique<ir::Expr>(ir::ExprOp::TupleMake, tt, loc);
  for (size_t k = 0; k < n; ++k) {
    auto get = std::make_unique<ir::Expr>(ir::ExprOp::TupleGet, item, loc);
    get->ival = int64_t(k);
    get->args.push_back(ir::clone(*args[0]));
    auto cond = t.compareOne(ast::CmpOpKind::Eq, t.load(pos, loc), ir::makeConst(Type::int64(), loc, int64_t(k)), loc);
    auto sel = std::make_unique<ir::Expr>(ir::ExprOp::Select, item, loc);
    sel->args.push_back(std::move(cond));
    sel->args.push_back(ir::clone(*args[2]));
    sel->args.push_back(std::move(get));
    out->args.push_back(std::move(sel));
  }
  return t.wrapBindings(std::move(bindings), std::move(out), loc);
}

} // namespace mahou::sema
