// Typers of the methods and attributes of arrays (arrays.def): a.copy(), a.astype(),
// reductions with an axis, reshape/ravel/flatten, sort, view, fill; a.shape, a.T, ...
#include "sema/arrays.h"
#include "mahou/datetime_units.h"
#include "sema/typers.h"
#include "random_draws.h" // raiseIfStmt

namespace mahou::sema {

ExprPtr copyOf(ExprPtr a, DType dtype, Loc loc) {
  auto c = std::make_unique<ir::Expr>(ir::ExprOp::ArrayCopy, Type::array(dtype, a->type.ndim, types::Layout::C), loc);
  c->args.push_back(std::move(a));
  return c;
}

ExprPtr reshapeArray(ExprPtr a, std::vector<ExprPtr> dims, Loc loc) {
  const Type at = a->type;
  bool copied = at.layout != types::Layout::C; // a copy is writable
  if (copied) a = copyOf(std::move(a), at.dtype, loc);
  auto r = std::make_unique<ir::Expr>(ir::ExprOp::ArrayReshape,
                                      Type::array(at.dtype, int(dims.size()), types::Layout::C, at.readonly && !copied), loc);
  r->args.push_back(std::move(a));
  for (auto &d : dims) r->args.push_back(std::move(d));
  return r;
}

ExprPtr transposeArray(ExprPtr a, Loc loc) {
  const Type at = a->type;
  if (at.ndim == 1) return a;
  types::Layout l = at.layout == types::Layout::C   ? types::Layout::F
                    : at.layout == types::Layout::F ? types::Layout::C
                                                    : types::Layout::A;
  auto t = std::make_unique<ir::Expr>(ir::ExprOp::Transpose, Type::array(at.dtype, at.ndim, l, at.readonly), loc);
  t->args.push_back(std::move(a));
  return t;
}

ExprPtr arrayShapeTuple(Typing &t, ExprPtr base, bool strides, Loc loc) {
  const Type at = base->type;
  if (base->op == ir::ExprOp::ArrayConst) {
    // A frozen global array: its shape and (C-order) strides are constants.
    std::vector<ExprPtr> dims(size_t(at.ndim));
    int64_t stride = types::dtypeBytes(at.dtype);
    for (int i = at.ndim - 1; i >= 0; --i) {
      int64_t extent = base->args[size_t(i)]->ival;
      dims[size_t(i)] = ir::makeConst(Type::int64(), loc, strides ? stride : extent);
      stride *= std::max<int64_t>(extent, 1);
    }
    auto tu = std::make_unique<ir::Expr>(ir::ExprOp::TupleMake, Type::tuple(std::vector<Type>(size_t(at.ndim), Type::int64())), loc);
    tu->args = std::move(dims);
    return tu;
  }
  // A computed array (xs[0].shape, an optional's value) is evaluated once.
  return t.bindOnce(std::move(base), [&](const std::function<ExprPtr()> &array) -> ExprPtr {
    std::vector<ExprPtr> dims;
    for (int i = 0; i < at.ndim; ++i) {
      auto d =
          std::make_unique<ir::Expr>(strides ? ir::ExprOp::ArrayStride : ir::ExprOp::ArrayShape, Type::int64(), loc);
      d->ival = i;
      d->args.push_back(array());
      dims.push_back(std::move(d));
    }
    auto tu = std::make_unique<ir::Expr>(ir::ExprOp::TupleMake, Type::tuple(std::vector<Type>(size_t(at.ndim), Type::int64())), loc);
    tu->args = std::move(dims);
    return tu;
  });
}

ExprPtr ravelArray(Typing &t, ExprPtr a, bool copy, Loc loc, const std::string &fname) {
  const Type at = a->type;
  bool copied = copy || at.layout != types::Layout::C;
  if (copied) {
    t.requireHost(loc, fname + "()");
    a = copyOf(std::move(a), at.dtype, loc);
  }
  // A copy is a new array: writable even when the array it copies is read-only.
  auto r = std::make_unique<ir::Expr>(ir::ExprOp::ArrayReshape,
                                      Type::array(at.dtype, 1, types::Layout::C, at.readonly && !copied), loc);
  r->args.push_back(std::move(a));
  r->args.push_back(ir::makeConst(Type::int64(), loc, -1));
  return r;
}

// ------------------------------------------------------------------ methods

ExprPtr arrayCopyMethod(Use &u) {
  u.t.requireHost(u.loc, "a.copy()");
  u.args(0, 0, {}, "copy");
  return copyOf(std::move(u.self), u.self->type.dtype, u.loc);
}

ExprPtr arrayAstypeMethod(Use &u) {
  u.t.requireHost(u.loc, "a.astype()");
  u.t.checkKeywords(*u.call, {}, u.name);
  if (u.call->args.size() != 1) u.error("astype() takes 1 argument");
  auto d = u.t.dtypeArgument(*u.call->args[0]);
  if (!d) return u.unknown();
  // datetimes: to a unit reached exactly, or their counts to and from int64 (NumPy's
  // other conversions truncate or go through floats: refused)
  DType from = u.self->type.dtype;
  if (!types::datetimeConversionAllowed(from, *d))
    u.error(std::string("astype() from ") + types::dtypeName(from) + " to " + types::dtypeName(*d) + " is not supported");
  return copyOf(std::move(u.self), *d, u.loc);
}

ExprPtr arrayTransposeMethod(Use &u) {
  if (!u.call->args.empty() || !u.call->keywords.empty()) { // a.transpose(axes): the library (shapes.py)
    if (auto r = u.t.libraryCall("ndarray.transpose", "a.transpose", *u.call, std::move(u.self))) return r;
    u.notSupported("a.transpose() with axes is not supported here");
  }
  return transposeArray(std::move(u.self), u.loc);
}

ExprPtr arrayReduceMethod(Use &u) {
  if (u.call->args.size() > 1) u.error("a." + u.name + "() takes an optional axis");
  return reduceWithArguments(u.t, ir::ReduceKind(u.variant()), std::move(u.self), *u.call, 0, "a." + u.name, u.loc);
}

ExprPtr arrayReshapeMethod(Use &u) {
  const ast::Call &e = *u.call;
  u.t.checkKeywords(e, {}, "a.reshape");
  std::vector<ExprPtr> dims;
  if (e.args.size() == 1) dims = u.t.shapeArgument(*e.args[0]);
  else
    for (auto &a : e.args) dims.push_back(u.t.toInt64Index(u.t.expr(*a), "reshape dimension"));
  if (dims.empty()) u.error("a.reshape() needs a shape");
  if (anyUnknown(dims)) return u.unknown();
  return reshapeArray(std::move(u.self), std::move(dims), u.loc);
}

ExprPtr arrayRavelMethod(Use &u) {
  u.t.checkKeywords(*u.call, {}, "a." + u.name);
  if (!u.call->args.empty()) u.error("a." + u.name + "() takes no arguments");
  return ravelArray(u.t, std::move(u.self), u.variant() == 1, u.loc, "a." + u.name);
}

ExprPtr arrayDotMethod(Use &u) {
  if (u.call->args.size() != 1) u.error("a.dot(b) takes one argument");
  return u.t.matmul(std::move(u.self), u.t.expr(*u.call->args[0]), u.loc);
}

ExprPtr arraySortMethod(Use &u) {
  if (!u.call->args.empty() || u.keyword("axis") || u.self->type.ndim != 1) // N-D arrays, an axis: the library's
    if (auto r = u.t.libraryCall("ndarray." + u.name, "a." + u.name, *u.call, std::move(u.self))) return r;
  checkSortKind(u.t, *u.call, "a." + u.name);
  if (!u.call->args.empty()) u.notSupported("a." + u.name + "() arguments are not supported");
  return sortArray(u.t, SortKind(u.variant()), std::move(u.self), u.loc, "a." + u.name);
}

// a.partition(kth) of a 1-D array, in place, one integer kth (NumPy's kth may be a
// sequence: not supported); its bounds are checked (and a negative kth wrapped) in codegen.
ExprPtr arrayPartitionMethod(Use &u) {
  const std::string fname = "a.partition";
  u.t.checkKeywords(*u.call, {}, fname);
  auto args = u.t.positionalArgs(*u.call, 1, 1, fname);
  if (Typing::isUnknown(args[0]) || Typing::isUnknown(u.self)) return u.unknown();
  if (args[0]->type.isBool()) u.error("Booleans unacceptable as partition index"); // NumPy's refusal
  if (!args[0]->type.isInt()) u.notSupported(fname + "() needs one integer kth (a sequence of kth is not supported)");
  if (u.self->type.isArray() && u.self->type.ndim != 1) u.notSupported(fname + "() is supported for 1-D arrays only");
  auto kth = u.t.convert(std::move(args[0]), Type::int64(), fname + "() kth");
  auto e = sortArray(u.t, SortKind::Partition, std::move(u.self), u.loc, fname);
  if (!Typing::isUnknown(e)) e->args.push_back(std::move(kth));
  return e;
}

ExprPtr viewOfAnotherSize(Typing &t, ExprPtr self, DType to, Loc loc);

ExprPtr arrayViewMethod(Use &u) { // the same memory read as another dtype
  u.t.checkKeywords(*u.call, {"dtype"}, "a.view");
  const ast::Expr *d = u.call->args.size() == 1 ? u.call->args[0].get() : u.keyword("dtype");
  if (!d) u.error("a.view() needs a dtype");
  auto dt = u.t.dtypeArgument(*d);
  if (!dt) return u.unknown();
  const Type at = u.self->type;
  const int64_t oldBytes = types::dtypeBytes(at.dtype), newBytes = types::dtypeBytes(*dt);
  if (newBytes == oldBytes) {
    auto c = std::make_unique<ir::Expr>(ir::ExprOp::Cast, Type::array(*dt, at.ndim, at.layout, at.readonly), u.loc);
    c->args.push_back(std::move(u.self));
    return c;
  }
  return viewOfAnotherSize(u.t, std::move(u.self), *dt, u.loc);
}

// a.view(dtype) to another item size, as NumPy: the last axis (contiguous: its stride the
// item size, unless it has one element) holds shape[-1] * old / new items of the new size;
// a ValueError when it is not contiguous or its bytes do not divide into the new items.
ExprPtr viewOfAnotherSize(Typing &t, ExprPtr self, DType to, Loc loc) {
  const Type at = self->type;
  const int64_t oldBytes = types::dtypeBytes(at.dtype), newBytes = types::dtypeBytes(to);
  if (at.ndim == 0)
    t.error(loc, "a.view() of a 0-d array to a dtype of another size (NumPy: only the same itemsize)");
  const int last = at.ndim - 1;
  Type rt = Type::array(to, at.ndim, at.layout == types::Layout::C ? types::Layout::C : types::Layout::A, at.readonly);
  return t.bindOnce(std::move(self), [&](const std::function<ExprPtr()> &reload) -> ExprPtr {
    auto dim = [&](ir::ExprOp part, int k) {
      auto d = std::make_unique<ir::Expr>(part, Type::int64(), loc);
      d->ival = k;
      d->args.push_back(reload());
      return d;
    };
    auto c64 = [&](int64_t v) { return ir::makeConst(Type::int64(), loc, v); };
    auto stmts = std::make_shared<ir::Block>();
    auto lastBytes = [&] { return t.binary(ast::BinOpKind::Mult, dim(ir::ExprOp::ArrayShape, last), c64(oldBytes), loc); };
    raiseIfStmt(t.compareOne(ast::CmpOpKind::NotEq, t.binary(ast::BinOpKind::Mod, lastBytes(), c64(newBytes), loc), c64(0), loc),
                "When changing to a larger dtype, its size must be a divisor of the total size in bytes of the "
                "last axis of the array.",
                *stmts, loc);
    raiseIfStmt(ir::makeBoolOp(false, t.compareOne(ast::CmpOpKind::NotEq, dim(ir::ExprOp::ArrayStride, last), c64(oldBytes), loc),
                               t.compareOne(ast::CmpOpKind::Gt, dim(ir::ExprOp::ArrayShape, last), c64(1), loc), loc),
                "To change to a dtype of a different size, the last axis must be contiguous", *stmts, loc);
    auto v = std::make_unique<ir::Expr>(ir::ExprOp::ArrayStrided, rt, loc);
    v->args.push_back(reload());
    for (int k = 0; k < last; ++k) v->args.push_back(dim(ir::ExprOp::ArrayShape, k));
    v->args.push_back(t.binary(ast::BinOpKind::FloorDiv, lastBytes(), c64(newBytes), loc));
    for (int k = 0; k < last; ++k) v->args.push_back(dim(ir::ExprOp::ArrayStride, k));
    v->args.push_back(c64(newBytes));
    v->args.push_back(c64(0));
    return t.seqExpr(std::move(stmts), std::move(v), loc);
  });
}

ExprPtr arrayFillMethod(Use &u) { u.notSupported("a.fill() is a statement: write it on its own line"); }

// a.fill(v) as a statement: a store into the whole array.
bool arrayFillStatement(Use &u, ir::Block &out) {
  u.t.checkKeywords(*u.call, {}, "a.fill");
  auto args = u.t.positionalArgs(*u.call, 1, 1, "a.fill");
  if (Typing::isUnknown(args[0])) return true;
  if (!args[0]->type.isNumber()) u.error("a.fill() needs a number");
  out.push_back(u.t.storeView(std::move(u.self), std::move(args[0]), u.loc));
  return true;
}

// ------------------------------------------------------------------ attributes

ExprPtr arrayShapeAttribute(Use &u) { return arrayShapeTuple(u.t, std::move(u.self), u.variant() == 1, u.loc); }

ExprPtr arrayNdimAttribute(Use &u) { return ir::makeConst(Type::int64(), u.loc, u.self->type.ndim); }

ExprPtr arraySizeAttribute(Use &u) {
  auto s = std::make_unique<ir::Expr>(ir::ExprOp::ArraySize, Type::int64(), u.loc);
  s->args.push_back(std::move(u.self));
  return s;
}

ExprPtr arrayItemsizeAttribute(Use &u) {
  return ir::makeConst(Type::int64(), u.loc, types::dtypeBytes(u.self->type.dtype));
}

ExprPtr arrayNbytesAttribute(Use &u) {
  int64_t itemsize = types::dtypeBytes(u.self->type.dtype);
  auto s = std::make_unique<ir::Expr>(ir::ExprOp::ArraySize, Type::int64(), u.loc);
  s->args.push_back(std::move(u.self));
  auto e = std::make_unique<ir::Expr>(ir::ExprOp::Binary, Type::int64(), u.loc);
  e->sub = int(ir::BinaryOp::Mul);
  e->args.push_back(std::move(s));
  e->args.push_back(ir::makeConst(Type::int64(), u.loc, itemsize));
  return e;
}

ExprPtr arrayDtypeAttribute(Use &u) {
  return ir::makeConst(Type::dtypeObj(u.self->type.dtype), u.loc, types::kDTypeValue);
}

ExprPtr arrayTAttribute(Use &u) { return transposeArray(std::move(u.self), u.loc); }

ExprPtr arrayFlatAttribute(Use &u) {
  u.notSupported("a.flat is supported only in 'for x in a.flat', 'a.flat[i]' and 'a.flat[i] = v'");
}

// a.real / a.imag (variant: ir::Intrinsic::Real or Imag). Of a complex array a view of the
// parts: the same extents and strides, the data pointer moved by half an item for the
// imaginary parts (ArrayStrided with a byte offset); of a real array, as NumPy and Numba,
// the array itself or zeros of its shape.
ExprPtr arrayPartAttribute(Use &u) {
  const Type at = u.self->type;
  bool imag = ir::Intrinsic(u.variant()) == ir::Intrinsic::Imag;
  Loc loc = u.loc;
  if (!types::isComplex(at.dtype)) {
    if (!imag) return std::move(u.self);
    auto z = std::make_unique<ir::Expr>(ir::ExprOp::ArrayAlloc, Type::array(at.dtype, at.ndim, types::Layout::C), loc);
    z->sub = int(ir::AllocKind::Zeros);
    z->ival = 1; // the shape of args[0]
    z->args.push_back(std::move(u.self));
    return z;
  }
  Type rt = Type::array(types::realOf(at.dtype), at.ndim, types::Layout::A, at.readonly);
  return u.t.bindOnce(std::move(u.self), [&](const std::function<ExprPtr()> &reload) -> ExprPtr {
    auto v = std::make_unique<ir::Expr>(ir::ExprOp::ArrayStrided, rt, loc);
    v->args.push_back(reload());
    for (ir::ExprOp part : {ir::ExprOp::ArrayShape, ir::ExprOp::ArrayStride})
      for (int k = 0; k < at.ndim; ++k) {
        auto d = std::make_unique<ir::Expr>(part, Type::int64(), loc);
        d->ival = k;
        d->args.push_back(reload());
        v->args.push_back(std::move(d));
      }
    v->args.push_back(ir::makeConst(Type::int64(), loc, imag ? types::dtypeBytes(at.dtype) / 2 : 0));
    return v;
  });
}

// a.flags: Numba's subset (contiguous, c_contiguous, f_contiguous), from the array's run-time
// extents and strides as NumPy sets them, by the library's ndarray.flags (a named tuple).
ExprPtr arrayFlagsAttribute(Use &u) {
  std::vector<ExprPtr> args;
  args.push_back(std::move(u.self));
  if (auto r = u.t.libraryCallTyped("ndarray.flags", "a.flags", std::move(args), u.loc)) return r;
  u.notSupported("array attribute 'flags' is not available (the library is missing)");
}

ExprPtr arrayUnsupportedAttribute(Use &u) { u.notSupported("array attribute '" + u.name + "' is not supported yet"); }

} // namespace mahou::sema
