"""Thread control for parallel=True (Numba's names): the thread count of the calling
thread, its index inside a parallel loop, and the threading layer (oneTBB)."""

import operator as _operator

from . import _core


def set_num_threads(n):
    """Sets the number of threads parallel loops started from this thread use:
    1 <= n <= config.NUMBA_NUM_THREADS (ValueError otherwise)."""
    try:
        n = _operator.index(n)
    except TypeError:
        raise TypeError("The number of threads specified must be an integer") from None
    # Checked here: a value past the binding's C integer would be its TypeError.
    if not 1 <= n <= _core._max_threads() or not _core._set_num_threads(n):
        raise ValueError(
            f"The number of threads must be between 1 and {_core._max_threads()} (NUMBA_NUM_THREADS), not {n}")


def get_num_threads():
    """The number of threads parallel loops started from this thread use."""
    return _core._get_num_threads()


def get_thread_id():
    """The index of the calling thread in the parallel loop it runs (0 outside loops)."""
    return _core._get_thread_id()


def threading_layer():
    """The threading layer parallel loops run on: always 'tbb' (oneTBB)."""
    return "tbb"

