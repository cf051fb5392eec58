"""Bugs the differential fuzzer (tests/fuzz) found, each reduced to a test."""

import math
import os
import sys

import numpy as np
import pytest

from conftest import INT64_MAX, INT64_MIN, check, clone, jitted, njit
from mahou import prange


def check_raises(exc, fn, *args, jit_options=None):
    """Both the Python function and its compiled version raise `exc` (check() alone
    stops at the Python call's exception)."""
    with pytest.raises(exc):
        fn(*clone(args))
    with pytest.raises(exc):
        jitted(fn, **(jit_options or {}))(*clone(args))


def store_raising_value(a, d):
    a[10**6] = 1.0 / d  # Python evaluates the value first: ZeroDivisionError, not IndexError


def store_raising_value_2d(a, d):
    a[-100, 100] = 1 // d


def flat_store_raising_value(a, d):
    a.flat[10**6] = 1.0 / d


@pytest.mark.parametrize("fn,shape", [(store_raising_value, (3,)), (store_raising_value_2d, (2, 2)),
                                      (flat_store_raising_value, (2, 3))])
def test_a_store_evaluates_its_value_before_the_index(fn, shape):
    for d in (0, 0.0):
        check_raises(ZeroDivisionError, fn, np.zeros(shape), d, jit_options={"boundscheck": True})
    check_raises(IndexError, fn, np.zeros(shape), 2, jit_options={"boundscheck": True})


def store_with_effects(a, b):
    a[b[0]] = b[0] + 10  # a call in the value that changes the index would show the order too
    return a


def test_store_order_with_a_computed_index():
    check(store_with_effects, np.zeros(4), np.array([2, 0]))


def powmod(a, b, m):
    return pow(a, b, m)


@pytest.mark.parametrize("a,b", [(10, 3), (-7, 5), (3, 0), (INT64_MAX, 2), (INT64_MIN, 3), (2, 63), (5, -1),
                                 (3, INT64_MAX)])
def test_pow_with_the_int64_minimum_as_modulus(a, b):
    """pow(a, b, -2**63) is an int64 in Python; it raised OverflowError."""
    check(powmod, a, b, INT64_MIN)
    check(powmod, a, b, INT64_MIN + 1)
    check(powmod, a, b, INT64_MAX)


def compare_raising_operands(a, m):
    return int(a[0, 5]) <= pow(2, 3, m)  # IndexError from the left operand first


def bump(a, v):
    a[0] = a[0] * 10 + v
    return a[0]


bump_compiled = njit(bump)


def compare_ordered_effects(a):
    return bump_compiled(a, 1) < bump_compiled(a, 2)


def test_comparison_operands_evaluate_left_to_right():
    """Operands of a comparison were evaluated right to left (C++ argument order)."""
    with pytest.raises(IndexError):
        njit(boundscheck=True)(compare_raising_operands)(np.zeros((2, 2), np.uint8), 0)
    check(compare_ordered_effects, np.zeros(1))


def all_indices_before_the_check(a, d):
    return a[a.ndim, 3 % d]  # ZeroDivisionError from the second index before IndexError


def store_all_indices_before_the_check(a, d):
    a[a.ndim, 3 % d] = 1.0


@pytest.mark.parametrize("fn", [all_indices_before_the_check, store_all_indices_before_the_check])
def test_every_index_is_evaluated_before_any_is_checked(fn):
    check_raises(ZeroDivisionError, fn, np.zeros((0, 0)), 0, jit_options={"boundscheck": True})
    check_raises(IndexError, fn, np.zeros((2, 2)), 1, jit_options={"boundscheck": True})


def finally_catching_another(d):
    try:
        x = 1 // d
    finally:
        try:
            y = 1 // d
        except ZeroDivisionError:
            pass
    return 0


def handler_catching_another_then_reraising(d):
    try:
        x = 1 // d
    except ZeroDivisionError:
        try:
            raise ValueError("inner")
        except ValueError:
            pass
        raise
    return 0


