"""Harvested from Numba's tests of lists, sets, dicts and tuples (numba/tests/
test_lists.py, test_sets.py, test_dictobject.py, test_tuples.py): building, indexing,
slicing (steps, negative and out-of-range bounds), mutating methods, comparisons,
reflection of list and set arguments, compiled vs CPython (harvest.py). Cases mahou
does not compile yet are in EXPECTED_REFUSALS."""

import sys

import pytest

from harvest import Case, run_harvested

SIZES = [0, 1, 5, 10]
BOUNDS = [(0, 0), (1, 3), (-3, -1), (-100, 100), (4, 1), (2, 20)]
STEPPED = [(0, 10, 2), (-1, -10, -3), (10, 0, -1), (None, None, -2), (3, 100, 4)]


def create_list(x, y, z):
    return [x, y, z]


def create_nested(x, y, z, a, b, c):
    return [[x, y, z], [a, b, c]]


def comprehension1():
    return [i * i for i in range(10) if i % 3]


def comprehension2(n):
    return [[j for j in range(i)] for i in range(n)]


def list_constructor(n):
    return list(range(n))


def list_append(n):
    out = []
    for i in range(n):
        out.append(i * 2)
    return out


def list_extend(n):
    a = list(range(n))
    a.extend(range(3))
    a.extend([7, 8])
    return a


def list_pop0(n):
    a = list(range(n))
    return a.pop(), a


def list_pop1(n, i):
    a = list(range(n))
    return a.pop(i), a


