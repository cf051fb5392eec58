"""The on-disk cache shared between processes: NUMBA_CACHE_DIR as an alias of
MAHOU_CACHE_DIR, a cache directory made read-only (read, never written), many processes
writing the same entries at once (atomic renames: no torn or temporary files), and
invalidation through a chain of callees in other modules."""

import json
import os
import stat
import subprocess
import sys
import textwrap
import time

import pytest

PROGRAM = """
import json, sys
import numpy as np
import {module}
out = {{}}
for name in {funcs!r}:
    f = getattr({module}, name)
    out[name] = [float(f(np.arange(6.0))), float(f(np.arange(6)))]
    out[name + ".cached"] = [v["cached"] for v in f.stats.values()]
print("RESULT " + json.dumps(out))
"""


def write(path, text):
    path.write_text(textwrap.dedent(text))
    for pyc in path.parent.glob("__pycache__/*.pyc"):
        pyc.unlink()


def environment(tmp_path, **extra):
    env = {k: v for k, v in os.environ.items() if k not in ("MAHOU_CACHE_DIR", "NUMBA_CACHE_DIR")}
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), env.get("PYTHONPATH", "")])
    env.update(extra)
    return env


def start(tmp_path, module="kern", funcs=("f",), **env):
    return subprocess.Popen([sys.executable, "-c", PROGRAM.format(module=module, funcs=list(funcs))],
                            cwd=tmp_path, env=environment(tmp_path, **env), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def finish(proc):
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    return json.loads([ln for ln in out.splitlines() if ln.startswith("RESULT ")][-1][7:])


def run(tmp_path, **kw):
    return finish(start(tmp_path, **kw))


def files_under(root):
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


@pytest.fixture
def chain(tmp_path):
    """kern.f calls mid.g, which calls leaf.h: three modules, all cache=True."""
    write(tmp_path / "leaf.py", """
        import mahou

        @mahou.njit(cache=True)
        def h(x):
            return x + 1.0
    """)
    write(tmp_path / "mid.py", """
        import mahou
        from leaf import h

        @mahou.njit(cache=True)
        def g(x):
            return h(x) * 2.0
    """)
    write(tmp_path / "kern.py", """
        import mahou
        from mid import g

        @mahou.njit(cache=True)
        def f(a):
            s = 0.0
            for v in a:
                s += g(v)
            return s

        @mahou.njit(cache=True)
        def f2(a):
            return a.sum() + g(1.0)

        @mahou.njit(cache=True)
        def f3(a):
            return a.max() - a.min()
    """)
    return tmp_path


def expected_f(h=lambda x: x + 1.0):
    return sum(h(float(v)) * 2.0 for v in range(6))


def test_numba_cache_dir_is_honoured(chain):
    first = run(chain, NUMBA_CACHE_DIR=str(chain / "nc"))
    assert first["f"] == [expected_f()] * 2 and first["f.cached"] == [False, False]
    assert any(p.endswith(".mahou") for p in files_under(chain / "nc"))
    assert run(chain, NUMBA_CACHE_DIR=str(chain / "nc"))["f.cached"] == [True, True]
    # MAHOU_CACHE_DIR wins over NUMBA_CACHE_DIR.
    both = run(chain, NUMBA_CACHE_DIR=str(chain / "nc"), MAHOU_CACHE_DIR=str(chain / "mc"))
    assert both["f.cached"] == [False, False] and (chain / "mc").exists()


def test_read_only_cache_directory_is_read_and_never_written(chain):
    cache = chain / "shared-cache"
    assert run(chain, MAHOU_CACHE_DIR=str(cache))["f.cached"] == [False, False]
    before = files_under(cache)
    modes = []
    for p in [cache, *cache.rglob("*")]:
        modes.append((p, p.stat().st_mode))
        p.chmod(p.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    try:
        again = run(chain, MAHOU_CACHE_DIR=str(cache), funcs=("f", "f3"))
        assert again["f"] == [expected_f()] * 2
        assert again["f.cached"] == [True, True]      # read from the read-only directory
        assert again["f3.cached"] == [False, False]   # compiled, and not written
        assert files_under(cache) == before
    finally:
        for p, mode in modes:
            p.chmod(mode)


def test_many_processes_write_the_same_entries_at_once(chain):
    cache = chain / "cache"
    env = {"MAHOU_CACHE_DIR": str(cache)}
    procs = [start(chain, funcs=("f", "f2", "f3"), **env) for _ in range(6)]
    results = [finish(p) for p in procs]
    for r in results:
        assert r["f"] == [expected_f()] * 2
        assert r["f3"] == [5.0, 5.0]
    entries = [p for p in files_under(cache) if p.endswith(".mahou")]
    # f, f2, f3 for two array dtypes each; g and h for float64 and int64 elements.
    assert len(entries) == 10, entries
    assert not [p for p in files_under(cache) if ".tmp." in p]
    later = run(chain, funcs=("f", "f2", "f3"), **env)
    assert later["f.cached"] == later["f2.cached"] == later["f3.cached"] == [True, True]


def test_a_callee_two_modules_away_invalidates_its_callers(chain):
    env = {"MAHOU_CACHE_DIR": str(chain / "cache")}
    assert run(chain, funcs=("f", "f3"), **env)["f.cached"] == [False, False]
    assert run(chain, funcs=("f", "f3"), **env)["f.cached"] == [True, True]
    time.sleep(0.01)
    write(chain / "leaf.py", """
        import mahou

        @mahou.njit(cache=True)
        def h(x):
            return x - 3.0
    """)
    changed = run(chain, funcs=("f", "f3"), **env)
    assert changed["f"] == [expected_f(lambda x: x - 3.0)] * 2
    assert changed["f.cached"] == [False, False]   # leaf.h changed: mid.g and kern.f too
    assert changed["f3.cached"] == [True, True]    # f3 calls nothing: still valid
    assert run(chain, funcs=("f",), **env)["f.cached"] == [True, True]
