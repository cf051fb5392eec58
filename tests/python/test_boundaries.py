"""Memory safety where values cross into compiled code and where compiled code sizes
memory: sizes that overflow int64 (arrays, strings, lists, reshapes, repeats) raise
NumPy's or CPython's exception instead of allocating a wrapped size; an array given
where an array type is declared (jitclass fields, typed containers, objmode outputs,
explicit signatures) must be of that dtype, dimensions, contiguity and writeability;
deep object graphs are released without recursion; a list passed twice is one list;
dicts changed while iterated raise CPython's RuntimeError; deeply nested tuples
dispatch; thread counts past a C int are ValueError."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import mahou
from mahou import typed, types
from mahou.experimental import jitclass


def outcome(fn, *args):
    try:
        return ("value", fn(*args))
    except Exception as e:  # noqa: BLE001
        return ("raised", type(e).__name__)


# ------------------------------------------------------------------ array sizes

def empty_last(n):
    a = np.empty(n)
    a[n - 1] = 1.0
    return a[n - 1]


def ones2(n, m):
    return np.ones((n, m), dtype=np.int8).sum()


def zeros3(n, m):
    a = np.zeros((0, n, m))
    return a.shape[0]


def full1(n):
    return np.full(n, 2, dtype=np.int32).sum()


def reshape2(a, n, m):
    b = a.reshape(n, m)
    return b.shape


@pytest.mark.parametrize("fn,args", [
    (empty_last, (2**61,)),          # 2**61 * 8 bytes wraps to 0
    (empty_last, (2**60 + 1,)),      # wraps to a negative size
    (empty_last, (2**63 - 1,)),
    (empty_last, (2**59,)),          # fits in int64: MemoryError
    (empty_last, (-1,)),
    (empty_last, (5,)),
    (ones2, (2**32, 2**32)),         # the shape's product wraps to 0
    (ones2, (2**47, 2**17)),         # 2**64 bytes: wraps exactly to 0
    (ones2, (0, 2**63 - 1)),
    (ones2, (3, 4)),
    (zeros3, (2**62, 4)),            # empty, but the nonzero extents overflow: NumPy's ValueError
    (zeros3, (2**30, 2**30)),
    (full1, (2**62,)),
    (full1, (7,)),
])
def test_array_sizes_raise_numpys_exception(fn, args):
    want = outcome(fn, *args)
    assert outcome(mahou.njit(fn), *args) == want


@pytest.mark.parametrize("size,dims", [
    (0, (2**32, 2**32)), (0, (-1, 2**61)), (0, (-1, 0)), (0, (0, -1)), (6, (-1, 2)), (6, (3, -7)),
    (6, (-2**63, 2)), (12, (2, -1)), (4, (-1, -1)), (4, (2**62, 4)), (0, (0, 2**61)), (6, (2, 3)), (1, (1, 1)),
])
def test_reshape_extents_near_the_limits(size, dims):
    a = np.arange(size, dtype=np.float64)
    want = outcome(reshape2, a, *dims)
    got = outcome(mahou.njit(reshape2), a, *dims)
    assert got == want


def repeat(a, n):
    return np.repeat(a, n).shape[0]


def tile(a, n):
    return np.tile(a, n).shape[0]


def kron(a, b):
    c = np.kron(a, b)
    return c.shape


@pytest.mark.parametrize("fn,args,want", [
    (repeat, (np.ones(4), 2**62), ValueError),   # (NumPy's own np.repeat crashes on this one)
    (repeat, (np.ones(4), np.full(4, 2**62)), ValueError),
    (repeat, (np.ones(3), -1), ValueError),
    (tile, (np.ones(4), 2**62), ValueError),
    (tile, (np.ones(4), -1), ValueError),
    (kron, (np.broadcast_to(np.ones((1, 1)), (2**32, 1)), np.broadcast_to(np.ones((1, 1)), (2**32, 1))), ValueError),
])
def test_library_sizes_are_checked(fn, args, want):
    with pytest.raises(want):
        mahou.njit(fn)(*args)


def test_library_sizes_still_right_when_they_fit():
    f, g = mahou.njit(repeat), mahou.njit(tile)
    for n in (0, 1, 3):
        assert f(np.arange(4.0), n) == repeat(np.arange(4.0), n)
        assert g(np.arange(4.0), n) == tile(np.arange(4.0), n)
    assert f(np.arange(3.0), np.array([0, 2, 5])) == 7


# ------------------------------------------------------------------ string and list sizes

def str_repeat(s, n):
    r = s * n
    return len(r), r[:4]


def list_repeat(xs, n):
    r = xs * n
    return len(r), r[:3]


def ljust(s, n):
    return len(s.ljust(n))


def padded(s, n, fill):
    return len(s.center(n, fill)), len(s.rjust(n, fill)), len(s.zfill(n)), s.center(3, fill), s.zfill(4)


@pytest.mark.parametrize("fn,args", [
    (str_repeat, ("ab", 2**62)), (str_repeat, ("ab", 2**63 - 1)), (str_repeat, ("ab", 2**61)),
    (str_repeat, ("é", 2**62)), (str_repeat, ("🙂", 2**61)), (str_repeat, ("", 2**40)), (str_repeat, ("ab", -5)),
    (str_repeat, ("ab", 3)), (list_repeat, ([1, 2], 2**62)), (list_repeat, ([1, 2], 2**61)),
    (list_repeat, ([1.5], 2**60)), (list_repeat, ([1, 2], -1)), (list_repeat, ([True], 4)),
    (ljust, ("a", 2**62)), (ljust, ("a", 2**63 - 1)), (ljust, ("abc", -3)),
    (padded, ("-7", 2**62, "*")), (padded, ("é", 2**63 - 1, "🙂")), (padded, ("日本", 2**61, "x")),
    (padded, ("+1", -2**63, "é")), (padded, ("-1", 5, "日")), (padded, ("", 0, "🙂")), (padded, ("ab", 6, " ")),
])
def test_string_and_list_sizes_raise_cpythons_exception(fn, args):
    assert outcome(mahou.njit(fn), *args) == outcome(fn, *args)


def empty_list_repeat(n):
    xs = [1]
    xs.clear()
    return len(xs * n)


def test_empty_sequences_repeated_a_huge_number_of_times_return_at_once():
    assert mahou.njit(empty_list_repeat)(2**40) == 0
    assert mahou.njit(str_repeat)("", 2**62) == (0, "")


# ------------------------------------------------------------------ declared array types

class Holder:
    def __init__(self, a):
        self.a = a

    def total(self):
        return self.a.sum()

    def poke(self):
        self.a[0] = 42.0
        return self.a[0]


def holder(field_type):
    cls = type("Holder", (), {k: v for k, v in vars(Holder).items() if k not in ("__dict__", "__weakref__")})
    return jitclass([("a", field_type)])(cls)


def strided(n):
    return np.arange(2.0 * n)[::2]


def read_only(a):
    a = a.copy()
    a.flags.writeable = False
    return a


REFUSED_FOR_FLOAT64_C = [
    np.arange(4, dtype=np.int8), np.arange(4, dtype=np.float32), np.array([1.0, "x"], dtype=object),
    np.arange(3.0).astype(">f8"), np.ones((2, 2)), strided(4), np.arange(5.0)[::-1], read_only(np.arange(3.0)),
    np.broadcast_to(np.ones(1), (3,)), [1.0, 2.0], 3.0, None, "abc",
]
ACCEPTED_FOR_FLOAT64_A = [np.arange(4.0), strided(3), np.arange(5.0)[::-1], np.zeros(0), np.asfortranarray(np.ones(1))]


@pytest.mark.parametrize("value", REFUSED_FOR_FLOAT64_C, ids=lambda v: repr(v)[:30])
def test_a_contiguous_float64_field_refuses_what_it_cannot_hold(value):
    h = holder(mahou.float64[::1])(np.zeros(3))
    with pytest.raises(TypeError, match="field 'a'"):
        h.a = value
    assert h.total() == 0.0  # unchanged


@pytest.mark.parametrize("value", ACCEPTED_FOR_FLOAT64_A, ids=lambda v: repr(v)[:30])
def test_an_any_layout_float64_field_takes_every_layout(value):
    h = holder(mahou.float64[:])(np.zeros(3))
    h.a = value
    assert h.total() == value.sum()
    if value.size and value.flags.writeable:
        assert h.poke() == 42.0 and value[0] == 42.0  # the field is the caller's array


def test_fields_of_2d_layouts():
    c = holder(mahou.float64[:, ::1])(np.zeros((2, 2)))
    f = holder(mahou.float64[::1, :])(np.zeros((2, 2), order="F"))
    a = np.arange(6.0).reshape(2, 3)
    c.a = a
    assert c.total() == a.sum()
    with pytest.raises(TypeError):
        c.a = np.asfortranarray(a)
    with pytest.raises(TypeError):
        c.a = a[:, ::2]
    f.a = np.asfortranarray(a)
    assert f.total() == a.sum()
    with pytest.raises(TypeError):
        f.a = a
    for both in (np.ones((1, 3)), np.ones((3, 1))):  # C and Fortran contiguous at once
        c.a = both
        f.a = both
        assert c.total() == f.total() == 3.0


def first_total(xs):
    return xs[0].sum()


def value_total(d):
    return d[1].sum()


@pytest.mark.parametrize("value", REFUSED_FOR_FLOAT64_C, ids=lambda v: repr(v)[:30])
def test_typed_containers_of_contiguous_arrays_refuse_other_arrays(value):
    xs = typed.List.empty_list(types.float64[::1])
    with pytest.raises(TypeError):
        xs.append(value)
    d = typed.Dict.empty(key_type=types.int64, value_type=types.float64[::1])
    with pytest.raises(TypeError):
        d[1] = value
    assert len(xs) == 0 and len(d) == 0


@pytest.mark.parametrize("value", ACCEPTED_FOR_FLOAT64_A, ids=lambda v: repr(v)[:30])
def test_typed_containers_of_any_layout_arrays(value):
    xs = typed.List.empty_list(types.float64[:])
    xs.append(value)
    d = typed.Dict.empty(key_type=types.int64, value_type=types.float64[:])
    d[1] = value
    assert mahou.njit(first_total)(xs) == mahou.njit(value_total)(d) == value.sum()


def om_contiguous(k):
    with mahou.objmode(y="float64[::1]"):
        y = OM_VALUES[k]
    return y.sum()


def om_any(k):
    with mahou.objmode(y="float64[:]"):
        y = OM_VALUES[k]
    return y.sum()


OM_VALUES = REFUSED_FOR_FLOAT64_C + ACCEPTED_FOR_FLOAT64_A


def test_objmode_outputs_are_checked_against_their_declared_types():
    c, a = mahou.njit(om_contiguous), mahou.njit(om_any)
    for k, v in enumerate(OM_VALUES):
        if k < len(REFUSED_FOR_FLOAT64_C):
            with pytest.raises(TypeError, match="objmode output 'y'"):
                c(k)
        else:
            assert a(k) == v.sum()


def total(a):
    return a.sum()


def test_explicit_signatures_refuse_other_layouts_and_dtypes():
    f = mahou.njit("float64(float64[::1])")(total)
    assert f(np.arange(4.0)) == 6.0
    for v in (strided(3), np.arange(4, dtype=np.int8), read_only(np.arange(3.0))):
        with pytest.raises(TypeError):
            f(v)


# ------------------------------------------------------------------ deep graphs, nesting

DEEP_RELEASE = """
import mahou
from mahou.experimental import jitclass

