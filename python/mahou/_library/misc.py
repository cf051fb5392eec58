"""Smaller NumPy functions compiled by mahou: tri, vander, take, ptp, extract, the iterators
ndenumerate and nditer (generators), and np.iinfo / np.finfo (named tuples of NumPy's
values for the dtype)."""

import collections

import numpy as np
from numpy.lib.stride_tricks import as_strided

from mahou import njit
from mahou._language import refuse

__all__ = ["tri", "vander", "ptp", "ndenumerate", "nditer", "iinfo", "finfo", "iscomplexobj",
           "isrealobj", "isposinf", "isneginf", "average"]


@njit
def tri(N, M=None, k=0, dtype=None):
    m = N if M is None else M
    N = max(N, 0)  # NumPy: a negative count gives an empty side
    m = max(m, 0)
    if dtype is None:
        out = np.zeros((N, m), dtype=np.float64)
    else:
        out = np.zeros((N, m), dtype=dtype)
    for i in range(N):
        for j in range(m):
            if j - i <= k:
                out[i, j] = 1
    return out


@njit
def vander(x, N=None, increasing=False):
    v = np.asarray(x)
    if v.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    n = v.shape[0] if N is None else N
    if n < 0:
        raise ValueError("negative dimensions are not allowed")
    one = np.ones(1, dtype=(v[:0] + np.zeros(0, dtype=np.int64)).dtype)  # NumPy's promote_types(x.dtype, int)
    out = np.empty((v.shape[0], n), dtype=one.dtype)
    for i in range(v.shape[0]):
        p = one[0]
        for j in range(n):
            col = j if increasing else n - 1 - j
            out[i, col] = p
            p = p * v[i]
    return out


@njit
def ptp(a):
    f = np.asarray(a).ravel()
    if isinstance(np.zeros(1, dtype=f.dtype)[0], np.bool_):
        raise TypeError("numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, "
                        "the `^` operator, or the logical_xor function instead.")
    if f.shape[0] == 0:
        raise ValueError("zero-size array to reduction operation maximum which has no identity")
    return f.max() - f.min()


@njit
def ndenumerate(arr):
    a = np.asarray(arr)
    for idx in np.ndindex(a.shape):
        yield idx, a[idx]


@njit
def _element_view(a, idx):
    # the 0-d view of element idx of a (a view of one byte stride moved to its address)
    off = 0
    for k in range(a.ndim):
        off += idx[k] * a.strides[k]
    if off >= 0:
        return as_strided(as_strided(a, (off + 1,), (1,))[off:], (), ())
    return as_strided(as_strided(a, (1 - off,), (-1,))[-off:], (), ())


@njit
def nditer(op):
    # Numba's subset: one array; each item a 0-d view of an element, in C order
    a = np.asarray(op)
    for idx in np.ndindex(a.shape):
        yield _element_view(a, idx)


# np.iinfo / np.finfo: named tuples holding NumPy's values for a dtype
IInfo = collections.namedtuple("iinfo", ["bits", "min", "max"])
FInfo = collections.namedtuple(
    "finfo", ["bits", "eps", "epsneg", "max", "min", "tiny", "smallest_normal", "smallest_subnormal",
              "resolution", "precision", "iexp", "machep", "maxexp", "minexp", "negep", "nexp", "nmant"])


def _iinfo_table():
    out = {}
    for t in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64):
        i = np.iinfo(t)
        out[t] = (int(i.bits), int(i.min), int(i.max))
    return out


def _finfo_table():
    out = {}
    for t in (np.float32, np.float64):
        f = np.finfo(t)
        out[t] = (int(f.bits), float(f.eps), float(f.epsneg), float(f.max), float(f.min), float(f.tiny),
                  float(f.smallest_normal), float(f.smallest_subnormal), float(f.resolution),
                  int(f.precision), int(f.iexp), int(f.machep), int(f.maxexp), int(f.minexp), int(f.negep),
                  int(f.nexp), int(f.nmant))
    return out


_II = _iinfo_table()
_FI = _finfo_table()
_I8, _I16, _I32, _I64 = _II[np.int8], _II[np.int16], _II[np.int32], _II[np.int64]
_U8, _U16, _U32 = _II[np.uint8], _II[np.uint16], _II[np.uint32]
_F32, _F64 = _FI[np.float32], _FI[np.float64]
_U64_BITS = 64


