"""Numba-like type objects for signatures: float64, int32[:], float64[:, ::1],
UniTuple(int64, 3), float64(float64[:]). str() gives the C++ signature syntax."""

__all__ = [
    "Type", "Scalar", "Array", "BaseTuple", "UniTuple", "Tuple", "Signature", "signature",
    "none", "void", "boolean", "bool_", "b1",
    "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "complex64", "complex128",
    "intp", "uintp", "intc", "uintc", "int_", "float_", "double", "byte",
    "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4", "f8", "c8", "c16",
    "CPointer", "voidptr",
    "Boolean", "Number", "Integer", "Float", "Complex", "NoneType", "Literal", "IntegerLiteral",
    "BooleanLiteral", "FloatLiteral", "StringLiteral", "UnicodeType", "unicode_type", "string",
    "literal", "unliteral", "maybe_literal", "Omitted", "Dispatcher", "Module", "Optional", "optional",
    "ListType", "List", "DictType", "NamedTuple", "NamedUniTuple", "NPDatetime", "NPTimedelta",
    "StructRef", "TypeRef",
]


class Type:
    """A mahou type. Types compare equal (and hash) by their text."""

    __slots__ = ("_name",)

    def __init__(self, name):
        self._name = name

    @property
    def name(self):
        return self._text()

    def _text(self):
        """The type's text; a container of a deferred type computes it when asked (the
        deferred type may be defined after the container type is made)."""
        return self._name

    def __str__(self):
        return self._text()

    def __repr__(self):
        return self._text()

    def __eq__(self, other):
        return isinstance(other, Type) and self._text() == other._text()

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(self._text())

    def __call__(self, *args):
        """float64(float64[:]) → a signature with this return type."""
        return Signature(self, args)


class Scalar(Type):
    """bool, intN, uintN, floatN, complexN. Indexing makes array types."""

    __slots__ = ()

    @property
    def bitwidth(self):
        if self._name == "bool":
            return 8
        return int("".join(ch for ch in self._name if ch.isdigit()))

    def __getitem__(self, index):
        dims = index if isinstance(index, tuple) else (index,)
        contiguous_at = -1
        for i, dim in enumerate(dims):
            if not isinstance(dim, slice) or dim.start is not None or dim.stop is not None:
                raise TypeError(f"array dimensions are written ':' or '::1', not {dim!r}")
            if dim.step is not None:
                if dim.step != 1 or contiguous_at >= 0:
                    raise TypeError("only one dimension can be '::1'")
                contiguous_at = i
        ndim = len(dims)
        if contiguous_at < 0:
            layout = "A"
        elif contiguous_at == ndim - 1:
            layout = "C"
        elif contiguous_at == 0:
            layout = "F"
        else:
            raise TypeError("'::1' must be on the first or the last dimension")
        return Array(self, ndim, layout)


class Boolean(Scalar):
    """bool."""

    __slots__ = ()


class Number(Scalar):
    """Integers, floats and complex numbers (Numba's types.Number)."""

    __slots__ = ()


class Integer(Number):
    """int8 ... uint64; .signed and .bitwidth."""

    __slots__ = ()

    @property
    def signed(self):
        return not self._name.startswith("u")

    @property
    def minval(self):
        return -(1 << (self.bitwidth - 1)) if self.signed else 0

    @property
    def maxval(self):
        return (1 << (self.bitwidth - 1)) - 1 if self.signed else (1 << self.bitwidth) - 1


class Float(Number):
    """float16, float32, float64."""

    __slots__ = ()


class Complex(Number):
    """complex64, complex128; .underlying_float is the type of each part."""

    __slots__ = ()

    @property
    def underlying_float(self):
        return float32 if self._name == "complex64" else float64


class _NPDatetimeBase(Scalar):
    """A NumPy datetime64 / timedelta64 of one unit ('' generic): Numba's NPDatetime / NPTimedelta."""

    __slots__ = ("unit",)

    def __init__(self, unit):
        self.unit = unit
        super().__init__(f"{self.type_name}[{unit}]")

    @property
    def bitwidth(self):
        return 64


