"""Constants and compiled helpers reached as ext_pkg.consts.X from compiled code."""
from mahou import njit

SCALE = 2.5
OFFSETS = (1, 2, 3)
LABEL = "consts"


@njit
def scaled(x):
    return x * SCALE


def not_compiled(x):
    return x
