"""@jitclass (mahou.experimental.jitclass): a class whose instances are native objects
shared with compiled code. The class's fields (from the spec and the class's
annotations), methods, properties and static methods are what the compiler's class
registry reads (the box type's _mahou_class_info()); every method is a compiled function
taking the instance first. From Python, fields are read and written by offset in C++
(mahou._core.JitField) and methods call their compiled functions."""

import linecache

from . import _core
from . import types as _types

__all__ = ["jitclass", "deferred_type", "optional", "JitClassType", "InstanceType"]


class InstanceType(_types.Type):
    """The type of the instances of a jitclass (Numba: Class.class_type.instance_type).
    Its text names the class by its handle, known once the class's fields are (deferred
    types defined)."""

    __slots__ = ("jitclass",)

    def __init__(self, jitclass):
        self.jitclass = jitclass
        super().__init__(None)

    @property
    def name(self):
        if self._name is not None:
            return self._name
        handle = self.jitclass._handle()
        name = f"instance.jitclass.{self.jitclass.__name__}#{handle:x}"
        if handle:  # 0 while the class is being described
            self._name = name
        return name

    def __str__(self):
        return self.name

    __repr__ = __str__

    def __eq__(self, other):
        return isinstance(other, _types.Type) and self.name == other.name

    def __hash__(self):
        return hash(self.name)

    @property
    def class_type(self):
        return self.jitclass.class_type


class ClassType:
    """Numba's Class.class_type: its instance_type is the instances' type."""

    __slots__ = ("jitclass", "instance_type")

    def __init__(self, jitclass):
        self.jitclass = jitclass
        self.instance_type = InstanceType(jitclass)

    @property
    def class_name(self):
        return self.jitclass.__name__

    def __repr__(self):
        return f"jitclass.{self.jitclass.__name__}"


class DeferredType(_types.Type):
    """A type named before it is known (a field of a recursive structure): define() it
    before the class is first used."""

    __slots__ = ("_defined",)

    def __init__(self):
        self._defined = None
        super().__init__("deferred_type")

    def define(self, typ):
        if self._defined is not None:
            raise TypeError("a deferred type is defined once")
        self._defined = typ

    def get(self):
        if self._defined is None:
            raise TypeError("the deferred type is not defined yet (call .define(type) first)")
        return self._defined

    def _text(self):
        return _type_text(self.get(), "deferred type")

    def __eq__(self, other):
        return self is other

    def __hash__(self):
        return id(self)


def deferred_type():
    return DeferredType()


class OptionalType(_types.Type):
    """A value of `type` or None: optional(float64)."""

    __slots__ = ("type",)

    def __init__(self, typ):
        self.type = typ
        super().__init__("OptionalType(?)")

    def _text(self):
        return "OptionalType(" + _type_text(self.type, "optional type") + ")"


def optional(typ):
    return OptionalType(typ)


_describing = set()  # classes whose description is being made (JitClassType._handle)

_PYTHON_TYPES = {int: "int64", float: "float64", bool: "bool", complex: "complex128", str: "unicode_type"}


def _type_text(typ, where):
    """The text the compiler reads (types/type_parser.cpp) for a type given in a spec."""
    if isinstance(typ, JitClassType):
        return typ.class_type.instance_type.name
    if isinstance(typ, ClassType):
        return typ.instance_type.name
    if isinstance(typ, (DeferredType, OptionalType)):
        return str(typ)
    if isinstance(typ, _types.Type):
        return str(typ)
    if isinstance(typ, str):
        return typ
    if typ in _PYTHON_TYPES:
        return _PYTHON_TYPES[typ]
    from ._resolver import _dtype_name
    dtype = _dtype_name(typ)
    if dtype is not None:
        return dtype
    from ._annotations import try_as_type  # typing.List[float], Optional[int], typed.List[T], ...
    try:
        annotated = try_as_type(typ)
    except TypeError as exc:
        raise TypeError(f"{where}: {exc}") from None
    if annotated is not None:
        return str(annotated)
    raise TypeError(f"{where}: {typ!r} is not a type")


