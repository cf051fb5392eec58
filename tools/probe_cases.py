"""The cases tools/probe_boundaries.py runs against mahou or Numba: bad input at the
object layer (sizes past the limits, arrays of the wrong dtype or layout where a type is
declared, deep graphs, aliasing, containers changed while iterated) and parallel faults.

A case is a function of the implementation module `nb` (mahou or numba): it returns
(got, expected) and is right when they are equal, or raises, and is right when the
exception's class (or a base) is one the case accepts. MUST_RAISE as `expected` says
that returning at all is wrong. The compiled functions are plain module-level functions
compiled inside the case, so both implementations compile the same source."""

import os
import threading
import time

import numpy as np

CASES = []  # (category, name, function, accepted exception class names)
MUST_RAISE = object()


class ChildHung(Exception):
    """A forked child of the case ran past its time limit (counted as hung)."""


class ChildDied(Exception):
    """A forked child of the case was killed by a signal (counted as crashed)."""
SIZE = ("ValueError", "MemoryError", "OverflowError")


def case(category, *accept):
    def register(fn):
        CASES.append((category, fn.__name__, fn, accept))
        return fn
    return register


# ------------------------------------------------------------------ compiled bodies

def _empty_last(n):
    a = np.empty(n)
    a[n - 1] = 1.0
    return a[0]


def _ones2(n, m):
    return np.ones((n, m))[0, 0]


def _zeros3(n):
    return np.zeros((0, n, n)).size


def _zeros_int8(n):
    return np.zeros(n, np.int8)[0]


def _full(n):
    return np.full(n, 1.5)[0]


def _arange(n):
    return np.arange(n)[0]


def _linspace(n):
    return np.linspace(0.0, 1.0, n)[0]


def _eye(n):
    return np.eye(n)[0, 0]


def _reshape(a, n, m):
    b = a.reshape(n, m)
    return b.shape[0]


def _repeat(a, n):
    return np.repeat(a, n).shape[0]


def _tile(a, n):
    return np.tile(a, n).shape[0]


def _str_repeat(n):
    return len("ab" * n)


def _list_repeat(n):
    return len([1, 2] * n)


def _float_list_repeat(n):
    return len([1.5] * n)


def _ljust(n):
    return len("a".ljust(n))


def _center(n):
    return len("a".center(n))


def _zfill(n):
    return len("7".zfill(n))


def _sum(a):
    return a.sum()


def _first(xs):
    return xs[0]


def _total(xs):
    t = 0.0
    for x in xs:
        t += x.sum()
    return t


def _append_both(a, b):
    a.append(1)
    b.append(2)
    return len(a) + len(b)


def _write_a_read_b(a, b):
    a[0] = 5
    return b[0]


def _inner_alias(xss):
    xss[0][0] = 7
    return xss[1][0]


def _dict_grow_while_iterating(n):
    d = {}
    for i in range(n):
        d[i] = i
    for k in d:
        d[k + 100] = 1
    return len(d)


def _dict_readd_while_iterating(n):
    d = {}
    for i in range(n):
        d[i] = i
    t = 0
    for k in d:
        v = d.pop(k)
        d[k] = v
        t += 1
        if t > 1000:
            break
    return t


def _set_grow_while_iterating(n):
    s = set()
    for i in range(n):
        s.add(i)
    for k in s:
        s.add(k + 100)
    return len(s)


def _str_index(s, i):
    return s[i]


def _list_pop(xs, i):
    return xs.pop(i)


def _list_insert(xs, i):
    xs.insert(i, 9)
    return xs[-1]


def _str_slice(s, i):
    return s[i:]


def _find(s, i):
    return s.find("", i)


def _value_sum(d):
    return d[1].sum()


def _add1(x):
    return x + 1


def _tuple_depth(t):
    return 1


def _objmode_f8(x):
    return x


class _Holder:
    def __init__(self, a):
        self.a = a

    def total(self):
        return self.a.sum()

    def first(self):
        return self.a[0]

    def fill(self):
        self.a[0] = 42.0
        return self.a[0]


