"""nvJitLink (the CUDA toolkit's linker of LTO-IR, found at run time as NVRTC is): a kernel's
PTX and its link= files, LTO-IR among them, linked with link-time optimisation into one
cubin for compute capability major.minor, which the driver then loads."""

import ctypes

from ..errors import CudaError
from ._toolkit import load_library

# nvJitLink.h's nvJitLinkInputType of each file kind (its values differ from the driver's).
_INPUT_TYPES = {"cubin": 1, "ptx": 2, "ltoir": 3, "fatbin": 4, "o": 5, "a": 6, "lib": 6}


class NvJitLinkError(CudaError):
    """A link nvJitLink refused (its error log is in the message)."""


class _Library:
    """The library and its entry points, typed; the header maps each name to the entry of its
    own version (__nvJitLinkCreate_12_9 ...), which is used where the library has it."""

    def __init__(self):
        self.lib = load_library("libnvJitLink", "MAHOU_NVJITLINK_PATH", "nvidia.nvjitlink",
                                "linking LTO-IR (.ltoir) into a kernel")
        major, minor = ctypes.c_uint(), ctypes.c_uint()
        self.version = (0, 0)
        if hasattr(self.lib, "nvJitLinkVersion") and self.lib.nvJitLinkVersion(ctypes.byref(major),
                                                                                 ctypes.byref(minor)) == 0:
            self.version = (major.value, minor.value)

        handle, size_p = ctypes.c_void_p, ctypes.POINTER(ctypes.c_size_t)
        signatures = {  # nvJitLink.h's prototypes (every entry returns an nvJitLinkResult)
            "nvJitLinkCreate": [ctypes.POINTER(handle), ctypes.c_uint32, ctypes.POINTER(ctypes.c_char_p)],
            "nvJitLinkAddData": [handle, ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p],
            "nvJitLinkComplete": [handle],
            "nvJitLinkGetLinkedCubinSize": [handle, size_p],
            "nvJitLinkGetLinkedCubin": [handle, ctypes.c_void_p],
            "nvJitLinkGetErrorLogSize": [handle, size_p],
            "nvJitLinkGetErrorLog": [handle, ctypes.c_char_p],
            "nvJitLinkDestroy": [ctypes.POINTER(handle)],
        }
        for name, argtypes in signatures.items():
            versioned = f"__{name}_{self.version[0]}_{self.version[1]}"
            entry = getattr(self.lib, versioned) if hasattr(self.lib, versioned) else getattr(self.lib, name)
            entry.argtypes, entry.restype = argtypes, ctypes.c_int
            setattr(self, name, entry)


_library = None


def _nvjitlink():
    global _library  # loaded once per process, like the driver
    if _library is None:
        _library = _Library()
    return _library


def _log(lib, handle, which):
    size = ctypes.c_size_t()
    if getattr(lib, f"nvJitLinkGet{which}LogSize")(handle, ctypes.byref(size)) != 0 or size.value <= 1:
        return ""
    text = ctypes.create_string_buffer(size.value)
    getattr(lib, f"nvJitLinkGet{which}Log")(handle, text)
    return text.value.decode(errors="replace").strip()


def link_cubin(kernel_ptx, inputs, major, minor, max_registers=0, lineinfo=False):
    """The cubin of `kernel_ptx` (bytes) linked with `inputs`, (kind, bytes, name) each (kind
    as linked_code names it), with link-time optimisation. NvJitLinkError with the log."""
    lib = _nvjitlink()
    options = [f"-arch=sm_{major}{minor}".encode(), b"-lto"]
    if max_registers:
        options.append(f"-maxrregcount={int(max_registers)}".encode())
    if lineinfo:
        options.append(b"-lineinfo")
    argv = (ctypes.c_char_p * len(options))(*options)
    handle = ctypes.c_void_p()
    if (r := lib.nvJitLinkCreate(ctypes.byref(handle), len(options), argv)) != 0:
        raise NvJitLinkError(f"nvJitLinkCreate failed (error {r}) with options {[o.decode() for o in options]}")
    try:
        def add(kind, data, name):
            buf = ctypes.create_string_buffer(data, len(data) + (1 if kind == "ptx" else 0))
            if (r := lib.nvJitLinkAddData(handle, _INPUT_TYPES[kind], buf, len(buf.raw), name.encode())) != 0:
                log = _log(lib, handle, "Error")
                raise NvJitLinkError(f"nvJitLink could not add {name} (error {r})" + (f":\n{log}" if log else ""))

        add("ptx", kernel_ptx.rstrip(b"\0"), "the kernel's PTX")
        for kind, data, name in inputs:
            add(kind, data, name)
        if (r := lib.nvJitLinkComplete(handle)) != 0:
            log = _log(lib, handle, "Error")
            raise NvJitLinkError(f"nvJitLink could not link the kernel (error {r})" + (f":\n{log}" if log else ""))
        size = ctypes.c_size_t()
        if lib.nvJitLinkGetLinkedCubinSize(handle, ctypes.byref(size)) != 0:
            raise NvJitLinkError("nvJitLinkGetLinkedCubinSize failed")
        cubin = ctypes.create_string_buffer(size.value)
        if lib.nvJitLinkGetLinkedCubin(handle, cubin) != 0:
            raise NvJitLinkError("nvJitLinkGetLinkedCubin failed")
        return cubin.raw
    finally:
        lib.nvJitLinkDestroy(ctypes.byref(handle))
