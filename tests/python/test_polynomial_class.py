"""numpy.polynomial.Polynomial in compiled code (Numba's surface): made there with one or
three arguments, passed in, its attributes read, returned as a real numpy Polynomial;
everything else of the class is refused with a TypingError naming the line."""

import numpy as np
import pytest
from numpy.polynomial import Polynomial
from numpy.polynomial import polynomial as P

from mahou import njit
from mahou.errors import TypingError


def make1(c):
    return P.Polynomial(c)


def make3(c, d, w):
    return Polynomial(c, d, w)


def attributes(p):
    return p.coef, p.domain, p.window, p.symbol


def passed_through(p):
    return p


def coef_sum(p):
    s = p.coef[0] * 0
    for v in p.coef:
        s += v
    return s + p.domain[1] - p.window[0]


def same(a, b):
    assert type(a) is type(b)
    assert a.coef.dtype == b.coef.dtype and a.domain.dtype == b.domain.dtype and a.window.dtype == b.window.dtype
    np.testing.assert_array_equal(a.coef, b.coef)
    np.testing.assert_array_equal(a.domain, b.domain)
    np.testing.assert_array_equal(a.window, b.window)
    assert a.symbol == b.symbol


COEFS = [np.array([1, 2, 3]), np.array([-0.5, 1.5]), np.array([0.0]), np.array([1 + 2j, -3j]),
         np.arange(8.0)[::-3], np.array([1, 2], dtype=np.float32), np.array([3, -4], dtype=np.int8),
         np.array([1, 2], dtype=np.uint64), np.array([1j], dtype=np.complex64), np.array([0.0, 0.0])]


@pytest.mark.parametrize("c", COEFS, ids=lambda c: f"{c.dtype}{c.shape}")
def test_made_with_coefficients(c):
    got = njit(make1)(c)
    same(got, make1(c))
    assert got == make1(c)


def test_the_coefficients_are_copied():
    c = np.array([1.0, 2.0])
    p = njit(make1)(c)
    c[0] = 9.0
    assert p.coef[0] == 1.0


DOMAINS = [np.array([0, 1]), np.array([0.0, 1.0]), np.array([-2.5, 4.0], dtype=np.float32),
           np.array([3.0, 2.0, 1.0])[::2], np.array([1j, 2.0])]


@pytest.mark.parametrize("d", DOMAINS, ids=lambda d: str(d.dtype))
@pytest.mark.parametrize("w", DOMAINS[:3], ids=lambda w: str(w.dtype))
@pytest.mark.parametrize("c", [np.array([0, 1]), np.array([0.0, 1.0, -2.0])], ids=["int", "float"])
def test_made_with_domain_and_window(c, d, w):
    same(njit(make3)(c, d, w), make3(c, d, w))


@pytest.mark.parametrize("args, message", [
    ((np.array([1, 2]), np.array([1, 2, 3]), np.array([1, 2])), "Domain has wrong number of elements."),
    ((np.array([1, 2]), np.array([1.0]), np.array([1, 2])), "Domain has wrong number of elements."),
    ((np.array([1, 2]), np.array([1, 2]), np.array([1, 2, 3])), "Window has wrong number of elements."),
    ((np.zeros(0), np.array([1, 2]), np.array([1, 2])), "Coefficient array is empty"),
])
def test_wrong_lengths_raise_value_error(args, message):
    with pytest.raises(ValueError, match=message):
        make3(*args)
    with pytest.raises(ValueError, match=message):
        njit(make3)(*args)


def test_empty_coefficients_raise_with_one_argument():
    with pytest.raises(ValueError, match="Coefficient array is empty"):
        njit(make1)(np.zeros(0))


@pytest.mark.parametrize("args, message", [
    ((np.ones((2, 2)), np.array([1, 2]), np.array([1, 2])), "Coefficient array is not 1-d"),
    ((np.array([True, False]), np.array([1, 2]), np.array([1, 2])), "no common type"),
    ((np.array([1.0]), np.ones((1, 2)), np.array([1, 2])), "domain array is not 1-d"),
    ((np.array([1.0]), 3.0, np.array([1, 2])), "must be a 1-d array"),
])
def test_unsupported_arguments_are_typing_errors(args, message):
    with pytest.raises(TypingError, match=message) as info:
        njit(make3)(*args)
    assert "make3" not in str(info.value) or "return Polynomial(c, d, w)" in str(info.value)


ARGUMENTS = [Polynomial([1.0, 2.0, 3.0]), Polynomial([1, 2], domain=[0, 2], symbol="t"),
             Polynomial(np.array([1j, 2.0]), window=[0.0, 0.5]), Polynomial(np.array([1, 2], dtype=np.float32)),
             Polynomial([0.0])]


@pytest.mark.parametrize("p", ARGUMENTS, ids=repr)
def test_arguments_attributes_and_return(p):
    for got, want in zip(njit(attributes)(p), attributes(p)):
        if isinstance(want, str):
            assert got == want
        else:
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(got, want)
    same(njit(passed_through)(p), p)
    assert njit(coef_sum)(p) == coef_sum(p)


def test_an_argument_shares_its_arrays():
    p = Polynomial([1.0, 2.0])

    @njit
    def change(q):
        q.coef[0] = -7.0
        return q.coef

    out = change(p)
    assert p.coef[0] == -7.0 and out[0] == -7.0


def test_polynomials_in_a_tuple_are_refused_as_arguments():
    with pytest.raises(TypeError):
        njit(lambda t: t[0].coef)((Polynomial([1.0]),))


def test_an_unsupported_coefficient_dtype_is_a_type_error():
    p = Polynomial(np.array([1, 2], dtype=object))
    with pytest.raises(TypeError, match="object"):
        njit(passed_through)(p)


def test_a_polynomial_made_and_used_in_one_function():
    @njit
    def f(c, lo, hi):
        p = Polynomial(c, np.array([lo, hi]), np.array([-1.0, 1.0]))
        return p.domain[1] - p.domain[0], p.coef.sum(), len(p.window)

    for c, lo, hi in [(np.array([1.0, 2.0]), 0.0, 3.0), (np.array([-1, 5, 7]), -2.0, -1.5)]:
        p = Polynomial(c, np.array([lo, hi]), np.array([-1.0, 1.0]))
        assert f(c, lo, hi) == (p.domain[1] - p.domain[0], p.coef.sum(), len(p.window))


def call_method(p):
    return p.degree()


def call_it(p):
    return p(2.0)


def add_them(p):
    return p + p


def set_coef(p):
    p.coef = np.zeros(3)


@pytest.mark.parametrize("fn, message", [(call_method, "no attribute 'degree'"), (call_it, "not callable"),
                                         (add_them, "Polynomial"), (set_coef, "no setter")])
def test_the_rest_is_refused(fn, message):
    with pytest.raises(TypingError, match=message):
        njit(fn)(Polynomial([1.0, 2.0]))


def test_a_polynomial_argument_first_in_a_fresh_process(tmp_path):
    """The stand-in is found when the first compiled call of the process gets a Polynomial."""
    import subprocess
    import sys
    script = tmp_path / "first.py"
    script.write_text("import numpy as np\nfrom numpy.polynomial import Polynomial\nfrom mahou import njit\n\n"
                      "@njit\ndef f(p):\n    return p.coef.sum(), p\n\n"
                      "s, q = f(Polynomial([1.0, 2.5], symbol='z'))\n"
                      "assert s == 3.5 and isinstance(q, Polynomial) and q.symbol == 'z', (s, q)\n"
                      "print('ok')\n")
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr
