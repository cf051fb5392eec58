// Type constructors, predicates, printing and unification of the type lattice.
#include "mahou/types.h"
#include "mahou/literal_dict_type.h"
#include "mahou/literal_list_type.h"
#include "mahou/range_type.h"
#include "mahou/slice_type.h"

#include <cstdio>
#include <cstring>

namespace mahou::types {

namespace {
struct DTypeInfo {
  const char *name;
  int numpyNum;
  int bytes;
  DTypeClass cls;
  int unit = -1; // datetime64 / timedelta64: NumPy's NPY_DATETIMEUNIT
};
constexpr DTypeInfo kDTypes[] = {
#define MAHOU_DTYPE(Enum, name, numpyNum, bytes, cls) {name, numpyNum, bytes, DTypeClass::cls},
#include "mahou/dtypes.def"
#undef MAHOU_DTYPE
#define MAHOU_DATETIME_UNIT(Enum, code, npyUnit) {"datetime64[" code "]", 21, 8, DTypeClass::Datetime, npyUnit},
#include "mahou/datetime_units.def"
#undef MAHOU_DATETIME_UNIT
#define MAHOU_DATETIME_UNIT(Enum, code, npyUnit) {"timedelta64[" code "]", 22, 8, DTypeClass::Timedelta, npyUnit},
#include "mahou/datetime_units.def"
#undef MAHOU_DATETIME_UNIT
};
constexpr const char *kExcNames[] = {
#define MAHOU_EXCEPTION(name) #name,
#include "mahou/exceptions.def"
#undef MAHOU_EXCEPTION
};
const DTypeInfo &info(DType d) { return kDTypes[static_cast<int>(d)]; }
constexpr int kNumDTypes = sizeof(kDTypes) / sizeof(kDTypes[0]);

std::string hexHandle(uint64_t h) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(h));
  return buf;
}

const char *moduleName(ModuleId m) {
  switch (m) {
  case ModuleId::Math: return "math";
  case ModuleId::Cmath: return "cmath";
  case ModuleId::Numpy: return "numpy";
  case ModuleId::NumpyRandom: return "numpy.random";
  case ModuleId::PyRandom: return "random";
  case ModuleId::Mahou: return "mahou";
  case ModuleId::Cuda: return "mahou.cuda";
  case ModuleId::Python: return "python";
  }
  return "?";
}
} // namespace

const char *dtypeName(DType d) { return info(d).name; }
int dtypeBytes(DType d) { return info(d).bytes; }
int dtypeBits(DType d) { return d == DType::Bool ? 1 : info(d).bytes * 8; }
DTypeClass dtypeClass(DType d) { return info(d).cls; }

int kindRank(DType d) {
  switch (dtypeClass(d)) {
  case DTypeClass::Bool: return 0;
  case DTypeClass::SignedInt:
  case DTypeClass::UnsignedInt: return 1;
  case DTypeClass::Float: return 2;
  case DTypeClass::Complex: return 3;
  case DTypeClass::Datetime:
  case DTypeClass::Timedelta: return 4; // never promoted with numbers
  }
  return 0;
}
int dtypeNumpyNum(DType d) { return info(d).numpyNum; }
bool isInteger(DType d) {
  return info(d).cls == DTypeClass::SignedInt || info(d).cls == DTypeClass::UnsignedInt;
}
bool isSigned(DType d) { return info(d).cls == DTypeClass::SignedInt; }
bool isFloat(DType d) { return info(d).cls == DTypeClass::Float; }
bool isComplex(DType d) { return info(d).cls == DTypeClass::Complex; }
bool isDatetime(DType d) { return info(d).cls == DTypeClass::Datetime; }
bool isTimedelta(DType d) { return info(d).cls == DTypeClass::Timedelta; }
int datetimeUnit(DType d) { return info(d).unit; }
const char *datetimeUnitCode(int unit) {
#define MAHOU_DATETIME_UNIT(Enum, code, npyUnit) if (unit == npyUnit) return code;
#include "mahou/datetime_units.def"
#undef MAHOU_DATETIME_UNIT
  return "?";
}
std::optional<DType> datetimeDType(bool timedelta, int unit) {
  for (int i = 0; i < kNumDTypes; ++i)
    if (kDTypes[i].unit == unit && kDTypes[i].cls == (timedelta ? DTypeClass::Timedelta : DTypeClass::Datetime))
      return static_cast<DType>(i);
  return std::nullopt;
}
const char *excName(ExcKind k) { return isUserExc(k) ? "user exception" : kExcNames[static_cast<int>(k)]; }

