"""Typed containers shared with compiled code (numba.typed): List, Dict, Set. They
pickle (for process pools and Dask) by value: their item types and their items."""

import collections.abc as _abc
import copyreg

from .._core import TypedDict as Dict
from .._core import TypedList as List
from .._core import TypedSet as _TypedSet

__all__ = ["List", "Dict", "Set"]


class Set(_TypedSet, _abc.MutableSet):
    """A set of one key type shared with compiled code (numba.typed.Set): Set() takes its
    key type from the first key, Set.empty(key_type) is given it. Compiled code receives
    it without a copy and sees (and makes) changes in place."""

    __slots__ = ()

    def __iter__(self):
        return iter(self._keys())  # the keys when the iteration starts

    @classmethod
    def _from_iterable(cls, it):  # what the set operators (|, &, -, ^) build
        return cls(it)

    def __repr__(self):
        text = self._type_text
        body = "{" + ", ".join(repr(k) for k in self._keys()) + "}"
        return f"{text}({body})" if text else f"UntypedSet({body})"

    def __str__(self):
        return "{" + ", ".join(str(k) for k in self._keys()) + "}"

    __hash__ = None


_TypedSet._register_class(Set)


def _rebuild_list(item_type, items):
    out = List() if item_type is None else List.empty_list(item_type)
    out.extend(items)
    return out


def _rebuild_dict(key_type, value_type, items):
    out = Dict() if key_type is None else Dict.empty(key_type=key_type, value_type=value_type)
    for k, v in items:
        out[k] = v
    return out


def _rebuild_set(key_type, keys):
    out = Set() if key_type is None else Set.empty(key_type)
    for k in keys:
        out.add(k)
    return out


copyreg.pickle(List, lambda l: (_rebuild_list, (l.item_type, list(l))))
copyreg.pickle(Set, lambda s: (_rebuild_set, (s.key_type, list(s))))
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
