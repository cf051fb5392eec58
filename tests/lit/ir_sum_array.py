# RUN: %mahouc %s --function=sum_array --args="float64[::1]" --emit=ir | %FileCheck %s
# RUN: %mahouc %s --function=sum_array --args="float32[:]" --emit=ir | %FileCheck %s --check-prefix=F32
# RUN: %mahouc %s --function=sum_array --args="float64[::1]" --emit=opt | %FileCheck %s --check-prefix=OPT


def sum_array(arr):
    total = 0.0
    for i in range(arr.shape[0]):
        total += arr[i]
    return total


# CHECK: func @sum_array(%arr: array(float64, 1d, C)) -> float64
# CHECK: var %total: float64
# CHECK: var %i: int64
# CHECK: %total = 0:float64
# CHECK: for %{{.*}} in range(0:int64, {{.*}}shape.0(%arr)
# CHECK: %total = binary.add(%total, getitem(%arr, %i) : float64) : float64
# CHECK: return %total

# float32 elements are widened into the float64 accumulator.
# F32: func @sum_array(%arr: array(float32, 1d, A)) -> float64
# F32: binary.add(%total, cast(getitem(%arr, %i) : float32) : float64) : float64

# The optimised loop reads the data directly: no calls and no bounds checks inside.
# OPT-LABEL: define {{.*}}@mahou.sum_array
# OPT: for.body:
# OPT-NOT: call
# OPT: fadd double
# OPT: ret i32 0
