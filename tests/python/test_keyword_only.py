"""Keyword-only parameters (def f(x, *, k=1)): called with keywords from Python and from
compiled code, their defaults, *args before them, and CPython's errors for missing,
unexpected and extra arguments."""

import numpy as np
import pytest

from conftest import assert_same, check
from mahou import njit
from mahou.errors import TypingError
from mahou.experimental import jitclass
from mahou.types import float64, int64


def scale(X, *, factor=1, axis=-1):
    out = np.zeros(X.shape[axis])
    for i in range(X.shape[0]):
        for j in range(X.shape[1]):
            out[j if axis != 0 else i] += X[i, j] * factor
    return out


def required(x, *, k):
    return x + k


def after_varargs(*xs, k=10):
    s = k
    for x in xs:
        s += x
    return s


def only_keywords(*, a, b=2.5):
    return a * b


def test_from_python():
    f = njit(scale)
    X = np.arange(12.0).reshape(3, 4)
    for kwargs in ({}, {"factor": 3}, {"axis": 0}, {"factor": -2, "axis": 1}, {"axis": 0, "factor": 0.5}):
        assert_same(f(X, **kwargs), scale(X, **kwargs))
    assert_same(f(X[:, ::2], factor=2), scale(X[:, ::2], factor=2))  # a non-contiguous view
    v = np.arange(10, dtype=np.int32).reshape(5, 2)
    assert_same(f(v, factor=3), scale(v, factor=3))
    assert_same(f(np.empty((0, 3)), factor=3), scale(np.empty((0, 3)), factor=3))
    assert_same(f(X=X, axis=0), scale(X=X, axis=0))


def test_required_and_only_keywords():
    f = njit(required)
    for x, k in ((1, 2), (-3, 4.5), (0.5, -1)):
        assert_same(f(x, k=k), required(x, k=k))
    g = njit(only_keywords)
    assert_same(g(a=2), only_keywords(a=2))
    assert_same(g(b=-1, a=3), only_keywords(b=-1, a=3))


def test_the_same_overload_for_keywords_and_defaults():
    f = njit(required)
    assert f(1, k=2) == 3
    assert f(k=5, x=1) == 6
    assert len(f.overloads) == 1


def test_after_varargs():
    f = njit(after_varargs)

    @njit
    def caller(a, b):
        return f(a, b, k=a) + f(a) + f()

    for a, b in ((1, 2), (-4, 7)):
        assert caller(a, b) == after_varargs(a, b, k=a) + after_varargs(a) + after_varargs()


def test_python_errors_as_cpython():
    f = njit(required)
    for call in (lambda fn: fn(1), lambda fn: fn(1, 2), lambda fn: fn(1, k=2, z=3),
                 lambda fn: fn(1, x=2, k=3), lambda fn: fn(k=1)):
        with pytest.raises(TypeError) as expected:
            call(required)
        with pytest.raises(TypeError) as got:
            call(f)
        assert str(got.value) == str(expected.value)


def test_positional_call_after_a_keyword_call_is_refused():
    f = njit(required)
    assert f(1, k=2) == 3
    with pytest.raises(TypeError, match="takes 1 positional argument but 2 were given"):
        f(1, 2)


def test_from_compiled_code():
    s = njit(scale)
    r = njit(required)

    @njit
    def caller(X, m):
        return s(X, factor=m, axis=0), s(X), r(m, k=1.5)

    X = np.arange(6.0).reshape(2, 3)
    for m in (2, -1):
        assert_same(caller(X, m), (scale(X, factor=m, axis=0), scale(X), required(m, k=1.5)))


def test_compiled_code_errors():
    r = njit(required)

    @njit
    def missing(x):
        return r(x)

    with pytest.raises(TypingError, match="missing required keyword-only argument 'k'"):
        missing(1)

    @njit
    def too_many(x):
        return r(x, 2)

    with pytest.raises(TypingError, match="takes 1 positional argument but 2 were given"):
        too_many(1)


def test_explicit_signature():
    f = njit("float64(float64, float64)")(required)
    assert f(1.0, k=2.0) == 3.0
    with pytest.raises(TypeError, match="missing 1 required keyword-only argument: 'k'"):
        f(1.0)


def test_jitclass_keyword_only_init():
    @jitclass([("a", int64), ("b", float64)])
    class P:
        def __init__(self, a, *, b=0.5):
            self.a = a
            self.b = b

    p = P(3, b=1.5)
    assert (p.a, p.b) == (3, 1.5)
    assert P(2).b == 0.5
    with pytest.raises(TypeError):
        P(1, 2.0)

    @njit
    def make(a):
        return P(a, b=2.0).b + P(a).b

    assert make(1) == 2.5
