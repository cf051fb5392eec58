"""getattr(x, 'name'[, default]) and hasattr(x, 'name') with a name known at compile time
(numbers, arrays, lists, named tuples, jitclass instances: fields, properties, methods),
and type(x) called to convert a number or construct a jitclass instance; each compiled
and run by CPython on the same inputs."""

import copy
from collections import namedtuple

import numpy as np
import pytest

import mahou
from mahou import njit
from mahou.errors import TypingError, UnsupportedError
from mahou.experimental import jitclass

Pair = namedtuple("Pair", "x y")


@jitclass([("a", mahou.int64), ("b", mahou.float64)])
class Counter:
    def __init__(self, a):
        self.a = a
        self.b = -0.5

    def bump(self):
        return self.a + 1

    @property
    def twice(self):
        return self.a * 2


def same(f, *args):
    try:
        want = f(*copy.deepcopy(args))
    except Exception as e:
        with pytest.raises(type(e)):
            njit(f)(*args)
        return
    got = njit(f)(*args)
    assert got == want and type(got) is type(want)


def of_numbers(x):
    return (getattr(x, "real") + 1, getattr(x, "imag"), hasattr(x, "real"), hasattr(x, "nope"),
            getattr(x, "nope", -1), hasattr(x, "conjugate"))


@pytest.mark.parametrize("x", [1.5, -2, 0, True, 3 - 4j, -0.0], ids=repr)
def test_numbers(x):
    same(of_numbers, x)


def of_arrays(a):
    return (getattr(a, "shape"), getattr(a, "ndim"), getattr(a, "size", -1), hasattr(a, "T"), hasattr(a, "sum"),
            hasattr(a, "nope"), getattr(a, "nope", 0.5))


@pytest.mark.parametrize("a", [np.zeros((2, 3)), np.arange(5)[::-2], np.zeros(0, np.int32), np.ones((2, 2, 1))[:, 1:]],
                         ids=lambda a: str(a.shape))
def test_arrays(a):
    same(of_arrays, a)


def of_named_tuples(p):
    return getattr(p, "x"), getattr(p, "z", 0), hasattr(p, "y"), hasattr(p, "z"), hasattr(p, "index")


@pytest.mark.parametrize("p", [Pair(1, 2), Pair(-1.5, 0.5)], ids=repr)
def test_named_tuples(p):
    same(of_named_tuples, p)


def of_lists(xs):
    return hasattr(xs, "append"), hasattr(xs, "nope"), len(xs)


def test_lists():
    same(of_lists, [1, 2])
    same(of_lists, [0.5])


def of_instances(n):
    c = Counter(n)
    return (getattr(c, "a"), getattr(c, "b"), getattr(c, "twice"), getattr(c, "zz", 7), hasattr(c, "a"),
            hasattr(c, "bump"), hasattr(c, "twice"), hasattr(c, "zz"))


@pytest.mark.parametrize("n", [3, -4, 0])
def test_jitclass_instances(n):
    assert njit(of_instances)(n) == (n, -0.5, 2 * n, 7, True, True, True, False)


def test_getattr_of_an_expression_evaluates_it_once():
    def f(xs):
        v = getattr(xs.pop(), "real")
        h = hasattr(xs.pop(), "imag")
        return v, h, len(xs)
    same(f, [1.5, 2.5, 3.5])


def convert(x):
    return type(x)(3), type(x)(-2.75), type(x)(True)


@pytest.mark.parametrize("x", [1.5, 2, True, -7, 0.0, 2j], ids=repr)
def test_type_converts(x):
    if isinstance(x, complex):
        assert njit(convert)(x) == convert(x)
    else:
        same(convert, x)


@pytest.mark.parametrize("x", [np.float32(2.5), np.int8(3), np.int16(-4)], ids=repr)
def test_type_of_numpy_scalars(x):
    got = njit(convert)(x)
    want = convert(x)
    assert got == tuple(v.item() for v in want)


def test_type_of_an_instance_constructs():
    def f(n):
        c = Counter(n)
        d = type(c)(n + 1)
        return d.a, d.bump()
    assert njit(f)(4) == (5, 6)


def test_refusals():
    def runtime_name(x, s):
        return getattr(x, s)
    with pytest.raises(TypingError, match="known at compile time"):
        njit(runtime_name)(1.5, "real")

    def missing(x):
        return getattr(x, "nope")
    with pytest.raises(TypingError, match="no attribute 'nope'"):
        njit(missing)(1.5)

    def type_of_string(s):
        return type(s)
    with pytest.raises(UnsupportedError, match="type"):
        njit(type_of_string)("a")
