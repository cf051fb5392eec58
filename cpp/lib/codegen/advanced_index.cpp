// Lowering of NumPy's general advanced indexing: ArrayFancyGet copies the elements it
// names into a new C array, FancyStore stores a scalar or a broadcast array into them.
// Index arrays broadcast together; every index is checked (and a negative one wrapped)
// before the first element moves, as NumPy does, whatever the other axes' lengths. A
// store reads index and value arrays that overlap the destination from a copy
// (FunctionLowering::unshared, array_stores.cpp).
#include "lowering.h"

namespace mahou::codegen {

namespace {

// The elements an ArrayFancyGet names: the view V, its entries' values, the shapes.
struct Selection {
  Value view;
  Type viewType;
  std::vector<Value> index;     // one per axis of V; .v null where the axis is kept
  std::vector<Type> indexType;
  std::vector<llvm::Value *> broadcast; // the index arrays' broadcast shape
  std::vector<llvm::Value *> shape;     // the selection's shape (the result's)
  int placeAt = 0;                      // where the broadcast axes are in `shape`
  std::vector<std::pair<Value, Type>> copies; // index arrays copied before a store
};

// An array type read through its strides (the array itself or a C copy of it).
Type strided(const Type &t) { return Type::array(t.dtype, t.ndim, types::Layout::A, t.readonly); }

void releaseCopy(FunctionLowering &fl, llvm::Value *copy, const Type &t) {
  // A null meminfo releases nothing.
  fl.release({copy, true}, Type::array(t.dtype, t.ndim, types::Layout::C));
}

// Evaluates V and the entries, checks and broadcasts the index arrays, and computes the
// selection's shape. `forStore`: index arrays that may share memory with V are copied.
Selection prepare(FunctionLowering &fl, const ir::Expr &e, bool forStore) {
  auto &B = fl.b_;
  Selection s;
  s.viewType = e.args[0]->type;
  s.view = fl.expr(*e.args[0]);
  fl.holdForError(s.view, s.viewType);
  const int nv = s.viewType.ndim;
  int bn = 0;
  for (int d = 0; d < nv; ++d) {
    const ir::Expr &x = *e.args[size_t(d) + 1];
    s.indexType.push_back(x.type);
    if (x.type.isNone()) {
      s.index.push_back({});
      continue;
    }
    Value v = fl.expr(x);
    if (x.type.isArray()) {
      fl.holdForError(v, x.type);
      bn = std::max(bn, x.type.ndim);
      if (forStore) { // NumPy reads the indices as they were before the first store
        llvm::Value *copy;
        v.v = fl.unshared(v.v, x.type, x, s.view.v, s.viewType, false, copy);
        s.copies.push_back({{copy, true}, x.type});
        fl.holdForError({copy, true}, Type::array(x.type.dtype, x.type.ndim, types::Layout::C));
        s.indexType.back() = strided(x.type); // the array or its C copy: read through the strides
      }
    } else {
      v.v = fl.wrapIndex(v.v, fl.arrayShape(s.view.v, d), true); // checked once, also when nothing is selected
    }
    s.index.push_back(v);
  }
  // Broadcast the index arrays' shapes (aligned on their last axes).
  llvm::Value *bad = B.getFalse();
  for (int j = 0; j < bn; ++j) {
    llvm::Value *extent = fl.c64(1);
    for (int d = 0; d < nv; ++d) {
      const Type &it = s.indexType[size_t(d)];
      if (!it.isArray() || j < bn - it.ndim) continue;
      llvm::Value *len = fl.arrayShape(s.index[size_t(d)].v, j - (bn - it.ndim));
      llvm::Value *notOne = B.CreateICmpNE(len, fl.c64(1));
      bad = B.CreateOr(bad, B.CreateAnd(notOne, B.CreateAnd(B.CreateICmpNE(extent, fl.c64(1)), B.CreateICmpNE(len, extent))));
      extent = B.CreateSelect(notOne, len, extent);
    }
    s.broadcast.push_back(extent);
  }
  fl.raiseIf(bad, types::ExcKind::IndexError, "shape mismatch: indexing arrays could not be broadcast together");
  // Every index of every array in range, before anything is read or stored.
  for (int d = 0; d < nv; ++d) {
    const Type &it = s.indexType[size_t(d)];
    if (!it.isArray()) continue;
    std::vector<llvm::Value *> extents;
    for (int k = 0; k < it.ndim; ++k) extents.push_back(fl.arrayShape(s.index[size_t(d)].v, k));
    llvm::Value *axis = fl.arrayShape(s.view.v, d);
    Type et = Type::scalar(it.dtype);
    fl.loopNest(extents, [&](const std::vector<llvm::Value *> &idx) {
      llvm::Value *raw = fl.fromMem(B.CreateLoad(fl.types_.mem(et), fl.elementPointer(s.index[size_t(d)].v, it, idx)), et);
      llvm::Value *i = fl.castScalar(raw, et, Type::int64());
      if (!types::isSigned(it.dtype)) // an unsigned index past int64's range is out of bounds too
        fl.raiseIf(B.CreateICmpSLT(i, fl.c64(0)), types::ExcKind::IndexError, "index out of bounds" + fl.where());
      fl.wrapIndex(i, axis, true);
    });
  }
  // The selection's shape: the kept axes, the broadcast ones first or where the indexed were.
  std::vector<llvm::Value *> kept;
  int firstIndexed = -1;
  for (int d = 0; d < nv; ++d) {
    if (s.indexType[size_t(d)].isNone()) kept.push_back(fl.arrayShape(s.view.v, d));
    else if (firstIndexed < 0) firstIndexed = int(kept.size());
  }
  s.placeAt = e.ival ? 0 : firstIndexed;
  s.shape = kept;
  s.shape.insert(s.shape.begin() + s.placeAt, s.broadcast.begin(), s.broadcast.end());
  return s;
}

// The address in V of the element at position `at` of the selection.
llvm::Value *selected(FunctionLowering &fl, const Selection &s, const std::vector<llvm::Value *> &at) {
  auto &B = fl.b_;
  const int nv = s.viewType.ndim, bn = int(s.broadcast.size());
  std::vector<llvm::Value *> coords;
  int keptSeen = 0;
  for (int d = 0; d < nv; ++d) {
    const Type &it = s.indexType[size_t(d)];
    if (it.isNone()) {
      coords.push_back(at[size_t(keptSeen < s.placeAt ? keptSeen : keptSeen + bn)]);
      ++keptSeen;
      continue;
    }
    if (!it.isArray()) {
      coords.push_back(s.index[size_t(d)].v);
      continue;
    }
    std::vector<llvm::Value *> pos;
    for (int k = 0; k < it.ndim; ++k) {
      llvm::Value *outer = at[size_t(s.placeAt + bn - it.ndim + k)];
      llvm::Value *len = fl.arrayShape(s.index[size_t(d)].v, k);
      pos.push_back(B.CreateSelect(B.CreateICmpEQ(len, fl.c64(1)), fl.c64(0), outer));
    }
    Type et = Type::scalar(it.dtype);
    llvm::Value *raw = fl.fromMem(B.CreateLoad(fl.types_.mem(et), fl.elementPointer(s.index[size_t(d)].v, it, pos)), et);
    coords.push_back(fl.wrapIndex(fl.castScalar(raw, et, Type::int64()), fl.arrayShape(s.view.v, d), false));
  }
  return fl.elementPointer(s.view.v, s.viewType, coords);
}

void finish(FunctionLowering &fl, Selection &s) {
  for (auto &[copy, t] : s.copies) releaseCopy(fl, copy.v, t);
  for (size_t d = 0; d < s.index.size(); ++d)
    if (s.indexType[d].isArray()) fl.release(s.index[d], s.indexType[d]);
  fl.release(s.view, s.viewType);
}

} // namespace

Value FunctionLowering::arrayFancyGet(const ir::Expr &e) {
  const size_t mark = heldForError_.size();
  Selection s = prepare(*this, e, false);
  llvm::Value *out = allocateArray(e.type, s.shape);
  Type elem = Type::scalar(e.type.dtype);
  llvm::Type *mt = types_.mem(elem);
  loopNest(s.shape, [&](const std::vector<llvm::Value *> &at) {
    b_.CreateStore(b_.CreateLoad(mt, selected(*this, s, at)), elementPointer(out, e.type, at));
  });
  dropHeld(mark);
  finish(*this, s);
  return {out, true};
}

void FunctionLowering::fancyStore(const ir::Stmt &st) {
  const ir::Expr &sel = *st.exprs[0], &valueE = *st.exprs[1];
  const Type &vt = valueE.type;
  const size_t mark = heldForError_.size();
  // Python's order: the value, then the array and its indices.
  Value value = expr(valueE);
  if (vt.isArray()) holdForError(value, vt);
  Selection s = prepare(*this, sel, true);
  Type elem = Type::scalar(sel.type.dtype);
  const int sn = int(s.shape.size());
  llvm::Value *valueRead = value.v, *valueCopy = nullptr;
  Type readType = vt;
  if (vt.isArray()) {
    // NumPy broadcasts the value to the selection's shape (extra leading axes of length 1).
    llvm::Value *bad = b_.getFalse();
    for (int k = 0; k < vt.ndim; ++k) {
      llvm::Value *len = arrayShape(value.v, k);
      int sd = sn - vt.ndim + k;
      llvm::Value *fits = b_.CreateICmpEQ(len, c64(1));
      if (sd >= 0) fits = b_.CreateOr(fits, b_.CreateICmpEQ(len, s.shape[size_t(sd)]));
      bad = b_.CreateOr(bad, b_.CreateNot(fits));
    }
    raiseIf(bad, types::ExcKind::ValueError, "shape mismatch: value array could not be broadcast to indexing result");
    // the value as it was before the first store (NumPy reads it first)
    valueRead = unshared(value.v, vt, valueE, s.view.v, s.viewType, false, valueCopy);
    holdForError({valueCopy, true}, Type::array(vt.dtype, vt.ndim, types::Layout::C));
    readType = strided(vt);
  }
  Type ve = vt.isArray() ? Type::scalar(vt.dtype) : vt;
  loopNest(s.shape, [&](const std::vector<llvm::Value *> &at) {
    llvm::Value *v = value.v;
    if (vt.isArray()) {
      std::vector<llvm::Value *> pos;
      for (int k = 0; k < vt.ndim; ++k) {
        int sd = sn - vt.ndim + k;
        llvm::Value *len = arrayShape(valueRead, k);
        pos.push_back(sd < 0 ? c64(0) : b_.CreateSelect(b_.CreateICmpEQ(len, c64(1)), c64(0), at[size_t(sd)]));
      }
      v = fromMem(b_.CreateLoad(types_.mem(ve), elementPointer(valueRead, readType, pos)), ve);
    }
    b_.CreateStore(toMem(castScalar(v, ve, elem), elem), selected(*this, s, at));
  });
  dropHeld(mark);
  if (valueCopy) releaseCopy(*this, valueCopy, vt);
  finish(*this, s);
  release(value, vt);
}

} // namespace mahou::codegen