def _describe_type(typ):
    """A field's type for the class's description: as its text, but a jitclass by its
    qualified name (its handle is a digest of this description; recursive classes)."""
    if isinstance(typ, DeferredType):
        return "deferred " + _describe_type(typ.get())
    if isinstance(typ, OptionalType):
        return "optional " + _describe_type(typ.type)
    jc = typ if isinstance(typ, JitClassType) else typ.jitclass if isinstance(typ, (ClassType, InstanceType)) else None
    if jc is not None:
        return f"jitclass {jc.__module__}.{jc.__qualname__}"
    return _type_text(typ, "field")


def _spec_items(spec):
    if spec is None:
        return []
    if isinstance(spec, dict):
        return list(spec.items())
    items = list(spec)
    for item in items:
        if not (isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str)):
            raise TypeError(f"a jitclass spec is a list of (name, type) pairs or a dict, not {spec!r}")
    return items


def _compile(func):
    from .decorators import njit
    return njit(func)


def _annotations_of(cls):
    """The class's annotations and its bases', evaluated (PEP 563 strings included) as
    Numba reads them (typing.get_type_hints); as written when they cannot be evaluated."""
    import typing
    try:
        return typing.get_type_hints(cls)
    except Exception:  # a name the module does not define: the text is the type
        out = {}
        for base in reversed(cls.__mro__):
            out.update(base.__dict__.get("__annotations__", {}))
        return out


# What every class has (Numba's _drop_ignored_attrs): not members of the jitclass.
_IGNORED_MEMBERS = frozenset(("__weakref__", "__module__", "__dict__", "__doc__", "__qualname__",
                              "__firstlineno__", "__static_attributes__", "__annotations__",
                              "__annotate_func__", "__annotations_cache__"))


def _class_members(cls):
    """The methods, properties and static methods of `cls` and its plain Python bases
    (a base's member is overridden by the subclass's, as Numba copies them along the MRO);
    any other class attribute is refused, as Numba refuses it."""
    import types as pytypes
    merged = {}
    for base in reversed(cls.__mro__):
        if base is object:
            continue
        if isinstance(base, JitClassType) or getattr(base, "_mahou_jitclass", None) is not None:
            raise TypeError("cannot subclass from a jitclass")
        merged.update(base.__dict__)
    others = []
    for name, member in list(merged.items()):
        if name in _IGNORED_MEMBERS or isinstance(member, (pytypes.BuiltinFunctionType, pytypes.BuiltinMethodType)) \
                or getattr(member, "__objclass__", None) is object:
            del merged[name]
        elif name == "__hash__" and member is None:  # __eq__ without __hash__: handled below
            del merged[name]
        elif not isinstance(member, (pytypes.FunctionType, property, staticmethod, classmethod)):
            others.append(name)
    if others:
        raise TypeError(f"jitclass '{cls.__name__}': class members are not yet supported: {', '.join(others)}")
    for name, member in merged.items():
        if isinstance(member, property) and member.fdel is not None:
            raise TypeError(f"jitclass '{cls.__name__}': deleter is not supported: {name}")
    return merged


