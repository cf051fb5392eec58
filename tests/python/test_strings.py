"""Strings in compiled code, compared with CPython: str arguments and results,
literals, concatenation, repetition, indexing, slicing, iteration, comparisons, `in`,
the str methods, conversions with numbers, f-strings and print — non-ASCII text too."""

import pytest

import mahou
from conftest import assert_no_leaks, check
from mahou import errors, njit

WORDS = ["", "a", "hello", "Hello World", "  padded\t\n", "héllo wörld", "日本語テキスト", "emoji 🙂 here", "a,b,,c"]


def basics(s):
    t = s + "!" + s
    return (len(s), t, s * 2, 3 * s[:2], s == "hello", s != "x", s < "m", s >= "b", "l" in s, "zz" not in s,
            s[0:3], s[::-1], s[-2:], s[1::2])


def iterate(s):
    out = ""
    n = 0
    for ch in s:
        out = ch + out
        n += ord(ch) % 7
    return out, n


def index_chars(s, i):
    return s[i]


@pytest.mark.parametrize("s", WORDS)
def test_basics(s):
    check(basics, s)
    check(iterate, s)


@pytest.mark.parametrize("s", ["abc", "ü€🙂"])
def test_index(s):
    for i in range(-len(s), len(s)):
        check(index_chars, s, i)
    with pytest.raises(IndexError, match="string index out of range"):
        njit(index_chars)(s, 5)


def searching(s):
    return (s.find("l"), s.rfind("l"), s.find("l", 3), s.find("", 2), s.count("l"), s.count(""),
            s.startswith("he"), s.endswith("ld"), s.startswith(("x", "H", "h")), s.endswith("o", 0, 5))


def methods(s):
    return (s.upper(), s.lower(), s.strip(), s.lstrip(), s.rstrip(" \n"), s.strip("ah"), s.replace("l", "L"),
            s.replace("l", "", 1), s.replace("", "-"), s.split(), s.split("l"), s.rsplit(None, 1), s.split(",", 1),
            s.rsplit("l", 1), s.title(), s.capitalize(), s.swapcase(), s.zfill(12), s.center(15, "*"),
            s.ljust(13), s.rjust(14, "."), s.partition("l"), s.rpartition("l"), s.partition("#"))


def predicates(s):
    return (s.isdigit(), s.isalpha(), s.isspace(), s.isalnum(), s.isdecimal(), s.isnumeric(), s.islower(),
            s.isupper(), s.istitle(), s.isascii(), s.isidentifier(), s.isprintable())


@pytest.mark.parametrize("s", WORDS + ["123", "١٢٣", "ß", "İstanbul", "ǅemo", "UPPER", "_id9", "x\x00y"])
def test_methods(s):
    check(searching, s)
    check(methods, s)
    check(predicates, s)


def index_method(s, sub):
    return s.index(sub)


def test_index_method():
    check(index_method, "hello", "ll")
    with pytest.raises(ValueError, match="substring not found"):
        njit(index_method)("hello", "z")


def join_split(n):
    parts = [str(i) for i in range(n)]
    line = ", ".join(parts)
    return line, line.split(", "), "-".join(["a", "é"]), "".join([])


@pytest.mark.parametrize("n", [0, 1, 5])
def test_join(n):
    check(join_split, n)


def conversions(i, f):
    return (str(i), str(f), str(True), str(None), int("  -42 "), int("1_000"), int("ff", 16), float(" 2.5e3 "),
            float("-inf"), float("nan") != float("nan"), repr("it's"), repr('a"b\n'), str(-0.0), str(1e16), str(1e-5))


@pytest.mark.parametrize("i, f", [(0, 0.0), (-17, 3.14159), (2**62, 1 / 3), (7, 1e300), (-1, -2.5e-8)])
def test_conversions(i, f):
    check(conversions, i, f)


def bad_int(s):
    return int(s)


def bad_float(s):
    return float(s)


def test_conversion_errors():
    with pytest.raises(ValueError, match="invalid literal for int"):
        njit(bad_int)("12a")
    with pytest.raises(ValueError, match="could not convert"):
        njit(bad_float)("1.2.3")
    assert njit(bad_int)("7") == 7


def fstrings(x, y, name):
    return (f"{x}", f"x={x} y={y}", f"{name}!", f"{y:.3f}", f"{x:5d}|{x:<5}|{x:^7}", f"{y:10.2e}", f"{x:x}",
            f"{x:,}", f"{name:>8}", f"{name!r}", f"{y:g}", f"{x:+}", f"{y:%}", f"{{{x}}}")


@pytest.mark.parametrize("x, y, name", [(42, 3.14159, "bob"), (-7, -0.001, "ünï"), (1234567, 1e10, "")])
def test_fstrings(x, y, name):
    check(fstrings, x, y, name)


def chr_ord(n):
    return "".join([chr(ord("a") + i % 26) for i in range(n)]), chr(0x1F642), ord("€")


def test_chr_ord():
    check(chr_ord, 30)


def returns_literal(flag):
    if flag:
        return "yes"
    return "no"


def test_literal_results():
    check(returns_literal, True)
    check(returns_literal, False)


def greet(name, times):
    return (name + " ") * times


def test_string_arguments():
    f = njit(greet)
    assert f("hi", 3) == "hi hi hi "
    assert f("ö", 2) == "ö ö "
    assert f("", 0) == ""


def print_strings(s, n):
    print(s, n, "literal", s.upper(), [1, 2], ["a", s], (1, "x"))


def test_print(capfd):
    njit(print_strings)("héllo", 3)
    out = capfd.readouterr().out
    assert out == "héllo 3 literal HÉLLO [1, 2] ['a', 'héllo'] (1, 'x')\n"


def str_plus_int(s):
    return s + 1


def test_errors():
    with pytest.raises(errors.TypingError):
        njit(str_plus_int)("a")


def test_no_leak():
    f = njit(methods)
    assert_no_leaks(lambda: f("héllo wörld"), lambda: f("ascii only"), repeat=500)
