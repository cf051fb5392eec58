"""Compiled functions in process pools: multiprocessing with fork, spawn and
forkserver, concurrent.futures.ProcessPoolExecutor and joblib (loky). Workers get the
functions pickled (by value for closures, by reference for importable ones) with their
machine code, run it without compiling, and give the Python function's results."""

import concurrent.futures
import functools
import math
import multiprocessing
import textwrap

import numpy as np
import pytest
from conftest import assert_same
from pool_helpers import run_reporting

from mahou import njit

START_METHODS = ["fork", "spawn", "forkserver"]


def make_kernels():
    """A closure (pickled by value) calling another, with a captured array and scalar."""
    weights = np.array([0.5, -1.0, 2.0])
    shift = 3

    @njit
    def weigh(x, i):
        return x * weights[i % 3] + shift

    @njit
    def score(a):
        s = 0.0
        for i in range(a.shape[0]):
            s += weigh(a[i], i) - math.fabs(a[i])
        return s

    return score


INPUTS = [
    (np.array([1.0, -2.5, 3.0, 4.25]),),
    (np.array([], dtype=np.float64),),
    (np.arange(-10.0, 10.0)[::4],),  # non-contiguous
    (np.full(7, -1.5),),
]


def check_worker_results(score, reports):
    pids = set()
    for args, (value, shipped, pid) in zip(INPUTS, reports):
        assert_same(value, score.py_func(*args))
        assert shipped and all(shipped.values()), shipped  # linked, never compiled there
        pids.add(pid)
    return pids


@pytest.mark.parametrize("method", START_METHODS)
def test_multiprocessing_pool(method):
    score = make_kernels()
    for args in INPUTS:
        score(*args)
    ctx = multiprocessing.get_context(method)
    with ctx.Pool(2) as pool:
        reports = pool.starmap(functools.partial(run_reporting, score), INPUTS, chunksize=1)
    import os
    pids = check_worker_results(score, reports)
    assert os.getpid() not in pids


def test_multiprocessing_by_reference_spawn(tmp_path, monkeypatch):
    (tmp_path / "pool_mod.py").write_text(textwrap.dedent("""
        import mahou

        @mahou.njit
        def collatz_steps(n):
            steps = 0
            while n != 1:
                n = n // 2 if n % 2 == 0 else 3 * n + 1
                steps += 1
            return steps
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    import pool_mod
    pool_mod.collatz_steps(27)
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        reports = pool.starmap(functools.partial(run_reporting, pool_mod.collatz_steps),
                               [(27,), (1,), (97,), (871,)], chunksize=1)
    assert [r[0] for r in reports] == [pool_mod.collatz_steps.py_func(n) for n in (27, 1, 97, 871)]
    assert all(r[1] == {"(int64,)": True} for r in reports)


@pytest.mark.parametrize("method", [None, "spawn"])
def test_process_pool_executor(method):
    score = make_kernels()
    for args in INPUTS:
        score(*args)
    ctx = multiprocessing.get_context(method) if method else None
    with concurrent.futures.ProcessPoolExecutor(max_workers=2, mp_context=ctx) as ex:
        futures = [ex.submit(run_reporting, score, *args) for args in INPUTS]
        reports = [f.result(timeout=120) for f in futures]
    check_worker_results(score, reports)


def test_workers_compile_what_was_never_called():
    score = make_kernels()  # not called here: nothing to ship, each worker compiles
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        reports = pool.starmap(functools.partial(run_reporting, score), INPUTS, chunksize=1)
    for args, (value, shipped, _) in zip(INPUTS, reports):
        assert_same(value, score.py_func(*args))
        assert not any(shipped.values())


def test_joblib_loky():
    joblib = pytest.importorskip("joblib")
    score = make_kernels()
    for args in INPUTS:
        score(*args)
    try:
        reports = joblib.Parallel(n_jobs=2, backend="loky")(
            joblib.delayed(run_reporting)(score, *args) for args in INPUTS)
        check_worker_results(score, reports)
        values = joblib.Parallel(n_jobs=2, backend="loky")(
            joblib.delayed(score)(*args) for args in INPUTS)
        for args, value in zip(INPUTS, values):
            assert_same(value, score.py_func(*args))
    finally:
        from joblib.externals.loky import get_reusable_executor
        get_reusable_executor().shutdown(wait=True)


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_parallel_functions_in_workers(method):
    """parallel=True code (oneTBB) used here before forking, then in the workers."""
    from mahou import prange

    @njit(parallel=True)
    def total(a):
        s = 0.0
        for i in prange(a.shape[0]):
            s += a[i] * 0.5
        return s

    a = np.arange(20000.0)
    assert total(a) == total.py_func(a)
    with concurrent.futures.ProcessPoolExecutor(
            max_workers=2, mp_context=multiprocessing.get_context(method)) as ex:
        reports = list(ex.map(run_reporting, [total] * 3, [a, a[::-1], a[:7]], timeout=120))
    for arg, (value, shipped, _) in zip([a, a[::-1], a[:7]], reports):
        assert value == total.py_func(arg)
        assert "(array(float64, 1d, C),)" in shipped
