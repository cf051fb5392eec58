"""External code linked into CUDA kernels (cuda.jit(link=...), cuda.declare_device):
files checked by kind, CUDA C compiled to PTX with NVRTC (found at run time, as the
driver is), and the bytes handed to the driver's JIT linker with the kernel's PTX; with
LTO-IR among them, nvJitLink links everything into the cubin that is loaded."""

import ctypes
import os

from ..errors import CudaError, UnsupportedError
from ._toolkit import cuda_roots, load_library

# cuda.h's CUjitInputType of each file kind the driver's linker takes.
_INPUT_TYPES = {".cubin": 0, ".ptx": 1, ".fatbin": 2, ".o": 3, ".a": 4, ".lib": 4}
_CUDA_C = (".cu",)
_LTOIR = ".ltoir"  # linked by nvJitLink (_nvjitlink.py), not by the driver
# What link_inputs answers when it linked the kernel itself: one input, the cubin to load
# (kLinkedImage in the binding).
LINKED_IMAGE = -1


class NvrtcError(CudaError):
    """CUDA C that NVRTC could not compile (its log is in the message)."""


def check_link_files(files, what):
    """The absolute paths of `files` (a path or a sequence of them), each of a kind that can
    be linked; TypeError or UnsupportedError naming `what` otherwise."""
    if files is None:
        return ()
    if isinstance(files, (str, bytes, os.PathLike)):
        files = (files,)
    try:
        files = tuple(files)
    except TypeError:
        raise TypeError(f"{what}: link= takes a file path or a sequence of them, "
                        f"not {type(files).__name__}") from None
    out = []
    for f in files:
        if not isinstance(f, (str, os.PathLike)):
            raise TypeError(f"{what}: link= takes file paths, not {type(f).__name__}")
        path = os.path.abspath(os.fspath(f))
        ext = os.path.splitext(path)[1].lower()
        if ext not in _INPUT_TYPES and ext not in _CUDA_C and ext != _LTOIR:
            raise UnsupportedError(f"{what}: cannot link {f}: the file kinds linked are .cu "
                                   "(CUDA C), .ptx, .cubin, .fatbin, .o, .a and .ltoir (LTO-IR)")
        out.append(path)
    return tuple(out)


def _read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise FileNotFoundError(f"cannot read {path}, linked into a CUDA kernel: {e.strerror}") from None


def linked_code(paths, major, minor):
    """(kind, code) of each file, as linked for compute capability major.minor: kind is the
    file's extension without the dot, except CUDA C, which is compiled to "ptx" with NVRTC;
    PTX as bytes without a trailing NUL."""
    out = []
    for path in paths:
        ext = os.path.splitext(path)[1].lower()
        data = _read(path)
        if ext in _CUDA_C:
            out.append(("ptx", compile_cuda_c(data, path, major, minor)))
        else:
            out.append((ext[1:], data.rstrip(b"\0") if ext == ".ptx" else data))
    return out


def link_inputs(paths, major, minor, kernel_ptx=None, max_registers=0, lineinfo=False):
    """(CUjitInputType, bytes, name) of each file for the driver's linker: CUDA C is compiled
    to PTX for compute capability major.minor; PTX ends with its NUL (added by the loader).
    With LTO-IR among the files, nvJitLink links them with `kernel_ptx` instead, and the
    answer is one (LINKED_IMAGE, cubin, name)."""
    code = linked_code(paths, major, minor)
    if any(kind == _LTOIR[1:] for kind, _ in code):
        if kernel_ptx is None:
            raise UnsupportedError("linking LTO-IR needs the kernel's PTX")
        from ._nvjitlink import link_cubin
        cubin = link_cubin(kernel_ptx, [(kind, data, path) for (kind, data), path in zip(code, paths)],
                           major, minor, max_registers=max_registers, lineinfo=lineinfo)
        return [(LINKED_IMAGE, cubin, "the kernel linked with nvJitLink")]
    return [(_INPUT_TYPES["." + kind], data, path) for (kind, data), path in zip(code, paths)]


# ------------------------------------------------------------------ NVRTC

_nvrtc_lib = None


def _nvrtc():
    global _nvrtc_lib  # the library, loaded once per process like the driver
    if _nvrtc_lib is None:
        lib = load_library("libnvrtc", "MAHOU_NVRTC_PATH", "nvidia.cuda_nvrtc",
                           "compiling CUDA C (.cu) linked into a kernel")
        lib.nvrtcGetErrorString.restype = ctypes.c_char_p
        _nvrtc_lib = lib
    return _nvrtc_lib