class NPDatetime(_NPDatetimeBase):
    """datetime64[unit]."""

    __slots__ = ()
    type_name = "datetime64"


class NPTimedelta(_NPDatetimeBase):
    """timedelta64[unit]."""

    __slots__ = ()
    type_name = "timedelta64"


class Array(Type):
    """array(dtype, ndim, layout[, readonly]); layout is 'C', 'F' or 'A'."""

    __slots__ = ("dtype", "ndim", "layout", "readonly")

    def __init__(self, dtype, ndim, layout="A", readonly=False):
        if isinstance(dtype, str):
            dtype = _scalar(dtype)
        if layout not in ("C", "F", "A"):
            raise ValueError(f"invalid array layout {layout!r}")
        self.dtype, self.ndim, self.layout, self.readonly = dtype, int(ndim), layout, bool(readonly)
        text = f"array({dtype}, {self.ndim}d, {layout}{', readonly' if readonly else ''})"
        super().__init__(text)

    @property
    def mutable(self):
        return not self.readonly

    def copy(self, dtype=None, ndim=None, layout=None, readonly=None):
        return Array(dtype or self.dtype, self.ndim if ndim is None else ndim,
                     layout or self.layout, self.readonly if readonly is None else readonly)


class BaseTuple(Type):
    __slots__ = ("types",)

    def __len__(self):
        return len(self.types)

    def __iter__(self):
        return iter(self.types)

    def __getitem__(self, i):
        return self.types[i]

    @property
    def count(self):
        return len(self.types)


class UniTuple(BaseTuple):
    """A tuple of `count` items of one type: UniTuple(int64, 3)."""

    __slots__ = ("dtype",)

    def __init__(self, dtype, count):
        self.dtype = dtype
        self.types = (dtype,) * int(count)
        super().__init__(f"UniTuple({dtype} x {int(count)})")


class Tuple(BaseTuple):
    """A tuple of items of different types; Tuple([int64, int64]) is a UniTuple."""

    __slots__ = ()

    def __new__(cls, *items):
        items = _tuple_items(items)
        if items and all(t == items[0] for t in items):
            return UniTuple(items[0], len(items))
        return super().__new__(cls)

    def __init__(self, *items):
        self.types = _tuple_items(items)
        super().__init__("Tuple(" + ", ".join(str(t) for t in self.types) + ")")


class CPointer(Type):
    """A C pointer to a scalar type (the arguments of @cfunc callbacks): CPointer(float64)."""

    __slots__ = ("dtype",)

    def __init__(self, dtype):
        if isinstance(dtype, str):
            dtype = _scalar(dtype)
        self.dtype = dtype
        super().__init__(f"CPointer({dtype})")


def _tuple_items(items):
    if len(items) == 1 and isinstance(items[0], (list, tuple)):
        items = items[0]
    return tuple(items)


class Signature:
    """return_type(args...): str() is the C++ signature syntax, e.g. 'float64(array(float64, 1d, A))'."""

    __slots__ = ("return_type", "args")

    def __init__(self, return_type, args):
        self.return_type = return_type
        self.args = tuple(args)

    def __str__(self):
        ret = "" if self.return_type is None else str(self.return_type)
        return ret + "(" + ", ".join(str(a) for a in self.args) + ")"

    __repr__ = __str__

    def __eq__(self, other):
        return isinstance(other, Signature) and str(self) == str(other)

    def __hash__(self):
        return hash(str(self))


def signature(return_type, *args):
    return Signature(return_type, args)


class NoneType(Type):
    """The type of None (the instance `none`)."""

    __slots__ = ()


