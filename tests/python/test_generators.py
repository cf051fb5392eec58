"""Generators: compiled functions containing `yield`, consumed by compiled code (for
loops, enumerate/zip, list(), sum/min/max, comprehensions, next() with StopIteration)
and by Python (a generator returned to Python is an iterator). Each consumer is
compared with the same code run by Python over the plain Python generators; the
runtime's allocation counter is checked after generators dropped early."""

import gc
import types

import numpy as np
import pytest

import mahou
import mahou._core
from mahou import njit


def live():
    gc.collect()
    return mahou._core.live_allocations()


# ---------------------------------------------------------------- generators

@njit
def count_up(n):
    i = 0
    while i < n:
        yield i
        i += 1


@njit
def squares(n):
    for i in range(n):
        yield i * i


@njit
def evens_then_odds(n):
    for i in range(n):
        if i % 2 == 0:
            yield i
    for i in range(n):
        if i % 2 == 1:
            yield i


@njit
def halves(n):
    x = float(n)
    while x > 1.0:
        yield x
        x = x / 2.0
    return
    yield -1.0  # never reached


@njit
def pairs(n):
    for i in range(n):
        for j in range(i):
            yield (i, j * 0.5)


@njit
def nothing(n):
    if n > 100:
        yield n


@njit
def stops_early(n):
    for i in range(n):
        if i == 3:
            return
        yield i


@njit
def rows(n):
    a = np.arange(n * 3).reshape(n, 3) * 1.5
    for i in range(n):
        yield a[i].copy()


@njit
def words(n):
    s = "ab"
    for i in range(n):
        s = s + str(i)
        yield s


@njit
def with_list(n):
    xs = [0]
    for i in range(n):
        xs.append(i)
        yield len(xs)


@njit
def add_one(x):
    return x + 1


@njit
def calls_others(n):
    for i in range(n):
        yield add_one(i) * 2


@njit
def catching(n):
    for i in range(n):
        try:
            if i % 3 == 0:
                raise ValueError("three")
            yield i
        except ValueError:
            yield -i


@njit
def raising(n):
    for i in range(n):
        if i == 2:
            raise ValueError("two")
        yield i


@njit
def of_array(a):
    for x in a:
        if x > 0:
            yield x


@njit
def bools(n):
    for i in range(n):
        yield i % 3 == 0


GENERATORS = [count_up, squares, evens_then_odds, halves, pairs, nothing, stops_early, rows, words, with_list,
              add_one, calls_others, catching, raising, of_array, bools]


def python_version(fn):
    """The consumer `fn` run by Python over the plain Python generators."""
    g = dict(fn.__globals__)
    for d in GENERATORS:
        g[d.py_func.__name__] = d.py_func
    return types.FunctionType(fn.__code__, g, fn.__name__, fn.__defaults__, fn.__closure__)


def same(a, b):
    if isinstance(a, (list, tuple)):
        assert type(a) is type(b) and len(a) == len(b), (a, b)
        for x, y in zip(a, b):
            same(x, y)
    elif isinstance(a, np.ndarray):
        np.testing.assert_array_equal(a, b)
    else:
        assert a == b, (a, b)
        for kind in ((bool, np.bool_), (float, np.floating), (str,)):
            assert isinstance(a, kind) == isinstance(b, kind), (a, b)


def check(fn, *args):
    expected = python_version(fn)(*args)
    got = njit(fn)(*args)
    same(got, expected)
    return got


# ---------------------------------------------------------------- consumers

def loop_sum(n):
    t = 0
    for x in count_up(n):
        t += x
    return t


def loop_squares(n):
    t = 0
    for x in squares(n):
        t += x
    return t


def loop_order(n):
    out = []
    for x in evens_then_odds(n):
        out.append(x)
    return out


def loop_floats(n):
    out = []
    for x in halves(n):
        out.append(x)
    return out


def loop_tuples(n):
    t = 0.0
    k = 0
    for i, h in pairs(n):
        t += i * h
        k += 1
    return t, k


def loop_empty(n):
    k = 0
    for x in nothing(n):
        k += x
    else:
        k -= 1
    return k


def loop_break(n):
    t = 0
    for x in count_up(n):
        if x > 4:
            break
        t += x
    else:
        t = -1
    return t


