// Limits on what one call may ask of the compiler. A recursive function whose
// argument types change at every level (f((x, x), n - 1)) has no fixed point:
// each level would type a new, larger signature until memory runs out. A call is
// refused at its line when an argument's type is too large or when typing is
// already nested too deep on this thread.
#include "typer.h"

namespace mahou::sema {

namespace {

// Nested typings on this thread: each call to a function not yet typed for its
// argument types types it (and, from Python, compiles it) inside the caller's typing.
thread_local int typingNesting = 0;

// Calls nested deeper than this are refused. A chain of distinct functions this deep
// is far past real programs; each level takes a few KiB of the thread's stack.
constexpr int kMaxTypingNesting = 100;
// Argument types with more parts than this (tuple items, nested; a string
// literal's characters) are refused.
constexpr size_t kMaxArgumentTypeSize = 10000;

// The number of parts of `t`, counted until it passes `limit`.
size_t typeSize(const Type &t, size_t limit) {
  size_t n = 1 + t.text.size();
  for (const Type &e : t.elems) {
    if (n > limit) break;
    n += typeSize(e, limit - n);
  }
  return n;
}

std::string shortText(const Type &t) {
  std::string s = t.str();
  return s.size() > 120 ? s.substr(0, 100) + "..." + s.substr(s.size() - 16) : s;
}

} // namespace

TypingNesting::TypingNesting() { ++typingNesting; }
TypingNesting::~TypingNesting() { --typingNesting; }

void FunctionTyper::checkCallLimits(const std::vector<Type> &args, const std::string &fname, Loc loc) const {
  for (size_t i = 0; i < args.size(); ++i)
    if (typeSize(args[i], kMaxArgumentTypeSize) > kMaxArgumentTypeSize)
      error(loc, "argument " + std::to_string(i + 1) + " of this call to " + fname + " has a type of more than " +
                     std::to_string(kMaxArgumentTypeSize) + " parts (" + shortText(args[i]) +
                     "); a recursive call whose argument types grow at every level cannot be compiled");
  if (typingNesting >= kMaxTypingNesting) {
    std::string types;
    for (size_t i = 0; i < args.size(); ++i) types += (i ? ", " : "") + shortText(args[i]);
    error(loc, "this call to " + fname + " (" + types + ") would be typed " + std::to_string(kMaxTypingNesting) +
                   " calls deep; a recursive call whose argument types change at every level cannot be compiled");
  }
}

} // namespace mahou::sema
