// mahou.typed.Dict: a Python object around the native dict compiled code uses (no copy
// at the boundary); its methods run here on the runtime table. Also Python sets passed
// to and returned from compiled code (copied into and out of a native set).
#include "binding.h"
#include "objects_binding.h"

#include "mahou/layout.h"
#include "mahou/objects.h"

#include <structmember.h>

#include <cstring>
#include <vector>

namespace nb = nanobind;

namespace mahou::binding {

using types::Type;

namespace {

struct TypedDictObject {
  PyObject_HEAD
  MahouMemInfo *dict; // null while the key and value types are not known
  Type *type;         // Dict(K, V)
  PyObject *weakrefs;
};

PyTypeObject *theTypedDictType = nullptr;

TypedDictObject *asDict(PyObject *o) { return reinterpret_cast<TypedDictObject *>(o); }
MahouDict *native(TypedDictObject *self) { return mahouDict(self->dict); }
int64_t size(TypedDictObject *self) { return self->dict ? native(self)->size : 0; }

bool setRuntimeError() {
  MahouError e = mahou_rt_take_error();
  PyErr_SetString(builtinExceptionClass(types::ExcKind(e.kind)), e.message);
  return false;
}

// The native form of a Python value of type t (references owned) in buf; numbers widen,
// never narrow.
bool toNative(const Type &t, PyObject *x, std::vector<char> &buf, const char *what) {
  if (!ensureNumpyApi()) return false; // typing a value reads NumPy's scalar types
  std::string why;
  auto xt = typeOfObject(x, &why);
  bool ok = xt && (*xt == t || sameButBytesLayout(*xt, t) || (t.isNumber() && xt->isNumber() && !(xt->isFloat() && !t.isFloat() && !t.isComplex()) &&
                                !(xt->isComplex() && !t.isComplex())) ||
                   (t.isArray() && arrayFitsType(x, t)) ||
                   (t.isList() && xt->isList() && xt->elems[0] == t.elems[0]) ||
                   (t.isDict() && xt->isDict() && *xt == t));
  if (!ok) {
    PyErr_Format(PyExc_TypeError, "a typed dict %s of %s cannot be %s", what, t.str().c_str(),
                 xt ? xt->str().c_str() : why.c_str());
    return false;
  }
  buf.assign(std::max<size_t>(types::nativeSize(t), 1), 0);
  return unboxValue(x, t, buf.data()) && adoptArrays(t, buf.data());
}

PyObject *fromNative(const Type &t, const MahouTypeDesc *desc, const void *p) {
  std::vector<char> copy(static_cast<const char *>(p), static_cast<const char *>(p) + std::max<size_t>(desc->size, 1));
  runtime::increfItem(desc, copy.data()); // boxValue takes a reference
  return boxValue(t, copy.data());
}

// Tables keyed by compiled code (@jitclass instances, MAHOU_KEY_BY_CODE): Python's
// hash() and == of the boxed keys, which run the class's compiled __hash__ and __eq__.
// The entry holding `key` (whose native form is at `native`), -1 when absent, -2 with an
// error set.
int64_t findByCode(MahouMemInfo *table, const Type &kt, PyObject *key, const char *nativeKey, Py_hash_t hash) {
  const MahouTypeDesc *kd = mahouDict(table)->keyDesc;
  int64_t state[2];
  mahou_rt_dict_probe_begin(table, hash, state);
  while (true) {
    int64_t ix = mahou_rt_dict_probe_next(table, hash, state);
    if (ix < 0) return -1;
    const char *at = static_cast<const char *>(mahou_rt_dict_entry_key(table, ix));
    if (std::memcmp(at, nativeKey, kd->size) == 0) return ix; // the same object
    PyObject *stored = fromNative(kt, kd, at);
    if (!stored) return -2;
    int eq = PyObject_RichCompareBool(stored, key, Py_EQ);
    Py_DECREF(stored);
    if (eq < 0) return -2;
    if (eq && mahou_rt_dict_entry_key(table, ix)) return ix;
  }
}

// Whether keys of type k can be hashed: by the descriptor, or a @jitclass whose class
// defines __hash__ (hashed and compared by its compiled methods, as in compiled code).
bool hashableKey(const Type &k) {
  if (k.isInstance()) {
    PyObject *box = jitClassBoxType(k.handle);
    PyObject *h = box ? PyDict_GetItemString(reinterpret_cast<PyTypeObject *>(box)->tp_dict, "__hash__") : nullptr;
    return h && h != Py_None;
  }
  std::string blob = types::typeDescriptor(k);
  return reinterpret_cast<const MahouTypeDesc *>(blob.data())->flags & MAHOU_DESC_HASHABLE;
}

bool setTypes(TypedDictObject *self, const Type &k, const Type &v) {
  MahouMemInfo *d = mahou_rt_dict_new(descriptorOf(k), descriptorOf(v));
  if (!d) return setRuntimeError();
  self->dict = d;
  self->type = new Type(Type::dict(k, v));
  return true;
}

bool ensureTypes(TypedDictObject *self, PyObject *key, PyObject *value) {
  if (self->type) return true;
  if (!ensureNumpyApi()) return false;
  std::string why;
  auto k = typeOfObject(key, &why);
  auto v = k ? typeOfObject(value, &why) : std::nullopt;
  if (!k || !v) {
    PyErr_Format(PyExc_TypeError, "a typed dict cannot hold %s", why.c_str());
    return false;
  }
  // A buffer other than a bytes value is never boxed back.
  if ((k->containsBuffer() && !isBytesType(*k)) || (v->containsBuffer() && !isBytesType(*v))) {
    PyErr_Format(PyExc_TypeError, "a typed dict cannot hold %s",
                 (k->containsBuffer() && !isBytesType(*k) ? *k : *v).str().c_str());
    return false;
  }
  if (isBytesType(*k)) k->layout = types::Layout::A; // as compiled code keys bytes: any layout
  if (!hashableKey(*k)) {
    PyErr_Format(PyExc_TypeError, "unhashable type: %s", k->str().c_str());
    return false;
  }
  return setTypes(self, *k, *v);
}

const Type &keyType(TypedDictObject *self) { return self->type->elems[0]; }
const Type &valueType(TypedDictObject *self) { return self->type->elems[1]; }

// A Python key's entry in a table keyed by compiled code: as findByCode, with the key's
// hash in *hash and its native form (owned) in k.
int64_t entryByCode(TypedDictObject *self, PyObject *key, std::vector<char> &k, Py_hash_t *hash) {
  if (!toNative(keyType(self), key, k, "key")) return -2;
  *hash = PyObject_Hash(key);
  return *hash == -1 ? -2 : findByCode(self->dict, keyType(self), key, k.data(), *hash);
}

bool byCode(TypedDictObject *self) { return self->dict && native(self)->keyKind == MAHOU_KEY_BY_CODE; }

// The value's address for a Python key, or null (no error) when absent or of another type.
void *lookup(TypedDictObject *self, PyObject *key, bool &error) {
  error = false;
  if (!self->dict) return nullptr;
  if (!ensureNumpyApi()) {
    error = true;
    return nullptr;
  }
  std::vector<char> k;
  std::string why;
  auto kt = typeOfObject(key, &why);
  if (!kt || !(*kt == keyType(self) || (kt->isNumber() && keyType(self).isNumber()) ||
               sameButBytesLayout(*kt, keyType(self)))) // a bytes key (any layout)
    return nullptr;
  if (byCode(self)) {
    Py_hash_t h;
    int64_t ix = entryByCode(self, key, k, &h);
    if (!k.empty()) runtime::decrefItem(native(self)->keyDesc, k.data());
    error = ix == -2;
    return ix < 0 ? nullptr : mahou_rt_dict_value_of_key(self->dict, mahou_rt_dict_entry_key(self->dict, ix));
  }
  if (!toNative(keyType(self), key, k, "key")) {
    PyErr_Clear();
    return nullptr;
  }
  void *v = mahou_rt_dict_find(self->dict, k.data());
  runtime::decrefItem(native(self)->keyDesc, k.data());
  return v;
}

// ------------------------------------------------------------------ slots

TypedDictObject *allocate(PyTypeObject *type) {
  auto *self = asDict(type->tp_alloc(type, 0));
  if (self) {
    self->dict = nullptr;
    self->type = nullptr;
  }
  return self;
}

// A new table object of `type` holding `table` (the reference taken) of type `t`.
PyObject *wrapTable(PyTypeObject *type, MahouMemInfo *table, const Type &t) {
  TypedDictObject *self = allocate(type);
  if (!self) {
    mahou_rt_decref(table);
    return nullptr;
  }
  self->dict = table;
  self->type = new Type(t);
  return reinterpret_cast<PyObject *>(self);
}

// A copy of a typed dict or set, as an object of `type` (untyped when it is).
PyObject *copyTable(TypedDictObject *self, PyTypeObject *type) {
  if (!self->dict) return reinterpret_cast<PyObject *>(allocate(type));
  MahouMemInfo *copy = mahou_rt_dict_copy(self->dict);
  if (!copy) return setRuntimeError(), nullptr;
  return wrapTable(type, copy, *self->type);
}

// The table of a typed dict or set argument of type t (`isKind`: the object is one), its
// reference taken for the call.
bool unboxTable(PyObject *obj, bool isKind, const Type &t, char *dst, const char *expected) {
  if (!isKind || !asDict(obj)->type || *asDict(obj)->type != t) {
    PyErr_Format(PyExc_TypeError, "expected %s %s", expected, t.str().c_str());
    return false;
  }
  MahouMemInfo *d = asDict(obj)->dict;
  mahou_rt_incref(d); // the argument's reference, released after the call
  std::memcpy(dst, &d, sizeof d);
  return true;
}

int dictAssign(PyObject *obj, PyObject *key, PyObject *value);

PyObject *dictNew(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
  PyObject *init = nullptr;
  if (!PyArg_ParseTuple(args, "|O:Dict", &init)) return nullptr;
  TypedDictObject *self = allocate(type);
  if (!self) return nullptr;
  auto fill = [&](PyObject *src) {
    PyObject *items = PyMapping_Items(src);
    if (!items) return false;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(items); ++i) {
      PyObject *kv = PyList_GET_ITEM(items, i);
      if (dictAssign(reinterpret_cast<PyObject *>(self), PyTuple_GET_ITEM(kv, 0), PyTuple_GET_ITEM(kv, 1)) < 0) {
        Py_DECREF(items);
        return false;
      }
    }
    Py_DECREF(items);
    return true;
  };
  if ((init && !fill(init)) || (kwargs && PyDict_Size(kwargs) && !fill(kwargs))) {
    Py_DECREF(self);
    return nullptr;
  }
  return reinterpret_cast<PyObject *>(self);
}

void dictDealloc(PyObject *obj) {
  auto *self = asDict(obj);
  PyTypeObject *type = Py_TYPE(obj);
  if (self->weakrefs) PyObject_ClearWeakRefs(obj);
  mahou_rt_decref(self->dict);
  delete self->type;
  type->tp_free(obj);
  Py_DECREF(type);
}

Py_ssize_t dictLength(PyObject *obj) { return Py_ssize_t(size(asDict(obj))); }

PyObject *keyErrorFor(PyObject *key) {
  PyObject *t = PyTuple_Pack(1, key);
  if (t) {
    PyErr_SetObject(PyExc_KeyError, t);
    Py_DECREF(t);
  }
  return nullptr;
}

PyObject *dictSubscript(PyObject *obj, PyObject *key) {
  auto *self = asDict(obj);
  int64_t k;
  if (self->dict && isFastScalar(valueType(self)) && scalarItem(keyType(self), key, k)) {
    void *v = mahou_rt_dict_find(self->dict, &k);
    return v ? boxFastScalar(valueType(self), v) : keyErrorFor(key);
  }
  bool error;
  void *v = lookup(self, key, error);
  if (!v) return error ? nullptr : keyErrorFor(key);
  return fromNative(valueType(self), native(self)->valueDesc, v);
}

// d[key] = value and del d[key] in a table keyed by compiled code.
int assignByCode(TypedDictObject *self, PyObject *key, PyObject *value) {
  std::vector<char> k, v;
  Py_hash_t h;
  int64_t ix = entryByCode(self, key, k, &h);
  if (ix == -2) {
    if (!k.empty()) runtime::decrefItem(native(self)->keyDesc, k.data());
    return -1;
  }
  if (!value) {
    runtime::decrefItem(native(self)->keyDesc, k.data());
    if (ix < 0) return keyErrorFor(key), -1;
    mahou_rt_dict_remove_entry(self->dict, ix, nullptr, nullptr);
    return 0;
  }
  if (!toNative(valueType(self), value, v, "value")) {
    runtime::decrefItem(native(self)->keyDesc, k.data());
    return -1;
  }
  if (ix >= 0) { // the value replaced; the first key object stays, as in Python
    runtime::decrefItem(native(self)->keyDesc, k.data());
    auto *at = static_cast<char *>(mahou_rt_dict_value_of_key(self->dict, mahou_rt_dict_entry_key(self->dict, ix)));
    const MahouTypeDesc *vd = native(self)->valueDesc;
    std::vector<char> old(at, at + vd->size);
    std::memcpy(at, v.data(), vd->size);
    runtime::decrefItem(vd, old.data());
    return 0;
  }
  return mahou_rt_dict_insert_hashed(self->dict, k.data(), v.data(), h) == 0 ? 0 : (setRuntimeError(), -1);
}

int dictAssign(PyObject *obj, PyObject *key, PyObject *value) {
  auto *self = asDict(obj);
  if (value && !ensureTypes(self, key, value)) return -1;
  if (byCode(self)) return assignByCode(self, key, value);
  if (!value) { // del d[key]
    bool error;
    if (!lookup(self, key, error)) return error ? -1 : (keyErrorFor(key), -1);
    std::vector<char> k;
    if (!toNative(keyType(self), key, k, "key")) return -1;
    int32_t rc = mahou_rt_dict_remove(self->dict, k.data(), nullptr, nullptr);
    runtime::decrefItem(native(self)->keyDesc, k.data());
    return rc == 0 ? 0 : (keyErrorFor(key), -1);
  }
  if (!ensureTypes(self, key, value)) return -1;
  int64_t fastKey, fastValue;
  if (scalarItem(keyType(self), key, fastKey) && scalarItem(valueType(self), value, fastValue))
    return mahou_rt_dict_setitem(self->dict, &fastKey, &fastValue) == 0 ? 0 : (setRuntimeError(), -1);
  std::vector<char> k, v;
  if (!toNative(keyType(self), key, k, "key")) return -1;
  if (!toNative(valueType(self), value, v, "value")) {
    runtime::decrefItem(native(self)->keyDesc, k.data());
    return -1;
  }
  return mahou_rt_dict_setitem(self->dict, k.data(), v.data()) == 0 ? 0 : (setRuntimeError(), -1);
}

int dictContains(PyObject *obj, PyObject *key) {
  bool error;
  void *v = lookup(asDict(obj), key, error);
  return error ? -1 : v != nullptr;
}

// The keys, values or (key, value) tuples as a new Python list.
PyObject *entries(TypedDictObject *self, int part) {
  PyObject *out = PyList_New(0);
  if (!out || !self->dict) return out;
  MahouDict *d = native(self);
  for (int64_t i = 0; i < d->used; ++i) {
    void *k = mahou_rt_dict_entry_key(self->dict, i);
    if (!k) continue;
    PyObject *item;
    PyObject *key = part != 1 ? fromNative(keyType(self), d->keyDesc, k) : nullptr;
    PyObject *value = part != 0 ? fromNative(valueType(self), d->valueDesc, mahou_rt_dict_value_of_key(self->dict, k)) : nullptr;
    if ((part != 1 && !key) || (part != 0 && !value)) {
      Py_XDECREF(key);
      Py_XDECREF(value);
      Py_DECREF(out);
      return nullptr;
    }
    if (part == 2) {
      item = PyTuple_Pack(2, key, value);
      Py_DECREF(key);
      Py_DECREF(value);
    } else {
      item = part == 0 ? key : value;
    }
    if (!item || PyList_Append(out, item) < 0) {
      Py_XDECREF(item);
      Py_DECREF(out);
      return nullptr;
    }
    Py_DECREF(item);
  }
  return out;
}

// An iterator over the live entries (keys, values or items), with CPython's checks: a
// change of size since it began, or more entries than the dict had then (a key popped
// and added again), is a RuntimeError, never a stale or endless iteration.
struct DictIterObject {
  PyObject_HEAD
  PyObject *dict; // owned
  int64_t pos, size0, remaining;
  int part; // 0 keys, 1 values, 2 items
};

PyTypeObject *theDictIterType = nullptr;

PyObject *dictIterNext(PyObject *obj) {
  auto *it = reinterpret_cast<DictIterObject *>(obj);
  auto *self = asDict(it->dict);
  if (it->size0 < 0) return nullptr; // finished
  auto fail = [&](const char *why) -> PyObject * {
    it->size0 = -1;
    PyErr_SetString(PyExc_RuntimeError, why);
    return nullptr;
  };
  if (size(self) != it->size0) return fail("dictionary changed size during iteration");
  while (self->dict && it->pos < native(self)->used) {
    MahouDict *d = native(self);
    void *k = mahou_rt_dict_entry_key(self->dict, it->pos++);
    if (!k) continue;
    if (it->remaining == 0) return fail("dictionary keys changed during iteration");
    --it->remaining;
    PyObject *key = it->part != 1 ? fromNative(keyType(self), d->keyDesc, k) : nullptr;
    if (it->part == 0) return key;
    PyObject *value = key || it->part == 1 ? fromNative(valueType(self), d->valueDesc, mahou_rt_dict_value_of_key(self->dict, k))
                                           : nullptr;
    if (it->part == 1 || !value) {
      Py_XDECREF(key);
      return value;
    }
    PyObject *item = PyTuple_Pack(2, key, value);
    Py_DECREF(key);
    Py_DECREF(value);
    return item;
  }
  it->size0 = -1;
  return nullptr;
}

void dictIterDealloc(PyObject *obj) {
  PyTypeObject *type = Py_TYPE(obj);
  Py_XDECREF(reinterpret_cast<DictIterObject *>(obj)->dict);
  type->tp_free(obj);
  Py_DECREF(type);
}

PyObject *newDictIter(PyObject *obj, int part) {
  auto *it = PyObject_New(DictIterObject, theDictIterType);
  if (!it) return nullptr;
  it->dict = Py_NewRef(obj);
  it->pos = 0;
  it->size0 = it->remaining = size(asDict(obj));
  it->part = part;
  return reinterpret_cast<PyObject *>(it);
}

PyType_Slot dictIterSlots[] = {
    {Py_tp_dealloc, reinterpret_cast<void *>(dictIterDealloc)},
    {Py_tp_iter, reinterpret_cast<void *>(PyObject_SelfIter)},
    {Py_tp_iternext, reinterpret_cast<void *>(dictIterNext)},
    {0, nullptr},
};

PyType_Spec dictIterSpec = {"mahou.typed.DictIterator", sizeof(DictIterObject), 0, Py_TPFLAGS_DEFAULT, dictIterSlots};

PyObject *dictIter(PyObject *obj) { return newDictIter(obj, 0); }

// d._iter_entries(part): the checked iterator of keys (0), values (1) or items (2), which
// the views keys(), values() and items() (mahou/typed/__init__.py) iterate with.
PyObject *dictIterEntries(PyObject *obj, PyObject *arg) {
  long part = PyLong_AsLong(arg);
  if (part == -1 && PyErr_Occurred()) return nullptr;
  if (part < 0 || part > 2) return PyErr_Format(PyExc_ValueError, "part must be 0, 1 or 2, not %ld", part);
  return newDictIter(obj, int(part));
}

PyObject *dictGetMethod(PyObject *obj, PyObject *const *args, Py_ssize_t n) {
  if (n < 1 || n > 2) return PyErr_Format(PyExc_TypeError, "get expected 1 or 2 arguments, got %zd", n);
  auto *self = asDict(obj);
  bool error;
  void *v = lookup(self, args[0], error);
  if (error) return nullptr;
  if (!v) return Py_NewRef(n == 2 ? args[1] : Py_None);
  return fromNative(valueType(self), native(self)->valueDesc, v);
}

PyObject *dictPopMethod(PyObject *obj, PyObject *const *args, Py_ssize_t n) {
  if (n < 1 || n > 2) return PyErr_Format(PyExc_TypeError, "pop expected 1 or 2 arguments, got %zd", n);
  auto *self = asDict(obj);
  bool error;
  if (!lookup(self, args[0], error)) {
    if (error) return nullptr;
    if (n == 2) return Py_NewRef(args[1]);
    return keyErrorFor(args[0]);
  }
  PyObject *value = dictSubscript(obj, args[0]);
  if (!value || dictAssign(obj, args[0], nullptr) < 0) {
    Py_XDECREF(value);
    return nullptr;
  }
  return value;
}

PyObject *dictSetDefault(PyObject *obj, PyObject *const *args, Py_ssize_t n) {
  if (n < 1 || n > 2) return PyErr_Format(PyExc_TypeError, "setdefault expected 1 or 2 arguments, got %zd", n);
  bool error;
  if (!lookup(asDict(obj), args[0], error)) {
    if (error) return nullptr;
    if (dictAssign(obj, args[0], n == 2 ? args[1] : Py_None) < 0) return nullptr;
  }
  return dictSubscript(obj, args[0]);
}

PyObject *dictPopItem(PyObject *obj, PyObject *) {
  PyObject *items = entries(asDict(obj), 2);
  if (!items) return nullptr;
  Py_ssize_t n = PyList_GET_SIZE(items);
  if (n == 0) {
    Py_DECREF(items);
    PyErr_SetString(PyExc_KeyError, "popitem(): dictionary is empty");
    return nullptr;
  }
  PyObject *last = Py_NewRef(PyList_GET_ITEM(items, n - 1));
  Py_DECREF(items);
  if (dictAssign(obj, PyTuple_GET_ITEM(last, 0), nullptr) < 0) {
    Py_DECREF(last);
    return nullptr;
  }
  return last;
}

PyObject *dictUpdate(PyObject *obj, PyObject *other) {
  PyObject *items = PyMapping_Items(other);
  if (!items) return nullptr;
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(items); ++i) {
    PyObject *kv = PyList_GET_ITEM(items, i);
    if (dictAssign(obj, PyTuple_GET_ITEM(kv, 0), PyTuple_GET_ITEM(kv, 1)) < 0) {
      Py_DECREF(items);
      return nullptr;
    }
  }
  Py_DECREF(items);
  Py_RETURN_NONE;
}

