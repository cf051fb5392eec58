// Dict keys and set items that hash and compare by compiled code: @jitclass instances,
// through their class's __hash__ and __eq__ (identity without __eq__), as in Numba.
// Each keyed operation gets, as its last operand, a `dict.keyops` expression holding
// hash(k) and `stored == k` over two hidden variables; codegen (codegen/instance_keys.cpp)
// runs the table's probe loop with them, so a lookup calls the compiled methods directly
// and the table itself stores only the hashes (it never points into compiled code).
#include "typer.h"

#include "mahou/jitclass.h"

namespace mahou::sema {

using ObjectOp = ir::ObjectOp;

namespace {

bool takesKey(ObjectOp op) {
  switch (op) {
  case ObjectOp::DictGet:
  case ObjectOp::DictSet:
  case ObjectOp::DictContains:
  case ObjectOp::DictDelItem:
  case ObjectOp::DictGetDefault:
  case ObjectOp::DictSetDefault:
  case ObjectOp::DictPop:
  case ObjectOp::DictPopDefault:
  case ObjectOp::SetAdd:
  case ObjectOp::SetContains:
  case ObjectOp::SetRemove:
  case ObjectOp::SetDiscard: return true;
  default: return false;
  }
}

// Operations between two tables, which look the keys of one up in the other (the
// needle is then the other's key, its hash the stored one).
bool combinesTables(ObjectOp op) {
  switch (op) {
  case ObjectOp::DictUpdate:
  case ObjectOp::SetUpdate:
  case ObjectOp::DictEqual:
  case ObjectOp::SetEqual:
  case ObjectOp::SetSubset:
  case ObjectOp::SetCombine: return true;
  default: return false;
  }
}

} // namespace

bool keyedByCode(const Typing &t, const Type &table) {
  return (table.isDict() || table.isSet()) && !table.elems.empty() && table.elems[0].isInstance();
}

ExprPtr instanceKeyed(Typing &t, ExprPtr e) {
  auto op = ObjectOp(e->sub);
  if (e->args.empty() || !keyedByCode(t, e->args[0]->type)) return e;
  Loc loc = e->loc;
  if (op == ObjectOp::DictEqual)
    t.notSupported(loc, "== of dicts keyed by " + e->args[0]->type.elems[0].str() +
                          " is not supported (keys compared by __eq__); compare their items in a loop");
  bool tables = combinesTables(op);
  if (!takesKey(op) && !tables) return e;
  const Type kt = e->args[0]->type.elems[0];
  // The probe loop reads its operands again: each is evaluated once, in order, into a
  // hidden variable (a variable's value is read in place).
  std::vector<std::pair<int, ExprPtr>> bindings;
  for (auto &a : e->args) {
    if (a->op == ir::ExprOp::LoadVar) continue;
    int var = t.tempVar(a->type, loc);
    bindings.emplace_back(var, std::move(a));
    a = t.load(var, loc);
  }
  const Type &operand = e->args[1]->type;
  if (tables ? operand != e->args[0]->type : operand != kt)
    t.notSupported(loc, std::string(ir::objectOpName(op)) + " of " + operand.str() + " and a table keyed by " + kt.str());
  int needle = t.tempVar(kt, loc), stored = t.tempVar(kt, loc);
  ExprPtr hash = hashOf(t, t.load(needle, loc), loc);
  ExprPtr lhs = t.load(stored, loc), rhs = t.load(needle, loc);
  ExprPtr eq = t.compareOne(ast::CmpOpKind::Eq, std::move(lhs), std::move(rhs), loc);
  if (t.isUnknown(hash) || t.isUnknown(eq)) return t.unknown(loc);
  std::vector<ExprPtr> ops;
  ops.push_back(std::move(hash));
  ops.push_back(t.truth(std::move(eq)));
  ops.push_back(t.load(needle, loc));
  ops.push_back(t.load(stored, loc));
  auto keyOps = std::make_unique<ir::Expr>(ir::ExprOp::Object, Type::none(), loc);
  keyOps->sub = int(ObjectOp::DictKeyOps);
  keyOps->args = std::move(ops);
  e->args.push_back(std::move(keyOps));
  return t.wrapBindings(std::move(bindings), std::move(e), loc);
}

// A @jitclass key hashes through its __hash__ (hashOf refuses a class without one, and
// one that defines __eq__ alone, as Python does).
bool instanceHashable(Typing &t, const Type &item, Loc loc) {
  if (!item.isInstance()) return false;
  const JitClassInfo &c = t.jitClassOf(item, loc);
  if (!c.method("__hash__")) {
    if (c.method("__eq__")) t.error(loc, "unhashable type: '" + c.name + "' (it defines __eq__ without __hash__)");
    t.error(loc, "unhashable type: '" + c.name +
                   "' (a @jitclass is a dict key or set item when its class defines __hash__, as in Numba)");
  }
  return true;
}

} // namespace mahou::sema
