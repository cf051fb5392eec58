// bytes, bytearray, memoryview and array.array values (Numba's Buffer types): arrays over
// the object's memory whose Python operators and methods are not an ndarray's, so every use
// other than indexing, slicing, iteration, len() and memoryview's attributes is refused.
#include "sema/arrays.h"
#include "sema/typers.h"
#include "sema/use_checker.h"

#include <string_view>

namespace mahou::sema {

namespace {

enum BufferAttr { Nbytes, Itemsize, Ndim, Shape, Strides, Readonly, Contiguous, CContiguous, FContiguous };

bool bufferish(const Type &t) { return t.containsBuffer(); }

// Operations that read a buffer as Python reads the object it came from: its items (a[i],
// iteration, a copy of them), its views (slices), its length and shape, or pass it on.
bool takesBuffers(const ir::Expr &e) {
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
  case ir::ExprOp::Call:        // a compiled callee: typed (and checked) for the buffer
  case ir::ExprOp::ArrayItem:
  case ir::ExprOp::ArrayView:
  case ir::ExprOp::ArrayShape:
  case ir::ExprOp::ArrayStride:
  case ir::ExprOp::ArraySize:
  case ir::ExprOp::ArrayCopy:   // sorted(b), list(b): the items
  case ir::ExprOp::ArrayReduce: // sum(b), min(b), max(b), any(b), all(b)
  case ir::ExprOp::Cast:        // np.frombuffer: the same memory as an ndarray
  case ir::ExprOp::GenNext: return true;
  case ir::ExprOp::Object: { // kept in containers, not formatted or hashed (but bytes values' own runtime calls)
    auto kind = ir::objectOpKind(ir::ObjectOp(e.sub));
    return ir::ObjectOp(e.sub) == ir::ObjectOp::BytesCall ||
           (kind != ir::ObjectOpKind::Str && kind != ir::ObjectOpKind::Hash);
  }
  default: return false;
  }
}

// What checkBufferUses walks for (use_checker.h): buffers anywhere in a value's type.
struct BufferUses {
  const Typing &t;

  bool restricted(const Type &type) const { return bufferish(type); }
  bool takes(const ir::Expr &e) const { return takesBuffers(e); }
  bool allows(const ir::Stmt &s) const {
    return s.op == ir::StmtOp::Assign || s.op == ir::StmtOp::Eval || s.op == ir::StmtOp::If ||
           s.op == ir::StmtOp::While || s.op == ir::StmtOp::ForRange || s.op == ir::StmtOp::StoreItem ||
           s.op == ir::StmtOp::StoreView || s.op == ir::StmtOp::ParallelFor ||
           s.op == ir::StmtOp::Return || s.op == ir::StmtOp::Yield; // visit() refuses all but bytes
  }
  void visit(const ir::Stmt &s) const {
    if (s.op == ir::StmtOp::Return || s.op == ir::StmtOp::Yield)
      for (auto &x : s.exprs)
        if (bufferish(x->type) && !onlyBytes(x->type))
          t.notSupported(s.loc, "returning a " + x->type.str() +
                                    " is not supported: a bytearray, memoryview or array.array cannot be "
                                    "made again from compiled code (Numba refuses it too); return "
                                    "np.frombuffer(x, dtype) or a copy of the items");
  }
  // A bytes value (or tuples, lists, dicts and sets of them) is returned to Python as a new
  // bytes object.
  static bool onlyBytes(const Type &type) {
    if (type.isBuffer()) return type.buffer == types::BufferKind::Bytes && type.ndim == 1;
    if (!type.isTuple() && !type.isList() && !type.isDict() && !type.isSet()) return !bufferish(type);
    for (auto &e : type.elems)
      if (!onlyBytes(e)) return false;
    return true;
  }
  [[noreturn]] void refuse(Loc loc, const Type &what, const std::string &op) const {
    t.notSupported(loc, "the operation '" + op + "' on " + what.str() +
                            " is not supported (a bytes, bytearray, memoryview or array.array supports indexing, "
                            "slicing, iteration, len() and memoryview's attributes; np.frombuffer(x, dtype) makes "
                            "an ndarray of it)");
  }
};

// The struct module's letter of an integer dtype (memoryview's messages name it).
char formatChar(DType d) {
  switch (d) {
  case DType::Int8: return 'b';
  case DType::UInt8: return 'B';
  case DType::Int16: return 'h';
  case DType::UInt16: return 'H';
  case DType::Int32: return 'i';
  case DType::UInt32: return 'I';
  case DType::UInt64: return 'Q';
  default: return 'q';
  }
}

bool bufferBuiltin(std::string_view name) {
  static constexpr std::string_view kNames[] = {
#define MAHOU_BUFFER_BUILTIN(name) name,
#include "sema/buffer_builtins.def"
#undef MAHOU_BUFFER_BUILTIN
  };
  for (auto n : kNames)
    if (n == name) return true;
  return false;
}

} // namespace

