"""map, filter and functools.reduce in compiled code (asked for as '@functional.<name>'),
written in Python and compiled for the function they are given, which is called
directly (an @njit function, an inner function or a lambda: dispatched statically, as
Numba does). map and filter give lists (their items computed when they are called)
instead of Python's lazy iterators; a compiled function iterates over them, passes
them on or makes a list of them as it would of the iterator."""

from mahou import njit


@njit
def map(function, iterable, iterable2=None, iterable3=None):
    out = []
    if iterable2 is None:
        for x in iterable:
            out.append(function(x))
    elif iterable3 is None:
        for x, y in zip(iterable, iterable2):
            out.append(function(x, y))
    else:
        for x, y, z in zip(iterable, iterable2, iterable3):
            out.append(function(x, y, z))
    return out


@njit
def filter(function, iterable):
    out = []
    for x in iterable:
        if function is None:
            if x:
                out.append(x)
        elif function(x):
            out.append(x)
    return out


@njit
def reduce(function, iterable, initial=None):
    if initial is None:
        started = False
        for x in iterable:
            if started:
                acc = function(acc, x)
            else:
                acc = x
                started = True
        if not started:
            raise TypeError("reduce() of empty iterable with no initial value")
        return acc
    acc2 = initial
    for x in iterable:
        acc2 = function(acc2, x)
    return acc2
