"""Numba's supported-NumPy-features page, item by item (the rows of docs/numba_surface.md
that no other test proves): scalars, array access, array methods, polynomials and the
functions left over, each compiled vs NumPy on several inputs (empty arrays, negatives,
non-contiguous views, several dtypes) with the harvest harness; cases mahou refuses are
in EXPECTED_REFUSALS (a clean error is asserted)."""

import sys

import numpy as np
import pytest
from numpy.polynomial import polynomial as P
from numpy.polynomial import polyutils as pu

from harvest import Case, run_harvested

F = np.array([1.5, -2.0, 0.0, 3.25, -0.5])
I = np.array([3, -1, 4, 1, -5, 9], dtype=np.int64)
M = np.arange(12.0).reshape(3, 4) - 5
VIEW = np.arange(20.0)[::3]
EMPTY = np.zeros(0)
ARRS = [F, I, M, VIEW, EMPTY, np.arange(6, dtype=np.int32).reshape(2, 3).T, np.array([True, False, True])]
REC = np.dtype([("ival", np.int32), ("fval", np.float64)], align=True)


def int_scalars(x):
    return np.int8(x), np.int16(x), np.int32(x), np.int64(x), np.intp(x)


def uint_scalars(x):
    return np.uint8(x), np.uint16(x), np.uint32(x), np.uint64(x)


def intc_scalar(x):
    return np.intc(x)


def uintc_scalar(x):
    return np.uintc(x)


def uintp_scalar(x):
    return np.uintp(x)


def bool_scalar(x):
    return np.bool_(x), np.bool_(x) & True


def float_scalars(x):
    return np.float32(x) * np.float32(2), np.float64(x) / 3


def complex_scalars(x):
    return np.complex64(x) * 1j, np.complex128(x) + 1j


def scalar_view():
    i = np.int64(-1)
    f = np.float64(1.5)
    return i.view(np.uint64), f.view(np.int64), np.int32(-2).view(np.float32)


def scalar_view_of(x, y):
    return np.float64(x).view(np.int64), np.float32(y).view(np.int32), np.uint16(65535).view(np.int16), np.int64(-3).view(np.float64)


def array_ctors(a):
    return np.float32(a), np.int8(a), np.complex128(a), np.bool_(a), np.uint16(a)


def sequence_ctors(x):
    return np.float32(x), np.int64(x), np.complex128(x), np.bool_(x), np.uint8(x)


def scalar_ctors(x):
    return np.float32(x), np.int8(x), np.complex128(x), np.bool_(x), np.uint16(x), np.complex64(x)


def datetime_scalars(d, t):
    return d + t, d - d, t * 2, d < d + t


def record_item(arr):
    arr[0]["ival"] = 7
    arr[0]["fval"] = 2.5
    r = arr[1]
    return r["ival"] + r["fval"], arr[0]["ival"], arr["fval"].sum()


def iterate(a):
    total = 0.0
    for row in a:
        for x in row:
            total += x
    return total


def basic_indexing(a):
    return a[1:, ::2], a[-1], a[0, 1], a[..., 0], a[:, None, 1]


def fancy_multi(x, i, j):
    return x[:, i, j, :], x[:, i, :, j]


def contains(a, v):
    return v in a


def matmul(a, b):
    return a @ b


def arr_max_min(a):
    return a.max(), a.min()


def arr_copy(a):
    b = a.copy()
    b[...] = 0
    return b, a


def arr_sort(a):
    a.sort()
    return a


def arr_sum(a):
    return a.sum(), a.sum(axis=0), a.sum(axis=-1)


def arr_sum_dtype(a):
    return a.sum(dtype=np.float64)


def ones_like(a):
    return np.ones_like(a), np.ones_like(a, dtype=np.float32)


def roots(p):
    r = np.roots(p)
    return r[np.argsort(r.real * 1000 + r.imag)]


def row_stack(a, b):
    return np.row_stack((a, b))


def tril_indices_from(a):
    return np.tril_indices_from(a), np.tril_indices_from(a, -1), np.tril_indices_from(a, 1)


