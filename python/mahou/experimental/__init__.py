"""mahou.experimental: Numba's experimental API (jitclass)."""

from .._jitclass import jitclass

__all__ = ["jitclass"]
