"""Exceptions raised by compiled code have CPython's (or NumPy's) class and args: a
KeyError's argument is the missing key itself (dicts, sets, typed.Dict from Python and
from compiled code), list.index names repr(x), ZeroDivisionError messages per operator
and operand kind, int() of a bad base, reductions of empty arrays."""

import numpy as np
import pytest

from mahou import njit, typed, types


def outcome(fn, *args):
    try:
        return ("ok", fn(*args))
    except Exception as e:  # noqa: BLE001 (the class and args are compared)
        return (type(e).__name__, e.args)


def same_as_python(fn, *args):
    want = outcome(fn, *args)
    got = outcome(njit(fn), *args)
    assert got == want, (fn.__name__, args, got, want)
    return got


def dict_get(k):
    d = {'a': 1, 'ß': 2}
    return d[k]


def int_dict_get(k):
    d = {1: 1, -7: 2}
    return d[k]


def dict_pop(k):
    d = {1: 1}
    return d.pop(k)


def dict_del(k):
    d = {1: 1}
    del d[k]


def set_remove(k):
    s = {1, 2}
    s.remove(k)


def str_set_remove(k):
    s = {'x'}
    s.remove(k)


def tuple_key(k):
    d = {(1, 'a'): 1}
    return d[k]


def float_key(k):
    d = {1.5: 1}
    return d[k]


def bool_key(k):
    d = {True: 1}
    return d[k]


def caught(k):
    d = {1: 1}
    try:
        return d[k]
    except KeyError:
        return -1


@pytest.mark.parametrize("fn,key", [(dict_get, 'b'), (dict_get, 'ü'), (dict_get, ''), (int_dict_get, 99),
                                    (int_dict_get, -5), (dict_pop, 99), (dict_del, 0), (set_remove, 99),
                                    (str_set_remove, 'y'), (tuple_key, (2, 'b')), (float_key, 0.1),
                                    (bool_key, False), (caught, 3), (dict_get, 'a')])
def test_key_errors_carry_the_key(fn, key):
    kind, args = same_as_python(fn, key)
    if kind == "KeyError":
        assert args == (key,) and type(args[0]) is type(key)


def test_typed_dict_key_errors():
    d = typed.Dict.empty(types.unicode_type, types.int64)
    d['a'] = 1
    with pytest.raises(KeyError) as e:
        d['b']
    assert e.value.args == ('b',)

    @njit
    def get(d, k):
        return d[k]

    with pytest.raises(KeyError) as e:
        get(d, 'b')
    assert e.value.args == ('b',)
    n = typed.Dict.empty(types.int64, types.float64)
    with pytest.raises(KeyError) as e:
        get(n, 99)
    assert e.value.args == (99,)
    with pytest.raises(KeyError) as e:
        n.pop(99)
    assert e.value.args == (99,)


def list_index(x):
    xs = [1, 2, 3]
    return xs.index(x)


def str_list_index(x):
    xs = ['a', 'b']
    return xs.index(x)


def list_index_from(x):
    xs = [1, 2, 3]
    return xs.index(x, 2)


def float_list_index(x):
    xs = [0.5, 2.0]
    return xs.index(x)


def list_remove(x):
    xs = [1, 2]
    xs.remove(x)


@pytest.mark.parametrize("fn,x", [(list_index, 99), (list_index, 2), (str_list_index, 'q'), (str_list_index, "it's"),
                                  (list_index_from, 1), (float_list_index, 0.1), (list_remove, 99)])
def test_list_search_errors(fn, x):
    same_as_python(fn, x)


def test_typed_list_index_error():
    xs = typed.List([1, 2])
    with pytest.raises(ValueError, match="^99 is not in list$"):
        xs.index(99)
    with pytest.raises(ValueError, match=r"^list\.remove\(x\): x not in list$"):
        xs.remove(99)


def floor_div(a, b):
    return a // b


def modulo(a, b):
    return a % b


def true_div(a, b):
    return a / b


def div_mod(a, b):
    return divmod(a, b)


def int_power(a, b):
    return a ** b


@pytest.mark.parametrize("fn", [floor_div, modulo, true_div, div_mod])
@pytest.mark.parametrize("a,b", [(1, 0), (1.0, 0.0), (1, 0.0), (1.0, 0), (-3, 0), (0, 0)])
def test_zero_division_messages(fn, a, b):
    same_as_python(fn, a, b)


def test_zero_to_a_negative_power():
    with pytest.raises(ZeroDivisionError) as e:
        njit(int_power)(0, -1)
    with pytest.raises(ZeroDivisionError) as want:
        int_power(0, -1)
    assert e.value.args == want.value.args
    same_as_python(int_power, 0.0, -1)


def int_of(s, base):
    return int(s, base)


@pytest.mark.parametrize("s,base", [("12", 1), ("12", 37), ("12", -1), ("x", 10), ("", 10), ("z", 36), ("12", 0),
                                    ("0x1f", 16), ("0X1F", 0), ("0o17", 0), ("0b101", 2), ("-0b101", 0), ("010", 0),
                                    ("00", 0), ("0_0", 0), ("0x_1", 16), ("0x", 16), ("0x1f", 10), ("1_000", 10),
                                    ("_1", 10), ("1__0", 10), (" +7 ", 0), ("0b2", 2)])
def test_int_of_strings(s, base):
    same_as_python(int_of, s, base)


def array_max(a):
    return a.max()


def array_min(a):
    return np.min(a)


def array_argmax(a):
    return a.argmax()


@pytest.mark.parametrize("fn", [array_max, array_min, array_argmax])
def test_empty_reductions(fn):
    same_as_python(fn, np.zeros(0))
    same_as_python(fn, np.arange(3.0))
