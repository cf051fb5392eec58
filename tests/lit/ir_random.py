# RUN: %mahouc %s --function=f --args="float64, int64" --emit=ir | %FileCheck %s
# RUN: %mahouc %s --function=g --args="int64" --emit=llvm | %FileCheck %s --check-prefix=LLVM
import numpy as np


def f(shape, n):
    return np.random.gamma(shape, 2.0, n)


def g(s):
    np.random.seed(s)
    return np.random.binomial(10, 0.5)


# The parameters are checked (NumPy's constraints, in order) before the draws fill the array.
# CHECK: eval random.check[shape]
# CHECK: eval random.check[scale]
# CHECK: alloc.empty
# CHECK: for
# CHECK: setflatitem {{.*}} random.draw.gamma(

# LLVM: call i32 @mahou_rt_np_seed
# LLVM: call i32 @mahou_rt_random_check
# LLVM: call i32 @mahou_rt_random_check_int
# LLVM: call i64 @mahou_rt_np_binomial
