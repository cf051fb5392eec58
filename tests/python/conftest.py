"""Shared helpers for mahou's differential tests.

`check(fn, *args)` compiles `fn` with mahou.njit, runs the compiled function and the
plain Python function on independent copies of the arguments, and compares the
results and the in-place effects on array arguments.

The helpers are imported by the test modules with `from conftest import ...`
(pytest puts this directory on sys.path because tests/python has no __init__.py).
"""

import inspect
import math
import os
import re
import sys

import numpy as np
import pytest

# ---------------------------------------------------------------------------
# Import mahou: an installed/PYTHONPATH copy wins; otherwise the in-tree package.
# ---------------------------------------------------------------------------
try:
    import mahou  # noqa: F401

    mahou.njit  # an empty namespace package (python/mahou before the build) has no njit
except (ImportError, AttributeError):
    sys.modules.pop("mahou", None)
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))
    import mahou  # noqa: F401

from mahou import njit  # noqa: E402

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1

INT_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
SIGNED_DTYPES = [np.int8, np.int16, np.int32, np.int64]
FLOAT_DTYPES = [np.float32, np.float64]
COMPLEX_DTYPES = [np.complex64, np.complex128]
ALL_DTYPES = [np.bool_] + INT_DTYPES + FLOAT_DTYPES + COMPLEX_DTYPES


def wrap64(v):
    """Python int -> the int64 two's-complement value with the same low 64 bits."""
    v &= (1 << 64) - 1
    return v - (1 << 64) if v >= (1 << 63) else v


