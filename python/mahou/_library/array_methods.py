"""Array methods written in Python, compiled by mahou (asked for as '@ndarray.<name>',
the array first): a.item(), a.nonzero(), a.repeat(), a.conj(), a.clip(), a.round(),
a.take(), a.swapaxes(), a.diagonal(), a.squeeze(), a.transpose(axes), a.ptp(), the
forms of a.sort()/a.argsort() the compiler leaves to the library (N-D, an axis), and the
attribute a.flags (Numba's subset of NumPy's flags, as a named tuple), and a.tobytes()
(a copy of the items in C order, as bytes)."""

import collections

import numpy as np

from mahou import njit
from mahou._language import as_bytes

from . import numpy_functions as _np
from .indexing_functions import take  # noqa: F401  (a.take(indices))

__all__ = [
    "item", "nonzero", "repeat", "conj", "conjugate", "clip", "round", "take", "swapaxes", "diagonal",
    "squeeze", "transpose", "ptp", "sort", "argsort", "partition", "argpartition", "flags", "itemset",
    "tobytes",
]

# a.flags: the fields Numba supports (NumPy's flags object has more, and indexing by name)
Flags = collections.namedtuple("flags", ["contiguous", "c_contiguous", "f_contiguous"])


@njit
def _contiguous(shape, strides, itemsize, c_order):
    # NumPy's rule: an empty array is both; axes of extent 1 do not count; the others
    # step by the product of the extents after them (C) or before them (F), in bytes.
    n = len(shape)
    for k in range(n):
        if shape[k] == 0:
            return True
    step = itemsize
    for j in range(n):
        k = n - 1 - j if c_order else j
        if shape[k] != 1:
            if strides[k] != step:
                return False
            step *= shape[k]
    return True


@njit
def flags(a):
    c = _contiguous(a.shape, a.strides, a.itemsize, True)
    f = _contiguous(a.shape, a.strides, a.itemsize, False)
    return Flags(c, c, f)


@njit
def item(a):
    if a.size != 1:
        raise ValueError("can only convert an array of size 1 to a Python scalar")
    return a.flat[0]


@njit
def itemset(a, value):
    # NumPy 1's a.itemset(x) (removed in NumPy 2), the one-argument form Numba compiles:
    # the only element of an array of size 1
    if a.size != 1:
        raise ValueError("can only convert an array of size 1 to a Python scalar")
    a.flat[0] = value


@njit
def nonzero(a):
    return _np.nonzero(a)


@njit
def repeat(a, repeats):
    return _np.repeat(a, repeats)


@njit
def conj(a):
    if isinstance(np.zeros(1, dtype=a.dtype)[0], (np.complex64, np.complex128)):
        return np.conj(a)
    return a  # NumPy's conj of a real array is the array itself


@njit
def conjugate(a):
    if isinstance(np.zeros(1, dtype=a.dtype)[0], (np.complex64, np.complex128)):
        return np.conj(a)
    return a  # NumPy's conj of a real array is the array itself


@njit
def clip(a, a_min=None, a_max=None):
    if a_min is None and a_max is None:
        raise ValueError("One of max or min must be given")
    if a_min is None:
        return np.minimum(a, a_max)
    if a_max is None:
        return np.maximum(a, a_min)
    return np.clip(a, a_min, a_max)


@njit
def round(a, decimals=0):
    return _np.around(a, decimals)


@njit
def swapaxes(a, axis1, axis2):
    return _np.swapaxes(a, axis1, axis2)


@njit
def diagonal(a, offset=0, axis1=0, axis2=1):
    return _np.diagonal(a, offset, axis1, axis2)


@njit
def squeeze(a, axis=None):
    return _np.squeeze(a, axis)


@njit
def transpose(a, *axes):
    # a.transpose(), a.transpose((1, 0)), a.transpose(1, 0)
    if len(axes) == 0:
        return a.T
    elif len(axes) == 1:
        if axes[0] is None:
            return a.T
        return _np.transpose(a, axes[0])
    return _np.transpose(a, axes)


@njit
def ptp(a):
    return _np.ptp(a)


@njit
def sort(a, axis=-1, kind=None):
    # in place: the sorted copy stored back
    if a.ndim == 0:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension 0")
    a[:] = _np.sort(a, axis)


@njit
def argsort(a, axis=-1, kind=None):
    return _np.argsort(a, axis)


@njit
def partition(a, kth, axis=-1):
    if a.ndim == 0:
        raise ValueError("Cannot partition a 0-d array")
    a[:] = _np.partition(a, kth, axis)


@njit
def argpartition(a, kth, axis=-1):
    return _np.argpartition(a, kth, axis)


@njit
def tobytes(a):
    # a copy of the items in C order (bytes do not change when the array does), as bytes
    return as_bytes(a.copy().reshape(-1).view(np.uint8))
