"""mahou.config (Numba's numba.config switches) and functions whose source is not in a
file: python -c, exec() of registered source, notebooks (linecache), and the error
where Python kept no source."""

import linecache
import os
import subprocess
import sys

import numpy as np
import pytest

import mahou
from mahou import njit
from mahou.errors import UnsupportedError


def run(code, **env):
    full = dict(os.environ)
    full.update(env)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, env=full)


@pytest.fixture
def config_value():
    """Sets mahou.config attributes for one test and restores them."""
    saved = {}

    def set_(name, value):
        saved.setdefault(name, getattr(mahou.config, name))
        setattr(mahou.config, name, value)

    yield set_
    for name, value in saved.items():
        setattr(mahou.config, name, value)


def add_one(a):
    for i in range(a.shape[0]):
        a[i] += 1
    return a.sum()


def test_disable_jit_returns_the_python_function(config_value):
    config_value("DISABLE_JIT", True)
    for decorate in (njit, njit(), njit(cache=True), njit("float64(float64[:])"),
                     njit(["float64(float64[:])"]), mahou.jit(nopython=True)):
        f = decorate(add_one)
        assert f is add_one
    # a function that mahou cannot compile still runs: it is plain Python
    g = njit(lambda x: [x, str(x)])
    assert g(3) == [3, "3"]


def test_disable_jit_same_results_as_compiled(config_value):
    a = np.arange(5.0)
    compiled = njit(add_one)(a.copy())
    config_value("DISABLE_JIT", True)
    assert njit(add_one)(a.copy()) == compiled


@pytest.mark.parametrize("var", ["NUMBA_DISABLE_JIT", "MAHOU_DISABLE_JIT"])
def test_disable_jit_environment(var):
    code = ("import mahou\n"
            "@mahou.njit\n"
            "def f(x):\n"
            "    return [x]\n"
            "assert mahou.config.DISABLE_JIT\n"
            "assert f(2) == [2] and not hasattr(f, 'py_func')\n"
            "print('OK')\n")
    out = run(code, **{var: "1"})
    assert out.returncode == 0 and "OK" in out.stdout, out.stderr


def test_mahou_variable_wins_over_numba():
    out = run("import mahou; print(mahou.config.DISABLE_JIT)", MAHOU_DISABLE_JIT="0",
              NUMBA_DISABLE_JIT="1")
    assert out.stdout.strip() == "False", out.stderr


def test_num_threads_and_defaults():
    out = run("import mahou; c = mahou.config; print(c.NUMBA_NUM_THREADS, c.NUMBA_DEFAULT_NUM_THREADS)",
              NUMBA_NUM_THREADS="3")
    n, default = out.stdout.split()
    assert n == "3" and int(default) == len(os.sched_getaffinity(0)), out.stderr


def out_of_range(a, i):
    return a[i]


def test_boundscheck_switch(config_value):
    a = np.arange(3.0)
    config_value("BOUNDSCHECK", True)
    f = njit(out_of_range)  # the per-function option is False: the switch wins
    with pytest.raises(IndexError):
        f(a, 5)
    assert f(a, 2) == 2.0


def test_boundscheck_environment():
    code = ("import numpy as np, mahou\n"
            "@mahou.njit(boundscheck=True)\n"
            "def f(a, i):\n"
            "    return a[i]\n"
            "print(mahou.config.BOUNDSCHECK, f.targetoptions['boundscheck'])\n")
    out = run(code, NUMBA_BOUNDSCHECK="0")
    assert out.stdout.split() == ["False", "False"], out.stderr


def test_cache_dir(tmp_path):
    src = tmp_path / "prog.py"
    src.write_text("import mahou\n"
                   "@mahou.njit(cache=True)\n"
                   "def f(x):\n"
                   "    return x * 3\n"
                   "print(f(2))\n")
    cache = tmp_path / "cache"
    full = dict(os.environ)
    full.pop("MAHOU_CACHE_DIR", None)
    full["NUMBA_CACHE_DIR"] = str(cache)
    out = subprocess.run([sys.executable, str(src)], capture_output=True, text=True, env=full,
                         timeout=120)
    assert out.stdout.strip() == "6", out.stderr
    assert any(p.suffix == ".mahou" for p in cache.rglob("*")), list(cache.rglob("*"))
    assert not (tmp_path / "__pycache__").exists() or not any(
        p.suffix == ".mahou" for p in (tmp_path / "__pycache__").iterdir())


def test_cache_dir_set_at_run_time(tmp_path, config_value):
    config_value("CACHE_DIR", str(tmp_path))
    assert os.environ["MAHOU_CACHE_DIR"] == str(tmp_path)


