// The registry's static tables (every area's .def file), their one-probe lookup, the
// receivers of values, and the one diagnostic for a name a receiver lacks.
#include "mahou/ast_walk.h"
#include "mahou/bound_method_type.h"
#include "sema/typers.h"

#include "mahou/literal_dict_type.h"
#include "mahou/range_type.h"
#include "mahou/slice_type.h"

#include <algorithm>
#include <unordered_map>

namespace mahou::sema {

namespace {

// Every area's table, in one array. A typer is declared by sema/typers.h.
constexpr Entry kEntries[] = {
#define MAHOU_FUNCTION(receiver, name, typer, variant) {Receiver::receiver, Member::Function, name, &typer, nullptr, int(variant)},
#define MAHOU_METHOD(receiver, name, typer, variant) {Receiver::receiver, Member::Method, name, &typer, nullptr, int(variant)},
#define MAHOU_ATTRIBUTE(receiver, name, typer, variant) {Receiver::receiver, Member::Attribute, name, &typer, nullptr, int(variant)},
#define MAHOU_STATEMENT(receiver, name, typer, variant) {Receiver::receiver, Member::Statement, name, nullptr, &typer, int(variant)},
#define MAHOU_LOOP(receiver, name, form) {Receiver::receiver, Member::Loop, name, nullptr, nullptr, int(LoopForm::form)},
#include "sema/typer_tables.inc"
#undef MAHOU_LOOP
#undef MAHOU_FUNCTION
#undef MAHOU_METHOD
#undef MAHOU_ATTRIBUTE
#undef MAHOU_STATEMENT
};

struct ReceiverInfo {
  std::string_view spelling;
  bool attributeError;
  bool hostOnly, gpuOnly;
  std::string_view hint;
};

constexpr bool Unsupported = false, NoAttribute = true;
enum Target { Any, HostOnly, GpuOnly };

constexpr ReceiverInfo kReceivers[] = {
#define MAHOU_RECEIVER(id, spelling, miss, target, hint) {spelling, miss, target == HostOnly, target == GpuOnly, hint},
#include "sema/receivers.def"
#undef MAHOU_RECEIVER
};

const ReceiverInfo &info(Receiver r) { return kReceivers[size_t(r)]; }

struct Key {
  Receiver receiver;
  Member member;
  std::string_view name;
  bool operator==(const Key &) const = default;
};

struct KeyHash {
  size_t operator()(const Key &k) const {
    return std::hash<std::string_view>()(k.name) * 31 + size_t(k.receiver) * 4 + size_t(k.member);
  }
};

// The tables as one hash map, made once (read-only afterwards).
const std::unordered_map<Key, const Entry *, KeyHash> &table() {
  static const auto map = [] {
    std::unordered_map<Key, const Entry *, KeyHash> m;
    m.reserve(std::size(kEntries));
    for (const Entry &e : kEntries)
      if (!m.emplace(Key{e.receiver, e.member, e.name}, &e).second)
        internalError("the registry lists " + std::string(info(e.receiver).spelling) + "." + std::string(e.name) +
                      " twice");
    return m;
  }();
  return map;
}

size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

} // namespace

const Entry *findEntry(Receiver receiver, Member member, std::string_view name) {
  const auto &m = table();
  auto it = m.find(Key{receiver, member, name});
  if (it != m.end()) return it->second;
  it = m.find(Key{receiver, member, "*"});
  return it == m.end() ? nullptr : it->second;
}

bool hasStatementForm(std::string_view name) {
  static const auto names = [] {
    std::unordered_map<std::string_view, bool> m;
    for (const Entry &e : kEntries)
      if (e.member == Member::Statement) m.emplace(e.name, true);
    return m;
  }();
  return names.count(name) != 0;
}

std::span<const Entry> allEntries() { return kEntries; }

std::string_view receiverSpelling(Receiver r) { return info(r).spelling; }
bool missIsAttributeError(Receiver r) { return info(r).attributeError; }
bool hostOnly(Receiver r) { return info(r).hostOnly; }
bool gpuOnly(Receiver r) { return info(r).gpuOnly; }

std::optional<Receiver> receiverNamed(std::string_view spelling) {
  for (size_t r = 0; r < std::size(kReceivers); ++r)
    if (!spelling.empty() && kReceivers[r].spelling == spelling) return Receiver(r);
  return std::nullopt;
}

std::optional<std::pair<Receiver, std::string>> splitReceiver(const std::string &dotted) {
  for (size_t dot = dotted.rfind('.'); dot != std::string::npos && dot > 0; dot = dotted.rfind('.', dot - 1))
    if (auto r = receiverNamed(std::string_view(dotted).substr(0, dot))) return std::make_pair(*r, dotted.substr(dot + 1));
  return std::nullopt;
}

Receiver receiverOf(types::ModuleId module) {
  switch (module) {
  case types::ModuleId::Math: return Receiver::Math;
  case types::ModuleId::Cmath: return Receiver::Cmath;
  case types::ModuleId::Numpy: return Receiver::Numpy;
  case types::ModuleId::NumpyRandom: return Receiver::NumpyRandom;
  case types::ModuleId::PyRandom: return Receiver::PyRandom;
  case types::ModuleId::Mahou: return Receiver::Mahou;
  case types::ModuleId::Cuda: return Receiver::Cuda;
  case types::ModuleId::Python: return Receiver::PythonModule;
  }
  return Receiver::PythonModule;
}

Receiver receiverOf(const Type &t) {
  switch (t.kind) {
  case Kind::Array: return t.isRecordArray() ? Receiver::RecordArray : t.isBuffer() ? Receiver::Buffer : Receiver::Array;
  case Kind::Scalar: return Receiver::Number;
  case Kind::DTypeObj: return Receiver::DType;
  case Kind::List: return Receiver::List;
  case Kind::Dict: return Receiver::Dict;
  case Kind::Set: return Receiver::Set;
  case Kind::Str:
  case Kind::Unicode: return Receiver::Str;
  case Kind::Record: return Receiver::Record;
  case Kind::Generator: return Receiver::Generator;
  case Kind::NumPyRandomGenerator: return Receiver::RandomGenerator;
  case Kind::EnumMember: return Receiver::EnumMember;
  case Kind::Instance: return Receiver::Instance;
  case Kind::ClassRef: return Receiver::JitClass;
  case Kind::Module: return receiverOf(t.module);
  case Kind::Namespace: // the cuda module's namespaces, by their path under cuda
    return receiverNamed("cuda." + t.text).value_or(Receiver::Value);
  case Kind::Tuple:
    if (types::isRange(t)) return Receiver::Range;
    if (types::isSlice(t)) return Receiver::Slice;
    if (types::isBoundMethod(t)) return Receiver::Value; // obj.method as a value: no members
    if (types::isLiteralDict(t)) // the dict's methods; its views have none
      return types::literalDictView(t) == types::LiteralDictView::Dict ? Receiver::LiteralDict : Receiver::Value;
    if (t.isNamedTuple()) return Receiver::NamedTuple;
    return Receiver::Tuple;
  default: return Receiver::Value;
  }
}

std::vector<std::string_view> closeNames(Receiver receiver, Member member, std::string_view name) {
  std::vector<std::pair<size_t, std::string_view>> scored;
  size_t limit = std::max<size_t>(1, name.size() / 3);
  for (const Entry &e : kEntries) {
    bool sameUse = e.member == member || (member == Member::Function && e.member == Member::Statement);
    if (e.receiver != receiver || !sameUse || e.name == "*" || e.name == name) continue;
    size_t d = editDistance(name, e.name);
    if (d <= limit && std::none_of(scored.begin(), scored.end(), [&](auto &s) { return s.second == e.name; }))
      scored.emplace_back(d, e.name);
  }
  std::stable_sort(scored.begin(), scored.end(), [](auto &a, auto &b) { return a.first < b.first; });
  std::vector<std::string_view> out;
  for (size_t i = 0; i < scored.size() && i < 3; ++i) out.push_back(scored[i].second);
  return out;
}

std::string Use::qualified() const {
  std::string_view r = receiverSpelling(entry.receiver);
  if (r.empty() || entry.member != Member::Function) return name;
  return std::string(r) + "." + name;
}

std::vector<ExprPtr> Use::args(size_t minArgs, size_t maxArgs, std::initializer_list<const char *> keywords) {
  return args(minArgs, maxArgs, keywords, name);
}

std::vector<ExprPtr> Use::args(size_t minArgs, size_t maxArgs, std::initializer_list<const char *> keywords,
                               const std::string &fname) {
  t.checkKeywords(*call, keywords, fname);
  return t.positionalArgs(*call, minArgs, maxArgs, fname);
}

namespace {

bool callsSomething(const ast::Expr &e) {
  if (e.kind == ast::ExprKind::Call) return true;
  bool found = false;
  ast::forEachChild(e, [&](const ast::Expr &c) { found = found || callsSomething(c); });
  return found;
}

// Whether an argument of the call calls something (its effects could come before the
// receiver's, once a dtype argument's are moved before the use: takeDeferredEffects).
bool argumentsCall(const ast::Call &call) {
  for (const ast::ExprPtr &a : call.args)
    if (callsSomething(*a)) return true;
  for (const ast::Keyword &k : call.keywords)
    if (k.value && callsSomething(*k.value)) return true;
  return false;
}

} // namespace

ExprPtr typeUse(Typing &t, const Entry &entry, const std::string &name, const ast::Call *call, ExprPtr self,
                const ast::Expr *selfExpr, Loc loc) {
  // A receiver with effects, of a call whose arguments call something: evaluated first,
  // into a hidden variable, as Python evaluates it before the arguments
  // (np.random.rand(2).astype(np.random.rand(1).dtype) draws the 2 first).
  std::shared_ptr<ir::Block> receiver;
  if (self && call && !Typing::isUnknown(self) && !self->type.isPartialContainer() && !isInert(*self) &&
      argumentsCall(*call)) {
    receiver = std::make_shared<ir::Block>();
    int held = t.holdInTemp(std::move(self), loc, *receiver);
    self = t.load(held, loc);
  }
  Use use{t, entry, name, call, std::move(self), selfExpr, loc};
  size_t mark = t.deferredEffectsMark();
  ExprPtr result = t.takeDeferredEffects(mark, entry.typer(use), loc);
  if (receiver && result && !Typing::isUnknown(result)) result = t.seqExpr(std::move(receiver), std::move(result), loc);
  // A member whose value does not depend on the receiver's (a.ndim, a.dtype, a.itemsize:
  // constants of its type) leaves the receiver unused; Python evaluates it all the same,
  // so its effects and the exceptions it raises stay (np.random.rand(3, 2).dtype draws).
  if (use.self && result && !Typing::isUnknown(result))
    return evaluatedThen(t, std::move(use.self), std::move(result), loc);
  return result;
}

void refuseMissing(const Typing &t, Receiver receiver, Member member, const std::string &name, Loc loc,
                   const Type *self) {
  std::string spelling(receiverSpelling(receiver));
  std::string msg;
  // A value lacks an attribute as Python says it (AttributeError); a method it lacks is
  // Python's AttributeError or, for numbers and arrays, a method mahou does not type.
  bool attributeError = missIsAttributeError(receiver);
  if (self && self->kind != Kind::Module && self->kind != Kind::Namespace) {
    attributeError |= member == Member::Attribute;
    msg = attributeError ? self->str() + " has no attribute '" + name + "'"
                         : "the method '" + name + "' of " + self->str() + " is not supported";
  } else if (receiver == Receiver::PythonModule) {
    msg = "module '" + (self ? self->text : spelling) + "' has no attribute '" + name + "'";
  } else if (spelling.empty()) {
    msg = "the builtin '" + name + "' is not supported";
  } else {
    msg = attributeError ? spelling + " has no attribute '" + name + "'" : spelling + "." + name + " is not supported";
  }
  if (!info(receiver).hint.empty()) msg += " (" + std::string(info(receiver).hint) + ")";
  auto close = closeNames(receiver, member, name);
  for (size_t i = 0; i < close.size(); ++i)
    msg += (i == 0 ? " (did you mean '" : i + 1 == close.size() ? " or '" : ", '") + std::string(close[i]) + "'" +
           (i + 1 == close.size() ? "?)" : "");
  if (attributeError) t.error(loc, msg);
  t.notSupported(loc, msg);
}

} // namespace mahou::sema
