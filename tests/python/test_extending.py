"""mahou.extending: @overload of user and NumPy functions, overload_method,
overload_attribute, register_jitable, literal dispatch, errors; a library-style module
(ext_library.py) compared with the interpreter and run under MAHOU_DISABLE_JIT=1."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import ext_library as lib
import mahou
from conftest import check
from mahou import njit, types
from mahou.errors import TypingError, UnsupportedError
from mahou.extending import intrinsic, overload, overload_attribute, overload_method, register_jitable

HERE = os.path.dirname(os.path.abspath(__file__))


# ---------------------------------------------------------------- the library module


def smooth_scalars(x):
    return (lib.smoothstep(x), lib.smoothstep(x, 0.5), lib.smoothstep(x, edge0=-1.0, edge1=3.0),
            lib.smoothstep(x, -2, edge1=2))


@pytest.mark.parametrize("x", [-1.5, 0.0, 0.25, 0.5, 0.99, 1.0, 7.0, -3, 0, 1, 2])
def test_overload_of_a_user_function_scalars(x):
    check(smooth_scalars, x)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int16, np.uint8])
def test_overload_scalar_dtypes(dtype):
    f = njit(lambda x: lib.smoothstep(x, 0.0, 4.0))
    for v in (0, 1, 3, 5):
        assert f(dtype(v)) == pytest.approx(lib.smoothstep(float(dtype(v)), 0.0, 4.0))


def smooth_array(a):
    return lib.smoothstep(a, -1.0, 1.0)


def test_overload_of_a_user_function_arrays():
    a = np.linspace(-2, 2, 11)
    check(smooth_array, a)
    check(smooth_array, a[::-3])  # a non-contiguous view
    check(smooth_array, np.zeros(0))
    check(smooth_array, np.arange(-3, 4))  # ints


def test_overload_refusing_types_is_a_typing_error():
    f = njit(lambda a: lib.smoothstep(a))
    with pytest.raises(TypingError) as info:
        f(np.zeros((2, 2)))  # 2-D: the typing function returns None
    msg = str(info.value)
    assert "smoothstep" in msg and "array(float64, 2d, C)" in msg


def digits(n):
    return lib.digit_sum(n), lib.digit_sum(n, 2), lib.digit_sum(n, base=16)


@pytest.mark.parametrize("n", [0, 7, 10, 12345, -987654321, 2**62])
def test_overload_with_default_and_keyword(n):
    check(digits, n)


def test_typing_function_raising_names_function_and_types():
    f = njit(lambda x: lib.digit_sum(x))
    with pytest.raises(TypingError) as info:
        f(1.5)
    msg = str(info.value)
    assert "digit_sum" in msg and "float64" in msg and "needs an integer" in msg


def moments(a):
    return lib.nth_moment(a, 2), lib.nth_moment(a, 3)


def test_literal_dispatch():
    a = np.array([1.0, 2.0, 4.0, 8.0, 3.0])
    got = njit(moments)(a)
    assert got == pytest.approx(moments(a))


def test_literal_dispatch_needs_a_constant():
    f = njit(lambda a, k: lib.nth_moment(a, k))
    with pytest.raises(TypingError, match="nth_moment"):
        f(np.ones(3), 2)  # k is a run-time value: the typing function refuses int64


def array_members(a):
    return a.span(), a.scaled_norm(), a.scaled_norm(2.0), a.scaled_norm(scale=0.5), a.nelem


def test_overload_method_and_attribute():
    a = np.array([3.0, -1.0, 4.0, 1.5])
    got = njit(array_members)(a)
    expect = (a.max() - a.min(), np.sqrt((a * a).sum()), 2 * np.sqrt((a * a).sum()),
              0.5 * np.sqrt((a * a).sum()), a.size)
    assert got == pytest.approx(expect)
    b = np.arange(12, dtype=np.int32)[::2]
    got = njit(array_members)(b)
    assert got[0] == 10 and got[4] == 6


def test_overload_method_refused_for_other_ndim():
    f = njit(lambda a: a.span())
    with pytest.raises(TypingError, match="span"):
        f(np.zeros((2, 2)))


def test_builtin_methods_come_first():
    @overload_method(types.Array, "sum")
    def _never(a):  # mahou's own a.sum() is used
        return lambda a: -1.0
    assert njit(lambda a: a.sum())(np.arange(4.0)) == 6.0


def sinc_of(x):
    return np.sinc(x)


@pytest.mark.parametrize("x", [0.0, 0.5, -1.25, 3.0, 1e-9])
def test_overload_of_a_numpy_function(x):
    assert njit(sinc_of)(x) == pytest.approx(np.sinc(x), rel=1e-14, abs=1e-300)


def test_numpy_overload_refusing_falls_back_to_mahou():
    @overload(np.hypot)
    def _hypot(x, y):
        return None  # refuses everything: mahou's own np.hypot is used
    assert njit(lambda x, y: np.hypot(x, y))(3.0, 4.0) == 5.0


def test_numpy_overload_unsupported_without_implementation():
    f = njit(lambda x: np.sinc(x))
    a = np.array([0.0, 0.5, -2.25])
    np.testing.assert_allclose(f(a), np.sinc(a), rtol=1e-15)  # the overload refuses arrays: mahou's own np.sinc
    z = np.array([0j, 0.5 + 0.5j, -1.5 + 0.25j])  # mahou's own np.sinc of complex numbers too
    np.testing.assert_allclose(f(z), np.sinc(z), rtol=1e-14)
    with pytest.raises(mahou.errors.MahouError, match="sinc"):
        njit(lambda x: np.sinc(x))("a string")  # neither compiles a string


# ---------------------------------------------------------------- register_jitable


@register_jitable
def poly(x, a=1.0, b=0.0):
    return a * x * x + b


def use_poly(x):
    return poly(x), poly(x, 2.0), poly(x, b=3.0), poly(x, a=0.5, b=-1.0)


def test_register_jitable():
    check(use_poly, 1.5)
    check(use_poly, -3)
    assert poly(2.0) == 4.0  # still a plain Python function
    assert not hasattr(poly, "py_func")


def test_register_jitable_with_options():
    @register_jitable(fastmath=True)
    def fm(x):
        return x * 2.0
    assert njit(lambda x: fm(x) + 1)(1.0) == 3.0


def test_register_jitable_recursion():
    @register_jitable
    def fact(n):
        if n <= 1:
            return 1
        return n * fact(n - 1)
    assert njit(lambda n: fact(n))(10) == 3628800


# ---------------------------------------------------------------- more overload forms


def test_overload_kwargs_and_star_args():
    def combine(a, b, c=0):
        return a * 100 + b * 10 + c

    @overload(combine)
    def _combine(a, b, c=0):
        return lambda a, b, c=0: a * 100 + b * 10 + c

    @njit
    def f(t):
        return combine(*t), combine(1, *t[1:]), combine(c=1, b=2, a=3), combine(5, b=6)
    assert f((1, 2, 3)) == (123, 123, 321, 560)


def test_several_typing_functions_first_match_wins():
    def kind(x):
        return "?"

    @overload(kind)
    def _int(x):
        if isinstance(x, types.Integer):
            return lambda x: 1
    @overload(kind)
    def _float(x):
        if isinstance(x, types.Float):
            return lambda x: 2
    f = njit(lambda x: kind(x))
    assert f(3) == 1 and f(3.0) == 2
    with pytest.raises(TypingError, match="kind"):
        f(1j)


def test_impl_closure_sees_typing_time_values():
    def fill_value(a):
        pass

    @overload(fill_value)
    def _fv(a):
        dt = a.dtype
        big = 1000 if isinstance(a.dtype, types.Integer) else 0.5

        def impl(a):
            return np.full(a.shape[0], big, dt)
        return impl
    f = njit(lambda a: fill_value(a))
    r = f(np.zeros(3, np.int32))
    assert r.dtype == np.int32 and list(r) == [1000] * 3
    r = f(np.zeros(2, np.float32))
    assert r.dtype == np.float32 and list(r) == [0.5, 0.5]


def test_overload_types_objects():
    seen = []

    def probe(*args):
        pass

    @overload(probe)
    def _probe(a, b, c, d, e):
        seen.append((a, b, c, d, e))
        return lambda a, b, c, d, e: 0
    njit(lambda x, y: probe(x, y, (x, 1.5), None, 7))(np.int16(3), np.zeros((2, 3), order="F"))
    a, b, c, d, e = seen[0]
    assert isinstance(a, types.Integer) and a.bitwidth == 16 and a.signed
    assert isinstance(b, types.Array) and b.ndim == 2 and b.layout == "F" and b.dtype == types.float64
    assert isinstance(c, types.BaseTuple) and c[0] == types.int16 and c[1] == types.float64
    assert d is types.none or isinstance(d, types.NoneType)
    assert e == types.int64


def test_intrinsic_is_refused_clearly():
    @intrinsic
    def add_one(typingctx, x):
        raise AssertionError("never called")

    with pytest.raises(UnsupportedError, match="llvmlite"):
        add_one(1)
    f = njit(lambda x: add_one(x))
    with pytest.raises(UnsupportedError, match="intrinsic"):
        f(1)


def test_impl_errors_are_reported():
    def bad(x):
        pass

    @overload(bad)
    def _bad(x):
        def impl(x):
            return x + "a"
        return impl
    with pytest.raises(TypingError):
        njit(lambda x: bad(x))(1)


def test_overload_must_return_a_function():
    def odd(x):
        pass

    @overload(odd)
    def _odd(x):
        return 42
    with pytest.raises(TypingError, match="must return a Python function"):
        njit(lambda x: odd(x))(1)


# ---------------------------------------------------------------- DISABLE_JIT and processes

DRIVER = textwrap.dedent("""
    import numpy as np, mahou, ext_library as lib
    @mahou.njit
    def run(a, n):
        return (lib.smoothstep(a[0], -1.0, 1.0), lib.smoothstep(a, 0.0, 2.0).sum(),
                lib.digit_sum(n), lib.digit_sum(n, base=2), a.span(), np.sinc(a[1]),
                lib.clamp(a[2], 0.0, 0.5))
    a = np.array([0.25, 0.75, 1.5, -0.5])
    print(repr(run(a, 1234567)))
