// AST helpers: operator spellings, Module lookup and the indented tree dump used by
// `mahouc --emit=ast` and the tests; also Python-style repr of literal values.
#include "mahou/ast.h"

#include "repr.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace mahou::frontend {

std::string pyStrRepr(std::string_view s) {
  bool hasSingle = s.find('\'') != std::string_view::npos;
  bool hasDouble = s.find('"') != std::string_view::npos;
  char quote = hasSingle && !hasDouble ? '"' : '\'';
  std::string out(1, quote);
  for (char c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    if (c == quote || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (u < 0x20 || u == 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", u);
      out += buf;
    } else {
      out += c;
    }
  }
  out += quote;
  return out;
}

std::string pyBytesRepr(std::string_view s) {
  std::string out = "b" + pyStrRepr(s); // the same quoting and escapes, then no byte over 0x7F
  std::string r;
  for (char c : out) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x80) {
      r += c;
      continue;
    }
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\x%02x", u);
    r += buf;
  }
  return r;
}

std::string pyFloatRepr(double value) {
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value < 0 ? "-inf" : "inf";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
  std::string_view sci(buf, static_cast<size_t>(res.ptr - buf)); // e.g. -1.25e+02
  std::string sign;
  if (sci[0] == '-') {
    sign = "-";
    sci.remove_prefix(1);
  }
  size_t e = sci.find('e');
  std::string digits(1, sci[0]);
  if (e > 1)
    digits += std::string(sci.substr(2, e - 2));
  int exp = std::atoi(std::string(sci.substr(e + 1)).c_str());
  int n = static_cast<int>(digits.size());
  if (exp >= -4 && exp < 16) {
    if (exp < 0)
      return sign + "0." + std::string(-exp - 1, '0') + digits;
    std::string intPart = exp + 1 >= n ? digits + std::string(exp + 1 - n, '0')
                                       : digits.substr(0, exp + 1);
    std::string frac = exp + 1 >= n ? "0" : digits.substr(exp + 1);
    return sign + intPart + "." + frac;
  }
  char expBuf[16];
  std::snprintf(expBuf, sizeof expBuf, "e%c%02d", exp < 0 ? '-' : '+', std::abs(exp));
  std::string mantissa = digits.substr(0, 1);
  if (n > 1)
    mantissa += "." + digits.substr(1);
  return sign + mantissa + expBuf;
}

} // namespace mahou::frontend

namespace mahou::ast {

const char *binOpSymbol(BinOpKind op) {
  switch (op) {
  case BinOpKind::Add: return "+";
  case BinOpKind::Sub: return "-";
  case BinOpKind::Mult: return "*";
  case BinOpKind::MatMult: return "@";
  case BinOpKind::Div: return "/";
  case BinOpKind::FloorDiv: return "//";
  case BinOpKind::Mod: return "%";
  case BinOpKind::Pow: return "**";
  case BinOpKind::LShift: return "<<";
  case BinOpKind::RShift: return ">>";
  case BinOpKind::BitOr: return "|";
  case BinOpKind::BitXor: return "^";
  case BinOpKind::BitAnd: return "&";
  }
  return "?";
}

const char *unaryOpSymbol(UnaryOpKind op) {
  switch (op) {
  case UnaryOpKind::UAdd: return "+";
  case UnaryOpKind::USub: return "-";
  case UnaryOpKind::Not: return "not";
  case UnaryOpKind::Invert: return "~";
  }
  return "?";
}

const char *cmpOpSymbol(CmpOpKind op) {
  switch (op) {
  case CmpOpKind::Eq: return "==";
  case CmpOpKind::NotEq: return "!=";
  case CmpOpKind::Lt: return "<";
  case CmpOpKind::LtE: return "<=";
  case CmpOpKind::Gt: return ">";
  case CmpOpKind::GtE: return ">=";
  case CmpOpKind::Is: return "is";
  case CmpOpKind::IsNot: return "is not";
  case CmpOpKind::In: return "in";
  case CmpOpKind::NotIn: return "not in";
  }
  return "?";
}

const FunctionDef *Module::findFunction(const std::string &name) const {
  for (const StmtPtr &s : body)
    if (const auto *f = s->as<FunctionDef>(); f && f->name == name)
      return f;
  // A lambda compiled on its own (njit(lambda x: ...)): its source is the expression.
  for (const StmtPtr &s : body)
    if (const auto *e = s->as<ExprStmt>())
      if (const auto *l = e->value->as<Lambda>(); l && l->def->name == name)
        return l->def.get();
  return nullptr;
}

namespace {

std::string at(Loc loc) {
  return " @" + std::to_string(loc.line) + ":" + std::to_string(loc.col);
}

// "a, b, *args, c, **kw" (a bare "*" when there are keyword-only parameters only).
std::string paramList(const std::vector<Arg> &args, const std::string &vararg,
                      const std::vector<Arg> &kwonly, const std::string &kwarg) {
  std::string out;
  auto add = [&out](const std::string &s) { out += (out.empty() ? "" : ", ") + s; };
  for (const Arg &a : args)
    add(a.name);
  if (!vararg.empty())
    add("*" + vararg);
  else if (!kwonly.empty())
    add("*");
  for (const Arg &a : kwonly)
    add(a.name);
  if (!kwarg.empty())
    add("**" + kwarg);
  return out;
}

std::string aliasList(const std::vector<Alias> &names) {
  std::string out;
  for (const Alias &a : names) {
    if (!out.empty())
      out += ", ";
    out += a.name;
    if (!a.asname.empty())
      out += " as " + a.asname;
  }
  return out;
}

std::string nameList(const std::vector<std::string> &names) {
  std::string out;
  for (const std::string &n : names)
    out += (out.empty() ? "" : ", ") + n;
  return out;
}

class Dumper {
public:
  std::string out;

