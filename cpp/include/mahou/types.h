// The type lattice: scalar dtypes, arrays, tuples, the reference-counted objects
// (lists, dicts, sets, strings, optional values) and the compile-time-only kinds
// (modules, functions, dtype and exception classes, string literals).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mahou::types {

enum class DType : uint8_t {
#define MAHOU_DTYPE(Enum, name, numpyNum, bytes, cls) Enum,
#include "mahou/dtypes.def"
#undef MAHOU_DTYPE
// NumPy's datetime64 and timedelta64, one dtype per unit (datetime_units.def): an int64
// count of the unit, NaT = INT64_MIN. Not numbers: Type::isNumber() is false for them.
#define MAHOU_DATETIME_UNIT(Enum, code, npyUnit) Datetime##Enum,
#include "mahou/datetime_units.def"
#undef MAHOU_DATETIME_UNIT
#define MAHOU_DATETIME_UNIT(Enum, code, npyUnit) Timedelta##Enum,
#include "mahou/datetime_units.def"
#undef MAHOU_DATETIME_UNIT
};
enum class DTypeClass : uint8_t { Bool, SignedInt, UnsignedInt, Float, Complex, Datetime, Timedelta };

const char *dtypeName(DType d);          // "float64"
int dtypeBytes(DType d);                 // 8
DTypeClass dtypeClass(DType d);
// NumPy's kind order for value-based casting: bool 0, integers 1, floats 2, complex 3.
int kindRank(DType d);
int dtypeNumpyNum(DType d);              // NPY_FLOAT64 etc. (NumPy's type_num)
std::optional<DType> dtypeFromNumpyNum(int num);
std::optional<DType> dtypeFromName(const std::string &name); // "float64", "f8" not accepted
bool isInteger(DType d);                 // signed or unsigned, not bool
bool isSigned(DType d);
bool isFloat(DType d);
bool isComplex(DType d);
int dtypeBits(DType d);
// datetime64 / timedelta64 (datetime_units.cpp has their unit rules).
bool isDatetime(DType d);
bool isTimedelta(DType d);
inline bool isDatetimeLike(DType d) { return isDatetime(d) || isTimedelta(d); }
int datetimeUnit(DType d);                            // NumPy's NPY_DATETIMEUNIT (14: generic)
const char *datetimeUnitCode(int unit);               // "D", "ns", "" (generic)
std::optional<DType> datetimeDType(bool timedelta, int unit); // nullopt: no such unit
// NumPy's promote_types for two dtypes (int64 + uint64 → float64, int + float32 → float64 ...).
DType promote(DType a, DType b);
// Smallest integer/float/complex of each class used for results, e.g. complex part type.
DType complexOf(DType floatType);        // float32 → complex64, float64 → complex128
DType realOf(DType complexType);         // complex64 → float32

enum class Layout : uint8_t { C, F, A }; // contiguous C, contiguous Fortran, any strides

// The Python object an Array came from when it is not an ndarray (Numba's Buffer types):
// a bytes, bytearray, memoryview or array.array argument, unboxed through the buffer
// protocol. Such an array indexes, iterates and slices like an ndarray; its operators and
// methods are Python's, so sema refuses those (sema/buffers.cpp) and it is never returned.
enum class BufferKind : uint8_t { None, Bytes, ByteArray, MemoryView, PyArray };
const char *bufferKindName(BufferKind b); // "bytes", "bytearray", "memoryview", "array.array"

// Compile-time modules a global name can refer to. Python: any other module (a user's
// `import helpers`, `numpy.linalg`), known by the global path it is reached through
// (Type::text: "helpers", "pkg.mod"); its attributes are globals of that path.
enum class ModuleId : uint8_t { Math, Cmath, Numpy, NumpyRandom, PyRandom, Mahou, Cuda, Python }; // PyRandom: `random`

// Builtin exception classes a compiled function can raise (from exceptions.def); values
// from kFirstUserExc on are user-defined classes (the binding's registry, keyed by a hash
// of the class's module and qualified name, so a class has the same value in every process).
enum class ExcKind : uint32_t {
#define MAHOU_EXCEPTION(name) name,
#include "mahou/exceptions.def"
#undef MAHOU_EXCEPTION
};
constexpr uint32_t kFirstUserExc = 256;
inline bool isUserExc(ExcKind k) { return uint32_t(k) >= kFirstUserExc; }
const char *excName(ExcKind k); // a builtin's name; "user exception" for a user class

