# RUN: %mahouc %s --function=widen --args="int64" --emit=ir | %FileCheck %s
# RUN: not %mahouc %s --function=conflict --args="float64[:]" --emit=ir 2>&1 | %FileCheck %s --check-prefix=ERR


def widen(n):
    x = 0
    for i in range(n):
        x = x + 0.5
    return x


def conflict(a):
    y = 1
    if a.shape[0] > 2:
        y = a
    return y


# A variable assigned an int and a float is a float everywhere.
# CHECK: var %x: float64
# CHECK: %x = cast(0:int64) : float64

# ERR: TypingError: {{.*}}ir_unify.py:15:9: variable 'y' is int64 elsewhere but array(float64, 1d, A) here
# ERR-NEXT: y = a
# ERR-NEXT: ^
