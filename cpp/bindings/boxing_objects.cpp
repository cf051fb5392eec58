// Boxing and unboxing of heap objects: str (one copy each way, PEP 393 kinds kept),
// Python lists (unboxed into native lists and written back after the call when the
// compiled code changed them, as Numba's reflected lists), optional values, and the
// typed containers (the Python object wraps the native one: no copy).
#include "binding.h"
#include "objects_binding.h"

#include "mahou/layout.h"
#include "mahou/objects.h"

#include <cstring>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace nb = nanobind;

namespace mahou::binding {

using types::Type;

namespace {

MahouMemInfo *loadObjectPtr(const char *src) {
  MahouMemInfo *mi;
  std::memcpy(&mi, src, sizeof mi);
  return mi;
}

void storeObjectPtr(char *dst, MahouMemInfo *mi) { std::memcpy(dst, &mi, sizeof mi); }

bool runtimeErrorToPython() {
  MahouError e = mahou_rt_take_error();
  PyErr_SetString(builtinExceptionClass(types::ExcKind(e.kind)), e.message);
  return false;
}

} // namespace

const MahouTypeDesc *descriptorOf(const Type &item) {
  // Few item types are ever boxed: cache their interned descriptors by type text.
  static std::mutex lock;
  static auto *cache = new std::unordered_map<std::string, const MahouTypeDesc *>();
  std::string key = item.str();
  std::lock_guard<std::mutex> guard(lock);
  auto it = cache->find(key);
  if (it != cache->end()) return it->second;
  std::string blob = types::typeDescriptor(item);
  const MahouTypeDesc *d = mahou_rt_intern_typedesc(blob.data(), int64_t(blob.size()));
  cache->emplace(std::move(key), d);
  return d;
}

// ------------------------------------------------------------------ strings

MahouMemInfo *stringFromPython(PyObject *obj) {
  Py_ssize_t n = PyUnicode_GET_LENGTH(obj);
  int kind = PyUnicode_KIND(obj);
  MahouMemInfo *mi = runtime::newString(int64_t(n), kind);
  if (!mi) {
    runtimeErrorToPython();
    return nullptr;
  }
  MahouStr *s = mahouStr(mi);
  std::memcpy(mahouStrData(s), PyUnicode_DATA(obj), size_t(n) * size_t(kind));
  s->ascii = PyUnicode_IS_ASCII(obj);
  return mi;
}

PyObject *stringToPython(MahouMemInfo *mi) {
  MahouStr *s = mahouStr(mi);
  Py_UCS4 maxChar = s->ascii ? 127 : s->kind == 1 ? 255 : s->kind == 2 ? 65535 : 0x10FFFF;
  PyObject *out = PyUnicode_New(Py_ssize_t(s->length), maxChar);
  if (!out) return nullptr;
  if (PyUnicode_KIND(out) == s->kind) {
    std::memcpy(PyUnicode_DATA(out), mahouStrData(s), size_t(s->length) * size_t(s->kind));
  } else { // a non-ASCII string of kind 1 whose maximum is below 128 cannot happen (ascii is exact)
    for (int64_t i = 0; i < s->length; ++i)
      PyUnicode_WRITE(PyUnicode_KIND(out), PyUnicode_DATA(out), Py_ssize_t(i), runtime::stringCharAt(s, i));
  }
  return out;
}

// ------------------------------------------------------------------ lists

MahouMemInfo *listFromPython(PyObject *obj, const Type &listType) {
  const Type &item = listType.elems[0];
  Py_ssize_t n = PyList_GET_SIZE(obj);
  MahouMemInfo *list = mahou_rt_list_new(descriptorOf(item), int64_t(n));
  if (!list) {
    runtimeErrorToPython();
    return nullptr;
  }
  MahouList *l = mahouList(list);
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject *x = PyList_GET_ITEM(obj, i);
    std::string why;
    auto t = typeOfObject(x, &why);
    bool same = t && (*t == item || (item.isList() && t->isList() && t->elems[0] == item.elems[0]) ||
                      (item.isArray() && arrayFitsType(x, item)));
    if (!same) {
      PyErr_Format(PyExc_TypeError, "can't unbox heterogeneous list: item %zd is %s, not %s (a list holds items of one type)",
                   i, t ? t->str().c_str() : why.c_str(), item.str().c_str());
      mahou_rt_decref(list);
      return nullptr;
    }
    char *dst = l->items + i * l->itemSize;
    if (!unboxValue(x, item, dst) || !adoptArrays(item, dst)) {
      mahou_rt_decref(list);
      return nullptr;
    }
    l->size = i + 1;
  }
  l->dirty = 0;
  return list;
}