PyObject *dictClear(PyObject *obj, PyObject *) {
  if (asDict(obj)->dict) mahou_rt_dict_clear(asDict(obj)->dict);
  Py_RETURN_NONE;
}

PyObject *dictCopy(PyObject *obj, PyObject *) { return copyTable(asDict(obj), theTypedDictType); }

PyObject *dictRepr(PyObject *obj) {
  auto *self = asDict(obj);
  PyObject *items = entries(self, 2);
  if (!items) return nullptr;
  PyObject *plain = PyDict_New();
  for (Py_ssize_t i = 0; plain && i < PyList_GET_SIZE(items); ++i) {
    PyObject *kv = PyList_GET_ITEM(items, i);
    if (PyDict_SetItem(plain, PyTuple_GET_ITEM(kv, 0), PyTuple_GET_ITEM(kv, 1)) < 0) Py_CLEAR(plain);
  }
  Py_DECREF(items);
  if (!plain) return nullptr;
  PyObject *r = PyUnicode_FromFormat("%R", plain);
  Py_DECREF(plain);
  return r;
}

PyObject *dictRichCompare(PyObject *a, PyObject *b, int op) {
  if (op != Py_EQ && op != Py_NE) Py_RETURN_NOTIMPLEMENTED;
  PyObject *x = entries(asDict(a), 2);
  if (!x) return nullptr;
  PyObject *da = PyDict_New(), *db = nullptr;
  for (Py_ssize_t i = 0; da && i < PyList_GET_SIZE(x); ++i) {
    PyObject *kv = PyList_GET_ITEM(x, i);
    if (PyDict_SetItem(da, PyTuple_GET_ITEM(kv, 0), PyTuple_GET_ITEM(kv, 1)) < 0) Py_CLEAR(da);
  }
  Py_DECREF(x);
  if (!da) return nullptr;
  if (isTypedDict(b)) {
    PyObject *y = entries(asDict(b), 2);
    if (!y) {
      Py_DECREF(da);
      return nullptr;
    }
    db = PyDict_New();
    for (Py_ssize_t i = 0; db && i < PyList_GET_SIZE(y); ++i) {
      PyObject *kv = PyList_GET_ITEM(y, i);
      if (PyDict_SetItem(db, PyTuple_GET_ITEM(kv, 0), PyTuple_GET_ITEM(kv, 1)) < 0) Py_CLEAR(db);
    }
    Py_DECREF(y);
  } else if (PyDict_Check(b)) {
    db = Py_NewRef(b);
  } else {
    Py_DECREF(da);
    Py_RETURN_NOTIMPLEMENTED;
  }
  if (!db) {
    Py_DECREF(da);
    return nullptr;
  }
  PyObject *r = PyObject_RichCompare(da, db, op);
  Py_DECREF(da);
  Py_DECREF(db);
  return r;
}

