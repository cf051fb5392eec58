"""Dicts of string-constant keys whose values have different types (`{'a': 1, 'b': 'x'}`,
Numba's literal string-key dicts), compared with CPython: d['key'] and d.get('key') with a
constant key, len(), `in`, ==, iteration over the keys, keys()/values()/items(),
literal_unroll(), copy(), unpacking, isinstance, their text, passing them to another
compiled function and returning them. The operations that would change the keys or a
value's type, a key that is not a constant, and the operations a tuple would answer
differently are refused with an error naming the line."""

import numpy as np
import pytest

from conftest import check
from mahou import literal_unroll, njit
from mahou.errors import TypingError, UnsupportedError

XS = [0, 3, -7]


def getitems(x):
    d = {"a": x, "b": 2.5, "c": "str", "arr": np.arange(3), "t": (x, "q"), "n": None, "z": 1j * x, "f": x > 0}
    return d["a"] + 1, d["b"], d["c"], d["arr"].sum() + x, d["t"], d["n"], d["z"], d["f"], len(d)


def nested(x):
    d = {"inner": {"b1": x, "b2": "string"}, "lst": [1, 2, x], "mixed": ["a", x, 2.5], "k": 1}
    return d["inner"]["b1"], d["inner"]["b2"], d["lst"][2], d["mixed"][0], d["mixed"][1] + d["k"], len(d["inner"])


def membership(x):
    d = {"a": x, "b": "y"}
    key = "a" if x > 0 else "zz"
    word = "y" * (x % 3)
    return ("a" in d, "z" in d, "b" not in d, key in d, key not in d, x in d, None in d, "a" in d.keys(),
            key in d.keys(), "y" in d.values(), word in d.values(), x in d.values(), x + 1 not in d.values())


def equality(x):
    d = {"a": x, "b": "y"}
    same_other_order = {"b": "y", "a": x}
    return (d == same_other_order, d != same_other_order, d == {"a": x + 1, "b": "y"}, d == {"a": x, "c": "y"},
            d == {"a": float(x), "b": "y"}, d == 1, d != (x, "y"), d == None, d == "a", d != [1])  # noqa: E711


def gets(x):
    d = {"a": x, "b": "y", "c": 1.5}
    return d.get("a"), d.get("zz"), d.get("zz", x * 2), d.get("b", "default"), d.copy(), dict(d)


def reductions(x):
    d = {"b": x, "a": 2.5, "c": True, "ab": None}
    numbers = {"n": x, "f": 0.5, "t": True}
    return min(d), max(d), sum(numbers.values())


def iteration(x):
    d = {"a": x, "b": "y", "c": (1, 2.5)}
    keys = []
    for k in d:
        keys.append(k)
    for k in d.keys():
        keys.append(k + "!")
    first, second, third = d
    return keys, [k * 2 for k in d], list(d), sorted(d, reverse=True), first + second + third, x in d.values()


def enumerate_zip(x):
    d = {"a": x, "b": "y"}
    out = []
    for i, k in enumerate(d):
        out.append((i, k))
    for k, v in zip(d, (x, x + 1)):
        out.append((v, k))
    return out


def unrolled(x):
    d = {"n": x, "s": "word", "f": 2.5, "b": True, "none": None}
    total = 0.0
    text = ""
    for v in literal_unroll(d.values()):
        if isinstance(v, str):
            text += v
        elif v is not None:
            total += v
    for k, v in literal_unroll(d.items()):
        text += k
    for k in literal_unroll(d):
        text += k.upper()
    return total, text


def kinds(x):
    d = {"a": x, "b": "y"}
    return isinstance(d, dict), isinstance(d, tuple), isinstance(d, list), bool(d), len(d.values()), len(d.items())


def repeated_keys(x):
    d = {"a": x, "b": "y", "a": "last"}  # noqa: F601
    return d["a"], len(d), d


def runtime_values(x):
    e = x + 5 > 2
    d = {"a": 1, "b": 2j, "c": "d", "non_const": e, "arr": np.full(2, x)}
    return d["non_const"], d["arr"]


def branches(x):
    if x > 0:
        d = {"a": 2j, "c": "d", "e": np.zeros(4)}
    else:
        d = {"a": 5j, "c": "CAT", "e": np.zeros(5)}
    return d["c"], d["e"].shape[0], d["a"]


def returned(x):
    return {"a": x, "b": "two", "c": 3.5, "d": (x, x), "e": np.arange(x if x > 0 else 0)}


