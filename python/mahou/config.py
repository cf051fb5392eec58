"""Runtime settings (Numba's numba.config names that mahou honours).

NUMBA_NUM_THREADS is the most threads a parallel loop may use: MAHOU_NUM_THREADS or
NUMBA_NUM_THREADS from the environment, else the CPUs this process may run on. It may be
changed before the first parallel loop runs; after that only to its current value.
"""

import os as _os
import sys as _sys
import types as _pytypes

from . import _core

THREADING_LAYER = "tbb"
NUMBA_DEFAULT_NUM_THREADS = len(_os.sched_getaffinity(0)) if hasattr(_os, "sched_getaffinity") else (
    _os.cpu_count() or 1)
NUMBA_NUM_THREADS = _core._max_threads()


class _Config(_pytypes.ModuleType):
    def __setattr__(self, name, value):
        if name == "NUMBA_NUM_THREADS":
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError("NUMBA_NUM_THREADS must be an integer")
            if value < 1:
                raise ValueError("NUMBA_NUM_THREADS must be at least 1")
            if not _core._set_max_threads(value):
                raise RuntimeError(
                    "Cannot set NUMBA_NUM_THREADS to a different value once the threads have been "
                    f"launched ({_core._max_threads()} threads)")
        super().__setattr__(name, value)


_sys.modules[__name__].__class__ = _Config
