"""@cfunc(signature): a compiled function with the C calling convention, for C code that
takes a callback (scipy.LowLevelCallable, ctypes, cffi). `.address` is the function
pointer, `.ctypes` a ctypes function object over it, `.cffi` a cffi function pointer.
An exception raised in the function is reported as unraisable and 0 returned, as Numba."""

import re

from . import _core
from . import types as _types
from .errors import UnsupportedError
from .ufunc import jit_options

_CTYPES_NAMES = {
    "bool": "c_bool", "int8": "c_int8", "int16": "c_int16", "int32": "c_int32", "int64": "c_int64",
    "uint8": "c_uint8", "uint16": "c_uint16", "uint32": "c_uint32", "uint64": "c_uint64",
    "float32": "c_float", "float64": "c_double",
}
_CFFI_NAMES = {
    "bool": "_Bool", "int8": "int8_t", "int16": "int16_t", "int32": "int32_t", "int64": "int64_t",
    "uint8": "uint8_t", "uint16": "uint16_t", "uint32": "uint32_t", "uint64": "uint64_t",
    "float32": "float", "float64": "double",
}
_POINTER = re.compile(r"^CPointer\((.*)\)$")


def _ctype(text):
    import ctypes
    if text == "none":
        return None
    if text == "voidptr":
        return ctypes.c_void_p
    m = _POINTER.match(text)
    if m:
        inner = _ctype(m.group(1))
        return ctypes.c_void_p if inner is None else ctypes.POINTER(inner)
    return getattr(ctypes, _CTYPES_NAMES[text])


def _cffi_type(text):
    if text == "none":
        return "void"
    if text == "voidptr":
        return "void *"
    m = _POINTER.match(text)
    if m:
        return _cffi_type(m.group(1)) + " *"
    return _CFFI_NAMES[text]


class CFunc:
    """A @cfunc: `address`, `ctypes`, `cffi`, `native_name`; calling it from Python goes
    through ctypes."""

    def __init__(self, py_func, sig, options):
        from .decorators import _make_dispatcher
        ret, args = _core.parse_signature(_types.signature_text(sig))
        if ret is None:
            raise TypeError(f"@cfunc signature {sig!r} needs a return type (void for none)")
        self._ret, self._args = ret, list(args)
        opts = jit_options("cfunc", options)
        opts["error_model"] = options.get("error_model", "python")
        opts["cfunc_ret"] = ret
        self._dispatcher = _make_dispatcher(py_func, None, opts)
        self.__wrapped__ = py_func
        self.__name__ = py_func.__name__
        self.__qualname__ = getattr(py_func, "__qualname__", py_func.__name__)
        self.__doc__ = py_func.__doc__
        self.__module__ = py_func.__module__
        _, _, self._address, _, self._symbol = _core.native_entries(self._dispatcher, self._args)
        self._ctypes = None

    @property
    def address(self):
        return self._address

    @property
    def native_name(self):
        return self._symbol

    @property
    def ctypes(self):
        if self._ctypes is None:
            import ctypes
            proto = ctypes.CFUNCTYPE(_ctype(self._ret), *(_ctype(a) for a in self._args))
            self._ctypes = proto(self._address)
        return self._ctypes

    @property
    def cffi(self):
        import cffi
        ffi = cffi.FFI()
        decl = f"{_cffi_type(self._ret)} (*)({', '.join(_cffi_type(a) for a in self._args) or 'void'})"
        return ffi.cast(decl, self._address)

    @property
    def _pyfunc(self):
        return self.__wrapped__

    def __call__(self, *args):
        return self.ctypes(*args)

    def inspect_llvm(self):
        return self._dispatcher.inspect_llvm(tuple(self._args))

    def inspect_types(self, *args, **kws):
        return self._dispatcher.inspect_types(*args, **kws)

    def __repr__(self):
        return f"<mahou cfunc '{self.__name__}' {self._ret}({', '.join(self._args)})>"


def _as_array(ptr, shape, dtype, order):
    import ctypes

    import numpy as np
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    if isinstance(ptr, ctypes._Pointer):
        pointee = np.dtype(ptr._type_)
        if dtype is not None and np.dtype(dtype) != pointee:
            raise TypeError(f"mismatching dtype '{np.dtype(dtype)}' for pointer {ptr!r}")
        dtype, address = pointee, ctypes.cast(ptr, ctypes.c_void_p).value
    elif isinstance(ptr, (int, ctypes.c_void_p)):
        if dtype is None:
            raise TypeError("carray() of an untyped pointer needs dtype=")
        address = ptr if isinstance(ptr, int) else ptr.value
    else:
        raise TypeError(f"carray() needs a ctypes pointer or an address, not {type(ptr).__name__}")
    dtype = np.dtype(dtype)
    count = int(np.prod(shape))
    buf = (ctypes.c_char * (count * dtype.itemsize)).from_address(address)
    return np.frombuffer(buf, dtype=dtype, count=count).reshape(shape, order=order)


