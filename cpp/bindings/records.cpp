// NumPy records at the boundary: the record type of a structured dtype (fields of
// scalar or S/U dtypes in native byte order) and the CharSeq of an S/U dtype, the dispatcher's key of a record layout (an
// interned number per distinct layout), unboxing an np.void as a pointer to its bytes
// (a view of the array it came from), and boxing records (a copy, as an np.void) and
// arrays of records (their dtype made again from the type).
#include "binding.h"
#include "numpy_api.h"

#include <cstring>
#include <unordered_map>

namespace mahou::binding {

using types::DType;
using types::Type;

namespace {

struct LayoutEntry {
  uint64_t id;
  PyArray_Descr *descr = nullptr; // made on the first boxing, kept
};

// Record layouts seen in this process, by their type's text (which spells every field,
// offset, the size and the alignment flag). Only grows: a type names its layout.
std::unordered_map<std::string, LayoutEntry> &layouts() {
  static auto *table = new std::unordered_map<std::string, LayoutEntry>();
  return *table;
}

LayoutEntry &layoutEntry(const Type &rec) {
  auto &table = layouts();
  auto [it, fresh] = table.try_emplace(rec.str());
  if (fresh) it->second.id = table.size();
  return it->second;
}

} // namespace

bool isItemDescr(PyArray_Descr *d) {
  return PyDataType_HASFIELDS(d) || d->type_num == NPY_STRING || d->type_num == NPY_UNICODE;
}

namespace {
// The CharSeq of an S<n> or U<n> descriptor in native byte order, or nullopt.
std::optional<Type> charSeqTypeOfDescr(PyArray_Descr *d) {
  if (d->type_num != NPY_STRING && d->type_num != NPY_UNICODE) return std::nullopt;
  bool unicode = d->type_num == NPY_UNICODE;
  int64_t bytes = int64_t(PyDataType_ELSIZE(d));
  if (bytes <= 0 || (unicode && (bytes % 4 != 0 || !PyDataType_ISNOTSWAPPED(d)))) return std::nullopt;
  return Type::charSeq(unicode, unicode ? bytes / 4 : bytes);
}

// A new reference to the descriptor of a CharSeq (S<n> or U<n>, native byte order).
PyArray_Descr *charSeqDescr(const Type &t) {
  std::string spec = std::string(t.isUnicodeCharSeq() ? "U" : "S") + std::to_string(t.charCount());
  PyObject *text = PyUnicode_FromString(spec.c_str());
  PyArray_Descr *descr = nullptr;
  if (text && !PyArray_DescrConverter(text, &descr)) descr = nullptr;
  Py_XDECREF(text);
  return descr;
}
} // namespace

std::optional<Type> recordTypeOfDescr(PyArray_Descr *d, std::string *why) {
  auto fail = [&](const std::string &reason) -> std::optional<Type> {
    if (why) {
      PyObject *s = PyObject_Str(reinterpret_cast<PyObject *>(d));
      *why = (PyDataType_HASFIELDS(d) ? "record " : "array of ") + std::string(s ? PyUnicode_AsUTF8(s) : "?") + " (" +
             reason + ")";
      Py_XDECREF(s);
      PyErr_Clear();
    }
    return std::nullopt;
  };
  if (!PyDataType_HASFIELDS(d)) { // S<n> / U<n>: the character sequence
    if (auto cs = charSeqTypeOfDescr(d)) return cs;
    return fail(PyDataType_ELSIZE(d) == 0 ? "a zero-width string dtype" : "a string dtype not in native byte order");
  }
  PyObject *names = PyDataType_NAMES(d);
  PyObject *fields = PyDataType_FIELDS(d);
  if (!names || !fields || !PyTuple_Check(names) || !PyDict_Check(fields)) return fail("not a structured dtype");
  std::vector<std::string> fieldNames;
  std::vector<Type> fieldTypes;
  std::vector<int64_t> offsets;
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(names); ++i) {
    PyObject *name = PyTuple_GET_ITEM(names, i);
    PyObject *info = PyDict_GetItem(fields, name); // (dtype, offset[, title])
    if (!PyUnicode_Check(name) || !info || !PyTuple_Check(info) || PyTuple_GET_SIZE(info) < 2)
      return fail("a field without a string name");
    auto *fd = reinterpret_cast<PyArray_Descr *>(PyTuple_GET_ITEM(info, 0));
    const char *fname = PyUnicode_AsUTF8(name);
    if (!fname) {
      PyErr_Clear();
      return fail("a field name that is not UTF-8");
    }
    if (PyDataType_HASFIELDS(fd) || PyDataType_HASSUBARRAY(fd))
      return fail(std::string("the field '") + fname + "' is a nested record or array, which is not supported");
    auto dt = types::dtypeFromNumpyNum(fd->type_num);
    auto cs = charSeqTypeOfDescr(fd);
    if (!cs && (!dt || !PyDataType_ISNOTSWAPPED(fd)))
      return fail(std::string("the field '") + fname + "' is not a number, bool or string in native byte order");
    fieldNames.push_back(fname);
    fieldTypes.push_back(cs ? *cs : Type::scalar(*dt));
    offsets.push_back(PyLong_AsLongLong(PyTuple_GET_ITEM(info, 1)));
  }
  bool aligned = (PyDataType_FLAGS(d) & NPY_ALIGNED_STRUCT) != 0;
  return Type::record(std::move(fieldNames), std::move(fieldTypes), std::move(offsets),
                      int64_t(PyDataType_ELSIZE(d)), aligned);
}

