"""mahou.extending: Numba's extension API (numba.extending).

    @overload(func)            a typing function, called at compile time with the mahou
                               types of the arguments (mahou.types), returns the Python
                               implementation to compile for them, or None
    @overload_method(T, name)  the same for v.name(...) where the type of v is a T
    @overload_attribute(T, name)  and for the attribute v.name (the implementation takes v)
    @overload_classmethod(T, name)  T.name(...) in compiled code, where T is a class of
                               mahou.types (types.Array, a StructRef class): classmethods.py
    @register_jitable          a Python function also callable from compiled code
    literally(x)               in compiled code: x must be known at compile time
    @intrinsic                 refused: it builds LLVM IR through llvmlite's API

The compiler asks for implementations through `_resolve` (cpp/bindings/environment.cpp)
when it types a call of an overloaded function, or a member it has no entry for in its
method table (docs/pipeline.md, "The method table").
"""

import inspect
import threading

from . import types as _types
from ._language import literally  # noqa: F401  (typed by sema: a compile-time value)
from .errors import TypingError, UnsupportedError

__all__ = ["overload", "overload_method", "overload_attribute", "overload_classmethod", "register_jitable", "literally",
           "intrinsic", "lower_builtin", "type_callable", "models", "register_model",
           "typeof_impl", "unbox", "box", "make_attribute_wrapper", "infer_getattr",
           "SentryLiteralArgs", "sentry_literal_args", "is_jitted", "get_cython_function_address"]

_lock = threading.RLock()
_templates = {}  # id(overloaded object) -> _FunctionTemplate
_members = {0: [], 1: []}  # 0: methods, 1: attributes -> [_MemberTemplate]


def _jit_options(options):
    from .decorators import _check_options
    options = dict(options or {})
    unknown = {k: v for k, v in options.items() if k not in (
        "nopython", "cache", "boundscheck", "fastmath", "nogil", "parallel", "error_model",
        "inline", "forceobj", "debug", "no_cpython_wrapper")}
    debug = options.pop("debug", False)
    options.pop("no_cpython_wrapper", None)  # implementations are called from compiled code only
    return _check_options(
        options.get("nopython", True), options.get("cache", False), options.get("boundscheck", None),
        options.get("fastmath", False), options.get("nogil", False), options.get("parallel", False),
        options.get("error_model", "python"), options.get("inline", "never"),
        options.get("forceobj", False), unknown, what="overload(jit_options=...)", debug=debug)


class _Typer:
    """One typing function with the options its implementations are compiled with."""

    def __init__(self, typing_func, jit_options, prefer_literal):
        self.typing_func = typing_func
        self.options = _jit_options(jit_options)
        self.prefer_literal = bool(prefer_literal)
        self.impls = {}  # argument key -> Dispatcher (or None: refused)

    def implementation(self, args, kwargs, key):
        """The compiled implementation for these types, None when the typing function
        refuses them; what it raises propagates."""
        if key in self.impls:
            return self.impls[key]
        impl = self.typing_func(*args, **kwargs)
        disp = None
        if impl is not None:
            disp = _dispatcher_of(impl, self.options)
        self.impls[key] = disp
        return disp


def _dispatcher_of(impl, options):
    from . import _core
    from .decorators import _make_dispatcher
    if isinstance(impl, _core.Dispatcher):
        return impl
    if not inspect.isfunction(impl):
        raise TypeError(f"the typing function must return a Python function or None, not {impl!r}")
    return _make_dispatcher(impl, None, options)


def _attempts(args, kwargs, literals, prefer_literal):
    """(args, kwargs) to try: plain types first (literal ones when prefer_literal), then the
    other kind where some argument is known at compile time, as Numba does."""
    n = len(args)
    lits = [None if v is None else _types.maybe_literal(v) for v in literals]
    if not any(lits):
        plain = [_types.unliteral(t) for t in list(args) + list(kwargs.values())]
        return [_split(plain, n, kwargs)]
    values = list(args) + list(kwargs.values())
    plain = [_types.unliteral(t) for t in values]
    literal = [lit if lit is not None else t for lit, t in zip(lits, values)]
    order = [literal, plain] if prefer_literal else [plain, literal]
    return [_split(order[0], n, kwargs), _split(order[1], n, kwargs)]


def _split(values, n, kwargs):
    return tuple(values[:n]), dict(zip(kwargs.keys(), values[n:]))


def _key(args, kwargs):
    return tuple(str(a) for a in args) + tuple(f"{k}={v}" for k, v in kwargs.items())


def _describe_error(exc):
    text = f"{type(exc).__name__}: {exc}"
    return text.strip()