std::optional<DType> dtypeFromNumpyNum(int num) {
  if (num == 9) return DType::Int64;   // NPY_LONGLONG
  if (num == 10) return DType::UInt64; // NPY_ULONGLONG
  for (int i = 0; i < kNumDTypes; ++i) // datetime64 / timedelta64 need their unit: datetimeDType
    if (kDTypes[i].numpyNum == num && kDTypes[i].unit < 0) return static_cast<DType>(i);
  return std::nullopt;
}

std::optional<DType> dtypeFromName(const std::string &name) {
  for (int i = 0; i < kNumDTypes; ++i)
    if (name == kDTypes[i].name) return static_cast<DType>(i);
  return std::nullopt;
}

DType complexOf(DType f) { return f == DType::Float32 ? DType::Complex64 : DType::Complex128; }
DType realOf(DType c) { return c == DType::Complex64 ? DType::Float32 : DType::Float64; }

namespace {
DType signedOfBytes(int bytes) {
  switch (bytes) {
  case 1: return DType::Int8;
  case 2: return DType::Int16;
  case 4: return DType::Int32;
  default: return DType::Int64;
  }
}
DType floatOfBytes(int bytes) { return bytes <= 4 ? DType::Float32 : DType::Float64; }
// Smallest float that holds every value of an integer of `bytes` bytes (NumPy's rule).
DType floatForInt(int bytes) { return bytes <= 2 ? DType::Float32 : DType::Float64; }
} // namespace

// float16 with another dtype (NumPy): 8-bit integers fit in float16, 16-bit ones need
// float32, wider ones float64; wider floats and complex numbers win.
DType promoteHalf(DType other) {
  switch (dtypeClass(other)) {
  case DTypeClass::Bool: return DType::Float16;
  case DTypeClass::SignedInt:
  case DTypeClass::UnsignedInt: {
    int bytes = dtypeBytes(other);
    return bytes == 1 ? DType::Float16 : bytes == 2 ? DType::Float32 : DType::Float64;
  }
  default: return other;
  }
}

DType promote(DType a, DType b) {
  if (a == b) return a;
  if (a == DType::Float16) return promoteHalf(b);
  if (b == DType::Float16) return promoteHalf(a);
  DTypeClass ca = dtypeClass(a), cb = dtypeClass(b);
  if (ca == DTypeClass::Bool) return b;
  if (cb == DTypeClass::Bool) return a;
  int ba = dtypeBytes(a), bb = dtypeBytes(b);
  auto rank = [](DTypeClass c) {
    return c == DTypeClass::Complex ? 3 : c == DTypeClass::Float ? 2 : 1;
  };
  if (rank(ca) == 1 && rank(cb) == 1) {
    if (ca == cb) return ba >= bb ? a : b;
    // signed with unsigned
    DType s = ca == DTypeClass::SignedInt ? a : b, u = ca == DTypeClass::SignedInt ? b : a;
    int sb = dtypeBytes(s), ub = dtypeBytes(u);
    if (sb > ub) return s;
    if (ub >= 8) return DType::Float64;
    return signedOfBytes(ub * 2);
  }
  // At least one float or complex. Width needed by the integer side.
  auto needed = [&](DType d) {
    DTypeClass c = dtypeClass(d);
    if (c == DTypeClass::Float) return dtypeBytes(d);
    if (c == DTypeClass::Complex) return dtypeBytes(d) / 2;
    return dtypeBytes(floatForInt(dtypeBytes(d)));
  };
  int width = std::max(needed(a), needed(b));
  DType f = floatOfBytes(width);
  if (ca == DTypeClass::Complex || cb == DTypeClass::Complex) return complexOf(f);
  return f;
}

