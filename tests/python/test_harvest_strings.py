"""Harvested from Numba's tests of str (numba/tests/test_unicode.py): each operation and
method on Numba's kinds of examples (empty, ASCII, digits, Latin-1 with accents,
astral emoji, CJK with full-width punctuation) and their pairs, slices, counts and
search bounds (negative, past the end), compiled vs CPython (harvest.py). Cases mahou
does not compile yet are in EXPECTED_REFUSALS."""

import sys

import pytest

from harvest import Case, run_harvested

WORDS = ["", "ascii", "12345", "1234567890", "¡Y tú quién te crees?", "🐍⚡", "大处着眼，小处着手。", "aAbB cC",
         " \t spaced\n", "Hello World", "ß", "İ", "ǅungla", "a\r\nb\nc\r", "x" * 40]
ORDERED = ["", "a", "aa", "aaa", "b", "aab", "ab", "asc", "ascih", "ascii", "ascij", "大处着眼，小处着手",
           "大处着眼，小处着手。", "大处着眼，小处着手。🐍⚡"]
NEEDLES = ["", "a", "ci", " ", "ii", "着", "🐍", "12", "zz", "大处"]
PAIRS = [(w, n) for w in WORDS[:9] for n in NEEDLES]
BOUNDS = [-100, -5, -1, 0, 1, 3, 6, 100]
STRIP_CHARS = ["", "a", " ", "12", "大。", "a🐍"]
SEPS = [",", " ", "ab", "大", "⚡", "x"]
SPLIT_TEXT = ["a,b,,c", "", ",", "  lead and  trail  ", "ababab", "大处大处", "🐍⚡🐍", "one"]


def passthrough(s):
    return s


def eq(x, y):
    return x == y


def ne(x, y):
    return x != y


def lt(x, y):
    return x < y


def le(x, y):
    return x <= y


def gt(x, y):
    return x > y


def ge(x, y):
    return x >= y


def length(s):
    return len(s)


def truthy(s):
    return bool(s)


def getitem(s, i):
    return s[i]


def getslice(s, i, j):
    return s[i:j]


def getslice_step(s, step):
    return s[::step]


def zfill(s, n):
    return s.zfill(n)


def concat(x, y):
    return x + y


def repeat(s, n):
    return s * n


def inplace_concat(x, y):
    x += y
    return x


def contains(x, y):
    return y in x


def partition(s, sep):
    return s.partition(sep)


def rpartition(s, sep):
    return s.rpartition(sep)


def find(s, sub):
    return s.find(sub)


def find_start(s, sub, start):
    return s.find(sub, start)


def find_start_end(s, sub, start, end):
    return s.find(sub, start, end)


def rfind(s, sub):
    return s.rfind(sub)


def rfind_start_end(s, sub, start, end):
    return s.rfind(sub, start, end)


def count(s, sub):
    return s.count(sub)


def count_start_end(s, sub, start, end):
    return s.count(sub, start, end)


def index(s, sub):
    return s.index(sub)


def rindex(s, sub):
    return s.rindex(sub)


def replace(s, old, new):
    return s.replace(old, new)


def replace_count(s, old, new, n):
    return s.replace(old, new, n)


def startswith(s, p):
    return s.startswith(p)


def endswith(s, p):
    return s.endswith(p)


def startswith_bounds(s, p, start, end):
    return s.startswith(p, start, end)


def endswith_start(s, p, start):
    return s.endswith(p, start)


def expandtabs(s):
    return s.expandtabs()


def expandtabs_size(s, n):
    return s.expandtabs(n)


def split_sep(s, sep):
    return s.split(sep)


def split_max(s, sep, m):
    return s.split(sep, m)


def split_ws(s):
    return s.split()


def split_ws_max(s, m):
    return s.split(None, m)


def rsplit_sep(s, sep):
    return s.rsplit(sep)


def rsplit_max(s, sep, m):
    return s.rsplit(sep, m)