def returned_views(x):
    d = {"a": x, "b": "two"}
    return d.keys(), d.values(), d.items()


def spread(x):
    d = {"a": x, "b": "two"}
    return join3(*d, "c")


@njit
def join3(a, b, c):
    return a + b + c


def in_containers(x):
    d = {"a": x, "b": "y"}
    out = [d]
    out.append({"a": x + 1, "b": "z"})
    return out, [d, {"a": "q", "b": 1.5}], (d, 1), {1: d}, out[0] == d, d in out, set(d)


def mutable_values(x):
    d = {"l": [1, 2], "n": "x", "arr": np.zeros(2)}
    d["l"].append(x)  # the list and the array themselves change; the dict does not
    d["arr"][1] = x
    return d


def truth(x):
    d = {"a": x, "b": "y"}
    if d:
        return not d
    return True


@pytest.mark.parametrize("fn", [getitems, nested, membership, equality, gets, iteration, enumerate_zip, unrolled,
                                kinds, repeated_keys, runtime_values, branches, returned, spread, in_containers, reductions,
                                mutable_values, truth])
@pytest.mark.parametrize("x", XS)
def test_literal_dicts_match_python(fn, x):
    check(fn, x)


def array_values(a):
    d = {"whole": a, "n": a.shape[0], "name": "arr"}
    d["whole"][0] = 100.0
    return d["whole"].sum(), d["n"], d["name"]


@pytest.mark.parametrize("a", [np.arange(6.0), np.arange(10.0)[::-2], np.ones(1), np.arange(12.0).reshape(3, 4)[:, 1]])
def test_array_values_are_the_arrays_themselves(a):
    check(array_values, a)  # the write through d['whole'] reaches the argument, as in Python


def test_returned_literal_dict_and_views_are_pythons():
    got = njit(returned)(4)
    assert type(got) is dict and list(got) == ["a", "b", "c", "d", "e"]
    keys, values, items = njit(returned_views)(3)
    expected = returned_views(3)
    assert [type(v) for v in (keys, values, items)] == [type(v) for v in expected]
    assert list(keys) == list(expected[0]) and list(values) == list(expected[1]) and list(items) == list(expected[2])


def test_print_writes_a_dict_and_its_views(capfd):
    def show(x):
        d = {"a": x, "b": "y", "c": None, "t": (1, "q"), "f": 1.5}
        print(d)
        print(d.keys(), d.values(), d.items())
        print(f"{d}")

    njit(show)(2)
    out = capfd.readouterr().out
    show(2)
    assert out == capfd.readouterr().out


@njit
def add_ten(fake_kwargs=None):
    if fake_kwargs is not None:
        fake_kwargs["d"][:] += 10
    return fake_kwargs["a"]


def passed_on(x):
    d = {"a": x, "b": 2j, "c": "string", "d": np.zeros(3)}
    first = add_ten(fake_kwargs=d)
    return first, d["d"]


@pytest.mark.parametrize("x", XS)
def test_passed_to_another_compiled_function(x):
    assert njit(passed_on)(x)[0] == x
    np.testing.assert_array_equal(njit(passed_on)(x)[1], np.full(3, 10.0))


def homogeneous(x):
    d = {"a": 1, "b": 2}
    d["c"] = x  # values of one type: a typed dict, which can change
    return d


def test_values_of_one_type_stay_a_typed_dict():
    for x in XS:
        check(homogeneous, x)


def int_then_float(x):
    d = {"a": x, "b": 2.5, "c": True}  # a float does not convert safely to int: a literal dict
    return d["a"], d["b"], d["c"], d


def int32_then_int8(x):
    d = {"a": np.int32(x), "b": np.int8(2)}  # int8 converts safely to int32: a typed dict
    d["c"] = np.int32(5)
    return d["a"] + d["b"] + d["c"]


@pytest.mark.parametrize("fn", [int_then_float, int32_then_int8])
@pytest.mark.parametrize("x", XS)
def test_typed_or_literal_as_numba_decides(fn, x):
    check(fn, x)


def test_float_then_int_is_a_typed_dict_of_float():
    def float_then_int(x):
        d = {"a": 1.5, "b": x}  # int converts safely to float: a typed dict of float64, as Numba's
        d["c"] = 0.25
        return d

    got = njit(float_then_int)(3)
    assert type(got).__name__ == "Dict" and dict(got) == {"a": 1.5, "b": 3.0, "c": 0.25}
    assert type(got["b"]) is float


# ---- refusals --------------------------------------------------------------------------

