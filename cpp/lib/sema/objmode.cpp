// `with objmode(y='float64', ...):` blocks (ast.h ObjMode). The block's body runs in the
// interpreter: the environment makes a Python function of it (mahou/_objmode.py) taking
// the variables the body may read and returning its declared outputs. Here the
// context manager is checked, the inputs are the names the body may read that are
// variables holding a value of a type compiled code can box, and the block's value is
// its outputs, with the types declared (ObjModeCall: codegen calls the runtime).
#include "typer.h"

#include "mahou/versions.h"

namespace mahou::sema {

namespace {

// `objmode`, `numba.objmode`, `mahou.objmode`...: the global path of a name or attribute chain.
std::optional<std::string> globalPath(const ast::Expr &e) {
  if (auto *n = e.as<ast::Name>()) return n->id;
  if (auto *a = e.as<ast::Attribute>()) {
    auto base = globalPath(*a->value);
    if (base) return *base + "." + a->attr;
  }
  return std::nullopt;
}

} // namespace

bool FunctionTyper::isObjModeContext(const ast::Expr &fn) {
  auto path = globalPath(fn);
  if (!path || varIndex_.count(path->substr(0, path->find('.')))) return false;
  return global(*path).kind == GlobalValue::Kind::ObjMode;
}

ExprPtr FunctionTyper::objModeBlock(const ast::ObjMode &e) {
  const ast::Call *call = e.context->as<ast::Call>();
  const ast::Expr &fn = call ? *call->func : *e.context;
  if (!isObjModeContext(fn))
    notSupported(e.loc, "'with' statements are supported only for objmode blocks "
                        "(with objmode(x='float64'): ... runs its body in the interpreter)");
  if (gpu_) notSupported(e.loc, "objmode blocks are not supported in CUDA kernels and device functions");
  if (options_.objectOnly) notSupported(e.loc, "an objmode block cannot be compiled ahead of time (it runs in the interpreter)");
  if (call && !call->args.empty())
    error(call->args[0]->loc, "objmode() takes the outputs' types as keyword arguments only: objmode(x='float64')");

  // The inputs: variables with a value compiled code can pass to the interpreter.
  ObjModeRequest request;
  request.line = e.loc.line;
  request.outputs = e.outputs;
  std::vector<ExprPtr> values;
  std::vector<Type> types;
  std::string key = std::to_string(e.loc.line) + ":" + std::to_string(e.loc.col);
  for (const ast::ExprPtr &input : e.inputs) {
    const std::string &name = input->as<ast::Name>()->id;
    auto it = varIndex_.find(name);
    if (it == varIndex_.end()) continue; // a global, a builtin or a name of the block's own
    const Type &t = vars_[it->second].type;
    if (t.containsUnknown() || isCompileTimeOnly(t) || t.kind == Kind::Function) continue;
    std::string user = frontend::userName(name);
    request.inputs.emplace_back(user, t);
    values.push_back(load(it->second, e.loc));
    types.push_back(t);
    key += " " + user + ":" + t.str();
  }
  auto found = objModeBlocks_.find(key);
  if (found == objModeBlocks_.end()) {
    std::optional<ObjModeBlock> block = env_.objModeBlock(request);
    if (!block) notSupported(e.loc, "objmode blocks need the Python interpreter (they are not compiled here)");
    if (!block->error.empty()) error(e.loc, block->error);
    if (block->outputs.size() != e.outputs.size()) internalError("objmode block: one type per output expected");
    found = objModeBlocks_.emplace(key, std::move(*block)).first;
  }
  const ObjModeBlock &block = found->second;

  Type result = block.outputs.empty()       ? Type::none()
                : block.outputs.size() == 1 ? block.outputs[0]
                                            : Type::tuple(block.outputs);
  auto inputs = std::make_unique<ir::Expr>(ir::ExprOp::TupleMake, Type::tuple(std::move(types)), e.loc);
  inputs->args = std::move(values);
  auto out = std::make_unique<ir::Expr>(ir::ExprOp::ObjModeCall, result, e.loc);
  out->ival = int64_t(block.handle);
  out->args.push_back(std::move(inputs));
  return out;
}

} // namespace mahou::sema
