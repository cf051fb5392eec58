// Typing of NumPy records (structured scalars) and arrays of them: fields by attribute
// and by constant index (a literal string or integer, also one from a constant tuple or
// literal_unroll), an element of an array of records (a record that views the array),
// views of arrays of records, and a field of an array of records as an array view
// (on the CPU and in CUDA kernels alike: every operation is a load or store at an offset).
#include "typer.h"
#include "sema/typers.h"
#include "sema/use_checker.h"

namespace mahou::sema {

using ObjectOp = ir::ObjectOp;

namespace {

// A record operation done for its effect (a store).
ir::StmtPtr effect(ExprPtr e) {
  Loc loc = e->loc;
  auto st = std::make_unique<ir::Stmt>(ir::StmtOp::Eval, loc);
  st->exprs.push_back(std::move(e));
  return st;
}

const Type &recordOf(const Type &t) { return t.isRecord() ? t : t.elems[0]; }

} // namespace

int recordFieldIndex(Typing &t, const Type &rec, const ast::Expr &index, Loc loc) {
  auto i = t.constInt(index);
  std::string name;
  if (i) { // rec[0]: the field at that position
    int64_t n = int64_t(rec.fields.size());
    int64_t k = *i < 0 ? *i + n : *i;
    if (k < 0 || k >= n) t.error(index.loc, "index " + std::to_string(*i) + " out of range for " + rec.str());
    return int(k);
  }
  auto v = t.expr(index);
  if (t.isUnknown(v)) return -1;
  if (v->type.kind != Kind::Str)
    t.error(index.loc, "a field of " + rec.str() + " is indexed by a constant string or integer, not by a " +
                         v->type.str() + " (the field must be known when compiling)");
  int k = rec.fieldIndex(v->type.text);
  if (k < 0) t.error(loc, rec.str() + " has no field '" + v->type.text + "'");
  return k;
}

namespace {

// r.x / r['x'] of a record.
ExprPtr recordGet(Typing &t, ExprPtr rec, int field, Loc loc) {
  const Type rt = rec->type;
  std::vector<ExprPtr> args;
  args.push_back(std::move(rec));
  Type ft = rt.elems[size_t(field)];
  if (!ft.isCharSeq())
    return objectOp(t, ObjectOp::RecordGet, ft, std::move(args), loc, rt.offsets[size_t(field)]);
  ft.readonly = rt.readonly; // the field's characters, then their str
  return charSeqValue(t, objectOp(t, ObjectOp::RecordGet, ft, std::move(args), loc, rt.offsets[size_t(field)]), loc);
}

// a.x / a['x'] of an array of records: the field's values as a view with the same shape and strides.
ExprPtr recordFieldView(Typing &t, ExprPtr arr, int field, Loc loc) {
  const Type at = arr->type;
  const Type &rec = at.elems[0];
  const Type &ft = rec.elems[size_t(field)];
  Type vt = ft.isCharSeq() ? Type::recordArray(ft, at.ndim, types::Layout::A, at.readonly)
                           : Type::array(ft.dtype, at.ndim, types::Layout::A, at.readonly);
  std::vector<ExprPtr> args;
  args.push_back(std::move(arr));
  return objectOp(t, ObjectOp::RecordFieldView, vt, std::move(args), loc, rec.offsets[size_t(field)]);
}

} // namespace

void recordSet(Typing &t, ExprPtr rec, int field, ExprPtr value, Loc loc, ir::Block &out) {
  const Type rt = rec->type;
  if (t.isUnknown(value)) return;
  const Type &ft = rt.elems[size_t(field)];
  if (rt.readonly) t.error(loc, "cannot assign to the field '" + rt.fields[size_t(field)] + "' of a record of a read-only array");
  if (ft.isCharSeq()) { // r.name = 'text': the str's characters into the field's
    std::vector<ExprPtr> args;
    args.push_back(std::move(rec));
    auto cs = objectOp(t, ObjectOp::RecordGet, ft, std::move(args), loc, rt.offsets[size_t(field)]);
    storeCharSeq(t, std::move(cs), std::move(value), loc, out);
    return;
  }
  if (!value->type.isNumber())
    t.error(loc, "cannot store " + value->type.str() + " into the field '" + rt.fields[size_t(field)] + "' (" +
                   ft.str() + ") of " + rt.str());
  std::vector<ExprPtr> args;
  args.push_back(std::move(rec));
  args.push_back(t.convert(std::move(value), ft, "the assignment to field '" + rt.fields[size_t(field)] + "'"));
  out.push_back(effect(objectOp(t, ObjectOp::RecordSet, Type::none(), std::move(args), loc, rt.offsets[size_t(field)])));
}

// r.x of a record; a.x of an array of records (a view of the field).
ExprPtr recordFieldAttribute(Use &u) {
  const Type t = u.self->type;
  const Type &rec = recordOf(t);
  int k = rec.fieldIndex(u.name);
  if (t.isRecord()) {
    if (k < 0) u.error(rec.str() + " has no field '" + u.name + "'");
    return recordGet(u.t, std::move(u.self), k, u.loc);
  }
  if (k < 0)
    u.notSupported("the attribute '" + u.name + "' of " + t.str() + " is not supported (" + rec.str() +
                   " has no field of that name)");
  return recordFieldView(u.t, std::move(u.self), k, u.loc);
}

ExprPtr recordMethod(Use &u) {
  u.notSupported("the method '" + u.name + "' of " + u.self->type.str() + " is not supported");
}

// a.shape, a.strides, a.ndim, a.size of an array of records: the array's own.
ExprPtr recordArrayShapeAttribute(Use &u) {
  return arrayShapeAttribute(u);
}

ExprPtr recordArrayNdimAttribute(Use &u) {
  return arrayNdimAttribute(u);
}

ExprPtr recordArraySizeAttribute(Use &u) {
  return arraySizeAttribute(u);
}

ExprPtr recordArrayItemsizeAttribute(Use &u) {
  return ir::makeConst(Type::int64(), u.loc, u.self->type.elems[0].itemsize);
}

// a.dtype of an array of records or strings: the structured (S/U) dtype as a compile-time
// value, as a global or argument dtype is (a DTypeObj holding the item type).
ExprPtr recordArrayDtypeAttribute(Use &u) {
  Type item = u.self->type.elems[0];
  item.readonly = false; // a property of the array's items, not of the dtype
  Type t = Type::dtypeObj(types::DType::UInt8);
  t.elems.push_back(std::move(item));
  return ir::makeConst(t, u.loc, types::kDTypeValue);
}

ExprPtr recordArrayNbytesAttribute(Use &u) {
  int64_t itemsize = u.self->type.elems[0].itemsize;
  auto s = std::make_unique<ir::Expr>(ir::ExprOp::ArraySize, Type::int64(), u.loc);
  s->args.push_back(std::move(u.self));
  return u.t.binary(ast::BinOpKind::Mult, std::move(s), ir::makeConst(Type::int64(), u.loc, itemsize), u.loc);
}

// a.copy() of an array of records or strings: a C-contiguous copy of the items' bytes.
ExprPtr recordArrayCopyMethod(Use &u) {
  u.t.requireHost(u.loc, "a.copy()");
  u.args(0, 0, {}, "copy");
  const Type at = u.self->type;
  auto c = std::make_unique<ir::Expr>(ir::ExprOp::ArrayCopy, Type::recordArray(at.elems[0], at.ndim, types::Layout::C),
                                      u.loc);
  c->args.push_back(std::move(u.self));
  return c;
}

ExprPtr recordArrayTAttribute(Use &u) {
  const Type t = u.self->type;
  if (t.ndim == 1) return std::move(u.self);
  u.notSupported("the attribute 'T' of " + t.str() + " is not supported (" + t.elems[0].str() +
                 " has no field of that name)");
}

namespace {
// The record an element of an array of records is: read-only when the array is.
Type elementRecord(const Type &arrayType) {
  Type rec = arrayType.elems[0];
  rec.readonly = arrayType.readonly;
  return rec;
}
} // namespace

ExprPtr recordArrayElement(Typing &t, ExprPtr arr, ExprPtr index, Loc loc) {
  const Type at = arr->type;
  std::vector<ExprPtr> args;
  args.push_back(std::move(arr));
  args.push_back(std::move(index));
  auto item = objectOp(t, ObjectOp::RecordItem, elementRecord(at), std::move(args), loc);
  return at.isCharSeqArray() ? charSeqValue(t, std::move(item), loc) : std::move(item);
}

ExprPtr recordSubscript(Typing &t, ExprPtr base, const ast::Expr &index, Loc loc) {
  const Type ty = base->type;
  if (ty.isRecord()) {
    int k = recordFieldIndex(t, ty, index, loc);
    if (k < 0) return t.unknown(loc);
    return recordGet(t, std::move(base), k, loc);
  }
  // An array of records: a['x'] is a field's view; integers and slices index the array.
  if (index.kind == ast::ExprKind::StrLit || index.kind == ast::ExprKind::Name) { // a['x'], a[f] with f constant
    auto probe = t.expr(index);
    if (t.isUnknown(probe)) return t.unknown(loc);
    if (probe->type.kind == Kind::Str) {
      int k = ty.elems[0].fieldIndex(probe->type.text);
      if (k < 0) t.error(loc, ty.elems[0].str() + " has no field '" + probe->type.text + "'");
      return recordFieldView(t, std::move(base), k, loc);
    }
    if (probe->type.isString())
      t.error(index.loc, "a field of " + ty.str() + " is indexed by a constant string, not by a " + probe->type.str());
  }
  auto r = t.indexArray(std::move(base), index, loc);
  if (t.isUnknown(r)) return r;
  if (r->op == ir::ExprOp::ArrayItem) { // every axis indexed: the record there
    std::vector<ExprPtr> args = std::move(r->args);
    auto item = objectOp(t, ObjectOp::RecordItem, elementRecord(ty), std::move(args), loc);
    return ty.isCharSeqArray() ? charSeqValue(t, std::move(item), loc) : std::move(item);
  }
  if (r->op == ir::ExprOp::ArrayView) {
    r->type = Type::recordArray(ty.elems[0], r->type.ndim, r->type.layout, r->type.readonly);
    return r;
  }
  t.notSupported(loc, "indexing " + ty.str() + " with an index array is not supported");
}

void storeRecordItem(Typing &t, ExprPtr base, const ast::Expr &index, ExprPtr value, Loc loc, ir::Block &out) {
  const Type ty = base->type;
  if (ty.isRecordArray()) { // a[i] = r: the record's bytes copied into the element
    if (ty.readonly) t.error(loc, "cannot assign to an item of a read-only array");
    auto idx = t.elementIndices(ty, index);
    if (!idx && ty.isCharSeqArray()) { // a[1:3] = 'x': the str into every item of the view
      auto view = t.indexArray(std::move(base), index, loc);
      if (t.isUnknown(view) || t.isUnknown(value)) return;
      if (view->op != ir::ExprOp::ArrayView)
        t.notSupported(loc, "storing into " + ty.str() + " through an index array is not supported");
      view->type = Type::recordArray(ty.elems[0], view->type.ndim, view->type.layout, view->type.readonly);
      fillCharSeqs(t, std::move(view), std::move(value), loc, out);
      return;
    }
    if (!idx)
      t.notSupported(loc, "storing into a slice or a field of " + ty.str() +
                            " is not supported (store a record into one element, or into a record's field)");
    for (auto &i : *idx)
      if (t.isUnknown(i)) return;
    if (t.isUnknown(value)) return;
    if (ty.isCharSeqArray()) { // a[i] = 'text': the str's characters into the item's
      std::vector<ExprPtr> args;
      args.push_back(std::move(base));
      for (auto &i : *idx) args.push_back(std::move(i));
      storeCharSeq(t, objectOp(t, ObjectOp::RecordItem, elementRecord(ty), std::move(args), loc), std::move(value),
                   loc, out);
      return;
    }
    Type want = ty.elems[0], got = value->type;
    got.readonly = false;
    if (got != want) t.error(loc, "cannot store " + value->type.str() + " into an element of " + ty.str());
    std::vector<ExprPtr> args;
    args.push_back(std::move(base));
    for (auto &i : *idx) args.push_back(std::move(i));
    args.push_back(std::move(value));
    out.push_back(effect(objectOp(t, ObjectOp::RecordStore, Type::none(), std::move(args), loc)));
    return;
  }
  int k = recordFieldIndex(t, ty, index, loc);
  if (k < 0) return;
  recordSet(t, std::move(base), k, std::move(value), loc, out);
}

void storeRecordField(Typing &t, ExprPtr rec, const std::string &attr, ExprPtr value, Loc loc, ir::Block &out) {
  const Type ty = rec->type;
  if (!ty.isRecord()) t.notSupported(loc, "assigning to an attribute of " + ty.str() + " is not supported");
  int k = ty.fieldIndex(attr);
  if (k < 0) t.error(loc, ty.str() + " has no field '" + attr + "'");
  recordSet(t, std::move(rec), k, std::move(value), loc, out);
}

void augAssignRecordField(Typing &t, ExprPtr rec, int field, const ast::AugAssign &s, ir::Block &out) {
  // The record is evaluated once: a variable is read again, anything else is held.
  int self = -1;
  if (!t.isPureValue(*rec)) self = t.holdInTemp(std::move(rec), s.loc, out);
  auto again = [&] { return self >= 0 ? t.load(self, s.loc) : ir::clone(*rec); };
  auto v = t.binary(s.op, recordGet(t, again(), field, s.loc), t.expr(*s.value), s.loc);
  recordSet(t, again(), field, std::move(v), s.loc, out);
}

void refuseRecordOperand(const Typing &t, const ExprPtr &e, Loc loc, const std::string &what) {
  if (e->type.isRecord() || e->type.isRecordArray())
    t.notSupported(loc, what + " of " + e->type.str() + " is not supported");
}

} // namespace mahou::sema

