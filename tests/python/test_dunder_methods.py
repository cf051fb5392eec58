"""Dunder methods called by name, compared with CPython: those Numba 0.68 compiles
(d.__setitem__, __hash__ of numbers, strings and tuples, __str__/__repr__ of integers,
bools and strings) and the refusal of the others."""

import numpy as np
import pytest

from conftest import check
from mahou import errors, njit, typed
from mahou.types import float64, int64, unicode_type


# ---------------------------------------------------------------- d.__setitem__

def dict_setitem_method(k, v):
    d = {1: 2.5}
    r = d.__setitem__(k, v)
    d.__setitem__(k + 1, v * 2)
    return d, r


def empty_dict_setitem_method(keys):
    d = {}
    for i in range(len(keys)):
        d.__setitem__(keys[i], i)
    return d


def str_dict_setitem_method(k):
    d = {"a": 1}
    d.__setitem__(k, len(k))
    d.__setitem__("a", -1)
    return d


def setitem_method_order(k, v):
    # receiver, key, then value: the order of a call (d[k] = v evaluates v first)
    log = [0]
    d = {0: 0}

    def receiver():
        log.append(1)
        return d

    def key():
        log.append(2)
        return k

    def value():
        log.append(3)
        return v

    receiver().__setitem__(key(), value())
    return d, log


@pytest.mark.parametrize("k, v", [(1, 3.5), (-4, 0.0), (0, -1.25), (2, 7.0)])
def test_dict_setitem_method(k, v):
    check(dict_setitem_method, k, v)


@pytest.mark.parametrize("keys", [[3, 1, 3], [-1], [5, 4, 3, 2, 1]])
def test_empty_dict_setitem_method(keys):
    check(empty_dict_setitem_method, keys)


@pytest.mark.parametrize("k", ["a", "bc", ""])
def test_str_dict_setitem_method(k):
    check(str_dict_setitem_method, k)


def test_setitem_method_evaluation_order():
    check(setitem_method_order, 3, 4)


def test_typed_dict_setitem_method():
    @njit
    def f(d, k, v):
        d.__setitem__(k, v)
        return len(d)

    d = typed.Dict.empty(int64, float64)
    assert f(d, 3, 1.5) == 1
    assert f(d, -3, 2) == 2
    assert dict(d) == {3: 1.5, -3: 2.0}


def test_dict_setitem_method_errors():
    @njit
    def wrong_value(v):
        d = {"a": 1}
        d.__setitem__("b", v)
        return d

    with pytest.raises(errors.TypingError, match=r"test_dunder_methods.py:\d+"):
        wrong_value(2.5)

    @njit
    def arity(d):
        d.__setitem__("x")

    with pytest.raises(errors.TypingError, match="takes 2 positional arguments"):
        arity(typed.Dict.empty(unicode_type, int64))


# ---------------------------------------------------------------- __hash__

def hash_method(x):
    return x.__hash__()


@pytest.mark.parametrize("x", [0, 3, -1, -2, 2**62, True, False, 1.5, -0.0, float("inf"), float("nan"), 1e300,
                               2 + 3j, -1.5j, np.int32(-4), np.uint8(200), np.float32(1.5), (1, 2.5), ((1, 2), -3),
                               (), "abc", "", "é∂"])
def test_hash_method(x):
    if isinstance(x, float) and x != x:
        # hash(nan) is the object's identity in CPython 3.10+; both return an int
        assert isinstance(njit(hash_method)(x), int)
        return
    check(hash_method, x)


def test_hash_method_equals_hash():
    @njit
    def both(x):
        return x.__hash__() == hash(x)

    for x in [5, 2.25, 1 - 1j, (3, "a"), "xyz"]:
        assert both(x)


# ---------------------------------------------------------------- __str__, __repr__

def str_methods(x):
    return x.__str__(), x.__repr__()


@pytest.mark.parametrize("x", [0, 3, -7, 2**63 - 1, -2**63, True, False, "abc", "", "a'b", 'q"', "é\n"])
def test_str_methods(x):
    check(str_methods, x)


@pytest.mark.parametrize("x", [np.int32(-4), np.uint64(2**64 - 1), np.int8(-128), np.uint16(7)])
def test_str_methods_of_numpy_integers(x):
    # a NumPy integer is a plain integer in compiled code: its repr is the digits, as in Numba
    assert njit(str_methods)(x) == (str(int(x)), str(int(x)))


# ---------------------------------------------------------------- the others are refused

def float_str(x):
    return x.__str__()


def list_getitem(i):
    xs = [1, 2, 3]
    return xs.__getitem__(i)


def list_setitem(i):
    xs = [1, 2, 3]
    xs.__setitem__(i, 0)
    return xs


def array_len(a):
    return a.__len__()


def number_add(x, y):
    return x.__add__(y)


def str_len(s):
    return s.__len__()


def dict_getitem(k):
    d = {1: 2}
    return d.__getitem__(k)


def tuple_len(t):
    return t.__len__()


@pytest.mark.parametrize("fn, args, err", [
    (float_str, (1.5,), errors.UnsupportedError),
    (list_getitem, (1,), errors.TypingError),
    (list_setitem, (1,), errors.TypingError),
    (array_len, (np.zeros(3),), errors.UnsupportedError),
    (number_add, (1, 2), errors.UnsupportedError),
    (number_add, (np.ones(2), np.ones(2)), errors.UnsupportedError),
    (str_len, ("abc",), errors.TypingError),
    (dict_getitem, (1,), errors.TypingError),
    (tuple_len, ((1, 2),), errors.TypingError),
])
def test_other_dunder_methods_are_refused(fn, args, err):
    # Numba 0.68 refuses these too (a TypingError); the message names the line
    with pytest.raises(err, match=r"test_dunder_methods.py:\d+:\d+: .*__"):
        njit(fn)(*args)