@njit
def quiet_division(d):
    try:
        return 1 // d
    except ZeroDivisionError:
        return -1


def finally_calling_a_function_that_catches(d):
    try:
        a = np.zeros(2)
        a[1 // d] = 1.0
    finally:
        quiet_division(d)
    return 1


def nested_handlers_reraise_their_own(d):
    try:
        raise IndexError("outer")
    except IndexError:
        try:
            x = 1 // d
        except ZeroDivisionError:
            pass
        raise


@pytest.mark.parametrize("fn,exc", [(finally_catching_another, ZeroDivisionError),
                                    (handler_catching_another_then_reraising, ZeroDivisionError),
                                    (finally_calling_a_function_that_catches, ZeroDivisionError),
                                    (nested_handlers_reraise_their_own, IndexError)])
def test_the_exception_being_handled_survives_others_caught_meanwhile(fn, exc):
    """An exception in flight through a finally block or a handler with a bare raise was
    lost when code there caught another one (SystemError: failed without an error)."""
    for d in (0, 1):
        if fn is nested_handlers_reraise_their_own or d == 0:
            check_raises(exc, fn, d)
        else:
            check(fn, d)


def literal_lengths():
    s = "日本語"
    return len("ß"), len("🙂x"), len(s), len(""), ~len("héllo wörld")


def test_the_length_of_a_string_literal_counts_code_points():
    """len() of a literal string was its length in UTF-8 bytes (len("ß") == 2)."""
    check(literal_lengths)


def none_or_literal(c):
    return None if c else "日本語"


def literal_or_none(c):
    return "abc" if c else None


@pytest.mark.parametrize("fn", [none_or_literal, literal_or_none])
def test_an_optional_literal_string_is_returned_as_a_string(fn):
    """None unified with a literal string gave an optional of the literal, which could
    not be returned to Python (TypeError)."""
    check(fn, True)
    check(fn, False)


def list_store_raising_value(xs, a):
    xs[len(a) % len(xs) if len(a) else 1 % len(a)] = bool(a[5])  # IndexError before ZeroDivisionError


def list_store_ordered_effects(xs):
    xs[xs.pop()] = xs.pop()  # value first: pops the 3, then the index pops the 1
    return xs


def test_a_list_store_evaluates_its_value_before_the_index():
    """A list item store evaluated its index (ZeroDivisionError) before its value
    (IndexError), the reverse of Python's order."""
    check_raises(IndexError, list_store_raising_value, [True, False], np.zeros(0, np.bool_),
                 jit_options={"boundscheck": True})
    check(list_store_ordered_effects, [5, 6, 7, 1, 3])


def float_int_powers(x, n):
    return x ** n, x ** 5, x ** -3, pow(x, n)


@pytest.mark.parametrize("x", [67.186, 1.1, -2.5, 1e-10, 3.0])
def test_a_float_to_an_int_power_is_repeated_squaring(x):
    """float ** int is computed by repeated squaring, as Numba does (the fuzzer's
    reference does the same); it may differ from pow() in the last bit."""
    def squaring(x, n):
        r, sq, m = 1.0, x, abs(n)
        while m:
            if m & 1:
                r *= sq
            m >>= 1
            if m:
                sq *= sq
        return 1.0 / r if n < 0 else r

    got = njit(float_int_powers)(x, 7)
    assert got == (squaring(x, 7), squaring(x, 5), squaring(x, -3), squaring(x, 7))


def always_raises(d):
    if d:
        raise ValueError("d")
    raise KeyError("no d")


def test_a_function_that_only_raises_compiles():
    """A function with no return statement whose every path raises was refused ("cannot
    infer the return type"); as in Numba its result type is None."""
    check_raises(ValueError, always_raises, 1)
    check_raises(KeyError, always_raises, 0)


def param_becomes_optional_str(c, s):
    t = s + "x"
    if c:
        t = None
    s = t if t is not None else s
    return s


def param_becomes_none_elsewhere(c, x):
    if c:
        x = None
    return x


def param_list_becomes_optional(c, xs):
    if c:
        xs = None
    return 0 if xs is None else len(xs)


@pytest.mark.parametrize("fn,value", [(param_becomes_optional_str, "héllo"), (param_becomes_none_elsewhere, 3),
                                      (param_becomes_none_elsewhere, 2.5), (param_becomes_none_elsewhere, "s"),
                                      (param_list_becomes_optional, [1, 2])])
def test_a_parameter_widened_to_an_optional(fn, value):
    """A parameter assigned None (or an optional) elsewhere has an optional variable; its
    argument was stored into it unconverted, a crash (segfault) in code generation."""
    check(fn, False, value)
    check(fn, True, value)


def reversed_while_deleting(xs):
    seen = []
    for x in reversed(xs):
        seen.append(x)
        del xs[x:xs.count(x)]
    return seen


def reversed_while_appending(xs):
    seen = []
    for x in reversed(xs):
        seen.append(x)
        if len(xs) < 10:
            xs.append(x * 2)
    else:
        seen.append(-1)
    return seen


def reversed_with_break(xs):
    t = 0
    for x in reversed(xs):
        if x < 0:
            break
        t += x
        xs.pop()
    else:
        t = -t
    return t


@pytest.mark.parametrize("fn", [reversed_while_deleting, reversed_while_appending, reversed_with_break])
@pytest.mark.parametrize("xs", [[4611686018427387904, -1, -14, 1], [3], [1, 2, 3, -4, 5], [0, 0, 0]])
def test_reversed_reads_a_changing_list_live(fn, xs):
    """for x in reversed(xs) iterated a reversed copy: Python's reversed iterator reads the
    list as it is at each step and stops at an index the list no longer has."""
    check(fn, xs)


def dict_store_raising_value(a):
    d = {1: 1.0}
    d[len(a) // len(a)] = a[5]  # Python evaluates the value first: IndexError, not ZeroDivisionError
    return d[1]


def dict_store_ordered_effects(xs):
    d = {0: 0}
    d[xs.pop()] = xs.pop()  # value first: pops the 3, then the key pops the 1
    return d[1]


def test_a_dict_store_evaluates_its_value_before_the_key():
    check_raises(IndexError, dict_store_raising_value, np.zeros(0), jit_options={"boundscheck": True})
    check(dict_store_ordered_effects, [5, 6, 7, 1, 3])


def store_into_a_dict_typed_late(x):
    if True:
        try:
            d = {}
            d["b"] = -84.25
        except ArithmeticError:
            pass
        finally:
            pass
    for i in range(3):
        pass
    return d["b"]


def test_temporaries_keep_their_types_while_a_container_is_typed():
    """The value of a store into a dict whose item types were still unknown in the first
    typing pass was held in a temporary only from the second pass on, which renumbered
    the temporaries after it: a bool temporary took a float's type (IR verifier:
    condition must be bool)."""
    check(store_into_a_dict_typed_late, 1)


def numbers_of_an_optional(c, x):
    o = None
    if c:
        o = x
    if o is not None:
        return abs(o), -o, +o, round(o), math.isinf(o), math.floor(o), math.sqrt(abs(o))
    return 0.0, 0.0, 0.0, 0, False, 0, 0.0


def abs_of_none(c, x):
    o = None
    if c:
        o = x
    return abs(o)


@pytest.mark.parametrize("c,x", [(True, -2.5), (False, 1.5), (True, 3.0), (True, -0.0)])
def test_an_optional_number_is_its_value_in_arithmetic_and_math(c, x):
    """abs(), unary -/+, round() and the math functions of an optional number were
    refused (TypingError); as in Numba they take its value (TypeError when it is None)."""
    check(numbers_of_an_optional, c, x)


def test_abs_of_none_is_a_type_error():
    check_raises(TypeError, abs_of_none, False, 1.5)
    check(abs_of_none, True, -1.5)


def pop_the_last_entry_while_iterating(n):
    d = {"a": n}
    t = 0
    for k in d:
        t += d[k]
        d.popitem()
    return t


def clear_a_set_while_iterating(n):
    s = {n, n + 1}
    t = 0
    for x in s:
        if x == n + 1:
            s.clear()
        t += 1
    else:
        t = -1
    return t


def break_after_the_change(n):
    d = {1: n, 2: n}
    for k in d:
        del d[2]
        break
    return len(d)


def test_a_size_change_in_the_last_entrys_body_raises():
    """A dict or set that changed size while its last entry was being handled ended the
    loop quietly; Python's iterator checks once more and raises RuntimeError (a break
    skips the check)."""
    check_raises(RuntimeError, pop_the_last_entry_while_iterating, 3)
    check_raises(RuntimeError, clear_a_set_while_iterating, 3)
    check(break_after_the_change, 3)


def temporaries_after_a_pruned_branch(p1, p2):
    w4 = 0
    if (w4 & w4) == w4 == (1099511627776 ** (1099511627776 % 4)):
        o9 = None
        for _ in range(2):  # the two values of o9 meet at the loop head: o9 is None only in the first pass
            try:
                if o9 is not None:
                    st = {(k % 2) for k in range((((w4 ^ (-13)) if ("ll" not in "Ab1_") else w4)) % 3 + 4)}
                else:
                    o9 = w4
            except IndexError:
                pass
            finally:
                pass
    elif p2.endswith(","):
        v17 = w4 <= w4
        xs = [("b" not in (p1[:2] * (k % 3))) for k in range(w4 % 4 + 4) if v17]
    return 0


def test_temporaries_keep_their_types_after_a_branch_pruned_in_one_pass():
    """The typer numbers its temporaries in the order a pass takes them: a branch pruned
    in the first pass (on a None known then) and typed in the next shifted the numbers
    of the temporaries after it, and one kept another's type (IR verifier: condition
    must be bool). A temporary taken at another site than before starts afresh."""
    check(temporaries_after_a_pruned_branch, "", "")


def needle_before_container(xs):
    # Python evaluates the needle first: xs[-1] is read before pop() empties the list
    return (xs[len(xs) - 1] in xs.pop()), len(xs)


def needle_raises_first(xs):
    for i in range(-2, 3):
        if not xs:
            raise ValueError("empty")
        d = {"a": (xs[i % len(xs)] in xs.pop())}  # IndexError/ZeroDivision only if pop came first
    return 0


def not_in_a_list_being_popped(xs, ys):
    return (len(ys) not in ys.pop()), len(ys)


def popped_in_the_rest_joined(xs):
    return (xs.pop() in "".join(xs)), len(xs)


def test_in_evaluates_the_needle_before_the_container():
    """`a in b` evaluated b first when b was a string, list, dict or set (the runtime
    call takes the container first): xs[i] in xs.pop() read the list after the pop."""
    check(needle_before_container, ["ab", "b"])
    check_raises(ValueError, needle_raises_first, ["123"])
    check(not_in_a_list_being_popped, [1], [[1, 2], [3, 0]])
    check(popped_in_the_rest_joined, ["q", "ab"])


def prange_over_an_optional_narrowed_outside(n, c):
    o = 2.5
    if c:
        o = None
    t = 0.0
    if o is not None:
        for i in prange(n):
            t += o if o is not None else 1.0  # reads o through a hidden variable (a Seq)
    return t


def prange_with_comprehensions(n):
    out = np.zeros(n)
    for i in prange(n):
        xs = [j * i for j in range(3)]
        out[i] = sum(xs) + len("".join([str(k) for k in xs]))
    return out


def test_prange_bodies_outline_the_variables_of_hidden_statements():
    """A prange body whose expressions run statements (a Seq: a conditional on an
    optional, a comprehension) was outlined without renumbering the variables those
    statements use (IR verifier: load type differs from variable type)."""
    for c in (False, True):
        check(prange_over_an_optional_narrowed_outside, 10, c, jit_options={"parallel": True})
    check(prange_with_comprehensions, 7, jit_options={"parallel": True})


OUT_OF_MEMORY_CHILD = r"""
import resource, sys
import mahou
import numpy as np

@mahou.njit
def join_doubling(n):
    xs = ["ab"]
    for i in range(n):
        xs.insert(i, ", ".join(xs))
    return len(xs[0])

@mahou.njit
def upper_of(n):
    return len(("ab" * n).upper())

@mahou.njit
def split_of(n):
    return len(("a b" * n).split())

@mahou.njit
def sort_of(n):
    xs = [0] * n
    xs.sort()
    return len(xs)

@mahou.njit
def isalpha_of(n):
    return ("ab" * n).isalpha(), ("ab" * n).startswith("ab", 1)

for fn in (join_doubling, upper_of, split_of, sort_of, isalpha_of):
    fn(3)  # compiled before the limit
with open("/proc/self/status") as f:
    vm = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize"))
limit = vm + 1_500_000_000
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
for fn, n in ((join_doubling, 60), (upper_of, 400_000_000), (split_of, 300_000_000), (sort_of, 120_000_000)):
    try:
        fn(n)
        print(fn.__name__, "no error")
    except MemoryError:
        print(fn.__name__, "MemoryError")
    assert fn(3) == fn.py_func(3), fn.__name__
print("isalpha_of", isalpha_of(300_000_000))
print("alive")
"""


def test_running_out_of_memory_in_the_runtime_raises_memory_error(tmp_path):
    """A string doubled in a loop (xs.insert(i, ", ".join(xs))) ended the process:
    std::bad_alloc escaped the runtime's C++ code into compiled code (terminate). Now
    the runtime's allocation failures are MemoryError, and predicates allocate nothing."""
    import subprocess
    import sys

    script = tmp_path / "oom.py"
    script.write_text(OUT_OF_MEMORY_CHILD)
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = proc.stdout.split("\n")
    for name in ("join_doubling", "upper_of", "split_of", "sort_of"):
        assert f"{name} MemoryError" in lines, proc.stdout
    assert "isalpha_of (True, False)" in lines and "alive" in lines, proc.stdout


def split_a_temporary(n):
    caught = 0
    for i in range(n):
        try:
            ("ab" * i).split("")  # ValueError: empty separator
        except ValueError:
            caught += 1
    return caught


def test_a_failing_string_call_releases_its_temporary_operands():
    """A string method that failed (null from the runtime: an error, or MemoryError)
    left its temporary operands unreleased: the error exit was taken before them."""
    import gc

    import mahou._core

    compiled = njit(split_a_temporary)
    compiled(2)
    gc.collect()
    before = mahou._core.live_allocations()
    assert compiled(50) == split_a_temporary(50) == 50
    gc.collect()
    assert mahou._core.live_allocations() == before


def reference_of(source, name):
    """A function of the fuzzer's instrumented CPython reference (tests/fuzz/reference.py)."""
    import os
    import sys

    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "fuzz"))
    try:
        from reference import load_reference
    finally:
        sys.path.pop(0)
    return load_reference(source, "<reference>", "reference_test")[name]


