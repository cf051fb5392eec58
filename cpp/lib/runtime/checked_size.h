// Overflow-checked size arithmetic for the runtime's allocations (strings, lists,
// object blocks): a length or byte count that would wrap past int64 is reported as
// CPython reports it (MemoryError or OverflowError), never allocated small and written past.
#pragma once

#include <cstdint>

namespace mahou::runtime {

// a * b and a + b of non-negative sizes; false when the result would not fit in int64.
inline bool mulSize(int64_t a, int64_t b, int64_t &out) {
  return a >= 0 && b >= 0 && !__builtin_mul_overflow(a, b, &out);
}
inline bool addSize(int64_t a, int64_t b, int64_t &out) {
  return a >= 0 && b >= 0 && !__builtin_add_overflow(a, b, &out);
}

} // namespace mahou::runtime
