"""NumPy's functions that rearrange arrays (transpose, swapaxes, moveaxis, expand_dims,
squeeze, atleast_*d, the split family, append, delete, insert, diag, flips, roll, tile,
resize, trim_zeros), compiled by mahou. Views are made with as_strided and shapes with
tuple_setitem; errors are NumPy's (its AxisError is raised as ValueError, its base)."""

import numpy as np
from numpy.lib.stride_tricks import as_strided

from mahou import njit
from mahou._language import refuse, tuple_setitem

from .internal import size_mul

__all__ = [
    "transpose", "swapaxes", "moveaxis", "expand_dims", "squeeze", "atleast_1d", "atleast_2d",
    "atleast_3d", "split", "array_split", "hsplit", "vsplit", "dsplit", "append", "delete", "insert",
    "diag", "diagflat", "diagonal", "real", "imag", "flip", "rot90", "roll", "tile", "resize",
    "trim_zeros", "sliding_window_view", "broadcast_to", "broadcast_shapes", "broadcast_arrays", "shape",
    "size", "ndim",
]


@njit
def _axis(axis, nd):
    # NumPy's normalize_axis_index
    if axis < -nd or axis >= nd:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {nd}")
    return axis + nd if axis < 0 else axis


# ---------------------------------------------------------------------------
# axes: transpose, swapaxes, moveaxis, expand_dims, squeeze
# ---------------------------------------------------------------------------


@njit
def _permuted(a, axes):
    # the view of a whose axis k is a's axis axes[k] (a sequence of a.ndim distinct axes)
    nd = a.ndim
    if len(axes) != nd:
        raise ValueError("axes don't match array")
    shape = a.shape
    strides = a.strides
    ns = shape
    nst = strides
    for k in range(nd):
        ax = _axis(axes[k], nd)
        for j in range(k):
            if _axis(axes[j], nd) == ax:
                raise ValueError("repeated axis in transpose")
        ns = tuple_setitem(ns, k, shape[ax])
        nst = tuple_setitem(nst, k, strides[ax])
    return as_strided(a, ns, nst)


@njit
def transpose(a, axes=None):
    a = np.asarray(a)
    if axes is None:
        return a.T
    if a.ndim == 0:
        if len(axes) != 0:
            raise ValueError("axes don't match array")
        return a
    return _permuted(a, axes)


@njit
def swapaxes(a, axis1, axis2):
    a = np.asarray(a)
    if a.ndim == 0:
        raise ValueError(f"axis {axis1} is out of bounds for array of dimension 0")
    nd = a.ndim
    i = _axis(axis1, nd)
    j = _axis(axis2, nd)
    shape = a.shape
    strides = a.strides
    ns = tuple_setitem(tuple_setitem(shape, i, shape[j]), j, shape[i])
    nst = tuple_setitem(tuple_setitem(strides, i, strides[j]), j, strides[i])
    return as_strided(a, ns, nst)


@njit
def _axis_list(x, nd, what):
    # an int or a sequence of ints as a list of distinct normalized axes
    out = [0]
    out.pop()
    if isinstance(x, int):
        out.append(_axis(x, nd))
    else:
        for v in x:
            ax = _axis(v, nd)
            if ax in out:
                raise ValueError("repeated axis in `" + what + "` argument")
            out.append(ax)
    return out


@njit
def moveaxis(a, source, destination):
    a = np.asarray(a)
    nd = a.ndim
    src = _axis_list(source, nd, "source")
    dst = _axis_list(destination, nd, "destination")
    if len(src) != len(dst):
        raise ValueError("`source` and `destination` arguments must have the same number of elements")
    order = [n for n in range(nd) if n not in src]
    # the moved axes inserted in the order of their destinations (NumPy's sorted(zip(...)))
    done = [False] * len(dst)
    for _ in range(len(dst)):
        best = -1
        for i in range(len(dst)):
            if not done[i] and (best < 0 or dst[i] < dst[best]):
                best = i
        done[best] = True
        order.insert(dst[best], src[best])
    if a.ndim == 0:
        return a
    return _permuted(a, order)


