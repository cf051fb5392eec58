// Calls of @vectorize ufuncs from compiled code: the loop is chosen as NumPy chooses
// it (the first whose input dtypes every argument casts to safely; a scalar next to
// arrays may also go to a type of its own kind or higher), or, for a dynamic ufunc,
// compiled for the arguments' dtypes; the call is elementwise over arrays with
// broadcasting (one fused map) and a plain call of the scalar function on numbers.
#include "typer.h"

namespace mahou::sema {

namespace {


// NumPy's can_cast(from, to, 'safe').
bool canCastSafely(DType from, DType to) { return from == to || types::promote(from, to) == to; }

bool loopTakes(const std::vector<DType> &loop, const std::vector<ExprPtr> &args, bool mixed) {
  for (size_t i = 0; i < args.size(); ++i) {
    DType d = args[i]->type.dtype, to = loop[i];
    if (canCastSafely(d, to)) continue;
    // A scalar among arrays is weak (NEP 50): it only needs a type of its kind or higher.
    if (mixed && !args[i]->type.isArray() && types::kindRank(d) <= types::kindRank(to)) continue;
    return false;
  }
  return true;
}

std::string dtypeList(const std::vector<ExprPtr> &args) {
  std::string s;
  for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + std::string(types::dtypeName(args[i]->type.dtype));
  return s;
}

} // namespace

ExprPtr FunctionTyper::ufuncCall(const UfuncCallee &uf, const std::string &fname, std::vector<ExprPtr> args, Loc loc) {
  if (int(args.size()) != uf.nin)
    error(loc, "ufunc '" + fname + "' takes " + std::to_string(uf.nin) + " argument" + (uf.nin == 1 ? "" : "s") +
                   " but " + std::to_string(args.size()) + " were given (an output argument is not supported "
                   "in compiled code)");
  for (auto &a : args)
    if (!a->type.isNumber() && !a->type.isArray())
      error(a->loc, "ufunc '" + fname + "' takes numbers and arrays, not " + a->type.str());
  bool mixed = anyArray(args);
  bool allArrays = true;
  for (auto &a : args) allArrays &= a->type.isArray();
  mixed &= !allArrays;

  std::vector<DType> loop;
  for (const auto &l : uf.loops)
    if (loopTakes(l, args, mixed)) {
      loop = l;
      break;
    }
  if (loop.empty()) {
    if (!uf.dynamic)
      error(loc, "ufunc '" + fname + "' has no loop for argument types (" + dtypeList(args) +
                     ") under the 'safe' casting rule");
    for (auto &a : args) loop.push_back(a->type.dtype);
  }

  std::vector<Type> inputs;
  for (int i = 0; i < uf.nin; ++i) inputs.push_back(Type::scalar(loop[size_t(i)]));
  std::string key = "ufunc;";
  for (auto &t : inputs) key += t.str() + ";";
  auto it = callees_.find({uf.scalarHandle, key});
  if (it == callees_.end()) {
    CalleeSignature sig;
    if (gpu_) {
      auto src = env_.calleeSource(uf.scalarHandle);
      if (!src || !sink_) notSupported(loc, "ufunc '" + fname + "' cannot be called in a CUDA kernel");
      sig = sink_->require(*src, inputs);
    } else {
      sig = env_.compileCallee(uf.scalarHandle, inputs);
    }
    if (sig.symbol.empty()) notSupported(loc, "ufunc '" + fname + "' calls the function that calls it");
    if (!sig.ret.isNumber()) error(loc, "ufunc '" + fname + "' returns " + sig.ret.str() + ", not a number");
    it = callees_.emplace(std::make_pair(uf.scalarHandle, key), sig).first;
  }
  const CalleeSignature sig = it->second;
  Type out = loop.size() > size_t(uf.nin) ? Type::scalar(loop[size_t(uf.nin)]) : sig.ret;
  if (sig.ret.isComplex() && !out.isComplex() && !out.isBool())
    error(loc, "ufunc '" + fname + "' gives complex values for a " + out.str() + " output");
  return elementwise(
      std::move(args),
      [&, sig, inputs, out](std::vector<ExprPtr> elems) {
        auto c = std::make_unique<ir::Expr>(ir::ExprOp::Call, sig.ret, loc);
        c->symbol = sig.symbol;
        for (size_t i = 0; i < elems.size(); ++i) c->args.push_back(ir::makeCast(std::move(elems[i]), inputs[i]));
        return ir::makeCast(std::move(c), out);
      },
      loc);
}

} // namespace mahou::sema
