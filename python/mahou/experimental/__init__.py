"""mahou.experimental: Numba's experimental API (jitclass, structref)."""

from .._jitclass import jitclass
from . import structref

__all__ = ["jitclass", "structref"]
