"""bytes, bytearray, memoryview and array.array arguments (Numba's Buffer types): compiled
code indexes, slices, iterates and measures them over the object's own memory, and reads
memoryview's attributes; np.frombuffer makes an ndarray of one; bytes values compare,
concatenate, hash and have Python's find/count/startswith/endswith/decode. Compiled
against CPython."""

import array
import gc

import numpy as np
import pytest

import mahou
from mahou import njit
from mahou.errors import TypingError, UnsupportedError

from conftest import assert_no_leaks


def items(b):
    total = 0
    first = -1
    last = -1
    for v in b:
        total += v
    if len(b) > 0:
        first = b[0]
        last = b[-1]
    return len(b), total, first, last


def pick(b, i):
    return b[i]


def store(b, i, v):
    b[i] = v


TYPECODES = "bBhHiIlLqQfd"  # every array.array typecode but 'u'/'w' (wchar_t: no dtype)


def _edge_values(tc):
    if tc in "fd":
        return [1.5, -2.25, 0.0, 1e30 if tc == "d" else 3e38]
    info = np.iinfo(np.dtype(array.array(tc).typecode if tc not in "lL" else ("i8" if tc == "l" else "u8")))
    if tc in "LQ":  # int64 ∪ uint64 is float64 (Numba's rule): values a float64 holds
        return [0, 1, 2**52 + 1]
    return [0, 1, int(info.max), int(info.min)] if tc in "bhilq" else [0, 1, int(info.max)]


BUFFERS = [b"", b"abc", b"\x00\xff\x7f", bytearray(), bytearray(b"\x01\x02\x03"),
           memoryview(b"xyz"), memoryview(np.arange(5.0)), memoryview(np.arange(-3, 3, dtype=np.int8)),
           memoryview(np.arange(10, dtype=np.int64))[::3], memoryview(np.arange(6, dtype=np.int32)[::-2]),
           memoryview(np.zeros(0)), memoryview(np.array([True, False, True])),
           memoryview(np.arange(4, dtype=np.float32)).toreadonly(), memoryview(np.arange(3, dtype=np.uint16))]


def test_complex_memoryview():  # (CPython cannot index a memoryview of format 'Zd')
    a = np.array([1 + 2j, -3j])
    assert njit(items)(memoryview(a)) == items(a)


@pytest.mark.parametrize("b", BUFFERS, ids=lambda b: f"{type(b).__name__}{len(b)}")
def test_items_len_and_negative_index(b):
    assert njit(items)(b) == items(b)


@pytest.mark.parametrize("tc", TYPECODES)
def test_each_array_typecode(tc):
    a = array.array(tc, _edge_values(tc))
    got, want = njit(items)(a), items(a)
    assert got[0] == want[0] and got[2:] == want[2:]
    assert got[1] == pytest.approx(want[1], rel=1e-12)  # sum of the items (int64 + uint64 is float64, as Numba)
    for i in range(-len(a), len(a)):
        assert njit(pick)(a, i) == a[i]
    assert njit(items)(array.array(tc)) == (0, 0, -1, -1)


@pytest.mark.parametrize("make", [lambda: bytearray(b"\x00\x01\x02\x03"), lambda: array.array("d", [1.0, 2.0, 3.0]),
                                  lambda: array.array("h", [-5, 6, 7]), lambda: memoryview(bytearray(b"abcd")),
                                  lambda: memoryview(np.arange(6.0))[::2]],
                         ids=["bytearray", "array_d", "array_h", "memoryview_bytearray", "memoryview_strided"])
def test_writes_are_seen_by_the_caller(make):
    f = njit(store)
    for i, v in [(0, 9), (-1, 7), (1, 0)]:
        got, want = make(), make()
        f(got, i, v)
        store(want, i, v)
        assert list(got) == list(want)


def augment(b, i, v):
    b[i] += v


