// What compiled code needs to know of the running CPython and NumPy to be called
// from Python directly (the Python entry, codegen/python_entry.cpp): object layouts
// as offsets, and the names under which the binding gives the JIT the functions and
// type objects the entry uses. Filled by the binding, which is built against the
// running interpreter's headers; the back end never includes Python.h.
#pragma once

#include <cstdint>

namespace mahou {

struct PythonAbi {
  // How an int stores a value that fits one digit.
  enum class IntLayout : uint8_t {
    SignedSize, // up to 3.11: ob_size is the signed digit count (-1, 0, 1 for one digit)
    Tagged,     // 3.12 on: lv_tag = digit count << 3 | sign (0 positive, 1 zero, 2 negative)
  };
  uint32_t typeOffset;       // offsetof(PyObject, ob_type)
  uint32_t floatValueOffset; // offsetof(PyFloatObject, ob_fval)
  IntLayout intLayout;
  uint32_t intSizeOffset;  // ob_size or lv_tag
  uint32_t intDigitOffset; // ob_digit[0]
  uint32_t intDigitBytes;  // 4 (30-bit digits) or 2 (15-bit digits)
  // PyArrayObject: data pointer, dimension count (int), shape pointer, strides
  // pointer, flags (int), descriptor pointer; PyArray_Descr: type number (int) and
  // byte order (char).
  uint32_t arrayDataOffset, arrayNdOffset, arrayShapeOffset, arrayStridesOffset;
  uint32_t arrayFlagsOffset, arrayDescrOffset, descrTypeNumOffset, descrByteOrderOffset;
  // Flag bits: C-contiguous, Fortran-contiguous, writeable.
  uint32_t flagC, flagF, flagWriteable;
  char swappedByteOrder; // the byte-order character of a byte-swapped array
  // Type numbers that also mean int64 and uint64 (besides dtypes.def's): long long.
  int32_t int64AliasTypeNum, uint64AliasTypeNum;
};

// Symbols the binding defines in the JIT (runtime::RuntimeSymbol) for Python entries.
namespace pysym {
inline constexpr const char *kLongType = "mahou.py.long_type";        // &PyLong_Type
inline constexpr const char *kFloatType = "mahou.py.float_type";      // &PyFloat_Type
inline constexpr const char *kFromInt64 = "mahou.py.from_int64";      // PyLong_FromLongLong
inline constexpr const char *kFromDouble = "mahou.py.from_double";    // PyFloat_FromDouble
inline constexpr const char *kFromBool = "mahou.py.from_bool";        // PyBool_FromLong
inline constexpr const char *kNone = "mahou.py.none";                 // PyObject *(): a new reference to None
inline constexpr const char *kArrayType = "mahou.py.array_type";    // &PyArray_Type
// void (): turns the runtime error state compiled code set into the Python exception.
inline constexpr const char *kRaise = "mahou.py.raise";
// The dispatcher's general call (a vectorcallfunc): where an entry sends the calls it
// does not take (other argument types, keywords, ints past one digit).
inline constexpr const char *kDispatch = "mahou.py.dispatch";
} // namespace pysym

} // namespace mahou