def rsplit_ws(s):
    return s.rsplit()


def splitlines(s):
    return s.splitlines()


def splitlines_keep(s, keep):
    return s.splitlines(keep)


def lstrip(s):
    return s.lstrip()


def rstrip(s):
    return s.rstrip()


def strip(s):
    return s.strip()


def strip_chars(s, chars):
    return s.strip(chars)


def lstrip_chars(s, chars):
    return s.lstrip(chars)


def rstrip_chars(s, chars):
    return s.rstrip(chars)


def join(sep, parts):
    return sep.join(parts)


def center(s, n):
    return s.center(n)


def center_fill(s, n, f):
    return s.center(n, f)


def ljust_fill(s, n, f):
    return s.ljust(n, f)


def rjust(s, n):
    return s.rjust(n)


def title(s):
    return s.title()


def istitle(s):
    return s.istitle()


def iterate(s):
    out = ""
    for c in s:
        out = c + out
    return out


def enumerated(s):
    n = 0
    for i, c in enumerate(s):
        n += i * ord(c)
    return n


def lower(s):
    return s.lower()


def upper(s):
    return s.upper()


def islower(s):
    return s.islower()


def isupper(s):
    return s.isupper()


def isalpha(s):
    return s.isalpha()


def isalnum(s):
    return s.isalnum()


def isdigit(s):
    return s.isdigit()


def isdecimal(s):
    return s.isdecimal()


def isnumeric(s):
    return s.isnumeric()


def isspace(s):
    return s.isspace()


def isidentifier(s):
    return s.isidentifier()


def isprintable(s):
    return s.isprintable()


def isascii(s):
    return s.isascii()


def capitalize(s):
    return s.capitalize()


def swapcase(s):
    return s.swapcase()


def casefold(s):
    return s.casefold()


def ords(s):
    return [ord(c) for c in s]


def chrs(n):
    return chr(n)


def str_of_int(n):
    return str(n)


def fstring(a, b):
    return f"{a}-{b:>6}|{a!r}"


def hash_equal(a, b):
    return (hash(a) == hash(b)) == (a == b)


def literal():
    return "大处着眼" + "🐍"


def format_method(s, n):
    return "{} and {}".format(s, n)


def min_max(a, b):
    return min(a, b), max(a, b)


def sorted_words(xs):
    return sorted(xs)