@pytest.mark.parametrize("make", [lambda: bytearray(3), lambda: array.array("b", [0, 0, 0]),
                                  lambda: array.array("H", [0, 0, 0]), lambda: array.array("q", [0, 0, 0]),
                                  lambda: memoryview(bytearray(3)), lambda: memoryview(np.zeros(3, np.int16)),
                                  lambda: array.array("d", [0.0, 0.0, 0.0])],
                         ids=["bytearray", "array_b", "array_H", "array_q", "memoryview_B", "memoryview_h", "array_d"])
@pytest.mark.parametrize("fn", [store, augment])
def test_stores_out_of_an_items_range_raise_as_python(make, fn):
    # Python's ValueError (bytearray, memoryview) or OverflowError (array.array), never wrapped
    f = njit(fn)
    for v in [5, 127, 255, 256, -1, -129, 2**40, True]:
        got, want = make(), make()
        try:
            fn(want, 1, v)
        except (ValueError, OverflowError) as e:
            with pytest.raises(type(e)):
                f(got, 1, v)
            continue
        f(got, 1, v)
        assert list(got) == list(want)


def test_a_float_into_an_integer_buffer_is_a_typing_error():
    with pytest.raises(TypeError):
        store(bytearray(2), 0, 1.5)
    with pytest.raises(TypingError, match="integer is needed"):
        njit(store)(bytearray(2), 0, 1.5)


def slice_store(b, x):
    b[0:2] = x


def test_slice_stores():
    for make, value in [(lambda: bytearray(4), b"xy"), (lambda: memoryview(np.zeros(4)), np.array([1.0, 2.0])),
                        (lambda: array.array("i", [1, 2, 3]), array.array("i", [7, 8])),
                        (lambda: np.zeros(3, np.uint8), bytearray(b"ab"))]:
        got, want = make(), make()
        njit(slice_store)(got, value)
        slice_store(want, value)
        assert list(got) == list(want)
    with pytest.raises(TypingError, match="slice"):  # Python: TypeError
        njit(slice_store)(bytearray(3), 5)


def products(b):
    s = 0
    for i, v in enumerate(b):
        s += i * v
    for v, w in zip(b, b):
        s += v * w
    return s + b[0] * b[-1]


@pytest.mark.parametrize("b", [b"abc\xff", bytearray(b"\xfe\xfd"), array.array("b", [-128, 127]),
                               memoryview(np.array([200, 250], np.uint8)), array.array("f", [0.1, 1e30]),
                               memoryview(np.array([60000, 2], np.uint16))],
                         ids=["bytes", "bytearray", "array_b", "memoryview_B", "array_f", "memoryview_H"])
def test_items_are_python_numbers(b):
    # a uint8 item times a uint8 item is Python's int, not a wrapped uint8 (a float32 one a float)
    assert njit(products)(b) == products(b)


def test_writes_through_a_memoryview_reach_the_array():
    a = np.arange(6.0)
    njit(store)(memoryview(a)[1:], -1, 42.0)
    assert a[-1] == 42.0


@pytest.mark.parametrize("b", [b"abc", memoryview(b"abc"), memoryview(np.arange(3.0)).toreadonly(),
                               memoryview(np.arange(3)[::2]).toreadonly()])
def test_writing_into_a_read_only_buffer_is_a_typing_error(b):
    with pytest.raises(TypingError, match="read-only"):
        njit(store)(b, 0, 1)


@pytest.mark.parametrize("b", [b"abc", bytearray(b"abc"), memoryview(np.arange(3.0)), array.array("i", [1, 2, 3])])
def test_out_of_range_with_boundscheck(b):
    f = njit(boundscheck=True)(pick)
    assert f(b, -3) == b[-3]
    for i in (3, -4, 100):
        with pytest.raises(IndexError):
            pick(b, i)
        with pytest.raises(IndexError):
            f(b, i)
    store_checked = njit(boundscheck=True)(store)
    if not isinstance(b, bytes):
        with pytest.raises(IndexError):
            store_checked(b, 3, 1)


def mv_attributes(m):
    return (m.ndim, m.itemsize, m.nbytes, m.readonly, m.shape, m.strides, m.contiguous, m.c_contiguous,
            m.f_contiguous)