PyObject *parseType(PyObject *t, Type &out) {
  nb::object text = nb::steal(PyObject_Str(t));
  if (!text.is_valid()) return nullptr;
  std::string error;
  auto parsed = types::parseType(nb::cast<std::string>(text), &error);
  if (!parsed) return PyErr_Format(PyExc_TypeError, "not a mahou type: %R (%s)", t, error.c_str());
  out = *parsed;
  return Py_None;
}

PyObject *dictEmpty(PyObject *cls, PyObject *args, PyObject *kwargs) {
  PyObject *kt, *vt;
  Py_ssize_t nItems = 0;
  static const char *keywords[] = {"key_type", "value_type", "n_keys", nullptr};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|n:empty", const_cast<char **>(keywords), &kt, &vt, &nItems))
    return nullptr;
  Type k, v;
  if (!parseType(kt, k) || !parseType(vt, v)) return nullptr;
  if (!hashableKey(k))
    return PyErr_Format(PyExc_TypeError, "unhashable key type: %s", k.str().c_str());
  TypedDictObject *self = allocate(reinterpret_cast<PyTypeObject *>(cls));
  if (!self) return nullptr;
  if (!setTypes(self, k, v)) {
    Py_DECREF(self);
    return nullptr;
  }
  return reinterpret_cast<PyObject *>(self);
}

