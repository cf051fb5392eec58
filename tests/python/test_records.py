"""NumPy records (structured scalars) and arrays of them: the same functions compiled
and run by Python on copies of the same structured arrays (aligned and packed dtypes,
mixed int/float/bool/complex fields, strided views, empty arrays), field reads and
writes by attribute and by constant index, records as views of their array, records
and arrays of records returned to Python, and the errors for fields that do not exist
and indices that are not constant."""

import copy
import gc

import numpy as np
import pytest

import mahou
import mahou._core
from mahou import literal_unroll, njit
from mahou.errors import TypingError, UnsupportedError

DTYPES = {
    "packed": np.dtype([("a", "i4"), ("b", "f8"), ("c", "?"), ("d", "i8")]),
    "aligned": np.dtype([("a", "i4"), ("b", "f8"), ("c", "?"), ("d", "i8")], align=True),
    "mixed": np.dtype([("a", "u1"), ("b", "f4"), ("c", "?"), ("d", "c16"), ("e", "i2")]),
    "offsets": np.dtype({"names": ["a", "b", "c", "d"], "formats": ["i8", "f4", "?", "u2"],
                         "offsets": [16, 4, 0, 8], "itemsize": 24}),
}


def make(dt, n, seed=0):
    rng = np.random.default_rng(seed)
    a = np.zeros(n, dtype=dt)
    for name in dt.names:
        f = dt.fields[name][0]
        if f.kind == "b":
            a[name] = rng.integers(0, 2, n).astype(bool)
        elif f.kind in "iu":
            a[name] = rng.integers(0, 100, n).astype(f)
        elif f.kind == "c":
            a[name] = rng.normal(size=n) + 1j * rng.normal(size=n)
        else:
            a[name] = np.round(rng.normal(size=n) * 10, 2).astype(f)
    return a


def equal_fields(got, expected):
    """Field by field (an aligned record's padding bytes are not compared)."""
    if expected.dtype.names is None:
        return np.array_equal(got, expected)
    return all(np.array_equal(got[name], expected[name]) for name in expected.dtype.names)


def same(got, expected):
    if isinstance(expected, np.ndarray):
        assert isinstance(got, np.ndarray) and got.dtype == expected.dtype and got.shape == expected.shape
        assert equal_fields(got, expected)
    elif isinstance(expected, np.void):
        assert isinstance(got, np.void) and got.dtype == expected.dtype, (type(got), got)
        assert equal_fields(got, expected)
    elif isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected)
        for g, e in zip(got, expected):
            same(g, e)
    else:
        assert type(got) in (int, float, bool, complex) or isinstance(got, np.generic), type(got)
        if isinstance(expected, (bool, np.bool_)):
            assert isinstance(got, (bool, np.bool_)) and bool(got) == bool(expected)
        else:
            assert got == expected, (got, expected)


def differential(fn, make_args):
    """fn compiled and interpreted, each on fresh arguments from make_args(); the
    results and the arrays afterwards must agree."""
    py_args = make_args()
    jit_args = make_args()
    try:
        expected = fn(*py_args)
    except Exception as e:
        with pytest.raises(type(e)):
            njit(boundscheck=True)(fn)(*jit_args)
        return
    got = njit(fn)(*jit_args)
    same(got, expected)
    for p, j in zip(py_args, jit_args):
        if isinstance(p, np.ndarray):
            assert equal_fields(j, p)


# ---------------------------------------------------------------- record arguments


def field_sum(r):
    return r["a"] + r["b"] + r["d"]


def field_by_position(r):
    return r[0] * 2 + r[-1]


def bool_field(r):
    if r["c"]:
        return 1
    return 0


def write_fields(r):
    r["a"] = 7
    r["b"] += 0.5
    r["c"] = not r["c"]
    r["d"] *= 3
    return r["a"]


@pytest.mark.parametrize("kind", ["packed", "aligned", "offsets"])
@pytest.mark.parametrize("fn", [field_sum, field_by_position, bool_field])
def test_record_reads(kind, fn):
    for i in range(4):
        differential(fn, lambda: (make(DTYPES[kind], 4)[i],))


