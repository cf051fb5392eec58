"""numba.experimental.structref: mutable structures typed by their constructor's
arguments, boxed as the user's proxy class, with methods from @overload_method."""
import gc
import sys

import numpy as np
import pytest

from mahou import njit, typed
from mahou.core import types
from mahou.errors import TypingError
from mahou.experimental import structref
from mahou.extending import overload_method


@structref.register
class PointType(types.StructRef):
    def preprocess_fields(self, fields):
        return tuple((name, types.unliteral(typ)) for name, typ in fields)


class Point(structref.StructRefProxy):
    def __new__(cls, label, coords):
        return structref.StructRefProxy.__new__(cls, label, coords)

    @property
    def label(self):
        return point_label(self)

    @property
    def coords(self):
        return point_coords(self)


@njit
def point_label(p):
    return p.label


@njit
def point_coords(p):
    return p.coords


structref.define_proxy(Point, PointType, ["label", "coords"])


@overload_method(PointType, "norm")
def _point_norm(p):
    def impl(p):
        return np.sqrt((p.coords ** 2).sum())
    return impl


@overload_method(PointType, "scaled")
def _point_scaled(p, k):
    def impl(p, k):
        return Point(p.label, p.coords * k)
    return impl


def test_made_in_python_read_in_compiled_code():
    p = Point("a", np.array([3.0, 4.0]))
    assert type(p).__name__ == "Point" and isinstance(p, Point)
    assert p.label == "a" and p.coords.tolist() == [3.0, 4.0]
    assert njit(lambda q: (q.label, q.coords.sum(), q.norm()))(p) == ("a", 7.0, 5.0)


def test_made_and_changed_in_compiled_code():
    @njit
    def make(n, label):
        p = Point(label, np.zeros(n))
        p.coords[0] = 1.5
        p.label = p.label + "!"
        return p

    p = make(3, "x")
    assert isinstance(p, Point) and p.label == "x!" and p.coords.tolist() == [1.5, 0.0, 0.0]

    @njit
    def bump(p):
        p.coords = p.coords + 1.0  # a field rebound: the caller sees it
        return p.norm()

    assert bump(p) == pytest.approx(np.sqrt(2.5 ** 2 + 2))
    assert p.coords.tolist() == [2.5, 1.0, 1.0]


def test_methods_with_arguments_and_structures_returned():
    p = Point("v", np.array([1.0, -2.0]))
    q = njit(lambda p, k: p.scaled(k))(p, 3.0)
    assert isinstance(q, Point) and q.label == "v" and q.coords.tolist() == [3.0, -6.0]
    assert p.coords.tolist() == [1.0, -2.0]


def test_each_set_of_field_types_is_a_type_of_its_own():
    f = njit(lambda p: p.coords[0] * 2)
    assert f(Point("i", np.array([3], dtype=np.int32))) == 6
    assert f(Point("f", np.array([1.25]))) == 2.5
    assert f(Point(7, np.array([2.0 + 1j]))) == 4.0 + 2j  # an int label: another type
    assert len(f.signatures) == 3


def test_structures_in_containers_and_identity():
    @njit
    def collect(n):
        out = typed.List()
        for i in range(n):
            out.append(Point(str(i), np.full(2, float(i))))
        return out

    items = collect(3)
    assert [p.label for p in items] == ["0", "1", "2"]
    assert [p.coords.tolist() for p in items] == [[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]]

    @njit
    def alias(p):
        q = p
        q.label = "changed"
        return p is q

    p = Point("orig", np.zeros(1))
    assert alias(p) is True and p.label == "changed"


def test_references_are_counted():
    a = np.arange(4.0)
    before = sys.getrefcount(a)
    p = Point("r", a)
    assert sys.getrefcount(a) == before + 1
    del p
    gc.collect()
    assert sys.getrefcount(a) == before


def test_wrong_constructor_arguments():
    with pytest.raises(TypeError):
        Point("only one")  # the proxy's own __new__ takes two
    with pytest.raises(TypingError, match="Point"):
        njit(lambda: Point("a", np.zeros(2), 3))()
    with pytest.raises(TypingError, match="no field|no attribute"):
        njit(lambda p: p.missing)(Point("a", np.zeros(2)))


def test_a_proxy_without_a_constructor_is_refused():
    @structref.register
    class BareType(types.StructRef):
        pass

    class Bare(structref.StructRefProxy):
        pass

    structref.define_boxing(BareType, Bare)
    with pytest.raises(TypeError, match="define_proxy"):
        Bare(1)
    with pytest.raises(TypeError, match="StructRef"):
        structref.register(int)
