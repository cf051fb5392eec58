"""@jitclass instances as dict keys and set items: hashed by the class's compiled
__hash__ and compared by its __eq__ (identity without one) from the table's probe loop,
as in Numba. Each compiled function is compared with the same function run in Python
on the same classes undecorated; the runtime's allocation counter is checked after
loops over them; tables cross into Python (typed.Dict, set) and back."""

import gc
import types

import numpy as np
import pytest

import mahou
from mahou import float64, int32, int64, njit, prange, typed
from mahou.errors import TypingError, UnsupportedError
from mahou.experimental import jitclass


class PointPy:
    def __init__(self, x, y, tag=0):
        self.x = x
        self.y = y
        self.tag = tag  # not part of equality: shows which key object a table kept

    def __hash__(self):
        return hash((self.x, self.y))

    def __eq__(self, other):
        return self.x == other.x and self.y == other.y


class CollidingPy:
    """Every hash is one of three, so probes compare many keys."""

    def __init__(self, k):
        self.k = k

    def __hash__(self):
        return self.k % 3

    def __eq__(self, other):
        return self.k == other.k


class MixedPy:
    def __init__(self, i, s, f, b):
        self.i = i
        self.s = s
        self.f = f
        self.b = b

    def __hash__(self):
        return hash((self.i, self.s, self.f, self.b))

    def __eq__(self, other):
        return self.i == other.i and self.s == other.s and self.f == other.f and self.b == other.b


class IdentityPy:
    """__hash__ without __eq__: equal only to itself, as in Python."""

    def __init__(self, v):
        self.v = v

    def __hash__(self):
        return self.v


class OnlyEqPy:
    """__eq__ without __hash__: unhashable, as in Python."""

    def __init__(self, v):
        self.v = v

    def __eq__(self, other):
        return self.v == other.v


class RaisingEqPy:
    def __init__(self, v):
        self.v = v

    def __hash__(self):
        return 7

    def __eq__(self, other):
        return 1 // (self.v - other.v + 1) == 1


Point = jitclass([("x", int64), ("y", float64), ("tag", int64)])(PointPy)
Colliding = jitclass([("k", int64)])(CollidingPy)
Mixed = jitclass([("i", int32), ("s", mahou.types.Type("unicode_type")), ("f", float64), ("b", mahou.boolean)])(MixedPy)
Identity = jitclass([("v", int64)])(IdentityPy)
RaisingEq = jitclass([("v", int64)])(RaisingEqPy)
OnlyEq = jitclass([("v", int64)])(OnlyEqPy)

PLAIN = {"Point": PointPy, "Colliding": CollidingPy, "Mixed": MixedPy, "Identity": IdentityPy,
         "RaisingEq": RaisingEqPy}


def interpreted(fn):
    """fn as plain Python over the undecorated classes."""
    return types.FunctionType(fn.__code__, {**fn.__globals__, **PLAIN}, fn.__name__, fn.__defaults__)


def outcome(fn, *args):
    try:
        return fn(*args)
    except Exception as e:  # compared by type
        return type(e)


def check(fn, *args):
    expected = outcome(interpreted(fn), *args)
    got = outcome(njit(fn), *args)
    assert got == expected, (fn.__name__, args)
    return got


def live():
    gc.collect()
    return mahou._core.live_allocations()


# ---------------------------------------------------------------- dicts


def dict_basics(n):
    d = {}
    for i in range(n):
        d[Point(i, 0.5 * i, i)] = i * 10
    out = [len(d), d[Point(2, 1.0)], Point(3, 1.5) in d, Point(3, 2.0) in d, Point(-1, 0.0) not in d]
    d[Point(2, 1.0, 99)] = -1  # replaces the value; the first key object stays
    out.append(d[Point(2, 1.0)])
    out.append(d.get(Point(4, 2.0), -5))
    out.append(d.get(Point(40, 2.0), -5))
    out.append(d.setdefault(Point(5, 2.5), 7))
    out.append(d.setdefault(Point(50, 2.5), 7))
    out.append(d.pop(Point(1, 0.5)))
    out.append(d.pop(Point(1, 0.5), -9))
    del d[Point(0, 0.0)]
    out.append(len(d))
    for k in d:
        out.append(k.x * 1000 + k.tag)
    for k, v in d.items():
        out.append(v)
    return out


