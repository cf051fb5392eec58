"""Membership in sets of int64 and str across their growth (the index a set keeps is
sparser than a dict's): keys that collide in the identity hash (multiples of powers of
two), negatives and values past the hash modulus, removals leaving deleted slots, sets
emptied and refilled; each compiled and run by CPython (NumPy arrays as queries)."""

import numpy as np
import pytest

from mahou import njit

from conftest import same_as_python as same


def count_members(keys, queries):
    s = set(keys)
    n = 0
    for q in queries:
        if q in s:
            n += 1
    return n


def members_after_removals(keys, drop, queries):
    s = set(keys)
    for k in drop:
        s.discard(k)
    hits = []
    for q in queries:
        if q in s:
            hits.append(q)
    return len(s), hits


def grown_one_by_one(n, stride, queries):
    s = set()
    seen = []
    for i in range(n):
        s.add(i * stride - n)
        if i % 7 == 0:
            seen.append(len(s))
    hits = 0
    for q in queries:
        if q in s:
            hits += 1
        if -q not in s:
            hits += 3
    return hits, seen, len(s)


def emptied_and_refilled(keys, queries):
    s = set(keys)
    for k in keys:
        s.remove(k)
    before = 0
    for q in queries:
        if q in s:
            before += 1
    for k in keys:
        s.add(k + 1)
    after = 0
    for q in queries:
        if q in s:
            after += 1
    return before, after, len(s)


def str_members(words, queries):
    s = set()
    for w in words:
        s.add(w)
    n = 0
    for q in queries:
        if q in s:
            n += 1
        if q + "x" in s:
            n += 10
    return n


SIZES = [0, 1, 5, 8, 9, 16, 17, 100, 511, 512, 513, 1000, 1024, 1025, 3000]


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("stride", [1, 3, 1024, 1 << 33])
def test_int_membership_equals_python(n, stride):
    keys = np.arange(n, dtype=np.int64) * stride - 7
    rng = np.random.default_rng(n + stride % 97)
    queries = np.concatenate(
        [keys, keys + 1, -keys, rng.integers(-10 * n - 10, stride * n + 10, 500), np.array([2**61 - 1, 2**63 - 1, -(2**63), -1, -2, 2**61], np.int64)]
    ).astype(np.int64)
    same(count_members, keys, queries)
    same(count_members, keys, queries[::-3])  # a non-contiguous view


@pytest.mark.parametrize("n", [3, 100, 1000, 2500])
def test_membership_after_removals(n):
    keys = np.arange(n, dtype=np.int64) * 5
    drop = keys[::2].copy()
    queries = np.arange(-10, 5 * n + 10, dtype=np.int64)
    same(members_after_removals, keys, drop, queries)
    same(members_after_removals, list(keys.tolist()), list(drop.tolist()), list(queries.tolist()))


@pytest.mark.parametrize("n, stride", [(0, 1), (1, 1), (20, 2), (700, 4096), (2000, 1), (2000, 3)])
def test_grown_one_by_one(n, stride):
    queries = np.arange(-3 * n - 5, 3 * n + 5, dtype=np.int64)
    same(grown_one_by_one, n, stride, queries)


@pytest.mark.parametrize("n", [1, 64, 1500])
def test_emptied_and_refilled(n):
    keys = np.arange(n, dtype=np.int64) * 2
    queries = np.arange(-2, 2 * n + 3, dtype=np.int64)
    same(emptied_and_refilled, keys, queries)


@pytest.mark.parametrize("n", [1, 2, 12, 700])
def test_str_membership_equals_python(n):
    words = [f"w{i * 37 % 1000}" + "é" * (i % 3) for i in range(n)]
    queries = words[::2] + [w + "x" for w in words[::3]] + ["", "x", "w", "w1"]
    same(str_members, words, queries)


def test_result_is_exact_for_the_pattern_of_the_benchmark():
    keys = np.arange(0, 3000, 3, dtype=np.int64)
    queries = np.random.default_rng(1).integers(-100, 3100, 20_000)
    want = int(np.isin(queries, keys).sum())
    assert njit(count_members)(keys, queries) == want
