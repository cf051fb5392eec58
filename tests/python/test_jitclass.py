"""@jitclass: the same classes run as plain Python (the undecorated class) and compiled:
fields of every supported type read and written from Python and from compiled code,
methods, properties, static methods, special methods, construction in both places,
recursive structures through deferred_type (a linked list, a binary tree), instances in
typed lists, isinstance, pickling, errors, and no leaked native objects."""

import pickle

import numpy as np
import pytest

import mahou
from mahou import _core, float32, float64, int32, int64, njit, typed
from mahou.errors import TypingError
from mahou.experimental import jitclass


def live():
    return _core.live_allocations()


# ---------------------------------------------------------------- a plain class, compiled


class PyCounter:
    def __init__(self, start, step=1):
        self.count = start
        self.step = step
        self.total = 0.0

    def advance(self, times):
        for _ in range(times):
            self.count += self.step
            self.total += self.count * 0.5
        return self.count

    def scaled(self, factor):
        return self.total * factor


Counter = jitclass([("count", int64), ("step", int64), ("total", float64)])(PyCounter)


@pytest.mark.parametrize("start,step,times", [(0, 1, 5), (-7, 3, 4), (10, -2, 0), (2**40, 5, 3)])
def test_methods_match_python(start, step, times):
    p, c = PyCounter(start, step), Counter(start, step)
    assert c.advance(times) == p.advance(times)
    assert (c.count, c.step, c.total) == (p.count, p.step, p.total)
    assert c.scaled(-1.5) == p.scaled(-1.5)


def test_default_and_keyword_constructor_arguments():
    c = Counter(4)
    assert (c.count, c.step) == (4, 1)
    c = Counter(step=7, start=1)
    assert (c.count, c.step) == (1, 7)
    with pytest.raises(TypeError):
        Counter()


def test_fields_written_from_python_are_seen_by_compiled_code():
    c = Counter(1, 2)
    c.count = 100
    c.step = -1
    assert c.advance(2) == 98
    c.total = 0.25
    assert c.total == 0.25
    c.count = np.int32(5)  # a NumPy integer converts
    assert c.count == 5


def use_counter(c, n):
    a = c.advance(n)
    c.step = c.step * 2
    return a + c.count


def make_counter(start):
    c = Counter(start, 3)
    c.advance(2)
    return c


def test_instances_passed_to_and_returned_from_compiled_functions():
    f = njit(use_counter)
    c, p = Counter(3, 2), PyCounter(3, 2)
    assert f(c, 4) == use_counter(p, 4)
    assert c.step == p.step == 4
    m = njit(make_counter)(10)
    assert isinstance(m, Counter)
    assert (m.count, m.step, m.total) == (16, 3, 6.5 + 8.0)


def test_isinstance_in_python_and_compiled_code():
    c = Counter(1)
    assert isinstance(c, Counter)
    assert not isinstance(PyCounter(1), Counter)
    assert not isinstance(3, Counter)

    @njit
    def check(x):
        return isinstance(x, Counter), isinstance(x, int)

    assert check(c) == (True, False)
    assert check(5) == (False, True)


# ---------------------------------------------------------------- field types

spec_all = [
    ("i8", int64), ("i4", int32), ("f8", float64), ("f4", float32), ("b", mahou.boolean),
    ("z", mahou.complex128), ("arr", float64[:]), ("mat", int64[:, :]), ("name", mahou.types.Type("unicode_type")),
    ("pair", mahou.types.Tuple((int64, float64))),
]


class PyAllFields:
    def __init__(self, i, arr, mat, name):
        self.i8 = i
        self.i4 = i * 2
        self.f8 = i / 4
        self.f4 = i / 8
        self.b = i > 0
        self.z = complex(i, -i)
        self.arr = arr
        self.mat = mat
        self.name = name
        self.pair = (i, i * 1.5)

    def describe(self):
        return self.name + "!" + str(self.i8)

    def checksum(self):
        s = self.i8 + self.i4 + self.f8 + self.f4 + self.z.real - self.z.imag
        if self.b:
            s += 1
        return s + self.arr.sum() + self.mat.sum() + self.pair[0] + self.pair[1]


AllFields = jitclass(spec_all)(PyAllFields)


@pytest.mark.parametrize("i", [0, 3, -5])
def test_every_field_type(i):
    arr = np.linspace(-1, 1, 5)
    mat = np.arange(6).reshape(2, 3)
    p = PyAllFields(i, arr, mat, "héllo")
    c = AllFields(i, arr, mat, "héllo")
    for name in ("i8", "i4", "b", "z", "name", "pair"):
        assert getattr(c, name) == getattr(p, name), name
    assert c.f8 == p.f8
    assert c.f4 == np.float32(p.f4)
    np.testing.assert_array_equal(c.arr, arr)
    np.testing.assert_array_equal(c.mat, mat)
    assert c.describe() == p.describe()
    assert c.checksum() == pytest.approx(p.checksum(), rel=1e-6)