enum class Kind : uint8_t {
  Unknown,   // not yet inferred (during the fixpoint); never reaches codegen
  None,      // the None value / no return value
  Scalar,    // bool, ints, floats, complex
  Array,     // ndarray of `dtype`, `ndim` dims, `layout`
  Tuple,     // heterogeneous tuple of `elems`
  Str,       // a string literal known at compile time (`str`)
  Module,    // math, numpy, ... (`module`)
  Function,  // another compiled function: `handle` identifies its dispatcher
  DTypeObj,  // a dtype as a value: np.float32, dtype=np.int64 (`dtype`)
  ExcClass,  // a builtin exception class: ValueError (`exc`)
  Range,     // range(start, stop, step) of int64
  Namespace, // a compile-time object of the cuda module: threadIdx, shared, atomic, ... (`text`)
  // Reference-counted heap objects (runtime/objects.h). Item types are in `elems`; an
  // item type may be Unknown while inference has not seen the item yet (`l = []`).
  List,     // list of elems[0]; `typed`: a mahou.typed.List (boxed as one, not as a Python list)
  Dict,     // dict of elems[0] -> elems[1] (boxed as mahou.typed.Dict, as Numba does)
  Set,      // set of elems[0]
  Unicode,  // a string known only at run time (str arguments, concatenations, ...)
  Optional, // elems[0] or None
  CPointer,  // a C pointer (@cfunc arguments): to elems[0] (a scalar), or void when elems is empty
  // @jitclass (mahou.experimental.jitclass): `handle` identifies the class (its entry in
  // the class registry the compile environment reaches, CompileEnvironment::jitClass),
  // `text` is its name. An instance is one reference-counted object whose payload holds
  // the fields; the class itself is a compile-time value (calling it constructs).
  Instance,
  ClassRef,
  // A generator made by calling a compiled function that contains `yield`: one
  // reference-counted object (runtime/generators.cpp) holding the suspended function;
  // elems[0] is the type of the values it yields.
  Generator,
  // A np.random.Generator argument (random_generator.h): its bit generator's bitgen_t and
  // the Python object (borrowed: the caller's argument keeps both alive for the call).
  NumPyRandomGenerator,
  // A NumPy structured scalar (np.void): `fields` the field names, `elems` their types,
  // `offsets` their byte offsets, `itemsize` the record's size, `aligned` NumPy's
  // isalignedstruct. A value is a pointer to the record's bytes (a view: writes reach
  // the array it came from). An array of records is an Array whose elems[0] is the Record.
  Record,
  // A member of an enum.Enum / enum.IntEnum class (Numba's EnumMember): `handle` the
  // class, `text` its name, elems[0] the type of its values (int64 or float64, the
  // representation), `fields` and `offsets` its members' names and values (a float's
  // bits), `typed` an IntEnum (a number too). Functions that hold one are not cached.
  EnumMember,
  // A NumPy fixed-width character sequence (Numba's CharSeq / UnicodeCharSeq): the item
  // of an `S<n>` or `U<n>` array or a field of such a type in a record. `dtype` is the
  // code unit (uint8 for S, uint32 for U: NumPy stores UCS4), `itemsize` the width in
  // bytes (n code units). A value is a pointer to its bytes, read into a str at once
  // (sema/charseq.cpp); an array of them is an Array whose elems[0] is the CharSeq.
  CharSeq,
};

// The ival of a dtype constant (Kind::DTypeObj): where it came from, which `is` needs
// (`a.dtype is np.float64` is False in Python, `a.dtype == np.float64` True).
constexpr int64_t kDTypeUnknownOrigin = 0; // a global, an argument, a variable: class or dtype
constexpr int64_t kDTypeClass = 1;         // np.float64: the scalar class
constexpr int64_t kDTypeValue = 2;         // a.dtype, np.dtype(...): an np.dtype

