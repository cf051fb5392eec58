"""External device functions: cuda.declare_device and cuda.jit(link=...) with CUDA C
(compiled by NVRTC), PTX and the driver's linker. The declaration, typing, the PTX call
and NVRTC run anywhere; the linked kernels run on a GPU (the emulator refuses them)."""

import os
import shutil
import subprocess

import numpy as np
import pytest

from mahou import cuda, njit
from mahou.cuda import _linking
from mahou.errors import TypingError, UnsupportedError

from conftest import find_ptxas

EMULATED = os.environ.get("MAHOU_ENABLE_CUDASIM", "0") not in ("", "0")

# Numba's device ABI: int status, the result through the first pointer.
FUNCTIONS_CU = r"""
extern "C" __device__ int scaled_sum(double *result, double a, double b, int scale) {
  *result = (a + b) * scale;
  return 0;
}
extern "C" __device__ int total(float *result, const float *values, int n) {
  float t = 0.0f;
  for (int i = 0; i < n; ++i) t += values[i];
  *result = t;
  return 0;
}
extern "C" __device__ int store_twice(char *unused, int *out, int i, int v) {
  out[i] = 2 * v;
  return 0;
}
"""


def loads(library):
    """Whether the toolkit library `library()` loads here (NVRTC, nvJitLink)."""
    try:
        library()
        return True
    except Exception:  # noqa: BLE001 - not installed here
        return False


def have_nvrtc():
    return loads(_linking._nvrtc)


@pytest.fixture
def functions_cu(tmp_path):
    path = tmp_path / "functions.cu"
    path.write_text(FUNCTIONS_CU)
    return str(path)


scaled_sum = cuda.declare_device("scaled_sum", "float64(float64, float64, int32)")
total = cuda.declare_device("total", "float32(CPointer(float32), int32)")
store_twice = cuda.declare_device("store_twice", "void(CPointer(int32), int32, int32)")


def kernel_source(r, x, y):
    i = cuda.grid(1)
    if i < r.size:
        r[i] = scaled_sum(x[i], y[i], 3) + total(x, len(x))


# ---------------------------------------------------------------- declarations

def test_a_declaration_keeps_its_name_signature_and_files(tmp_path):
    f = tmp_path / "a.ptx"
    d = cuda.declare_device("f", "float32(float32, CPointer(int64))", link=[f])
    assert d.name == "f"
    assert d.sig == "float32(float32, CPointer(int64))"
    assert d.link == (str(f),)
    assert cuda.declare_device("g", "void(voidptr)").link == ()


@pytest.mark.parametrize("sig, error", [
    ("(float32)", TypeError),                     # no return type
    ("float32(float32[:])", UnsupportedError),     # an array parameter (pass a pointer)
    ("complex128(float64)", UnsupportedError),     # complex results are not C's
    ("UniTuple(int64, 2)(int64)", UnsupportedError),
])
def test_declarations_with_unsupported_signatures_are_refused(sig, error):
    with pytest.raises(error):
        cuda.declare_device("f", sig)


def test_link_files_of_unknown_kinds_are_refused():
    assert cuda.jit(link=["code.ltoir"])(kernel_source) is not None  # LTO-IR: nvJitLink links it
    with pytest.raises(UnsupportedError, match="file kinds"):
        cuda.declare_device("f", "int32(int32)", link=["notes.txt"])
    with pytest.raises(TypeError):
        cuda.jit(link=[3])(kernel_source)


def test_calling_a_declaration_outside_kernels_is_refused():
    with pytest.raises(TypeError, match="only be called from a @cuda.jit"):
        scaled_sum(1.0, 2.0, 3)

    @njit
    def host(a):
        return scaled_sum(a, a, 1)

    with pytest.raises(UnsupportedError, match="external device function") as info:
        host(1.0)
    assert "return scaled_sum(a, a, 1)" in str(info.value)


def test_wrong_arguments_are_typing_errors():
    def too_few(r):
        r[0] = scaled_sum(1.0, 2.0)

    with pytest.raises(TypingError):
        cuda.compile_ptx(too_few, "void(float64[:])")

    def wrong_pointer(r, x):
        r[0] = total(x, 3)

    with pytest.raises(TypingError, match="cannot pass"):
        cuda.compile_ptx(wrong_pointer, "void(float32[:], float64[:])")


# ---------------------------------------------------------------- the call in PTX

