"""NumPy arrays of fixed-width strings (dtypes U<n> and S<n>, Numba's UnicodeCharSeq and
CharSeq): the same functions compiled and run by Python on copies of the same arrays.
Items of U arrays read as str (trailing NULs stripped, as NumPy does) and are written
from str (truncated to the width, NUL-padded); S items read as bytes and are written
from bytes by the same rules; U and S fields of records likewise; views keep the dtype;
everything else on such arrays is refused."""

import numpy as np
import pytest

from mahou import njit
from mahou.errors import TypingError, UnsupportedError

WORDS = ["abc", "", "héllo", "x\x00y", "日本語", "\U0001f600z", "  sp ", "ABCDE"]


def u_arrays():
    """Arrays of U items in several layouts (1-D, 2-D C/F, strided, reversed, empty)."""
    base = np.array(WORDS, dtype="U5")
    grid = np.array(WORDS[:6], dtype="U6").reshape(2, 3)
    return {
        "1d": base,
        "width1": np.array(["a", "", "é", "z"], dtype="U1"),
        "strided": base[::2],
        "reversed": base[::-1],
        "2d": grid,
        "2dF": np.asfortranarray(grid),
        "2dT": grid.T,
        "2d_cols": grid[:, ::2],
        "empty": np.array([], dtype="U3"),
    }


ARRAYS = u_arrays()


def run_both(fn, *arrays):
    """fn run by Python and compiled on copies of the arrays: both results, both arrays."""
    py_args = [a.copy() if isinstance(a, np.ndarray) else a for a in arrays]
    jit_args = [a.copy() if isinstance(a, np.ndarray) else a for a in arrays]
    expected = fn(*py_args)
    got = njit(fn)(*jit_args)
    return expected, got, py_args, jit_args


def same_arrays(xs, ys):
    for x, y in zip(xs, ys):
        if isinstance(x, np.ndarray):
            assert x.dtype == y.dtype and x.shape == y.shape
            assert x.tobytes() == y.tobytes()  # the stored code points, NUL padding included


def flat_items(a):
    return [a[idx] for idx in np.ndindex(a.shape)]


# ------------------------------------------------------------------ reading items


def item_1d(a, i):
    return a[i]


def item_2d(a, i, j):
    return a[i, j]


@pytest.mark.parametrize("name", [k for k, v in ARRAYS.items() if v.ndim == 1 and v.size])
def test_item_reads_as_str(name):
    a = ARRAYS[name]
    f = njit(item_1d)
    for i in range(-a.shape[0], a.shape[0]):
        got = f(a, i)
        assert type(got) is str
        assert got == str(a[i])


@pytest.mark.parametrize("name", ["2d", "2dF", "2dT", "2d_cols"])
def test_item_reads_2d(name):
    a = ARRAYS[name]
    f = njit(item_2d)
    for i in range(-a.shape[0], a.shape[0]):
        for j in range(-a.shape[1], a.shape[1]):
            assert f(a, i, j) == str(a[i, j])


def test_trailing_nuls_stripped_inner_kept():
    a = np.zeros(3, dtype="U4")
    a.view(np.uint32)[:] = [ord("a"), 0, ord("b"), 0] + [0] * 4 + [0, 0, 0, ord("c")]
    got = [njit(item_1d)(a, i) for i in range(3)]
    assert got == [str(x) for x in a] == ["a\x00b", "", "\x00\x00\x00c"]


def test_item_out_of_range_raises():
    a = ARRAYS["1d"]
    f = njit(item_1d, boundscheck=True)
    with pytest.raises(IndexError):
        f(a, 8)


def char_of_item(x, i, j):
    return x[i][j]


def test_zero_dim_arrays_and_characters_of_items():
    for a in (np.array("12"), np.array("日本語é")):
        assert njit(item_1d)(a, ()) == a[()]
        assert njit(char_of_item)(a, (), 1) == a[()][1]
        _, _, py, jit = run_both(store, a, (), "xyzzy")
        same_arrays(py, jit)
    a = np.array(["12", "3"])
    for i, j in [(0, 0), (0, 1), (1, 0), (-1, -1)]:
        assert njit(char_of_item)(a, i, j) == a[i][j]
    with pytest.raises(IndexError):
        njit(char_of_item)(a, 1, 1)


