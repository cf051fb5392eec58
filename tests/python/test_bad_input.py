"""Bad input from Python, swept together: every argument a user can pass (wrong
types, subclasses, huge, deeply nested and self-containing containers, strings with
lone surrogates, unusual arrays) gives a result equal to Python's or a Python
exception (TypeError, a TypingError naming the line, OverflowError), never a crash;
the dispatcher keeps working with good arguments afterwards and returns no stale
result. Also: a cache entry damaged at random places, and a storm of threads making
first calls with different argument types at once."""

import json
import os
import subprocess
import sys
import textwrap
import threading

import array

import numpy as np
import pytest

import mahou
from conftest import assert_same
from mahou.errors import TypingError, UnsupportedError

REFUSALS = (TypeError, ValueError, OverflowError, TypingError, UnsupportedError)


def total(xs):
    t = 0
    for x in xs:
        t += x
    return t


def first(a):
    return a[0]


def text(s):
    return len(s), s.upper(), s + "!", s[::-1], s == s, "\ud800" in s, s.find("a")


class IntSub(int):
    pass


class FloatSub(float):
    pass


class StrSub(str):
    pass


def self_containing():
    xs = []
    xs.append(xs)
    return xs


def nested(depth, leaf=1):
    v = leaf
    for _ in range(depth):
        v = [v]
    return v


def nested_tuple(depth):
    v = 1
    for _ in range(depth):
        v = (v,)
    return v


BAD = [object(), None, 2**70, -2**64, 1j, b"ab", bytearray(b"x"), {1, 2}, frozenset(), (1, "a"), [1, "a"], [],
       [[]], [[1], [2.0]], [1, 2**70], [None], [np.zeros(2), np.zeros((2, 2))], iter([1]), range(3), IntSub(3),
       FloatSub(2.5), StrSub("ab"), np.int8(3), np.float32(2), np.bool_(True), np.array([1, 2], dtype=object),
       np.zeros(3, dtype=[("a", "f8")]), np.zeros(3, ">f8"), np.datetime64("2020"), np.zeros(3, "M8[s]"),
       np.zeros(()), np.zeros([1] * 32), memoryview(b"abc"), memoryview(np.arange(6.0))[::2],
       memoryview(np.arange(6.0).reshape(2, 3)), memoryview(np.zeros(3, ">f8")), array.array("d", [1.5]),
       array.array("u", "ab"), "\ud800", "a\udcff" * 3, "🙂" * 1000,
       self_containing(), nested(300), nested(150), nested_tuple(300), nested_tuple(200), [self_containing()],
       np.frombuffer(b"\x00" + np.arange(3.0).tobytes(), dtype=np.float64, offset=1),
       np.arange(6.0)[::2], np.arange(4.0)[::-1], np.broadcast_to(np.arange(3.0), (2, 3)),
       np.frombuffer(np.arange(3.0).tobytes()), np.arange(3, dtype=np.int8), np.arange(3.0, dtype=np.float32),
       np.arange(3.0), np.ones((2, 2))[:, 0]]


def outcome(fn, *args):
    try:
        return ("value", fn(*args))
    except REFUSALS as e:
        return ("refused", type(e).__name__)


@pytest.mark.parametrize("fn,good,expected", [(total, [1, 2, 3], 6), (first, np.arange(3.0), 0.0),
                                              (text, "abc", text("abc"))], ids=["total", "first", "text"])
def test_any_argument_is_a_result_or_a_python_exception(fn, good, expected):
    f = mahou.njit(fn)
    for v in BAD:
        kind, got = outcome(f, v)
        if kind == "value":
            try:
                want = fn(v)
            except Exception as e:  # compiled code accepted what Python refuses
                pytest.fail(f"{fn.__name__}({type(v).__name__}) returned {got!r}; Python raised {e!r}")
            assert_same(got, want, path=f"{fn.__name__}({type(v).__name__})")
        assert f(good) == expected  # still working, no stale result


class Box:
    def __init__(self, a):
        self.a = a

    def total(self):
        return self.a.sum()


def first_total(xs):
    return xs[0].sum()


def om_total(k):
    with mahou.objmode(y="float64[:]"):
        y = BAD[k]
    return y.sum()


def fits_float64_1d(v):
    return (isinstance(v, np.ndarray) and v.dtype == np.float64 and v.dtype.isnative and v.ndim == 1
            and v.flags.writeable)


def test_any_value_at_a_declared_array_type_is_refused_or_read_by_its_type():
    """Every bad value (and some arrays) given where float64[:] is declared: a jitclass
    field, a typed.List item, an objmode output. A value that is not a writeable native
    float64 1-d array is a TypeError; one that is gives NumPy's sum, never memory read by
    another type."""
    from mahou.experimental import jitclass

    box = jitclass([("a", mahou.float64[:])])(Box)(np.zeros(2))
    om = mahou.njit(om_total)
    summed = mahou.njit(first_total)
    for k, v in enumerate(BAD):
        xs = mahou.typed.List.empty_list(mahou.types.float64[:])
        if fits_float64_1d(v):
            box.a = v
            xs.append(v)
            assert box.total() == summed(xs) == om(k) == v.sum()
            continue
        with pytest.raises(TypeError):
            box.a = v
        with pytest.raises(TypeError):
            xs.append(v)
        with pytest.raises(TypeError):
            om(k)


