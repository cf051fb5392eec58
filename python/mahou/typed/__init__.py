"""Typed containers shared with compiled code (numba.typed): List, Dict."""

from .._core import TypedDict as Dict
from .._core import TypedList as List

__all__ = ["List", "Dict"]
