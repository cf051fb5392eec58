"""Bytes values as dict keys, set items and typed.List items, compared with CPython: equal
bytes from different buffers (arguments, literals, slices, globals) are one key, hash(b) is
CPython's, and the runtime's hash, comparison and decode of whole buffers agree with Python."""

import gc

import numpy as np
import pytest

import mahou
from conftest import assert_no_leaks, check
from mahou import errors, njit, typed

GLOBAL_KEY = b"glob"
SAMPLES = [b"", b"a", b"ab", b"\x00", b"\xff\x00a", b"hello world", bytes(range(256)), b"x" * 1000]


# ---------------------------------------------------------------- dict keys

def literal_keys(x):
    d = {b"a": 1, b"bc": 2, b"": 3}
    return d[b"a"] + d[b"bc"] + d[b""], x in d, len(d)


def argument_and_slice_keys(x):
    d = {b"a": 1}
    d[x] = 5
    d[x[0:1]] = 7
    d[x[::2]] = 9
    return d, d[x], len(d)


def counting(words):
    counts = {}
    for w in words:
        counts[w] = counts.get(w, 0) + 1
    return counts


def keys_of_slices(x, n):
    # the same contents from different buffers and offsets are one key
    d = {}
    for i in range(len(x) - n + 1):
        k = x[i:i + n]
        d[k] = d.get(k, 0) + 1
    return d


def global_key(x):
    d = {GLOBAL_KEY: 1}
    d[x] = 2
    return d, GLOBAL_KEY in d


def tuple_keys(x):
    d = {(x, 1): "a", (b"q", 2): "b"}
    return d[(x, 1)], (x[:1], 1) in d, d


def bytes_values(x):
    d = {1: x, 2: x[::-1]}
    d[3] = b"lit"
    return d


def dict_methods(x):
    d = {b"k": 1, x: 2}
    p = d.pop(b"k", -1)
    d.setdefault(x[:1], 10)
    del d[x]
    return d, p, list(d.keys()), list(d.items())


@pytest.mark.parametrize("x", [b"a", b"zz", b"", b"\xff"])
def test_literal_keys(x):
    check(literal_keys, x)


@pytest.mark.parametrize("x", [b"ab", b"abc", b"a", b"\x00\x00\x00", b"a" * 40])
def test_argument_and_slice_keys(x):
    check(argument_and_slice_keys, x)


@pytest.mark.parametrize("words", [[b"a", b"b", b"a"], [b"", b"", b"x"], [b"\xff" * 3, b"\xff\xff\xff", b"\xff"],
                                   [bytes([i % 7]) * (i % 3) for i in range(50)]])
def test_counting_words(words):
    check(counting, words)


@pytest.mark.parametrize("x, n", [(b"abababab", 2), (b"mississippi", 3), (b"", 1), (b"aaaa", 1), (b"abc", 3)])
def test_keys_of_slices(x, n):
    check(keys_of_slices, x, n)


@pytest.mark.parametrize("x", [b"glob", b"other", b""])
def test_global_key(x):
    check(global_key, x)


@pytest.mark.parametrize("x", [b"ab", b"qz", b""])
def test_tuple_keys(x):
    check(tuple_keys, x)


@pytest.mark.parametrize("x", [b"ab", b"", b"\x00z"])
def test_bytes_values_and_methods(x):
    check(bytes_values, x)
    check(dict_methods, x + b"!")


def test_missing_key_raises_key_error_with_the_bytes():
    @njit
    def get(d, k):
        return d[k]

    @njit
    def make():
        return {b"a": 1}

    d = make()
    for k in [b"b", b"", b'q"\x00\xff']:
        with pytest.raises(KeyError) as info:
            get(d, k)
        assert info.value.args == (k,)


def test_a_dict_with_bytes_keys_is_a_typed_dict_in_python():
    @njit
    def make(x):
        return {b"lit": 1, x: 2, x[1:]: 3}

    d = make(b"hello")
    assert dict(d) == {b"lit": 1, b"hello": 2, b"ello": 3}
    assert d[b"lit"] == 1 and d[bytes(b"hel") + b"lo"] == 2 and b"ello" in d and b"zz" not in d
    d[b"new"] = 4
    assert njit(lambda d, k: d[k])(d, b"new") == 4
    assert njit(lambda d, k: d[k])(d, b"hello"[1:]) == 3


def test_typed_dict_of_bytes_from_python():
    d = typed.Dict()
    d[b"k"] = 1
    d[b"j"] = 2
    assert njit(lambda d, k: d[k] + len(d))(d, b"j") == 4
    v = typed.Dict()
    v[1] = b"value"
    assert njit(lambda d: d[1] + b"!")(v) == b"value!"  # bytes values, as Numba's


def test_literal_keys_outlive_the_compiled_code():
    def build():
        @njit
        def f(x):
            return {b"literal": 1, GLOBAL_KEY: 2, x: 3}, {b"item", x[::2]}

        return f(b"arg")

    d, s = build()
    gc.collect()
    _ = [bytes(64) * i for i in range(200)]  # reuse freed memory
    assert dict(d) == {b"literal": 1, b"glob": 2, b"arg": 3}
    assert s == {b"item", b"ag"}


# ---------------------------------------------------------------- set items

def set_of_bytes(x):
    s = {b"a", b"b"}
    s.add(x)
    s.add(x[:1])
    return s, x in s, x[1:] in s, b"zz" in s, len(s)


def set_algebra(xs, ys):
    a = set(xs)
    b = set(ys)
    return a | b, a & b, a - b, sorted(a ^ b)


@pytest.mark.parametrize("x", [b"ab", b"ba", b"", b"a", b"zz"])
def test_set_of_bytes(x):
    check(set_of_bytes, x)


