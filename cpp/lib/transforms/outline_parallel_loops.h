// Outlining of prange loops (parallel=True): each ParallelFor's body becomes a chunk
// function over an index range, with its reductions recognised (see the .cpp).
#pragma once

#include "mahou/diagnostics.h"
#include "mahou/ir.h"

#include <memory>
#include <string>
#include <vector>

namespace mahou::transforms {

// Rewrites every ParallelFor of `fn` (as sema made it) into its outlined form (ir_ops.def)
// and appends the chunk functions to `outlined`. A prange nested in another one's body
// becomes a serial loop. Returns what parallel_diagnostics reports, one line per fact.
// Refuses (UnsupportedError naming the line) `break` or `return` in a prange body and a
// variable assigned in the body, not a reduction, and read after the loop.
std::vector<std::string> outlineParallelLoops(ir::Function &fn, const SourceFile &file,
                                              std::vector<std::unique_ptr<ir::Function>> &outlined);

} // namespace mahou::transforms
