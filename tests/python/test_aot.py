"""Ahead-of-time modules (python -m mahou.aot): a module built from a Python file
imports in a fresh process where mahou cannot be imported and LLVM is not loaded,
gives the Python functions' results, raises their exceptions, refuses arguments of
other types with TypeError, and a signature that does not type names the function."""

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from conftest import assert_same

SOURCE = '''
import math
import numpy as np
from mahou import njit

OFFSETS = np.array([0.5, -1.0, 2.0])

@njit
def weight(x):
    return math.sqrt(abs(x)) + OFFSETS[1]

@njit
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)

def total(a):                      # plain Python: compiled for the export
    s = 0.0
    for v in a:
        s += weight(v)
    return s + fib(6)

@njit
def scaled(a, k):
    return a * k                   # a new array made in compiled code

@njit
def extremes(a):
    return a.min(), a.max(), a.mean()

@njit
def tail(a):
    return a[1:]                   # a view of the argument

@njit
def floordiv(a, b):
    return a // b

@njit(nogil=True)
def count_positive(a):
    n = 0
    for v in a.flat:
        if v > 0:
            n += 1
    return n

@njit
def to_complex(x):
    return x * 2

@njit(fastmath=True)
def sines(a):                      # vectorised through libmvec where there is one
    s = 0.0
    for i in range(a.shape[0]):
        s += math.sin(a[i]) * math.exp(a[i])
    return s
'''

EXPORTS = [
    "total:float64(float64[::1])",
    "scaled:(float64[:], float64)",
    "extremes:(int32[:],)",
    "tail:(float64[::1],)",
    "floordiv:int64(int64, int64)",
    "count_positive:(float32[:, :],)",
    "fib:(int64,)",
    "double_as_complex=to_complex:complex128(float64)",
    "sines:float64(float64[::1])",
]

CHILD = '''
import base64, pickle, sys
class NoMahou:
    def find_spec(self, name, path=None, target=None):
        if name == "mahou" or name.startswith("mahou."):
            raise ImportError("mahou is not importable here")
sys.meta_path.insert(0, NoMahou())
import numpy as np
import fastmod
out = {}
def capture(key, f, *args):
    try:
        out[key] = ("ok", f(*args))
    except Exception as exc:
        out[key] = (type(exc).__name__, str(exc))
a = np.array([1.0, -4.0, 9.0, 0.25])
capture("total", fastmod.total, a)
capture("total_empty", fastmod.total, np.array([]))
capture("total_view", fastmod.total, a[::2])
capture("total_list", fastmod.total, [1.0])
capture("scaled", fastmod.scaled, a[::-1], -2.0)
capture("scaled_int_k", fastmod.scaled, a, 3)
capture("extremes", fastmod.extremes, np.array([5, -3, 7, 0], dtype=np.int32))
capture("extremes_wrong_dtype", fastmod.extremes, np.array([5, -3], dtype=np.int64))
t = fastmod.tail(a)
out["tail_base"] = t.base is a
capture("tail", fastmod.tail, a)
capture("floordiv", fastmod.floordiv, -7, 2)
capture("floordiv_zero", fastmod.floordiv, 1, 0)
capture("floordiv_float", fastmod.floordiv, 1.5, 2)
capture("floordiv_arity", fastmod.floordiv, 1)
capture("count", fastmod.count_positive, np.array([[1, -2], [3, 0]], dtype=np.float32).T)
capture("fib", fastmod.fib, 25)
capture("complex", fastmod.double_as_complex, 1.25)
capture("sines", fastmod.sines, np.linspace(-3.0, 3.0, 1001))
out["mahou_loaded"] = "mahou" in sys.modules
out["llvm_loaded"] = any("LLVM" in line for line in open("/proc/self/maps"))
out["doc"] = fastmod.fib.__doc__
print("RESULT " + base64.b64encode(pickle.dumps(out)).decode())
'''


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    d = tmp_path_factory.mktemp("aot")
    (d / "kernels.py").write_text(textwrap.dedent(SOURCE))
    args = [sys.executable, "-m", "mahou.aot", str(d / "kernels.py"), "-o", str(d / "fastmod")]
    for e in EXPORTS:
        args += ["--export", e]
    proc = subprocess.run(args, capture_output=True, text=True, timeout=300, cwd=d)
    assert proc.returncode == 0, proc.stderr
    return d


