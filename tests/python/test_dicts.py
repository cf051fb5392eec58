"""Dicts and sets in compiled code, compared with CPython: displays, {} refined by later
stores, comprehensions, lookups and KeyError, methods, iteration in insertion order,
mutation during iteration, keys of every hashable kind, typed.Dict from Python, sets
from and to Python."""

import numpy as np
import pytest

import mahou
from conftest import assert_no_leaks, check
from mahou import errors, njit


def word_count(text):
    counts = {}
    for w in text.split():
        counts[w] = counts.get(w, 0) + 1
    return counts


@pytest.mark.parametrize("text", ["", "a", "the cat and the hat and the bat", "é é ü 日本 日本 日本"])
def test_word_count(text):
    check(word_count, text)


def build_and_query(n):
    d = {i: i * i for i in range(n)}
    e = {}
    for i in range(n):
        e[i % 3] = e.get(i % 3, 0.0) + 0.5
    hits = 0
    for k in range(-2, n + 2):
        if k in d:
            hits += d[k]
    return d, e, hits, len(d), 3 in d, -1 not in d


def methods(n):
    d = {"a": 1, "b": 2}
    for i in range(n):
        d[str(i)] = i
    x = d.pop("a")
    y = d.pop("zz", -1)
    z = d.setdefault("b", 100)
    w = d.setdefault("new", 7)
    g = d.get("missing")
    h = d.get("b")
    d2 = d.copy()
    d2.update({"u": 5, "b": -2})
    k, v = d2.popitem()
    del d2["new"]
    keys = list(d.keys())
    values = list(d.values())
    items = list(d.items())
    d.clear()
    return x, y, z, w, g, h, d2, k, v, keys, values, items, d, d2 == d2.copy(), d2 != d


@pytest.mark.parametrize("n", [0, 3, 12])
def test_dicts(n):
    check(build_and_query, n)
    check(methods, n)


def iterate(n):
    d = {}
    for i in range(n):
        d[(i * 7) % 11] = i
    total = 0
    order = []
    for k in d:
        order.append(k)
    for k, v in d.items():
        total += k * v
    for v in d.values():
        total -= v
    if n:
        del d[0]
    return order, total, sorted(d)


def delete_and_reinsert(n):
    d = {i: str(i) for i in range(n)}
    for i in range(0, n, 2):
        del d[i]
    for i in range(0, n, 3):
        d[i] = "x"
    return list(d.items())


def mutate_while_iterating(n):
    d = {i: i for i in range(n)}
    for k in d:
        d[k + 100] = 1
    return d


@pytest.mark.parametrize("n", [1, 5, 40])
def test_iteration_order(n):
    check(iterate, n)
    check(delete_and_reinsert, n)


def test_mutation_during_iteration():
    with pytest.raises(RuntimeError, match="changed size"):
        njit(mutate_while_iterating)(3)


def missing_key(k):
    d = {1: "a", 2: "b"}
    return d[k]


def missing_str_key(k):
    d = {"x": 1}
    return d[k]


def test_key_errors():
    with pytest.raises(KeyError) as info:
        njit(missing_key)(5)
    assert "5" in str(info.value)
    with pytest.raises(KeyError) as info:
        njit(missing_str_key)("nope")
    assert "'nope'" in str(info.value)
    assert njit(missing_key)(2) == "b"


def key_kinds(n):
    by_float = {0.5: 1, -0.0: 2, 2.0: 3}
    by_tuple = {(1, "a"): 1.5, (2, "b"): 2.5}
    by_bool = {True: "t", False: "f"}
    by_tuple[(n, "c")] = 3.5
    return by_float[0.0], by_tuple[(1, "a")], by_tuple[(n, "c")], by_bool[n > 0], (2, "b") in by_tuple


def values_of_every_kind(n):
    lists = {}
    for i in range(n):
        if i % 2 in lists:
            lists[i % 2].append(i)
        else:
            lists[i % 2] = [i]
    lists.setdefault(7, [0]).append(1)
    arrays = {"a": np.arange(n) * 1.0, "b": np.ones(2)}
    nested = {1: {2: 3}}
    return lists, arrays["a"].sum(), nested[1][2], {k: len(v) for k, v in lists.items()}


@pytest.mark.parametrize("n", [1, 4])
def test_key_and_value_kinds(n):
    check(key_kinds, n)
    check(values_of_every_kind, n)


def printed(n):
    d = {i: str(i) for i in range(n)}
    s = {1, 2}
    print(d, s)


def test_print(capfd):
    njit(printed)(2)
    assert capfd.readouterr().out == "{0: '0', 1: '1'} {1, 2}\n"


# ---------------------------------------------------------------- sets

