// IR verifier: the invariants codegen relies on, checked after every pass.
#include "mahou/ir.h"

namespace mahou::ir {

namespace {

using types::Kind;
using types::Type;

class Verifier {
public:
  explicit Verifier(const Function &fn) : fn_(fn) {}

  void run() {
    check(fn_.numParams <= int(fn_.vars.size()), "more parameters than variables");
    for (auto &v : fn_.vars) check(!v.type.containsUnknown(), "variable '" + v.name + "' has unknown type");
    check(!fn_.ret.containsUnknown(), "return type unknown");
    block(fn_.body, 0);
  }

private:
  void check(bool cond, const std::string &what) {
    if (!cond) internalError("IR verifier: " + what + " in function " + fn_.name);
  }

  void expr(const Expr &e) {
    check(!e.type.containsUnknown(), std::string("expression '") + exprOpName(e.op) + "' has unknown type");
    for (auto &a : e.args) expr(*a);
    for (auto &s : e.slots) {
      for (auto *p : {&s.index, &s.start, &s.stop, &s.step})
        if (*p) {
          expr(**p);
          check((*p)->type.isScalar(types::DType::Int64), "view index must be int64");
        }
    }
    auto nargs = [&](size_t n) { check(e.args.size() == n, std::string(exprOpName(e.op)) + " arity"); };
    switch (e.op) {
    case ExprOp::LoadVar:
      check(e.var >= 0 && e.var < int(fn_.vars.size()), "load of bad variable");
      check(fn_.vars[e.var].type == e.type, "load type differs from variable type");
      break;
    case ExprOp::Cast:
      nargs(1);
      check(e.type.isNumber() || e.type.isArray() || e.type.isTuple() || e.type.isOptional() ||
                (e.type.isEnumMember() && e.args[0]->type == e.type.elems[0]) ||
                (e.type.isUnicode() && e.args[0]->type.kind == Kind::Str) || e.args[0]->type.isOptional() ||
                (e.type.isList() && e.args[0]->type.isList()) ||
                (e.type.isDatetimeLike() && e.args[0]->type.isDatetimeLike() &&
                 e.type.isDatetime() == e.args[0]->type.isDatetime()), // a unit conversion
            "cast to " + e.type.str() + " from " + e.args[0]->type.str());
      break;
    case ExprOp::Seq:
      nargs(1);
      check(e.body != nullptr, "seq without statements");
      block(*e.body, 0);
      check(e.args[0]->type == e.type, "seq value type");
      break;
    case ExprOp::Object: objectOp(e); break;
    case ExprOp::GenNext:
      nargs(1);
      check(e.args[0]->type.isGenerator(), "gennext of a non-generator");
      check(e.sub == 0 ? e.type.isBool() : e.type == e.args[0]->type.elems[0], "gennext type");
      break;
    case ExprOp::Binary:
      nargs(2);
      check(e.args[0]->type == e.type, "binary lhs type differs from result type");
      if (BinaryOp(e.sub) != BinaryOp::Shl && BinaryOp(e.sub) != BinaryOp::Shr && BinaryOp(e.sub) != BinaryOp::Pow)
        check(e.args[1]->type == e.type, "binary rhs type differs from result type");
      break;
    case ExprOp::Unary:
      nargs(1);
      check(e.args[0]->type == e.type || UnaryOp(e.sub) == UnaryOp::Not, "unary operand type");
      break;
    case ExprOp::Compare:
      nargs(2);
      check(e.type.isBool(), "compare must give bool");
      check(e.args[0]->type == e.args[1]->type, "compare operands differ in type");
      break;
    case ExprOp::Truth: nargs(1); check(e.type.isBool(), "truth must give bool"); break;
    case ExprOp::Datetime: {
      auto op = DatetimeOp(e.sub);
      bool unary = op == DatetimeOp::Neg || op == DatetimeOp::Abs || op == DatetimeOp::Sign || op == DatetimeOp::IsNat;
      nargs(unary ? 1 : 2);
      check(e.args[0]->type.isDatetimeLike(), "datetime operand is not a datetime64 / timedelta64");
      if (op == DatetimeOp::IsNat) check(e.type.isBool(), "isnat must give bool");
      else if (op == DatetimeOp::DivTimedelta) check(e.type.isScalar(types::DType::Float64), "timedelta / timedelta gives float64");
      else if (op == DatetimeOp::FloorDivTimedelta) check(e.type.isScalar(types::DType::Int64), "timedelta // timedelta gives int64");
      else check(e.type.isDatetimeLike() && types::datetimeUnit(e.type.dtype) == types::datetimeUnit(e.args[0]->type.dtype),
                 "datetime result not in its operand's unit");
      break;
    }
    case ExprOp::Select:
      nargs(3);
      check(e.args[0]->type.isBool(), "select condition must be bool");
      check(e.args[1]->type == e.type && e.args[2]->type == e.type, "select arm types");
      break;
    case ExprOp::ShortCircuit:
      nargs(2);
      check(e.args[0]->type == e.type && e.args[1]->type == e.type, "and/or operand types");
      break;
    case ExprOp::Call: check(!e.symbol.empty(), "call without symbol"); break;
    case ExprOp::ArrayMap:
      check(e.type.isArray() && int(e.args.size()) == e.ival + 1, "map inputs");
      check(e.args.back()->type.isScalar(e.type.dtype), "map body type differs from the element type");
      for (int64_t i = 0; i < e.ival; ++i)
        check(e.args[i]->type.isNumber() || e.args[i]->type.isDatetimeLike() || (e.args[i]->type.isArray() && e.args[i]->type.ndim <= e.type.ndim),
              "map input must be a number or an array of at most the result's ndim");
      break;
    case ExprOp::ArrayLiteral: {
      check(e.type.isArray() && e.type.ndim == e.sub && int(e.args.size()) >= e.sub, "array literal extents");
      int64_t count = 1;
      for (int k = 0; k < e.sub; ++k) {
        check(e.args[size_t(k)]->op == ExprOp::Const && e.args[size_t(k)]->type.isScalar(types::DType::Int64),
              "array literal extents must be int64 constants");
        count *= e.args[size_t(k)]->ival;
      }
      check(int64_t(e.args.size()) == e.sub + count, "array literal element count");
      for (size_t i = size_t(e.sub); i < e.args.size(); ++i)
        check(e.args[i]->type.isScalar(e.type.dtype), "array literal element type");
      break;
    }
    case ExprOp::MapInput: check(e.type.isNumber() || e.type.isDatetimeLike(), "map input element must be a number"); break;
    case ExprOp::ArrayReduce: // args[1]: var/std's ddof (float64), when given
      check(e.args.size() == 1 || (e.args.size() == 2 && (e.sub == int(ir::ReduceKind::Var) || e.sub == int(ir::ReduceKind::Std)) &&
                                   e.args[1]->type.isScalar(types::DType::Float64)),
            "reduce arity");
      check(e.args[0]->type.isArray(), "reduce of non-array");
      break;
    case ExprOp::TupleMake:
      check(e.type.isTuple() && e.type.elems.size() == e.args.size(), "tuple arity");
      for (size_t i = 0; i < e.args.size(); ++i) check(e.args[i]->type == e.type.elems[i], "tuple element type");
      break;
    case ExprOp::TupleIndex:
      nargs(2);
      check(e.args[0]->type.isHomogeneousTuple() && !e.args[0]->type.elems.empty() &&
                e.args[0]->type.elems[0] == e.type && e.args[1]->type.isScalar(types::DType::Int64),
            "tupleindex needs a non-empty homogeneous tuple and an int64 index");
      break;
    case ExprOp::TupleSlice:
      nargs(1);
      check(e.args[0]->type.isTuple() && e.type.isTuple(), "tupleslice of non-tuple");
      for (size_t k = 0; k < e.type.elems.size(); ++k) {
        int64_t src = e.ival + int64_t(k) * e.sub;
        check(src >= 0 && src < int64_t(e.args[0]->type.elems.size()) && e.args[0]->type.elems[src] == e.type.elems[k],
              "tupleslice element");
      }
      break;
    case ExprOp::TupleConcat: {
      size_t n = 0;
      for (auto &a : e.args) {
        check(a->type.isTuple(), "tupleconcat of non-tuple");
        for (auto &t : a->type.elems) check(n < e.type.elems.size() && e.type.elems[n++] == t, "tupleconcat element");
      }
      check(e.type.isTuple() && n == e.type.elems.size(), "tupleconcat arity");
      break;
    }
    case ExprOp::ExcMatch: nargs(0); check(e.type.isBool(), "excmatch gives bool"); break;
    case ExprOp::Let:
      nargs(2);
      check(e.var >= 0 && e.var < int(fn_.vars.size()), "let of bad variable");
      check(fn_.vars[e.var].type == e.args[0]->type, "let value type differs from the variable's");
      check(e.args[1]->type == e.type, "let body type differs from the result type");
      break;
    case ExprOp::TupleGet:
      nargs(1);
      check(e.args[0]->type.isTuple() && e.ival >= 0 && e.ival < int64_t(e.args[0]->type.elems.size()),
            "tupleget index");
      check(e.args[0]->type.elems[e.ival] == e.type, "tupleget type");
      break;
    case ExprOp::ArrayItem:
      check(!e.args.empty() && e.args[0]->type.isArray(), "getitem of non-array");
      check(int(e.args.size()) == e.args[0]->type.ndim + 1, "getitem index count");
      for (size_t i = 1; i < e.args.size(); ++i) check(e.args[i]->type.isScalar(types::DType::Int64), "index type");
      check(e.type.isScalar(e.args[0]->type.dtype), "getitem type");
      break;
    case ExprOp::ArrayFlatItem:
      nargs(2);
      check(e.args[0]->type.isArray() && e.args[1]->type.isScalar(types::DType::Int64),
            "flatitem needs an array and an int64");
      check(e.type.isScalar(e.args[0]->type.dtype), "flatitem type");
      break;
    case ExprOp::ArrayJoin: {
      check(!e.args.empty() && e.type.isArray(), "join needs arrays");
      int nd = e.args[0]->type.ndim;
      for (auto &a : e.args) check(a->type.isArray() && a->type.ndim == nd, "join inputs differ in ndim");
      check(e.type.ndim == nd + e.sub && e.ival >= 0 && e.ival < e.type.ndim, "join axis");
      break;
    }
    case ExprOp::ArrayGather:
      check(e.args.size() == 2 && e.args[0]->type.isArray() && e.args[1]->type.isArray() && e.type.isArray(),
            "gather needs an array and an index array");
      break;
    case ExprOp::ArrayView: {
      nargs(1);
      check(e.args[0]->type.isArray() && e.type.isArray(), "view of non-array");
      int consumed = 0, kept = 0;
      for (auto &s : e.slots) {
        check(!s.newAxis || (!s.isSlice && !s.index && !s.start && !s.stop && !s.step), "new axis slot with parts");
        check(s.newAxis || s.isSlice || s.index, "integer view slot without an index");
        consumed += s.newAxis ? 0 : 1;
        kept += s.newAxis || s.isSlice ? 1 : 0;
      }
      check(consumed == e.args[0]->type.ndim, "view slot count");
      check(kept == e.type.ndim, "view result ndim");
      break;
    }
    case ExprOp::ArrayFancyGet: fancyGet(e); break;
    case ExprOp::ArrayShape:
    case ExprOp::ArrayStride:
      nargs(1);
      check(e.args[0]->type.isArray() && e.ival >= 0 && e.ival < e.args[0]->type.ndim, "shape dim");
      break;
    case ExprOp::ArrayAlloc:
      check(e.type.isArray(), "alloc type");
      check(int(e.args.size()) == (e.ival == 1 ? 1 : e.type.ndim) + (AllocKind(e.sub) == AllocKind::Full ? 1 : 0),
            "alloc extents");
      if (e.ival == 1) check(e.args[0]->type.isArray() && e.args[0]->type.ndim == e.type.ndim, "alloc prototype");
      break;
    case ExprOp::ArrayStrided:
      check(e.type.isArray() && !e.args.empty() && e.args[0]->type.isArray(), "strided view of non-array");
      check(int(e.args.size()) == 1 + 2 * e.type.ndim || int(e.args.size()) == 2 + 2 * e.type.ndim,
            "strided view extents, strides [and byte offset]");
      break;
    case ExprOp::ArrayCopy:
    case ExprOp::Transpose:
      nargs(1);
      check(e.args[0]->type.isArray() && e.type.isArray() && e.type.ndim == e.args[0]->type.ndim, "array op types");
      break;
    default: break;
    }
  }

