// How a name is resolved: the registry's lookup (its static tables, then the run-time
// layer the environment answers for: user extensions' members and the _library), and the
// uses that go through it, `value.name(...)` and `value.name`.
#include "typer.h"

namespace mahou::sema {

const Entry *RuntimeEntries::find(Receiver receiver, Member member, std::string_view name) const {
  auto it = entries_.find(std::make_tuple(receiver, member, name));
  return it == entries_.end() ? nullptr : &it->second;
}

const Entry &RuntimeEntries::add(Receiver receiver, Member member, const std::string &name, Typer typer, int variant) {
  auto [it, added] = entries_.try_emplace(std::make_tuple(receiver, member, name));
  if (added) it->second = Entry{receiver, member, std::get<2>(it->first), typer, nullptr, variant};
  return it->second;
}

namespace {

// Receivers whose members a user extension (overload_method / overload_attribute) may
// add: values, except those whose members are their class's own (jitclass) or refused
// (NumPy records).
bool extensible(Receiver r) {
  switch (r) {
  case Receiver::Array: case Receiver::Number: case Receiver::DType: case Receiver::List: case Receiver::Dict:
  case Receiver::Set: case Receiver::Str: case Receiver::Range: case Receiver::Slice: case Receiver::Tuple:
  case Receiver::NamedTuple: case Receiver::Generator: case Receiver::RandomGenerator: case Receiver::Value:
    return true;
  default: return false;
  }
}

} // namespace

// A member the static tables do not list: a user extension's, else (an array method) the
// _library's `@ndarray.<name>`, else the miss diagnostic.
ExprPtr runtimeMember(Use &u) {
  const Type self = u.self->type;
  if (auto r = u.t.extensionMember(u)) return r;
  if (u.call && u.receiver() == Receiver::Array) // a method written in Python, self first
    if (auto r = u.t.libraryCall("ndarray." + u.name, "a." + u.name, *u.call, std::move(u.self))) return r;
  refuseMissing(u.t, u.receiver(), u.entry.member, u.name, u.loc, &self);
}

// np.<name>(...) written in Python (python/mahou/_library/numpy_functions.py).
ExprPtr numpyLibraryTyper(Use &u) {
  if (auto r = u.t.libraryCall("numpy." + u.name, "np." + u.name, *u.call)) return r;
  refuseMissing(u.t, u.receiver(), Member::Function, u.name, u.loc);
}

const Entry *FunctionTyper::lookup(Receiver receiver, Member member, const std::string &name) {
  if (const Entry *e = findEntry(receiver, member, name)) return e;
  if (const Entry *e = runtimeEntries_.find(receiver, member, name)) return e;
  if ((member == Member::Method || member == Member::Attribute) && extensible(receiver))
    return &runtimeEntries_.add(receiver, member, name, &runtimeMember);
  // The _library allocates arrays: host code only.
  if (receiver == Receiver::Numpy && member == Member::Function && !gpu_ &&
      global("@numpy." + name).kind == GlobalValue::Kind::Function)
    return &runtimeEntries_.add(receiver, member, name, &numpyLibraryTyper);
  return nullptr;
}

ExprPtr FunctionTyper::methodCall(const ast::Expr &selfExpr, const std::string &name, const ast::Call &e) {
  auto self = expr(selfExpr);
  if (isUnknown(self) && !self->type.isPartialContainer()) return unknown(e.loc);
  self = unwrapOptional(std::move(self));
  const Type t = self->type;
  Receiver r = receiverOf(t);
  if (hostOnly(r)) requireHost(e.loc, "a method of " + t.str());
  const Entry *entry = lookup(r, Member::Method, name);
  if (!entry) refuseMissing(*this, r, Member::Method, name, e.loc, &t);
  return typeUse(*this, *entry, name, &e, std::move(self), &selfExpr, e.loc);
}

ExprPtr FunctionTyper::attribute(const ast::Attribute &a) {
  auto base = expr(*a.value);
  if (isUnknown(base)) return unknown(a.loc);
  return attributeOf(std::move(base), a.attr, a.value.get(), a.loc);
}

ExprPtr FunctionTyper::attributeOf(ExprPtr base, const std::string &name, const ast::Expr *source, Loc loc) {
  // An attribute of an optional value (`t.shape` where t may be None) is its value's
  // (TypeError when None), as Numba resolves attributes of Optional.
  if (base->type.isOptional() && !base->type.elems[0].isInstance()) base = unwrapOptional(std::move(base));
  const Type t = base->type;
  // An optional instance: its field (None is an error at run time).
  Receiver r = t.isOptional() && t.elems[0].isInstance() ? Receiver::Instance : receiverOf(t);
  const Entry *entry = lookup(r, Member::Attribute, name);
  if (!entry) refuseMissing(*this, r, Member::Attribute, name, loc, &t);
  return typeUse(*this, *entry, name, nullptr, std::move(base), source, loc);
}

// A name of the registry's own (not a receiver's "*" entry) answers at once; a member a
// program or an extension defines (a jitclass field, a namedtuple field, an overload)
// is typed on a copy of the value, and a TypingError means it has none.
bool FunctionTyper::hasAttribute(const ExprPtr &base, const std::string &name, Loc loc) {
  Type t = base->type;
  if (t.isOptional() && !t.elems[0].isInstance()) t = t.elems[0];
  Receiver r = t.isOptional() && t.elems[0].isInstance() ? Receiver::Instance : receiverOf(t);
  for (Member m : {Member::Attribute, Member::Method})
    if (const Entry *e = findEntry(r, m, name); e && e->name != std::string("*")) return true;
  if (!isPureValue(*base)) return false;
  try {
    attributeOf(ir::clone(*base), name, nullptr, loc); // the IR is dropped: only whether it types
    return true;
  } catch (const UserError &) {
    return false;
  }
}

} // namespace mahou::sema
