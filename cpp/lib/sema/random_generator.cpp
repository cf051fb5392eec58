// Typing of np.random.Generator methods in compiled code (a Generator passed in as an
// argument): random, uniform, integers, standard_normal, normal, standard_exponential,
// exponential, as scalars or arrays of a given size, and shuffle/permutation of 1-D arrays. Each draw is a `random` expression
// on the generator (codegen/random.cpp, runtime/random_generator.cpp), which consumes
// the bit generator's stream as NumPy's method does; parameters are checked before
// anything is drawn, as NumPy checks them. Every other method is a TypingError.
#include "typer.h"
#include "sema/typers.h"

namespace mahou::sema {

ExprPtr randomGeneratorMethodTyper(Use &u) {
  return typerOf(u.t).randomGeneratorMethod(std::move(u.self), u.name, *u.call);
}

ExprPtr randomGeneratorAttribute(Use &u) {
  u.error("np.random.Generator attribute '" + u.name + "' is not supported in compiled code");
}

namespace {

ExprPtr draw(ir::RandomKind kind, Type t, ExprPtr gen, Loc loc) {
  auto r = std::make_unique<ir::Expr>(ir::ExprOp::Random, std::move(t), loc);
  r->sub = int(kind);
  r->args.push_back(std::move(gen));
  return r;
}

ir::Stmt &raiseIf(ExprPtr cond, const std::string &message, ir::Block &stmts, Loc loc,
                  types::ExcKind exc = types::ExcKind::ValueError) {
  auto check = std::make_unique<ir::Stmt>(ir::StmtOp::If, loc);
  check->exprs.push_back(std::move(cond));
  auto r = std::make_unique<ir::Stmt>(ir::StmtOp::Raise, loc);
  r->exc = exc;
  r->text = message;
  check->body.push_back(std::move(r));
  stmts.push_back(std::move(check));
  return *stmts.back();
}

bool isNone(const ast::Expr *e) { return !e || e->kind == ast::ExprKind::NoneLit; }

} // namespace

ExprPtr FunctionTyper::randomGeneratorMethod(ExprPtr gen, const std::string &name, const ast::Call &e) {
  Loc loc = e.loc;
  const std::string fname = "Generator." + name;
  requireHost(loc, fname + "()");
  if (name == "shuffle" || name == "permutation") return randomShuffle(std::move(gen), name, e);
  auto param = [&](size_t pos, const char *kw) -> const ast::Expr * {
    if (e.args.size() > pos) return e.args[pos].get();
    return keyword(e, kw);
  };
  auto maxArgs = [&](size_t n) {
    if (e.args.size() > n) error(loc, fname + "() takes at most " + std::to_string(n) + " positional arguments");
  };
  auto floatDtype = [&](const ast::Expr *d) {
    if (isNone(d)) return DType::Float64;
    auto dt = dtypeArgument(*d);
    if (!dt || (*dt != DType::Float64 && *dt != DType::Float32))
      error(d->loc, fname + "() supports dtype float64 or float32");
    return *dt;
  };
  auto real = [&](const ast::Expr *a, double dflt) -> ExprPtr {
    if (isNone(a)) return ir::makeConst(Type::float64(), loc, 0, dflt);
    ExprPtr v = expr(*a);
    if (isUnknown(v)) return v;
    if (!v->type.isNumber() || v->type.isComplex()) error(a->loc, fname + "() parameters must be real numbers");
    return ir::makeCast(std::move(v), Type::float64());
  };

  // The method's scalar parameters, its element draw and the checks made before drawing.
  std::vector<ExprPtr> params;
  const ast::Expr *sizeE = nullptr;
  DType dt = DType::Float64;
  enum class Shape { Draw, Affine, Scaled, Integer } shape = Shape::Draw; // how parameters apply
  ir::RandomKind kind;
  bool endpoint = false;
  if (name == "random" || name == "standard_normal" || name == "standard_exponential") {
    checkKeywords(e, {"size", "dtype"}, fname);
    maxArgs(2);
    sizeE = param(0, "size");
    dt = floatDtype(param(1, "dtype"));
    bool f32 = dt == DType::Float32;
    kind = name == "random"            ? (f32 ? ir::RandomKind::GenFloat : ir::RandomKind::GenDouble)
           : name == "standard_normal" ? (f32 ? ir::RandomKind::GenNormalF : ir::RandomKind::GenNormal)
                                       : (f32 ? ir::RandomKind::GenExpF : ir::RandomKind::GenExp);
  } else if (name == "uniform" || name == "normal") {
    bool normal = name == "normal";
    const char *k0 = normal ? "loc" : "low", *k1 = normal ? "scale" : "high";
    checkKeywords(e, {k0, k1, "size"}, fname);
    maxArgs(3);
    params.push_back(real(param(0, k0), 0.0));
    params.push_back(real(param(1, k1), 1.0));
    sizeE = param(2, "size");
    kind = normal ? ir::RandomKind::GenNormal : ir::RandomKind::GenDouble;
    shape = Shape::Affine;
  } else if (name == "exponential") {
    checkKeywords(e, {"scale", "size"}, fname);
    maxArgs(2);
    params.push_back(real(param(0, "scale"), 1.0));
    sizeE = param(1, "size");
    kind = ir::RandomKind::GenExp;
    shape = Shape::Scaled;
  } else if (name == "integers") {
    checkKeywords(e, {"low", "high", "size", "dtype", "endpoint"}, fname);
    maxArgs(5);
    const ast::Expr *lowE = param(0, "low"), *highE = param(1, "high");
    if (isNone(lowE)) error(loc, fname + "() needs low");
    const ast::Expr *d = param(3, "dtype");
    if (!isNone(d)) {
      auto t = dtypeArgument(*d);
      if (!t || (*t != DType::Int64 && *t != DType::Int32 && *t != DType::UInt64 && *t != DType::UInt32))
        notSupported(d->loc, fname + "() supports dtype int64, int32, uint64 or uint32 in compiled code");
      dt = *t;
    } else {
      dt = DType::Int64;
    }
    if (const ast::Expr *ep = param(4, "endpoint")) {
      auto *b = ep->as<ast::BoolLit>();
      if (!b) notSupported(ep->loc, fname + "() needs endpoint as a literal True or False");
      endpoint = b->value;
    }
    auto bound = [&](const ast::Expr *a) -> ExprPtr {
      ExprPtr v = expr(*a);
      if (isUnknown(v)) return v;
      if (!v->type.isInt() && !v->type.isBool()) error(a->loc, fname + "() bounds must be integers");
      return ir::makeCast(std::move(v), Type::int64());
    };
    if (isNone(highE)) { // integers(high): [0, high)
      params.push_back(ir::makeConst(Type::int64(), loc, 0));
      params.push_back(bound(lowE));
    } else {
      params.push_back(bound(lowE));
      params.push_back(bound(highE));
    }
    sizeE = param(2, "size");
    kind = types::dtypeBits(dt) == 64 ? ir::RandomKind::GenBounded64 : ir::RandomKind::GenBounded32;
    shape = Shape::Integer;
  } else {
    error(loc, "np.random.Generator." + name + "() is not supported in compiled code");
  }
  for (auto &p : params)
    if (isUnknown(p)) return unknown(loc);
  std::vector<ExprPtr> dims;
  bool array = !isNone(sizeE);
  if (array) dims = shapeArgument(*sizeE);
  for (auto &d : dims)
    if (isUnknown(d)) return unknown(loc);
  if (isUnknown(gen)) return unknown(loc);

  // Parameters are evaluated once, into temporaries, and checked before any draw.
  auto stmts = std::make_shared<ir::Block>();
  std::vector<int> vars;
  for (auto &p : params) vars.push_back(holdInTemp(std::move(p), loc, *stmts));
  auto ld = [&](size_t i) { return load(vars[i], loc); };
  Type u64 = Type::scalar(DType::UInt64);
  auto cu = [&](uint64_t v) { return ir::makeConst(u64, loc, int64_t(v)); };
  auto f64 = [&](double v) { return ir::makeConst(Type::float64(), loc, 0, v); };
  // NumPy's non-negative constraint: the sign bit set on a number that is not NaN (-0.0 too).
  auto raiseIfNegative = [&](int var, const std::string &message) {
    std::vector<ExprPtr> a;
    a.push_back(f64(1.0));
    a.push_back(load(var, loc));
    ExprPtr sign = intrinsic(ir::Intrinsic::Copysign, Type::float64(), std::move(a), loc);
    auto outer = std::make_unique<ir::Stmt>(ir::StmtOp::If, loc);
    outer->exprs.push_back(compareOne(ast::CmpOpKind::Lt, std::move(sign), f64(0.0), loc));
    raiseIf(compareOne(ast::CmpOpKind::Eq, load(var, loc), load(var, loc), loc), message, outer->body, loc);
    stmts->push_back(std::move(outer));
  };
  if (shape == Shape::Affine && kind == ir::RandomKind::GenNormal) raiseIfNegative(vars[1], "scale < 0");
  if (shape == Shape::Scaled) raiseIfNegative(vars[0], "scale < 0");
  if (shape == Shape::Affine && kind == ir::RandomKind::GenDouble) {
    // uniform: the width high - low, finite and not negative; a draw is low + width * u.
    int width = holdInTemp(binary(ast::BinOpKind::Sub, ld(1), ld(0), loc), loc, *stmts);
    raiseIf(compareOne(ast::CmpOpKind::NotEq, binary(ast::BinOpKind::Sub, load(width, loc), load(width, loc), loc), f64(0.0), loc),
            "high - low range exceeds valid bounds", *stmts, loc, types::ExcKind::OverflowError);
    raiseIfNegative(width, "high - low < 0");
    vars[1] = width;
  }
  int offVar = -1, rngVar = -1;
  if (shape == Shape::Integer) {
    // NumPy's checks, in its order, on the closed interval [low, high - !endpoint].
    std::string nptype = types::dtypeName(dt);
    int64_t lb = 0, ub = 0; // for the 32-bit dtypes
    bool isSignedDt = types::isSigned(dt);
    if (dt == DType::Int32) lb = INT32_MIN, ub = INT32_MAX;
    if (dt == DType::UInt32) lb = 0, ub = UINT32_MAX;
    auto c64 = [&](int64_t v) { return ir::makeConst(Type::int64(), loc, v); };
    if (!isSignedDt || dt == DType::Int32)
      raiseIf(compareOne(ast::CmpOpKind::Lt, ld(0), c64(lb), loc), "low is out of bounds for " + nptype, *stmts, loc);
    if (dt == DType::Int32 || dt == DType::UInt32) // closed high > ub
      raiseIf(compareOne(ast::CmpOpKind::Gt, ld(1), c64(endpoint ? ub : ub + 1), loc), "high is out of bounds for " + nptype, *stmts, loc);
    // An empty interval: high <= low (open) or high < low (closed); NumPy words it by low == 0.
    auto empty = [&] { return compareOne(endpoint ? ast::CmpOpKind::Lt : ast::CmpOpKind::LtE, ld(1), ld(0), loc); };
    auto lowZero = [&] { return compareOne(ast::CmpOpKind::Eq, ld(0), c64(0), loc); };
    {
      auto check = std::make_unique<ir::Stmt>(ir::StmtOp::If, loc);
      check->exprs.push_back(empty());
      raiseIf(lowZero(), endpoint ? "high < 0" : "high <= 0", check->body, loc);
      auto r = std::make_unique<ir::Stmt>(ir::StmtOp::Raise, loc);
      r->exc = types::ExcKind::ValueError;
      r->text = endpoint ? "low > high" : "low >= high";
      check->body.push_back(std::move(r));
      stmts->push_back(std::move(check));
    }
    // off = low, rng = closed high - low, both as unsigned 64-bit words.
    ExprPtr off = ir::makeCast(ld(0), u64);
    ExprPtr rng = binary(ast::BinOpKind::Sub, ir::makeCast(ld(1), u64), ir::makeCast(ld(0), u64), loc);
    if (!endpoint) rng = binary(ast::BinOpKind::Sub, std::move(rng), cu(1), loc);
    if (kind == ir::RandomKind::GenBounded32) {
      Type u32 = Type::scalar(DType::UInt32);
      off = ir::makeCast(std::move(off), u32);
      rng = ir::makeCast(std::move(rng), u32);
    }
    offVar = holdInTemp(std::move(off), loc, *stmts);
    rngVar = holdInTemp(std::move(rng), loc, *stmts);
  }

  // One draw, from the generator (read again for each draw) and the parameters.
  return bindOnce(std::move(gen), [&](const std::function<ExprPtr()> &reload) -> ExprPtr {
    auto one = [&]() -> ExprPtr {
      switch (shape) {
      case Shape::Draw: return draw(kind, Type::scalar(dt), reload(), loc);
      case Shape::Affine: { // low + (high - low) * u, loc + scale * z
        ExprPtr x = draw(kind, Type::float64(), reload(), loc);
        return binary(ast::BinOpKind::Add, ld(0), binary(ast::BinOpKind::Mult, ld(1), std::move(x), loc), loc);
      }
      case Shape::Scaled: return binary(ast::BinOpKind::Mult, ld(0), draw(kind, Type::float64(), reload(), loc), loc);
      case Shape::Integer: {
        Type raw = Type::scalar(kind == ir::RandomKind::GenBounded64 ? DType::UInt64 : DType::UInt32);
        ExprPtr x = draw(kind, raw, reload(), loc);
        x->args.push_back(load(offVar, loc));
        x->args.push_back(load(rngVar, loc));
        return ir::makeCast(std::move(x), Type::scalar(dt));
      }
      }
      internalError("unhandled generator draw");
    };
    ExprPtr value;
    if (!array) {
      value = one();
    } else {
      DType elem = shape == Shape::Draw ? dt : shape == Shape::Integer ? dt : DType::Float64;
      auto alloc = std::make_unique<ir::Expr>(ir::ExprOp::ArrayAlloc, Type::array(elem, int(dims.size()), types::Layout::C), loc);
      alloc->sub = int(ir::AllocKind::Empty);
      alloc->args = std::move(dims);
      std::vector<ExprPtr> operands;
      operands.push_back(std::move(alloc));
      value = elementwise(std::move(operands), [&](std::vector<ExprPtr>) { return one(); }, loc);
    }
    return seqExpr(stmts, std::move(value), loc);
  });
}

// shuffle(x) of a 1-D array in place, permutation(n) / permutation(x) of a 1-D copy:
// NumPy's Fisher-Yates from the last item down, each index from random_interval.
ExprPtr FunctionTyper::randomShuffle(ExprPtr gen, const std::string &name, const ast::Call &e) {
  Loc loc = e.loc;
  const std::string fname = "Generator." + name;
  checkKeywords(e, {"x", "axis"}, fname);
  if (e.args.size() > 2) error(loc, fname + "() takes at most 2 positional arguments");
  const ast::Expr *xE = e.args.empty() ? keyword(e, "x") : e.args[0].get();
  if (!xE) error(loc, fname + "() needs x");
  if (const ast::Expr *axis = e.args.size() > 1 ? e.args[1].get() : keyword(e, "axis")) {
    auto *i = axis->as<ast::IntLit>();
    if (!i || i->value != 0) notSupported(axis->loc, fname + "() supports only axis=0 in compiled code");
  }
  ExprPtr x = expr(*xE);
  if (isUnknown(x) || isUnknown(gen)) return unknown(loc);
  bool permutation = name == "permutation";
  if (permutation && (x->type.isInt() || x->type.isBool())) { // np.arange(x)
    auto a = std::make_unique<ir::Expr>(ir::ExprOp::ArrayArange, Type::array(DType::Int64, 1, types::Layout::C), loc);
    a->args.push_back(ir::makeConst(Type::int64(), loc, 0));
    a->args.push_back(ir::makeCast(std::move(x), Type::int64()));
    a->args.push_back(ir::makeConst(Type::int64(), loc, 1));
    x = std::move(a);
  } else {
    if (!x->type.isArray()) notSupported(xE->loc, fname + "() of " + x->type.str() + " is not supported in compiled code (a 1-D array" + (permutation ? " or an int)" : ")"));
    if (x->type.ndim != 1) notSupported(xE->loc, fname + "() of a " + std::to_string(x->type.ndim) + "-D array is not supported in compiled code (1-D only)");
    if (!permutation && x->type.readonly) error(xE->loc, fname + "() of a read-only array");
    if (permutation) {
      const Type &t = x->type;
      auto c = std::make_unique<ir::Expr>(ir::ExprOp::ArrayCopy, Type::array(t.dtype, 1, types::Layout::C), loc);
      c->args.push_back(std::move(x));
      x = std::move(c);
    }
  }
  return bindOnce(std::move(gen), [&](const std::function<ExprPtr()> &reloadGen) -> ExprPtr {
    auto shuffle = [&](ExprPtr arr) {
      ExprPtr s = draw(ir::RandomKind::GenShuffle, Type::none(), reloadGen(), loc);
      s->args.push_back(std::move(arr));
      return s;
    };
    if (!permutation) return shuffle(std::move(x));
    return bindOnce(std::move(x), [&](const std::function<ExprPtr()> &reloadArr) -> ExprPtr {
      auto stmts = std::make_shared<ir::Block>();
      auto s = std::make_unique<ir::Stmt>(ir::StmtOp::Eval, loc);
      s->exprs.push_back(shuffle(reloadArr()));
      stmts->push_back(std::move(s));
      return seqExpr(stmts, reloadArr(), loc);
    });
  });
}

} // namespace mahou::sema
