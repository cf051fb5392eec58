"""collections.namedtuple and typing.NamedTuple in compiled code: instances passed in
from Python, fields by name, tuple operations, construction from the global class
(positional, keyword and default arguments), results that are instances of the user's
class, _replace, namedtuples in lists and dicts, and the errors. Each function is also
run as plain Python and the results compared, their classes included."""

import collections
import gc
import typing

import numpy as np
import pytest

import mahou
import mahou._core
from mahou import njit
from mahou.errors import TypingError, UnsupportedError

Point = collections.namedtuple("Point", ["x", "y"])
Pair = collections.namedtuple("Pair", "name value")
Opt = collections.namedtuple("Opt", ["a", "b", "c"], defaults=[10, 2.5])
Other = collections.namedtuple("Other", ["x", "y"])


class Particle(typing.NamedTuple):
    pos: float
    vel: float
    mass: float = 1.0


def same_value(got, expected, path="result"):
    """Equal values of the same classes, recursively (a namedtuple is not a plain tuple)."""
    assert type(got) is type(expected), f"{path}: {type(got)} is not {type(expected)}"
    if isinstance(expected, (tuple, list)):
        assert len(got) == len(expected), path
        for i, (g, e) in enumerate(zip(got, expected)):
            same_value(g, e, f"{path}[{i}]")
    elif isinstance(expected, dict) or hasattr(expected, "items"):
        assert list(got.keys()) == list(expected.keys()), path
        for k in expected.keys():
            same_value(got[k], expected[k], f"{path}[{k!r}]")
    elif isinstance(expected, float):
        assert got == expected or (got != got and expected != expected), f"{path}: {got} != {expected}"
    else:
        assert got == expected, f"{path}: {got!r} != {expected!r}"


def check(fn, *args):
    got = njit(fn)(*args)
    expected = fn(*args)
    same_value(got, expected)
    return got


# ---------------------------------------------------------------- from Python


def fields(p):
    return p.x * 10 + p.y


def as_tuple(p):
    a, b = p
    return p[0] + p[1] + p[-1] + len(p) + a * b


def iterate(p):
    t = 0.0
    for v in p:
        t = t * 2 + v
    return t


def index_var(p, i):
    return p[i]


def identity(p):
    return p


def mixed(p):
    return p.name, p.value * 2


def slice_it(p):
    return p[1:]


@pytest.mark.parametrize("p", [Point(1, 2), Point(-5, 7), Point(1.5, -2.25), Point(0, 0)])
def test_fields_and_tuple_operations(p):
    check(fields, p)
    check(as_tuple, p)
    check(iterate, p)
    check(index_var, p, 1)
    check(index_var, p, -2)
    check(slice_it, p)


@pytest.mark.parametrize("p", [Point(1, 2), Point(3.5, 4.5), Pair("a", 3), Particle(1.0, 2.0, 3.0)])
def test_returned_instance_is_the_users_class(p):
    r = check(identity, p)
    assert type(r) is type(p)
    assert r._fields == p._fields


def test_heterogeneous_fields():
    check(mixed, Pair("k", 4))
    check(mixed, Pair("", -1.5))


def test_classes_are_part_of_the_overload_key():
    f = njit(identity)
    assert type(f(Point(1, 2))) is Point
    assert type(f(Other(1, 2))) is Other
    assert type(f((1, 2))) is tuple
    assert len(f.signatures) == 3
    g = njit(fields)
    assert g(Point(1, 2)) == 12
    with pytest.raises(TypingError, match="has no attribute 'x'"):
        g((1, 2))


# ---------------------------------------------------------------- construction


def make_point(a, b):
    return Point(a, b)


def make_keywords(a, b):
    return Point(y=a, x=b)


def make_mixed(a):
    return Point(a, y=2.0)


def make_defaults(a):
    return Opt(a), Opt(a, 3), Opt(a, c=-1.0), Opt(b=a, a=a + 1)


def make_particle(p, v):
    q = Particle(p, v)
    return q, Particle(pos=q.vel, vel=q.pos, mass=2.0)


def make_str(n):
    return Pair("n", n), Pair(str(n), [n, n + 1])


def spread(t):
    return Point(*t)