def set_ops(n):
    a = {i % 5 for i in range(n)}
    b = set()
    for i in range(0, n, 2):
        b.add(i)
    b.discard(1000)
    c = a | b
    both = a & b
    d = a - b
    x = a ^ b
    a2 = a.copy()
    a2.update([7, 8])
    return (sorted(c), sorted(both), sorted(d), sorted(x), len(a), 3 in a, a <= c, both < a, c >= b, a == a.copy(),
            a.isdisjoint({100}), a.issubset(c), sorted(a2), sorted(a.union(b)), sorted(a.intersection(b)))


@pytest.mark.parametrize("n", [0, 3, 11])
def test_sets(n):
    check(set_ops, n)


def set_remove_missing(x):
    s = {1, 2}
    s.remove(x)
    return s


def pop_empty_set(n):
    s = {n}
    s.pop()
    return s.pop()


def test_set_errors():
    check(set_remove_missing, 1)
    with pytest.raises(KeyError):
        njit(set_remove_missing)(5)
    with pytest.raises(KeyError):
        njit(pop_empty_set)(1)


def set_from_python(s):
    s.add(100)
    return sum(s), len(s)


def test_python_sets():
    check(set_from_python, {1, 2, 3})
    r = njit(set_ops)(4)
    assert r == set_ops(4)


# ---------------------------------------------------------------- typed.Dict

def use_typed(d):
    total = 0.0
    for k, v in d.items():
        total += v * len(k)
    d["total"] = total
    return total


def test_typed_dict_from_python():
    d = mahou.typed.Dict.empty(key_type=mahou.types.unicode_type, value_type=mahou.types.float64)
    d["ab"] = 1.5
    d["c"] = 2.0
    assert len(d) == 2 and d["ab"] == 1.5 and "c" in d and "z" not in d
    assert njit(use_typed)(d) == 5.0
    assert d["total"] == 5.0  # the same native dict: no copy
    assert list(d.keys()) == ["ab", "c", "total"]
    assert d.get("zz", -1.0) == -1.0 and d.pop("c") == 2.0
    assert dict(d.items()) == {"ab": 1.5, "total": 5.0}
    assert d == {"ab": 1.5, "total": 5.0}
    with pytest.raises(KeyError):
        d["missing"]
    with pytest.raises(TypeError):
        d["x"] = "not a float"
    e = mahou.typed.Dict()
    e[1] = "one"
    assert repr(e) == "{1: 'one'}" and str(e.key_type) == "int64"


def test_dict_result_is_a_typed_dict():
    r = njit(word_count)("a b a")
    assert type(r) is mahou.typed.Dict and dict(r.items()) == {"a": 2, "b": 1}


def python_dict_argument(d):
    return len(d)


def test_python_dict_argument_refused():
    with pytest.raises(TypeError):
        njit(python_dict_argument)({1: 2})


# ---------------------------------------------------------------- refused

def unhashable_key(n):
    d = {}
    d[[n]] = 1
    return d


def mixed_keys(n):
    return {1: 1, "a": 2}


def test_refused_with_the_line():
    with pytest.raises(errors.TypingError, match="unhashable"):
        njit(unhashable_key)(1)
    with pytest.raises(errors.TypingError, match="different types"):
        njit(mixed_keys)(1)


def test_no_leak():
    f = njit(values_of_every_kind)
    g = njit(methods)
    assert_no_leaks(lambda: f(4), lambda: g(4))


def augmented_items(words, n):
    counts = {}
    for w in words.split():
        if w in counts:
            counts[w] += 1
        else:
            counts[w] = 1
    sums = {(0, 1): 0.5}
    for i in range(n):
        sums[(0, 1)] -= i
        sums[(0, 1)] *= 1.5
    texts = {"k": "a"}
    texts["k"] += "bc"
    xs = [1, 2, 3]
    for i in range(n):
        xs[i % 3] += i
        xs[-1] //= 2
    lists = [[1], [2]]
    lists[1] += [3]
    return counts, sums, texts, xs, lists


@pytest.mark.parametrize("n", [0, 1, 7])
def test_augmented_assignment_to_items(n):
    check(augmented_items, "a b a c a b", n)


def augmented_missing(d, k):
    d[k] += 1
    return d


def test_augmented_assignment_missing_key_and_index():
    d = mahou.typed.Dict()
    d[1] = 2
    f = njit(augmented_missing)
    with pytest.raises(KeyError):
        f(d, 5)
    assert f(d, 1)[1] == 3

    @njit
    def out_of_range(i):
        xs = [1, 2]
        xs[i] += 1
        return xs

    with pytest.raises(IndexError):
        out_of_range(2)
    assert out_of_range(-2) == [2, 2]