def test_code_point_past_unicode_raises():
    a = np.array([0x110000, 65], dtype=np.uint32).view("U2")
    with pytest.raises(ValueError):
        njit(item_1d)(a, 0)


def lengths_and_items(a):
    out = []
    for s in a:
        out.append((len(s), s, str(s), s + "!"))
    return out


@pytest.mark.parametrize("name", ["1d", "width1", "strided", "reversed", "empty"])
def test_iteration_len_str(name):
    expected, got, _, _ = run_both(lengths_and_items, ARRAYS[name])
    assert got == [(n, str(s), t, u) for n, s, t, u in expected]


def compare_all(a, s):
    with_str = []
    with_items = []
    for i in range(a.shape[0]):
        x = a[i]
        with_str.append((x == s, x != s, x < s, x <= s, x > s, x >= s, s == x, s < x))
        for j in range(a.shape[0]):
            y = a[j]
            with_items.append((x == y, x != y, x < y, x >= y))
    return with_str, with_items


@pytest.mark.parametrize("s", ["abc", "", "ab", "abcd", "日本語", "x\x00y", "x"])
@pytest.mark.parametrize("name", ["1d", "strided", "width1"])
def test_comparisons_with_str_and_items(name, s):
    expected, got, _, _ = run_both(compare_all, ARRAYS[name], s)
    assert got == expected


def str_methods(a):
    out = []
    for s in a:
        out.append((s.upper(), s.lower(), s.startswith("ab"), s.endswith("o"), s.find("l"), s.rfind("l"),
                    s.strip(), s.isalpha(), s.isascii(), s.ljust(7, "*"), s.zfill(6), s * 2, "y" in s,
                    s.split(), s.replace("l", "L"), s.count("l"), s[1:3], not s))
    return out


def test_string_methods_on_items():
    expected, got, _, _ = run_both(str_methods, ARRAYS["1d"])
    assert got == expected


def as_keys(a, probe):
    d = {}
    for s in a:
        d[s] = d.get(s, 0) + len(s)
    seen = set()
    for s in a:
        seen.add(s)
    return d, probe in d, a[0] in ["abc", "q"], a[0] in seen, hash(a[0]) == hash("abc")


@pytest.mark.parametrize("probe", ["abc", "zzz", ""])
def test_items_as_dict_keys_and_in(probe):
    a = np.array(["abc", "", "abc", "dé", "dé "], dtype="U4")
    expected, got, _, _ = run_both(as_keys, a, probe)
    assert got == expected


# ------------------------------------------------------------------ writing items


def store(a, i, s):
    a[i] = s


def store_2d(a, i, j, s):
    a[i, j] = s


@pytest.mark.parametrize("s", ["", "a", "abcde", "abcdefghij", "日本", "\U0001f600\U0001f600\U0001f600", "a\x00b",
                               "ab\x00\x00"])
@pytest.mark.parametrize("i", [0, 3, -1, -8])
def test_store_truncates_and_pads(i, s):
    _, _, py, jit = run_both(store, ARRAYS["1d"], i, s)
    same_arrays(py, jit)


@pytest.mark.parametrize("name", ["2d", "2dF"])
def test_store_2d(name):
    a = ARRAYS[name]
    for i in range(-2, 2):
        for j in range(-3, 3):
            _, _, py, jit = run_both(store_2d, a, i, j, "w%dé" % (i * 3 + j))
            same_arrays(py, jit)


