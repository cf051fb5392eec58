"""@overload_classmethod (mahou.extending): `T.name(...)` in compiled code for a class T of
mahou.types. Each (T, name) is one callable with an @overload template; the resolver walks
a global path `T.name` to it (_resolver.py), and each implementation is called through a
generated wrapper that passes the class (None at run time) first."""

import linecache
import threading

from . import extending as _ext
from . import types as _types

_lock = threading.RLock()
_classmethods = {}  # (type class, name) -> ClassMethod


class ClassMethod:
    """What `T.name` is in compiled code; in Python it cannot be called (as in Numba, where
    the overload exists for compiled code only)."""

    def __init__(self, typ, name):
        self.typ, self.name = typ, name
        self.__name__ = name
        self.__qualname__ = f"{typ.__qualname__}.{name}"

    def __call__(self, *args, **kwargs):
        raise TypeError(f"{self.__qualname__}() is an @overload_classmethod: it is callable in compiled code only")

    def __repr__(self):
        return f"<overload_classmethod {self.typ.__module__}.{self.__qualname__}>"


def classmethod_of(typ, name):
    """The ClassMethod `typ.name`, or None when none is registered for exactly that class."""
    return _classmethods.get((typ, name))


class _ClassTyper(_ext._Typer):
    """A typing function of a classmethod: called with the class's TypeRef first; its
    implementation is wrapped so that the call site's arguments follow the class."""

    def __init__(self, typ, typing_func, jit_options, prefer_literal):
        super().__init__(typing_func, jit_options, prefer_literal)
        self.typ = typ

    def implementation(self, args, kwargs, key):
        if key in self.impls:
            return self.impls[key]
        impl = self.typing_func(_types.TypeRef(self.typ), *args, **kwargs)
        disp = None
        if impl is not None:
            disp = _ext._dispatcher_of(_wrapper(impl, len(args), list(kwargs), self.typ, self.options), self.options)
        self.impls[key] = disp
        return disp


def _wrapper(impl, npos, kwnames, typ, options):
    """`def name(p0, ..., k=...): return impl(None, p0, ..., k=k)`, its source registered
    with linecache so that it compiles like any function."""
    inner = _ext._dispatcher_of(impl, options)
    params = [f"__p{i}" for i in range(npos)] + list(kwnames)
    call = ["None"] + [f"__p{i}" for i in range(npos)] + [f"{k}={k}" for k in kwnames]
    name = getattr(impl, "__name__", "impl")
    if not name.isidentifier():
        name = "impl"
    filename = f"<overload_classmethod {typ.__module__}.{typ.__qualname__} {name}/{npos}{''.join(kwnames)}>"
    source = f"def {name}({', '.join(params)}):\n    return __mahou_impl__({', '.join(call)})\n"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {"__mahou_impl__": inner}
    exec(compile(source, filename, "exec"), namespace)
    return namespace[name]


def register(typ, attr, jit_options, prefer_literal):
    if not isinstance(attr, str):
        raise TypeError(f"the classmethod name must be a string, not {attr!r}")
    if not (isinstance(typ, type) and issubclass(typ, _types.Type)):
        raise TypeError(f"overload_classmethod: {typ!r} is not a class of mahou types (types.Array, a "
                        "types.StructRef subclass, ...)")

    def decorate(typing_func):
        with _lock:
            cm = _classmethods.get((typ, attr))
            if cm is None:
                cm = _classmethods[(typ, attr)] = ClassMethod(typ, attr)
            _ext._template_of(cm).typers.append(_ClassTyper(typ, typing_func, jit_options, prefer_literal))
        return typing_func

    return decorate
