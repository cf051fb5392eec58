"""@vectorize: NumPy ufuncs over compiled loops (static and dynamic), compared with the
same function applied element by element in Python and with NumPy's own ufuncs; calls
of those ufuncs from compiled code."""

import math

import numpy as np
import pytest

import mahou
from mahou import float32, float64, int8, int32, int64, njit, vectorize


def elementwise(py_func, *args, dtype):
    """The reference: py_func on each broadcast element, in Python."""
    return np.frompyfunc(py_func, len(args), 1)(*args).astype(dtype)


def poly(x, y):
    return 3.0 * x * x - 2.0 * x * y + y - 1.0


def add(x, y):
    return x + y


FLOAT_SIGS = ["float32(float32, float32)", "float64(float64, float64)"]
poly_uf = vectorize(FLOAT_SIGS)(poly)
add_uf = vectorize([int32(int32, int32), int64(int64, int64), float32(float32, float32),
                    float64(float64, float64)], identity=0)(add)


def test_static_is_a_real_ufunc():
    assert isinstance(add_uf.ufunc, np.ufunc)
    assert add_uf.types == ["ii->i", "ll->l", "ff->f", "dd->d"]
    assert add_uf.ntypes == 4 and add_uf.nin == 2 and add_uf.nout == 1
    assert add_uf.identity == 0 and poly_uf.identity is None
    assert add_uf.__name__ == "add"


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_static_float_loops(dtype):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(1001).astype(dtype)
    y = rng.standard_normal(1001).astype(dtype)
    got = poly_uf(x, y)
    assert got.dtype == dtype
    np.testing.assert_allclose(got, elementwise(poly, x, y, dtype=dtype), rtol=1e-6 if dtype == np.float32 else 1e-15)


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_static_int_loops_wrap_like_numpy(dtype):
    info = np.iinfo(dtype)
    x = np.array([0, -5, info.max, info.min, 7], dtype=dtype)
    y = np.array([1, 5, 1, -1, -8], dtype=dtype)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(add_uf(x, y), np.add(x, y))


def test_casting_picks_the_first_safe_loop():
    assert add_uf(np.arange(3, dtype=np.int8), np.arange(3, dtype=np.int8)).dtype == np.int32
    assert add_uf(np.arange(3, dtype=np.uint32), np.arange(3)).dtype == np.int64
    assert add_uf(np.arange(3, dtype=np.float32), np.arange(3, dtype=np.int8)).dtype == np.float32
    assert add_uf(np.arange(3), 0.5).dtype == np.float64


def test_no_loop_is_numpys_type_error():
    with pytest.raises(TypeError, match="add"):
        add_uf(np.arange(3, dtype=np.complex128), 1)
    with pytest.raises(TypeError):
        poly_uf(np.arange(3, dtype=np.complex64), np.ones(3, dtype=np.complex64))


def test_broadcasting_views_and_scalars():
    a = np.arange(24.0).reshape(2, 3, 4)
    b = np.linspace(-1, 1, 4)
    np.testing.assert_allclose(poly_uf(a, b), elementwise(poly, a, b, dtype=np.float64))
    v = a[:, ::2, ::-1]          # non-contiguous view
    np.testing.assert_allclose(poly_uf(v, 2.5), elementwise(poly, v, 2.5, dtype=np.float64))
    t = a.T                      # Fortran order
    np.testing.assert_allclose(poly_uf(t, t), elementwise(poly, t, t, dtype=np.float64))
    assert poly_uf(2.0, 3.0) == poly(2.0, 3.0)
    assert isinstance(poly_uf(2.0, 3.0), np.float64)


def test_empty_and_zero_dim():
    e = np.zeros((0, 3))
    assert poly_uf(e, e).shape == (0, 3)
    assert poly_uf(np.array(2.0), np.array(1.0)) == poly(2.0, 1.0)


def test_out_where_dtype():
    x = np.arange(6.0)
    out = np.full(6, -1.0)
    r = poly_uf(x, x, out=out)
    assert r is out
    np.testing.assert_allclose(out, elementwise(poly, x, x, dtype=np.float64))
    out2 = np.full(6, -1.0)
    poly_uf(x, x, out=out2, where=x > 2)
    np.testing.assert_allclose(out2, np.where(x > 2, elementwise(poly, x, x, dtype=np.float64), -1.0))
    assert add_uf(np.arange(3), np.arange(3), dtype=np.float64).dtype == np.float64


