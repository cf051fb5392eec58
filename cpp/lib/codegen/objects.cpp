// Lowering of heap objects: interned item descriptors and string constants, the
// `object` operations on lists (reads, writes and appends inline, the rest through the
// runtime), optional values, and `seq` expressions (comprehensions).
#include "lowering.h"

#include "mahou/layout.h"
#include "mahou/objects.h"

#include <functional>

namespace mahou::codegen {

using ObjectOp = ir::ObjectOp;

namespace {

constexpr unsigned kListSize = 0, kListCapacity = 1, kListItems = 2, kListDirty = 5; // MahouList fields (i64/ptr each)

} // namespace

// ------------------------------------------------------------------ helpers

llvm::Value *FunctionLowering::objectPayload(llvm::Value *mi) {
  return b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), mi, kMahouObjectHeader);
}

llvm::Value *FunctionLowering::listField(llvm::Value *list, unsigned field) {
  return b_.CreateConstInBoundsGEP1_64(i64(), objectPayload(list), field);
}

void FunctionLowering::checkNotNull(llvm::Value *p) {
  auto *ok = newBlock("obj.ok");
  b_.CreateCondBr(b_.CreateIsNull(p), errorExit(), ok, llvm::MDBuilder(ctx()).createBranchWeights(1, 1000));
  b_.SetInsertPoint(ok);
}

void FunctionLowering::checkStatus(llvm::Value *status) {
  auto *ok = newBlock("obj.ok");
  b_.CreateCondBr(b_.CreateICmpNE(status, b_.getInt32(0)), errorExit(), ok,
                  llvm::MDBuilder(ctx()).createBranchWeights(1, 1000));
  b_.SetInsertPoint(ok);
}

llvm::Value *FunctionLowering::spill(llvm::Value *v, const Type &t) {
  llvm::Value *slot = entryAlloca(types_.mem(t), "spill");
  b_.CreateStore(toMem(v, t), slot);
  return slot;
}

// A pointer computed once per module and cached in a global slot: the first use calls
// `make` (which interns it in the runtime, so it outlives the module).
llvm::Value *FunctionLowering::cachedPointer(const std::string &slotName,
                                             const std::function<llvm::Value *()> &make) {
  auto *slot = module_.getNamedGlobal(slotName);
  if (!slot)
    slot = new llvm::GlobalVariable(module_, b_.getPtrTy(), false, llvm::GlobalValue::InternalLinkage,
                                    llvm::ConstantPointerNull::get(b_.getPtrTy()), slotName);
  auto *cached = b_.CreateLoad(b_.getPtrTy(), slot);
  cached->setAtomic(llvm::AtomicOrdering::Monotonic);
  cached->setAlignment(llvm::Align(8));
  auto *before = b_.GetInsertBlock();
  auto *makeB = newBlock("intern");
  auto *done = newBlock("intern.done");
  b_.CreateCondBr(b_.CreateIsNull(cached), makeB, done, llvm::MDBuilder(ctx()).createBranchWeights(1, 1000));
  b_.SetInsertPoint(makeB);
  llvm::Value *made = make();
  auto *store = b_.CreateStore(made, slot);
  store->setAtomic(llvm::AtomicOrdering::Monotonic);
  store->setAlignment(llvm::Align(8));
  auto *makeEnd = b_.GetInsertBlock();
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
  auto *phi = b_.CreatePHI(b_.getPtrTy(), 2);
  phi->addIncoming(cached, before);
  phi->addIncoming(made, makeEnd);
  return phi;
}

llvm::Value *FunctionLowering::bytesConstant(const std::string &bytes, const std::string &prefix) {
  // One private constant per distinct content in the module.
  std::string base = prefix + std::to_string(std::hash<std::string>{}(bytes)) + "." + std::to_string(bytes.size());
  for (int k = 0;; ++k) {
    std::string name = base + "." + std::to_string(k);
    auto *g = module_.getNamedGlobal(name);
    auto *init = llvm::ConstantDataArray::getRaw(bytes, bytes.size(), b_.getInt8Ty());
    if (!g)
      return new llvm::GlobalVariable(module_, init->getType(), true, llvm::GlobalValue::PrivateLinkage, init, name);
    if (g->getInitializer() == init) return g;
  }
}