Type Type::none() { Type t; t.kind = Kind::None; return t; }
Type Type::scalar(DType d) { Type t; t.kind = Kind::Scalar; t.dtype = d; return t; }
Type Type::array(DType d, int ndim, Layout layout, bool readonly) {
  Type t;
  t.kind = Kind::Array;
  t.dtype = d;
  t.ndim = ndim;
  t.layout = layout;
  t.readonly = readonly;
  return t;
}
Type Type::tuple(std::vector<Type> elems) {
  Type t;
  t.kind = Kind::Tuple;
  t.elems = std::move(elems);
  return t;
}
Type Type::closure(uint64_t id, std::string name, std::vector<Type> captured) {
  Type t = tuple(std::move(captured));
  t.handle = id;
  t.closureTuple = true;
  t.text = std::move(name);
  return t;
}
bool Type::containsClosure() const {
  if (isClosure()) return true;
  for (auto &e : elems)
    if (e.containsClosure()) return true;
  return false;
}
Type Type::namedTuple(std::vector<Type> elems, uint64_t cls, std::string name, std::vector<std::string> fields) {
  Type t = tuple(std::move(elems));
  t.handle = cls;
  t.text = std::move(name);
  t.fields = std::move(fields);
  return t;
}
Type Type::enumMember(Type value, uint64_t cls, std::string name, std::vector<std::string> names,
                       std::vector<int64_t> values, bool intEnum) {
  Type t;
  t.kind = Kind::EnumMember;
  t.elems.push_back(std::move(value));
  t.handle = cls;
  t.text = std::move(name);
  t.fields = std::move(names);
  t.offsets = std::move(values);
  t.typed = intEnum;
  return t;
}
int Type::fieldIndex(const std::string &name) const {
  for (size_t i = 0; i < fields.size(); ++i)
    if (fields[i] == name) return int(i);
  return -1;
}
Type Type::str_(std::string value) { Type t; t.kind = Kind::Str; t.text = std::move(value); return t; }
Type Type::moduleRef(ModuleId m) { Type t; t.kind = Kind::Module; t.module = m; return t; }
Type Type::function(uint64_t handle, std::string name) {
  Type t;
  t.kind = Kind::Function;
  t.handle = handle;
  t.text = std::move(name);
  return t;
}
Type Type::dtypeObj(DType d) { Type t; t.kind = Kind::DTypeObj; t.dtype = d; return t; }
Type Type::excClass(ExcKind e) { Type t; t.kind = Kind::ExcClass; t.exc = e; return t; }
Type Type::range() { Type t; t.kind = Kind::Range; return t; }
Type Type::namespaceObj(std::string path) {
  Type t;
  t.kind = Kind::Namespace;
  t.text = std::move(path);
  return t;
}
Type Type::cpointer(std::optional<DType> pointee) {
  Type t;
  t.kind = Kind::CPointer;
  if (pointee) t.elems.push_back(scalar(*pointee));
  return t;
}

Type Type::list(Type item, bool typedList) {
  Type t;
  t.kind = Kind::List;
  t.typed = typedList;
  t.elems.push_back(std::move(item));
  return t;
}
Type Type::dict(Type key, Type value) {
  Type t;
  t.kind = Kind::Dict;
  t.elems.push_back(std::move(key));
  t.elems.push_back(std::move(value));
  return t;
}
Type Type::set(Type item, bool typedSet) {
  Type t;
  t.kind = Kind::Set;
  t.typed = typedSet;
  t.elems.push_back(std::move(item));
  return t;
}
Type Type::unicode() { Type t; t.kind = Kind::Unicode; return t; }
Type Type::instance(uint64_t classHandle, std::string className) {
  Type t;
  t.kind = Kind::Instance;
  t.handle = classHandle;
  t.text = std::move(className);
  return t;
}
Type Type::classRef(uint64_t classHandle, std::string className) {
  Type t = instance(classHandle, std::move(className));
  t.kind = Kind::ClassRef;
  return t;
}
Type Type::generator(Type yieldType) {
  Type t;
  t.kind = Kind::Generator;
  t.elems.push_back(std::move(yieldType));
  return t;
}
Type Type::numpyRandomGenerator() { Type t; t.kind = Kind::NumPyRandomGenerator; return t; }
Type Type::record(std::vector<std::string> names, std::vector<Type> fieldTypes, std::vector<int64_t> offs,
                  int64_t size, bool isAligned) {
  Type t;
  t.kind = Kind::Record;
  t.fields = std::move(names);
  t.elems = std::move(fieldTypes);
  t.offsets = std::move(offs);
  t.itemsize = size;
  t.aligned = isAligned;
  return t;
}
Type Type::charSeq(bool unicode, int64_t count) {
  Type t;
  t.kind = Kind::CharSeq;
  t.dtype = unicode ? DType::UInt32 : DType::UInt8;
  t.itemsize = count * dtypeBytes(t.dtype);
  return t;
}
Type Type::recordArray(Type rec, int ndim, Layout layout, bool readonly) {
  Type t = array(DType::UInt8, ndim, layout, readonly);
  t.elems.push_back(std::move(rec));
  return t;
}
Type Type::optional(Type v) {
  if (v.kind == Kind::None || v.kind == Kind::Optional) return v;
  if (v.kind == Kind::Str) v = unicode(); // an optional holds a run-time string, not a literal
  Type t;
  t.kind = Kind::Optional;
  t.elems.push_back(std::move(v));
  return t;
}