def _first_implementation(typers, args, kwargs, literals):
    """("impl", dispatcher) from the first typer that accepts, else None, or ("error", text)
    when one raised and none accepted."""
    first_error = None
    for typer in typers:
        for a, k in _attempts(args, kwargs, literals, typer.prefer_literal):
            try:
                disp = typer.implementation(a, k, _key(a, k))
            except Exception as exc:  # the typing function failed: reported with the types
                if first_error is None:
                    first_error = _describe_error(exc)
                continue
            if disp is not None:
                return ("impl", disp)
    if first_error is not None:
        return ("error", first_error)
    return None


class _FunctionTemplate:
    """The implementations registered for one Python object (a function, a NumPy function)."""

    def __init__(self, func):
        self.func = func
        self.name = getattr(func, "__name__", repr(func))
        self.typers = []

    def resolve(self, args, kwargs, literals):
        return _first_implementation(self.typers, args, kwargs, literals)


class _MemberTemplate:
    def __init__(self, typ, name, typer):
        self.typ, self.name, self.typer = typ, name, typer

    def applies(self, self_type):
        if isinstance(self.typ, type):
            return isinstance(self_type, self.typ)
        return self_type == self.typ


def _template_of(func):
    with _lock:
        tmpl = _templates.get(id(func))
        if tmpl is None or tmpl.func is not func:
            tmpl = _templates[id(func)] = _FunctionTemplate(func)
        return tmpl


def overloaded_template(obj):
    """The template of an object with @overload implementations, or None (the resolver)."""
    tmpl = _templates.get(id(obj))
    return tmpl if tmpl is not None and tmpl.func is obj else None


def _resolve(kind, template, name, args, kwnames, literals):
    """Called by the compiler: kind 0 a call of `template`'s function, 1 the method and 2
    the attribute `name` of args[0]. → None, ("impl", dispatcher, name), ("error", text) or
    ("declined",) (members: implementations exist, none accepts the types)."""
    args = tuple(args)
    nkw = len(kwnames)
    pos, kw = args[:len(args) - nkw], dict(zip(kwnames, args[len(args) - nkw:]))
    literals = list(literals)
    if kind == 0:
        r = template.resolve(pos, kw, literals)
        shown = template.name
    else:
        candidates = [m.typer for m in _members[kind - 1] if m.name == name and m.applies(args[0])]
        r = _first_implementation(candidates, pos, kw, literals)
        if r is None and candidates:
            return ("declined",)
        shown = name
    if r is None or r[0] == "error":
        return r
    return ("impl", r[1], shown)


# ---------------------------------------------------------------------------------
# The decorators


def overload(func, jit_options=None, strict=True, inline="never", prefer_literal=False, **kwargs):
    """@overload(func): the decorated typing function gives the implementation of `func`
    in compiled code for the argument types it is called with (mahou.types objects), or
    None to refuse them. `func` is any Python object compiled code calls: a Python
    function, a NumPy function, a builtin."""
    if inline not in ("never", "always") and not callable(inline):
        raise ValueError(f"inline must be 'never', 'always' or a callable, not {inline!r}")
    options = dict(jit_options or {})

    def decorate(typing_func):
        with _lock:
            _template_of(func).typers.append(_Typer(typing_func, options, prefer_literal))
        return typing_func

    return decorate


def _member_decorator(kind, typ, attr, jit_options, prefer_literal):
    if not isinstance(attr, str):
        raise TypeError(f"the member name must be a string, not {attr!r}")
    if not (isinstance(typ, type) and issubclass(typ, _types.Type)) and not isinstance(typ, _types.Type):
        raise TypeError(f"{typ!r} is not a mahou type or type class")

    def decorate(typing_func):
        with _lock:
            _members[kind].append(_MemberTemplate(typ, attr, _Typer(typing_func, jit_options, prefer_literal)))
        return typing_func

    return decorate


def overload_method(typ, attr, jit_options=None, prefer_literal=False, **kwargs):
    """@overload_method(types.Array, "name"): v.name(...) for values whose type is a
    `typ` (a class of mahou.types, or one type); the typing function and the
    implementation take the receiver first."""
    return _member_decorator(0, typ, attr, jit_options, prefer_literal)


def overload_attribute(typ, attr, jit_options=None, **kwargs):
    """@overload_attribute(types.Array, "name"): the attribute v.name; the typing function
    takes the receiver's type and returns an implementation taking the receiver."""
    return _member_decorator(1, typ, attr, jit_options, False)


