"""Equality of a compiled result with the reference result: numbers by value (an int
and a float that are equal are equal: a variable has one type in compiled code, so an
int assigned where floats also are is a float there), floats exactly (NaN equals NaN,
-0.0 and 0.0 differ), NumPy scalars as Python numbers, arrays elementwise with shape
and dtype kind, tuples and lists item by item, dicts key by key in insertion order, sets (a
typed.Set where the reference has a Python set), strings and bytes exactly, None as None."""

import math

import numpy as np


def _number(x):
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, (int, np.integer)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        return float(x)
    return None


def _float_same(a, b):
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)


def difference(got, expected, path="result"):
    """None when equal, else a description of the first difference."""
    if isinstance(expected, (tuple, list)):
        what = type(expected).__name__
        if type(got) is not type(expected) or len(got) != len(expected):
            return f"{path}: expected a {what} of {len(expected)}, got {got!r}"
        for i, (g, e) in enumerate(zip(got, expected)):
            d = difference(g, e, f"{path}[{i}]")
            if d:
                return d
        return None
    if isinstance(expected, np.ndarray):
        if not isinstance(got, np.ndarray):
            return f"{path}: expected an array, got {got!r}"
        if got.shape != expected.shape or got.dtype.kind != expected.dtype.kind:
            return f"{path}: expected {expected.dtype}{expected.shape}, got {got.dtype}{got.shape}"
        for idx in np.ndindex(expected.shape):
            d = difference(got[idx], expected[idx], f"{path}{list(idx)}")
            if d:
                return d
        return None
    if isinstance(expected, dict):
        # A dict made in compiled code comes back as a typed.Dict (as in Numba).
        if type(got) is not dict and type(got).__name__ == "Dict":
            got = dict(got.items())
        if type(got) is not dict or list(got) != list(expected):
            return f"{path}: expected a dict with keys {list(expected)!r} in that order, got {got!r}"
        for k in expected:
            d = difference(got[k], expected[k], f"{path}[{k!r}]")
            if d:
                return d
        return None
    if isinstance(expected, (set, frozenset)):
        if type(got).__name__ == "Set" and type(got).__module__ == "mahou.typed":
            got = set(got)  # a typed.Set: the reference runs on a Python set
        return None if type(got) is type(expected) and got == expected else f"{path}: expected {expected!r}, got {got!r}"
    if type(expected).__name__ == "_PythonCell":  # a structure (fuzz_runtime.cell_class): its fields
        return difference((got.n, got.v), (expected.n, expected.v), path + " (n, v)")
    if isinstance(expected, (np.str_, np.bytes_)):  # an item of a U/S array: a str/bytes compiled, as Numba
        expected = expected.item()
        got = got.item() if isinstance(got, (np.str_, np.bytes_)) else got
    if expected is None or isinstance(expected, (str, bytes)):
        return None if type(got) is type(expected) and got == expected else f"{path}: expected {expected!r}, got {got!r}"
    e, g = _number(expected), _number(got)
    if e is None:
        return f"{path}: unexpected reference value {expected!r}"
    if g is None:
        return f"{path}: expected {expected!r}, got {got!r}"
    if isinstance(e, bool) or isinstance(g, bool):
        if type(e) is not type(g):
            return f"{path}: expected {expected!r}, got {got!r}"
        return None if e == g else f"{path}: expected {expected!r}, got {got!r}"
    if isinstance(e, float) or isinstance(g, float):
        if isinstance(e, int) and isinstance(g, float) and float(e) == g:
            return None  # one type per variable: an int that is a float in compiled code
        if isinstance(e, float) and isinstance(g, float) and _float_same(g, e):
            return None
        return f"{path}: expected {expected!r}, got {got!r}"
    return None if e == g else f"{path}: expected {expected!r}, got {got!r}"