def triu_indices(n):
    return np.triu_indices(n), np.triu_indices(n, 1), np.triu_indices(n, -1, n + 1)


def poly_class(c):
    p = P.Polynomial(c)
    return p.coef


def polyadd(a, b):
    return P.polyadd(a, b)


def polysub(a, b):
    return P.polysub(a, b)


def polymul(a, b):
    return P.polymul(a, b)


def polydiv(a, b):
    return P.polydiv(a, b)


def polyint(a):
    return P.polyint(a)


def polyint_m(a, m):
    return P.polyint(a, m)


def polyval(x, c):
    return P.polyval(x, c)


def as_series(a):
    return pu.as_series((a, a * 2))


def trimseq(a):
    return pu.trimseq(a)


def ufunc_divmod(a, b):
    return np.divmod(a, b)


def ufunc_modf(a):
    return np.modf(a)


def ufunc_ldexp(a, e):
    return np.ldexp(a, e)


def ufunc_frexp(a):
    return np.frexp(a)


def ufunc_isnat(a):
    return np.isnat(a)


def logspace_forms(start, stop, num):
    return np.logspace(start, stop, num), np.logspace(start, stop, num, False), np.logspace(start, stop, num, True, 2.0)


def geomspace_forms(start, stop, num):
    return np.geomspace(start, stop, num), np.geomspace(start, stop, num, False)


def nan_to_num_forms(x):
    return np.nan_to_num(x), np.nan_to_num(x, nan=-1.0, posinf=7.0)


def nan_to_num_in_place(x):
    y = np.nan_to_num(x, copy=False)
    return x, y


def unwrap_forms(p):
    return np.unwrap(p), np.unwrap(p, 4.0)


def unwrap_2d(p):
    return np.unwrap(p), np.unwrap(p, axis=0), np.unwrap(p, 2.0, -2, period=5.0)


def select_forms(conds, choices):
    return np.select(conds, choices), np.select(conds, choices, -1), np.select(conds, choices, 2.5)


def cov_forms(m, y):
    return (np.cov(m, y), np.cov(m, y, False), np.cov(m, y, True, True), np.cov(m, y, True, False, 0),
            np.cov(m, y, True, False, 2))


def cov_one(m):
    return np.cov(m), np.cov(m, bias=True), np.cov(m, ddof=0)


def corrcoef_forms(x, y):
    return np.corrcoef(x, y), np.corrcoef(x, y, False)


def corrcoef_one(x):
    return np.corrcoef(x)


def random_ranf(seed):
    np.random.seed(seed)
    return np.random.ranf(), np.random.sample(3)


def random_cauchy_exponential(seed):
    np.random.seed(seed)
    return np.random.standard_cauchy(), np.random.standard_exponential(), np.random.standard_exponential(2)


POLY_PAIRS = [(np.array([1.0, 2.0]), np.array([3.0, 4.0, 5.0])), (np.array([1.0]), np.array([-1.0])),
              (np.array([3.0, 4.0, 5.0]), np.array([1.0, 2.0])), (np.array([1.0, 2.0, 3.0]), np.array([1.0, 2.0, 3.0])),
              (np.array([1, 2, 0]), np.array([0.5, -0.5])), (np.array([1.0, 2.0]), np.array([1j, 2.0])),
              (np.array([0.0]), np.array([2.0])), (np.array([5.0, 0.0, 0.0]), np.array([0.0, 0.0, 3.0, 0.0])),
              (np.arange(6.0)[::2], np.array([2.0]))]