@njit
def expand_dims(a, axis):
    a = np.asarray(a)
    if isinstance(axis, tuple):
        nd = a.ndim + len(axis)
        src_shape = a.shape + (1,)
        src_strides = a.strides + (0,)
        ns = a.shape + axis
        nst = ns
        for k in range(len(axis)):
            for j in range(k):
                if _axis(axis[j], nd) == _axis(axis[k], nd):
                    raise ValueError("repeated axis")
        j = 0
        for k in range(nd):
            new = False
            for ax in axis:
                if _axis(ax, nd) == k:
                    new = True
            if new:
                ns = tuple_setitem(ns, k, 1)
                nst = tuple_setitem(nst, k, 0)
            else:
                ns = tuple_setitem(ns, k, src_shape[j])
                nst = tuple_setitem(nst, k, src_strides[j])
                j += 1
        return as_strided(a, ns, nst)
    else:
        nd = a.ndim + 1
        ax = _axis(axis, nd)
        src_shape = a.shape + (1,)
        src_strides = a.strides + (0,)
        ns = src_shape
        nst = src_strides
        for k in range(nd):
            if k == ax:
                ns = tuple_setitem(ns, k, 1)
                nst = tuple_setitem(nst, k, 0)
            elif k > ax:
                ns = tuple_setitem(ns, k, src_shape[k - 1])
                nst = tuple_setitem(nst, k, src_strides[k - 1])
        return as_strided(a, ns, nst)


@njit
def squeeze(a, axis=None):
    a = np.asarray(a)
    if axis is None:
        if a.ndim == 0:
            return a
        refuse("np.squeeze() without an axis is not supported: the number of dimensions of the "
               "result would depend on the shape at run time; give axis=")
    elif isinstance(axis, tuple):
        if len(axis) == 0:
            return a
        elif len(axis) == 1:
            return squeeze(a, axis[0])
        refuse("np.squeeze() with several axes is not supported: squeeze them one at a time")
    elif a.ndim == 0:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension 0")
    else:
        nd = a.ndim
        ax = _axis(axis, nd)
        shape = a.shape
        strides = a.strides
        if shape[ax] != 1:
            raise ValueError("cannot select an axis to squeeze out which has size not equal to one")
        ns = shape[1:]
        nst = strides[1:]
        for k in range(nd - 1):
            src = k if k < ax else k + 1
            ns = tuple_setitem(ns, k, shape[src])
            nst = tuple_setitem(nst, k, strides[src])
        return as_strided(a, ns, nst)


@njit
def _at1(a):
    a = np.asarray(a)
    if a.ndim >= 1:
        return a
    return as_strided(a, (1,), (0,))


@njit
def _at2(a):
    a = np.asarray(a)
    if a.ndim >= 2:
        return a
    if a.ndim == 0:
        return as_strided(a, (1, 1), (0, 0))
    return as_strided(a, (1, a.shape[0]), (0, a.strides[0]))


@njit
def _at3(a):
    a = np.asarray(a)
    if a.ndim >= 3:
        return a
    if a.ndim == 0:
        return as_strided(a, (1, 1, 1), (0, 0, 0))
    if a.ndim == 1:
        return as_strided(a, (1, a.shape[0], 1), (0, a.strides[0], 0))
    return as_strided(a, (a.shape[0], a.shape[1], 1), (a.strides[0], a.strides[1], 0))


@njit
def _each_at1(*arys):
    if len(arys) == 0:
        return ()
    return (_at1(arys[0]),) + _each_at1(*arys[1:])


@njit
def atleast_1d(*arys):
    # one array: its view; several: a tuple of them, as NumPy
    if len(arys) == 1:
        return _at1(arys[0])
    return _each_at1(*arys)


@njit
def _each_at2(*arys):
    if len(arys) == 0:
        return ()
    return (_at2(arys[0]),) + _each_at2(*arys[1:])


