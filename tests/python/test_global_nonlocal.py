"""`global` declarations (the global is read as any global: frozen when the function is
compiled; assigning one is refused, as Numba refuses STORE_GLOBAL) and `nonlocal` in
inner functions called directly (the variable passed in and written back, as Numba's
inlined closures do), compared with the interpreter."""

import numpy as np
import pytest

from conftest import check
from mahou import njit
from mahou.errors import UnsupportedError

SCALE = 3
OFFSETS = (1, -2, 5)


def reads_declared_globals(x):
    global SCALE, OFFSETS
    s = 0
    for o in OFFSETS:
        s += o
    return x * SCALE + s


def accumulate(x):
    y = x + 1
    z = 0

    def inner(v):
        nonlocal z
        z += v * v
        return z + y

    return inner(x) + inner(x) + z


def set_once(n):
    x = 1000

    def closure(t):
        nonlocal x
        x = t

    closure(n)
    if x == 0:
        return True
    return False


def several(a):
    total = 0.0
    count = 0
    biggest = -np.inf

    def add(v):
        nonlocal total, count, biggest
        total += v
        count += 1
        if v > biggest:
            biggest = v
            return True
        return False

    news = 0
    for v in a:
        if add(v):
            news += 1
    return total, count, biggest, news


def widens(n):
    z = 0

    def step():
        nonlocal z
        z = z + 0.5

    for _ in range(n):
        step()
    return z


def nested(n):
    z = 0

    def mid():
        nonlocal z

        def inner():
            nonlocal z
            z += 1

        for _ in range(n):
            inner()
        return z

    return mid() + z


def array_nonlocal(n):
    buf = np.zeros(3)

    def grow():
        nonlocal buf
        buf = np.concatenate((buf, np.ones(1) * len(buf)))

    for _ in range(n):
        grow()
    return buf


@pytest.mark.parametrize("x", [0, 4, -7])
def test_global_declaration_reads(x):
    check(reads_declared_globals, x)
    check(reads_declared_globals, float(x) + 0.5)


@pytest.mark.parametrize("fn,args", [
    (accumulate, (10,)), (accumulate, (-3,)), (accumulate, (0.5,)),
    (set_once, (0,)), (set_once, (3,)),
    (several, (np.array([1.0, 5.0, 2.0, 7.0]),)), (several, (np.array([]),)),
    (several, (np.arange(10.0)[::-3],)),
    (widens, (1,)), (widens, (3,)),  # z is float throughout (int and float unify)
    (nested, (0,)), (nested, (4,)),
    (array_nonlocal, (0,)), (array_nonlocal, (2,)),
])
def test_nonlocal_matches_python(fn, args):
    check(fn, *args)


def test_assigning_a_global_is_refused():
    def bad(x):
        global SCALE
        SCALE = x
        return x

    with pytest.raises(UnsupportedError, match="assigning the global variable 'SCALE'"):
        njit(bad)(1)


def test_assigning_a_python_closure_variable_is_refused():
    def make():
        z = 0

        def f(x):
            nonlocal z
            z += x
            return z

        return f

    with pytest.raises(UnsupportedError, match="a variable of the enclosing Python function"):
        njit(make())(1)


def test_nonlocal_of_a_function_two_levels_up_needs_a_declaration():
    def two_levels(n):
        z = 0

        def mid():
            def inner():
                nonlocal z
                z += 1

            inner()
            return z

        mid()
        return z

    with pytest.raises(UnsupportedError, match="declare it nonlocal here too"):
        njit(two_levels)(1)


def test_nonlocal_writer_used_as_a_value_is_refused():
    def as_value(n):
        z = 0

        def f():
            nonlocal z
            z += 1

        g = f
        g()
        return z

    with pytest.raises(UnsupportedError, match="can only be called directly"):
        njit(as_value)(1)
