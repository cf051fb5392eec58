// Inner functions as values: a nested def or a lambda named where a value is expected
// (passed to an @njit function or another inner function, stored in a local variable,
// put in a tuple) is a closure: a tuple of the enclosing variables it reads, taken where
// it is named, whose type names the function (Type::closure, an id of the module's
// ModuleFunctionSink). A call through it is dispatched statically: the function is
// compiled for the argument types with the captured values as extra arguments, as a
// direct call of the inner function is. An @njit function that receives one is
// compiled from its source into the caller's module, once per closure type (Numba
// specializes it the same way). Returning one to Python is refused, as in Numba.
#include "mahou/bound_method_type.h"
#include "typer.h"
#include "mahou/versions.h"

namespace mahou::sema {

ExprPtr FunctionTyper::closureValue(const InnerFunction &inner, Loc loc) {
  const ast::FunctionDef &d = *inner.def;
  std::string fname = d.name == "<lambda>" ? "the lambda" : "the inner function '" + d.name + "'";
  if (!sink_) notSupported(loc, fname + " cannot be used as a value here");
  if (!inner.nonlocals.empty())
    notSupported(loc, fname + " assigns the nonlocal variable '" + frontend::userName(inner.nonlocals[0]) +
                          "': it can only be called directly, not used as a value (as Numba inlines it)");
  std::vector<ExprPtr> captured;
  std::vector<Type> types;
  for (const std::string &c : inner.captured) {
    auto it = varIndex_.find(c);
    if (it == varIndex_.end())
      notSupported(loc, fname + " reads '" + c + "', a variable of an enclosing function that is not visible here");
    auto v = load(it->second, loc);
    if (isUnknown(v)) return unknown(loc);
    if (v->type.kind == Kind::Module || v->type.kind == Kind::DTypeObj || v->type.kind == Kind::ExcClass)
      notSupported(loc, fname + " captures '" + c + "', a " + v->type.str() + ", and cannot be used as a value");
    types.push_back(v->type);
    captured.push_back(std::move(v));
  }
  uint64_t id = sink_->closureId(inner);
  auto t = std::make_unique<ir::Expr>(ir::ExprOp::TupleMake, Type::closure(id, d.name, std::move(types)), loc);
  t->args = std::move(captured);
  return t;
}

const InnerFunction &FunctionTyper::lambdaFunction(const ast::Lambda &l) {
  auto it = argumentLambdas_.find(l.def.get());
  if (it != argumentLambdas_.end()) return it->second;
  // Captures: the enclosing variables its body reads (and those of inner functions it calls).
  std::set<std::string> names;
  innerFunctionReads(*l.def, names);
  std::set<std::string> cap;
  for (auto &n : names) {
    if (varIndex_.count(n)) cap.insert(n);
    else if (auto f = inner_.find(n); f != inner_.end()) cap.insert(f->second.captured.begin(), f->second.captured.end());
  }
  InnerFunction f;
  f.file = &file_;
  f.def = l.def.get();
  f.env = &env_;
  f.visible = &inner_;
  f.captured.assign(cap.begin(), cap.end());
  return argumentLambdas_.emplace(l.def.get(), std::move(f)).first->second;
}

namespace {

// A default value a call through a closure may evaluate where it is called (it cannot
// read the defining function's variables there).
bool isConstantDefault(const ast::Expr &e) {
  switch (e.kind) {
  case ast::ExprKind::IntLit:
  case ast::ExprKind::FloatLit:
  case ast::ExprKind::ImagLit:
  case ast::ExprKind::StrLit:
  case ast::ExprKind::BytesLit:
  case ast::ExprKind::BoolLit:
  case ast::ExprKind::NoneLit: return true;
  case ast::ExprKind::UnaryOp: return isConstantDefault(*e.as<ast::UnaryOp>()->operand);
  case ast::ExprKind::Tuple:
    for (auto &x : e.as<ast::Tuple>()->elts)
      if (!isConstantDefault(*x)) return false;
    return true;
  default: return false;
  }
}

} // namespace

const InnerFunction &FunctionTyper::closureFunction(const Type &closure, Loc loc) {
  const InnerFunction *inner = sink_ ? sink_->closure(closure.handle) : nullptr;
  if (!inner) notSupported(loc, "the function '" + closure.text + "' cannot be called here");
  return *inner;
}

ExprPtr FunctionTyper::closureCall(ExprPtr closure, std::vector<ExprPtr> args,
                                   std::vector<std::pair<std::string, ExprPtr>> keywords, Loc loc) {
  if (isUnknown(closure)) return unknown(loc);
  const InnerFunction &inner = closureFunction(closure->type, loc);
  const ast::FunctionDef &d = *inner.def;
  args = bindInnerArguments(d, std::move(args), std::move(keywords), loc, [&](const ast::Arg &a) {
    if (!isConstantDefault(*a.defaultValue))
      notSupported(loc, (d.name == "<lambda>" ? "the lambda" : d.name + "()") +
                            " is called through a variable here: its default value for '" + a.name +
                            "' must be a constant (pass the argument)");
  });
  size_t ncap = closure->type.elems.size();
  return bindOnce(std::move(closure), [&](const std::function<ExprPtr()> &reload) {
    std::vector<ExprPtr> captured;
    for (size_t i = 0; i < ncap; ++i) {
      auto c = reload();
      Type t = c->type.elems[i];
      auto item = std::make_unique<ir::Expr>(ir::ExprOp::TupleGet, t, loc);
      item->ival = int64_t(i);
      item->args.push_back(std::move(c));
      captured.push_back(std::move(item));
    }
    return callInner(inner, std::move(args), loc, &captured);
  });
}

ExprPtr FunctionTyper::closureCall(ExprPtr closure, const ast::Call &e) {
  if (types::isBoundMethod(closure->type)) { // f = obj.method; f(x): the method with the instance first
    const Type bt = closure->type;
    const JitClassInfo &c = jitClassOf(bt.elems[0], e.loc);
    const std::string &name = types::boundMethodName(bt);
    auto self = std::make_unique<ir::Expr>(ir::ExprOp::TupleGet, bt.elems[0], e.loc);
    self->ival = 0;
    self->args.push_back(std::move(closure));
    return compiledCall(c.method(name), c.name + "." + name, e, std::move(self));
  }
  CallArgs call = callArgs(e);
  if (call.unknown) return unknown(e.loc);
  auto result = closureCall(std::move(closure), std::move(call.positional), std::move(call.keywords), e.loc);
  return wrapBindings(std::move(call.lets), std::move(result), e.loc);
}

} // namespace mahou::sema
