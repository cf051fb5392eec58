"""What a generated program imports: the decorator its functions get. The worker
loads each program twice: once compiled (mahou.njit) and once as the Python
reference, instrumented so that an integer leaving int64 stops the run (reference.py);
and what the programs name besides (typed sets, literal_unroll, an IntEnum)."""

import enum

MODE = "python"  # or "mahou": set by the worker before it loads a program


def decorator(boundscheck=False, parallel=False):
    if MODE == "python":
        return lambda fn: fn
    import mahou

    return mahou.njit(boundscheck=boundscheck, parallel=parallel)


def prange():
    """The program's `prange`: range in the reference, mahou.prange when compiled."""
    if MODE == "python":
        return range
    import mahou

    return mahou.prange


class _PythonSet:
    """The reference's `TypedSet`: a Python set, made as typed.Set is (`TypedSet()`,
    `TypedSet(items)`, `TypedSet.empty(key_type)`)."""

    def __new__(cls, items=()):
        return set(items)

    @staticmethod
    def empty(key_type):
        return set()


def typed_set():
    """The program's `TypedSet`: a Python set in the reference, mahou.typed.Set compiled
    (bound when the program is loaded, so its inputs are typed sets too)."""
    if MODE == "python":
        return _PythonSet
    import mahou

    return mahou.typed.Set


def key_types():
    """(the int key type, the str key type) given to `TypedSet.empty`."""
    if MODE == "python":
        return int, str
    from mahou import types

    return types.int64, types.unicode_type


def literal_unroll():
    if MODE == "python":
        return lambda x: x
    import mahou

    return mahou.literal_unroll


class Level(enum.IntEnum):
    """The value patterns' constants (`case Level.MID:`)."""

    LOW = 0
    MID = 5
    HIGH = -3


class _PythonCell:
    """The reference's `Cell`: a mutable structure of an int `n` and a float `v`."""

    def __init__(self, n, v):
        self.n = n
        self.v = v

    def __repr__(self):
        return f"Cell({self.n!r}, {self.v!r})"


_CELL = None


def cell_class():
    """The program's `Cell`: a StructRef proxy compiled (fields n and v, read and written
    in compiled code), a plain class in the reference."""
    global _CELL
    if MODE == "python":
        return _PythonCell
    if _CELL is None:
        _CELL = _define_cell()
    return _CELL


def _define_cell():
    import mahou
    from mahou.core import types
    from mahou.experimental import structref

    @structref.register
    class CellType(types.StructRef):
        def preprocess_fields(self, fields):
            return tuple((name, types.unliteral(typ)) for name, typ in fields)

    @mahou.njit
    def cell_n(c):
        return c.n

    @mahou.njit
    def cell_v(c):
        return c.v

    class Cell(structref.StructRefProxy):
        def __new__(cls, n, v):
            return structref.StructRefProxy.__new__(cls, n, v)

        @property
        def n(self):
            return cell_n(self)

        @property
        def v(self):
            return cell_v(self)

        def __repr__(self):
            return f"Cell({self.n!r}, {self.v!r})"

    structref.define_proxy(Cell, CellType, ["n", "v"])
    return Cell
