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


@pytest.mark.parametrize("name", ["overload_classmethod", "get_cython_function_address"])
def test_missing_high_level_names(name):
    """Not provided: an AttributeError at import time, not a crash at run time."""
    assert not hasattr(extending, name)


def test_structref_is_provided():
    # the behaviour is tested in test_structref.py
    from mahou.experimental import structref
    assert {"register", "StructRefProxy", "define_proxy", "define_constructor", "define_boxing"} <= set(dir(structref))
