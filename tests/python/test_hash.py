"""hash() in compiled code against Python's hash() in the same process: integers of every
width (negative, -1 -> -2, around the modulus 2**61 - 1, the int64 and uint64 bounds),
floats (signed zeros, infinities, subnormals, float32), complex numbers, bools, None,
strings of each storage kind (CPython's keyed SipHash, so PYTHONHASHSEED is followed),
tuples (empty, nested, mixed), NaN (as Numba: a pseudo-random hash), and unhashable
values refused at compile time."""

import math
import os
import subprocess
import sys

import numpy as np
import pytest

from mahou import njit
from mahou.errors import TypingError


def h(x):
    return hash(x)


ch = njit(h)


INTS = [0, 1, -1, -2, 2, 7, -7, 1000003, 2**31 - 1, -(2**31), 2**61 - 2, 2**61 - 1, 2**61, 2**62 + 5,
        -(2**61 - 1), -(2**61), -(2**62) - 3, 2**63 - 1, -(2**63), -(2**63) + 1]


@pytest.mark.parametrize("v", INTS)
def test_int64(v):
    assert ch(v) == hash(v)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.uint8, np.uint16, np.uint32, np.uint64])
def test_other_integer_widths(dtype):
    info = np.iinfo(dtype)
    for v in {int(info.min), int(info.max), 0, 1, int(info.max) // 3, -1 if info.min < 0 else 2}:
        assert ch(dtype(v)) == hash(v)


def test_uint64_above_int64():
    for v in [2**63, 2**64 - 1, 2**64 - 2, 2**63 + 2**61 - 1]:
        assert ch(np.uint64(v)) == hash(v)


FLOATS = [0.0, -0.0, 1.0, -1.0, 0.5, 1.5, -2.75, 1e300, -1e300, 1e-300, 5e-324, 2.0**61, 2.0**62, 2.0**-61,
          math.pi, -math.e, math.inf, -math.inf, 123456789.125, 2.0**63, float(2**53 + 1)]


@pytest.mark.parametrize("v", FLOATS)
def test_float64(v):
    assert ch(v) == hash(v)


def test_float32_is_hashed_as_its_double():
    for v in [0.1, -3.5, 1e30, float("inf")]:
        f = np.float32(v)
        assert ch(f) == hash(float(f))


def test_int_and_equal_float_hash_alike():
    @njit
    def same(i):
        return hash(i) == hash(float(i))
    assert all(same(i) for i in [0, 1, -1, 2**52, -(2**40) + 3])


@pytest.mark.parametrize("v", [0j, 1 + 0j, 1 + 2j, -1.5 - 2.5j, complex(0, -1), complex(math.inf, 1), 1e300 + 1e-300j])
def test_complex(v):
    assert ch(v) == hash(v)
    if abs(v) < 1e30:
        assert ch(np.complex64(v)) == hash(complex(np.complex64(v)))


def test_bool_and_none():
    assert ch(True) == hash(True) == 1
    assert ch(False) == hash(False) == 0

    @njit
    def none():
        return hash(None)
    assert none() == hash(None)


STRINGS = ["", "a", "ab", "hello world", "x" * 1000, "caf\u00e9", "\u00ff\u00fe", "\u65e5\u672c\u8a9e",
           "mixed \u20ac and ascii", "\U0001f600 face", "\U0010ffff", "\x00nul\x00"]


@pytest.mark.parametrize("s", STRINGS)
def test_strings(s):
    assert ch(s) == hash(s)


def test_strings_made_in_compiled_code_and_literals():
    @njit
    def made(a, b):
        s = a + b
        return hash(s), hash(s[1:]), hash("literal"), hash(s.upper())
    for a, b in [("ab", "cd"), ("\u00e9", "x"), ("\u65e5", "\U0001f600")]:
        s = a + b
        assert made(a, b) == (hash(s), hash(s[1:]), hash("literal"), hash(s.upper()))


def test_string_dict_keys_still_work():
    @njit
    def count(words):
        d = {}
        for w in words:
            d[w] = d.get(w, 0) + 1
        return d["a"], d["\u00e9t\u00e9"], len(d)
    assert count(["a", "b", "a", "\u00e9t\u00e9", "c", "\u00e9t\u00e9", "a"]) == (3, 2, 4)


TUPLES = [(), (1,), (1, 2), (1, 2.5), (-1, -2), ("a", 1), ((1, 2), 3), (1, (2, (3, "x"))), (True, None, 1.5),
          ((), ()), (2**63 - 1, -(2**63)), (1 + 2j, "\u00e9")]


@pytest.mark.parametrize("t", TUPLES, ids=range(len(TUPLES)))
def test_tuples(t):
    assert ch(t) == hash(t)


def test_tuple_built_in_compiled_code():
    @njit
    def pairs(n):
        out = 0
        for i in range(n):
            out ^= hash((i, i * 0.5, (str(i), -i)))
        return out
    expected = 0
    for i in range(50):
        expected ^= hash((i, i * 0.5, (str(i), -i)))
    assert pairs(50) == expected


def test_tuple_operand_evaluated_once():
    @njit
    def f(xs):
        return hash((xs.pop(), 1))
    xs = [1, 2, 3]
    assert f(xs) == hash((3, 1))
    assert xs == [1, 2]


def test_nan_hashes_pseudo_randomly_as_numba():
    @njit
    def nans(n):
        out = []
        x = math.nan
        for _ in range(n):
            out.append(hash(x))
        return out
    hs = nans(20)
    assert all(isinstance(v, int) and v != -1 for v in hs)
    assert len(set(hs)) > 1


def hash_list():
    return hash([1, 2])


def hash_dict():
    return hash({1: 2})


def hash_set():
    return hash({1})


def hash_array():
    return hash(np.zeros(3))


@pytest.mark.parametrize("f", [hash_list, hash_dict, hash_set, hash_array])
def test_unhashable_refused(f):
    with pytest.raises(TypeError):
        f()
    with pytest.raises(TypingError, match="unhashable"):
        njit(f)()


def test_hash_of_optional_refused():
    @njit
    def f(flag):
        x = None
        if flag:
            x = 3
        return hash(x)
    with pytest.raises(Exception, match="optional"):
        f(True)


SEED_SCRIPT = """
import sys
from mahou import njit
@njit
def h(s, t):
    return hash(s), hash(t)
s, t = "seeded", ("a", "\\u00e9", 3)
print(h(s, t) == (hash(s), hash(t)), hash(s))
"""


def test_follows_pythonhashseed():
    hashes = set()
    for seed in ["0", "12345"]:
        env = dict(os.environ, PYTHONHASHSEED=seed)
        out = subprocess.run([sys.executable, "-c", SEED_SCRIPT], env=env, capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        ok, value = out.stdout.split()
        assert ok == "True"
        hashes.add(value)
    assert len(hashes) == 2
