"""enum.Enum and enum.IntEnum members in compiled code, as Numba documents them: members
as globals (Color.RED, an alias, a module-level member), arguments from Python and return
values (boxed as the member), `==`/`!=`/`is`/`is not` (members of another class and
other values are unequal), `.value`, `.name`, dict keys and list items, and IntEnum
members as integers (arithmetic, ordering, indexing, truth, int())."""

import enum

import numpy as np
import pytest

from conftest import assert_same, check
from mahou import njit
from mahou.errors import TypingError, UnsupportedError


class Color(enum.Enum):
    RED = 1
    GREEN = 2
    BLUE = 3
    CRIMSON = 1  # an alias of RED


class Shape(enum.Enum):
    CIRCLE = 1
    SQUARE = 2


class Level(enum.IntEnum):
    LOW = 0
    MID = 5
    HIGH = 10


class Ratio(enum.Enum):
    HALF = 0.5
    THIRD = 1.0 / 3


class Named(enum.Enum):
    A = "a"
    B = "b"


FAVOURITE = Color.GREEN


def describe(c):
    if c == Color.RED:
        return 1, c.value, c is Color.CRIMSON
    if c is FAVOURITE:
        return 2, c.value, c != Color.BLUE
    return 3, c.value, c == Shape.CIRCLE or c == 1


def names(c, s):
    return c.name, s.name, Color.BLUE.name, len(c.name)


def pick(i):
    c = Color.RED
    if i == 1:
        c = Color.GREEN
    elif i == 2:
        c = Color.BLUE
    return c


def int_enum_math(level, a):
    total = level + 1
    total += level * 2
    bigger = level > Level.LOW and level >= 5
    return total, bigger, a[Level.MID], int(level), bool(level), -level, level == 5


def counts(cs):
    d = {}
    for c in cs:
        d[c] = d.get(c, 0) + 1
    return d[Color.RED], d.get(Color.BLUE, 0), len(d)


def constant_value():
    return Color.BLUE.value * 10 + Level.HIGH.value + Ratio.HALF.value


@pytest.mark.parametrize("c", list(Color))
def test_compare_and_value(c):
    check(describe, c)


@pytest.mark.parametrize("c,s", [(Color.RED, Shape.CIRCLE), (Color.BLUE, Shape.SQUARE), (Color.CRIMSON, Shape.SQUARE)])
def test_names(c, s):
    check(names, c, s)


@pytest.mark.parametrize("i", [0, 1, 2])
def test_returned_member_is_the_member(i):
    got = njit(pick)(i)
    assert got is pick(i)


@pytest.mark.parametrize("level", list(Level))
def test_int_enum_is_an_int(level):
    check(int_enum_math, level, np.arange(12.0))


def test_float_values():
    @njit
    def half(r):
        return r.value * 2, r.name, r == Ratio.THIRD

    assert half(Ratio.HALF) == (1.0, "HALF", False)
    assert half(Ratio.THIRD) == (2.0 / 3, "THIRD", True)


def test_members_as_dict_keys_and_list_items():
    cs = [Color.RED, Color.BLUE, Color.RED, Color.GREEN]
    assert njit(counts)(cs) == counts(cs)
    assert cs == [Color.RED, Color.BLUE, Color.RED, Color.GREEN]  # reflected back as members

    @njit
    def collect(n):
        out = [Color.RED]
        for i in range(n):
            out.append(Color.BLUE if i % 2 else Color.GREEN)
        return out

    assert collect(3) == [Color.RED, Color.GREEN, Color.BLUE, Color.GREEN]


def test_global_constants_fold():
    check(constant_value)


def test_one_overload_per_class():
    f = njit(describe)
    f(Color.RED)
    f(Color.BLUE)
    assert len(f.overloads) == 1
    f(Shape.SQUARE)
    assert len(f.overloads) == 2


def test_refused():
    @njit
    def order(a, b):
        return a < b

    with pytest.raises(TypingError, match="not ordered"):
        order(Color.RED, Color.BLUE)

    @njit
    def add(a):
        return a + 1

    with pytest.raises(TypingError):
        add(Color.RED)

    @njit
    def uses_str_enum():
        return Named.A

    with pytest.raises(UnsupportedError, match="not all integers"):
        uses_str_enum()
    with pytest.raises(TypeError, match="not all integers"):
        njit(lambda x: x)(Named.B)