namespace mahou::sema {

namespace {

bool recordish(const Type &t) {
  if (t.isRecord() || t.isRecordArray()) return true;
  for (auto &e : t.elems)
    if (recordish(e)) return true;
  return false;
}

// Operations that handle an array of records by its shape and strides alone, or pass
// records and arrays of them on as values. Every other operation reads elements by the
// array's dtype, which a record array does not have.
bool takesRecords(const ir::Expr &e) {
  switch (e.op) {
  case ir::ExprOp::LoadVar:
  case ir::ExprOp::Let:
  case ir::ExprOp::Seq:
  case ir::ExprOp::Select:
  case ir::ExprOp::TupleMake:
  case ir::ExprOp::TupleGet:
  case ir::ExprOp::TupleIndex:
  case ir::ExprOp::TupleSlice:
  case ir::ExprOp::TupleConcat:
  case ir::ExprOp::Call:
  case ir::ExprOp::ArrayView:
  case ir::ExprOp::ArrayShape:
  case ir::ExprOp::ArrayStride:
  case ir::ExprOp::ArraySize:
  case ir::ExprOp::ArrayStrided: // as_strided: a view by shape and strides
  case ir::ExprOp::ArrayAlloc:   // np.empty/np.zeros(n, dtype=rec): typed only for those
  case ir::ExprOp::GenNext: return true;
  case ir::ExprOp::Object: { // records are kept in containers, not formatted or hashed
    auto kind = ir::objectOpKind(ir::ObjectOp(e.sub));
    return kind != ir::ObjectOpKind::Str && kind != ir::ObjectOpKind::Hash;
  }
  case ir::ExprOp::Cast: return recordish(e.type); // to an optional, or another layout
  case ir::ExprOp::ArrayCopy: // a.copy(): the items' bytes into an array of the same items
    return e.type.isRecordArray() && e.args[0]->type.isRecordArray() && e.type.elems == e.args[0]->type.elems;
  default: return false;
  }
}

// What checkRecordUses walks for (use_checker.h): records and arrays of them.
struct RecordUses {
  const Typing &t;