def test_dict_operations_match_python():
    for n in (0, 3, 6, 30):  # below 6, a KeyError on both sides
        check(dict_basics, n)


def missing_key(n):
    d = {Point(i, 1.0): i for i in range(n)}
    return d[Point(n, 1.0)]


def delete_missing(n):
    d = {Point(i, 1.0): i for i in range(n)}
    del d[Point(n + 1, 1.0)]
    return len(d)


def pop_missing(n):
    d = {Point(i, 1.0): i for i in range(n)}
    return d.pop(Point(-1, 1.0))


def test_missing_keys_raise_key_error():
    for fn in (missing_key, delete_missing, pop_missing):
        assert check(fn, 4) is KeyError


def growth(n):
    # Past several resizes, with deletions between (deleted slots on probe sequences).
    d = {}
    for i in range(n):
        d[Colliding(i)] = i
        if i % 4 == 3:
            del d[Colliding(i - 2)]
    t = 0
    for i in range(n):
        if Colliding(i) in d:
            t += d[Colliding(i)]
    return len(d), t, [k.k for k in d][:20]


def test_growth_past_resizes_with_colliding_hashes():
    for n in (7, 100, 1000):
        check(growth, n)


def mixed_fields(n):
    d = {}
    for i in range(n):
        d[Mixed(i % 5, "k" + str(i % 3), 0.25 * (i % 4), i % 2 == 0)] = i
    return len(d), d[Mixed(1, "k1", 0.25, False)], Mixed(0, "k0", 0.0, True) in d, Mixed(0, "k0", 0.0, False) in d


def test_a_class_with_fields_of_several_types():
    check(mixed_fields, 60)


def identity_keys(n):
    ks = [Identity(i % 2) for i in range(n)]
    d = {}
    for k in ks:
        d[k] = k.v
    return len(d), ks[0] in d, Identity(0) in d, d[ks[1]]


def test_hash_without_eq_compares_identity():
    check(identity_keys, 5)


def eq_raises(v):
    d = {RaisingEq(0): 1}
    return RaisingEq(v) in d


def test_an_exception_in_eq_propagates():
    assert check(eq_raises, 0) is True
    assert check(eq_raises, -1) is False
    assert check(eq_raises, 1) is ZeroDivisionError  # the stored key's __eq__ runs, as in Python


# ---------------------------------------------------------------- sets


def set_basics(n):
    s = set()
    for i in range(n):
        s.add(Point(i % 7, 1.0, i))
    first = (len(s), Point(3, 1.0) in s, Point(3, 2.0) in s)
    s.discard(Point(3, 1.0))
    s.discard(Point(30, 1.0))
    s.remove(Point(4, 1.0))
    kept = sorted([p.x * 100 + p.tag for p in s])  # the first object of each key stays
    n = len(s)
    p = s.pop()
    return first, n, kept, len(s), p in s


def test_set_operations_match_python():
    check(set_basics, 20)


def set_remove_missing(n):
    s = {Point(i, 0.0) for i in range(n)}
    s.remove(Point(n, 0.0))
    return len(s)


def test_set_remove_missing_raises_key_error():
    assert check(set_remove_missing, 3) is KeyError


def popitem_and_copy(n):
    d = {Colliding(i): i for i in range(n)}
    c = d.copy()
    k, v = d.popitem()
    c[Colliding(n)] = n
    s = {Colliding(i) for i in range(n)}
    s2 = s.copy()
    s2.add(Colliding(-1))
    return k.k, v, len(d), len(c), Colliding(n - 1) in d, Colliding(n - 1) in c, c[Colliding(3)], len(s), len(s2)


