"""The comparison the dtype tests share: a compiled function's result against CPython's,
item by item through tuples and lists (the same container types), arrays by dtype, shape
and values, dtypes by equality, everything else by type and value."""

import numpy as np


def same(got, want):
    if isinstance(want, (tuple, list)):
        assert type(got) is type(want) and len(got) == len(want), (got, want)
        for g, w in zip(got, want):
            same(g, w)
    elif isinstance(want, np.ndarray):
        assert isinstance(got, np.ndarray) and got.dtype == want.dtype and got.shape == want.shape, (got, want)
        np.testing.assert_array_equal(got, want)
    elif isinstance(want, np.dtype):
        assert isinstance(got, np.dtype) and got == want, (got, want)
    else:
        assert type(got) is type(want) and got == want, (got, want)
