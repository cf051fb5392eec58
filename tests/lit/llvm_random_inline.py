# np.random's normal draws are emitted inline: the thread's state is fetched once, before
# the loop of a size= draw, no runtime draw is called, and the log is C's (not a builtin).
# RUN: %mahouc %s --function=normals --args="int64" --emit=opt | %FileCheck %s
# RUN: %mahouc %s --function=scaled --args="float64" --fastmath --emit=opt | %FileCheck %s --check-prefix=FAST
import numpy as np


def normals(n):
    return np.random.normal(0.5, 2.0, size=n)


def scaled(x):
    return np.random.normal(0.5, 2.0) * x + 1.0


# CHECK-NOT: mahou_rt_np_normal
# CHECK: for.body.lr.ph:
# CHECK-NEXT: call ptr @mahou_rt_np_state()
# CHECK: for.body:
# CHECK-NOT: @mahou_rt_np_state()
# CHECK: call double @log(double %{{[0-9]+}}) [[LOG:#[0-9]+]]
# CHECK-NOT: @mahou_rt_np_state()
# CHECK: {{^(for.end|return):}}
# CHECK: attributes [[LOG]] = { nobuiltin
# Under fastmath the draw's arithmetic stays exact, the function's own gets the flags.
# FAST: call double @log(double %{{[0-9]+}})
# FAST-NEXT: fmul double %{{[0-9]+}}, -2.0
# FAST-NEXT: fdiv double
# FAST: fmul fast double
