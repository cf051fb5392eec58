"""Building an ahead-of-time extension module: load the Python module, compile each
export's overload and its callees to object files (Dispatcher._compile_object), write
the C wrapper (wrapper.py) and link everything with mahou's runtime library into one
shared object that imports without mahou or LLVM."""

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from dataclasses import dataclass

from .. import _core, errors
from .. import types as _t
from .wrapper import UnsupportedExport, module_source


class AotError(errors.MahouError):
    """An export that cannot be built: the message names the function and signature."""


@dataclass
class Export:
    index: int
    name: str        # the name in the extension module
    function: str    # the function's name in the Python module
    signature: str
    symbol: str = ""
    ret: object = None
    declared_ret: object = None
    args: tuple = ()
    nogil: bool = False
    doc: str = ""


_SPEC = re.compile(r"^\s*(?:(?P<alias>[A-Za-z_]\w*)\s*=\s*)?(?P<name>[A-Za-z_]\w*)\s*:\s*(?P<sig>.+?)\s*$")


def vector_math(objects):
    """["-lmvec"] when fastmath code calls glibc's vector math functions (_ZGV... symbols)."""
    return ["-lmvec"] if any(b"_ZGV" in code for code in objects) else []


def parse_export(text, index):
    """'name:signature' or 'alias=name:signature'."""
    m = _SPEC.match(text)
    if not m:
        raise AotError(f"invalid export {text!r}: write 'name:signature', e.g. 'add:float64(float64, float64)'")
    return Export(index, m["alias"] or m["name"], m["name"], m["sig"])


