"""@overload_classmethod (mahou.extending): T.name(...) in compiled code for a class T of
mahou.types (types.Array, a subclass of it, a StructRef class), as Numba's."""

import numpy as np
import pytest

from mahou import njit, types
from mahou.errors import TypingError, UnsupportedError
from mahou.experimental import structref
from mahou.extending import overload_classmethod

SEEN = []


class ArrayKind(types.Array):
    """A subclass of the array types: its classmethods are its own (not the base's)."""


@overload_classmethod(ArrayKind, "ramp")
def _ramp(cls, n, step=1):
    SEEN.append(cls)
    if not isinstance(n, types.Integer):
        return None

    def impl(cls, n, step=1):
        return np.arange(n) * step

    return impl


@overload_classmethod(ArrayKind, "ramp")
def _ramp_float(cls, n, step=1):
    if isinstance(n, types.Float):
        def impl(cls, n, step=1):
            return np.arange(int(n)) * step + 0.5
        return impl
    return None


def ramps(n):
    return ArrayKind.ramp(n), ArrayKind.ramp(n, 3), ArrayKind.ramp(n, step=-2)


def py_ramps(n):
    return np.arange(n), np.arange(n) * 3, np.arange(n) * -2


@pytest.mark.parametrize("n", [0, 1, 5, -2])
def test_on_an_array_type_class(n):
    got = njit(ramps)(n)
    for g, w in zip(got, py_ramps(n)):
        assert g.dtype == w.dtype
        np.testing.assert_array_equal(g, w)
    assert all(isinstance(c, types.TypeRef) and c.instance_type is ArrayKind for c in SEEN)


def test_the_first_implementation_that_accepts_is_used():
    f = njit(lambda x: ArrayKind.ramp(x))
    np.testing.assert_array_equal(f(3.7), np.arange(3) + 0.5)
    np.testing.assert_array_equal(f(4), np.arange(4))


def test_refused_types_are_a_typing_error():
    with pytest.raises(TypingError):
        njit(lambda s: ArrayKind.ramp(s))("abc")


def base_has_none(n):
    return types.Array.ramp(n)


def test_the_base_class_does_not_get_the_classmethod():
    with pytest.raises((TypingError, UnsupportedError), match="Array"):
        njit(base_has_none)(3)


@overload_classmethod(types.Array, "filled")
def _filled(cls, n, value):
    def impl(cls, n, value):
        out = np.empty(n, dtype=np.float64)
        out[:] = value
        return out
    return impl


@pytest.mark.parametrize("n, value", [(3, 1.5), (0, 2.0), (2, -7)])
def test_on_types_array(n, value):
    got = njit(lambda n, v: types.Array.filled(n, v))(n, value)
    np.testing.assert_array_equal(got, np.full(n, float(value)))


def test_the_class_is_none_at_run_time():
    class Probe(types.Array):
        pass

    @overload_classmethod(Probe, "what")
    def _what(cls, x):
        def impl(cls, x):
            return cls is None, x + 1
        return impl

    assert njit(lambda x: Probe.what(x))(41) == (True, 42)


@structref.register
class PairType(types.StructRef):
    pass


class Pair(structref.StructRefProxy):
    @property
    def first(self):
        return _first(self)


@njit
def _first(p):
    return p.first


structref.define_proxy(Pair, PairType, ["first", "second"])


@overload_classmethod(PairType, "twice")
def _twice(cls, v):
    def impl(cls, v):
        return Pair(v, v * 2)
    return impl


def make_twice(v):
    p = PairType.twice(v)
    return p.first + p.second


@pytest.mark.parametrize("v", [0, 3, -4, 2.5])
def test_on_a_structref_type_class(v):
    assert njit(make_twice)(v) == v + 2 * v
    p = njit(lambda v: PairType.twice(v))(v)
    assert isinstance(p, Pair) and p.first == v


def test_in_python_it_is_not_an_attribute_of_the_class():
    with pytest.raises(AttributeError):
        ArrayKind.ramp


def test_registration_checks_its_arguments():
    with pytest.raises(TypeError):
        overload_classmethod(types.float64, "x")
    with pytest.raises(TypeError):
        overload_classmethod(ArrayKind, 3)
