// Memory spans of kernel array arguments (memory_spans.h): what the launch path checks
// before it runs a kernel compiled with noalias array parameters.
#include "mahou/memory_spans.h"

#include <algorithm>
#include <vector>

namespace mahou::cuda {

MemorySpan stridedSpan(uint64_t data, int ndim, const int64_t *shape, const int64_t *strides,
                       int64_t itemsize) {
  int64_t lo = 0, hi = itemsize;
  for (int d = 0; d < ndim; ++d) {
    if (shape[d] <= 0)
      return MemorySpan{data, data};
    int64_t extent = (shape[d] - 1) * strides[d];
    (extent < 0 ? lo : hi) += extent;
  }
  if (itemsize <= 0)
    return MemorySpan{data, data};
  return MemorySpan{data + uint64_t(lo), data + uint64_t(hi)};
}

bool anyOverlap(const MemorySpan *spans, size_t n) {
  if (n <= 16) { // kernels take a few arrays: pairwise is cheapest
    for (size_t i = 0; i < n; ++i)
      for (size_t j = i + 1; j < n; ++j)
        if (!spans[i].empty() && !spans[j].empty() && spans[i].lo < spans[j].hi && spans[j].lo < spans[i].hi)
          return true;
    return false;
  }
  std::vector<MemorySpan> sorted;
  for (size_t i = 0; i < n; ++i)
    if (!spans[i].empty())
      sorted.push_back(spans[i]);
  std::sort(sorted.begin(), sorted.end(), [](const MemorySpan &a, const MemorySpan &b) { return a.lo < b.lo; });
  uint64_t reach = 0; // the furthest end of the spans before i
  for (size_t i = 0; i < sorted.size(); ++i) {
    if (i > 0 && sorted[i].lo < reach)
      return true;
    reach = std::max(reach, sorted[i].hi);
  }
  return false;
}

} // namespace mahou::cuda
