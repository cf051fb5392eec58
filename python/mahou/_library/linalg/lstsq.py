"""np.linalg.qr (geqrf with orgqr/ungqr; mode='reduced', as Numba) and lstsq (gelsd)."""

import numpy as np

from mahou import njit
from mahou._library.linalg._lapack import (
    _on_matrix,
    _cgelsd,
    _cgeqrf,
    _check_matrix,
    _cungqr,
    _dgelsd,
    _dgeqrf,
    _dorgqr,
    _empty,
    _eps,
    _fortran,
    _prefix,
    _real_zero,
    _sgelsd,
    _sgeqrf,
    _sorgqr,
    _work_size,
    _zero,
    _zgelsd,
    _zgeqrf,
    _zungqr,
)
from mahou._library.linalg.lu import (
    _result_zero,
)


@njit
def _qr_2d(a):
    _check_matrix(a, "qr")
    z = _zero(a)
    m, n = a.shape
    k = min(m, n)
    t = _fortran(a, z)
    r = np.zeros((k, n), dtype=t.dtype)
    if k == 0:
        return np.zeros((k, m), dtype=t.dtype).T, r
    tau = np.empty(k, dtype=t.dtype)
    ints = np.empty(5, dtype=np.int32)
    ints[0] = m
    ints[1] = n
    ints[2] = k
    ints[3] = -1  # lwork: a query first
    ints[4] = 0   # info
    work = np.ones(1, dtype=t.dtype)
    p = _prefix(z)
    for query in range(2):
        if p == 0:
            _sgeqrf(ints[0:], ints[1:], t, ints[0:], tau, work, ints[3:], ints[4:])
        elif p == 1:
            _dgeqrf(ints[0:], ints[1:], t, ints[0:], tau, work, ints[3:], ints[4:])
        elif p == 2:
            _cgeqrf(ints[0:], ints[1:], t, ints[0:], tau, work, ints[3:], ints[4:])
        else:
            _zgeqrf(ints[0:], ints[1:], t, ints[0:], tau, work, ints[3:], ints[4:])
        if query == 0:
            ints[3] = _work_size(work)
            work = np.empty(ints[3], dtype=t.dtype)
    for i in range(k):
        for j in range(i, n):
            r[i, j] = t[j, i]
    ints[3] = -1
    for query in range(2):
        if p == 0:
            _sorgqr(ints[0:], ints[2:], ints[2:], t, ints[0:], tau, work, ints[3:], ints[4:])
        elif p == 1:
            _dorgqr(ints[0:], ints[2:], ints[2:], t, ints[0:], tau, work, ints[3:], ints[4:])
        elif p == 2:
            _cungqr(ints[0:], ints[2:], ints[2:], t, ints[0:], tau, work, ints[3:], ints[4:])
        else:
            _zungqr(ints[0:], ints[2:], ints[2:], t, ints[0:], tau, work, ints[3:], ints[4:])
        if query == 0:
            ints[3] = _work_size(work)
            work = np.empty(ints[3], dtype=t.dtype)
    return t[:k].T, r


@njit
def _lstsq(a, b2, rcond, nrhs):
    # b2: the right-hand sides (1-D: one); (x as nrhs x n, residuals, rank, s)
    z = _result_zero(a, b2)
    r = _real_zero(z)
    m, n = a.shape
    k = min(m, n)
    mx = max(m, n, 1)
    t = _fortran(a, z)
    bb = np.zeros((nrhs, mx), dtype=t.dtype)
    if b2.ndim == 1:
        for i in range(m):
            bb[0, i] = b2[i]
    else:
        for j in range(nrhs):
            for i in range(m):
                bb[j, i] = b2[i, j]
    s = _empty(k, r)
    rank = 0
    if k > 0 and nrhs > 0:
        rc = np.empty(1, dtype=s.dtype)
        if rcond is None:
            rc[0] = _eps(r) * max(m, n)
        else:
            rc[0] = rcond
        ints = np.empty(8, dtype=np.int32)
        ints[0] = m
        ints[1] = n
        ints[2] = nrhs
        ints[3] = max(1, m)
        ints[4] = mx
        ints[5] = 0   # rank
        ints[6] = -1  # lwork: a query first
        ints[7] = 0   # info
        work = np.ones(1, dtype=t.dtype)
        rwork = np.ones(1, dtype=s.dtype)
        iwork = np.ones(1, dtype=np.int32)
        p = _prefix(z)
        for query in range(2):
            if p == 0:
                _sgelsd(ints[0:], ints[1:], ints[2:], t, ints[3:], bb, ints[4:], s, rc, ints[5:],
                        work, ints[6:], iwork, ints[7:])
            elif p == 1:
                _dgelsd(ints[0:], ints[1:], ints[2:], t, ints[3:], bb, ints[4:], s, rc, ints[5:],
                        work, ints[6:], iwork, ints[7:])
            elif p == 2:
                _cgelsd(ints[0:], ints[1:], ints[2:], t, ints[3:], bb, ints[4:], s, rc, ints[5:],
                        work, ints[6:], rwork, iwork, ints[7:])
            else:
                _zgelsd(ints[0:], ints[1:], ints[2:], t, ints[3:], bb, ints[4:], s, rc, ints[5:],
                        work, ints[6:], rwork, iwork, ints[7:])
            if query == 0:
                ints[6] = _work_size(work)
                work = np.empty(ints[6], dtype=t.dtype)
                rwork = np.empty(_work_size(rwork), dtype=s.dtype)
                iwork = np.empty(max(1, iwork[0]), dtype=np.int32)
        if ints[7] != 0:
            raise np.linalg.LinAlgError("SVD did not converge in Linear Least Squares")
        rank = int(ints[5])
    if rank == n and m > n:
        res = np.zeros(nrhs, dtype=s.dtype)
        for j in range(nrhs):
            acc = r
            for i in range(n, m):
                v = np.abs(bb[j, i])
                acc += v * v
            res[j] = acc
    else:
        res = np.zeros(0, dtype=s.dtype)
    return bb[:, :n], res, rank, s


@njit
def lstsq(a, b, rcond=None):
    return _on_matrix(_lstsq_2d, a, b, rcond)


@njit
def _lstsq_2d(a, b, rcond):
    if b.shape[0] != a.shape[0]:
        raise np.linalg.LinAlgError("Incompatible dimensions")
    if b.ndim == 1:
        x, res, rank, s = _lstsq(a, b, rcond, 1)
        return x[0].copy(), res, rank, s
    else:
        x, res, rank, s = _lstsq(a, b, rcond, b.shape[1])
        return x.T, res, rank, s
