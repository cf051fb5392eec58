"""NumPy's indexing functions in Python, compiled by mahou when compiled code calls them:
np.take (and a.take), np.take_along_axis and np.extract, as NumPy defines them (indices
wrap when negative and are checked, IndexError otherwise)."""

import numpy as np

from mahou import njit


@njit
def _flat_index(i, n):
    if i >= n:  # before the conversion: an unsigned index past int64's range is out of bounds
        raise IndexError("index out of bounds for the flattened array")
    j = np.int64(i)
    if j < -n:
        raise IndexError("index out of bounds for the flattened array")
    if j < 0:
        return j + n
    return j


@njit
def take(a, indices):
    # the elements of a (flattened, C order) at `indices`: the indices' shape, or a scalar
    f = np.ascontiguousarray(a).ravel()
    n = f.shape[0]
    if isinstance(indices, np.ndarray):
        idx = indices.ravel()
        m = idx.shape[0]
        for k in range(m):  # every index checked before the result is made, as NumPy
            _flat_index(idx[k], n)
        out = np.empty(m, dtype=f.dtype)
        for k in range(m):
            out[k] = f[_flat_index(idx[k], n)]
        return out.reshape(indices.shape)
    elif isinstance(indices, (list, tuple)):
        return take(a, np.array(indices))
    else:
        return f[_flat_index(indices, n)]


@njit
def _axis(axis, ndim):
    if axis < -ndim or axis >= ndim:
        raise ValueError("axis is out of bounds for array of this dimension")
    if axis < 0:
        return axis + ndim
    return axis


@njit
def take_along_axis(arr, indices, axis):
    # NumPy's definition: the indices along `axis`, with the other axes indexed by their
    # own positions (broadcast against the indices' other axes).
    if axis is None:
        if indices.ndim != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
        return take(arr, indices)
    if indices.ndim != arr.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    ax = _axis(axis, arr.ndim)
    if arr.ndim == 1:
        return arr[indices]
    elif arr.ndim == 2:
        if ax == 0:
            return arr[indices, np.arange(arr.shape[1])[None, :]]
        return arr[np.arange(arr.shape[0])[:, None], indices]
    elif arr.ndim == 3:
        i0 = np.arange(arr.shape[0])[:, None, None]
        i1 = np.arange(arr.shape[1])[None, :, None]
        i2 = np.arange(arr.shape[2])[None, None, :]
        if ax == 0:
            return arr[indices, i1, i2]
        elif ax == 1:
            return arr[i0, indices, i2]
        return arr[i0, i1, indices]
    else:
        raise NotImplementedError("np.take_along_axis of arrays of more than 3 dimensions is not supported")


@njit
def extract(condition, arr):
    # arr's elements (flattened) where condition (flattened) is true
    c = np.ascontiguousarray(condition).ravel() if isinstance(condition, np.ndarray) else np.array([condition])
    f = np.ascontiguousarray(arr).ravel() if isinstance(arr, np.ndarray) else np.array([arr])
    count = 0
    for k in range(c.shape[0]):
        if c[k]:
            if k >= f.shape[0]:
                raise IndexError("index out of bounds: the condition is true past the end of the array")
            count += 1
    out = np.empty(count, dtype=f.dtype)
    p = 0
    for k in range(c.shape[0]):
        if c[k]:
            out[p] = f[k]
            p += 1
    return out
