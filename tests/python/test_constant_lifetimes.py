"""Constants compiled into code (frozen global arrays, bytes and string literals, globals)
outlive the code: a value pointing at one escapes the function (typed.List, typed.Dict,
jitclass instance, tuple, generator), every reference to the dispatcher is dropped, other
code is compiled and freed, and the escaped value still reads what CPython computes. Each
case runs in a subprocess, so a crash is a test failure, not a dead test run."""

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import mahou

# Shared by the subprocess script and the expected values computed here.
PRELUDE = '''
import gc
import numpy as np
import mahou
from mahou import typed, types
from mahou.experimental import jitclass

F64 = np.linspace(-2.5, 7.0, 11)
I32 = np.arange(-6, 6, dtype=np.int32).reshape(3, 4)
C128 = np.array([1 + 2j, -3.5j, 0j, 4.0])
BOOL = np.array([True, False, True, True])
EMPTY = np.zeros(0)
FORTRAN = np.asfortranarray(np.arange(12, dtype=np.int32).reshape(3, 4))
BYTES = b"global\\x00bytes"
TEXT = "global text \\u00e9\\u4e2d"

def churn():
    """Compile and free other functions, so freed code memory is reused."""
    for k in range(12):
        def make():
            def h(x):
                return x * 2.5 + 1.0
            return mahou.njit(h)
        h = make()
        h(float(k))
        del h
        gc.collect()
'''

CASES = {
    "list_of_views": '''
def f():
    out = typed.List()
    out.append(F64[::-3])
    out.append(F64)
    out.append(F64[2:7])
    out.append(EMPTY)
    return out
def show(r):
    return [a.tolist() for a in r]
''',
    "list_of_2d": '''
def f():
    out = typed.List()
    out.append(I32[:, 1:3])
    out.append(I32)
    out.append(I32.T)
    out.append(FORTRAN[1:, ::2])
    return out
def show(r):
    return [a.tolist() for a in r]
''',
    "dict_values": '''
def f():
    d = typed.Dict()
    d[2] = C128[::2]
    d[0] = C128
    d[1] = C128[1:]
    return d
def show(r):
    return {k: v.tolist() for k, v in r.items()}
''',
    "dict_bool_values": '''
def f():
    d = typed.Dict()
    d[-1] = BOOL[::-1]
    d[5] = BOOL
    return d
def show(r):
    return {k: v.tolist() for k, v in r.items()}
''',
    "jitclass_field": '''
@jitclass([("a", types.Array(types.float64, 1, "A", readonly=True)), ("n", types.int64)])
class Holder:
    def __init__(self, a, n):
        self.a = a
        self.n = n
def f():
    return Holder(F64[1::2], 3)
def show(r):
    return r.a.tolist(), r.n
''',
    "tuple_and_views": '''
def f():
    return F64, F64[3:], I32[1], FORTRAN
def show(r):
    return [a.tolist() for a in r]
''',
    "generator_of_views": '''
def f():
    for i in range(3):
        yield I32[i, ::2]
def show(r):
    return [a.tolist() for a in r]
''',
    "bytes_in_containers": '''
def f():
    d = typed.Dict()
    d[b"literal key"] = 1
    d[BYTES] = 2
    out = typed.List()
    out.append(BYTES)
    out.append(b"another literal")
    return d, out
def show(r):
    return sorted(bytes(k) for k in r[0].keys()), [bytes(b) for b in r[1]]
''',
    "strings_in_containers": '''
def f():
    d = typed.Dict()
    d["literal key \\u00e9"] = TEXT
    d[TEXT] = "literal value"
    out = typed.List()
    out.append("literal item")
    out.append(TEXT)
    return d, out, ("tuple literal", TEXT)
def show(r):
    return dict(r[0]), list(r[1]), r[2]
''',
}


def expected(name):
    """What CPython computes for the case (typed containers built in the interpreter)."""
    ns = {}
    exec(PRELUDE, ns)
    if name == "jitclass_field":
        return [ns["F64"][1::2].tolist(), 3]
    exec(textwrap.dedent(CASES[name]), ns)
    r = ns["f"]()
    if name == "generator_of_views":
        r = list(r)
    return ns["show"](r)


