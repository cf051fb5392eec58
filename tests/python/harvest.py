"""The harness of the tests/python/test_harvest_*.py files: small functions with the
inputs Numba's own test suite checks them on (empty arrays, NaN, -0.0, integer
overflow, non-contiguous views, every dtype), each run compiled and by CPython/NumPy
and compared: results and arguments after the call bit for bit (NaNs by position),
exceptions by type. A case mahou does not compile yet is listed in its file's
EXPECTED_REFUSALS: the test then asserts the refusal is a clean TypingError or
UnsupportedError, or the dispatcher's TypeError for an argument type it does not take
(and that any input it does compile is right), and fails once the
case compiles, so that the list shrinks as features land."""

import copy
import math
import warnings

import numpy as np

from mahou import njit

REFUSALS = ("TypingError", "UnsupportedError")


class Case:
    """fn run on each argument tuple of `inputs`. tol: None (exact), "ulp" (a few units
    in the last place: the libm's or NumPy's own loops), or a relative tolerance.
    kind_only: compare array dtypes by kind (where Numba's documented dtype differs)."""

    def __init__(self, fn, inputs, tol=None, kind_only=False, zero_sign=True):
        self.fn = fn
        self.inputs = [a if isinstance(a, tuple) else (a,) for a in inputs]
        self.tol = tol
        self.kind_only = kind_only
        self.zero_sign = zero_sign  # False: 0.0 and -0.0 compare equal (a documented difference)


def clone(args):
    """A copy of the arguments for each side: arrays in the same layout (views stay
    views with the same strides), containers deep-copied."""
    out = []
    for a in args:
        if isinstance(a, np.ndarray):
            out.append(_same_layout_copy(a))
        elif isinstance(a, (list, dict, set)):
            out.append(copy.deepcopy(a))
        else:
            out.append(a)
    return tuple(out)


def _same_layout_copy(a):
    """A copy of a view with the same strides (a view of a copy of its whole buffer)."""
    base = a
    while isinstance(base.base, np.ndarray):
        base = base.base
    if base is a or a.dtype != base.dtype:
        return a.copy(order="K")
    offset = a.__array_interface__["data"][0] - base.__array_interface__["data"][0]
    fresh = base.copy(order="K")
    if fresh.strides != base.strides or not fresh.flags.c_contiguous and not fresh.flags.f_contiguous:
        return a.copy(order="K")
    view = np.ndarray(a.shape, a.dtype, fresh, offset, a.strides)
    view.flags.writeable = a.flags.writeable
    return view


def is_refusal(got):
    """A TypingError/UnsupportedError, or the dispatcher's TypeError for an argument type
    mahou does not compile (bytes, object arrays, ...)."""
    return got[1].__name__ in REFUSALS or (issubclass(got[1], TypeError) and "not supported by mahou" in got[2])


def outcome(fn, args):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with np.errstate(all="ignore"):
                return ("value", fn(*args))
    except Exception as e:  # noqa: BLE001
        return ("raise", type(e), str(e).splitlines()[0] if str(e) else "")


def _float_same(g, e, tol):
    # a unit in the last place of the expected value's own precision
    unit = float(np.spacing(np.abs(e))) if isinstance(e, np.floating) else float(np.spacing(abs(float(e))))
    g, e = float(g), float(e)
    if math.isnan(e) or math.isnan(g):
        return math.isnan(e) and math.isnan(g)
    if g == e:
        return tol is not None or e != 0 or math.copysign(1, g) == math.copysign(1, e)
    if tol == "zero_sign":
        return False
    if tol is None or math.isinf(e) or math.isinf(g):
        return False
    if tol == "ulp":
        return abs(g - e) <= 8 * max(unit, float(np.spacing(abs(e))))
    return abs(g - e) <= tol * max(abs(e), abs(g))


def difference(got, expected, tol=None, kind_only=False, path="result"):
    """None when equal, else where and how they differ."""
    if isinstance(expected, tuple) and not hasattr(expected, "_fields"):
        if not isinstance(got, tuple) or len(got) != len(expected):
            return f"{path}: expected {expected!r}, got {got!r}"
        for i, (g, e) in enumerate(zip(got, expected)):
            d = difference(g, e, tol, kind_only, f"{path}[{i}]")
            if d:
                return d
        return None
    if isinstance(expected, list):
        got = list(got) if type(got).__name__ in ("List", "list") else got
        if not isinstance(got, list) or len(got) != len(expected):
            return f"{path}: expected {expected!r}, got {got!r}"
        for i, (g, e) in enumerate(zip(got, expected)):
            d = difference(g, e, tol, kind_only, f"{path}[{i}]")
            if d:
                return d
        return None
    if isinstance(expected, dict):
        got = dict(got.items()) if hasattr(got, "items") else got
        if not isinstance(got, dict) or list(got) != list(expected):
            return f"{path}: expected {expected!r}, got {got!r}"
        for k in expected:
            d = difference(got[k], expected[k], tol, kind_only, f"{path}[{k!r}]")
            if d:
                return d
        return None
    if isinstance(expected, (set, frozenset, str, bytes)) or expected is None:
        return None if type(got) is type(expected) and got == expected else f"{path}: expected {expected!r}, got {got!r}"
    if isinstance(expected, np.ndarray):
        if not isinstance(got, np.ndarray) or got.shape != expected.shape:
            return f"{path}: expected {expected!r}, got {got!r}"
        if (got.dtype.kind != expected.dtype.kind) if kind_only else (got.dtype != expected.dtype):
            return f"{path}: expected dtype {expected.dtype}, got {got.dtype} ({got!r})"
        for idx in np.ndindex(expected.shape):
            d = difference(got[idx], expected[idx], tol, kind_only, f"{path}{list(idx)}")
            if d:
                return d
        return None
    if isinstance(tol, float) and isinstance(expected, (np.float32, np.complex64, np.float16)):
        tol = max(tol, 1e-5)  # a relative tolerance in single precision
    if isinstance(expected, (bool, np.bool_)):
        ok = isinstance(got, (bool, np.bool_)) and bool(got) == bool(expected)
    elif isinstance(expected, (np.datetime64, np.timedelta64)):  # the unit and the count (NaT == NaT)
        ok = type(got) is type(expected) and got.dtype == expected.dtype and \
            got.astype(np.int64) == expected.astype(np.int64)
    elif isinstance(expected, (int, np.integer)):
        ok = isinstance(got, (int, np.integer)) and not isinstance(got, (bool, np.bool_)) and int(got) == int(expected)
    elif isinstance(expected, (float, np.floating)):
        ok = isinstance(got, (float, np.floating)) and _float_same(got, expected, tol)
    elif isinstance(expected, (complex, np.complexfloating)):
        ok = isinstance(got, (complex, np.complexfloating)) and _float_same(got.real, expected.real, tol) and \
            _float_same(got.imag, expected.imag, tol)
    else:
        ok = got == expected
    return None if ok else f"{path}: expected {expected!r}, got {got!r}"


