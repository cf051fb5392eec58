"""Python's operators and methods of bytes values in compiled code (asked for as
'@bytes.<name>' by sema/bytes_ops.cpp): concatenation and repetition, `in`, find, count,
startswith and endswith (comparisons, hash and decode are calls of the runtime,
runtime/bytes_values.cpp). A bytes value is a read-only 1-D C uint8 array (sema/buffers.cpp)."""

import numpy as np

from mahou import njit
from mahou._language import as_bytes

__all__ = ["concat", "repeat", "contains_int", "contains", "find", "rfind", "count", "startswith", "endswith"]


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
