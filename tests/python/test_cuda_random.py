"""cuda.random (xoroshiro128+): the states create_xoroshiro128p_states makes and the
numbers kernels draw, checked against a plain-Python implementation of the documented
algorithm (SplitMix64 seeding, xoroshiro128+ steps, 2**64-step jumps, numba-cuda's
float conversions and Box-Muller)."""

import math

import numpy as np
import pytest

from mahou import cuda
from mahou.cuda.random import (
    create_xoroshiro128p_states, init_xoroshiro128p_states, xoroshiro128p_dtype,
    xoroshiro128p_jump, xoroshiro128p_next, xoroshiro128p_normal_float32,
    xoroshiro128p_normal_float64, xoroshiro128p_uniform_float32, xoroshiro128p_uniform_float64,
)
from mahou.errors import TypingError

pytestmark = pytest.mark.gpu

M64 = (1 << 64) - 1


# ---------------------------------------------------------------- the reference

def splitmix(seed):
    z = (seed + 0x9E3779B97F4A7C15) & M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def rotl(x, k):
    return ((x << k) | (x >> (64 - k))) & M64


def step(state):
    s0, s1 = state
    result = (s0 + s1) & M64
    s1 ^= s0
    return result, (rotl(s0, 55) ^ s1 ^ ((s1 << 14) & M64), rotl(s1, 36))


def jump(state):
    acc0 = acc1 = 0
    for word in (0xBEAC0467EBA5FACB, 0xD86B048B86AA9922):
        for b in range(64):
            if word >> b & 1:
                acc0 ^= state[0]
                acc1 ^= state[1]
            _, state = step(state)
    return acc0, acc1


def reference_states(n, seed, start=0):
    z = splitmix(seed % (1 << 64))
    state = (z, z)
    for _ in range(start):
        state = jump(state)
    out = []
    for i in range(n):
        if i:
            state = jump(state)
        out.append(state)
    return out


def unit64(x):
    return (x >> 11) * (1.0 / (1 << 53))


def unit32(x):
    return np.float32(unit64(x))


def host_states(states):
    host = states.copy_to_host()
    return [(int(r["s0"]), int(r["s1"])) for r in host]


# ---------------------------------------------------------------- states

@pytest.mark.parametrize("seed", [0, 1, 12345, 2**63 + 7, -1])
def test_states_match_the_algorithm(seed):
    states = create_xoroshiro128p_states(5, seed=seed)
    assert states.dtype == xoroshiro128p_dtype and states.shape == (5,)
    assert host_states(states) == reference_states(5, seed)


def test_subsequence_start_jumps_the_first_state():
    states = create_xoroshiro128p_states(3, seed=7, subsequence_start=2)
    assert host_states(states) == reference_states(3, 7, start=2)
    # state i of start 0 is state i - 2 of start 2
    assert host_states(states)[:1] == reference_states(3, 7)[2:]


def test_init_into_an_existing_array_and_empty():
    states = cuda.device_array(4, dtype=xoroshiro128p_dtype)
    init_xoroshiro128p_states(states, 99)
    assert host_states(states) == reference_states(4, 99)
    assert create_xoroshiro128p_states(0, seed=1).shape == (0,)


def test_bad_states_arguments():
    with pytest.raises(TypeError, match="xoroshiro128p_dtype"):
        init_xoroshiro128p_states(cuda.device_array(4), 1)
    with pytest.raises(ValueError):
        create_xoroshiro128p_states(-1, seed=1)
    with pytest.raises(ValueError):
        create_xoroshiro128p_states(2, seed=1 << 64)


# ---------------------------------------------------------------- draws in kernels

@cuda.jit
def draw_uniform(states, out32, out64):
    i = cuda.grid(1)
    if i < out32.shape[0]:
        for k in range(out32.shape[1]):
            out32[i, k] = xoroshiro128p_uniform_float32(states, i)
            out64[i, k] = cuda.random.xoroshiro128p_uniform_float64(states, i)


