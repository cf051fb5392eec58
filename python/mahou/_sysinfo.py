"""The system report of `mahou -s` / `python -m mahou -s` (Numba's `numba -s`): what a bug
report needs to know about the machine, the installation, the CPU target, threads, CUDA,
the cache and the environment variables mahou reads."""

import os
import platform
import shutil
import sys

# Every environment variable mahou reads, with what it does: the one list that `mahou -s`
# prints and docs/supported.md refers to (tests/python/test_sysinfo.py checks that the
# sources read no other). Names without a prefix are read as MAHOU_X, else NUMBA_X
# (mahou/config.py); full names are read as written.
ENVIRONMENT = [
    ("DISABLE_JIT", "decorators return the Python function itself"),
    ("BOUNDSCHECK", "0/1: bounds checks off/on for every function (default: each function's option)"),
    ("CACHE_DIR", "where cache=True keeps compiled code (default: __pycache__ beside the source)"),
    ("NUM_THREADS", "the most threads a parallel loop uses (default: the CPUs this process may use)"),
    ("CPU_NAME", "compile for this CPU instead of the host's (e.g. generic, for a shared cache)"),
    ("CPU_FEATURES", "the CPU features to compile for (+avx2,...; default: the host's)"),
    ("ENABLE_CUDASIM", "run @cuda.jit kernels on the CPU emulator"),
    ("OPT", "optimisation level (accepted for Numba's sake)"),
    ("DEBUG", "Numba's debug switch (accepted)"),
    ("DEBUGINFO", "default debug= option (accepted)"),
    ("DEVELOPER_MODE", "Numba's developer mode (accepted)"),
    ("FULL_TRACEBACKS", "Numba's full tracebacks switch (accepted)"),
    ("SHOW_HELP", "Numba's help switch (accepted)"),
    ("DUMP_IR", "print the typed IR of each new overload"),
    ("DEBUG_TYPEINFER", "as DUMP_IR"),
    ("DUMP_ANNOTATION", "as DUMP_IR"),
    ("DUMP_LLVM", "print the LLVM IR of each new overload"),
    ("DUMP_FUNC_OPT", "print the optimised LLVM IR"),
    ("DUMP_OPTIMIZED", "print the optimised LLVM IR"),
    ("DUMP_ASSEMBLY", "print the host assembly of each new overload"),
    ("CUDA_LOW_OCCUPANCY_WARNINGS", "Numba's CUDA occupancy warnings switch (accepted)"),
    ("CUDA_WARN_ON_IMPLICIT_COPY", "Numba's implicit-copy warnings switch (accepted)"),
    ("MAHOU_CUDASIM_CHECKS", "the CUDA emulator checks bounds and names the thread"),
    ("MAHOU_CUDASIM_DEVICES", "how many devices the CUDA emulator shows"),
    ("MAHOU_PRELOAD_BACKEND", "0: do not start loading the LLVM back end at import"),
    ("MAHOU_DISABLE_LIBMVEC", "do not vectorise fastmath math calls through glibc's libmvec"),
    ("MAHOU_BUILD_DIR", "where mahou.aot finds the runtime libraries of a development build"),
    ("MAHOU_NVRTC_PATH", "the NVRTC library cuda.jit(link=...) compiles CUDA C with"),
    ("CUDA_HOME", "the CUDA toolkit (libdevice.10.bc, ptxas)"),
    ("CUDA_PATH", "as CUDA_HOME"),
    ("XDG_CACHE_HOME", "the user's cache directory (mahou/ in it holds cached code)"),
    ("CC", "the C compiler mahou.aot builds extension modules with"),
    ("CXX", "the C++ compiler mahou.aot links them with"),
]


def environment_names():
    """Every variable name mahou reads (MAHOU_X and NUMBA_X for each short name)."""
    names = []
    for name, _ in ENVIRONMENT:
        if name.startswith(("MAHOU_", "CUDA_HOME", "CUDA_PATH", "XDG_")) or name in ("CC", "CXX"):
            names.append(name)
        else:
            names += ["MAHOU_" + name, "NUMBA_" + name]
    return names


def find_ptxas():
    """ptxas from PATH, $CUDA_HOME/bin, PyPI's nvidia-cuda-nvcc wheel or /usr/local/cuda; None."""
    found = shutil.which("ptxas")
    if found:
        return found
    for var in ("CUDA_HOME", "CUDA_PATH"):
        root = os.environ.get(var)
        if root and os.path.exists(os.path.join(root, "bin", "ptxas")):
            return os.path.join(root, "bin", "ptxas")
    try:
        import nvidia.cuda_nvcc as wheel
        for root in wheel.__path__:
            if os.path.exists(os.path.join(root, "bin", "ptxas")):
                return os.path.join(root, "bin", "ptxas")
    except ImportError:
        pass
    return "/usr/local/cuda/bin/ptxas" if os.path.exists("/usr/local/cuda/bin/ptxas") else None