@pytest.mark.parametrize("m", [memoryview(np.arange(5)), memoryview(b"ab"), memoryview(b""), memoryview(bytearray(3)),
                               memoryview(np.arange(12.0).reshape(3, 4)[:, ::2]),
                               memoryview(np.asfortranarray(np.ones((2, 3)))), memoryview(np.ones((2, 3), np.float32)),
                               memoryview(np.arange(10, dtype=np.int16))[::-3], memoryview(np.ones((1, 4))[:, ::2]),
                               memoryview(np.arange(4.0)).toreadonly(), memoryview(array.array("q", [1, 2]))],
                         ids=lambda m: f"{m.format}{m.shape}")
def test_memoryview_attributes(m):
    assert njit(mv_attributes)(m) == mv_attributes(m)


def test_array_array_itemsize_and_refused_attributes():
    f = njit(lambda a: a.itemsize)
    for tc in TYPECODES:
        assert f(array.array(tc, [1])) == array.array(tc).itemsize
    with pytest.raises(TypingError, match="no attribute 'nbytes'"):
        njit(lambda b: b.nbytes)(b"ab")
    with pytest.raises(TypingError, match="no attribute 'shape'"):
        njit(lambda b: b.shape)(bytearray(2))


def slices(m):
    s = m[1:4]
    r = m[::-1]
    e = m[::2]
    out = 0
    for v in e:
        out += v
    return len(s), s[0] if len(s) else -1, len(r), r[0] if len(r) else -1, len(e), out


@pytest.mark.parametrize("m", [memoryview(np.arange(6.0)), memoryview(b"abcdef"), memoryview(np.arange(9)[::2]),
                               memoryview(b""), b"hello", bytearray(b"xy"), array.array("i", [4, -5, 6, 7])],
                         ids=lambda m: f"{type(m).__name__}{len(m)}")
def test_slicing(m):
    assert njit(slices)(m) == slices(m)


def sum_2d(m):
    t = 0.0
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            t += m[i, j] * (i + 1)
    return t, len(m)


@pytest.mark.parametrize("a", [np.arange(12.0).reshape(3, 4), np.arange(12.0).reshape(3, 4)[:, ::2],
                               np.asfortranarray(np.arange(6.0).reshape(2, 3)), np.zeros((0, 3))])
def test_two_dimensional_memoryviews_of_numpy_arrays(a):
    assert njit(sum_2d)(memoryview(a)) == sum_2d(memoryview(a))


def frombuffer_i2(b):
    return np.frombuffer(b, dtype=np.int16)


def frombuffer_default(b):
    return np.frombuffer(b)


@pytest.mark.parametrize("b", [b"", b"abcd", bytearray(b"\x01\x00\x02\x00"), memoryview(np.arange(3, dtype=np.int16)),
                               array.array("h", [-1, 2]), array.array("d", [1.5]),
                               memoryview(np.arange(6, dtype=np.int8).reshape(2, 3)), np.arange(4, dtype=np.uint8)],
                         ids=lambda b: f"{type(b).__name__}{len(b)}")
def test_frombuffer(b):
    got, want = njit(frombuffer_i2)(b), frombuffer_i2(b)
    assert got.dtype == want.dtype and got.tolist() == want.tolist()
    assert got.flags.writeable == want.flags.writeable
    if len(want) % 4 == 0 and len(memoryview(b).cast("B")) % 8 == 0:
        assert njit(frombuffer_default)(b).tolist() == frombuffer_default(b).tolist()


def test_frombuffer_errors():
    with pytest.raises(ValueError, match="multiple of element size"):
        frombuffer_i2(b"abc")
    with pytest.raises(ValueError, match="multiple of element size"):
        njit(frombuffer_i2)(b"abc")
    with pytest.raises(TypingError, match="C-contiguous"):  # NumPy: BufferError at run time
        njit(frombuffer_i2)(memoryview(np.arange(6, dtype=np.int16))[::2])


