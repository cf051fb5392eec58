// Typing of NumPy's fixed-width character sequences (S<n>/U<n> array items and record
// fields): an item is read at once into a str (U) or a bytes value (S), so every str or
// bytes operation applies, and a value stored into one is truncated to the width and
// NUL-padded; every use on the GPU is refused.
#include "typer.h"
#include "sema/arrays.h"
#include "sema/typers.h"

namespace mahou::sema {

using ObjectOp = ir::ObjectOp;

namespace {

void refuseCharSeq(const Typing &t, const Type &cs, Loc loc, const std::string &what) {
  if (t.gpu()) t.notSupported(loc, what + " of type " + cs.str() + " is not supported in CUDA kernels");
}

// The item's bytes as a 1-D uint8 array over the same memory, owning nothing (a carray of
// the item's address; it lives only inside the library call it is passed to).
ExprPtr charSeqBytesView(ExprPtr cs, Loc loc) {
  const Type ct = cs->type;
  auto e = std::make_unique<ir::Expr>(ir::ExprOp::ArrayFromPointer,
                                      Type::array(DType::UInt8, 1, types::Layout::C, false), loc);
  e->args.push_back(std::move(cs));
  e->args.push_back(ir::makeConst(Type::int64(), loc, ct.itemsize));
  return e;
}

// An S item's store: the bytes value first (Python's order), then the item's memory.
ExprPtr storeBytesItem(Typing &t, ExprPtr cs, ExprPtr value, Loc loc) {
  const Type vt = value->type;
  if (!isBytesValue(vt))
    t.error(loc, "cannot store " + vt.str() + " into an item of type " + cs->type.str() + " (a bytes is expected)");
  std::vector<ExprPtr> args;
  args.push_back(std::move(value));
  args.push_back(charSeqBytesView(std::move(cs), loc));
  auto r = t.libraryCallTyped("internal.charseq_store_bytes", "the store into an S item", std::move(args), loc);
  if (!r) t.notSupported(loc, "storing into an S item is not available (the library is missing)");
  return r;
}

} // namespace

ExprPtr charSeqValue(Typing &t, ExprPtr cs, Loc loc) {
  refuseCharSeq(t, cs->type, loc, "reading a string");
  if (!cs->type.isUnicodeCharSeq()) { // S: a new bytes value of the item's bytes up to its trailing NULs
    std::vector<ExprPtr> args;
    args.push_back(charSeqBytesView(std::move(cs), loc));
    auto r = t.libraryCallTyped("internal.charseq_bytes", "reading an S item", std::move(args), loc);
    if (!r) t.notSupported(loc, "reading an S item is not available (the library is missing)");
    return r;
  }
  std::vector<ExprPtr> args;
  args.push_back(std::move(cs));
  return objectOp(t, ObjectOp::CharSeqGet, Type::unicode(), std::move(args), loc);
}

void storeCharSeq(Typing &t, ExprPtr cs, ExprPtr value, Loc loc, ir::Block &out) {
  const Type ct = cs->type;
  refuseCharSeq(t, ct, loc, "storing into a string");
  if (Typing::isUnknown(value)) return;
  if (ct.readonly) t.error(loc, "cannot assign to an item of a read-only array");
  if (!ct.isUnicodeCharSeq()) {
    auto st = std::make_unique<ir::Stmt>(ir::StmtOp::Eval, loc);
    st->exprs.push_back(storeBytesItem(t, std::move(cs), std::move(value), loc));
    out.push_back(std::move(st));
    return;
  }
  if (!value->type.isString())
    t.error(loc, "cannot store " + value->type.str() + " into an item of type " + ct.str() + " (a str is expected)");
  std::vector<ExprPtr> args;
  args.push_back(std::move(cs));
  args.push_back(t.convert(std::move(value), Type::unicode(), "the store into a string item"));
  auto st = std::make_unique<ir::Stmt>(ir::StmtOp::Eval, loc);
  st->exprs.push_back(objectOp(t, ObjectOp::CharSeqSet, Type::none(), std::move(args), loc));
  out.push_back(std::move(st));
}

void fillCharSeqs(Typing &t, ExprPtr view, ExprPtr value, Loc loc, ir::Block &out) {
  const Type vt = view->type;
  refuseCharSeq(t, vt.elems[0], loc, "storing into a string");
  if (vt.readonly) t.error(loc, "cannot assign to a slice of a read-only array");
  if (!vt.elems[0].isUnicodeCharSeq()) { // S: the bytes value into every item of the view
    if (Typing::isUnknown(value)) return;
    if (!isBytesValue(value->type))
      t.notSupported(loc, "storing " + value->type.str() + " into a slice of " + vt.str() +
                              " is not supported (a bytes is stored into every item)");
    std::vector<ExprPtr> args;
    args.push_back(std::move(value));
    args.push_back(std::move(view));
    auto st = std::make_unique<ir::Stmt>(ir::StmtOp::Eval, loc);
    st->exprs.push_back(t.libraryCallTyped("internal.charseq_fill_bytes", "the store into a slice of S items",
                                           std::move(args), loc));
    out.push_back(std::move(st));
    return;
  }
  if (!value->type.isString())
    t.notSupported(loc, "storing " + value->type.str() + " into a slice of " + vt.str() +
                            " is not supported (a str is stored into every item)");
  std::vector<ExprPtr> args;
  args.push_back(std::move(view));
  args.push_back(t.convert(std::move(value), Type::unicode(), "the store into a slice of strings"));
  auto st = std::make_unique<ir::Stmt>(ir::StmtOp::Eval, loc);
  st->exprs.push_back(objectOp(t, ObjectOp::CharSeqFill, Type::none(), std::move(args), loc));
  out.push_back(std::move(st));
}

void augAssignCharSeqItem(Typing &t, ExprPtr base, const ast::AugAssign &s, const ast::Expr &index, ir::Block &out) {
  const Type at = base->type;
  auto idx = t.elementIndices(at, index);
  if (!idx) t.notSupported(s.loc, "augmented assignment to a slice of " + at.str() + " is not supported");
  for (auto &i : *idx)
    if (Typing::isUnknown(i)) return;
  // The array and each index evaluated once, then a[i] = a[i] <op> value.
  auto once = [&](ExprPtr e) -> ExprPtr {
    if (t.isPureValue(*e)) return e;
    return t.load(t.holdInTemp(std::move(e), s.loc, out), s.loc);
  };
  ExprPtr arr = once(std::move(base));
  std::vector<ExprPtr> indices;
  for (auto &i : *idx) indices.push_back(once(std::move(i)));
  auto item = [&] {
    std::vector<ExprPtr> args;
    args.push_back(ir::clone(*arr));
    for (auto &i : indices) args.push_back(ir::clone(*i));
    Type cs = at.elems[0];
    cs.readonly = at.readonly;
    return objectOp(t, ObjectOp::RecordItem, cs, std::move(args), s.loc);
  };
  auto v = t.binary(s.op, charSeqValue(t, item(), s.loc), t.expr(*s.value), s.loc);
  storeCharSeq(t, item(), std::move(v), s.loc, out);
}

} // namespace mahou::sema
