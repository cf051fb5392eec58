"""target='parallel' of @vectorize and @guvectorize: the same compiled loops, called by
a trampoline that cuts NumPy's outer dimension into the parallel runtime's chunks
(oneTBB, parallel.h) and runs them on mahou's threads (set_num_threads applies)."""

from .gufunc import GUFunc
from .ufunc import DUFunc


class ParallelUFunc(DUFunc):
    """@vectorize(target='parallel')."""

    _parallel = True

    def __repr__(self):
        return f"<mahou parallel DUFunc '{self.__name__}'>"


class ParallelGUFunc(GUFunc):
    """@guvectorize(target='parallel')."""

    _parallel = True

    def __repr__(self):
        return f"<mahou parallel GUFunc '{self.__name__}'>"
