// Lowering of `random` expressions to the runtime: the draws of random_distributions.def
// (np.random's from this thread's state, Generator's from its bitgen_t), the checks of
// their parameters, seeding, randint, the random module's functions, and Generator's
// bounded integers and shuffle. Functions that can fail return a status (checkStatus).
#include "lowering.h"

#include "mahou/random_distributions.h"

namespace mahou::codegen {

llvm::Value *FunctionLowering::randomDraw(const ir::Expr &e) {
  llvm::Type *ptr = llvm::PointerType::get(b_.getContext(), 0);
  llvm::Type *i32 = b_.getInt32Ty(), *f64 = b_.getDoubleTy();
  auto none = [&] { return llvm::Constant::getNullValue(types_.ssa(Type::none())); };
  // A call returning a status and its result through a pointer.
  auto withOut = [&](const char *fn, llvm::Type *ret, std::vector<llvm::Type *> types, std::vector<llvm::Value *> args) {
    llvm::Value *out = entryAlloca(ret, "random.out");
    types.push_back(ptr);
    args.push_back(out);
    checkStatus(b_.CreateCall(runtimeFn(fn, i32, types), args));
    return b_.CreateLoad(ret, out);
  };
  auto scalars = [&](size_t from, std::vector<llvm::Type *> &types, std::vector<llvm::Value *> &args) {
    for (size_t i = from; i < e.args.size(); ++i) {
      args.push_back(scalarExpr(*e.args[i]));
      types.push_back(args.back()->getType());
    }
  };
  auto bitgenOf = [&](const ir::Expr &g) { return b_.CreateExtractValue(expr(g).v, 0); };

  switch (ir::RandomKind(e.sub)) {
  case ir::RandomKind::Draw: {
    const random::DistInfo &d = random::distInfo(random::Dist(e.ival));
    std::vector<llvm::Type *> types;
    std::vector<llvm::Value *> args;
    size_t from = 0;
    if (d.family == random::Family::Gen) {
      args.push_back(bitgenOf(*e.args[0]));
      types.push_back(ptr);
      from = 1;
    }
    scalars(from, types, args);
    if (d.family == random::Family::Legacy)
      if (llvm::Value *v = inlineLegacyDraw(d.id, args)) return v;
    return b_.CreateCall(runtimeFn(d.symbol, types_.ssa(e.type), types), args);
  }
  case ir::RandomKind::Check: {
    llvm::Value *v = scalarExpr(*e.args[0]);
    bool isInt = e.args[0]->type.isInt();
    const char *fn = isInt ? "mahou_rt_random_check_int" : "mahou_rt_random_check";
    checkStatus(b_.CreateCall(runtimeFn(fn, i32, {i32, v->getType(), ptr}),
                              {b_.getInt32(int32_t(e.ival)), v, stringConstant(e.symbol)}));
    return none();
  }
  case ir::RandomKind::NpSeed:
    checkStatus(b_.CreateCall(runtimeFn("mahou_rt_np_seed", i32, {i64()}), {scalarExpr(*e.args[0])}));
    return none();
  case ir::RandomKind::NpSeedEntropy:
    b_.CreateCall(runtimeFn("mahou_rt_np_seed_entropy", b_.getVoidTy(), {}));
    return none();
  case ir::RandomKind::NpInteger:
    return b_.CreateCall(runtimeFn("mahou_rt_np_randint", i64(), {i64(), i64()}),
                         {scalarExpr(*e.args[0]), scalarExpr(*e.args[1])});
  case ir::RandomKind::PySeed:
    b_.CreateCall(runtimeFn("mahou_rt_py_seed", b_.getVoidTy(), {i64(), i32}),
                  {scalarExpr(*e.args[0]), b_.getInt32(int32_t(e.ival))});
    return none();
  case ir::RandomKind::PySeedEntropy:
    b_.CreateCall(runtimeFn("mahou_rt_py_seed_entropy", b_.getVoidTy(), {}));
    return none();
  case ir::RandomKind::PyRandom: return b_.CreateCall(runtimeFn("mahou_rt_py_random", f64, {}));
  case ir::RandomKind::PyGetrandbits: return withOut("mahou_rt_py_getrandbits", i64(), {i64()}, {scalarExpr(*e.args[0])});
  case ir::RandomKind::PyRandrange: {
    std::vector<llvm::Value *> args;
    for (auto &a : e.args) args.push_back(scalarExpr(*a));
    args.push_back(b_.getInt32(int32_t(e.ival)));
    return withOut("mahou_rt_py_randrange", i64(), {i64(), i64(), i64(), i32}, args);
  }
  case ir::RandomKind::PyRandint:
    return withOut("mahou_rt_py_randint", i64(), {i64(), i64()}, {scalarExpr(*e.args[0]), scalarExpr(*e.args[1])});
  case ir::RandomKind::PyGauss:
  case ir::RandomKind::PyNormalvariate: {
    const char *fn = ir::RandomKind(e.sub) == ir::RandomKind::PyGauss ? "mahou_rt_py_gauss" : "mahou_rt_py_normalvariate";
    return b_.CreateCall(runtimeFn(fn, f64, {f64, f64}), {scalarExpr(*e.args[0]), scalarExpr(*e.args[1])});
  }
  case ir::RandomKind::GenBounded64:
  case ir::RandomKind::GenBounded32: {
    bool wide = ir::RandomKind(e.sub) == ir::RandomKind::GenBounded64;
    llvm::Type *word = wide ? i64() : i32;
    llvm::Value *bitgen = bitgenOf(*e.args[0]);
    llvm::Value *off = scalarExpr(*e.args[1]), *rng = scalarExpr(*e.args[2]);
    return b_.CreateCall(runtimeFn(wide ? "mahou_rt_gen_bounded64" : "mahou_rt_gen_bounded32", word, {ptr, word, word}),
                         {bitgen, off, rng});
  }
  case ir::RandomKind::GenShuffle: {
    llvm::Value *bitgen = bitgenOf(*e.args[0]);
    const Type &at = e.args[1]->type;
    Value arr = expr(*e.args[1]);
    b_.CreateCall(runtimeFn("mahou_rt_gen_shuffle", b_.getVoidTy(), {ptr, ptr, i64(), i64(), i64()}),
                  {bitgen, arrayData(arr.v), arrayShape(arr.v, 0), arrayStride(arr.v, 0),
                   b_.getInt64(types::dtypeBytes(at.dtype))});
    release(arr, at);
    return none();
  }
  }
  internalError("unhandled random expression");
}

} // namespace mahou::codegen