def test_frombuffer_shares_the_memory_and_holds_the_buffer():
    ba = bytearray(b"hello")
    a = njit(lambda b: np.frombuffer(b, dtype=np.uint8))(ba)
    a[0] = ord("H")
    assert ba == bytearray(b"Hello")
    with pytest.raises(BufferError):  # as NumPy's frombuffer: no resize while the array lives
        ba.append(1)
    del a
    gc.collect()
    ba.append(33)
    assert ba == bytearray(b"Hello!")


def test_the_buffer_is_released_after_the_call():
    ba = bytearray(b"abc")
    njit(items)(ba)
    ba.append(1)  # no export left
    f = njit(boundscheck=True)(pick)
    with pytest.raises(IndexError):
        f(ba, 10)
    ba.append(2)
    assert len(ba) == 5
    assert_no_leaks(lambda: njit(items)(b"abc"), lambda: f(ba, 1), repeat=50)


def test_each_kind_has_its_own_specialization():
    f = njit(pick)
    values = [b"abc", np.frombuffer(b"abc", dtype=np.uint8), bytearray(b"abc"), memoryview(b"abc"),
              array.array("B", b"abc"), np.arange(3, dtype=np.uint8)]
    for v in values:
        assert f(v, 1) == 98 or f(v, 1) == 1
    assert len(f.signatures) == 6
    g = njit(store)
    g(np.zeros(2, np.uint8), 0, 1)
    with pytest.raises(TypingError):  # the writable array's overload is not used for bytes
        g(b"ab", 0, 1)


def test_passing_a_buffer_to_another_compiled_function():
    inner = njit(items)

    @njit
    def outer(b):
        return inner(b[1:])

    assert outer(b"abcd") == items(b"bcd")
    assert outer(array.array("d", [1.0, 2.0, 3.0])) == items(array.array("d", [2.0, 3.0]))


def ret(b):
    return b


def ret_slice(b):
    return b[1:]


def add(b):
    return b + b


def eq(b):
    return b == b


def contains_print(b):
    print(b)


def text(b):
    return str(b)


def np_sum(b):
    return np.sum(b)


def hexed(b):
    return b.hex()


def truth(b):
    if b:
        return 1
    return 0


_BUFFERS = [b"ab", bytearray(b"ab"), memoryview(b"ab"), array.array("b", [1, 2])]


@pytest.mark.parametrize("fn, b", [(fn, b) for fn in [ret, ret_slice, add, eq, contains_print, text, hexed, truth]
                                   for b in _BUFFERS
                                   if not (fn in (ret, ret_slice, add, eq, truth) and isinstance(b, bytes))],
                         ids=lambda x: getattr(x, "__name__", type(x).__name__))
def test_python_object_operations_are_refused(fn, b):
    with pytest.raises((TypingError, UnsupportedError)):
        njit(fn)(b)


@pytest.mark.parametrize("b", [b"", b"a", b"hello\x00\xff"])
def test_bytes_are_returned_as_bytes(b):
    # a bytes value (an argument, a slice of one, a.tobytes()) goes back to Python as a
    # new bytes object (Numba's Bytes boxing); the other buffers cannot be made again
    f = njit(lambda b: (b, b[1:], b[::-2], (b[:1],)))
    assert f(b) == (b, b[1:], b[::-2], (b[:1],))


@pytest.mark.parametrize("a", [np.arange(5.0), np.arange(12, dtype=np.int16).reshape(3, 4)[:, ::2],
                               np.arange(6).reshape(2, 3).T, np.array([True, False]), np.array(-2.5),
                               np.zeros(0), np.array([1 - 2j], dtype=np.complex64),
                               np.arange(4, dtype=np.float16), np.arange(3).astype("datetime64[s]")],
                         ids=lambda a: f"{a.dtype}-{a.shape}")
def test_tobytes_matches_numpy(a):
    f = njit(lambda a: a.tobytes())
    assert f(a) == a.tobytes() and type(f(a)) is bytes
    g = njit(lambda a: (len(a.tobytes()), a.tobytes()[-1:] if a.size else a.tobytes()))
    assert g(a) == (a.nbytes, a.tobytes()[-1:] if a.size else b"")


