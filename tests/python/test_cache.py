"""The on-disk cache (cache=True): a second process loads the machine code instead of
compiling; edits of the function, of a callee in another module and of captured globals
invalidate it; truncated, corrupted and foreign files are ignored; concurrent writers
leave a valid entry."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

MAIN = """
import json, sys
import numpy as np
import {module}
a = np.arange(5.0)
r = {module}.{func}(a)
st = list({module}.{func}.stats.values())[0]
print(json.dumps({{"result": float(r), "cached": st["cached"]}}))
"""


def write(path, text):
    path.write_text(textwrap.dedent(text))
    # A rewrite within the same second must still look like a change to the importer.
    for cached in path.parent.glob("__pycache__/*.pyc"):
        cached.unlink()


def run(tmp_path, module="kern", func="f", cache_dir="cache", extra_env=None):
    env = dict(os.environ)
    env.pop("MAHOU_CACHE_DIR", None)
    if cache_dir is not None:
        env["MAHOU_CACHE_DIR"] = str(tmp_path / cache_dir)
    env.update(extra_env or {})
    out = subprocess.run([sys.executable, "-c", MAIN.format(module=module, func=func)],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def entries(tmp_path, cache_dir="cache"):
    return sorted((tmp_path / cache_dir).rglob("*.mahou"))


@pytest.fixture
def project(tmp_path):
    """kern.f (cache=True) calls helper.g (another module) and reads the global SCALE."""
    write(tmp_path / "helper.py", """
        import mahou

        @mahou.njit
        def g(x):
            return x + 1.0
    """)
    write(tmp_path / "kern.py", """
        import mahou
        from helper import g

        SCALE = 2.0

        @mahou.njit(cache=True)
        def f(a):
            s = 0.0
            for i in range(a.shape[0]):
                s += g(a[i]) * SCALE
            return s
    """)
    return tmp_path


def test_second_process_loads_from_cache(project):
    first = run(project)
    assert first == {"result": 30.0, "cached": False}
    assert len(entries(project)) == 1
    second = run(project)
    assert second == {"result": 30.0, "cached": True}


def test_default_location_is_pycache_beside_the_source(project):
    run(project, cache_dir=None)
    assert len(list((project / "__pycache__").glob("kern.f.*.mahou"))) == 1
    assert run(project, cache_dir=None)["cached"] is True


def test_cache_false_writes_nothing(tmp_path):
    write(tmp_path / "plain.py", """
        import mahou

        @mahou.njit
        def f(a):
            return a[0] + 1.0
    """)
    assert run(tmp_path, module="plain") == {"result": 1.0, "cached": False}
    assert not (tmp_path / "cache").exists() or not entries(tmp_path)


def test_editing_the_function_recompiles(project):
    run(project)
    text = (project / "kern.py").read_text().replace("* SCALE", "* SCALE + 1.0")
    write(project / "kern.py", text)
    assert run(project) == {"result": 35.0, "cached": False}
    assert run(project) == {"result": 35.0, "cached": True}


def test_editing_a_callee_in_another_module_recompiles(project):
    run(project)
    write(project / "helper.py", """
        import mahou

        @mahou.njit
        def g(x):
            return x + 2.0
    """)
    assert run(project) == {"result": 40.0, "cached": False}
    assert run(project) == {"result": 40.0, "cached": True}


def test_changing_a_captured_global_recompiles(project):
    run(project)
    text = (project / "kern.py").read_text().replace("SCALE = 2.0", "SCALE = 3.0")
    write(project / "kern.py", text)
    assert run(project) == {"result": 45.0, "cached": False}


def test_callee_default_arguments_are_part_of_the_key(tmp_path):
    write(tmp_path / "helper.py", """
        import mahou

        @mahou.njit
        def g(x, y=1.0):
            return x + y
    """)
    write(tmp_path / "kern.py", """
        import mahou
        from helper import g

        @mahou.njit(cache=True)
        def f(a):
            return g(a[1])
    """)
    assert run(tmp_path) == {"result": 2.0, "cached": False}
    assert run(tmp_path) == {"result": 2.0, "cached": True}
    write(tmp_path / "helper.py", (tmp_path / "helper.py").read_text().replace("y=1.0", "y=5.0"))
    assert run(tmp_path) == {"result": 6.0, "cached": False}


@pytest.mark.parametrize("damage", ["truncate", "flip", "foreign", "empty"])
def test_damaged_entries_are_ignored_and_rewritten(project, damage):
    run(project)
    (entry,) = entries(project)
    data = entry.read_bytes()
    if damage == "truncate":
        entry.write_bytes(data[: len(data) // 2])
    elif damage == "flip":
        i = len(data) // 2  # inside the object code: only the checksum can tell
        entry.write_bytes(data[:i] + bytes([data[i] ^ 0x40]) + data[i + 1:])
    elif damage == "foreign":
        entry.write_bytes(b"\x7fELF" + os.urandom(len(data)))
    else:
        entry.write_bytes(b"")
    assert run(project) == {"result": 30.0, "cached": False}
    assert entry.read_bytes() == data  # rewritten (same inputs, same bytes)
    assert run(project) == {"result": 30.0, "cached": True}


def test_concurrent_writers(project):
    env = dict(os.environ, MAHOU_CACHE_DIR=str(project / "cache"))
    procs = [subprocess.Popen([sys.executable, "-c", MAIN.format(module="kern", func="f")],
                              cwd=project, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for _ in range(6)]
    for p in procs:
        out, err = p.communicate(timeout=180)
        assert p.returncode == 0, err
        assert json.loads(out.strip().splitlines()[-1])["result"] == 30.0
    assert len(entries(project)) == 1
    assert not [p for p in (project / "cache").rglob("*") if ".tmp." in p.name]
    assert run(project) == {"result": 30.0, "cached": True}


def test_in_process_same_code_is_shared(tmp_path, monkeypatch):
    """Two dispatchers of the same source get the same content symbol: one copy of code."""
    write(tmp_path / "twice.py", """
        def f(a):
            return a[0] * 2.0
    """)
    monkeypatch.syspath_prepend(str(tmp_path))
    import numpy as np
    import twice

    import mahou
    f1, f2 = mahou.njit(twice.f), mahou.njit(twice.f)
    a = np.ones(3)
    assert f1(a) == f2(a) == 2.0
    s1, s2 = list(f1.stats.values())[0], list(f2.stats.values())[0]
    assert s2["optimize_ms"] == 0.0 and s2["jit_ms"] == 0.0  # found, not compiled again
    assert s1["cached"] is False and s2["cached"] is False


@pytest.mark.parametrize("fault", ["directory", "fifo", "dangling-link", "link-loop", "unreadable"])
def test_non_file_entries_are_ignored(project, fault):
    """Whatever sits where an entry should be (a directory, a FIFO, a broken or looping
    symbolic link, a file the user cannot read) is a cache miss: the function compiles
    and runs, and the process neither raises nor blocks."""
    run(project)
    (entry,) = entries(project)
    entry.unlink()
    if fault == "directory":
        entry.mkdir()
        (entry / "inside").write_text("x")
    elif fault == "fifo":
        os.mkfifo(entry)
    elif fault == "dangling-link":
        entry.symlink_to(project / "nowhere.mahou")
    elif fault == "link-loop":
        entry.symlink_to(entry)
    else:
        entry.write_bytes(b"MAHOUOBJ")
        entry.chmod(0)
    assert run(project) == {"result": 30.0, "cached": False}
    # A directory cannot be replaced by the atomic rename: it stays a miss. Every
    # other fault is replaced by a valid entry, loaded by the next process.
    assert run(project) == {"result": 30.0, "cached": fault != "directory"}


def test_unwritable_cache_locations(tmp_path):
    """__pycache__, the user cache directory and MAHOU_CACHE_DIR that are files: the
    function still compiles and runs (nothing cached)."""
    write(tmp_path / "kern.py", """
        import mahou

        @mahou.njit(cache=True)
        def f(a):
            return a.sum()
    """)
    (tmp_path / "__pycache__").write_text("not a directory")
    (tmp_path / "cachefile").write_text("not a directory either")
    no_home_cache = {"XDG_CACHE_HOME": str(tmp_path / "cachefile")}
    for _ in range(2):
        assert run(tmp_path, cache_dir=None, extra_env=no_home_cache) == {"result": 10.0, "cached": False}
        assert run(tmp_path, cache_dir="cachefile") == {"result": 10.0, "cached": False}
