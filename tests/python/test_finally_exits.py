"""break and continue leaving a try statement with `finally` (from its body, an except
clause or its else clause, through nested finally blocks): the finally block runs on the
way out, as Python; compiled and run by CPython on the same inputs."""

import pytest

from mahou import njit
from mahou.errors import UnsupportedError

from conftest import same_as_python as same


def break_continue(n):
    s = 0
    for i in range(n):
        try:
            if i == 2: continue
            if i == 5: break
            s += i
        finally:
            s += 100
    return s
def nested(n):
    log = []
    for i in range(n):
        try:
            try:
                if i == 1: continue
                if i == 3: break
                log.append(i)
            finally:
                log.append(-1)
        finally:
            log.append(-2)
    return log
def with_except_else(n):
    log = []
    for i in range(n):
        try:
            if i == 1:
                raise ValueError("x")
            if i == 2: continue
            if i == 4: break
            log.append(i)
        except ValueError:
            log.append(10)
            continue
        else:
            log.append(20)
        finally:
            log.append(-1)
        log.append(99)
    else:
        log.append(1000)
    return log
def inner_loop(n):
    log = []
    for i in range(n):
        try:
            for j in range(3):
                if j == 1: break
                log.append(j)
            if i == 2: break
        finally:
            log.append(-1)
    return log
def while_true(n):
    i = 0
    while True:
        try:
            i += 1
            if i >= n: break
        finally:
            i += 0
    return i
def raises_through(n):
    t = 0
    for i in range(n):
        try:
            if i == 2:
                raise KeyError("k")
            continue
        finally:
            t += 1
    return t
def break_in_handler(n):
    log = []
    for i in range(n):
        try:
            try:
                if i == 1: raise ValueError("v")
            except ValueError:
                break
            finally:
                log.append(-1)
        finally:
            log.append(-2)
    return log


def in_else_clause(n):
    log = []
    for i in range(n):
        try:
            log.append(i)
        except KeyError:
            log.append(-5)
        else:
            if i % 2:
                continue
            if i > 3:
                break
        finally:
            log.append(-1)
        log.append(7)
    return log


def nested_loops_outer_break(n):
    total = 0
    for i in range(n):
        for j in range(n):
            try:
                if j > i:
                    break  # leaves the inner loop only
                total += j
            finally:
                total += 100
        try:
            if i == 3:
                break
        finally:
            total += 1000
    return total


FUNCS = [break_continue, nested, with_except_else, inner_loop, while_true, raises_through, break_in_handler,
         in_else_clause, nested_loops_outer_break]


@pytest.mark.parametrize("f", FUNCS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("n", [0, 1, 2, 3, 5, 8])
def test_finally_runs_on_break_and_continue(f, n):
    same(f, n)


def test_return_inside_finally_try_is_still_refused():
    def f(n):
        for i in range(n):
            try:
                return i
            finally:
                pass
        return -1
    with pytest.raises(UnsupportedError, match="return"):
        njit(f)(3)