def test_uniform_streams():
    n, draws = 37, 6
    states = create_xoroshiro128p_states(n, seed=42)
    out32 = np.zeros((n, draws), np.float32)
    out64 = np.zeros((n, draws))
    draw_uniform[2, 32](states, out32, out64)
    ref = reference_states(n, 42)
    for i in range(n):
        st = ref[i]
        for k in range(draws):
            x, st = step(st)
            assert out32[i, k] == unit32(x)
            y, st = step(st)
            assert out64[i, k] == unit64(y)
    assert ((0 <= out64) & (out64 < 1)).all()
    # the states advanced in place: the next draw continues each stream
    assert host_states(states)[n - 1] == st


@cuda.jit
def draw_normal(states, out32, out64):
    i = cuda.grid(1)
    if i < out32.size:
        out32[i] = xoroshiro128p_normal_float32(states, i)
        out64[i] = xoroshiro128p_normal_float64(states, i)


def test_normal_streams():
    n = 64
    states = create_xoroshiro128p_states(n, seed=3)
    out32 = np.zeros(n, np.float32)
    out64 = np.zeros(n)
    draw_normal[1, n](states, out32, out64)
    for i, st in enumerate(reference_states(n, 3)):
        a, st = step(st)
        b, st = step(st)
        u1, u2 = unit32(a), unit32(b)
        z32 = np.sqrt(np.float32(-2.0) * np.log(u1)) * np.cos(np.float32(2 * math.pi) * u2)
        assert out32[i] == pytest.approx(z32, rel=2e-6, abs=2e-6)
        c, st = step(st)
        d, st = step(st)
        u1, u2 = unit32(c), unit32(d)
        z64 = math.sqrt(-2.0 * float(np.log(u1))) * math.cos(2 * math.pi * float(u2))
        assert out64[i] == pytest.approx(z64, rel=1e-6, abs=1e-6)


@cuda.jit
def next_and_jump(states, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i, 0] = xoroshiro128p_next(states, i)
        xoroshiro128p_jump(states, i)
        out[i, 1] = xoroshiro128p_next(states, i)


def test_next_and_jump_in_kernels():
    n = 5
    states = create_xoroshiro128p_states(n, seed=11)
    out = np.zeros((n, 2), np.uint64)
    next_and_jump[1, 8](states, out)
    for i, st in enumerate(reference_states(n, 11)):
        x, st = step(st)
        assert int(out[i, 0]) == x
        y, _ = step(jump(st))
        assert int(out[i, 1]) == y


def test_states_as_a_host_record_array():
    # A NumPy array of the record dtype is copied in and out like any host array.
    n = 4
    host = create_xoroshiro128p_states(n, seed=5).copy_to_host()
    out = np.zeros((n, 2), np.uint64)
    next_and_jump[1, 4](host, out)
    ref = reference_states(n, 5)
    assert [int(v) for v in out[:, 0]] == [step(s)[0] for s in ref]
    assert (int(host[0]["s0"]), int(host[0]["s1"])) != ref[0]  # advanced in place


def test_device_function_draws():
    @cuda.jit(device=True)
    def coin(states, i):
        return 1 if xoroshiro128p_uniform_float64(states, i) < 0.5 else 0

    @cuda.jit
    def flips(states, out):
        i = cuda.grid(1)
        if i < out.size:
            total = 0
            for _ in range(100):
                total += coin(states, i)
            out[i] = total

    n = 16
    states = create_xoroshiro128p_states(n, seed=8)
    out = np.zeros(n, np.int64)
    flips[1, n](states, out)
    ref = reference_states(n, 8)
    for i in range(n):
        st, total = ref[i], 0
        for _ in range(100):
            x, st = step(st)
            total += unit64(x) < 0.5
        assert out[i] == total


def test_wrong_states_argument_is_a_typing_error():
    @cuda.jit
    def bad(states, out):
        out[0] = xoroshiro128p_uniform_float32(states, 0)

    with pytest.raises(TypingError, match="create_xoroshiro128p_states"):
        bad[1, 1](np.zeros(4), np.zeros(1, np.float32))


def test_host_functions_in_kernels_are_refused():
    from mahou.errors import UnsupportedError

    @cuda.jit
    def bad(out):
        cuda.random.create_xoroshiro128p_states(4, 1)

    with pytest.raises(UnsupportedError, match="host"):
        bad[1, 1](np.zeros(1))
