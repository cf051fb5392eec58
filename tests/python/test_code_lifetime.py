"""Compiled code lives as long as something can call it, and no longer: when a
dispatcher is collected its overloads' machine code is unlinked from the JIT (unless
another dispatcher has the identical code or linked code calls it), so programs that
generate functions or notebooks re-running cells do not grow. Results (arrays, views
of global arrays) outlive the code that made them."""

import gc
import os
import sys
import threading

import numpy as np
import pytest

import mahou
import mahou._core as core


def linked():
    gc.collect()
    return core.linked_code_objects()


def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


class Generator:
    """Functions with distinct code, each from source in a file of its own directory."""

    def __init__(self, tmp_path, template="def f(x):\n    return x * {i} + 1\n"):
        self.dir = tmp_path
        self.template = template
        self.count = 0

    def make(self, **options):
        import linecache

        i = self.count
        self.count += 1
        src = self.template.format(i=i)
        path = str(self.dir / f"gen{i % 20}.py")
        code = compile(src, path, "exec")
        with open(path, "w") as fh:
            fh.write(src)
        linecache.cache.pop(path, None)
        ns = {"np": np}
        exec(code, ns)
        return mahou.njit(**options)(ns["f"]), i


def test_dropped_dispatchers_unlink_their_code(tmp_path):
    gen = Generator(tmp_path)
    base = linked()
    for _ in range(100):
        f, i = gen.make()
        assert f(2) == 2 * i + 1
        assert f(2.5) == 2.5 * i + 1  # a second overload, a second object
        del f
    assert linked() == base


def test_memory_is_flat_over_many_dispatchers(tmp_path):
    """600 dispatchers with distinct code created, called and dropped: the process does
    not grow (it grew by about 10 KB per dispatcher when code was never freed). `make
    leaks` runs 10,000."""
    gen = Generator(tmp_path)
    for _ in range(100):  # warm up: allocator pools, interned names
        f, i = gen.make()
        f(1)
    del f
    gc.collect()
    start = rss()
    for _ in range(600):
        f, i = gen.make()
        assert f(3) == 3 * i + 1
        del f
    gc.collect()
    grown = rss() - start
    assert grown < 1_500_000, f"RSS grew by {grown} bytes over 600 dispatchers"


def test_identical_code_is_shared_until_the_last_dispatcher_goes(tmp_path):
    (tmp_path / "same_code.py").write_text("def f(x):\n    return x - 7\n")
    sys.path.insert(0, str(tmp_path))
    try:
        import same_code
    finally:
        sys.path.remove(str(tmp_path))
    base = linked()
    a, b = mahou.njit(same_code.f), mahou.njit(same_code.f)
    assert a(10) == b(10) == 3
    assert linked() == base + 1
    del a
    assert linked() == base + 1
    assert b(1) == -6
    del b
    assert linked() == base


def test_callees_live_while_their_callers_do(tmp_path):
    (tmp_path / "caller_callee.py").write_text(
        "import mahou\n\n"
        "@mahou.njit\ndef f(x):\n    return x * 2\n\n"
        "@mahou.njit\ndef g(x):\n    return f(x) + 1\n")
    sys.path.insert(0, str(tmp_path))
    try:
        import caller_callee as m
    finally:
        sys.path.remove(str(tmp_path))
    base = linked()
    g = m.g
    assert g(5) == 11
    assert linked() == base + 2
    del m.f, m.g  # the module no longer holds them; g's code still calls f's
    sys.modules.pop("caller_callee")
    del m
    assert linked() == base + 2
    assert g(6) == 13
    del g
    assert linked() == base


def test_dispatchers_in_reference_cycles_are_freed(tmp_path):
    gen = Generator(tmp_path)
    base = linked()
    for _ in range(20):
        f, i = gen.make()
        f.myself = f  # a cycle through the dispatcher's __dict__
        assert f(1) == i + 1
        del f
    assert linked() == base


GLOBAL = np.arange(1000.0)


def test_results_outlive_the_code(tmp_path):
    gen = Generator(tmp_path, "def f(n):\n    a = np.arange(n) * {i}\n    return a, a[1:]\n")
    f, i = gen.make()
    whole, view = f(1000)
    del f
    gc.collect()
    junk = [np.full(1000, 7.0) for _ in range(50)]
    np.testing.assert_array_equal(whole, np.arange(1000) * i)
    np.testing.assert_array_equal(view, (np.arange(1000) * i)[1:])
    del junk

    def global_view(k):
        return GLOBAL[k:]

    g = mahou.njit(global_view)
    r = g(3)
    del g
    gc.collect()
    junk = [np.full(1000, 7.0) for _ in range(50)]
    np.testing.assert_array_equal(r, GLOBAL[3:])


def test_cached_code_links_again_after_it_was_freed(tmp_path, monkeypatch):
    monkeypatch.setenv("MAHOU_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "cached_fn.py").write_text("def f(x):\n    return x * x + 0.5\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import cached_fn

    base = linked()
    for round_ in range(3):
        f = mahou.njit(cache=True)(cached_fn.f)
        assert f(3.0) == 9.5
        assert list(f.stats.values())[0]["cached"] == (round_ > 0)
        del f
        assert linked() == base


def test_threads_creating_calling_and_dropping_dispatchers(tmp_path):
    gen = Generator(tmp_path)
    lock = threading.Lock()
    errors = []
    base = linked()

    def work():
        try:
            for _ in range(25):
                with lock:  # file writes of the generator
                    f, i = gen.make(nogil=True)
                for x in range(5):
                    assert f(x) == x * i + 1
                del f
        except BaseException as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert linked() == base