namespace {
// How a list's items box, worked out once for the list and, for a list of lists, once
// for all its rows (not again per row): the tuples' offsets and dtypes, the rows' plan.
struct ListBoxing {
  bool tuples = false;
  TupleBoxing how;
  std::unique_ptr<ListBoxing> rows; // items that are (reflected) lists
};

ListBoxing listBoxing(const Type &item) {
  ListBoxing plan;
  plan.tuples = item.kind == types::Kind::Tuple;
  if (plan.tuples) plan.how = tupleBoxing(item);
  if (item.kind == types::Kind::List && !item.typed)
    plan.rows = std::make_unique<ListBoxing>(listBoxing(item.elems[0]));
  return plan;
}

PyObject *listToPythonWith(MahouMemInfo *list, const Type &item, const ListBoxing &plan) {
  MahouList *l = mahouList(list);
  PyObject *out = PyList_New(Py_ssize_t(l->size));
  if (!out) return nullptr;
  bool refs = l->desc->nrefs != 0;
  for (int64_t i = 0; i < l->size; ++i) {
    char *src = l->items + i * l->itemSize;
    PyObject *x;
    if (plan.rows) { // a row: boxed from the list's own reference, no reference taken
      MahouMemInfo *row = loadObjectPtr(src);
      x = ReflectedOrigins::originOf(row);
      if (x) { // the Python list it came from, written back: the same object, as in Python
        if (!reflectList(x, row, item.elems[0])) {
          Py_DECREF(out);
          return nullptr;
        }
        Py_INCREF(x);
      } else {
        x = listToPythonWith(row, item.elems[0], *plan.rows);
      }
    } else {
      if (refs) runtime::increfItem(l->desc, src); // boxValue takes a reference
      // no reference to take when the tuples hold no objects
      x = plan.tuples ? boxTupleWith(item, src, plan.how) : boxValue(item, src);
    }
    if (!x) {
      Py_DECREF(out);
      return nullptr;
    }
    PyList_SET_ITEM(out, Py_ssize_t(i), x);
  }
  return out;
}
} // namespace


namespace {
thread_local SharedUnboxing *currentUnboxing = nullptr;
} // namespace

SharedUnboxing::SharedUnboxing() : outer_(currentUnboxing) { currentUnboxing = this; }
SharedUnboxing::~SharedUnboxing() { currentUnboxing = outer_; }

MahouMemInfo *SharedUnboxing::find(PyObject *obj, const Type &t) {
  if (!currentUnboxing) return nullptr;
  auto range = currentUnboxing->seen_.equal_range(obj);
  for (auto it = range.first; it != range.second; ++it)
    if (*it->second.type == t) {
      mahou_rt_incref(it->second.native);
      return it->second.native;
    }
  return nullptr;
}

void SharedUnboxing::remember(PyObject *obj, const Type &t, MahouMemInfo *native) {
  if (currentUnboxing) currentUnboxing->seen_.emplace(obj, Seen{&t, native});
}

namespace {
thread_local ReflectedOrigins *currentOrigins = nullptr;
} // namespace

ReflectedOrigins::ReflectedOrigins(const SharedUnboxing &unboxed) : outer_(currentOrigins) {
  unboxed.forEachList([&](PyObject *obj, MahouMemInfo *native, const Type &listType) {
    if (origin_.emplace(native, Origin{obj, &listType}).second) {
      Py_INCREF(obj);
      mahou_rt_incref(native);
    }
  });
  currentOrigins = this;
}

ReflectedOrigins::~ReflectedOrigins() {
  currentOrigins = outer_;
  for (auto &[native, origin] : origin_) {
    mahou_rt_decref(native);
    Py_DECREF(origin.obj);
  }
}

PyObject *ReflectedOrigins::originOf(MahouMemInfo *native) {
  if (!currentOrigins) return nullptr;
  auto it = currentOrigins->origin_.find(native);
  return it == currentOrigins->origin_.end() ? nullptr : it->second.obj;
}

void ReflectedOrigins::markWritten(MahouMemInfo *native) {
  if (!currentOrigins) return;
  auto it = currentOrigins->origin_.find(native);
  if (it != currentOrigins->origin_.end()) it->second.written = true;
}