def test_store_through_views_reaches_caller():
    @njit
    def fill_view(v):
        for i in range(v.shape[0]):
            v[i] = "v" + str(i)

    a = np.array(WORDS, dtype="U5")
    expected = a.copy()
    for k, i in enumerate(range(1, 8, 3)):
        expected[i] = "v" + str(k)
    fill_view(a[1::3])
    assert a.tobytes() == expected.tobytes()
    g = np.array(WORDS[:6], dtype="U6").reshape(2, 3)
    expected = g.copy()
    for k in range(2):
        expected[k, 1] = "v" + str(k)
    fill_view(g[:, 1])
    assert g.tobytes() == expected.tobytes()


def copy_items(a, b):
    for i in range(min(a.shape[0], b.shape[0])):
        b[i] = a[-1 - i]
    a[0] = a[1]
    return b


@pytest.mark.parametrize("width", ["U1", "U3", "U5", "U9"])
def test_store_item_of_another_array(width):
    b = np.array(["q", "rr", "sss", "tttt"], dtype=width)
    expected, got, py, jit = run_both(copy_items, ARRAYS["1d"], b)
    same_arrays(py, jit)
    assert got.tobytes() == expected.tobytes()


def fill_slice(a):
    a[1:3] = "xyzzy"


def fill_all(a):
    a[...] = "é"


def fill_reversed(a):
    a[::-2] = ""


def fill_row(a):
    a[0] = "rowrow"


def fill_from_item(a):
    a[1:] = a[0]


@pytest.mark.parametrize("fn,names", [(fill_slice, ["1d", "strided", "2d", "2dF", "empty"]),
                                      (fill_all, ["1d", "2dT", "2d_cols", "empty"]),
                                      (fill_reversed, ["1d", "reversed"]),
                                      (fill_row, ["2d", "2dF", "2dT"]),
                                      (fill_from_item, ["1d", "strided", "width1"])])
def test_store_str_into_a_slice(fn, names):
    for name in names:
        _, _, py, jit = run_both(fn, ARRAYS[name])
        same_arrays(py, jit)


def aug(a, i):
    a[i] += "xy"
    a[-1] += a[0]


@pytest.mark.parametrize("i", [0, 1, -2])
def test_augmented_assignment(i):
    _, _, py, jit = run_both(aug, ARRAYS["1d"], i)
    same_arrays(py, jit)


# ------------------------------------------------------------------ arrays as values


def views(a):
    return a[1:], a[::-2], a[0:0]


def test_views_keep_the_dtype_and_return():
    expected, got, _, _ = run_both(views, ARRAYS["1d"])
    for e, g in zip(expected, got):
        assert g.dtype == e.dtype and g.tobytes() == e.tobytes()


def shape_of(a):
    return a.shape, a.ndim, a.size, a.itemsize, a.nbytes, len(a)


@pytest.mark.parametrize("name", list(ARRAYS))
def test_shape_attributes(name):
    expected, got, _, _ = run_both(shape_of, ARRAYS[name])
    assert got == expected


def identity(a):
    return a


def copy_only(a):
    return a.copy()


@pytest.mark.parametrize("name", list(ARRAYS))
def test_copy(name):
    expected, got, py, jit = run_both(copy_only, ARRAYS[name])
    assert got.dtype == expected.dtype and got.shape == expected.shape and got.tobytes() == expected.tobytes()
    assert got.flags.c_contiguous
    same_arrays(py, jit)


def copy_and_store(a):
    b = a.copy()
    b[0] = "zz"
    return b


def test_copy_is_writable_and_separate():
    a = ARRAYS["1d"].copy()
    a.flags.writeable = False
    got = njit(copy_and_store)(a)
    assert str(got[0]) == "zz" and str(a[0]) == "abc" and got.tobytes()[20:] == a.tobytes()[20:]
    s = np.array([b"ab", b"", b"xyz"])[::-1]
    assert njit(copy_only)(s).tobytes() == s.copy().tobytes()
    r = make_records(PACKED)[::-2]
    got = njit(copy_only)(r)
    assert got.dtype == PACKED and got.tobytes() == r.copy().tobytes()


def test_returned_argument_is_the_array():
    a = ARRAYS["2dF"]
    assert njit(identity)(a) is a


