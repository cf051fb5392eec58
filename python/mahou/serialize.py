"""Pickling of compiled objects: @njit dispatchers and @cuda.jit kernels, and the
registry other compiled objects plug into (`register`).

A dispatcher whose function can be imported by module and qualified name pickles by
reference; any other (defined in __main__, a notebook, a closure, a module registered
with cloudpickle.register_pickle_by_value or one that cannot be imported) pickles by
value: the function's bytecode, source, options, closure and the globals it reads, as
cloudpickle does for plain functions. Either way the machine code of the dispatcher's
overloads goes with it (Dispatcher._export_code), keyed by the code generator's build,
LLVM's version, the host CPU and the Python ABI: a process where these match links
that code and runs it without compiling; any other compiles on the first call. The
mahou part of a pickle is checksummed: a corrupted one raises pickle.UnpicklingError.
"""

import builtins
import copyreg
import hashlib
import importlib
import marshal
import pickle
import sys
import types as _pytypes
import weakref

from . import _core

_MAGIC = b"MAHOUPKL"
_FORMAT = 1

# ------------------------------------------------------------------ the registry

_REDUCERS = {}


def register(cls, reducer):
    """Makes instances of `cls` picklable by `reducer(obj)` (a __reduce__ value) under
    pickle, cloudpickle, multiprocessing, concurrent.futures, joblib and Dask (all of
    them consult copyreg's dispatch table)."""
    _REDUCERS[cls] = reducer
    copyreg.pickle(cls, reducer)


def registered():
    """{class: reducer} of everything registered here."""
    return dict(_REDUCERS)


# ------------------------------------------------------------------ sealed payloads

def seal(fields):
    """`fields` (a dict of marshal-able values: numbers, strings, bytes, code objects,
    tuples, dicts) as checksummed bytes that name the Python that made them."""
    tag = sys.implementation.cache_tag.encode()
    body = bytes([len(tag)]) + tag + marshal.dumps(fields)
    return _MAGIC + bytes([_FORMAT]) + hashlib.sha256(body).digest() + body


def unseal(payload, what="object"):
    """The dict `seal` was given; pickle.UnpicklingError for anything else."""
    if not isinstance(payload, bytes) or len(payload) < 42 or not payload.startswith(_MAGIC):
        raise pickle.UnpicklingError(f"mahou: the pickled {what} is not a mahou payload")
    if payload[8] != _FORMAT:
        raise pickle.UnpicklingError(
            f"mahou: the pickled {what} was made by another version of mahou (format "
            f"{payload[8]}, this one reads {_FORMAT})")
    digest, body = payload[9:41], payload[41:]
    if hashlib.sha256(body).digest() != digest:
        raise pickle.UnpicklingError(f"mahou: the pickled {what} is corrupted (checksum mismatch)")
    tag = body[1:1 + body[0]].decode("ascii", "replace")
    ours = sys.implementation.cache_tag
    if tag != ours:
        raise pickle.UnpicklingError(
            f"mahou: the pickled {what} was made by {tag} and cannot be loaded by {ours} "
            "(a function pickled by value carries version-specific bytecode)")
    try:
        fields = marshal.loads(body[1 + body[0]:])
    except (ValueError, EOFError, TypeError) as exc:
        raise pickle.UnpicklingError(f"mahou: the pickled {what} is corrupted ({exc})") from None
    if not isinstance(fields, dict):
        raise pickle.UnpicklingError(f"mahou: the pickled {what} is corrupted")
    return fields


# ------------------------------------------------------------------ by reference or by value

def _lookup(module, qualname):
    obj = module
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


def _registered_by_value(module_name):
    """cloudpickle.register_pickle_by_value(module) asks for by-value pickling of the
    module's functions (and its submodules'): honoured when cloudpickle is in use."""
    cloudpickle = sys.modules.get("cloudpickle")
    listing = getattr(cloudpickle, "list_registry_pickle_by_value", None)
    if listing is None:
        return False
    registry = listing()
    parts = module_name.split(".")
    return any(".".join(parts[:i]) in registry for i in range(1, len(parts) + 1))


def _is_dynamic(module):
    """A module made at run time (no file, no import spec): not importable elsewhere."""
    return getattr(module, "__spec__", None) is None and not hasattr(module, "__file__")


def reference_of(obj):
    """(module, qualname) under which `obj` can be imported again, or None when it must
    be pickled by value (cloudpickle's rule for functions)."""
    module_name = getattr(obj, "__module__", None)
    qualname = getattr(obj, "__qualname__", None)
    if not isinstance(module_name, str) or not isinstance(qualname, str):
        return None
    if module_name == "__main__" or "<locals>" in qualname or "<lambda>" in qualname:
        return None
    module = sys.modules.get(module_name)
    if module is None or _is_dynamic(module) or _registered_by_value(module_name):
        return None
    try:
        found = _lookup(module, qualname)
    except AttributeError:
        return None
    return (module_name, qualname) if found is obj else None