class _Node:
    def __init__(self, v, nxt):
        self.v = v
        self.nxt = nxt


# ------------------------------------------------------------------ sizes

@case("object", *SIZE)
def empty_bytes_wrap(nb):
    return nb.njit(_empty_last)(2**61), MUST_RAISE


@case("object", *SIZE)
def empty_bytes_negative(nb):
    return nb.njit(_empty_last)(2**60 + 1), MUST_RAISE


@case("object", *SIZE)
def ones_shape_product_wraps(nb):
    return nb.njit(_ones2)(2**32, 2**32), MUST_RAISE


@case("object", *SIZE)
def zeros_empty_but_overflowing(nb):
    return nb.njit(_zeros3)(2**62), MUST_RAISE


@case("object", *SIZE)
def zeros_int8_huge(nb):
    return nb.njit(_zeros_int8)(2**62), MUST_RAISE


@case("object", *SIZE)
def zeros_int8_max(nb):
    return nb.njit(_zeros_int8)(2**63 - 1), MUST_RAISE


@case("object", "ValueError")
def empty_negative(nb):
    return nb.njit(_empty_last)(-1), MUST_RAISE


@case("object", *SIZE)
def full_huge(nb):
    return nb.njit(_full)(2**61), MUST_RAISE


@case("object", *SIZE)
def arange_huge(nb):
    return nb.njit(_arange)(2**62), MUST_RAISE


@case("object", *SIZE)
def linspace_huge(nb):
    return nb.njit(_linspace)(2**62), MUST_RAISE


@case("object", *SIZE)
def eye_huge(nb):
    return nb.njit(_eye)(2**32), MUST_RAISE


@case("object", "ValueError", "NotImplementedError")
def reshape_empty_into_wrapping_shape(nb):
    return nb.njit(_reshape)(np.empty(0), 2**32, 2**32), MUST_RAISE


@case("object", *SIZE)
def repeat_wraps(nb):
    return nb.njit(_repeat)(np.ones(4), 2**62), MUST_RAISE


@case("object", *SIZE)
def repeat_counts_sum_wraps(nb):
    return nb.njit(_repeat)(np.ones(4), np.full(4, 2**62)), MUST_RAISE


@case("object", *SIZE)
def tile_wraps(nb):
    return nb.njit(_tile)(np.ones(4), 2**62), MUST_RAISE


@case("object", *SIZE)
def str_repeat_2_62(nb):
    return nb.njit(_str_repeat)(2**62), MUST_RAISE


@case("object", *SIZE)
def str_repeat_max(nb):
    return nb.njit(_str_repeat)(2**63 - 1), MUST_RAISE


@case("object", *SIZE)
def str_repeat_2_61(nb):
    return nb.njit(_str_repeat)(2**61), MUST_RAISE


@case("object")
def str_repeat_negative(nb):
    return nb.njit(_str_repeat)(-3), 0


@case("object", *SIZE)
def list_repeat_2_62(nb):
    return nb.njit(_list_repeat)(2**62), MUST_RAISE


@case("object", *SIZE)
def list_repeat_2_61(nb):
    return nb.njit(_list_repeat)(2**61), MUST_RAISE


@case("object", *SIZE)
def float_list_repeat_huge(nb):
    return nb.njit(_float_list_repeat)(2**60), MUST_RAISE


@case("object")
def list_repeat_negative(nb):
    return nb.njit(_list_repeat)(-5), 0


@case("object", *SIZE)
def ljust_huge(nb):
    return nb.njit(_ljust)(2**62), MUST_RAISE


@case("object", *SIZE)
def center_huge(nb):
    return nb.njit(_center)(2**62), MUST_RAISE


@case("object", *SIZE)
def zfill_huge(nb):
    return nb.njit(_zfill)(2**62), MUST_RAISE


# ------------------------------------------------------------------ declared types at the boundary

def _fresh(cls):
    """A new class with cls's methods (each case decorates a class of its own)."""
    return type(cls.__name__, (), {k: v for k, v in vars(cls).items() if k not in ("__dict__", "__weakref__")})


