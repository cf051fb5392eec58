// Byte spans of strided arrays and whether any two of a set share memory: a kernel
// launch runs the overload's noalias form only when no two array arguments overlap.
#pragma once

#include <cstddef>
#include <cstdint>

namespace mahou::cuda {

// The bytes [lo, hi) an array's items occupy; lo == hi for an array with no items.
struct MemorySpan {
  uint64_t lo = 0, hi = 0;
  bool empty() const { return lo == hi; }
};

// The span of ndim extents `shape` with byte `strides` (negative ones too) from `data`.
MemorySpan stridedSpan(uint64_t data, int ndim, const int64_t *shape, const int64_t *strides,
                       int64_t itemsize);

// Whether two of the n spans share a byte (empty spans share none).
bool anyOverlap(const MemorySpan *spans, size_t n);

} // namespace mahou::cuda