def run_child(d):
    import base64
    import pickle
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(d)
    proc = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True,
                          timeout=120, cwd=d, env=env)
    assert proc.returncode == 0, proc.stderr
    line = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")][-1]
    return pickle.loads(base64.b64decode(line[7:]))


def python_versions(d):
    sys.path.insert(0, str(d))
    try:
        import kernels
    finally:
        sys.path.remove(str(d))
    return kernels


def test_module_runs_without_mahou(built):
    out = run_child(built)
    assert out["mahou_loaded"] is False and out["llvm_loaded"] is False
    k = python_versions(built)
    py = {"total": k.total, "scaled": k.scaled.py_func, "extremes": k.extremes.py_func,
          "tail": k.tail.py_func, "floordiv": k.floordiv.py_func,
          "count": k.count_positive.py_func, "fib": k.fib.py_func}
    a = np.array([1.0, -4.0, 9.0, 0.25])
    expected = {
        "total": py["total"](a), "total_empty": py["total"](np.array([])),
        "scaled": py["scaled"](a[::-1], -2.0), "scaled_int_k": py["scaled"](a, 3),
        "extremes": py["extremes"](np.array([5, -3, 7, 0], dtype=np.int32)),
        "tail": py["tail"](a), "floordiv": py["floordiv"](-7, 2),
        "count": py["count"](np.array([[1, -2], [3, 0]], dtype=np.float32).T),
        "fib": py["fib"](25), "complex": complex(2.5, 0),
    }
    for key, value in expected.items():
        status, got = out[key]
        assert status == "ok", (key, got)
        if key == "extremes":
            assert got[0] == value[0] and got[1] == value[1] and got[2] == value[2]
        else:
            assert_same(got, value, path=key)
    status, got = out["sines"]
    assert status == "ok", got
    x = np.linspace(-3.0, 3.0, 1001)
    assert abs(got - float(np.sum(np.sin(x) * np.exp(x)))) < 1e-12 * float(np.sum(np.abs(np.sin(x) * np.exp(x))))
    assert out["tail_base"] is True  # a view keeps the argument alive as its base
    assert out["floordiv_zero"][0] == "ZeroDivisionError"
    for key in ("total_view", "total_list", "extremes_wrong_dtype", "floordiv_float", "floordiv_arity"):
        assert out[key][0] == "TypeError", (key, out[key])
    assert "writeable array(float64, 1d, C)" in out["total_view"][1]
    assert "fib" in out["doc"]


def test_signature_that_does_not_type_names_function_and_signature(tmp_path):
    (tmp_path / "bad.py").write_text(textwrap.dedent('''
        from mahou import njit

        @njit
        def f(a):
            return a.shape[0] + 1
    '''))
    proc = subprocess.run([sys.executable, "-m", "mahou.aot", str(tmp_path / "bad.py"),
                           "--export", "f:(float64,)", "-o", str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    assert "cannot export f with signature '(float64,)'" in proc.stderr
    assert "bad.py:6" in proc.stderr  # the compiler's diagnostic with the line
    assert not list(tmp_path.glob("out*"))


@pytest.mark.parametrize("export, message", [
    ("g:(float64,)", "has no such function"),
    ("f float64", "invalid export"),
    ("f:int32(float64[:])", "declared return type int32 does not match"),
])
def test_bad_exports_are_clear_errors(tmp_path, export, message):
    (tmp_path / "m.py").write_text("from mahou import njit\n\n@njit\ndef f(a):\n    return a.copy()\n")
    proc = subprocess.run([sys.executable, "-m", "mahou.aot", str(tmp_path / "m.py"),
                           "--export", export], capture_output=True, text=True, timeout=120,
                          cwd=tmp_path)
    assert proc.returncode == 1 and message in proc.stderr, proc.stderr
