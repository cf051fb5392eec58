"""@cuda.jit (kernels and device functions) and cuda.compile_ptx: wrap a Python
function in a mahou._core.CUDAKernel, the C++ object that compiles and launches."""

import functools
import types as _pytypes

from .. import _core
from .. import types as _types
from .._resolver import make_resolver
from ..decorators import _source_of, apply_decorator
from ..errors import UnsupportedError
from ._linking import check_link_files, declare, linked_code


def build_kernel(func, source, filename, firstlineno, options):
    """The CUDAKernel of `func` compiled from `source` (what @cuda.jit makes, and what
    unpickling a kernel pickled by value makes again)."""
    kernel = _core.CUDAKernel(func, source, filename, firstlineno, func.__name__,
                              make_resolver(func), options)
    functools.update_wrapper(kernel, func)
    kernel._mahou_origin = (source, filename, firstlineno, options)  # for pickling
    return kernel


def _make_kernel(func, signatures, options):
    if isinstance(func, _core.CUDAKernel):
        func = func.py_func
    if not isinstance(func, _pytypes.FunctionType):
        raise TypeError(f"cuda.jit() expects a Python function, not {type(func).__name__}")
    kernel = build_kernel(func, *_source_of(func), options)
    if signatures:  # a device function keeps them for its callers (they convert to one)
        for sig in signatures:
            kernel.compile(_types.signature_text(sig))
        kernel.disable_compile()
    return kernel


def launch_bounds_of(bounds, what):
    """cuda.jit's launch_bounds: an int (the most threads per block) or a tuple of one to three
    positive ints (that, the fewest blocks per multiprocessor, the most blocks per cluster);
    None when not given. TypeError or ValueError naming `what` otherwise."""
    if bounds is None:
        return None
    items = (bounds,) if isinstance(bounds, int) and not isinstance(bounds, bool) else bounds
    if not isinstance(items, (tuple, list)) or not 1 <= len(items) <= 3 or \
            not all(isinstance(b, int) and not isinstance(b, bool) for b in items):
        raise TypeError(f"{what}: launch_bounds must be an int or a tuple of one to three ints "
                        f"(max threads per block, min blocks per multiprocessor, max blocks per cluster), "
                        f"not {bounds!r}")
    if any(b <= 0 for b in items) or items[0] > 1024:
        raise ValueError(f"{what}: launch_bounds {tuple(items)}: each bound is positive and at most 1024 "
                         "threads per block")
    return tuple(items) + (0,) * (3 - len(items))


def jit(func_or_sig=None, device=False, inline=False, link=(), debug=None, opt=True,
        lineinfo=False, cache=False, fastmath=False, max_registers=None, boundscheck=None,
        launch_bounds=None, **unknown):
    """Compile a CUDA kernel (launched as kernel[grid, block](args)) or, with
    device=True, a device function called from kernels. Forms: @cuda.jit,
    @cuda.jit(options...), @cuda.jit("void(float32[:])"), @cuda.jit([sig, ...])."""
    if unknown:
        raise TypeError(f"cuda.jit() got an unexpected keyword argument '{sorted(unknown)[0]}'")
    link = check_link_files(link, "cuda.jit")
    bounds = launch_bounds_of(launch_bounds, "cuda.jit")
    options = {
        "device": bool(device),
        "debug": bool(debug),
        "lineinfo": bool(lineinfo),
        "fastmath": bool(fastmath),
        "max_registers": max_registers,
        "cache": bool(cache),
        "link": link,
        "launch_bounds": bounds,
    }
    return apply_decorator(func_or_sig, _make_kernel, options, "cuda.jit")


def compile_ptx(pyfunc, sig, debug=False, lineinfo=False, device=False, fastmath=False, cc=None,
                opt=True, abi="numba", abi_info=None, output="ptx", launch_bounds=None, _link_files_out=None):
    """(PTX text, return type) of a kernel, or with device=True of a device function (a
    visible .func with mahou's calling convention: i32 status, result pointer,
    arguments; with abi="c", the C ABI under abi_info["abi_name"] or the function's
    name), for one signature; needs no GPU. cc is the compute capability, (9, 0)
    when not given."""
    if output != "ptx":
        raise UnsupportedError(f"compile_ptx(output={output!r}) is not supported")
    if abi not in ("c", "numba"):
        raise NotImplementedError(f"unsupported ABI: {abi}")
    if abi == "c" and not device:
        raise NotImplementedError("The C ABI is not supported for kernels")
    major, minor = cc if cc is not None else (9, 0)
    options = {"device": bool(device), "debug": bool(debug), "lineinfo": bool(lineinfo),
               "fastmath": bool(fastmath), "max_registers": None,
               "launch_bounds": launch_bounds_of(launch_bounds, "compile_ptx")}
    if isinstance(pyfunc, _core.CUDAKernel):
        pyfunc = pyfunc.py_func
    c_abi_name = None
    if abi == "c":
        c_abi_name = (abi_info or {}).get("abi_name", pyfunc.__name__)
        if not isinstance(c_abi_name, str) or not c_abi_name.isidentifier():
            raise ValueError(f"abi_info['abi_name'] must be a C identifier, not {c_abi_name!r}")
    source, filename, firstlineno = _source_of(pyfunc)
    kernel = _core.CUDAKernel(pyfunc, source, filename, firstlineno, pyfunc.__name__,
                              make_resolver(pyfunc), options)
    ptx, _entry, restype = kernel._compile_ptx(_types.signature_text(sig), int(major), int(minor), False,
                                               c_abi_name)
    if _link_files_out is not None:
        _link_files_out.extend(kernel._link_files)
    return ptx, (_types.void if restype is None else restype)


