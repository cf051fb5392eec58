"""NumPy functions written in Python and compiled by mahou, as Numba implements most of
NumPy (numba/np/arraymath.py): a call of np.median(a) in compiled code is a call of
`numpy_functions.median`, compiled for the argument types like any other callee.

The compiler asks for them by the names '@numpy.<name>' (numpy_functions),
'@numpy.linalg.<name>' (linalg), '@ndarray.<name>' (array_methods, self first),
'@internal.<name>' (internal: helpers of the compiler's own lowering), '@blas.dgemm'
&c. (blas: BLAS routines as C function pointers for np.dot), '@numpy.random.<name>'
(numpy_random: choice, permutation, shuffle, ...), '@random.<name>' (random_module:
the random module's functions made of its primitives), 'operator.<name>'
(operator_module: the operator module's functions as their operators),
'heapq.<name>' (heapq_module: CPython's heap algorithms on lists), 'polynomial.<name>'
(numpy.polynomial.polynomial's functions and polyutils' as_series/trimseq), 'bytes.<name>'
(bytes_methods: bytes values' operators and methods), 'device_cmath.<name>' (cmath's
trigonometric and hyperbolic functions and complex ** in real math, for kernels),
'device_npcomplex.<name>' (NumPy's ufuncs of complex numbers in real math, for kernels); the resolver
(mahou._resolver) imports this package on the first such name.
"""

import importlib

_MODULES = {
    "numpy": "mahou._library.numpy_functions",
    "numpy.linalg": "mahou._library.linalg",
    "ndarray": "mahou._library.array_methods",
    "internal": "mahou._library.internal",
    "blas": "mahou._library.blas",
    "functional": "mahou._library.functional",
    "numpy.random": "mahou._library.numpy_random",
    "random": "mahou._library.random_module",
    "operator": "mahou._library.operator_module",
    "heapq": "mahou._library.heapq_module",
    "polynomial": "mahou._library.polynomial",
    "bytes": "mahou._library.bytes_methods",
    "device_cmath": "mahou._library.device_cmath",
    "device_npcomplex": "mahou._library.device_npcomplex",
}


def lookup(qualified):
    """The compiled implementation of 'numpy.median', 'ndarray.item', ...; None if none."""
    owner, _, name = qualified.rpartition(".")
    module = _MODULES.get(owner)
    if module is None or name.startswith("_"):
        return None
    try:
        mod = importlib.import_module(module)
    except ImportError:
        return None
    return mod.__dict__.get(name)
