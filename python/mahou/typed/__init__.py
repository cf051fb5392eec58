"""Typed containers shared with compiled code (numba.typed): List, Dict. Both pickle
(for process pools and Dask) by value: their item types and their items."""

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
