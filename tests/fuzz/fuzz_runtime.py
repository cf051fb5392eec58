"""What a generated program imports: the decorator its functions get. The worker
loads each program twice: once compiled (mahou.njit) and once as the Python
reference, instrumented so that an integer leaving int64 stops the run (reference.py)."""

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