none = NoneType("none")
void = none
# What object mode (forceobj=True) records for an argument compiled code cannot type.
pyobject = ffi_forced_object = Type("pyobject")
boolean = Boolean("bool")
bool_ = b1 = boolean
int8, int16, int32, int64 = (Integer(f"int{n}") for n in (8, 16, 32, 64))
uint8, uint16, uint32, uint64 = (Integer(f"uint{n}") for n in (8, 16, 32, 64))
float16, float32, float64 = Float("float16"), Float("float32"), Float("float64")
complex64, complex128 = Complex("complex64"), Complex("complex128")
intp, uintp, intc, uintc = int64, uint64, int32, uint32
int_, float_, double, byte = int64, float64, float64, uint8
i1, i2, i4, i8 = int8, int16, int32, int64
u1, u2, u4, u8 = uint8, uint16, uint32, uint64
f2, f4, f8, c8, c16 = float16, float32, float64, complex64, complex128
voidptr = Type("voidptr")

_SCALARS = {t.name: t for t in (boolean, int8, int16, int32, int64, uint8, uint16, uint32,
                                uint64, float16, float32, float64, complex64, complex128)}
_SCALARS["none"] = none


def _scalar(name):
    """The type object of a dtype name (the binding builds types with this)."""
    for cls in (NPDatetime, NPTimedelta):  # datetime64[D], timedelta64[ns]
        if name.startswith(cls.type_name + "[") and name.endswith("]"):
            return cls(name[len(cls.type_name) + 1:-1])
    return _SCALARS[name]


def _opaque(text):
    """A compile-time-only type (function, module, ...), known by its text."""
    return Type(text)


def _instance(box, text):
    """The type of a jitclass instance (its box class given): the class's instance type,
    or the StructRef type of a structref (so @overload_method(MyStructType, ...) applies)."""
    jc = getattr(box, "_mahou_jitclass", None)
    if jc is None:
        return Type(text)
    return getattr(jc, "_structref_type", None) or jc.class_type.instance_type


class TypeRef(Type):
    """numba.types.TypeRef: a type, or a class of types, as the receiver of an
    @overload_classmethod (the typing function's first argument); .instance_type."""

    __slots__ = ("instance_type",)

    def __init__(self, instance_type):
        self.instance_type = instance_type
        shown = instance_type if isinstance(instance_type, Type) else getattr(instance_type, "__qualname__",
                                                                                instance_type)
        super().__init__(f"typeref[{shown}]")


class StructRef(Type):
    """numba.types.StructRef: the base class of a mutable structure's type
    (mahou.experimental.structref). An instance is one type: its class and its fields,
    (name, type) pairs passed through preprocess_fields()."""

    def __init__(self, fields):
        self._fields = tuple((str(n), t) for n, t in self.preprocess_fields(tuple(fields)))
        super().__init__(None)

    def preprocess_fields(self, fields):
        """Override to change the fields' types (e.g. types.unliteral); the identity here."""
        return fields

    @property
    def field_dict(self):
        return dict(self._fields)

    @property
    def field_names(self):
        return [n for n, _ in self._fields]

    @property
    def field_types(self):
        return [t for _, t in self._fields]

    def _text(self):
        from .experimental.structref import instance_type_text
        return instance_type_text(self)


# ---------------------------------------------------------------------------------
# The names typing functions of mahou.extending use (Numba's numba.types): literal
# types, the types of compile-time values, and the container types.

class Literal(Type):
    """A value known at compile time: .literal_value; types.unliteral(t) is its plain type."""

    __slots__ = ("literal_value",)

    def __init__(self, value, name):
        self.literal_value = value
        super().__init__(name)


class IntegerLiteral(Literal, Integer):
    __slots__ = ()

    def __init__(self, value):
        Literal.__init__(self, value, f"Literal[int]({value})")

    @property
    def bitwidth(self):
        return 64


class BooleanLiteral(Literal, Boolean):
    __slots__ = ()

    def __init__(self, value):
        Literal.__init__(self, bool(value), f"Literal[bool]({bool(value)})")


class FloatLiteral(Literal, Float):
    __slots__ = ()

    def __init__(self, value):
        Literal.__init__(self, float(value), f"Literal[float]({value!r})")

    @property
    def bitwidth(self):
        return 64


class UnicodeType(Type):
    """A string (`unicode_type`)."""

    __slots__ = ()


unicode_type = UnicodeType("unicode_type")
string = unicode_type


