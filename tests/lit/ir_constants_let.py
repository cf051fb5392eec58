# RUN: %mahouc %s --function=f --args="float64[:], int64" --emit=ir | %FileCheck %s
# RUN: not %mahouc %s --function=too_big --args="int64" --emit=ir 2>&1 | %FileCheck %s --check-prefix=BIG


def g(a):
    return a[0] * 2


def f(a, b):
    return divmod(g(a), b), 0 < g(a) < b, 2**63, -2**63, 3**-1


def too_big(x):
    return x + 2**64


# An operand with effects is evaluated once, into a hidden variable, by `let`.
# CHECK: var %[[A:\$t[0-9]+]]: float64
# CHECK: let %[[A]](call @mahou.g.{{[0-9a-f]+}}(%a) : float64, let %{{\$t[0-9]+}}(%b, tuple(binary.floordiv(%[[A]],
# CHECK-SAME: binary.mod(%[[A]],
# The middle of a chained comparison: once, compared twice.
# CHECK-SAME: shortcircuit.and(cmp.lt(
# Constant expressions, folded exactly.
# CHECK-SAME: 9223372036854775808:uint64, -9223372036854775808:int64, 0.33333333333333331:float64

# BIG: ir_constants_let.py:14:16: this integer constant (18446744073709551616) does not fit in 64 bits
