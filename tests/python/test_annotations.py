"""Annotations as Numba accepts them: typed.List[T] / typed.Dict[K, V] subscripted in
function annotations (generic aliases, ignored by the compiler), jitclass fields given as
annotations with typing generics (List, Dict, Set, Tuple, Optional, list[...]), numba
types and NumPy dtypes, and optional(T) / Optional(T) in signatures."""

from __future__ import annotations

import typing
from typing import Dict, List, Optional, Tuple

import numpy as np
import pytest

import mahou
from conftest import assert_same, check
from mahou import float32, float64, int64, njit, typed, types
from mahou.experimental import jitclass


def test_typed_containers_are_subscriptable():
    alias = typed.List[np.ndarray]
    assert typing.get_origin(alias) is typed.List and typing.get_args(alias) == (np.ndarray,)
    alias = typed.Dict[str, typed.List[float64]]
    assert typing.get_origin(alias) is typed.Dict


def lengths(xs: typed.List[np.ndarray], scale: float = 1.0) -> typed.List[float]:
    out = typed.List()
    for x in xs:
        out.append(len(x) * scale)
    return out


def totals(xs: typed.List[typed.List[np.ndarray]]) -> Tuple[float, int]:
    s = 0.0
    n = 0
    for inner in xs:
        for a in inner:
            s += a.sum()
            n += 1
    return s, n


def test_functions_annotated_with_typed_containers():
    xs = typed.List([np.arange(3.0), np.arange(5.0), np.empty(0)])
    assert list(njit(lengths)(xs, 2.0)) == list(lengths(xs, 2.0))
    nested = typed.List([typed.List([np.arange(3.0), np.ones(2)]), typed.List([np.arange(4.0)])])
    assert_same(njit(totals)(nested), totals(nested))


@jitclass
class Annotated:
    xs: List[float]
    counts: Dict[str, int]
    best: Optional[float]
    pair: Tuple[int, float]
    ys: list[int]
    zs: typed.List[float64]
    w: np.float32
    k: int64

    def __init__(self, k):
        self.xs = typed.List.empty_list(float64)
        self.counts = typed.Dict.empty(types.unicode_type, types.int64)
        self.best = None
        self.pair = (k, 0.5)
        self.ys = typed.List.empty_list(int64)
        self.zs = typed.List.empty_list(float64)
        self.w = np.float32(k)
        self.k = k

    def add(self, x):
        self.xs.append(x)
        self.ys.append(len(self.xs))
        self.counts["n"] = len(self.xs)
        if self.best is None or x > self.best:
            self.best = x
        return self.best


def test_jitclass_fields_from_typing_annotations():
    a = Annotated(3)
    assert a.best is None
    for x in (1.0, -2.0, 4.5, 3.0):
        a.add(x)
    assert list(a.xs) == [1.0, -2.0, 4.5, 3.0] and list(a.ys) == [1, 2, 3, 4]
    assert a.best == 4.5 and dict(a.counts) == {"n": 4}
    assert a.pair == (3, 0.5) and a.w == np.float32(3) and isinstance(a.w, (float, np.floating))
    spec = dict(Annotated.spec)
    assert spec["k"] == int64


def test_annotation_union_not_optional_is_refused():
    class Bad:
        x: typing.Union[int, float]

        def __init__(self):
            self.x = 1

    with pytest.raises(TypeError, match="Union"):
        jitclass(Bad)()


def seeded(x, seed):
    if seed is not None:
        return x.sum() + seed
    return x.sum() * 2


@pytest.mark.parametrize("sig", [
    "float64(float64[:], optional(int32))",
    "float64(float64[:], Optional(int32))",
    types.float64(types.float64[:], types.optional(types.int32)),
    types.float64(types.float64[:], types.Optional(types.int32)),
])
def test_optional_in_signatures(sig):
    f = njit(sig)(seeded)
    x = np.arange(4.0)
    for seed in (None, 3, -7, 0):
        assert_same(f(x, seed), seeded(x, seed))
    assert_same(f(x[::2], None), seeded(x[::2], None))
    with pytest.raises(TypeError, match="No matching definition"):
        f(x, "seed")
