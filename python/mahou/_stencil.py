"""@stencil: a kernel written with relative indexing (a[0, 1] + a[-1, 0]) applied at every
point of its input arrays where the whole neighbourhood lies inside them; the other
points of the result get `cval`. Numba's semantics, made by rewriting the kernel's
source: for the argument types of a call, the kernel becomes a compiled function of the
point's indices, and a driver that loops over the interior calls it. Both are ordinary
@njit dispatchers, so a stencil is callable from Python and from compiled code; called
from a parallel=True function, the driver's outer loop is a prange (as Numba turns the
stencil into a parfor there)."""

import ast
import inspect
import itertools
import linecache
import re
import textwrap

from . import _core
from ._prange import prange
from .errors import TypingError, UnsupportedError

_ARRAY = re.compile(r"^array\((\w+), (\d+)d, [CFA](?:, readonly)?\)$")
_counter = itertools.count()


def _array_type(text):
    m = _ARRAY.match(text)
    return (m.group(1), int(m.group(2))) if m else None


def _constant(node):
    """The integer value of a constant index expression, or None."""
    try:
        value = ast.literal_eval(node)
    except ValueError:
        return None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


class _Relative(ast.NodeTransformer):
    """Rewrites a[i, j] of the relatively indexed arrays into a[__i0 + i, __i1 + j] and
    records the range of the constant offsets per dimension."""

    def __init__(self, arrays, ndim, where):
        self.arrays, self.ndim, self.where = arrays, ndim, where
        self.lo = [0] * ndim
        self.hi = [0] * ndim
        self.variable = False  # an offset that is not a constant

    def visit_Subscript(self, node):
        self.generic_visit(node)
        if not (isinstance(node.value, ast.Name) and node.value.id in self.arrays):
            return node
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if len(parts) != self.ndim:
            raise TypingError(f"{self.where}: the stencil indexes '{node.value.id}' with {len(parts)} "
                              f"indices but it is a {self.ndim}-d array")
        shifted = []
        for d, part in enumerate(parts):
            if isinstance(part, ast.Slice):
                raise UnsupportedError(f"{self.where}: slices in relative stencil indices are not supported")
            c = _constant(part)
            if c is None:
                self.variable = True
            else:
                self.lo[d] = min(self.lo[d], c)
                self.hi[d] = max(self.hi[d], c)
            shifted.append(ast.BinOp(ast.Name(f"__i{d}", ast.Load()), ast.Add(), part))
        index = ast.Tuple(shifted, ast.Load()) if self.ndim > 1 else shifted[0]
        return ast.copy_location(ast.Subscript(node.value, index, node.ctx), node)


