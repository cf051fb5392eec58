// Whole-array expressions of a parallel=True function (1-D maps, sum/prod of them) as
// prange loops for outline_parallel_loops (see the .cpp).
#pragma once

#include "mahou/ir.h"

namespace mahou::transforms {

// Rewrites `v = map(...)` and sum/prod reductions of 1-D arrays and maps into guarded
// ParallelFor loops (sema's form), keeping the original expression for inputs whose
// lengths differ (broadcasting).
void parallelizeArrayExprs(ir::Function &fn);

} // namespace mahou::transforms
