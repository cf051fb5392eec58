"""Functions compiled from their source text are found by the exact position their code
records (line and column), never by a loose match: several lambdas on one line, nested
lambdas, a class defined twice under one name, lambdas given to vectorize, cfunc and
stencil."""

import numpy as np
import pytest

from mahou import cfunc, float64, njit, stencil, vectorize
from mahou.experimental import jitclass

TABLE = {'a': lambda x: x + 1, 'b': lambda x: x * 100, 'c': lambda x: x - 7}
NESTED = lambda x: (lambda y: y * 7)(x) + 1; AFTER = lambda z: z - 1  # noqa: E702,E731
MULTILINE = (lambda x:
             x +
             (lambda q: q * 3)(x))
WIDE = {'ü': lambda x: x + 5, 'ß': lambda x: x * 5}
FLOATS = {'a': lambda x: x + 1.0, 'b': lambda x: x * 100.0}
STENCILS = {'a': stencil(lambda a: a[0, 1] + a[1, 0]), 'b': stencil(lambda a: a[0, -1] * 2)}


@pytest.mark.parametrize("key", ["a", "b", "c"])
def test_lambdas_on_one_line(key):
    for x in (3, -4, 0):
        assert njit(TABLE[key])(x) == TABLE[key](x)


def test_lambdas_in_a_dict_compiled_out_of_order():
    fs = {k: njit(TABLE[k]) for k in "cba"}
    assert [fs[k](10) for k in "abc"] == [11, 1000, 3]


def test_nested_and_multiline_lambdas():
    assert njit(NESTED)(2) == NESTED(2) == 15
    assert njit(AFTER)(2) == AFTER(2) == 1
    assert njit(MULTILINE)(2) == MULTILINE(2) == 8


def test_lambdas_after_wide_characters():
    # columns are counted in UTF-8 bytes by Python's positions and its ast
    assert njit(WIDE['ß'])(3) == 15
    assert njit(WIDE['ü'])(3) == 8


def test_lambda_in_a_jitted_call():
    @njit
    def apply(fn, x):
        return fn(x)

    assert apply(njit(TABLE['b']), 4) == 400
    assert apply(njit(TABLE['a']), 4) == 5


def test_inner_lambdas_on_one_line():
    @njit
    def inner(x):
        k = lambda a: a - 1; m = lambda a: a * 3  # noqa: E702,E731
        fs = (lambda a: a + 1, lambda a: a * 100)
        return fs[1](x), m(x), k(x), fs[0](x)

    assert inner(2) == (200, 6, 1, 3)


def test_vectorize_and_cfunc_lambdas():
    u = vectorize(['float64(float64)'])(FLOATS['b'])
    assert u(np.array([3.0, -1.0])).tolist() == [300.0, -100.0]
    c = cfunc('float64(float64)')(FLOATS['b'])
    assert c.ctypes(3.0) == 300.0
    c2 = cfunc('float64(float64)')(FLOATS['a'])
    assert c2.ctypes(3.0) == 4.0


def test_stencil_lambdas():
    x = np.arange(16.0).reshape(4, 4)
    want_b = np.zeros_like(x)
    want_b[:, 1:] = x[:, :-1] * 2
    assert np.array_equal(STENCILS['b'](x), want_b)
    want_a = np.zeros_like(x)
    want_a[:-1, :-1] = x[:-1, 1:] + x[1:, :-1]
    assert np.array_equal(STENCILS['a'](x), want_a)


@jitclass([('x', float64)])
class Twice:
    def __init__(self, x):
        self.x = x

    def f(self):
        return self.x + 1


FIRST_TWICE = Twice


@jitclass([('x', float64)])
class Twice:  # noqa: F811 (the same name again, another body)
    def __init__(self, x):
        self.x = x

    def f(self):
        return self.x * 100


def test_class_defined_twice():
    from mahou._source import class_source
    assert FIRST_TWICE(3.0).f() == 4.0
    assert Twice(3.0).f() == 300.0
    assert "self.x * 100" in class_source(Twice.py_class if hasattr(Twice, "py_class") else Twice)
    assert FIRST_TWICE._handle() != Twice._handle()