node_t = mahou.deferred_type()

@jitclass([("v", mahou.int64), ("nxt", mahou.optional(node_t))])
class Node:
    def __init__(self, v, nxt):
        self.v = v
        self.nxt = nxt

node_t.define(Node.class_type.instance_type)

@mahou.njit
def build(n):
    h = Node(0, None)
    for i in range(1, n):
        h = Node(i, h)
    return h

@mahou.njit
def build_and_drop(n):
    h = build(n)
    return h.v

h = build(300000)       # dropped from Python
del h
print(build_and_drop(300000))  # dropped in compiled code
h = None
for i in range(200000):  # built from Python, dropped from Python
    h = Node(i, h)
del h
print("released")
"""


def test_a_deep_linked_list_is_released_without_recursion(tmp_path):
    (tmp_path / "deep.py").write_text(DEEP_RELEASE)
    out = subprocess.run([sys.executable, "deep.py"], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, f"exit status {out.returncode}: {out.stderr[-2000:]}"
    assert out.stdout.split() == ["299999", "released"]


def depth(t):
    return 1


def unwrap(t):
    return t[0][0][0]


def nest(n):
    v = 1
    for _ in range(n):
        v = (v,)
    return v


def test_deeply_nested_tuple_arguments_compile_and_dispatch():
    f, g = mahou.njit(depth), mahou.njit(unwrap)
    for n in (24, 32, 64, 200, 256):
        assert f(nest(n)) == 1
        assert f(nest(n)) == 1  # the hit path
        assert g(nest(n)) == nest(n - 3)
    with pytest.raises(TypeError, match="nested more than 256 levels"):
        f(nest(300))


# ------------------------------------------------------------------ aliasing and iteration

def append_both(a, b):
    a.append(1)
    b.append(2)
    return len(a) + len(b)


def write_a_read_b(a, b):
    a[0] = 5
    return b[0]


def inner_alias(xss):
    xss[0][0] = 7
    return xss[1][0]


def extend_self(a, b):
    a.extend(b)
    return len(a), len(b)


@pytest.mark.parametrize("fn,make", [
    (append_both, lambda: ([0],) * 2), (write_a_read_b, lambda: ([0, 1],) * 2),
    (extend_self, lambda: ([1, 2],) * 2), (append_both, lambda: ([0], [0])),
    (inner_alias, lambda: ([[1, 2]] * 2,)), (inner_alias, lambda: ([[1, 2], [3]],)),
])
def test_a_list_passed_twice_is_one_list(fn, make):
    args, ref = make(), make()
    want = fn(*ref)
    assert mahou.njit(fn)(*args) == want
    assert list(args) == list(ref)


def grow(n):
    d = {}
    for i in range(n):
        d[i] = i
    for k in d:
        d[k + 100] = 1
    return len(d)


def readd_each(n):
    d = {}
    for i in range(n):
        d[i] = i
    t = 0
    for k in d:
        d[k] = d.pop(k)
        t += 1
        if t > 100:
            break
    return t


def update_values(n):
    d = {}
    for i in range(n):
        d[i] = i
    for k in d:
        d[k] = -d[k]
    return sorted(d.values())


def outcome_and_message(fn, *args):
    try:
        return ("value", fn(*args))
    except Exception as e:  # noqa: BLE001
        return ("raised", type(e).__name__, str(e))


@pytest.mark.parametrize("fn", [grow, readd_each, update_values])
@pytest.mark.parametrize("n", [0, 1, 5])
def test_dicts_changed_while_iterated_in_compiled_code(fn, n):
    assert outcome_and_message(mahou.njit(fn), n) == outcome_and_message(fn, n)


def python_side(d, op):
    seen = []
    for k in (d if op != "items" else d.keys()):
        seen.append(k)
        if op == "add":
            d[k + 100] = 1
        elif op in ("readd", "items"):
            d[k] = d.pop(k)
        elif op == "clear":
            d.clear()
        elif op == "set":
            d[k] = -1
    return seen


@pytest.mark.parametrize("op", ["add", "readd", "clear", "set", "items"])
def test_typed_dict_changed_while_iterated_from_python(op):
    ref = {i: i for i in range(5)}
    d = typed.Dict.empty(key_type=types.int64, value_type=types.int64)
    for k, v in ref.items():
        d[k] = v
    want, got = outcome(python_side, ref, op), outcome(python_side, d, op)
    assert got == want
    assert dict(d.items()) == ref


def test_typed_dict_views():
    d = typed.Dict.empty(key_type=types.int64, value_type=types.float64)
    for i in range(4):
        d[i] = i / 2
    assert list(d.keys()) == [0, 1, 2, 3] and list(d.values()) == [0.0, 0.5, 1.0, 1.5]
    assert list(d.items())[1] == (1, 0.5) and len(d.items()) == 4 and (2, 1.0) in d.items() and 3 in d.keys()
    assert d.keys() & {1, 9} == {1}
    with pytest.raises(RuntimeError, match="changed size"):
        for v in d.values():
            del d[0]


# ------------------------------------------------------------------ thread counts

@pytest.mark.parametrize("n", [0, -1, 2**31, 2**63, -2**63, 10**30])
def test_thread_counts_out_of_range_are_value_errors(n):
    before = mahou.get_num_threads()
    with pytest.raises(ValueError):
        mahou.set_num_threads(n)
    with pytest.raises(ValueError):
        mahou.config.NUMBA_NUM_THREADS = n
    assert mahou.get_num_threads() == before


# ------------------------------------------------------------------ pickles

RENAMED = """
import pickle, subprocess, sys
import mahou

