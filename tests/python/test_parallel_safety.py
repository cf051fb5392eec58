"""parallel=True is safe everywhere: from several Python threads at once (the GIL released),
in a child after os.fork(), in multiprocessing workers (fork and spawn), nested, and with
per-thread thread counts. Each case checks results and that nothing hangs."""

import multiprocessing
import os
import threading

import numpy as np
import pytest

import mahou
from mahou import njit, prange


@njit(parallel=True, nogil=True)
def weighted_sum(a, k):
    s = 0.0
    for i in prange(a.shape[0]):
        s += a[i] * k
    return s


@njit(parallel=True)
def fill_squares(out):
    for i in prange(out.shape[0]):
        out[i] = i * i


@pytest.fixture(autouse=True)
def restore_threads():
    n = mahou.get_num_threads()
    yield
    mahou.set_num_threads(n)


def reference(n, k):
    return float(np.arange(n, dtype=np.float64).sum() * k)


def worker_result(n):
    """Runs in a multiprocessing worker: a parallel loop there, checked against NumPy."""
    out = np.zeros(n, np.int64)
    fill_squares(out)
    return bool((out == np.arange(n) ** 2).all()) and weighted_sum(np.arange(n, dtype=np.float64), 2.0) == reference(n, 2.0)


def test_several_python_threads_at_once():
    a = np.arange(200_000, dtype=np.float64)
    weighted_sum(a, 1.0)
    errors = []

    def run(k, threads):
        try:
            mahou.set_num_threads(threads)
            for _ in range(30):
                got = weighted_sum(a, float(k))
                if got != reference(a.size, k):
                    errors.append((k, got))
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    counts = [1, mahou.config.NUMBA_NUM_THREADS] * 3
    workers = [threading.Thread(target=run, args=(k, counts[k])) for k in range(6)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(timeout=120)
    assert not any(w.is_alive() for w in workers), "a parallel call hung"
    assert errors == []


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_in_a_child_after_fork():
    a = np.arange(100_000, dtype=np.float64)
    assert weighted_sum(a, 3.0) == reference(a.size, 3.0)  # the pool exists before the fork
    pid = os.fork()
    if pid == 0:  # the child: parallel loops still work
        ok = False
        try:
            ok = weighted_sum(a, 5.0) == reference(a.size, 5.0) and worker_result(5000)
        finally:
            os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    assert weighted_sum(a, 7.0) == reference(a.size, 7.0)  # and in the parent after it


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_in_multiprocessing_workers(method):
    if method not in multiprocessing.get_all_start_methods():
        pytest.skip(f"no {method} start method")
    worker_result(1000)  # threads running in the parent first
    with multiprocessing.get_context(method).Pool(2) as pool:
        assert pool.map(worker_result, [1000, 5000, 20_000, 3]) == [True] * 4


@njit(parallel=True)
def row_totals(a, out):
    for i in prange(a.shape[0]):
        out[i] = weighted_sum(a[i], 1.0)


def test_nested_parallel_functions_keep_the_thread_count():
    a = np.random.rand(64, 5000)
    out = np.zeros(64)
    for threads in sorted({1, 2, mahou.config.NUMBA_NUM_THREADS}):
        mahou.set_num_threads(threads)
        row_totals(a, out)
        np.testing.assert_allclose(out, a.sum(axis=1), rtol=1e-12)
        assert mahou.get_num_threads() == threads