def loop_continue(n):
    t = 0
    for x in count_up(n):
        if x % 2:
            continue
        t += x
    return t


def loop_return_inside(n):
    for x in squares(n):
        if x > 10:
            return x
    return -1


def loop_stops_early(n):
    return [x for x in stops_early(n)]


def nested(n):
    t = 0
    for i in count_up(n):
        for j in squares(i):
            t += i * j
    return t


def enumerate_zip(n):
    t = 0
    for i, x in enumerate(squares(n)):
        t += i * x
    for a, b in zip(count_up(n), squares(n + 3)):
        t += a - b
    for a, b in zip(np.arange(3), count_up(n)):
        t += a * b
    for k, (a, b) in enumerate(zip(squares(n), count_up(n)), 1):
        t += k * (a + b)
    return t


def builtins(n):
    xs = list(squares(n))
    return xs, sum(count_up(n)), sum(halves(n)) + 0.5, len(xs)


def min_max(n):
    return min(squares(n)), max(evens_then_odds(n))


def comprehensions(n):
    a = [x + 1 for x in squares(n) if x % 2 == 0]
    b = {x % 4 for x in count_up(n)}
    c = sorted(evens_then_odds(n))
    return a, len(b), c


def with_next(n):
    g = count_up(n)
    a = next(g)
    b = next(g)
    t = 0
    for x in g:  # the rest
        t += x
    return a, b, t


def next_exhausted(n):
    g = count_up(n)
    k = 0
    while True:
        try:
            k += next(g) + 1
        except StopIteration:
            break
    return k


def next_after_end(n):
    g = count_up(n)
    for x in g:
        pass
    try:
        next(g)
        return 1
    except StopIteration:
        return 2


def arrays(n):
    t = 0.0
    for r in rows(n):
        t += r.sum()
    return t


def strings(n):
    out = []
    for s in words(n):
        out.append(s)
    return out


def lists_inside(n):
    return sum(with_list(n))


def calls(n):
    return list(calls_others(n))


def try_inside(n):
    return list(catching(n))


@njit
def consume(g):
    t = 0
    for x in g:
        t += x
    return t


GENERATORS.append(consume)


def generator_argument(n):
    return consume(squares(n)) + consume(count_up(n))


def generator_variable(n):
    g = squares(n)
    h = g
    t = 0
    for x in h:
        t += x
    for x in g:  # exhausted already
        t += 1000
    return t


def from_array(n):
    return list(of_array(np.arange(n) - 2.0))


def bool_items(n):
    return [b for b in bools(n)]


@pytest.mark.parametrize("n", [0, 1, 2, 5, 10, 37])
@pytest.mark.parametrize("consumer", [
    loop_sum, loop_squares, loop_order, loop_floats, loop_tuples, loop_empty, loop_break, loop_continue,
    loop_return_inside, loop_stops_early, nested, enumerate_zip, builtins, comprehensions, with_next,
    next_exhausted, next_after_end, arrays, strings, lists_inside, calls, try_inside, generator_argument,
    generator_variable, from_array, bool_items,
])
def test_consumers(consumer, n):
    if consumer is with_next and n < 2:
        with pytest.raises(StopIteration):
            njit(consumer)(n)
        with pytest.raises(StopIteration):
            python_version(consumer)(n)
        return
    check(consumer, n)


@pytest.mark.parametrize("n", [1, 4, 11])
def test_min_max(n):
    check(min_max, n)


def test_min_of_empty_generator():
    with pytest.raises(ValueError):
        njit(min_max)(0)


def loop_raising(n):
    t = 0
    for x in raising(n):
        t += x
    return t


def catch_raising(n):
    t = 0
    try:
        for x in raising(n):
            t += x
    except ValueError:
        t = -t
    return t


def test_exception_in_generator():
    check(loop_raising, 2)
    with pytest.raises(ValueError, match="two"):
        njit(loop_raising)(5)
    for n in (0, 2, 3, 6):
        check(catch_raising, n)


# ---------------------------------------------------------------- Python's side