  // Operand types of the object operations (object_ops.def).
  void objectOp(const Expr &e) {
    auto arg = [&](size_t i) -> const Type & {
      check(i < e.args.size(), std::string(objectOpName(ObjectOp(e.sub))) + " arity");
      return e.args[i]->type;
    };
    auto isInt = [](const Type &t) { return t.isScalar(types::DType::Int64); };
    const char *name = objectOpName(ObjectOp(e.sub));
    switch (ObjectOp(e.sub)) {
    case ObjectOp::ListNew:
      check(e.type.isList(), "list.new type");
      for (auto &a : e.args) check(a->type == e.type.elems[0], "list.new item type");
      break;
    case ObjectOp::ListGet:
    case ObjectOp::ListPop:
      check(arg(0).isList() && isInt(arg(1)) && e.type == arg(0).elems[0], name);
      break;
    case ObjectOp::ListSet:
    case ObjectOp::ListInsert:
      check(arg(0).isList() && isInt(arg(1)) && arg(2) == arg(0).elems[0], name);
      break;
    case ObjectOp::ListReserve:
      check(arg(0).isList() && e.args.size() == 4 && isInt(arg(1)) && isInt(arg(2)) && isInt(arg(3)), name);
      break;
    case ObjectOp::ListAppend:
    case ObjectOp::ListCount:
    case ObjectOp::ListRemove:
    case ObjectOp::ListContains:
      check(arg(0).isList() && arg(1) == arg(0).elems[0], name);
      break;
    case ObjectOp::ListExtend:
    case ObjectOp::ListEqual:
    case ObjectOp::ListCompare:
    case ObjectOp::ListConcat:
      check(arg(0).isList() && arg(1).isList() && arg(0).elems[0] == arg(1).elems[0], name);
      break;
    case ObjectOp::StrConcat:
    case ObjectOp::StrEqual:
    case ObjectOp::StrCompare:
      check(arg(0).isUnicode() && arg(1).isUnicode(), name);
      break;
    case ObjectOp::OptIsNone: check(arg(0).isOptional() && e.type.isBool(), name); break;
    case ObjectOp::InstanceNew: check(e.type.isInstance() && e.args.empty(), name); break;
    case ObjectOp::InstanceGet: check(arg(0).isInstance() && e.args.size() == 1 && e.ival >= 8, name); break;
    case ObjectOp::InstanceSet: check(arg(0).isInstance() && e.args.size() == 2 && e.ival >= 8, name); break;
    case ObjectOp::RecordGet:
      check(e.args.size() == 1 && arg(0).isRecord() && (e.type.isScalar() || e.type.isCharSeq()), name);
      break;
    case ObjectOp::CharSeqGet:
      check(e.args.size() == 1 && arg(0).isUnicodeCharSeq() && e.type.isUnicode(), name);
      break;
    case ObjectOp::CharSeqFill:
      check(e.args.size() == 2 && arg(0).isCharSeqArray() && arg(0).elems[0].isUnicodeCharSeq() &&
                arg(1).isUnicode() && e.type.isNone(),
            name);
      break;
    case ObjectOp::CharSeqSet:
      check(e.args.size() == 2 && arg(0).isUnicodeCharSeq() && arg(1).isUnicode() && e.type.isNone(), name);
      break;
    case ObjectOp::RecordSet:
      check(e.args.size() == 2 && arg(0).isRecord() && arg(1).isScalar() && e.type.isNone(), name);
      break;
    case ObjectOp::RecordItem:
      check(!e.args.empty() && arg(0).isRecordArray() && int(e.args.size()) == arg(0).ndim + 1 &&
                (e.type.isRecord() || e.type.isCharSeq()) && e.type.itemsize == arg(0).elems[0].itemsize &&
                e.type.fields == arg(0).elems[0].fields && e.type.offsets == arg(0).elems[0].offsets &&
                e.type.readonly == arg(0).readonly,
            name);
      break;
    case ObjectOp::RecordStore:
      check(e.args.size() >= 2 && arg(0).isRecordArray() && int(e.args.size()) == arg(0).ndim + 2 &&
                e.args.back()->type.isRecord() && e.args.back()->type.offsets == arg(0).elems[0].offsets &&
                e.args.back()->type.fields == arg(0).elems[0].fields && e.type.isNone(),
            name);
      break;
    case ObjectOp::RecordFieldView:
      check(e.args.size() == 1 && arg(0).isRecordArray() && e.type.isArray() &&
                (!e.type.isRecordArray() || e.type.isCharSeqArray()) && e.type.ndim == arg(0).ndim,
            name);
      break;
    case ObjectOp::HashValue:
      check(e.args.size() == 1 && e.type == Type::int64() &&
                (arg(0).isNumber() || arg(0).isUnicode() || arg(0).isNone()),
            name);
      break;
    case ObjectOp::HashTuple:
      check(e.type == Type::int64(), name);
      for (auto &a : e.args) check(a->type == Type::int64(), name);
      break;
    case ObjectOp::HashFinish: check(e.args.size() == 1 && arg(0) == Type::int64() && e.type == Type::int64(), name); break;
    case ObjectOp::InstanceIs:
      check((arg(0).isInstance() || arg(0).isList() || arg(0).isDict() || arg(0).isSet() || arg(0).isUnicode()) &&
                arg(1) == arg(0) && e.type.isBool(),
            name);
      break;
    default: break;
    }
  }