@njit
def atleast_2d(*arys):
    # one array: its view; several: a tuple of them, as NumPy
    if len(arys) == 1:
        return _at2(arys[0])
    return _each_at2(*arys)


@njit
def _each_at3(*arys):
    if len(arys) == 0:
        return ()
    return (_at3(arys[0]),) + _each_at3(*arys[1:])


@njit
def atleast_3d(*arys):
    # one array: its view; several: a tuple of them, as NumPy
    if len(arys) == 1:
        return _at3(arys[0])
    return _each_at3(*arys)


@njit
def shape(a):
    return np.asarray(a).shape


@njit
def size(a, axis=None):
    a = np.asarray(a)
    if axis is None:
        return a.size
    return a.shape[_axis(axis, a.ndim)]


@njit
def ndim(a):
    return np.asarray(a).ndim


@njit
def broadcast_to(array, shape):
    # a read-only view of `array` broadcast to `shape` (an int or a tuple), as NumPy
    a = np.asarray(array)
    if isinstance(shape, int):
        return broadcast_to(a, (shape,))
    nd = len(shape)
    if nd < a.ndim:
        raise ValueError("input operand has more dimensions than allowed by the axis remapping")
    ns = shape
    nst = shape
    off = nd - a.ndim
    src_shape = a.shape + (1,)
    src_strides = a.strides + (0,)
    for k in range(nd):
        want = shape[k]
        if want < 0:
            raise ValueError("all elements of broadcast shape must be non-negative")
        if k < off:
            nst = tuple_setitem(nst, k, 0)
        else:
            have = src_shape[k - off]
            if have == want:
                nst = tuple_setitem(nst, k, src_strides[k - off])
            elif have == 1:
                nst = tuple_setitem(nst, k, 0)
            else:
                raise ValueError("operands could not be broadcast together with the requested shape")
    return as_strided(a, ns, nst, writeable=False)


@njit
def _broadcast_pair(a, b):
    # the broadcast of two shape tuples (aligned at their ends), as NumPy's rule; the
    # result has max(len(a), len(b)) items, built by peeling the last axis off each
    if len(a) == 0:
        return b
    if len(b) == 0:
        return a
    head = _broadcast_pair(a[:-1], b[:-1])
    x = a[-1]
    y = b[-1]
    if x == 1:
        return head + (y,)
    if y != 1 and y != x:
        raise ValueError("shape mismatch: objects cannot be broadcast to a single shape")
    return head + (x,)


@njit
def _as_shape(s):
    if isinstance(s, int):
        return (s,)
    return s


@njit
def _broadcast_all(*shapes):
    if len(shapes) == 0:
        return ()
    return _broadcast_pair(_as_shape(shapes[0]), _broadcast_all(*shapes[1:]))


@njit
def broadcast_shapes(*args):
    # the shape arrays of these shapes (ints or tuples of ints) broadcast to, as a tuple
    out = _broadcast_all(*args)
    for n in out:
        if n < 0:
            raise ValueError("negative dimensions are not allowed")
    return out


@njit
def _array_shapes(*arrays):
    if len(arrays) == 0:
        return ()
    return _broadcast_pair(np.asarray(arrays[0]).shape, _array_shapes(*arrays[1:]))


@njit
def _broadcast_each(shape, *arrays):
    if len(arrays) == 0:
        return ()
    return (broadcast_to(arrays[0], shape),) + _broadcast_each(shape, *arrays[1:])


@njit
def broadcast_arrays(*args):
    # read-only views of the arrays broadcast to one shape; a tuple, as NumPy 2 returns
    # (Numba returns a list, whose items must then share one dtype)
    return _broadcast_each(_array_shapes(*args), *args)


# ---------------------------------------------------------------------------
# splitting, appending, deleting, inserting
# ---------------------------------------------------------------------------


