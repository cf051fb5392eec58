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
]


class Type:
    """A mahou type. Types compare equal (and hash) by their text."""

    __slots__ = ("_name",)

    def __init__(self, name):
        self._name = name

    @property
    def name(self):
        return self._name

    def __str__(self):
        return self._name

    def __repr__(self):
        return self._name

    def __eq__(self, other):
        return isinstance(other, Type) and self._name == other._name

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(self._name)

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


none = Type("none")
void = none
boolean = Scalar("bool")
bool_ = b1 = boolean
int8, int16, int32, int64 = (Scalar(f"int{n}") for n in (8, 16, 32, 64))
uint8, uint16, uint32, uint64 = (Scalar(f"uint{n}") for n in (8, 16, 32, 64))
float16, float32, float64 = Scalar("float16"), Scalar("float32"), Scalar("float64")
complex64, complex128 = Scalar("complex64"), Scalar("complex128")
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
    return _SCALARS[name]


def _opaque(text):
    """A compile-time-only type (function, module, ...), known by its text."""
    return Type(text)


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


# ---------------------------------------------------------------- objects
# The types of strings and containers, as typed.List.empty_list / typed.Dict.empty and
# signatures take them (str() is the compiler's spelling).
unicode_type = Type("unicode_type")


def ListType(item):
    """The type of a typed.List of `item`."""
    return Type(f"ListType[{item}]")


def DictType(key, value):
    """The type of a typed.Dict of `key` → `value`."""
    return Type(f"DictType[{key}, {value}]")


def Optional(t):
    return Type(f"OptionalType({t})")


__all__ += ["unicode_type", "ListType", "DictType", "Optional"]
