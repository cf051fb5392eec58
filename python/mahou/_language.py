"""Names compiled code treats specially (as Numba does), with their plain-Python
meaning when run by CPython or under DISABLE_JIT."""


def literally(obj):
    """In compiled code: `obj`, which must be known at compile time (a constant or a
    literal argument). In Python: obj."""
    return obj


def literal_unroll(container):
    """`for x in literal_unroll(t)` in compiled code: the loop body is compiled once per
    item of the tuple t (its items may have different types). In Python: t."""
    return container
