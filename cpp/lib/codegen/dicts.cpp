// Lowering of the dict and set operations of the `object` expression: keys and values
// are passed to the runtime's table (dict.cpp) by address, values read back are owned.
#include "lowering.h"

#include "mahou/objects.h"

namespace mahou::codegen {

using ObjectOp = ir::ObjectOp;

namespace {
constexpr unsigned kDictSize = 0, kDictUsed = 1; // MahouDict fields (8 bytes each)
} // namespace

Value FunctionLowering::hashedOp(const ir::Expr &e) {
  auto op = ObjectOp(e.sub);
  auto *ptr = b_.getPtrTy();
  auto *i32 = b_.getInt32Ty();
  auto *voidT = b_.getVoidTy();
  auto noneResult = [&] { return Value{llvm::Constant::getNullValue(types_.ssa(Type::none())), false}; };
  if (op == ObjectOp::DictNew || op == ObjectOp::SetNew) {
    bool isDict = op == ObjectOp::DictNew;
    llvm::Value *kd = typeDescriptor(e.type.elems[0]);
    llvm::Value *vd = isDict ? typeDescriptor(e.type.elems[1]) : llvm::ConstantPointerNull::get(ptr);
    llvm::Value *t = b_.CreateCall(runtimeFn("mahou_rt_dict_new", ptr, {ptr, ptr}), {kd, vd});
    checkNotNull(t);
    return {t, true};
  }
  if (e.args.back()->op == ir::ExprOp::Object && ObjectOp(e.args.back()->sub) == ObjectOp::DictKeyOps)
    return codeKeyedOp(e); // keys hashed and compared by compiled code (instance_keys.cpp)
  const Type &tt = e.args[0]->type;
  Value table = expr(*e.args[0]);
  const Type kt = tt.elems[0];
  const Type vt = tt.isDict() ? tt.elems[1] : Type::none();
  Value result{nullptr, false};
  std::vector<std::pair<Value, const Type *>> held;
  // An operand by address: owned (its references given to the table) or borrowed.
  auto operand = [&](size_t i, bool give) {
    Value v = expr(*e.args[i]);
    const Type &t = e.args[i]->type;
    if (give) return spill(ownedForStore(v, t), t);
    held.push_back({v, &e.args[i]->type});
    return spill(v.v, t);
  };
  // A value read from the table's memory: the caller's own reference.
  auto loadOwned = [&](llvm::Value *at, const Type &t) {
    llvm::Value *x = fromMem(b_.CreateLoad(types_.mem(t), at), t);
    if (t.hasRefs()) incref(x, t);
    return Value{x, t.hasRefs()};
  };
  auto field = [&](unsigned f) { return b_.CreateLoad(i64(), b_.CreateConstInBoundsGEP1_64(i64(), objectPayload(table.v), f)); };
  switch (op) {
  case ObjectOp::DictLen:
  case ObjectOp::SetLen: result = {field(kDictSize), false}; break;
  case ObjectOp::DictUsed:
  case ObjectOp::SetUsed: result = {field(kDictUsed), false}; break;
  case ObjectOp::DictEntryLive:
  case ObjectOp::SetEntryLive:
  case ObjectOp::DictEntryKey:
  case ObjectOp::SetEntryKey:
  case ObjectOp::DictEntryValue: {
    llvm::Value *k = b_.CreateCall(runtimeFn("mahou_rt_dict_entry_key", ptr, {ptr, i64()}), {table.v, scalarExpr(*e.args[1])});
    if (op == ObjectOp::DictEntryLive || op == ObjectOp::SetEntryLive) {
      result = {b_.CreateIsNotNull(k), false};
      break;
    }
    // Read only under the liveness test: the key is at k, the value past the key.
    llvm::Value *at = k;
    if (op == ObjectOp::DictEntryValue) {
      auto fn = runtimeFn("mahou_rt_dict_value_of_key", ptr, {ptr, ptr});
      at = b_.CreateCall(fn, {table.v, k});
    }
    result = loadOwned(at, e.type);
    break;
  }
  case ObjectOp::DictGet: {
    llvm::Value *at;
    if (probesInline(kt, e.args[1]->type)) {
      Value k = expr(*e.args[1]);
      held.push_back({k, &e.args[1]->type});
      at = inlineFind(table.v, k.v, kt);
      auto *fail = newBlock("dict.keyerror");
      auto *ok = newBlock("dict.hit");
      b_.CreateCondBr(b_.CreateIsNull(at), fail, ok, llvm::MDBuilder(ctx()).createBranchWeights(1, 1000));
      b_.SetInsertPoint(fail);
      llvm::Value *keySlot = spill(k.v, kt);
      b_.CreateCall(runtimeFn("mahou_rt_dict_getitem", ptr, {ptr, ptr}), {table.v, keySlot}); // sets the KeyError
      b_.CreateBr(errorExit());
      b_.SetInsertPoint(ok);
    } else {
      at = b_.CreateCall(runtimeFn("mahou_rt_dict_getitem", ptr, {ptr, ptr}), {table.v, operand(1, false)});
      checkNotNull(at);
    }
    result = loadOwned(at, vt);
    break;
  }
  case ObjectOp::DictGetDefault:
  case ObjectOp::DictSetDefault: {
    llvm::Value *at;
    Value dflt;
    if (op == ObjectOp::DictGetDefault && probesInline(kt, e.args[1]->type)) {
      Value k = expr(*e.args[1]);
      held.push_back({k, &e.args[1]->type});
      dflt = expr(*e.args[2]);
      at = inlineFind(table.v, k.v, kt);
    } else {
      llvm::Value *key = operand(1, false);
      dflt = expr(*e.args[2]);
      at = b_.CreateCall(runtimeFn("mahou_rt_dict_find", ptr, {ptr, ptr}), {table.v, key});
    }
    auto *found = newBlock("dict.found");
    auto *missing = newBlock("dict.missing");
    auto *done = newBlock("dict.done");
    b_.CreateCondBr(b_.CreateIsNotNull(at), found, missing);
    b_.SetInsertPoint(found);
    const Type &rt = e.type; // d.get(k) without a default: the value wrapped in an optional
    Value v = castValue(loadOwned(at, vt), vt, rt, nullptr);
    release(dflt, rt);
    auto *foundEnd = b_.GetInsertBlock();
    b_.CreateBr(done);
    b_.SetInsertPoint(missing);
    llvm::Value *d = op == ObjectOp::DictSetDefault ? ownedForStore(dflt, rt) : rt.hasRefs() ? own(dflt, rt) : dflt.v;
    if (op == ObjectOp::DictSetDefault) { // store it: the table takes a reference, the caller keeps one
      Value k2 = expr(*e.args[1]);
      llvm::Value *keySlot = spill(kt.hasRefs() ? own(k2, kt) : k2.v, kt);
      if (vt.hasRefs()) incref(d, vt);
      checkStatus(b_.CreateCall(runtimeFn("mahou_rt_dict_setitem", i32, {ptr, ptr, ptr}), {table.v, keySlot, spill(d, vt)}));
    }
    auto *missingEnd = b_.GetInsertBlock();
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
    auto *phi = b_.CreatePHI(v.v->getType(), 2);
    phi->addIncoming(v.v, foundEnd);
    phi->addIncoming(d, missingEnd);
    result = {phi, rt.hasRefs()};
    break;
  }
  case ObjectOp::DictSet:
  case ObjectOp::SetAdd: {
    llvm::Value *key = operand(1, true);
    llvm::Value *value = op == ObjectOp::DictSet ? operand(2, true) : llvm::ConstantPointerNull::get(ptr);
    checkStatus(b_.CreateCall(runtimeFn("mahou_rt_dict_setitem", i32, {ptr, ptr, ptr}), {table.v, key, value}));
    result = noneResult();
    break;
  }
  case ObjectOp::DictContains:
  case ObjectOp::SetContains: {
    llvm::Value *at;
    if (probesInline(kt, e.args[1]->type)) {
      Value k = expr(*e.args[1]);
      held.push_back({k, &e.args[1]->type});
      at = inlineFind(table.v, k.v, kt);
    } else {
      at = b_.CreateCall(runtimeFn("mahou_rt_dict_find", ptr, {ptr, ptr}), {table.v, operand(1, false)});
    }
    result = {b_.CreateIsNotNull(at), false};
    break;
  }
  case ObjectOp::DictDelItem:
  case ObjectOp::SetRemove: {
    llvm::Value *key = operand(1, false);
    checkStatus(b_.CreateCall(runtimeFn("mahou_rt_dict_delitem", i32, {ptr, ptr}), {table.v, key}));
    result = noneResult();
    break;
  }
  case ObjectOp::SetDiscard: {
    llvm::Value *key = operand(1, false);
    auto fn = runtimeFn("mahou_rt_dict_remove", i32, {ptr, ptr, ptr, ptr});
    auto *null = llvm::ConstantPointerNull::get(ptr);
    b_.CreateCall(fn, {table.v, key, null, null});
    result = noneResult();
    break;
  }
  case ObjectOp::DictPop:
  case ObjectOp::DictPopDefault: {
    llvm::Value *key = operand(1, false);
    // d.pop(k, default): the default is evaluated before the removal, as Python
    // evaluates arguments before the call (it may change the dict: d.setdefault(...)).
    Value dflt;
    if (op == ObjectOp::DictPopDefault) dflt = expr(*e.args[2]);
    llvm::Value *out = entryAlloca(types_.mem(vt), "pop");
    auto fn = runtimeFn("mahou_rt_dict_remove", i32, {ptr, ptr, ptr, ptr});
    llvm::Value *missing = b_.CreateICmpNE(b_.CreateCall(fn, {table.v, key, llvm::ConstantPointerNull::get(ptr), out}),
                                           b_.getInt32(0));
    if (op == ObjectOp::DictPop) {
      auto *fail = newBlock("pop.missing");
      auto *ok = newBlock("pop.ok");
      b_.CreateCondBr(missing, fail, ok, llvm::MDBuilder(ctx()).createBranchWeights(1, 1000));
      b_.SetInsertPoint(fail);
      b_.CreateCall(runtimeFn("mahou_rt_dict_getitem", ptr, {ptr, ptr}), {table.v, key}); // sets the KeyError
      b_.CreateBr(errorExit());
      b_.SetInsertPoint(ok);
      result = {fromMem(b_.CreateLoad(types_.mem(vt), out), vt), vt.hasRefs()};
    } else {
      llvm::Value *d = vt.hasRefs() ? own(dflt, vt) : dflt.v;
      llvm::Value *popped = fromMem(b_.CreateLoad(types_.mem(vt), out), vt);
      // Exactly one of the two is kept: drop the default when a value was popped.
      auto *drop = newBlock("pop.drop");
      auto *done = newBlock("pop.done");
      b_.CreateCondBr(missing, done, drop);
      b_.SetInsertPoint(drop);
      if (vt.hasRefs()) decref(d, vt);
      b_.CreateBr(done);
      b_.SetInsertPoint(done);
      auto *before = b_.GetInsertBlock();
      (void)before;
      result = {b_.CreateSelect(missing, d, popped), vt.hasRefs()};
    }
    break;
  }
  case ObjectOp::DictPopItem:
  case ObjectOp::SetPop: {
    bool isSet = op == ObjectOp::SetPop;
    llvm::Value *kOut = entryAlloca(types_.mem(kt), "popitem.key");
    llvm::Value *vOut = isSet ? llvm::ConstantPointerNull::get(ptr) : entryAlloca(types_.mem(vt), "popitem.value");
    auto fn = runtimeFn("mahou_rt_dict_popitem", i32, {ptr, ptr, ptr, i32});
    checkStatus(b_.CreateCall(fn, {table.v, kOut, vOut, b_.getInt32(isSet)}));
    llvm::Value *k = fromMem(b_.CreateLoad(types_.mem(kt), kOut), kt);
    if (isSet) {
      result = {k, kt.hasRefs()};
    } else {
      llvm::Value *agg = llvm::UndefValue::get(types_.mem(e.type));
      agg = b_.CreateInsertValue(agg, toMem(k, kt), {0u});
      agg = b_.CreateInsertValue(agg, b_.CreateLoad(types_.mem(vt), vOut), {1u});
      result = {agg, e.type.hasRefs()};
    }
    break;
  }
  case ObjectOp::DictClear:
  case ObjectOp::SetClear:
    b_.CreateCall(runtimeFn("mahou_rt_dict_clear", voidT, {ptr}), {table.v});
    result = noneResult();
    break;
  case ObjectOp::DictCopy:
  case ObjectOp::SetCopy: {
    llvm::Value *c = b_.CreateCall(runtimeFn("mahou_rt_dict_copy", ptr, {ptr}), {table.v});
    checkNotNull(c);
    result = {c, true};
    break;
  }
  case ObjectOp::DictUpdate:
  case ObjectOp::SetUpdate:
  case ObjectOp::DictEqual:
  case ObjectOp::SetEqual:
  case ObjectOp::SetSubset:
  case ObjectOp::SetCombine: {
    Value other = expr(*e.args[1]);
    held.push_back({other, &e.args[1]->type});
    if (op == ObjectOp::DictUpdate || op == ObjectOp::SetUpdate) {
      checkStatus(b_.CreateCall(runtimeFn("mahou_rt_dict_update", i32, {ptr, ptr}), {table.v, other.v}));
      result = noneResult();
    } else if (op == ObjectOp::SetCombine) {
      auto fn = runtimeFn("mahou_rt_set_combine", ptr, {ptr, ptr, i32});
      llvm::Value *c = b_.CreateCall(fn, {table.v, other.v, b_.getInt32(uint32_t(e.ival))});
      checkNotNull(c);
      result = {c, true};
    } else {
      const char *fn = op == ObjectOp::SetSubset ? "mahou_rt_set_subset" : "mahou_rt_dict_equal";
      llvm::Value *r = b_.CreateCall(runtimeFn(fn, b_.getInt8Ty(), {ptr, ptr}), {table.v, other.v});
      result = {b_.CreateICmpNE(r, b_.getInt8(0)), false};
    }
    break;
  }
  default: internalError(std::string("dict/set operation ") + ir::objectOpName(op) + " is not lowered");
  }
  for (auto &[v, t] : held) release(v, *t);
  release(table, tt);
  return result;
}

} // namespace mahou::codegen
