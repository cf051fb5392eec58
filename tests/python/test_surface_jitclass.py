"""Numba's jitclass page, item by item (rows of docs/numba_surface.md): the spec forms, the
supported operations and every documented dunder method. Each class also runs as plain
Python (the undecorated class): a function using it is run compiled with the jitclass
and as CPython with the plain class, and the results compared."""

import operator
import types as pytypes
from collections import OrderedDict

import numpy as np
import pytest

from mahou import float64, int64, njit, typed, types
from mahou.experimental import jitclass


class PyV:
    def __init__(self, x):
        self.x = x

    def __abs__(self): return abs(self.x)
    def __neg__(self): return -self.x
    def __pos__(self): return self.x + 0.5
    def __invert__(self): return -self.x - 1.0
    def __bool__(self): return self.x != 0.0
    def __eq__(self, o): return self.x == o.x
    def __ne__(self, o): return self.x != o.x
    def __lt__(self, o): return self.x < o.x
    def __le__(self, o): return self.x <= o.x
    def __gt__(self, o): return self.x > o.x
    def __ge__(self, o): return self.x >= o.x
    def __add__(self, o): return self.x + o.x
    def __sub__(self, o): return self.x - o.x
    def __mul__(self, o): return self.x * o.x
    def __truediv__(self, o): return self.x / o.x
    def __floordiv__(self, o): return self.x // o.x
    def __mod__(self, o): return self.x % o.x
    def __pow__(self, o): return (abs(self.x) + 1.0) ** o.x
    def __matmul__(self, o): return self.x * o.x + 1.0
    def __lshift__(self, o): return self.x * 2.0 + o.x
    def __rshift__(self, o): return self.x / 2.0 + o.x
    def __and__(self, o): return min(self.x, o.x)
    def __or__(self, o): return max(self.x, o.x)
    def __xor__(self, o): return self.x - 2 * o.x
    def __radd__(self, o): return o + self.x
    def __rsub__(self, o): return o - self.x
    def __rmul__(self, o): return o * self.x
    def __rtruediv__(self, o): return o / self.x
    def __rfloordiv__(self, o): return o // self.x
    def __rmod__(self, o): return o % self.x
    def __rpow__(self, o): return (abs(o) + 1.0) ** self.x
    def __rmatmul__(self, o): return o * self.x + 2.0
    def __rlshift__(self, o): return o * 4.0 + self.x
    def __rrshift__(self, o): return o / 4.0 + self.x
    def __rand__(self, o): return min(o, self.x) - 1.0
    def __ror__(self, o): return max(o, self.x) + 1.0
    def __rxor__(self, o): return o - 3 * self.x


class PyW:
    """In-place dunders mutate and return self."""

    def __init__(self, x):
        self.x = x

    def __iadd__(self, o): self.x += o; return self  # noqa: E702
    def __isub__(self, o): self.x -= o; return self  # noqa: E702
    def __imul__(self, o): self.x *= o; return self  # noqa: E702
    def __itruediv__(self, o): self.x /= o; return self  # noqa: E702
    def __ifloordiv__(self, o): self.x //= o; return self  # noqa: E702
    def __imod__(self, o): self.x %= o; return self  # noqa: E702
    def __ipow__(self, o): self.x = (abs(self.x) + 1.0) ** o; return self  # noqa: E702
    def __imatmul__(self, o): self.x = self.x * o + 1.0; return self  # noqa: E702
    def __ilshift__(self, o): self.x = self.x * 2.0 + o; return self  # noqa: E702
    def __irshift__(self, o): self.x = self.x / 2.0 + o; return self  # noqa: E702
    def __iand__(self, o): self.x = min(self.x, o); return self  # noqa: E702
    def __ior__(self, o): self.x = max(self.x, o); return self  # noqa: E702
    def __ixor__(self, o): self.x = self.x - 2 * o; return self  # noqa: E702


V = jitclass([("x", float64)])(PyV)
W = jitclass([("x", float64)])(PyW)

UNARY = {"abs": operator.abs, "neg": operator.neg, "pos": operator.pos, "invert": operator.invert}
BINARY = ["add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "lshift", "rshift", "and", "or",
          "xor"]
COMPARE = ["eq", "ne", "lt", "le", "gt", "ge"]
PAIRS = [(1.5, 2.0), (-3.0, 0.5), (4.0, 4.0), (0.0, -2.5)]

