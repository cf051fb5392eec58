# Differential tests of NumPy datetime64 / timedelta64 values: compiled results against
# NumPy's for arguments, results, array elements, arithmetic, the unit rules, NaT, ufuncs.
import itertools
import warnings

import numpy as np
import pytest

import mahou
from mahou import njit

DT = np.datetime64
TD = np.timedelta64
UNITS = ["Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns"]
TD_UNITS = UNITS + ["ps", "fs", "as"]
ORDER = {u: i for i, u in enumerate(["Y", "M", "W", "?", "D", "h", "m", "s", "ms", "us", "ns", "ps", "fs", "as"])}


def same(got, expected):
    """Equal values of the same type (and dtype: the unit), NaT where NumPy has NaT."""
    if isinstance(expected, np.ndarray):
        assert isinstance(got, np.ndarray) and got.dtype == expected.dtype, (got, expected)
        assert got.shape == expected.shape
        if got.dtype.kind in "mM":
            assert (np.isnat(got) == np.isnat(expected)).all(), (got, expected)
            assert (got.view(np.int64) == expected.view(np.int64)).all(), (got, expected)
        else:
            np.testing.assert_array_equal(got, expected)
        return
    if isinstance(expected, (np.datetime64, np.timedelta64)):
        assert type(got) is type(expected) and got.dtype == expected.dtype, (got, expected)
        assert got.astype(np.int64) == expected.astype(np.int64), (got, expected)
        return
    if isinstance(expected, np.floating) and np.isnan(expected):
        assert np.isnan(got)
        return
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected)
        for g, e in zip(got, expected):
            same(g, e)
        return
    assert got == expected, (got, expected)
    assert isinstance(got, (bool, np.bool_)) == isinstance(expected, (bool, np.bool_))