bool ReflectedOrigins::writeBackRest() {
  if (!currentOrigins) return true;
  for (auto &[native, origin] : currentOrigins->origin_)
    if (!origin.written && !reflectList(origin.obj, native, origin.listType->elems[0])) return false;
  return true;
}

PyObject *listToPython(MahouMemInfo *list, const Type &item) {
  if (PyObject *origin = ReflectedOrigins::originOf(list)) { // a list the caller passed: that object
    if (!reflectList(origin, list, item)) return nullptr;
    Py_INCREF(origin);
    return origin;
  }
  return listToPythonWith(list, item, listBoxing(item));
}

bool reflectList(PyObject *target, MahouMemInfo *list, const Type &item) {
  ReflectedOrigins::markWritten(list);
  MahouList *l = mahouList(list);
  if (l->dirty) {
    PyObject *fresh = listToPythonWith(list, item, listBoxing(item));
    if (!fresh) return false;
    int rc = PyList_SetSlice(target, 0, PyList_GET_SIZE(target), fresh);
    Py_DECREF(fresh);
    return rc == 0;
  }
  if (item.isList()) // nested lists changed in place
    for (int64_t i = 0; i < l->size && i < PyList_GET_SIZE(target); ++i) {
      PyObject *inner = PyList_GET_ITEM(target, Py_ssize_t(i));
      if (PyList_Check(inner) && !reflectList(inner, loadObjectPtr(l->items + i * l->itemSize), item.elems[0]))
        return false;
    }
  return true;
}

// ------------------------------------------------------------------ arrays held by objects

namespace {

void releaseParent(MahouMemInfo *mi) {
  PyGILState_STATE g = PyGILState_Ensure();
  Py_XDECREF(static_cast<PyObject *>(mi->data));
  PyGILState_Release(g);
}

} // namespace

bool adoptArrays(const Type &t, char *value) {
  // An array from NumPy has no meminfo (its argument keeps it alive during the call);
  // stored in an object that may outlive the call, it gets one that holds the ndarray.
  if (t.isArray()) {
    auto *head = reinterpret_cast<MahouArrayHead *>(value);
    if (head->meminfo || !head->parent) return true;
    MahouMemInfo *mi = mahou_rt_alloc_object(0, releaseParent);
    if (!mi) return runtimeErrorToPython();
    Py_INCREF(static_cast<PyObject *>(head->parent));
    mi->data = head->parent;
    head->meminfo = mi;
    return true;
  }
  if (t.isRandomGenerator()) { // {bitgen_t *, the Generator, its holder}
    void *fields[3];
    std::memcpy(fields, value, sizeof fields);
    if (fields[2]) return true;
    MahouMemInfo *mi = mahou_rt_alloc_object(0, releaseParent);
    if (!mi) return runtimeErrorToPython();
    Py_INCREF(static_cast<PyObject *>(fields[1]));
    mi->data = fields[1];
    std::memcpy(value + 2 * sizeof(void *), &mi, sizeof mi);
    return true;
  }
  if (t.isTuple()) {
    std::vector<size_t> offs = types::tupleOffsets(t);
    for (size_t i = 0; i < t.elems.size(); ++i)
      if (!adoptArrays(t.elems[i], value + offs[i])) return false;
  }
  return true;
}

MahouMemInfo *holdArrayParent(void *parent) {
  PyGILState_STATE g = PyGILState_Ensure();
  MahouMemInfo *mi = mahou_rt_alloc_object(0, releaseParent);
  if (mi) {
    Py_INCREF(static_cast<PyObject *>(parent));
    mi->data = parent;
  }
  PyGILState_Release(g);
  return mi;
}

// ------------------------------------------------------------------ the dispatch hooks

bool holdsObjects(const Type &t) {
  if (t.isObject()) return true;
  for (const Type &e : t.elems)
    if (holdsObjects(e)) return true;
  return false;
}