def test_row_of_2d_is_an_array():
    @njit
    def row(a, i):
        r = a[i]
        return r, r[0]

    a = ARRAYS["2d"]
    r, first = row(a, 1)
    assert r.dtype == a.dtype and r.tobytes() == a[1].tobytes() and first == str(a[1, 0])


def test_each_width_compiles_its_own_specialization():
    f = njit(item_1d)
    assert f(np.array(["abcdefg"], dtype="U7"), 0) == "abcdefg"
    assert f(np.array(["abc"], dtype="U3"), 0) == "abc"
    assert f(np.array(["abcde"], dtype="U5"), 0) == "abcde"
    assert len(f.signatures) == 3


def test_big_endian_array_is_refused():
    with pytest.raises(TypeError):
        njit(item_1d)(np.array(["ab"], dtype=">U2"), 0)


# ------------------------------------------------------------------ records with string fields

REC = np.dtype([("name", "U6"), ("x", "f8"), ("tag", "U2")])
PACKED = np.dtype({"names": ["b", "name"], "formats": ["i1", "U3"], "offsets": [0, 1], "itemsize": 13})


def make_records(dt):
    r = np.zeros(4, dtype=dt)
    r["name"] = ["ab", "cdéfgh", "", "x\x00y"]
    return r


def record_fields(r):
    out = []
    for i in range(r.shape[0]):
        out.append((r[i]["name"], len(r[i]["name"]), r[i]["name"] == "ab"))
    rec = r[0]
    rec["name"] = "renamed-too-long"
    r[1]["name"] = r[2]["name"] + "é"
    r[2]["name"] += "+"
    names = r["name"]
    names[3] = "v"
    return out, names


@pytest.mark.parametrize("dt", [REC, PACKED], ids=["aligned", "packed"])
def test_record_string_fields(dt):
    expected, got, py, jit = run_both(record_fields, make_records(dt))
    assert got[0] == [(str(n), k, b) for n, k, b in expected[0]]
    assert got[1].dtype == expected[1].dtype and got[1].tobytes() == expected[1].tobytes()
    same_arrays(py, jit)


def test_record_string_fields_by_attribute():
    @njit
    def by_attribute(r):
        out = []
        for i in range(r.shape[0]):
            out.append(r[i].name)
        r[0].name = "attr"
        r[1].name += "!"
        return out, r.name

    r = make_records(REC)
    expected = r.copy()
    expected[0]["name"] = "attr"
    expected[1]["name"] += "!"
    out, names = by_attribute(r)
    assert out == [str(x) for x in make_records(REC)["name"]]
    assert r.tobytes() == expected.tobytes() and names.tobytes() == expected["name"].tobytes()


def record_scalar(rec):
    return rec["name"] + "|" + rec["tag"]


def test_record_scalar_argument():
    r = make_records(REC)
    r["tag"] = ["t1", "", "é", "zz"]
    for k in range(4):
        assert njit(record_scalar)(r[k]) == record_scalar(r[k])


# ------------------------------------------------------------------ refusals


def add_one(a):
    return a + 1


def sort_it(a):
    return np.sort(a)


def unique_it(a):
    return np.unique(a)


def summed(a):
    return a.sum()


def eq_whole(a):
    return a == "abc"


def ufunc(a):
    return np.add(a, a)


def slice_store(a):
    a[1:3] = 5


def fancy(a):
    return a[np.array([0, 1])]


def store_number(a):
    a[0] = 5


def empty_u(n):
    return np.empty(n, dtype="U5")


def zeros_u(n):
    return np.zeros(n, dtype="U5")


@pytest.mark.parametrize("fn", [add_one, sort_it, unique_it, summed, eq_whole, ufunc, slice_store, fancy,
                                store_number])
def test_other_operations_are_refused(fn):
    with pytest.raises((TypingError, UnsupportedError)) as info:
        njit(fn)(ARRAYS["1d"].copy())
    assert "test_charseq.py:" in str(info.value)


U4 = np.dtype("U4")
S3 = np.dtype("S3")


