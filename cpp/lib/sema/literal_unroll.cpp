// `for x in literal_unroll(t)` (a statement, or a loop of a comprehension): a loop over a
// tuple whose items may have different types. The body is typed once per item (a
// version), with the loop target bound to that version's own hidden variables; at run
// time one loop over the item indices runs the version of each index, so break,
// continue and else behave as in Python.
#include "typer.h"
#include "mahou/literal_dict_type.h"

namespace mahou::sema {

bool FunctionTyper::literalUnrollLoop(const ast::Expr &target, const ast::Expr &iter, Loc loc,
                                      const std::function<void(ir::Block &)> &body, const ast::Body *orelse,
                                      ir::Block &out) {
  const ast::Call *call = nullptr;
  if (loopForm(iter, &call) != LoopForm::LiteralUnroll) return false;
  checkKeywords(*call, {}, "literal_unroll");
  auto args = positionalArgs(*call, 1, 1, "literal_unroll");
  if (isUnknown(args[0])) {
    // Another pass follows; type the body with unknown targets so its variables are found.
    ++loopDepth_;
    assign(target, unknown(loc), loc, out);
    ir::Block scratch;
    body(scratch);
    --loopDepth_;
    return true;
  }
  if (types::isLiteralDict(args[0]->type)) args[0] = literalDictIterable(*this, std::move(args[0]), loc);
  const Type tt = args[0]->type;
  if (!tt.isTuple())
    notSupported(call->loc, "literal_unroll() needs a tuple, not " + tt.str());
  int tupleVar = tempVar(tt, loc);
  out.push_back(assignVar(tupleVar, std::move(args[0]), loc));
  size_t n = tt.elems.size();
  if (n == 0) {
    if (orelse) block(*orelse, out);
    return true;
  }
  int counter = tempVar(Type::int64(), loc);
  auto loop = std::make_unique<ir::Stmt>(ir::StmtOp::ForRange, loc);
  loop->var = counter;
  loop->exprs.push_back(ir::makeConst(Type::int64(), loc, 0));
  loop->exprs.push_back(ir::makeConst(Type::int64(), loc, int64_t(n)));
  loop->exprs.push_back(ir::makeConst(Type::int64(), loc, 1));
  std::vector<std::string> names;
  collectTargets(target, names);
  ++loopDepth_;
  ir::Block *chain = &loop->body; // if counter == 0: version 0 else if counter == 1: ...
  for (size_t i = 0; i < n; ++i) {
    // This version's variables for the loop target.
    std::vector<std::pair<std::string, int>> saved;
    for (auto &name : names) {
      int var = hiddenVar(name + "$unroll" + std::to_string(i));
      saved.emplace_back(name, varIndex_.at(name));
      varIndex_[name] = var;
    }
    auto branch = std::make_unique<ir::Stmt>(ir::StmtOp::If, loc);
    branch->exprs.push_back(compareOne(ast::CmpOpKind::Eq, load(counter, loc),
                                       ir::makeConst(Type::int64(), loc, int64_t(i)), loc));
    auto item = std::make_unique<ir::Expr>(ir::ExprOp::TupleGet, tt.elems[i], loc);
    item->ival = int64_t(i);
    item->args.push_back(load(tupleVar, loc));
    assign(target, std::move(item), loc, branch->body);
    body(branch->body);
    for (auto &[name, var] : saved) varIndex_[name] = var;
    chain->push_back(std::move(branch));
    chain = &static_cast<ir::Stmt &>(*chain->back()).orelse;
  }
  --loopDepth_;
  if (orelse) block(*orelse, loop->orelse);
  out.push_back(std::move(loop));
  return true;
}

} // namespace mahou::sema