@pytest.mark.parametrize("xs, ys", [([b"a", b"b"], [b"b", b"c"]), ([b""], [b"", b"\x00"]), ([b"x"], [b"y"])])
def test_set_algebra_of_bytes(xs, ys):
    check(set_algebra, xs, ys)


def test_unhashable_buffers_are_refused_with_the_line():
    @njit
    def f(b):
        return {b: 1}

    with pytest.raises(errors.TypingError, match=r"test_bytes_keys.py:\d+:\d+: unhashable type"):
        f(bytearray(b"a"))


def test_bytes_keys_do_not_leak():
    @njit
    def churn(x):
        d = {b"lit": 0}
        for i in range(len(x)):
            d[x[i:]] = i
        s = {x[:1]}
        s.add(x)
        return len(d) + len(s)

    assert_no_leaks(lambda: churn(b"abcdef"), repeat=200)


# ---------------------------------------------------------------- typed.List of bytes

def test_typed_list_of_bytes_made_in_python():
    xs = typed.List([b"ab", b"c", b""])
    assert njit(lambda l: (l[0], len(l[1]), l[1][0], l[-1]))(xs) == (b"ab", 1, 99, b"")
    xs.append(b"zz")
    xs[0] = b"q"
    assert list(xs) == [b"q", b"c", b"", b"zz"]
    assert b"c" in xs and b"x" not in xs and xs.index(b"zz") == 3 and xs.count(b"") == 1
    assert xs == typed.List([b"q", b"c", b"", b"zz"])
    xs.sort()
    assert list(xs) == sorted([b"q", b"c", b"", b"zz"])
    with pytest.raises(TypeError, match="cannot hold unicode"):
        xs.append("s")
    with pytest.raises(TypeError, match="cannot hold bytearray"):
        xs.append(bytearray(b"x"))


def list_ops(xs, x):
    xs.append(x)
    xs.insert(0, x[:1])
    found = x in xs
    n = xs.count(x)
    i = xs.index(x)
    xs.sort()
    return found, n, i, len(xs)


@pytest.mark.parametrize("items, x", [([b"b", b"a"], b"ab"), ([b""], b"z"), ([b"\xff", b"\x00"], b"\x00\x00")])
def test_typed_list_of_bytes_in_compiled_code(items, x):
    got_list = typed.List(items)
    expected_list = list(items)
    got = njit(list_ops)(got_list, x)
    expected = list_ops(expected_list, x)
    assert got == expected
    assert list(got_list) == expected_list


def test_list_of_bytes_returned_to_python():
    @njit
    def build(x):
        out = typed.List()
        for i in range(len(x)):
            out.append(x[i:])
        out.append(b"lit")
        return out

    got = build(b"abc")
    assert list(got) == [b"abc", b"bc", b"c", b"lit"] and all(type(v) is bytes for v in got)
    assert njit(lambda l: l[3] + l[0])(got) == b"litabc"


# ---------------------------------------------------------------- hash, ==, <, decode

def hashes(x):
    return hash(x), hash(x[::2]), hash(x[1:]), hash((x, 1)), hash(b"lit")


def comparisons(a, b):
    return a == b, a != b, a < b, a <= b, a > b, a >= b, a[::2] == b[::2], a[1:] < b


@pytest.mark.parametrize("x", SAMPLES)
def test_hash_is_cpythons(x):
    check(hashes, x)


@pytest.mark.parametrize("a", SAMPLES[:6])
@pytest.mark.parametrize("b", [b"", b"a", b"ab", b"b", b"\xff\x00b"])
def test_comparisons(a, b):
    check(comparisons, a, b)


def test_long_bytes_compare_and_hash():
    rng = np.random.default_rng(1)
    big = rng.integers(0, 256, 1 << 20).astype(np.uint8).tobytes()
    other = big[:-1] + bytes([big[-1] ^ 1])
    check(comparisons, big, other)
    check(comparisons, big, big[:-1])
    check(hashes, big)


def decode(x):
    return x.decode()


def decode_ascii(x):
    return x.decode("ascii")


@pytest.mark.parametrize("x", [b"", b"abc", "é∂😀".encode(), ("aé" * 1000).encode(), b"x" * 100000 + "€".encode(),
                               bytes(range(128))])
def test_decode(x):
    check(decode, x)
    if max(x, default=0) < 128:
        check(decode_ascii, x)


@pytest.mark.parametrize("x", [b"\xff", b"a\xe2\x82", b"\xe0\x80", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xc0\xaf",
                               b"ok\xf0\x90", b"x" * 100 + b"\x80", b"\xf0\x9f\x98"])
def test_decode_errors_are_cpythons(x):
    with pytest.raises(UnicodeDecodeError) as expected:
        x.decode()
    with pytest.raises(ValueError) as got:
        njit(decode)(x)
    assert str(got.value) == str(expected.value)


def test_decode_ascii_error_is_cpythons():
    for x in [b"\x80", b"abc\xffd"]:
        with pytest.raises(UnicodeDecodeError) as expected:
            x.decode("ascii")
        with pytest.raises(ValueError) as got:
            njit(decode_ascii)(x)
        assert str(got.value) == str(expected.value)


def test_decode_of_a_strided_slice():
    check(lambda x: x[::2].decode(), b"a\xc3x\xa9")


def set_argument(s, x):
    s.add(x)
    s.add(x[::2])
    return x in s, x[1:] in s, len(s)


@pytest.mark.parametrize("s, x", [({b"a", b"bc"}, b"bc"), ({b""}, b"abc"), ({b"\xff"}, b"\xff")])
def test_a_python_set_of_bytes_is_reflected(s, x):
    check(set_argument, s, x)