PyObject *dictKeyType(PyObject *obj, void *) {
  auto *self = asDict(obj);
  return self->type ? toPyType(keyType(self)) : Py_NewRef(Py_None);
}
PyObject *dictValueType(PyObject *obj, void *) {
  auto *self = asDict(obj);
  return self->type ? toPyType(valueType(self)) : Py_NewRef(Py_None);
}

#define MAHOU_FASTCALL(fn) reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fn))

PyMethodDef dictMethods[] = {
    {"_iter_entries", dictIterEntries, METH_O, nullptr},
    {"get", MAHOU_FASTCALL(dictGetMethod), METH_FASTCALL, nullptr},
    {"pop", MAHOU_FASTCALL(dictPopMethod), METH_FASTCALL, nullptr},
    {"setdefault", MAHOU_FASTCALL(dictSetDefault), METH_FASTCALL, nullptr},
    {"popitem", dictPopItem, METH_NOARGS, nullptr},
    {"update", dictUpdate, METH_O, nullptr},
    {"clear", dictClear, METH_NOARGS, nullptr},
    {"copy", dictCopy, METH_NOARGS, nullptr},
    {"empty", MAHOU_FASTCALL(dictEmpty), METH_VARARGS | METH_KEYWORDS | METH_CLASS,
     "Dict.empty(key_type, value_type): an empty typed dict."},
    {"__class_getitem__", Py_GenericAlias, METH_O | METH_CLASS, "Dict[K, V] for annotations."},
    {nullptr, nullptr, 0, nullptr},
};

