"""Dispatcher.parallel_diagnostics(): what parallel=True did to each compiled overload
(which prange loops run in parallel, the reductions found, nested pranges run serially)."""


def parallel_diagnostics(dispatcher, signature=None, level=1):
    """Prints, for each compiled overload (or the one of `signature`, a tuple of argument
    types), which loops run in parallel and which reductions were found. `level` (1-4)
    is accepted for Numba's API; every level prints the same facts."""
    if not isinstance(level, int) or isinstance(level, bool) or not 1 <= level <= 4:
        raise ValueError(f"level must be an integer from 1 to 4, not {level!r}")
    name = dispatcher.py_func.__qualname__
    print("=" * 80)
    print(f" Parallel diagnostics for function {name}")
    print("=" * 80)
    if not dispatcher.targetoptions.get("parallel"):
        print(f"{name} was not compiled with parallel=True: nothing runs in parallel")
        return
    notes = dispatcher._parallel_notes
    if signature is not None:
        wanted = tuple(signature)
        notes = {sig: lines for sig, lines in notes.items() if tuple(sig) == wanted}
    if not notes:
        print("no compiled overload" + ("" if signature is None else f" for {signature}"))
        return
    for sig, lines in notes.items():
        print(f"--- {name}{tuple(sig)}")
        for line in lines or ["loaded from the cache: no diagnostics recorded"]:
            print(line)
