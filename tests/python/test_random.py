"""The random state of compiled code (Numba's model): np.random and the random module each
draw from one state per thread that every compiled function shares (seeded in one
function, drawn in another: other modules, jitclass methods, parallel functions, cached
and unpickled dispatchers), with NumPy's and CPython's numbers for a seed; other threads
and forked children draw streams of their own; the interpreter's np.random and random
are separate states; np.random in CUDA kernels is refused."""

import os
import pickle
import random
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest

import mahou
from mahou import cuda, njit, prange
from mahou.errors import TypingError, UnsupportedError


@njit
def np_seed(s):
    np.random.seed(s)


@njit
def np_draw():
    return np.random.random()


@njit
def np_draws(n):
    return np.random.random(n)


@njit
def py_seed(s):
    random.seed(s)


@njit
def py_draw():
    return random.random()


def test_the_issue_examples():
    np_seed(1234)
    assert np_draw() == 0.1915194503788923 == np.random.RandomState(1234).random_sample()

    @njit
    def f():
        np.random.seed(125)
        return np.random.rand(), np.random.randint(0, 7)

    assert f() == (0.50672601149957, 2)


@pytest.mark.parametrize("seed", [0, 1, 42, 2**31, 2**32 - 1])
def test_seed_in_one_function_draws_in_another(seed):
    np_seed(seed)
    rs = np.random.RandomState(seed)
    assert np_draw() == rs.random_sample()
    np.testing.assert_array_equal(np_draws(5), rs.random_sample(5))
    py_seed(seed)
    r = random.Random(seed)
    assert py_draw() == r.random()


def test_the_interpreters_states_are_separate():
    np_seed(7)
    np.random.seed(99)  # the interpreter's global RandomState
    random.seed(99)
    want = np.random.RandomState(7).random_sample(3)
    np.testing.assert_array_equal(np_draws(3), want)
    py_seed(7)
    first = py_draw()
    assert first == random.Random(7).random()
    assert random.random() == random.Random(99).random()  # untouched by compiled draws


def test_np_random_and_random_are_separate_states():
    np_seed(3)
    py_seed(3)
    a = np_draw()
    random_draws = [py_draw() for _ in range(5)]
    assert np_draw() == np.random.RandomState(3).random_sample(2)[1] != a
    r = random.Random(3)
    assert random_draws == [r.random() for _ in range(5)]


def test_other_modules_share_the_state(tmp_path, monkeypatch):
    (tmp_path / "rnd_other_module.py").write_text(textwrap.dedent("""
        import numpy as np
        import random
        import mahou

        @mahou.njit
        def draws():
            return np.random.normal(0.0, 1.0, 3), random.random()
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    import rnd_other_module
    np_seed(11)
    py_seed(11)
    normals, r = rnd_other_module.draws()
    np.testing.assert_array_equal(normals, np.random.RandomState(11).normal(0.0, 1.0, 3))
    assert r == random.Random(11).random()


def test_jitclass_methods_share_the_state():
    @mahou.experimental.jitclass([("scale", mahou.float64)])
    class Sampler:
        def __init__(self, scale):
            self.scale = scale

        def draw(self, n):
            return self.scale * np.random.standard_normal(n)

    s = Sampler(2.0)
    np_seed(5)
    np.testing.assert_array_equal(s.draw(4), 2.0 * np.random.RandomState(5).standard_normal(4))


def test_a_parallel_function_draws_from_the_callers_state_outside_prange():
    @njit(parallel=True)
    def f(n):
        first = np.random.random()
        out = np.zeros(n)
        for i in prange(n):
            out[i] = i
        return first, out.sum()

    np_seed(8)
    assert f(100)[0] == np.random.RandomState(8).random_sample()


def test_prange_workers_draw_valid_numbers():
    @njit(parallel=True)
    def f(n):
        out = np.empty(n)
        for i in prange(n):
            out[i] = np.random.random()
        return out

    np_seed(1)
    a = f(20000)
    assert ((a >= 0) & (a < 1)).all() and abs(a.mean() - 0.5) < 0.02
    assert len(np.unique(a)) == a.size


def test_unpickled_and_cached_dispatchers_share_the_state(tmp_path, monkeypatch):
    monkeypatch.setenv("MAHOU_CACHE_DIR", str(tmp_path))
    (tmp_path / "rnd_cached_module.py").write_text(textwrap.dedent("""
        import numpy as np
        import mahou

        @mahou.njit(cache=True)
        def draws(n):
            return np.random.random(n)
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    import rnd_cached_module
    np_seed(21)
    np.testing.assert_array_equal(rnd_cached_module.draws(3), np.random.RandomState(21).random_sample(3))
    again = pickle.loads(pickle.dumps(np_draws))
    np_seed(22)
    np.testing.assert_array_equal(again(4), np.random.RandomState(22).random_sample(4))


def test_a_cached_function_in_a_new_process(tmp_path):
    (tmp_path / "kern.py").write_text(textwrap.dedent("""
        import numpy as np
        import mahou

        @mahou.njit(cache=True)
        def seeded(s):
            np.random.seed(s)
            return np.random.standard_normal(3)
    """))
    script = "import kern, json; print(json.dumps(list(kern.seeded(4))))"
    env = dict(os.environ, MAHOU_CACHE_DIR=str(tmp_path / "cache"))
    outs = [subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True,
                           timeout=120) for _ in range(2)]
    for out in outs:
        assert out.returncode == 0, out.stderr
        assert eval(out.stdout) == list(np.random.RandomState(4).standard_normal(3))


def test_threads_have_streams_of_their_own():
    results = {}

    def work(k):
        if k < 2:
            np_seed(100)  # both seeded alike: the same stream, each from its start
        results[k] = np_draws(4)

    np_seed(100)
    np_draws(50)  # the main thread's position does not affect the others
    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    want = np.random.RandomState(100).random_sample(4)
    np.testing.assert_array_equal(results[0], want)
    np.testing.assert_array_equal(results[1], want)
    assert not np.array_equal(results[2], results[3])  # unseeded threads: entropy


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_child_draws_another_stream():
    np_draw()  # the state exists before the fork
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.write(write, np.asarray(np_draws(4)).tobytes())
        finally:
            os._exit(0)
    os.close(write)
    child = np.frombuffer(os.read(read, 64), dtype=np.float64)
    os.waitpid(pid, 0)
    os.close(read)
    assert child.size == 4
    assert not np.array_equal(child, np_draws(4))


def test_seed_without_a_value_reseeds_from_entropy():
    @njit
    def f():
        np.random.seed()
        random.seed()
        return np.random.random(), random.random()

    assert f() != f()


def test_seeds_outside_numpys_range_raise():
    for bad in (-1, 2**32):
        with pytest.raises(ValueError, match="Seed must be between 0 and 2\\*\\*32 - 1"):
            np_seed(bad)


def test_non_integer_seeds_are_refused():
    @njit
    def f(s):
        np.random.seed(s)

    with pytest.raises(TypingError, match="integer seed"):
        f(1.5)


def test_np_random_in_a_cuda_kernel_is_refused():
    def kernel(a):
        a[0] = np.random.random()

    with pytest.raises((TypingError, UnsupportedError), match="CUDA kernels"):
        cuda.compile_ptx(kernel, "void(float64[:])")

    def kernel2(a):
        a[0] = random.random()

    with pytest.raises((TypingError, UnsupportedError), match="CUDA kernels"):
        cuda.compile_ptx(kernel2, "void(float64[:])")