PyGetSetDef dictGetSets[] = {
    {"key_type", dictKeyType, nullptr, nullptr, nullptr},
    {"value_type", dictValueType, nullptr, nullptr, nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

PyMemberDef dictMembers[] = {
    {"__weaklistoffset__", T_PYSSIZET, offsetof(TypedDictObject, weakrefs), READONLY, nullptr},
    {nullptr, 0, 0, 0, nullptr},
};

PyType_Slot dictSlots[] = {
    {Py_tp_new, reinterpret_cast<void *>(dictNew)},
    {Py_tp_dealloc, reinterpret_cast<void *>(dictDealloc)},
    {Py_tp_repr, reinterpret_cast<void *>(dictRepr)},
    {Py_tp_richcompare, reinterpret_cast<void *>(dictRichCompare)},
    {Py_tp_iter, reinterpret_cast<void *>(dictIter)},
    {Py_tp_methods, dictMethods},
    {Py_tp_getset, dictGetSets},
    {Py_tp_members, dictMembers},
    {Py_sq_contains, reinterpret_cast<void *>(dictContains)},
    {Py_mp_length, reinterpret_cast<void *>(dictLength)},
    {Py_mp_subscript, reinterpret_cast<void *>(dictSubscript)},
    {Py_mp_ass_subscript, reinterpret_cast<void *>(dictAssign)},
    {Py_tp_doc, const_cast<char *>("A dict of one key and one value type shared with compiled code (numba.typed.Dict).")},
    {0, nullptr},
};

PyType_Spec dictSpec = {"mahou.typed.Dict", sizeof(TypedDictObject), 0, Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
                        dictSlots};

} // namespace

bool isTypedDict(PyObject *obj) { return theTypedDictType && PyObject_TypeCheck(obj, theTypedDictType); }

std::optional<Type> typedDictType(PyObject *obj) {
  auto *self = asDict(obj);
  if (!self->type) return std::nullopt;
  return *self->type;
}

bool unboxTypedDict(PyObject *obj, const Type &t, char *dst) {
  if (unboxTable(obj, isTypedDict(obj), t, dst, "a typed dict")) return true;
  PyErr_Format(PyExc_TypeError, "expected a typed dict %s (a Python dict is not converted: use mahou.typed.Dict)",
               t.str().c_str());
  return false;
}

PyObject *wrapTypedDict(MahouMemInfo *dict, const Type &dictType) { return wrapTable(theTypedDictType, dict, dictType); }

// ------------------------------------------------------------------ Python sets

MahouMemInfo *setFromPython(PyObject *obj, const Type &setType) {
  const Type &item = setType.elems[0];
  MahouMemInfo *s = mahou_rt_dict_new(descriptorOf(item), nullptr);
  if (!s) return setRuntimeError(), nullptr;
  PyObject *it = PyObject_GetIter(obj);
  if (!it) {
    mahou_rt_decref(s);
    return nullptr;
  }
  std::vector<char> buf;
  bool keyedByCode = mahouDict(s)->keyKind == MAHOU_KEY_BY_CODE;
  while (PyObject *x = PyIter_Next(it)) {
    bool ok = toNative(item, x, buf, "item");
    if (ok && keyedByCode) { // @jitclass items: their compiled __hash__ and __eq__, through Python
      Py_hash_t h = PyObject_Hash(x);
      int64_t ix = h == -1 ? -2 : findByCode(s, item, x, buf.data(), h);
      if (ix != -1) runtime::decrefItem(mahouDict(s)->keyDesc, buf.data());
      ok = ix != -2;
      if (ok && ix == -1 && mahou_rt_dict_insert_hashed(s, buf.data(), nullptr, h) != 0) ok = setRuntimeError();
      Py_DECREF(x);
      if (ok) continue;
      Py_DECREF(it);
      mahou_rt_decref(s);
      return nullptr;
    }
    Py_DECREF(x);
    if (!ok || mahou_rt_dict_setitem(s, buf.data(), nullptr) != 0) {
      if (ok) setRuntimeError();
      Py_DECREF(it);
      mahou_rt_decref(s);
      return nullptr;
    }
  }
  Py_DECREF(it);
  if (PyErr_Occurred()) {
    mahou_rt_decref(s);
    return nullptr;
  }
  return s;
}

PyObject *setToPython(MahouMemInfo *set, const Type &item) {
  PyObject *out = PySet_New(nullptr);
  if (!out) return nullptr;
  MahouDict *d = mahouDict(set);
  for (int64_t i = 0; i < d->used; ++i) {
    void *k = mahou_rt_dict_entry_key(set, i);
    if (!k) continue;
    PyObject *x = fromNative(item, d->keyDesc, k);
    if (!x || PySet_Add(out, x) < 0) {
      Py_XDECREF(x);
      Py_DECREF(out);
      return nullptr;
    }
    Py_DECREF(x);
  }
  return out;
}

bool reflectSet(PyObject *target, MahouMemInfo *set, const Type &item) {
  PyObject *fresh = setToPython(set, item);
  if (!fresh) return false;
  int rc = PySet_Clear(target);
  PyObject *r = rc == 0 ? PyObject_CallMethod(target, "update", "O", fresh) : nullptr;
  Py_DECREF(fresh);
  Py_XDECREF(r);
  return r != nullptr;
}

// ------------------------------------------------------------------ typed sets
// mahou.typed.Set (numba.typed.Set): a native set (a table without values) shared with
// compiled code, in the same object layout as a typed dict; the key type is given
// (Set.empty) or taken from the first key. mahou.typed adds the MutableSet methods.

namespace {

PyTypeObject *theTypedSetBase = nullptr; // _core.TypedSet
PyObject *theTypedSetClass = nullptr;    // mahou.typed.Set (what compiled code returns)

bool setKeyType(TypedDictObject *self, const Type &k) {
  MahouMemInfo *d = mahou_rt_dict_new(descriptorOf(k), nullptr);
  if (!d) return setRuntimeError();
  self->dict = d;
  self->type = new Type(Type::set(k, true));
  return true;
}

bool ensureKeyType(TypedDictObject *self, PyObject *key) {
  if (self->type) return true;
  if (!ensureNumpyApi()) return false;
  std::string why;
  auto k = typeOfObject(key, &why);
  if (!k) return PyErr_Format(PyExc_TypeError, "a typed set cannot hold %s", why.c_str()), false;
  if ((k->containsBuffer() && !isBytesType(*k)) || !hashableKey(*k))
    return PyErr_Format(PyExc_TypeError, "unhashable type: %s", k->str().c_str()), false;
  if (isBytesType(*k)) k->layout = types::Layout::A; // as compiled code keys bytes: any layout
  return setKeyType(self, *k);
}

PyObject *setAdd(PyObject *obj, PyObject *key) {
  auto *self = asDict(obj);
  if (!ensureKeyType(self, key)) return nullptr;
  std::vector<char> k;
  if (byCode(self)) {
    Py_hash_t h;
    int64_t ix = entryByCode(self, key, k, &h);
    if (ix != -1) { // present (or an error): the new key's reference goes
      if (!k.empty()) runtime::decrefItem(native(self)->keyDesc, k.data());
      if (ix == -2) return nullptr;
      Py_RETURN_NONE;
    }
    if (mahou_rt_dict_insert_hashed(self->dict, k.data(), nullptr, h) != 0) return setRuntimeError(), nullptr;
    Py_RETURN_NONE;
  }
  if (!toNative(keyType(self), key, k, "key")) return nullptr;
  if (mahou_rt_dict_setitem(self->dict, k.data(), nullptr) != 0) return setRuntimeError(), nullptr;
  Py_RETURN_NONE;
}

PyObject *setDiscard(PyObject *obj, PyObject *key) {
  auto *self = asDict(obj);
  bool error;
  if (!lookup(self, key, error)) return error ? nullptr : Py_NewRef(Py_None);
  std::vector<char> k;
  if (byCode(self)) {
    Py_hash_t h;
    int64_t ix = entryByCode(self, key, k, &h);
    if (!k.empty()) runtime::decrefItem(native(self)->keyDesc, k.data());
    if (ix == -2) return nullptr;
    if (ix >= 0) mahou_rt_dict_remove_entry(self->dict, ix, nullptr, nullptr);
    Py_RETURN_NONE;
  }
  if (!toNative(keyType(self), key, k, "key")) return nullptr;
  mahou_rt_dict_remove(self->dict, k.data(), nullptr, nullptr);
  runtime::decrefItem(native(self)->keyDesc, k.data());
  Py_RETURN_NONE;
}

PyObject *setNew(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
  PyObject *init = nullptr;
  if ((kwargs && PyDict_Size(kwargs)) || !PyArg_ParseTuple(args, "|O:Set", &init))
    return kwargs && PyDict_Size(kwargs) ? PyErr_Format(PyExc_TypeError, "Set() takes no keyword arguments") : nullptr;
  TypedDictObject *self = allocate(type);
  if (!self || !init) return reinterpret_cast<PyObject *>(self);
  PyObject *it = PyObject_GetIter(init);
  bool ok = it != nullptr;
  while (PyObject *x = ok ? PyIter_Next(it) : nullptr) {
    PyObject *r = setAdd(reinterpret_cast<PyObject *>(self), x);
    Py_DECREF(x);
    ok = r != nullptr;
    Py_XDECREF(r);
  }
  Py_XDECREF(it);
  if (!ok || PyErr_Occurred()) {
    Py_DECREF(self);
    return nullptr;
  }
  return reinterpret_cast<PyObject *>(self);
}

PyTypeObject *boxClass() { return reinterpret_cast<PyTypeObject *>(theTypedSetClass ? theTypedSetClass : reinterpret_cast<PyObject *>(theTypedSetBase)); }

PyObject *setKeys(PyObject *obj, PyObject *) { return entries(asDict(obj), 0); }

PyObject *setCopy(PyObject *obj, PyObject *) { return copyTable(asDict(obj), Py_TYPE(obj)); }

PyObject *setEmpty(PyObject *cls, PyObject *args, PyObject *kwargs) {
  PyObject *kt;
  static const char *keywords[] = {"key_type", nullptr};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O:empty", const_cast<char **>(keywords), &kt)) return nullptr;
  Type k;
  if (!parseType(kt, k)) return nullptr;
  if (!hashableKey(k)) return PyErr_Format(PyExc_TypeError, "unhashable key type: %s", k.str().c_str());
  TypedDictObject *self = allocate(reinterpret_cast<PyTypeObject *>(cls));
  if (self && !setKeyType(self, k)) Py_CLEAR(self);
  return reinterpret_cast<PyObject *>(self);
}

PyObject *setKeyTypeGetter(PyObject *obj, void *) {
  auto *self = asDict(obj);
  return self->type ? toPyType(keyType(self)) : Py_NewRef(Py_None);
}

PyObject *setTypeText(PyObject *obj, void *) {
  auto *self = asDict(obj);
  if (!self->type) Py_RETURN_NONE;
  std::string text = self->type->str();
  return PyUnicode_FromStringAndSize(text.data(), Py_ssize_t(text.size()));
}

PyObject *setRegisterClass(PyObject *, PyObject *cls) {
  if (!PyType_Check(cls) || !PyType_IsSubtype(reinterpret_cast<PyTypeObject *>(cls), theTypedSetBase))
    return PyErr_Format(PyExc_TypeError, "not a subclass of TypedSet");
  Py_XSETREF(theTypedSetClass, Py_NewRef(cls));
  Py_RETURN_NONE;
}

PyMethodDef setMethods[] = {
    {"add", setAdd, METH_O, "S.add(key): add key to the set."},
    {"discard", setDiscard, METH_O, "S.discard(key): remove key if present."},
    {"_keys", setKeys, METH_NOARGS, nullptr},
    {"copy", setCopy, METH_NOARGS, "S.copy(): a new typed set with the same keys."},
    {"empty", MAHOU_FASTCALL(setEmpty), METH_VARARGS | METH_KEYWORDS | METH_CLASS,
     "Set.empty(key_type): an empty typed set."},
    {"_register_class", setRegisterClass, METH_O | METH_STATIC, nullptr},
    {"__class_getitem__", Py_GenericAlias, METH_O | METH_CLASS, "Set[K] for annotations."},
    {nullptr, nullptr, 0, nullptr},
};

PyGetSetDef setGetSets[] = {
    {"key_type", setKeyTypeGetter, nullptr, nullptr, nullptr},
    {"_type_text", setTypeText, nullptr, nullptr, nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

PyType_Slot setSlots[] = {
    {Py_tp_new, reinterpret_cast<void *>(setNew)},
    {Py_tp_dealloc, reinterpret_cast<void *>(dictDealloc)},
    {Py_tp_methods, setMethods},
    {Py_tp_getset, setGetSets},
    {Py_tp_members, dictMembers},
    {Py_sq_contains, reinterpret_cast<void *>(dictContains)},
    {Py_sq_length, reinterpret_cast<void *>(dictLength)},
    {Py_tp_doc, const_cast<char *>("The native part of mahou.typed.Set: a set of one key type shared with compiled code.")},
    {0, nullptr},
};

PyType_Spec setSpec = {"mahou._core.TypedSet", sizeof(TypedDictObject), 0, Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
                       setSlots};

} // namespace

bool isTypedSet(PyObject *obj) { return theTypedSetBase && PyObject_TypeCheck(obj, theTypedSetBase); }

std::optional<Type> typedSetType(PyObject *obj) { return typedDictType(obj); } // the same layout

bool unboxTypedSet(PyObject *obj, const Type &t, char *dst) { return unboxTable(obj, isTypedSet(obj), t, dst, "a typed set"); }

PyObject *wrapTypedSet(MahouMemInfo *set, const Type &setType) { return wrapTable(boxClass(), set, setType); }

void registerTypedList(nb::module_ &m);

void registerTypedContainers(nb::module_ &m) {
  registerTypedList(m);
  PyObject *type = PyType_FromSpec(&dictSpec);
  if (!type) throw nb::python_error();
  theTypedDictType = reinterpret_cast<PyTypeObject *>(type);
  m.attr("TypedDict") = nb::borrow(type);
  PyObject *iterType = PyType_FromSpec(&dictIterSpec);
  if (!iterType) throw nb::python_error();
  theDictIterType = reinterpret_cast<PyTypeObject *>(iterType); // held by the module
  m.attr("TypedDictIterator") = nb::steal(iterType);
  PyObject *setType = PyType_FromSpec(&setSpec);
  if (!setType) throw nb::python_error();
  theTypedSetBase = reinterpret_cast<PyTypeObject *>(setType);
  m.attr("TypedSet") = nb::borrow(setType);
}

} // namespace mahou::binding
