"""@vectorize: NumPy ufuncs whose inner loops are compiled functions.

A DUFunc (Numba's dynamic ufunc) wraps a real NumPy ufunc (`.ufunc`, made with
PyUFunc_FromFuncAndData) with one compiled loop per input dtypes, so broadcasting,
`out=`, `where=`, `dtype=`, casting, `reduce`/`accumulate`/`outer`/`at` are NumPy's own.
With signatures it is frozen: a call whose dtypes match no loop by NumPy's casting
rules raises NumPy's TypeError. Without, it compiles a loop for each new combination
of input dtypes on first use, as Numba does.
"""

import functools
import inspect

from . import _core
from . import types as _types
from .errors import UnsupportedError

# NumPy's identity codes (PyUFunc_Zero, One, None, ReorderableNone).
_IDENTITIES = {0: 0, 1: 1, None: -1, "reorderable": -2}
_DTYPE_NAMES = frozenset(_core.dtype_names())


def parse_identity(identity):
    if isinstance(identity, bool) or identity not in _IDENTITIES:
        raise ValueError(f"Invalid identity value {identity!r}: expected 0, 1, None or 'reorderable'")
    return _IDENTITIES[identity]


def jit_options(kind, options):
    """The Dispatcher options of a ufunc's scalar function from the decorator's keywords
    (Numba's target options: nopython, fastmath, boundscheck, nogil, cache, ...)."""
    from .decorators import _check_options
    options = dict(options)
    options.pop("nopython", None)
    if options.pop("forceobj", False):
        raise UnsupportedError(f"object mode (forceobj=True) is not supported by mahou's {kind}")
    debug = options.pop("debug", False)
    opts = _check_options(True, options.pop("cache", False), options.pop("boundscheck", None),
                          options.pop("fastmath", False), options.pop("nogil", False), False,
                          options.pop("error_model", "numpy"), options.pop("inline", "never"), False,
                          options, what=kind, debug=debug)
    return opts


def parse_scalar_signature(sig, what):
    """A @vectorize signature → (return dtype name or None, [argument dtype names])."""
    ret, args = _core.parse_signature(_types.signature_text(sig))
    for t in list(args) + ([ret] if ret is not None else []):
        if t not in _DTYPE_NAMES:
            raise TypeError(f"{what} signature {sig!r}: {t} is not a scalar type "
                            "(@vectorize functions take and return numbers)")
    return ret, list(args)


def dtype_of_argument(arg):
    """The dtype a ufunc call gives an argument: an array's own, a scalar's NumPy dtype
    (Python int → int64, float → float64, as Numba's DUFunc)."""
    import numpy as np
    dt = arg.dtype if isinstance(arg, np.ndarray) else np.asarray(arg).dtype
    if dt.name not in _DTYPE_NAMES or not dt.isnative:
        raise TypeError(f"cannot compile a ufunc loop for an argument of dtype {dt}")
    return dt.name


def raise_loop_error(exc):
    """A compiled loop that failed leaves its exception pending while NumPy returns; Python
    then raises SystemError from it. Re-raise the function's own exception."""
    cause = exc.__cause__
    if isinstance(exc, SystemError) and cause is not None and "exception set" in str(exc):
        raise cause.with_traceback(None) from None
    raise exc


class UfuncAttributes:
    """The attributes of the NumPy ufunc a DUFunc or GUFunc wraps (self._ufunc), and the
    Python function it was made from (self._py_func)."""

    @property
    def ufunc(self):
        return self._ufunc

    @property
    def py_func(self):
        return self._py_func

    nin = property(lambda self: self._ufunc.nin)
    nout = property(lambda self: self._ufunc.nout)
    nargs = property(lambda self: self._ufunc.nargs)
    ntypes = property(lambda self: self._ufunc.ntypes)
    types = property(lambda self: self._ufunc.types)
    identity = property(lambda self: self._ufunc.identity)
    signature = property(lambda self: self._ufunc.signature)


