// Calls and members that user code provides (mahou.extending): functions with
// @overload implementations, methods (overload_method) and attributes
// (overload_attribute).
#include "typer.h"

namespace mahou::sema {

namespace {

std::string typeList(const std::vector<Type> &types) {
  std::string s;
  for (size_t i = 0; i < types.size(); ++i) s += (i ? ", " : "") + types[i].str();
  return s;
}

// The compile-time value of an argument, offered to typing functions as a literal.
std::optional<GlobalValue> literalOf(const ir::Expr &e) {
  GlobalValue g;
  if (e.type.kind == Kind::Str) {
    g.kind = GlobalValue::Kind::Str;
    g.s = e.type.text;
    return g;
  }
  if (e.op != ir::ExprOp::Const) return std::nullopt;
  if (e.type.isBool()) {
    g.kind = GlobalValue::Kind::Bool;
    g.b = e.ival != 0;
  } else if (e.type.isInt()) {
    g.kind = GlobalValue::Kind::Int;
    g.i = e.ival;
  } else {
    return std::nullopt;
  }
  return g;
}

// The call's arguments as the request's types (keyword ones last, by name).
void addArguments(ExtensionRequest &request, std::vector<const ir::Expr *> &values, const CallArgs &args) {
  for (auto &a : args.positional) {
    request.args.push_back(a->type);
    values.push_back(a.get());
  }
  for (auto &[name, v] : args.keywords) {
    request.args.push_back(v->type);
    request.kwnames.push_back(name);
    values.push_back(v.get());
  }
}

} // namespace

ExtensionResult FunctionTyper::askExtension(ExtensionRequest request, const std::vector<const ir::Expr *> &args) {
  for (const ir::Expr *a : args) request.literals.push_back(literalOf(*a));
  return env_.resolveExtension(request);
}

// f(args) where f has @overload implementations: the first typing function that
// accepts the argument types gives the implementation, compiled as a callee. Without
// one, what f is otherwise (a builtin, a NumPy function, ...) is called.
ExprPtr FunctionTyper::overloadedCall(const GlobalValue &g, const ast::Call &e,
                                      const std::function<ExprPtr()> &otherwise) {
  CallArgs args = callArgs(e);
  if (args.unknown) return unknown(e.loc);
  ExtensionRequest request;
  request.kind = ExtensionRequest::Kind::Function;
  request.handle = g.handle;
  request.name = g.s;
  std::vector<const ir::Expr *> values;
  addArguments(request, values, args);
  ExtensionResult r = askExtension(request, values);
  if (!r.error.empty())
    error(e.loc, "the implementation of '" + g.s + "' for (" + typeList(request.args) + ") failed: " + r.error);
  if (!r.impl) {
    if (!g.elems.empty() && g.elems[0].kind != GlobalValue::Kind::Unsupported &&
        g.elems[0].kind != GlobalValue::Kind::Missing)
      return otherwise();
    error(e.loc, "no implementation of '" + g.s + "' (mahou.extending.overload) accepts the argument types (" +
                     typeList(request.args) + ")");
  }
  return callCompiled(r.impl->handle, g.s, std::move(args), e.loc);
}

ExprPtr FunctionTyper::extensionMember(Use &m) {
  ExtensionRequest request;
  request.kind = m.call ? ExtensionRequest::Kind::Method : ExtensionRequest::Kind::Attribute;
  request.name = m.name;
  request.args.push_back(m.self->type);
  std::vector<const ir::Expr *> values{m.self.get()};
  CallArgs args;
  if (m.call) {
    args = callArgs(*m.call);
    if (args.unknown) return unknown(m.loc);
    addArguments(request, values, args);
  }
  ExtensionResult r = askExtension(request, values);
  std::string what = (m.call ? "method '" : "attribute '") + m.name + "' of " + m.self->type.str();
  if (!r.error.empty())
    error(m.loc, "the implementation of the " + what + " for (" + typeList(request.args) + ") failed: " + r.error);
  if (r.declined)
    error(m.loc, "no implementation of the " + what + " (mahou.extending) accepts the argument types (" +
                     typeList(request.args) + ")");
  if (!r.impl) return nullptr;
  args.positional.insert(args.positional.begin(), std::move(m.self));
  return callCompiled(r.impl->handle, m.name, std::move(args), m.loc);
}

} // namespace mahou::sema