@njit
def _split(ary, indices_or_sections, axis, equal):
    a = np.asarray(ary)
    if a.ndim == 0:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension 0")
    ax = _axis(axis, a.ndim)
    n = a.shape[ax]
    moved = moveaxis(a, ax, 0)
    out = [moveaxis(moved[0:0], 0, ax)]
    out.pop()
    if isinstance(indices_or_sections, int):
        sections = indices_or_sections
        if sections <= 0:
            raise ValueError("number sections must be larger than 0.")
        if equal and n % sections != 0:
            raise ValueError("array split does not result in an equal division")
        each = n // sections
        extras = n % sections
        start = 0
        for i in range(sections):
            stop = start + each + (1 if i < extras else 0)
            out.append(moveaxis(moved[start:stop], 0, ax))
            start = stop
    else:
        idx = np.asarray(indices_or_sections)
        if idx.ndim != 1:
            refuse("np.split() indices must be an integer or a 1-D sequence of integers")
        start = 0
        for i in range(idx.shape[0] + 1):
            stop = idx[i] if i < idx.shape[0] else n
            out.append(moveaxis(moved[start:stop], 0, ax))
            start = stop
    return out


@njit
def split(ary, indices_or_sections, axis=0):
    return _split(ary, indices_or_sections, axis, True)


@njit
def array_split(ary, indices_or_sections, axis=0):
    return _split(ary, indices_or_sections, axis, False)


@njit
def hsplit(ary, indices_or_sections):
    a = np.asarray(ary)
    if a.ndim == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return _split(a, indices_or_sections, 1 if a.ndim > 1 else 0, True)


@njit
def vsplit(ary, indices_or_sections):
    a = np.asarray(ary)
    if a.ndim < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return _split(a, indices_or_sections, 0, True)


@njit
def dsplit(ary, indices_or_sections):
    a = np.asarray(ary)
    if a.ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return _split(a, indices_or_sections, 2, True)


@njit
def _concat_axis(a, b, axis):
    if a.ndim != b.ndim:
        raise ValueError("all the input arrays must have the same number of dimensions")
    if a.ndim == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    ax = _axis(axis, a.ndim)
    r = np.concatenate((moveaxis(a, ax, 0), moveaxis(b, ax, 0)), axis=0)
    return np.ascontiguousarray(moveaxis(r, 0, ax))


@njit
def append(arr, values, axis=None):
    a = np.asarray(arr)
    v = np.asarray(values)
    if axis is None:
        return np.concatenate((a.ravel(), v.ravel()))
    return _concat_axis(a, v, axis)


@njit
def delete(arr, obj):
    # NumPy's delete without an axis: on the flattened array
    a = np.asarray(arr).ravel()
    n = a.shape[0]
    keep = np.ones(n, dtype=np.bool_)
    if isinstance(obj, slice):
        keep[obj] = False
    elif isinstance(obj, int):
        i = obj
        if i < -n or i >= n:
            raise IndexError(f"index {i} is out of bounds for axis 0 with size {n}")
        keep[i] = False
    else:
        idx = np.asarray(obj)
        if isinstance(np.zeros(1, dtype=idx.dtype)[0], np.bool_):
            if idx.shape != a.shape:
                raise ValueError("boolean array argument obj to delete must be one dimensional and match the axis length")
            return a[~idx]
        flat = idx.ravel()
        for k in range(flat.shape[0]):
            i = flat[k]
            if i < -n or i >= n:
                raise IndexError(f"index {i} is out of bounds for axis 0 with size {n}")
            keep[i] = False
    return a[keep]


