"""Typed containers shared with compiled code (numba.typed): List, Dict. Both pickle
(for process pools and Dask) by value: their item types and their items."""

import collections.abc as _abc
import copyreg

from .._core import TypedDict as Dict
from .._core import TypedList as List

__all__ = ["List", "Dict"]


def _rebuild_list(item_type, items):
    out = List() if item_type is None else List.empty_list(item_type)
    out.extend(items)
    return out


def _rebuild_dict(key_type, value_type, items):
    out = Dict() if key_type is None else Dict.empty(key_type=key_type, value_type=value_type)
    for k, v in items:
        out[k] = v
    return out


copyreg.pickle(List, lambda l: (_rebuild_list, (l.item_type, list(l))))
copyreg.pickle(Dict, lambda d: (_rebuild_dict, (d.key_type, d.value_type, list(d.items()))))


# ------------------------------------------------------------------ dict views
# keys(), values() and items() are views, as a dict's: iterating one runs the dict's
# checked iterator (a dict changed while iterated raises RuntimeError, as in Python).

class _DictKeys(_abc.KeysView):
    __slots__ = ()

    def __iter__(self):
        return self._mapping._iter_entries(0)

    def __repr__(self):
        return f"dict_keys({list(self)!r})"


class _DictValues(_abc.ValuesView):
    __slots__ = ()

    def __iter__(self):
        return self._mapping._iter_entries(1)

    def __repr__(self):
        return f"dict_values({list(self)!r})"


class _DictItems(_abc.ItemsView):
    __slots__ = ()

    def __iter__(self):
        return self._mapping._iter_entries(2)

    def __repr__(self):
        return f"dict_items({list(self)!r})"


def _view(cls, name):
    def view(self):
        return cls(self)
    view.__name__ = view.__qualname__ = name
    view.__doc__ = f"D.{name}(): a view of the dict's {name}, in insertion order."
    return view


Dict.keys = _view(_DictKeys, "keys")
Dict.values = _view(_DictValues, "values")
Dict.items = _view(_DictItems, "items")
