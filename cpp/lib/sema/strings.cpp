// Typing of text made from values: f-strings (each part formatted, the parts
// concatenated), and the repr() text of containers that print() writes.
#include "typer.h"
#include "mahou/literal_list_type.h"
#include "mahou/literal_dict_type.h"
#include "mahou/range_type.h"

namespace mahou::sema {

using ObjectOp = ir::ObjectOp;

ExprPtr concatText(Typing &t, std::vector<ExprPtr> parts, Loc loc) {
  if (parts.empty()) return toUnicode(t, ir::makeStrConst("", loc));
  ExprPtr acc = toUnicode(t, std::move(parts[0]));
  for (size_t i = 1; i < parts.size(); ++i) {
    std::vector<ExprPtr> a;
    a.push_back(std::move(acc));
    a.push_back(toUnicode(t, std::move(parts[i])));
    acc = objectOp(t, ObjectOp::StrConcat, Type::unicode(), std::move(a), loc);
  }
  return acc;
}

ExprPtr reprText(Typing &t, ExprPtr v, Loc loc) {
  const Type ty = v->type;
  if (ty.isClosure()) t.notSupported(loc, "the inner function '" + ty.text + "' has no text in compiled code");
  if (ty.isString()) return toStr(t, std::move(v), true, loc);
  if (ty.isNumber() || ty.isNone() || ty.isOptional()) return toStr(t, std::move(v), false, loc);
  if (ty.isInstance()) return toStr(t, std::move(v), true, loc);
  if (types::isRange(ty)) t.notSupported(loc, "the text of a range object is not supported in compiled code");
  if (types::isLiteralDict(ty)) return literalDictText(t, std::move(v), loc);
  if (ty.isTuple()) {
    auto stmts = std::make_shared<ir::Block>();
    int tv = t.holdInTemp(std::move(v), loc, *stmts);
    std::vector<ExprPtr> parts;
    const bool list = types::isLiteralList(ty);
    parts.push_back(ir::makeStrConst(list ? "[" : "(", loc));
    for (size_t i = 0; i < ty.elems.size(); ++i) {
      if (i) parts.push_back(ir::makeStrConst(", ", loc));
      auto item = std::make_unique<ir::Expr>(ir::ExprOp::TupleGet, ty.elems[i], loc);
      item->ival = int64_t(i);
      item->args.push_back(t.load(tv, loc));
      parts.push_back(reprText(t, std::move(item), loc));
    }
    parts.push_back(ir::makeStrConst(list ? "]" : ty.elems.size() == 1 ? ",)" : ")", loc));
    return t.seqExpr(std::move(stmts), concatText(t, std::move(parts), loc), loc);
  }
  if (ty.isList() || ty.isSet()) {
    auto stmts = std::make_shared<ir::Block>();
    int pieces = t.holdInTemp(objectOp(t, ObjectOp::ListNew, Type::list(Type::unicode()), {}, loc), loc, *stmts);
    bool empty = true;
    t.forEachValue(std::move(v), loc, [&](ExprPtr x, ir::Block &body) {
      empty = false;
      std::vector<ExprPtr> a;
      a.push_back(t.load(pieces, loc));
      a.push_back(reprText(t, std::move(x), loc));
      auto st = std::make_unique<ir::Stmt>(ir::StmtOp::Eval, loc);
      st->exprs.push_back(objectOp(t, ObjectOp::ListAppend, Type::none(), std::move(a), loc));
      body.push_back(std::move(st));
    }, *stmts);
    (void)empty;
    std::vector<ExprPtr> join;
    join.push_back(toUnicode(t, ir::makeStrConst(", ", loc)));
    join.push_back(t.load(pieces, loc));
    auto joined = objectOp(t, ObjectOp::StrCall, Type::unicode(), std::move(join), loc);
    joined->symbol = "mahou_rt_str_join";
    std::vector<ExprPtr> parts;
    parts.push_back(ir::makeStrConst(ty.isList() ? "[" : "{", loc));
    parts.push_back(std::move(joined));
    parts.push_back(ir::makeStrConst(ty.isList() ? "]" : "}", loc));
    return t.seqExpr(std::move(stmts), concatText(t, std::move(parts), loc), loc);
  }
  if (ty.isDict()) return dictReprText(t, std::move(v), loc);
  t.notSupported(loc, "the text of a " + ty.str() + " (print, str, f-string) is not supported");
}

ExprPtr printableText(Typing &t, ExprPtr v, Loc loc) {
  if (v->type.isInstance()) return toStr(t, std::move(v), false, loc); // print(obj) writes str(obj)
  return reprText(t, std::move(v), loc);
}

ExprPtr FunctionTyper::joinedStr(const ast::JoinedStr &e) {
  requireHost(e.loc, "an f-string");
  std::vector<ExprPtr> parts;
  for (auto &p : e.values) {
    if (auto *s = p->as<ast::StrLit>()) {
      parts.push_back(ir::makeStrConst(s->value, s->loc));
      continue;
    }
    auto *f = p->as<ast::FormattedValue>();
    if (!f) internalError("f-string part");
    ExprPtr v = expr(*f->value);
    if (isUnknown(v)) return unknown(e.loc);
    if (f->conversion == 'r' || f->conversion == 'a') v = reprText(*this, std::move(v), f->loc);
    else if (f->conversion == 's') v = toStr(*this, std::move(v), false, f->loc);
    if (!f->spec) {
      if (v->type.isString()) parts.push_back(std::move(v));
      else if (v->type.isList() || v->type.isTuple() || v->type.isDict() || v->type.isSet())
        parts.push_back(reprText(*this, std::move(v), f->loc));
      else parts.push_back(toStr(*this, std::move(v), false, f->loc));
      continue;
    }
    ExprPtr spec = joinedStr(*f->spec->as<ast::JoinedStr>());
    if (isUnknown(spec)) return unknown(e.loc);
    v = unwrapOptional(std::move(v));
    const Type t = v->type;
    std::vector<ExprPtr> a;
    const char *fn;
    if (t.isString()) {
      a.push_back(toUnicode(*this, std::move(v)));
      fn = "mahou_rt_str_format_str";
    } else if (t.isInt() || t.isBool()) {
      a.push_back(ir::makeCast(std::move(v), Type::int64()));
      fn = "mahou_rt_str_format_int";
    } else if (t.isFloat()) {
      a.push_back(ir::makeCast(std::move(v), Type::float64()));
      fn = "mahou_rt_str_format_float";
    } else {
      notSupported(f->loc, "a format spec for a " + t.str() + " is not supported");
    }
    a.push_back(std::move(spec));
    auto c = objectOp(*this, ObjectOp::StrCall, Type::unicode(), std::move(a), f->loc);
    c->symbol = fn;
    parts.push_back(std::move(c));
  }
  return concatText(*this, std::move(parts), e.loc);
}

} // namespace mahou::sema
