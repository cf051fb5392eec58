"""Kernels launched with array arguments that share no memory run a form whose array
data pointers are noalias (docs/cuda.md, launch API): the PTX of that form keeps a
random state in registers across a loop of draws, and a kernel whose threads may
exchange memory never gets it. Launches whose arrays overlap (one array twice, views
of one buffer) run the form that assumes nothing and give the sequential answer."""

import re

import numpy as np
import pytest

from mahou import cuda
from mahou.cuda.random import create_xoroshiro128p_states, xoroshiro128p_uniform_float32

SIG_DRAW = "void(uint64[:, ::1], float32[::1], int64)"


@cuda.jit
def draw(states, out, per_thread):
    i = cuda.grid(1)
    n = cuda.gridsize(1)
    for k in range(per_thread):
        out[k * n + i] = xoroshiro128p_uniform_float32(states, i)


@cuda.jit
def draw_after_barrier(states, out, per_thread):
    i = cuda.grid(1)
    n = cuda.gridsize(1)
    cuda.syncthreads()
    for k in range(per_thread):
        out[k * n + i] = xoroshiro128p_uniform_float32(states, i)


@cuda.jit
def shift_add(src, dst, n):
    # one thread walks the arrays in order: with dst = buf[1:] and src = buf[:-1] every
    # step reads what the step before it wrote
    if cuda.grid(1) == 0:
        for k in range(n):
            dst[k] = src[k] + 1.0


def loops(ptx):
    """The text of each loop of a PTX function: from a label to a branch back to it."""
    lines = ptx.splitlines()
    where = {}
    found = []
    for i, line in enumerate(lines):
        m = re.match(r"^(\$L__BB\d+_\d+):", line)
        if m:
            where[m.group(1)] = i
        m = re.search(r"bra(?:\.uni)?\s+(\$L__BB\d+_\d+);", line)
        if m and m.group(1) in where:
            found.append("\n".join(lines[where[m.group(1)]:i + 1]))
    return found


def state_loads_in_loops(kernel, sig, disjoint):
    ptx = kernel._compile_ptx(sig, 9, 0, disjoint)[0]
    return sum(body.count("ld.global.u64") for body in loops(ptx)), ptx


def test_disjoint_form_keeps_the_state_in_registers():
    in_loops, ptx = state_loads_in_loops(draw, SIG_DRAW, True)
    assert loops(ptx), "the draw loop is in the PTX"
    assert in_loops == 0
    # the form that assumes nothing reloads the state after each output store
    in_loops, _ = state_loads_in_loops(draw, SIG_DRAW, False)
    assert in_loops > 0


def test_communicating_kernels_assume_nothing():
    in_loops, _ = state_loads_in_loops(draw_after_barrier, SIG_DRAW, True)
    assert in_loops > 0


def test_compile_ptx_assumes_nothing():
    ptx, _ = cuda.compile_ptx(draw.py_func, SIG_DRAW)
    assert sum(body.count("ld.global.u64") for body in loops(ptx)) > 0


def test_read_only_arrays_use_the_noncoherent_cache_when_disjoint():
    @cuda.jit
    def scaled(a, out):
        i = cuda.grid(1)
        if i < out.shape[0]:
            out[i] = a[i] * 2.0

    sig = "void(float64[::1], float64[::1])"
    assert "ld.global.nc" in scaled._compile_ptx(sig, 9, 0, True)[0]
    assert "ld.global.nc" not in scaled._compile_ptx(sig, 9, 0, False)[0]


@pytest.mark.gpu
@pytest.mark.parametrize("n", [1, 7, 64, 1000])
def test_overlapping_views_give_the_sequential_answer(n):
    host = np.zeros(n + 1)
    host[0] = 5.0
    buf = cuda.to_device(host)
    shift_add[1, 32](buf[:-1], buf[1:], n)
    expect = host.copy()
    for k in range(n):
        expect[k + 1] = expect[k] + 1.0
    np.testing.assert_array_equal(buf.copy_to_host(), expect)


@pytest.mark.gpu
def test_same_array_twice_and_disjoint_arrays():
    n = 100
    a = cuda.to_device(np.arange(n, dtype=np.float64))
    shift_add[1, 32](a, a, n)  # dst is src: each item + 1
    np.testing.assert_array_equal(a.copy_to_host(), np.arange(n) + 1.0)
    b = cuda.device_array(n)
    shift_add[1, 32](a, b, n)  # disjoint: the noalias form
    np.testing.assert_array_equal(b.copy_to_host(), np.arange(n) + 2.0)
    # reversed views of one buffer overlap too
    c = cuda.to_device(np.arange(n, dtype=np.float64))
    shift_add[1, 32](c[::-1], c, n)
    expect = np.arange(n, dtype=np.float64)
    for k in range(n):
        expect[k] = expect[n - 1 - k] + 1.0
    np.testing.assert_array_equal(c.copy_to_host(), expect)


@pytest.mark.gpu
def test_draws_match_between_forms():
    threads, per = 256, 5
    s1 = create_xoroshiro128p_states(threads, seed=3)
    s2 = create_xoroshiro128p_states(threads, seed=3)
    out1 = cuda.device_array(threads * per, np.float32)
    out2 = cuda.device_array(threads * per, np.float32)
    draw[2, 128](s1, out1, per)
    draw_after_barrier[2, 128](s2, out2, per)
    np.testing.assert_array_equal(out1.copy_to_host(), out2.copy_to_host())
    np.testing.assert_array_equal(s1.copy_to_host(), s2.copy_to_host())
