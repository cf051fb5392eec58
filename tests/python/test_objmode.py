"""`with objmode(...)` blocks: the body runs in the interpreter with the compiled
function's variables, and its declared outputs come back typed. Each function is also
run as plain Python (objmode is a context manager that does nothing there)."""

import collections
import gc

import numpy as np
import pytest

import mahou
from mahou import njit, objmode, types
from mahou.errors import TypingError, UnsupportedError


def both(fn, *args):
    """The compiled result and the interpreted one."""
    return fn(*args), fn.py_func(*args)


def python_total(a):
    return float(np.sum(a))


SCALE = 3


class BlockError(ValueError):
    pass


def test_scalars_in_and_out():
    @njit
    def f(n, x):
        s = 0.0
        for i in range(n):
            s += i * x
        with objmode(y="float64", k="int64"):
            y = s * SCALE + 0.5
            k = len(str(n))
        return y + k

    for n, x in [(0, 1.0), (5, 2.5), (-3, 1.0), (12345, -0.25)]:
        got, want = both(f, n, x)
        assert got == want


def test_arrays_in_and_out():
    @njit
    def f(a):
        b = a * 2.0
        with objmode(total="float64", c="float64[:]"):
            total = python_total(b)
            c = np.cumsum(b)
        return total, c

    for a in [np.arange(6.0), np.empty(0), np.linspace(-1, 1, 7)[::2]]:
        (t1, c1), (t2, c2) = both(f, a)
        assert t1 == t2
        np.testing.assert_array_equal(c1, c2)


def test_array_made_in_the_block_outlives_it():
    @njit
    def f(n):
        with objmode(out="int64[:, :]"):
            out = np.arange(n * 2, dtype=np.int64).reshape(n, 2)
        acc = 0
        for i in range(out.shape[0]):
            acc += out[i, 1]
        return out, acc

    for n in [0, 1, 4]:
        (o1, a1), (o2, a2) = both(f, n)
        np.testing.assert_array_equal(o1, o2)
        assert a1 == a2


def test_the_block_sees_and_changes_the_arrays_of_compiled_code():
    @njit
    def f(a):
        with objmode():
            a[0] = 42.0
        return a[0] + a.sum()

    a1, a2 = np.ones(4), np.ones(4)
    assert f(a1) == f.py_func(a2)
    np.testing.assert_array_equal(a1, a2)


def test_type_objects_and_numba_spellings():
    @njit
    def f(x):
        with objmode(a=types.float64, b=types.int32, c="intp", d=types.float64[:], s=types.unicode_type):
            a = x / 2
            b = 7
            c = 3
            d = np.full(2, x)
            s = "x=" + str(x)
        return a, b, c, d.sum(), s

    got, want = both(f, 3.0)
    assert got == want


def test_no_outputs_and_printing(capsys):
    @njit
    def f(x):
        with objmode():
            print("value", x, f"{x:.2f}")
        return x + 1

    assert f(2.5) == 3.5
    assert capsys.readouterr().out == "value 2.5 2.50\n"


def test_in_a_loop_keeps_no_references():
    @njit
    def f(a, n):
        acc = 0.0
        for i in range(n):
            with objmode(v="float64[:]", s="unicode_type"):
                v = a + i
                s = "item %d" % i
            acc += v[0] + len(s)
        return acc

    a = np.arange(3.0)
    f(a, 2)
    gc.collect()
    before = mahou._core.live_allocations()
    for _ in range(3):
        assert f(a, 50) == f.py_func(a, 50)
    gc.collect()
    assert mahou._core.live_allocations() == before


def test_variables_rebound_around_the_block():
    @njit
    def f(n):
        x = n
        with objmode(x="float64"):
            x = x * 1.5
        return x

    assert both(f, 4) == (6.0, 6.0)


def test_closure_and_global_values():
    def make(k):
        @njit
        def f(x):
            with objmode(y="int64"):
                y = x * k + SCALE
            return y
        return f

    assert make(2)(5) == 13
    assert make(10)(5) == 53


def test_exception_from_the_block_reaches_the_caller_whole():
    @njit
    def f(x):
        with objmode(y="int64"):
            if x < 0:
                raise BlockError("negative", x)
            y = x
        return y

    assert f(3) == 3
    with pytest.raises(BlockError) as info:
        f(-2)
    assert info.value.args == ("negative", -2)
    assert f(4) == 4  # still works


