"""@jit / @njit: wrap a Python function in a Dispatcher (C++) that compiles one
overload per argument types; explicit signatures are compiled eagerly."""

import functools
import types as _pytypes

from . import _core
from . import types as _types
from ._parallel_diagnostics import parallel_diagnostics as _parallel_diagnostics
from .errors import UnsupportedError

_ERROR_MODELS = ("python", "numpy")
# fastmath={'nnan', ...}: LLVM's fast-math flags by Numba's names, bit i for name i
# (CompileOptions::fastmathFlags); 'fast' is all of them, as fastmath=True.
_FASTMATH_FLAGS = ("nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc")


def _fastmath_flags(fastmath):
    """(on, bits) of a fastmath option: a bool, or a set (or dict) of flag names."""
    if isinstance(fastmath, (bool, int)) or fastmath is None:
        return bool(fastmath), 0
    if not isinstance(fastmath, (set, frozenset, dict)):
        raise ValueError("Expected fastmath option(s) to be either a bool, dict or set, "
                         f"not {type(fastmath).__name__}")
    names = {n for n, v in fastmath.items() if v} if isinstance(fastmath, dict) else set(fastmath)
    unknown = names - set(_FASTMATH_FLAGS) - {"fast"}
    if unknown:
        raise ValueError(f"Unrecognized fastmath flags: {sorted(unknown)}")
    if "fast" in names:
        return True, 0
    return bool(names), sum(1 << i for i, n in enumerate(_FASTMATH_FLAGS) if n in names)


def _check_options(nopython, cache, boundscheck, fastmath, nogil, parallel, error_model,
                   inline, forceobj, unknown, what="jit", debug=False, forceinline=False):
    """The Dispatcher options of jit's keywords, each checked (docs/supported.md says what
    each does; `nopython` is accepted and changes nothing, by design; `inline='always'`
    is forceinline)."""
    if unknown:
        name = sorted(unknown)[0]
        raise TypeError(f"{what}() got an unexpected keyword argument '{name}'")
    if error_model not in _ERROR_MODELS:
        raise ValueError(f"error_model must be one of {_ERROR_MODELS}, not {error_model!r}")
    if not (inline in ("never", "always") or callable(inline)):
        raise ValueError(f"inline must be 'never', 'always' or a callable, not {inline!r}")
    if boundscheck is None:  # as Numba: debug=True turns bounds checks on unless they are set
        boundscheck = bool(debug)
    fastmath_on, fastmath_bits = _fastmath_flags(fastmath)
    return {
        "nopython": True,
        "cache": bool(cache),
        "boundscheck": bool(boundscheck),
        "fastmath": fastmath_on,
        "fastmath_flags": fastmath_bits,
        "nogil": bool(nogil),
        "parallel": bool(parallel),
        "error_model": error_model,
        "inline": inline,
        "forceinline": bool(forceinline) or inline == "always",  # Numba inlines its IR there
    }


def _source_of(func):
    from ._source import source_of  # here, not at import time: keeps `import mahou` light
    return source_of(func)


def build_dispatcher(func, source, filename, firstlineno, options):
    """The Dispatcher of `func` compiled from `source` (what @jit makes, and what
    unpickling a function pickled by value makes again)."""
    import weakref
    from ._resolver import make_resolver  # imports NumPy: at the first decoration, not at import
    resolver = make_resolver(func)
    disp = _core.Dispatcher(func, source, filename, firstlineno, func.__name__, resolver, options)
    resolver.dispatcher = weakref.ref(disp)  # its own name before the decorator binds it
    functools.update_wrapper(disp, func)
    disp._mahou_origin = (source, filename, firstlineno, options)  # for pickling (serialize.py)
    disp.parallel_diagnostics = functools.partial(_parallel_diagnostics, disp)
    from . import _inspection
    disp.inspect_cfg = functools.partial(_inspection.inspect_cfg, disp)
    disp.inspect_disasm_cfg = functools.partial(_inspection.inspect_disasm_cfg, disp)
    disp.get_metadata = functools.partial(_inspection.get_metadata, disp)
    from . import config
    if config.dump_stages():
        disp._on_compile = _dump_overload
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


