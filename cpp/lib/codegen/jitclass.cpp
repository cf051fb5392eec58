// Lowering of @jitclass instances: allocation through the runtime (zeroed fields and
// the field descriptor the destructor reads), field reads and writes at their byte
// offsets with the fields' references counted, and identity.
#include "lowering.h"

#include "mahou/jitclass.h"
#include "mahou/objects.h"

namespace mahou::codegen {

// An array from NumPy has no meminfo (its argument keeps it alive during the call);
// stored in an instance, which may outlive the call, it gets one holding the ndarray.
// A Generator argument likewise gets a holder of the Generator object.
llvm::Value *FunctionLowering::adoptArgumentArray(llvm::Value *arr) { return adoptParent(arr, 0, 1); }

llvm::Value *FunctionLowering::adoptParent(llvm::Value *arr, unsigned holderField, unsigned parentField) {
  llvm::Value *mi = b_.CreateExtractValue(arr, {holderField});
  llvm::Value *parent = b_.CreateExtractValue(arr, {parentField});
  auto *before = b_.GetInsertBlock();
  auto *adopt = newBlock("adopt");
  auto *done = newBlock("adopt.done");
  b_.CreateCondBr(b_.CreateAnd(b_.CreateIsNull(mi), b_.CreateIsNotNull(parent)), adopt, done,
                  llvm::MDBuilder(ctx()).createBranchWeights(1, 100));
  b_.SetInsertPoint(adopt);
  llvm::Value *held = b_.CreateCall(runtimeFn("mahou_rt_adopt_parent", b_.getPtrTy(), {b_.getPtrTy()}), {parent});
  checkNotNull(held);
  llvm::Value *adopted = b_.CreateInsertValue(arr, held, {holderField});
  auto *adoptEnd = b_.GetInsertBlock();
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
  auto *phi = b_.CreatePHI(arr->getType(), 2);
  phi->addIncoming(arr, before);
  phi->addIncoming(adopted, adoptEnd);
  return phi;
}

namespace {
// A value that may hold something borrowed from an argument (an array from NumPy, a
// Generator), at its top or inside tuples and optionals.
bool mayBorrow(const Type &t) {
  if (t.isArray() || t.isRandomGenerator()) return true;
  if (!t.isTuple() && !t.isOptional()) return false;
  for (auto &e : t.elems)
    if (mayBorrow(e)) return true;
  return false;
}
} // namespace

// `x` with a holder of its own for each borrowed array or Generator in it, also inside
// tuples and optionals (`out.append((a, 1))` keeps `a` alive after the call). A None
// optional holds zeros: no parent, so nothing is adopted.
llvm::Value *FunctionLowering::adoptBorrowed(llvm::Value *x, const Type &t) {
  if (t.isArray()) return adoptArgumentArray(x);
  if (t.isRandomGenerator()) return adoptParent(x, 2, 1);
  if (t.isTuple() || t.isOptional())
    for (unsigned i = 0, n = t.isOptional() ? 1 : unsigned(t.elems.size()); i < n; ++i) {
      const Type &et = t.elems[i];
      if (!mayBorrow(et)) continue;
      llvm::Value *item = fromMem(b_.CreateExtractValue(x, {i}), et);
      x = b_.CreateInsertValue(x, toMem(adoptBorrowed(item, et), et), {i});
    }
  return x;
}

llvm::Value *FunctionLowering::ownedForStore(Value v, const Type &t) {
  llvm::Value *x = t.hasRefs() ? own(v, t) : v.v;
  return mayBorrow(t) ? adoptBorrowed(x, t) : x;
}

Value FunctionLowering::instanceOp(const ir::Expr &e) {
  auto op = ir::ObjectOp(e.sub);
  auto *ptr = b_.getPtrTy();
  if (op == ir::ObjectOp::InstanceNew) {
    llvm::Value *desc = typeDescriptor(Type::tuple(e.type.elems));
    llvm::Value *obj = b_.CreateCall(runtimeFn("mahou_rt_instance_new", ptr, {ptr}), {desc});
    checkNotNull(obj);
    return {obj, true};
  }
  if (op == ir::ObjectOp::InstanceIs) {
    Value a = expr(*e.args[0]);
    Value b = expr(*e.args[1]);
    llvm::Value *same = b_.CreateICmpEQ(a.v, b.v);
    release(a, e.args[0]->type);
    release(b, e.args[1]->type);
    return {same, false};
  }
  Value obj = expr(*e.args[0]);
  llvm::Value *field = b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), objectPayload(obj.v), uint64_t(e.ival));
  Value result{nullptr, false};
  if (op == ir::ObjectOp::InstanceGet) {
    const Type &ft = e.type;
    llvm::LoadInst *load = b_.CreateLoad(types_.mem(ft), field);
    tagMemory(load, MemoryKind::InstanceField);
    llvm::Value *x = fromMem(load, ft);
    if (ft.hasRefs()) incref(x, ft); // the caller owns it: the instance may drop it meanwhile
    result = {x, ft.hasRefs()};
  } else if (op == ir::ObjectOp::InstanceSet) {
    const Type &ft = e.args[1]->type;
    Value v = expr(*e.args[1]);
    llvm::Value *x = ownedForStore(v, ft);
    if (ft.hasRefs()) {
      llvm::LoadInst *load = b_.CreateLoad(types_.mem(ft), field);
      tagMemory(load, MemoryKind::InstanceField);
      llvm::Value *old = fromMem(load, ft);
      tagMemory(b_.CreateStore(toMem(x, ft), field), MemoryKind::InstanceField);
      decref(old, ft);
    } else {
      tagMemory(b_.CreateStore(toMem(x, ft), field), MemoryKind::InstanceField);
    }
    result = {llvm::Constant::getNullValue(types_.ssa(Type::none())), false};
  } else {
    internalError("instance operation not lowered");
  }
  release(obj, e.args[0]->type);
  return result;
}

} // namespace mahou::codegen