def test_array_fields_share_memory_with_the_caller():
    arr = np.zeros(4)
    c = AllFields(1, arr, np.zeros((2, 2), dtype=np.int64), "a")
    c.arr[2] = 5.0  # the same array (Numba stores the array, not a copy)
    assert arr[2] == 5.0

    @njit
    def bump(o):
        for k in range(o.arr.shape[0]):
            o.arr[k] += k
        o.mat[1, 1] = -3

    bump(c)
    np.testing.assert_array_equal(arr, [0.0, 1.0, 7.0, 3.0])
    assert c.mat[1, 1] == -3


def test_non_contiguous_array_field():
    base = np.arange(20.0)
    view = base[::3]

    @jitclass([("a", float64[:])])
    class Holder:
        def __init__(self, a):
            self.a = a

        def total(self):
            return self.a.sum()

    h = Holder(view)
    assert h.total() == view.sum()
    np.testing.assert_array_equal(h.a, view)


class PyBag:
    def __init__(self, items):
        self.items = items
        self.label = "bag"

    def add(self, x):
        self.items.append(x)
        self.label += "+"
        return len(self.items)

    def total(self):
        s = 0
        for x in self.items:
            s += x
        return s


Bag = jitclass([("items", mahou.types.Type("ListType[int64]")), ("label", mahou.types.Type("unicode_type"))])(PyBag)


def test_typed_list_and_string_fields():
    b = Bag(typed.List.empty_list(int64))
    for x in (3, -4, 10):
        assert b.add(x) == len(b.items)
    assert b.total() == 9
    assert list(b.items) == [3, -4, 10]
    assert b.label == "bag+++"

    @njit
    def fill(bag, n):
        for i in range(n):
            bag.add(i)
        return bag.total()

    assert fill(b, 4) == 9 + 6
    assert len(b.items) == 7


# ---------------------------------------------------------------- properties, static methods, special methods


class PyVec:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    @property
    def norm2(self):
        return self.x * self.x + self.y * self.y

    @property
    def first(self):
        return self.x

    @first.setter
    def first(self, v):
        self.x = v

    @staticmethod
    def dot(ax, ay, bx, by):
        return ax * bx + ay * by

    def __add__(self, other):
        return Vec(self.x + other.x, self.y + other.y)

    def __mul__(self, k):
        return Vec(self.x * k, self.y * k)

    def __eq__(self, other):
        return self.x == other.x and self.y == other.y

    def __lt__(self, other):
        return self.norm2 < other.norm2

    def __len__(self):
        return 2

    def __getitem__(self, i):
        return self.x if i == 0 else self.y

    def __setitem__(self, i, v):
        if i == 0:
            self.x = v
        else:
            self.y = v

    def __contains__(self, v):
        return self.x == v or self.y == v


Vec = jitclass([("x", float64), ("y", float64)])(PyVec)


def vec_ops(ax, ay, bx, by):
    a, b = Vec(ax, ay), Vec(bx, by)
    c = a + b * 2.0
    a.first = c.first - 1.0
    a[1] = 7.5
    return (c.x, c.y, a.x, a.y, a.norm2, a == b, a != b, a < b, len(a), a[0], 7.5 in a, 99.0 in a,
            Vec.dot(ax, ay, bx, by), a.dot(1.0, 2.0, 3.0, 4.0))


@pytest.mark.parametrize("args", [(1.0, 2.0, 3.0, 4.0), (-1.5, 0.0, -1.5, 0.0), (0.0, 0.0, 0.0, 0.0)])
def test_special_methods_properties_and_static_methods_compiled(args):
    assert njit(vec_ops)(*args) == vec_ops(*args)


def test_special_methods_properties_and_static_methods_from_python():
    a, b = Vec(1.0, 2.0), Vec(3.0, -1.0)
    c = a + b
    assert (c.x, c.y) == (4.0, 1.0)
    assert a.norm2 == 5.0
    a.first = 10.0
    assert a.x == 10.0
    assert Vec.dot(1.0, 2.0, 3.0, 4.0) == 11.0
    assert len(a) == 2 and a[1] == 2.0 and 2.0 in a
    a[0] = -1.0
    assert a.x == -1.0
    assert a == Vec(-1.0, 2.0) and not (a == b)
    with pytest.raises(AttributeError):
        a.z = 1.0