def _import_reference(module_name, qualname):
    try:
        module = importlib.import_module(module_name)
        return _lookup(module, qualname)
    except (ImportError, AttributeError) as exc:
        raise pickle.UnpicklingError(
            f"mahou: cannot find {module_name}.{qualname} to unpickle it by reference ({exc})") from None


class _ModuleRef:
    """A module among a function's globals or closure: pickled by name, unpickled as the
    module itself (plain pickle cannot pickle modules)."""

    def __init__(self, name):
        self.name = name

    def __reduce__(self):
        return (importlib.import_module, (self.name,))


class _EmptyCell:
    """An unbound closure variable."""

    def __reduce__(self):
        return "EMPTY_CELL"


EMPTY_CELL = _EmptyCell()


class _SelfRef:
    """A global that names the function being rebuilt (its own name, read for recursion,
    or the plain function a dispatcher bound to another name wraps): the rebuilt function."""

    def __reduce__(self):
        return "SELF_REF"


SELF_REF = _SelfRef()


class _PlainFunction:
    """A plain Python function that cannot be imported where it is unpickled (defined in
    __main__ or a closure) among a compiled function's globals or closure: pickled by
    value, as cloudpickle does (objmode blocks may call it)."""

    def __init__(self, func):
        self.func = func

    def __reduce__(self):
        fields, picklable = function_fields(self.func)
        return (_rebuild_plain, (seal(fields), picklable["defaults"], picklable["kwdefaults"]),
                {"globals": picklable["globals"], "closure": picklable["closure"]}, None, None, _fill_plain)


# One wrapper per function, so that pickle's memo meets the same object again when
# functions refer to each other through their globals.
_PLAIN_WRAPPERS = weakref.WeakKeyDictionary()


def _rebuild_plain(payload, defaults, kwdefaults):
    return function_skeleton(unseal(payload, "function"), defaults, kwdefaults)


def _fill_plain(func, state):
    fill_function(func, state["globals"], state["closure"])


def _portable(value):
    if isinstance(value, _pytypes.ModuleType):
        return _ModuleRef(value.__name__)
    if isinstance(value, _pytypes.FunctionType) and reference_of(value) is None:
        wrapper = _PLAIN_WRAPPERS.get(value)
        if wrapper is None:
            wrapper = _PLAIN_WRAPPERS[value] = _PlainFunction(value)
        return wrapper
    return value


def _names_read(code, out):
    out.update(code.co_names)
    for const in code.co_consts:
        if isinstance(const, _pytypes.CodeType):
            _names_read(const, out)
    return out


def function_fields(func):
    """What rebuilds a plain Python function elsewhere, by value: marshal-able fields
    (bytecode, names, closure size) and the picklable rest (defaults, the globals its
    code reads, its closure's values)."""
    # The compiler also looks the function's own name up (recursion).
    names = _names_read(func.__code__, {func.__name__})
    glob = func.__globals__
    globals_read = {name: SELF_REF if glob[name] is func else _portable(glob[name])
                    for name in sorted(names) if name in glob}
    closure = []
    for cell in func.__closure__ or ():
        try:
            closure.append(_portable(cell.cell_contents))
        except ValueError:
            closure.append(EMPTY_CELL)
    fields = {
        "code": func.__code__, "name": func.__name__, "qualname": func.__qualname__,
        "module": func.__module__ if isinstance(func.__module__, str) else "__main__",
        "doc": func.__doc__ if isinstance(func.__doc__, str) else None,
        "ncells": len(closure),
    }
    picklable = {"defaults": func.__defaults__, "kwdefaults": func.__kwdefaults__,
                 "globals": globals_read, "closure": closure}
    return fields, picklable


def function_skeleton(fields, defaults, kwdefaults):
    """A function from `function_fields`, with empty globals and unbound cells: filled by
    `fill_function` once the pickled values (which may refer back to it) are loaded."""
    glob = {"__name__": fields["module"], "__builtins__": builtins}
    cells = tuple(_pytypes.CellType() for _ in range(fields["ncells"]))
    func = _pytypes.FunctionType(fields["code"], glob, fields["name"], defaults, cells or None)
    func.__qualname__ = fields["qualname"]
    func.__module__ = fields["module"]
    func.__doc__ = fields["doc"]
    func.__kwdefaults__ = kwdefaults
    return func