class DUFunc(UfuncAttributes):
    """A ufunc of compiled loops (Numba's DUFunc): `.ufunc` is the NumPy ufunc."""

    _parallel = False  # target='parallel' (_parallel_ufunc.py): loops split over threads

    def __init__(self, py_func, identity=None, cache=False, targetoptions=None):
        if isinstance(py_func, _core.Dispatcher):
            py_func = py_func.py_func
        if not inspect.isfunction(py_func):
            raise TypeError(f"vectorize() expects a Python function, not {type(py_func).__name__}")
        params = inspect.signature(py_func).parameters.values()
        if any(p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params):
            raise TypeError(f"a @vectorize function takes positional parameters only: {py_func.__name__}")
        self._py_func = py_func
        self._nin = len(params)
        self._identity = parse_identity(identity)
        self._options = jit_options("vectorize", dict(targetoptions or {}, cache=cache))
        self._dispatchers = {}   # output dtype name ("auto": the function's result dtype) → Dispatcher
        self._loops = []         # (input dtype names, output dtype name, loop address)
        self._frozen = False
        self._ufunc = None
        self._rebuild()
        functools.update_wrapper(self, py_func)

    # ---- compilation

    def _dispatcher_for(self, out):
        disp = self._dispatchers.get(out)
        if disp is None:
            from .decorators import _make_dispatcher
            disp = _make_dispatcher(self._py_func, None, dict(self._options, ufunc_out=out))
            self._dispatchers[out] = disp
        return disp

    @property
    def _dispatcher(self):
        return self._dispatcher_for("auto")

    def _rebuild(self):
        import numpy as np
        loops = [(addr, [np.dtype(t).num for t in ins] + [np.dtype(out).num])
                 for ins, out, addr in self._loops]
        self._ufunc = _core.make_ufunc(self._py_func.__name__, self._py_func.__doc__ or "", loops,
                                       self._nin, 1, self._identity,
                                       tuple(self._dispatchers.values()), None,
                                       parallel_dims=1 if self._parallel else 0)

    def _compile_loop(self, ins, out=None):
        """Compiles (or finds) the loop for input dtype names `ins`; returns its output dtype."""
        for have_ins, have_out, _ in self._loops:
            if have_ins == ins and (out is None or out == have_out):
                return have_out
        if len(ins) != self._nin:
            raise TypeError(f"{self.__name__}() takes {self._nin} arguments but {len(ins)} were given")
        disp = self._dispatcher_for(out or "auto")
        addr, _, _, ret, _ = _core.native_entries(disp, ins)
        self._loops.append((tuple(ins), out or ret, addr))
        self._rebuild()
        return out or ret

    def add(self, sig):
        """Compiles the loop of a signature ('float64(float64, float64)' or types)."""
        ret, args = parse_scalar_signature(sig, "vectorize")
        self._compile_loop(tuple(args), ret)

    def disable_compile(self):
        """No new loops at call time: calls must match a compiled loop."""
        self._frozen = True

    def build_ufunc(self):
        return self

    def _compile_for_args(self, *args, **kws):
        """Compiles the loop for the dtypes of a call's inputs (Numba's rule)."""
        if len(args) < self._nin:
            raise TypeError(f"{self.__name__}() takes {self._nin} input arguments but {len(args)} were given")
        self._compile_loop(tuple(dtype_of_argument(a) for a in args[:self._nin]))

    def _call_method(self, method, args, kws, compile_args):
        try:
            return getattr(self._ufunc, method)(*args, **kws)
        except TypeError:
            if self._frozen:
                raise
        except SystemError as exc:
            raise_loop_error(exc)
        compile_args()
        try:
            return getattr(self._ufunc, method)(*args, **kws)
        except SystemError as exc:
            raise_loop_error(exc)

    def __call__(self, *args, **kws):
        if self._loops:
            try:
                return self._ufunc(*args, **kws)
            except TypeError:
                if self._frozen:
                    raise
            except SystemError as exc:
                raise_loop_error(exc)
        elif self._frozen:
            raise TypeError(f"ufunc '{self.__name__}' has no loops")
        self._compile_for_args(*args, **kws)
        try:
            return self._ufunc(*args, **kws)
        except SystemError as exc:
            raise_loop_error(exc)

    def _compile_binary(self, array):
        dt = dtype_of_argument(array)
        self._compile_loop((dt,) * self._nin)

    def reduce(self, array, *args, **kws):
        return self._call_method("reduce", (array,) + args, kws, lambda: self._compile_binary(array))

    def accumulate(self, array, *args, **kws):
        return self._call_method("accumulate", (array,) + args, kws, lambda: self._compile_binary(array))

    def reduceat(self, array, *args, **kws):
        return self._call_method("reduceat", (array,) + args, kws, lambda: self._compile_binary(array))

    def outer(self, *args, **kws):
        return self._call_method("outer", args, kws, lambda: self._compile_for_args(*args))

    def at(self, a, indices, *args, **kws):
        def compile_args():
            ins = (dtype_of_argument(a),) + tuple(dtype_of_argument(b) for b in args[:1])
            self._compile_loop(ins)
        return self._call_method("at", (a, indices) + args, kws, compile_args)

    def _mahou_ufunc_info(self):
        """For compiled code that calls this ufunc: (scalar Dispatcher, nin, loops as
        [input dtype names..., output dtype name], whether new loops may be compiled)."""
        return (self._dispatcher, self._nin, [list(ins) + [out] for ins, out, _ in self._loops],
                not self._frozen)

    # ---- the ufunc's attributes (the NumPy ones from UfuncAttributes)

    @property
    def targetoptions(self):
        return dict(self._options)

    def __repr__(self):
        return f"<mahou DUFunc '{self.__name__}'>"


def vectorize(ftylist_or_function=(), **kws):
    """vectorize(signatures=(), target='cpu', identity=None, cache=False, **jit options):
    a NumPy ufunc of compiled loops. @vectorize alone (or with options only) compiles
    a loop per new input dtypes at call time; with signatures the loops are fixed."""
    if isinstance(ftylist_or_function, str):
        ftylist = [ftylist_or_function]
    elif inspect.isfunction(ftylist_or_function) or isinstance(ftylist_or_function, _core.Dispatcher):
        return vectorize(**kws)(ftylist_or_function)
    elif ftylist_or_function is None:
        ftylist = []
    else:
        ftylist = list(ftylist_or_function)

    target = kws.pop("target", "cpu")
    identity = kws.pop("identity", None)
    cache = kws.pop("cache", False)

    def wrap(func):
        if target == "cpu":
            ufunc = DUFunc(func, identity=identity, cache=cache, targetoptions=kws)
        elif target == "parallel":
            from ._parallel_ufunc import ParallelUFunc
            ufunc = ParallelUFunc(func, identity=identity, cache=cache, targetoptions=kws)
        elif target == "cuda":
            from .cuda._vectorize import CUDAUFunc
            if cache:
                raise UnsupportedError("vectorize(target='cuda', cache=True) is not supported by mahou: "
                                       "CUDA ufuncs are compiled again in each process")
            ufunc = CUDAUFunc(func, identity=identity, targetoptions=kws)
        else:
            raise ValueError(f"Unsupported target: {target}")
        for sig in ftylist:
            ufunc.add(sig)
        if ftylist:
            ufunc.disable_compile()
        return ufunc.build_ufunc()

    return wrap
