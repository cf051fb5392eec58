// Lowering of the keyed dict and set operations whose keys hash and compare by compiled
// code (@jitclass instances; sema/instance_keys.cpp): the key's hash from its __hash__,
// then the table's probe sequence walked through the runtime (mahou_rt_dict_probe_next
// gives each live entry of the same hash), each candidate compared by identity and
// then by __eq__ (stored == key, as CPython compares), inline. A hit is re-checked
// before it is used, since __eq__ may have changed the table; then the operation works
// on the entry (value address, mahou_rt_dict_remove_entry) and a new key is added with
// its hash (mahou_rt_dict_insert_hashed). Operands are hidden variables (borrowed).
#include "lowering.h"

#include "mahou/objects.h"

namespace mahou::codegen {

using ObjectOp = ir::ObjectOp;

namespace {

// "P" of a @jitclass type printed as instance.jitclass.P#hash (for KeyError messages).
std::string className(const Type &t) {
  std::string s = t.str();
  auto dot = s.find("jitclass.");
  if (dot != std::string::npos) s = s.substr(dot + 9);
  return s.substr(0, s.find('#'));
}

} // namespace

Value FunctionLowering::codeKeyedOp(const ir::Expr &e) {
  auto op = ObjectOp(e.sub);
  const ir::Expr &ops = *e.args.back();
  auto *ptr = b_.getPtrTy();
  auto *i32 = b_.getInt32Ty();
  const Type &tt = e.args[0]->type;
  const Type kt = tt.elems[0];
  const Type vt = tt.isDict() ? tt.elems[1] : Type::none();
  llvm::Value *table = expr(*e.args[0]).v; // hidden variables: borrowed
  llvm::Value *key = expr(*e.args[1]).v;
  storeVar(ops.args[2]->var, {key, false});
  llvm::Value *hash = expr(*ops.args[0]).v;

  // The probe: `found` with the entry and its key's address, or `missing`.
  llvm::Value *state = entryAlloca(llvm::ArrayType::get(i64(), 2), "probe.state");
  auto *restart = newBlock("probe.start");
  auto *next = newBlock("probe.next");
  auto *candidate = newBlock("probe.candidate");
  auto *compare = newBlock("probe.eq");
  auto *check = newBlock("probe.check");
  auto *found = newBlock("probe.found");
  auto *missing = newBlock("probe.missing");
  auto *voidT = b_.getVoidTy();
  b_.CreateBr(restart);
  b_.SetInsertPoint(restart);
  b_.CreateCall(runtimeFn("mahou_rt_dict_probe_begin", voidT, {ptr, i64(), ptr}), {table, hash, state});
  b_.CreateBr(next);
  b_.SetInsertPoint(next);
  llvm::Value *ix = b_.CreateCall(runtimeFn("mahou_rt_dict_probe_next", i64(), {ptr, i64(), ptr}), {table, hash, state});
  b_.CreateCondBr(b_.CreateICmpSLT(ix, c64(0)), missing, candidate);
  b_.SetInsertPoint(candidate);
  auto entryKey = runtimeFn("mahou_rt_dict_entry_key", ptr, {ptr, i64()});
  llvm::Value *storedAt = b_.CreateCall(entryKey, {table, ix});
  llvm::Value *stored = fromMem(b_.CreateLoad(types_.mem(kt), storedAt), kt);
  b_.CreateCondBr(b_.CreateICmpEQ(stored, key), found, compare); // the same object: equal
  b_.SetInsertPoint(compare);
  storeVar(ops.args[3]->var, {stored, false}); // held while __eq__ runs
  llvm::Value *equal = expr(*ops.args[1]).v;
  b_.CreateCondBr(equal, check, next);
  // __eq__ may have changed the table: the hit stands while entry ix still holds that key.
  b_.SetInsertPoint(check);
  llvm::Value *againAt = b_.CreateCall(entryKey, {table, ix});
  auto *same = newBlock("probe.same");
  b_.CreateCondBr(b_.CreateIsNull(againAt), restart, same);
  b_.SetInsertPoint(same);
  llvm::Value *again = fromMem(b_.CreateLoad(types_.mem(kt), againAt), kt);
  llvm::Value *held = b_.CreateLoad(slots_[ops.args[3]->var]->getAllocatedType(), slots_[ops.args[3]->var]);
  b_.CreateCondBr(b_.CreateICmpEQ(again, held), found, restart);

  b_.SetInsertPoint(found);
  auto *foundIx = b_.CreatePHI(i64(), 2, "entry");
  foundIx->addIncoming(ix, candidate);
  foundIx->addIncoming(ix, same);
  auto *foundAt = b_.CreatePHI(ptr, 2, "entry.key");
  foundAt->addIncoming(storedAt, candidate);
  foundAt->addIncoming(againAt, same);
  auto valueAt = [&] {
    return b_.CreateCall(runtimeFn("mahou_rt_dict_value_of_key", ptr, {ptr, ptr}), {table, foundAt});
  };
  auto loadOwned = [&](llvm::Value *at, const Type &t) {
    llvm::Value *x = fromMem(b_.CreateLoad(types_.mem(t), at), t);
    if (t.hasRefs()) incref(x, t);
    return Value{x, t.hasRefs()};
  };
  auto keyError = [&] {
    raise(types::ExcKind::KeyError, "<" + className(kt) + " object>");
    b_.CreateUnreachable(); // the dead block raise() leaves
  };
  auto removeEntry = [&](llvm::Value *valueOut) {
    auto fn = runtimeFn("mahou_rt_dict_remove_entry", voidT, {ptr, i64(), ptr, ptr});
    b_.CreateCall(fn, {table, foundIx, llvm::ConstantPointerNull::get(ptr),
                       valueOut ? valueOut : llvm::ConstantPointerNull::get(ptr)});
  };
  // A new entry: key and value owned by the table.
  auto insert = [&](llvm::Value *valueSlot) {
    llvm::Value *keySlot = spill(own({key, false}, kt), kt);
    auto fn = runtimeFn("mahou_rt_dict_insert_hashed", i32, {ptr, ptr, ptr, i64()});
    checkStatus(b_.CreateCall(fn, {table, keySlot, valueSlot ? valueSlot : llvm::ConstantPointerNull::get(ptr), hash}));
  };
  auto noneValue = Value{llvm::Constant::getNullValue(types_.ssa(Type::none())), false};
  auto *done = newBlock("keyed.done");
  // Each branch ends with its result; they meet in `done`.
  std::vector<std::pair<llvm::Value *, llvm::BasicBlock *>> results;
  auto finish = [&](llvm::Value *v) {
    results.push_back({v, b_.GetInsertBlock()});
    b_.CreateBr(done);
  };
  bool owned = false;
  switch (op) {
  case ObjectOp::DictContains:
  case ObjectOp::SetContains:
    finish(b_.getTrue());
    b_.SetInsertPoint(missing);
    finish(b_.getFalse());
    break;
  case ObjectOp::DictGet:
    owned = vt.hasRefs();
    finish(loadOwned(valueAt(), vt).v);
    b_.SetInsertPoint(missing);
    keyError();
    break;
  case ObjectOp::DictGetDefault:
  case ObjectOp::DictSetDefault: {
    const Type &rt = e.type; // d.get(k) without a default: the value wrapped in an optional
    owned = rt.hasRefs();
    Value v = castValue(loadOwned(valueAt(), vt), vt, rt, nullptr);
    finish(rt.hasRefs() ? own(v, rt) : v.v);
    b_.SetInsertPoint(missing);
    Value dflt = expr(*e.args[2]);
    llvm::Value *d = rt.hasRefs() ? own(dflt, rt) : dflt.v;
    if (op == ObjectOp::DictSetDefault) { // the table takes a reference, the caller keeps one
      if (vt.hasRefs()) incref(d, vt);
      insert(spill(d, vt));
    }
    finish(d);
    break;
  }
  case ObjectOp::DictSet:
  case ObjectOp::SetAdd:
    if (op == ObjectOp::DictSet) { // the value replaced; the first key object stays, as in Python
      Value v = expr(*e.args[2]);
      llvm::Value *at = valueAt();
      llvm::Value *old = b_.CreateLoad(types_.mem(vt), at);
      b_.CreateStore(toMem(ownedForStore(v, vt), vt), at);
      if (vt.hasRefs()) decref(fromMem(old, vt), vt);
    }
    finish(noneValue.v);
    b_.SetInsertPoint(missing);
    if (op == ObjectOp::DictSet) insert(spill(ownedForStore(expr(*e.args[2]), vt), vt));
    else insert(nullptr);
    finish(noneValue.v);
    break;
  case ObjectOp::DictDelItem:
  case ObjectOp::SetRemove:
  case ObjectOp::SetDiscard:
    removeEntry(nullptr);
    finish(noneValue.v);
    b_.SetInsertPoint(missing);
    if (op == ObjectOp::SetDiscard) finish(noneValue.v);
    else keyError();
    break;
  case ObjectOp::DictPop:
  case ObjectOp::DictPopDefault: {
    owned = vt.hasRefs();
    llvm::Value *out = entryAlloca(types_.mem(vt), "pop");
    removeEntry(out);
    finish(fromMem(b_.CreateLoad(types_.mem(vt), out), vt));
    b_.SetInsertPoint(missing);
    if (op == ObjectOp::DictPop) {
      keyError();
    } else {
      Value dflt = expr(*e.args[2]);
      finish(vt.hasRefs() ? own(dflt, vt) : dflt.v);
    }
    break;
  }
  default: internalError(std::string("keyed operation ") + ir::objectOpName(op) + " is not lowered");
  }
  b_.SetInsertPoint(done);
  auto *phi = b_.CreatePHI(results.front().first->getType(), unsigned(results.size()));
  for (auto &[v, bb] : results) phi->addIncoming(v, bb);
  return {phi, owned};
}

} // namespace mahou::codegen