void checkBufferUses(const Typing &t, const ir::Block &body) {
  BufferUses uses{t};
  UseChecker<BufferUses>{uses}.block(body);
}

ExprPtr bufferItem(const Type &buffer, ExprPtr item) {
  if (!buffer.isBuffer() || Typing::isUnknown(item)) return item;
  DType d = item->type.dtype;
  DType python = d == DType::Bool || d == DType::UInt64 || d == DType::Int64 ? d
                 : types::isInteger(d)                                          ? DType::Int64
                 : types::isComplex(d)                                          ? DType::Complex128
                                                                                : DType::Float64;
  return python == d ? std::move(item) : ir::makeCast(std::move(item), Type::scalar(python));
}

void refuseBufferArguments(Typing &t, Receiver receiver, const Entry &entry, const ast::Call &call) {
  bool builtins = receiver == Receiver::Builtins && !bufferBuiltin(entry.name);
  bool numpy = receiver == Receiver::Numpy && entry.typer != &npFrombuffer;
  if (!builtins && !numpy) return;
  auto check = [&](const ast::Expr &a) {
    auto *n = a.as<ast::Name>();
    if (!n || !t.localVariable(n->id)) return; // the checker of the typed body sees the others
    auto v = t.expr(a);
    if (Typing::isUnknown(v) || !v->type.isBuffer()) return;
    // NumPy reads bytearray, memoryview and array.array as arrays of their items, but a
    // bytes as one string scalar; builtins read each as the Python object it is.
    if (numpy && v->type.buffer != types::BufferKind::Bytes) return;
    std::string shown = numpy ? "np." + std::string(entry.name) : std::string(entry.name);
    t.notSupported(a.loc, shown + "() of a " + v->type.str() +
                              " is not supported (" +
                              (numpy ? "NumPy reads a bytes as a string scalar; use np.frombuffer(b, dtype)"
                                     : "only len(), iteration and the builtins that iterate over its items are") +
                              ")");
  };
  for (auto &a : call.args) check(*a);
  for (auto &k : call.keywords) check(*k.value);
}

ExprPtr bufferAttribute(Use &u) {
  const Type t = u.self->type;
  int attr = u.variant();
  if (t.buffer != types::BufferKind::MemoryView && !(t.buffer == types::BufferKind::PyArray && attr == Itemsize))
    u.error(std::string("'") + types::bufferKindName(t.buffer) + "' object has no attribute '" + u.name + "'");
  switch (attr) {
  case Readonly: return ir::makeConst(Type::boolean(), u.loc, t.readonly);
  case Contiguous:
  case CContiguous:
  case FContiguous: { // NumPy's flags of the same memory (memoryview's and NumPy's rules agree)
    std::vector<ExprPtr> args;
    Type plain = t;
    plain.buffer = types::BufferKind::None;
    args.push_back(u.t.convert(std::move(u.self), plain, "memoryview." + u.name));
    if (attr == Contiguous) { // C or F (NumPy's flags.contiguous is C only)
      auto r = u.t.libraryCallTyped("internal.memoryview_contiguous", "m.contiguous", std::move(args), u.loc);
      if (!r) u.notSupported("memoryview.contiguous is not available (the library is missing)");
      return r;
    }
    auto flags = u.t.libraryCallTyped("ndarray.flags", "m." + u.name, std::move(args), u.loc);
    if (!flags) u.notSupported("memoryview." + u.name + " is not available (the library is missing)");
    if (Typing::isUnknown(flags)) return flags;
    auto g = std::make_unique<ir::Expr>(ir::ExprOp::TupleGet, Type::boolean(), u.loc);
    g->ival = attr - Contiguous;
    g->args.push_back(std::move(flags));
    return g;
  }
  default: { // as an ndarray's attribute of the same name
    const Entry *e = findEntry(Receiver::Array, Member::Attribute, u.name);
    if (!e) internalError("memoryview attribute without an ndarray one");
    return typeUse(u.t, *e, u.name, nullptr, std::move(u.self), u.selfExpr, u.loc);
  }
  }
}

