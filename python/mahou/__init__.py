"""mahou: a JIT compiler for Python functions over NumPy arrays, with Numba's API.

    from mahou import njit        # or: import mahou as numba
"""

__version__ = "0.1.0"

from . import _core  # noqa: F401  (the C++ compiler, runtime and Dispatcher)
from . import errors, typed, types
from . import _stand_ins
_core.jitclass_stand_in_finder(_stand_ins.find)
from ._prange import prange
from ._language import literal_unroll, literally
from ._objmode import objmode
from ._threads import get_num_threads, get_thread_id, set_num_threads, threading_layer
from . import config
from .decorators import jit, njit
from ._jitclass import deferred_type, jitclass, optional
from . import experimental  # noqa: F401  (experimental.jitclass, as Numba)
from .types import typeof
from .types import (  # noqa: F401  Numba exports its type names at the top level
    b1, boolean, bool_, byte, c8, c16, complex64, complex128, double, f2, f4, f8, float16, float32,
    float64, float_, i1, i2, i4, i8, int8, int16, int32, int64, int_, intc, intp, none,
    u1, u2, u4, u8, uint8, uint16, uint32, uint64, uintc, uintp, void,
)



def _reduce_compiled(obj):
    """Pickling of dispatchers and kernels (mahou.serialize, imported on first use)."""
    from . import serialize
    return serialize.registered()[type(obj)](obj)


def _register_pickling():
    import copyreg

    for cls in (_core.Dispatcher, _core.CUDAKernel):
        copyreg.pickle(cls, _reduce_compiled)


_register_pickling()


def _preload_backend():
    """LLVM lives in mahou._backend (imported by the first compile): start loading its
    library now, on another thread without the GIL, so that `import mahou` stays cheap
    and the first compile rarely waits. MAHOU_PRELOAD_BACKEND=0 turns this off."""
    import os

    if os.environ.get("MAHOU_PRELOAD_BACKEND", "1") == "0":
        return
    core = os.path.realpath(_core.__file__)
    name = os.path.basename(core)
    backend = os.path.join(os.path.dirname(core), "_backend" + name[len("_core"):])
    if os.path.exists(backend):
        import atexit

        # The loading thread must end before the process exits (libLLVM's static
        # constructors register exit handlers) or forks (the child would inherit the
        # loader's lock held).
        atexit.register(_core._wait_backend_preload)
        os.register_at_fork(before=_core._wait_backend_preload)
        _core._preload_backend(backend)


_preload_backend()


# Imported on first use, so that `import mahou` stays light (these import NumPy).
_LAZY = {
    "vectorize": ".ufunc", "DUFunc": ".ufunc",
    "guvectorize": ".gufunc", "GUFunc": ".gufunc",
    "stencil": "._stencil", "cfunc": "._cfunc", "carray": "._cfunc", "farray": "._cfunc",
}


def __getattr__(name):
    """`mahou.cuda` is imported on first use (as `from mahou import cuda` does)."""
    if name == "cuda":
        import importlib
        _core._import_numpy()  # the CUDA bindings use NumPy's C API
        return importlib.import_module(".cuda", __name__)
    if name in _LAZY:
        import importlib
        return getattr(importlib.import_module(_LAZY[name], __name__), name)
    if name in ("extending", "core"):
        import importlib
        return importlib.import_module("." + name, __name__)
    raise AttributeError(f"module 'mahou' has no attribute {name!r}")


__all__ = ["jit", "njit", "vectorize", "prange", "types", "errors", "typeof", "__version__", "config",
           "set_num_threads", "get_num_threads", "get_thread_id", "threading_layer", "jitclass",
           "deferred_type", "optional", "objmode"]