def set_existing(x):
    d = {"a": 1, "b": "y"}
    d["a"] = x


def set_new(x):
    d = {"a": 1, "b": "y"}
    d["c"] = x


def aug(x):
    d = {"a": 1, "b": "y"}
    d["a"] += x


def delete(x):
    d = {"a": 1, "b": "y"}
    del d["a"]


def pop(x):
    d = {"a": 1, "b": "y"}
    d.pop("a")


def popitem(x):
    d = {"a": 1, "b": "y"}
    d.popitem()


def clear(x):
    d = {"a": 1, "b": "y"}
    d.clear()


def setdefault(x):
    d = {"a": 1, "b": "y"}
    d.setdefault("f", 1)


def update(x):
    d = {"a": 1, "b": "y"}
    d.update({"x": 3})


def variable_key(x):
    d = {"a": 1, "b": "y"}
    k = "a" if x else "b"
    return d[k]


def variable_get(x):
    d = {"a": 1, "b": "y"}
    k = "a" if x else "b"
    return d.get(k)


def int_key(x):
    d = {"a": 1, "b": "y"}
    return d[0]


def missing_key(x):
    d = {"not_a": 1, "b": "y"}
    return d["a"]


def other_keys(x):
    if x > 0:
        d = {"BAD": 1, "b": "y"}
    else:
        d = {"a": 1, "b": "y"}
    return len(d)


def hashed(x):
    return hash({"a": x, "b": "y"})


def as_set_item(x):
    return {{"a": x, "b": "y"}}


def concatenate(x):
    d = {"a": x, "b": "y"}
    return d + d


def repeat(x):
    d = {"a": x, "b": "y"}
    return d * 2


def ordered(x):
    d = {"a": x, "b": "y"}
    return d < d


def with_typed_dict(x):
    d = {"a": x, "b": "y"}
    return d == {"a": 1}


def summed(x):
    d = {"a": x, "b": 2.5}
    return sum(d)  # of the keys: a TypeError in Python


def smallest(x):
    d = {"a": x, "b": "y"}
    return min(d.values())  # an int and a str: a TypeError in Python


def as_array(x):
    d = {"a": x, "b": 2.5, "c": True, "s": "q"}
    return np.array(d)


def as_shape(x):
    d = {"a": 2, "b": "y"}
    return np.zeros(d)


def field(x):
    d = {"a": x, "b": "y"}
    return d.a


def tuple_method(x):
    d = {"a": x, "b": "y"}
    return d.index(x)


def view_index(x):
    d = {"a": x, "b": "y"}
    return d.values()[0]


def loop_over_values(x):
    d = {"a": x, "b": "y"}
    n = 0
    for v in d.values():
        n += 1
    return n


def sliced(x):
    d = {"a": x, "b": "y"}
    return d[0:1]


MUTATE = "Cannot mutate a literal dictionary"


@pytest.mark.parametrize("fn, exc, words", [
    (set_existing, TypingError, MUTATE), (set_new, TypingError, MUTATE), (aug, TypingError, MUTATE),
    (delete, TypingError, MUTATE), (pop, TypingError, MUTATE), (popitem, TypingError, MUTATE),
    (clear, TypingError, MUTATE), (setdefault, TypingError, MUTATE), (update, TypingError, MUTATE),
    (variable_key, TypingError, "not a string constant"), (variable_get, TypingError, "not a string constant"),
    (int_key, TypingError, "not a string constant"), (missing_key, TypingError, "Key 'a' is not in dict"),
    (other_keys, TypingError, ""), (hashed, TypingError, "unhashable type: 'dict'"),
    (as_set_item, TypingError, "unhashable type"), (concatenate, UnsupportedError, "does not support the operator"),
    (repeat, UnsupportedError, "does not support the operator"), (ordered, TypingError, "not supported"),
    (with_typed_dict, UnsupportedError, "comparing"), (summed, TypingError, ""),
    (smallest, TypingError, "min"), (as_array, UnsupportedError, "array"), (as_shape, TypingError, "shape"),
    (field, TypingError, "attribute"), (tuple_method, TypingError, "index"), (sliced, TypingError, ""),
    (view_index, TypingError, "'dict_values' object is not subscriptable"),
    (loop_over_values, UnsupportedError, r"literal_unroll\(d.values\(\)\)")])
def test_refused_with_the_line(fn, exc, words):
    with pytest.raises(exc, match=r"test_literal_dicts.py:\d+:\d+:(.|\n)*" + words):
        njit(fn)(1)