def test_identity_and_truth():
    @jitclass([("v", int64)])
    class Box:
        def __init__(self, v):
            self.v = v

    @njit
    def f(n):
        a = Box(n)
        b = a
        c = Box(n)
        t = 0
        if a:
            t += 1
        return a is b, a is c, a is not c, a == c, t

    assert f(3) == (True, False, True, False, 1)


# ---------------------------------------------------------------- recursive structures

node_type = mahou.deferred_type()


@jitclass([("value", int64), ("next", mahou.optional(node_type))])
class LinkedNode:
    def __init__(self, value, next):
        self.value = value
        self.next = next


node_type.define(LinkedNode.class_type.instance_type)


@njit
def build_list(n):
    head = None
    for i in range(n):
        head = LinkedNode(i, head)
    return head


@njit
def list_sum(head):
    s = 0
    node = head
    while node is not None:
        s += node.value
        node = node.next
    return s


def test_linked_list():
    head = build_list(10)
    assert head.value == 9
    assert list_sum(head) == 45
    assert head.next.next.value == 7
    # built in Python, summed in compiled code
    h = None
    for v in (5, -2, 11):
        h = LinkedNode(v, h)
    assert list_sum(h) == 14


def test_linked_list_does_not_leak():
    build_list(3)
    list_sum(build_list(3))
    before = live()
    for _ in range(3):
        head = build_list(200)
        assert list_sum(head) == 199 * 100
        del head
    assert live() == before


tree_type = mahou.deferred_type()


class PyTree:
    def __init__(self, key):
        self.key = key
        self.left = None
        self.right = None
        self.count = 1

    def insert(self, key):
        self.count += 1
        if key < self.key:
            if self.left is None:
                self.left = Tree(key)
            else:
                self.left.insert(key)
        else:
            if self.right is None:
                self.right = Tree(key)
            else:
                self.right.insert(key)

    def depth(self):
        d = 0
        if self.left is not None:
            d = self.left.depth()
        if self.right is not None:
            r = self.right.depth()
            if r > d:
                d = r
        return d + 1


Tree = jitclass([("key", float64), ("left", mahou.optional(tree_type)), ("right", mahou.optional(tree_type)),
                 ("count", int64)])(PyTree)
tree_type.define(Tree.class_type.instance_type)


@njit
def inorder(t, out):
    if t.left is not None:
        inorder(t.left, out)
    out.append(t.key)
    if t.right is not None:
        inorder(t.right, out)


@njit
def tree_sort(keys):
    t = Tree(keys[0])
    for k in keys[1:]:
        t.insert(k)
    out = [0.0]
    out.pop()
    inorder(t, out)
    return out, t.depth(), t.count


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_binary_tree(seed):
    keys = np.random.default_rng(seed).normal(size=50)
    out, depth, count = tree_sort(keys)
    assert out == sorted(keys.tolist())
    assert count == 50
    p = PyTree(keys[0])
    for k in keys[1:]:
        p.insert(k)
    assert depth == p.depth()


def test_binary_tree_from_python_and_no_leaks():
    t = Tree(5.0)
    for k in (3.0, 8.0, 1.0, 4.0):
        t.insert(k)
    assert t.left.right.key == 4.0 and t.right.key == 8.0 and t.right.left is None
    assert t.depth() == 3
    tree_sort(np.arange(3.0))
    before = live()
    del t
    assert live() == before - 5  # the five nodes
    for seed in range(3):
        tree_sort(np.random.default_rng(seed).normal(size=100))
    assert live() == before - 5


# ---------------------------------------------------------------- containers of instances, other classes as fields


@jitclass([("a", Vec.class_type.instance_type), ("b", Vec), ("scale", float64)])
class Segment:
    def __init__(self, a, b):
        self.a = a
        self.b = b
        self.scale = 1.0

    def length2(self):
        dx = self.b.x - self.a.x
        dy = self.b.y - self.a.y
        return (dx * dx + dy * dy) * self.scale


def test_instances_as_fields():
    s = Segment(Vec(0.0, 0.0), Vec(3.0, 4.0))
    assert s.length2() == 25.0
    s.b.x = 0.0  # the same object
    assert s.length2() == 16.0
    s.a = Vec(0.0, 1.0)
    assert s.length2() == 9.0


def test_instances_in_typed_lists():
    @njit
    def total(vs):
        s = 0.0
        for v in vs:
            s += v.norm2
        return s

    @njit
    def make(n):
        return [Vec(float(i), 1.0) for i in range(n)]

    made = make(4)
    assert len(made) == 4 and made[2].x == 2.0 and isinstance(made[0], Vec)
    assert total(made) == sum(i * i + 1.0 for i in range(4))
    vs = typed.List()
    for v in made:
        vs.append(v)
    vs.append(Vec(10.0, 0.0))
    assert vs[4].x == 10.0
    assert total(vs) == sum(i * i + 1.0 for i in range(4)) + 100.0


