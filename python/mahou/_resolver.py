"""Resolver of a function's global names: closure cells, then globals, then
builtins; each value is classified into the tuple the C++ compiler reads."""

import builtins
import cmath
import enum as _enum
import functools
import heapq
import math
import operator
import random as _pyrandom
import sys
import types as _pytypes

import numpy as np

from . import _core
from . import types as _types
from ._language import as_bytes, literal_unroll, literally, refuse, tuple_setitem
from ._prange import prange

_INT64_MIN, _INT64_MAX = -(2 ** 63), 2 ** 63 - 1

# Python's builtins compiled code may name: one list with mahouc's (python_builtins.def).
_BUILTIN_NAMES = tuple(_core.builtin_names())
_BUILTINS = {id(getattr(builtins, n)): n for n in _BUILTIN_NAMES}
_BUILTINS[id(prange)] = "prange"
_BUILTINS[id(literally)] = "literally"
_BUILTINS[id(literal_unroll)] = "literal_unroll"

# mahou's own functions compiled code can call (thread control inside parallel loops,
# views of C pointers).
_MAHOU_CALLABLE = frozenset(("get_thread_id", "get_num_threads", "carray", "farray"))

_EXCEPTIONS = frozenset(_core.exception_names())
_DTYPES = frozenset(_core.dtype_names())



def _modules():
    """Modules compiled code can use (numpy.random and mahou.cuda only once something
    imported them: touching np.random at import time would cost ~20 ms)."""
    mods = [("math", math), ("cmath", cmath), ("random", _pyrandom)]
    random = sys.modules.get("numpy.random")
    if random is not None:
        mods.append(("numpy.random", random))
    mods.append(("numpy", np))
    cuda = sys.modules.get("mahou.cuda")
    if cuda is not None:
        mods.append(("mahou.cuda", cuda))
    return mods


def _objmode_context():
    from ._objmode import objmode
    return objmode


def _mahou_module():
    import mahou
    return mahou


def _module_name(obj):
    for name, mod in _modules():
        if obj is mod:
            return name
    if obj is _mahou_module():
        return "mahou"
    return None


def _cuda_device_name(obj):
    """The name inside mahou.cuda of a device-only function (cuda.random.xoroshiro128p_next
    → "random.xoroshiro128p_next") or of one of its submodules (cuda.fp16 → "fp16")."""
    side = sys.modules.get("mahou.cuda._device_side")
    if side is None:
        return None
    if isinstance(obj, side._DeviceFunction):
        return obj.__qualname__
    if isinstance(obj, _pytypes.ModuleType):
        name = getattr(obj, "__name__", "")
        if name.startswith("mahou.cuda.") and name.count(".") == 2 and obj.__dict__.get("_DEVICE_NAMESPACE"):
            return name.rsplit(".", 1)[1]
    return None


# NumPy functions outside numpy's own namespace, known to compiled code by these names
# (np.lib.stride_tricks.as_strided is typed by the compiler, the others are _library code).
def _numpy_extras():
    from numpy.lib import stride_tricks
    return {id(stride_tricks.as_strided): "as_strided",
            id(stride_tricks.sliding_window_view): "sliding_window_view"}


def _module_attr(obj):
    extra = _numpy_extras().get(id(obj))
    if extra is not None:
        return ("modattr", "numpy", extra)
    if obj is tuple_setitem or obj is refuse or obj is as_bytes:
        return ("modattr", "mahou", obj.__name__)
    device = _cuda_device_name(obj)
    if device is not None:
        return ("modattr", "mahou.cuda", device)
    name = getattr(obj, "__name__", None)
    if not isinstance(name, str):
        return None
    if name in _MAHOU_CALLABLE and getattr(_mahou_module(), name, None) is obj:
        return ("modattr", "mahou", name)
    for mod_name, mod in _modules():
        if getattr(mod, name, None) is obj:
            return ("modattr", mod_name, name)
    return None


def _dtype_name(obj):
    if isinstance(obj, _types.Scalar):  # mahou.float32 (numba.float32) used as a dtype
        return obj.name
    try:
        if isinstance(obj, np.dtype):
            return obj.name
        if isinstance(obj, type) and issubclass(obj, np.generic):
            return np.dtype(obj).name
    except TypeError:
        return None
    return None


