"""Python's operators and methods of bytes values in compiled code (asked for as
'@bytes.<name>' by sema/bytes_ops.cpp): comparisons, concatenation and repetition, `in`,
hash (CPython's: the hash of the same latin-1 text), decode, find, count, startswith and
endswith. A bytes value is a read-only 1-D C uint8 array (sema/buffers.cpp)."""

import numpy as np

from mahou import njit
from mahou._language import as_bytes

__all__ = ["compare", "concat", "repeat", "contains_int", "contains", "hash_", "decode", "find", "rfind",
           "count", "startswith", "endswith"]


@njit
def compare(a, b):
    # -1, 0 or 1: a against b, lexicographically by unsigned byte, a prefix first (as Python)
    n = min(len(a), len(b))
    for i in range(n):
        x = a[i]
        y = b[i]
        if x != y:
            return -1 if x < y else 1
    if len(a) == len(b):
        return 0
    return -1 if len(a) < len(b) else 1


@njit
def concat(a, b):
    out = np.empty(len(a) + len(b), np.uint8)
    out[:len(a)] = a
    out[len(a):] = b
    return as_bytes(out)


@njit
def repeat(a, n):
    # b * n: n copies (none when n <= 0)
    k = max(n, 0)
    out = np.empty(len(a) * k, np.uint8)
    for j in range(k):
        out[j * len(a):(j + 1) * len(a)] = a
    return as_bytes(out)


@njit
def contains_int(b, x):
    # x in b for an integer x: ValueError outside range(0, 256), as Python
    if x < 0 or x > 255:
        raise ValueError("byte must be in range(0, 256)")
    for i in range(len(b)):
        if b[i] == x:
            return True
    return False


@njit
def _norm(start, end, n):
    # Python's slice bounds of start/end (None: the ends), clipped to [0, n]
    s = 0 if start is None else start
    e = n if end is None else end
    if s < 0:
        s = max(s + n, 0)
    if e < 0:
        e = max(e + n, 0)
    return s, min(e, n)


@njit
def _match(b, sub, i):
    for j in range(len(sub)):
        if b[i + j] != sub[j]:
            return False
    return True


@njit
def find(b, sub, start=None, end=None):
    s, e = _norm(start, end, len(b))
    if s > len(b):
        return -1
    for i in range(s, e - len(sub) + 1):
        if _match(b, sub, i):
            return i
    return -1


@njit
def rfind(b, sub, start=None, end=None):
    s, e = _norm(start, end, len(b))
    if s > len(b):
        return -1
    for i in range(e - len(sub), s - 1, -1):
        if _match(b, sub, i):
            return i
    return -1


@njit
def contains(b, sub):
    return find(b, sub) >= 0


@njit
def count(b, sub, start=None, end=None):
    # non-overlapping occurrences; an empty sub counts the positions (e - s + 1)
    s, e = _norm(start, end, len(b))
    if s > len(b) or e < s:
        return 0
    if len(sub) == 0:
        return e - s + 1
    k = 0
    i = s
    while i + len(sub) <= e:
        if _match(b, sub, i):
            k += 1
            i += len(sub)
        else:
            i += 1
    return k


@njit
def startswith(b, prefix, start=None, end=None):
    s, e = _norm(start, end, len(b))
    if s > len(b) or e - s < len(prefix):
        return False
    return _match(b, prefix, s)


@njit
def endswith(b, suffix, start=None, end=None):
    s, e = _norm(start, end, len(b))
    if s > len(b) or e - s < len(suffix):
        return False
    return _match(b, suffix, e - len(suffix))


@njit
def latin1(b):
    # the str of the same code points 0-255 (its hash is CPython's hash of the bytes)
    return "".join([chr(x) for x in b])


@njit
def hash_(b):
    return hash(latin1(b))


@njit
def decode(b, ascii):
    # UTF-8 (or ASCII: no byte over 127) to str; an invalid sequence raises
    # UnicodeDecodeError's base, ValueError (compiled code makes no UnicodeDecodeError)
    out = []
    i = 0
    n = len(b)
    while i < n:
        c = np.int64(b[i])
        if c < 0x80:
            out.append(chr(c))
            i += 1
            continue
        if ascii:
            raise ValueError("'ascii' codec can't decode byte: ordinal not in range(128)")
        if c >= 0xF0 and c < 0xF5:
            k = 3
            cp = c & 0x07
            lo = 0x10000
        elif c >= 0xE0 and c < 0xF0:
            k = 2
            cp = c & 0x0F
            lo = 0x800
        elif c >= 0xC2 and c < 0xE0:
            k = 1
            cp = c & 0x1F
            lo = 0x80
        else:
            raise ValueError("'utf-8' codec can't decode byte: invalid start byte")
        if i + k >= n:
            raise ValueError("'utf-8' codec can't decode bytes: unexpected end of data")
        for j in range(1, k + 1):
            d = np.int64(b[i + j])
            if d & 0xC0 != 0x80:
                raise ValueError("'utf-8' codec can't decode bytes: invalid continuation byte")
            cp = (cp << 6) | (d & 0x3F)
        if cp < lo or cp > 0x10FFFF or (cp >= 0xD800 and cp < 0xE000):
            raise ValueError("'utf-8' codec can't decode bytes: invalid sequence")
        out.append(chr(cp))
        i += k + 1
    return "".join(out)