// np.frombuffer(buffer, dtype=float): the bytes of a C-contiguous buffer (or ndarray) read
// as a 1-D array of dtype over the same memory; read-only when the buffer is. Numba's form
// (no count or offset).
ExprPtr npFrombuffer(Use &u) {
  u.t.checkKeywords(*u.call, {"dtype"}, "np.frombuffer");
  if (u.call->args.empty() || u.call->args.size() > 2) u.error("np.frombuffer() takes a buffer and a dtype");
  auto buf = u.t.expr(*u.call->args[0]);
  DType dtype = DType::Float64;
  const ast::Expr *d = u.call->args.size() == 2 ? u.call->args[1].get() : u.keyword("dtype");
  if (d) {
    auto dt = u.t.dtypeArgument(*d);
    if (!dt) return u.unknown();
    dtype = *dt;
  }
  if (Typing::isUnknown(buf)) return u.unknown();
  const Type bt = buf->type;
  if (!bt.isArray() || bt.isRecordArray())
    u.error("np.frombuffer() needs a bytes, bytearray, memoryview, array.array or array, not " + bt.str());
  if (bt.layout != types::Layout::C)
    u.error("np.frombuffer() needs a C-contiguous buffer, not " + bt.str() + " (Numba refuses it too)");
  Type plain = Type::array(bt.dtype, bt.ndim, types::Layout::C, bt.readonly);
  std::vector<ExprPtr> args;
  args.push_back(u.t.convert(std::move(buf), plain, "np.frombuffer"));
  args.push_back(ir::makeConst(Type::dtypeObj(dtype), u.loc, 0));
  auto r = u.t.libraryCallTyped("internal.frombuffer", "np.frombuffer", std::move(args), u.loc);
  if (!r) u.notSupported("np.frombuffer is not available (the library is missing)");
  return r;
}

ExprPtr bufferStoredValue(Typing &t, const Type &buffer, ExprPtr value, Loc loc) {
  if (!buffer.isBuffer() || Typing::isUnknown(value) || !value->type.isNumber()) return value;
  DType d = buffer.dtype;
  const Type &vt = value->type;
  if (!types::isInteger(d) || d == DType::Bool) {
    if (d == DType::Bool || (types::isFloat(d) && vt.isComplex()))
      t.error(loc, "cannot store " + vt.str() + " into a " + buffer.str() + " (Python refuses it)");
    return value;
  }
  if (!vt.isInt() && !vt.isBool())
    t.error(loc, "cannot store " + vt.str() + " into a " + buffer.str() +
                     " (an integer is needed: Python raises TypeError)");
  if (vt.isBool() || d == DType::Int64 || (d == vt.dtype)) return value;
  if (types::dtypeBytes(vt.dtype) < types::dtypeBytes(d) && types::isSigned(vt.dtype) == types::isSigned(d))
    return value; // every value fits
  // Python's exception when the integer does not fit the item (never wrapped)
  int64_t lo = 0, hi = INT64_MAX;
  if (d != DType::UInt64) {
    int bits = int(types::dtypeBytes(d)) * 8;
    bool isSigned = types::isSigned(d);
    lo = isSigned ? -(int64_t(1) << (bits - 1)) : 0;
    hi = isSigned ? (int64_t(1) << (bits - 1)) - 1 : (int64_t(1) << bits) - 1;
  }
  std::string msg = buffer.buffer == types::BufferKind::ByteArray ? "byte must be in range(0, 256)"
                    : buffer.buffer == types::BufferKind::PyArray ? "array item out of range for its typecode"
                    : std::string("memoryview: invalid value for format '") + formatChar(d) + "'";
  std::vector<ExprPtr> args;
  args.push_back(t.convert(std::move(value), Type::int64(), "buffer store"));
  args.push_back(ir::makeConst(Type::int64(), loc, lo));
  args.push_back(ir::makeConst(Type::int64(), loc, hi));
  args.push_back(ir::makeConst(Type::boolean(), loc, buffer.buffer == types::BufferKind::PyArray));
  auto msgConst = ir::makeConst(Type::str_(msg), loc, 0);
  msgConst->symbol = msg;
  args.push_back(std::move(msgConst));
  auto r = t.libraryCallTyped("internal.buffer_item", "buffer store", std::move(args), loc);
  if (!r) t.notSupported(loc, "storing into a buffer is not available (the library is missing)");
  return r;
}

ExprPtr bufferSliceValue(Typing &t, const Type &view, ExprPtr value, Loc loc) {
  const Type vt = value->type;
  if (vt.isBuffer()) { // its items, as an ndarray's (a Cast the use checker lets through)
    Type plain = vt;
    plain.buffer = types::BufferKind::None;
    value = t.convert(std::move(value), plain, "a slice store");
  }
  if (!view.isBuffer() || (vt.isArray() && !vt.isRecordArray() && vt.dtype == view.dtype)) return value;
  t.error(loc, "cannot assign " + vt.str() + " to a slice of a " + view.str() +
                   " (Python assigns only a bytes-like object of the same items)");
}

} // namespace mahou::sema
