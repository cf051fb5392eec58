// Run-time arguments of exceptions raised by compiled code (raise E("bad", x)):
// the tags of the packed form in MahouError::message and its reader for the binding.
#pragma once

#include "mahou/runtime.h"

#include <cstdint>
#include <functional>

// Tags of packed arguments (runtime/exception_args.cpp).
enum : int32_t {
  MAHOU_ERRARG_NONE = 'n',
  MAHOU_ERRARG_BOOL = 'b',
  MAHOU_ERRARG_INT = 'i',   // int64
  MAHOU_ERRARG_UINT = 'u',  // uint64
  MAHOU_ERRARG_FLOAT = 'f', // float64
  MAHOU_ERRARG_STR = 's',   // PEP 393 kind, length, code units
  MAHOU_ERRARG_BYTES = 'y', // as a str of kind 1: a bytes object
  MAHOU_ERRARG_TUPLE = 't', // the number of items (one byte), then the items
  MAHOU_ERRARG_CUT = '.',   // did not fit in the buffer
};

struct MahouErrorArg {
  char tag = 0;
  int64_t bits = 0;           // bool, int, uint; float's bits
  int kind = 1;               // str
  uint32_t length = 0;        // str: code points; tuple: items (visited next, in order)
  const char *data = nullptr; // str: the code units
};
using MahouErrorArgVisitor = std::function<bool(const MahouErrorArg &)>;

// Calls `visit` for each packed argument of `e` in order; false when `e` has none or
// the buffer is malformed (or visit returned false).
bool mahouUnpackErrorArgs(const MahouError &e, const MahouErrorArgVisitor &visit);
