"""Membership and lookups in int64- and str-keyed sets and dicts probed by compiled code
(`k in s`, `k in d`, `d[k]`, `d.get(k)`, `d.get(k, default)`): compared with CPython
over keys that collide (hashes equal modulo the table size, -1 and -2, 2**61 - 1 and its
multiples, the extremes of int64), deleted entries on the probe path, tables that grew,
empty tables, equal strings that are different objects, non-ASCII strings, and KeyError."""

import numpy as np
import pytest

from mahou import int64, njit
from mahou.typed import Dict, List

M61 = 2**61 - 1
INT_KEYS = [0, 1, -1, -2, 2, 7, 8, 16, 64, 1024, M61, -M61, M61 + 1, 2 * M61, -(2 * M61), M61 - 1,
            2**63 - 1, -(2**63), -(2**63) + 1, 2**62, 123456789012345, -987654321]


@njit
def members(keys, probes):
    s = set()
    for k in keys:
        s.add(k)
    out = []
    for p in probes:
        out.append(p in s)
    return out


@njit
def members_after_removal(keys, removed, probes):
    s = set(keys)
    for r in removed:
        s.discard(r)
    out = []
    for p in probes:
        out.append(p in s)
    return out


@njit
def dict_lookups(keys, probes):
    d = {}
    for i in range(len(keys)):
        d[keys[i]] = i * 10
    found = []
    got = []
    dflt = []
    for p in probes:
        found.append(p in d)
        g = d.get(p)
        got.append(-1 if g is None else g)
        dflt.append(d.get(p, -5))
    return found, got, dflt


@njit
def getitem(d, k):
    return d[k]


def python_members(keys, probes):
    s = set(keys)
    return [p in s for p in probes]


@pytest.mark.parametrize("nkeys", [0, 1, 5, 100, 3000])
def test_int_set_membership(nkeys):
    rng = np.random.default_rng(nkeys)
    keys = list(INT_KEYS[: min(nkeys, len(INT_KEYS))])
    keys += [int(x) for x in rng.integers(-(2**40), 2**40, max(0, nkeys - len(keys)))]
    keys += [i * 1024 for i in range(nkeys // 10)]  # equal low bits: long probe sequences
    probes = INT_KEYS + [k + 1 for k in keys[:200]] + keys[:200] + [i * 1024 for i in range(-5, nkeys // 10 + 5)]
    probes = [p for p in probes if -(2**63) <= p < 2**63]
    typed_keys = List(keys) if keys else List.empty_list(int64)
    assert members(typed_keys, List(probes)) == python_members(keys, probes)


def test_int_set_with_deleted_entries_on_the_path():
    keys = [i * 256 for i in range(50)] + list(range(100))
    removed = keys[::3]
    probes = keys + [k + 256 * 50 for k in range(10)] + [-1, -2]
    got = members_after_removal(List(keys), List(removed), List(probes))
    s = set(keys) - set(removed)
    assert got == [p in s for p in probes]


def test_int_dict_lookups():
    keys = INT_KEYS + list(range(-50, 50, 3))
    keys = list(dict.fromkeys(keys))
    probes = keys + [k ^ 1 for k in keys] + [5, -5, 3**30]
    found, got, dflt = dict_lookups(List(keys), List(probes))
    d = {k: i * 10 for i, k in enumerate(keys)}
    assert list(found) == [p in d for p in probes]
    assert list(got) == [d.get(p, -1) for p in probes]
    assert list(dflt) == [d.get(p, -5) for p in probes]


def test_str_dict_and_set():
    words = ["", "a", "b", "ab", "ba", "é", "日本", "𝄞x", "a" * 100, "key-%d"] + ["w%d" % i for i in range(500)]
    probes = words + ["".join(reversed(w)) + "?" for w in words] + ["w%d" % i for i in range(495, 520)]
    # equal strings that are other objects than the keys
    probes = probes + [p.encode().decode() for p in words]
    found, got, dflt = dict_lookups(List(words), List(probes))
    d = {k: i * 10 for i, k in enumerate(words)}
    assert list(found) == [p in d for p in probes]
    assert list(got) == [d.get(p, -1) for p in probes]
    assert list(dflt) == [d.get(p, -5) for p in probes]
    assert members(List(words), List(probes)) == python_members(words, probes)


def test_missing_key_raises_key_error():
    d = Dict()
    d[3] = 1.5
    d[-1] = 2.5
    assert getitem(d, -1) == 2.5
    with pytest.raises(KeyError):
        getitem(d, -2)
    s = Dict()
    s["x"] = 1
    assert getitem(s, "x") == 1
    with pytest.raises(KeyError, match="'y'"):
        getitem(s, "y")
