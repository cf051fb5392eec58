// try/except support for compiled code: matching the pending error against an
// exception class (with the builtin class hierarchy, and the bases of the user-defined
// classes the binding registers) and clearing it once handled.
#include "mahou/runtime.h"
#include "mahou/types.h"

#include <mutex>
#include <unordered_map>

namespace {

// User-defined classes: value → direct base. Written at compile time, read when an
// except clause matches a user class (any thread).
std::mutex userMutex;
std::unordered_map<int32_t, int32_t> &userBases() {
  static auto *bases = new std::unordered_map<int32_t, int32_t>();
  return *bases;
}

enum ExcIndex : int32_t {
#define MAHOU_EXCEPTION(name) Exc##name,
#include "mahou/exceptions.def"
#undef MAHOU_EXCEPTION
};

// The direct base class of each builtin exception (Exception is the root).
int32_t baseOf(int32_t kind) {
  if (kind >= int32_t(mahou::types::kFirstUserExc)) {
    std::lock_guard<std::mutex> lock(userMutex);
    auto it = userBases().find(kind);
    return it == userBases().end() ? ExcException : it->second;
  }
  switch (kind) {
  case ExcZeroDivisionError:
  case ExcOverflowError: return ExcArithmeticError;
  case ExcIndexError:
  case ExcKeyError: return ExcLookupError;
  case ExcNotImplementedError: return ExcRuntimeError;
  case ExcLinAlgError: return ExcValueError; // numpy.linalg.LinAlgError
  case ExcException: return -1;
  default: return ExcException;
  }
}

} // namespace

void mahou::runtime::registerExceptionClass(int32_t kind, int32_t base) {
  std::lock_guard<std::mutex> lock(userMutex);
  userBases()[kind] = base;
}

extern "C" {

bool mahou_rt_error_matches(int32_t cls) {
  MahouError e = mahou_rt_take_error();
  if (!e.set) return false;
  *mahou_rt_pending_error() = e; // put it back (with its arguments): matching does not handle it
  for (int32_t k = e.kind; k >= 0; k = baseOf(k))
    if (k == cls) return true;
  return false;
}

void mahou_rt_clear_error() {
  MahouError e = mahou_rt_take_error();
  if (e.foreign) mahou::runtime::releaseForeignError(e.foreign); // an objmode block's exception, handled
}

void mahou_rt_save_error(MahouError *slot) { *slot = mahou_rt_take_error(); }

void mahou_rt_restore_error(const MahouError *slot) {
  if (slot->set) *mahou_rt_pending_error() = *slot;
}

} // extern "C"