uint64_t recordLayoutId(const Type &rec) { return layoutEntry(rec).id; }

namespace {

// The record types of the dtypes of recent np.void arguments, with their layout ids: the
// dispatcher types such an argument on every call, and making the type from the dtype's
// fields (then its text, for the id) cost a microsecond. Each dtype is held while it is
// here, so its address cannot come back as another dtype's, and so is its names tuple
// (`dtype.names = ...` renames fields in place by replacing it). A few entries, cleared
// when full. (Called with the GIL held.)
struct SeenRecord {
  PyArray_Descr *descr;
  PyObject *names;
  bool readonly;
  Type type;
  uint64_t id;
};
constexpr size_t kSeenRecords = 16;

std::vector<SeenRecord> &seenRecords() {
  static auto *seen = new std::vector<SeenRecord>();
  return *seen;
}

const SeenRecord *seenRecordOfVoid(PyObject *obj, std::string *why) {
  auto *v = reinterpret_cast<PyVoidScalarObject *>(obj);
  bool readonly = !(v->flags & NPY_ARRAY_WRITEABLE); // an item of a read-only array
  auto &seen = seenRecords();
  PyObject *names = PyDataType_NAMES(v->descr);
  for (const SeenRecord &r : seen)
    if (r.descr == v->descr && r.names == names && r.readonly == readonly) return &r;
  auto rt = recordTypeOfDescr(v->descr, why);
  if (!rt) return nullptr;
  rt->readonly = readonly;
  if (seen.size() >= kSeenRecords) {
    for (SeenRecord &r : seen) {
      Py_DECREF(r.descr);
      Py_XDECREF(r.names);
    }
    seen.clear();
  }
  Py_INCREF(v->descr);
  Py_XINCREF(names);
  uint64_t id = recordLayoutId(*rt);
  seen.push_back(SeenRecord{v->descr, names, readonly, std::move(*rt), id});
  return &seen.back();
}

} // namespace

std::optional<Type> recordTypeOfVoid(PyObject *obj, std::string *why) {
  const SeenRecord *r = seenRecordOfVoid(obj, why);
  if (!r) return std::nullopt;
  return r->type;
}

uint64_t recordLayoutIdOfVoid(PyObject *obj) {
  const SeenRecord *r = seenRecordOfVoid(obj, nullptr);
  return r ? r->id : 0;
}