@pytest.mark.parametrize("kind", ["packed", "aligned", "offsets"])
def test_record_writes_reach_the_array(kind):
    def args():
        return (make(DTYPES[kind], 5, seed=3),)

    def fn(a):
        return write_fields(a[2])

    py, jit = args(), args()
    assert fn(*py) == njit(write_fields)(jit[0][2])
    assert equal_fields(jit[0], py[0])


def test_mixed_fields_complex_and_small_ints():
    def fn(r):
        return r["d"] * r["b"] + r["a"] + r["e"]

    for i in range(3):
        differential(fn, lambda: (make(DTYPES["mixed"], 3, seed=i)[i],))


fields_global = ("a", "d")


def constant_names(r):
    names = ("a", "b")
    n0 = names[0]
    n1 = fields_global[1]
    return r[n0] + r[n1] + r[names[1]]


def unrolled(r):
    t = 0.0
    for f in literal_unroll(fields_global):
        t += r[f]
    return t


@pytest.mark.parametrize("fn", [constant_names, unrolled])
def test_constant_field_names(fn):
    for kind in ("packed", "aligned"):
        differential(fn, lambda: (make(DTYPES[kind], 2, seed=5)[1],))


def test_attribute_access_matches_recarray():
    # Python reads fields by attribute on np.record (a recarray's items); compiled code
    # reads them on any record.
    def fn(r):
        r.a = r.a + 1
        r.b *= 2.0
        return r.a + r.b

    a = make(DTYPES["aligned"], 3, seed=1).view(np.recarray)
    b = make(DTYPES["aligned"], 3, seed=1)
    expected = fn(a[1])
    got = njit(fn)(b[1])
    assert got == expected
    assert equal_fields(b, a.view(np.ndarray))


def test_return_record_is_a_copy():
    @njit
    def pick(a, i):
        return a[i]

    a = make(DTYPES["packed"], 4)
    r = pick(a, 2)
    assert isinstance(r, np.void) and r.dtype == a.dtype and equal_fields(r, a[2])
    old = r["a"]
    a["a"][2] = -5  # the returned record is a copy, as Numba's
    assert r["a"] == old


def test_record_in_tuple():
    def fn(a):
        t = (a[0], a[1], 3)
        return t[0]["b"] + t[1]["b"] + t[2]

    differential(fn, lambda: (make(DTYPES["packed"], 3),))


# ---------------------------------------------------------------- arrays of records


def sum_loop(a):
    t = 0.0
    for i in range(len(a)):
        t += a[i]["b"] * a[i]["a"]
    return t


def sum_iter(a):
    t = 0.0
    n = 0
    for r in a:
        if r["c"]:
            t += r["b"]
            n += 1
    return t, n


def scale_in_place(a):
    for i in range(a.shape[0]):
        a[i]["b"] = a[i]["b"] * 2.0 + i
        a[i]["d"] = a[i]["a"] - i
    return len(a)


def negative_index(a):
    return a[-1]["a"] + a[-len(a)]["d"]


def field_views(a):
    x = a["a"]
    y = a["b"]
    t = 0.0
    for i in range(x.shape[0]):
        t += x[i] * y[i]
    if x.shape[0] > 0:
        x[0] = 99
    return t


def slices(a):
    b = a[1:]
    c = b[::2]
    t = 0
    for r in c:
        t += r["d"]
    return t + len(c)


def itemsize_and_shape(a):
    return a.itemsize, a.nbytes, a.shape[0], a.ndim, a.size


@pytest.mark.parametrize("kind", ["packed", "aligned", "offsets"])
@pytest.mark.parametrize("fn", [sum_loop, sum_iter, scale_in_place, field_views, slices, itemsize_and_shape])
@pytest.mark.parametrize("n", [0, 1, 6])
def test_record_arrays(kind, fn, n):
    differential(fn, lambda: (make(DTYPES[kind], n, seed=n),))


@pytest.mark.parametrize("kind", ["packed", "aligned"])
@pytest.mark.parametrize("fn", [sum_loop, sum_iter, scale_in_place, negative_index, field_views])
def test_strided_views(kind, fn):
    differential(fn, lambda: (make(DTYPES[kind], 9, seed=2)[::2],))
    differential(fn, lambda: (make(DTYPES[kind], 9, seed=2)[::-3],))


