"""Thread control of parallel=True: set_num_threads / get_num_threads / get_thread_id,
threading_layer, config.NUMBA_NUM_THREADS, and their errors."""

import threading

import pytest

import mahou


@pytest.fixture(autouse=True)
def restore_threads():
    n = mahou.get_num_threads()
    yield
    mahou.set_num_threads(n)


def test_defaults():
    assert mahou.threading_layer() == "tbb"
    assert mahou.config.THREADING_LAYER == "tbb"
    assert 1 <= mahou.get_num_threads() <= mahou.config.NUMBA_NUM_THREADS
    assert mahou.get_thread_id() == 0


def test_set_and_get():
    for n in range(1, mahou.config.NUMBA_NUM_THREADS + 1):
        mahou.set_num_threads(n)
        assert mahou.get_num_threads() == n


@pytest.mark.parametrize("bad", [0, -1, 10**6])
def test_out_of_range_is_a_value_error(bad):
    before = mahou.get_num_threads()
    with pytest.raises(ValueError):
        mahou.set_num_threads(bad)
    assert mahou.get_num_threads() == before


@pytest.mark.parametrize("bad", [1.0, "2", None])
def test_not_an_integer_is_a_type_error(bad):
    with pytest.raises(TypeError):
        mahou.set_num_threads(bad)


def test_the_count_is_per_thread():
    mahou.set_num_threads(1)
    seen = []
    t = threading.Thread(target=lambda: seen.append(mahou.get_num_threads()))
    t.start()
    t.join()
    assert seen == [mahou.config.NUMBA_NUM_THREADS]
    assert mahou.get_num_threads() == 1


def test_config_checks_its_value():
    with pytest.raises(TypeError):
        mahou.config.NUMBA_NUM_THREADS = "4"
    with pytest.raises(ValueError):
        mahou.config.NUMBA_NUM_THREADS = 0
    mahou.config.NUMBA_NUM_THREADS = mahou.config.NUMBA_NUM_THREADS  # the same value is fine


def test_thread_functions_in_compiled_code():
    import numpy as np
    from mahou import get_num_threads, get_thread_id, njit, prange

    @njit(parallel=True)
    def who(out):
        for i in prange(out.shape[0]):
            for _ in range(100):  # a body worth splitting
                out[i] = get_thread_id()
        return get_num_threads()

    @njit
    def count():
        return mahou.get_num_threads(), mahou.get_thread_id()

    for n in sorted({1, mahou.config.NUMBA_NUM_THREADS}):
        mahou.set_num_threads(n)
        out = np.full(5000, -1)
        assert who(out) == n
        assert out.min() >= 0 and out.max() < n
        assert count() == (n, 0)