def list_getitem(n):
    a = list(range(n))
    return a[0] + a[-1] + a[n // 2]


def list_setitem(n):
    a = list(range(n))
    a[0] = 42
    a[-1] = -1
    return a


def list_getslice2(n, start, stop):
    return list(range(n))[start:stop]


def list_getslice3(n, start, stop, step):
    return list(range(n))[start:stop:step]


def list_setslice2(n, n_src, start, stop):
    a = list(range(n))
    a[start:stop] = list(range(100, 100 + n_src))
    return a


def list_setslice3(n, start, stop, step):
    a = list(range(n))
    b = a[start:stop:step]
    a[start:stop:step] = [-x for x in b]
    return a


def list_delslice(n, start, stop):
    a = list(range(n))
    del a[start:stop]
    return a


def list_delitem(n, i):
    a = list(range(n))
    del a[i]
    return a


def list_clear(n):
    a = list(range(n))
    a.clear()
    a.append(5)
    return a


def list_copy(n):
    a = list(range(n))
    b = a.copy()
    b.append(99)
    return a, b


def list_iteration(n):
    total = 0
    for v in list(range(n)):
        total += v * v
    return total


def list_contains(n):
    a = list(range(n))
    return (3 in a), (n in a), (-1 not in a)


def list_index(n, v):
    return list(range(n)).index(v)


def list_index_bounds(n, v, start, stop):
    return list(range(n)).index(v, start, stop)


def list_remove(n, v):
    a = list(range(n))
    a.remove(v)
    return a


def list_insert(n, pos, v):
    a = list(range(n))
    a.insert(pos, v)
    return a


def list_count(n, v):
    return [v, 1, v, 2, v][:n].count(v)


def list_reverse(n):
    a = list(range(n))
    a.reverse()
    return a


def list_add(m, n):
    return list(range(m)) + list(range(n))


def list_add_inplace(m, n):
    a = list(range(m))
    a += list(range(n))
    return a


def list_mul(n, v):
    return list(range(n)) * v


def list_mul_inplace(n, v):
    a = list(range(n))
    a *= v
    return a


def list_bool(n):
    return bool(list(range(n)))


def list_cmp(a, b):
    return a == b, a != b, a < b, a <= b, a > b, a >= b


def list_sort(a):
    a.sort()
    return a


def list_sort_reverse(a):
    a.sort(reverse=True)
    return a


def list_sorted_key(a):
    return sorted(a, key=lambda x: -x)


def list_min_max_sum(a):
    return min(a), max(a), sum(a)


def reflect_simple(a, b):
    a.append(b[0])
    b.pop()
    return len(a), len(b)


def reflect_setitem(a):
    for i in range(len(a)):
        a[i] = a[i] * 2
    return 0


def reflect_exception(a):
    a.append(42)
    raise ValueError("after a change")


def list_of_lists(n):
    out = [[0] * 0 for _ in range(0)]
    for i in range(n):
        out.append([i] * i)
    return out


def list_of_strings(a):
    a.append("x")
    return "-".join(a)


def set_literal():
    return {1, 2, 3, 2}


def set_constructor(a):
    return set(a)


def set_iterate_sum(a):
    total = 0
    for v in set(a):
        total += v
    return total


def set_update(a, b, c):
    s = set(a)
    s.update(b)
    s.update(c)
    return s


def set_bool(a):
    return bool(set(a))


def set_remove(a, b):
    s = set(a)
    for v in b:
        s.remove(v)
    return s


def set_discard(a, b):
    s = set(a)
    for v in b:
        s.discard(v)
    return s


def set_add_discard(a, u, v):
    s = set(a)
    for _ in range(10):
        s.add(u)
        s.discard(v)
    return s


def set_pop(a):
    s = set(a)
    total = 0
    while s:
        total += s.pop()
    return total


def set_contains(a, b):
    s = set(a)
    return [v in s for v in b]


def set_difference_update(a, b):
    s = set(a)
    s.difference_update(set(b))
    return s


def set_intersection_update(a, b):
    s = set(a)
    s.intersection_update(set(b))
    return s


def set_symmetric_difference_update(a, b):
    s = set(a)
    s.symmetric_difference_update(set(b))
    return s


def set_relations(a, b):
    s, t = set(a), set(b)
    return s.isdisjoint(t), s.issubset(t), s.issuperset(t), s == t, s < t, s <= t


def set_clear(a):
    s = set(a)
    s.clear()
    return len(s)


def set_copy(a):
    s = set(a)
    t = s.copy()
    t.add(1000)
    return s, t


def set_operators(a, b):
    s, t = set(a), set(b)
    return s - t, s & t, s ^ t, s | t


def set_methods(a, b):
    s, t = set(a), set(b)
    return s.difference(t), s.intersection(t), s.symmetric_difference(t), s.union(t)


def set_unique(src):
    seen = set()
    out = []
    for v in src:
        if v not in seen:
            seen.add(v)
            out.append(v)
    return out


def set_reflect(s):
    s.add(77)
    return len(s)


def dict_build(n):
    d = {}
    for i in range(n):
        d[i] = i * 1.5
    return d


def dict_ops(n):
    d = {}
    for i in range(n):
        d[str(i)] = i
    total = 0
    for k in d:
        total += d[k]
    return total, len(d), ("3" in d), d.get("x", -1), d.get("1", -1)


def dict_pop(n, k):
    d = {i: i * i for i in range(n)}
    return d.pop(k), len(d)


def dict_pop_default(n, k):
    d = {i: i * i for i in range(n)}
    return d.pop(k, -5), d


def dict_setdefault(n):
    d = {i: [i] for i in range(n)}
    d.setdefault(2, [0]).append(9)
    d.setdefault(100, [1]).append(8)
    return d


def dict_delitem(n, k):
    d = {i: i for i in range(n)}
    del d[k]
    return list(d.keys())


def dict_items_values(n):
    d = {i: float(i) / 2 for i in range(n)}
    return list(d.items()), list(d.values()), list(d.keys())


def dict_update_clear(n):
    d = {i: i for i in range(n)}
    e = {i: -i for i in range(n // 2, n + 2)}
    d.update(e)
    r = list(d.items())
    d.clear()
    return r, len(d)


def dict_popitem(n):
    d = {i: i for i in range(n)}
    return d.popitem(), len(d)


def dict_copy_eq(n):
    d = {i: i for i in range(n)}
    c = d.copy()
    c[0] = 99
    return d == c, d != c, len(c)


def dict_missing(k):
    d = {"a": 1}
    return d[k]


def dict_insertion_order_after_delete(n):
    d = {i: i for i in range(n)}
    for i in range(0, n, 2):
        del d[i]
    for i in range(n, n + 3):
        d[i] = i
    return list(d)


def tuple_return(a, b):
    return a, b


def tuple_first(t):
    return t[0]


def tuple_index(t, i):
    return t[i]


def tuple_slice2(t):
    return t[1:-1]


def tuple_slice3(t):
    return t[::-2]


def tuple_len(t):
    return len(t)


def tuple_add(a, b):
    return a + b


def tuple_cmp(a, b):
    return a == b, a != b, a < b, a <= b, a > b, a >= b


def tuple_in(a, b):
    return a in b


def tuple_bool(t):
    return bool(t)


def tuple_index_method(t, v):
    return t.index(v)


def tuple_count(t, v):
    return t.count(v)


def tuple_unpack(t):
    a, b, c = t
    return c, b, a


def tuple_hash_eq(a, b):
    return (hash(a) == hash(b)) or a != b


def tuple_iterate(t):
    total = 0
    for v in t:
        total += v
    return total


def tuple_mul(t, n):
    return t * n


CASES = {
    "create_list": Case(create_list, [(1, 2, 3), (1.5, -0.0, 2.5)]),
    "create_nested": Case(create_nested, [(1, 2, 3, 4, 5, 6)]),
    "comprehension1": Case(comprehension1, [()]), "comprehension2": Case(comprehension2, [0, 1, 4]),
    "list_constructor": Case(list_constructor, SIZES), "list_append": Case(list_append, SIZES),
    "list_extend": Case(list_extend, SIZES), "list_pop0": Case(list_pop0, SIZES),
    "list_pop1": Case(list_pop1, [(n, i) for n in (1, 5, 10) for i in (0, 3, -1, -5, 20)]),
    "list_getitem": Case(list_getitem, [1, 5, 10]), "list_setitem": Case(list_setitem, [1, 5]),
    "list_getslice2": Case(list_getslice2, [(n,) + b for n in SIZES for b in BOUNDS]),
    "list_getslice3": Case(list_getslice3, [(n,) + b for n in SIZES for b in STEPPED]),
    "list_setslice2": Case(list_setslice2, [(n, m) + b for n in (5, 10) for m in (0, 2, 7) for b in BOUNDS]),
    "list_setslice3": Case(list_setslice3, [(n,) + b for n in (5, 10) for b in STEPPED]),
    "list_delslice": Case(list_delslice, [(n,) + b for n in (0, 5, 10) for b in BOUNDS]),
    "list_delitem": Case(list_delitem, [(5, 0), (5, -1), (5, 5)]),
    "list_clear": Case(list_clear, SIZES), "list_copy": Case(list_copy, SIZES),
    "list_iteration": Case(list_iteration, SIZES), "list_contains": Case(list_contains, SIZES),
    "list_index": Case(list_index, [(10, 0), (10, 9), (10, 10), (0, 1)]),
    "list_index_bounds": Case(list_index_bounds, [(10, 5, 2, 8), (10, 5, -8, -2), (10, 5, 6, 100), (10, 1, 0, 1)]),
    "list_remove": Case(list_remove, [(10, 0), (10, 9), (10, 10)]),
    "list_insert": Case(list_insert, [(n, p, 42) for n in (0, 5) for p in (0, 2, 5, 100, -1, -100)]),
    "list_count": Case(list_count, [(5, 3), (3, 1), (0, 7)]), "list_reverse": Case(list_reverse, SIZES),
    "list_add": Case(list_add, [(0, 0), (3, 0), (2, 5)]), "list_add_inplace": Case(list_add_inplace, [(0, 3), (4, 2)]),
    "list_mul": Case(list_mul, [(3, v) for v in (-1, 0, 1, 3)]), "list_mul_inplace": Case(list_mul_inplace, [(3, 2), (2, 0)]),
    "list_bool": Case(list_bool, [0, 3]),
    "list_cmp": Case(list_cmp, [([1, 2], [1, 2]), ([1, 2], [1, 3]), ([1, 2], [1]), ([2.5], [1.0, 2.0]), ([1], [1, 0])]),  # an empty list argument has no item type (as Numba)
    "list_sort": Case(list_sort, [[3, 1, 2], [2.5, -1.0, 0.0, -0.0], ["b", "a", "ab"], [1]]),
    "list_sort_reverse": Case(list_sort_reverse, [[3, 1, 2], [1.5, 2.5]]),
    "list_sorted_key": Case(list_sorted_key, [[3, 1, 2]]),
    "list_min_max_sum": Case(list_min_max_sum, [[3, 1, 2], [1.5, -2.5]]),
    "reflect_simple": Case(reflect_simple, [([1, 2], [3, 4]), ([1.5], [2.5, 3.5])]),
    "reflect_setitem": Case(reflect_setitem, [[1, 2, 3], [0.5, -1.0]]),
    "reflect_exception": Case(reflect_exception, [[1, 2]]),
    "list_of_lists": Case(list_of_lists, [0, 4]), "list_of_strings": Case(list_of_strings, [["a", "b"], ["大"]]),
    "set_literal": Case(set_literal, [()]),
    "set_constructor": Case(set_constructor, [[1, 2, 2, 3], ((1.5, 1.5),), ["a", "b", "a"]]),
    "set_iterate_sum": Case(set_iterate_sum, [[1, 2, 2, 3], [0.5, 0.5]]),
    "set_update": Case(set_update, [([1, 2], [2, 3], [4]), ([1], [1], [1])]), "set_bool": Case(set_bool, [[0], [1]]),
    "set_remove": Case(set_remove, [([1, 2, 3], [1, 3]), ([1, 2], [5])]),
    "set_discard": Case(set_discard, [([1, 2, 3], [1, 3, 7])]),
    "set_add_discard": Case(set_add_discard, [([1, 2], 5, 5), ([1, 2], 3, 1)]),
    "set_pop": Case(set_pop, [[1, 2, 3], [7]]), "set_contains": Case(set_contains, [([1, 2, 3], [0, 2, 4])]),
    "set_difference_update": Case(set_difference_update, [([1, 2, 3], [2, 5]), ([1], [1])]),
    "set_intersection_update": Case(set_intersection_update, [([1, 2, 3], [2, 5])]),
    "set_symmetric_difference_update": Case(set_symmetric_difference_update, [([1, 2, 3], [2, 5])]),
    "set_relations": Case(set_relations, [([1, 2], [1, 2, 3]), ([1, 2], [3]), ([1, 2], [1, 2])]),
    "set_clear": Case(set_clear, [[1, 2]]), "set_copy": Case(set_copy, [[1, 2]]),
    "set_operators": Case(set_operators, [([1, 2, 3], [2, 3, 4]), ([0.5], [1.5])]),
    "set_methods": Case(set_methods, [([1, 2, 3], [2, 3, 4])]),
    "set_unique": Case(set_unique, [[3, 1, 3, 2, 1], ["b", "a", "b"]]),
    "set_reflect": Case(set_reflect, [{1, 2}, {77}]),
    "dict_build": Case(dict_build, SIZES), "dict_ops": Case(dict_ops, [0, 5]),
    "dict_pop": Case(dict_pop, [(5, 2), (5, 7)]), "dict_pop_default": Case(dict_pop_default, [(5, 2), (5, 7)]),
    "dict_setdefault": Case(dict_setdefault, [3, 0]), "dict_delitem": Case(dict_delitem, [(5, 0), (5, 9)]),
    "dict_items_values": Case(dict_items_values, [0, 4]), "dict_update_clear": Case(dict_update_clear, [0, 5]),
    "dict_popitem": Case(dict_popitem, [3, 0]), "dict_copy_eq": Case(dict_copy_eq, [1, 3]),
    "dict_missing": Case(dict_missing, ["a", "b"]),
    "dict_order_after_delete": Case(dict_insertion_order_after_delete, [6, 20]),
    "tuple_return": Case(tuple_return, [(1, 2.5), ("a", (1, 2))]),
    "tuple_first": Case(tuple_first, [((1, 2),), ((1.5, "x"),)]),
    "tuple_index": Case(tuple_index, [((4, 5, 6), i) for i in (0, 2, -1, -3, 3)]),
    "tuple_slice2": Case(tuple_slice2, [((1, 2, 3, 4),), ((1,),)]), "tuple_slice3": Case(tuple_slice3, [((1, 2, 3, 4, 5),)]),
    "tuple_len": Case(tuple_len, [((),), ((1, 2.5, "x"),)]),
    "tuple_add": Case(tuple_add, [((1, 2), (3.5,)), ((), ())]),
    "tuple_cmp": Case(tuple_cmp, [((1, 2), (1, 2)), ((1, 2), (1, 3)), ((1, 2), (1,)), ((2.5, 1), (2.5, 0))]),
    "tuple_in": Case(tuple_in, [(1, (1, 2)), (3, (1, 2)), (1.0, (1, 2))]),
    "tuple_bool": Case(tuple_bool, [((),), ((0,),)]),
    "tuple_index_method": Case(tuple_index_method, [((4, 5, 6), 5), ((4, 5, 6), 7)]),
    "tuple_count": Case(tuple_count, [((4, 5, 4), 4)]),
    "tuple_unpack": Case(tuple_unpack, [((1, 2.5, "c"),)]),
    "tuple_hash_eq": Case(tuple_hash_eq, [((1, 2), (1, 2)), ((1, 2), (2, 1))]),
    "tuple_iterate": Case(tuple_iterate, [((1, 2, 3),), ((),)]),
    "tuple_mul": Case(tuple_mul, [((1, 2), 3), ((1,), 0), ((1, 2), -1)]),
}

# Cases mahou does not compile yet (a clean TypingError/UnsupportedError is asserted).
EXPECTED_REFUSALS = {
    'tuple_mul'
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_harvested(name):
    run_harvested(sys.modules[__name__], name)