bool Type::hasRefs() const {
  switch (kind) {
  case Kind::Array:
  case Kind::List:
  case Kind::Dict:
  case Kind::Set:
  case Kind::Unicode:
  case Kind::Instance:
  case Kind::Generator:
  case Kind::NumPyRandomGenerator: return true; // its holder (null while borrowed)
  case Kind::Tuple:
  case Kind::Optional:
    for (auto &e : elems)
      if (e.hasRefs()) return true;
    return false;
  default: return false;
  }
}

bool Type::isPartialContainer() const {
  if (kind != Kind::List && kind != Kind::Dict && kind != Kind::Set) return false;
  for (auto &e : elems)
    if (e.containsUnknown()) return true;
  return false;
}

bool Type::isHomogeneousTuple() const {
  if (kind != Kind::Tuple) return false;
  for (auto &e : elems)
    if (e != elems[0]) return false;
  return true;
}

const char *bufferKindName(BufferKind b) {
  switch (b) {
  case BufferKind::Bytes: return "bytes";
  case BufferKind::ByteArray: return "bytearray";
  case BufferKind::MemoryView: return "memoryview";
  case BufferKind::PyArray: return "array.array";
  default: return "ndarray";
  }
}

bool Type::containsBuffer() const {
  if (isBuffer()) return true;
  for (auto &e : elems)
    if (e.containsBuffer()) return true;
  return false;
}

bool Type::containsUnknown() const {
  if (kind == Kind::Unknown) return true;
  for (auto &e : elems)
    if (e.containsUnknown()) return true;
  return false;
}

bool Type::operator==(const Type &o) const {
  if (kind != o.kind) return false;
  switch (kind) {
  case Kind::Scalar:
  case Kind::DTypeObj: return dtype == o.dtype && elems == o.elems; // elems: a structured dtype's record
  case Kind::Array:
    return dtype == o.dtype && ndim == o.ndim && layout == o.layout && readonly == o.readonly && elems == o.elems &&
           buffer == o.buffer;
  case Kind::Record:
    return fields == o.fields && elems == o.elems && offsets == o.offsets && itemsize == o.itemsize &&
           aligned == o.aligned && readonly == o.readonly;
  case Kind::Tuple: return elems == o.elems && handle == o.handle && fields == o.fields && closureTuple == o.closureTuple;
  case Kind::CharSeq: return dtype == o.dtype && itemsize == o.itemsize && readonly == o.readonly;
  case Kind::Dict:
  case Kind::Optional:
  case Kind::Generator: return elems == o.elems;
  case Kind::List:
  case Kind::Set: return typed == o.typed && elems == o.elems;
  case Kind::CPointer: return elems == o.elems;
  case Kind::Str: return text == o.text;
  case Kind::Module: return module == o.module && (module != ModuleId::Python || text == o.text);
  case Kind::Function:
  case Kind::Instance:
  case Kind::ClassRef: return handle == o.handle;
  case Kind::EnumMember: return handle == o.handle && elems == o.elems;
  case Kind::ExcClass: return exc == o.exc;
  case Kind::Namespace: return text == o.text;
  default: return true;
  }
}