def sums(xs):
    return sum(xs), sum([x * 2 for x in xs])


def test_the_fuzzers_reference_sums_left_to_right():
    """CPython 3.12+ sums floats with compensated (Neumaier) summation; compiled code
    and Numba add left to right, and so does the fuzzer's reference on every version."""
    xs = [1e16, 1.0, -1e16, 3.0, 1e-3]
    ref = reference_of("def sums(xs):\n    return sum(xs), sum([x * 2 for x in xs]), sum(xs, 0.5)\n", "sums")
    left = 0.0
    for x in xs:
        left += x
    assert ref(xs)[0] == left == 3.001
    assert njit(sums)(xs) == ref(xs)[:2]
    assert ref(xs)[2] == 3.001  # 0.5 is lost in 1e16 as the items are added one by one


def nan_sign(x):
    return math.copysign(1.0, x % -x), math.copysign(1.0, math.inf % -math.inf)


def test_the_sign_of_a_made_nan_is_a_documented_difference():
    """The sign of a NaN from an invalid operation is the hardware's at run time
    (negative on x86, as in CPython) but positive where LLVM folded the operation (as
    in Numba); copysign shows it, so the fuzzer's reference skips copysign of a NaN."""
    ref = reference_of("import math\ndef f(x):\n    return math.copysign(1.0, x)\n", "f")
    assert ref(-0.0) == -1.0
    with pytest.raises(BaseException, match="NaN sign"):
        ref(math.nan)
    got = njit(nan_sign)(math.inf)
    assert got[0] == nan_sign(math.inf)[0]  # made at run time: the hardware's sign, as CPython


