"""@jit / @njit: wrap a Python function in a Dispatcher (C++) that compiles one
overload per argument types; explicit signatures are compiled eagerly."""

import functools
import types as _pytypes

from . import _core
from . import types as _types
from .errors import UnsupportedError

_ERROR_MODELS = ("python", "numpy")


def _check_options(nopython, cache, boundscheck, fastmath, nogil, parallel, error_model,
                   inline, forceobj, unknown):
    if unknown:
        name = sorted(unknown)[0]
        raise TypeError(f"jit() got an unexpected keyword argument '{name}'")
    if forceobj:
        raise UnsupportedError("object mode (forceobj=True) is not supported by mahou")
    if error_model not in _ERROR_MODELS:
        raise ValueError(f"error_model must be one of {_ERROR_MODELS}, not {error_model!r}")
    return {
        "nopython": True,
        "cache": bool(cache),
        "boundscheck": bool(boundscheck),
        "fastmath": bool(fastmath),
        "nogil": bool(nogil),
        "parallel": bool(parallel),
        "error_model": error_model,
        "inline": inline,
    }


def _source_of(func):
    import inspect  # here, not at import time: keeps `import mahou` light
    try:
        source = inspect.getsource(func)  # not dedented: the lexer takes the base indent
    except (OSError, TypeError) as exc:
        raise UnsupportedError(
            f"cannot compile {getattr(func, '__qualname__', func)!r}: its source code is not "
            f"available ({exc})") from None
    filename = inspect.getsourcefile(func) or func.__code__.co_filename
    return source, filename, func.__code__.co_firstlineno


def build_dispatcher(func, source, filename, firstlineno, options):
    """The Dispatcher of `func` compiled from `source` (what @jit makes, and what
    unpickling a function pickled by value makes again)."""
    from ._resolver import make_resolver  # imports NumPy: at the first decoration, not at import
    disp = _core.Dispatcher(func, source, filename, firstlineno, func.__name__,
                            make_resolver(func), options)
    functools.update_wrapper(disp, func)
    disp._mahou_origin = (source, filename, firstlineno, options)  # for pickling (serialize.py)
    return disp


def _make_dispatcher(func, signatures, options):
    if isinstance(func, _core.Dispatcher):
        func = func.py_func
    if not isinstance(func, _pytypes.FunctionType):
        raise TypeError(f"jit() expects a Python function, not {type(func).__name__}")
    disp = build_dispatcher(func, *_source_of(func), options)
    if signatures:
        for sig in signatures:
            disp.compile(_types.signature_text(sig))
        disp.disable_compile()
    return disp


def _is_signature(obj):
    return isinstance(obj, (str, _types.Signature, tuple))


def apply_decorator(target, make, options, what):
    """The forms jit and cuda.jit share: @d / @d(options...) / @d(signature) /
    @d([signatures]). `make(func, signatures or None, options)` builds the object."""
    if target is None:
        signatures = None
    elif _is_signature(target):
        signatures = [target]
    elif isinstance(target, list):
        if not all(_is_signature(s) for s in target):
            raise TypeError(f"{what}() signatures must be strings, Signatures or tuples of types")
        signatures = target
    elif callable(target) and not isinstance(target, _types.Type):
        return make(target, None, options)
    else:
        raise TypeError(f"{what}() got an invalid signature or function: {target!r}")

    def decorate(func):
        return make(func, signatures, options)

    return decorate


def jit(signature_or_function=None, locals=None, nopython=True, cache=False, boundscheck=False,
        fastmath=False, nogil=False, parallel=False, error_model="python", inline="never",
        forceobj=False, debug=False, **unknown):
    """Compile a function for the CPU. Forms: @jit, @jit(), @jit(options...),
    @jit("float64(float64[:])"), @jit(["f8(f8)", "i8(i8)"]). `jit` is `njit`."""
    options = _check_options(nopython, cache, boundscheck, fastmath, nogil, parallel,
                             error_model, inline, forceobj, unknown)
    return apply_decorator(signature_or_function, _make_dispatcher, options, "jit")


njit = jit