  bool restricted(const Type &type) const { return recordish(type); }
  bool takes(const ir::Expr &e) const { return takesRecords(e); }
  bool allows(const ir::Stmt &s) const {
    return s.op == ir::StmtOp::Assign || s.op == ir::StmtOp::Eval || s.op == ir::StmtOp::Return ||
           s.op == ir::StmtOp::Yield || s.op == ir::StmtOp::If || s.op == ir::StmtOp::While;
  }
  void visit(const ir::Stmt &) const {}
  [[noreturn]] void refuse(Loc loc, const Type &what, const std::string &op) const {
    if (what.isCharSeqArray())
      t.notSupported(loc, "the operation '" + op + "' on " + what.str() +
                              " is not supported (arrays of strings support indexing, slicing, iteration, len, "
                              "their shape, copy() and storing a str into an item)");
    t.notSupported(loc, "the operation '" + op + "' on " + what.str() +
                            " is not supported (records support their fields, indexing, slicing, iteration and len)");
  }
};

} // namespace

void checkRecordUses(const Typing &t, const ir::Block &body) {
  RecordUses uses{t};
  UseChecker<RecordUses>{uses}.block(body);
}

std::optional<Type> recordDtype(Typing &t, const ast::Expr &e) {
  if (e.as<ast::StrLit>()) return std::nullopt;
  if (auto *n = e.as<ast::Name>(); n && !t.localVariable(n->id) && t.global(n->id).kind == GlobalValue::Kind::Builtin)
    return std::nullopt; // float, int, ...
  auto v = t.expr(e);
  if (!Typing::isUnknown(v) && v->type.kind == Kind::DTypeObj && !v->type.elems.empty()) return v->type.elems[0];
  return std::nullopt;
}

} // namespace mahou::sema
