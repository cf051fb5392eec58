"""Libraries of the CUDA toolkit found at run time, as the driver is: NVRTC (CUDA C to PTX or
LTO-IR) and nvJitLink (the linker of LTO-IR). Looked for under an environment variable's
path, $CUDA_HOME, $CUDA_PATH and /usr/local/cuda, then in PyPI's nvidia-* wheels."""

import ctypes
import importlib
import os


def cuda_roots():
    """The CUDA toolkit folders to look in: $CUDA_HOME, $CUDA_PATH, /usr/local/cuda."""
    return [r for r in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda") if r]


def _libraries_in(folder, stem):
    if os.path.isdir(folder):
        for name in sorted(os.listdir(folder), reverse=True):  # the newest version first
            if name.startswith(stem + ".so") and "builtins" not in name:
                yield os.path.join(folder, name)


def _candidates(stem, env_var, wheel):
    env = os.environ.get(env_var)
    if env:
        yield env
    for root in cuda_roots():
        for lib in ("lib64", "lib", os.path.join("targets", "x86_64-linux", "lib")):
            yield from _libraries_in(os.path.join(root, lib), stem)
    try:
        package = importlib.import_module(wheel)
        for d in package.__path__:
            yield from _libraries_in(os.path.join(d, "lib"), stem)
    except ImportError:
        pass
    for soname in (".so.13", ".so.12", ".so"):
        yield stem + soname


def load_library(stem, env_var, wheel, needed_for):
    """The first of the candidates for lib`stem` that loads (a ctypes.CDLL); CudaError naming
    what it is `needed_for` and every path tried otherwise."""
    from ..errors import CudaError
    tried = []
    for candidate in _candidates(stem, env_var, wheel):
        try:
            return ctypes.CDLL(candidate)
        except OSError:
            tried.append(candidate)
    raise CudaError(f"{needed_for} needs {stem}.so, which was not found (set CUDA_HOME or {env_var}); "
                    "tried " + ", ".join(tried))
