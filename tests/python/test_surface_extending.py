"""Numba's extending pages, item by item (rows of docs/numba_surface.md): is_jitted, and the
low-level API mahou refuses (it builds LLVM IR with llvmlite, which mahou does not use):
each refusal is a clean UnsupportedError that says why, never a crash."""

import numpy as np
import pytest

import mahou
from mahou import extending, njit
from mahou.errors import UnsupportedError


def plain(x):
    return x + 1


jitted = njit(plain)


@pytest.mark.parametrize("obj,expected", [(jitted, True), (plain, False), (np.sin, False), (len, False)])
def test_is_jitted(obj, expected):
    assert extending.is_jitted(obj) is expected


def test_is_jitted_after_a_call():
    f = njit(lambda x: x * 2)
    assert f(3) == 6 and extending.is_jitted(f)


@pytest.mark.parametrize("name", ["intrinsic", "lower_builtin", "type_callable", "typeof_impl", "unbox", "box",
                                  "register_model", "infer_getattr"])
def test_low_level_decorators_refuse_clearly(name):
    deco = getattr(extending, name)

    @deco
    def hook(*args):
        return None

    with pytest.raises(UnsupportedError, match="llvmlite"):
        hook(1)


def test_data_models_refuse_clearly():
    with pytest.raises(UnsupportedError, match="data model"):
        extending.make_attribute_wrapper(object, "a", "a")
    with pytest.raises(UnsupportedError, match="llvmlite"):
        extending.models.StructModel


def test_structref_is_provided():
    # the behaviour is tested in test_structref.py
    from mahou.experimental import structref
    assert {"register", "StructRefProxy", "define_proxy", "define_constructor", "define_boxing"} <= set(dir(structref))


def test_get_cython_function_address():
    # a Cython module's exported C function, called from compiled code through ctypes
    import ctypes

    import numpy as np
    sp = pytest.importorskip("scipy.special")
    addr = extending.get_cython_function_address("scipy.special.cython_special", "j0")
    j0 = ctypes.CFUNCTYPE(ctypes.c_double, ctypes.c_double, ctypes.c_int)(addr)  # (x, skip_dispatch)

    @mahou.njit
    def bessel(a):
        out = np.empty_like(a)
        for i in range(a.size):
            out[i] = j0(a[i], 0)
        return out

    a = np.array([0.0, 0.5, -1.25, 3.0, 40.0])
    assert np.array_equal(bessel(a), sp.j0(a))
    with pytest.raises(ValueError, match="no function"):
        extending.get_cython_function_address("scipy.special.cython_special", "not_there")
    with pytest.raises(ValueError, match="__pyx_capi__"):
        extending.get_cython_function_address("math", "sin")