  void line(int indent, const std::string &text) {
    out.append(static_cast<size_t>(indent) * 2, ' ');
    out += text;
    out += '\n';
  }

  void opt(const ExprPtr &e, int indent) {
    if (e)
      expr(*e, indent);
  }

  void labeled(const char *label, const ExprPtr &e, int indent) {
    if (!e)
      return;
    line(indent, label);
    expr(*e, indent + 1);
  }

  void body(const Body &b, int indent) {
    for (const StmtPtr &s : b)
      stmt(*s, indent);
  }

  void section(const char *label, const Body &b, int indent) {
    if (b.empty())
      return;
    line(indent, label);
    body(b, indent + 1);
  }

  void defaults(const std::vector<Arg> &args, int indent) {
    for (const Arg &a : args)
      if (a.defaultValue) {
        line(indent, "default " + a.name);
        expr(*a.defaultValue, indent + 1);
      }
  }

  void expr(const Expr &e, int indent);
  void stmt(const Stmt &s, int indent);
};

void Dumper::expr(const Expr &e, int n) {
  switch (e.kind) {
  case ExprKind::Name: return line(n, "Name " + e.as<Name>()->id);
  case ExprKind::IntLit: {
    const auto *i = e.as<IntLit>();
    return line(n, "IntLit " + (i->overflow ? std::string("<overflow>") : std::to_string(i->value)));
  }
  case ExprKind::FloatLit: return line(n, "FloatLit " + frontend::pyFloatRepr(e.as<FloatLit>()->value));
  case ExprKind::ImagLit: return line(n, "ImagLit " + frontend::pyFloatRepr(e.as<ImagLit>()->value) + "j");
  case ExprKind::StrLit: return line(n, "StrLit " + frontend::pyStrRepr(e.as<StrLit>()->value));
  case ExprKind::BytesLit: return line(n, "BytesLit " + frontend::pyBytesRepr(e.as<BytesLit>()->value));
  case ExprKind::BoolLit: return line(n, e.as<BoolLit>()->value ? "BoolLit True" : "BoolLit False");
  case ExprKind::NoneLit: return line(n, "NoneLit");
  case ExprKind::EllipsisLit: return line(n, "EllipsisLit");
  case ExprKind::BinOp: {
    const auto *b = e.as<BinOp>();
    line(n, std::string("BinOp ") + binOpSymbol(b->op) + at(e.loc));
    expr(*b->left, n + 1);
    return expr(*b->right, n + 1);
  }
  case ExprKind::UnaryOp: {
    const auto *u = e.as<UnaryOp>();
    line(n, std::string("UnaryOp ") + unaryOpSymbol(u->op) + at(e.loc));
    return expr(*u->operand, n + 1);
  }
  case ExprKind::BoolOp: {
    const auto *b = e.as<BoolOp>();
    line(n, std::string("BoolOp ") + (b->op == BoolOpKind::And ? "and" : "or") + at(e.loc));
    for (const ExprPtr &v : b->values)
      expr(*v, n + 1);
    return;
  }
  case ExprKind::Compare: {
    const auto *c = e.as<Compare>();
    std::string text = "Compare";
    for (CmpOpKind op : c->ops)
      text += std::string(" ") + cmpOpSymbol(op);
    line(n, text + at(e.loc));
    expr(*c->left, n + 1);
    for (const ExprPtr &v : c->comparators)
      expr(*v, n + 1);
    return;
  }
  case ExprKind::Call: {
    const auto *c = e.as<Call>();
    line(n, "Call" + at(e.loc));
    expr(*c->func, n + 1);
    for (const ExprPtr &a : c->args)
      expr(*a, n + 1);
    for (const Keyword &k : c->keywords) {
      line(n + 1, "keyword " + (k.name.empty() ? std::string("**") : k.name) + at(k.loc));
      expr(*k.value, n + 2);
    }
    return;
  }
  case ExprKind::Attribute: {
    const auto *a = e.as<Attribute>();
    line(n, "Attribute " + a->attr + at(e.loc));
    return expr(*a->value, n + 1);
  }
  case ExprKind::Subscript: {
    const auto *s = e.as<Subscript>();
    line(n, "Subscript" + at(e.loc));
    expr(*s->value, n + 1);
    return expr(*s->index, n + 1);
  }
  case ExprKind::Slice: {
    const auto *s = e.as<Slice>();
    line(n, "Slice" + at(e.loc));
    labeled("lower:", s->lower, n + 1);
    labeled("upper:", s->upper, n + 1);
    return labeled("step:", s->step, n + 1);
  }
  case ExprKind::Tuple:
  case ExprKind::List: {
    const auto &elts = e.kind == ExprKind::Tuple ? e.as<Tuple>()->elts : e.as<List>()->elts;
    line(n, (e.kind == ExprKind::Tuple ? "Tuple" : "List") + at(e.loc));
    for (const ExprPtr &v : elts)
      expr(*v, n + 1);
    return;
  }
  case ExprKind::IfExp: {
    const auto *i = e.as<IfExp>();
    line(n, "IfExp" + at(e.loc));
    expr(*i->test, n + 1);
    expr(*i->body, n + 1);
    return expr(*i->orelse, n + 1);
  }
  case ExprKind::Starred:
    line(n, "Starred" + at(e.loc));
    return expr(*e.as<Starred>()->value, n + 1);
  case ExprKind::Lambda: {
    const auto *l = e.as<Lambda>();
    line(n, "Lambda (" + paramList(l->def->args, "", {}, "") + ")" + at(e.loc));
    defaults(l->def->args, n + 1);
    return expr(*l->def->body.front()->as<Return>()->value, n + 1);
  }
  case ExprKind::Dict: {
    const auto *d = e.as<Dict>();
    line(n, "Dict" + at(e.loc));
    for (size_t i = 0; i < d->keys.size(); ++i) {
      expr(*d->keys[i], n + 1);
      expr(*d->values[i], n + 1);
    }
    return;
  }
  case ExprKind::Set:
    line(n, "Set" + at(e.loc));
    for (const ExprPtr &v : e.as<Set>()->elts)
      expr(*v, n + 1);
    return;
  case ExprKind::Comprehension: {
    const auto *c = e.as<Comprehension>();
    static const char *kinds[] = {"ListComp", "SetComp", "DictComp", "GeneratorExp"};
    line(n, std::string(kinds[int(c->comp)]) + at(e.loc));
    expr(*c->elt, n + 1);
    if (c->value)
      expr(*c->value, n + 1);
    for (const CompFor &g : c->generators) {
      line(n + 1, "for" + at(g.loc));
      expr(*g.target, n + 2);
      expr(*g.iter, n + 2);
      for (const ExprPtr &cond : g.ifs) {
        line(n + 2, "if");
        expr(*cond, n + 3);
      }
    }
    return;
  }
  case ExprKind::JoinedStr:
    line(n, "JoinedStr" + at(e.loc));
    for (const ExprPtr &v : e.as<JoinedStr>()->values)
      expr(*v, n + 1);
    return;
  case ExprKind::FormattedValue: {
    const auto *f = e.as<FormattedValue>();
    line(n, std::string("FormattedValue") + (f->conversion ? std::string(" !") + f->conversion : "") + at(e.loc));
    expr(*f->value, n + 1);
    if (f->spec)
      expr(*f->spec, n + 1);
    return;
  }
  case ExprKind::ObjMode: {
    const auto *o = e.as<ObjMode>();
    std::string outs;
    for (const std::string &name : o->outputs)
      outs += (outs.empty() ? "" : ", ") + name;
    line(n, "ObjMode -> (" + outs + ")" + at(e.loc));
    expr(*o->context, n + 1);
    for (const ExprPtr &v : o->inputs)
      expr(*v, n + 1);
    return;
  }
  case ExprKind::MatchSequence: {
    const auto *m = e.as<MatchSequence>();
    line(n, "MatchSequence len " + std::string(m->orMore ? ">= " : "") + std::to_string(m->length) + at(e.loc));
    return expr(*m->subject, n + 1);
  }
  case ExprKind::MatchPossible:
    line(n, "MatchPossible" + at(e.loc));
    return expr(*e.as<MatchPossible>()->test, n + 1);
  }
}

void Dumper::stmt(const Stmt &s, int n) {
  switch (s.kind) {
  case StmtKind::FunctionDef: {
    const auto *f = s.as<FunctionDef>();
    line(n, "FunctionDef " + f->name + "(" +
                paramList(f->args, f->vararg, f->kwonlyargs, f->kwarg) + ")" + at(s.loc));
    if (!f->decorators.empty()) {
      line(n + 1, "decorators:");
      for (const ExprPtr &d : f->decorators)
        expr(*d, n + 2);
    }
    defaults(f->args, n + 1);
    defaults(f->kwonlyargs, n + 1);
    return body(f->body, n + 1);
  }
  case StmtKind::Return:
    line(n, "Return" + at(s.loc));
    return opt(s.as<Return>()->value, n + 1);
  case StmtKind::Assign: {
    const auto *a = s.as<Assign>();
    line(n, "Assign" + at(s.loc));
    for (const ExprPtr &t : a->targets)
      expr(*t, n + 1);
    return expr(*a->value, n + 1);
  }
  case StmtKind::AugAssign: {
    const auto *a = s.as<AugAssign>();
    line(n, std::string("AugAssign ") + binOpSymbol(a->op) + "=" + at(s.loc));
    expr(*a->target, n + 1);
    return expr(*a->value, n + 1);
  }
  case StmtKind::AnnAssign: {
    const auto *a = s.as<AnnAssign>();
    line(n, "AnnAssign" + at(s.loc));
    expr(*a->target, n + 1);
    expr(*a->annotation, n + 1);
    return opt(a->value, n + 1);
  }
  case StmtKind::If: {
    const auto *i = s.as<If>();
    line(n, "If" + at(s.loc));
    expr(*i->test, n + 1);
    section("body:", i->body, n + 1);
    return section("orelse:", i->orelse, n + 1);
  }
  case StmtKind::For: {
    const auto *f = s.as<For>();
    line(n, "For" + at(s.loc));
    expr(*f->target, n + 1);
    expr(*f->iter, n + 1);
    section("body:", f->body, n + 1);
    return section("orelse:", f->orelse, n + 1);
  }
  case StmtKind::While: {
    const auto *w = s.as<While>();
    line(n, "While" + at(s.loc));
    expr(*w->test, n + 1);
    section("body:", w->body, n + 1);
    return section("orelse:", w->orelse, n + 1);
  }
  case StmtKind::Break: return line(n, "Break" + at(s.loc));
  case StmtKind::Continue: return line(n, "Continue" + at(s.loc));
  case StmtKind::Pass: return line(n, "Pass" + at(s.loc));
  case StmtKind::ExprStmt:
    line(n, "ExprStmt" + at(s.loc));
    return expr(*s.as<ExprStmt>()->value, n + 1);
  case StmtKind::Assert: {
    const auto *a = s.as<Assert>();
    line(n, "Assert" + at(s.loc));
    expr(*a->test, n + 1);
    return opt(a->msg, n + 1);
  }
  case StmtKind::Raise: {
    const auto *r = s.as<Raise>();
    line(n, "Raise" + at(s.loc));
    opt(r->exc, n + 1);
    return labeled("from:", r->cause, n + 1);
  }
  case StmtKind::Try: {
    const auto *t = s.as<Try>();
    line(n, "Try" + at(s.loc));
    section("body:", t->body, n + 1);
    for (const ExceptHandler &h : t->handlers) {
      line(n + 1, "ExceptHandler" + (h.name.empty() ? "" : " " + h.name) + at(h.loc));
      opt(h.type, n + 2);
      body(h.body, n + 2);
    }
    section("orelse:", t->orelse, n + 1);
    return section("finalbody:", t->finalbody, n + 1);
  }
  case StmtKind::Import:
    return line(n, "Import " + aliasList(s.as<Import>()->names) + at(s.loc));
  case StmtKind::ImportFrom: {
    const auto *i = s.as<ImportFrom>();
    return line(n, "ImportFrom " + i->module + " import " + aliasList(i->names) + at(s.loc));
  }
  case StmtKind::Global: return line(n, "Global " + nameList(s.as<Global>()->names) + at(s.loc));
  case StmtKind::Delete:
    line(n, "Delete" + at(s.loc));
    for (const ExprPtr &t : s.as<Delete>()->targets)
      expr(*t, n + 1);
    return;
  case StmtKind::Nonlocal:
    return line(n, "Nonlocal " + nameList(s.as<Nonlocal>()->names) + at(s.loc));
  case StmtKind::Yield:
    line(n, "Yield" + at(s.loc));
    return opt(s.as<Yield>()->value, n + 1);
  }
}

} // namespace

std::string dumpAst(const Module &module) {
  Dumper d;
  d.body(module.body, 0);
  return std::move(d.out);
}

std::string dumpAst(const Stmt &stmt, int indent) {
  Dumper d;
  d.stmt(stmt, indent);
  return std::move(d.out);
}

std::string dumpAst(const Expr &expr, int indent) {
  Dumper d;
  d.expr(expr, indent);
  return std::move(d.out);
}

} // namespace mahou::ast
