"""Recursion whose argument types grow at every level has no fixed point: the
compiler refuses the call with a TypingError naming its line, within a second and a
bounded amount of memory, and the process keeps working. Each program runs in a
subprocess with its address space limited, so that a regression cannot take the
test runner down."""

import json
import os
import resource
import subprocess
import sys
import textwrap
import time

import pytest

from conftest import njit

PROGRAMS = {
    # each level doubles the argument's type: int64, UniTuple(int64, 2), ...
    "doubling": ("""
        @njit
        def f(x, n):
            if n == 0:
                return 0
            return f((x, x), n - 1)
        """, "f(1, 3)", "return f((x, x), n - 1)", "more than 10000 parts"),
    # each level nests the argument one tuple deeper
    "deepening": ("""
        @njit
        def f(x, n):
            if n == 0:
                return 0
            return f((x,), n - 1)
        """, "f(1, 3)", "return f((x,), n - 1)", "100 calls deep"),
    # each level makes the tuple one longer
    "lengthening": ("""
        @njit
        def f(t, n):
            if n == 0:
                return len(t)
            return f(t + (1,), n - 1)
        """, "f((1,), 3)", "return f(t + (1,), n - 1)", "100 calls deep"),
    # two functions calling each other, the types growing on the way
    "mutual": ("""
        @njit
        def ping(x, n):
            if n == 0:
                return 0
            return pong((x, 1), n - 1)

        @njit
        def pong(x, n):
            if n == 0:
                return 0
            return ping((x, 2.0), n - 1)
        """, "ping(1, 3)", "return ping((x, 2.0), n - 1)", "100 calls deep"),
    # an inner function recursing on itself
    "inner": ("""
        @njit
        def f(x, n):
            def g(y, k):
                if k == 0:
                    return 0
                return g((y, y), k - 1)
            return g(x, n)
        """, "f(1, 3)", "return g((y, y), k - 1)", "more than 10000 parts"),
}

DRIVER = """
import json, time
from mahou import njit
from mahou.errors import TypingError
{source}

@njit
def after(a, b):
    return a * b + 1

t0 = time.time()
try:
    {call}
    outcome = "no error"
except TypingError as e:
    outcome = str(e)
print(json.dumps({{"error": outcome, "seconds": time.time() - t0, "after": after(6, 7)}}))
"""


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (3_000_000_000, 3_000_000_000))


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_growing_argument_types_are_refused(tmp_path, name):
    source, call, line, why = PROGRAMS[name]
    path = tmp_path / f"growth_{name}.py"
    path.write_text(DRIVER.format(source=textwrap.dedent(source), call=call))
    out = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=120,
                         preexec_fn=limit_memory)
    assert out.returncode == 0, out.stderr[-2000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])
    message = result["error"]
    assert why in message, message
    assert line in message, message  # the source line of the call, with a caret
    assert f"{path}:" in message
    assert result["after"] == 43  # the process keeps compiling and running
    assert result["seconds"] < 30


@njit
def count(t):
    if len(t) == 0:
        return 0
    return 1 + count(t[1:])


@njit
def halve(x, n):
    if n == 0:
        return x
    return halve(x * 0.5, n - 1)


def test_recursion_whose_types_settle_still_compiles():
    """Recursions whose argument types change a bounded number of times are fine:
    41 signatures of count (tuples of 40 down to 0 items), int64 then float64."""
    assert count(tuple(range(40))) == 40
    assert count((1, 2.5, (3, 4))) == 3
    assert halve(3, 4) == 3 * 0.5**4


def test_long_chains_of_distinct_functions_compile(tmp_path, monkeypatch):
    """60 functions, each calling the next: 60 nested compilations, under the limit."""
    lines = ["from mahou import njit", "", "@njit", "def f0(x):", "    return x + 1"]
    for i in range(1, 61):
        lines += ["", "@njit", f"def f{i}(x):", f"    return f{i - 1}(x * 2) - {i}"]
    (tmp_path / "chain60.py").write_text("\n".join(lines) + "\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import chain60

    def expected(i, x):
        return x + 1 if i == 0 else expected(i - 1, x * 2) - i

    assert chain60.f60(1) == expected(60, 1)
