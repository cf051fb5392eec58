"""@guvectorize: NumPy generalised ufuncs whose loops call a compiled function once per
element of the outer (broadcast) dimensions, with array views of the core dimensions
a layout such as "(n),()->(n)" names. NumPy does the outer loop, broadcasting, output
allocation and casting; the compiled loop is NumPy's inner loop."""

import functools
import inspect
import re

from . import _core
from . import types as _types
from .errors import UnsupportedError
from .ufunc import UfuncAttributes, jit_options, parse_identity, raise_loop_error

_DTYPE_NAMES = frozenset(_core.dtype_names())
_DIM = r"\s*(?:[A-Za-z_]\w*|\d+)\s*"
_ARG = rf"\(\s*(?:{_DIM}(?:,{_DIM})*)?,?\s*\)"
_ARGS = rf"\s*(?:{_ARG}\s*(?:,\s*{_ARG}\s*)*)?"
_LAYOUT = re.compile(rf"^{_ARGS}(?:->{_ARGS})?$")


def parse_layout(layout):
    """'(m,n),(n)->(m)' → ([('m', 'n'), ('n',)], [('m',)]); ValueError when it does not parse."""
    if not isinstance(layout, str) or not _LAYOUT.match(layout):
        raise ValueError(f"invalid gufunc layout {layout!r}: expected e.g. '(n),()->(n)'")
    ins, _, outs = layout.partition("->")

    def args(text):
        return [tuple(d.strip() for d in group.split(",") if d.strip())
                for group in re.findall(r"\(([^)]*)\)", text)]

    return args(ins), args(outs)


def layout_text(inputs, outputs):
    """NumPy's spelling of a layout ('(n),(k)' when there are no outputs)."""
    def group(dims):
        return "(" + ",".join(dims) + ")"
    text = ",".join(group(d) for d in inputs)
    return text + "->" + ",".join(group(d) for d in outputs) if outputs else text


def core_dim_indices(args):
    """For each argument, the indices of its core dimension names, numbered in order
    of first appearance (NumPy's numbering of dims[1..])."""
    numbers = {}
    out = []
    for dims in args:
        out.append([numbers.setdefault(d, len(numbers)) for d in dims])
    return out


def _where(func):
    code = func.__code__
    return f"{code.co_filename}:{code.co_firstlineno}"


class GUFunc(UfuncAttributes):
    """A generalised ufunc of compiled loops (Numba's GUFunc): `.ufunc` is NumPy's."""

    _parallel = False  # target='parallel' (_parallel_ufunc.py): outer loop split over threads

    def __init__(self, py_func, layout, identity=None, cache=False, is_dynamic=False,
                 targetoptions=None, writable_args=()):
        if isinstance(py_func, _core.Dispatcher):
            py_func = py_func.py_func
        if not inspect.isfunction(py_func):
            raise TypeError(f"guvectorize() expects a Python function, not {type(py_func).__name__}")
        try:
            self._inputs, self._outputs = parse_layout(layout)
        except ValueError as exc:
            raise ValueError(f"{_where(py_func)}: in @guvectorize of '{py_func.__name__}': {exc}") from None
        self._py_func = py_func
        self.__name__ = py_func.__name__
        self._layout = layout
        self._args = self._inputs + self._outputs
        nparams = len(inspect.signature(py_func).parameters)
        if nparams != len(self._args):
            raise ValueError(f"{_where(py_func)}: the layout {layout!r} of @guvectorize has "
                             f"{len(self._args)} arguments but '{py_func.__name__}' takes {nparams}")
        self._identity = parse_identity(identity)
        self._options = jit_options("guvectorize", dict(targetoptions or {}, cache=cache))
        self._options["gufunc_core_dims"] = core_dim_indices(self._args)
        self._ncore = len({d for dims in self._args for d in dims})
        self._writable = self._writable_indices(writable_args)
        self.is_dynamic = bool(is_dynamic)
        self._frozen = False
        self._dispatcher = None
        self._loops = []  # (argument type texts, loop address)
        self._ufunc = None
        self._rebuild()
        functools.update_wrapper(self, py_func)

    def _writable_indices(self, writable_args):
        names = list(inspect.signature(self._py_func).parameters)
        out = []
        for w in writable_args:
            i = names.index(w) if isinstance(w, str) and w in names else w
            if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(self._inputs):
                raise ValueError("writable_args must be indices or names of input arguments, "
                                 f"not {w!r}")
            out.append(i)
        return out

    # ---- compilation

    def _get_dispatcher(self):
        if self._dispatcher is None:
            from .decorators import _make_dispatcher
            self._dispatcher = _make_dispatcher(self._py_func, None, self._options)
        return self._dispatcher

    def _rebuild(self):
        import numpy as np
        loops = [(addr, [np.dtype(_dtype_of(t)).num for t in argtypes]) for argtypes, addr in self._loops]
        keep = (self._dispatcher,) if self._dispatcher is not None else ()
        self._ufunc = _core.make_ufunc(self._py_func.__name__, self._py_func.__doc__ or "", loops,
                                       len(self._inputs), len(self._outputs), self._identity, keep,
                                       layout_text(self._inputs, self._outputs), self._writable,
                                       parallel_dims=self._ncore + 1 if self._parallel else 0)

    def _check_types(self, argtypes):
        where = f"{_where(self._py_func)}: @guvectorize of '{self._py_func.__name__}'"
        if len(argtypes) != len(self._args):
            raise TypeError(f"{where}: the signature has {len(argtypes)} arguments, the layout "
                            f"{self._layout!r} {len(self._args)}")
        out = []
        for i, (text, dims) in enumerate(zip(argtypes, self._args)):
            t = _core.parse_type(text)
            if t in _DTYPE_NAMES:
                if dims:
                    raise TypeError(f"{where}: scalar type {t} given for argument {i + 1}, whose "
                                    f"layout is ({','.join(dims)})")
                out.append(t)
                continue
            arr = _types_array(t)
            if arr is None:
                raise TypeError(f"{where}: argument {i + 1} of type {t} is neither an array nor a number")
            dtype, ndim = arr
            if ndim != len(dims) and not (ndim == 1 and not dims):
                raise TypeError(f"{where}: type and layout mismatch for argument {i + 1}: a {ndim}-d "
                                f"array for ({','.join(dims)})")
            out.append(f"array({dtype}, {ndim}d, A)")  # NumPy passes any strides
        return out

    def add(self, sig):
        """Compiles the loop of a signature: '(f8[:], f8, f8[:])', 'void(int64[:], int64[:])'
        or a tuple of types."""
        ret, args = _core.parse_signature(_types.signature_text(sig))
        if ret not in (None, "none"):
            raise TypeError(f"a @guvectorize signature returns nothing (void), not {ret}")
        argtypes = self._check_types(args)
        for have, _ in self._loops:
            if have == argtypes:
                return argtypes
        addr = _core.native_entries(self._get_dispatcher(), argtypes)[1]
        self._loops.append((argtypes, addr))
        self._rebuild()
        return argtypes

    def disable_compile(self):
        self._frozen = True

    def build_ufunc(self):
        return self

    def _signature_for(self, args):
        """A dynamic gufunc's signature from the arguments, outputs included (Numba's rule:
        arrays keep their dtype with the layout's dimension count)."""
        import numpy as np
        texts = []
        for arg, dims in zip(args, self._args):
            dt = arg.dtype if isinstance(arg, np.ndarray) else np.asarray(arg).dtype
            if dt.name not in _DTYPE_NAMES or not dt.isnative:
                raise TypeError(f"cannot compile '{self.__name__}' for an argument of dtype {dt}")
            texts.append(f"{dt.name}[{', '.join(':' * len(dims))}]" if dims else dt.name)
        if self._outputs and not self._outputs[-1]:
            texts[-1] = texts[-1] + "[:]"  # a scalar output is written through a 1-element array
        return "(" + ", ".join(texts) + ")"

    def __call__(self, *args, **kws):
        if self.is_dynamic and not self._frozen:
            full = args + ((kws["out"],) if "out" in kws else ())
            if len(full) != len(self._args):
                raise TypeError(
                    f"Too few arguments for function '{self.__name__}'. Note that the pattern "
                    "`out = gufunc(Arg1, Arg2, ..., ArgN)` is not allowed. Use "
                    "`gufunc(Arg1, Arg2, ..., ArgN, out)` instead.")
            argtypes = self.add(self._signature_for(full))
            if "signature" not in kws and "sig" not in kws and "dtype" not in kws:
                # The loop just compiled for these dtypes, not an earlier one NumPy could cast to.
                kws["signature"] = tuple(_dtype_of(t) for t in argtypes)
        try:
            return self._ufunc(*args, **kws)
        except SystemError as exc:
            raise_loop_error(exc)

    def __repr__(self):
        return f"<mahou GUFunc '{self.__name__}'>"


