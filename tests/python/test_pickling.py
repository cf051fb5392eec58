"""Pickling of @njit dispatchers (mahou.serialize): by reference when importable, by
value otherwise (closures, __main__, modules registered with cloudpickle), with the
overloads' machine code shipped: a fresh process links it instead of compiling, gets
the same results as the Python function, compiles new types itself, recompiles code
made for another CPU/LLVM, and reports corrupted payloads as UnpicklingError."""

import base64
import json
import math
import os
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from conftest import assert_same

import mahou
from mahou import _core, njit, serialize

MAHOU_DIR = os.path.dirname(os.path.dirname(os.path.abspath(mahou.__file__)))

CHILD = """
import base64, json, pickle, sys
import numpy as np
obj = pickle.loads(sys.stdin.buffer.read())
out = {{}}

def run_all(f, inputs):
    return base64.b64encode(pickle.dumps([f(*args) for args in inputs])).decode()

def stats_of(f):
    return {{str(k): {{"shipped": v["shipped"], "cached": v["cached"]}} for k, v in f.stats.items()}}

{snippet}
print("RESULT " + json.dumps(out))
"""


def in_child(data, snippet, path=(), env=None, cwd=None):
    """Unpickles `data` as `obj` in a fresh interpreter, runs `snippet` there and returns
    the dict it leaves in `out`."""
    environ = dict(os.environ)
    environ["PYTHONPATH"] = os.pathsep.join([*map(str, path), MAHOU_DIR])
    environ.update(env or {})
    proc = subprocess.run([sys.executable, "-c", CHILD.format(snippet=textwrap.dedent(snippet))],
                          input=data, capture_output=True, env=environ, timeout=180,
                          cwd=cwd or os.path.dirname(MAHOU_DIR))
    assert proc.returncode == 0, proc.stderr.decode()
    line = [ln for ln in proc.stdout.decode().splitlines() if ln.startswith("RESULT ")][-1]
    return json.loads(line[len("RESULT "):])


def results(out, key="results"):
    return pickle.loads(base64.b64decode(out[key]))


def shipped_flags(disp):
    return {str(k): v["shipped"] for k, v in disp.stats.items()}


def compare(py_func, inputs, got):
    for args, value in zip(inputs, got):
        assert_same(value, py_func(*args))


def write_module(tmp_path, name, text):
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(text))


# Arguments as source text, evaluated here and in the child: negative values, an empty
# array and a non-contiguous view.
ARRAYS_TEXT = ("[(np.array([1.5, -2.0, 3.25, 0.0]),), (np.array([], dtype=np.float64),),"
               " (np.arange(-6.0, 7.0)[::3],), (np.linspace(-1, 1, 11),)]")
ARRAYS = eval(ARRAYS_TEXT)


# ------------------------------------------------------------------ by reference

def test_by_reference_ships_machine_code(tmp_path, monkeypatch):
    write_module(tmp_path, "pk_ref", """
        import math
        import mahou

        SCALE = 3

        @mahou.njit
        def g(x):
            return x * SCALE

        @mahou.njit
        def f(a):
            s = 0.0
            for i in range(a.shape[0]):
                s += g(a[i]) - math.floor(a[i])
            return s
    """)
    monkeypatch.syspath_prepend(str(tmp_path))
    import pk_ref
    for args in ARRAYS:
        pk_ref.f(*args)
    data = pickle.dumps(pk_ref.f)
    assert b"pk_ref" in data and b"def f" not in data  # by reference: no source
    out = in_child(data, """
        import pk_ref
        assert obj is pk_ref.f
        out["results"] = run_all(obj, ARRAYS)
        out["f"] = stats_of(obj)
        out["g"] = stats_of(pk_ref.g)
    """.replace("ARRAYS", ARRAYS_TEXT), path=[tmp_path])
    compare(pk_ref.f.py_func, ARRAYS, results(out))
    # Two array layouts (C and A) were compiled here: both arrive as machine code, and
    # so does the callee they need.
    assert len(out["f"]) == 2 and all(v["shipped"] for v in out["f"].values()), out
    assert all(v["shipped"] for v in out["g"].values()), out


def test_by_reference_without_compiled_code_compiles_there(tmp_path, monkeypatch):
    write_module(tmp_path, "pk_fresh", """
        import mahou

        @mahou.njit
        def f(x, y):
            return x // y + x % y
    """)
    monkeypatch.syspath_prepend(str(tmp_path))
    import pk_fresh
    out = in_child(pickle.dumps(pk_fresh.f), """
        out["results"] = run_all(obj, [(7, 2), (-7, 2), (7, -2), (0, 5)])
        out["f"] = stats_of(obj)
    """, path=[tmp_path])
    compare(pk_fresh.f.py_func, [(7, 2), (-7, 2), (7, -2), (0, 5)], results(out))
    assert [v["shipped"] for v in out["f"].values()] == [False]