def test_dump_ir_prints_each_new_overload():
    code = ("import mahou\n"
            "@mahou.njit\n"
            "def f(x):\n"
            "    return x + 1\n"
            "f(1); f(1); f(2.5)\n")
    out = run(code, NUMBA_DUMP_IR="1")
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("---- types of f") == 2, out.stdout
    assert "binary.add" in out.stdout
    out = run(code, MAHOU_DUMP_ASSEMBLY="1")
    assert out.stdout.count("---- asm of f") == 2 and "ret" in out.stdout, out.stdout


# ---------------------------------------------------------------- sources


def test_python_dash_c():
    code = ("import mahou\n"
            "@mahou.njit\n"
            "def f(x):\n"
            "    s = 0\n"
            "    for i in range(x):\n"
            "        s += i\n"
            "    return s\n"
            "print(f(10))\n")
    out = run(code)
    assert out.returncode == 0 and out.stdout.strip() == "45", out.stderr


def test_python_dash_c_nested_and_called():
    code = ("import mahou\n"
            "def outer():\n"
            "    @mahou.njit\n"
            "    def g(x):\n"
            "        return x * 2\n"
            "    return g\n"
            "h = mahou.njit(lambda y: y + 1)\n"
            "print(outer()(4), h(1))\n")
    out = run(code)
    assert out.returncode == 0 and out.stdout.split() == ["8", "2"], out.stderr


def test_exec_of_an_unregistered_string_says_what_to_do():
    ns = {}
    exec("def f(x):\n    return x + 1\n", ns)
    with pytest.raises(UnsupportedError) as info:
        njit(ns["f"])
    msg = str(info.value)
    assert "source code is not available" in msg and "linecache.cache" in msg


def test_exec_does_not_pick_up_the_dash_c_text():
    # Under python -c, an exec()'d function named differently from the -c text's
    # definitions at that line is refused, not compiled from the wrong text.
    code = ("import mahou\n"
            "ns = {}\n"
            "exec('def other(x):\\n    return x + 1\\n', ns)\n"
            "try:\n"
            "    mahou.njit(ns['other'])\n"
            "except mahou.errors.UnsupportedError as e:\n"
            "    print('refused')\n")
    out = run(code)
    assert out.stdout.strip() == "refused", out.stdout + out.stderr


def test_stdin_source_is_refused_with_a_clear_error():
    code = ("import mahou\n"
            "try:\n"
            "    @mahou.njit\n"
            "    def f(x):\n"
            "        return x\n"
            "except mahou.errors.UnsupportedError as e:\n"
            "    print('standard input' in str(e))\n")
    out = subprocess.run([sys.executable, "-"], input=code, capture_output=True, text=True,
                         timeout=120)
    assert out.stdout.strip() == "True", out.stdout + out.stderr


def test_notebook_cell_in_linecache():
    # Jupyter's kernel compiles each cell under a file name that does not exist on disk
    # and keeps the text in linecache, as here.
    name = "/tmp/ipykernel_0000/1234567.py"
    src = ("import numpy as np\n"
           "def cell_fn(a):\n"
           "    t = 0.0\n"
           "    for x in a:\n"
           "        t += x * x\n"
           "    return t\n")
    linecache.cache[name] = (len(src), None, src.splitlines(True), name)
    try:
        ns = {"__name__": "__main__"}
        exec(compile(src, name, "exec"), ns)
        f = njit(ns["cell_fn"])
        a = np.arange(4.0)
        assert f(a) == ns["cell_fn"](a) == 14.0
    finally:
        linecache.cache.pop(name, None)


def test_ipython_style_cell_name():
    name = "<ipython-input-7-0123456789ab>"
    src = "def cell(x, y=2):\n    return x ** y\n"
    linecache.cache[name] = (len(src), None, src.splitlines(True), name)
    try:
        ns = {}
        exec(compile(src, name, "exec"), ns)
        assert njit(ns["cell"])(3) == 9
    finally:
        linecache.cache.pop(name, None)


SCALE = 3


def test_lambdas_compiled_on_their_own():
    f, g = njit(lambda x: x * SCALE), njit(lambda x, y=2: x - y)
    assert (f(2), g(10), g(10, 7)) == (6, 8, 3)
    k = 5
    h = njit(lambda a: (a +
                        k).sum())
    assert h(np.arange(3.0)) == 18.0
    mk = lambda c: njit(lambda x: x + c)  # noqa: E731
    assert mk(1)(1) == 2 and mk(10)(1) == 11


def test_lambda_errors_name_the_line():
    from mahou.errors import TypingError
    f = njit(lambda x: x + "a")  # the line of this lambda
    with pytest.raises(TypingError) as info:
        f(1)
    import inspect
    assert f"{__file__}:{inspect.currentframe().f_lineno - 4}" in str(info.value)
