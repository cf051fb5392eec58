"""Python type annotations as mahou types (Numba's as_numba_type): int, float, complex,
bool, str, None, numba types and NumPy dtypes, and the generics typing.List[T] /
list[T] (a typed list), Dict[K, V], Set[T], Tuple[...], Optional[T] (Union[T, None])
and typed.List[T] / typed.Dict[K, V]. Used for jitclass fields given as annotations."""

import typing

from . import _core
from . import types as _types

_PLAIN = {int: _types.int64, float: _types.float64, complex: _types.complex128, bool: _types.boolean,
          str: _types.unicode_type, type(None): _types.none, None: _types.none}


class _Set(_types.Type):
    """A set of .dtype (reflected, as Numba's SetType from an annotation)."""

    __slots__ = ("dtype",)

    def __init__(self, dtype):
        self.dtype = dtype
        super().__init__(None)

    def _text(self):
        return f"set({self.dtype})"


def try_as_type(py_type):
    """The mahou type an annotation stands for, or None when it names none."""
    if isinstance(py_type, _types.Type):
        return py_type
    try:
        plain = _PLAIN.get(py_type)
    except TypeError:  # unhashable
        plain = None
    if plain is not None:
        return plain
    from ._resolver import _dtype_name
    name = _dtype_name(py_type)
    if name is not None and name in _types._SCALARS:
        return _types._SCALARS[name]
    origin, args = typing.get_origin(py_type), typing.get_args(py_type)
    if origin is None:
        return None
    if origin is typing.Union:
        if len(args) != 2 or type(None) not in args:
            raise TypeError(f"cannot type {py_type}: a Union is only supported as Optional[T] (T or None)")
        inner = as_type(args[0] if args[1] is type(None) else args[1])
        return _types.Optional(inner)
    if origin in (list, _core.TypedList) and len(args) == 1:
        return _types.ListType(as_type(args[0]))
    if origin in (dict, _core.TypedDict) and len(args) == 2:
        return _types.DictType(as_type(args[0]), as_type(args[1]))
    if origin is set and len(args) == 1:
        return _Set(as_type(args[0]))
    if origin is tuple and args and Ellipsis not in args:
        return _types.Tuple([as_type(a) for a in args])
    return None


def as_type(py_type):
    """try_as_type, or TypeError naming the annotation."""
    t = try_as_type(py_type)
    if t is None:
        raise TypeError(f"cannot infer the mahou type of the Python type {py_type!r}")
    return t