# ------------------------------------------------------------------ by value

def test_closure_pickles_by_value_with_its_globals_and_code():
    offset = -1.5
    table = np.array([2.0, -3.0, 0.5])

    @njit
    def weight(x):
        return x * table[1] + offset

    @njit
    def total(a):
        s = 0.0
        for v in a:
            s += weight(v) + math.sqrt(abs(v))
        return s

    for args in ARRAYS:
        total(*args)
    data = pickle.dumps(total)
    assert serialize.reference_of(total) is None
    out = in_child(data, """
        inputs = ARRAYS
        out["results"] = run_all(obj, inputs)
        out["stats"] = stats_of(obj)
        out["qualname"] = obj.__qualname__
        out["py"] = run_all(obj.py_func, inputs)
    """.replace("ARRAYS", ARRAYS_TEXT), cwd="/")
    inputs = ARRAYS
    compare(total.py_func, inputs, results(out))
    compare(total.py_func, inputs, results(out, "py"))  # the Python function works there too
    assert out["qualname"] == total.__qualname__
    assert list(out["stats"].values()) == [{"shipped": True, "cached": False}] * 2


def test_new_argument_types_compile_in_the_receiver():
    @njit
    def poly(x):
        return 3 * x * x - 2 * x + 1

    poly(2)
    out = in_child(pickle.dumps(poly), """
        out["results"] = run_all(obj, [(2,), (-5,), (2.5,), (np.float32(-1.5),), (True,)])
        out["stats"] = stats_of(obj)
    """)
    compare(poly.py_func, [(2,), (-5,), (2.5,), (np.float32(-1.5),), (True,)], results(out))
    shipped = {k: v["shipped"] for k, v in out["stats"].items()}
    assert shipped.pop("(int64,)") is True
    assert shipped and not any(shipped.values())


def test_recursion_defaults_and_inner_functions_by_value():
    @njit
    def fib(n):
        if n < 2:
            return n
        return fib(n - 1) + fib(n - 2)

    @njit
    def scaled(x, factor=2.0, bias=-1):
        def inner(v):
            return v * factor
        return inner(x) + bias + fib(10)

    inputs = [(3.0,), (-1.25, 0.5), (0.0, 1.0, 7)]
    for args in inputs:
        scaled(*args)
    out = in_child(pickle.dumps(scaled), """
        out["results"] = run_all(obj, [(3.0,), (-1.25, 0.5), (0.0, 1.0, 7)])
        out["stats"] = stats_of(obj)
        code, cells = obj.py_func.__code__, obj.py_func.__closure__
        fib = dict(zip(code.co_freevars, cells))["fib"].cell_contents  # a closure variable
        out["fib"] = stats_of(fib)
        out["fib20"] = fib(20)
    """)
    compare(scaled.py_func, inputs, results(out))
    assert all(v["shipped"] for v in out["stats"].values()), out
    assert all(v["shipped"] for v in out["fib"].values()), out
    assert out["fib20"] == 6765


def test_eager_signatures_stay_eager():
    @njit(["float64(float64)", "int64(int64)"])
    def half(x):
        return x // 2

    out = in_child(pickle.dumps(half), """
        out["sigs"] = [str(s) for s in obj.nopython_signatures]
        out["can_compile"] = obj._can_compile
        out["results"] = run_all(obj, [(7,), (-7,), (7.5,), (np.int32(9),)])
        out["stats"] = stats_of(obj)
        try:
            obj(1j)
            out["complex"] = "accepted"
        except TypeError as exc:
            out["complex"] = str(exc)
    """)
    assert out["sigs"] == [str(s) for s in half.nopython_signatures]
    assert out["can_compile"] is False
    compare(half, [(7,), (-7,), (7.5,), (np.int32(9),)], results(out))
    assert all(v["shipped"] for v in out["stats"].values())
    assert "No matching definition" in out["complex"]