llvm::Value *FunctionLowering::typeDescriptor(const Type &item) {
  std::string blob = types::typeDescriptor(item);
  llvm::Value *data = bytesConstant(blob, "mahou.desc.");
  std::string slotName = llvm::cast<llvm::GlobalVariable>(data)->getName().str() + ".slot";
  return cachedPointer(slotName, [&] {
    auto fn = runtimeFn("mahou_rt_intern_typedesc", b_.getPtrTy(), {b_.getPtrTy(), i64()});
    return b_.CreateCall(fn, {data, c64(int64_t(blob.size()))});
  });
}

llvm::Value *FunctionLowering::stringObject(const std::string &utf8) {
  llvm::Value *data = bytesConstant(utf8, "mahou.str.");
  std::string slotName = llvm::cast<llvm::GlobalVariable>(data)->getName().str() + ".slot";
  llvm::Value *s = cachedPointer(slotName, [&] {
    auto fn = runtimeFn("mahou_rt_str_const", b_.getPtrTy(), {b_.getPtrTy(), i64()});
    llvm::Value *made = b_.CreateCall(fn, {data, c64(int64_t(utf8.size()))});
    checkNotNull(made);
    return made;
  });
  return s;
}

// ------------------------------------------------------------------ optionals and casts

Value FunctionLowering::castObject(const ir::Expr &e, Value v) { return castValue(v, e.args[0]->type, e.type, e.args[0].get()); }

Value FunctionLowering::castValue(Value v, const Type &from, const Type &to, const ir::Expr *source) {
  if (from == to) return v;
  if (to.isEnumMember()) return v; // an enum member and its value: one representation
  if (from.isEnumMember())
    return to == from.elems[0] ? v : Value{castScalar(v.v, from.elems[0], to), false};
  if (from.isNumber() && to.isNumber()) return {castScalar(v.v, from, to), false};
  if (from.isArray() && to.isArray()) return v;
  if (to.isUnicode() && from.kind == types::Kind::Str) {
    if (source && source->op == ir::ExprOp::Const) return {stringObject(source->symbol), false};
    // A literal held in a variable or a tuple: its text is a C string.
    auto strlenFn = runtimeFn("strlen", i64(), {b_.getPtrTy()});
    auto fn = runtimeFn("mahou_rt_str_const", b_.getPtrTy(), {b_.getPtrTy(), i64()});
    llvm::Value *s = b_.CreateCall(fn, {v.v, b_.CreateCall(strlenFn, {v.v})});
    checkNotNull(s);
    return {s, false};
  }
  if (from.isTuple() && to.isTuple()) {
    llvm::Value *agg = llvm::UndefValue::get(types_.mem(to));
    for (unsigned i = 0; i < from.elems.size(); ++i) {
      Value x{fromMem(b_.CreateExtractValue(v.v, {i}), from.elems[i]), false};
      Value y = castValue(x, from.elems[i], to.elems[i], nullptr);
      agg = b_.CreateInsertValue(agg, toMem(y.v, to.elems[i]), {i});
    }
    return {agg, v.owned};
  }
  if (to.isList() && from.isList()) return v; // a list and a typed.List share the representation
  llvm::Type *optTy = types_.mem(to);
  if (to.isOptional() && from.isNone()) return {llvm::Constant::getNullValue(optTy), false};
  if (to.isOptional() && from.isOptional()) {
    // Optional(int64) → Optional(float64): convert the value (zero when None).
    Value x = castValue({fromMem(b_.CreateExtractValue(v.v, {0u}), from.elems[0]), v.owned}, from.elems[0],
                        to.elems[0], nullptr);
    llvm::Value *agg = b_.CreateInsertValue(llvm::UndefValue::get(optTy), toMem(x.v, to.elems[0]), {0u});
    return {b_.CreateInsertValue(agg, b_.CreateExtractValue(v.v, {1u}), {1u}), v.owned};
  }
  if (to.isOptional()) {
    Value x = castValue(v, from, to.elems[0], source);
    llvm::Value *agg = b_.CreateInsertValue(llvm::UndefValue::get(optTy), toMem(x.v, to.elems[0]), {0u});
    return {b_.CreateInsertValue(agg, b_.getInt8(1), {1u}), x.owned};
  }
  if (from.isOptional()) {
    // Optional(T) → T: Numba's checked conversion (TypeError when it is None).
    llvm::Value *present = b_.CreateICmpNE(b_.CreateExtractValue(v.v, {1u}), b_.getInt8(0));
    raiseIf(b_.CreateNot(present), types::ExcKind::TypeError, "expected " + from.elems[0].str() + ", got None" + where());
    Value x{fromMem(b_.CreateExtractValue(v.v, {0u}), from.elems[0]), v.owned};
    return castValue(x, from.elems[0], to, nullptr);
  }
  internalError("cast of " + from.str() + " to " + to.str());
}

