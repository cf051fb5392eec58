"""Lists in compiled code, compared with CPython: displays, [] refined by later uses,
comprehensions, indexing and slicing, methods, operators, iteration, lists from
Python (written back after the call) and lists returned to Python."""

import numpy as np
import pytest

import mahou
from conftest import assert_no_leaks, check
from mahou import errors, njit
from mahou.types import float64, int64, unicode_type


# ---------------------------------------------------------------- building lists

def append_loop(n):
    out = []
    for i in range(n):
        out.append(i * i - 3)
    return out


def display_mixed_numbers(a):
    return [1, 2.5, a, True]


def comprehension_nested(n):
    return [(i, j) for i in range(n) for j in range(i) if (i + j) % 3 != 0]


def comprehension_of_comprehensions(n):
    return [[i * j for j in range(i)] for i in range(n)]


def list_from_iterables(n):
    a = list(range(n))
    b = list(range(n, 0, -2))
    c = list((x * 2 for x in a))
    d = list(np.arange(n) * 1.5)
    e = list("héllo")
    return a, b, c, d, e


def empty_then_insert(n):
    xs = []
    for i in range(n):
        xs.insert(0, i)
    xs.insert(100, -1)
    xs.insert(-100, -2)
    return xs


@pytest.mark.parametrize("n", [0, 1, 5, 17])
def test_building(n):
    check(append_loop, n)
    check(comprehension_nested, n)
    check(comprehension_of_comprehensions, n)
    check(list_from_iterables, n)
    check(empty_then_insert, n)


@pytest.mark.parametrize("a", [-3, 7])
def test_display_unifies_items(a):
    # One item type for the list (as Numba): the numbers meet as float64.
    got = njit(display_mixed_numbers)(a)
    assert got == [1.0, 2.5, float(a), 1.0] and all(type(x) is float for x in got)


# ---------------------------------------------------------------- indexing

def index_and_slices(n):
    xs = [i * 10 for i in range(n)]
    return (xs[0], xs[-1], xs[1:3], xs[::-1], xs[-3:], xs[1:-1:2], xs[5:1:-2], xs[100:], xs[:-100])


def stores(n):
    xs = list(range(n))
    xs[0] = 100
    xs[-1] = -100
    xs[1:3] = [7, 8, 9, 10]
    xs[::3] = [0] * len(xs[::3])
    del xs[2]
    del xs[-2:]
    return xs


def index_error(n):
    xs = [1, 2, 3]
    return xs[n]


@pytest.mark.parametrize("n", [6, 10])
def test_indexing(n):
    check(index_and_slices, n)
    check(stores, n)


@pytest.mark.parametrize("n", [3, -4, 100])
def test_index_error(n):
    with pytest.raises(IndexError):
        index_error(n)
    with pytest.raises(IndexError, match="list index out of range"):
        njit(index_error)(n)


def extended_slice_size(n):
    xs = list(range(10))
    xs[::2] = list(range(n))
    return xs


def test_extended_slice_size_error():
    check(extended_slice_size, 5)
    with pytest.raises(ValueError, match="extended slice"):
        njit(extended_slice_size)(3)


# ---------------------------------------------------------------- methods

def methods(n):
    xs = [3, 1, 4, 1, 5, 9, 2, 6][:n]
    xs.append(5)
    xs.extend([7, 7])
    xs.extend(range(2))
    c = xs.count(1)
    i = xs.index(5)
    xs.remove(7)
    p = xs.pop()
    q = xs.pop(0)
    xs.reverse()
    ys = xs.copy()
    ys.sort()
    zs = sorted(xs, reverse=True)
    xs.clear()
    return c, i, p, q, xs, ys, zs


@pytest.mark.parametrize("n", [2, 8])
def test_methods(n):
    check(methods, n)


def pop_empty():
    xs = [1]
    xs.pop()
    return xs.pop()


def remove_missing(x):
    xs = [1, 2, 3]
    xs.remove(x)
    return xs


def index_missing(x):
    return [1, 2, 3].index(x)


def test_method_errors():
    with pytest.raises(IndexError, match="pop from empty list"):
        njit(pop_empty)()
    with pytest.raises(ValueError):
        njit(remove_missing)(5)
    check(remove_missing, 2)
    with pytest.raises(ValueError):
        njit(index_missing)(9)


def sort_stability(n):
    pairs = [(i % 3, -i) for i in range(n)]
    pairs.sort()
    floats = [0.5, -1.5, 2.0, -0.0, 0.0][:n]
    floats.sort(reverse=True)
    words = ["pear", "Apple", "fig", "apple", "épée"]
    words.sort()
    return pairs, floats, words, sorted(words, reverse=True)


@pytest.mark.parametrize("n", [0, 3, 9])
def test_sort(n):
    check(sort_stability, n)


