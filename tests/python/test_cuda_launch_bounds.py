"""cuda.jit(launch_bounds=...): the bounds in the kernel's PTX (.maxntid, .minnctapersm,
.maxclusterrank), checked arguments, a block larger than the bound refused at
kernel[grid, block] (the driver would refuse the launch), and kernels that run within it."""

import numpy as np
import pytest

from mahou import cuda
from mahou.errors import CudaError, UnsupportedError


def increment(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] += 1


def directives(ptx):
    return [line.strip() for line in ptx.splitlines()
            if line.strip().startswith((".maxntid", ".minnctapersm", ".maxclusterrank"))]


@pytest.mark.parametrize("bounds, expected", [
    (None, []),
    (256, [".maxntid 256, 1, 1"]),
    ((128,), [".maxntid 128, 1, 1"]),
    ((128, 2), [".maxntid 128, 1, 1", ".minnctapersm 2"]),
    ([64, 4, 2], [".maxntid 64, 1, 1", ".minnctapersm 4", ".maxclusterrank 2"]),
])
def test_the_bounds_are_the_kernels_ptx_directives(bounds, expected):
    ptx, _ = cuda.compile_ptx(increment, "void(float32[:])", launch_bounds=bounds)
    assert directives(ptx) == expected
    kernel_ptx, _ = cuda.compile(increment, "void(float32[:])", device=False, launch_bounds=bounds)
    assert directives(kernel_ptx) == expected


def test_a_device_function_has_no_launch_and_ignores_them():
    def twice(x):
        return 2 * x

    ptx, _ = cuda.compile(twice, "float64(float64)", launch_bounds=128)
    assert directives(ptx) == []


@pytest.mark.parametrize("bounds, error", [
    ("128", TypeError), (1.5, TypeError), ((), TypeError), ((1, 2, 3, 4), TypeError), (True, TypeError),
    ((128, None), TypeError), (0, ValueError), ((128, -1), ValueError), (2048, ValueError),
])
def test_malformed_bounds_are_refused(bounds, error):
    with pytest.raises(error, match="launch_bounds"):
        cuda.jit(launch_bounds=bounds)(increment)
    with pytest.raises(error, match="launch_bounds"):
        cuda.compile_ptx(increment, "void(float32[:])", launch_bounds=bounds)


def test_a_cluster_bound_needs_compute_capability_9():
    with pytest.raises(UnsupportedError, match="compute capability 9.0"):
        cuda.compile_ptx(increment, "void(float32[:])", launch_bounds=(128, 1, 2), cc=(8, 0))
    ptx, _ = cuda.compile_ptx(increment, "void(float32[:])", launch_bounds=(128, 1), cc=(8, 0))
    assert directives(ptx) == [".maxntid 128, 1, 1", ".minnctapersm 1"]


@pytest.mark.gpu
def test_kernels_run_within_their_bound_and_a_larger_block_is_refused():
    bounded = cuda.jit(launch_bounds=(64, 1))(increment)
    a = np.zeros(200, np.float32)
    bounded[4, 64](a)
    bounded[7, 32](a)
    np.testing.assert_array_equal(a, 2)
    with pytest.raises(CudaError, match="launch bound of 64"):
        bounded[1, 65](a)
    with pytest.raises(CudaError, match="launch bound of 64"):
        bounded[1, (16, 8)]  # 128 threads: refused when the configuration is made
    bounded[1, 64](a)  # the kernel stays usable
    np.testing.assert_array_equal(a[:64], 3)
    np.testing.assert_array_equal(a[64:], 2)


@pytest.mark.gpu
@pytest.mark.parametrize("bound", [32, 64, 96, 1024])
def test_forall_and_the_occupancy_queries_stay_within_the_bound(bound):
    # forall picks its block size with the occupancy calculator: never above the bound
    # (the driver reads .maxntid; the emulator has no PTX, the kernel its launch_bounds)
    bounded = cuda.jit(launch_bounds=bound)(increment)
    a = np.zeros(1000, np.float32)
    bounded.forall(a.size)(a)
    np.testing.assert_array_equal(a, 1)
    assert 0 < max(bounded.get_max_threads_per_block().values()) <= bound
    unbounded = cuda.jit(increment)
    unbounded.forall(a.size)(a)
    np.testing.assert_array_equal(a, 2)
    assert max(unbounded.get_max_threads_per_block().values()) >= bound