def test_main_module_functions_pickle_by_value(tmp_path):
    script = tmp_path / "script.py"
    script.write_text(textwrap.dedent("""
        import pickle, sys
        import numpy as np
        from mahou import njit

        LIMIT = 4

        @njit
        def clipped_sum(a):
            s = 0
            for v in a:
                s += min(v, LIMIT)
            return s

        clipped_sum(np.arange(10))
        with open(sys.argv[1], "wb") as fh:
            pickle.dump(clipped_sum, fh)
    """))
    target = tmp_path / "f.pkl"
    subprocess.run([sys.executable, str(script), str(target)], check=True, timeout=120,
                   env=dict(os.environ, PYTHONPATH=MAHOU_DIR))
    out = in_child(target.read_bytes(), """
        out["value"] = int(obj(np.arange(10)))
        out["neg"] = int(obj(np.arange(-5, 3)))
        out["stats"] = stats_of(obj)
        out["module"] = obj.__module__
    """)
    assert out["value"] == sum(min(v, 4) for v in range(10))
    assert out["neg"] == sum(min(v, 4) for v in range(-5, 3))
    assert out["module"] == "__main__"
    assert list(out["stats"].values())[0]["shipped"] is True


def test_cloudpickle_register_pickle_by_value(tmp_path, monkeypatch):
    cloudpickle = pytest.importorskip("cloudpickle")
    write_module(tmp_path, "pk_byvalue", """
        import mahou

        BASE = 10

        @mahou.njit
        def f(x):
            return x + BASE
    """)
    monkeypatch.syspath_prepend(str(tmp_path))
    import pk_byvalue
    pk_byvalue.f(1)
    cloudpickle.register_pickle_by_value(pk_byvalue)
    try:
        data = cloudpickle.dumps(pk_byvalue.f)
    finally:
        cloudpickle.unregister_pickle_by_value(pk_byvalue)
    # The receiver cannot import pk_byvalue: the function, its globals and its code travel.
    out = in_child(data, """
        out["value"] = obj(5)
        out["stats"] = stats_of(obj)
    """)
    assert out["value"] == 15
    assert list(out["stats"].values())[0]["shipped"] is True


def test_cloudpickle_of_closures_and_plain_functions_in_globals():
    cloudpickle = pytest.importorskip("cloudpickle")

    def plain_helper(n):  # a Python function: cloudpickle carries it by value
        return n * 2

    @njit
    def f(x):
        return x - 1

    f(3)
    data = cloudpickle.dumps((f, plain_helper))
    out = in_child(data, """
        f, helper = obj
        out["value"] = f(helper(4))
        out["stats"] = stats_of(f)
    """)
    assert out["value"] == 7
    assert list(out["stats"].values())[0]["shipped"] is True


# ------------------------------------------------------------------ machine code checks

def _foreign(code):
    """The same machine code keyed for another LLVM (what another machine would send)."""
    assert b"|LLVM 19" in code
    return code.replace(b"|LLVM 19", b"|LLVM 18", 1)


def test_code_for_another_cpu_or_llvm_is_never_linked():
    @njit
    def f(x):
        return x * 2 + 1

    f(1)
    g = njit(f.py_func)
    assert g._import_code(_foreign(f._export_code())) == 0
    assert g.signatures == []
    assert g(20) == 41 and shipped_flags(g) == {"(int64,)": False}
    h = njit(f.py_func)
    assert h._import_code(f._export_code()) == 1
    assert shipped_flags(h) == {"(int64,)": True}


def test_unpickling_foreign_code_recompiles(monkeypatch):
    @njit
    def f(a):
        return a.sum() * 2.0

    f(np.ones(3))
    real_export = _core.Dispatcher._export_code
    monkeypatch.setattr(_core.Dispatcher, "_export_code", lambda self: _foreign(real_export(self)))
    data = pickle.dumps(f)
    monkeypatch.undo()
    out = in_child(data, """
        out["value"] = float(obj(np.arange(4.0)))
        out["stats"] = stats_of(obj)
    """)
    assert out["value"] == 12.0
    assert list(out["stats"].values()) == [{"shipped": False, "cached": False}]


def test_corrupted_payloads_raise_and_never_crash():
    @njit
    def f(a, k):
        return a[0] * k

    f(np.ones(2), 3)
    data = pickle.dumps(f)
    # Every 7th byte flipped, one at a time, plus truncations, in one child: each load
    # either fails with an exception or gives a working function; the child never dies.
    out = in_child(data, """
        import pickle
        data = pickle.dumps(obj)
        kinds = {}
        for i in list(range(0, len(data), 7)) + [-1]:
            bad = bytearray(data)
            if i >= 0:
                bad[i] ^= 0x5A
                bad = bytes(bad)
            else:
                bad = data[: len(data) // 2]
            try:
                g = pickle.loads(bad)
                g(np.ones(2), 3)
                kind = "loaded"
            except pickle.UnpicklingError as exc:
                kind = "UnpicklingError: corrupted" if "corrupted" in str(exc) else "UnpicklingError"
            except Exception as exc:
                kind = type(exc).__name__
            kinds[kind] = kinds.get(kind, 0) + 1
        out["kinds"] = kinds
    """)
    kinds = out["kinds"]
    assert kinds.get("UnpicklingError: corrupted", 0) > len(data) // 14, kinds