SCRIPT = '''
import json, sys
{prelude}
{case}
jf = mahou.njit(f)
r = jf()
if hasattr(r, "__next__"):
    first = next(r)
    rest = list(r)
    r = [first] + rest
del jf, f
gc.collect()
churn()
gc.collect()
print(json.dumps(show(r), default=str))
'''


def run_case(tmp_path, name):
    src = SCRIPT.format(prelude=PRELUDE, case=textwrap.dedent(CASES[name]))
    path = tmp_path / f"{name}.py"
    path.write_text(src)
    proc = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"rc={proc.returncode}\n{proc.stdout}\n{proc.stderr[-3000:]}"
    return proc.stdout.strip().splitlines()[-1]


@pytest.mark.parametrize("name", sorted(CASES))
def test_escaped_constant_outlives_its_code(tmp_path, name):
    import json
    got = json.loads(run_case(tmp_path, name))
    want = json.loads(json.dumps(expected(name), default=str))
    assert got == want


# ---------------------------------------------------------------- frozen at compile time

MUTATED = np.array([1.0, -2.0, 3.5, 0.0])


def mutated_sum():
    return MUTATED.sum()


def mutated_view():
    return MUTATED[1:]


def mutated_in_list():
    out = mahou.typed.List()
    out.append(MUTATED[::2])
    return out


def test_later_changes_to_a_global_are_not_seen():
    # Numba's rule: the value is frozen when the function is compiled. The compiled
    # copy belongs to the runtime, so the user's array and the code never share memory.
    original = MUTATED.copy()
    total, view, held = mahou.njit(mutated_sum), mahou.njit(mutated_view), mahou.njit(mutated_in_list)
    try:
        assert total() == original.sum()
        first_view, first_list = view(), held()
        assert not np.shares_memory(first_view, MUTATED)
        MUTATED[:] = [10.0, 20.0, 30.0, 40.0]
        for _ in range(3):  # the same frozen answer on every call
            assert total() == original.sum()
            np.testing.assert_array_equal(view(), original[1:])
            np.testing.assert_array_equal(held()[0], original[::2])
        np.testing.assert_array_equal(first_view, original[1:])
        np.testing.assert_array_equal(first_list[0], original[::2])
        # A function compiled after the change freezes the new value; the old one keeps its own.
        assert mahou.njit(mutated_sum)() == 100.0
        np.testing.assert_array_equal(mahou.njit(mutated_view)(), [20.0, 30.0, 40.0])
        assert total() == original.sum()
    finally:
        MUTATED[:] = original


def test_a_returned_global_is_read_only_as_in_numba():
    # Numba returns a read-only array over the constant; so does mahou (the runtime's copy),
    # so no caller can change what later calls read.
    got = mahou.njit(mutated_view)()
    assert not got.flags.writeable
    with pytest.raises(ValueError):
        got[0] = 99.0
    np.testing.assert_array_equal(mahou.njit(mutated_view)(), MUTATED[1:])


SAME_CONTENT_A = np.array([1, 2, 3], dtype=np.int64)
SAME_CONTENT_B = np.array([1, 2, 3], dtype=np.int64)
SAME_BYTES_OTHER_DTYPE = np.frombuffer(SAME_CONTENT_A.tobytes(), dtype=np.float64)


def read_three():
    return SAME_CONTENT_A.sum() + SAME_CONTENT_B[::-1][0], SAME_BYTES_OTHER_DTYPE[2] == SAME_BYTES_OTHER_DTYPE[2]


def test_equal_contents_share_one_copy_and_keep_their_dtypes():
    jf = mahou.njit(read_three)
    assert jf() == read_three()
    for dt in (np.int8, np.uint16, np.float32, np.complex64, np.bool_):
        arr = np.arange(6).astype(dt)

        def reader():
            return arr[::-1].copy()

        np.testing.assert_array_equal(mahou.njit(reader)(), reader())