@njit
def insert(arr, obj, values):
    # NumPy's insert without an axis: into the flattened array
    a = np.asarray(arr).ravel()
    n = a.shape[0]
    vals = np.asarray(values).ravel().astype(a.dtype)
    if isinstance(obj, int):
        index = obj
        if index < -n or index > n:
            raise IndexError(f"index {index} is out of bounds for axis 0 with size {n}")
        if index < 0:
            index += n
        m = vals.shape[0]
        out = np.empty(n + m, dtype=a.dtype)
        out[:index] = a[:index]
        out[index:index + m] = vals
        out[index + m:] = a[index:]
        return out
    if isinstance(obj, slice):
        idx = np.arange(n + 1)[obj]
    else:
        idx = np.asarray(obj).ravel().astype(np.int64)
    k = idx.shape[0]
    if k == 1 and not isinstance(obj, slice):
        # one index given as a sequence: every value goes there (NumPy's scalar path)
        return insert(a, idx[0], vals)
    if vals.shape[0] != k and vals.shape[0] != 1:
        raise ValueError("shape mismatch: value array could not be broadcast to indexing result")
    pos = np.empty(k, dtype=np.int64)
    for i in range(k):
        p = idx[i]
        if p < -n or p > n:
            raise IndexError(f"index {p} is out of bounds for axis 0 with size {n}")
        pos[i] = p + n if p < 0 else p
    order = np.argsort(pos)
    for j in range(k):
        pos[order[j]] += j
    out = np.empty(n + k, dtype=a.dtype)
    old = np.ones(n + k, dtype=np.bool_)
    for i in range(k):
        old[pos[i]] = False
    for i in range(k):
        out[pos[i]] = vals[i] if vals.shape[0] == k else vals[0]
    j = 0
    for i in range(n + k):
        if old[i]:
            out[i] = a[j]
            j += 1
    return out


# ---------------------------------------------------------------------------
# diagonals, real and imaginary parts
# ---------------------------------------------------------------------------


@njit
def _diagonal_view(a, offset):
    # the diagonal `offset` of a 2-D array as a read-only view (NumPy's a.diagonal())
    rows, cols = a.shape[0], a.shape[1]
    if offset >= 0:
        n = min(rows, cols - offset)
        b = a[:, min(offset, cols):]
    else:
        n = min(rows + offset, cols)
        b = a[min(-offset, rows):, :]
    if n < 0:
        n = 0
    return as_strided(b, (n,), (a.strides[0] + a.strides[1],), writeable=False)


@njit
def diagonal(a, offset=0, axis1=0, axis2=1):
    a = np.asarray(a)
    if a.ndim < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    if a.ndim != 2:
        refuse("np.diagonal() of arrays of more than 2 dimensions is not supported")
    i = _axis(axis1, 2)
    j = _axis(axis2, 2)
    if i == j:
        raise ValueError("axis1 and axis2 cannot be the same")
    if i == 0:
        return _diagonal_view(a, offset)
    return _diagonal_view(a.T, offset)


@njit
def diag(v, k=0):
    v = np.asarray(v)
    if v.ndim == 1:
        n = v.shape[0]
        size = n + (k if k >= 0 else -k)
        res = np.zeros((size, size), dtype=v.dtype)
        for i in range(n):
            if k >= 0:
                res[i, i + k] = v[i]
            else:
                res[i - k, i] = v[i]
        return res
    elif v.ndim == 2:
        return _diagonal_view(v, k)  # a read-only view, as NumPy
    else:
        raise ValueError("Input must be 1- or 2-d.")


@njit
def diagflat(v, k=0):
    return diag(np.asarray(v).ravel(), k)


@njit
def real(val):
    # a view of the real parts of a complex array; other arrays are their own real part
    if isinstance(val, (int, float, complex)):
        return val.real
    return np.asarray(val).real


@njit
def imag(val):
    # a view of the imaginary parts of a complex array; zeros for other arrays
    if isinstance(val, (int, float, complex)):
        return val.imag
    return np.asarray(val).imag


# ---------------------------------------------------------------------------
# flips, rotations, rolls, tiles, resizing, trimming
# ---------------------------------------------------------------------------


@njit
def _flip_axis(m, axis):
    ax = _axis(axis, m.ndim)
    if m.ndim == 1:  # a reversed view by slicing (moveaxis builds its permutations in lists)
        return m[::-1]
    if m.ndim == 2:
        if ax == 0:
            return m[::-1]
        return m[:, ::-1]
    return moveaxis(moveaxis(m, ax, 0)[::-1], 0, ax)