def _holder(nb, field_type):
    return nb.experimental.jitclass([("a", field_type)])(_fresh(_Holder))


@case("object", "TypeError", "ValueError")
def jitclass_field_given_int8(nb):
    h = _holder(nb, nb.float64[:])(np.zeros(3))
    h.a = np.arange(4, dtype=np.int8)
    return h.total(), 6.0


@case("object", "TypeError", "ValueError")
def jitclass_field_given_object_array(nb):
    h = _holder(nb, nb.float64[:])(np.zeros(3))
    h.a = np.array([1.0, "x"], dtype=object)
    return h.total(), MUST_RAISE


@case("object", "TypeError", "ValueError")
def jitclass_contiguous_field_given_strided(nb):
    h = _holder(nb, nb.float64[::1])(np.zeros(3))
    h.a = np.arange(10.0)[::2]
    return h.total(), 20.0


@case("object", "TypeError", "ValueError")
def jitclass_field_given_2d(nb):
    h = _holder(nb, nb.float64[:])(np.zeros(3))
    h.a = np.ones((2, 2))
    return h.total(), MUST_RAISE


@case("object", "TypeError", "ValueError")
def jitclass_field_given_big_endian(nb):
    h = _holder(nb, nb.float64[:])(np.zeros(3))
    h.a = np.arange(3.0).astype(">f8")
    return h.total(), 3.0


@case("object", "TypeError", "ValueError")
def jitclass_field_given_list(nb):
    h = _holder(nb, nb.float64[:])(np.zeros(3))
    h.a = [1.0, 2.0]
    return h.total(), 3.0


@case("object", "TypeError", "ValueError")
def jitclass_field_given_read_only_then_written(nb):
    h = _holder(nb, nb.float64[:])(np.zeros(3))
    buf = np.frombuffer(bytes(24), dtype=np.float64)  # read-only memory of an immutable bytes
    h.a = buf
    return h.fill(), MUST_RAISE


@case("object", "TypeError", "ValueError")
def jitclass_int_field_given_str(nb):
    cls = nb.experimental.jitclass([("a", nb.int64)])(_fresh(_Holder))
    h = cls(1)
    h.a = "x"
    return h.a, MUST_RAISE


@case("object", "TypeError", "ValueError")
def typed_list_contiguous_given_strided(nb):
    xs = nb.typed.List.empty_list(nb.types.float64[::1])
    xs.append(np.arange(10.0)[::2])
    return nb.njit(_total)(xs), 20.0


@case("object", "TypeError", "ValueError")
def typed_list_given_int8(nb):
    xs = nb.typed.List.empty_list(nb.types.float64[:])
    xs.append(np.arange(4, dtype=np.int8))
    return nb.njit(_total)(xs), 6.0


@case("object", "TypeError", "ValueError")
def typed_dict_contiguous_value_given_strided(nb):
    d = nb.typed.Dict.empty(key_type=nb.types.int64, value_type=nb.types.float64[::1])
    d[1] = np.arange(10.0)[::2]
    return nb.njit(_value_sum)(d), 20.0


@case("object", "TypeError", "ValueError")
def typed_dict_value_given_int8(nb):
    d = nb.typed.Dict.empty(key_type=nb.types.int64, value_type=nb.types.float64[:])
    d[1] = np.arange(4, dtype=np.int8)
    return nb.njit(_value_sum)(d), 6.0


def _om_dtype(n):
    with objmode(y="float64[:]"):  # noqa: F821  (objmode is a global of the case's module)
        y = np.arange(n, dtype=np.int8)
    return y.sum()


def _om_strided(n):
    with objmode(y="float64[::1]"):  # noqa: F821
        y = np.arange(2.0 * n)[::2]
    return y.sum()


def _om_scalar(n):
    with objmode(y="int64"):  # noqa: F821
        y = "x" * n
    return y