def test_reduce_accumulate_outer_at():
    a = np.arange(12).reshape(3, 4)
    np.testing.assert_array_equal(add_uf.reduce(a, axis=0), a.sum(axis=0))
    np.testing.assert_array_equal(add_uf.reduce(a, axis=1), a.sum(axis=1))
    np.testing.assert_array_equal(add_uf.reduce(a, axis=None), a.sum())  # identity 0: reorderable
    np.testing.assert_array_equal(add_uf.accumulate(a), np.add.accumulate(a))
    np.testing.assert_array_equal(add_uf.accumulate(a, axis=1), np.add.accumulate(a, axis=1))
    np.testing.assert_array_equal(add_uf.outer(np.arange(3), np.arange(4)), np.add.outer(np.arange(3), np.arange(4)))
    np.testing.assert_array_equal(add_uf.reduceat(np.arange(8), [0, 4, 6]), np.add.reduceat(np.arange(8), [0, 4, 6]))
    b = np.zeros(5, dtype=np.int64)
    add_uf.at(b, [0, 1, 1, 4], 3)
    np.testing.assert_array_equal(b, [3, 6, 0, 0, 3])
    assert add_uf.reduce(np.zeros(0, dtype=np.int64)) == 0
    with pytest.raises(ValueError):
        poly_uf.reduce(np.zeros(0))  # no identity


def test_declared_output_type_converts():
    @vectorize(["float64(int64)", "int8(float64)"])
    def half(x):
        return x // 2

    r = half(np.array([5, -5, 7]))
    assert r.dtype == np.float64
    np.testing.assert_array_equal(r, [2.0, -3.0, 3.0])
    r = half(np.array([9.0, -9.0]))
    assert r.dtype == np.int8
    np.testing.assert_array_equal(r, [4, -5])


def test_bool_and_complex_loops():
    @vectorize(["bool(float64, float64)"])
    def close(x, y):
        return abs(x - y) < 0.5

    np.testing.assert_array_equal(close(np.array([1.0, 2.0, 3.0]), np.array([1.2, 3.0, 3.49])), [True, False, True])

    @vectorize(["complex128(complex128, float64)"])
    def rot(z, t):
        return z * complex(math.cos(t), math.sin(t))

    z = np.array([1 + 2j, -3j, 0.5])
    t = np.array([0.0, math.pi / 2, 1.0])
    np.testing.assert_allclose(rot(z, t), elementwise(lambda a, b: a * complex(math.cos(b), math.sin(b)), z, t,
                                                      dtype=np.complex128))

    @vectorize(["bool(bool, bool)"])
    def xor(a, b):
        return a != b

    np.testing.assert_array_equal(xor(np.array([True, False, True]), np.array([True, True, False])),
                                  [False, True, True])


def test_dynamic_compiles_per_dtype():
    @vectorize
    def mul(x, y):
        return x * y

    assert mul.ntypes == 0
    assert mul(3, 4) == 12
    r = mul(np.arange(5), 1.5)
    np.testing.assert_array_equal(r, np.arange(5) * 1.5)
    assert mul.types == ["ll->l", "ld->d"]
    r = mul(np.arange(4, dtype=np.float32), np.float32(2))
    assert r.dtype == np.float32
    assert "ff->f" in mul.types
    # int32 inputs are taken by the int64 loop (NumPy's casting), no new loop
    n = mul.ntypes
    mul(np.arange(3, dtype=np.int32), np.arange(3, dtype=np.int32))
    assert mul.ntypes == n
    np.testing.assert_array_equal(mul.reduce(np.arange(1, 6, dtype=np.int16)), 120)


def test_dynamic_with_keyword_options():
    @vectorize(identity=1, nopython=True, fastmath=False)
    def mul(x, y):
        return x * y

    assert mul.identity == 1
    assert mul.reduce(np.arange(1.0, 5.0)) == 24.0


def test_frozen_after_signatures():
    @vectorize(["int64(int64)"])
    def inc(x):
        return x + 1

    with pytest.raises(TypeError):
        inc(np.array(["a"]))
    inc.disable_compile()
    np.testing.assert_array_equal(inc(np.arange(3, dtype=np.int8)), [1, 2, 3])


def test_exception_in_the_function_is_raised():
    @vectorize(["float64(float64)"])
    def checked(x):
        if x < 0:
            raise ValueError("negative input")
        return math.sqrt(x)

    np.testing.assert_allclose(checked(np.array([4.0, 9.0])), [2.0, 3.0])
    with pytest.raises(ValueError, match="negative input"):
        checked(np.array([1.0, -1.0, 4.0]))
    assert checked(np.array([16.0]))[0] == 4.0  # the ufunc still works afterwards


def test_division_by_zero_follows_numpy():
    @vectorize(["float64(float64, float64)"])
    def div(x, y):
        return x / y

    with np.errstate(divide="ignore", invalid="ignore"):
        r = div(np.array([1.0, -1.0, 0.0]), np.zeros(3))
    assert r[0] == np.inf and r[1] == -np.inf and np.isnan(r[2])


def test_bad_declarations():
    with pytest.raises(TypeError):
        vectorize(["float64(float64[:])"])(lambda x: x)
    with pytest.raises(ValueError):
        vectorize(identity=5)(add)
    with pytest.raises(ValueError):
        vectorize(target="gpu")(add)
    with pytest.raises(mahou.errors.TypingError, match="must return a number"):
        @vectorize(["float64(float64)"])
        def nothing(x):
            pass


# ---- calls from compiled code