# ---------------------------------------------------------------------------
# Copies that keep the memory layout (C, Fortran, or arbitrary strides).
# ---------------------------------------------------------------------------
def clone_array(a):
    """A copy of `a` with the same dtype, shape and *layout*: C and Fortran arrays stay
    C/Fortran, a strided view (a[::2], a.T, a[::-1], a[:, 1]) stays a strided view of a
    fresh buffer with the same strides, so the compiled code sees the same layout."""
    if a.size == 0 or a.ndim == 0:
        return a.copy()
    if a.flags.c_contiguous:
        return a.copy(order="C")
    if a.flags.f_contiguous:
        return a.copy(order="F")
    item = a.itemsize
    assert all(s % item == 0 for s in a.strides), "strides must be multiples of itemsize"
    lo = sum(s * (n - 1) for s, n in zip(a.strides, a.shape) if s < 0)
    hi = sum(s * (n - 1) for s, n in zip(a.strides, a.shape) if s > 0)
    nelem = (hi - lo) // item + 1
    buf = np.zeros(nelem, dtype=a.dtype)
    start = buf[(-lo) // item:]
    out = np.lib.stride_tricks.as_strided(start, shape=a.shape, strides=a.strides, writeable=True)
    out[...] = a
    assert out.strides == a.strides
    return out


def clone(x):
    if isinstance(x, np.ndarray):
        return clone_array(x)
    if isinstance(x, tuple):
        return tuple(clone(e) for e in x)
    if isinstance(x, list):
        return [clone(e) for e in x]
    if isinstance(x, (set, dict)):
        return type(x)(x) if isinstance(x, set) else {k: clone(v) for k, v in x.items()}
    return x


def _arrays_in(x):
    if isinstance(x, np.ndarray):
        yield x
    elif isinstance(x, (tuple, list)):
        for e in x:
            yield from _arrays_in(e)


def _lists_in(x):
    if isinstance(x, list):
        yield x
    elif isinstance(x, tuple):
        for e in x:
            yield from _lists_in(e)


# ---------------------------------------------------------------------------
# Comparison of results
# ---------------------------------------------------------------------------
def _is_bool(x):
    return isinstance(x, (bool, np.bool_))


def _is_int(x):
    return isinstance(x, (int, np.integer)) and not _is_bool(x)


def _is_float(x):
    return isinstance(x, (float, np.floating))


def _is_complex(x):
    return isinstance(x, (complex, np.complexfloating))


def _float_eq(g, e, rtol):
    g = float(g)
    e = float(e)
    if math.isnan(e):
        return math.isnan(g)
    if rtol is None or math.isinf(e):
        return g == e
    return math.isclose(g, e, rel_tol=rtol, abs_tol=0.0) or g == e


def assert_same(got, expected, rtol=None, wrap=True, path="result"):
    """Compare a compiled result with the Python result.

    - ints: the compiled value must be an int (or np.integer), never bool/float;
      a Python-int expected value is wrapped to int64 first (wrap=True).
    - bools: must be bool or np.bool_.
    - floats: float/np.floating; exact (rtol=None) or relative tolerance; NaN == NaN.
    - complex: complex/np.complexfloating, real and imaginary parts as floats.
    - tuples: same length, element by element.
    - arrays: ndarray with the same dtype and shape, equal elements (NaN == NaN).
    - datetime64 / timedelta64: the same unit and count (NaT == NaT).
    """
    if isinstance(expected, np.ndarray):
        assert isinstance(got, np.ndarray), f"{path}: expected ndarray, got {type(got)}"
        assert got.dtype == expected.dtype, f"{path}: dtype {got.dtype} != {expected.dtype}"
        assert got.shape == expected.shape, f"{path}: shape {got.shape} != {expected.shape}"
        if expected.dtype.kind in "mM":  # datetime64 / timedelta64: the counts (NaT is INT64_MIN) in the unit
            np.testing.assert_array_equal(got.view(np.int64), expected.view(np.int64), err_msg=path, strict=True)
        elif rtol is None or expected.dtype.kind not in "fc":
            np.testing.assert_array_equal(got, expected, err_msg=path, strict=True)
        else:
            np.testing.assert_allclose(got, expected, rtol=rtol, equal_nan=True, err_msg=path)
        return
    if isinstance(expected, (np.datetime64, np.timedelta64)):  # of the same unit, NaT where NumPy has NaT
        assert type(got) is type(expected) and got.dtype == expected.dtype, f"{path}: expected {expected!r}, got {got!r}"
        assert got.astype(np.int64) == expected.astype(np.int64), f"{path}: {got!r} != {expected!r}"
        return
    if isinstance(expected, np.void):  # a NumPy record: the same dtype, field by field
        assert isinstance(got, np.void), f"{path}: expected a record, got {type(got)}: {got!r}"
        assert got.dtype == expected.dtype, f"{path}: dtype {got.dtype} != {expected.dtype}"
        for name in expected.dtype.names:
            assert_same(got[name], expected[name], rtol=rtol, wrap=wrap, path=f"{path}[{name!r}]")
        return
    if isinstance(expected, tuple):
        assert isinstance(got, tuple), f"{path}: expected tuple, got {type(got)}: {got!r}"
        assert len(got) == len(expected), f"{path}: tuple length {len(got)} != {len(expected)}"
        for i, (g, e) in enumerate(zip(got, expected)):
            assert_same(g, e, rtol=rtol, wrap=wrap, path=f"{path}[{i}]")
        return
    if isinstance(expected, list):
        # A list made in compiled code comes back as a list (a typed list stays typed).
        assert isinstance(got, list) or type(got).__name__ == "List", f"{path}: expected list, got {type(got)}: {got!r}"
        assert len(got) == len(expected), f"{path}: list length {len(got)} != {len(expected)}"
        for i, (g, e) in enumerate(zip(got, expected)):
            assert_same(g, e, rtol=rtol, wrap=wrap, path=f"{path}[{i}]")
        return
    if isinstance(expected, dict):
        assert isinstance(got, dict) or type(got).__name__ == "Dict", f"{path}: expected dict, got {type(got)}: {got!r}"
        assert list(got.keys()) == list(expected.keys()), f"{path}: keys {list(got.keys())} != {list(expected.keys())}"
        for k in expected:
            assert_same(got[k], expected[k], rtol=rtol, wrap=wrap, path=f"{path}[{k!r}]")
        return
    if isinstance(expected, (set, frozenset)):
        assert isinstance(got, (set, frozenset)), f"{path}: expected set, got {type(got)}: {got!r}"
        assert got == expected, f"{path}: {got!r} != {expected!r}"
        return
    if isinstance(expected, str):
        assert isinstance(got, str), f"{path}: expected str, got {type(got)}: {got!r}"
        assert got == expected, f"{path}: {got!r} != {expected!r}"
        return
    if isinstance(expected, bytes):
        assert type(got) is bytes, f"{path}: expected bytes, got {type(got)}: {got!r}"
        assert got == expected, f"{path}: {got!r} != {expected!r}"
        return
    if expected is None:
        assert got is None, f"{path}: expected None, got {got!r}"
        return
    if _is_bool(expected):
        assert _is_bool(got), f"{path}: expected a bool, got {type(got)}: {got!r}"
        assert bool(got) == bool(expected), f"{path}: {got!r} != {expected!r}"
        return
    if _is_int(expected):
        assert _is_int(got), f"{path}: expected an int, got {type(got)}: {got!r}"
        e = int(expected)
        if wrap and isinstance(expected, int):
            e = wrap64(e)
        assert int(got) == e, f"{path}: {got!r} != {e!r}"
        return
    if _is_float(expected):
        assert _is_float(got), f"{path}: expected a float, got {type(got)}: {got!r}"
        assert _float_eq(got, expected, rtol), f"{path}: {got!r} != {expected!r} (rtol={rtol})"
        return
    if _is_complex(expected):
        assert _is_complex(got), f"{path}: expected a complex, got {type(got)}: {got!r}"
        ok = _float_eq(got.real, expected.real, rtol) and _float_eq(got.imag, expected.imag, rtol)
        assert ok, f"{path}: {got!r} != {expected!r} (rtol={rtol})"
        return
    raise AssertionError(f"{path}: unexpected result type {type(expected)}: {expected!r}")


# ---------------------------------------------------------------------------
# The differential driver
# ---------------------------------------------------------------------------
_jit_cache = {}


def jitted(fn, **options):
    """njit(fn) (or njit(**options)(fn)), one dispatcher per (function, options)."""
    key = (fn, tuple(sorted(options.items())))
    d = _jit_cache.get(key)
    if d is None:
        d = njit(**options)(fn) if options else njit(fn)
        _jit_cache[key] = d
    return d


def check(fn, *args, rtol=None, wrap=True, jit_options=None):
    """Compile `fn`, call the compiled and the Python version on copies of `args`, and
    compare the results and the in-place effects on the array arguments. Returns the
    compiled function's result."""
    cfn = jitted(fn, **(jit_options or {}))
    py_args = clone(args)
    jit_args = clone(args)
    with np.errstate(all="ignore"):
        expected = fn(*py_args)
    got = cfn(*jit_args)
    assert_same(got, expected, rtol=rtol, wrap=wrap)
    # In-place effects on array arguments (all of them, inside tuples too).
    py_arrays = list(_arrays_in(py_args))
    jit_arrays = list(_arrays_in(jit_args))
    for i, (g, e) in enumerate(zip(jit_arrays, py_arrays)):
        assert_same(g, e, rtol=rtol, path=f"array argument {i} after the call")
    # Lists passed in are written back (Numba's reflected lists).
    for i, (g, e) in enumerate(zip(_lists_in(jit_args), _lists_in(py_args))):
        assert_same(g, e, rtol=rtol, wrap=wrap, path=f"list argument {i} after the call")
    # A result that is (a view of) an argument must be one in both versions, and
    # a fresh result must not alias an argument.
    got_arrays = list(_arrays_in(got))
    exp_arrays = list(_arrays_in(expected))
    for k, (g, e) in enumerate(zip(got_arrays, exp_arrays)):
        for i, (ja, pa) in enumerate(zip(jit_arrays, py_arrays)):
            if e.size == 0:
                continue
            assert np.shares_memory(g, ja) == np.shares_memory(e, pa), (
                f"result array {k} {'should' if np.shares_memory(e, pa) else 'should not'} "
                f"share memory with array argument {i}"
            )
    return got


# ---------------------------------------------------------------------------
# Diagnostics helpers (test_errors.py)
# ---------------------------------------------------------------------------
def line_of(fn, marker):
    """File line number of the line of `fn`'s source containing `marker`."""
    lines, first = inspect.getsourcelines(fn)
    hits = [first + i for i, text in enumerate(lines) if marker in text]
    assert len(hits) == 1, f"marker {marker!r} found {len(hits)} times"
    return hits[0]


def source_line(fn, lineno):
    lines, first = inspect.getsourcelines(fn)
    return lines[lineno - first]


CARET_RE = re.compile(r"^\s*\^[\^~]*\s*$", re.MULTILINE)


def assert_diagnostic(message, filename, lineno, code_line):
    """The message names `filename:lineno`, shows the source line and a caret line."""
    assert f"{filename}:{lineno}" in message, f"{filename}:{lineno} not in:\n{message}"
    code = code_line.split("#")[0].strip()
    assert code in message, f"source line {code!r} not shown in:\n{message}"
    assert CARET_RE.search(message), f"no caret line in:\n{message}"


# ---------------------------------------------------------------------------
# GPU tests (@pytest.mark.gpu) run only where a CUDA device is usable
# ---------------------------------------------------------------------------
def pytest_collection_modifyitems(config, items):
    """Skips the tests marked gpu when mahou.cuda.is_available() is false (no driver,
    no device). The driver is probed only when such tests were collected."""
    gpu_items = [item for item in items if "gpu" in item.keywords]
    if not gpu_items:
        return
    try:
        from mahou import cuda

        available = cuda.is_available()
        reason = "no usable CUDA GPU (mahou.cuda.is_available() is False)"
    except Exception as exc:  # a broken build must not hide the CPU tests
        available, reason = False, f"mahou.cuda cannot be imported: {exc}"
    if available:
        return
    skip = pytest.mark.skip(reason=reason)
    for item in gpu_items:
        item.add_marker(skip)


def arr(values, dtype):
    return np.array(values, dtype=dtype)


# ---------------------------------------------------------------------------
# PTX check (MAHOU_PTXAS_CHECK=1): every kernel overload the session compiled is
# compiled again to PTX for sm_90 and assembled with ptxas. `make test` runs the CUDA
# tests through the emulator this way, so a machine without a GPU still proves that
# the test kernels' PTX is valid.
# ---------------------------------------------------------------------------
_KERNELS = []


def _record_kernels():
    from mahou.cuda import _decorators

    make = _decorators._make_kernel

    def recording(func, signatures, options):
        kernel = make(func, signatures, options)
        _KERNELS.append(kernel)  # kept alive: kernels defined inside tests too
        return kernel

    _decorators._make_kernel = recording


def find_ptxas():
    """ptxas from PATH, $CUDA_HOME/bin, or PyPI's nvidia-cuda-nvcc wheel; None if absent."""
    import shutil

    found = shutil.which("ptxas")
    if found:
        return found
    for var in ("CUDA_HOME", "CUDA_PATH"):
        root = os.environ.get(var)
        if root and os.path.exists(os.path.join(root, "bin", "ptxas")):
            return os.path.join(root, "bin", "ptxas")
    try:
        import nvidia.cuda_nvcc as wheel
        candidate = os.path.join(list(wheel.__path__)[0], "bin", "ptxas")
        if os.path.exists(candidate):
            return candidate
    except ImportError:
        pass
    return "/usr/local/cuda/bin/ptxas" if os.path.exists("/usr/local/cuda/bin/ptxas") else None


def assemble_ptx(ptx, arch="sm_90"):
    """Assembles PTX text with ptxas (asserting it is accepted); nothing when there is no ptxas."""
    import subprocess
    import tempfile

    ptxas = find_ptxas()
    if not ptxas:
        return
    with tempfile.NamedTemporaryFile("w", suffix=".ptx", delete=False) as f:
        f.write(ptx)
    try:
        run = subprocess.run([ptxas, f"-arch={arch}", f.name, "-o", os.devnull], capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
    finally:
        os.unlink(f.name)


def pytest_configure(config):
    if os.environ.get("MAHOU_PTXAS_CHECK") == "1":
        _record_kernels()


def pytest_sessionfinish(session, exitstatus):
    if os.environ.get("MAHOU_PTXAS_CHECK") != "1":
        return
    import subprocess
    import tempfile

    from mahou import cuda

    ptxas = find_ptxas()
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    say = reporter.write_line if reporter else print
    if ptxas is None:
        say("ptxas check: skipped (no ptxas: install nvidia-cuda-nvcc-cu12 or the CUDA toolkit)")
        return
    checked, failures = 0, []
    with tempfile.TemporaryDirectory() as tmp:
        for kernel in _KERNELS:
            if kernel._is_device:
                continue
            for sig in kernel.signatures:
                name = f"{kernel.py_func.__module__}.{kernel.__name__}{sig}"
                try:
                    ptx, _ = cuda.compile_ptx(kernel.py_func, sig, cc=(9, 0))
                except Exception as exc:  # noqa: BLE001 - reported below
                    failures.append(f"{name}: compile_ptx failed: {exc}")
                    continue
                path = os.path.join(tmp, f"k{checked}.ptx")
                with open(path, "w") as f:
                    f.write(ptx)
                relocatable = ["-c"] if ".extern .func" in ptx else []  # calls external code (link=)
                run = subprocess.run([ptxas, "-arch=sm_90", *relocatable, path, "-o", os.devnull],
                                     capture_output=True, text=True)
                checked += 1
                if run.returncode != 0:
                    failures.append(f"{name}: ptxas failed:\n{run.stderr.strip()}")
    say(f"ptxas check: {checked} kernel overloads assembled for sm_90 with {ptxas}, "
        f"{len(failures)} failed")
    for failure in failures:
        say("  " + failure)
    if failures or (checked == 0 and exitstatus == 0):
        session.exitstatus = 1


def assert_no_leaks(*calls, repeat=1000):
    """Each call (a function of no arguments, which compiles on its first run) is run
    once, then `repeat` times: the runtime's count of live allocations must not grow."""
    import mahou

    for call in calls:
        call()
    before = mahou._core.live_allocations()
    for _ in range(repeat):
        for call in calls:
            call()
    assert mahou._core.live_allocations() == before


def same_as_python(f, *args, same_type=False):
    """f compiled and f run by CPython agree: the same result (and, with same_type, of
    the same Python type), or the same exception type."""
    try:
        want = f(*args)
    except Exception as e:
        with pytest.raises(type(e)):
            njit(f)(*args)
        return
    got = njit(f)(*args)
    assert got == want
    if same_type:
        assert type(got) is type(want)


def random_complex_sample(rng, n, decades, plain):
    """n complex values for differential tests of complex functions: parts of magnitude
    about e**-decades to e**decades, then `plain` values in the box |x|, |y| < 3 first, and
    20 each on the real axis from above and below and the imaginary axis from the right and
    left (where the branch cuts lie)."""
    import numpy as np
    z = (rng.standard_normal(n) * np.exp(rng.uniform(-decades, decades, n))
         + 1j * rng.standard_normal(n) * np.exp(rng.uniform(-decades, decades, n)))
    z[:plain] = rng.uniform(-3, 3, plain) + 1j * rng.uniform(-3, 3, plain)
    at = plain
    for make in (lambda v: complex(v, 0.0), lambda v: complex(v, -0.0),
                 lambda v: complex(0.0, v), lambda v: complex(-0.0, v)):
        z[at:at + 20] = [make(v) for v in rng.uniform(-4, 4, 20)]
        at += 20
    return z


def power_condition(base, exponent):
    """The condition number of base ** exponent = exp(exponent * log(base)) for the
    differential tests of complex powers: an ulp of log|base| or of the phase (a device's
    atan2, log or hypot may be an ulp or two from the host's) is multiplied by |exponent|,
    so finite results agree within a few ulps times this, relative to |base ** exponent|.
    1 where it is not finite (an infinite base to the power 0 and the like)."""
    magnitude = abs(complex(base))
    log_term = abs(math.log(magnitude)) if magnitude > 0 else 0.0
    condition = 1 + abs(complex(exponent)) * (1 + log_term)
    return condition if math.isfinite(condition) else 1.0