class Stencil:
    """A @stencil kernel: call it with arrays (and other arguments) to get the result."""

    def __init__(self, kernel, neighborhood=None, func_or_mode="constant", cval=0,
                 standard_indexing=()):
        if func_or_mode != "constant":
            raise ValueError(f"stencil mode {func_or_mode!r} is not supported (only 'constant', as Numba)")
        if not inspect.isfunction(kernel):
            raise TypeError(f"stencil() expects a Python function, not {type(kernel).__name__}")
        self.kernel = kernel
        self.__name__ = kernel.__name__
        self.__doc__ = kernel.__doc__
        self.__wrapped__ = kernel
        self.neighborhood = None if neighborhood is None else tuple(tuple(int(v) for v in r) for r in neighborhood)
        self.cval = cval
        self.standard_indexing = tuple(standard_indexing)
        code = kernel.__code__
        self._where = f"{code.co_filename}:{code.co_firstlineno}"
        self._params = list(inspect.signature(kernel).parameters)
        for name in self.standard_indexing:
            if name not in self._params:
                raise ValueError(f"standard_indexing names '{name}', which is not a parameter of '{self.__name__}'")
        from ._source import source_of
        source = textwrap.dedent(source_of(kernel)[0])  # found by its code's position
        tree = ast.parse(source)
        defs = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
        lambdas = [n.value for n in tree.body if isinstance(n, ast.Expr) and isinstance(n.value, ast.Lambda)]
        if lambdas:  # stencil(lambda a: ...): the same kernel as a def
            defs = [ast.FunctionDef(name="stencil_kernel", args=lambdas[0].args,
                                    body=[ast.Return(lambdas[0].body)], decorator_list=[], returns=None,
                                    type_comment=None, lineno=1, col_offset=0)]
            ast.fix_missing_locations(defs[0])
        if not defs:
            raise UnsupportedError(f"{self._where}: cannot find the stencil kernel's def")
        self._def = defs[0]
        self._def.decorator_list = []
        # Annotations are not needed and may name what only a type checker imports
        # (PEP 563 strings: NDArray under `if TYPE_CHECKING`): the kernel is made without.
        for a in self._def.args.posonlyargs + self._def.args.args + self._def.args.kwonlyargs:
            a.annotation = None
        self._def.returns = None
        self._signature = inspect.signature(kernel)
        self._drivers = {}  # (argument type texts, out= given, parallel) → driver Dispatcher

    # ---- specialisation

    def _specialize(self, arg_texts, with_out, parallel=False):
        key = (tuple(arg_texts), with_out, parallel)
        driver = self._drivers.get(key)
        if driver is None:
            driver = self._drivers[key] = self._build(list(arg_texts), with_out, parallel)
        return driver

    def _build(self, arg_texts, with_out, parallel):
        from .decorators import _make_dispatcher, _check_options

        if len(arg_texts) != len(self._params):
            raise TypeError(f"{self.__name__}() takes {len(self._params)} arguments but {len(arg_texts)} were given")
        arrays = [p for p, t in zip(self._params, arg_texts)
                  if _array_type(t) and p not in self.standard_indexing]
        if not arrays:
            raise TypingError(f"{self._where}: a stencil needs at least one array argument")
        dtype0, ndim = _array_type(arg_texts[self._params.index(arrays[0])])
        for p in arrays:
            if _array_type(arg_texts[self._params.index(p)])[1] != ndim:
                raise TypingError(f"{self._where}: the stencil's arrays must all have {ndim} dimensions")

        rel = _Relative(set(arrays), ndim, self._where)
        kdef = rel.visit(ast.parse(ast.unparse(self._def)).body[0])
        if self.neighborhood is not None:
            if len(self.neighborhood) != ndim:
                raise ValueError(f"{self._where}: neighborhood has {len(self.neighborhood)} ranges for "
                                 f"{ndim}-d arrays")
            lo = [r[0] for r in self.neighborhood]
            hi = [r[1] for r in self.neighborhood]
        elif rel.variable:
            raise TypingError(f"{self._where}: a stencil index that is not a constant needs neighborhood=")
        else:
            lo, hi = rel.lo, rel.hi

        n = next(_counter)
        kname, dname = f"__mahou_stencil_kernel_{n}", f"__mahou_stencil_{n}"
        kdef.name = kname
        kdef.args.args = [ast.arg(f"__i{d}") for d in range(ndim)] + kdef.args.args
        kernel_src = ast.unparse(ast.fix_missing_locations(kdef))

        namespace = dict(self.kernel.__globals__)
        if self.kernel.__closure__:
            for name, cell in zip(self.kernel.__code__.co_freevars, self.kernel.__closure__):
                namespace[name] = cell.cell_contents
        kernel_fn = _define(kernel_src, kname, namespace, f"<mahou stencil kernel {self.__name__} {n}>")
        options = _check_options(True, False, False, False, False, False, "python", "never", False, {})
        kernel_disp = _make_dispatcher(kernel_fn, None, options)
        ret = _core.native_entries(kernel_disp, ["int64"] * ndim + arg_texts)[3]
        if ret not in _core.dtype_names():
            raise TypingError(f"{self._where}: the stencil kernel must return a number, not {ret}")

        import numpy as np
        params = ", ".join(self._params)
        first = arrays[0]
        idx = ", ".join(f"__i{d}" for d in range(ndim))
        lines = [f"def {dname}({params}, __out):"]  # __out: an array, or None (made here)
        def differs(x):
            return " or ".join(f"{x}.shape[{d}] != {first}.shape[{d}]" for d in range(ndim))

        for p in arrays[1:]:
            lines.append(f"    if {differs(p)}:")
            lines.append("        raise ValueError('all array arguments of a stencil must have the same shape')")
        if with_out:
            lines.append(f"    if {differs('__out')}:")
            lines.append("        raise ValueError('the output of a stencil must have the shape of its inputs')")
        else:
            lines.append(f"    __out = np.full({first}.shape, __cval, dtype=__dtype)")
        indent = "    "
        for d in range(ndim):
            loop = "prange" if parallel and d == 0 else "range"  # the outer loop on threads
            lines.append(f"{indent}for __i{d} in {loop}({-lo[d]}, {first}.shape[{d}] - {hi[d]}):")
            indent += "    "
        lines.append(f"{indent}__out[{idx}] = {kname}({idx}, {params})")
        lines.append("    return __out")
        driver_ns = {"np": np, "prange": prange, kname: kernel_disp, "__cval": self.cval,
                     "__dtype": getattr(np, ret)}
        driver_fn = _define("\n".join(lines) + "\n", dname, driver_ns,
                            f"<mahou stencil {self.__name__} {n}>")
        return _make_dispatcher(driver_fn, None, dict(options, parallel=parallel))

    # ---- calls

    def _mahou_params(self):
        """For compiled code: the parameters a call binds (the kernel's, then out=None),
        and their defaults."""
        defaults = {name: p.default for name, p in self._signature.parameters.items()
                    if p.default is not inspect.Parameter.empty}
        defaults["out"] = None
        return self._params + ["out"], defaults

    def _mahou_specialize(self, argtypes, parallel=False):
        """For compiled code: the driver Dispatcher for these mahou argument types (the
        kernel's arguments, then out's: none or an array; parallel: the caller has
        parallel=True)."""
        texts = [str(t) for t in argtypes]
        return self._specialize(texts[:-1], texts[-1] != "none", bool(parallel))

    def __call__(self, *args, out=None, neighborhood=None, **kwargs):
        if neighborhood is not None:
            return Stencil(self.kernel, neighborhood, "constant", self.cval, self.standard_indexing)(
                *args, out=out, **kwargs)
        if kwargs or len(args) != len(self._params):  # the kernel's parameters by name, defaults
            bound = self._signature.bind(*args, **kwargs)
            bound.apply_defaults()
            args = bound.args
        texts = [str(_core.typeof(a)) for a in args]
        return self._specialize(texts, out is not None)(*args, out)

    def __repr__(self):
        return f"<mahou stencil '{self.__name__}'>"


def _define(source, name, namespace, filename):
    """Defines function `name` from generated source, registered with linecache so that
    the compiler can read it back."""
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(compile(source, filename, "exec"), namespace)
    return namespace[name]


def stencil(func_or_mode="constant", **options):
    """@stencil, @stencil(neighborhood=((-1, 1), (-1, 1)), cval=0.0, standard_indexing=('b',))."""
    if not isinstance(func_or_mode, str):
        return Stencil(func_or_mode, **options)
    known = {"neighborhood", "cval", "standard_indexing"}
    unknown = set(options) - known
    if unknown:
        raise TypeError(f"stencil() got an unexpected keyword argument '{sorted(unknown)[0]}'")

    def wrap(func):
        return Stencil(func, func_or_mode=func_or_mode, **options)

    return wrap