DOMAIN_ERROR_LOST_IN_FINALLY = '''
import math
import os
import sys
import numpy as np
import fuzz_runtime
compiled = fuzz_runtime.decorator()


@compiled
def f0(a, xs):
    try:
        for x in xs:
            a[0] = math.log1p(-29.6)
    finally:
        for x in xs:
            if x:
                return 1
    return 0


def inputs():
    return {"f0": [(np.zeros(2), [False, True]), (np.zeros(2), [False])]}
'''


def log1p_in_try_finally(a, xs):
    try:
        for x in xs:
            a[0] = math.log1p(-29.6)
    finally:
        for x in xs:
            if x:
                return 1
    return 0


def test_a_domain_error_lost_in_a_finally_block_skips_the_input(tmp_path):
    """Seed 20261207, program 20547: the reference run's math domain error (NaN in
    compiled code, documented) was ended by a `return` in a `finally` block, and the
    reference went on along a path compiled code never takes: the array argument
    differed. The reference records every documented difference it raises; the fuzzer
    skips such an input whatever the call returned."""
    a = np.zeros(2)
    assert jitted(log1p_in_try_finally)(a, [False, True]) == 1 and math.isnan(a[0])
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "fuzz"))
    try:
        import worker
    finally:
        sys.path.pop(0)
    path = tmp_path / "fuzz_domain_error_in_finally.py"
    path.write_text(DOMAIN_ERROR_LOST_IN_FINALLY)
    sys.path.insert(0, str(tmp_path))
    try:
        status, detail, cases, skipped = worker.run_program(DOMAIN_ERROR_LOST_IN_FINALLY, str(path),
                                                            "fuzz_domain_error_in_finally")
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("fuzz_domain_error_in_finally", None)
    assert (status, detail, cases, skipped) == ("ok", "", 2, 2)


