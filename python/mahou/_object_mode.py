"""@jit(forceobj=True): object mode. Numba compiles such a function into calls of the
Python C API on Python objects, which does what the interpreter does; mahou has no
object-mode compiler, so the function runs in the interpreter itself (same results, same
exceptions). Loops are not lifted into compiled code (Numba's looplift)."""

import functools


class ObjectModeDispatcher:
    """What @jit(forceobj=True) returns: calls run the Python function; `signatures`
    records the argument types seen (pyobject for what compiled code cannot type), as
    Numba's object-mode dispatcher lists its compiled signatures."""

    def __init__(self, py_func, signatures, options):
        self.py_func = py_func
        self.targetoptions = {"forceobj": True, **{k: v for k, v in options.items() if k == "looplift"}}
        self._signatures = []
        functools.update_wrapper(self, py_func)
        for sig in signatures or ():
            self._signatures.append(_signature_args(sig))

    def __call__(self, *args, **kwargs):
        key = tuple(_type_of(a) for a in args) + tuple(_type_of(v) for v in kwargs.values())
        if key not in self._signatures:
            self._signatures.append(key)
        return self.py_func(*args, **kwargs)

    @property
    def signatures(self):
        return list(self._signatures)

    @property
    def nopython_signatures(self):
        return []  # nothing runs in nopython mode

    def compile(self, sig):
        args = _signature_args(sig)
        if args not in self._signatures:
            self._signatures.append(args)

    def __get__(self, obj, objtype=None):
        return self if obj is None else functools.partial(self, obj)

    def __repr__(self):
        return f"<object-mode function {self.py_func.__qualname__}>"

    def __reduce__(self):
        return (_rebuild, (self.py_func, self.targetoptions))


def _rebuild(py_func, options):
    return ObjectModeDispatcher(py_func, None, options)


def _type_of(value):
    from . import types
    try:
        return types.typeof(value)
    except (ValueError, TypeError):
        return types.pyobject


def _signature_args(sig):
    from . import _core
    from . import types
    if isinstance(sig, types.Signature):
        return tuple(sig.args)
    if isinstance(sig, (tuple, list)):
        return tuple(sig)
    _, args = _core.parse_signature(types.signature_text(sig))
    return tuple(args)