def test_two_dimensional():
    def fn(a):
        t = 0.0
        for i in range(a.shape[0]):
            for j in range(a.shape[1]):
                t += a[i, j]["b"] + a[i][j]["a"]
        for row in a:
            t += row[0]["d"]
        return t

    differential(fn, lambda: (make(DTYPES["aligned"], 12).reshape(3, 4),))
    differential(fn, lambda: (make(DTYPES["aligned"], 12).reshape(3, 4).T,))


def test_attribute_field_view():
    def fn(a):
        return a.b.sum() if False else a["b"][1]

    @njit
    def jit_fn(a):
        v = a.b
        v[0] = 1.5
        return a.b[1]

    a = make(DTYPES["packed"], 3)
    b = a.copy()
    assert jit_fn(a) == b["b"][1]
    assert a["b"][0] == 1.5


def test_return_arrays_of_records_and_fields():
    @njit
    def same_array(a):
        return a

    @njit
    def tail(a):
        return a[1:]

    @njit
    def field(a):
        return a["b"]

    for kind in DTYPES:
        a = make(DTYPES[kind], 5)
        assert same_array(a) is a
        t = tail(a)
        assert t.dtype == a.dtype and equal_fields(t, a[1:])
        t[0]["a"] = 42  # a view of a
        assert a[1]["a"] == 42
        f = field(a)
        assert f.dtype == a.dtype["b"] and (f == a["b"]).all()


def test_index_out_of_range():
    @njit(boundscheck=True)
    def get(a, i):
        return a[i]["a"]

    a = make(DTYPES["packed"], 3)
    assert get(a, -3) == a[0]["a"]
    with pytest.raises(IndexError):
        get(a, 3)


def test_dispatch_tells_layouts_apart():
    @njit
    def first(r):
        return r[0]

    p = make(DTYPES["packed"], 2)
    q = make(DTYPES["aligned"], 2)
    assert first(p[1]) == p[1][0]
    assert first(q[1]) == q[1][0]
    assert len(first.signatures) == 2


# ---------------------------------------------------------------- errors


def test_missing_field():
    @njit
    def f(r):
        return r["zz"]

    with pytest.raises(TypingError, match=r"Record\(.*has no field 'zz'"):
        f(make(DTYPES["packed"], 1)[0])

    @njit
    def g(r):
        return r.zz

    with pytest.raises(TypingError, match="has no field 'zz'"):
        g(make(DTYPES["packed"], 1)[0])

    @njit
    def h(a):
        return a["zz"]

    with pytest.raises(TypingError, match="has no field 'zz'"):
        h(make(DTYPES["packed"], 1))


def test_non_constant_index():
    @njit
    def f(r, name):
        return r[name]

    with pytest.raises(TypingError, match="constant"):
        f(make(DTYPES["packed"], 1)[0], "a")


def test_unsupported_uses_are_refused():
    @njit
    def add(a):
        return a + 1

    with pytest.raises((TypingError, UnsupportedError)):
        add(make(DTYPES["packed"], 2))

    @njit
    def meth(a):
        return a.sum()

    with pytest.raises((TypingError, UnsupportedError)):
        meth(make(DTYPES["packed"], 2))

    @njit
    def store_number(a):
        a[0] = 1

    with pytest.raises(TypingError, match="cannot store int64"):
        store_number(make(DTYPES["packed"], 2))

    @njit
    def store_slice(a):
        a[1:] = a[0]

    with pytest.raises(UnsupportedError, match="slice"):
        store_slice(make(DTYPES["packed"], 3))


def test_nested_fields_refused():
    dt = np.dtype([("a", "i4"), ("v", "f8", (3,))])

    @njit
    def f(r):
        return r["a"]

    with pytest.raises((TypeError, TypingError, UnsupportedError), match="nested"):
        f(np.zeros(2, dt)[0])


def test_no_leaks():
    @njit
    def work(a):
        t = 0.0
        for r in a[::2]:
            t += r["b"]
        v = a["d"]
        return t + v.shape[0], a[0]

    a = make(DTYPES["aligned"], 10)
    work(a)
    gc.collect()
    before = mahou._core.live_allocations()
    for _ in range(50):
        work(a)
    gc.collect()
    assert mahou._core.live_allocations() == before