def build_and_use(n):
    t = 0.0
    for i in range(n):
        p = Point(i, i * 0.5)
        t += p.x * p.y
    return t


def replace(p, v):
    q = p._replace(y=v)
    return q, p._replace(), p._replace(x=q.y, y=p.x)


@pytest.mark.parametrize("a,b", [(1, 2), (1.5, -2.0), (0, 0.25)])
def test_construction(a, b):
    check(make_point, a, b)
    check(make_keywords, a, b)
    check(make_mixed, a)
    check(make_defaults, a)
    check(make_particle, float(a), float(b))
    check(spread, (a, b))


def test_construction_with_strings_and_lists():
    check(make_str, 3)
    check(build_and_use, 10)


@pytest.mark.parametrize("p,v", [(Point(1, 2), 5), (Point(1.5, 2.5), -1.0)])
def test_replace(p, v):
    check(replace, p, v)


ORIGIN = Point(0, 0.5)


def global_constant(p):
    return ORIGIN.x + p.x, ORIGIN, ORIGIN.y * p.y


def kinds(p):
    return isinstance(p, Point), isinstance(p, Other), isinstance(p, tuple), isinstance(p, (int, Point))


def typed_list(n):
    xs = mahou.typed.List()
    for i in range(n):
        xs.append(Point(i, -i))
    return xs[n - 1].y, len(xs)


def test_global_constant_and_isinstance():
    check(global_constant, Point(3, 4))
    check(kinds, Point(1, 2))
    check(kinds, Other(1, 2))
    check(kinds, (1, 2))
    assert njit(typed_list)(4) == (-3, 4)


# ---------------------------------------------------------------- containers, comparisons


def in_list(n):
    xs = [Point(i, i * i) for i in range(n)]
    xs.append(Point(-1, -1))
    t = 0
    for p in xs:
        t += p.x + p.y
    return xs, t


def as_keys(ps):
    d = {}
    for p in ps:
        d[p] = p.x - p.y
    return d[Point(1, 2)], len(d), Point(1, 2) in d


def as_values(n):
    d = {}
    for i in range(n):
        d[i] = Point(i, -i)
    return d[n - 1].y


def compare(p, q):
    return p == q, p != q, p == (1, 2), p < q, p == Point(1, 2)


def sum_list(ps):
    t = 0
    for p in ps:
        t += p.x * p.y
    return t


def test_in_lists_and_dicts():
    check(in_list, 4)
    check(as_keys, [Point(1, 2), Point(3, 4), Point(1, 2)])
    check(as_values, 5)
    check(sum_list, [Point(1, 2), Point(3, 4)])


@pytest.mark.parametrize("p,q", [(Point(1, 2), Point(1, 2)), (Point(1, 2), Point(2, 0)), (Point(3, 1), Point(1, 9))])
def test_comparisons(p, q):
    check(compare, p, q)


def test_list_argument_of_mixed_classes_is_refused():
    f = njit(sum_list)
    with pytest.raises(TypeError):
        f([Point(1, 2), (3, 4)])


# ---------------------------------------------------------------- errors


def too_many(a):
    return Point(a, a, a)


def missing(a):
    return Point(a)


def bad_keyword(a):
    return Point(a, z=a)


def bad_field(p):
    return p.z


def class_as_value(a):
    c = Point
    return a


def bad_replace(p):
    return p._replace(z=1)


@pytest.mark.parametrize("fn,arg,match", [
    (too_many, 1, "takes 2 positional arguments but 3 were given"),
    (missing, 1, "missing required argument 'y'"),
    (bad_keyword, 1, "unexpected keyword argument 'z'"),
    (bad_field, Point(1, 2), "has no attribute 'z'"),
    (bad_replace, Point(1, 2), "unexpected field name 'z'"),
])
def test_errors(fn, arg, match):
    with pytest.raises(TypingError, match=match):
        njit(fn)(arg)


def test_class_as_value_is_refused():
    with pytest.raises(UnsupportedError, match="can only be called"):
        njit(class_as_value)(1)


def test_no_leaks():
    f = njit(in_list)
    g = njit(make_str)
    f(3)
    g(2)
    gc.collect()
    before = mahou._core.live_allocations()
    for i in range(200):
        f(i % 5)
        g(i)
    gc.collect()
    assert mahou._core.live_allocations() == before