def _om_list(n):
    with objmode(y="float64[:]"):  # noqa: F821
        y = [1.0] * n
    return y.sum()


@case("object", "TypeError", "ValueError")
def objmode_output_of_another_dtype(nb):
    globals()["objmode"] = nb.objmode
    return nb.njit(_om_dtype)(4), 6.0


@case("object", "TypeError", "ValueError")
def objmode_contiguous_output_strided(nb):
    globals()["objmode"] = nb.objmode
    return nb.njit(_om_strided)(5), 20.0


@case("object", "TypeError", "ValueError")
def objmode_int_output_given_str(nb):
    globals()["objmode"] = nb.objmode
    return nb.njit(_om_scalar)(2), MUST_RAISE


@case("object", "TypeError", "ValueError")
def objmode_array_output_given_list(nb):
    globals()["objmode"] = nb.objmode
    return nb.njit(_om_list)(3), 3.0


@case("object", "TypeError")
def signature_contiguous_given_strided(nb):
    return nb.njit("float64(float64[::1])")(_sum)(np.arange(10.0)[::2]), 20.0


@case("object", "TypeError")
def signature_float_array_given_int8(nb):
    return nb.njit("float64(float64[:])")(_sum)(np.arange(4, dtype=np.int8)), 6.0


# ------------------------------------------------------------------ deep graphs and nesting

@case("object")
def linked_list_of_300000_dropped(nb):
    node_t = nb.deferred_type()
    cls = nb.experimental.jitclass([("v", nb.int64), ("nxt", nb.optional(node_t))])(_fresh(_Node))
    node_t.define(cls.class_type.instance_type)
    h = None
    for i in range(300_000):
        h = cls(i, h)
    del h
    return "dropped", "dropped"


def _nest_tuple(depth):
    v = 1
    for _ in range(depth):
        v = (v,)
    return v


@case("object")
def tuple_argument_24_deep_dispatched_quickly(nb):
    f = nb.njit(_tuple_depth)
    v = _nest_tuple(24)
    f(v)
    t0 = time.perf_counter()
    for _ in range(5):
        f(v)
    return time.perf_counter() - t0 < 2.0, True


@case("object", "TypeError")
def tuple_argument_200_deep(nb):
    return nb.njit(_tuple_depth)(_nest_tuple(200)), 1


@case("object", "TypeError", "RecursionError", "ValueError")
def list_containing_itself(nb):
    xs = []
    xs.append(xs)
    return nb.njit(_first)(xs), MUST_RAISE


# ------------------------------------------------------------------ aliasing, changes while iterated

@case("object")
def list_passed_twice_appends(nb):
    xs = [0]
    n = nb.njit(_append_both)(xs, xs)
    return (n, xs), (6, [0, 1, 2])


@case("object")
def list_passed_twice_write_then_read(nb):
    xs = [0, 1]
    return nb.njit(_write_a_read_b)(xs, xs), 5


@case("object")
def list_held_twice(nb):
    xs = [1, 2]
    return nb.njit(_inner_alias)([xs, xs]), 7


@case("object", "RuntimeError")
def typed_dict_grown_while_iterated_from_python(nb):
    d = nb.typed.Dict.empty(key_type=nb.types.int64, value_type=nb.types.int64)
    for i in range(5):
        d[i] = i
    for k in d:
        d[k + 100] = 1
    return len(d), MUST_RAISE


@case("object", "RuntimeError")
def typed_dict_key_readded_while_iterated_from_python(nb):
    d = nb.typed.Dict.empty(key_type=nb.types.int64, value_type=nb.types.int64)
    for i in range(5):
        d[i] = i
    for k in d:
        d[k] = d.pop(k)
    return len(d), MUST_RAISE


@case("object", "RuntimeError")
def typed_dict_items_while_cleared_from_python(nb):
    d = nb.typed.Dict.empty(key_type=nb.types.int64, value_type=nb.types.int64)
    for i in range(5):
        d[i] = i
    for k, v in d.items():
        d.clear()
    return len(d), MUST_RAISE