def fill_function(func, globals_read, closure):
    func.__globals__.update({name: func if value is SELF_REF else value for name, value in globals_read.items()})
    for cell, value in zip(func.__closure__ or (), closure):
        if value is not EMPTY_CELL:
            cell.cell_contents = value


# ------------------------------------------------------------------ dispatchers and kernels

def _origin(obj):
    origin = obj.__dict__.get("_mahou_origin") if hasattr(obj, "__dict__") else None
    if origin is None:
        raise pickle.PicklingError(f"mahou: cannot pickle {obj!r}: it was not made by mahou's decorators")
    return origin


def _signature_texts(obj, kind):
    """The eager signatures of an object whose compilation was disabled, else None."""
    if obj._can_compile:
        return None
    if kind == "njit":
        return tuple(str(sig) for sig in obj.nopython_signatures)
    return tuple("(" + ", ".join(str(t) for t in sig) + ")" for sig in obj.signatures)


def _callees_by_reference(obj, seen):
    """(module, qualname, machine code) of the importable dispatchers `obj` reads from
    its globals, transitively, callees before their callers, `obj` last: a by-reference
    pickle carries its callees' code too (a by-value one pickles them as globals)."""
    if id(obj) in seen:
        return []
    seen.add(id(obj))
    ref = reference_of(obj)
    if ref is None:
        return []
    func = obj.py_func
    out = []
    for name in sorted(_names_read(func.__code__, set())):
        value = func.__globals__.get(name)
        if isinstance(value, _core.Dispatcher):
            out += _callees_by_reference(value, seen)
    return out + [(*ref, obj._export_code())]


def _reduce_compiled(obj, kind):
    ref = reference_of(obj)
    if ref is not None:
        codes = _callees_by_reference(obj, set()) if kind == "njit" else []
        state = seal({"machine_code": tuple(codes)})
        return (_import_reference, ref, state, None, None, _fill_reference)
    code = obj._export_code() if kind == "njit" else b""
    source, filename, firstlineno, options = _origin(obj)
    fields, picklable = function_fields(obj.py_func)
    fields.update(kind=kind, source=source, filename=filename, firstlineno=firstlineno,
                  options=dict(options), machine_code=code,
                  eager=_signature_texts(obj, kind))
    state = {"globals": picklable["globals"], "closure": picklable["closure"]}
    return (_rebuild_by_value, (seal(fields), picklable["defaults"], picklable["kwdefaults"]),
            state, None, None, _fill_by_value)


def _rebuild_by_value(payload, defaults, kwdefaults):
    fields = unseal(payload, "function")
    func = function_skeleton(fields, defaults, kwdefaults)
    if fields.get("kind") == "cuda":
        from .cuda._decorators import build_kernel
        obj = build_kernel(func, fields["source"], fields["filename"], fields["firstlineno"],
                           fields["options"])
    else:
        from .decorators import build_dispatcher
        obj = build_dispatcher(func, fields["source"], fields["filename"], fields["firstlineno"],
                               fields["options"])
    obj._mahou_shipped = (fields["machine_code"], fields["eager"])  # until filled
    return obj


def _link(obj, machine_code):
    if not machine_code:
        return
    try:
        obj._import_code(machine_code)
    except ValueError as exc:
        raise pickle.UnpicklingError(f"mahou: {exc}") from None


def _fill_reference(obj, state):
    for module_name, qualname, code in unseal(state, "machine code").get("machine_code", ()):
        target = obj if (module_name, qualname) == (obj.__module__, obj.__qualname__) else None
        if target is None:
            try:
                target = _lookup(sys.modules[module_name], qualname)
            except (KeyError, AttributeError):
                continue  # a callee its module no longer has: compiled when needed
        if isinstance(target, _core.Dispatcher):
            _link(target, code)


def _fill_by_value(obj, state):
    fill_function(obj.py_func, state["globals"], state["closure"])
    machine_code, eager = obj.__dict__.pop("_mahou_shipped")
    if isinstance(obj, _core.Dispatcher):
        _link(obj, machine_code)
    if eager is not None:
        if isinstance(obj, _core.Dispatcher) or _cuda_available():
            for sig in eager:
                obj.compile(sig)
        obj.disable_compile()


def _cuda_available():
    from . import cuda
    return cuda.is_available()


def _reduce_dispatcher(obj):
    return _reduce_compiled(obj, "njit")


def _reduce_kernel(obj):
    return _reduce_compiled(obj, "cuda")


register(_core.Dispatcher, _reduce_dispatcher)
register(_core.CUDAKernel, _reduce_kernel)
