"""`match` statements (PEP 634), the subset Numba compiles: literal, value (dotted name),
capture, wildcard, or- and as-patterns, guards; and, beyond Numba, sequence patterns on
tuples (their length known from the type); compiled results against CPython's. Mapping
and class patterns are refused, as Numba refuses them."""

import enum
import math

import numpy as np
import pytest

from conftest import check
from mahou import njit
from mahou.errors import UnsupportedError


class Color(enum.Enum):
    RED = 1
    GREEN = 2
    BLUE = 3


class Level(enum.IntEnum):
    LOW = 0
    MID = 5
    HIGH = 10


LIMIT = 42


INTS = [0, 1, 2, 3, 4, -1, -4, 7, 42, 100, -(2**63), 2**63 - 1]


def ints(x):
    match x:
        case 1:
            return 10
        case 2 | 3:
            return 20
        case -4:
            return 40
        case 0x2A:
            return 42
        case -9223372036854775808:
            return -1
        case _:
            return 0


@pytest.mark.parametrize("x", INTS)
def test_int_literals(x):
    check(ints, x)


def floats(x):
    match x:
        case 1.5:
            return 1
        case 2:
            return 2
        case -0.0:
            return 3
        case 1e300:
            return 4
        case _:
            return 0


@pytest.mark.parametrize("x", [1.5, 2.0, 0.0, -0.0, 1e300, 3.25, -1.5, math.inf, math.nan])
def test_float_literals(x):
    check(floats, x)


@pytest.mark.parametrize("x", [2, 0, 5])
def test_float_pattern_on_int_subject(x):
    check(floats, x)


def complexes(z):
    match z:
        case 1 + 2j:
            return 1
        case -1 - 1j:
            return 2
        case 3j:
            return 3
        case _:
            return 0


@pytest.mark.parametrize("z", [1 + 2j, -1 - 1j, 3j, 0j, 1 + 0j])
def test_complex_literals(z):
    check(complexes, z)


def strings(s):
    match s:
        case "a":
            return 1
        case "b" | "c":
            return 2
        case "":
            return 3
        case "héllo" "!":
            return 4
        case _:
            return 0


@pytest.mark.parametrize("s", ["a", "b", "c", "", "héllo!", "héllo", "abc", "A"])
def test_string_literals(s):
    check(strings, s)


def mixed_kinds(x):
    match x:
        case "a":
            return 1
        case 1:
            return 2
        case None:
            return 3
        case _:
            return 4


@pytest.mark.parametrize("x", [1, 2, "a", "b"])
def test_patterns_of_other_types_do_not_match(x):
    check(mixed_kinds, x)


def enums(c):
    match c:
        case Color.RED:
            return 1
        case Color.GREEN | Color.BLUE:
            return 2
    return 0


@pytest.mark.parametrize("c", list(Color))
def test_enum_members(c):
    check(enums, c)


def int_enums(x):
    match x:
        case Level.LOW:
            return "low"
        case Level.MID:
            return "mid"
        case Level.HIGH:
            return "high"
        case _:
            return "other"


@pytest.mark.parametrize("x", list(Level) + [0, 5, 10, 3])
def test_int_enum_members(x):
    check(int_enums, x)


@pytest.mark.parametrize("x", [5, 10, 999, -5])
def test_dotted_value_patterns(x):
    def f(x):
        match x:
            case Level.MID:
                return 1
            case Level.HIGH:
                return 2
            case _:
                return 0

    check(f, x)


@pytest.mark.parametrize("x", [math.inf, 1.0, -math.inf])
def test_module_constant_value_pattern(x):
    def f(x):
        match x:
            case math.inf:
                return 1
            case math.pi:
                return 2
            case _:
                return 0

    check(f, x)


def bare_name_captures(x):
    match x:
        case 0:
            return -1
        case LIMIT:  # a bare name captures (a local LIMIT), it is never the global's value
            return LIMIT + 1


@pytest.mark.parametrize("x", [0, 42, 7])
def test_bare_name_is_a_capture(x):
    check(bare_name_captures, x)


def optional_none(flag, v):
    x = None if flag else v
    match x:
        case None:
            return -1
        case 3:
            return 3
        case _:
            return 0


@pytest.mark.parametrize("flag,v", [(True, 3), (False, 3), (False, 7), (False, -1)])
def test_none_pattern_on_optional(flag, v):
    check(optional_none, flag, v)


def literal_before_none(flag, v):
    x = None if flag else v
    match x:
        case 3 | Level.MID:
            return 3
        case None:
            return -1
        case k if k > 100:
            return k
    return 0


@pytest.mark.parametrize("flag,v", [(True, 3), (False, 3), (False, 5), (False, 7), (False, 101)])
def test_literal_pattern_on_optional_that_is_none(flag, v):
    check(literal_before_none, flag, v)  # None matches no literal (no TypeError from ==)


def guard_on_impossible_pattern(s):
    match s:
        case 5 as k if k > 2:  # never for a string: the body is pruned with the binding
            return str(k)
        case "a" as k if len(k) == 1:
            return k + "!"
        case _:
            return "-"