@njit
def flip(m, axis=None):
    m = np.asarray(m)
    if axis is None:
        if m.ndim == 0:
            return m
        r = _flip_axis(m, 0)
        for k in range(1, m.ndim):
            r = _flip_axis(r, k)
        return r
    elif isinstance(axis, int):
        if m.ndim == 0:
            raise ValueError(f"axis {axis} is out of bounds for array of dimension 0")
        return _flip_axis(m, axis)
    else:
        if m.ndim == 0:
            raise ValueError("axis is out of bounds for array of dimension 0")
        r = _flip_axis(m, axis[0])
        for k in range(1, len(axis)):
            r = _flip_axis(r, axis[k])
        return r


@njit
def rot90(m, k=1, axes=(0, 1)):
    m = np.asarray(m)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    a0 = _axis(axes[0], m.ndim)
    a1 = _axis(axes[1], m.ndim)
    if a0 == a1:
        raise ValueError("Axes must be different.")
    k = k % 4
    if k == 0:
        return moveaxis(m, 0, 0)
    if k == 2:
        return _flip_axis(_flip_axis(m, a0), a1)
    perm = np.arange(m.ndim)
    perm[a0] = a1
    perm[a1] = a0
    if k == 1:
        return transpose(_flip_axis(m, a1), perm)
    return _flip_axis(transpose(m, perm), a1)


@njit
def _roll_flat(a, shift):
    f = np.ascontiguousarray(a).ravel()
    n = f.shape[0]
    out = np.empty(n, dtype=a.dtype)
    if n > 0:
        s = shift % n
        out[s:] = f[:n - s]
        out[:s] = f[n - s:]
    return out.reshape(a.shape)


@njit
def _roll_axis(a, shift, axis):
    ax = _axis(axis, a.ndim)
    out = np.empty(a.shape, dtype=a.dtype)
    n = a.shape[ax]
    if n > 0:
        s = shift % n
        src = moveaxis(a, ax, 0)
        dst = moveaxis(out, ax, 0)
        dst[s:] = src[:n - s]
        dst[:s] = src[n - s:]
    return out


@njit
def roll(a, shift, axis=None):
    a = np.asarray(a)
    if axis is None:
        if not isinstance(shift, int):
            refuse("np.roll() without an axis needs an integer shift")
        return _roll_flat(a, shift)
    if a.ndim == 0:
        raise ValueError("axis is out of bounds for array of dimension 0")
    if isinstance(axis, int):
        if isinstance(shift, int):
            return _roll_axis(a, shift, axis)
        out = np.copy(a)
        for s in shift:
            out = _roll_axis(out, s, axis)
        return out
    out = np.copy(a)
    if isinstance(shift, int):
        for i in range(len(axis)):
            out = _roll_axis(out, shift, axis[i])
    else:
        if len(shift) != len(axis):
            raise ValueError("'shift' and 'axis' should be scalars or 1D sequences")
        for i in range(len(axis)):
            out = _roll_axis(out, shift[i], axis[i])
    return out


@njit
def _tile_tuple(A, reps):
    # reps: a tuple of ints at least as long as A.ndim is; A: an array
    d = len(reps)
    off = d - A.ndim
    shape = reps
    src = A.shape + (1,)  # never empty, so a 0-d A types
    for k in range(d):
        shape = tuple_setitem(shape, k, 1 if k < off else src[k - off])
    a = A.reshape(shape)
    # the result viewed as (reps[0], shape[0], reps[1], shape[1], ...) is `a` broadcast along
    # the reps axes: one strided store
    pairs = reps + reps
    out_shape = reps
    src_strides = pairs
    for k in range(d):
        r = reps[k]
        if r < 0:
            raise ValueError("negative dimensions are not allowed")
        pairs = tuple_setitem(tuple_setitem(pairs, 2 * k, r), 2 * k + 1, shape[k])
        out_shape = tuple_setitem(out_shape, k, size_mul(r, shape[k]))
        src_strides = tuple_setitem(tuple_setitem(src_strides, 2 * k, 0), 2 * k + 1, a.strides[k])
    out = np.empty(out_shape, dtype=A.dtype)
    if out.size > 0:
        view = out.reshape(pairs)
        view[:] = as_strided(a, pairs, src_strides)
    return out


