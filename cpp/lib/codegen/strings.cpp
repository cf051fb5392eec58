// Lowering of the string operations of the `object` expression: the length inline,
// everything else a call into the runtime (unicode.cpp, unicode_methods.cpp). StrCall
// calls the runtime function named by the expression's symbol with the operands as
// they are (strings and lists as pointers, integers as i64, bools as i32); BytesCall the
// same, a bytes value as its data pointer, length and byte stride (bytes_values.cpp); an object
// result that is null means the runtime set an error.
#include "lowering.h"

#include "mahou/objects.h"

namespace mahou::codegen {

using ObjectOp = ir::ObjectOp;

Value FunctionLowering::stringOp(const ir::Expr &e) {
  auto op = ObjectOp(e.sub);
  auto *ptr = b_.getPtrTy();
  auto *i32 = b_.getInt32Ty();
  std::vector<Value> held;
  std::vector<llvm::Value *> args;
  const size_t mark = heldForError_.size();
  for (auto &a : e.args) {
    held.push_back(expr(*a));
    holdForError(held.back(), a->type); // released if a later operand or the operation raises
    llvm::Value *v = held.back().v;
    if (op == ObjectOp::BytesCall && a->type.isArray()) { // a bytes value: its data, length and byte stride
      args.push_back(arrayData(v));
      args.push_back(arrayShape(v, 0));
      args.push_back(arrayStride(v, 0));
      continue;
    }
    if (a->type.isBool()) v = b_.CreateZExt(v, i32);
    args.push_back(v);
  }
  // Whether the runtime call failed (i1), branched on once the operands are released:
  // a temporary operand is released on the error path too (("ab" * n).split("")).
  llvm::Value *failed = nullptr;
  auto objectResult = [&](const char *fn, std::vector<llvm::Type *> params) {
    llvm::Value *r = b_.CreateCall(runtimeFn(fn, ptr, params), args);
    failed = b_.CreateIsNull(r);
    return Value{r, true};
  };
  auto statusOf = [&](llvm::Value *status) { failed = b_.CreateICmpNE(status, b_.getInt32(0)); };
  Value result{nullptr, false};
  switch (op) {
  case ObjectOp::StrLen:
    result = {b_.CreateLoad(i64(), objectPayload(args[0])), false}; // MahouStr::length
    break;
  case ObjectOp::StrConcat: result = objectResult("mahou_rt_str_concat", {ptr, ptr}); break;
  case ObjectOp::StrRepeat: result = objectResult("mahou_rt_str_repeat", {ptr, i64()}); break;
  case ObjectOp::StrGet: result = objectResult("mahou_rt_str_getitem", {ptr, i64()}); break;
  case ObjectOp::StrChr: result = objectResult("mahou_rt_str_chr", {i64()}); break;
  case ObjectOp::StrSlice:
    args.push_back(b_.getInt32(uint32_t(e.ival)));
    result = objectResult("mahou_rt_str_slice", {ptr, i64(), i64(), i64(), i32});
    break;
  case ObjectOp::StrEqual: {
    llvm::Value *r = b_.CreateCall(runtimeFn("mahou_rt_str_equal", b_.getInt8Ty(), {ptr, ptr}), args);
    result = {b_.CreateICmpNE(r, b_.getInt8(0)), false};
    break;
  }
  case ObjectOp::StrCompare: {
    llvm::Value *r = b_.CreateCall(runtimeFn("mahou_rt_str_compare", i32, {ptr, ptr}), args);
    result = {b_.CreateSExt(r, i64()), false};
    break;
  }
  case ObjectOp::StrHash: result = {b_.CreateCall(runtimeFn("mahou_rt_str_hash", i64(), {ptr}), args), false}; break;
  case ObjectOp::StrFind:
    args.push_back(b_.getInt32(uint32_t(e.ival)));
    result = {b_.CreateCall(runtimeFn("mahou_rt_str_find", i64(), {ptr, ptr, i64(), i64(), i32}), args), false};
    break;
  case ObjectOp::StrOrd: {
    llvm::Value *slot = entryAlloca(i64(), "ord");
    args.push_back(slot);
    statusOf(b_.CreateCall(runtimeFn("mahou_rt_str_ord", i32, {ptr, ptr}), args));
    result = {b_.CreateLoad(i64(), slot), false};
    break;
  }
  case ObjectOp::StrCall:
  case ObjectOp::BytesCall: {
    std::vector<llvm::Type *> params;
    for (auto *a : args) params.push_back(a->getType());
    const Type &rt = e.type;
    if (rt.isObject()) {
      result = objectResult(e.symbol.c_str(), params);
    } else if (rt.isBool()) {
      llvm::Value *r = b_.CreateCall(runtimeFn(e.symbol.c_str(), i32, params), args);
      result = {b_.CreateICmpNE(r, b_.getInt32(0)), false};
    } else if (rt.isInt()) {
      // Integer results that can fail come back through an out slot with a status.
      llvm::Value *slot = entryAlloca(i64(), "out");
      args.push_back(slot);
      params.push_back(ptr);
      statusOf(b_.CreateCall(runtimeFn(e.symbol.c_str(), i32, params), args));
      result = {castScalar(b_.CreateLoad(i64(), slot), Type::int64(), rt), false};
    } else if (rt.isFloat()) {
      llvm::Value *slot = entryAlloca(b_.getDoubleTy(), "out");
      args.push_back(slot);
      params.push_back(ptr);
      statusOf(b_.CreateCall(runtimeFn(e.symbol.c_str(), i32, params), args));
      result = {castScalar(b_.CreateLoad(b_.getDoubleTy(), slot), Type::float64(), rt), false};
    } else {
      internalError("string call @" + e.symbol + " with result " + rt.str());
    }
    break;
  }
  default: internalError(std::string("string operation ") + ir::objectOpName(op) + " is not lowered");
  }
  dropHeld(mark);
  for (size_t i = 0; i < held.size(); ++i) release(held[i], e.args[i]->type);
  if (failed) checkStatus(b_.CreateZExt(failed, i32));
  return result;
}

} // namespace mahou::codegen
