"""The launch API beyond kernel[grid, block]: forall, specialize, per-overload driver
attributes, occupancy, cooperative launches with grid sync, and print() in kernels."""

import numpy as np
import pytest

from mahou import cuda
from mahou.errors import CudaError, TypingError, UnsupportedError

pytestmark = pytest.mark.gpu


@cuda.jit
def axpy(a, x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]


# ---------------------------------------------------------------- forall

@pytest.mark.parametrize("n", [1, 31, 1000, 5000])
def test_forall_covers_every_task(n):
    x = np.arange(n, dtype=np.float64)
    y = np.ones(n)
    out = cuda.device_array(n)
    axpy.forall(n)(2.0, cuda.to_device(x), cuda.to_device(y), out)
    np.testing.assert_array_equal(out.copy_to_host(), 2 * x + 1)


def test_forall_with_block_size_stream_and_host_arrays():
    n = 777
    x = np.arange(n, dtype=np.float32)
    out = np.zeros(n, np.float32)
    s = cuda.stream()
    axpy.forall(n, tpb=64, stream=s)(np.float32(3), x, x, out)
    s.synchronize()
    np.testing.assert_array_equal(out, 4 * x)


def test_forall_zero_and_negative():
    out = np.full(4, 7.0)
    axpy.forall(0)(1.0, out, out, out)  # launches nothing
    assert (out == 7).all()
    with pytest.raises(ValueError, match="negative"):
        axpy.forall(-1)


# ---------------------------------------------------------------- specialize and attributes

def test_specialize_and_attributes():
    @cuda.jit
    def scale(x, out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = x[i] * 2

    x = cuda.to_device(np.arange(8, dtype=np.float32))
    out = cuda.device_array(8, np.float32)
    special = scale.specialize(x, out)
    assert special.specialized and not scale.specialized
    special[1, 8](x, out)
    np.testing.assert_array_equal(out.copy_to_host(), np.arange(8) * 2)
    with pytest.raises(TypeError, match="No matching definition"):
        special[1, 8](np.zeros(8), np.zeros(8))  # float64: not the specialised types
    regs = special.get_regs_per_thread()
    assert isinstance(regs, int) and regs >= 0
    assert special.get_max_threads_per_block() >= 32
    assert isinstance(special.get_shared_mem_per_block(), int)
    assert isinstance(special.get_local_mem_per_thread(), int)
    assert isinstance(special.get_const_mem_size(), int)
    # an unspecialised kernel answers per overload, or for one signature
    table = scale.get_regs_per_thread()
    assert isinstance(table, dict) and len(table) == 1
    sig = scale.signatures[0]
    assert scale.get_regs_per_thread(sig) == next(iter(table.values()))


def test_attributes_of_device_functions_are_refused():
    @cuda.jit(device=True)
    def twice(x):
        return 2 * x

    with pytest.raises(TypeError, match="device function"):
        twice.forall(4)
    with pytest.raises(TypeError, match="device function"):
        twice.get_regs_per_thread()


# ---------------------------------------------------------------- grid sync

@cuda.jit
def two_phase(x, out):
    g = cuda.cg.this_grid()
    i = cuda.grid(1)
    n = x.size
    if i < n:
        x[i] = i + 1
    g.sync()
    # every thread reads a value another block wrote before the barrier
    if i < n:
        out[i] = x[n - 1 - i]
    g.sync()
    if i < n:
        x[i] = 0


@pytest.mark.parametrize("blocks, threads", [(1, 32), (4, 64), (8, 128)])
def test_grid_sync(blocks, threads):
    n = blocks * threads
    x = cuda.device_array(n, np.int64)
    out = cuda.device_array(n, np.int64)
    two_phase[blocks, threads](x, out)
    np.testing.assert_array_equal(out.copy_to_host(), np.arange(n, 0, -1))
    assert (x.copy_to_host() == 0).all()


def test_grid_sync_in_a_loop_and_device_function():
    @cuda.jit(device=True)
    def barrier():
        cuda.cg.this_grid().sync()

    @cuda.jit
    def stencil(a, b, steps):
        i = cuda.grid(1)
        n = a.size
        for _ in range(steps):
            if 0 < i < n - 1:
                b[i] = (a[i - 1] + a[i + 1]) / 2
            barrier()
            if 0 < i < n - 1:
                a[i] = b[i]
            barrier()

    n = 256
    a0 = np.zeros(n)
    a0[0] = a0[-1] = 1.0
    a = cuda.to_device(a0)
    b = cuda.to_device(a0.copy())
    stencil[4, 64](a, b, 20)
    ref = a0.copy()
    for _ in range(20):
        nxt = ref.copy()
        nxt[1:-1] = (ref[:-2] + ref[2:]) / 2
        ref = nxt
    np.testing.assert_allclose(a.copy_to_host(), ref)


def test_max_cooperative_grid_blocks_and_too_large_a_grid():
    x = cuda.device_array(64, np.int64)
    out = cuda.device_array(64, np.int64)
    two_phase[1, 64](x, out)
    limit = two_phase.max_cooperative_grid_blocks(64)
    assert limit >= 1
    assert two_phase.max_cooperative_grid_blocks((8, 8)) == limit
    blocks = limit + 1
    big = cuda.device_array(blocks * 64, np.int64)
    with pytest.raises(CudaError, match="max_cooperative_grid_blocks"):
        two_phase[blocks, 64](big, cuda.device_array(blocks * 64, np.int64))
    # the context stays usable
    two_phase[1, 64](x, out)
    np.testing.assert_array_equal(out.copy_to_host(), np.arange(64, 0, -1))


def test_cg_outside_kernels_and_misuse():
    with pytest.raises(RuntimeError, match="inside a @cuda.jit"):
        cuda.cg.this_grid()

    @cuda.jit
    def bad(x):
        cuda.cg.this_thread_group()

    with pytest.raises(UnsupportedError, match="this_grid"):
        bad[1, 1](np.zeros(1))


# ---------------------------------------------------------------- print

@cuda.jit
def show(x, n):
    i = cuda.grid(1)
    if i < n:
        print("item", i, x[i], i % 2 == 0, None)


def test_print_in_kernels(capfd):
    x = np.array([1.5, -2.25, 3.0])
    show[1, 4](x, 3)
    cuda.synchronize()
    lines = sorted(capfd.readouterr().out.splitlines())
    assert lines == ["item 0 1.500000 True None", "item 1 -2.250000 False None",
                     "item 2 3.000000 True None"]


def test_print_integers_and_percent_signs(capfd):
    @cuda.jit
    def numbers(a):
        print("100%", a[0], a[1], np.uint64(a[0]) + np.uint64(a[1]), np.int8(-5))
        print()

    numbers[1, 1](np.array([-(2**63), 2**63 - 1]))
    cuda.synchronize()
    out = capfd.readouterr().out
    assert out == "100% -9223372036854775808 9223372036854775807 18446744073709551615 -5\n\n"


def test_print_refusals():
    @cuda.jit
    def arrays(x):
        print(x)

    with pytest.raises(UnsupportedError, match="prints numbers"):
        arrays[1, 1](np.zeros(2))

    @cuda.jit
    def keywords(x):
        print(x[0], end="")

    with pytest.raises(UnsupportedError, match="keyword"):
        keywords[1, 1](np.zeros(2))

    @cuda.jit
    def too_many(x):
        v = x[0]
        print(v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v,
              v, v, v, v)

    with pytest.raises(TypingError, match="at most 32"):
        too_many[1, 1](np.zeros(2))