def test_popitem_and_copy():
    check(popitem_and_copy, 40)


def augmented_and_conversions(n):
    d = {}
    for i in range(n):
        k = Colliding(i % 4)
        if k in d:
            d[k] += i
        else:
            d[k] = i
    d[Colliding(1)] *= 3
    ps = [Colliding(i % 3) for i in range(n)]
    s = set(ps)
    e = dict(zip(ps, range(n)))
    f = dict(e)
    return [v for v in d.values()], len(s), sorted([k.k for k in s]), [v for v in f.values()]


def test_augmented_assignment_and_conversions():
    check(augmented_and_conversions, 10)


def lookups_in_prange(n):
    d = {Colliding(i): i for i in range(10)}
    out = np.zeros(n)
    for i in prange(n):
        out[i] = d.get(Colliding(i % 12), -1)
    return out.sum()


def test_lookups_in_a_prange_loop():
    assert njit(parallel=True)(lookups_in_prange)(40) == interpreted(lookups_in_prange)(40)


# ---------------------------------------------------------------- errors


def test_eq_without_hash_is_unhashable():
    @njit
    def f():
        d = {OnlyEq(1): 1}
        return len(d)

    with pytest.raises(TypingError, match="unhashable type: 'OnlyEqPy'"):
        f()


def test_a_class_without_hash_is_unhashable():
    @jitclass([("v", int64)])
    class Plain:
        def __init__(self, v):
            self.v = v

    @njit
    def f():
        s = set()
        s.add(Plain(1))
        return len(s)

    with pytest.raises(TypingError, match="unhashable type: 'Plain'"):
        f()


def set_algebra(n, m):
    a = {Colliding(i) for i in range(n)}
    b = {Colliding(i) for i in range(2, m)}
    u, i, d, x = a | b, a & b, a - b, a ^ b
    c = a.copy()
    c |= b
    e = a.copy()
    e.update(b)
    return (sorted([k.k for k in u]), sorted([k.k for k in i]), sorted([k.k for k in d]), sorted([k.k for k in x]),
            len(c), len(e), a <= u, u <= a, i <= a, a == b, c == u, a.issubset(b), a.isdisjoint(b))


def test_set_algebra_between_tables_of_instances():
    for n, m in ((0, 0), (5, 5), (6, 9), (30, 12), (3, 40)):
        check(set_algebra, n, m)


def dict_update(n, m):
    d = {Point(i, 1.0, i): i for i in range(n)}
    e = {Point(i, 1.0, 100 + i): -i for i in range(2, m)}
    d.update(e)
    return len(d), [k.tag for k in d], [v for v in d.values()]


def test_dict_update_between_tables_of_instances():
    for n, m in ((0, 5), (6, 9), (20, 3)):
        check(dict_update, n, m)


def set_algebra_raising(v):
    a = {RaisingEq(0), RaisingEq(5)}
    b = {RaisingEq(v)}
    return len(a | b)


def test_an_exception_in_eq_during_set_algebra_propagates_and_frees():
    assert check(set_algebra_raising, -1) == 3
    assert check(set_algebra_raising, 1) is ZeroDivisionError
    f = njit(set_algebra_raising)
    before = live()
    for v in (1, -1, 1):
        outcome(f, v)
    assert live() == before


def test_dict_equality_is_refused():
    @njit
    def f(n):
        a = {Point(i, 0.0): i for i in range(n)}
        return a == {Point(i, 0.0): i for i in range(n)}

    with pytest.raises(UnsupportedError, match="not supported"):
        f(3)


# ---------------------------------------------------------------- the boundary


@njit
def make_dict(n):
    return {Point(i, 2.0): i for i in range(n)}


@njit
def make_set(n):
    return {Point(i % 4, 2.0) for i in range(n)}


@njit
def lookup(d, x):
    return d.get(Point(x, 2.0), -1)


@njit
def set_has(s, x):
    return Point(x, 2.0) in s