def _describe(obj):
    if type(obj).__name__ == "ObjectModeDispatcher":
        return (f"the object-mode function '{obj.__name__}' (forceobj=True), which compiled code "
                "cannot call (as in Numba)")
    if isinstance(obj, (_pytypes.FunctionType, _pytypes.BuiltinFunctionType)):
        return f"a Python function '{getattr(obj, '__name__', '?')}' (decorate it with @njit)"
    if isinstance(obj, _pytypes.ModuleType):
        return f"module '{obj.__name__}'"
    if isinstance(obj, type):
        return f"class '{obj.__name__}'"
    return f"a {type(obj).__name__} object"


def _classify_constant(obj):
    if isinstance(obj, (bool, np.bool_)):
        return ("bool", bool(obj))
    if isinstance(obj, (np.datetime64, np.timedelta64)):  # its dtype (with the unit) and its count
        unit, count = np.datetime_data(obj.dtype)
        if count != 1:
            return ("unsupported", f"a {obj.dtype} value (a multiple of a unit)")
        return ("datetime", obj.dtype.name, int(obj.astype(np.int64)))
    if isinstance(obj, (int, np.integer)):
        v = int(obj)
        if _INT64_MIN <= v <= _INT64_MAX:
            return ("int", v)
        return ("unsupported", "an int that does not fit in int64")
    if isinstance(obj, (float, np.floating)):
        return ("float", float(obj))
    if isinstance(obj, (complex, np.complexfloating)):
        c = complex(obj)
        return ("complex", c.real, c.imag)
    if isinstance(obj, str):
        return ("str", obj)
    if type(obj) is bytes:  # a constant bytes value (Numba's Bytes), as a literal is
        return ("bytes", obj)
    if obj is None:
        return ("none",)
    if isinstance(obj, tuple):
        if isinstance(getattr(type(obj), "_fields", None), tuple):  # a namedtuple instance
            return ("tuple", [classify(item) for item in obj], type(obj))
        return ("tuple", [classify(item) for item in obj])
    if isinstance(obj, np.ndarray):
        # Frozen into the compiled code as a read-only constant (Numba's rule): later
        # changes to the global array are not seen by code already compiled.
        if obj.dtype.name not in _DTYPES or not obj.dtype.isnative:
            return ("unsupported", f"a global array of dtype {obj.dtype}")
        return ("array", obj.dtype.name, tuple(int(d) for d in obj.shape),
                np.ascontiguousarray(obj).tobytes())
    return None


def classify(obj):
    """The classification tuple of one value (see cpp/include/mahou/compiler.h)."""
    extending = sys.modules.get("mahou.extending")
    if extending is not None:
        template = extending.overloaded_template(obj)
        if template is not None:  # implementations from @overload; else what it is otherwise
            return ("overloaded", template, template.name, _classify_plain(obj))
        if isinstance(obj, extending._Refused):
            return ("unsupported", obj._message())
    return _classify_plain(obj)


def enum_parts(member):
    """What compiled code knows of an enum member's class (Numba's EnumMember type): the
    class, its name, its members' names and values (all ints in int64 or all floats), this
    member's index, whether it is an IntEnum, whether the values are floats; or a str
    saying why the class cannot be used."""
    cls = type(member)
    members = list(cls)
    values = [m.value for m in members]
    ints = all(isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))
               and _INT64_MIN <= int(v) <= _INT64_MAX for v in values)
    floats = not ints and all(isinstance(v, (float, np.floating)) for v in values)
    if not (ints or floats):
        return (f"a member of the enum class '{cls.__qualname__}', whose values are not all integers "
                "(in int64) or all floats")
    return (cls, cls.__qualname__, [m.name for m in members],
            [int(v) if ints else float(v) for v in values], members.index(member),
            issubclass(cls, _enum.IntEnum), floats)


