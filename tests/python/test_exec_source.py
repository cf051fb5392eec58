"""Functions made by exec() of a string: mahou compiles source text, so it finds the
string while the exec() that defines the function runs (the decorator compiles it then):
a local variable of a function on the stack holding text that compiles to this very
function. Otherwise the error says why and what to do (register the text in linecache)."""

import linecache

import numpy as np
import pytest

from mahou.errors import UnsupportedError

TEMPLATE = """
@njit
def {name}(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * {scale}
    return s
"""

EAGER = """
@njit("float64(float64[:])")
def {name}(a):
    return a.sum() * {scale}
"""


def make(name, scale, template=TEMPLATE, filename=""):
    namespace = {"njit": __import__("mahou").njit, "np": np}
    src = template.format(name=name, scale=scale)  # a local: found while exec() runs
    exec(compile(src, filename, "exec"), namespace)
    return namespace[name]


@pytest.mark.parametrize("filename", ["", "<string>", "<generated>"])
def test_function_made_by_exec_of_a_local_string(filename):
    f = make("scaled_sum", 2.5, filename=filename)
    for a in (np.arange(4.0), np.empty(0), np.arange(10.0)[::3]):
        assert f(a) == a.sum() * 2.5
    g = make("scaled_sum", -1, filename=filename)  # same name, other text: its own function
    assert g(np.arange(3.0)) == -3.0


def test_eager_signature_in_exec():
    f = make("eager_sum", 3, template=EAGER)
    assert f(np.arange(4.0)) == 18.0


def test_string_not_held_anywhere_is_refused_with_what_to_do():
    namespace = {"njit": __import__("mahou").njit}
    with pytest.raises(UnsupportedError) as info:
        exec(compile(TEMPLATE.format(name="lost", scale=1), "", "exec"), namespace)
        namespace["lost"](np.ones(2))
    msg = str(info.value)
    assert "source code is not available" in msg and "exec()" in msg and "linecache.cache" in msg


def test_registered_text_is_found_by_linecache():
    src = TEMPLATE.format(name="registered", scale=4)
    linecache.cache["<registered>"] = (len(src), None, src.splitlines(True), "<registered>")
    namespace = {"njit": __import__("mahou").njit}
    exec(compile(src, "<registered>", "exec"), namespace)
    del src
    assert namespace["registered"](np.ones(3)) == 12.0
