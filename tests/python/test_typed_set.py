"""mahou.typed.Set (numba.typed.Set): a set of one key type shared with compiled code,
compared with Python's set on the same operations."""
import gc
import pickle
import sys

import numpy as np
import pytest

from mahou import njit, typed, types
from mahou.errors import TypingError, UnsupportedError


def test_from_python_like_a_set():
    s = typed.Set()
    assert len(s) == 0 and 3 not in s and repr(s) == "UntypedSet({})"
    for k in (3, 1, 3, -7):
        s.add(k)
    assert sorted(s) == [-7, 1, 3] and len(s) == 3 and 1 in s and 2 not in s
    assert repr(s) == "SetType[int64]({3, 1, -7})" and str(s) == "{3, 1, -7}"
    s.discard(1)
    s.discard(100)  # absent: nothing happens
    assert s == {3, -7} and s != {3}
    s.remove(3)
    with pytest.raises(KeyError):
        s.remove(3)
    assert s.pop() == -7 and len(s) == 0
    assert s.key_type == types.int64
    with pytest.raises(TypeError):
        s.add(1.5)  # a float into a set of ints
    assert "x" not in s  # a key of another type is simply absent


def test_mutable_set_methods_and_operators():
    a = typed.Set([1, 2, 3])
    b = {2, 3, 4}
    assert (a | b) == {1, 2, 3, 4} and isinstance(a | b, typed.Set)
    assert (a & b) == {2, 3} and (a - b) == {1} and (a ^ b) == {1, 4}
    assert a.isdisjoint({9}) and not a.isdisjoint(b) and a <= {1, 2, 3, 5}
    a |= {10}
    a -= {1}
    assert a == {2, 3, 10}
    a.clear()
    assert len(a) == 0
    c = a.copy()
    c.add(5)
    assert len(a) == 0 and c == {5}
    with pytest.raises(TypeError):
        hash(c)


@pytest.mark.parametrize("keys, key_type", [([1.5, -0.0, 2.25], types.float64), (["a", "bé", ""], types.unicode_type),
                                           ([(1, 2), (3, -4)], types.UniTuple(types.int64, 2))])
def test_empty_of_a_key_type(keys, key_type):
    s = typed.Set.empty(key_type)
    assert s.key_type == key_type and len(s) == 0
    for k in keys:
        s.add(k)
    assert set(s) == set(keys)


def test_shared_with_compiled_code_without_a_copy():
    @njit
    def change(s, k):
        s.add(k)
        s.discard(1)
        return len(s), k in s, 1 in s

    s = typed.Set([1, 2])
    assert change(s, 7) == (2, True, False)
    assert s == {2, 7}  # the caller sees the changes
    assert change(s, 7) == (2, True, False)
    plain = {1, 2}
    assert change(plain, 7) == (2, True, False)  # a Python set: reflected, its own signature
    assert plain == {2, 7} and len(change.signatures) == 2


def test_made_in_compiled_code():
    @njit
    def make(n):
        s = typed.Set()
        for i in range(n):
            s.add(i % 3)
        t = s.copy()
        t.add(10)
        total = 0
        for k in t:
            total += k
        return s, t, s == t, total

    s, t, same, total = make(5)
    assert isinstance(s, typed.Set) and isinstance(t, typed.Set)
    assert s == {0, 1, 2} and t == {0, 1, 2, 10} and not same and total == 13
    assert s.key_type == types.int64

    @njit
    def empty_of():
        s = typed.Set.empty(types.float64)
        s.add(1)  # an int key into a set of floats: converted
        return s

    e = empty_of()
    assert e == {1.0} and e.key_type == types.float64


def test_keys_are_reference_counted():
    s = typed.Set()
    key = "k" * 50
    s.add(key)
    gc.collect()
    assert list(s) == [key]
    del s
    gc.collect()
    a = np.arange(3)
    before = sys.getrefcount(a)
    with pytest.raises(TypeError):
        typed.Set().add(a)  # arrays are unhashable
    assert sys.getrefcount(a) == before


def test_pickles_by_value():
    s = typed.Set(["x", "y"])
    t = pickle.loads(pickle.dumps(s))
    assert isinstance(t, typed.Set) and t == {"x", "y"} and t.key_type == types.unicode_type
    assert pickle.loads(pickle.dumps(typed.Set())) == set()


def test_compiled_refusals():
    with pytest.raises(UnsupportedError, match="Set"):
        njit(lambda: typed.Set([1, 2]))()
    with pytest.raises(TypingError):
        njit(lambda: typed.Set.empty(types.float64[:]))()  # arrays are unhashable
