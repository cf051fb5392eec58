// Textual typed IR (mahouc --emit=ir): one statement per line, expressions inline.
#include "mahou/ir.h"
#include "mahou/random_distributions.h"

#include <cstdio>
#include <sstream>

namespace mahou::ir {

namespace {

std::string formatDouble(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

class Printer {
public:
  explicit Printer(const Function &fn) : fn_(fn) {}

  std::string run() {
    out_ << "func @" << fn_.name << "(";
    for (int i = 0; i < fn_.numParams; ++i)
      out_ << (i ? ", " : "") << "%" << fn_.vars[i].name << ": " << fn_.vars[i].type.str();
    out_ << ") -> " << fn_.ret.str() << " [symbol " << fn_.symbol << "] {\n";
    for (size_t i = fn_.numParams; i < fn_.vars.size(); ++i)
      out_ << "  var %" << fn_.vars[i].name << ": " << fn_.vars[i].type.str() << "\n";
    block(fn_.body, 1);
    out_ << "}\n";
    return out_.str();
  }

private:
  void indent(int n) {
    for (int i = 0; i < n; ++i) out_ << "  ";
  }

  std::string expr(const Expr &e) {
    std::string s;
    switch (e.op) {
    case ExprOp::Const:
      if (e.type.isBool()) return e.ival ? "true" : "false";
      if (e.type.isInt())
        return (types::isSigned(e.type.dtype) ? std::to_string(e.ival) : std::to_string(uint64_t(e.ival))) + ":" +
               e.type.str();
      if (e.type.isFloat()) return formatDouble(e.fval) + ":" + e.type.str();
      if (e.type.isComplex())
        return "(" + formatDouble(e.fval) + "+" + formatDouble(e.fval2) + "j):" + e.type.str();
      if (e.type.kind == types::Kind::Str) return "\"" + e.symbol + "\"";
      return "none";
    case ExprOp::LoadVar: return "%" + fn_.vars[e.var].name;
    default: break;
    }
    s = exprOpName(e.op);
    switch (e.op) {
    case ExprOp::Binary: s += "." + std::string(binaryOpName(BinaryOp(e.sub))) + (e.ival == 1 ? ".np" : ""); break;
    case ExprOp::Unary: s += "." + std::string(unaryOpName(UnaryOp(e.sub))); break;
    case ExprOp::Compare: s += "." + std::string(cmpOpName(CmpOp(e.sub))); break;
    case ExprOp::Datetime: s += "." + std::string(datetimeOpName(DatetimeOp(e.sub))); break;
    case ExprOp::Intrinsic: s += "." + std::string(intrinsicName(Intrinsic(e.sub))); break;
    case ExprOp::ShortCircuit: s += e.sub ? ".or" : ".and"; break;
    case ExprOp::GenNext: s += e.sub == 0 ? ".resume" : e.sub == 1 ? ".item" : ".next"; break;
    case ExprOp::Call: s += " @" + e.symbol; break;
    case ExprOp::Random: // random.draw.gamma (np.random's) / random.draw.gen.gamma, random.check[shape]
      s += "." + std::string(randomKindName(RandomKind(e.sub)));
      if (RandomKind(e.sub) == RandomKind::Draw) {
        const random::DistInfo &d = random::distInfo(random::Dist(e.ival));
        s += std::string(d.family == random::Family::Gen ? ".gen." : ".") + d.name;
      }
      if (RandomKind(e.sub) == RandomKind::Check) s += "[" + e.symbol + "]";
      break;
    case ExprOp::GpuOp: s += "." + std::string(gpuOpName(GpuOpKind(e.sub))); break;
    case ExprOp::Object:
      s = objectOpName(ObjectOp(e.sub));
      if (!e.symbol.empty()) s += " @" + e.symbol;
      if (e.ival) s += "[" + std::to_string(e.ival) + "]";
      break;
    case ExprOp::Seq: {
      // The statements on their own lines, nested as a block.
      std::ostringstream saved;
      saved << out_.str();
      out_.str("");
      block(*e.body, seqDepth_ + 2);
      std::string inner = out_.str();
      out_.str("");
      out_ << saved.str();
      s += "{\n" + inner;
      for (int i = 0; i < seqDepth_ + 1; ++i) s += "  ";
      s += "}";
      break;
    }
    case ExprOp::ArrayReduce:
      s += "." + std::string(reduceKindName(ReduceKind(e.sub)));
      if (e.ival >= 0) s += "[axis=" + std::to_string(e.ival) + "]";
      break;
    case ExprOp::ArrayJoin:
      s += std::string(e.sub ? ".stack" : ".concatenate") + "[axis=" + std::to_string(e.ival) + "]";
      break;
    case ExprOp::ArrayFlatItem:
      if (e.ival == 1) s += ".inrange";
      break;
    case ExprOp::TupleSlice: s += "." + std::to_string(e.ival) + ":" + std::to_string(e.sub); break;
    case ExprOp::ExcMatch: s += "." + std::string(types::excName(types::ExcKind(e.ival))); break;
    case ExprOp::Let: s += " %" + fn_.vars[e.var].name; break;
    case ExprOp::ArrayFancyGet:
      if (e.ival) s += ".front"; // the broadcast axes first
      break;
    case ExprOp::MapInput: return "in" + std::to_string(e.ival) + ":" + e.type.str();
    case ExprOp::TupleGet:
    case ExprOp::ArrayShape:
    case ExprOp::ArrayStride: s += "." + std::to_string(e.ival); break;
    case ExprOp::ArrayAlloc: {
      static const char *kinds[] = {"empty", "zeros", "ones", "full"};
      s += "." + std::string(kinds[e.sub]);
      break;
    }
    default: break;
    }
    s += "(";
    bool first = true;
    for (auto &a : e.args) {
      s += (first ? "" : ", ") + expr(*a);
      first = false;
    }
    for (auto &slot : e.slots) {
      s += first ? "" : ", ";
      first = false;
      if (slot.newAxis) {
        s += "newaxis";
        continue;
      }
      if (!slot.isSlice) {
        s += expr(*slot.index);
        continue;
      }
      s += (slot.start ? expr(*slot.start) : "") + ":" + (slot.stop ? expr(*slot.stop) : "") +
           ":" + (slot.step ? expr(*slot.step) : "");
    }
    return s + ") : " + e.type.str();
  }

  void block(const Block &b, int depth) {
    for (auto &s : b) stmt(*s, depth);
  }

  void stmt(const Stmt &s, int depth) {
    seqDepth_ = depth;
    indent(depth);
    switch (s.op) {
    case StmtOp::Assign: out_ << "%" << fn_.vars[s.var].name << " = " << expr(*s.exprs[0]); break;
    case StmtOp::ForRange:
      out_ << "for %" << fn_.vars[s.var].name << " in range(" << expr(*s.exprs[0]) << ", "
           << expr(*s.exprs[1]) << ", " << expr(*s.exprs[2]) << ")";
      break;
    case StmtOp::ParallelFor:
      if (s.var >= 0) {
        out_ << "for %" << fn_.vars[s.var].name << " in prange(" << expr(*s.exprs[0]) << ", " << expr(*s.exprs[1])
             << ", " << expr(*s.exprs[2]) << ")";
        break;
      }
      out_ << "parallel_for @" << s.text << "(";
      for (size_t i = 0; i < s.exprs.size(); ++i) out_ << (i ? ", " : "") << expr(*s.exprs[i]);
      out_ << ") combine:";
      break;
    case StmtOp::Raise:
      out_ << "raise " << types::excName(s.exc) << "(";
      if (s.exprs.empty()) out_ << "\"" << s.text << "\"";
      for (size_t i = 0; i < s.exprs.size(); ++i) out_ << (i ? ", " : "") << expr(*s.exprs[i]);
      out_ << ")";
      break;
    default:
      out_ << stmtOpName(s.op);
      for (size_t i = 0; i < s.exprs.size(); ++i) out_ << (i ? ", " : " ") << expr(*s.exprs[i]);
    }
    // std::to_string, not operator<<(int): in the GPU machine's Python process iostream
    // number formatting (the num_put facet) crashed.
    out_ << "   ; line " << std::to_string(s.loc.line) << "\n";
    if (!s.body.empty() || s.op == StmtOp::TryExcept || s.op == StmtOp::If || s.op == StmtOp::While || s.op == StmtOp::ForRange ||
        s.op == StmtOp::ParallelFor) {
      block(s.body, depth + 1);
      if (!s.orelse.empty()) {
        indent(depth);
        out_ << "else:\n";
        block(s.orelse, depth + 1);
      }
    }
  }

  const Function &fn_;
  std::ostringstream out_;
  int seqDepth_ = 0; // depth of the statement being printed (a seq's block nests under it)
};

} // namespace

std::string print(const Function &fn) { return Printer(fn).run(); }

} // namespace mahou::ir