def test_returned_to_python():
    assert list(squares(6)) == [i * i for i in range(6)]
    assert list(halves(10)) == list(halves.py_func(10))
    assert list(pairs(4)) == list(pairs.py_func(4))
    assert list(words(3)) == ["ab0", "ab01", "ab012"]
    assert list(bools(4)) == [True, False, False, True]
    assert list(nothing(3)) == []
    for got, want in zip(rows(3), rows.py_func(3)):
        np.testing.assert_array_equal(got, want)
    g = count_up(3)
    assert iter(g) is g
    assert next(g) == 0 and next(g) == 1 and next(g) == 2
    with pytest.raises(StopIteration):
        next(g)
    with pytest.raises(StopIteration):
        next(g)
    assert "generator" in repr(squares(1))


def test_python_sees_exception():
    g = raising(5)
    assert next(g) == 0 and next(g) == 1
    with pytest.raises(ValueError, match="two"):
        next(g)
    with pytest.raises(StopIteration):  # a generator that raised is exhausted
        next(g)


def test_returned_from_compiled_function():
    @njit
    def make(n):
        return squares(n)

    assert list(make(5)) == [0, 1, 4, 9, 16]


def test_generator_outlives_the_function_that_made_it():
    # `make` inlines the start of `squares`: the frame points into make's code, which
    # must stay linked while the generator lives (the dispatcher is gone).
    def build():
        @njit
        def make(n):
            return squares(n)

        return make(6)

    g = build()
    gc.collect()
    assert next(g) == 0
    assert list(g) == [1, 4, 9, 16, 25]


# ---------------------------------------------------------------- leaks

def drop_early(n):
    t = 0
    for k in range(n):
        for r in rows(k + 2):
            t += r.sum()
            break
        for s in words(k):
            if len(s) > 3:
                break
        g = with_list(k + 3)
        t += next(g)
    return t


def test_no_leaks():
    check(drop_early, 5)
    f = njit(drop_early)
    f(3)
    before = live()
    for n in range(6):
        f(n)
        njit(loop_raising)(1)
        try:
            njit(loop_raising)(6)
        except ValueError:
            pass
        check(generator_variable, n)
    assert live() == before
    before = live()
    for n in range(5):
        g = rows(n + 2)
        next(g)
        del g  # dropped in Python while suspended
        list(words(n))
        h = with_list(4)
        next(h)
        next(h)
        del h
    assert live() == before


# ---------------------------------------------------------------- refused

def test_refused():
    from mahou.errors import UnsupportedError

    def sends(n):
        x = yield n
        yield x

    def yield_from(n):
        yield from range(n)

    def returns_value(n):
        yield 1
        return 5

    def yield_in_finally(n):
        try:
            yield 1
        finally:
            n += 1

    for f, what in [(sends, "send"), (yield_from, "yield from"), (returns_value, "returning a value"),
                    (yield_in_finally, "finally")]:
        g = njit(f)

        @njit
        def use(n):
            t = 0
            for x in g(n):
                t += x
            return t

        with pytest.raises((UnsupportedError, mahou.errors.TypingError), match=what):
            use(3)


def test_generator_expression_as_value_refused():
    from mahou.errors import UnsupportedError

    def keeps(n):
        g = (x for x in range(n))
        return g

    with pytest.raises(UnsupportedError, match="generator expression"):
        njit(keeps)(3)

    def summed(n):
        return sum(x * x for x in range(n))  # a builtin's argument: fine

    assert njit(summed)(5) == summed(5)


def inner_generator(n):
    def gen(k):  # an inner generator function reading the enclosing variable n
        for i in range(k):
            yield i + n

    t = 0
    for x in gen(4):
        t += x
    return t


@njit
def countdown_recursive(n):
    if n > 0:
        for x in countdown_recursive(n - 1):
            yield x
    yield n


def recursive(n):
    return list(countdown_recursive(n))


@njit
def maybe(n):
    for i in range(n):
        if i % 2:
            yield None
        else:
            yield i


def optional_items(n):
    k = 0
    for x in maybe(n):
        if x is None:
            k += 100
        else:
            k += x
    return k


GENERATORS.extend([countdown_recursive, maybe])


@pytest.mark.parametrize("n", [0, 1, 4, 9])
@pytest.mark.parametrize("consumer", [inner_generator, recursive, optional_items])
def test_more_generators(consumer, n):
    check(consumer, n)