Value FunctionLowering::seq(const ir::Expr &e) {
  block(*e.body);
  return expr(*e.args[0]);
}

// ------------------------------------------------------------------ lists

Value FunctionLowering::objectOp(const ir::Expr &e) {
  auto op = ObjectOp(e.sub);
  switch (ir::objectOpKind(op)) {
  case ir::ObjectOpKind::List: return listOp(e);
  case ir::ObjectOpKind::Str: return stringOp(e);
  case ir::ObjectOpKind::Dict:
  case ir::ObjectOpKind::Set: return hashedOp(e);
  case ir::ObjectOpKind::Instance: return instanceOp(e);
  case ir::ObjectOpKind::Hash: return hashOp(e);
  case ir::ObjectOpKind::Record: return recordOp(e);
  case ir::ObjectOpKind::Optional: break;
  }
  if (op != ObjectOp::OptIsNone) internalError("optional operation not lowered");
  Value o = expr(*e.args[0]);
  llvm::Value *none = b_.CreateICmpEQ(b_.CreateExtractValue(o.v, {1u}), b_.getInt8(0));
  release(o, e.args[0]->type);
  return {none, false};
}

Value FunctionLowering::listOp(const ir::Expr &e) {
  auto op = ObjectOp(e.sub);
  auto *ptr = b_.getPtrTy();
  auto *i32 = b_.getInt32Ty();
  auto *voidT = b_.getVoidTy();
  if (op == ObjectOp::ListNew) {
    const Type &item = e.type.elems[0];
    // The items first, as Python evaluates them (one that raises releases those before
    // it), then the list.
    size_t mark = heldForError_.size();
    std::vector<llvm::Value *> xs;
    for (auto &a : e.args) {
      xs.push_back(ownedForStore(expr(*a), item));
      holdForError({xs.back(), true}, item);
    }
    llvm::Value *desc = typeDescriptor(item);
    auto fn = runtimeFn("mahou_rt_list_new", ptr, {ptr, i64()});
    llvm::Value *list = b_.CreateCall(fn, {desc, c64(int64_t(e.args.size()))});
    checkNotNull(list);
    dropHeld(mark);
    if (!xs.empty()) {
      llvm::Value *items = b_.CreateLoad(ptr, listField(list, kListItems));
      llvm::Type *memT = types_.mem(item);
      for (size_t i = 0; i < xs.size(); ++i) b_.CreateStore(toMem(xs[i], item), b_.CreateConstInBoundsGEP1_64(memT, items, i));
      b_.CreateStore(c64(int64_t(e.args.size())), listField(list, kListSize));
    }
    return {list, true};
  }
  const Type &lt = e.args[0]->type;
  Value list = expr(*e.args[0]);
  const size_t heldMark = holdForError(list, lt); // a fresh list is released if an operand or the operation raises
  const Type item = lt.elems[0];
  llvm::Type *memT = item.containsUnknown() ? nullptr : types_.mem(item);
  Value result{nullptr, false};
  // The address of item i after wrapping a negative index and checking it.
  auto itemPtr = [&](llvm::Value *idx, const char *msg) {
    llvm::Value *size = b_.CreateLoad(i64(), listField(list.v, kListSize));
    llvm::Value *w = checkedIndex(idx, size, msg);
    llvm::Value *items = b_.CreateLoad(ptr, listField(list.v, kListItems));
    return b_.CreateInBoundsGEP(memT, items, w);
  };
  auto markDirty = [&] { b_.CreateStore(c64(1), listField(list.v, kListDirty)); };
  // An operand item passed by address (borrowed for the call).
  auto itemArg = [&](const ir::Expr &x, Value &held) {
    held = expr(x);
    return spill(held.v, item);
  };
  auto noneResult = [&] { return Value{llvm::Constant::getNullValue(types_.ssa(Type::none())), false}; };
  // Slice bounds: start, stop, step from args[1..3].
  auto sliceArgs = [&]() {
    return std::vector<llvm::Value *>{scalarExpr(*e.args[1]), scalarExpr(*e.args[2]), scalarExpr(*e.args[3]),
                                      b_.getInt32(uint32_t(e.ival))};
  };
  switch (op) {
  case ObjectOp::ListLen: result = {b_.CreateLoad(i64(), listField(list.v, kListSize)), false}; break;
  case ObjectOp::ListGet: {
    llvm::Value *p = itemPtr(indexValue(*e.args[1]), "list index out of range");
    llvm::Value *x = fromMem(b_.CreateLoad(memT, p), item);
    if (item.hasRefs()) incref(x, item); // the caller owns it: the list may drop it meanwhile
    result = {x, item.hasRefs()};
    break;
  }
  case ObjectOp::ListSet: {
    llvm::Value *idx = indexValue(*e.args[1]);
    llvm::Value *x = ownedForStore(expr(*e.args[2]), item);
    size_t valueMark = holdForError({x, true}, item); // until it is stored: the index may be out of range
    llvm::Value *p = itemPtr(idx, "list assignment index out of range");
    dropHeld(valueMark);
    if (item.hasRefs()) {
      llvm::Value *old = fromMem(b_.CreateLoad(memT, p), item);
      b_.CreateStore(toMem(x, item), p);
      decref(old, item);
    } else {
      b_.CreateStore(toMem(x, item), p);
    }
    markDirty();
    result = noneResult();
    break;
  }
  case ObjectOp::ListAppend: {
    llvm::Value *x = ownedForStore(expr(*e.args[1]), item);
    llvm::Value *size = b_.CreateLoad(i64(), listField(list.v, kListSize));
    llvm::Value *cap = b_.CreateLoad(i64(), listField(list.v, kListCapacity));
    auto *fast = newBlock("append.fast");
    auto *slow = newBlock("append.grow");
    auto *done = newBlock("append.done");
    b_.CreateCondBr(b_.CreateICmpSLT(size, cap), fast, slow, llvm::MDBuilder(ctx()).createBranchWeights(1000, 1));
    b_.SetInsertPoint(fast);
    llvm::Value *items = b_.CreateLoad(ptr, listField(list.v, kListItems));
    b_.CreateStore(toMem(x, item), b_.CreateInBoundsGEP(memT, items, size));
    b_.CreateStore(b_.CreateAdd(size, c64(1)), listField(list.v, kListSize));
    markDirty();
    b_.CreateBr(done);
    b_.SetInsertPoint(slow);
    llvm::Value *slot = spill(x, item);
    auto fn = runtimeFn("mahou_rt_list_append", i32, {ptr, ptr});
    checkStatus(b_.CreateCall(fn, {list.v, slot}));
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
    result = noneResult();
    break;
  }
  case ObjectOp::ListReserve: {
    auto fn = runtimeFn("mahou_rt_list_reserve_range", voidT, {ptr, i64(), i64(), i64()});
    b_.CreateCall(fn, {list.v, scalarExpr(*e.args[1]), scalarExpr(*e.args[2]), scalarExpr(*e.args[3])});
    result = noneResult();
    break;
  }
  case ObjectOp::ListInsert: {
    llvm::Value *idx = scalarExpr(*e.args[1]);
    llvm::Value *slot = spill(ownedForStore(expr(*e.args[2]), item), item);
    auto fn = runtimeFn("mahou_rt_list_insert", i32, {ptr, i64(), ptr});
    checkStatus(b_.CreateCall(fn, {list.v, idx, slot}));
    result = noneResult();
    break;
  }
  case ObjectOp::ListPop: {
    llvm::Value *idx = scalarExpr(*e.args[1]);
    llvm::Value *slot = entryAlloca(memT, "pop");
    auto fn = runtimeFn("mahou_rt_list_pop", i32, {ptr, i64(), ptr});
    checkStatus(b_.CreateCall(fn, {list.v, idx, slot}));
    result = {fromMem(b_.CreateLoad(memT, slot), item), item.hasRefs()};
    break;
  }
  case ObjectOp::ListDelItem: {
    auto fn = runtimeFn("mahou_rt_list_delitem", i32, {ptr, i64()});
    checkStatus(b_.CreateCall(fn, {list.v, scalarExpr(*e.args[1])}));
    result = noneResult();
    break;
  }
  case ObjectOp::ListClear:
    b_.CreateCall(runtimeFn("mahou_rt_list_clear", voidT, {ptr}), {list.v});
    result = noneResult();
    break;
  case ObjectOp::ListReverse:
    b_.CreateCall(runtimeFn("mahou_rt_list_reverse", voidT, {ptr}), {list.v});
    result = noneResult();
    break;
  case ObjectOp::ListSort:
    checkStatus(b_.CreateCall(runtimeFn("mahou_rt_list_sort", i32, {ptr, i32}),
                              {list.v, b_.CreateZExt(scalarExpr(*e.args[1]), i32)}));
    result = noneResult();
    break;
  case ObjectOp::ListCopy: {
    llvm::Value *c = b_.CreateCall(runtimeFn("mahou_rt_list_copy", ptr, {ptr}), {list.v});
    checkNotNull(c);
    result = {c, true};
    break;
  }
  case ObjectOp::ListExtend:
  case ObjectOp::ListEqual:
  case ObjectOp::ListCompare:
  case ObjectOp::ListConcat: {
    Value other = expr(*e.args[1]);
    holdForError(other, e.args[1]->type);
    if (op == ObjectOp::ListExtend) {
      checkStatus(b_.CreateCall(runtimeFn("mahou_rt_list_extend", i32, {ptr, ptr}), {list.v, other.v}));
      result = noneResult();
    } else if (op == ObjectOp::ListEqual) {
      llvm::Value *r = b_.CreateCall(runtimeFn("mahou_rt_list_equal", b_.getInt8Ty(), {ptr, ptr}), {list.v, other.v});
      result = {b_.CreateICmpNE(r, b_.getInt8(0)), false};
    } else if (op == ObjectOp::ListCompare) {
      llvm::Value *r = b_.CreateCall(runtimeFn("mahou_rt_list_compare", i32, {ptr, ptr}), {list.v, other.v});
      result = {b_.CreateSExt(r, i64()), false};
    } else {
      llvm::Value *c = b_.CreateCall(runtimeFn("mahou_rt_list_concat", ptr, {ptr, ptr}), {list.v, other.v});
      checkNotNull(c);
      result = {c, true};
    }
    release(other, e.args[1]->type);
    break;
  }
  case ObjectOp::ListRepeat: {
    llvm::Value *c = b_.CreateCall(runtimeFn("mahou_rt_list_repeat", ptr, {ptr, i64()}), {list.v, scalarExpr(*e.args[1])});
    checkNotNull(c);
    result = {c, true};
    break;
  }
  case ObjectOp::ListSlice: {
    auto a = sliceArgs();
    auto fn = runtimeFn("mahou_rt_list_slice", ptr, {ptr, i64(), i64(), i64(), i32});
    llvm::Value *c = b_.CreateCall(fn, {list.v, a[0], a[1], a[2], a[3]});
    checkNotNull(c);
    result = {c, true};
    break;
  }
  case ObjectOp::ListSetSlice: {
    auto a = sliceArgs();
    Value src = expr(*e.args[4]);
    holdForError(src, e.args[4]->type);
    auto fn = runtimeFn("mahou_rt_list_setslice", i32, {ptr, i64(), i64(), i64(), i32, ptr});
    checkStatus(b_.CreateCall(fn, {list.v, a[0], a[1], a[2], a[3], src.v}));
    release(src, e.args[4]->type);
    result = noneResult();
    break;
  }
  case ObjectOp::ListDelSlice: {
    auto a = sliceArgs();
    auto fn = runtimeFn("mahou_rt_list_delslice", i32, {ptr, i64(), i64(), i64(), i32});
    checkStatus(b_.CreateCall(fn, {list.v, a[0], a[1], a[2], a[3]}));
    result = noneResult();
    break;
  }
  case ObjectOp::ListIndex:
  case ObjectOp::ListCount:
  case ObjectOp::ListRemove:
  case ObjectOp::ListContains: {
    Value held;
    llvm::Value *slot = itemArg(*e.args[1], held);
    holdForError(held, item);
    if (op == ObjectOp::ListRemove) {
      checkStatus(b_.CreateCall(runtimeFn("mahou_rt_list_remove", i32, {ptr, ptr}), {list.v, slot}));
      result = noneResult();
    } else if (op == ObjectOp::ListCount) {
      result = {b_.CreateCall(runtimeFn("mahou_rt_list_count", i64(), {ptr, ptr}), {list.v, slot}), false};
    } else {
      llvm::Value *start = op == ObjectOp::ListIndex ? scalarExpr(*e.args[2]) : c64(0);
      llvm::Value *stop = op == ObjectOp::ListIndex ? scalarExpr(*e.args[3]) : c64(INT64_MAX);
      auto fn = runtimeFn("mahou_rt_list_find", i64(), {ptr, ptr, i64(), i64()});
      llvm::Value *at = b_.CreateCall(fn, {list.v, slot, start, stop});
      if (op == ObjectOp::ListContains) {
        result = {b_.CreateICmpSGE(at, c64(0)), false};
      } else {
        auto *missing = newBlock("index.missing");
        auto *found = newBlock("index.found");
        b_.CreateCondBr(b_.CreateICmpSLT(at, c64(0)), missing, found, llvm::MDBuilder(ctx()).createBranchWeights(1, 1000));
        b_.SetInsertPoint(missing); // ValueError('x is not in list')
        b_.CreateCall(runtimeFn("mahou_rt_list_index_error", b_.getVoidTy(), {ptr, ptr}), {list.v, slot});
        b_.CreateBr(errorExit());
        b_.SetInsertPoint(found);
        result = {at, false};
      }
    }
    release(held, item);
    break;
  }
  case ObjectOp::ListArgsort: {
    llvm::Value *n = b_.CreateLoad(i64(), listField(list.v, kListSize));
    Type at = e.type;
    llvm::Value *arr = allocateArray(at, {n});
    auto fn = runtimeFn("mahou_rt_list_argsort", voidT, {ptr, i32, ptr});
    b_.CreateCall(fn, {list.v, b_.CreateZExt(scalarExpr(*e.args[1]), i32), arrayData(arr)});
    result = {arr, true};
    break;
  }
  default: internalError(std::string("list operation ") + ir::objectOpName(op) + " is not lowered");
  }
  dropHeld(heldMark);
  release(list, lt);
  return result;
}

} // namespace mahou::codegen
