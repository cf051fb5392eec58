"""Compiled functions on a real Dask cluster: a LocalCluster of two worker processes,
started once for this module, runs them through client.map, dask.array.map_blocks and
dask.bag. The functions travel pickled with their machine code: workers link it and
give the Python function's results without compiling."""

import math

import numpy as np
import pytest
from conftest import assert_same
from pool_helpers import run_reporting

from mahou import njit

distributed = pytest.importorskip("distributed")
da = pytest.importorskip("dask.array")
db = pytest.importorskip("dask.bag")


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None, silence_logs=40)
    c = distributed.Client(cluster)
    try:
        c.wait_for_workers(2, timeout=120)
        yield c
    finally:
        c.close()
        cluster.close()


def make_score():
    table = np.array([1.0, -0.5, 2.0, 0.25])

    @njit
    def score(x, k):
        return x * table[k % 4] + math.sin(x) - k

    return score


def test_client_map_runs_shipped_code(client):
    score = make_score()
    xs, ks = [0.5, -3.0, 10.0, 0.0, -1e-3, 7.25], [0, 1, 2, 3, 4, -5]
    score(1.0, 2)  # compiled here once; the workers get the machine code
    futures = client.map(run_reporting, [score] * len(xs), xs, ks, pure=False)
    reports = client.gather(futures)
    pids = set()
    for x, k, (value, shipped, pid) in zip(xs, ks, reports):
        assert_same(value, score.py_func(x, k))
        assert shipped == {"(float64, int64)": True}
        pids.add(pid)
    values = client.gather(client.map(score, xs, ks))
    for x, k, v in zip(xs, ks, values):
        assert_same(v, score.py_func(x, k))


def test_client_map_of_a_function_never_called_here(client):
    @njit
    def hyp(x, y):
        return math.sqrt(x * x + y * y)

    values = client.gather(client.map(hyp, [3.0, -5.0, 0.0], [4.0, 12.0, 0.0]))
    assert values == [5.0, 13.0, 0.0]


def test_dask_array_map_blocks(client):
    @njit
    def smooth(block):
        out = np.empty_like(block)
        for i in range(block.shape[0]):
            for j in range(block.shape[1]):
                out[i, j] = 0.5 * block[i, j] + 0.25 * (block[i, j] * block[i, j]) - 1.0
        return out

    x = np.linspace(-3, 3, 60 * 40).reshape(60, 40)
    smooth(x[:30, :20])  # one block's type, compiled here
    arr = da.from_array(x, chunks=(30, 20))
    got = arr.map_blocks(smooth, dtype=np.float64).compute()
    assert_same(got, smooth.py_func(x))
    # Non-contiguous blocks (a transposed array) compile an 'A'-layout overload there.
    got_t = da.from_array(x, chunks=(30, 20)).T.map_blocks(smooth, dtype=np.float64).compute()
    assert_same(got_t, smooth.py_func(x.T))


def test_dask_bag(client):
    @njit
    def digits_sum(n):
        s = 0
        n = abs(n)
        while n > 0:
            s += n % 10
            n //= 10
        return s

    items = [0, 7, 1234, -98765, 10**12 + 3, 555]
    digits_sum(1)
    bag = db.from_sequence(items, npartitions=3)
    assert bag.map(digits_sum).compute() == [digits_sum.py_func(n) for n in items]
    assert bag.map(digits_sum).sum().compute() == sum(digits_sum.py_func(n) for n in items)