def compile(pyfunc, sig, debug=None, lineinfo=False, device=True, fastmath=False, cc=None, opt=None,
            abi="c", abi_info=None, output="ptx", forceinline=False, launch_bounds=None, _link_files_out=None):
    """numba-cuda's cuda.compile: (PTX text, return type). A kernel (device=False) is
    compile_ptx's. A device function gets the C ABI by default (`ret name(args...)`,
    numbers only; abi_info={"abi_name": ...} names it) or, with abi="numba", mahou's
    calling convention as compile_ptx. launch_bounds apply to kernels (a device function has
    no launch). output="ltoir" is not supported."""
    if output != "ptx":
        raise UnsupportedError(f"cuda.compile(output={output!r}) is not supported (only 'ptx')")
    if abi not in ("c", "numba"):
        raise NotImplementedError(f"unsupported ABI: {abi}")
    return compile_ptx(pyfunc, sig, debug=bool(debug), lineinfo=lineinfo, device=device, fastmath=fastmath,
                       cc=cc, opt=opt, abi=abi if device else "numba", abi_info=abi_info,
                       launch_bounds=launch_bounds, _link_files_out=_link_files_out)


def compile_all(pyfunc, sig, debug=None, lineinfo=False, device=True, fastmath=False, cc=None, opt=None,
                abi="c", abi_info=None, output="ltoir", forceinline=False, launch_bounds=None):
    """numba-cuda's cuda.compile_all: ([code of the function, then of each external file it
    links], return type). The function's code is its PTX (LTO-IR, numba-cuda's default
    output, is refused as in cuda.compile); the link= files of the function and of the
    external and device functions it calls follow in order: CUDA C compiled to PTX with NVRTC
    for `cc`, PTX as text, the other kinds (cubin, fatbin, object, library, LTO-IR) as bytes."""
    if output not in ("ptx", "ltoir"):
        raise NotImplementedError(f"Unsupported output type: {output}")
    files = []
    ptx, resty = compile(pyfunc, sig, debug=debug, lineinfo=lineinfo, device=device, fastmath=fastmath, cc=cc,
                         opt=opt, abi=abi, abi_info=abi_info, output=output, forceinline=forceinline,
                         launch_bounds=launch_bounds, _link_files_out=files)
    major, minor = cc if cc is not None else (9, 0)
    return [ptx] + [data.decode() if kind == "ptx" else data for kind, data in linked_code(files, major, minor)], resty


def compile_for_current_device(pyfunc, sig, debug=None, lineinfo=False, device=True, fastmath=False, opt=None,
                               abi="c", abi_info=None, output="ptx", forceinline=False, launch_bounds=None):
    """cuda.compile for the current device's compute capability."""
    from ._runtime import get_current_device
    cc = get_current_device().compute_capability
    return compile(pyfunc, sig, debug=debug, lineinfo=lineinfo, device=device, fastmath=fastmath, cc=cc,
                   opt=opt, abi=abi, abi_info=abi_info, output=output, forceinline=forceinline,
                   launch_bounds=launch_bounds)


def compile_ptx_for_current_device(pyfunc, sig, debug=False, lineinfo=False, device=False,
                                   fastmath=False, opt=True, abi="numba", abi_info=None):
    from ._runtime import get_current_device
    cc = get_current_device().compute_capability
    return compile_ptx(pyfunc, sig, debug=debug, lineinfo=lineinfo, device=device,
                       fastmath=fastmath, cc=cc, opt=opt, abi=abi, abi_info=abi_info)


def declare_device(name, sig, link=None):
    """An external device function kernels call: `name` (its symbol, unmangled with
    `extern "C"`), `sig` its signature ("float32(float32, float32)"; pointers as
    CPointer(T) or voidptr, to which an array passes its data), implemented in CUDA C
    (.cu, compiled with NVRTC), PTX, a cubin, fat binary, object or library given here as
    `link` or to the kernel's cuda.jit(link=...). It follows Numba's device ABI:
    `extern "C" __device__ int name(T *result, args...)`, returning 0."""
    return declare(name, sig, link)
