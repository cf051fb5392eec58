"""Lists whose items have different types (`['a', 1, 2j]`, Numba's literal lists): len(),
indexing with a constant, `in`, literal_unroll() and iteration, isinstance, their text and
returning them, compared with CPython; the operations that would treat them as tuples
(changing them, concatenating, slicing, hashing, comparing with a tuple) are refused with
an error naming the line."""

import pytest

from conftest import check
from mahou import literal_unroll, njit
from mahou.errors import TypingError, UnsupportedError


def items(x):
    lst = ["a", 1, 2j]
    return len(lst), lst[0], lst[1] + x, lst[-1] * x, lst[2]


def unrolled(x):
    lst = [x, "b", 2.5, True]
    total = 0.0
    words = ""
    for v in literal_unroll(lst):
        if isinstance(v, str):
            words += v
        else:
            total += v
    return total, words


def membership(x):
    lst = ["a", x, 2.5]
    return x in lst, "a" in lst, "z" in lst, 2.5 in lst, 7 not in lst


def kinds(x):
    lst = [x, "s"]
    return isinstance(lst, list), isinstance(lst, tuple), isinstance((x, "s"), tuple), isinstance(range(3), tuple)


def returned(x):
    return [x, "two", 3.5, (x, x)]


def equal(x):
    a = ["a", x]
    return a == ["a", x], a != ["a", x + 1], a == ["b", x]


@pytest.mark.parametrize("fn", [items, unrolled, membership, kinds, returned, equal])
@pytest.mark.parametrize("x", [0, 3, -7])
def test_literal_lists_match_python(fn, x):
    check(fn, x)


def test_a_returned_literal_list_is_a_list():
    got = njit(returned)(4)
    assert type(got) is list and got == [4, "two", 3.5, (4, 4)]


def test_print_writes_a_list(capfd):
    def show(x):
        print(["a", x, 1.5])

    njit(show)(2)
    assert capfd.readouterr().out == "['a', 2, 1.5]\n"


def change(x):
    lst = ["a", x]
    lst.append(1)


def assign(x):
    lst = ["a", x]
    lst[0] = "b"


def concatenate(x):
    lst = ["a", x]
    return lst + lst


def repeat(x):
    lst = ["a", x]
    return lst * 2


def slice_(x):
    lst = ["a", x]
    return lst[0:1]


def with_tuple(x):
    lst = ["a", x]
    return lst == ("a", x)


def hashed(x):
    return hash(["a", x])


def as_key(x):
    return {["a", x]: 1}


def variable_index(x):
    lst = ["a", x]
    return lst[x]


@pytest.mark.parametrize("fn, exc, words", [
    (change, TypingError, "has no attribute 'append'"), (assign, UnsupportedError, "cannot be changed"),
    (concatenate, UnsupportedError, "cannot be concatenated"), (repeat, UnsupportedError, "cannot be repeated"),
    (slice_, UnsupportedError, "cannot be sliced"), (with_tuple, UnsupportedError, "compared with a tuple"),
    (hashed, TypingError, "unhashable type"), (as_key, TypingError, "unhashable type"),
    (variable_index, (TypingError, UnsupportedError), "")])
def test_operations_a_tuple_would_answer_differently_are_refused(fn, exc, words):
    with pytest.raises(exc, match=r"test_literal_lists.py:\d+:\d+:.*" + words):
        njit(fn)(1)