CASES = {
    "passthrough": Case(passthrough, WORDS), "literal": Case(literal, [()]),
    "eq": Case(eq, [(a, b) for a in ORDERED for b in ORDERED]), "ne": Case(ne, [(a, b) for a in ORDERED[:6] for b in ORDERED]),
    "lt": Case(lt, [(a, b) for a in ORDERED for b in ORDERED]), "le": Case(le, [(a, b) for a in ORDERED[::2] for b in ORDERED]),
    "gt": Case(gt, [(a, b) for a in ORDERED[1::2] for b in ORDERED]), "ge": Case(ge, [(a, b) for a in ORDERED[:5] for b in ORDERED]),
    "len": Case(length, WORDS), "bool": Case(truthy, WORDS),
    "getitem": Case(getitem, [(w, i) for w in WORDS[1:8] for i in (0, 1, -1, -3, 4, 100, -100)]),
    "getslice": Case(getslice, [(w, i, j) for w in WORDS[:8] for i in (0, 1, -2, 100) for j in (None, 3, -1, -100)]),
    "getslice_step": Case(getslice_step, [(w, s) for w in WORDS[:8] for s in (1, 2, -1, -3)]),
    "zfill": Case(zfill, [(w, n) for w in ("", "42", "-42", "+7", "ab", "🐍") for n in (-1, 0, 1, 5)]),
    "concat": Case(concat, [(a, b) for a in WORDS[:7] for b in WORDS[:7]]),
    "repeat": Case(repeat, [(w, n) for w in WORDS[:7] for n in (-1, 0, 1, 3)]),
    "inplace_concat": Case(inplace_concat, [(a, b) for a in WORDS[:5] for b in WORDS[4:8]]),
    "contains": Case(contains, PAIRS), "partition": Case(partition, [(w, s) for w in SPLIT_TEXT for s in SEPS + [""]]),
    "rpartition": Case(rpartition, [(w, s) for w in SPLIT_TEXT for s in SEPS]),
    "find": Case(find, PAIRS), "rfind": Case(rfind, PAIRS),
    "find_start": Case(find_start, [(w, n, b) for w, n in PAIRS[::7] for b in BOUNDS]),
    "find_start_end": Case(find_start_end, [(w, n, b, e) for w, n in PAIRS[::11] for b in BOUNDS[::2] for e in BOUNDS[1::2]]),
    "rfind_start_end": Case(rfind_start_end, [(w, n, b, e) for w, n in PAIRS[::11] for b in BOUNDS[::2] for e in BOUNDS[1::2]]),
    "count": Case(count, PAIRS + [("aaaa", "aa"), ("", "")]),
    "count_start_end": Case(count_start_end, [(w, n, b, e) for w, n in PAIRS[::9] for b in BOUNDS[::3] for e in BOUNDS[1::3]]),
    "index": Case(index, PAIRS[::3]), "rindex": Case(rindex, PAIRS[::3]),
    "replace": Case(replace, [(w, o, n) for w in SPLIT_TEXT for o in ("", ",", "ab", "🐍") for n in ("", "-", "大大")]),
    "replace_count": Case(replace_count, [(w, o, "#", c) for w in SPLIT_TEXT[:5] for o in ("", ",", "a") for c in (-1, 0, 1, 2)]),
    "startswith": Case(startswith, PAIRS), "endswith": Case(endswith, PAIRS),
    "startswith_bounds": Case(startswith_bounds, [(w, n, b, e) for w, n in PAIRS[::13] for b in BOUNDS[::2] for e in BOUNDS[::3]]),
    "endswith_start": Case(endswith_start, [(w, n, b) for w, n in PAIRS[::9] for b in BOUNDS]),
    "expandtabs": Case(expandtabs, ["", "\t", "a\tbc\tdef\t", "12\t\t3\n\t4\r\t", "大\t🐍\t"]),
    "expandtabs_size": Case(expandtabs_size, [(s, n) for s in ("a\tb", "\t\tx\n\ty") for n in (-1, 0, 1, 4, 9)]),
    "split_sep": Case(split_sep, [(w, s) for w in SPLIT_TEXT for s in SEPS] + [("a", "")]),
    "split_max": Case(split_max, [(w, s, m) for w in SPLIT_TEXT for s in (",", "ab") for m in (-1, 0, 1, 2)]),
    "split_ws": Case(split_ws, SPLIT_TEXT + ["\u3000a\u2003b\x1cc", " \t\n"]),
    "split_ws_max": Case(split_ws_max, [(w, m) for w in ("a b  ", "  a  b c ", "") for m in (-1, 0, 1, 2)]),
    "rsplit_sep": Case(rsplit_sep, [(w, s) for w in SPLIT_TEXT for s in SEPS]),
    "rsplit_max": Case(rsplit_max, [(w, s, m) for w in SPLIT_TEXT for s in (",", "ab") for m in (-1, 0, 1, 2)]),
    "rsplit_ws": Case(rsplit_ws, SPLIT_TEXT),
    "splitlines": Case(splitlines, ["", "a\nb", "a\r\nb\rc\n", "\n\n", "x\x0by\x0cz\x1c\u2028w\u2029", "end\n"]),
    "splitlines_keep": Case(splitlines_keep, [(s, k) for s in ("a\r\nb\rc\n", "\n", "z") for k in (True, False)]),
    "lstrip": Case(lstrip, WORDS), "rstrip": Case(rstrip, WORDS), "strip": Case(strip, WORDS + ["\u3000 x \u2003"]),
    "strip_chars": Case(strip_chars, [(w, c) for w in WORDS[:9] for c in STRIP_CHARS]),
    "lstrip_chars": Case(lstrip_chars, [(w, c) for w in WORDS[:9] for c in STRIP_CHARS]),
    "rstrip_chars": Case(rstrip_chars, [(w, c) for w in WORDS[:9] for c in STRIP_CHARS]),
    "join": Case(join, [(s, p) for s in ("", ",", "大", "🐍") for p in (["a", "b"], ["x"], ["", ""], ["大处", "🐍"])]),
    "center": Case(center, [(w, n) for w in WORDS[:8] for n in (-1, 0, 5, 10, 11)]),
    "center_fill": Case(center_fill, [(w, n, f) for w in ("", "ab", "abc") for n in (4, 5) for f in ("*", "大", "🐍", "ab")]),
    "ljust_fill": Case(ljust_fill, [(w, n, f) for w in ("", "ab") for n in (0, 5) for f in ("-", "⚡")]),
    "rjust": Case(rjust, [(w, n) for w in WORDS[:6] for n in (-1, 3, 12)]),
    "title": Case(title, WORDS + ["hello wORLD", "they're bill's", "ǆ dž"]), "istitle": Case(istitle, WORDS + ["Hello World", "ǅungla"]),
    "iterate": Case(iterate, WORDS), "enumerated": Case(enumerated, WORDS),
    "lower": Case(lower, WORDS + ["ÀÉÎ", "ΣΑΣ"]), "upper": Case(upper, WORDS + ["ﬁ", "ŉ"]),
    "islower": Case(islower, WORDS), "isupper": Case(isupper, WORDS + ["ABC1", "Ǆ"]),
    "isalpha": Case(isalpha, WORDS), "isalnum": Case(isalnum, WORDS + ["²", "Ⅻ"]),
    "isdigit": Case(isdigit, WORDS + ["²", "٣", "½"]), "isdecimal": Case(isdecimal, WORDS + ["²", "٣", "½"]),
    "isnumeric": Case(isnumeric, WORDS + ["²", "٣", "½", "Ⅻ"]), "isspace": Case(isspace, WORDS + ["\x1c\x1d", "\u200b"]),
    "isidentifier": Case(isidentifier, WORDS + ["_x1", "1x", "大处", "a-b"]),
    "isprintable": Case(isprintable, WORDS + ["\x7f", "\u00ad"]), "isascii": Case(isascii, WORDS),
    "capitalize": Case(capitalize, WORDS + ["ǆemal", "ßa"]), "swapcase": Case(swapcase, WORDS + ["ǅ", "ßΣ"]),
    "casefold": Case(casefold, WORDS + ["ﬁne", "ΣΑΣ"]),
    "ords": Case(ords, WORDS[:8]), "chrs": Case(chrs, [0, 65, 0xE9, 0x5927, 0x1F40D, 0x10FFFF, 0x110000, -1]),
    "str_of_int": Case(str_of_int, [0, -1, 12345, 2 ** 63 - 1, -(2 ** 63)]),
    "fstring": Case(fstring, [(1, "ab"), (-2.5, "大")]),
    "hash_equal": Case(hash_equal, [(a, b) for a in ORDERED[:6] for b in ORDERED[:6]]),
    "format_method": Case(format_method, [("x", 3), ("大", -1)]),
    "min_max": Case(min_max, [(a, b) for a in ORDERED[::3] for b in ORDERED[::2]]),
    "sorted_words": Case(sorted_words, [list(ORDERED), list(WORDS[:8])]),
}

# Cases mahou does not compile yet (a clean TypingError/UnsupportedError is asserted).
EXPECTED_REFUSALS = {
    'format_method'
}

# Known wrong answers (strict xfails): none left.
EXPECTED_WRONG = {}


@pytest.mark.parametrize("name", sorted(CASES))
def test_harvested(name):
    run_harvested(sys.modules[__name__], name)
