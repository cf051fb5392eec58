"""numba.experimental.structref: mutable structures whose field types are those of the
constructor's arguments. Built on @jitclass: each StructRef type (its class and field
types) is a jitclass of its own, whose instances box as the user's proxy class."""

import linecache
import threading

from .. import types as _types
from .._jitclass import JitClassType

__all__ = ["register", "StructRefProxy", "define_proxy", "define_constructor", "define_boxing",
           "define_attributes"]

_lock = threading.RLock()
_proxies = {}  # StructRef type class -> its proxy class (define_boxing)
_classes = {}  # (StructRef type class, field names and type texts) -> JitClassType


def register(struct_type):
    """@structref.register on a types.StructRef subclass: the class of a structure's
    types. Attribute reads and writes in compiled code need nothing more."""
    if not (isinstance(struct_type, type) and issubclass(struct_type, _types.StructRef)):
        raise TypeError(f"structref.register: {struct_type!r} is not a subclass of types.StructRef")
    return struct_type


def define_attributes(struct_typeclass):
    """Numba defines the compiled attribute access of a StructRef class here; a mahou
    structure's fields are always readable and writable in compiled code."""
    register(struct_typeclass)


class StructRefProxy:
    """The base of the Python class a structure boxes as. Calling the subclass builds one
    through its compiled constructor (define_proxy / define_constructor)."""

    __slots__ = ()

    def __new__(cls, *args):
        ctor = getattr(cls, "_mahou_structref_ctor", None)
        if ctor is None:
            raise TypeError(f"{cls.__name__}: structref.define_proxy() or define_constructor() "
                            "was not called for this class")
        return ctor(*args)

    @property
    def _type(self):
        return type(self)._mahou_jitclass._structref_type


def _field_key(st):
    return (type(st), tuple((name, str(typ)) for name, typ in st._fields))


def _fields_class(st):
    """A plain class whose __init__ stores its arguments into the fields, in order."""
    names = [name for name, _ in st._fields]
    for name in names:
        if not name.isidentifier():
            raise TypeError(f"{type(st).__name__}: field name {name!r} is not an identifier")
    params = ", ".join(["self"] + names)
    body = "".join(f"    self.{n} = {n}\n" for n in names) or "    pass\n"
    filename = f"<structref {type(st).__module__}.{type(st).__qualname__} {', '.join(names)}>"
    source = f"def __init__({params}):\n{body}"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {}
    exec(compile(source, filename, "exec"), namespace)
    named = _proxies.get(type(st), type(st))  # instances are shown as the proxy class
    return type(named.__name__, (), {"__init__": namespace["__init__"], "__module__": named.__module__,
                                     "__qualname__": named.__qualname__})


def jitclass_of(st):
    """The jitclass of a StructRef type (one per class and field types)."""
    key = _field_key(st)
    with _lock:
        jc = _classes.get(key)
        if jc is None:
            proxy = _proxies.get(type(st))
            bases = (proxy,) if proxy is not None else ()
            jc = JitClassType(_fields_class(st), list(st._fields), box_bases=bases)
            jc._structref_type = st
            jc._finish()
            for name, _ in st._fields:  # the proxy's own properties win over the plain fields
                if proxy is not None and any(name in c.__dict__ for c in proxy.__mro__):
                    delattr(jc._box, name)
            _classes[key] = jc
        return jc


def instance_type_text(st):
    """The compiler's text of a StructRef type: its jitclass's instance type."""
    return jitclass_of(st).class_type.instance_type.name


def _generated(name, params, call, namespace, tag):
    filename = f"<structref {tag}>"
    source = f"def {name}({', '.join(params)}):\n    return {call}({', '.join(params)})\n"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(compile(source, filename, "exec"), namespace)
    return namespace[name]


def define_constructor(py_class, struct_typeclass, fields):
    """Calling `py_class(*values)`, in compiled code and from Python, builds a structure
    of type struct_typeclass(zip(fields, types of the values))."""
    from ..decorators import njit
    from ..extending import overload
    fields = [str(f) for f in fields]
    tag = f"{py_class.__module__}.{py_class.__qualname__}"

    @overload(py_class)
    def _construct(*args):
        if len(args) != len(fields):
            return None
        jc = jitclass_of(struct_typeclass(list(zip(fields, args))))
        return _generated("construct", fields, "__structref_class__", {"__structref_class__": jc}, tag)

    ctor = _generated(py_class.__name__, fields, "__structref_proxy__", {"__structref_proxy__": py_class}, tag)
    py_class._mahou_structref_ctor = njit(ctor)


def define_boxing(struct_typeclass, py_class):
    """Structures of struct_typeclass reach Python as instances of py_class."""
    if not (isinstance(py_class, type) and issubclass(py_class, StructRefProxy)):
        raise TypeError(f"structref.define_boxing: {py_class!r} is not a subclass of StructRefProxy")
    with _lock:
        if any(k[0] is struct_typeclass for k in _classes):
            raise TypeError(f"structref.define_boxing: {struct_typeclass.__name__} structures were made "
                            "before their proxy class was defined")
        _proxies[struct_typeclass] = py_class


def define_proxy(py_class, struct_typeclass, fields):
    """define_constructor and define_boxing together (the usual way)."""
    define_boxing(struct_typeclass, py_class)
    define_constructor(py_class, struct_typeclass, fields)