std::string Type::str() const {
  switch (kind) {
  case Kind::Unknown: return "unknown";
  case Kind::None: return "none";
  case Kind::Scalar: return dtypeName(dtype);
  case Kind::Array: {
    std::string s = std::string(buffer == BufferKind::None ? "array" : buffer == BufferKind::PyArray ? "pyarray" : bufferKindName(buffer)) + "(" + (elems.empty() ? dtypeName(dtype) : elems[0].str()) + ", " + std::to_string(ndim) +
                    "d, " + (layout == Layout::C ? "C" : layout == Layout::F ? "F" : "A");
    if (readonly) s += ", readonly";
    return s + ")";
  }
  case Kind::Tuple: {
    if (closureTuple) { // a closure: its function and captured values
      std::string s = "closure(" + text + "#" + std::to_string(handle);
      for (auto &e : elems) s += ", " + e.str();
      return s + ")";
    }
    if (handle == kSliceClass) return "slice(" + elems[0].str() + ", " + elems[1].str() + ", " + elems[2].str() + ")";
    if (handle == kRangeClass) return "range_state64";
    if (handle == kLiteralListClass) {
      std::string s = "LiteralList(";
      for (size_t i = 0; i < elems.size(); ++i) s += (i ? ", " : "") + elems[i].str();
      return s + ")";
    }
    if (isLiteralDict(*this)) { // LiteralStrKeyDict('a': int64, 'b': unicode): the keys are part of the type
      std::string s = "LiteralStrKeyDict(";
      for (size_t i = 0; i < elems.size(); ++i) s += (i ? ", '" : "'") + fields[i] + "': " + elems[i].str();
      s += ")";
      return handle == kLiteralDictClass ? s : literalDictViewName(*this) + "(" + s + ")"; // a view: dict_keys(...)
    }
    if (handle) { // NamedTuple(P, x: int64, y: float64): the field names are part of the type
      std::string s = "NamedTuple(" + text;
      for (size_t i = 0; i < elems.size(); ++i) s += ", " + fields[i] + ": " + elems[i].str();
      return s + ")";
    }
    if (!elems.empty() && isHomogeneousTuple())
      return "UniTuple(" + elems[0].str() + " x " + std::to_string(elems.size()) + ")";
    std::string s = "Tuple(";
    for (size_t i = 0; i < elems.size(); ++i) s += (i ? ", " : "") + elems[i].str();
    return s + ")";
  }
  case Kind::Str: return "str";
  case Kind::Module:
    return std::string("module(") + (module == ModuleId::Python ? text : std::string(moduleName(module))) + ")";
  case Kind::Function: return "function(" + text + ")";
  case Kind::DTypeObj: return "dtype(" + (elems.empty() ? std::string(dtypeName(dtype)) : elems[0].str()) + ")";
  case Kind::ExcClass: return std::string("class(") + (isUserExc(exc) && !text.empty() ? text : excName(exc)) + ")";
  case Kind::Range: return "range";
  case Kind::Namespace: return "cuda." + text;
  case Kind::List: return (typed ? "ListType[" : "list(") + elems[0].str() + (typed ? "]" : ")");
  case Kind::Dict: return "DictType[" + elems[0].str() + ", " + elems[1].str() + "]";
  case Kind::Set: return (typed ? "SetType[" : "set(") + elems[0].str() + (typed ? "]" : ")");
  case Kind::Unicode: return "unicode_type";
  case Kind::Optional: return "OptionalType(" + elems[0].str() + ")";
  case Kind::CPointer: return elems.empty() ? "voidptr" : "CPointer(" + elems[0].str() + ")";
  case Kind::Instance: return "instance.jitclass." + text + "#" + hexHandle(handle);
  case Kind::EnumMember: return std::string(typed ? "IntEnum" : "Enum") + "<" + elems[0].str() + ">(" + text + ")";
  case Kind::ClassRef: return "jitclass." + text + "#" + hexHandle(handle);
  case Kind::Generator: return "generator(" + elems[0].str() + ")";
  case Kind::NumPyRandomGenerator: return "NumPyRandomGeneratorType";
  case Kind::CharSeq: // Numba's spelling: [char x 5] (S5), [unichr x 5] (U5)
    return std::string("[") + (isUnicodeCharSeq() ? "unichr" : "char") + " x " + std::to_string(charCount()) + "]";
  case Kind::Record: { // Numba's spelling: Record(a[type=int32;offset=0],b[type=float64;offset=8];16;False)
    std::string s = "Record(";
    for (size_t i = 0; i < elems.size(); ++i)
      s += (i ? "," : "") + fields[i] + "[type=" + elems[i].str() + ";offset=" + std::to_string(offsets[i]) + "]";
    return s + ";" + std::to_string(itemsize) + ";" + (aligned ? "True" : "False") + (readonly ? ";readonly" : "") + ")";
  }
  }
  return "?";
}