# ---------------------------------------------------------------- operators

def operators(n):
    a = list(range(n))
    b = [n, n + 1]
    return (a + b, b * 3, 3 * b, a == list(range(n)), a != b, a < b, b <= a, 2 in a, 99 not in a,
            len(a * 0), [] == [1][:0])


@pytest.mark.parametrize("n", [0, 4])
def test_operators(n):
    check(operators, n)


def reductions(n):
    xs = [((i * 7) % 5) - 2 for i in range(n)]
    fs = [x * 0.5 for x in xs]
    return sum(xs), sum(fs), min(xs), max(fs), any(xs), all(xs), any([x > 10 for x in xs]), sum(x * x for x in xs)


@pytest.mark.parametrize("n", [1, 6])
def test_reductions(n):
    check(reductions, n)


def min_of_empty(n):
    return min([i for i in range(n)])


def test_min_of_empty():
    with pytest.raises(ValueError, match="empty"):
        njit(min_of_empty)(0)


# ---------------------------------------------------------------- iteration

def iterate(n):
    xs = [i * 2 for i in range(n)]
    total = 0
    for x in xs:
        total += x
    for i, x in enumerate(xs):
        total += i * x
    for x, y in zip(xs, xs[1:]):
        total -= x * y
    for x in reversed(xs):
        total = total * 3 % 1000003 + x
    return total


def mutate_while_iterating(n):
    xs = list(range(n))
    seen = []
    for x in xs:
        seen.append(x)
        if x % 2 == 0:
            xs.pop()
    return seen, xs


def grow_while_iterating(n):
    xs = [1]
    for x in xs:
        if len(xs) < n:
            xs.append(x + 1)
    return xs


def loop_else(xs, target):
    for x in xs:
        if x == target:
            break
    else:
        return -1
    return target


@pytest.mark.parametrize("n", [0, 1, 7])
def test_iteration(n):
    check(iterate, n)
    check(mutate_while_iterating, n)
    check(grow_while_iterating, n)


def test_loop_else():
    check(loop_else, [1, 2, 3], 2)
    check(loop_else, [1, 2, 3], 5)


# ---------------------------------------------------------------- item types

def list_of_arrays(n):
    arrays = [np.arange(i, dtype=np.float64) for i in range(n)]
    arrays.append(np.ones(2))
    return [a.sum() for a in arrays], arrays[-1], len(arrays)


def list_of_strings(n):
    words = ["a", "bb", "ccc"]
    for i in range(n):
        words.append(str(i))
    return words, "".join(words), [w.upper() for w in words if len(w) > 1]


def list_of_lists(n):
    rows = []
    for i in range(n):
        rows.append([j for j in range(i)])
    rows[0].append(99)
    return rows, [len(r) for r in rows], rows == [[j for j in range(i)] for i in range(n)]


def list_of_tuples(n):
    pts = [(i, i * 0.5, "p" + str(i)) for i in range(n)]
    pts.sort(reverse=True)
    return pts, (1, 0.5, "p1") in pts


@pytest.mark.parametrize("n", [1, 4])
def test_item_types(n):
    check(list_of_arrays, n)
    check(list_of_strings, n)
    check(list_of_lists, n)
    check(list_of_tuples, n)


# ---------------------------------------------------------------- lists from Python

def reflect_append(xs, x):
    xs.append(x)
    xs[0] = xs[0] * 2
    return len(xs)


def reflect_untouched(xs):
    return sum(xs)


def reflect_nested(rows):
    rows[0].append(1.5)
    return len(rows)


def reflect_arrays(arrs):
    arrs[0][0] = 100.0
    return arrs[0].sum() + len(arrs)


@pytest.mark.parametrize("xs", [[1, 2, 3], [1.5], [-2]])
def test_python_lists_are_written_back(xs):
    check(reflect_append, xs, xs[0])
    check(reflect_untouched, xs)


def set_flags(flags):
    flags[0] = not flags[0]
    flags.append(True)


def test_bool_lists():
    check(set_flags, [True, False])


def test_nested_and_array_lists():
    check(reflect_nested, [[0.5], [1.0, 2.0]])
    a = [np.zeros(3), np.ones(2)]
    check(reflect_arrays, a)
    keep = njit(reflect_arrays)
    xs = [np.zeros(3)]
    keep(xs)
    assert xs[0][0] == 100.0  # the same ndarray: changed in place


def test_unboxing_errors():
    f = njit(reflect_untouched)
    with pytest.raises(TypeError, match="heterogeneous"):
        f([1, 2.5])
    with pytest.raises(TypeError, match="empty list"):
        f([])
    assert f([1, 2]) == 3  # still works after the errors


