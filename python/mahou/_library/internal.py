"""Helpers the compiler itself calls, written in Python and compiled like the NumPy
library (asked for as '@internal.<name>'): np.array / np.asarray of a list held in a
variable (a list of numbers, of lists of numbers, or of arrays), slice.indices, and
the index arrays that booleans stand for in advanced indexing, and the iterator that
iter() makes of a list, tuple, array, range, string, set or dict; tuple.index/count;
np.frombuffer of a C-contiguous buffer, memoryview.contiguous, the range check of a
store into a buffer; the bytes of S items read and
written (sema/charseq.cpp)."""

import numpy as np

from mahou import literal_unroll, njit
from mahou._language import as_bytes

_RAGGED = ("setting an array element with a sequence. The requested array has an "
           "inhomogeneous shape after 1 dimensions.")


@njit
def list_to_array(items, zero):
    # zero: a number of the result's dtype
    n = len(items)
    out = np.full(n, zero)
    for i in range(n):
        out[i] = items[i]
    return out


@njit
def nested_list_to_array(rows, zero):
    n = len(rows)
    cols = len(rows[0]) if n > 0 else 0
    out = np.full((n, cols), zero)
    for i in range(n):
        row = rows[i]
        if len(row) != cols:
            raise ValueError(_RAGGED)
        for j in range(cols):
            out[i, j] = row[j]
    return out


@njit
def list_of_tuples_to_array(rows, zero):
    # np.array([(a, b), ...]) of a list of tuples of one length: a 2-D array
    n = len(rows)
    k = len(rows[0]) if n > 0 else 0  # an empty list: shape (0, 0) (NumPy's is (0,), not 2-D)
    out = np.full((n, k), zero)
    for i in range(n):
        row = rows[i]
        for j in range(k):
            out[i, j] = row[j]
    return out


@njit
def stack_list_of_arrays(arrays, zero):
    n = len(arrays)
    if n == 0:
        raise ValueError("np.array() of an empty list of arrays: the shape of the items is unknown")
    first = arrays[0]
    out = np.full((n,) + first.shape, zero)
    for i in range(n):
        a = arrays[i]
        if a.shape != first.shape:
            raise ValueError(_RAGGED)
        out[i] = a
    return out



@njit
def _slice_bound(v, length, lower, upper):
    if v < 0:
        v += length
        return lower if v < lower else v
    return upper if v > upper else v


@njit
def slice_indices(s, length):
    # slice.indices(length), as CPython adjusts a slice to a sequence's length. A bound
    # that is None has type none, so its branch is decided when this is compiled.
    if length < 0:
        raise ValueError("length should not be negative")
    step = 1
    if s.step is not None:
        step = s.step
        if step == 0:
            raise ValueError("slice step cannot be zero")
    lower = -1 if step < 0 else 0
    upper = length - 1 if step < 0 else length
    start = upper if step < 0 else lower
    if s.start is not None:
        start = _slice_bound(s.start, length, lower, upper)
    stop = lower if step < 0 else upper
    if s.stop is not None:
        stop = _slice_bound(s.stop, length, lower, upper)
    return start, stop, step


@njit
def array_contains(x, a):
    # `x in a` of an array, as NumPy: (a == x).any()
    return (a == x).any()


@njit
def mask_indices(mask, extents):
    # A boolean array among other indices (NumPy's rule): the coordinates of its True
    # elements in C order, one row per axis it indexes; `extents` are those axes' lengths.
    if mask.shape != extents:
        raise IndexError("boolean index did not match indexed array along the dimensions it indexes")
    flat = mask.ravel()
    n = 0
    for i in range(flat.size):
        if flat[i]:
            n += 1
    shape = mask.shape
    out = np.empty((mask.ndim, n), np.int64)
    k = 0
    for i in range(flat.size):
        if flat[i]:
            r = i
            for d in range(mask.ndim - 1, -1, -1):
                out[d, k] = r % shape[d]
                r //= shape[d]
            k += 1
    return out


@njit
def bool_index(b):
    # True / False as an index: a new axis of length 1, indexed by [0] or by nothing.
    return np.zeros(1 if b else 0, np.int64)


_TOO_BIG = "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size."
_MAX_SIZE = 2**63 - 1


@njit
def size_mul(a, b):
    # a * b for counts of items (both >= 0), NumPy's ValueError where int64 would wrap.
    if b != 0 and a > _MAX_SIZE // b:
        raise ValueError(_TOO_BIG)
    return a * b


@njit
def size_add(a, b):
    if a > _MAX_SIZE - b:
        raise ValueError(_TOO_BIG)
    return a + b


@njit
def iterate(items):
    # iter(x) of a container: a generator over its items (next() and for-loops resume it
    # where the previous one stopped, as Python's list/tuple/str iterators do).
    for x in items:
        yield x


@njit
def tuple_index(t, x):
    # t.index(x): the first item equal to x (each item of a mixed tuple compared as its type)
    i = 0
    found = -1
    for v in literal_unroll(t):
        if found < 0 and v == x:
            found = i
        i += 1
    if found < 0:
        raise ValueError("tuple.index(x): x not in tuple")
    return found


@njit
def tuple_count(t, x):
    n = 0
    for v in literal_unroll(t):
        if v == x:
            n += 1
    return n


@njit
def clip_out(a, a_min, a_max, out):
    # np.clip(a, a_min, a_max, out=out): the clipped values stored into out (broadcast to
    # it; an operand that overlaps out reads as if copied first), which is returned
    out[...] = np.minimum(np.maximum(a, a_min), a_max)
    return out


@njit
def frombuffer(buffer, dtype):
    # np.frombuffer of a C-contiguous buffer (sema/buffers.cpp checked it): its bytes read
    # as items of dtype, one dimension, the same memory
    flat = buffer.ravel()
    itemsize = np.empty(0, dtype).itemsize
    if flat.size * flat.itemsize % itemsize != 0:
        raise ValueError("buffer size must be a multiple of element size")
    return flat.view(dtype)


@njit
def memoryview_contiguous(a):
    # memoryview.contiguous: C- or Fortran-contiguous (NumPy's flags.contiguous is C only)
    f = a.flags
    return f.c_contiguous or f.f_contiguous


@njit
def buffer_item(value, lo, hi, overflow, message):
    # an integer stored into an item of a bytearray, memoryview or array.array: Python's
    # exception when the item cannot hold it (sema/buffers.cpp)
    if value < lo or value > hi:
        if overflow:
            raise OverflowError(message)
        raise ValueError(message)
    return value


@njit
def ffi_from_buffer(a):
    # cffi's ffi.from_buffer(array) in compiled code (Numba's): the array's data, which a
    # cffi function's pointer parameter receives; a C-contiguous array only
    if not a.flags.c_contiguous:
        raise ValueError("ffi.from_buffer() needs a C-contiguous array")
    return a


@njit
def charseq_bytes(item):
    # an S item (its bytes as a uint8 view, sema/charseq.cpp) as a new bytes value: the
    # bytes up to the trailing NULs, as NumPy reads it
    n = len(item)
    while n > 0 and item[n - 1] == 0:
        n -= 1
    return as_bytes(item[:n].copy())


@njit
def charseq_store_bytes(value, item):
    # a bytes value stored into an S item: truncated to the width, NUL-padded
    n = min(len(value), len(item))
    for i in range(n):
        item[i] = value[i]
    for i in range(n, len(item)):
        item[i] = 0


@njit
def charseq_fill_bytes(value, view):
    # a[1:3] = b on an S array: the bytes value into every item of the view
    for idx in np.ndindex(view.shape):
        view[idx] = value
