// A jitclass method taken from an instance as a value (`f = obj.method`, Numba's
// BoundFunction): a one-field tuple type holding the instance, whose class handle is
// kBoundMethodClass and whose field name is the method's name; calling it calls the
// method with the instance first (sema/closures.cpp). It lives in compiled code only.
#pragma once

#include "mahou/types.h"

namespace mahou::types {

constexpr uint64_t kBoundMethodClass = 3; // never an object's address (namedtuple classes are)

inline bool isBoundMethod(const Type &t) { return t.kind == Kind::Tuple && !t.closureTuple && t.handle == kBoundMethodClass; }

inline Type boundMethodType(Type instance, const std::string &className, const std::string &method) {
  return Type::namedTuple({std::move(instance)}, kBoundMethodClass, className + "." + method, {method});
}

inline const std::string &boundMethodName(const Type &t) { return t.fields[0]; }

inline bool containsBoundMethod(const Type &t) {
  if (isBoundMethod(t)) return true;
  for (const auto &e : t.elems)
    if (containsBoundMethod(e)) return true;
  return false;
}

} // namespace mahou::types