struct Type {
  Kind kind = Kind::Unknown;
  DType dtype = DType::Int64; // Scalar, Array, DTypeObj
  int ndim = 0;               // Array
  Layout layout = Layout::A;  // Array
  bool readonly = false;      // Array
  BufferKind buffer = BufferKind::None; // Array: a buffer object's memory (not an ndarray)
  bool typed = false;         // List: a typed.List; Set: a typed.Set
  std::vector<Type> elems;    // Tuple
  uint64_t handle = 0;        // Function, Instance, ClassRef; Tuple: a namedtuple's class (0: a plain
                              // tuple; kSliceClass: a slice), or with `closureTuple` the inner function
  bool closureTuple = false;  // Tuple: the captured values of an inner function used as a value
  std::vector<std::string> fields; // Tuple: a namedtuple's field names (`text`: its class name)
  ModuleId module{};          // Module
  ExcKind exc{};              // ExcClass
  std::string text;           // Str: the literal's value; Function: the function's name; Module: its global path
  std::vector<int64_t> offsets; // Record: each field's byte offset
  int64_t itemsize = 0;         // Record: its size in bytes
  bool aligned = false;         // Record: NumPy's align=True (`readonly`: from a read-only array)

  static Type unknown() { return Type{}; }
  static Type none();
  static Type scalar(DType d);
  static Type boolean() { return scalar(DType::Bool); }
  static Type int64() { return scalar(DType::Int64); }
  static Type float64() { return scalar(DType::Float64); }
  static Type array(DType d, int ndim, Layout layout, bool readonly = false);
  static Type tuple(std::vector<Type> elems);
  // An inner function used as a value: a tuple of the values it captured, whose
  // `handle` (never 0) names the function in the module being compiled and `text` is
  // its name (sema/closures.cpp). Not a Python tuple: it never leaves compiled code.
  static Type closure(uint64_t id, std::string name, std::vector<Type> captured);
  // A collections.namedtuple / typing.NamedTuple value: a tuple that remembers its class
  // (a handle the binding keeps alive), the class's name and its field names.
  static Type namedTuple(std::vector<Type> elems, uint64_t cls, std::string name, std::vector<std::string> fields);
  static Type enumMember(Type value, uint64_t cls, std::string name, std::vector<std::string> names,
                         std::vector<int64_t> values, bool intEnum);
  static Type str_(std::string value);
  static Type moduleRef(ModuleId m);
  static Type function(uint64_t handle, std::string name);
  static Type dtypeObj(DType d);
  static Type excClass(ExcKind e);
  static Type range();
  static Type namespaceObj(std::string path);
  static Type list(Type item, bool typed = false);
  static Type dict(Type key, Type value);
  static Type set(Type item, bool typedSet = false);
  static Type unicode();
  static Type instance(uint64_t classHandle, std::string className);
  static Type classRef(uint64_t classHandle, std::string className);
  // Optional(t); none stays none and an optional stays as it is.
  static Type optional(Type t);
  static Type cpointer(std::optional<DType> pointee); // nullopt: voidptr
  static Type generator(Type yieldType);
  static Type numpyRandomGenerator();
  static Type record(std::vector<std::string> names, std::vector<Type> fieldTypes, std::vector<int64_t> offsets,
                     int64_t itemsize, bool aligned);
  // A fixed-width `S<count>` (unicode false) or `U<count>` (unicode true) item.
  static Type charSeq(bool unicode, int64_t count);
  // An array of records or of character sequences: Kind::Array (dtype unused, uint8)
  // whose elems[0] is the record or the CharSeq.
  static Type recordArray(Type record, int ndim, Layout layout, bool readonly = false);