def overload_classmethod(typ, attr, jit_options=None, prefer_literal=False, **kwargs):
    """@overload_classmethod(types.Array, "make"): T.make(...) in compiled code, where T is
    that class of mahou.types (types.Array, a types.StructRef subclass) named as a global;
    the typing function and the implementation take the class first (a types.TypeRef when
    typing, None at run time), as Numba's."""
    from ._classmethods import register
    return register(typ, attr, jit_options, prefer_literal)


def register_jitable(*args, **kwargs):
    """@register_jitable / @register_jitable(**jit_options): the function stays a plain
    Python function and is compiled where compiled code calls it."""
    def wrap(fn):
        overload(fn, jit_options=kwargs)(lambda *a, **k: fn)
        return fn

    if len(args) == 1 and not kwargs and callable(args[0]):
        return wrap(args[0])
    if args:
        raise TypeError("register_jitable takes the function, or keyword options")
    return wrap


class SentryLiteralArgs:
    """Numba's check that some arguments are literal types; mahou offers literal types
    to typing functions when they refuse the plain ones, so this raises a TypingError
    naming the arguments that are not literal."""

    def __init__(self, literal_args):
        self.literal_args = tuple(literal_args)

    def for_function(self, func):
        return _BoundSentry(self.literal_args, inspect.signature(func))

    def for_pysig(self, pysig):
        return _BoundSentry(self.literal_args, pysig)


class _BoundSentry:
    def __init__(self, literal_args, pysig):
        self.literal_args, self.pysig = literal_args, pysig

    def bind(self, *args, **kwargs):
        bound = self.pysig.bind(*args, **kwargs)
        bound.apply_defaults()
        missing = [n for n in self.literal_args
                   if n in bound.arguments and not isinstance(bound.arguments[n], _types.Literal)]
        if missing:
            raise TypingError("arguments must be known at compile time (literal): " + ", ".join(missing))
        return bound


def sentry_literal_args(pysig, literal_args, args, kws):
    return _BoundSentry(tuple(literal_args), pysig).bind(*args, **kws)


def is_jitted(func):
    """True for a compiled function (a mahou Dispatcher)."""
    from . import _core
    return isinstance(func, _core.Dispatcher)


# ---------------------------------------------------------------------------------
# The low-level API: Numba's lowering and data-model hooks build LLVM IR with llvmlite,
# which mahou does not use. They are refused with an error that says so.


class _Refused:
    """What @intrinsic and the lowering decorators make: an object that compiled code
    cannot use and Python cannot call."""

    def __init__(self, what, func=None):
        self._what = what
        self._func = func
        self.__name__ = getattr(func, "__name__", what)

    def __call__(self, *args, **kwargs):
        raise UnsupportedError(self._message())

    def _message(self):
        return (f"{self._what} ({self.__name__}) is not supported by mahou: it builds LLVM IR with "
                "llvmlite's API, which mahou does not use. Write the operation in Python under "
                "@njit, or give it an @overload implementation.")


def _refusing(what):
    def decorator(*args, **kwargs):
        if len(args) == 1 and callable(args[0]) and not kwargs:
            return _Refused(what, args[0])
        return lambda func: _Refused(what, func)
    return decorator


intrinsic = _refusing("@intrinsic")
lower_builtin = _refusing("@lower_builtin")
type_callable = _refusing("@type_callable")
typeof_impl = _refusing("@typeof_impl")
unbox = _refusing("@unbox")
box = _refusing("@box")
register_model = _refusing("@register_model")
infer_getattr = _refusing("@infer_getattr")


def get_cython_function_address(module_name, function_name):
    """The address of a Cython module's exported C function (its __pyx_capi__ entry),
    for a ctypes or cffi function type that compiled code then calls (Numba's
    numba.extending.get_cython_function_address)."""
    import ctypes
    import importlib
    module = importlib.import_module(module_name)
    capi = getattr(module, "__pyx_capi__", None)
    if capi is None:
        raise ValueError(f"module {module_name!r} exports no C functions (no __pyx_capi__)")
    try:
        capsule = capi[function_name]
    except KeyError:
        raise ValueError(f"no function {function_name!r} in {module_name}.__pyx_capi__") from None
    get_name = ctypes.pythonapi.PyCapsule_GetName
    get_name.restype, get_name.argtypes = ctypes.c_char_p, [ctypes.py_object]
    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.restype, get_pointer.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    return get_pointer(capsule, get_name(capsule))


def make_attribute_wrapper(typeclass, struct_attr, python_attr):
    raise UnsupportedError("make_attribute_wrapper is not supported by mahou (it needs Numba's data "
                           "models); use @overload_attribute")


class _Models:
    def __getattr__(self, name):
        raise UnsupportedError(f"numba.extending.models.{name} is not supported by mahou (no llvmlite "
                               "data models)")


models = _Models()