def make_u(n):
    a = np.empty(n, U4)
    b = np.zeros((2, n), dtype=U4)
    if n:
        a[0] = "héllo"
        b[1, -1] = "x"
    return a, b, np.empty_like(a), np.zeros_like(b)


def make_s(n):
    return np.zeros(n, S3), np.empty((n, 2), S3)


def make_from_argument(n, dt):
    return np.zeros(n, dt)


@pytest.mark.parametrize("n", [0, 1, 3])
def test_creation_with_a_dtype_object(n):
    for fn in (make_u, make_s):
        expected, got, _, _ = run_both(fn, n)
        for e, g in zip(expected, got):
            if fn is make_s and e is expected[1]:
                e = np.zeros_like(e)  # np.empty: NumPy's items are whatever the memory held, mahou's are zeroed
            assert g.dtype == e.dtype and g.shape == e.shape and g.tobytes() == e.tobytes()
    got = njit(make_from_argument)(n, np.dtype("U2"))
    assert got.dtype == np.dtype("U2") and got.tobytes() == np.zeros(n, "U2").tobytes()


def ones_u(n):
    return np.ones(n, U4)


def astype_u(a):
    return a.astype(U4)


@pytest.mark.parametrize("fn,arg", [(empty_u, 3), (zeros_u, 3), (ones_u, 3), (astype_u, np.arange(3))])
def test_other_creation_is_refused(fn, arg):
    # a dtype given as a string ('U5') is refused, as Numba refuses it (it is not a NumPy attribute)
    with pytest.raises((TypingError, UnsupportedError)) as info:
        njit(fn)(arg)
    assert "test_charseq.py:" in str(info.value)


def test_store_into_read_only_array_is_refused():
    a = ARRAYS["1d"].copy()
    a.flags.writeable = False
    with pytest.raises(TypingError, match="read-only"):
        njit(store)(a, 0, "x")


# ------------------------------------------------------------------ S (bytes) arrays

S_ARR = np.array([b"ab", b"", b"xyz", b"q\x00r"], dtype="S3")


def test_s_arrays_pass_shape_and_views():
    expected, got, _, _ = run_both(shape_of, S_ARR[::-1])
    assert got == expected
    e, g, _, _ = run_both(views, S_ARR)
    for x, y in zip(e, g):
        assert y.dtype == x.dtype and y.tobytes() == x.tobytes()
    assert njit(identity)(S_ARR) is S_ARR


S_WIDE = np.array([b"x" * 300 + b"\x00y", b"", b"\x80" * 301], dtype="S302")
S_ONE = np.array([b"a", b"", b"\xff", b"\x00"], dtype="S1")
S_GRID = np.array([b"ab", b"c", b"", b"defg", b"\x00\x01", b"\xfe"], dtype="S4").reshape(2, 3)


def s_arrays():
    return {"1d": S_ARR, "wide": S_WIDE, "one": S_ONE, "rev": S_ARR[::-1], "step": S_ARR[::2],
            "empty": S_ARR[:0], "2d": S_GRID, "2dF": np.asfortranarray(S_GRID), "2dT": S_GRID.T,
            "2dstep": S_GRID[:, ::2]}


def s_items(a):
    out = []
    for idx in np.ndindex(a.shape):
        out.append(a[idx])
    return out


def s_iter(a):
    return [x for x in a]


def s_negative(a):
    return a[-1], a[-len(a)]


@pytest.mark.parametrize("name", list(s_arrays()))
def test_s_items_read_as_bytes(name):
    a = s_arrays()[name]
    expected, got, _, _ = run_both(s_items, a)
    assert got == expected and all(type(x) is bytes for x in got)
    if a.ndim == 1:
        assert run_both(s_iter, a)[:2] == (s_iter(a), s_iter(a))
        if len(a):
            expected, got, _, _ = run_both(s_negative, a)
            assert got == expected


def s_copy_not_view(a, b):
    x = a[0]
    a[0] = b
    return x, a[0]


def s_store(a, i, b):
    a[i] = b