class StringLiteral(Literal):
    """A string known at compile time."""

    __slots__ = ()

    def __init__(self, value):
        super().__init__(str(value), f"Literal[str]({value})")


_LITERAL_PLAIN = {IntegerLiteral: int64, BooleanLiteral: boolean, FloatLiteral: float64,
                  StringLiteral: unicode_type}


def literal(value):
    """The literal type of a Python value (types.literal(3) is Literal[int](3))."""
    if isinstance(value, bool):
        return BooleanLiteral(value)
    if isinstance(value, int):
        return IntegerLiteral(value)
    if isinstance(value, float):
        return FloatLiteral(value)
    if isinstance(value, str):
        return StringLiteral(value)
    raise TypeError(f"no literal type for {value!r}")


def unliteral(t):
    """The plain type of a literal type (any other type is returned as it is)."""
    return _LITERAL_PLAIN.get(type(t), t)


def maybe_literal(value):
    try:
        return literal(value)
    except TypeError:
        return None


class Omitted(Type):
    """An argument left out, that takes its default value (.value)."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value
        super().__init__(f"omitted(default={value!r})")


class Dispatcher(Type):
    """A compiled function passed as a value (.dispatcher)."""

    __slots__ = ("dispatcher",)

    def __init__(self, dispatcher):
        self.dispatcher = dispatcher
        super().__init__(f"type(CPUDispatcher({getattr(dispatcher, '__name__', '?')}))")


class Module(Type):
    """A module used in compiled code (.pymod)."""

    __slots__ = ("pymod",)

    def __init__(self, pymod):
        self.pymod = pymod
        super().__init__(f"Module({getattr(pymod, '__name__', pymod)})")


class Optional(Type):
    """T or None: .type is T."""

    __slots__ = ("type",)

    def __init__(self, typ):
        self.type = typ
        super().__init__(None)

    def _text(self):
        return f"OptionalType({self.type})"


optional = Optional  # Numba spells the constructor both ways


class ListType(Type):
    """A typed list of .item_type (also .dtype)."""

    __slots__ = ("item_type",)

    def __init__(self, item_type):
        self.item_type = item_type
        super().__init__(None)

    def _text(self):
        return f"ListType[{self.item_type}]"

    @property
    def dtype(self):
        return self.item_type


class List(Type):
    """A Python list of .dtype (reflected: changes are written back)."""

    __slots__ = ("dtype", "reflected")

    def __init__(self, dtype, reflected=False):
        self.dtype, self.reflected = dtype, bool(reflected)
        super().__init__(f"{'reflected ' if reflected else ''}list({dtype})")


class DictType(Type):
    """A typed dict .key_type -> .value_type."""

    __slots__ = ("key_type", "value_type")

    def __init__(self, key_type, value_type):
        self.key_type, self.value_type = key_type, value_type
        super().__init__(None)

    def _text(self):
        return f"DictType[{self.key_type},{self.value_type}]"


class NamedTuple(BaseTuple):
    """A collections.namedtuple: the tuple's types and the class (.instance_class)."""

    __slots__ = ("instance_class", "fields")

    def __init__(self, types, cls):
        self.types = tuple(types)
        self.instance_class = cls
        self.fields = tuple(getattr(cls, "_fields", ()))
        super().__init__(f"{getattr(cls, '__name__', 'namedtuple')}(" + ", ".join(str(t) for t in self.types) + ")")


NamedUniTuple = NamedTuple


def _literal_of(value):
    """For the binding: the literal type of a compile-time argument, or None."""
    return maybe_literal(value)


def typeof(value, purpose=None):
    """The type mahou compiles for when `value` is passed as an argument."""
    from . import _core
    return _core.typeof(value)


def signature_text(sig):
    """A signature given as text, Signature or tuple of argument types → its text."""
    if isinstance(sig, str):
        return sig
    if isinstance(sig, (tuple, list)):
        return "(" + ", ".join(str(t) for t in sig) + ")"
    if isinstance(sig, Signature):
        return str(sig)
    raise TypeError(f"a signature must be a string, a Signature or a tuple of types, not {sig!r}")