  void block(const Block &b, int loopDepth) {
    for (auto &s : b) stmt(*s, loopDepth);
  }

  // ArrayFancyGet: one entry per axis of the indexed array (none: kept), at least one index.
  void fancyGet(const Expr &e) {
    check(!e.args.empty() && e.args[0]->type.isArray() && e.type.isArray() && e.type.layout == types::Layout::C &&
              e.type.dtype == e.args[0]->type.dtype,
          "fancyget needs an array and gives a C array of its dtype");
    const int ndim = e.args[0]->type.ndim;
    check(int(e.args.size()) == ndim + 1, "fancyget entry count");
    int kept = 0, indexed = 0, broadcast = 0;
    for (size_t d = 1; d < e.args.size(); ++d) {
      const types::Type &t = e.args[d]->type;
      if (t.isNone()) {
        ++kept;
        continue;
      }
      ++indexed;
      if (t.isArray()) {
        check(types::isInteger(t.dtype) && t.dtype != types::DType::Bool, "fancyget index arrays are integers");
        broadcast = std::max(broadcast, t.ndim);
      } else {
        check(t.isScalar(types::DType::Int64), "fancyget scalar indices are int64");
      }
    }
    check(indexed > 0, "fancyget without an index");
    check(e.type.ndim == kept + broadcast, "fancyget result ndim");
  }