def _classify_plain(obj):
    if isinstance(obj, _enum.Enum):  # before numbers: an IntEnum member is an int too
        parts = enum_parts(obj)
        return ("unsupported", parts) if isinstance(parts, str) else ("enummember",) + parts
    if isinstance(obj, _enum.EnumMeta):  # its members are reached as globals "Cls.NAME"
        return ("pymodule", obj.__name__)
    if isinstance(obj, (_core.Dispatcher, _core.CUDAKernel)):
        return ("function", obj, obj.__name__)
    if hasattr(type(obj), "_mahou_ufunc_info") or hasattr(type(obj), "_mahou_specialize"):
        return ("function", obj, obj.__name__)  # @vectorize ufuncs, stencils
    if obj is _objmode_context():
        return ("objmode",)
    jitclass_box = getattr(type(obj), "_mahou_jitclass_box", None)  # a @jitclass (_jitclass.py)
    if jitclass_box is not None:
        return ("jitclass", jitclass_box(obj), obj.__name__)
    const = _classify_constant(obj)
    if const is not None:
        return const
    if obj is builtins.map or obj is builtins.filter or obj is functools.reduce:
        return _library_function("functional." + obj.__name__)  # _library/functional.py
    if getattr(operator, getattr(obj, "__name__", ""), None) is obj and type(obj) is _pytypes.BuiltinFunctionType:
        found = _library_function("operator." + obj.__name__)  # _library/operator_module.py
        if found != ("missing",):
            return found
    if callable(obj) and getattr(heapq, getattr(obj, "__name__", ""), None) is obj:
        found = _library_function("heapq." + obj.__name__)  # _library/heapq_module.py
        if found != ("missing",):
            return found
    if callable(obj) and getattr(obj, "__module__", None) in ("numpy.polynomial.polynomial",
                                                             "numpy.polynomial.polyutils"):
        found = _library_function("polynomial." + obj.__name__)  # _library/polynomial.py
        if found != ("missing",):
            return found
    builtin = _BUILTINS.get(id(obj))
    if builtin is not None and (getattr(builtins, builtin, None) is obj or obj is prange or obj is literally or obj is literal_unroll):
        return ("builtin", builtin)
    if obj is _core.TypedList or obj is _core.TypedDict:  # mahou.typed.List / Dict
        return ("builtin", "typed.List" if obj is _core.TypedList else "typed.Dict")
    if isinstance(obj, type) and issubclass(obj, _core.TypedSet):  # mahou.typed.Set
        return ("builtin", "typed.Set")
    if isinstance(obj, _types.Type) and not isinstance(obj, _types.Scalar):
        return ("str", str(obj))  # a type (types.unicode_type) given to typed.Dict.empty & co
    module = _module_name(obj)
    if module is not None:
        return ("module", module)
    if isinstance(obj, _pytypes.ModuleType):  # its attributes are globals "name.attr"
        if _cuda_device_name(obj) is not None:  # cuda.libdevice, cuda.fp16, ...: device namespaces
            return _module_attr(obj)
        return ("pymodule", obj.__name__)
    if isinstance(obj, np.dtype) and (obj.fields is not None or obj.kind in "SU"):
        return ("recorddtype", obj)  # a structured or S/U dtype: np.empty(n, dtype=rec) in compiled code
    dtype = _dtype_name(obj)
    if dtype is not None:
        return ("dtype", dtype) if dtype in _DTYPES else ("unsupported", f"dtype {dtype}")
    if (isinstance(obj, type) and issubclass(obj, BaseException)
            and obj.__name__ in _EXCEPTIONS and getattr(builtins, obj.__name__, None) is obj):
        return ("exc", obj.__name__)
    if obj is np.linalg.LinAlgError:
        return ("exc", "LinAlgError")
    if isinstance(obj, type) and issubclass(obj, Exception):
        return ("userexc", obj)  # a user-defined exception class (or another builtin one)
    if getattr(obj, "__module__", None) == "numpy.linalg" and callable(obj):
        return _linalg_function(obj)
    if isinstance(obj, type) and issubclass(obj, tuple) and isinstance(getattr(obj, "_fields", None), tuple):
        # collections.namedtuple / typing.NamedTuple: called in compiled code to make one
        defaults = getattr(obj, "_field_defaults", None) or {}
        return ("namedtuple", obj, {name: classify(value) for name, value in defaults.items()})
    attr = _module_attr(obj)
    if attr is not None:
        return attr
    if _is_cffi_ffi(obj):
        return ("pymodule", "ffi")  # a cffi.FFI object: its attributes are globals "ffi.<name>"
    if getattr(obj, "__name__", None) == "from_buffer" and _is_cffi_ffi(getattr(obj, "__self__", None)):
        return _library_function("internal.ffi_from_buffer")  # ffi.from_buffer(array): its data
    if type(obj).__name__ == "ExternalDeviceFunction" and type(obj).__module__ == "mahou.cuda._linking":
        return ("cudadecl", obj.name, obj.sig, obj.link)  # cuda.declare_device: called by symbol in kernels
    if type(obj).__module__ in ("ctypes", "_ctypes", "_cffi_backend", "mahou._cfunc"):
        from ._cfunc import external_function  # C function pointers: ctypes, cffi, @cfunc
        ext = external_function(obj)
        if ext is not None:
            return ext
    return ("unsupported", _describe(obj))