def test_lists_that_contain_themselves_or_nest_too_deep_are_type_errors():
    f = mahou.njit(first)
    for v in (self_containing(), [self_containing()], nested(300), nested_tuple(300)):
        with pytest.raises(TypeError, match="nested more than 256 levels"):
            f(v)
    assert f(nested(200)) == nested(199)  # deep but within the limit


def test_huge_lists_and_strings():
    big = list(range(10**6))
    assert mahou.njit(total)(big) == sum(big)
    s = "é" * 10**6 + "\U0001F642"
    assert mahou.njit(text)(s) == text(s)


@pytest.mark.parametrize("s", ["\ud800", "a\udcffb", "\udbff\udfff", "x\ud83d", "🙂\ud800🙂", ""])
def test_strings_with_lone_surrogates_round_trip(s):
    assert mahou.njit(text)(s) == text(s)


def test_a_thread_storm_of_first_calls():
    """Threads making the first calls of one dispatcher with different argument types at
    once, and of fresh dispatchers, all get their own correct results."""
    f = mahou.njit(total)
    inputs = [[1, 2, 3], [1.5, 2.5], np.arange(4), np.arange(5.0)[::2], (1, 2), [True, False, True], "abc"]
    errors = []

    def work(k):
        try:
            for j in range(6):
                v = inputs[(k + j) % len(inputs)]
                try:
                    want = total(v)
                except TypeError:
                    want = None
                try:
                    got = f(v)
                except REFUSALS:
                    got = None
                if isinstance(got, (np.floating, np.integer)):
                    got = got.item()
                if got != want:
                    errors.append((k, v, got, want))
                g = mahou.njit(first)
                if g(np.arange(k, k + 3)) != k:
                    errors.append((k, "first"))
        except BaseException as e:  # pragma: no cover - reported below
            errors.append((k, repr(e)))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


CORRUPTION_SWEEP = """
import gc, json, os, random, sys
import numpy as np
import kern
entry = sys.argv[1]
data = open(entry, "rb").read()
rng = random.Random(7)
import importlib
f = importlib.reload(kern).f  # control: the undamaged entry is loaded, not compiled
f(np.arange(5.0))
control = list(f.stats.values())[0]["cached"]
del f
gc.collect()
results = []
for k in range(int(sys.argv[2])):
    form = k % 4
    damaged = bytearray(data)
    if form == 0:  # a few bytes changed anywhere (headers, lengths, code, checksum)
        for _ in range(rng.randint(1, 4)):
            damaged[rng.randrange(len(damaged))] ^= 1 << rng.randrange(8)
    elif form == 1:  # cut short
        damaged = damaged[:rng.randrange(len(damaged))]
    elif form == 2:  # a length field grown huge
        i = rng.randrange(max(1, min(64, len(damaged) - 8)))
        damaged[i:i + 8] = (2**63 - 1).to_bytes(8, "little")
    else:  # random bytes of the same length
        damaged = bytearray(os.urandom(len(damaged)))
    with open(entry, "wb") as fh:
        fh.write(bytes(damaged))
    f = importlib.reload(kern).f
    r = f(np.arange(5.0))
    results.append(float(r))
    del f
    gc.collect()
print(json.dumps([control, results]))
"""


def test_randomly_damaged_cache_entries_are_never_trusted(tmp_path):
    """A valid entry damaged in 40 random ways (bits flipped, cut short, lengths made
    huge, replaced by noise), each loaded by a fresh dispatcher in one process: every
    call compiles or loads a valid entry and returns the right result."""
    (tmp_path / "kern.py").write_text(textwrap.dedent("""
        import mahou

        @mahou.njit(cache=True)
        def f(a):
            s = 0.0
            for i in range(a.shape[0]):
                s += a[i] * 3.0
            return s
    """))
    (tmp_path / "sweep.py").write_text(CORRUPTION_SWEEP)
    env = dict(os.environ, MAHOU_CACHE_DIR=str(tmp_path / "cache"))
    first_run = subprocess.run([sys.executable, "-c", "import kern, numpy as np; print(kern.f(np.arange(5.0)))"],
                               cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert first_run.returncode == 0, first_run.stderr
    (entry,) = sorted((tmp_path / "cache").rglob("*.mahou"))
    out = subprocess.run([sys.executable, "sweep.py", str(entry), "40"], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    control, results = json.loads(out.stdout.strip().splitlines()[-1])
    assert control is True  # the sweep does read the entry from disk
    assert results == [30.0] * 40