def _dump_overload(disp, args):
    """config.DUMP_IR/DUMP_LLVM/DUMP_ASSEMBLY (and Numba's DEBUG_* names): print the
    stages of an overload just compiled."""
    from . import config
    sig = tuple(args)
    title = f"{disp.__name__}{sig}"
    for stage in config.dump_stages():
        print(f"---- {stage} of {title} ".ljust(78, "-"))
        if stage == "types":
            disp.inspect_types(signature=sig)
        elif stage == "llvm":
            print(disp.inspect_llvm(signature=sig))
        else:
            print(disp.inspect_asm(signature=sig))


class CompileResult:
    """One compiled overload, as Numba's Dispatcher.overloads values: its signature,
    the address of its native entry, its symbol and its compile times."""

    __slots__ = ("signature", "entry_point", "symbol", "stats")

    def __init__(self, return_type, args, entry_point, symbol, stats):
        self.signature = _types.Signature(return_type, args)
        self.entry_point = entry_point
        self.symbol = symbol
        self.stats = stats

    def __repr__(self):
        return f"CompileResult({self.signature})"


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


def _disabled(target):
    """config.DISABLE_JIT: the decorator gives back the Python function itself."""
    if target is None or _is_signature(target) or isinstance(target, list):
        return lambda func: getattr(func, "py_func", func)
    return getattr(target, "py_func", target)


def jit(signature_or_function=None, locals=None, nopython=True, cache=False, boundscheck=None,
        fastmath=False, nogil=False, parallel=False, error_model="python", inline="never",
        forceobj=False, debug=False, forceinline=False, looplift=True, **unknown):
    """Compile a function for the CPU. Forms: @jit, @jit(), @jit(options...),
    @jit("float64(float64[:])"), @jit(["f8(f8)", "i8(i8)"]). `jit` is `njit`.
    With mahou.config.DISABLE_JIT (MAHOU_DISABLE_JIT=1 / NUMBA_DISABLE_JIT=1) it returns
    the Python function unchanged. forceobj=True is object mode (mahou/_object_mode.py)."""
    from . import config
    if config.DISABLE_JIT:
        return _disabled(signature_or_function)
    if forceobj:
        if unknown:
            raise TypeError(f"jit() got an unexpected keyword argument '{sorted(unknown)[0]}'")
        from ._object_mode import ObjectModeDispatcher
        return apply_decorator(signature_or_function, ObjectModeDispatcher, {"looplift": bool(looplift)}, "jit")
    if config.BOUNDSCHECK is not None:
        boundscheck = config.BOUNDSCHECK
    options = _check_options(nopython, cache, boundscheck, fastmath, nogil, parallel,
                             error_model, inline, forceobj, unknown, debug=debug, forceinline=forceinline)
    if locals:
        options["locals"] = _local_types(locals)
    return apply_decorator(signature_or_function, _make_dispatcher, options, "jit")


def _local_types(declared):
    """locals={'x': float64, ...} → {'x': 'float64'}: each variable is given that type."""
    if not isinstance(declared, dict):
        raise TypeError(f"jit(locals=...) must be a dict of variable names to types, not {declared!r}")
    out = {}
    for name, typ in declared.items():
        if not isinstance(name, str):
            raise TypeError(f"jit(locals=...): variable names must be strings, not {name!r}")
        if isinstance(typ, str):
            out[name] = typ
        elif isinstance(typ, _types.Type):
            out[name] = str(typ)
        else:
            from ._resolver import _dtype_name
            dtype = _dtype_name(typ)
            if dtype is None:
                raise TypeError(f"jit(locals=...): {typ!r} for {name!r} is not a type")
            out[name] = dtype
    return out


njit = jit