def test_tobytes_is_a_copy_and_refuses_what_numpy_would_differ_on():
    @njit
    def snapshot(a):
        b = a.tobytes()
        a[0] = 99
        return b

    a = np.zeros(2, dtype=np.uint8)
    assert snapshot(a) == b"\x00\x00" and a[0] == 99
    with pytest.raises(TypingError, match="order"):
        njit(lambda a: a.tobytes(order="F"))(np.zeros(2))
    assert njit(lambda a: a.tobytes() == a.tobytes())(np.zeros(2)) is True


def test_numpy_functions_of_bytes_are_refused():
    # NumPy reads a bytes as one string scalar; a bytearray as an array of its items
    with pytest.raises(UnsupportedError, match="np.sum"):
        njit(np_sum)(b"ab")
    assert njit(np_sum)(bytearray(b"\x01\x02")) == np_sum(bytearray(b"\x01\x02"))


@pytest.mark.parametrize("b", [array.array("u", "ab"), memoryview(np.zeros(3, ">f8")),
                               memoryview(np.zeros(2, dtype=[("a", "i4")])), memoryview(np.zeros(2, np.longdouble))],
                         ids=["wchar", "big_endian", "record", "longdouble"])
def test_unreadable_formats_are_a_type_error(b):
    with pytest.raises(TypeError, match="not supported by mahou"):
        njit(items)(b)


def test_a_declared_array_type_refuses_a_buffer():
    f = njit("float64(float64[:])")(lambda a: a[0])
    with pytest.raises(TypeError):
        f(memoryview(np.arange(3.0)))
    with pytest.raises(TypeError):
        f(array.array("d", [1.0]))


def test_typed_containers_do_not_hold_buffers():
    # bytes values they hold (test_bytes_keys.py); other buffers are never boxed back
    with pytest.raises(TypeError, match="typed list cannot hold bytearray"):
        mahou.typed.List([bytearray(b"ab")])
    with pytest.raises(TypeError, match="typed list cannot hold memoryview"):
        mahou.typed.List([memoryview(b"ab")])
    d = mahou.typed.Dict()
    with pytest.raises(TypeError, match="typed dict cannot hold bytearray"):
        d[1] = bytearray(2)


def lengths(xs):
    t = 0
    for x in xs:
        t += len(x) + x[0]
    return t


def test_a_list_of_buffers_is_read():
    assert njit(lengths)([b"ab", b"c"]) == lengths([b"ab", b"c"])
    with pytest.raises(TypeError, match="heterogeneous"):
        njit(lengths)([b"ab", bytearray(b"c")])


def test_a_buffer_is_not_a_cuda_kernel_argument():
    from mahou import cuda

    @cuda.jit
    def k(a):
        pass

    with pytest.raises(TypeError, match="host memory"):
        k[1, 1](bytearray(4))


def test_mahou_types_spell_buffers():
    f = njit(pick)
    f(b"a", 0)
    f(bytearray(b"a"), 0)
    f(memoryview(np.arange(2.0)), 0)
    f(array.array("i", [1]), 0)
    text = " ".join(str(s) for s in f.signatures)
    for word in ("bytes(uint8, 1d, C, readonly)", "bytearray(uint8, 1d, C)", "memoryview(float64, 1d, C)",
                 "pyarray(int32, 1d, C)"):
        assert word in text
    assert mahou is not None


def test_an_ndarray_never_takes_a_buffers_overload():
    # called often with a bytearray, then with a uint8 ndarray: NumPy's store (wraps), not
    # the bytearray's (ValueError), whichever entry the dispatcher installed
    f = njit(store)
    for _ in range(50):
        f(bytearray(2), 0, 1)
    a = np.zeros(2, np.uint8)
    for _ in range(50):
        f(a, 0, 300)
    assert a[0] == 300 % 256
    with pytest.raises(ValueError):
        f(bytearray(2), 0, 300)


