"""numpy.polynomial.Polynomial in compiled code (Numba's surface): Polynomial(coef) and
Polynomial(coef, domain, window) made there, Polynomial arguments, and the attributes
coef, domain, window and symbol (read-only); results box as real numpy Polynomials.

A Polynomial is a jitclass per (coef, domain, window) dtypes that stands in for the NumPy
class at the call boundary (_core.jitclass_stand_in, _core.jitclass_boxes_as): an argument is converted to an
instance sharing its arrays, and an instance returned to Python is boxed as
Polynomial(coef, domain, window, symbol). Anything else of the class (calling it,
arithmetic, methods) is refused by the compiler as a missing attribute of the class."""

import threading

import numpy as np
from numpy.polynomial import Polynomial as _NpPolynomial

from .. import _core
from .. import types as _types
from .._jitclass import JitClassType
from ..errors import TypingError
from ..extending import overload

__all__ = ["Polynomial"]



def Polynomial(coef, domain=None, window=None):
    """What '@polynomial.Polynomial' finds for numpy's class: its @overload below makes
    one in compiled code."""
    return _NpPolynomial(coef, domain, window)


_DTYPES = ("float16", "float32", "float64", "complex64", "complex128")
_lock = threading.Lock()
_classes = {}  # (coef, domain, window dtype names) -> JitClassType


class Polynomial_:
    """The fields of a compiled Polynomial; the properties make them read-only, as Numba's."""

    def __init__(self, coef, domain, window, symbol):
        self._coef = coef
        self._domain = domain
        self._window = window
        self._symbol = symbol

    @property
    def coef(self):
        return self._coef

    @property
    def domain(self):
        return self._domain

    @property
    def window(self):
        return self._window

    @property
    def symbol(self):
        return self._symbol


Polynomial_.__name__ = Polynomial_.__qualname__ = "Polynomial"


def _class_of(coef, domain, window):
    """The jitclass of Polynomials with these dtype names (one per combination)."""
    key = (coef, domain, window)
    with _lock:
        jc = _classes.get(key)
        if jc is None:
            spec = [("_coef", _types.Array(coef, 1, "A")), ("_domain", _types.Array(domain, 1, "A")),
                    ("_window", _types.Array(window, 1, "A")), ("_symbol", _types.unicode_type)]
            jc = JitClassType(Polynomial_, spec)
            jc._finish()
            _core.jitclass_boxes_as(jc._box, _to_object)
            _classes[key] = jc
        return jc


def _to_instance(p):
    """A Polynomial argument as an instance of its jitclass, sharing its arrays."""
    arrays = (p.coef, p.domain, p.window)
    for name, a in zip(("coef", "domain", "window"), arrays):
        if not isinstance(a, np.ndarray) or a.ndim != 1 or a.dtype.name not in _DTYPES:
            shown = f"a {a.ndim}-d {a.dtype} array" if isinstance(a, np.ndarray) else type(a).__name__
            raise TypeError(f"a Polynomial whose {name} is {shown} cannot be passed to compiled code "
                            f"(1-d arrays of {', '.join(_DTYPES)} can)")
    jc = _class_of(*(a.dtype.name for a in arrays))
    obj = _core.jitclass_new(jc._box, jc._fields_type)
    obj._coef, obj._domain, obj._window = arrays
    obj._symbol = str(p.symbol)
    return obj


def _to_object(box):
    """An instance returned to Python: a numpy Polynomial (which copies the arrays)."""
    return _NpPolynomial(box._coef, box._domain, box._window, symbol=box._symbol)


def _series_dtype(t, what):
    """NumPy's as_series dtype for one array argument: integers become float64, floats and
    complex numbers keep theirs; booleans have no common type with a float."""
    if not isinstance(t, _types.Array):
        raise TypingError(f"Polynomial(): the {what} must be a 1-d array in compiled code, not {t}")
    if t.ndim != 1:
        raise TypingError(f"Polynomial(): the {what} array is not 1-d ({t})"
                          if what != "coefficients" else "Polynomial(): Coefficient array is not 1-d")
    if isinstance(t.dtype, _types.Integer):
        return "float64"
    if str(t.dtype) in _DTYPES:
        return str(t.dtype)
    raise TypingError(f"Polynomial(): {what} of dtype {t.dtype} have no common type with a float")


def _absent(t):
    return t is None or isinstance(t, (_types.NoneType, _types.Omitted))


@overload(Polynomial)
def _construct(coef, domain=None, window=None):
    cdt = _series_dtype(coef, "coefficients")
    ddt = "float64" if _absent(domain) else _series_dtype(domain, "domain")
    wdt = "float64" if _absent(window) else _series_dtype(window, "window")
    jc = _class_of(cdt, ddt, wdt)
    c_type, d_type, w_type = np.dtype(cdt).type, np.dtype(ddt).type, np.dtype(wdt).type
    default_domain, default_window = _absent(domain), _absent(window)

    def impl(coef, domain=None, window=None):
        c = coef.astype(c_type)
        if c.size == 0:
            raise ValueError("Coefficient array is empty")
        if default_domain:
            d = np.array([-1.0, 1.0]).astype(d_type)
        else:
            d = domain.astype(d_type)
            if d.size != 2:
                raise ValueError("Domain has wrong number of elements.")
        if default_window:
            w = np.array([-1.0, 1.0]).astype(w_type)
        else:
            w = window.astype(w_type)
            if w.size != 2:
                raise ValueError("Window has wrong number of elements.")
        return jc(c, d, w, "x")

    return impl


_core.jitclass_stand_in(_NpPolynomial, _to_instance)
