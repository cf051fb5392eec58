// Typing of Python arguments: the compact per-call key (hit path), the full
// core type (miss path) and the conversion of core types to mahou.types objects.
#include "mahou/bound_method_type.h"
#include "binding.h"
#include "numpy_api.h"
#include "objects_binding.h"

#include "mahou/literal_dict_type.h"
#include "mahou/literal_list_type.h"
#include "mahou/range_type.h"

#include <bit>
#include "mahou/slice_type.h"

namespace nb = nanobind;

namespace mahou::binding {

using types::DType;
using types::Layout;
using types::Type;

namespace {

enum class KeyTag : uint64_t {
  Scalar = 1, Array = 2, Tuple = 3, None = 4, Function = 5, Other = 6,
  List = 7,    // payload 1 for a typed.List; the item's key follows
  Unicode = 8,
  Dict = 9,    // the key's and the value's keys follow
  Optional = 10,
  Set = 11,
  Instance = 12, // a jitclass instance: its class handle follows
  NamedTuple = 13, // a namedtuple: its class handle follows, then the tuple's key
  Slice = 14,      // a slice object: payload the mask of its None bounds
  Range = 15,      // a range object
  RandomGenerator = 16, // a numpy.random.Generator
  Record = 17,     // an np.void record: its layout's number follows
  RecordArray = 18, // an array of records: payload as an array's; its layout's number follows
  DType = 19,       // a dtype (np.float32, np.dtype('i4'), numba.float64, float): payload its DType; a
                    // structured dtype has payload 0xff and its record layout's number follows
  EnumMember = 20,  // a member of an enum class: the class follows
  Buffer = 21,      // a bytes, bytearray, memoryview or array.array: payload its BufferKind; its array word follows
};

constexpr uint64_t tagged(KeyTag tag, uint64_t payload) { return uint64_t(tag) << 56 | payload; }
constexpr uint64_t scalarWord(DType d) { return tagged(KeyTag::Scalar, uint64_t(d)); }
constexpr uint64_t arrayWord(DType d, int ndim, Layout layout, bool readonly) {
  return tagged(KeyTag::Array, uint64_t(d) << 40 | uint64_t(ndim) << 8 | uint64_t(layout) << 1 |
                                   uint64_t(readonly));
}
constexpr uint64_t tupleWord(size_t n) { return tagged(KeyTag::Tuple, n); }

// NumPy type number → DType (-1: not supported). LONGLONG/ULONGLONG alias int64/uint64.
constexpr int kMaxTypeNum = 32;
struct TypeNumTable {
  int8_t dtype[kMaxTypeNum];
  constexpr TypeNumTable() : dtype{} {
    for (auto &d : dtype)
      d = -1;
#define MAHOU_DTYPE(Enum, name, numpyNum, bytes, cls) dtype[numpyNum] = int8_t(DType::Enum);
#include "mahou/dtypes.def"
#undef MAHOU_DTYPE
    dtype[NPY_LONGLONG] = int8_t(DType::Int64);
    dtype[NPY_ULONGLONG] = int8_t(DType::UInt64);
  }
};
constexpr TypeNumTable kTypeNums;

int dtypeOfTypeNum(int num) { return num >= 0 && num < kMaxTypeNum ? kTypeNums.dtype[num] : -1; }


Layout layoutOf(PyArrayObject *a) {
  int flags = PyArray_FLAGS(a);
  if (flags & NPY_ARRAY_C_CONTIGUOUS)
    return Layout::C;
  if (flags & NPY_ARRAY_F_CONTIGUOUS)
    return Layout::F;
  return Layout::A;
}

// dtype of a native-byte-order array, or -1.
int arrayDType(PyArrayObject *a) {
  PyArray_Descr *descr = PyArray_DESCR(a);
  if (PyArray_ISBYTESWAPPED(a))
    return -1;
  return dtypeOfDescrNum(descr);
}

} // namespace

// The DType of a native-byte-order descriptor, or -1: datetime64 / timedelta64 read their
// unit from the descriptor (a multiple of a unit, M8[5s], is not supported).
int dtypeOfDescrNum(PyArray_Descr *descr) {
  int num = descr->type_num;
  if (num != NPY_DATETIME && num != NPY_TIMEDELTA)
    return dtypeOfTypeNum(num);
  auto *meta = reinterpret_cast<PyArray_DatetimeDTypeMetaData *>(PyDataType_C_METADATA(descr));
  if (!meta || meta->meta.num != 1)
    return -1;
  auto d = types::datetimeDType(num == NPY_TIMEDELTA, int(meta->meta.base));
  return d ? int(*d) : -1;
}

// The type number of an exact fixed-size NumPy scalar type (np.float64, np.int32, ...),
// read from the type object alone (always native byte order); -1 for any other type
// (datetime64 with its unit, records, subclasses: PyArray_DescrFromScalar decides).
namespace {
int typeNumOfScalarType(PyTypeObject *t) {
  if (t == &PyDoubleArrType_Type) return NPY_DOUBLE;
  if (t == &PyLongArrType_Type) return NPY_LONG;
  if (t == &PyLongLongArrType_Type) return NPY_LONGLONG;
  if (t == &PyFloatArrType_Type) return NPY_FLOAT;
  if (t == &PyIntArrType_Type) return NPY_INT;
  if (t == &PyBoolArrType_Type) return NPY_BOOL;
  if (t == &PyCDoubleArrType_Type) return NPY_CDOUBLE;
  if (t == &PyCFloatArrType_Type) return NPY_CFLOAT;
  if (t == &PyULongArrType_Type) return NPY_ULONG;
  if (t == &PyULongLongArrType_Type) return NPY_ULONGLONG;
  if (t == &PyUIntArrType_Type) return NPY_UINT;
  if (t == &PyShortArrType_Type) return NPY_SHORT;
  if (t == &PyUShortArrType_Type) return NPY_USHORT;
  if (t == &PyByteArrType_Type) return NPY_BYTE;
  if (t == &PyUByteArrType_Type) return NPY_UBYTE;
  return -1;
}
} // namespace

int dtypeOfNumpyScalar(PyObject *obj) {
  if (int num = typeNumOfScalarType(Py_TYPE(obj)); num >= 0)
    return dtypeOfTypeNum(num); // no descr made and dropped
  PyArray_Descr *descr = PyArray_DescrFromScalar(obj);
  if (!descr) {
    PyErr_Clear();
    return -1;
  }
  int d = PyDataType_ISNOTSWAPPED(descr) ? dtypeOfDescrNum(descr) : -1;
  Py_DECREF(descr);
  return d;
}

namespace {

bool push(KeyBuffer &key, uint64_t word) {
  if (key.size >= kMaxKeyWords)
    return false;
  key.words[key.size++] = word;
  return true;
}

bool appendRecordArrayKey(PyArrayObject *a, KeyBuffer &key) {
  auto rec = recordTypeOfDescr(PyArray_DESCR(a), nullptr);
  if (!rec)
    return false;
  bool readonly = !(PyArray_FLAGS(a) & NPY_ARRAY_WRITEABLE);
  uint64_t shape = uint64_t(PyArray_NDIM(a)) << 8 | uint64_t(layoutOf(a)) << 1 | uint64_t(readonly);
  return push(key, tagged(KeyTag::RecordArray, shape)) && push(key, recordLayoutId(*rec));
}

bool appendArrayKey(PyArrayObject *a, KeyBuffer &key) {
  if (isItemDescr(PyArray_DESCR(a)))
    return appendRecordArrayKey(a, key);
  int d = arrayDType(a);
  if (d < 0)
    return false;
  bool readonly = !(PyArray_FLAGS(a) & NPY_ARRAY_WRITEABLE);
  return push(key, arrayWord(DType(d), PyArray_NDIM(a), layoutOf(a), readonly));
}

bool appendTypeWords(const Type &t, KeyBuffer &key) {
  std::vector<uint64_t> words;
  appendTypeKey(t, words);
  for (uint64_t w : words)
    if (!push(key, w))
      return false;
  return true;
}

bool appendTupleKey(PyObject *tuple, KeyBuffer &key) {
  Py_ssize_t n = PyTuple_GET_SIZE(tuple);
  if (!push(key, tupleWord(size_t(n))))
    return false;
  for (Py_ssize_t i = 0; i < n; ++i)
    if (!appendObjectKey(PyTuple_GET_ITEM(tuple, i), key))
      return false;
  return true;
}

// Lists and tuples nested deeper than this (a list that contains itself among them)
// are refused instead of typed by an unbounded recursion.
constexpr int kMaxNesting = 256;
const char *const kTooDeep = "a list or tuple nested more than 256 levels deep (or a list that contains itself)";
thread_local int nestingDepth = 0;

struct NestingLevel {
  NestingLevel() { ++nestingDepth; }
  ~NestingLevel() { --nestingDepth; }
  bool tooDeep(std::string *why) const {
    if (nestingDepth <= kMaxNesting)
      return false;
    if (why)
      *why = kTooDeep;
    return true;
  }
};

// "list of X" for an item's reason, except the nesting limit's own.
void prefixReason(std::string *why, const char *prefix) {
  if (why && *why != kTooDeep)
    *why = prefix + *why;
}

std::optional<Type> typeOfTuple(PyObject *obj, std::string *why) {
  NestingLevel level;
  if (level.tooDeep(why))
    return std::nullopt;
  std::vector<Type> elems;
  Py_ssize_t n = PyTuple_GET_SIZE(obj);
  for (Py_ssize_t i = 0; i < n; ++i) {
    auto t = typeOfObject(PyTuple_GET_ITEM(obj, i), why);
    if (!t) {
      prefixReason(why, "tuple containing ");
      return std::nullopt;
    }
    elems.push_back(std::move(*t));
  }
  if (Py_TYPE(obj) != &PyTuple_Type)
    if (auto named = namedTupleClass(reinterpret_cast<PyObject *>(Py_TYPE(obj)), n)) {
      named->elems = std::move(elems);
      return named;
    }
  return Type::tuple(std::move(elems));
}

std::optional<Type> typeOfArray(PyArrayObject *a, std::string *why) {
  if (isItemDescr(PyArray_DESCR(a))) {
    auto rec = recordTypeOfDescr(PyArray_DESCR(a), why);
    if (!rec)
      return std::nullopt;
    return Type::recordArray(*rec, PyArray_NDIM(a), layoutOf(a), !(PyArray_FLAGS(a) & NPY_ARRAY_WRITEABLE));
  }
  int d = arrayDType(a);
  if (d < 0) {
    if (why) {
      nb::str descr = nb::str(nb::handle(reinterpret_cast<PyObject *>(PyArray_DESCR(a))));
      *why = std::string("array(") + descr.c_str() + ")";
    }
    return std::nullopt;
  }
  bool readonly = !(PyArray_FLAGS(a) & NPY_ARRAY_WRITEABLE);
  return Type::array(DType(d), PyArray_NDIM(a), layoutOf(a), readonly);
}

// mahou.types, imported once and kept (a cache of a Python module object).
PyObject *typesModule() {
  static PyObject *mod = nullptr;
  if (!mod)
    mod = PyImport_ImportModule("mahou.types");
  return mod;
}

PyObject *callTypes(const char *fn, nb::handle args) {
  PyObject *mod = typesModule();
  if (!mod)
    return nullptr;
  nb::object f = nb::steal(PyObject_GetAttrString(mod, fn));
  if (!f.is_valid())
    return nullptr;
  return PyObject_CallObject(f.ptr(), args.ptr());
}

const char *layoutName(Layout l) { return l == Layout::C ? "C" : l == Layout::F ? "F" : "A"; }

} // namespace

uint64_t arrayKeyWord(PyObject *obj) {
  auto *a = reinterpret_cast<PyArrayObject *>(obj);
  int d = arrayDType(a);
  if (d < 0)
    return 0;
  bool readonly = !(PyArray_FLAGS(a) & NPY_ARRAY_WRITEABLE);
  return arrayWord(DType(d), PyArray_NDIM(a), layoutOf(a), readonly);
}

bool arrayFitsType(PyObject *obj, const Type &t) {
  if (!PyArray_Check(obj) || !t.isArray())
    return false;
  auto *a = reinterpret_cast<PyArrayObject *>(obj);
  int flags = PyArray_FLAGS(a);
  if (PyArray_NDIM(a) != t.ndim || (!t.readonly && !(flags & NPY_ARRAY_WRITEABLE)))
    return false;
  if ((t.layout == Layout::C && !(flags & NPY_ARRAY_C_CONTIGUOUS)) ||
      (t.layout == Layout::F && !(flags & NPY_ARRAY_F_CONTIGUOUS)))
    return false;
  if (t.isRecordArray() || isItemDescr(PyArray_DESCR(a))) {
    if (!t.isRecordArray() || !isItemDescr(PyArray_DESCR(a)))
      return false;
    auto rec = recordTypeOfDescr(PyArray_DESCR(a), nullptr);
    return rec && *rec == t.elems[0];
  }
  return arrayDType(a) == int(t.dtype);
}

const uint64_t kInt64Key = scalarWord(DType::Int64);
const uint64_t kFloat64Key = scalarWord(DType::Float64);

// The type of a dtype given as an argument (np.float32, np.dtype('int32'), a structured
// np.dtype, or one of float, int, bool, complex): a DTypeObj (a structured one holds its
// record in elems); nullopt for anything else.
static std::optional<Type> typeOfDTypeObject(PyObject *obj, std::string *why) {
  PyArray_Descr *descr = nullptr;
  if (PyArray_DescrCheck(obj)) {
    descr = reinterpret_cast<PyArray_Descr *>(obj);
    Py_INCREF(descr);
  } else if (PyType_Check(obj)) {
    auto *tp = reinterpret_cast<PyTypeObject *>(obj);
    bool builtin = tp == &PyFloat_Type || tp == &PyLong_Type || tp == &PyBool_Type || tp == &PyComplex_Type;
    if (!builtin && !PyType_IsSubtype(tp, &PyGenericArrType_Type))
      return std::nullopt;
    descr = PyArray_DescrFromTypeObject(obj);
    if (!descr) {
      PyErr_Clear();
      return std::nullopt;
    }
  } else {
    return std::nullopt;
  }
  std::optional<Type> out;
  if (isItemDescr(descr)) { // a structured dtype, or an S<n>/U<n> one: its record or CharSeq in elems
    if (auto rec = recordTypeOfDescr(descr, why)) {
      Type t = Type::dtypeObj(DType::UInt8);
      t.elems.push_back(*rec);
      out = t;
    }
  } else if (PyDataType_ISNOTSWAPPED(descr)) {
    int d = dtypeOfDescrNum(descr);
    if (d >= 0) out = Type::dtypeObj(DType(d));
  }
  Py_DECREF(descr);
  if (!out && why && why->empty())
    *why = "a dtype mahou does not support";
  return out;
}

bool appendObjectKey(PyObject *obj, KeyBuffer &key) {
  PyTypeObject *t = Py_TYPE(obj);
  if (t == &PyLong_Type)
    return push(key, scalarWord(DType::Int64));
  if (t == &PyFloat_Type)
    return push(key, scalarWord(DType::Float64));
  if (t == &PyArray_Type)
    return appendArrayKey(reinterpret_cast<PyArrayObject *>(obj), key);
  if (int num = typeNumOfScalarType(t); num >= 0) { // np.float64, np.int32, ... (exact types)
    int d = dtypeOfTypeNum(num);
    return d >= 0 && push(key, scalarWord(DType(d)));
  }
  if (t == &PyBool_Type)
    return push(key, scalarWord(DType::Bool));
  if (t == &PyComplex_Type)
    return push(key, scalarWord(DType::Complex128));
  if (obj == Py_None)
    return push(key, tagged(KeyTag::None, 0));
  if (t == &PyTuple_Type)
    return appendTupleKey(obj, key);
  if (t == &PyRange_Type)
    return push(key, tagged(KeyTag::Range, 0));
  if (t == &PySlice_Type) {
    int mask = sliceKeyMask(obj);
    return mask >= 0 && push(key, tagged(KeyTag::Slice, uint64_t(mask)));
  }
  if (PyTuple_Check(obj)) { // a namedtuple: its class is part of the key; another subclass is a tuple
    if (namedTupleClass(reinterpret_cast<PyObject *>(t), PyTuple_GET_SIZE(obj)) &&
        !(push(key, tagged(KeyTag::NamedTuple, 0)) && push(key, uint64_t(reinterpret_cast<uintptr_t>(t)))))
      return false;
    return appendTupleKey(obj, key);
  }
  if (t == &PyUnicode_Type)
    return push(key, tagged(KeyTag::Unicode, 0));
  if (t == &PyList_Type) // as Numba: the first item gives the item type (unboxing checks the rest)
    return PyList_GET_SIZE(obj) > 0 && push(key, tagged(KeyTag::List, 0)) &&
           appendObjectKey(PyList_GET_ITEM(obj, 0), key);
  if (isTypedList(obj) || isTypedDict(obj) || isTypedSet(obj)) {
    auto ct = isTypedList(obj) ? typedListType(obj) : isTypedDict(obj) ? typedDictType(obj) : typedSetType(obj);
    return ct && appendTypeWords(*ct, key);
  }
  if (isJitInstance(obj))
    return push(key, tagged(KeyTag::Instance, 0)) && push(key, jitClassHandle(reinterpret_cast<PyObject *>(t)));
  if (t == dispatcherType())
    return push(key, tagged(KeyTag::Function, 0)) &&
           push(key, uint64_t(reinterpret_cast<uintptr_t>(obj)));
  if (PyArray_IsScalar(obj, Void)) {
    uint64_t id = recordLayoutIdOfVoid(obj);
    return id && push(key, tagged(KeyTag::Record, 0)) && push(key, id);
  }
  if (PyArray_IsScalar(obj, Generic)) {
    int d = dtypeOfNumpyScalar(obj);
    return d >= 0 && push(key, scalarWord(DType(d)));
  }
  if (isNumpyRandomGenerator(obj))
    return push(key, tagged(KeyTag::RandomGenerator, 0));
  if (types::BufferKind b = bufferKindOf(obj); b != types::BufferKind::None) {
    auto bt = typeOfBuffer(obj, nullptr);
    return bt && push(key, tagged(KeyTag::Buffer, uint64_t(b))) &&
           push(key, arrayWord(bt->dtype, bt->ndim, bt->layout, bt->readonly));
  }
  if (PyArray_DescrCheck(obj) || PyType_Check(obj)) {
    auto dt = typeOfDTypeObject(obj, nullptr);
    if (!dt)
      return false;
    if (dt->elems.empty())
      return push(key, tagged(KeyTag::DType, uint64_t(dt->dtype)));
    return push(key, tagged(KeyTag::DType, 0xff)) && push(key, recordLayoutId(dt->elems[0]));
  }
  return false;
}

void appendTypeKey(const Type &t, std::vector<uint64_t> &key) {
  switch (t.kind) {
  case types::Kind::Scalar:
    key.push_back(scalarWord(t.dtype));
    return;
  case types::Kind::Array:
    if (t.isRecordArray()) { // as appendRecordArrayKey
      key.push_back(tagged(KeyTag::RecordArray, uint64_t(t.ndim) << 8 | uint64_t(t.layout) << 1 | uint64_t(t.readonly)));
      key.push_back(recordLayoutId(t.elems[0]));
      return;
    }
    if (t.isBuffer()) // as appendObjectKey
      key.push_back(tagged(KeyTag::Buffer, uint64_t(t.buffer)));
    key.push_back(arrayWord(t.dtype, t.ndim, t.layout, t.readonly));
    return;
  case types::Kind::Record:
    key.push_back(tagged(KeyTag::Record, 0));
    key.push_back(recordLayoutId(t));
    return;
  case types::Kind::Tuple:
    if (types::isRange(t)) {
      key.push_back(tagged(KeyTag::Range, 0));
      return;
    }
    if (types::isSlice(t)) { // as appendObjectKey: the mask of the None bounds
      uint64_t mask = 0;
      for (int i = 0; i < 3; ++i)
        if (t.elems[size_t(i)].isNone()) mask |= uint64_t(1) << i;
      key.push_back(tagged(KeyTag::Slice, mask));
      return;
    }
    if (types::isBoundMethod(t)) { // the method's qualified name (FNV-1a), then the instance
      uint64_t h = 0xcbf29ce484222325ull;
      for (unsigned char ch : t.text) h = (h ^ ch) * 0x100000001b3ull;
      key.push_back(tagged(KeyTag::NamedTuple, 0));
      key.push_back(types::kBoundMethodClass);
      key.push_back(h);
    } else if (t.handle) {
      key.push_back(tagged(KeyTag::NamedTuple, 0));
      key.push_back(t.handle);
    }
    key.push_back(tupleWord(t.elems.size()));
    for (const Type &e : t.elems)
      appendTypeKey(e, key);
    return;
  case types::Kind::None:
    key.push_back(tagged(KeyTag::None, 0));
    return;
  case types::Kind::Function:
    key.push_back(tagged(KeyTag::Function, 0));
    key.push_back(t.handle);
    return;
  case types::Kind::List:
    key.push_back(tagged(KeyTag::List, t.typed ? 1 : 0));
    appendTypeKey(t.elems[0], key);
    return;
  case types::Kind::Unicode:
    key.push_back(tagged(KeyTag::Unicode, 0));
    return;
  case types::Kind::Dict:
    key.push_back(tagged(KeyTag::Dict, 0));
    appendTypeKey(t.elems[0], key);
    appendTypeKey(t.elems[1], key);
    return;
  case types::Kind::Set:
    key.push_back(tagged(KeyTag::Set, t.typed ? 1 : 0));
    appendTypeKey(t.elems[0], key);
    return;
  case types::Kind::Optional:
    key.push_back(tagged(KeyTag::Optional, 0));
    appendTypeKey(t.elems[0], key);
    return;
  case types::Kind::Instance:
    key.push_back(tagged(KeyTag::Instance, 0));
    key.push_back(t.handle);
    return;
  case types::Kind::NumPyRandomGenerator:
    key.push_back(tagged(KeyTag::RandomGenerator, 0));
    return;
  case types::Kind::DTypeObj: // as appendObjectKey
    if (t.elems.empty()) {
      key.push_back(tagged(KeyTag::DType, uint64_t(t.dtype)));
    } else {
      key.push_back(tagged(KeyTag::DType, 0xff));
      key.push_back(recordLayoutId(t.elems[0]));
    }
    return;
  case types::Kind::EnumMember:
    key.push_back(tagged(KeyTag::EnumMember, 0));
    key.push_back(t.handle);
    return;
  default:
    // Compile-time-only kinds never come from an argument object.
    key.push_back(tagged(KeyTag::Other, uint64_t(t.kind)));
    return;
  }
}

// A dtype given as a value (Numba's DType and NumberClass: np.dtype('float64'), the
// np.float64 class, numba.float64): its DType, or -1.
int dtypeOfTypeValue(PyObject *obj) {
  if (PyArray_DescrCheck(obj)) {
    auto *descr = reinterpret_cast<PyArray_Descr *>(obj);
    return PyDataType_ISNOTSWAPPED(descr) && !PyDataType_HASFIELDS(descr) ? dtypeOfDescrNum(descr) : -1;
  }
  if (PyType_Check(obj) && PyType_IsSubtype(reinterpret_cast<PyTypeObject *>(obj), &PyGenericArrType_Type)) {
    PyArray_Descr *descr = PyArray_DescrFromTypeObject(obj);
    if (!descr) {
      PyErr_Clear();
      return -1;
    }
    int d = dtypeOfDescrNum(descr);
    Py_DECREF(descr);
    return d;
  }
  PyObject *mod = typesModule(); // mahou.types.float64 & co (Scalar instances)
  nb::object scalarClass = mod ? nb::steal(PyObject_GetAttrString(mod, "Scalar")) : nb::object();
  if (!scalarClass.is_valid()) {
    PyErr_Clear();
    return -1;
  }
  if (PyObject_IsInstance(obj, scalarClass.ptr()) != 1) {
    PyErr_Clear();
    return -1;
  }
  nb::object name = nb::steal(PyObject_GetAttrString(obj, "name"));
  if (!name.is_valid() || !PyUnicode_Check(name.ptr())) {
    PyErr_Clear();
    return -1;
  }
  auto d = types::dtypeFromName(PyUnicode_AsUTF8(name.ptr()));
  return d ? int(*d) : -1;
}

// The type of a member of an enum.Enum / IntEnum class (mahou._resolver.enum_parts
// describes its class), or nullopt (`why` set when it is a member of an enum whose values
// compiled code cannot hold).
bool isEnumInstance(PyObject *obj) {
  static PyObject *enumBase = nullptr;
  if (!enumBase) {
    nb::object mod = nb::steal(PyImport_ImportModule("enum"));
    enumBase = mod.is_valid() ? PyObject_GetAttrString(mod.ptr(), "Enum") : nullptr;
    if (!enumBase) {
      PyErr_Clear();
      return false;
    }
  }
  int r = PyObject_IsInstance(obj, enumBase);
  if (r < 0)
    PyErr_Clear();
  return r == 1;
}

std::optional<Type> enumMemberType(PyObject *obj, std::string *why) {
  nb::object parts = nb::steal(PyObject_CallMethod(nb::module_::import_("mahou._resolver").ptr(), "enum_parts", "O", obj));
  if (!parts.is_valid()) {
    PyErr_Clear();
    if (why)
      *why = "an enum member whose class cannot be read";
    return std::nullopt;
  }
  if (nb::isinstance<nb::str>(parts)) {
    if (why)
      *why = nb::cast<std::string>(parts);
    return std::nullopt;
  }
  return enumTypeOfParts(nb::cast<nb::tuple>(parts));
}

Type enumTypeOfParts(nb::tuple parts) { // (cls, qualname, names, values, index, is_int, is_float)
  std::vector<std::string> names;
  std::vector<int64_t> values;
  bool isFloat = nb::cast<bool>(parts[6]);
  for (nb::handle n : nb::cast<nb::list>(parts[2]))
    names.push_back(nb::cast<std::string>(n));
  for (nb::handle v : nb::cast<nb::list>(parts[3]))
    values.push_back(isFloat ? std::bit_cast<int64_t>(nb::cast<double>(v)) : nb::cast<int64_t>(v));
  return Type::enumMember(isFloat ? Type::float64() : Type::int64(), uint64_t(reinterpret_cast<uintptr_t>(parts[0].ptr())),
                          nb::cast<std::string>(parts[1]), std::move(names), std::move(values), nb::cast<bool>(parts[5]));
}

std::optional<Type> typeOfObject(PyObject *obj, std::string *why) {
  if (PyBool_Check(obj))
    return Type::boolean();
  if (PyArray_IsScalar(obj, Void))
    return recordTypeOfVoid(obj, why);
  if (PyArray_IsScalar(obj, Generic)) {
    int d = dtypeOfNumpyScalar(obj);
    if (d >= 0)
      return Type::scalar(DType(d));
  } else if (PyLong_Check(obj)) {
    return Type::int64();
  } else if (PyFloat_Check(obj)) {
    return Type::float64();
  } else if (PyComplex_Check(obj)) {
    return Type::scalar(DType::Complex128);
  } else if (obj == Py_None) {
    return Type::none();
  } else if (PyArray_Check(obj)) {
    return typeOfArray(reinterpret_cast<PyArrayObject *>(obj), why);
  } else if (PyTuple_Check(obj)) {
    return typeOfTuple(obj, why);
  } else if (PySlice_Check(obj)) {
    return typeOfSlice(obj, why);
  } else if (PyRange_Check(obj)) {
    return types::rangeType();
  } else if (PyUnicode_Check(obj)) {
    return Type::unicode();
  } else if (PyList_Check(obj)) {
    if (PyList_GET_SIZE(obj) == 0) {
      if (why)
        *why = "an empty list (its item type cannot be known; use mahou.typed.List.empty_list(item_type))";
      return std::nullopt;
    }
    NestingLevel level;
    if (level.tooDeep(why))
      return std::nullopt;
    auto item = typeOfObject(PyList_GET_ITEM(obj, 0), why);
    if (!item) {
      prefixReason(why, "list of ");
      return std::nullopt;
    }
    return Type::list(*item);
  } else if (PyAnySet_Check(obj)) {
    PyObject *it = PyObject_GetIter(obj);
    PyObject *first = it ? PyIter_Next(it) : nullptr;
    Py_XDECREF(it);
    if (!first) {
      PyErr_Clear();
      if (why)
        *why = "an empty set (its item type cannot be known)";
      return std::nullopt;
    }
    auto item = typeOfObject(first, why);
    Py_DECREF(first);
    if (!item)
      return std::nullopt;
    if (isBytesType(*item)) item->layout = Layout::A; // as compiled code keys bytes: any layout
    return Type::set(*item);
  } else if (isTypedList(obj) || isTypedDict(obj) || isTypedSet(obj)) {
    auto t = isTypedList(obj) ? typedListType(obj) : isTypedDict(obj) ? typedDictType(obj) : typedSetType(obj);
    if (!t && why)
      *why = "an empty typed container whose item type is not known yet";
    return t;
  } else if (isJitInstance(obj)) {
    return jitInstanceType(obj);
  } else if (isDispatcher(obj)) {
    auto *d = reinterpret_cast<DispatcherObject *>(obj);
    return Type::function(uint64_t(reinterpret_cast<uintptr_t>(obj)), d->state->name);
  } else if (isNumpyRandomGenerator(obj)) {
    return Type::numpyRandomGenerator();
  } else if (bufferKindOf(obj) != types::BufferKind::None) { // bytes, bytearray, memoryview, array.array
    return typeOfBuffer(obj, why);
  } else if (PyArray_DescrCheck(obj) || PyType_Check(obj)) { // a dtype: np.float32, a.dtype, float
    if (auto t = typeOfDTypeObject(obj, why))
      return t;
    if (why && !why->empty())
      return std::nullopt;
  } else if (isCompiledCallable(obj)) { // a @vectorize ufunc or a stencil
    nanobind::object name = nanobind::steal(PyObject_GetAttrString(obj, "__name__"));
    if (name.is_valid() && PyUnicode_Check(name.ptr()))
      return Type::function(uint64_t(reinterpret_cast<uintptr_t>(obj)), PyUnicode_AsUTF8(name.ptr()));
    PyErr_Clear();
  } else if (int d = dtypeOfTypeValue(obj); d >= 0) {
    return Type::dtypeObj(DType(d));
  } else if (isEnumInstance(obj)) {
    return enumMemberType(obj, why);
  }
  if (why)
    *why = Py_TYPE(obj)->tp_name;
  return std::nullopt;
}

std::string typeString(const Type &t) { return t.str(); }

PyObject *toPyType(const Type &t) {
  switch (t.kind) {
  case types::Kind::Scalar:
    return callTypes("_scalar", nb::make_tuple(types::dtypeName(t.dtype)));
  case types::Kind::Array: {
    if (t.isRecordArray() || t.isBuffer())
      return callTypes("_opaque", nb::make_tuple(typeString(t)));
    nb::object dtype = nb::steal(callTypes("_scalar", nb::make_tuple(types::dtypeName(t.dtype))));
    if (!dtype.is_valid())
      return nullptr;
    return callTypes("Array",
                     nb::make_tuple(dtype, t.ndim, layoutName(t.layout), bool(t.readonly)));
  }
  case types::Kind::Tuple: {
    nb::list items;
    for (const Type &e : t.elems) {
      nb::object item = nb::steal(toPyType(e));
      if (!item.is_valid())
        return nullptr;
      items.append(item);
    }
    if (types::isSlice(t) || types::isRange(t) || types::isBoundMethod(t) || types::isLiteralList(t) ||
        types::isLiteralDict(t))
      return callTypes("_opaque", nb::make_tuple(typeString(t)));
    if (t.handle) // a namedtuple: types.NamedTuple(items, its class)
      return callTypes("NamedTuple", nb::make_tuple(items, nb::handle(reinterpret_cast<PyObject *>(uintptr_t(t.handle)))));
    return callTypes("Tuple", nb::make_tuple(items));
  }
  case types::Kind::None:
    return callTypes("_scalar", nb::make_tuple("none"));
  case types::Kind::Str: // a string known at compile time
    return callTypes("StringLiteral", nb::make_tuple(nb::str(t.text.c_str(), t.text.size())));
  case types::Kind::Instance: // the class's instance type (a StructRef type for a structref)
    if (PyTypeObject *box = boxTypeOf(t))
      return callTypes("_instance", nb::make_tuple(nb::handle(reinterpret_cast<PyObject *>(box)), typeString(t)));
    return callTypes("_opaque", nb::make_tuple(typeString(t)));
  case types::Kind::Function:
    return callTypes("Dispatcher", nb::make_tuple(nb::handle(reinterpret_cast<PyObject *>(uintptr_t(t.handle)))));
  default:
    return callTypes("_opaque", nb::make_tuple(typeString(t)));
  }
}

PyObject *toPySignature(const std::vector<Type> &args) {
  PyObject *tuple = PyTuple_New(Py_ssize_t(args.size()));
  if (!tuple)
    return nullptr;
  for (size_t i = 0; i < args.size(); ++i) {
    PyObject *item = toPyType(args[i]);
    if (!item) {
      Py_DECREF(tuple);
      return nullptr;
    }
    PyTuple_SET_ITEM(tuple, Py_ssize_t(i), item);
  }
  return tuple;
}

} // namespace mahou::binding