# ------------------------------------------------------------------ bytes values' operators

BYTES = [b"", b"a", b"ab", b"abc", b"b", b"\x00", b"a\x00", b"\x00a", b"\xff\x80", b"\x80", b"abab", b"ba",
         bytes(range(256))]


def bytes_ops(a, b):
    return (a == b, a != b, a < b, a <= b, a > b, a >= b, a + b, a * 2, 3 * b, a * -1, a * 0, len(a + b),
            bool(a), not b, b in a, b not in a, 0 in a, 255 in a, 97 not in a, hash(a))


def bytes_methods(a, b):
    return (a.find(b), a.rfind(b), a.count(b), a.startswith(b), a.endswith(b), a.find(b, 1), a.find(b, -2, 5),
            a.rfind(b, 0, -1), a.count(b, 1, None), a.count(b, 9, 3), a.startswith(b, 1), a.endswith(b, 0, 2),
            a.find(b, 300), a.startswith(b, -300), a.count(b, -1))


@pytest.mark.parametrize("a", BYTES, ids=repr)
def test_bytes_operators_match_python(a):
    f = njit(bytes_ops)
    g = njit(bytes_methods)
    for b in BYTES:
        assert f(a, b) == bytes_ops(a, b), b
        assert g(a, b) == bytes_methods(a, b), b


def bytes_augmented(a, b):
    c = b"q"
    c += a  # a new bytes value: bytes are immutable
    a += b  # an argument too: the caller's object does not change
    b *= 2
    return a, b, c


@pytest.mark.parametrize("a", BYTES, ids=repr)
def test_bytes_augmented_assignment_makes_a_new_value(a):
    f = njit(bytes_augmented)
    for b in BYTES[:4]:
        before = (bytes(a), bytes(b))
        assert f(a, b) == bytes_augmented(a, b), b
        assert (a, b) == before


def bytes_of_slices(a):
    # views of a bytes value compare, hash and search as the bytes they show
    return a[1:] == a[1:], a[::2] < a[1::2], hash(a[::-1]), a[::-1].find(a[:1]), a[1:] + a[:1]


@pytest.mark.parametrize("a", BYTES, ids=repr)
def test_bytes_views_compare_as_bytes(a):
    assert njit(bytes_of_slices)(a) == bytes_of_slices(a)


def bytes_sorted_max(xs):
    best = xs[0]
    for x in xs:
        if x > best:
            best = x
    return best, [x for x in xs if x]


def test_bytes_in_lists_and_truth():
    xs = [b"b", b"", b"\xff", b"ab"]
    inner = njit(bytes_sorted_max)
    f = njit(lambda a, b, c, d: inner([a, b, c, d]))
    assert f(*xs) == bytes_sorted_max(xs)
    got = njit(lambda a: [a, a + a, a[1:]])(b"xy")
    assert got == [b"xy", b"xyxy", b"y"] and all(type(x) is bytes for x in got)


def typed_list_of_bytes(b):
    out = mahou.typed.List()
    out.append(b)
    out.append(b + b[::-1])
    return out


def test_typed_list_of_bytes_made_in_compiled_code():
    for b in (b"", b"a\x00\xff"):
        got = njit(typed_list_of_bytes)(b)
        assert list(got) == [b, b + b[::-1]] and all(type(x) is bytes for x in got)
        assert njit(lambda xs: xs[1] == xs[0] + xs[0][::-1])(got)
    made = mahou.typed.List([b"ab"])  # made in Python too, as Numba's
    assert njit(lambda xs: xs[0] + xs[0])(made) == b"abab"


def decode(b):
    return b.decode()


def decode_ascii(b):
    return b.decode("ascii")


@pytest.mark.parametrize("b", [b"", b"abc", "h\u00e9llo\u65e5\U0001f600".encode(), b"\x00\x7f", "\u07ff\u0800\uffff".encode()],
                         ids=repr)
def test_bytes_decode_utf8(b):
    assert njit(decode)(b) == b.decode()
    if max(b, default=0) < 128:
        assert njit(decode_ascii)(b) == b.decode("ascii")