def test_malformed_machine_code_is_a_clear_error():
    @njit
    def f(x):
        return x + 1

    f(1)
    code = f._export_code()
    g = njit(f.py_func)
    for bad in (b"", b"MAHOUSHP", code[:-3], code + b"x", b"garbage" * 10):
        with pytest.raises(ValueError, match="corrupted"):
            g._import_code(bad)
    with pytest.raises(TypeError):
        g._import_code("not bytes")
    assert g(1) == 2


def test_other_python_versions_are_refused_by_name():
    sealed = serialize.seal({"x": 1})
    assert serialize.unseal(sealed) == {"x": 1}
    tag = sys.implementation.cache_tag.encode()
    body = bytes([len(b"cpython-399")]) + b"cpython-399" + sealed[41 + 1 + len(tag):]
    import hashlib
    other = sealed[:9] + hashlib.sha256(body).digest() + body
    with pytest.raises(pickle.UnpicklingError, match="cpython-399.*" + sys.implementation.cache_tag):
        serialize.unseal(other)
    with pytest.raises(pickle.UnpicklingError, match="not a mahou payload"):
        serialize.unseal(b"nonsense")


# ------------------------------------------------------------------ the registry

class _Box:
    def __init__(self, v):
        self.v = v


def _rebuild_box(v):
    return _Box(v * 10)


def test_registry_plugs_into_pickle():
    serialize.register(_Box, lambda b: (_rebuild_box, (b.v,)))
    try:
        assert pickle.loads(pickle.dumps(_Box(4))).v == 40
        assert _Box in serialize.registered()
    finally:
        import copyreg
        copyreg.dispatch_table.pop(_Box, None)
        serialize._REDUCERS.pop(_Box, None)


def test_round_trip_in_the_same_process():
    @njit
    def f(x):
        return x + 1

    f(1)
    g = pickle.loads(pickle.dumps(f))
    assert g is not f and g(2) == 3 and shipped_flags(g) == {"(int64,)": True}
    assert pickle.loads(pickle.dumps(mahou.njit)) is mahou.njit


# ------------------------------------------------------------------ CUDA kernels

def test_cuda_kernels_pickle_by_value_and_run_on_the_emulator():
    from mahou import cuda

    bias = 0.5

    @cuda.jit(device=True)
    def scaled(v, k):
        return v * k + bias

    @cuda.jit
    def apply(out, a, k):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = scaled(a[i], k)

    @cuda.jit("void(float64[:], float64)")
    def fill(out, v):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = v

    out = in_child(pickle.dumps((apply, fill)), """
        from mahou import cuda
        apply, fill = obj
        a = np.array([1.0, -2.0, 3.5, 0.0])
        res = np.zeros_like(a)
        apply[1, 32](res, a, 2.0)
        out["apply"] = res.tolist()
        fill[1, 32](res, 7.0)
        out["fill"] = res.tolist()
        out["fill_can_compile"] = fill._can_compile
        out["fill_sigs"] = [str(s) for s in fill.signatures]
    """, env={"MAHOU_ENABLE_CUDASIM": "1"})
    assert out["apply"] == [2.5, -3.5, 7.5, 0.5]
    assert out["fill"] == [7.0] * 4
    assert out["fill_can_compile"] is False and len(out["fill_sigs"]) == 1


def test_typed_containers_pickle_by_value():
    from mahou.typed import Dict, List

    ints = List([1, 2, 3])
    arrays = List([np.arange(3.0), np.ones(3)])
    scores = Dict()
    scores["a"] = 1.5
    nested = Dict()
    nested[7] = List([1.0, 2.0])
    empty = List.empty_list(mahou.types.float32)
    for original in (ints, arrays, scores, nested, empty, List(), Dict()):
        copy = pickle.loads(pickle.dumps(original))
        assert type(copy) is type(original)
        if isinstance(original, List):
            assert copy.item_type == original.item_type
            assert len(copy) == len(original)
            for a, b in zip(copy, original):
                np.testing.assert_array_equal(a, b)
        else:
            assert (copy.key_type, copy.value_type) == (original.key_type, original.value_type)
            assert list(copy.keys()) == list(original.keys())
    copied = pickle.loads(pickle.dumps(nested))
    copied[7].append(3.0)  # the copy is its own object
    assert len(nested[7]) == 2 and len(copied[7]) == 3

    @njit
    def total(xs):
        s = 0.0
        for x in xs:
            s += x
        return s

    assert total(pickle.loads(pickle.dumps(List([1.5, 2.5])))) == 4.0