def s_copy_items(a, c):
    for i in range(len(a)):
        c[i] = a[i]


def s_store_slice(a, b):
    a[1:3] = b


@pytest.mark.parametrize("b", [b"", b"z", b"zz", b"zzz", b"zzzz", b"\x00", b"a\x00", b"\xff\x80\x00x"])
def test_s_items_store_bytes(b):
    for i in (0, 2, -1):
        _, _, py, jit = run_both(s_store, S_ARR, i, b)
        same_arrays(py, jit)
        assert py[0][i] == jit[0][i]
    _, _, py, jit = run_both(s_store_slice, S_ARR, b)
    same_arrays(py, jit)
    _, _, py, jit = run_both(s_store_slice, S_GRID.T, b)
    same_arrays(py, jit)
    expected, got, py, jit = run_both(s_copy_not_view, S_ARR, b)
    assert got == expected
    same_arrays(py, jit)


@pytest.mark.parametrize("width", [1, 2, 3, 8, 400])
def test_s_items_copied_between_widths(width):
    for src in (S_ARR, S_WIDE, S_ONE, S_ARR[::-1]):
        dst = np.zeros(len(src), dtype="S%d" % width)
        _, _, py, jit = run_both(s_copy_items, src, dst)
        same_arrays(py, jit)


def s_store_sliced_bytes(a, b):
    a[0] = b[1:]
    a[1] = b[::2]


def test_s_items_store_views_of_bytes():
    for b in (b"", b"abcdef", b"\x00\xff\x00"):
        _, _, py, jit = run_both(s_store_sliced_bytes, S_ARR, b)
        same_arrays(py, jit)


S_REC = np.dtype([("k", "S4"), ("v", "i4")])


def s_record_field(r, i, b):
    old = r[i]["k"]
    r[i]["k"] = b
    return old, r[i]["k"], r["k"][i], r[i]["v"]


def s_zero_d(a):
    return a[()]


def test_s_fields_and_zero_d():
    r = np.zeros(3, S_REC)
    r["k"] = [b"a", b"bcde", b"\x00q"]
    r["v"] = [1, 2, 3]
    for i in (0, 1, -1):
        for b in (b"", b"xy", b"toolong"):
            expected, got, py, jit = run_both(s_record_field, r, i, b)
            assert got == expected
            same_arrays(py, jit)
    for v in (b"", b"hi", b"a\x00b"):
        z = np.array(v, dtype="S3")
        assert njit(s_zero_d)(z) == z[()]


def s_store_str(a):
    a[0] = "ab"


def s_store_int(a):
    a[0] = 3


@pytest.mark.parametrize("fn", [s_store_str, s_store_int])
def test_s_stores_of_other_types_are_refused(fn):
    with pytest.raises(TypingError, match="a bytes is expected") as info:
        njit(fn)(S_ARR.copy())
    assert "test_charseq.py:" in str(info.value)


def s_item_ops(a, b):
    # S items are bytes values: every bytes operation applies to them
    return (a[0] == a[1], a[0] < b, a[-1] + b, len(a[1]), b in a[0], hash(a[0]), a[0].find(b), bool(a[1]),
            a[0].startswith(b), [x for x in a if x])


def s_aug(a, b):
    a[0] += b
    a[-1] *= 2


@pytest.mark.parametrize("b", [b"", b"a", b"\x00", b"\xff", b"xyz"])
def test_s_items_take_bytes_operations(b):
    for a in (S_ARR, S_WIDE, S_ONE, S_ARR[::-1]):
        expected, got, _, _ = run_both(s_item_ops, a, b)
        assert got == expected
        _, _, py, jit = run_both(s_aug, a, b)
        same_arrays(py, jit)


def test_s_items_do_not_leak():
    from conftest import assert_no_leaks

    f = njit(s_item_ops)
    g = njit(s_store)
    a = S_ARR.copy()
    assert_no_leaks(lambda: f(a, b"a"), lambda: g(a, 1, b"zz"), repeat=50)