def _overloaded_classmethod(cls, name):
    """The @overload_classmethod `cls.name` of a class of mahou types, or None."""
    module = sys.modules.get("mahou._classmethods")
    return module.classmethod_of(cls, name) if module is not None else None


def _is_cffi_ffi(obj):
    return type(obj).__name__ == "FFI" and type(obj).__module__ in ("cffi.api", "_cffi_backend")


def _library_function(qualified):
    from ._library import lookup
    impl = lookup(qualified)
    return classify(impl) if impl is not None else ("missing",)


def _linalg_function(obj):
    # np.linalg.solve & co: compiled from mahou._library.linalg (LAPACK through SciPy)
    name = getattr(obj, "__name__", "?")
    found = _library_function("numpy.linalg." + name)
    if found == ("missing",):
        return ("unsupported", f"np.linalg.{name}")
    return found


def make_resolver(func):
    """resolver(name) → classification of what `name` means inside `func`."""
    from . import _math_impls  # noqa: F401  (math functions written in Python, as overloads)
    code = func.__code__
    cells = dict(zip(code.co_freevars, func.__closure__ or ()))
    func_globals = func.__globals__
    func_builtins = func_globals.get("__builtins__", builtins)
    if isinstance(func_builtins, _pytypes.ModuleType):
        func_builtins = func_builtins.__dict__

    def lookup(name):
        if name in cells:
            return cells[name].cell_contents  # ValueError: an empty cell
        if name in func_globals:
            return func_globals[name]
        if name in func_builtins:
            return func_builtins[name]
        raise KeyError(name)

    def resolver(name):
        if name.startswith("@"):  # the compiler asks for a NumPy function written in Python
            return _library_function(name[1:])
        if "." in name:  # module.attr...: a global path through modules
            head, *attrs = name.split(".")
            try:
                obj = lookup(head)
            except (KeyError, ValueError):
                return ("missing",)
            for attr in attrs:
                if isinstance(obj, type) and issubclass(obj, _types.Type):  # types.Array.make(...)
                    obj = _overloaded_classmethod(obj, attr)
                    if obj is None:
                        return ("missing",)
                    continue
                if not isinstance(obj, (_pytypes.ModuleType, _enum.EnumMeta)) and not _is_cffi_ffi(obj):  # Color.RED too
                    return ("missing",)
                try:
                    obj = getattr(obj, attr)
                except AttributeError:
                    return ("missing",)
            return classify(obj)
        if name in cells:
            try:
                return classify(cells[name].cell_contents)
            except ValueError:  # empty cell: the variable is not bound yet
                return _itself(name)
        if name in func_globals:
            return classify(func_globals[name])
        if name in func_builtins:
            return classify(func_builtins[name])
        return _itself(name)

    def _itself(name):
        """A name not bound yet that is the function's own: the function compiled from an
        explicit signature at decoration calls itself (Numba's self-recursion case)."""
        own = resolver.dispatcher() if resolver.dispatcher is not None else None
        if own is not None and name == func.__name__:
            return classify(own)
        return ("missing",)

    def objmode_block(line, outputs, inputs):  # sema/objmode.cpp, through the binding
        from ._objmode import prepare_block
        return prepare_block(func, line, outputs, inputs)

    resolver.objmode_block = objmode_block
    resolver.dispatcher = None  # a weak reference to the Dispatcher, set once it exists
    return resolver