  bool isUnknown() const { return kind == Kind::Unknown; }
  bool isScalar() const { return kind == Kind::Scalar; }
  bool isScalar(DType d) const { return kind == Kind::Scalar && dtype == d; }
  bool isBool() const { return isScalar(DType::Bool); }
  bool isInt() const { return kind == Kind::Scalar && isInteger(dtype); }
  bool isFloat() const { return kind == Kind::Scalar && types::isFloat(dtype); }
  bool isComplex() const { return kind == Kind::Scalar && types::isComplex(dtype); }
  bool isNumber() const { return kind == Kind::Scalar && !types::isDatetimeLike(dtype); }
  bool isDatetimeLike() const { return kind == Kind::Scalar && types::isDatetimeLike(dtype); }
  bool isDatetime() const { return kind == Kind::Scalar && types::isDatetime(dtype); }
  bool isTimedelta() const { return kind == Kind::Scalar && types::isTimedelta(dtype); }
  bool isArray() const { return kind == Kind::Array; }
  bool isBuffer() const { return kind == Kind::Array && buffer != BufferKind::None; }
  bool containsBuffer() const; // a buffer, or a tuple, list, ... holding one
  bool isTuple() const { return kind == Kind::Tuple; }
  bool isClosure() const { return kind == Kind::Tuple && closureTuple; }
  bool containsClosure() const; // a closure, or a tuple, list, ... holding one
  bool isNamedTuple() const { return kind == Kind::Tuple && handle != 0 && !closureTuple; }
  // The index of a namedtuple's field, or -1.
  int fieldIndex(const std::string &name) const;
  bool isNone() const { return kind == Kind::None; }
  bool isList() const { return kind == Kind::List; }
  bool isDict() const { return kind == Kind::Dict; }
  bool isSet() const { return kind == Kind::Set; }
  bool isUnicode() const { return kind == Kind::Unicode; }
  bool isOptional() const { return kind == Kind::Optional; }
  bool isInstance() const { return kind == Kind::Instance; }
  bool isEnumMember() const { return kind == Kind::EnumMember; }
  bool isGenerator() const { return kind == Kind::Generator; }
  bool isRandomGenerator() const { return kind == Kind::NumPyRandomGenerator; }
  bool isRecord() const { return kind == Kind::Record; }
  // An array of records or of character sequences (its items are elems[0], not a dtype).
  bool isRecordArray() const { return kind == Kind::Array && !elems.empty(); }
  bool isCharSeq() const { return kind == Kind::CharSeq; }
  bool isUnicodeCharSeq() const { return kind == Kind::CharSeq && dtype == DType::UInt32; }
  bool isCharSeqArray() const { return isRecordArray() && elems[0].isCharSeq(); }
  int64_t charCount() const { return itemsize / dtypeBytes(dtype); } // CharSeq: its width in code units
  // A string: a literal known at compile time (Str) or a runtime one (Unicode).
  bool isString() const { return kind == Kind::Str || kind == Kind::Unicode; }
  // A heap object behind one MahouMemInfo pointer (list, dict, set, string, jitclass instance).
  bool isObject() const {
    return kind == Kind::List || kind == Kind::Dict || kind == Kind::Set || kind == Kind::Unicode ||
           kind == Kind::Instance || kind == Kind::Generator;
  }
  // True when a value of the type holds references somewhere inside (arrays, objects,
  // tuples and optionals of them): codegen counts them.
  bool hasRefs() const;
  bool isPointer() const { return kind == Kind::CPointer; }
  // Tuple whose elements all have one type (Numba's UniTuple).
  bool isHomogeneousTuple() const;
  // Contains Unknown anywhere (also a container whose item type is not known yet).
  bool containsUnknown() const;
  // A container made empty whose item type later uses must give (list(unknown), ...).
  bool isPartialContainer() const;

  bool operator==(const Type &o) const;
  bool operator!=(const Type &o) const { return !(*this == o); }

  // Numba-style spelling: "float64", "array(float64, 2d, C)", "UniTuple(int64 x 2)",
  // "Tuple(int64, float32)", "none", "str", "module(math)", "function(f)", "dtype(float32)".
  std::string str() const;
};

// The type both a and b can be converted to when they meet at a merge point
// (int64 ∪ float64 = float64, array C ∪ array A = array A, tuples elementwise,
// none ∪ T = Optional(T), two string literals = unicode, list(unknown) ∪ list(T) =
// list(T)), or nullopt when they cannot unify. Unknown unifies with anything.
std::optional<Type> unify(const Type &a, const Type &b);

// Parses the type syntax users write in signatures and mahouc's --args:
//   float64  int32  bool  complex128  none
//   float64[:]  float32[:, :]  float64[::1] (C)  float64[::1, :] (F)  float64[:, ::1] (C)
//   UniTuple(int64, 3)   Tuple(int64, float64)   (int64, float64)
// Also aliases: int_ → int64, float_ → float64, intp → int64, b1 → bool, i8, f8, f4, c16 ...
// Returns nullopt and sets *error on a syntax error.
std::optional<Type> parseType(const std::string &text, std::string *error);
// "float64(float64[:], int64)" → return type + argument types. Return may be omitted:
// "(float64[:], int64)".
struct Signature {
  std::optional<Type> ret;
  std::vector<Type> args;
};
std::optional<Signature> parseSignature(const std::string &text, std::string *error);

} // namespace mahou::types