CASES = {
    "int_scalars": Case(int_scalars, [0, 1, -1, 127, -128, 2.75, -3.5]),
    "uint_scalars": Case(uint_scalars, [0, 1, 255, 2.75]),
    "intc": Case(intc_scalar, [0, -3]), "uintc": Case(uintc_scalar, [0, 3]), "uintp": Case(uintp_scalar, [0, 3]),
    "bool_scalar": Case(bool_scalar, [0, 1, 2.5, 0.0]),
    "float_scalars": Case(float_scalars, [0.0, -1.5, 1e30, 3]),
    "complex_scalars": Case(complex_scalars, [0.0, 1.5, 2 - 1j]),
    "scalar_view": Case(scalar_view, [()]),
    "scalar_view_of": Case(scalar_view_of, [(1.5, -0.0), (-0.0, 3.25), (float("inf"), float("nan")), (-2.0, 1e-45)]),
    "array_ctors": Case(array_ctors, [F, VIEW, EMPTY, np.array([1, 0, 2])]),
    "sequence_ctors": Case(sequence_ctors, [[1, 0, 2], [2.5, 7.0], ((3, 4, 5),), ((1.5, 0.0),), [[1, 2], [3, 4]]]),
    "scalar_ctors": Case(scalar_ctors, [0, 1, 3.75, True, 100]),
    "datetime": Case(datetime_scalars, [(np.datetime64("2020-01-01"), np.timedelta64(3, "D")),
                                        (np.datetime64("1999-12-31T23:59", "m"), np.timedelta64(-7, "m"))]),
    "record_item": Case(record_item, [np.ones(2, dtype=REC), np.zeros(3, dtype=REC)]),
    "iterate": Case(iterate, [M, M.T, np.ones((0, 3)), M[::2, ::-1]]),
    "basic_indexing": Case(basic_indexing, [M, M.T, np.arange(24).reshape(2, 3, 4)[:, 1:]]),
    "fancy_multi": Case(fancy_multi, [(np.arange(2 * 5 * 6 * 3).reshape(2, 5, 6, 3),
                                       np.array([[0, 4], [1, 2]]), np.array([[5, 0], [3, 3]]))]),
    "contains": Case(contains, [(F, 0.0), (F, 7.0), (I, -5), (M, 6.0), (EMPTY, 1.0), (VIEW, 9.0)]),
    "matmul": Case(matmul, [(M, M.T), (M.T, np.arange(3.0)), (np.arange(4.0), np.arange(4.0)),
                            (np.ones((0, 3)), np.ones((3, 2)))], tol=1e-12),
    "ndarray.max_min": Case(arr_max_min, [F, I, M, VIEW, M.T, EMPTY]),
    "ndarray.copy": Case(arr_copy, [F, M.T, VIEW, EMPTY]),
    "ndarray.sort": Case(arr_sort, [F.copy(), I.copy(), VIEW.copy(), EMPTY.copy(), M.copy()]),
    "ndarray.sum": Case(arr_sum, [M, M.T, np.arange(6, dtype=np.int8).reshape(2, 3), np.ones((0, 2))]),
    "ndarray.sum_dtype": Case(arr_sum_dtype, [M, I]),
    "ones_like": Case(ones_like, ARRS),
    "roots": Case(roots, [np.array([1.0, -3.0, 2.0]), np.array([0.0, 1.0, -1.0]), np.array([1.0, -6.0, 11.0, -6.0]),
                          np.array([0.0, 0.0, 3.0, -1.5, 0.0, 0.0]), np.array([5.0]), np.zeros(3), np.array([1, -5, 6]),
                          np.array([1j, 2.0, -1j]), np.array([1.0, 0.0, 1.0 + 0j])], tol=1e-9),
    "row_stack": Case(row_stack, [(F, F), (M, M[:1]), (VIEW, VIEW[::-1]), (EMPTY, EMPTY)]),
    "tril_indices_from": Case(tril_indices_from, [np.ones((3, 3)), np.ones((2, 4)), np.ones((0, 0))]),
    "triu_indices": Case(triu_indices, [0, 1, 4]),
    "tril_indices_from_3d": Case(tril_indices_from, [np.ones((2, 2, 2))]),
    "Polynomial": Case(poly_class, [np.array([1.0, 2.0, 3.0]), np.array([0.5])]),
    "polyadd": Case(polyadd, POLY_PAIRS),
    "polysub": Case(polysub, POLY_PAIRS),
    "polymul": Case(polymul, POLY_PAIRS),
    "polydiv": Case(polydiv, POLY_PAIRS + [(np.array([1.0, 2.0]), np.array([1.0, 0.0]))], tol=1e-12),
    "polyint": Case(polyint, [np.array([1.0, 2.0, 3.0]), np.array([0.0]), np.array([1, -2, 3]), np.array([1j, 2.0]),
                              np.array([0.0, 0.0, 5.0])], tol=1e-12),
    "polyint_m": Case(polyint_m, [(np.array([1.0, 2.0, 3.0]), 2), (np.array([4.0]), 0), (np.array([1.0, 2.0]), 3),
                                  (np.array([1.0]), -1)], tol=1e-12),
    "polyval": Case(polyval, [(2.0, np.array([1.0, 2.0, 3.0])), (np.arange(3.0), np.array([1.0, -1.0])),
                              (-1.5, np.array([3])), (M, np.array([0.5, 0.0, -2.0])), (1j, np.array([1.0, 1.0])),
                              (VIEW, np.array([1, 2, 3]))], tol=1e-12),
    "as_series": Case(as_series, [np.array([1.0, 2.0, 0.0]), np.array([0.0, 0.0]), np.array([3, 0])]),
    "trimseq": Case(trimseq, [np.array([1.0, 2.0, 0.0, 0.0]), np.array([0.0]), np.array([0.0, 0.0]),
                              np.array([1.0, 2.0]),
                              EMPTY]),
    "divmod": Case(ufunc_divmod, [(F, 1.5), (I, 3), (I, -4), (VIEW, VIEW + 1), (-7, 2), (7.5, -2.0), (EMPTY, 1.0),
                                  (np.arange(6, dtype=np.int32), np.int32(4))]),
    "modf": Case(ufunc_modf, [F, VIEW, EMPTY]),
    "ldexp": Case(ufunc_ldexp, [(F, 3), (VIEW, np.arange(7, dtype=np.int32))]),
    "frexp": Case(ufunc_frexp, [F, VIEW, EMPTY]),
    "isnat": Case(ufunc_isnat, [np.array(["2020-01-01", "NaT"], dtype="datetime64[D]")]),
    "random.ranf_sample": Case(random_ranf, [0]),
    "logspace": Case(logspace_forms, [(0, 3, 4), (-1.5, 2.0, 7), (2, 1, 1), (0.0, 1.0, 0), (1, -1, 5)], tol="ulp"),
    "geomspace": Case(geomspace_forms, [(1, 1000, 4), (-1, -1000, 4), (2.0, 3.0, 1), (1e-3, 1e3, 0), (5, 1, 6),
                                        (0, 1, 3),
                                        (-2.0, -0.5, 3)], tol="ulp"),
    "nan_to_num": Case(nan_to_num_forms, [np.array([np.nan, np.inf, -np.inf, 1.5, -0.0]),
                                          np.array([np.nan, np.inf], dtype=np.float32), np.arange(4), EMPTY,
                                          np.array([complex(np.nan, -np.inf), 1 + 2j]), VIEW, np.inf, 2.5]),
    "nan_to_num_in_place": Case(nan_to_num_in_place, [np.array([np.nan, np.inf, 3.0]), M.copy()]),
    "unwrap": Case(unwrap_forms, [np.array([0.0, 1, 2, -1, 0]), np.linspace(0, 20, 11), np.zeros(0),
                                  np.array([0.0, 3.2, 6.4, -3.2, np.pi, -np.pi, 2 * np.pi]), VIEW * 3,
                                  np.array([1, 5, 9, 2])], tol="ulp"),
    "unwrap_2d": Case(unwrap_2d, [np.zeros((2, 3)), np.random.default_rng(5).uniform(-9, 9, (3, 4, 5)),
                                  np.cumsum(np.random.default_rng(6).uniform(-4, 4, (6, 8)), axis=1)[:, ::3],
                                  np.arange(12).reshape(2, 6) * 2, np.zeros((2, 0, 3))]),
    "cov": Case(cov_forms, [(np.arange(12.0).reshape(3, 4), np.array([[1.0, -2.0, 0.5, 4.0]])),
                            (np.array([[0.0, 2.0], [1.0, 1.0], [2.0, 0.0]]), np.array([[1.0, 3.0], [2.0, 2.0], [0.0, 5.0]])),
                            (np.arange(6).reshape(2, 3), np.arange(3.0)),
                            (np.array([[1 + 1j, 2.0, 3j]]), np.array([1.0, 2.0, 4.0])),
                            (M[:, ::2].T, M[:, 1::2].T)], tol=1e-12),
    "cov_one": Case(cov_one, [np.array([-2.1, -1, 4.3]), np.array([1.0, np.nan, 2.0]), np.arange(5),
                              np.arange(12.0).reshape(3, 4), M.T, VIEW, np.array([1j, 2.0, -1.0])], tol=1e-12),
    "corrcoef": Case(corrcoef_forms, [(np.arange(12.0).reshape(3, 4) ** 2, np.array([1.0, -2.0, 0.5, 4.0])),
                                      (np.array([[0.0, 2.0], [1.0, 1.0], [2.0, 0.0]]), np.array([[1.0, 3.0], [2.0, 2.0],
                                                                                                 [0.0, 5.0]]))],
                     tol=1e-12),
    "corrcoef_one": Case(corrcoef_one, [np.array([-2.1, -1, 4.3]), np.arange(12.0).reshape(3, 4) ** 2, M.T],
                         tol=1e-12),
    "select": Case(select_forms, [([I > 0, I < -2], [I, I * 10]), ([M > 0], [M]), ([EMPTY > 0], [EMPTY]),
                                  ([F > 0, F > 1, F > 2], [F, F + 1, F + 2]), ([I > 0], [I[::-1]]),
                                  ([np.zeros(3, dtype=np.bool_)], [np.arange(3.0)]),
                                  ([M[:1] > 2, M[:, :1] < 5], [M[:, :1] * 10, M[:1] - 1]),  # broadcast, one ndim
                                  ([M > 0], [M[:, :2]])]),  # shapes that do not broadcast: ValueError
    "random.cauchy_exponential": Case(random_cauchy_exponential, [0]),
}