@njit
def tile(A, reps):
    A = np.asarray(A)
    if isinstance(reps, int):
        return tile(A, (reps,))
    if not isinstance(reps, tuple):
        refuse("np.tile() reps must be an integer or a tuple of integers")
    if len(reps) >= A.ndim:
        return _tile_tuple(A, reps)
    # fewer reps than dimensions: reps padded with ones in front
    full = A.shape
    off = A.ndim - len(reps)
    for k in range(A.ndim):
        full = tuple_setitem(full, k, 1 if k < off else reps[k - off])
    return _tile_tuple(A, full)


@njit
def resize(a, new_shape):
    a = np.asarray(a)
    if isinstance(new_shape, int):
        return resize(a, (new_shape,))
    total = 1
    for d in new_shape:
        if d < 0:
            raise ValueError("all elements of `new_shape` must be non-negative")
        total = size_mul(total, d)
    f = np.ascontiguousarray(a).ravel()
    out = np.empty(total, dtype=a.dtype)
    n = f.shape[0]
    if n == 0:
        out[:] = 0
    else:
        for i in range(total):
            out[i] = f[i % n]
    return out.reshape(new_shape)


@njit
def trim_zeros(filt, trim="fb"):
    a = np.asarray(filt)
    if a.ndim != 1:
        refuse("np.trim_zeros() is supported for 1-D arrays")
    start = 0
    stop = a.shape[0]
    front = False
    back = False
    for c in trim:
        if c == "f" or c == "F":
            front = True
        elif c == "b" or c == "B":
            back = True
        else:
            raise ValueError("unexpected character(s) in `trim`: " + repr(trim))
    if front:
        while start < stop and a[start] == 0:
            start += 1
    if back:
        while stop > start and a[stop - 1] == 0:
            stop -= 1
    return a[start:stop]


@njit
def sliding_window_view(x, window_shape, axis=None):
    # NumPy's sliding_window_view: a read-only view with the window axes last
    a = np.asarray(x)
    if isinstance(window_shape, int):
        return sliding_window_view(a, (window_shape,), axis)
    if axis is None:
        if len(window_shape) != a.ndim:
            raise ValueError("Since axis is `None`, must provide window_shape for all dimensions of `x`")
        axes = window_shape
        for k in range(len(axes)):
            axes = tuple_setitem(axes, k, k)
        return _windows(a, window_shape, axes)
    if isinstance(axis, int):
        return _windows(a, window_shape, (axis,))
    if len(window_shape) != len(axis):
        raise ValueError("Must provide matching length window_shape and axis")
    return _windows(a, window_shape, axis)


@njit
def _windows(a, window_shape, axes):
    nd = a.ndim
    for w in window_shape:
        if w < 0:
            raise ValueError("`window_shape` cannot contain negative values")
    shape = a.shape
    new_shape = a.shape + window_shape
    new_strides = a.strides + window_shape
    for k in range(len(window_shape)):
        new_strides = tuple_setitem(new_strides, nd + k, a.strides[_axis(axes[k], nd)])
    for k in range(len(window_shape)):
        ax = _axis(axes[k], nd)
        w = window_shape[k]
        if new_shape[ax] < w:
            raise ValueError("window shape cannot be larger than input array shape")
        new_shape = tuple_setitem(new_shape, ax, new_shape[ax] - w + 1)
        new_shape = tuple_setitem(new_shape, nd + k, w)
    return as_strided(a, new_shape, new_strides, writeable=False)