# One function per operator, written with the operator syntax; V and W are the globals swapped for the
# plain classes on the CPython side.
SRC = {
    "abs": "def f(a, b):\n    return abs(V(a))\n",
    "neg": "def f(a, b):\n    return -V(a)\n",
    "pos": "def f(a, b):\n    return +V(a)\n",
    "invert": "def f(a, b):\n    return ~V(a)\n",
    "bool": "def f(a, b):\n    return bool(V(a)), (1 if V(b) else 2)\n",
}
_SYM = {"add": "+", "sub": "-", "mul": "*", "truediv": "/", "floordiv": "//", "mod": "%", "pow": "**",
        "matmul": "@", "lshift": "<<", "rshift": ">>", "and": "&", "or": "|", "xor": "^",
        "eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}
for _n in BINARY:
    SRC[_n] = f"def f(a, b):\n    return V(a) {_SYM[_n]} V(b)\n"
    SRC["r" + _n] = f"def f(a, b):\n    return a {_SYM[_n]} V(b)\n"
    SRC["i" + _n] = f"def f(a, b):\n    w = W(a)\n    w {_SYM[_n]}= b\n    return w.x\n"
for _n in COMPARE:
    SRC[_n] = f"def f(a, b):\n    return V(a) {_SYM[_n]} V(b)\n"


def _compile_pair(name):
    import linecache
    src = SRC[name]
    filename = f"<surface_jitclass_{name}>"
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    code = compile(src, filename, "exec")
    jit_ns = {"V": V, "W": W}
    py_ns = {"V": PyV, "W": PyW}
    exec(code, jit_ns)
    exec(code, py_ns)
    return njit(jit_ns["f"]), py_ns["f"]


def _same(got, expected):
    if isinstance(expected, float) and np.isnan(expected):
        return isinstance(got, float) and np.isnan(got)
    return got == expected and type(got) is type(expected)


@pytest.mark.parametrize("name", sorted(SRC))
def test_dunder(name):
    compiled, plain = _compile_pair(name)
    for a, b in PAIRS:
        try:
            expected = ("value", plain(a, b))
        except ZeroDivisionError:
            expected = ("raise", ZeroDivisionError)
        try:
            got = ("value", compiled(a, b))
        except ZeroDivisionError:
            got = ("raise", ZeroDivisionError)
        if expected[0] == "raise":
            assert got == expected, (name, a, b, got)
        elif isinstance(expected[1], tuple):
            assert got[0] == "value" and all(_same(g, e) for g, e in zip(got[1], expected[1])), (name, a, b, got)
        else:
            assert got[0] == "value" and _same(got[1], expected[1]), (name, a, b, got, expected)


# --- spec forms and supported operations --------------------------------------------------
class PyBag:
    def __init__(self, value, n):
        self.value = value
        self.data = np.zeros(n)

    @property
    def size(self):
        return self.data.size

    @property
    def doubled(self):
        return self.value * 2

    @doubled.setter
    def doubled(self, v):
        self.value = v / 2

    def increment(self, k):
        for i in range(self.data.size):
            self.data[i] += k
        return self.data

    @staticmethod
    def add(a, b):
        return a + b


Bag = jitclass(OrderedDict([("value", float64), ("data", float64[:])]))(PyBag)
BagList = jitclass([("value", float64), ("data", float64[:])])(PyBag)


class PyAnnotated:
    w: int
    x: float

    def __init__(self, w, x):
        self.w = w
        self.x = x

    def total(self):
        return self.w + self.x


Annotated = jitclass(PyAnnotated)


@njit
def use_bag(b, k):
    b.increment(k)
    b.doubled = b.doubled + 1.0
    return b.value, b.size, b.add(1, 2), b.data.sum()


@njit
def make_bag(v, n):
    b = Bag(v, n)
    b.increment(1.5)
    return b


@pytest.mark.parametrize("cls", [Bag, BagList])
@pytest.mark.parametrize("v,n,k", [(1.0, 3, 2.0), (-2.5, 0, 1.0), (0.0, 5, -1.0)])
def test_spec_forms_attributes_properties_methods(cls, v, n, k):
    got = use_bag(cls(v, n), k)
    plain = PyBag(v, n)
    plain.increment(k)
    plain.doubled = plain.doubled + 1.0
    assert got == (plain.value, plain.size, PyBag.add(1, 2), plain.data.sum())


@pytest.mark.parametrize("v,n", [(1.0, 3), (-4.0, 0)])
def test_construct_in_compiled_code_and_return(v, n):
    b = make_bag(v, n)
    assert b.value == v and list(b.data) == [1.5] * n
    assert Bag.add(2, 3) == 5 and b.add(2.5, 1) == 3.5  # static method on the class and an instance
    b.value = 7.0
    assert b.doubled == 14.0


@pytest.mark.parametrize("w,x", [(1, 2.5), (-3, 0.0)])
def test_fields_from_annotations(w, x):
    a = Annotated(w, x)
    assert a.total() == PyAnnotated(w, x).total()
    assert isinstance(a.w, int) and isinstance(a.x, float)


kv_ty = (types.int64, types.unicode_type)


@jitclass([("d", types.DictType(*kv_ty)), ("l", types.ListType(types.float64))])
class ContainerHolder:
    def __init__(self):
        self.d = typed.Dict.empty(types.int64, types.unicode_type)
        self.l = typed.List.empty_list(types.float64)

    def fill(self, n):
        for i in range(n):
            self.d[i] = str(i)
            self.l.append(i * 0.5)
        return len(self.d), len(self.l)


@pytest.mark.parametrize("n", [0, 1, 4])
def test_typed_container_members(n):
    c = ContainerHolder()
    assert c.fill(n) == (n, n)
    c.d[100] = "x"
    c.l.append(9.0)
    assert dict(c.d) == {**{i: str(i) for i in range(n)}, 100: "x"}
    assert list(c.l) == [i * 0.5 for i in range(n)] + [9.0]


def test_isinstance_in_the_interpreter():
    assert isinstance(Bag(1.0, 2), Bag)
    assert not isinstance(PyBag(1.0, 2), Bag)
