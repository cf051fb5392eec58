"""@jitclass over a class with plain Python bases, as Numba does it: the methods,
properties and static methods of the bases are the jitclass's (a subclass's own win),
the bases' annotations are fields; class attributes other than those, subclassing a
jitclass and a field shadowing a method are refused with Numba's errors."""

import numpy as np
import pytest

from mahou import float64, int64, njit
from mahou.experimental import jitclass


class Penalty:
    """A base class holding the shared logic."""

    def __init__(self, alpha):
        self.alpha = alpha

    def value(self, w):
        s = 0.0
        for x in w:
            s += self.one(x)
        return self.alpha * s

    def one(self, x):
        return x * x

    @property
    def doubled(self):
        return 2 * self.alpha

    @staticmethod
    def name_code():
        return 1


class PyL1(Penalty):
    def one(self, x):  # overrides the base's
        return abs(x)

    @staticmethod
    def name_code():
        return 2


class Middle(Penalty):
    count: int64

    def __init__(self, alpha, count=3):
        self.alpha = alpha
        self.count = count

    def value(self, w):
        return self._sum(w) * self.count

    def _sum(self, w):
        s = 0.0
        for x in w:
            s += self.one(x)
        return self.alpha * s


class PyLeaf(Middle):
    def one(self, x):
        return x - 1.0


L1 = jitclass([("alpha", float64)])(PyL1)
L2 = jitclass([("alpha", float64)])(Penalty)
Leaf = jitclass([("alpha", float64)])(PyLeaf)


@pytest.mark.parametrize("w", [np.array([1.0, -2.0, 3.5]), np.array([]), np.arange(-3.0, 3.0)[::2]])
@pytest.mark.parametrize("alpha", [0.5, -2.0])
def test_methods_from_bases_match_python(w, alpha):
    for jc, py in ((L1, PyL1), (L2, Penalty)):
        c, p = jc(alpha), py(alpha)
        assert c.value(w) == p.value(w)
        assert c.doubled == p.doubled
        assert jc.name_code() == py.name_code()
    c, p = Leaf(alpha, count=2), PyLeaf(alpha, count=2)
    assert c.value(w) == p.value(w)
    assert c.count == 2


def test_compiled_code_sees_the_base_methods():
    @njit
    def total(alpha, w):
        a = L1(alpha)
        b = Leaf(alpha)
        return a.value(w) + b.value(w) + a.doubled

    w = np.array([1.0, -2.0])
    assert total(1.5, w) == PyL1(1.5).value(w) + PyLeaf(1.5).value(w) + PyL1(1.5).doubled


def test_subclassing_a_jitclass_is_refused():
    with pytest.raises(TypeError, match="cannot subclass from a jitclass"):
        class Sub(L1):
            pass


def test_class_members_are_refused():
    class WithConstant:
        LIMIT = 3

        def __init__(self):
            self.x = 1.0

    with pytest.raises(TypeError, match="class members are not yet supported: LIMIT"):
        jitclass([("x", float64)])(WithConstant)

    class Derived(WithConstant):
        pass

    with pytest.raises(TypeError, match="class members are not yet supported: LIMIT"):
        jitclass([("x", float64)])(Derived)


def test_field_shadowing_a_method_is_refused():
    class Shadow:
        def __init__(self):
            self.one = 1.0

    class Sub(Shadow):
        def one(self):
            return 1.0

    with pytest.raises(NameError, match="name shadowing: one"):
        jitclass([("one", float64)])(Sub)


def test_deleter_is_refused():
    class WithDeleter:
        def __init__(self):
            self.x = 1.0

        def _get(self):
            return self.x

        def _del(self):
            pass

        y = property(_get, None, _del)

    with pytest.raises(TypeError, match="deleter is not supported: y"):
        jitclass([("x", float64)])(WithDeleter)