  void stmt(const Stmt &s, int loopDepth) {
    for (auto &e : s.exprs) expr(*e);
    switch (s.op) {
    case StmtOp::Assign:
      check(s.var >= 0 && s.var < int(fn_.vars.size()), "assign to bad variable");
      check(s.exprs.size() == 1 && s.exprs[0]->type == fn_.vars[s.var].type,
            "assign type differs from variable type ('" + fn_.vars[s.var].name + "')");
      break;
    case StmtOp::StoreItem: {
      check(s.exprs.size() >= 2 && s.exprs[0]->type.isArray(), "setitem of non-array");
      auto &arr = s.exprs[0]->type;
      check(int(s.exprs.size()) == arr.ndim + 2, "setitem index count");
      check(s.exprs.back()->type.isScalar(arr.dtype), "setitem value type");
      break;
    }
    case StmtOp::StoreFlatItem:
      check(s.exprs.size() == 3 && s.exprs[0]->type.isArray() && s.exprs[1]->type.isScalar(types::DType::Int64) &&
                s.exprs[2]->type.isScalar(s.exprs[0]->type.dtype),
            "setflatitem needs an array, an int64 index and a value of its dtype");
      break;
    case StmtOp::FancyStore:
      check(s.exprs.size() == 2 && s.exprs[0]->op == ExprOp::ArrayFancyGet && !s.exprs[0]->args[0]->type.readonly,
            "fancystore needs a writable selection");
      check(s.exprs[1]->type.isNumber() || s.exprs[1]->type.isDatetimeLike() || (s.exprs[1]->type.isArray() && !s.exprs[1]->type.isRecordArray()),
            "fancystore value must be a number or an array");
      break;
    case StmtOp::StoreView:
      check(s.exprs.size() == 2 && s.exprs[0]->type.isArray() && s.exprs[1]->op == ExprOp::ArrayMap &&
                s.exprs[1]->type.ndim <= s.exprs[0]->type.ndim,
            "setview needs a destination array and a map");
      break;
    case StmtOp::If:
    case StmtOp::While:
      check(s.exprs.size() == 1 && s.exprs[0]->type.isBool(), "condition must be bool");
      break;
    case StmtOp::ForRange:
      check(s.exprs.size() == 3, "for needs start, stop, step");
      for (auto &e : s.exprs) check(e->type.isScalar(types::DType::Int64), "range bounds must be int64");
      check(fn_.vars[s.var].type.isScalar(types::DType::Int64), "loop variable must be int64");
      break;
    case StmtOp::ParallelFor:
      check(s.exprs.size() >= 3, "prange needs start, stop, step");
      for (int i = 0; i < 3; ++i) check(s.exprs[i]->type.isScalar(types::DType::Int64), "prange bounds must be int64");
      if (s.var >= 0) check(fn_.vars[s.var].type.isScalar(types::DType::Int64), "loop variable must be int64");
      else check(!s.text.empty() && s.exprs.size() >= 4 && s.exprs[3]->op == ExprOp::Const,
                 "an outlined prange names its chunk function and its grain");
      break;
    case StmtOp::Break:
    case StmtOp::Continue: check(loopDepth > 0, "break/continue outside a loop"); break;
    case StmtOp::Yield:
      check(fn_.generator && fn_.ret.isGenerator(), "yield outside a generator function");
      check(s.exprs.size() == 1 && s.exprs[0]->type == fn_.ret.elems[0], "yield type differs from the generator's");
      break;
    case StmtOp::Return:
      if (fn_.generator) check(s.exprs.empty(), "return value in a generator");
      else if (fn_.ret.isNone()) check(s.exprs.empty(), "return value in a none function");
      else check(s.exprs.size() == 1 && s.exprs[0]->type == fn_.ret, "return type differs from function type");
      break;
    default: break;
    }
    bool loop = s.op == StmtOp::While || s.op == StmtOp::ForRange || (s.op == StmtOp::ParallelFor && s.var >= 0);
    block(s.body, loopDepth + (loop ? 1 : 0));
    block(s.orelse, loopDepth);
  }

  const Function &fn_;
};

} // namespace

void verify(const Function &fn) { Verifier(fn).run(); }

} // namespace mahou::ir
