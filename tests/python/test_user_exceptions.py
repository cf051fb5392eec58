"""User-defined exception classes in compiled code: `class E(Exception)` (and subclasses
of ValueError, KeyError, other user classes, builtins outside the runtime's table),
raised bare, with a constant message, or with run-time arguments; the Python caller
gets an instance of exactly that class with Python's args (and what its __init__
stored). `except` clauses in compiled code match them by the class hierarchy: the
class itself, a user base, a builtin base, Exception, a bare except."""

import gc
import json
import os
import subprocess
import sys
import textwrap

import pytest

import mahou._core
from conftest import jitted
from mahou import njit, objmode


class PlainError(Exception):
    pass


class BadValue(ValueError):
    pass


class WorseValue(BadValue):
    pass


class MissingKey(KeyError):
    pass


class Stored(Exception):
    def __init__(self, code):
        super().__init__(code)
        self.code = code


class StoresOnly(Exception):
    def __init__(self, some_arg):
        self._some_arg = some_arg


class NotFound(FileNotFoundError):
    pass


def raise_bare():
    raise PlainError


def raise_message():
    raise PlainError("plain message")


def raise_values(x, s):
    raise BadValue("bad", x, s, x * 2.5)


def raise_sub(x):
    if x > 0:
        raise WorseValue(x)
    return x


def raise_stored(x):
    raise Stored(x + 1)


def raise_stores_only(x):
    raise StoresOnly(x)


def raise_not_found(name):
    raise NotFound(name)


def raise_key(k):
    raise MissingKey(k)


def outcome(fn, *args):
    """(class, args, vars) of what fn raises, or ("ok", result)."""
    try:
        return ("ok", fn(*args))
    except Exception as e:
        return (type(e), e.args, {k: v for k, v in vars(e).items()})


CASES = [
    (raise_bare, ()),
    (raise_message, ()),
    (raise_values, (3, "s")),
    (raise_values, (-1, "")),
    (raise_sub, (4,)),
    (raise_sub, (-4,)),
    (raise_stored, (41,)),
    (raise_stores_only, (123,)),
    (raise_not_found, ("file.txt",)),
    (raise_key, ("k",)),
]


@pytest.mark.parametrize("fn,args", CASES, ids=[f"{f.__name__}{a}" for f, a in CASES])
def test_raised_to_python(fn, args):
    assert outcome(jitted(fn), *args) == outcome(fn, *args)


def catch_own(x):
    try:
        if x > 0:
            raise WorseValue(x)
    except WorseValue:
        return 1
    return 0


def catch_user_base(x):
    try:
        if x > 0:
            raise WorseValue(x)
    except BadValue:
        return 2
    return 0


def catch_builtin_base(x):
    try:
        if x > 0:
            raise WorseValue(x)
        raise MissingKey("k")
    except ValueError:
        return 3
    except LookupError:
        return 4
    return 0


def catch_exception(x):
    try:
        if x > 0:
            raise StoresOnly(x)
    except Exception:
        return "caught"
    return "none"


def catch_bare(x):
    try:
        if x > 0:
            raise PlainError("x")
    except:  # noqa: E722
        return -1
    return x


def not_caught(x):
    try:
        raise WorseValue(x)
    except KeyError:
        return 5
    except PlainError:
        return 6
    return 0


def catch_tuple(x):
    try:
        if x == 1:
            raise PlainError
        if x == 2:
            raise MissingKey(x)
        raise BadValue(x)
    except (PlainError, MissingKey):
        return 7
    except BadValue:
        return 8


def reraise(x):
    try:
        raise WorseValue(x, "again")
    except BadValue:
        raise


@pytest.mark.parametrize("fn", [catch_own, catch_user_base, catch_builtin_base, catch_exception, catch_bare,
                                not_caught, catch_tuple, reraise])
@pytest.mark.parametrize("x", [-1, 1, 2, 3])
def test_caught_in_compiled_code(fn, x):
    assert outcome(jitted(fn), x) == outcome(fn, x)


def test_class_defined_again():
    # a second class of the same module and name: the newest one is raised
    class Local(Exception):
        pass

    first = Local

    def f():
        raise Local("one")

    with pytest.raises(first):
        njit(f)()

    class Local(Exception):  # noqa: F811
        pass

    def g():
        raise Local("two")

    with pytest.raises(Local) as e:
        njit(g)()
    assert e.value.args == ("two",)


def test_no_leaks():
    fns = [(catch_builtin_base, 1), (reraise, 2), (raise_values, 1, "abc")]
    for _ in range(2):
        for fn, *args in fns:
            outcome(jitted(fn), *args)
    gc.collect()
    start = mahou._core.live_allocations()
    for _ in range(50):
        for fn, *args in fns:
            outcome(jitted(fn), *args)
    gc.collect()
    assert mahou._core.live_allocations() == start


CACHED_MODULE = """
from mahou import njit, objmode

class AppError(ValueError):
    pass

@njit
def check_positive(x):
    if x < 0:
        raise AppError("negative", x)
    return x * 2

@njit(cache=True)
def caller(x):  # the callee's raise is compiled into this function
    return check_positive(x) + 1

@njit(cache=True)
def catches(x):
    try:
        check_positive(x)
    except ValueError:
        return -1
    return 1

@njit(cache=True)
def direct(x):  # names the class itself: not written to the cache
    if x < 0:
        raise AppError(x)
    return x
"""

CACHED_MAIN = """
import json, cachedexc
out = []
for f in (cachedexc.caller, cachedexc.direct):
    try:
        f(-3)
    except Exception as e:
        out.append([type(e).__name__, list(e.args), type(e) is cachedexc.AppError])
out.append([cachedexc.catches(-3), cachedexc.catches(3), cachedexc.caller(4)])
out.append([f.stats[next(iter(f.stats))]["cached"] for f in (cachedexc.caller, cachedexc.catches, cachedexc.direct)])
print(json.dumps(out))
"""


def test_cache_in_a_fresh_process(tmp_path):
    (tmp_path / "cachedexc.py").write_text(textwrap.dedent(CACHED_MODULE))
    env = dict(os.environ, MAHOU_CACHE_DIR=str(tmp_path / "cache"))
    results = []
    for _ in range(2):
        p = subprocess.run([sys.executable, "-c", CACHED_MAIN], cwd=tmp_path, env=env, capture_output=True,
                           text=True, timeout=120)
        assert p.returncode == 0, p.stderr
        results.append(p.stdout.strip().splitlines()[-1])
    first, second = (json.loads(r) for r in results)
    expected = [["AppError", ["negative", -3], True], ["AppError", [-3], True], [-1, 1, 9]]
    assert first[:3] == expected and second[:3] == expected
    assert first[3] == [False, False, False]
    assert second[3] == [True, True, False]  # loaded from the cache in the second process


def interpreted_raise(x):
    if x > 0:
        raise WorseValue("from the interpreter", x)
    return x


def objmode_caught(x):
    try:
        with objmode(y="int64"):
            y = interpreted_raise(x)
    except BadValue:
        return -1
    return y


def objmode_passes_through(x):
    try:
        with objmode(y="int64"):
            y = interpreted_raise(x)
    except KeyError:
        return -2
    return y


@pytest.mark.parametrize("x", [-3, 3])
def test_raised_in_an_objmode_block(x):
    # an exception of a user class raised by the interpreter is matched by its bases
    assert jitted(objmode_caught)(x) == (-1 if x > 0 else x)
    assert outcome(jitted(objmode_passes_through), x) == (
        (WorseValue, ("from the interpreter", 3), {}) if x > 0 else ("ok", x))