def _include_dirs(path):
    dirs = [os.path.dirname(path)]
    for root in cuda_roots():
        if os.path.isdir(os.path.join(root, "include")):
            dirs.append(os.path.join(root, "include"))
    return dirs


def compile_cuda_c(source, name, major, minor, output="ptx"):
    """PTX (bytes) of CUDA C `source`, relocatable (its __device__ functions stay visible to
    the linker), for compute capability major.minor; with output="ltoir", its LTO-IR
    (NVRTC's -dlto) for nvJitLink. NvrtcError with the log on failure."""
    lib = _nvrtc()
    program = ctypes.c_void_p()

    def check(result, what):
        if result != 0:
            raise NvrtcError(f"NVRTC {what} failed on {name}: {lib.nvrtcGetErrorString(result).decode()}")

    check(lib.nvrtcCreateProgram(ctypes.byref(program), ctypes.c_char_p(source), name.encode(), 0, None, None),
          "nvrtcCreateProgram")
    try:
        options = [b"-rdc=true", f"--gpu-architecture=compute_{major}{minor}".encode()]
        if output == "ltoir":
            options.append(b"-dlto")
        options += [f"-I{d}".encode() for d in _include_dirs(name)]
        argv = (ctypes.c_char_p * len(options))(*options)
        compiled = lib.nvrtcCompileProgram(program, len(options), argv)
        if compiled != 0:
            size = ctypes.c_size_t()
            lib.nvrtcGetProgramLogSize(program, ctypes.byref(size))
            log = ctypes.create_string_buffer(size.value)
            lib.nvrtcGetProgramLog(program, log)
            raise NvrtcError(f"NVRTC could not compile {name}:\n{log.value.decode(errors='replace')}")
        size = ctypes.c_size_t()
        if output == "ltoir":
            check(lib.nvrtcGetLTOIRSize(program, ctypes.byref(size)), "nvrtcGetLTOIRSize")
            ltoir = ctypes.create_string_buffer(size.value)
            check(lib.nvrtcGetLTOIR(program, ltoir), "nvrtcGetLTOIR")
            return ltoir.raw
        check(lib.nvrtcGetPTXSize(program, ctypes.byref(size)), "nvrtcGetPTXSize")
        ptx = ctypes.create_string_buffer(size.value)
        check(lib.nvrtcGetPTX(program, ptx), "nvrtcGetPTX")
        return ptx.raw.rstrip(b"\0")
    finally:
        lib.nvrtcDestroyProgram(ctypes.byref(program))


# ------------------------------------------------------------------ declarations

class ExternalDeviceFunction:
    """What cuda.declare_device returns: an external device function (CUDA C, PTX, ...)
    that kernels call by `name` with Numba's device ABI (`extern "C" __device__ int
    name(T *result, args...)`), its code linked from the kernel's link= files or this
    declaration's own."""

    def __init__(self, name, restype, argtypes, link):
        self.name = name
        self.restype = restype
        self.argtypes = tuple(argtypes)
        self.link = link

    @property
    def sig(self):
        return f"{self.restype}({', '.join(str(a) for a in self.argtypes)})"

    def __repr__(self):
        return f"<external device function {self.name}: {self.sig}>"

    def __call__(self, *args, **kwargs):
        raise TypeError(f"the external device function '{self.name}' (cuda.declare_device) can only "
                        "be called from a @cuda.jit kernel or device function")



_FOREIGN_TYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                  "float32", "float64", "intp", "uintp")


def declare(name, sig, link):
    """cuda.declare_device(name, sig, link): the ExternalDeviceFunction, its signature
    checked (numbers and pointers, as a C function takes)."""
    from .. import _core
    from .. import types as _types
    if not isinstance(name, str) or not name:
        raise TypeError(f"cuda.declare_device(): the name must be a non-empty string, not {name!r}")
    ret, args = _core.parse_signature(_types.signature_text(sig))
    if ret is None:
        raise TypeError(f"cuda.declare_device({name!r}, {sig!r}): the signature needs a return type "
                        "(void for none)")
    for t in [ret] + list(args):
        if t in _FOREIGN_TYPES or t == "voidptr" or t.startswith("CPointer(") or (t == "none" and t is ret):
            continue
        raise UnsupportedError(f"cuda.declare_device({name!r}, {sig!r}): external device functions take "
                               f"and return numbers and pointers (CPointer(T), voidptr), not {t}")
    return ExternalDeviceFunction(name, ret, args, check_link_files(link, "cuda.declare_device"))
