"""@jit(forceobj=True), object mode: the function runs as Python runs it (mahou has no
object-mode compiler; Numba's object mode calls the Python C API, with the same results),
records the argument types it saw, and cannot be called from compiled code."""

import pickle
from fractions import Fraction

import numpy as np
import pytest

import mahou
from mahou import errors, jit, njit, types


class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y


def describe(values, sep):
    # Python objects throughout: a class instance, Fractions, str.format, a mixed dict
    seen = {}
    for v in values:
        seen.setdefault(type(v).__name__, []).append(v)
    p = Point(len(values), sum(Fraction(1, k + 1) for k in range(len(values))))
    return sep.join(f"{k}={len(v)}" for k, v in sorted(seen.items())) + f"|{p.x}:{p.y}"


@pytest.mark.parametrize("values", [[], [1, "a", 2.5, None, 3], [(1, 2), [3], {4: 5}]])
def test_results_are_pythons(values):
    f = jit(forceobj=True)(describe)
    assert f(values, ";") == describe(values, ";")


def test_numbers_and_arrays_give_pythons_answers_and_record_signatures():
    def scale(a, k):
        out = []
        for x in a:
            out.append(x * k)
        return np.array(out)

    f = jit(forceobj=True)(scale)
    a = np.arange(5.0)
    np.testing.assert_array_equal(f(a, 3), scale(a, 3))
    np.testing.assert_array_equal(f(a[::2], 2.5), scale(a[::2], 2.5))
    assert f.signatures == [(types.typeof(a), types.int64), (types.typeof(a[::2]), types.float64)]
    assert f.nopython_signatures == []
    f("ab", 2)
    assert f.signatures[-1] == (types.unicode_type if hasattr(types, "unicode_type") else types.typeof("ab"),
                                types.int64)
    with pytest.raises(TypeError):
        f(Point(1, 2), 2)  # iterating a Point fails as in Python
    assert f.signatures[-1] == (types.pyobject, types.int64)


def test_exceptions_are_pythons():
    @jit(forceobj=True)
    def div(a, b):
        return {"q": a // b}["q"]

    assert div(7, 2) == 3
    with pytest.raises(ZeroDivisionError):
        div(1, 0)


def test_forms_and_attributes():
    @jit("float64(float64)", forceobj=True)
    def f(x):
        return x / 2

    assert f(3.0) == 1.5
    assert f.__name__ == "f" and f.py_func(4.0) == 2.0
    assert f.targetoptions["forceobj"] is True
    g = jit(forceobj=True, looplift=False)(describe)
    assert g.targetoptions == {"forceobj": True, "looplift": False}
    assert pickle.loads(pickle.dumps(jit(forceobj=True)(describe)))([1], ",") == describe([1], ",")
    with pytest.raises(TypeError, match="unexpected keyword"):
        jit(forceobj=True, bogus=1)


def test_compiled_code_cannot_call_object_mode_functions():
    helper = jit(forceobj=True)(lambda x: x + 1)

    @njit
    def caller(x):
        return helper(x)

    with pytest.raises(errors.UnsupportedError, match="object-mode function") as info:
        caller(1)
    assert "return helper(x)" in str(info.value)
    assert caller.py_func.__name__ == "caller"


def test_methods_bind():
    class C:
        k = 3
        scaled = jit(forceobj=True)(lambda self, x: self.k * x)

    assert C().scaled(2) == 6