@pytest.mark.parametrize("s", ["a", "b", ""])
def test_guard_after_binding_on_a_pattern_of_another_type(s):
    check(guard_on_impossible_pattern, s)


def none_on_int(x):
    match x:
        case None:
            return 1
        case _:
            return 2


def test_none_pattern_on_int():
    check(none_on_int, 0)
    check(none_on_int, 5)


def bools(b):
    match b:
        case True:
            return 1
        case False:
            return 2
    return 3


@pytest.mark.parametrize("b", [True, False, 1, 0, 2, 1.0])
def test_true_false_are_identity_patterns(b):
    check(bools, b)  # `case True:` is `b is True`: 1 and 1.0 do not match


def captures(x):
    match x:
        case 1:
            return 1
        case y if y > 5:
            return y * 2
        case y:
            return -y


@pytest.mark.parametrize("x", [1, 6, 5, -3, 0])
def test_capture_with_guard(x):
    check(captures, x)


def guard_without_capture(x, flag):
    match x:
        case 1 if flag:
            return 1
        case 1:
            return 2
        case 2 | 3 if x > 2:
            return 3
        case _ if not flag:
            return 4
    return 5


@pytest.mark.parametrize("x", [1, 2, 3, 4])
@pytest.mark.parametrize("flag", [True, False])
def test_guard_without_capture(x, flag):
    check(guard_without_capture, x, flag)


def failed_guard_keeps_binding(x):
    y = -100
    match x:
        case (1 | 2 | 3) as y if y > 2:
            return y * 10
        case z if z < 0:
            pass
        case _:
            pass
    return y


@pytest.mark.parametrize("x", [1, 2, 3, 4, -5])
def test_failed_guard_keeps_binding(x):
    check(failed_guard_keeps_binding, x)


def as_patterns(x):
    match x:
        case (1 | 2) as z:
            return z + 100
        case 7 as seven:
            return seven * 2
        case _ as other:
            return other - 1


@pytest.mark.parametrize("x", [1, 2, 7, 0, -9])
def test_as_patterns(x):
    check(as_patterns, x)


def or_with_captures(x):
    match x:
        case (1 as v) | (2 as v):
            return v
        case (3 | 4) | 5:
            return 345
        case (6 as v) | (8 as v):
            return v + 1000
        case v:
            return -v


@pytest.mark.parametrize("x", [1, 2, 3, 4, 5, 6, 8, 9])
def test_or_patterns(x):
    check(or_with_captures, x)


def fall_through(x):
    r = 0
    match x:
        case 1:
            r = 1
        case 2:
            r = 2
    return r


@pytest.mark.parametrize("x", [1, 2, 3, -1])
def test_no_case_matches(x):
    check(fall_through, x)


def every_case_assigns(x):
    match x:
        case 1:
            y = 15
        case 2:
            y = 2
        case _:
            y = -1
    return y


@pytest.mark.parametrize("x", [1, 2, 3])
def test_variable_assigned_in_every_case(x):
    check(every_case_assigns, x)


def subject_evaluated_once(a):
    n = 0
    k = 0
    match a[n] + k:
        case 0:
            n = 10
        case 1:
            n = 20
    return n


def test_subject_is_evaluated_once():
    check(subject_evaluated_once, np.array([1, 2]))
    check(subject_evaluated_once, np.array([0]))
    check(subject_evaluated_once, np.array([5]))


def array_items(a):
    total = 0
    for v in a:
        match v:
            case 0:
                continue
            case 1 | 2:
                total += 1
            case w if w < 0:
                total -= w
            case _:
                total += 100
    return total


@pytest.mark.parametrize(
    "a",
    [
        np.array([0, 1, 2, 3, -4], dtype=np.int64),
        np.array([], dtype=np.int64),
        np.arange(12, dtype=np.int32)[::-3],
        np.array([1.0, 2.5, -1.0]),
        np.array([True, False]),
    ],
)
def test_match_on_array_items(a):
    check(array_items, a)


def loop_control(n):
    s = 0
    for i in range(n):
        match i % 4:
            case 0:
                continue
            case 3:
                if i > 10:
                    break
                s += 3
            case v:
                s += v
    return s


@pytest.mark.parametrize("n", [0, 1, 5, 10, 20])
def test_break_and_continue(n):
    check(loop_control, n)


def while_return(n):
    i = 0
    while True:
        match i:
            case 5:
                return i * 100
            case k if k >= n:
                return -k
        i += 1


@pytest.mark.parametrize("n", [0, 3, 9])
def test_return_from_loop(n):
    check(while_return, n)


def nested(a, b):
    match a:
        case 0:
            match b:
                case 0:
                    return 0
                case _:
                    return 1
        case 1:
            match b:
                case 1 | 2 as c:
                    return 10 + c
        case x:
            match b:
                case y if y == x:
                    return 100
    return -1


@pytest.mark.parametrize("a,b", [(0, 0), (0, 5), (1, 1), (1, 2), (1, 3), (4, 4), (4, 5)])
def test_nested_match(a, b):
    check(nested, a, b)