@case("object", "RuntimeError")
def compiled_dict_grown_while_iterated(nb):
    return nb.njit(_dict_grow_while_iterating)(5), MUST_RAISE


@case("object", "RuntimeError")
def compiled_dict_key_readded_while_iterated(nb):
    return nb.njit(_dict_readd_while_iterating)(5), MUST_RAISE


@case("object", "RuntimeError")
def compiled_set_grown_while_iterated(nb):
    return nb.njit(_set_grow_while_iterating)(5), MUST_RAISE


# ------------------------------------------------------------------ indices and values at the limits

@case("object", "IndexError")
def str_index_huge(nb):
    return nb.njit(_str_index)("abc", 2**62), MUST_RAISE


@case("object", "IndexError")
def str_index_most_negative(nb):
    return nb.njit(_str_index)("abc", -2**63), MUST_RAISE


@case("object", "IndexError")
def list_pop_huge(nb):
    return nb.njit(_list_pop)([1, 2, 3], 2**62), MUST_RAISE


@case("object", "IndexError")
def list_pop_most_negative(nb):
    return nb.njit(_list_pop)([1, 2, 3], -2**63), MUST_RAISE


@case("object")
def list_insert_huge(nb):
    return nb.njit(_list_insert)([1, 2], 2**62), 9


@case("object")
def list_insert_most_negative(nb):
    return nb.njit(_list_insert)([1, 2], -2**63), 2


@case("object")
def str_slice_huge(nb):
    return nb.njit(_str_slice)("abc", 2**62), ""


@case("object")
def str_slice_most_negative(nb):
    return nb.njit(_str_slice)("abc", -2**63), "abc"


@case("object")
def find_from_huge(nb):
    return nb.njit(_find)("abc", 2**62), -1


@case("object", "OverflowError", "TypeError")
def int_argument_past_int64(nb):
    return nb.njit(_add1)(2**64), MUST_RAISE


@case("object", "IndexError")
def typed_list_index_huge(nb):
    xs = nb.typed.List([1, 2, 3])
    return xs[2**62], MUST_RAISE


@case("object", "IndexError", "OverflowError")
def typed_list_index_past_int64(nb):
    xs = nb.typed.List([1, 2, 3])
    return xs[2**70], MUST_RAISE


@case("object", "TypeError", "KeyError")
def typed_dict_key_of_another_type(nb):
    d = nb.typed.Dict.empty(key_type=nb.types.int64, value_type=nb.types.int64)
    d[1] = 2
    return d["x"], MUST_RAISE


@case("object")
def negative_strides(nb):
    a = np.arange(10.0)[::-3]
    return nb.njit(_sum)(a), a.sum()


@case("object")
def zero_size_with_odd_strides(nb):
    a = np.lib.stride_tricks.as_strided(np.zeros(1), shape=(0,), strides=(-8,))
    return nb.njit(_sum)(a), 0.0


@case("object")
def broadcast_view_stride_zero(nb):
    a = np.broadcast_to(np.arange(3.0), (4, 3))
    return nb.njit(_sum)(a), a.sum()


# ------------------------------------------------------------------ parallel faults

def _prange_raise(n, bad):
    t = 0.0
    for i in prange(n):  # noqa: F821  (prange is a global of this module, set per case)
        if i == bad:
            raise ValueError("bad item")
        t += i
    return t


def _prange_sum(n):
    t = 0.0
    for i in prange(n):  # noqa: F821
        t += i
    return t


def _prange_alloc(n, size):
    t = 0.0
    for i in prange(n):  # noqa: F821
        t += np.empty(size)[0] * 0.0 + i
    return t


def _prange_threads(n):
    out = np.zeros(n)
    for i in prange(n):  # noqa: F821
        out[i] = get_num_threads()  # noqa: F821
    return out.min()


def _parallel(nb, fn):
    globals()["prange"] = nb.prange
    globals()["get_num_threads"] = nb.get_num_threads
    return nb.njit(parallel=True)(fn)


