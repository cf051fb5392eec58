"""mahou.cuda without a GPU: import, compile_ptx, inspect_asm, the device-side
names, resolver classification and the errors raised before any launch."""

import cmath
import math
import subprocess
import sys

import numpy as np
import pytest

import mahou
from mahou import cuda, float32, int64
from mahou._resolver import classify
from mahou.errors import MahouError

from conftest import assemble_ptx


@cuda.jit
def gpu_add(a, b, result):
    idx = cuda.grid(1)
    if idx < a.size:
        result[idx] = a[idx] + b[idx]


@cuda.jit(device=True)
def twice(x):
    return 2 * x


@cuda.jit
def call_device(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = twice(a[i])


@cuda.jit
def with_shared(a):
    tile = cuda.shared.array(32, dtype=float32)
    i = cuda.threadIdx.x
    tile[i] = a[i]
    cuda.syncthreads()
    a[i] = tile[31 - i]


SIG = "void(float32[:], float32[:], float32[:])"


def test_compile_ptx_has_entry_and_target():
    ptx, resty = cuda.compile_ptx(gpu_add, SIG)
    assert ".entry" in ptx
    assert "sm_90" in ptx
    assert resty == mahou.types.void


def test_compile_ptx_of_python_function_and_cc():
    def scale(a, k):
        i = cuda.grid(1)
        if i < a.shape[0]:
            a[i] *= k

    ptx, _ = cuda.compile_ptx(scale, "void(float64[:], float64)", cc=(8, 0))
    assert ".entry" in ptx
    assert "sm_80" in ptx


def test_compile_ptx_signature_as_types():
    ptx, _ = cuda.compile_ptx(gpu_add, (float32[:], float32[:], float32[:]))
    assert ".entry" in ptx


def test_compile_ptx_device_function_call_and_shared():
    assert ".entry" in cuda.compile_ptx(call_device, "void(int64[:])")[0]
    ptx = cuda.compile_ptx(with_shared, "void(float32[:])")[0]
    assert ".shared" in ptx
    assert "bar.sync" in ptx or "barrier.sync" in ptx


def test_compile_ptx_rejects_non_void_kernel():
    with pytest.raises(TypeError, match="void"):
        cuda.compile_ptx(gpu_add, "float32(float32[:], float32[:], float32[:])")


@cuda.jit(device=True)
def clamp_sqrt(x, y):
    def unit(v):
        return min(max(v, 0.0), 1.0)
    return unit(x + y) + math.sqrt(abs(x))


def test_compile_ptx_of_a_device_function():
    """device=True: a visible .func (mahou's calling convention), its return type, the
    functions it calls compiled in; the PTX assembles when ptxas is present."""
    ptx, restype = cuda.compile_ptx(clamp_sqrt, "float64(float64, float64)", device=True)
    assert restype == mahou.types.float64
    assert ".visible .func" in ptx and "clamp_sqrt(" in ptx
    assert ".entry" not in ptx
    assert "sqrt.rn.f64" in ptx

    def element(a, i):
        return a[i] + twice(a[i])

    ptx, restype = cuda.compile_ptx(element, (float32[:], "int64"), device=True)
    assert restype == mahou.types.float64  # 2 * float32 is float64 (scalar promotion, as in Numba)
    assert ".visible .func" in ptx
    assemble_ptx(ptx)


def test_compile_ptx_of_a_device_function_converts_to_a_declared_return_type():
    # as Numba: the signature's return type wins, the float64 result is converted
    ptx, restype = cuda.compile_ptx(clamp_sqrt, "float32(float64, float64)", device=True)
    assert restype == mahou.types.float32
    assert "cvt.rn.f32.f64" in ptx


def test_inspect_asm_without_launch():
    ptx = gpu_add.inspect_asm(SIG)
    assert ".entry" in ptx
    assert "define" in gpu_add.inspect_llvm(SIG)


def test_eager_signature_compiles_without_gpu():
    @cuda.jit("void(float64[:], int64)")
    def fill(a, v):
        i = cuda.grid(1)
        if i < a.size:
            a[i] = v

    assert len(fill.signatures) == 1
    assert ".entry" in fill.inspect_asm()[fill.signatures[0]]


def test_device_side_names_raise_outside_kernels():
    with pytest.raises(RuntimeError, match="syncthreads"):
        cuda.syncthreads()
    with pytest.raises(RuntimeError, match="threadIdx.x"):
        cuda.threadIdx.x
    with pytest.raises(RuntimeError, match="atomic.add"):
        cuda.atomic.add(np.zeros(1), 0, 1)
    with pytest.raises(RuntimeError):
        cuda.grid(1)


def test_numba_names_exist():
    for name in ["grid", "gridsize", "threadIdx", "blockIdx", "blockDim", "gridDim", "warpsize",
                 "laneid", "shared", "local", "const", "syncthreads", "syncthreads_count",
                 "syncthreads_and", "syncthreads_or", "threadfence", "threadfence_block",
                 "threadfence_system", "syncwarp", "atomic", "shfl_sync", "shfl_up_sync",
                 "shfl_down_sync", "shfl_xor_sync", "ballot_sync", "all_sync", "any_sync",
                 "activemask", "fma", "popc", "clz", "brev", "to_device", "device_array",
                 "device_array_like", "pinned_array", "mapped_array", "DeviceNDArray",
                 "is_available", "detect", "synchronize", "stream", "default_stream", "event",
                 "compile_ptx", "jit", "CudaError"]:
        assert hasattr(cuda, name), name
    for name in ["add", "sub", "max", "min", "exch", "cas", "and_", "or_", "xor"]:
        assert hasattr(cuda.atomic, name), name
    assert hasattr(cuda.shared, "array") and hasattr(cuda.local, "array")
    assert hasattr(cuda.const, "array_like")


def test_resolver_classifies_the_cuda_module():
    assert classify(cuda) == ("module", "mahou.cuda")
    assert classify(cuda.grid) == ("modattr", "mahou.cuda", "grid")
    assert classify(cuda.threadIdx) == ("modattr", "mahou.cuda", "threadIdx")
    assert classify(cuda.atomic) == ("modattr", "mahou.cuda", "atomic")
    assert classify(float32) == ("dtype", "float32")
    assert classify(twice)[0] == "function"


def test_from_mahou_import_cuda():
    assert mahou.cuda is cuda
    code = "import mahou, sys; assert 'mahou.cuda' not in sys.modules; import mahou.cuda"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_is_available_is_a_bool():
    assert isinstance(cuda.is_available(), bool)
    assert isinstance(cuda.detect(), bool)


def test_error_classes():
    assert issubclass(cuda.CudaError, MahouError)
    assert cuda.CudaError is mahou.errors.CudaError


def test_kernel_needs_a_launch_configuration():
    with pytest.raises(ValueError, match="launch configuration"):
        gpu_add(np.zeros(1), np.zeros(1), np.zeros(1))


def test_device_function_is_not_callable_or_launchable():
    with pytest.raises(TypeError, match="device function"):
        twice(1.0)
    with pytest.raises(TypeError, match="device function"):
        twice[1, 1]


def test_invalid_configurations():
    with pytest.raises(ValueError):
        gpu_add[1]
    with pytest.raises(ValueError):
        gpu_add[(1, 1, 1, 1), 1]
    with pytest.raises(ValueError):
        gpu_add[-1, 32]
    with pytest.raises(TypeError):
        gpu_add["a", 32]
    assert gpu_add[4, 32] is gpu_add[4, 32]  # configurations are cached
    assert gpu_add[(2, 2), (8, 8)] is not None


def test_njit_cannot_call_a_device_function():
    @mahou.njit
    def host(x):
        return twice(x)

    with pytest.raises(MahouError, match="device function"):
        host(1.0)


def test_kernel_attributes():
    assert gpu_add.__name__ == "gpu_add"
    assert gpu_add.py_func.__name__ == "gpu_add"
    assert twice.targetoptions["device"] is True
    with pytest.raises(TypeError):
        cuda.jit(bogus_option=True)


@pytest.mark.skipif(cuda.is_available(), reason="checks the no-GPU error path")
def test_launch_without_gpu_raises_cuda_error():
    with pytest.raises(cuda.CudaError):
        gpu_add[1, 5](np.ones(5, np.float32), np.ones(5, np.float32), np.zeros(5, np.float32))
    with pytest.raises(cuda.CudaError):
        cuda.device_array(4)


def test_launch_type_errors_before_any_device_work():
    with pytest.raises(TypeError, match="cannot be passed"):
        gpu_add[1, 5]([1.0], [2.0], [3.0])
    with pytest.raises(TypeError, match="positional argument"):
        gpu_add[1, 5](np.zeros(5))
    with pytest.raises(TypeError, match="keyword"):
        gpu_add[1, 5](a=1, b=2, result=3)


def test_signature_types_from_int64():
    ptx, _ = cuda.compile_ptx(gpu_add, (int64[:], int64[:], int64[:]))
    assert ".entry" in ptx


def _kernel_cmath_exp(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        out[i] = cmath.exp(a[i]) + cmath.sqrt(a[i])


def test_complex_exp_sqrt_log_in_kernels_name_no_host_function():
    # on the CPU they are the host runtime's functions; a kernel computes them in real math
    ptx, _ = cuda.compile_ptx(_kernel_cmath_exp, "void(complex128[::1], complex128[::1])")
    assert "mahou_rt" not in ptx and ".extern" not in ptx
    assemble_ptx(ptx)
