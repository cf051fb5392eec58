"""Optional values (None on some paths) as operands where Numba takes them: `and`/`or`
give the operand whose truth decides (None is false), `pow`, `divmod`, `min`, `max`,
`int()` and `float()` take the value (TypeError when it is None), `bool()` of anything
with a truth value (sets and dicts too); and `dict()` of a dict. Each compared with
CPython on several inputs."""

import pytest

from conftest import check, jitted


def maybe(c, x):
    o = None
    if c:
        o = x
    return o


def or_and(c, x, y):
    o = None
    if c:
        o = x
    return (o or y), (o and y), (y and o), (y or o), (o or o or y)


@pytest.mark.parametrize("c,x,y", [(True, 3, 5), (False, 3, 5), (True, 0, 7), (True, -2, 0), (False, 0, 0)])
def test_or_and_of_an_optional_int(c, x, y):
    check(or_and, c, x, y)


@pytest.mark.parametrize("c,x,y", [(True, True, False), (False, True, True), (True, False, True), (False, False, False)])
def test_or_and_of_an_optional_bool(c, x, y):
    check(or_and, c, x, y)


@pytest.mark.parametrize("c,x,y", [(True, 2.5, 1.0), (False, 2.5, -1.0), (True, 0.0, 3.0), (True, -0.0, 0.0)])
def test_or_and_of_an_optional_float(c, x, y):
    check(or_and, c, x, y)


def or_in_a_condition(c, x):
    o = None
    if c:
        o = x
    n = 0
    if o or x > 10:
        n += 1
    if not (o and x < 0):
        n += 2
    return n


@pytest.mark.parametrize("c,x", [(True, 3), (False, 3), (True, 0), (False, 20), (True, -4)])
def test_or_and_of_an_optional_as_a_condition(c, x):
    check(or_in_a_condition, c, x)


def or_with_effects(c, xs):
    o = None
    if c:
        o = len(xs)
    return (o or xs.pop()), len(xs)


@pytest.mark.parametrize("c,xs", [(True, [1, 2]), (False, [1, 2]), (True, [5]), (False, [7])])
def test_or_evaluates_the_right_operand_only_when_needed(c, xs):
    check(or_with_effects, c, xs)


def numbers_of_optionals(c, x, y):
    o = None
    if c:
        o = x
    return pow(o, 2), pow(o, 3, 7), divmod(o, y), divmod(y, o), min(o, y), max(o, y, 1), float(o), int(o)


@pytest.mark.parametrize("c,x,y", [(True, 7, 3), (True, -7, 2), (True, 4, -3), (True, 1, 5)])
def test_builtins_take_an_optionals_value(c, x, y):
    check(numbers_of_optionals, c, x, y)


def float_of_optionals(c, x):
    o = None
    if c:
        o = x
    return float(o), min(o, 0.5), max(1.0, o), divmod(o, 0.75), pow(o, 2)


@pytest.mark.parametrize("x", [2.5, -1.25, 0.0])
def test_builtins_take_an_optional_floats_value(x):
    check(float_of_optionals, True, x)


@pytest.mark.parametrize("fn,args", [(numbers_of_optionals, (False, 1, 2)), (float_of_optionals, (False, 1.5))])
def test_builtins_of_none_raise_type_error(fn, args):
    with pytest.raises(TypeError):
        fn(*args)
    with pytest.raises(TypeError):
        jitted(fn)(*args)


def divmod_evaluates_both_first(c, xs):
    o = None
    if c:
        o = 3
    xs.pop()
    return divmod(o, xs.pop())


def test_divmod_of_none_evaluates_both_operands_first():
    """Python evaluates both arguments before divmod() sees None: an IndexError from
    the second comes first."""
    for fn in (divmod_evaluates_both_first, jitted(divmod_evaluates_both_first)):
        with pytest.raises(IndexError):
            fn(False, [1])
        with pytest.raises(TypeError):
            fn(False, [2, 1])
    check(divmod_evaluates_both_first, True, [2, 1])


def truths(n):
    s = {1, 2}
    d = {"a": 1}
    e = {1: 2.5}
    e.clear()
    t = set()
    t.add(n)
    t.discard(n)
    o = None
    if n > 0:
        o = n
    return bool(s), bool(d), bool(e), bool(t), bool(o), bool([n]), bool(""), bool("x"), bool(None)


@pytest.mark.parametrize("n", [3, 0, -1])
def test_bool_of_containers_strings_and_optionals(n):
    check(truths, n)


def dict_of_a_dict(n):
    d = {"a": n, "b": n * 2}
    c = dict(d)
    c["z"] = 0
    d["a"] = -1
    e = dict({1: 2.5, 3: 4.5})
    return c, d, e, len(dict(c)), len(dict(e))


@pytest.mark.parametrize("n", [1, -5])
def test_dict_of_a_dict_is_a_copy(n):
    check(dict_of_a_dict, n)
