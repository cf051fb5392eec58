"""Loops that update a jitclass's field arrays in place (`self.a[i] += v`): the field is
read again for the store when nothing in the statement can reassign it, and reference
counts that cancel are removed. Compiled against the plain Python class, with every
dtype, reassigned fields, nested instances, views and no leaked native objects."""

import numpy as np
import pytest

from mahou import _core, float32, float64, int32, int64, uint8
from mahou.experimental import jitclass


class PyAcc:
    def __init__(self, arr):
        self.size = arr.shape[0]
        self.array = arr
        self.other = arr.copy()

    def add(self, val):
        for i in range(self.size):
            self.array[i] += val

    def mul_sub(self, val):
        for i in range(self.size):
            self.array[i] *= val
            self.array[i] -= self.other[i]

    def add_replacing(self, val):
        # The right side replaces the field: the store goes to the array read first.
        for i in range(self.size):
            self.array[i] += self.swap(val)

    def swap(self, val):
        t = self.array
        self.array = self.other
        self.other = t
        return val

    def add_reversed(self, val):
        for i in range(self.size - 1, -1, -1):
            self.array[i] += val * (i % 7)


def make(dtype):
    spec = [("size", int64), ("array", dtype[:]), ("other", dtype[:])]
    attrs = {k: v for k, v in vars(PyAcc).items() if k not in ("__dict__", "__weakref__")}
    return jitclass(spec)(type("Acc_" + str(dtype), (object,), attrs))


DTYPES = [(float32, np.float32), (float64, np.float64), (int32, np.int32), (int64, np.int64), (uint8, np.uint8)]


@pytest.mark.parametrize("mt,nt", DTYPES)
@pytest.mark.parametrize("n", [0, 1, 7, 1000])
def test_field_loops_match_python(mt, nt, n):
    Acc = make(mt)
    base = (np.arange(n) % 50).astype(nt)
    for method, arg in [("add", 3), ("mul_sub", 2), ("add_replacing", 1), ("add_reversed", 1)]:
        py, jc = PyAcc(base.copy()), Acc(base.copy())
        for _ in range(2):
            getattr(py, method)(arg)
            getattr(jc, method)(arg)
        np.testing.assert_array_equal(jc.array, py.array)
        np.testing.assert_array_equal(jc.other, py.other)


def test_float32_field_with_int_and_float_values():
    # As in Numba: float32 + int64 is float64 and float32 + float is float64, rounded to
    # float32 by the store.
    Acc = make(float32)
    a = np.linspace(-2, 2, 1001).astype(np.float32)
    jc, expect = Acc(a.copy()), a.copy()
    for v in (1, -3, 0.1, 1e-8):
        jc.add(v)
        expect = (expect.astype(np.float64) + v).astype(np.float32)
        np.testing.assert_array_equal(jc.array, expect)


def test_field_holding_a_view_updates_the_base():
    Acc = make(float64)
    base = np.zeros(20)
    jc = Acc(base[::3])
    jc.add(2.5)
    expect = np.zeros(20)
    expect[::3] = 2.5
    np.testing.assert_array_equal(base, expect)


class PyGrid:
    def __init__(self, n):
        self.data = np.zeros((n, n))


class PyOuter:
    def __init__(self, n):
        self.grid = Grid(n)
        self.n = n

    def bump(self, v):
        for i in range(self.n):
            for j in range(self.n):
                self.grid.data[i, j] += v * (i - j)


Grid = jitclass([("data", float64[:, :])])(PyGrid)
Outer = jitclass([("grid", Grid.class_type.instance_type), ("n", int64)])(PyOuter)


def test_nested_instance_field_2d():
    o = Outer(5)
    o.bump(1.5)
    o.bump(-0.5)
    i, j = np.indices((5, 5))
    np.testing.assert_array_equal(o.grid.data, 1.0 * (i - j))


def test_no_leaks():
    Acc = make(float64)
    before = _core.live_allocations()
    for _ in range(3):
        jc = Acc(np.ones(100))
        jc.add(1)
        jc.mul_sub(2)
        jc.add_replacing(1)
        del jc
    assert _core.live_allocations() == before


def test_field_loop_has_no_reference_counting_left():
    # The loop's field reads are hoisted and nothing is counted: no call in the function
    # (a regression here makes the loop 10-20x slower; see docs/performance.md).
    from mahou import njit

    Acc = make(float32)

    @njit
    def bump(acc, v):
        for i in range(acc.size):
            acc.array[i] += v

    acc = Acc(np.zeros(10, np.float32))
    bump(acc, 2)
    np.testing.assert_array_equal(acc.array, np.full(10, 2, np.float32))
    ir = bump.inspect_llvm(bump.signatures[0])
    body = ir[ir.index("define"):]
    body = body[: body.index("\n}\n")]
    assert "mahou_rt_incref" not in body and "mahou_rt_decref" not in body, body