@case("parallel", "ValueError")
def prange_raises_at_first(nb):
    return _parallel(nb, _prange_raise)(1000, 0), MUST_RAISE


@case("parallel", "ValueError")
def prange_raises_at_last(nb):
    return _parallel(nb, _prange_raise)(1000, 999), MUST_RAISE


@case("parallel", "ValueError")
def prange_raises_in_a_long_loop(nb):
    return _parallel(nb, _prange_raise)(10**9, 12345), MUST_RAISE


@case("parallel")
def prange_works_after_it_raised(nb):
    f = _parallel(nb, _prange_raise)
    try:
        f(1000, 10)
    except ValueError:
        pass
    return f(1000, -1), float(sum(range(1000)))


@case("parallel")
def prange_empty_and_negative_ranges(nb):
    f = _parallel(nb, _prange_sum)
    return (f(0), f(-5)), (0.0, 0.0)


@case("parallel", *SIZE)
def prange_body_allocates_too_much(nb):
    return _parallel(nb, _prange_alloc)(100, 2**61), MUST_RAISE


def _in_child(fn, timeout=30.0):
    """repr(fn()) computed in a forked child (the parent never waits forever)."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            os.write(w, repr(fn()).encode())
        except BaseException as e:  # noqa: BLE001
            os.write(w, f"raised {type(e).__name__}".encode())
        os._exit(0)
    os.close(w)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            data = os.read(r, 4096).decode()
            os.close(r)
            if not (os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0):
                raise ChildDied(f"the child ended with status {status}")
            return data
        time.sleep(0.05)
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    os.close(r)
    raise ChildHung(f"the child gave no result in {timeout:.0f} s")


@case("parallel")
def prange_in_forked_child_after_parent_used_threads(nb):
    f = _parallel(nb, _prange_sum)
    f(10000)
    return _in_child(lambda: f(10000)), repr(float(sum(range(10000))))


@case("parallel")
def prange_in_forked_child_before_parent_used_threads(nb):
    f = _parallel(nb, _prange_sum)
    return _in_child(lambda: f(1000)), repr(float(sum(range(1000))))


@case("parallel")
def prange_from_four_python_threads(nb):
    f = _parallel(nb, _prange_sum)
    results = [None] * 4

    def run(k):
        results[k] = f(100000 + k)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results, [float(sum(range(100000 + k))) for k in range(4)]


@case("parallel")
def prange_raising_from_four_python_threads(nb):
    f = _parallel(nb, _prange_raise)
    caught = [None] * 4

    def run(k):
        try:
            f(10000, 500 + k)
        except ValueError:
            caught[k] = True

    threads = [threading.Thread(target=run, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return caught, [True] * 4


@case("parallel")
def thread_count_seen_inside_prange(nb):
    nb.set_num_threads(1)
    try:
        return _parallel(nb, _prange_threads)(100), 1.0
    finally:
        nb.set_num_threads(nb.config.NUMBA_NUM_THREADS)


@case("parallel", "ValueError")
def set_num_threads_zero(nb):
    return nb.set_num_threads(0), MUST_RAISE


@case("parallel", "ValueError")
def set_num_threads_negative(nb):
    return nb.set_num_threads(-1), MUST_RAISE


@case("parallel", "ValueError")
def set_num_threads_2_63(nb):
    return nb.set_num_threads(2**63), MUST_RAISE


@case("parallel", "ValueError")
def set_num_threads_past_the_maximum(nb):
    return nb.set_num_threads(10**6), MUST_RAISE


@case("parallel", "TypeError")
def set_num_threads_float(nb):
    return nb.set_num_threads(1.5), MUST_RAISE


@case("parallel", "TypeError")
def set_num_threads_str(nb):
    return nb.set_num_threads("2"), MUST_RAISE


@case("parallel")
def set_num_threads_then_prange(nb):
    nb.set_num_threads(1)
    try:
        return _parallel(nb, _prange_sum)(1000), float(sum(range(1000)))
    finally:
        nb.set_num_threads(nb.config.NUMBA_NUM_THREADS)
