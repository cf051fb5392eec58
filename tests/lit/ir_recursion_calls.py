# RUN: %mahouc %s --function=fib --args="int64" --emit=ir | %FileCheck %s
# RUN: %mahouc %s --function=caller --args="float64" --emit=ir | %FileCheck %s --check-prefix=CALL


def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


def helper(x):
    return x * 2


def caller(x):
    return helper(x) + helper(1)


# CHECK: func @fib(%n: int64) -> int64 [symbol [[SYM:mahou.fib.[0-9]+]]]
# CHECK: call @[[SYM]](binary.sub(%n, 1:int64) : int64) : int64

# Each signature of the callee is its own compiled function.
# CALL: func @caller(%x: float64) -> float64
# CALL: binary.add(call @mahou.helper.{{[0-9a-f]+}}(%x) : float64, cast(call @mahou.helper.{{[0-9a-f]+}}(1:int64) : int64) : float64) : float64