@njit
def _kind(x):
    # a zero of the dtype x names (a dtype, or the dtype of a number or an array)
    if isinstance(x, np.ndarray):
        return np.zeros(1, dtype=x.dtype)[0]
    elif isinstance(x, (int, float, complex)):
        return x * 0
    else:
        return np.zeros(1, dtype=x)[0]


@njit
def iinfo(int_type):
    z = _kind(int_type)
    if isinstance(z, np.int8):
        return IInfo(_I8[0], _I8[1], _I8[2])
    elif isinstance(z, np.int16):
        return IInfo(_I16[0], _I16[1], _I16[2])
    elif isinstance(z, np.int32):
        return IInfo(_I32[0], _I32[1], _I32[2])
    elif isinstance(z, np.int64):
        return IInfo(_I64[0], _I64[1], _I64[2])
    elif isinstance(z, np.uint8):
        return IInfo(_U8[0], _U8[1], _U8[2])
    elif isinstance(z, np.uint16):
        return IInfo(_U16[0], _U16[1], _U16[2])
    elif isinstance(z, np.uint32):
        return IInfo(_U32[0], _U32[1], _U32[2])
    elif isinstance(z, np.uint64):
        return IInfo(_U64_BITS, np.uint64(0), np.uint64(18446744073709551615))
    refuse("np.iinfo() needs an integer dtype")


@njit
def _float_of(z, v):
    # v in the float type of z's dtype (NumPy's finfo values are scalars of that type)
    if isinstance(z, (np.float32, np.complex64)):
        return np.float32(v)
    else:
        return v


@njit
def _finfo_of(t, z):
    return FInfo(t[0], _float_of(z, t[1]), _float_of(z, t[2]), _float_of(z, t[3]), _float_of(z, t[4]),
                 _float_of(z, t[5]), _float_of(z, t[6]), _float_of(z, t[7]), _float_of(z, t[8]), t[9], t[10],
                 t[11], t[12], t[13], t[14], t[15], t[16])


@njit
def finfo(dtype):
    z = _kind(dtype)
    if isinstance(z, np.float16):
        refuse("np.finfo() of float16 is not supported")
    elif isinstance(z, (np.float32, np.complex64)):
        return _finfo_of(_F32, z)
    elif isinstance(z, (np.float64, np.complex128)):
        return _finfo_of(_F64, z)
    refuse("np.finfo() needs a float or complex dtype")


@njit
def _is_complex_kind(x):
    # a complex number or array of complex numbers (known when typed)
    if isinstance(x, np.ndarray):
        return isinstance(np.zeros(1, dtype=x.dtype)[0], (np.complex64, np.complex128))
    return isinstance(x, (complex, np.complex64, np.complex128))


@njit
def iscomplexobj(x):
    return _is_complex_kind(x)


@njit
def isrealobj(x):
    return not _is_complex_kind(x)


_AMBIGUOUS = "This operation is not supported for complex values because it would be ambiguous."


@njit
def isposinf(x):
    if isinstance(x, np.ndarray):
        if isinstance(np.zeros(1, dtype=x.dtype)[0], (np.complex64, np.complex128)):
            raise TypeError(_AMBIGUOUS)
        return np.logical_and(np.isinf(x), x > 0)
    elif isinstance(x, (complex, np.complex64, np.complex128)):
        raise TypeError(_AMBIGUOUS)
    else:
        return np.logical_and(np.isinf(x), x > 0)


@njit
def isneginf(x):
    if isinstance(x, np.ndarray):
        if isinstance(np.zeros(1, dtype=x.dtype)[0], (np.complex64, np.complex128)):
            raise TypeError(_AMBIGUOUS)
        return np.logical_and(np.isinf(x), x < 0)
    elif isinstance(x, (complex, np.complex64, np.complex128)):
        raise TypeError(_AMBIGUOUS)
    else:
        return np.logical_and(np.isinf(x), x < 0)


@njit
def average(a, axis=None, weights=None):
    # the whole array (as Numba): the mean, or sum(a * w) / sum(w)
    if axis is not None:
        refuse("np.average() with an axis is not supported (as Numba)")
    v = np.asarray(a)
    if weights is None:
        return v.mean()
    w = np.asarray(weights)
    if v.shape != w.shape:
        raise TypeError("Axis must be specified when shapes of a and weights differ.")
    # NumPy's result dtype (complex sums divide as complex numbers)
    z = np.zeros(1, dtype=(v.ravel()[:0] * w.ravel()[:0] + 0.0).dtype)[0]
    scl = (w + z).sum()
    if scl == 0.0:
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    return (v * w + z).sum() / scl