class JitClassType:
    """What @jitclass makes of a class: calling it constructs an instance (its compiled
    __init__ runs); isinstance(x, C) works; C.class_type.instance_type is its type."""

    _mahou_jitclass_box = staticmethod(lambda cls: cls._registered_box())  # the resolver's hook

    def __init__(self, cls, spec, box_bases=()):
        if not isinstance(cls, type):
            raise TypeError(f"@jitclass decorates a class, not {cls!r}")
        self.py_class = cls
        self.__name__ = cls.__name__
        self.__qualname__ = cls.__qualname__
        self.__module__ = cls.__module__
        self.__doc__ = cls.__doc__
        fields = _spec_items(spec)
        named = {n for n, _ in fields}
        for name, typ in _annotations_of(cls).items():
            if name not in named:
                fields.append((name, typ))
                named.add(name)
        self._spec = fields
        self._methods, self._statics, self._properties = {}, {}, {}
        import inspect
        namespace = {"__slots__": (), "__module__": cls.__module__, "__qualname__": cls.__qualname__,
                     "__doc__": cls.__doc__, "_mahou_class_info": classmethod(lambda box: self._class_info()),
                     "_mahou_jitclass": self}
        members = _class_members(cls)
        shadowed = sorted(named & set(members))
        if shadowed:
            raise NameError(f"jitclass '{cls.__name__}': name shadowing: {', '.join(shadowed)}")
        for name, member in members.items():
            if isinstance(member, staticmethod):
                disp = _compile(member.__func__)
                self._statics[name] = disp
                namespace[name] = staticmethod(disp)
            elif isinstance(member, property):
                getter = _compile(member.fget) if member.fget is not None else None
                setter = _compile(member.fset) if member.fset is not None else None
                self._properties[name] = (getter, setter)
                namespace[name] = property(getter, setter, None, member.__doc__)
            elif inspect.isfunction(member):
                disp = _compile(member)
                self._methods[name] = disp
                if name != "__init__":
                    namespace[name] = disp  # a Dispatcher binds to the instance like a function
            elif isinstance(member, classmethod):
                raise TypeError(f"jitclass '{cls.__name__}': class methods are not supported ('{name}')")
        if "__hash__" not in self._methods and "__eq__" in self._methods:
            namespace["__hash__"] = None  # as Python: a class defining __eq__ alone is unhashable
        # box_bases: a structref's proxy class (experimental/structref.py)
        self._box = type(cls.__name__, tuple(box_bases) + (_core.JitInstanceBase,), namespace)
        from . import serialize  # instances pickle through mahou.serialize's registry
        serialize.register(self._box, _reduce_instance)
        serialize.register(JitClassType, JitClassType.__reduce__)
        self.class_type = ClassType(self)
        self._fields = None  # [(name, type text)] once the types are known (deferred types)
        self._ctor = None
        self._handle_value = None

    # ---- the class as the compiler sees it
    def _finish(self):
        if self._fields is None:
            fields = [(name, _type_text(typ, f"jitclass '{self.__name__}', field '{name}'"))
                      for name, typ in self._spec]
            self._fields_type = _core.jitclass_layout(self._box, fields)
            self._fields = fields
            self._handle()
        return self._fields

    def _handle(self):
        """The class's handle (its name in type texts): a digest of what the class is, so
        that the same class has the same handle in every process (cache=True finds code
        compiled for it by another process), registered with the compiler's registry."""
        if self._handle_value is None:
            if self in _describing:
                return 0  # the class named in its own fields' types (through a container)
            _describing.add(self)
            try:
                description = self._description()
            finally:
                _describing.discard(self)
            self._handle_value = _core.jitclass_register(self._box, description)
        return self._handle_value

    def _registered_box(self):
        self._handle()
        return self._box

    def _description(self):
        """What identifies the class across processes: its module, qualified name, fields
        (other jitclasses named by their qualified names) and the source of its body."""
        from ._source import class_source
        fields = [(name, _describe_type(typ)) for name, typ in self._spec]
        try:  # the class and the bases its methods come from
            source = "".join(class_source(c) for c in self.py_class.__mro__ if c is not object)
        except (OSError, TypeError):
            source = f"<no source: this process only, {id(self)}>"
        return repr((self.__module__, self.__qualname__, fields, source))

    def _class_info(self):
        return (self.__name__, self._finish(), dict(self._methods), dict(self._statics),
                dict(self._properties))

    def _constructor(self):
        if self._ctor is None:
            self._ctor = _compile(_constructor_function(self))
        return self._ctor

    # ---- Python API
    def __call__(self, *args, **kwargs):
        self._finish()
        return self._constructor()(*args, **kwargs)

    def __instancecheck__(self, obj):
        return isinstance(obj, self._box)

    def __repr__(self):
        return f"<jitclass '{self.__module__}.{self.__qualname__}'>"

    def __mro_entries__(self, bases):
        raise TypeError("cannot subclass from a jitclass")

    @property
    def spec(self):
        return list(self._spec)

    def __reduce__(self):
        """Pickled by reference: the module global that is this class."""
        import sys
        module = sys.modules.get(self.__module__)
        for name, value in (vars(module).items() if module is not None else ()):
            if value is self:
                return (_jitclass_by_name, (self.__module__, name))
        import pickle
        raise pickle.PicklingError(f"cannot pickle the jitclass {self.__qualname__}: it is not a global of "
                                   f"module {self.__module__}")

    def __getattr__(self, name):
        # Static methods are reached on the class too: C.make(...)
        statics = self.__dict__.get("_statics", {})
        if name in statics:
            return statics[name]
        raise AttributeError(f"jitclass '{self.__name__}' has no attribute '{name}'")


