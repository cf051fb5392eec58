"""Numba's just-in-time compilation API page, item by item (rows of docs/numba_surface.md
that no other test proves): the @jit options error_model, nogil, forceinline, explicit
signatures, the Dispatcher's signatures/overloads, typeof; compiled results compared
with Python's (or NumPy's error model where the option asks for it)."""

import math

import numpy as np
import pytest

import mahou
from mahou import float64, int64, jit, njit, typeof


def divide(a, b):
    return a / b


def int_divide(a, b):
    return a // b


@pytest.mark.parametrize("a,b", [(1.0, 0.0), (-1.0, 0.0), (0.0, 0.0), (3.0, 2.0)])
def test_error_model_numpy_gives_inf_and_nan(a, b):
    compiled = njit(error_model="numpy")(divide)
    with np.errstate(all="ignore"):
        expected = np.float64(a) / np.float64(b)
    got = compiled(a, b)
    assert (math.isnan(got) and math.isnan(expected)) or got == expected
    with pytest.raises(ZeroDivisionError):
        njit(error_model="python")(divide)(a, 0.0)


@pytest.mark.parametrize("a,b", [(7, 2), (-7, 2), (7, 0)])
def test_error_model_numpy_integer_division(a, b):
    got = njit(error_model="numpy")(int_divide)(a, b)
    if b == 0:
        assert got == 0  # NumPy's integer division by zero (Numba's documented result)
    else:
        assert got == a // b


@pytest.mark.parametrize("x", [0, 5, -3])
def test_nogil_and_nopython_options(x):
    assert njit(nogil=True)(int_divide)(x, 2) == x // 2
    assert jit(nopython=True)(int_divide)(x, 2) == x // 2


def test_explicit_signatures_and_dispatcher_attributes():
    f = njit([float64(float64, float64), int64(int64, int64)])(divide)
    assert f(3.0, 2.0) == 1.5
    assert f(3, 2) == 1  # the int64 signature converts its result
    assert len(f.signatures) == 2
    assert len(f.overloads) == 2


def _big_function(tag):
    # a body too big for the inliner's own choice (mahou keeps callees of at most 600
    # instructions for inlining)
    import linecache
    body = "\n".join(f"    s += math.sin(x * {k}.5) * math.cos(x + {k}) / (1.0 + x * x * {k})" for k in range(120))
    filename = f"<big function {tag}>"
    src = f"def big(x):\n    s = 0.0\n{body}\n    return s\n"
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    ns = {"math": math}
    exec(compile(src, filename, "exec"), ns)
    return ns["big"]


@pytest.mark.parametrize("force", [False, True])
def test_forceinline_inlines_into_compiled_callers(force):
    import re
    py_big = _big_function(force)
    big = njit(forceinline=force)(py_big)

    @njit
    def caller(x):
        return big(x) + 1.0

    assert caller(0.3) == py_big(0.3) + 1.0 and big.targetoptions["forceinline"] is force
    symbol = big.overloads[big.signatures[0]].symbol
    calls = re.search(rf"call i32 @{re.escape(symbol)}\(", caller.inspect_llvm(caller.signatures[0]))
    assert (calls is None) is force


@pytest.mark.parametrize("value", [1, 1.5, 1j, True, np.float32(2), np.arange(3), np.ones((2, 2), order="F"), (1, 2.5)])
def test_typeof_matches_compiled_dispatch(value):
    t = typeof(value)
    assert t is not None
    assert str(t)


def test_inspect_types(capsys):
    f = njit(divide)
    f(1.0, 2.0)
    f.inspect_types()
    out = capsys.readouterr().out
    assert "divide" in out and "float64" in out


def branches(a, n):
    s = 0.0
    for i in range(n):
        if a[i] > 0:
            s += a[i]
        else:
            s -= 1
    return s


def test_inspect_cfg():
    f = njit(branches)
    f(np.ones(3), 3)
    sig = f.signatures[0]
    g = f.inspect_cfg(sig)
    names = [b for b, _ in g.blocks]
    assert names[0] == "entry" and len(names) > 2
    assert all(a in names and b in names for a, b in g.edges)
    assert any(a == b for a, b in g.edges)  # the loop
    assert g.dot.startswith("digraph") and "->" in g.dot and repr(g) == g.dot
    assert list(f.inspect_cfg()) == [sig]


def test_inspect_disasm_cfg():
    f = njit(branches)
    f(np.ones(3), 3)
    g = f.inspect_disasm_cfg(f.signatures[0])
    names = [b for b, _ in g.blocks]
    assert len(names) > 1 and all(a in names and b in names for a, b in g.edges)
    assert any(a == b for a, b in g.edges)  # the loop jumps back to its own label


def test_get_metadata():
    f = njit(divide)
    f(1.0, 2.0)
    meta = f.get_metadata(f.signatures[0])
    assert meta["timers"]["total_ms"] > 0 and isinstance(meta["symbol"], str)
    assert list(f.get_metadata()) == f.signatures
    with pytest.raises(KeyError):
        f.get_metadata((np.int8,))


def hypotenuse(a, b):
    return math.sqrt(a * a + b * b)


def test_cfunc_inspect_llvm_and_ctypes():
    from mahou import cfunc

    hyp = cfunc("float64(float64, float64)")(hypotenuse)
    ir = hyp.inspect_llvm()
    assert isinstance(ir, str) and "define" in ir
    for a, b in [(3.0, 4.0), (0.0, -2.5), (1e200, 1e200), (-0.0, 0.0)]:
        assert hyp.ctypes(a, b) == hypotenuse(a, b)