def join_of(sep, xs):
    return sep.join(xs)


@pytest.mark.parametrize("sep", ["", "-", "é", "日", "🙂", ", "])
@pytest.mark.parametrize("xs", [[""], ["a"], ["日本"], ["a", ""], ["", ""], ["a", "ß", "b"], ["x", "日本語", "🙂"],
                                ["lone \ud800", "a"], ["🙂", "é"]])
def test_join_of_every_kind_of_string(sep, xs):
    """str.join held every piece and its result as four-byte code points, twice over
    (a fuzzed program growing strings by joins used 3 GB where CPython used 1.5): it
    now writes the result once, in the widest kind of the pieces it joins."""
    check(join_of, sep, xs)
    check(join_of, sep, xs[1:] + ["ü"])


def join_of_none(sep, n):
    xs = ["a"]
    xs.clear()
    return sep.join(xs) + sep.join(xs[:n])


def grow_by_joins(xs, n):
    for i in range(n):
        xs.extend([", ".join(xs) for k in range(2)])
    return len(xs[-1])


def test_a_string_grown_by_joins():
    check(grow_by_joins, ["日本語", "lone \ud800 x"], 9)
    check(join_of_none, "日", 0)


def empty_repetitions(n):
    return ("日本語" * n) == "", ("ab€"[:2] * n) == "hello"[:0], ("😀" * n).isascii(), len("日本" * n)