def _cache_directory():
    for var in ("MAHOU_CACHE_DIR", "NUMBA_CACHE_DIR"):
        if os.environ.get(var):
            return f"{os.environ[var]} (from {var})"
    user = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return f"__pycache__ beside each source file, else {os.path.join(user, 'mahou')}"


def _glibc():
    name, version = platform.libc_ver()
    return f"{name} {version}" if name else "unknown"


def _cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def collect():
    """The report as a list of (section, [(key, value), ...])."""
    import mahou
    from mahou import _core

    sections = []
    try:
        import importlib.metadata as md
        dist = md.version("mahou")
    except Exception:
        dist = "not installed as a distribution (a source checkout?)"
    sections.append(("mahou", [
        ("version", mahou.__version__),
        ("distribution", dist),
        ("package", os.path.dirname(mahou.__file__)),
    ]))

    import numpy
    sections.append(("Python and NumPy", [
        ("Python", f"{platform.python_implementation()} {platform.python_version()} ({sys.executable})"),
        ("NumPy", f"{numpy.__version__} ({os.path.dirname(numpy.__file__)})"),
        ("OS", f"{platform.system()} {platform.release()} {platform.machine()}"),
        ("C library", _glibc()),
    ]))

    try:
        info = _core._backend_info()
        features = sorted(f[1:] for f in info["cpu_features"].split(",") if f.startswith("+"))
        llvm = [
            ("LLVM", f"{info['llvm_version']} (linked {info['llvm_link']})"),
            ("target triple", info["triple"]),
            ("CPU model", _cpu_model()),
            ("host CPU", info["host_cpu_name"]),
            ("compiling for CPU", info["cpu_name"]),
            ("CPU features", " ".join(features) or "(none)"),
        ]
    except Exception as e:  # the back end did not load: say why and go on
        llvm = [("LLVM back end", f"not available: {type(e).__name__}: {e}"), ("CPU model", _cpu_model())]
    affinity = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    llvm += [("CPUs", f"{os.cpu_count()} ({affinity} usable by this process)")]
    sections.append(("Compiler and CPU", llvm))

    sections.append(("Threading", [
        ("threading layer", f"{mahou.threading_layer()} (oneTBB)"),
        ("threads", f"{mahou.get_num_threads()} (most: {mahou.config.NUMBA_NUM_THREADS})"),
    ]))

    sections.append(("CUDA", _cuda_section()))
    sections.append(("Cache", [("cache=True writes to", _cache_directory())]))

    env = [(name, os.environ[name]) for name in environment_names() if name in os.environ]
    sections.append(("Environment variables mahou reads (set ones)", env or [("(none set)", "")]))
    return sections


def _cuda_section():
    from mahou import _core

    drv = _core.cuda
    rows = []
    emulated = os.environ.get("MAHOU_ENABLE_CUDASIM", "0") not in ("", "0")
    try:
        if emulated:
            import mahou.cuda  # noqa: F401  (switches the driver to the emulator)
        ok, why = drv.available()
    except Exception as e:
        ok, why = False, f"{type(e).__name__}: {e}"
    if emulated:
        rows.append(("driver", "the CPU emulator (MAHOU_ENABLE_CUDASIM=1)"))
    if not ok:
        rows.append(("available", f"no GPU: {why}"))
    else:
        if not emulated:
            v = drv.driver_version()
            rows.append(("driver", f"CUDA {v // 1000}.{(v % 1000) // 10}"))
        n = drv.device_count()
        rows.append(("devices", str(n)))
        for i in range(n):
            info = drv.device_info(i)
            major, minor = info["compute_capability"]
            rows.append((f"device {i}", f"{info['name']}, compute capability {major}.{minor}, "
                         f"{info['multiprocessors']} SMs, {info['total_memory'] / 2**30:.1f} GiB"))
    rows.append(("libdevice", drv.libdevice_path() or "not found (set CUDA_HOME)"))
    rows.append(("ptxas", find_ptxas() or "not found (mahou does not need it: the driver loads PTX)"))
    return rows


def format_report(sections):
    lines = ["mahou system report (mahou -s)", ""]
    for title, rows in sections:
        lines.append(f"__{title}__")
        width = max((len(k) for k, _ in rows), default=0)
        for key, value in rows:
            lines.append(f"{key + ':':<{width + 2}}{value}" if value != "" else key)
        lines.append("")
    return "\n".join(lines)


def main(argv=None):
    import argparse

    parser = argparse.ArgumentParser(prog="mahou", description="mahou, a JIT compiler with Numba's API.")
    parser.add_argument("-s", "--sysinfo", action="store_true",
                        help="print the system report to paste into a bug report")
    args = parser.parse_args(argv)
    if args.sysinfo:
        print(format_report(collect()))
        return 0
    parser.print_help()
    return 0
