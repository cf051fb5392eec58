# An array argument's extents are bounded by its size in bytes (assumed at entry), so
# `at[i * len(x) + k]` (i a counter of a few rows, k one over x) cannot overflow: the
# negative-index test folds and the loop over k reads `at` with consecutive vector loads,
# not a gather. (With i up to another extent the product could overflow: no fold.)
# RUN: %mahouc %s --function=rows_dot --args="float64[::1], float64[::1], float64[::1]" --fastmath --emit=opt | %FileCheck %s
import numpy as np


def rows_dot(at, x, out):
    for i in range(5):
        for k in range(len(x)):
            out[i] += at[i * len(x) + k] * x[k]


# CHECK: call void @llvm.assume
# CHECK-NOT: llvm.masked.gather
# CHECK: load <{{[0-9]+}} x double>
# CHECK-NOT: llvm.masked.gather