def test_an_empty_string_made_from_a_wide_one_equals_the_empty_string():
    """Seed 20261401 program 4222: `"日本語" * 0 == ""` was False (the empty result kept
    the two-byte kind, and equal strings are compared kind first)."""
    for n in (0, -3, 1):
        check(empty_repetitions, n)
def needle_raises_before_a_raising_container(n):
    xs = ["ab" for _ in range(n)]
    return xs[7 % len(xs)] in xs[0]


def test_in_raises_the_needles_exception_first():
    """Seed 20261412 program 844: `in` evaluated a container that can raise before the
    needle when neither operand had effects."""
    with pytest.raises(ZeroDivisionError):
        needle_raises_before_a_raising_container(0)
    assert njit(needle_raises_before_a_raising_container)(2) is True
    try:
        njit(needle_raises_before_a_raising_container)(0)
    except ZeroDivisionError:
        return
    except IndexError:
        raise AssertionError("the container's IndexError came first")


def needle_raises_before_a_raising_set(n):
    xs = [1 for _ in range(n)]
    sets = [{1, 2} for _ in range(n)]
    return xs[7 % len(xs)] in sets[0]


def needle_raises_before_a_raising_tuple(n):
    ts = [(1, 2) for _ in range(n)]
    return ts[7 % len(ts)][0] not in ts[0]


