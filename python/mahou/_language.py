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


def refuse(message):
    """In compiled code: an UnsupportedError with `message` when the call is typed (the
    NumPy library in mahou._library refuses a form Numba does not support). In Python:
    raises it."""
    from .errors import UnsupportedError
    raise UnsupportedError(message)


def as_bytes(a):
    """In compiled code: the 1-D C-contiguous uint8 array `a` as a bytes value (its memory,
    read-only from then on; returned to Python as bytes). The NumPy library's
    a.tobytes() makes one. In Python: bytes(a)."""
    return bytes(a)


def tuple_setitem(t, i, v):
    """A copy of the tuple t with item i replaced by v (compiled code: t's items keep their
    type, v is converted to it; the NumPy library in mahou._library builds shapes with it)."""
    if i < 0:
        i += len(t)
    if not 0 <= i < len(t):
        raise IndexError("tuple index out of range")
    return t[:i] + (v,) + t[i + 1:]
