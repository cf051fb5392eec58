# `Q[i][j] += v` on a local array keeps the row view in a hidden variable until the next
# iteration: the incref of Q's owner and the decref of the previous view's owner only meet
# (as one object) after SROA and GVN, and the late run of the pair pass removes them, so the
# inner loops call no reference counting.
# RUN: %mahouc %s --function=accumulate --args="float64[:, :], int64" --emit=opt | %FileCheck %s
import numpy as np


def accumulate(c, reps):
    q = np.zeros((4, 8))
    for _ in range(reps):
        for u in range(32):
            for m in range(4):
                q[u % 4][u // 4] += c[u][m]
    return q[0][0]


# The inner loops (from the middle loop's header to its exit) count no references.
# CHECK-LABEL: define
# CHECK: {{^}}for.cond9.preheader:
# CHECK-NOT: @mahou_rt_incref
# CHECK-NOT: @mahou_rt_decref
# CHECK: {{^}}for.end7:
