"""str methods compiled vs CPython over the Unicode database: every code point for the
per-character predicates and full case mappings (casefold, upper/lower/title with
special mappings), random strings for the context rules (final sigma, title case,
istitle), and the splitting, stripping, padding and searching methods with every kind
of whitespace, maxsplit 0 and negative, bounds past the end."""

import linecache
import os
import random
import re
import unicodedata

import pytest

from mahou import njit

PREDICATES = ["isdigit", "isalpha", "isspace", "isalnum", "isdecimal", "isnumeric", "islower", "isupper", "istitle",
              "isascii", "isidentifier", "isprintable"]
CASE_MAPS = ["upper", "lower", "casefold", "title", "capitalize", "swapcase"]

TABLES = os.path.join(os.path.dirname(__file__), "..", "..", "cpp", "lib", "runtime", "unicode_tables.inc")


def _tables_unicode_version():
    try:
        with open(TABLES, encoding="utf-8") as f:
            m = re.search(r"\(Unicode ([0-9.]+)\)", f.readline())
        return m.group(1) if m else None
    except OSError:
        return None


same_database = pytest.mark.skipif(_tables_unicode_version() != unicodedata.unidata_version,
                                   reason="the runtime's tables come from another Unicode version")


def _compiled(name, body, params):
    """A function built from source text (registered so that it can be compiled)."""
    src = f"def f({params}):\n    return {body}\n"
    fname = f"<test-string-unicode-{name}>"
    linecache.cache[fname] = (len(src), None, src.splitlines(True), fname)
    ns = {}
    exec(compile(src, fname, "exec"), ns)
    return ns["f"], njit(ns["f"])


EVERY_CHAR = "".join(chr(c) for c in range(0x110000))


@same_database
@pytest.mark.parametrize("method", PREDICATES + CASE_MAPS)
def test_every_code_point(method):
    py, jit = _compiled("each-" + method, f"[c.{method}() for c in s]", "s")
    for start in range(0, len(EVERY_CHAR), 1 << 18):
        chunk = EVERY_CHAR[start:start + (1 << 18)]
        got, want = jit(chunk), py(chunk)
        bad = [hex(ord(c)) for c, g, w in zip(chunk, got, want) if g != w]
        assert not bad, f"{method}: {len(bad)} code points differ, first {bad[:8]}"


CONTEXT_ALPHABET = ("aAzZ ßﬁİıΣσςΑΒ'.-:\u0345\u0300\u00ad\u2019ǅǈǆǄ1٣½\t\n\u2028\u3000\u1e9eŉΐ_x\u0130"
                    "\u0587\u1f80\u1fb3\u2126\u212a")


@same_database
@pytest.mark.parametrize("method", PREDICATES + CASE_MAPS)
def test_context_rules(method):
    rng = random.Random(method)
    strings = ["".join(rng.choice(CONTEXT_ALPHABET) for _ in range(rng.randint(0, 7))) for _ in range(6000)]
    py, jit = _compiled("ctx-" + method, f"[t.{method}() for t in s]", "s")
    got, want = jit(strings), py(strings)
    bad = [(t, g, w) for t, g, w in zip(strings, got, want) if g != w]
    assert not bad, bad[:5]


def test_full_case_mappings():
    @njit
    def cases(s):
        return s.casefold(), s.upper(), s.lower(), s.title(), s.capitalize(), s.swapcase()

    for s in ["Straße", "ﬁne", "ß", "ﬁ", "ΟΔΟΣ", "ΟΔΟΣ ΟΔΟΣ.", "ΑΣ'Α", "Σ", "aΣ", "İstanbul", "ǆemal ǅ", "ŉ",
              "\u1f80\u0345", "", "ABC def"]:
        assert cases(s) == (s.casefold(), s.upper(), s.lower(), s.title(), s.capitalize(), s.swapcase()), s
    assert cases("Straße")[0] == "strasse"
    assert cases("ﬁne")[0] == "fine"
    assert cases("ß")[1] == "SS" and cases("ﬁ")[1] == "FI"
    assert cases("ΟΔΟΣ")[2] == "οδος"


WHITESPACE = " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2007\u200a\u2028\u2029\u202f\u205f\u3000\u200b"

SPLITTING = {
    "split_ws": "(s.split(None, a), s.split(maxsplit=a), s.split())",
    "rsplit_ws": "(s.rsplit(None, a), s.rsplit(maxsplit=a), s.rsplit())",
    "split_sep": "(s.split(b, a), s.rsplit(b, a), s.split(b), s.rsplit(sep=b, maxsplit=a))",
    "strip": "(s.strip(), s.lstrip(), s.rstrip(), s.strip(b), s.lstrip(b), s.rstrip(b))",
    "partition": "(s.partition(b), s.rpartition(b))",
    "pad": "(s.center(a), s.ljust(a), s.rjust(a), s.center(a, c), s.ljust(a, c), s.rjust(a, c), s.zfill(a))",
    "find": "(s.find(b, a), s.rfind(b, a), s.count(b, a), s.find(b, a, -2), s.rfind(b, -a, a), s.count(b, -a, a + 1), "
            "b in s)",
    "startswith": "(s.startswith(b, a), s.endswith(b, a), s.startswith(b, a, -1), s.endswith(b, -a, a), "
                  "s.startswith((b, c)), s.endswith((c, b), a))",
    "replace": "(s.replace(b, 'XY', a), s.replace(b, ''), s.replace('', c, a), s.replace(b, c))",
    "lines": "(s.splitlines(), s.splitlines(True), s.splitlines(keepends=a > 0), s.expandtabs(), s.expandtabs(a), "
             "s.expandtabs(tabsize=a))",
}


@pytest.mark.parametrize("name", list(SPLITTING))
def test_splitting_and_searching(name):
    py, jit = _compiled(name, SPLITTING[name], "s, a, b, c")
    rng = random.Random(name)
    alphabet = "ab-,ßΣ\t\n\r" + WHITESPACE
    seps = ["a", "ab", " ", "-", "aa", "ß", "\u3000", "\r\n"]
    for _ in range(1500):
        s = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 9)))
        if name == "pad" and rng.random() < 0.3:
            s = rng.choice(["-", "+", "-12", "+ab", "12", "--1"])
        a = rng.randint(-9, 9)
        b = rng.choice(seps + ([""] if name in ("find", "startswith", "strip") else []))
        c = rng.choice(["*", "ß", " ", "xy"] if name != "pad" else ["*", "ß", " "])
        try:
            want = py(s, a, b, c)
        except Exception as e:  # noqa: BLE001 (the same exception class is expected)
            want = type(e)
        try:
            got = jit(s, a, b, c)
        except Exception as e:  # noqa: BLE001
            got = type(e)
        assert got == want, (s, a, b, c, got, want)


def test_split_examples():
    @njit
    def split(s, n):
        return s.split(None, n), s.rsplit(None, n)

    assert split("a b  ", 1) == (["a", "b  "], ["a", "b"])
    for s in ["a b  ", "  a b", "  a  b  c  ", "", "   ", "a\u3000b\u2028c\x85"]:
        for n in (-3, -1, 0, 1, 2, 5):
            assert split(s, n) == (s.split(None, n), s.rsplit(None, n)), (s, n)


def test_is_predicates_of_strings():
    py, jit = _compiled("preds", "[(t.isidentifier(), t.istitle(), t.islower(), t.isupper(), t.isprintable()) "
                                 "for t in s]", "s")
    strings = ["", "_", "_1", "1a", "a1", "ǅungla", "ǅUngla", "Ab Cd", "AB", "ab", "aB", "ǈ", "Σ", "ⅷ", "Ⅷ", "x\u0300",
               "\u0300x", "℘x", "℮", "゛", "a\u00b7", "\u00b7a", "\ufeff", "a b", "a\u2028"]
    assert jit(strings) == py(strings)