namespace {
// Item types of containers unify only when they are the same or one is still
// unknown: a list of int64 cannot become a list of float64 without copying it.
std::optional<Type> unifyItems(const Type &a, const Type &b) {
  if (a.containsUnknown() || b.containsUnknown()) {
    if (a.isUnknown()) return b;
    if (b.isUnknown()) return a;
    if (a.kind != b.kind || a.elems.size() != b.elems.size() || a.handle != b.handle) return std::nullopt;
    if (a.kind == Kind::List || a.kind == Kind::Dict || a.kind == Kind::Set || a.kind == Kind::Tuple ||
        a.kind == Kind::Optional) {
      Type r = a;
      for (size_t i = 0; i < a.elems.size(); ++i) {
        auto u = unifyItems(a.elems[i], b.elems[i]);
        if (!u) return std::nullopt;
        r.elems[i] = *u;
      }
      r.typed = a.typed || b.typed;
      return r;
    }
    return std::nullopt;
  }
  if (a == b) return a;
  // Literal strings are unicode items; arrays of any layout are arrays of layout A.
  if (a.isString() && b.isString()) return Type::unicode();
  if (a.isArray() && b.isArray()) return unify(a, b);
  return std::nullopt;
}
} // namespace

std::optional<Type> unify(const Type &a, const Type &b) {
  if (a.isUnknown()) return b;
  if (b.isUnknown()) return a;
  if (a == b) return a;
  // None and T meet as Optional(T).
  if (a.isNone() || b.isNone()) {
    const Type &v = a.isNone() ? b : a;
    return Type::optional(v);
  }
  if (a.isOptional() || b.isOptional()) {
    const Type &x = a.isOptional() ? a.elems[0] : a;
    const Type &y = b.isOptional() ? b.elems[0] : b;
    auto u = unify(x, y);
    if (!u || u->isOptional()) return std::nullopt;
    return Type::optional(*u);
  }
  if (a.isString() && b.isString()) return Type::unicode();
  if (a.kind != b.kind) return std::nullopt;
  switch (a.kind) {
  case Kind::Scalar: {
    // datetime64 / timedelta64 unify only with themselves (the unit is part of the type).
    if (isDatetimeLike(a.dtype) || isDatetimeLike(b.dtype)) return std::nullopt;
    // Numba unifies numbers to the wider kind (int ∪ float = float).
    if (a.isBool() != b.isBool()) return Type::scalar(promote(a.dtype, b.dtype));
    return Type::scalar(promote(a.dtype, b.dtype));
  }
  case Kind::Array: {
    if (a.dtype != b.dtype || a.ndim != b.ndim || a.elems != b.elems || a.buffer != b.buffer) return std::nullopt;
    if (a.isRecordArray())
      return Type::recordArray(a.elems[0], a.ndim, a.layout == b.layout ? a.layout : Layout::A, a.readonly || b.readonly);
    Type r = Type::array(a.dtype, a.ndim, a.layout == b.layout ? a.layout : Layout::A, a.readonly || b.readonly);
    r.buffer = a.buffer;
    return r;
  }
  case Kind::Tuple: {
    // A namedtuple meets only its own class (a plain tuple and another class do not unify);
    // a closure keeps its function.
    if (a.elems.size() != b.elems.size() || a.handle != b.handle || a.fields != b.fields ||
        a.closureTuple != b.closureTuple)
      return std::nullopt;
    Type r = a;
    for (size_t i = 0; i < a.elems.size(); ++i) {
      if (isSlice(a) && a.elems[i].isNone() != b.elems[i].isNone()) return std::nullopt; // bounds known to be None
      auto u = unify(a.elems[i], b.elems[i]);
      if (!u) return std::nullopt;
      r.elems[i] = *u;
    }
    return r;
  }
  case Kind::List:
  case Kind::Dict:
  case Kind::Set: return unifyItems(a, b);
  case Kind::Record: { // one layout: a record of a read-only array is read-only
    Type ra = a, rb = b;
    ra.readonly = rb.readonly = false;
    if (ra != rb) return std::nullopt;
    ra.readonly = a.readonly || b.readonly;
    return ra;
  }
  case Kind::Generator: // one yield type: a generator's items are not converted
    if (a.elems[0].containsUnknown()) return b;
    if (b.elems[0].containsUnknown()) return a;
    return std::nullopt;
  default: return std::nullopt;
  }
}

} // namespace mahou::types