def load_module(path):
    """Runs the Python module at `path` (as an import would) and returns it."""
    path = os.path.abspath(path)
    name = os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise AotError(f"cannot load {path} as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _dispatcher(module, export):
    from ..decorators import _make_dispatcher, _check_options
    obj = getattr(module, export.function, None)
    if obj is None:
        raise AotError(f"cannot export {export.function}: {module.__name__} has no such function")
    if isinstance(obj, _core.Dispatcher):
        return obj
    if callable(obj) and hasattr(obj, "__code__"):
        options = _check_options(True, False, False, False, False, False, "python", "never", False, {})
        return _make_dispatcher(obj, None, options)
    raise AotError(f"cannot export {export.function}: it is a {type(obj).__name__}, not a function")


def _check_return(export):
    ret, declared = export.ret, export.declared_ret
    if declared is None or declared == ret:
        return
    if isinstance(ret, _t.Scalar) and isinstance(declared, _t.Scalar):
        if ret.name.startswith("complex") and not declared.name.startswith("complex"):
            raise AotError(f"cannot export {export.function} with signature {export.signature!r}: "
                           f"its result is {ret}, which does not convert to {declared}")
        return
    if (isinstance(ret, _t.Array) and isinstance(declared, _t.Array) and ret.dtype == declared.dtype
            and ret.ndim == declared.ndim):
        return
    raise AotError(f"cannot export {export.function} with signature {export.signature!r}: the "
                   f"declared return type {declared} does not match the inferred return type {ret}")


def compile_exports(module, exports):
    """Fills each export's symbol and types; returns {symbol: object code} of all of them."""
    objects = {}
    for export in exports:
        disp = _dispatcher(module, export)
        if disp.targetoptions.get("parallel") or disp.__dict__.get("_mahou_origin", (0, 0, 0, {}))[3].get("parallel"):
            raise AotError(f"cannot export {export.function}: parallel=True functions cannot be "
                           "compiled ahead of time yet")
        try:
            symbol, ret, declared, args, objs = disp._compile_object(export.signature)
        except errors.MahouError as exc:
            raise AotError(f"cannot export {export.function} with signature {export.signature!r}:\n{exc}") from None
        export.symbol, export.ret, export.declared_ret, export.args = symbol, ret, declared, tuple(args)
        export.nogil = bool(disp.targetoptions.get("nogil"))
        export.doc = f"{export.name}: {export.signature} (compiled ahead of time by mahou)"
        _check_return(export)
        objects.update(objs)
    return objects


def _find_tool(candidates):
    for c in candidates:
        if c and shutil.which(c.split()[0]):
            return c.split()
    return None


def compilers():
    """(C compiler, C++ linker) commands: $CC/$CXX, Python's own, or cc/c++, gcc/g++, clang."""
    py_cc = (sysconfig.get_config_var("CC") or "").split()
    cc = _find_tool([os.environ.get("CC"), py_cc[0] if py_cc else None, "cc", "gcc", "clang", "clang-19"])
    cxx = _find_tool([os.environ.get("CXX"), "c++", "g++", "clang++", "clang++-19"])
    if not cc or not cxx:
        raise AotError("no C compiler found (set CC and CXX)")
    return cc, cxx


def runtime_libraries():
    """mahou's runtime and common libraries (installed beside mahou._core)."""
    here = os.path.dirname(os.path.abspath(_core.__file__))
    candidates = [os.path.join(here, "lib")]
    if os.environ.get("MAHOU_BUILD_DIR"):
        candidates.append(os.environ["MAHOU_BUILD_DIR"])
    for d in candidates:
        libs = [os.path.join(d, f"libmahou_{n}.a") for n in ("runtime", "common")]
        if all(os.path.exists(p) for p in libs):
            return libs
    raise AotError("mahou's runtime library (lib/libmahou_runtime.a) is not installed beside mahou._core")


def output_path(output, module_name):
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    if output is None:
        output = module_name
    if os.path.isdir(output):
        return os.path.join(output, module_name + suffix)
    return output if output.endswith((suffix, ".so")) else output + suffix


def _run(cmd, what):
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise AotError(f"{what} failed ({' '.join(cmd)}):\n{proc.stdout}{proc.stderr}")


def link_module(module_name, exports, objects, target, keep_temp=False, verbose=False):
    """Writes the wrapper and links it, the objects and the runtime into `target`."""
    import numpy as np
    try:
        source = module_source(module_name, exports, _core.exception_names(),
                               f"Functions compiled ahead of time by mahou: "
                               f"{', '.join(e.name for e in exports)}.")
    except UnsupportedExport as exc:
        raise AotError(str(exc)) from None
    cc, cxx = compilers()
    tmp = tempfile.mkdtemp(prefix="mahou-aot-")
    try:
        wrapper_c = os.path.join(tmp, "wrapper.c")
        with open(wrapper_c, "w") as fh:
            fh.write(source)
        paths = []
        for i, code in enumerate(objects.values()):
            path = os.path.join(tmp, f"function{i}.o")
            with open(path, "wb") as fh:
                fh.write(code)
            paths.append(path)
        script = os.path.join(tmp, "exports.map")
        with open(script, "w") as fh:
            fh.write(f"{{ global: PyInit_{module_name}; local: *; }};\n")
        wrapper_o = os.path.join(tmp, "wrapper.o")
        _run(cc + ["-O2", "-fPIC", "-fvisibility=hidden", "-fstack-protector-strong", "-c", wrapper_c, "-o", wrapper_o,
                   "-I" + sysconfig.get_paths()["include"], "-I" + np.get_include()], "compiling the wrapper")
        os.makedirs(os.path.dirname(os.path.abspath(target)), exist_ok=True)
        partial = target + ".tmp"
        _run(cxx + ["-shared", "-o", partial, wrapper_o, *paths, *runtime_libraries(),
                    "-Wl,--gc-sections", "-Wl,--version-script=" + script, "-lm", *vector_math(objects.values()),
                    "-ldl", "-lpthread"],
             "linking the module")
        os.replace(partial, target)
        if verbose:
            print(f"mahou.aot: wrote {target} ({len(exports)} functions, {len(objects)} objects)")
    finally:
        if keep_temp:
            print(f"mahou.aot: temporary files kept in {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    return target


def build(module_path, export_specs, output=None, name=None, keep_temp=False, verbose=False):
    """Builds the extension module; returns its path."""
    exports = [parse_export(text, i) for i, text in enumerate(export_specs)]
    if not exports:
        raise AotError("nothing to export: give at least one --export 'name:signature'")
    seen = set()
    for e in exports:
        if e.name in seen:
            raise AotError(f"{e.name} is exported twice")
        seen.add(e.name)
    module = load_module(module_path)
    default_name = os.path.basename(output).split(".")[0] if output and not os.path.isdir(output) else None
    module_name = name or default_name or module.__name__ + "_aot"
    if not module_name.isidentifier():
        raise AotError(f"{module_name!r} is not a valid module name")
    objects = compile_exports(module, exports)
    return link_module(module_name, exports, objects, output_path(output, module_name), keep_temp, verbose)