# ---------------------------------------------------------------- pickling, errors, DISABLE_JIT


def test_pickle_round_trip():
    c = Counter(5, 2)
    c.advance(3)
    d = pickle.loads(pickle.dumps(c))
    assert isinstance(d, Counter)
    assert (d.count, d.step, d.total) == (c.count, c.step, c.total)
    d.advance(1)
    assert d.count == c.count + 2
    head = pickle.loads(pickle.dumps(build_list(4)))
    assert list_sum(head) == 6


def test_spec_mismatch_is_a_typing_error_naming_class_field_and_line():
    @jitclass([("n", int64)])
    class Wrong:
        def __init__(self, n):
            self.n = "text"

    with pytest.raises(TypingError) as info:
        Wrong(1)
    msg = str(info.value)
    assert "'n'" in msg and "Wrong" in msg and "test_jitclass.py" in msg


def test_unknown_attribute_and_wrong_arguments():
    @jitclass([("n", int64)])
    class One:
        def __init__(self, n):
            self.n = n

        def get(self):
            return self.missing

    with pytest.raises(TypingError, match="no attribute 'missing'"):
        One(1).get()
    with pytest.raises(TypeError):
        One(1, 2)
    o = One(1)
    with pytest.raises(TypeError):
        o.n = "x"
    assert o.n == 1
    with pytest.raises(TypeError):
        type(o)()

    @njit
    def bad(x):
        return x.nope

    with pytest.raises(TypingError, match="no attribute 'nope'"):
        bad(o)


def test_wrong_instance_type_argument():
    @njit
    def get_x(v):
        return v.x

    assert get_x(Vec(2.0, 0.0)) == 2.0
    with pytest.raises(TypingError):
        get_x(Counter(1))


def test_disable_jit_gives_the_python_class(monkeypatch):
    monkeypatch.setattr(mahou.config, "DISABLE_JIT", True)

    @jitclass([("v", int64)])
    class Plain:
        def __init__(self, v):
            self.v = v

    assert type(Plain) is type
    assert Plain(3).v == 3


def test_many_instances_do_not_leak():
    Counter(1).advance(1)
    njit(make_counter)(1)
    before = live()
    for i in range(50):
        c = Counter(i)
        c.advance(3)
        m = njit(make_counter)(i)
        assert m.count == i + 6
    del c, m
    s = Segment(Vec(0.0, 0.0), Vec(1.0, 1.0))
    s.a = Vec(2.0, 2.0)
    del s
    assert live() == before


def test_instances_in_dicts():
    @njit
    def build(n):
        d = {}
        for i in range(n):
            d[i] = Vec(i * 1.0, 2.0)
        return d

    @njit
    def total(d):
        s = 0.0
        for k in d:
            s += d[k].x * d[k].y
        return s

    d = build(4)
    assert len(d) == 4 and d[2].x == 2.0 and isinstance(d[3], Vec)
    assert total(d) == 12.0
    td = typed.Dict.empty(int64, Vec.class_type.instance_type)
    td[5] = Vec(1.0, 3.0)
    assert total(td) == 3.0
    before = live()
    del d, td
    assert live() < before


class PyMoney:
    def __init__(self, cents):
        self.cents = cents

    def __neg__(self):
        return Money(-self.cents)

    def __abs__(self):
        return Money(abs(self.cents))

    def __invert__(self):
        return Money(~self.cents)

    def __iadd__(self, other):
        self.cents += other
        return self

    def __add__(self, other):
        return Money(self.cents + other)


Money = jitclass([("cents", int64)])(PyMoney)


def money_ops(c, k):
    m = Money(c)
    a = -m
    b = abs(a)
    i = ~m
    same = m
    m += k       # __iadd__: the same object, changed in place
    n = same + 1  # __add__: a new one
    return a.cents, b.cents, i.cents, m.cents, same.cents, m is same, n.cents, n is same


@pytest.mark.parametrize("c,k", [(5, 3), (-7, 0), (0, -2)])
def test_unary_and_in_place_special_methods(c, k):
    # as the plain class does (__iadd__ returns the same object)
    expected = (-c, abs(c), ~c, c + k, c + k, True, c + k + 1, False)
    assert njit(money_ops)(c, k) == expected
    m = Money(c)
    m += k
    assert m.cents == c + k and (-m).cents == -(c + k) and abs(Money(-4)).cents == 4