def test_the_kernel_calls_the_symbol_with_numbas_abi():
    ptx, _ = cuda.compile_ptx(kernel_source, "void(float64[:], float32[:], float64[:])")
    # int status, then the result pointer and the arguments as C takes them
    assert ".extern .func  (.param .b32 func_retval0) scaled_sum" in ptx
    decl = ptx[ptx.index(") scaled_sum"):]
    decl = decl[:decl.index(";")]
    assert decl.count(".param") == 4 and decl.count(".b64") == 3 and decl.count(".b32") == 1
    assert "call.uni" in ptx or "call " in ptx


def test_the_kernel_ptx_assembles_as_relocatable_code():
    ptxas = find_ptxas()
    if not ptxas:
        pytest.skip("no ptxas")
    ptx, _ = cuda.compile_ptx(kernel_source, "void(float64[:], float32[:], float64[:])")
    assemble_relocatable(ptxas, ptx)


def assemble_relocatable(ptxas, ptx, tmp="/tmp"):
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "k.ptx")
        with open(src, "w") as f:
            f.write(ptx)
        run = subprocess.run([ptxas, "-c", "-arch=sm_90", src, "-o", os.path.join(d, "k.o")],
                             capture_output=True, text=True)
        assert run.returncode == 0, run.stderr


# ---------------------------------------------------------------- NVRTC

@pytest.mark.skipif(not have_nvrtc(), reason="no NVRTC (libnvrtc) here")
def test_cuda_c_compiles_to_relocatable_ptx(functions_cu):
    ptx = _linking.compile_cuda_c(open(functions_cu, "rb").read(), functions_cu, 9, 0)
    text = ptx.decode()
    for name in ("scaled_sum", "total", "store_twice"):
        assert f".visible .func  (.param .b32 func_retval0) {name}(" in text
    ptxas = find_ptxas()
    if ptxas:
        assemble_relocatable(ptxas, text)
    inputs = _linking.link_inputs([functions_cu], 9, 0)
    assert [(t, name) for t, _, name in inputs] == [(1, functions_cu)]


@pytest.mark.skipif(not have_nvrtc(), reason="no NVRTC (libnvrtc) here")
def test_cuda_c_that_does_not_compile_gives_nvrtcs_log(tmp_path):
    bad = tmp_path / "bad.cu"
    bad.write_text('extern "C" __device__ int f(int *r) { return undefined_name; }\n')
    with pytest.raises(_linking.NvrtcError, match="undefined_name"):
        _linking.link_inputs([str(bad)], 9, 0)


def test_a_missing_link_file_is_a_file_not_found_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="missing.ptx"):
        _linking.link_inputs([str(tmp_path / "missing.ptx")], 9, 0)


# ---------------------------------------------------------------- LTO-IR and nvJitLink

ADD_ONE_CU = r"""
extern "C" __device__ int add_one(float *result, float x) {
  *result = x + 1.0f;
  return 0;
}
"""

add_one = cuda.declare_device("add_one", "float32(float32)")