def _constructor_function(jc):
    """A Python function `Name(params of __init__): return Name(params)`, compiled as
    the constructor callable from Python (its source registered with linecache)."""
    import inspect
    init = jc._methods.get("__init__")  # the class's own or a base's
    init = init.py_func if init is not None else None
    if init is None:
        params, call = "", ""
        defaults, kwdefaults = None, None
    else:
        sig = inspect.signature(init)
        ps = list(sig.parameters.values())[1:]
        for p in ps:
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                raise TypeError(f"jitclass '{jc.__name__}': __init__ with *args or **kwargs is not supported")
        positional = [p.name for p in ps if p.kind is not p.KEYWORD_ONLY]
        kwonly = [p.name for p in ps if p.kind is p.KEYWORD_ONLY]
        params = ", ".join(positional + (["*"] + kwonly if kwonly else []))
        call = ", ".join(positional + [f"{k}={k}" for k in kwonly])
        defaults = init.__defaults__
        kwdefaults = init.__kwdefaults__
    name = jc.__name__
    filename = f"<jitclass {jc.__module__}.{jc.__qualname__} constructor>"
    source = f"def {name}({params}):\n    return __mahou_jitclass__({call})\n"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {"__mahou_jitclass__": jc}
    exec(compile(source, filename, "exec"), namespace)
    func = namespace[name]
    func.__defaults__ = defaults
    func.__kwdefaults__ = kwdefaults
    func.__qualname__ = jc.__qualname__
    return func


def _jitclass_by_name(module, name):
    import importlib
    jc = getattr(importlib.import_module(module), name)
    if not isinstance(jc, JitClassType):
        raise TypeError(f"{module}.{name} is not a jitclass")
    return jc


def _rebuild_instance(jc, values):
    jc._finish()
    obj = _core.jitclass_new(jc._box, jc._fields_type)
    for (name, _), value in zip(jc._fields, values):
        setattr(obj, name, value)
    return obj


def _reduce_instance(obj):
    """Pickling of an instance: its class (pickled by reference, or by value through
    mahou.serialize like any class) and its field values."""
    jc = type(obj)._mahou_jitclass
    return (_rebuild_instance, (jc, tuple(getattr(obj, name) for name, _ in jc._finish())))


def jitclass(cls_or_spec=None, spec=None):
    """@jitclass(spec) / @jitclass / jitclass(cls, spec): compile a class. `spec` is a list
    of (field name, type) pairs or a dict; annotated class attributes are fields too."""
    from . import config
    if config.DISABLE_JIT:
        if isinstance(cls_or_spec, type):
            return cls_or_spec
        return lambda cls: cls
    if isinstance(cls_or_spec, type):
        return JitClassType(cls_or_spec, spec)
    spec = cls_or_spec if spec is None else spec

    def wrap(cls):
        return JitClassType(cls, spec)

    return wrap