def run_harvested(module, name):
    """The test body of a harvest file: a case listed in EXPECTED_WRONG (a known wrong
    answer another branch fixes) is a strict xfail with its reason."""
    import pytest

    wrong = getattr(module, "EXPECTED_WRONG", {})
    if name in wrong:
        try:
            run_case(name, module.CASES[name], name in module.EXPECTED_REFUSALS)
        except AssertionError as e:
            pytest.xfail(f"{wrong[name]}: {str(e).splitlines()[0][:200]}")
        raise AssertionError(f"{name} now gives CPython's/NumPy's answers: remove it from EXPECTED_WRONG")
    run_case(name, module.CASES[name], name in module.EXPECTED_REFUSALS)


def run_case(name, case, refused):
    """Runs every input of a case; see the module doc for what `refused` means."""
    compiled = njit(case.fn)
    saw_refusal = None
    for args in case.inputs:
        py_args, jit_args = clone(args), clone(args)
        expected = outcome(case.fn, py_args)
        got = outcome(compiled, jit_args)
        where = f"{name}{tuple(_short(a) for a in args)}"
        if expected[0] == "raise" and issubclass(expected[1], TypeError) and "positional argument" in expected[2]:
            raise AssertionError(f"{where}: the case's inputs do not fit the function ({expected[2]})")
        if got[0] == "raise" and is_refusal(got) and expected[0] == "raise" and issubclass(expected[1], TypeError):
            saw_refusal = saw_refusal or got
            compiled = njit(case.fn)  # NumPy/CPython reject the types too: refused at compile time
            continue
        if got[0] == "raise" and is_refusal(got):
            if not refused:
                raise AssertionError(f"{where}: refused ({got[1].__name__}: {got[2]}); list it in "
                                     f"EXPECTED_REFUSALS if it is a missing feature")
            saw_refusal = got
            compiled = njit(case.fn)  # a fresh dispatcher for the next input
            continue
        if got[0] == "raise" and got[1].__name__ == "InternalCompilerError":
            raise AssertionError(f"{where}: internal compiler error: {got[2]}")
        if expected[0] == "raise":
            assert got[0] == "raise", f"{where}: expected {expected[1].__name__}({expected[2]}), got {got[1]!r}"
            assert issubclass(got[1], expected[1]) or issubclass(expected[1], got[1]), \
                f"{where}: expected {expected[1].__name__}({expected[2]}), got {got[1].__name__}({got[2]})"
            continue
        assert got[0] == "value", f"{where}: expected {expected[1]!r}, got {got[1].__name__}({got[2]})"
        if _float16_math(expected[1], got[1], args):
            continue  # NumPy's float16 loops for small integers; compiled code float32 (as Numba)
        tol = case.tol if case.zero_sign or case.tol is not None else "zero_sign"
        d = difference(got[1], expected[1], tol, case.kind_only)
        for i, (g, e) in enumerate(zip(jit_args, py_args)):
            if d is None and isinstance(e, (np.ndarray, list, dict)):
                d = difference(g, e, case.tol, case.kind_only, f"argument {i} after the call")
        assert d is None, f"{where}: {d}"
    if refused:
        assert saw_refusal is not None, f"{name} compiles now and gives NumPy's/CPython's results: " \
                                        f"remove it from EXPECTED_REFUSALS"


def _float16_math(expected, got, args):
    def has16(x):
        return isinstance(x, (np.ndarray, np.generic)) and x.dtype == np.float16
    if isinstance(expected, tuple):
        expected = expected[0] if expected else None
    return has16(expected) and not has16(got) and not any(has16(a) for a in args)


def _short(a):
    if isinstance(a, np.ndarray):
        return f"array({a.dtype}, {a.shape}{', view' if not a.flags.owndata else ''})"
    r = repr(a)
    return r if len(r) < 40 else r[:37] + "..."


def refusal_report(cases, refusals):
    """For a file's __main__: which cases are refused now (to keep EXPECTED_REFUSALS current)."""
    out = []
    for name, case in sorted(cases.items()):
        compiled = njit(case.fn)
        for args in case.inputs:
            got = outcome(compiled, clone(args))
            if got[0] == "raise" and is_refusal(got):
                out.append((name, got[2]))
                break
    return out
