// The binding's half of compiled functions' Python entries (codegen/python_entry.cpp):
// the running interpreter's object layouts, and the functions and type objects the
// entries call, given to the JIT by name with the runtime's symbols.
#include "binding.h"
#include "numpy_api.h"

#include "mahou/python_abi.h"

#include <cstddef>

namespace mahou::binding {

namespace {

PyObject *newNoneReference() { return Py_NewRef(Py_None); }

PythonAbi makePythonAbi() {
  PythonAbi abi{};
  abi.typeOffset = offsetof(PyObject, ob_type);
  abi.floatValueOffset = offsetof(PyFloatObject, ob_fval);
#if PY_VERSION_HEX >= 0x030C0000
  abi.intLayout = PythonAbi::IntLayout::Tagged;
  abi.intSizeOffset = offsetof(PyLongObject, long_value.lv_tag);
  abi.intDigitOffset = offsetof(PyLongObject, long_value.ob_digit);
#else
  abi.intLayout = PythonAbi::IntLayout::SignedSize;
  abi.intSizeOffset = offsetof(PyVarObject, ob_size);
  abi.intDigitOffset = offsetof(PyLongObject, ob_digit);
#endif
  abi.intDigitBytes = sizeof(digit);
  abi.arrayDataOffset = offsetof(PyArrayObject_fields, data);
  abi.arrayNdOffset = offsetof(PyArrayObject_fields, nd);
  abi.arrayShapeOffset = offsetof(PyArrayObject_fields, dimensions);
  abi.arrayStridesOffset = offsetof(PyArrayObject_fields, strides);
  abi.arrayFlagsOffset = offsetof(PyArrayObject_fields, flags);
  abi.arrayDescrOffset = offsetof(PyArrayObject_fields, descr);
  abi.descrTypeNumOffset = offsetof(PyArray_Descr, type_num);
  abi.descrByteOrderOffset = offsetof(PyArray_Descr, byteorder);
  abi.flagC = NPY_ARRAY_C_CONTIGUOUS;
  abi.flagF = NPY_ARRAY_F_CONTIGUOUS;
  abi.flagWriteable = NPY_ARRAY_WRITEABLE;
  abi.swappedByteOrder = NPY_OPPBYTE;
  abi.int64AliasTypeNum = NPY_LONGLONG;  // as typeof.cpp's table
  abi.uint64AliasTypeNum = NPY_ULONGLONG;
  return abi;
}

} // namespace

const PythonAbi &pythonAbi() {
  static const PythonAbi abi = makePythonAbi();
  return abi;
}

std::vector<runtime::RuntimeSymbol> pythonEntrySymbols() {
  auto fn = [](auto *f) { return reinterpret_cast<void *>(f); };
  return {
      {pysym::kLongType, &PyLong_Type},
      {pysym::kFloatType, &PyFloat_Type},
      {pysym::kFromInt64, fn(&PyLong_FromLongLong)},
      {pysym::kFromDouble, fn(&PyFloat_FromDouble)},
      {pysym::kFromBool, fn(&PyBool_FromLong)},
      {pysym::kNone, fn(&newNoneReference)},
      {pysym::kArrayType, &PyArray_Type},
      {pysym::kRaise, fn(&raiseRuntimeError)},
      {pysym::kDispatch, fn(&dispatcherCall)},
  };
}

} // namespace mahou::binding