def test_list_result_is_a_python_list():
    r = njit(append_loop)(3)
    assert type(r) is list and r == append_loop(3)


# ---------------------------------------------------------------- typed.List

def sum_typed(tl):
    s = 0.0
    for x in tl:
        s += x
    tl.append(s)
    return s


def make_typed(n):
    tl = mahou.typed.List()
    for i in range(n):
        tl.append(i)
    return tl


def test_typed_list_from_python():
    tl = mahou.typed.List()
    for v in [1.5, 2.5, 3.0]:
        tl.append(v)
    assert len(tl) == 3 and tl[0] == 1.5 and tl[-1] == 3.0
    assert list(tl) == [1.5, 2.5, 3.0]
    assert 2.5 in tl and 7.0 not in tl
    assert njit(sum_typed)(tl) == 7.0
    assert len(tl) == 4 and tl[3] == 7.0  # the same native list: no copy, no write-back
    tl[0] = 10.0
    assert tl.pop() == 7.0
    assert tl.index(2.5) == 1 and tl.count(3.0) == 1
    tl.extend([4.0, 5.0])
    tl.insert(0, -1.0)
    del tl[1]
    assert list(tl) == [-1.0, 2.5, 3.0, 4.0, 5.0]
    assert list(tl[1:3]) == [2.5, 3.0]
    assert repr(mahou.typed.List([1, 2])) == "ListType[int64]([1, 2])"
    with pytest.raises(TypeError):
        tl.append("x")
    with pytest.raises(IndexError):
        tl[100]


def test_typed_list_empty_list_and_errors():
    tl = mahou.typed.List.empty_list(mahou.types.int64)
    assert len(tl) == 0 and str(tl.item_type) == "int64"
    with pytest.raises(TypeError):
        tl.append(1.5)  # never narrowed silently
    tl.append(3)
    assert list(tl) == [3]


def make_typed_empty(n):
    tl = mahou.typed.List.empty_list(float64)
    for i in range(n):
        tl.append(i)
    return tl


def make_typed_dict(n):
    d = mahou.typed.Dict.empty(key_type=unicode_type, value_type=int64)
    for i in range(n):
        d[str(i)] = i
    return d


def test_typed_containers_made_in_compiled_code():
    r = njit(make_typed)(4)
    assert type(r) is mahou.typed.List and list(r) == [0, 1, 2, 3]
    r = njit(make_typed_empty)(3)
    assert type(r) is mahou.typed.List and list(r) == [0.0, 1.0, 2.0]
    d = njit(make_typed_dict)(3)
    assert type(d) is mahou.typed.Dict and dict(d.items()) == {"0": 0, "1": 1, "2": 2}


# ---------------------------------------------------------------- refused

def mixed_items(x):
    xs = [1, "a"]  # items of different types: a literal list, which cannot change
    xs.append(x)
    return xs


def mixed_append(x):
    xs = [1]
    xs.append(2.5)
    return xs


def never_typed(x):
    xs = []
    return len(xs)


def test_refused_with_the_line():
    with pytest.raises(errors.TypingError, match="LiteralList.*has no attribute 'append'"):
        njit(mixed_items)(1)
    with pytest.raises(errors.TypingError, match="cannot store float64"):
        njit(mixed_append)(1)
    with pytest.raises(errors.TypingError, match="xs"):
        njit(never_typed)(1)


def test_no_leak():
    f = njit(list_of_arrays)
    g = njit(list_of_strings)
    assert_no_leaks(lambda: f(3), lambda: g(3), repeat=2000)


def sort_with_keys(xs, n):
    by_neg = sorted(xs, key=lambda v: -v)
    by_mod = sorted(xs, key=lambda v: (v % n, v), reverse=True)

    def second(p):
        return p[1]

    pairs = [(i, x) for i, x in enumerate(xs)]
    pairs.sort(key=second)
    words = [str(x) * (x % 3 + 1) for x in xs]
    words.sort(key=lambda w: len(w) * n, reverse=True)  # stable: equal keys keep their order
    calls = [0]

    def counted(v):
        calls[0] += 1
        return v

    once = sorted(xs, key=counted)
    empty = sorted(xs[:0], key=lambda v: -v)
    return by_neg, by_mod, pairs, words, once, calls[0], empty


@pytest.mark.parametrize("xs", [[1], [3, 1, 2, 5, 4, 1], [-2, 7, -2, 0, 9, 3]])
def test_sort_with_key(xs):
    check(sort_with_keys, xs, 3)