def test_generator():
    @njit
    def gen(n):
        for i in range(n):
            match i % 3:
                case 0:
                    yield -i
                case 1 as one:
                    yield one
                case _:
                    yield i * 10

    def py(n):
        for i in range(n):
            match i % 3:
                case 0:
                    yield -i
                case 1 as one:
                    yield one
                case _:
                    yield i * 10

    for n in [0, 1, 7]:
        assert list(gen(n)) == list(py(n))


def match_as_identifier(x):
    match = x + 1
    case = match * 2
    match += case
    return match


def test_match_and_case_stay_identifiers():
    check(match_as_identifier, 3)

    def call_named_match(t):
        match = t
        return match[0] + match[1]

    check(call_named_match, (1, 2))


def tuple_subject(a, b):
    match a, b:
        case t:
            return t[0] - t[1]


def test_tuple_subject_capture():
    check(tuple_subject, 5, 3)


def test_one_line_bodies():
    def f(x):
        match x:
            case 1: return "one"
            case 2: x += 1; return str(x)
            case _: pass
        return "other"

    for x in [1, 2, 3]:
        check(f, x)


def sequences(t):
    match t:
        case (1, b):
            return 100 + b
        case (a, 2) | (a, 3):
            return a * 10
        case [a, b]:
            return a + b
        case (x, *_, 0):
            return -x
        case (x, y, z) if x > y:
            return x - y - z
        case (x, _, z) as whole:
            return x + z + whole[1] * 1000
        case ():
            return 7
        case 5:
            return 5
        case _:
            return -1


SEQUENCE_SUBJECTS = [(1, 5), (4, 2), (4, 3), (4, 9), (-1, -1), (3, 2, 1), (1, 2, 3), (3, 2, 1, 0), (3, 2, 1, 4),
                     (7, 0), (), (1,), (2, 0), 5, 6, -5, 2.5, "ab", "", None, Color.RED]


@pytest.mark.parametrize("t", SEQUENCE_SUBJECTS, ids=repr)
def test_sequence_patterns_on_tuples(t):
    check(sequences, t)


def nested_sequences(t):
    match t:
        case (0, (a, b)):
            return a * b
        case ((a, b), (c, d)) if a == c:
            return b + d
        case (("x", n), *_):
            return n
        case (_, (_, _)) | ((_, _), _):
            return -1
    return -2


@pytest.mark.parametrize(
    "t", [(0, (3, 4)), (1, (3, 4)), ((1, 2), (1, 5)), ((1, 2), (3, 5)), (("x", 9), 1), (("y", 9), 1), ((1, 2), 3), (1, 2)],
    ids=repr,
)
def test_nested_sequence_patterns(t):
    check(nested_sequences, t)


def sequence_of_floats(t):
    match t:
        case (0.5, x, *_):
            return x
        case (x, *_, -1.0):
            return x * 2
        case [*_]:
            return 0.0


@pytest.mark.parametrize("t", [(0.5, 2.0), (0.5, 2.0, 3.0), (1.5, 1.0, -1.0), (1.0, 2.0), (-0.0, -1.0)])
def test_sequence_patterns_with_star_wildcards(t):
    check(sequence_of_floats, t)


def test_sequence_patterns_in_a_loop_over_tuples():
    def f(n):
        total = 0
        for i in range(n):
            match (i % 3, i):
                case (0, k):
                    total += k
                case (1, _):
                    continue
                case (_, k) if k > 7:
                    break
        return total

    for n in [0, 4, 9, 20]:
        check(f, n)


def test_tuple_never_equals_a_number_or_string():
    def f(t):
        return (t == 1, t != "a", 1 == t)

    check(f, (1,))
    check(f, (1, "a"))


REFUSED = {
    "star_capture": ("case (a, *rest):", "starred capture"),
    "mapping": ('case {"k": v}:', "mapping patterns"),
    "class": ("case int(y):", "class patterns"),
    "dotted_class": ("case np.int64():", "class patterns"),
    "or_places": ("case (a, 1) | (1, a):", "bind a name to different items"),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_refused_pattern_kinds(name, tmp_path):
    pattern, message = REFUSED[name]
    src = f"def f(x):\n    match x:\n        {pattern}\n            return 1\n        case _:\n            return 0\n"
    ns = {"np": np}
    path = tmp_path / f"refused_{name}.py"
    path.write_text(src)
    exec(compile(src, str(path), "exec"), ns)
    with pytest.raises(UnsupportedError, match=message) as info:
        njit(ns["f"])(1)
    assert f"refused_{name}.py:3:" in str(info.value)


@pytest.mark.parametrize("subject", [[1, 2], np.zeros(2, np.uint8).tobytes()], ids=["list", "bytes"])
def test_sequence_patterns_on_other_sequences_are_refused(subject):
    def f(x):
        match x:
            case (a, b):
                return 1
        return 0

    with pytest.raises(UnsupportedError, match="only on tuples") as info:
        njit(f)(subject)
    assert "test_match.py:" in str(info.value)


def test_sequence_pattern_on_array_does_not_match():
    def f(a):
        match a:
            case (x, y):
                return 1
            case _:
                return 0

    check(f, np.arange(2))
    check(f, np.arange(6).reshape(2, 3)[:, ::2])