def carray(ptr, shape, dtype=None):
    """A C-ordered array view of the memory at a pointer (in compiled code: a C pointer
    argument; from Python: a ctypes pointer, or an address with dtype)."""
    return _as_array(ptr, shape, dtype, "C")


def farray(ptr, shape, dtype=None):
    """As carray, in Fortran order."""
    return _as_array(ptr, shape, dtype, "F")


def cfunc(sig, locals=None, cache=False, pipeline_class=None, **options):
    """@cfunc("float64(float64)") or @cfunc(types.intc(types.CPointer(types.float64), ...))."""
    if locals:
        raise TypeError("cfunc(locals=...) is not supported by mahou")
    if pipeline_class is not None:
        raise UnsupportedError("cfunc(pipeline_class=...) is not supported by mahou: it compiles with its own "
                               "pipeline, not Numba's compiler passes")

    def wrap(func):
        return CFunc(func, sig, dict(options, cache=cache))

    return wrap


# ---- C function pointers called from compiled code (ctypes, cffi, @cfunc)

_CTYPES_CODES = {"d": "float64", "f": "float32", "?": "bool"}
_CFFI_TYPES = {
    "double": "float64", "float": "float32", "_Bool": "bool", "bool": "bool",
    "char": "int8", "signed char": "int8", "unsigned char": "uint8",
    "short": "int16", "unsigned short": "uint16", "int": "int32", "unsigned int": "uint32",
    "long": "int64", "unsigned long": "uint64", "long long": "int64", "unsigned long long": "uint64",
    "size_t": "uint64", "ssize_t": "int64", "intptr_t": "int64", "uintptr_t": "uint64",
    "int8_t": "int8", "int16_t": "int16", "int32_t": "int32", "int64_t": "int64",
    "uint8_t": "uint8", "uint16_t": "uint16", "uint32_t": "uint32", "uint64_t": "uint64",
}


def _ctypes_type_text(t):
    import ctypes
    if t is None:
        return "none"
    if t is ctypes.c_void_p:
        return "voidptr"
    if isinstance(t, type) and issubclass(t, ctypes._Pointer):
        inner = _ctypes_type_text(t._type_)
        return f"CPointer({inner})" if inner not in ("none", "voidptr") and "(" not in inner else None
    code = getattr(t, "_type_", None)
    if not isinstance(code, str):
        return None
    if code in _CTYPES_CODES:
        return _CTYPES_CODES[code]
    if code in "bhilqBHILQ":
        bits = ctypes.sizeof(t) * 8
        return f"{'u' if code.isupper() else ''}int{bits}"
    return None


def _cffi_type_text(ct):
    if ct.kind == "void":
        return "none"
    if ct.kind == "pointer":
        if ct.item.kind == "void":
            return "voidptr"
        inner = _cffi_type_text(ct.item)
        return f"CPointer({inner})" if inner and "(" not in inner and inner != "none" else None
    if ct.kind == "primitive":
        return _CFFI_TYPES.get(ct.cname)
    return None


def external_function(obj):
    """The resolver's ("cfuncptr", address, signature text) for a ctypes function with
    restype/argtypes, a cffi function pointer or a @cfunc; None for anything else."""
    if isinstance(obj, CFunc):
        return ("cfuncptr", obj.address, f"{obj._ret}({', '.join(obj._args)})")
    module = type(obj).__module__
    if module in ("ctypes", "_ctypes"):
        import ctypes
        if not isinstance(obj, ctypes._CFuncPtr) or obj.argtypes is None:
            return None
        ret = _ctypes_type_text(obj.restype)
        args = [_ctypes_type_text(a) for a in obj.argtypes]
        if ret is None or None in args:
            return ("unsupported", f"the ctypes function '{getattr(obj, '__name__', '?')}' "
                    "(only numbers and pointers to numbers are supported)")
        return ("cfuncptr", ctypes.cast(obj, ctypes.c_void_p).value, f"{ret}({', '.join(args)})")
    if module == "_cffi_backend":
        import cffi
        ffi = cffi.FFI()
        try:
            ct = ffi.typeof(obj)
        except TypeError:
            return None
        if ct.kind == "pointer" and ct.item.kind == "function":
            ct = ct.item
        if ct.kind != "function" or ct.ellipsis:
            return None
        ret = _cffi_type_text(ct.result)
        args = [_cffi_type_text(a) for a in ct.args]
        if ret is None or None in args:
            return ("unsupported", "a cffi function with parameters other than numbers and pointers")
        return ("cfuncptr", int(ffi.cast("uintptr_t", obj)), f"{ret}({', '.join(args)})")
    return None
