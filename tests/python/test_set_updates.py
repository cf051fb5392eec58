"""Sets: the in-place algebra (difference_update, intersection_update,
symmetric_difference_update, also of a set with itself), iterating a set that is not a
variable (for loops, comprehensions, enumerate, list, sorted), and min/max/sum of sets,
each compiled and run by CPython on the same inputs (results compared as sorted lists)."""

import pytest

from mahou import njit
from mahou.errors import TypingError

from conftest import same_as_python as same


def in_place(a, b):
    s, t, u = set(a), set(a), set(a)
    s.difference_update(set(b))
    t.intersection_update(set(b))
    u.symmetric_difference_update(set(b))
    return sorted(s), sorted(t), sorted(u)


def with_iterables(a, b):
    s, t, u = set(a), set(a), set(a)
    s.difference_update(b)  # a list argument, as Python takes any iterable
    t.intersection_update(b)
    u.symmetric_difference_update(b)
    return sorted(s), sorted(t), sorted(u)


def with_itself(a):
    s, t, u = set(a), set(a), set(a)
    s.difference_update(s)
    t.intersection_update(t)
    u.symmetric_difference_update(u)
    return len(s), sorted(t), len(u)


def alias_seen(a, b):
    s = set(a)
    alias = s
    s.intersection_update(set(b))  # the same set object changes: its other name sees it
    alias.add(100)
    return sorted(s), len(alias)


def returns_none(a):
    s = set(a)
    return s.difference_update({1}) is None


PAIRS = [([1, 2, 3], [2, 5]), ([1], [1]), ([-1, -2, 7], [0]), ([4, 4, 4], [4, 8]), ([1.5, -0.5], [-0.5, 2.5]),
         (["a", "b", "c"], ["c", "x"])]


@pytest.mark.parametrize("a,b", PAIRS, ids=repr)
def test_in_place_algebra(a, b):
    same(in_place, a, b)
    same(with_iterables, a, b)
    same(with_itself, a)
    same(returns_none, a) if a and not isinstance(a[0], str) else None


def test_with_empty_sets():
    def f(n):
        s = set(range(n))
        e = set(range(0))
        s.symmetric_difference_update(e)
        e.symmetric_difference_update(s)
        s.intersection_update(set(range(-n, 0)))
        return sorted(s), sorted(e)
    for n in (0, 1, 5):
        same(f, n)


def test_alias_and_reflection():
    same(alias_seen, [1, 2, 3], [3, 2, 9])

    def reflected(s, b):
        s.difference_update(b)
        return len(s)
    x = {1, 2, 3}
    assert njit(reflected)(x, {2}) == 2 and x == {1, 3}  # the caller's set changed, as Python's


def iterate_expressions(a, b):
    total = 0
    for v in set(a):
        total += v
    doubled = sorted([v * 2 for v in set(a) | set(b)])
    pairs = 0
    for i, v in enumerate(set(a) - set(b)):
        pairs += i * 0 + v
    keys = 0
    for k in {v: 1 for v in a}:
        keys += k
    return total, doubled, pairs, keys, sorted(list(set(a) & set(b)))


def reductions(a):
    s = set(a)
    return min(s), max(s), sum(s), min(set(a)), max(set(a) | s), sum(set(a))


@pytest.mark.parametrize("a,b", [([1, 2, 2, 3], [3, 4]), ([0.5, -1.5], [0.5]), ([-7], [-7]), ([5, 1], [9])],
                         ids=repr)
def test_iterating_sets(a, b):
    same(iterate_expressions, a, b)
    same(reductions, a)


def test_empty_set_reductions_raise():
    def f(n):
        return max(set(range(n)))

    def g(n):
        return min(set(range(n))), sum(set(range(n)))
    same(f, 0)
    same(f, 3)
    same(g, 0)
    same(g, 4)


def test_strings_of_a_set():
    def f(a):
        return min(set(a)), max(set(a)), sorted(set(a))
    same(f, ["pear", "apple", "fig"])
    same(f, ["b"])


def test_update_arity_and_type():
    def no_arg(a):
        s = set(a)
        s.difference_update()
        return s
    with pytest.raises(TypingError):
        njit(no_arg)([1])

    def wrong_items(a):
        s = set(a)
        s.intersection_update({"x"})
        return s
    with pytest.raises(TypingError):
        njit(wrong_items)([1])


def operators_in_place(a, b):
    s, t, u, w = set(a), set(a), set(a), set(a)
    alias = (s, t, u, w)
    s |= set(b)
    t &= set(b)
    u -= set(b)
    w ^= set(b)
    return [sorted(x) for x in alias]


def operators_with_itself(a):
    s, t, u, w = set(a), set(a), set(a), set(a)
    s |= s
    t &= t
    u -= u
    w ^= w
    return sorted(s), sorted(t), len(u), len(w)


@pytest.mark.parametrize("a,b", PAIRS, ids=repr)
def test_in_place_operators_change_the_set_itself(a, b):
    # s |= t is set.__ior__: the same object changes (another name for it sees it)
    same(operators_in_place, a, b)
    same(operators_with_itself, a)


def ior(s, t):
    s |= t
    return len(s)


def iand(s, t):
    s &= t
    return len(s)


def isub(s, t):
    s -= t
    return len(s)


def ixor(s, t):
    s ^= t
    return len(s)


@pytest.mark.parametrize("f", [ior, iand, isub, ixor])
@pytest.mark.parametrize("typed", [False, True])
def test_in_place_operators_reach_the_caller(f, typed):
    from mahou import typed as typed_containers
    from mahou import types

    for a, b in [({1, 2, 3}, {2, 5}), ({4}, {4}), ({-1, 7}, {-1, 7, 8}), ({0}, set())]:
        want_s = set(a)
        want = f(want_s, set(b))
        if typed:
            x = typed_containers.Set(a)
            y = typed_containers.Set(b) if b else typed_containers.Set.empty(types.int64)
        elif not b:
            continue  # an empty reflected set has no item type
        else:
            x, y = set(a), set(b)
        assert njit(f)(x, y) == want
        assert set(x) == want_s  # the caller's set changed, as Python's