def test_exception_from_the_block_caught_in_compiled_code():
    @njit
    def f(x):
        try:
            with objmode(y="int64"):
                y = 10 // x
        except ZeroDivisionError:
            y = -1
        return y

    @njit
    def g(x):
        try:
            with objmode(y="int64"):
                if x < 0:
                    raise BlockError("no")
                y = x
        except ValueError:  # the block's exception is a ValueError subclass
            y = -7
        return y

    assert [f(2), f(0)] == [5, -1]
    assert [g(2), g(-1)] == [2, -7]


def test_wrong_type_from_the_block_is_a_type_error():
    @njit
    def f(x):
        with objmode(y="int64"):
            y = "not a number"
        return y

    with pytest.raises(TypeError, match="objmode output 'y' is declared int64"):
        f(1)


def test_an_assigned_name_used_after_the_block_must_be_declared():
    @njit
    def f(x):
        with objmode(y="int64"):
            y = x
            z = x + 1
        return y + z

    with pytest.raises(TypingError, match="assigns 'z', used after it"):
        f(1)


def test_an_output_never_assigned_is_refused():
    @njit
    def f(x):
        with objmode(y="int64"):
            w = x
        return y

    with pytest.raises(TypingError, match="objmode output 'y' is not assigned"):
        f(1)


def test_return_inside_the_block_is_refused():
    @njit
    def f(x):
        with objmode(y="int64"):
            y = x
            return y
        return 0

    with pytest.raises(TypingError, match="'return' inside an objmode block"):
        f(1)


def test_an_unknown_type_is_refused():
    @njit
    def f(x):
        with objmode(y="no_such_type"):
            y = x
        return y

    with pytest.raises(TypingError, match="type of objmode output 'y'"):
        f(1)


def test_other_with_statements_are_refused():
    @njit
    def f(x):
        with open("x") as fh:
            pass
        return x

    @njit
    def g(x):
        with collections.OrderedDict():
            pass
        return x

    with pytest.raises((TypingError, UnsupportedError), match="'with ... as name' is not supported"):
        f(1)
    with pytest.raises(UnsupportedError, match="supported only for objmode blocks"):
        g(1)


def test_numba_spelling_of_the_module():
    import mahou as numba

    @numba.njit
    def f(x):
        with numba.objmode(y="float64"):
            y = x ** 0.5
        return y

    assert both(f, 9.0) == (3.0, 3.0)


def test_cache_true_compiles_and_runs(tmp_path, monkeypatch):
    monkeypatch.setenv("MAHOU_CACHE_DIR", str(tmp_path))

    @njit(cache=True)
    def f(x):
        with objmode(y="int64"):
            y = x + SCALE
        return y

    assert f(1) == 4


def test_a_variable_assigned_only_later_is_unbound_in_the_block():
    @njit
    def f(x):
        with objmode(s="unicode_type"):
            s = "a"
            s += "b" * x
        return s

    @njit
    def g(x):
        with objmode(y="int64"):
            y = z + 1  # noqa: F821  (z is assigned after the block: unbound here)
        z = x
        return y + z

    assert both(f, 2) == ("abb", "abb")
    with pytest.raises(UnboundLocalError):
        g(1)
    with pytest.raises(UnboundLocalError):
        g.py_func(1)


def test_refused_inside_a_prange_loop_and_fine_beside_it():
    @njit(parallel=True)
    def f(a):
        for i in mahou.prange(a.shape[0]):
            with objmode():
                print(i)
        return a

    @njit(parallel=True)
    def g(a):
        s = 0.0
        for i in mahou.prange(a.shape[0]):
            s += a[i]
        with objmode(t="float64"):
            t = s * 2
        return t

    with pytest.raises(UnsupportedError, match="objmode block inside a prange loop"):
        f(np.ones(3))
    assert g(np.ones(4)) == 8.0


def test_inside_an_inner_function():
    @njit
    def f(x):
        def inner(v):
            with objmode(r="float64"):
                r = v * 2.0
            return r
        return inner(x) + 1

    assert both(f, 2.0) == (5.0, 5.0)


def test_nogil_function_takes_the_lock_for_the_block():
    @njit(nogil=True)
    def f(x):
        with objmode(y="int64"):
            y = x * SCALE
        return y

    assert f(2) == 6


def test_inside_a_generator():
    @njit
    def gen(n):
        for i in range(n):
            with objmode(v="float64"):
                v = i / 2
            yield v

    @njit
    def use(n):
        s = 0.0
        for x in gen(n):
            s += x
        return s

    assert use(5) == use.py_func(5) == 5.0
    assert list(gen(3)) == [0.0, 0.5, 1.0]