# Numba compiles these; mahou refuses them with a clean error (docs/numba_surface.md says why).
EXPECTED_REFUSALS = set()


def test_record_fields_by_attribute():
    """Numba's extension beyond NumPy: rec[0].ival = v (NumPy itself raises AttributeError)."""
    from mahou import njit

    @njit
    def set_by_attribute(arr):
        arr[0].ival = 7
        arr[0].fval = 2.5
        r = arr[1]
        return r.ival + r.fval

    for n in (2, 3):
        arr = np.ones(n, dtype=REC)
        assert set_by_attribute(arr) == 2.0
        assert arr[0]["ival"] == 7 and arr[0]["fval"] == 2.5
        assert (arr["ival"][1:] == 1).all()


@pytest.mark.parametrize("name", sorted(CASES))
def test_surface(name):
    run_harvested(sys.modules[__name__], name)


def test_cov_of_a_single_row_2d_array_is_refused_at_run_time():
    """NumPy squeezes the result to 0-d, so the result's ndim would depend on the shape: a
    ValueError, as Numba raises (RuntimeError there); the row as a 1-d array works."""
    from mahou import njit

    f = njit(lambda m: np.cov(m))
    with pytest.raises(ValueError, match="single row"):
        f(np.array([[1.0, 2.0, 4.0]]))
    g = njit(lambda m: np.cov(m))
    assert g(np.array([1.0, 2.0, 4.0])) == pytest.approx(np.cov(np.array([1.0, 2.0, 4.0])), rel=1e-14)


def test_roots_of_real_coefficients_with_complex_roots_raise():
    """Numba's rule: real coefficients give real roots; complex ones raise ValueError (NumPy
    returns a complex array, whose dtype would depend on the values)."""
    from mahou import njit

    f = njit(lambda p: np.roots(p))
    with pytest.raises(ValueError, match="domain change"):
        f(np.array([1.0, 0.0, 1.0]))
