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

#include <functional>

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

// Looks `key` (with its hash; the needle variable of `ops` holds it) up in `table`: the
// builder is left in the `found` block, where entry and keyAt are the entry and its
// key's address; `missing` has no code yet.
FunctionLowering::KeyProbe FunctionLowering::probeByCode(llvm::Value *table, llvm::Value *key, llvm::Value *hash,
                                                         const ir::Expr &ops, const Type &kt) {
  auto *ptr = b_.getPtrTy();
  llvm::Value *state = entryAlloca(llvm::ArrayType::get(i64(), 2), "probe.state");
  auto *restart = newBlock("probe.start");
  auto *next = newBlock("probe.next");
  auto *candidate = newBlock("probe.candidate");
  auto *compare = newBlock("probe.eq");
  auto *check = newBlock("probe.check");
  auto *found = newBlock("probe.found");
  auto *missing = newBlock("probe.missing");
  b_.CreateBr(restart);
  b_.SetInsertPoint(restart);
  b_.CreateCall(runtimeFn("mahou_rt_dict_probe_begin", b_.getVoidTy(), {ptr, i64(), ptr}), {table, hash, state});
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
  return {missing, foundIx, foundAt};
}

Value FunctionLowering::codeKeyedOp(const ir::Expr &e) {
  auto op = ObjectOp(e.sub);
  switch (op) {
  case ObjectOp::DictUpdate:
  case ObjectOp::SetUpdate:
  case ObjectOp::SetEqual:
  case ObjectOp::SetSubset:
  case ObjectOp::SetCombine: return codeKeyedTables(e);
  default: break;
  }
  const ir::Expr &ops = *e.args.back();
  auto *ptr = b_.getPtrTy();
  auto *i32 = b_.getInt32Ty();
  auto *voidT = b_.getVoidTy();
  const Type &tt = e.args[0]->type;
  const Type kt = tt.elems[0];
  const Type vt = tt.isDict() ? tt.elems[1] : Type::none();
  llvm::Value *table = expr(*e.args[0]).v; // hidden variables: borrowed
  llvm::Value *key = expr(*e.args[1]).v;
  storeVar(ops.args[2]->var, {key, false});
  // The value or default operand is evaluated once, before the key is hashed and looked
  // up, as Python evaluates a call's arguments first (it may change the table).
  bool third = op == ObjectOp::DictGetDefault || op == ObjectOp::DictSetDefault || op == ObjectOp::DictSet ||
               op == ObjectOp::DictPopDefault;
  Value operand3;
  size_t heldMark = heldForError_.size();
  if (third) {
    operand3 = expr(*e.args[2]);
    holdForError(operand3, e.args[2]->type); // __hash__ / __eq__ may raise
  }
  llvm::Value *hash = expr(*ops.args[0]).v;
  KeyProbe probe = probeByCode(table, key, hash, ops, kt);
  dropHeld(heldMark); // past the probe each branch uses or releases the operand itself
  llvm::BasicBlock *missing = probe.missing;
  llvm::Value *foundIx = probe.entry, *foundAt = probe.keyAt;
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
    release(operand3, e.args[2]->type);
    finish(rt.hasRefs() ? own(v, rt) : v.v);
    b_.SetInsertPoint(missing);
    Value dflt = operand3;
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
      Value v = operand3;
      llvm::Value *at = valueAt();
      llvm::Value *old = b_.CreateLoad(types_.mem(vt), at);
      b_.CreateStore(toMem(ownedForStore(v, vt), vt), at);
      if (vt.hasRefs()) decref(fromMem(old, vt), vt);
    }
    finish(noneValue.v);
    b_.SetInsertPoint(missing);
    if (op == ObjectOp::DictSet) insert(spill(ownedForStore(operand3, vt), vt));
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
    if (third) release(operand3, e.args[2]->type);
    finish(fromMem(b_.CreateLoad(types_.mem(vt), out), vt));
    b_.SetInsertPoint(missing);
    if (op == ObjectOp::DictPop) {
      keyError();
    } else {
      finish(vt.hasRefs() ? own(operand3, vt) : operand3.v);
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

// Operations between two tables of the same type (update, set algebra, <=, ==): the
// entries of one looked up in the other with their stored hashes.
Value FunctionLowering::codeKeyedTables(const ir::Expr &e) {
  auto op = ObjectOp(e.sub);
  const ir::Expr &ops = *e.args.back();
  auto *ptr = b_.getPtrTy();
  auto *i32 = b_.getInt32Ty();
  const Type &tt = e.args[0]->type;
  const Type kt = tt.elems[0];
  const Type vt = tt.isDict() ? tt.elems[1] : Type::none();
  llvm::Value *a = expr(*e.args[0]).v; // hidden variables: borrowed
  llvm::Value *b = expr(*e.args[1]).v;
  auto field = [&](llvm::Value *t, unsigned f) {
    return b_.CreateLoad(i64(), b_.CreateConstInBoundsGEP1_64(i64(), objectPayload(t), f));
  };
  auto entryKey = runtimeFn("mahou_rt_dict_entry_key", ptr, {ptr, i64()});
  auto entryHash = runtimeFn("mahou_rt_dict_entry_hash", i64(), {ptr, i64()});
  auto valueOf = runtimeFn("mahou_rt_dict_value_of_key", ptr, {ptr, ptr});
  // A new entry of `to` for the key at keyAt (and the value at valueAt) of another table.
  auto insertCopy = [&](llvm::Value *to, llvm::Value *keyAt, llvm::Value *valueAt, llvm::Value *hash) {
    llvm::Value *k = own({fromMem(b_.CreateLoad(types_.mem(kt), keyAt), kt), false}, kt);
    llvm::Value *v = llvm::ConstantPointerNull::get(ptr);
    if (valueAt) v = spill(own({fromMem(b_.CreateLoad(types_.mem(vt), valueAt), vt), false}, vt), vt);
    auto fn = runtimeFn("mahou_rt_dict_insert_hashed", i32, {ptr, ptr, ptr, i64()});
    checkStatus(b_.CreateCall(fn, {to, spill(k, kt), v, hash}));
  };
  // For each live entry of `src`, body(entry, keyAt, hash, exit) in a block of its own;
  // the body may branch to `exit` (the builder is left after the loop).
  auto forEach = [&](llvm::Value *src, const std::function<void(llvm::Value *, llvm::Value *, llvm::Value *,
                                                                 llvm::BasicBlock *)> &body) {
    llvm::Value *counter = entryAlloca(i64(), "each.i");
    b_.CreateStore(c64(0), counter);
    auto *head = newBlock("each.head");
    auto *step = newBlock("each.entry");
    auto *live = newBlock("each.live");
    auto *latch = newBlock("each.next");
    auto *exit = newBlock("each.done");
    b_.CreateBr(head);
    b_.SetInsertPoint(head);
    llvm::Value *i = b_.CreateLoad(i64(), counter);
    b_.CreateCondBr(b_.CreateICmpSLT(i, field(src, 1)), step, exit); // MahouDict::used, read each time
    b_.SetInsertPoint(step);
    llvm::Value *keyAt = b_.CreateCall(entryKey, {src, i});
    b_.CreateCondBr(b_.CreateIsNull(keyAt), latch, live);
    b_.SetInsertPoint(live);
    body(i, keyAt, b_.CreateCall(entryHash, {src, i}), exit);
    if (!b_.GetInsertBlock()->getTerminator()) b_.CreateBr(latch);
    b_.SetInsertPoint(latch);
    b_.CreateStore(b_.CreateAdd(b_.CreateLoad(i64(), counter), c64(1)), counter);
    b_.CreateBr(head);
    b_.SetInsertPoint(exit);
  };
  // Looks the key at keyAt up in `table`; found and missing run in their blocks.
  auto lookUp = [&](llvm::Value *table, llvm::Value *keyAt, llvm::Value *hash, const std::function<void(KeyProbe &)> &found,
                    const std::function<void()> &missing) {
    llvm::Value *key = fromMem(b_.CreateLoad(types_.mem(kt), keyAt), kt);
    storeVar(ops.args[2]->var, {key, false});
    KeyProbe p = probeByCode(table, key, hash, ops, kt);
    auto *join = newBlock("lookup.join");
    found(p);
    if (!b_.GetInsertBlock()->getTerminator()) b_.CreateBr(join);
    b_.SetInsertPoint(p.missing);
    missing();
    if (!b_.GetInsertBlock()->getTerminator()) b_.CreateBr(join);
    b_.SetInsertPoint(join);
  };
  switch (op) {
  case ObjectOp::DictUpdate:
  case ObjectOp::SetUpdate:
    forEach(b, [&](llvm::Value *, llvm::Value *keyAt, llvm::Value *hash, llvm::BasicBlock *) {
      lookUp(a, keyAt, hash, [&](KeyProbe &p) {
        if (!tt.isDict()) return; // a set keeps its item
        llvm::Value *v = own({fromMem(b_.CreateLoad(types_.mem(vt), b_.CreateCall(valueOf, {b, keyAt})), vt), false}, vt);
        llvm::Value *at = b_.CreateCall(valueOf, {a, p.keyAt});
        llvm::Value *old = b_.CreateLoad(types_.mem(vt), at);
        b_.CreateStore(toMem(v, vt), at);
        if (vt.hasRefs()) decref(fromMem(old, vt), vt);
      }, [&] { insertCopy(a, keyAt, tt.isDict() ? b_.CreateCall(valueOf, {b, keyAt}) : nullptr, hash); });
    });
    return {llvm::Constant::getNullValue(types_.ssa(Type::none())), false};
  case ObjectOp::SetSubset:
  case ObjectOp::SetEqual: {
    llvm::Value *result = entryAlloca(b_.getInt1Ty(), "subset");
    b_.CreateStore(op == ObjectOp::SetEqual ? b_.CreateICmpEQ(field(a, 0), field(b, 0)) : b_.getTrue(), result);
    forEach(a, [&](llvm::Value *, llvm::Value *keyAt, llvm::Value *hash, llvm::BasicBlock *exit) {
      lookUp(b, keyAt, hash, [&](KeyProbe &) {}, [&] {
        b_.CreateStore(b_.getFalse(), result);
        b_.CreateBr(exit);
      });
    });
    return {b_.CreateLoad(b_.getInt1Ty(), result), false};
  }
  case ObjectOp::SetCombine: {
    int which = int(e.ival); // 0 | 1 & 2 - 3 ^
    llvm::Value *r;
    if (which == 0) r = b_.CreateCall(runtimeFn("mahou_rt_dict_copy", ptr, {ptr}), {a});
    else r = b_.CreateCall(runtimeFn("mahou_rt_dict_new", ptr, {ptr, ptr}), {typeDescriptor(kt), llvm::ConstantPointerNull::get(ptr)});
    checkNotNull(r);
    size_t mark = holdForError({r, true}, tt); // released if an __eq__ raises
    if (which != 0) // a's keys found in b (&) or not (- and ^)
      forEach(a, [&](llvm::Value *, llvm::Value *keyAt, llvm::Value *hash, llvm::BasicBlock *) {
        lookUp(b, keyAt, hash, [&](KeyProbe &) { if (which == 1) insertCopy(r, keyAt, nullptr, hash); },
               [&] { if (which != 1) insertCopy(r, keyAt, nullptr, hash); });
      });
    if (which == 0 || which == 3) // b's keys not in a
      forEach(b, [&](llvm::Value *, llvm::Value *keyAt, llvm::Value *hash, llvm::BasicBlock *) {
        lookUp(a, keyAt, hash, [&](KeyProbe &) {}, [&] { insertCopy(r, keyAt, nullptr, hash); });
      });
    dropHeld(mark);
    return {r, true};
  }
  default: internalError(std::string("keyed operation ") + ir::objectOpName(op) + " is not lowered");
  }
}

} // namespace mahou::codegen