// The dtype of a record type (a borrowed reference the table keeps), or null with an error set.
PyArray_Descr *recordDescr(const Type &rec) {
  LayoutEntry &entry = layoutEntry(rec);
  if (entry.descr) return entry.descr;
  if (rec.isCharSeq()) return entry.descr = charSeqDescr(rec);
  PyObject *spec = PyDict_New();
  PyObject *names = PyList_New(0), *formats = PyList_New(0), *offsets = PyList_New(0);
  bool ok = spec && names && formats && offsets;
  for (size_t i = 0; ok && i < rec.elems.size(); ++i) {
    PyObject *n = PyUnicode_FromString(rec.fields[i].c_str());
    const Type &ft = rec.elems[i];
    PyObject *f = reinterpret_cast<PyObject *>(ft.isCharSeq() ? charSeqDescr(ft)
                                                              : PyArray_DescrFromType(types::dtypeNumpyNum(ft.dtype)));
    PyObject *o = PyLong_FromLongLong(rec.offsets[i]);
    ok = n && f && o && PyList_Append(names, n) == 0 && PyList_Append(formats, f) == 0 && PyList_Append(offsets, o) == 0;
    Py_XDECREF(n);
    Py_XDECREF(f);
    Py_XDECREF(o);
  }
  PyObject *size = ok ? PyLong_FromLongLong(rec.itemsize) : nullptr;
  ok = ok && size && PyDict_SetItemString(spec, "names", names) == 0 && PyDict_SetItemString(spec, "formats", formats) == 0 &&
       PyDict_SetItemString(spec, "offsets", offsets) == 0 && PyDict_SetItemString(spec, "itemsize", size) == 0 &&
       PyDict_SetItemString(spec, "aligned", rec.aligned ? Py_True : Py_False) == 0;
  PyArray_Descr *descr = nullptr;
  if (ok && !PyArray_DescrConverter(spec, &descr)) descr = nullptr;
  Py_XDECREF(size);
  Py_XDECREF(names);
  Py_XDECREF(formats);
  Py_XDECREF(offsets);
  Py_XDECREF(spec);
  entry.descr = descr;
  return descr;
}

bool isRecordWidthSubtype(const Type &wide, const Type &narrow) {
  if (!wide.isRecord() || !narrow.isRecord() || narrow.fields.size() > wide.fields.size())
    return false;
  if (narrow.itemsize > wide.itemsize || (wide.readonly && !narrow.readonly))
    return false; // no byte beyond the record is read, no write into a read-only one
  for (size_t i = 0; i < narrow.fields.size(); ++i)
    if (narrow.fields[i] != wide.fields[i] || narrow.offsets[i] != wide.offsets[i] || !(narrow.elems[i] == wide.elems[i]))
      return false;
  return true;
}

bool unboxRecord(PyObject *obj, const Type &t, char *dst) {
  if (!PyArray_IsScalar(obj, Void)) {
    PyErr_Format(PyExc_TypeError, "expected a NumPy record (numpy.void), got %s", Py_TYPE(obj)->tp_name);
    return false;
  }
  const SeenRecord *seen = seenRecordOfVoid(obj, nullptr);
  if (!seen || (seen->type != t && !isRecordWidthSubtype(seen->type, t))) {
    PyErr_SetString(PyExc_TypeError, ("expected a record of type " + t.str()).c_str());
    return false;
  }
  void *data = reinterpret_cast<PyVoidScalarObject *>(obj)->obval;
  std::memcpy(dst, &data, sizeof data);
  return true;
}

PyObject *boxRecord(const Type &t, const char *src) {
  void *data;
  std::memcpy(&data, src, sizeof data);
  PyArray_Descr *descr = recordDescr(t);
  if (!descr) return nullptr;
  Py_INCREF(descr); // NewFromDescr steals it
  npy_intp one = 1;
  PyObject *arr = PyArray_NewFromDescr(&PyArray_Type, descr, 1, &one, nullptr, nullptr, 0, nullptr);
  if (!arr) return nullptr;
  std::memcpy(PyArray_BYTES(reinterpret_cast<PyArrayObject *>(arr)), data, size_t(t.itemsize));
  PyObject *item = PySequence_GetItem(arr, 0); // an np.void over the copy, which it keeps
  Py_DECREF(arr);
  return item;
}

} // namespace mahou::binding