@pytest.mark.parametrize("b", [b"\xff", b"\xc3", b"a\xc3(", b"\xed\xa0\x80", b"\xc0\x80", b"\xf4\x90\x80\x80",
                               b"\xe2\x82"], ids=repr)
def test_bytes_decode_errors_raise_value_error(b):
    with pytest.raises(ValueError):
        b.decode()
    with pytest.raises(ValueError):
        njit(decode)(b)
    with pytest.raises(ValueError):
        njit(decode_ascii)(b)


def test_bytes_contains_out_of_range_raises():
    f = njit(lambda b, x: x in b)
    for x in (-1, 256):
        with pytest.raises(ValueError, match="range"):
            f(b"ab", x)


def sub_bytes(b):
    return b - b


def cmp_str(b):
    return b == "a"


def str_in(b):
    return "a" in b


def upper(b):
    return b.upper()


def as_key(b):
    return {b: 1}


def as_item(b):
    return {b}


def latin1(b):
    return b.decode("latin-1")


def ba_concat(b):
    return b + b


def ba_find(b):
    return b.find(b)


def ba_hash(b):
    return hash(b)


@pytest.mark.parametrize("fn, b", [(sub_bytes, b"a"), (cmp_str, b"a"), (str_in, b"a"), (upper, b"a"),
                                   (as_key, bytearray(b"a")),
                                   (as_item, memoryview(b"a")), (latin1, b"a"), (ba_concat, bytearray(b"a")),
                                   (ba_find, bytearray(b"a")), (ba_hash, bytearray(b"a")), (eq, memoryview(b"a")),
                                   (truth, array.array("b", [1]))],
                         ids=lambda x: getattr(x, "__name__", type(x).__name__))
def test_other_bytes_operations_are_refused_with_the_line(fn, b):
    with pytest.raises((TypingError, UnsupportedError)) as info:
        njit(fn)(b)
    assert "test_buffers.py:" in str(info.value)


# ------------------------------------------------------------------ bytes literals and globals

GLOBAL_BYTES = b"g\x00\xffz"
EMPTY_BYTES = b""


def literals(b):
    return (b == b"ab", b"" + b, b"a\x00\xff" b"\n\\\101\0", br"\x00", b in b"xabc", len(b'''tri
ple'''), b"ab" < b, b.startswith(b"a"), b"a,b" * 2, 97 in b"a", b"\t\x7f"[1], b"xyz"[::-1])


@pytest.mark.parametrize("b", [b"", b"ab", b"abc", b"\xff", b"a\x00"], ids=repr)
def test_bytes_literals_match_python(b):
    assert njit(literals)(b) == literals(b)


def globals_(b):
    return GLOBAL_BYTES, GLOBAL_BYTES == b, b in GLOBAL_BYTES, GLOBAL_BYTES + EMPTY_BYTES, len(EMPTY_BYTES), \
        GLOBAL_BYTES.find(b), hash(GLOBAL_BYTES), EMPTY_BYTES


def default_bytes(x=b"dflt"):
    return x


def test_bytes_globals_and_defaults():
    for b in (b"", b"\x00", b"g\x00\xffz", b"q"):
        assert njit(globals_)(b) == globals_(b)
    f = njit(default_bytes)
    assert f() == b"dflt" and f(b"q") == b"q"


def literal_into_s(a):
    a[0] = b"hello"
    a[-1] = b""
    for x in a:
        if x == b"he":
            return x.decode()
    return "none"


def test_bytes_literals_stored_into_s_items():
    for a in (np.zeros(3, "S2"), np.array([b"ab", b"cd"], "S2")):
        py, jit = a.copy(), a.copy()
        assert njit(literal_into_s)(jit) == literal_into_s(py)
        assert py.tobytes() == jit.tobytes()


def test_bytes_literal_refusals_name_the_line():
    with pytest.raises((TypingError, UnsupportedError)) as info:
        njit(lambda: str(b"a"))()
    assert "test_buffers.py:" in str(info.value)
