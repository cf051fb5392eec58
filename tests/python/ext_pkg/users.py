"""Compiled functions that reach a sibling module through `from . import consts`."""
from mahou import njit

from . import consts


@njit
def use_sibling(x):
    return consts.scaled(x) + consts.OFFSETS[2]