def add_one_kernel(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = add_one(a[i]) * 2


def have_nvjitlink():
    from mahou.cuda import _nvjitlink
    return loads(_nvjitlink._nvjitlink)


@pytest.fixture
def add_one_ltoir(tmp_path):
    if not have_nvrtc():
        pytest.skip("no NVRTC (libnvrtc) here")
    src = tmp_path / "add_one.cu"
    src.write_text(ADD_ONE_CU)
    path = tmp_path / "add_one.ltoir"
    path.write_bytes(_linking.compile_cuda_c(src.read_bytes(), str(src), 9, 0, output="ltoir"))
    return str(path)


@pytest.mark.skipif(not have_nvjitlink(), reason="no nvJitLink (libnvJitLink) here")
def test_lto_ir_links_with_the_kernel_into_one_cubin(add_one_ltoir):
    ptx, _ = cuda.compile_ptx(add_one_kernel, "void(float32[:])")
    inputs = _linking.link_inputs([add_one_ltoir], 9, 0, ptx.encode(), 32, True)
    assert len(inputs) == 1 and inputs[0][0] == _linking.LINKED_IMAGE
    cubin = inputs[0][1]
    assert cubin[:4] == b"\x7fELF" and b"add_one_kernel" in cubin
    # without LTO-IR, the driver's linker takes the files as they are
    assert [t for t, _, _ in _linking.link_inputs([], 9, 0, ptx.encode())] == []


@pytest.mark.skipif(not have_nvjitlink(), reason="no nvJitLink (libnvJitLink) here")
def test_an_unresolved_symbol_under_nvjitlink_is_its_error_with_the_log(add_one_ltoir):
    from mahou.cuda._nvjitlink import NvJitLinkError
    missing = cuda.declare_device("not_defined_anywhere", "float32(float32)")

    def k(a):
        a[0] = missing(a[0])

    ptx, _ = cuda.compile_ptx(k, "void(float32[:])")
    with pytest.raises(NvJitLinkError, match="not_defined_anywhere"):
        _linking.link_inputs([add_one_ltoir], 9, 0, ptx.encode())


def test_lto_ir_that_is_not_lto_ir_is_refused_by_the_linker(tmp_path):
    if not have_nvjitlink():
        pytest.skip("no nvJitLink (libnvJitLink) here")
    from mahou.cuda._nvjitlink import NvJitLinkError
    junk = tmp_path / "junk.ltoir"
    junk.write_bytes(b"not LTO-IR at all")
    ptx, _ = cuda.compile_ptx(add_one_kernel, "void(float32[:])")
    with pytest.raises(NvJitLinkError):
        _linking.link_inputs([str(junk)], 9, 0, ptx.encode())


@pytest.mark.skipif(not have_nvrtc(), reason="no NVRTC (libnvrtc) here")
def test_compile_all_gives_the_code_of_the_linked_files(functions_cu, add_one_ltoir, tmp_path):
    ptx_file = tmp_path / "extra.ptx"
    ptx_file.write_text("//\n.version 8.0\n.target sm_90\n.address_size 64\n")
    with_cu = cuda.declare_device("scaled_sum", "float64(float64, float64, int32)", link=functions_cu)
    with_lto = cuda.declare_device("add_one", "float32(float32)", link=[add_one_ltoir, str(ptx_file)])

    def both(x):
        return with_cu(x, x, 2) + with_lto(x)

    codes, resty = cuda.compile_all(both, "float64(float64)", output="ptx")
    assert resty == cuda.compile(both, "float64(float64)")[1]
    assert len(codes) == 4 and ".visible .func" in codes[0]
    assert isinstance(codes[1], str) and "scaled_sum" in codes[1]  # CUDA C compiled to PTX
    assert codes[2] == open(add_one_ltoir, "rb").read()  # LTO-IR as it is
    assert codes[3] == ptx_file.read_text().rstrip("\0")  # PTX as text


@pytest.mark.gpu
def test_a_kernel_calls_lto_ir_linked_by_nvjitlink(add_one_ltoir):
    if not have_nvjitlink():
        pytest.skip("no nvJitLink (libnvJitLink) here")
    k = cuda.jit(link=[add_one_ltoir])(add_one_kernel)
    a = np.arange(40, dtype=np.float32)
    if EMULATED:
        with pytest.raises(UnsupportedError, match="emulator"):
            k[1, 64](a)
        return
    k[1, 64](a)
    np.testing.assert_array_equal(a, (np.arange(40, dtype=np.float32) + 1) * 2)


# ---------------------------------------------------------------- on the device

@pytest.mark.gpu
def test_a_kernel_calls_cuda_c_linked_from_its_link_files(functions_cu):
    k = cuda.jit(link=[functions_cu])(kernel_source)
    x = np.arange(8, dtype=np.float32)  # total() reads float32 data
    y = np.linspace(-1, 1, 8)
    r = np.zeros(8)
    if EMULATED:
        with pytest.raises(UnsupportedError, match="emulator"):
            k[1, 8](r, x, y)
        return
    k[1, 8](r, x, y)
    np.testing.assert_allclose(r, (x + y) * 3 + x.sum(), rtol=1e-6)


@pytest.mark.gpu
def test_a_declaration_brings_its_own_files_and_void_functions_run(functions_cu):
    twice = cuda.declare_device("store_twice", "void(CPointer(int32), int32, int32)", link=functions_cu)

    @cuda.jit
    def k(out):
        i = cuda.grid(1)
        if i < out.size:
            twice(out, i, i - 3)

    out = np.zeros(40, np.int32)
    if EMULATED:
        with pytest.raises(UnsupportedError, match="emulator"):
            k[2, 32](out)
        return
    k[2, 32](out)
    np.testing.assert_array_equal(out, 2 * (np.arange(40) - 3))


@pytest.mark.gpu
@pytest.mark.skipif(not have_nvrtc(), reason="no NVRTC to make the PTX file")
def test_ptx_files_link_and_device_functions_pass_their_files_on(functions_cu, tmp_path):
    ptx_path = tmp_path / "functions.ptx"
    ptx_path.write_bytes(_linking.compile_cuda_c(open(functions_cu, "rb").read(), functions_cu, 9, 0))

    @cuda.jit(device=True, link=[str(ptx_path)])
    def helper(a, b):
        return scaled_sum(a, b, 2)

    @cuda.jit
    def k(r, x):
        i = cuda.grid(1)
        if i < r.size:
            r[i] = helper(x[i], 1.0)

    x = np.arange(16, dtype=np.float64)
    r = np.zeros(16)
    if EMULATED:
        with pytest.raises(UnsupportedError, match="emulator"):
            k[1, 16](r, x)
        return
    k[1, 16](r, x)
    np.testing.assert_array_equal(r, (x + 1) * 2)


@pytest.mark.gpu
def test_an_unresolved_symbol_is_a_link_error_and_the_process_goes_on():
    missing = cuda.declare_device("not_defined_anywhere", "int32(int32)")

    @cuda.jit
    def k(out):
        out[0] = missing(3)

    out = np.zeros(1, np.int32)
    error = UnsupportedError if EMULATED else cuda.CudaError
    with pytest.raises(error):
        k[1, 1](out)
    @cuda.jit
    def fill(o):
        o[0] = 7

    fill[1, 1](out)  # the context still works
    assert out[0] == 7


# ---------------------------------------------------------------- the C ABI (cuda.compile)

def mixed(a, b):
    return a + b * 2


def positive(a):
    return a > 0


def test_cuda_compile_gives_the_c_abi_by_default():
    ptx, resty = cuda.compile(mixed, "float32(float32, int32)")
    assert str(resty) == "float32"  # the declared return type, converted to as in Numba
    assert ".visible .func  (.param .b32 func_retval0) mixed(" in ptx
    header = ptx[ptx.index(") mixed("):]
    header = header[:header.index(")", 8)]
    assert header.count(".param") == 2  # no status, no result pointer
    ptx, _ = cuda.compile(mixed, "float64(float64, int64)", abi_info={"abi_name": "my_mixed"})
    assert ") my_mixed(" in ptx and ") mixed(" not in ptx
    ptx, resty = cuda.compile(positive, "(int64,)")
    assert str(resty) == "bool" and ") positive(" in ptx
    ptxas = find_ptxas()
    if ptxas:
        assemble_relocatable(ptxas, ptx)


def test_the_c_abi_takes_numbers_only():
    def first(a):
        return a[0]

    with pytest.raises(UnsupportedError, match="C ABI takes numbers"):
        cuda.compile(first, "(float64[:],)")
    ptx, _ = cuda.compile(first, "(float64[:],)", abi="numba")  # mahou's convention takes arrays
    assert ".visible .func" in ptx
    with pytest.raises(ValueError, match="abi_name"):
        cuda.compile(mixed, "(float64, int64)", abi_info={"abi_name": "not a name"})
    with pytest.raises(NotImplementedError):
        cuda.compile_ptx(mixed, "(float64, int64)", abi="c")  # a kernel has no C ABI


# A CUDA C function with Numba's ABI that calls a Python function compiled with the C ABI.
CALLS_PYTHON_CU = r"""
extern "C" __device__ float mixed(float a, int b);
extern "C" __device__ int call_mixed(float *result, float a, int b) {
  *result = mixed(a, b) + 0.5f;
  return 0;
}
"""


@pytest.mark.gpu
@pytest.mark.skipif(not have_nvrtc(), reason="no NVRTC")
def test_cuda_c_calls_python_compiled_with_the_c_abi(tmp_path):
    ptx, _ = cuda.compile(mixed, "float32(float32, int32)")
    (tmp_path / "mixed.ptx").write_text(ptx)
    (tmp_path / "calls.cu").write_text(CALLS_PYTHON_CU)
    call_mixed = cuda.declare_device("call_mixed", "float32(float32, int32)")

    @cuda.jit(link=[str(tmp_path / "calls.cu"), str(tmp_path / "mixed.ptx")])
    def k(r, x):
        i = cuda.grid(1)
        if i < r.size:
            r[i] = call_mixed(x[i], i)

    x = np.linspace(-3, 3, 32).astype(np.float32)
    r = np.zeros(32, np.float32)
    if EMULATED:
        with pytest.raises(UnsupportedError, match="emulator"):
            k[1, 32](r, x)
        return
    k[1, 32](r, x)
    np.testing.assert_allclose(r, x + 2 * np.arange(32) + 0.5, rtol=1e-6)