def test_sort_key_compiled_function_and_refusals():
    @njit
    def neg(v):
        return -v

    @njit
    def by_compiled(xs):
        xs.sort(key=neg)
        return xs

    assert by_compiled([1, 3, 2]) == [3, 2, 1]

    @njit
    def by_builtin(xs):
        return sorted(xs, key=abs)

    with pytest.raises(errors.UnsupportedError, match="key must be a lambda"):
        by_builtin([1, -3])

    @njit
    def unorderable(xs):
        return sorted(xs, key=lambda v: [v])

    with pytest.raises(errors.UnsupportedError, match="sort of items of type list"):
        unorderable([2, 1])


def test_arrays_from_numpy_stored_in_containers_outlive_the_call():
    # An argument array has no meminfo of its own: stored into a container that outlives
    # the call, it must hold the ndarray (else the container reads freed memory).
    @njit
    def store(tl, d, a):
        tl.append(a)
        d[1] = a
        xs = [a, a]
        xs[0] = a
        xs.insert(0, a)
        return xs

    @njit
    def make():
        tl = mahou.typed.List()
        tl.append(np.zeros(3))
        d = mahou.typed.Dict()
        d[0] = np.zeros(3)
        return tl, d

    tl, d = make()
    tl.pop()
    d.pop(0)
    a = np.arange(1e5)
    xs = store(tl, d, a)
    del a
    import gc

    gc.collect()
    junk = [np.full(100_000, 7.0) for _ in range(10)]  # reuse of freed memory shows up as 7s
    expected = np.arange(1e5)
    np.testing.assert_array_equal(tl[0], expected)
    np.testing.assert_array_equal(d[1], expected)
    for x in xs:
        np.testing.assert_array_equal(x, expected)
    del junk


def test_is_compares_object_identity():
    @njit
    def ident(a, b):
        c = a
        d1 = {1: 2}
        d2 = d1
        return a is b, a is c, a is not b, [1] is [1], d1 is d2, d1 is {1: 2}

    assert ident([1], [1]) == (False, True, True, False, True, False)


# ---------------------------------------------------------------- c.__contains__(x)
# (the worked example of docs/pipeline.md: a method added as a registry entry)

def list_contains_method(xs, v):
    return xs.__contains__(v), xs.__contains__(v + 1), [1.5, 2.0].__contains__(v)


def set_and_dict_contains_method(v):
    s = {1, 4, 9}
    d = {1: "a", -2: "b"}
    return s.__contains__(v), d.__contains__(v), {"x": 1}.__contains__("x")


def emptied_list_contains_method(v):
    xs = [v]
    xs.pop()
    return xs.__contains__(v)


def test_emptied_list_contains_method():
    check(emptied_list_contains_method, 3)


def contains_method_order(xs, v):
    # the receiver is evaluated before the argument, as in Python
    log = [0]

    def receiver():
        log.append(1)
        return xs

    def argument():
        log.append(2)
        return v

    return receiver().__contains__(argument()), log


@pytest.mark.parametrize("xs, v", [([1, 2, 3], 2), ([1, 2, 3], 3), ([-5, 0], -5), ([7], 0), ([2.5, -1.0], -1.0),
                                   ([1.5, 7.0], 1)])
def test_list_contains_method(xs, v):
    check(list_contains_method, xs, v)


@pytest.mark.parametrize("v", [1, 4, -2, 0, 9])
def test_set_and_dict_contains_method(v):
    check(set_and_dict_contains_method, v)


def test_contains_method_evaluation_order():
    check(contains_method_order, [1, 2], 2)


def list_contains_wrong_arity(xs):
    return xs.__contains__()


def test_list_contains_method_arity():
    with pytest.raises(errors.TypingError, match="__contains__"):
        njit(list_contains_wrong_arity)([1])


# ---- l += xs and l *= n change the list itself (the caller's list, other names for it)

def _iadd_alias(a, extra):
    b = a
    b += extra
    b += (7, 8)
    b += range(2)
    return len(a)


def _iadd_self(a):
    a += a
    return a


def _imul_alias(a, n):
    b = a
    b *= n
    return len(a)


@pytest.mark.parametrize("items,extra", [([1, 2], [3]), ([9], [4, 5]), ([0, -1], [-3, 6, 7])])
def test_list_iadd_extends_in_place(items, extra):
    got, want = list(items), list(items)
    assert njit(_iadd_alias)(got, list(extra)) == _iadd_alias(want, list(extra))
    assert got == want
    got, want = list(items), list(items)
    assert njit(_iadd_self)(got) == _iadd_self(want) and got == want


@pytest.mark.parametrize("n", [0, 1, 3, -2])
def test_list_imul_repeats_in_place(n):
    got, want = [1.5, -2.0], [1.5, -2.0]
    assert njit(_imul_alias)(got, n) == _imul_alias(want, n)
    assert got == want


def test_list_iadd_of_other_items_is_refused():
    def f(a):
        a += [1.5]
        return a
    with pytest.raises(errors.TypingError, match="cannot extend"):
        njit(f)([1, 2])