def _types_array(text):
    m = re.match(r"^array\((\w+), (\d+)d, [CFA](?:, readonly)?\)$", text)
    return (m.group(1), int(m.group(2))) if m else None


def _dtype_of(text):
    arr = _types_array(text)
    return arr[0] if arr else text


def guvectorize(*args, **kwargs):
    """guvectorize([signatures,] layout, target='cpu', identity=None, cache=False,
    writable_args=(), is_dynamic=..., **jit options): a NumPy generalised ufunc. With
    the layout alone it is dynamic: each call passes its outputs and compiles a loop
    for new argument dtypes."""
    if len(args) == 1:
        ftylist, layout = [], args[0]
        kwargs.setdefault("is_dynamic", True)
    elif len(args) == 2:
        ftylist, layout = args
    else:
        raise TypeError("guvectorize() takes one or two positional arguments")
    if isinstance(ftylist, str):
        ftylist = [ftylist]
    target = kwargs.pop("target", "cpu")
    identity = kwargs.pop("identity", None)
    cache = kwargs.pop("cache", False)
    writable_args = kwargs.pop("writable_args", ())
    is_dynamic = kwargs.pop("is_dynamic", False)

    def wrap(func):
        if target == "cpu":
            gufunc = GUFunc(func, layout, identity=identity, cache=cache, is_dynamic=is_dynamic,
                            targetoptions=kwargs, writable_args=writable_args)
        elif target == "parallel":
            from ._parallel_ufunc import ParallelGUFunc
            gufunc = ParallelGUFunc(func, layout, identity=identity, cache=cache,
                                    is_dynamic=is_dynamic, targetoptions=kwargs,
                                    writable_args=writable_args)
        elif target == "cuda":
            from .cuda._vectorize import CUDAGUFunc
            for name, given in (("cache", cache), ("identity", identity is not None),
                                ("writable_args", bool(writable_args)), ("is_dynamic", is_dynamic)):
                if given:
                    raise UnsupportedError(f"guvectorize(target='cuda') does not support {name}= in mahou")
            gufunc = CUDAGUFunc(func, layout, targetoptions=kwargs)
        else:
            raise ValueError(f"Unsupported target: {target}")
        for sig in ftylist:
            gufunc.add(sig)
        if ftylist:
            gufunc.disable_compile()
        return gufunc.build_ufunc()

    return wrap
