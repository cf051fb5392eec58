// The registry: everything a program can call or read (a builtin, np.foo, math.foo,
// cuda.foo, a method or attribute of a value) is one entry keyed by (receiver, name).
#pragma once

#include "mahou/ir.h"

#include <optional>
#include <span>
#include <string_view>

namespace mahou::sema {

// What a name is looked up on (receivers.def).
enum class Receiver : uint8_t {
#define MAHOU_RECEIVER(id, spelling, miss, target, hint) id,
#include "sema/receivers.def"
#undef MAHOU_RECEIVER
};

// How a name is used: called as a function of a module (a builtin: of Receiver::Builtins),
// called as a method of a value, read as an attribute, called as a statement of its own
// (`a.fill(v)`, `np.sin(x, out)`, `print(...)`: the entry's statement typer, which may
// decline: the call is then typed as an expression), or called as the iterable of a for
// loop or a comprehension (`for i in range(n)`: the entry names the loop's form).
enum class Member : uint8_t { Function, Method, Attribute, Statement, Loop };

// The forms of loop the loop entries name (the variant of a Member::Loop entry).
enum class LoopForm : int { Range, ParallelRange, Enumerate, Zip, Reversed, NdIndex, LiteralUnroll, Keys, Values, Items };

struct Use; // typing.h: one use of an entry (its call, receiver and place)
using Typer = ir::ExprPtr (*)(Use &);
// Appends the statement's IR to `out` and returns true, or declines (false).
using StatementTyper = bool (*)(Use &, ir::Block &out);

// One name. `variant` is what a typer shared by several names tells them apart by (an op,
// a kind, an index into a table of the area), so that no typer compares name strings.
struct Entry {
  Receiver receiver;
  Member member;
  std::string_view name; // "*": every name of the receiver that no entry lists (its own members)
  Typer typer;
  StatementTyper statement;
  int variant;
};

// The entry of (receiver, member, name) in the static tables (the .def files of each
// area), else the receiver's "*" entry for names a program defines (a jitclass's members,
// a namedtuple's fields, a user module's globals), else null. One hash probe.
const Entry *findEntry(Receiver receiver, Member member, std::string_view name);

// Whether any receiver has a statement entry of that name (before typing a receiver for it).
bool hasStatementForm(std::string_view name);

// Every entry of the static tables, in table order (for the docs and the suggestions).
std::span<const Entry> allEntries();

// The receiver's spelling ("np", "list", "cuda.shared"; "" for the builtins).
std::string_view receiverSpelling(Receiver receiver);
// How a name the receiver lacks is refused: Python's AttributeError (a TypingError) or an
// UnsupportedError (a name mahou does not type).
bool missIsAttributeError(Receiver receiver);
// Calls on the receiver allocate (refused in CUDA kernels) / exist only inside kernels.
bool hostOnly(Receiver receiver);
bool gpuOnly(Receiver receiver);

// The receiver of that spelling ("typed", "cuda.random"), if any.
std::optional<Receiver> receiverNamed(std::string_view spelling);
// A dotted name ("typed.List.empty_list", "cuda.random.xoroshiro128p_next") as the longest
// receiver spelling it starts with and the rest; nullopt when it starts with none.
std::optional<std::pair<Receiver, std::string>> splitReceiver(const std::string &dotted);

// The receiver a value of this type looks its methods and attributes up on (modules and
// the cuda module's namespaces included).
Receiver receiverOf(const types::Type &t);
Receiver receiverOf(types::ModuleId module);

// The names of `receiver` used as `member` closest to `name` (edit distance at most a
// third of its length), best first: what the miss diagnostic suggests.
std::vector<std::string_view> closeNames(Receiver receiver, Member member, std::string_view name);

} // namespace mahou::sema