def needle_index_error_before_a_container_zero_division(n):
    xs = [1 for _ in range(n)]
    return xs[0] in (7 // n, 1)


def test_in_evaluates_raising_operands_in_order():
    check_raises(ZeroDivisionError, needle_raises_before_a_raising_set, 0)
    check_raises(ZeroDivisionError, needle_raises_before_a_raising_tuple, 0)
    check_raises(IndexError, needle_index_error_before_a_container_zero_division, 0)
    for f in (needle_raises_before_a_raising_set, needle_raises_before_a_raising_tuple,
              needle_index_error_before_a_container_zero_division):
        check(f, 2)


def power_of_a_constant_power_of_two(y):
    return (abs((0.0 % math.inf) - (-4611686018427387904)) + 0.5) ** y, math.pow(2.0 ** 57, y)


def power_of_constants():
    return (abs((0.0 % math.inf) - (-4611686018427387904)) + 0.5) ** math.asinh(-77.188)


def power_of_a_variable_to_constants(x):
    return x ** 0.5, x ** -1.0, x ** 2.0, x ** 0.1, math.pow(x, 1.5), x ** (1 / 3)


def test_a_float_power_is_cs_pow():
    """Seeds 20261411 program 2929 and 20261415 program 438: a constant power of two
    to a float power was rewritten by LLVM to exp2(n * y), which rounds n * y first
    (70 units in the last place off); compiled code calls C's pow(), as CPython."""
    for y in (-5.039433142931803, 0.1, 0.3, -0.7, 1e-9, 12.25, 0.0, -0.0, math.nan):
        check(power_of_a_constant_power_of_two, y)
    check(power_of_constants)
    for x in (2.0, 3.7, 2.0 ** 62, 1e-12, 12345.678, math.inf, math.nan):
        check(power_of_a_variable_to_constants, x)


def min_and_max(a):
    return a.max(), a.min(), np.max(a), np.min(a)


def test_min_and_max_of_equal_zeros_keep_the_first_as_numba():
    """Seed 20261416 program 107: among equal values min/max return the first, as Numba
    (NumPy's loops keep either zero; documented)."""
    for first in (-0.0, 0.0):
        for dt in (np.float32, np.float64):
            a = np.array([first, -first, -first, first], dtype=dt)
            for r in njit(min_and_max)(a):
                assert r == 0.0 and math.copysign(1.0, r) == math.copysign(1.0, first)


def test_a_pop_default_is_evaluated_before_the_pop():
    import mahou
    # Seed 20261507 program 3295: d.pop(k, d.setdefault(k, v)) popped first, then the
    # default's setdefault put the key back. Python evaluates the arguments first.
    from mahou.experimental import jitclass

    def plain(w):
        d = {0: False, 3: True}
        r = d.pop(0, d.setdefault(w, False))
        g = d.get(7, d.setdefault(7, True))
        return (w in d), r, g, len(d)

    f = mahou.njit(plain)
    for w in (0, 3, 5):
        assert f(w) == plain(w)

    @jitclass([("v", mahou.int64)])
    class Key:
        def __init__(self, v):
            self.v = v

        def __hash__(self):
            return self.v

        def __eq__(self, other):
            return self.v == other.v

    @mahou.njit
    def keyed(w):
        k0 = Key(0)
        d = {k0: 1}
        r = d.pop(k0, d.setdefault(k0, 5))
        s = d.get(Key(w), d.setdefault(Key(w), 9))
        return (k0 in d), r, s, len(d)

    assert keyed(0) == (True, 1, 9, 1)  # Key(0) == k0: the key put back by setdefault
    assert keyed(2) == (False, 1, 9, 1)


def test_reversed_iterates_the_list_it_was_made_from():
    # Seed 20261504 program 286: the body cleared the list and rebound its variable to a
    # new list; the loop went on over the new one (Python's iterator keeps the old one).
    def f(n):
        xs = [1, 2, 3]
        out = []
        for x in reversed(xs):
            xs.clear()
            out.append(x)
            xs = [10, 20, 30, n]
        for x in reversed(xs):
            out.append(x)
            xs = [7]
        return out

    for n in (0, 5):
        assert njit(f)(n) == f(n)


def set_in_place(s, t):
    alias = s
    s |= t
    s -= {0}
    return len(alias)


def test_the_fuzzers_reference_changes_sets_in_place():
    """s |= t is set.__ior__ (the same set changes): the reference rewrote every
    augmented assignment to `s = s | t`, which hid compiled code rebinding the name to a
    new set (the caller's set and aliases unchanged)."""
    ref = reference_of("def f(s, t):\n    alias = s\n    s |= t\n    s -= {0}\n    return len(alias)\n", "f")
    a, b = {0, 1}, {0, 1}
    assert ref(a, {2}) == 2 and a == {1, 2}
    assert njit(set_in_place)(b, {2}) == 2 and b == {1, 2}


def len_of_literal_dict(x):
    return len({'w': 'ab', 'y': 1 / x})


def len_of_tuple(x):
    return len((1 // x, 2.5))


def in_literal_dict(x):
    return 'w' in {'w': 'ab', 'y': 1 / x}


def literal_dict_get_default(x):
    return {'x': 1, 'w': 'a'}.get('x', 1 / x)


def hasattr_of_a_tuple(x):
    return hasattr((1 / x, 2), 'foo')


def in_order(x):
    xs = [1]
    try:
        return (1 // x) in {'w': 2, 'y': xs[5], 'z': 'q'}
    except ZeroDivisionError:
        return -1
    except IndexError:
        return -2


@pytest.mark.parametrize("fn", [len_of_literal_dict, len_of_tuple, in_literal_dict, literal_dict_get_default,
                                hasattr_of_a_tuple, in_order])
@pytest.mark.parametrize("x", [0, 2, -3])
def test_values_known_from_the_type_still_evaluate_their_operands(fn, x):
    """Seed 1, program 175: len() of a literal dict (and of a tuple, `in` and get()'s
    default on a literal dict, hasattr) was answered from the type without evaluating the
    values, so `1 / x` never raised ZeroDivisionError; `in` evaluates the needle first."""
    try:
        expected = ("value", fn(x))
    except ZeroDivisionError:
        expected = ("raise",)
    try:
        got = ("value", njit(fn)(x))
    except ZeroDivisionError:
        got = ("raise",)
    assert got == expected