def test_a_dict_returned_to_python_and_back():
    d = make_dict(10)
    assert isinstance(d, typed.Dict)
    assert len(d) == 10
    assert Point(3, 2.0) in d and Point(3, 2.5) not in d
    assert d[Point(4, 2.0)] == 4
    d[Point(4, 2.0)] = 40
    d[Point(11, 2.0)] = 11
    del d[Point(0, 2.0)]
    with pytest.raises(KeyError):
        d[Point(0, 2.0)]
    with pytest.raises(KeyError):
        del d[Point(0, 2.0)]
    assert d.get(Point(5, 2.0)) == 5 and d.pop(Point(5, 2.0)) == 5 and Point(5, 2.0) not in d
    assert [k.x for k in d] == [1, 2, 3, 4, 6, 7, 8, 9, 11]
    assert lookup(d, 4) == 40 and lookup(d, 11) == 11 and lookup(d, 0) == -1 and lookup(d, 5) == -1


def test_a_set_returned_to_python_and_passed_back():
    s = make_set(10)
    assert isinstance(s, set) and len(s) == 4
    assert Point(2, 2.0) in s
    assert set_has(s, 3) and not set_has(s, 4)
    assert set_has({Point(7, 2.0), Point(7, 2.0, 1)}, 7)


@njit
def add_point(d, x):
    d[Point(x, 2.0)] = x
    return len(d)


def test_a_typed_dict_made_in_python():
    d = typed.Dict.empty(key_type=Point.class_type.instance_type, value_type=int64)
    d[Point(1, 2.0)] = 5
    d[Point(1, 2.0, 3)] = 6  # the value replaced, the first key kept
    assert len(d) == 1 and d[Point(1, 2.0)] == 6 and [k.tag for k in d] == [0]
    assert lookup(d, 1) == 6
    e = typed.Dict()
    e[Point(2, 2.0)] = 7
    assert add_point(e, 9) == 2 and add_point(e, 9) == 2 and e[Point(9, 2.0)] == 9 and lookup(e, 2) == 7


def test_a_typed_dict_of_an_unhashable_class_is_refused():
    d = typed.Dict()
    with pytest.raises(TypeError, match="unhashable"):
        d[OnlyEq(1)] = 1
    with pytest.raises(TypeError, match="unhashable"):
        typed.Dict.empty(key_type=OnlyEq.class_type.instance_type, value_type=int64)


# ---------------------------------------------------------------- leaks


def churn(n):
    t = 0
    for r in range(n):
        d = {}
        s = set()
        for i in range(20):
            d[Mixed(i, "s" + str(i), 1.0, True)] = "v" + str(i)
            s.add(Colliding(i))
        d[Mixed(3, "s3", 1.0, True)] = "again"
        t += len(d.pop(Mixed(4, "s4", 1.0, True)))
        del d[Mixed(5, "s5", 1.0, True)]
        t += len(d.setdefault(Mixed(50, "x", 1.0, True), "new"))
        s.discard(Colliding(3))
        t += len(d) + len(s) + len(d.get(Mixed(3, "s3", 1.0, True), ""))
        k, v = d.popitem()
        s.pop()  # which item is not specified
        t += len(v) + len(s)
    return t


def missing_in_loop(n):
    d = {Point(i, 1.0): i for i in range(5)}
    t = 0
    for i in range(n):
        try:
            t += d[Point(i, 1.0)]
        except KeyError:
            t -= 1
    return t


def test_no_leaks():
    check(churn, 2)
    check(missing_in_loop, 10)
    f, g, h, u = njit(churn), njit(missing_in_loop), njit(set_algebra), njit(dict_update)
    h(3, 4)
    u(3, 4)
    before = live()
    for _ in range(5):
        f(10)
        g(20)
        h(10, 15)
        u(10, 15)
    d = make_dict(50)
    for i in range(50):
        d[Point(i, 2.0)] = -i
        lookup(d, i)
    del d
    s = make_set(30)
    set_has(s, 1)
    del s
    assert live() == before
