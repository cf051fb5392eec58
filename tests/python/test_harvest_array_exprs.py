"""Harvested from Numba's tests of array expressions (numba/tests/test_array_exprs.py):
fused expressions of several arrays and scalars (a * x + y, quadratic roots, common
subexpressions, variables reused, explicit outputs, broadcasting of different ranks,
comparisons and reductions of expressions), on Numba's inputs (linspace ranges, 2-D
and 3-D, views) compiled vs NumPy (harvest.py). Roots, powers and transcendental
functions are compared within 8 units in the last place. Cases mahou does not compile
yet are in EXPECTED_REFUSALS."""

import sys

import numpy as np
import pytest

from harvest import Case, run_harvested


def axy(a, x, y):
    return a * x + y


def pos_root(As, Bs, Cs):
    return (-Bs + (((Bs ** 2.) - (4. * As * Cs)) ** 0.5)) / (2. * As)


def neg_root_common_subexpr(As, Bs, Cs):
    two_as = 2. * As
    four_ac = 2. * two_as * Cs
    disc = (Bs ** 2. - four_ac)
    return (-Bs - (disc ** 0.5)) / two_as


def neg_root_complex(As, Bs, Cs):
    two_as = 2. * As
    disc = (Bs ** 2. - 2. * two_as * Cs) + 0j
    return (-Bs - (disc ** 0.5)) / two_as


def roots_imaginary(As, Bs, Cs):
    return (Bs ** 2 - 4 * As * Cs) < 0


def div_add(As, Bs, Cs):
    return As / Bs + Cs


def cube(As):
    return As ** 3


def explicit_output(a, b, out):
    np.cos(a, out)
    np.add(out, b, out)
    return out


def variable_reuse(a, b, c, d):
    u = a + b
    u = u - a * b
    u = u * c + d
    return u


def distance_matrix(vectors):
    n = vectors.shape[0]
    result = np.empty((n, n), dtype=np.float64)
    for i in range(n):
        for j in range(i, n):
            result[i, j] = result[j, i] = np.sum((vectors[i] - vectors[j]) ** 2) ** 0.5
    return result


def broadcast_ranks(a, b, c):
    return a + b * c - 1


def unary_chain(a):
    return -(np.abs(a) + ~(a > 0)) * 2


def mixed_dtypes(a, b):
    return a * 2 + b / 3 - (a > b)


def where_expr(a, b):
    return np.where(a > b, a - b, b - a) * 0.5


def reduce_expr(a, b):
    return np.sum(a * b + 1), np.max(a - b), np.min(np.abs(a) + b), np.any(a > b), np.all(a == a)


def inplace_chain(a, b):
    a += b
    a *= 2
    a -= b / 4
    return a


def slices_in_expr(a):
    return a[1:] - a[:-1] + a[::2].sum()


def ufunc_in_expr(a, b):
    return np.sqrt(np.abs(a)) + np.floor(b) * np.maximum(a, b)


def scalar_first(a):
    return 2.0 - a, 3 / (a + 10.0), 7 // (np.abs(a) + 1)


def bool_arith(a, b):
    return (a > 0) & (b > 0) | ~(a == b), (a > 0) ^ (b < 0)


def int_overflow(a):
    # (a NumPy scalar next to an array is weak in compiled code, as a Python one: not here)
    return a * 3 + 1, a << 2, a - 100


LIN = np.linspace(0, 1, 10)
X = np.linspace(2, 1, 10)
Y = np.linspace(1, 2, 10)
A3 = np.arange(24.0).reshape(2, 3, 4) - 7
QUAD = [(np.linspace(1, 2, 10), np.linspace(-3, 3, 10), np.linspace(-1, 0.5, 10)),
        (np.arange(1.0, 7.0).reshape(2, 3), np.arange(6.0).reshape(2, 3)[::-1], np.ones((2, 3)))]

CASES = {
    "axy": Case(axy, [(LIN, X, Y), (2.0, X, Y), (LIN, 3, Y[::-1]), (A3, 0.5, A3[::-1]),
                      (np.arange(10), np.arange(10, dtype=np.int8), 1)]),
    "pos_root": Case(pos_root, QUAD, tol="ulp"), "neg_root_common_subexpr": Case(neg_root_common_subexpr, QUAD, tol="ulp"),
    # complex ** 0.5 is CPython's polar formula (documented): the real part of the root of a
    # negative number is a tiny nonzero there, 0 from NumPy's sqrt; only the first inputs.
    "neg_root_complex": Case(neg_root_complex, QUAD[:1], tol="ulp"),
    "roots_imaginary": Case(roots_imaginary, QUAD), "div_add": Case(div_add, QUAD + [(np.arange(5), np.arange(5), 1)]),
    "cube": Case(cube, [LIN, np.arange(10), np.arange(10, dtype=np.int8), A3.T], tol="ulp"),
    "explicit_output": Case(explicit_output, [(LIN, X, np.empty(10)), (A3, 1.5, np.empty((2, 3, 4)))], tol="ulp"),
    "variable_reuse": Case(variable_reuse, [(LIN, X, Y, LIN[::-1]), (A3, 2.0, A3.T.T, -1)]),
    "distance_matrix": Case(distance_matrix, [np.arange(12.0).reshape(4, 3), np.linspace(0, 1, 20).reshape(5, 4)],
                            tol="ulp"),
    "broadcast_ranks": Case(broadcast_ranks, [(A3, np.arange(4.0), 2.0), (A3, np.ones((3, 1)), np.arange(4)),
                                              (np.arange(3.0), np.ones((2, 1)), A3[0, :, :3]),
                                              (np.ones((2, 3)), np.ones((4, 3)), 1.0)]),
    "unary_chain": Case(unary_chain, [np.arange(-3, 4), np.arange(6, dtype=np.int16).reshape(2, 3) - 3]),
    "mixed_dtypes": Case(mixed_dtypes, [(np.arange(5, dtype=np.int32), np.linspace(0, 1, 5, dtype=np.float32)),
                                        (np.arange(5, dtype=np.uint8), np.arange(5, dtype=np.int8))]),
    "where_expr": Case(where_expr, [(LIN, X), (A3, -A3), (np.arange(5), 2)]),
    "reduce_expr": Case(reduce_expr, [(LIN, X), (A3, A3.T.T[::-1]), (np.arange(6), np.arange(6)[::-1])], tol=1e-12),
    "inplace_chain": Case(inplace_chain, [(LIN.copy(), X), (A3.copy(), 2.0), (np.arange(10.0)[::2], Y[:5])]),
    "slices_in_expr": Case(slices_in_expr, [LIN, np.arange(9), X[::-1]]),
    "ufunc_in_expr": Case(ufunc_in_expr, [(LIN - 0.5, X), (A3, 1.5)]),
    "scalar_first": Case(scalar_first, [LIN, np.arange(-5, 5)]),
    "bool_arith": Case(bool_arith, [(np.arange(-3, 3), np.arange(3, -3, -1)), (LIN - 0.5, X - 1.5)]),
    "int_overflow": Case(int_overflow, [np.array([2 ** 62, -2 ** 63, 5]), np.array([127, -128], dtype=np.int8)]),
}

# Cases mahou does not compile yet (a clean TypingError/UnsupportedError is asserted).
EXPECTED_REFUSALS = set()


@pytest.mark.parametrize("name", sorted(CASES))
def test_harvested(name):
    run_harvested(sys.modules[__name__], name)
