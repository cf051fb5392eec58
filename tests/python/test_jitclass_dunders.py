"""@jitclass special methods beyond the operators: __hash__ (hash(obj), and inside tuples),
__eq__ with it, __int__/__float__/__complex__/__index__ (int(), float(), complex() with
Python's fallbacks), __bool__/__len__ for bool(), __str__/__repr__ (str(), repr(),
print(), f-strings). Each class runs as plain Python (the undecorated class) and
compiled, from Python and from @njit code; errors where Python raises TypeError."""

import numpy as np
import pytest

from mahou import _core, float64, int64, njit, types
from mahou.errors import TypingError, UnsupportedError
from mahou.experimental import jitclass


class PyKey:
    def __init__(self, x, tag):
        self.x = x
        self.tag = tag

    def __hash__(self):
        return self.x % 10

    def __eq__(self, other):
        return (self.x - other.x) % 20 == 0

    def __str__(self):
        return "Key(" + str(self.x) + ", " + self.tag + ")"

    def __repr__(self):
        return "PyKey<" + self.tag + ">"


Key = jitclass([("x", int64), ("tag", types.unicode_type)])(PyKey)


class PyNum:
    def __init__(self, v):
        self.v = v

    def __int__(self):
        return int(self.v) + 1

    def __float__(self):
        return self.v * 2.0

    def __complex__(self):
        return complex(self.v, -1.0)

    def __len__(self):
        return 3 if self.v > 0 else 0


Num = jitclass([("v", float64)])(PyNum)


class PyIndex:
    def __init__(self, i):
        self.i = i

    def __index__(self):
        return self.i


Index = jitclass([("i", int64)])(PyIndex)


class PyMinusOne:
    def __init__(self):
        pass

    def __hash__(self):
        return -1


MinusOne = jitclass([])(PyMinusOne)


def hash_of(o):
    return hash(o)


def hash_pair(o, n):
    return hash((o, n, (n, o)))


def eq(a, b):
    return a == b, a != b


def conversions(o):
    return int(o), float(o), complex(o), bool(o)


def index_conversions(o):
    return int(o), float(o), complex(o)


def text(o):
    return str(o), repr(o), f"<{o}>"


@pytest.mark.parametrize("x", [0, 7, 13, -4, 2**40 + 3])
def test_hash_and_eq(x):
    p, c = PyKey(x, "a"), Key(x, "a")
    assert njit(hash_of)(c) == hash_of(p) == hash(c)
    assert njit(hash_pair)(c, x) == hash_pair(p, x)
    for y in [x, x + 20, x + 1, x - 40]:
        assert njit(eq)(c, Key(y, "b")) == eq(p, PyKey(y, "b")) == eq(c, Key(y, "b"))


def test_hash_minus_one_becomes_minus_two():
    assert njit(hash_of)(MinusOne()) == hash(PyMinusOne()) == hash(MinusOne()) == -2


@pytest.mark.parametrize("v", [0.0, 2.5, -3.75, 1e10])
def test_numeric_conversions(v):
    p, c = PyNum(v), Num(v)
    assert njit(conversions)(c) == conversions(p) == conversions(c)


@pytest.mark.parametrize("i", [0, 5, -9])
def test_index_fallbacks(i):
    p, c = PyIndex(i), Index(i)
    r = njit(index_conversions)(c)
    assert r == index_conversions(p) == index_conversions(c)
    assert [type(x) for x in r] == [int, float, complex]


def test_missing_conversions_are_typing_errors():
    def as_float(o):
        return float(o)

    def as_int(o):
        return int(o)

    with pytest.raises(TypeError):
        as_float(PyKey(1, "a"))
    with pytest.raises(TypingError, match="float"):
        njit(as_float)(Key(1, "a"))
    with pytest.raises(TypingError, match="int"):
        njit(as_int)(Key(1, "a"))


def test_wrong_result_type_is_a_typing_error():
    class PyBad:
        def __init__(self):
            pass

        def __float__(self):
            return 1

        def __str__(self):
            return 5

    Bad = jitclass([])(PyBad)

    def as_float(o):
        return float(o)

    def as_str(o):
        return str(o)

    with pytest.raises(TypeError):
        as_float(PyBad())
    with pytest.raises(TypingError, match="non-float"):
        njit(as_float)(Bad())
    with pytest.raises(TypingError, match="non-string"):
        njit(as_str)(Bad())


@pytest.mark.parametrize("x,tag", [(1, "a"), (-20, "\u00e9t\u00e9"), (0, "")])
def test_str_repr_and_fstrings(x, tag):
    p, c = PyKey(x, tag), Key(x, tag)
    expected = (str(p), "PyKey<" + tag + ">", f"<{p}>")
    assert njit(text)(c) == expected
    assert (str(c), repr(c)) == expected[:2]


def test_print_uses_str(capfd):
    @njit
    def show(o):
        print(o)
        print("key:", o, 3)

    show(Key(4, "z"))
    out = capfd.readouterr().out
    assert out == "Key(4, z)\nkey: Key(4, z) 3\n"


def test_str_without_method_refused():
    def as_str(o):
        return str(o)

    with pytest.raises(UnsupportedError, match="__str__"):
        njit(as_str)(Index(1))


def test_hash_without_method_refused():
    with pytest.raises(TypingError, match="__hash__"):
        njit(hash_of)(Index(1))

    class PyEqOnly:
        def __init__(self):
            pass

        def __eq__(self, other):
            return True

    EqOnly = jitclass([])(PyEqOnly)
    with pytest.raises(TypeError):
        hash(PyEqOnly())
    with pytest.raises(TypeError):
        hash(EqOnly())
    with pytest.raises(TypingError, match="unhashable"):
        njit(hash_of)(EqOnly())


def test_dunders_in_a_loop_do_not_leak():
    @njit
    def work(n):
        acc = 0
        s = ""
        for i in range(n):
            k = Key(i, "t")
            acc ^= hash(k) ^ hash((k, i)) ^ int(Num(i * 0.5))
            s = str(k) + f"{k}"
        return acc, s

    work(3)
    before = _core.live_allocations()
    r = work(200)
    assert _core.live_allocations() == before
    expected = 0
    for i in range(200):
        expected ^= hash_of(PyKey(i, "t")) ^ hash_pair_plain(PyKey(i, "t"), i) ^ int(PyNum(i * 0.5))
    assert r == (expected, "Key(199, t)Key(199, t)")


def hash_pair_plain(o, i):
    return hash((o, i))