""")


def run_driver(**env):
    full = dict(os.environ, PYTHONPATH=HERE + os.pathsep + os.environ.get("PYTHONPATH", ""))
    full.update(env)
    return subprocess.run([sys.executable, "-c", DRIVER], capture_output=True, text=True, env=full,
                          timeout=120)


def test_library_compiled_matches_disable_jit():
    compiled = run_driver(MAHOU_DISABLE_JIT="0")
    assert compiled.returncode == 0, compiled.stderr
    # Under DISABLE_JIT everything is Python: a.span() does not exist on ndarrays, as in Numba.
    plain = run_driver(MAHOU_DISABLE_JIT="1")
    assert "AttributeError" in plain.stderr and "span" in plain.stderr
    got = eval(compiled.stdout, {"np": np})
    a = np.array([0.25, 0.75, 1.5, -0.5])
    expect = (lib.smoothstep(0.25, -1.0, 1.0), lib.smoothstep(a, 0.0, 2.0).sum(), lib.digit_sum(1234567),
              lib.digit_sum(1234567, base=2), a.max() - a.min(), np.sinc(0.75), 0.5)
    assert got == pytest.approx(expect)


def test_disable_jit_runs_overloaded_functions_as_python():
    code = ("import numpy as np, mahou, ext_library as lib\n"
            "@mahou.njit\n"
            "def f(x, n):\n"
            "    return lib.smoothstep(x, 0.0, 2.0), lib.digit_sum(n), lib.clamp(x, 0.0, 0.1)\n"
            "print(f.__module__, repr(f(0.5, 99)))\n")
    full = dict(os.environ, PYTHONPATH=HERE, MAHOU_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=full,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split(" ", 1)[1].strip() == repr((lib.smoothstep(0.5, 0.0, 2.0), 18, 0.1))


def test_cache_of_a_function_using_overloads(tmp_path):
    src = tmp_path / "prog.py"
    src.write_text(textwrap.dedent("""
        import numpy as np, mahou, ext_library as lib
        @mahou.njit(cache=True)
        def f(a):
            return lib.smoothstep(a, 0.0, 2.0).sum() + a.span() + lib.digit_sum(99)
        print(f(np.array([0.5, 1.0, 3.0])), f.stats[(mahou.types.float64[::1],)]["cached"])
    """))
    env = dict(os.environ, PYTHONPATH=HERE, MAHOU_CACHE_DIR=str(tmp_path / "cache"))
    first = subprocess.run([sys.executable, str(src)], capture_output=True, text=True, env=env, timeout=120)
    second = subprocess.run([sys.executable, str(src)], capture_output=True, text=True, env=env, timeout=120)
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    v1, c1 = first.stdout.split()
    v2, c2 = second.stdout.split()
    assert v1 == v2 and c1 == "False" and c2 == "True"


def test_overload_of_a_builtin_for_other_types_keeps_builtin(tmp_path):
    # In a subprocess: the registry is per process, and len() is used everywhere.
    code = textwrap.dedent("""
        import numpy as np, mahou
        from mahou import types
        from mahou.extending import overload

        class Box:
            pass

        @overload(len)
        def _len(x):
            if isinstance(x, types.Integer):  # len() of an int: its digit count
                def impl(x):
                    n = 1
                    while x >= 10:
                        x //= 10
                        n += 1
                    return n
                return impl

        @mahou.njit
        def f(a, n):
            return len(a), len(n), len((1, 2, 3))
        print(f(np.zeros(4), 12345))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "(4, 5, 3)", out.stderr