def test_read_only_arrays():
    @njit
    def read(a):
        t = 0.0
        for r in a:
            t += r["b"]
        return t + a[0]["a"]

    @njit
    def write_element(a):
        a[0]["a"] = 1

    @njit
    def write_record(r):
        r["a"] = 1

    a = make(DTYPES["packed"], 4)
    a.flags.writeable = False
    assert read(a) == sum(a["b"]) + a[0]["a"]
    with pytest.raises(TypingError, match="read-only"):
        write_element(a)
    with pytest.raises(TypingError, match="read-only"):
        write_record(a[1])
    b = make(DTYPES["packed"], 4)
    write_record(b[1])  # a writable record of the same layout is another signature
    assert b[1]["a"] == 1


def test_unsupported_operations_name_the_record():
    @njit
    def total(a):
        return np.sum(a)

    with pytest.raises(UnsupportedError, match=r"array\(Record\("):
        total(make(DTYPES["packed"], 3))

    @njit
    def compare(a):
        return a == a

    with pytest.raises(UnsupportedError, match=r"array\(Record\("):
        compare(make(DTYPES["packed"], 3))


def test_record_passed_to_another_function():
    @njit
    def weight(r):
        return r["a"] * r["b"]

    def fn(a):
        t = 0.0
        for i in range(len(a)):
            t += weight(a[i])
        return t

    a = make(DTYPES["aligned"], 5)
    assert njit(fn)(a) == sum(float(r["a"]) * float(r["b"]) for r in a)


def copy_records(a):
    for i in range(len(a) - 1):
        a[i] = a[i + 1]
    a[-1] = a[0]
    return len(a)


def copy_from_other(a, b):
    for i in range(min(len(a), len(b))):
        a[i] = b[len(b) - 1 - i]
    return 0


@pytest.mark.parametrize("kind", ["packed", "aligned", "offsets"])
def test_store_whole_records(kind):
    differential(copy_records, lambda: (make(DTYPES[kind], 5, seed=7),))
    differential(copy_records, lambda: (make(DTYPES[kind], 9, seed=7)[::-2],))
    differential(copy_from_other, lambda: (make(DTYPES[kind], 4, seed=1), make(DTYPES[kind], 6, seed=2)))

    def two_d(a):
        a[0, 1] = a[1, 2]
        return 0

    differential(two_d, lambda: (make(DTYPES[kind], 6, seed=3).reshape(2, 3),))


def test_store_whole_record_errors():
    @njit
    def other_layout(a, b):
        a[0] = b[0]

    with pytest.raises(TypingError, match="cannot store"):
        other_layout(make(DTYPES["packed"], 2), make(DTYPES["aligned"], 2))

    @njit
    def read_only(a, b):
        a[0] = b[0]

    ro = make(DTYPES["packed"], 2)
    ro.flags.writeable = False
    with pytest.raises(TypingError, match="read-only"):
        read_only(ro, make(DTYPES["packed"], 2))
    src = make(DTYPES["packed"], 2)
    src.flags.writeable = False
    dst = make(DTYPES["packed"], 2, seed=9)
    read_only(dst, src)  # a record of a read-only array is copied from
    assert equal_fields(dst[0], src[0])


def test_on_disk_cache_keeps_record_signatures(tmp_path):
    import os
    import subprocess
    import sys

    (tmp_path / "recmod.py").write_text(
        "import numpy as np\n"
        "from mahou import njit\n"
        "dt = np.dtype([('a', 'i4'), ('b', 'f8')], align=True)\n"
        "@njit(cache=True)\n"
        "def f(a, r):\n"
        "    t = 0.0\n"
        "    for x in a:\n"
        "        t += x['b']\n"
        "    return t + r['a']\n"
    )
    script = (
        "import numpy as np, recmod\n"
        "a = np.zeros(3, recmod.dt); a['a'] = [1, 2, 3]; a['b'] = [0.5, 1.0, 2.0]\n"
        "print(recmod.f(a, a[2]), next(iter(recmod.f.stats.values()))['codegen_ms'] == 0)\n"
    )
    env = dict(os.environ, MAHOU_CACHE_DIR=str(tmp_path / "cache"))
    runs = [subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True)
            for _ in range(2)]
    assert [r.stdout.split() for r in runs] == [["6.5", "False"], ["6.5", "True"]], [r.stderr for r in runs]