@njit
def call_poly(a, b):
    return poly_uf(a, b)


@njit
def call_in_expression(a):
    return add_uf(a, 1) * 2 + poly_uf(a, a).sum()


def test_call_from_njit_arrays_and_scalars():
    x = np.linspace(-2, 2, 7)
    y = np.linspace(1, 3, 7)
    np.testing.assert_allclose(call_poly(x, y), poly_uf(x, y))
    np.testing.assert_allclose(call_poly(x.reshape(7, 1), y), poly_uf(x.reshape(7, 1), y))  # broadcasting
    np.testing.assert_allclose(call_poly(x[::2], 1.5), poly_uf(x[::2], 1.5))
    assert call_poly(2.0, 3.0) == poly(2.0, 3.0)
    xf = x.astype(np.float32)
    r = call_poly(xf, xf)
    assert r.dtype == np.float32
    np.testing.assert_allclose(r, poly_uf(xf, xf), rtol=1e-6)
    np.testing.assert_allclose(call_in_expression(x), add_uf(x, 1) * 2 + poly_uf(x, x).sum())


def test_call_from_njit_picks_numpys_loop():
    @njit
    def f(a, b):
        return add_uf(a, b)

    assert f(np.arange(3, dtype=np.int8), np.arange(3, dtype=np.int8)).dtype == np.int32
    assert f(np.arange(3), 2.5).dtype == np.float64
    assert f(np.arange(3, dtype=np.float32), 2).dtype == np.float32
    with pytest.raises(mahou.errors.TypingError, match="no loop"):
        f(np.arange(3, dtype=np.complex128), 1)


def test_call_dynamic_from_njit():
    @vectorize
    def sq(x):
        return x * x

    @njit
    def f(a, s):
        return sq(a) + sq(s)

    np.testing.assert_array_equal(f(np.arange(5), 3), np.arange(5) ** 2 + 9)
    np.testing.assert_allclose(f(np.linspace(0, 1, 3), 0.5), np.linspace(0, 1, 3) ** 2 + 0.25)
    np.testing.assert_array_equal(sq(np.arange(4)), np.arange(4) ** 2)


def test_passed_as_argument_to_njit():
    @njit
    def apply(uf, a):
        return uf(a, a)

    np.testing.assert_allclose(apply(poly_uf, np.arange(3.0)), poly_uf(np.arange(3.0), np.arange(3.0)))


def test_error_model_numpy_in_loops():
    @vectorize
    def recip(x):
        return 1.0 / x

    with np.errstate(divide="ignore"):
        assert recip(np.array([0.0]))[0] == np.inf


# ---- target='parallel'

par_poly = vectorize(FLOAT_SIGS, target="parallel")(poly)


@pytest.mark.parametrize("n", [0, 7, 4096, 100_003])
def test_parallel_matches_cpu(n):
    rng = np.random.default_rng(n)
    x = rng.standard_normal(n)
    y = rng.standard_normal(n)
    np.testing.assert_array_equal(par_poly(x, y), poly_uf(x, y))
    np.testing.assert_array_equal(par_poly(x[::3], 2.0), poly_uf(x[::3], 2.0))
    xf = x.astype(np.float32)
    np.testing.assert_array_equal(par_poly(xf, xf), poly_uf(xf, xf))


def test_parallel_thread_counts():
    x = np.linspace(0, 1, 50_000)
    old = mahou.get_num_threads()
    try:
        for t in (1, 2):
            mahou.set_num_threads(t)
            np.testing.assert_array_equal(par_poly(x, x), poly_uf(x, x))
    finally:
        mahou.set_num_threads(old)


def test_parallel_exception_is_raised():
    @vectorize(["float64(float64)"], target="parallel")
    def checked(x):
        if x > 90_000:
            raise ValueError("too large")
        return x + 1.0

    np.testing.assert_array_equal(checked(np.arange(10_000.0)), np.arange(10_000.0) + 1)
    with pytest.raises(ValueError, match="too large"):
        checked(np.arange(100_000.0))
    np.testing.assert_array_equal(checked(np.arange(5.0)), np.arange(5.0) + 1)


def test_parallel_dynamic_and_reduce():
    @vectorize(target="parallel", identity=0)
    def plus(x, y):
        return x + y

    a = np.arange(20_000)
    np.testing.assert_array_equal(plus(a, a), a + a)
    assert plus.reduce(a) == a.sum()


def test_parallel_reduce_and_accumulate_run_in_order():
    # reduce passes the accumulator with step 0 and accumulate reads the previous
    # output: their iterations depend on each other and must not be cut into chunks.
    @vectorize(target="parallel", identity=0)
    def add(x, y):
        return x + y

    a = np.arange(300_000)
    for _ in range(10):
        assert add.reduce(a) == a.sum()
        np.testing.assert_array_equal(add.accumulate(a), np.cumsum(a))
        b = a.copy()
        add(b, b, out=b)  # in place, item by item: still parallel
        np.testing.assert_array_equal(b, 2 * a)
