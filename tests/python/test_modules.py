"""Modules as values in compiled code: `helpers.f(x)`, `pkg.mod.CONST`, `from . import
mod`, nested attributes, numpy submodules; errors; and the on-disk cache following a
module's functions and constants."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import ext_pkg
import ext_pkg.consts
import ext_pkg.consts as consts_alias
import ext_pkg.users
from ext_pkg import consts
from mahou import njit
from mahou.errors import TypingError, UnsupportedError

HERE = os.path.dirname(os.path.abspath(__file__))


def through_alias(x):
    return consts.scaled(x) + consts.SCALE + consts.OFFSETS[0] + len(consts.LABEL)


def through_package(x):
    return ext_pkg.consts.scaled(x) * ext_pkg.consts.OFFSETS[1]


def through_as(x):
    return consts_alias.scaled(x) - consts_alias.SCALE


@pytest.mark.parametrize("fn", [through_alias, through_package, through_as])
@pytest.mark.parametrize("x", [0, 3, -2.5, np.float32(1.5)])
def test_module_functions_and_constants(fn, x):
    assert njit(fn)(x) == fn(x)


def test_module_values_in_arrays():
    def f(a):
        out = np.empty_like(a)
        for i in range(a.shape[0]):
            out[i] = consts.scaled(a[i]) + consts.OFFSETS[i % 3]
        return out
    a = np.arange(7.0)[::2]
    np.testing.assert_array_equal(njit(f)(a), f(a))


def test_relative_import_inside_a_package():
    assert ext_pkg.users.use_sibling(2.0) == 2.0 * 2.5 + 3


def test_numpy_submodule_as_value():
    def f(a):
        return np.random.rand(3).shape[0], np.pi
    assert njit(f)(np.zeros(1)) == (3, np.pi)


def test_missing_attribute_is_a_typing_error():
    def f(x):
        return consts.NOPE + x
    with pytest.raises(TypingError, match="has no attribute 'NOPE'"):
        njit(f)(1)


def test_missing_function_is_a_typing_error():
    def f(x):
        return consts.nope(x)
    with pytest.raises(TypingError, match="has no attribute 'nope'"):
        njit(f)(1)


def test_plain_python_function_of_a_module_is_refused():
    def f(x):
        return consts.not_compiled(x)
    with pytest.raises(UnsupportedError, match="not_compiled"):
        njit(f)(1)


def test_module_cannot_be_stored():
    def f(x):
        m = consts
        return x
    with pytest.raises(UnsupportedError):
        njit(f)(1)


def write(path, text):
    path.write_text(textwrap.dedent(text))


HELPER = """
    from mahou import njit
    K = {k}
    @njit
    def twice(x):
        return x * {factor}
"""


def test_cache_follows_module_functions_and_constants(tmp_path):
    write(tmp_path / "helpmod.py", HELPER.format(k=2, factor=2))
    write(tmp_path / "prog.py", """
        import mahou, helpmod
        @mahou.njit(cache=True)
        def f(x):
            return helpmod.twice(x) + helpmod.K
        print(f(10), f.stats[(mahou.int64,)]["cached"])
    """)
    env = dict(os.environ, MAHOU_CACHE_DIR=str(tmp_path / "cache"))

    def run():
        out = subprocess.run([sys.executable, "prog.py"], cwd=tmp_path, capture_output=True, text=True,
                             env=env, timeout=120)
        assert out.returncode == 0, out.stderr
        return out.stdout.split()

    assert run() == ["22", "False"]
    assert run() == ["22", "True"]
    write(tmp_path / "helpmod.py", HELPER.format(k=5, factor=2))  # a constant of the module changes
    assert run() == ["25", "False"]
    write(tmp_path / "helpmod.py", HELPER.format(k=5, factor=3))  # the module's function changes
    assert run() == ["35", "False"]
    assert run() == ["35", "True"]
