"""prange: range for parallel loops (a plain range when run by CPython)."""


class prange:
    """Parallel range: behaves as range() in Python; compiled as a range loop."""

    def __new__(cls, *args):
        return range(*args)