def _f(x):
    return x * 2

def _helper(x):
    return x * 3

renamed = mahou.njit(_f)

@mahou.njit
def uses_objmode(x):
    with mahou.objmode(y="int64"):
        y = _helper(x)
    return y + 1

assert renamed(3) == 6 and uses_objmode(2) == 7
globals()["_f"] = _f  # its own name is a global of the function (read for recursion)
data = pickle.dumps((renamed, uses_objmode))
# A process whose __main__ is not this file: nothing is found there by name.
load = "import pickle, sys; f, g = pickle.loads(sys.stdin.buffer.read()); print(f(20), g(5))"
out = subprocess.run([sys.executable, "-c", load], input=data, capture_output=True)
print(out.stdout.decode().strip(), out.stderr.decode()[-500:])
"""


def test_a_function_renamed_in_main_loads_in_another_process(tmp_path):
    (tmp_path / "renamed.py").write_text(RENAMED)
    out = subprocess.run([sys.executable, "renamed.py"], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split()[:2] == ["40", "16"], out.stdout


def test_the_bad_input_fuzzer_passes_a_fixed_seed(tmp_path):
    """tests/fuzz/bad_input.py, a few cases of every kind (the fuzzer itself is run with
    more by `make test`)."""
    script = os.path.join(os.path.dirname(__file__), "..", "fuzz", "bad_input.py")
    out = subprocess.run([sys.executable, script, "--seed", "5", "--cases", "70", "--out", str(tmp_path)],
                         capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]


# ------------------------------------------------------------------ forged machine code

def add_one(x):
    return x + 1


def split_payload(p):
    """Dispatcher._export_code's bytes: header and each overload's fields (argument
    types, symbol, return type, declared return type, dependencies, object)."""
    n = int.from_bytes(p[12:20], "little")
    pos = 20 + n + 4
    head, overloads = p[:pos], []
    for _ in range(int.from_bytes(p[pos - 4:pos], "little")):
        nargs = int.from_bytes(p[pos:pos + 4], "little")
        pos += 4
        fields = []
        for _ in range(nargs + 5):
            n = int.from_bytes(p[pos:pos + 8], "little")
            fields.append(p[pos + 8:pos + 8 + n])
            pos += 8 + n
        overloads.append(fields)
    return head, overloads


def join_payload(head, overloads):
    out = bytearray(head)
    for fields in overloads:
        out += (len(fields) - 5).to_bytes(4, "little")
        for f in fields:
            out += len(f).to_bytes(8, "little") + f
    return bytes(out)


def sections(obj):
    shoff, shnum = int.from_bytes(obj[0x28:0x30], "little"), int.from_bytes(obj[0x3c:0x3e], "little")
    out = []
    for i in range(shnum):
        h = shoff + 64 * i
        out.append({"header": h, "type": int.from_bytes(obj[h + 4:h + 8], "little"),
                    "offset": int.from_bytes(obj[h + 24:h + 32], "little"),
                    "size": int.from_bytes(obj[h + 32:h + 40], "little"),
                    "info": int.from_bytes(obj[h + 44:h + 48], "little")})
    return out


def put(b, at, width, value):
    b[at:at + width] = value.to_bytes(width, "little")


def forgeries(obj):
    secs = sections(obj)
    rela = next(s for s in secs if s["type"] == 4)
    symtab = next(s for s in secs if s["type"] == 2)
    text = secs[rela["info"]]
    out = {}
    b = bytearray(obj)
    put(b, 0x28, 8, len(obj) + 64)  # the section table past the end
    out["section table outside the file"] = b
    b = bytearray(obj)
    put(b, rela["offset"], 8, text["size"] - 1)  # patches bytes past its section
    out["relocation outside its section"] = b
    b = bytearray(obj)
    put(b, rela["offset"] + 8, 4, 200)  # a relocation type never emitted
    out["unknown relocation type"] = b
    b = bytearray(obj)
    put(b, text["header"] + 24, 8, 0)  # the code moved over the ELF header
    out["code over the header"] = b
    b = bytearray(obj)
    put(b, symtab["offset"] + 24 * 2 + 8, 8, text["size"] + 16)  # a function past its section
    out["symbol outside its section"] = b
    b = bytearray(obj)
    put(b, symtab["offset"] + 24 * 2 + 6, 2, 1)  # a function in the string table
    out["symbol in a section not loaded"] = b
    return out


def test_forged_machine_code_is_refused_before_it_is_linked():
    """The bytes a pickle carries, edited inconsistently with checksums recomputed (the
    loader sees a valid seal): pickle.UnpicklingError, the code never linked; the
    dispatcher compiles instead when called."""
    import gc
    import pickle
    from mahou import serialize

    f = mahou.njit(add_one)
    assert f(52) == 53
    payload = f._export_code()
    del f
    gc.collect()  # its code unlinked: a payload's object is what a load links
    head, overloads = split_payload(payload)
    assert join_payload(head, overloads) == payload
    control = mahou.njit(add_one)
    serialize._link(control, payload)
    assert control(52) == 53 and list(control.stats.values())[0]["shipped"]
    del control
    gc.collect()
    fields = overloads[0]
    cases = {what: [fields[:-1] + [bytes(obj)]] for what, obj in forgeries(fields[-1]).items()}
    for ret in (b"float64", b"int32", b"unicode_type", b"Tuple(int64, int64)"):
        cases[f"return type {ret.decode()}"] = [fields[:2] + [ret] + fields[3:]]
    for what, forged in cases.items():
        g = mahou.njit(add_one)
        with pytest.raises(pickle.UnpicklingError, match="corrupted"):
            serialize._link(g, join_payload(head, forged))
        assert g(52) == 53, what
        assert not list(g.stats.values())[0]["shipped"], what
        del g
        gc.collect()  # (code still linked under the symbol would be used instead of the payload's)


def test_floats_without_an_int64_value_are_refused_by_integer_fields():
    cls = jitclass([("a", mahou.int64)])(type("Counter", (), {"__init__": Holder.__init__}))
    c = cls(1)
    c.a = 2.75  # truncated, as an explicit signature converts
    assert c.a == 2
    for bad, exc in ((float("nan"), ValueError), (float("inf"), OverflowError), (-1e300, OverflowError),
                     (2.0**63, OverflowError)):
        with pytest.raises(exc):
            c.a = bad
        assert c.a == 2
    c.a = -2.0**63
    assert c.a == -2**63


# ---------------------------------------------------------------- Generators in containers
# A Generator argument borrows its Python object for the call; stored in a container that
# may outlive the call it holds a reference of its own (released with the item), so the
# container keeps the Generator alive and draws continue its stream.

def test_typed_containers_hold_generators():
    import gc
    import sys

    import numpy as np
    from mahou import njit, prange, typed

    @njit
    def draw_each(gens):
        out = np.empty(len(gens))
        for i in range(len(gens)):
            out[i] = gens[i].random()
        return out

    gens = typed.List([np.random.default_rng(s) for s in range(4)])
    ref = [np.random.default_rng(s) for s in range(4)]
    for _ in range(2):  # the stream continues from one call to the next
        assert draw_each(gens).tolist() == [g.random() for g in ref]
    assert [g.random() for g in gens] == [g.random() for g in ref]  # and in Python

    rng = np.random.default_rng(5)
    before = sys.getrefcount(rng)
    d = typed.Dict()
    d[1] = rng
    assert d[1] is rng

    @njit
    def containers(a, b):
        xs = [a, b]
        xs.append(b)
        held = typed.List()
        held.append(a)
        return xs, held, {7: a}, xs[0].random() + xs[2].random()

    other = np.random.default_rng(6)
    xs, held, dd, s = containers(rng, other)
    assert xs[0] is rng and xs[2] is other and held[0] is rng and dd[7] is rng
    assert s == np.random.default_rng(5).random() + np.random.default_rng(6).random()
    del xs, held, dd, d
    gc.collect()
    assert sys.getrefcount(rng) == before

    # the list keeps a Generator alive after every other reference is gone
    held = typed.List([np.random.default_rng(9)])
    gc.collect()
    assert draw_each(held)[0] == np.random.default_rng(9).random()

    @njit(parallel=True)
    def one_per_iteration(gens):
        out = np.zeros(len(gens))
        for p in prange(len(gens)):
            out[p] = gens[np.int64(p)].standard_normal()
        return out

    gens = typed.List([np.random.default_rng(s) for s in range(8)])
    assert one_per_iteration(gens).tolist() == [np.random.default_rng(s).standard_normal() for s in range(8)]


def test_arguments_inside_tuples_stored_in_containers_stay_alive():
    # an argument array or Generator inside a tuple appended to a typed list gets a
    # reference of its own: the list outlives the call and the caller's references
    import gc

    import numpy as np
    from mahou import njit, typed

    @njit
    def keep(a, g):
        arrays = typed.List()
        arrays.append((a, 1))
        gens = typed.List()
        gens.append((2.5, (g, a)))
        return arrays, gens

    arrays, gens = keep(np.arange(5.0), np.random.default_rng(3))
    gc.collect()
    filler = [np.full(5, 7.0) for _ in range(100)]  # would reuse freed memory
    assert arrays[0][0].tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]
    assert gens[0][1][1].tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]
    assert gens[0][1][0].random() == np.random.default_rng(3).random()
    del filler


def test_arguments_inside_optionals_stored_in_containers_stay_alive():
    # an Optional holding an argument array (`a if flag else None`) stored in a typed list,
    # or a dict keeps the array alive; a None stays None
    import gc
    import sys

    import numpy as np
    from mahou import njit, typed

    @njit
    def keep(a, flag):
        items = typed.List()
        for i in range(3):
            items.append(a if flag or i == 1 else None)
        pairs = {}
        pairs[0] = (1, a if flag else None)
        return items, pairs

    a = np.arange(5.0)
    before = sys.getrefcount(a)
    items, pairs = keep(a, False)
    assert sys.getrefcount(a) > before  # the middle item holds it
    assert items[0] is None and items[2] is None and pairs[0][1] is None
    del items, pairs
    gc.collect()
    assert sys.getrefcount(a) == before
    items, pairs = keep(np.arange(5.0), True)
    gc.collect()
    filler = [np.full(5, 7.0) for _ in range(100)]  # would reuse freed memory
    assert [x.tolist() for x in items] == [[0.0, 1.0, 2.0, 3.0, 4.0]] * 3
    assert pairs[0][1].tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]
    del filler


def test_generators_returned_to_python_keep_their_argument_arrays_alive():
    # a generator's frame outlives the call that made it: argument arrays (also inside
    # tuples, also from a generator made in compiled code) get a holder of their own
    import gc
    import sys

    import numpy as np
    from mahou import njit

    @njit
    def walk(a, t):
        for i in range(3):
            yield a[i] + t[1][0]

    @njit
    def make(a):
        return walk(a[1:], (1, a))

    @njit
    def consume(a):
        s = 0.0
        for _ in range(10):
            for x in walk(a, (1, a)):
                s += x
        return s

    g1 = walk(np.arange(5.0), (0, np.full(2, 10.0)))
    g2 = make(np.arange(5.0))
    gc.collect()
    filler = [np.full(5, 7.0) for _ in range(100)]  # would reuse freed memory
    assert list(g1) == [10.0, 11.0, 12.0]
    assert list(g2) == [1.0, 2.0, 3.0]
    del filler
    a = np.arange(5.0)
    before = sys.getrefcount(a)
    assert consume(a) == 30.0
    g3 = walk(a, (0, a))
    del g3
    gc.collect()
    assert sys.getrefcount(a) == before


def test_huge_unsigned_indices_are_out_of_range_not_negative():
    # a uint64 index past INT64_MAX is not -1 (NumPy and Python refuse it): with
    # boundscheck it is an IndexError, never the last item
    import numpy as np
    import pytest
    from mahou import njit

    a = np.arange(5.0)
    get = njit(boundscheck=True)(lambda a, i: a[i])

    @njit(boundscheck=True)
    def store(a, i):
        a[i] = 9.0

    @njit(boundscheck=True)
    def view(b, i):
        return b[i, :].sum()

    @njit
    def in_list(i):
        xs = [1, 2, 3]
        xs[i] = 7
        return xs[i]

    for i in (np.uint64(2**64 - 1), np.uint64(2**63)):
        with pytest.raises(IndexError):
            get(a, i)
        with pytest.raises(IndexError):
            store(a, i)
        with pytest.raises(IndexError):
            view(np.ones((2, 2)), i)
        with pytest.raises(IndexError):
            in_list(i)
    assert a.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]
    assert get(a, np.uint64(4)) == 4.0 and in_list(np.uint64(2)) == 7