bool unboxObject(PyObject *obj, const Type &t, char *dst) {
  switch (t.kind) {
  case types::Kind::Unicode: {
    if (!PyUnicode_Check(obj)) {
      PyErr_Format(PyExc_TypeError, "expected str, got %s", Py_TYPE(obj)->tp_name);
      return false;
    }
    MahouMemInfo *s = stringFromPython(obj);
    if (!s) return false;
    storeObjectPtr(dst, s);
    return true;
  }
  case types::Kind::List: {
    if (t.typed) return unboxTypedList(obj, t, dst);
    if (!PyList_Check(obj)) {
      PyErr_Format(PyExc_TypeError, "expected a list, got %s", Py_TYPE(obj)->tp_name);
      return false;
    }
    MahouMemInfo *l = SharedUnboxing::find(obj, t);
    if (!l) {
      l = listFromPython(obj, t);
      if (!l) return false;
      SharedUnboxing::remember(obj, t, l);
    }
    storeObjectPtr(dst, l);
    return true;
  }
  case types::Kind::Dict: return unboxTypedDict(obj, t, dst);
  case types::Kind::Set: {
    if (t.typed) return unboxTypedSet(obj, t, dst);
    if (!PyAnySet_Check(obj)) {
      PyErr_Format(PyExc_TypeError, "expected a set, got %s", Py_TYPE(obj)->tp_name);
      return false;
    }
    MahouMemInfo *s = SharedUnboxing::find(obj, t);
    if (!s) {
      s = setFromPython(obj, t);
      if (!s) return false;
      SharedUnboxing::remember(obj, t, s);
    }
    storeObjectPtr(dst, s);
    return true;
  }
  case types::Kind::Instance: return unboxJitInstance(obj, t, dst);
  case types::Kind::NumPyRandomGenerator: return unboxRandomGenerator(obj, dst);
  case types::Kind::Optional: {
    size_t flag = types::nativeSize(t.elems[0]);
    std::memset(dst, 0, types::nativeSize(t));
    if (obj == Py_None) return true;
    if (!unboxValue(obj, t.elems[0], dst)) return false;
    dst[flag] = 1;
    return true;
  }
  default:
    PyErr_Format(PyExc_TypeError, "cannot pass a %s argument to compiled code", t.str().c_str());
    return false;
  }
}

PyObject *boxObject(const Type &t, char *src) {
  switch (t.kind) {
  case types::Kind::Unicode: {
    MahouMemInfo *s = loadObjectPtr(src);
    PyObject *out = stringToPython(s);
    mahou_rt_decref(s);
    return out;
  }
  case types::Kind::List: {
    MahouMemInfo *l = loadObjectPtr(src);
    if (t.typed) return wrapTypedList(l, t.elems[0]); // takes the reference
    PyObject *out = listToPython(l, t.elems[0]);
    mahou_rt_decref(l);
    return out;
  }
  case types::Kind::Dict: return wrapTypedDict(loadObjectPtr(src), t); // takes the reference
  case types::Kind::Set: {
    MahouMemInfo *s = loadObjectPtr(src);
    if (t.typed) return wrapTypedSet(s, t); // takes the reference
    PyObject *out = setToPython(s, t.elems[0]);
    mahou_rt_decref(s);
    return out;
  }
  case types::Kind::Instance: return wrapJitInstance(loadObjectPtr(src), t); // takes the reference
  case types::Kind::Generator: return wrapGenerator(loadObjectPtr(src), t);   // takes the reference
  case types::Kind::NumPyRandomGenerator: return boxRandomGenerator(src);
  case types::Kind::Optional: {
    if (!src[types::nativeSize(t.elems[0])]) Py_RETURN_NONE;
    return boxValue(t.elems[0], src);
  }
  default:
    PyErr_Format(PyExc_TypeError, "cannot return a value of type %s to Python", t.str().c_str());
    return nullptr;
  }
}

void releaseObject(const Type &t, char *src) {
  if (t.isObject()) {
    mahou_rt_decref(loadObjectPtr(src));
  } else if (t.isOptional() && src[types::nativeSize(t.elems[0])]) {
    releaseValue(t.elems[0], src);
  }
}

bool afterCall(const std::vector<Type> &args, PyObject *const *objs, void **argv) {
  // Lists from Python: write back what the compiled code changed, then release every
  // object made for the arguments.
  bool ok = true;
  for (size_t i = 0; i < args.size(); ++i) {
    const Type &t = args[i];
    if (!holdsObjects(t) && !t.containsBuffer()) continue; // a buffer: its Py_buffer is released
    char *v = static_cast<char *>(argv[i]);
    if (ok && t.isList() && !t.typed && PyList_Check(objs[i]))
      ok = reflectList(objs[i], loadObjectPtr(v), t.elems[0]);
    if (ok && t.isSet() && PySet_Check(objs[i]))
      ok = reflectSet(objs[i], loadObjectPtr(v), t.elems[0]);
    releaseValue(t, v);
  }
  return ok && ReflectedOrigins::writeBackRest();
}

} // namespace mahou::binding
