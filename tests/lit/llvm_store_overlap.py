# A store whose operands may share memory with the destination tests their byte ranges
# and keeps the fused loop; an operand the expression allocates itself is not tested.
# RUN: %mahouc %s --function=shift --args="float64[:], float64[:]" --emit=llvm | %FileCheck %s --check-prefix=SHIFT
# RUN: %mahouc %s --function=fresh --args="float64[:]" --emit=llvm | %FileCheck %s --check-prefix=FRESH
# RUN: %mahouc %s --function=inplace --args="float64[:]" --emit=llvm | %FileCheck %s --check-prefix=SELF
import numpy as np


def shift(a, b):
    a[1:] = b[:-1] + 1.0


def fresh(a):
    a[:] = np.arange(a.shape[0]) * 2.0


def inplace(a):
    a += 1.0


# SHIFT: store.direct:
# SHIFT: store.overlap:
# SHIFT: mahou_rt_alloc
# FRESH-NOT: store.overlap
# SELF-NOT: store.overlap