def check(fn, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            expected = fn(*args)
        except (OverflowError, TypeError):  # NumPy refuses the units: so does typing, naming the line
            with pytest.raises(mahou.errors.TypingError, match=r"test_datetime.py:\d+"):
                njit(fn)(*args)
            return
        got = njit(fn)(*args)
    same(got, expected)


def td_samples(unit):
    return [TD(0, unit), TD(7, unit), TD(-7, unit), TD(3, unit), TD("NaT", unit)]


def dt_samples(unit):
    return [DT("2020-02-29", unit) if ORDER[unit] >= ORDER["D"] else DT("2020", unit), DT(-40, unit), DT(0, unit),
            DT("NaT", unit)]


def add(a, b): return a + b
def sub(a, b): return a - b
def mul(a, b): return a * b
def div(a, b): return a / b
def floordiv(a, b): return a // b
def eq(a, b): return a == b
def ne(a, b): return a != b
def lt(a, b): return a < b
def le(a, b): return a <= b
def gt(a, b): return a > b
def ge(a, b): return a >= b
def neg(a): return -a
def pos(a): return +a
def absolute(a): return abs(a)
def identity(a): return a


@pytest.mark.parametrize("unit", TD_UNITS + [""])
def test_timedelta_argument_and_result(unit):
    make = (lambda v: TD(v, unit)) if unit else TD  # "": the generic unit
    for v in (make(5), make(-5), make("NaT")):
        check(identity, v)


@pytest.mark.parametrize("unit", UNITS + ["ps", "fs", "as"])
def test_datetime_argument_and_result(unit):
    for v in dt_samples(unit):
        check(identity, v)


def test_unit_is_part_of_the_type():
    f = njit(identity)
    assert f(TD(3, "s")).dtype == np.dtype("m8[s]")
    assert f(TD(3, "ms")).dtype == np.dtype("m8[ms]")
    assert len(f.signatures) == 2


@pytest.mark.parametrize("op", [add, sub, eq, ne, lt, le, gt, ge, div, floordiv])
def test_timedelta_pairs_every_unit(op):
    for ua, ub in itertools.product(TD_UNITS, repeat=2):
        a, b = TD(7, ua), TD(-3, ub)
        # NumPy refuses years/months against days and finer: check() wants a TypingError then
        for x, y in [(a, b), (TD("NaT", ua), b), (a, TD(0, ub)), (TD(-7, ua), TD(2, ub))]:
            check(op, x, y)
    with pytest.raises(mahou.errors.TypingError, match=r"test_datetime.py:\d+"):
        njit(op)(TD(1, "Y"), TD(1, "D"))


@pytest.mark.parametrize("op", [add, sub])
def test_datetime_plus_minus_timedelta_every_unit(op):
    for ud, ut in itertools.product(UNITS, TD_UNITS):
        refused = ORDER[ut] <= 1 and ORDER[ud] >= 2  # years/months of timedelta with a finer datetime
        if refused:  # NumPy gives a value here (an average year); Numba and mahou refuse
            with pytest.raises(mahou.errors.TypingError, match=r"test_datetime.py:\d+"):
                njit(op)(DT(3, ud), TD(2, ut))
            continue
        for d in dt_samples(ud):
            for t in (TD(2, ut), TD(-5, ut), TD("NaT", ut)):
                check(op, d, t)
                if op is add:
                    check(op, t, d)


def test_datetime_minus_datetime_every_unit():
    for ua, ub in itertools.product(UNITS, repeat=2):
        for a in dt_samples(ua):
            for b in dt_samples(ub)[:2] + [DT("NaT", ub)]:
                check(sub, a, b)


@pytest.mark.parametrize("op", [eq, ne, lt, le, gt, ge])
def test_datetime_comparisons_every_unit(op):
    for ua, ub in itertools.product(UNITS, repeat=2):
        for a in dt_samples(ua):
            for b in dt_samples(ub):
                check(op, a, b)


def test_calendar_conversions_of_years_and_months():
    # datetimes of years and months meet days through the calendar (leap years, before 1970)
    years = [DT(y, "Y") for y in (-400, -101, -100, -1, 0, 1, 2, 30, 31, 130, 430, 1000)]
    months = [DT(m, "M") for m in (-2401, -13, -12, -11, -1, 0, 1, 11, 12, 13, 25, 361, 4801)]
    for d in years + months:
        for t in (TD(1, "D"), TD(-1, "W"), TD(3, "h"), TD(5, "ns")):
            check(add, d, t)
        check(sub, d, DT("2000-03-01", "D"))
        check(lt, d, DT("1969-12-31", "D"))


def test_timedelta_times_and_over_numbers():
    for unit in ("D", "s", "ns", "Y"):
        for t in td_samples(unit):
            for n in (0, 3, -2, np.int32(5), np.uint8(2), 2.5, -0.5, 0.0, np.float32(1.5), np.nan, np.inf):
                check(mul, t, n)
                check(mul, n, t)
                check(div, t, n)
                check(floordiv, t, n)


def test_unary_operators():
    for unit in ("M", "D", "ns"):
        for t in td_samples(unit):
            check(neg, t)
            check(pos, t)
            check(absolute, t)
    with pytest.raises(mahou.errors.TypingError, match="test_datetime.py"):
        njit(neg)(DT("2020-01-01"))


def test_refused_operations_name_the_line():
    for fn, args in [(add, (DT(1, "D"), DT(1, "D"))), (mul, (DT(1, "D"), 2)), (add, (TD(1, "D"), 1)),
                     (mul, (TD(1, "D"), TD(1, "D"))), (eq, (DT(1, "D"), TD(1, "D"))), (div, (2, TD(1, "D"))),
                     (mul, (TD(1, "s"), 1j)), (mul, (TD(1, "s"), True))]:
        with pytest.raises(mahou.errors.TypingError, match=r"test_datetime.py:\d+"):
            njit(fn)(*args)


def isnat(a): return np.isnat(a)


def test_isnat_scalars_and_arrays():
    for v in td_samples("s") + dt_samples("D") + dt_samples("ns"):
        check(isnat, v)
    a = np.array(["2020-01-01", "NaT", "1960-05-05", "NaT"], dtype="M8[D]")
    check(isnat, a)
    check(isnat, a[::-2])
    check(isnat, a[:0])
    check(isnat, a.reshape(2, 2).T)
    with pytest.raises(mahou.errors.TypingError, match="isnat"):
        njit(isnat)(1.5)


def arrays_of(kind):
    if kind == "m":
        base = np.array([1, -2, "NaT", 5, 0, -7], dtype="m8[s]")
    else:
        base = np.array(["2020-01-01", "NaT", "1969-12-31", "2000-02-29", "1900-01-01", "2038-01-19"], dtype="M8[D]")
    return [base, base[::-1], base[::2], base[:0], base.reshape(2, 3), base.reshape(3, 2).T]


def test_array_arithmetic_and_broadcasting():
    tds, dts = arrays_of("m"), arrays_of("M")
    for a in tds:
        check(add, a, TD(3, "ms"))
        check(sub, TD(1, "m"), a)
        check(mul, a, 3)
        check(mul, 2.5, a)
        check(div, a, 2)
        check(div, a, TD(2, "s"))
        check(floordiv, a, TD(-2, "s"))
        check(neg, a)
        check(absolute, a)
        check(lt, a, TD(0, "s"))
        check(add, a, a)
    for d in dts:
        check(add, d, TD(12, "h"))
        check(sub, d, DT("2000-01-01"))
        check(sub, d, d)
        check(ge, d, DT("1999-12-31T23", "h"))
        check(ne, d, d)
    check(add, dts[0], tds[0])  # M8[D] + m8[s] arrays → M8[s]


def ufuncs(a, b):
    return (np.add(a, b), np.subtract(a, b), np.maximum(a, b), np.minimum(a, b), np.fmax(a, b), np.fmin(a, b),
            np.equal(a, b), np.less(a, b), np.greater_equal(a, b), np.not_equal(a, b))


def unary_ufuncs(a):
    return np.negative(a), np.absolute(a), np.sign(a), np.isnat(a), np.positive(a)


def test_ufuncs_of_timedeltas():
    a = np.array([3, "NaT", -4, "NaT", 0], dtype="m8[h]")
    b = np.array(["NaT", 2, -5, "NaT", 0], dtype="m8[m]")
    check(ufuncs, a, b)
    check(ufuncs, a[::-1], b[1:].reshape(1, 4)[:, ::-1].copy().ravel().tolist() and b[::-1])
    check(unary_ufuncs, a)
    for x, y in itertools.product(td_samples("s"), repeat=2):
        check(ufuncs, x, y)
    for x in td_samples("D"):
        check(unary_ufuncs, x)
    check(lambda a, b: (np.multiply(a, 3), np.divide(a, 2), np.floor_divide(a, b), np.true_divide(a, b)),
          a, np.array([2, 0, -3, 1, 5], dtype="m8[h]"))


def datetime_ufuncs(a, b):
    return np.maximum(a, b), np.minimum(a, b), np.fmax(a, b), np.fmin(a, b), np.subtract(a, b), np.less(a, b)


def test_ufuncs_of_datetimes():
    a = np.array(["2020-01-01", "NaT", "1950-06-30", "NaT"], dtype="M8[D]")
    b = np.array(["NaT", "2001-01-01T05", "1950-06-30T00", "NaT"], dtype="M8[h]")
    check(datetime_ufuncs, a, b)
    for x, y in itertools.product(dt_samples("D"), dt_samples("s")):
        check(datetime_ufuncs, x, y)


def elements(a, i, j):
    x = a[i]
    a[j] = x
    return x, a[j], a


def test_array_elements_read_and_written():
    for a in [np.array([1, "NaT", -3], dtype="m8[us]"), np.array(["2020-01-01", "NaT", "1066-10-14"], dtype="M8[D]")]:
        for i, j in [(0, 2), (1, 0), (-1, 1)]:
            ca = a.copy()
            got = njit(elements)(ca, i, j)
            exp = elements(a.copy(), i, j)
            same(got, exp)


def store_finer(a, t):
    a[0] = t  # a value of a coarser unit converts exactly
    a[1:] = t
    return a


def test_stores_convert_only_exactly():
    same(njit(store_finer)(np.zeros(3, "m8[ms]"), TD(2, "s")), store_finer(np.zeros(3, "m8[ms]"), TD(2, "s")))
    same(njit(store_finer)(np.zeros(3, "M8[D]"), DT(3, "M")), store_finer(np.zeros(3, "M8[D]"), DT(3, "M")))
    with pytest.raises(mahou.errors.TypingError, match="test_datetime.py"):
        njit(store_finer)(np.zeros(3, "m8[s]"), TD(2, "ms"))  # would lose precision
    with pytest.raises(mahou.errors.TypingError, match="test_datetime.py"):
        njit(store_finer)(np.zeros(3, "m8[s]"), 5)


def total(a):
    s = a[0] - a[0]
    for x in a:
        if not np.isnat(x):
            s += x
    return s


def test_iteration():
    a = np.array([4, -2, "NaT", 7, 1], dtype="m8[m]")
    for v in (a, a[::-1], a[::2], a[1:2]):
        check(total, v)


def made(n):
    z = np.zeros(n, dtype="m8[s]")
    e = np.empty(n, dtype="M8[s]")
    o = np.ones((n, 2), dtype=np.dtype("timedelta64[ns]"))
    for i in range(n):
        e[i] = EPOCH + z[i]
    return z, e, o


EPOCH = DT("1970-01-01", "D")


def test_allocation_with_datetime_dtypes():
    for n in (0, 1, 4):
        check(made, n)


def extremes(a):
    return a.min(), a.max(), np.min(a), np.max(a)


def test_min_max_propagate_nat():
    for v in [np.array([3, -1, 9], dtype="m8[D]"), np.array([3, "NaT", -1], dtype="m8[D]"),
              np.array(["NaT", 1, 2], dtype="m8[s]"), np.array(["2020-01-01", "1970-01-01"], dtype="M8[D]"),
              np.array(["2020-01-01", "NaT"], dtype="M8[D]")[::-1]]:
        check(extremes, v)
    with pytest.raises(ValueError):
        njit(extremes)(np.zeros(0, "m8[s]"))


def sort(a): return np.sort(a)


def test_sort_puts_nat_last():
    for a in [np.array([5, "NaT", -3, 0, "NaT", 2], dtype="m8[s]"),
              np.array(["2020-01-01", "NaT", "1900-01-01"], dtype="M8[D]"), np.zeros(0, "m8[s]")]:
        check(sort, a)
        check(sort, a[::-1])


def test_global_constants():
    c = DT("2001-01-01")

    def plus(x):
        return x + c

    check(plus, TD(4, "D"))
    check(plus, TD("NaT", "h"))


def test_explicit_signature():
    f = njit("timedelta64[s](timedelta64[s], timedelta64[s])")(add)
    same(f(TD(1, "s"), TD(2, "s")), TD(3, "s"))
    with pytest.raises(TypeError):
        f(TD(1, "ms"), TD(2, "s"))


def test_unsupported_stay_refused():
    with pytest.raises((mahou.errors.TypingError, mahou.errors.UnsupportedError), match="test_datetime.py"):
        njit(lambda a: a.sum())(np.zeros(3, "m8[s]"))
    with pytest.raises(TypeError):
        njit(identity)(np.zeros(3, "m8[5s]"))


def sorts(a):
    b = a.copy()
    b.sort()
    return np.argsort(a), np.unique(a), b


def test_argsort_unique_and_in_place_sort():
    for a in [np.array([5, "NaT", -3, 5, "NaT", 2], dtype="m8[s]"), np.array(["NaT", "2020-01-01"], dtype="M8[D]")]:
        check(sorts, a)


def conversions(a):
    return a.astype("m8[us]"), a.astype(np.int64), a.astype(np.int64).astype("m8[ms]"), np.where(np.isnat(a), a[0], a)


def test_astype_and_where():
    a = np.array([5, "NaT", -3, 1500], dtype="m8[ms]")
    check(conversions, a)
    check(conversions, a[::-1])
    for bad in ("m8[s]", np.float64, np.int32, "M8[ms]"):
        with pytest.raises(mahou.errors.TypingError, match="test_datetime.py"):
            njit(lambda x: x.astype(bad))(a)


def truth(a, b):
    return bool(a), (a, b), b if a else b


def test_truth_and_tuples():
    for a in (TD(0, "s"), TD(3, "s"), TD("NaT", "s")):
        check(truth, a, DT("2020-01-01"))


def builtin_extremes(a, b, c):
    return max(a, b), min(a, b), max(a, b, c), min((c, b, a))


def test_builtin_min_max_follow_python():
    # Python keeps the first of equal values; NaT compares false: kept only when it is first
    for a, b in itertools.product(td_samples("s"), repeat=2):
        check(builtin_extremes, a, b, TD(1, "s"))
    # of mixed units the result is of the finer one (Numba's typing); Python keeps the object
    f = njit(builtin_extremes)
    for a, b, c in [(TD(0, "s"), TD(0, "ms"), TD(1, "s")), (TD("NaT", "s"), TD(5, "ms"), TD(-1, "s")),
                    (DT("2020-01-01", "D"), DT("2020-01-01T05", "h"), DT("NaT", "D")),
                    (DT("NaT", "D"), DT(3, "h"), DT(-1, "D"))]:
        got, expected = f(a, b, c), builtin_extremes(a, b, c)
        for g, e in zip(got, expected):
            assert g.dtype == (b.dtype if a.dtype != b.dtype else a.dtype)
            assert (np.isnat(g) and np.isnat(e)) or g == e, (a, b, c, got, expected)
    with pytest.raises(mahou.errors.TypingError, match="test_datetime.py"):
        njit(builtin_extremes)(TD(1, "s"), DT(1, "s"), TD(1, "s"))


def as_int(a):
    return int(a)


def test_int_of_timedeltas_and_nanosecond_datetimes():
    for v in td_samples("ms") + [DT("2014-01-16", "ns"), DT(-5, "ns"), DT("NaT", "ns")]:
        assert njit(as_int)(v) == v.astype(np.int64)
    with pytest.raises(mahou.errors.TypingError, match="datetime64\\[ns\\]"):
        njit(as_int)(DT("2014", "Y"))
