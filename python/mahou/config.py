"""mahou.config: Numba's switches (numba.config) read from the environment at import.

Each setting X comes from MAHOU_X, else NUMBA_X, else its default, and can be changed
at run time (`mahou.config.DISABLE_JIT = True`); decorators read it when they are applied.

    DISABLE_JIT       decorators return the Python function itself (debug with pdb)
    BOUNDSCHECK       unset: each function's boundscheck= option; 0/1: off/on for all
    CACHE_DIR         where cache=True keeps compiled code (MAHOU_CACHE_DIR for the compiler)
    NUMBA_NUM_THREADS the most threads a parallel loop may use: MAHOU_NUM_THREADS or
                      NUMBA_NUM_THREADS, else the CPUs this process may run on; it may be
                      changed before the first parallel loop runs, after that only to its
                      current value
    DUMP_IR, DEBUG_TYPEINFER, DUMP_ANNOTATION   print the typed IR of each new overload
    DUMP_LLVM, DUMP_FUNC_OPT, DUMP_OPTIMIZED    print its LLVM IR (after optimisation)
    DUMP_ASSEMBLY     print its host assembly
    ENABLE_CUDASIM    run @cuda.jit kernels on the CPU emulator (read by mahou.cuda)
"""

import os
import sys
import types as _pytypes

from . import _core


def _env(name, default=None):
    for prefix in ("MAHOU_", "NUMBA_"):
        value = os.environ.get(prefix + name)
        if value is not None and value != "":
            return value
    return default


def _flag(name, default=0):
    value = _env(name)
    if value is None:
        return default
    try:
        return int(value) != 0
    except ValueError:
        return value.strip().lower() in ("true", "yes", "on")


def _optional_flag(name):
    return None if _env(name) is None else _flag(name)


DISABLE_JIT = _flag("DISABLE_JIT")
BOUNDSCHECK = _optional_flag("BOUNDSCHECK")
CACHE_DIR = _env("CACHE_DIR", "")
NUMBA_DEFAULT_NUM_THREADS = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
    os.cpu_count() or 1)
NUMBA_NUM_THREADS = _core._max_threads()
ENABLE_CUDASIM = _flag("ENABLE_CUDASIM")
DUMP_IR = _flag("DUMP_IR")
DEBUG_TYPEINFER = _flag("DEBUG_TYPEINFER")
DUMP_ANNOTATION = _flag("DUMP_ANNOTATION")
DUMP_LLVM = _flag("DUMP_LLVM")
DUMP_FUNC_OPT = _flag("DUMP_FUNC_OPT")
DUMP_OPTIMIZED = _flag("DUMP_OPTIMIZED")
DUMP_ASSEMBLY = _flag("DUMP_ASSEMBLY")
DEBUG = _flag("DEBUG")
OPT = int(_env("OPT", 3)) if str(_env("OPT", 3)).isdigit() else 3
DEVELOPER_MODE = _flag("DEVELOPER_MODE")
FULL_TRACEBACKS = _flag("FULL_TRACEBACKS")
SHOW_HELP = _flag("SHOW_HELP")
THREADING_LAYER = "tbb"
DEBUGINFO_DEFAULT = _flag("DEBUGINFO")
CUDA_LOW_OCCUPANCY_WARNINGS = _flag("CUDA_LOW_OCCUPANCY_WARNINGS", 1)
CUDA_WARN_ON_IMPLICIT_COPY = _flag("CUDA_WARN_ON_IMPLICIT_COPY", 1)


def _apply_cache_dir(value):
    """The compiler reads MAHOU_CACHE_DIR when it stores or loads an entry."""
    if value:
        os.environ["MAHOU_CACHE_DIR"] = str(value)
    else:
        os.environ.pop("MAHOU_CACHE_DIR", None)


if CACHE_DIR:
    _apply_cache_dir(CACHE_DIR)


def dump_stages():
    """The stages to print after each new compilation (from the DUMP_*/DEBUG_* flags)."""
    stages = []
    if DUMP_IR or DEBUG_TYPEINFER or DUMP_ANNOTATION or DEBUG:
        stages.append("types")
    if DUMP_LLVM or DUMP_FUNC_OPT or DUMP_OPTIMIZED:
        stages.append("llvm")
    if DUMP_ASSEMBLY:
        stages.append("asm")
    return stages


class _ConfigModule(_pytypes.ModuleType):
    def __setattr__(self, name, value):
        if name == "CACHE_DIR":
            _apply_cache_dir(value)
        elif name == "NUMBA_NUM_THREADS":
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError("NUMBA_NUM_THREADS must be an integer")
            if not 1 <= value <= 2**31 - 1:  # the runtime's thread count is a C int
                raise ValueError(f"NUMBA_NUM_THREADS must be between 1 and {2**31 - 1}, not {value}")
            if not _core._set_max_threads(value):
                raise RuntimeError(
                    "Cannot set NUMBA_NUM_THREADS to a different value once the threads have been "
                    f"launched ({_core._max_threads()} threads)")
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _ConfigModule
