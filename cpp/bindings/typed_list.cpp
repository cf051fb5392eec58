// mahou.typed.List: a Python object around the native list compiled code uses (no copy
// at the boundary). Its methods run here, in C++, on the same runtime list; the item
// type is given (List.empty_list) or taken from the first item, as Numba's typed.List.
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

struct TypedListObject {
  PyObject_HEAD
  MahouMemInfo *list; // null while the item type is not known
  Type *item;
  PyObject *weakrefs;
};

PyTypeObject *theTypedListType = nullptr;

TypedListObject *asList(PyObject *o) { return reinterpret_cast<TypedListObject *>(o); }
MahouList *native(TypedListObject *self) { return mahouList(self->list); }
int64_t size(TypedListObject *self) { return self->list ? native(self)->size : 0; }
char *itemPtr(TypedListObject *self, int64_t i) { return native(self)->items + i * native(self)->itemSize; }

bool setRuntimeError() {
  MahouError e = mahou_rt_take_error();
  PyErr_SetString(builtinExceptionClass(types::ExcKind(e.kind)), e.message);
  return false;
}

// Whether a Python value can be stored as an item of type `item` (numbers widen, never
// narrow: a float is not stored into a list of ints).
bool accepts(const Type &item, PyObject *x, std::string &why) {
  if (!ensureNumpyApi()) { // typing a value reads NumPy's scalar types
    PyErr_Clear();
    why = "a value (NumPy could not be imported)";
    return false;
  }
  auto t = typeOfObject(x, &why);
  if (!t) return false;
  if (*t == item || sameButBytesLayout(*t, item)) return true;
  if (item.isNumber() && t->isNumber()) {
    bool narrows = (t->isFloat() && !item.isFloat() && !item.isComplex()) || (t->isComplex() && !item.isComplex());
    if (!narrows) return true;
  }
  if (item.isArray() && arrayFitsType(x, item)) return true; // dtype, dimensions, layout, writeable
  if (item.isList() && t->isList() && t->elems[0] == item.elems[0]) return true;
  if (item.isOptional() && (x == Py_None || accepts(item.elems[0], x, why))) return true;
  why = t->str();
  return false;
}

// The native form of a Python value as an item (references owned), in `buf`.
bool itemFromPython(TypedListObject *self, PyObject *x, std::vector<char> &buf) {
  std::string why;
  if (!accepts(*self->item, x, why)) {
    PyErr_Format(PyExc_TypeError, "a typed list of %s cannot hold %s", self->item->str().c_str(), why.c_str());
    return false;
  }
  buf.assign(std::max<size_t>(types::nativeSize(*self->item), 1), 0);
  return unboxValue(x, *self->item, buf.data()) && adoptArrays(*self->item, buf.data());
}

PyObject *itemToPython(TypedListObject *self, int64_t i) {
  char *p = itemPtr(self, i);
  runtime::increfItem(native(self)->desc, p);
  return boxValue(*self->item, p);
}

bool setItemType(TypedListObject *self, const Type &item) {
  MahouMemInfo *list = mahou_rt_list_new(descriptorOf(item), 0);
  if (!list) return setRuntimeError();
  self->list = list;
  self->item = new Type(item);
  return true;
}

// The first item gives the type when none was given.
bool ensureItemType(TypedListObject *self, PyObject *x) {
  if (self->item) return true;
  if (!ensureNumpyApi()) return false;
  std::string why;
  auto t = typeOfObject(x, &why);
  // A bytes value is boxed back as a new bytes (as Numba's typed.List of bytes); other
  // buffers could not be read back (they are never boxed).
  if (!t || (t->containsBuffer() && !isBytesType(*t))) {
    PyErr_Format(PyExc_TypeError, "a typed list cannot hold %s", t ? t->str().c_str() : why.c_str());
    return false;
  }
  return setItemType(self, *t);
}

bool normalizeIndex(TypedListObject *self, Py_ssize_t &i, const char *what) {
  int64_t n = size(self);
  if (i < 0) i += Py_ssize_t(n);
  if (i < 0 || i >= Py_ssize_t(n)) {
    PyErr_SetString(PyExc_IndexError, what);
    return false;
  }
  return true;
}

// ------------------------------------------------------------------ type slots

PyObject *listNew(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
  PyObject *iterable = nullptr;
  static const char *keywords[] = {"iterable", nullptr};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:List", const_cast<char **>(keywords), &iterable)) return nullptr;
  auto *self = asList(type->tp_alloc(type, 0));
  if (!self) return nullptr;
  self->list = nullptr;
  self->item = nullptr;
  if (iterable) {
    PyObject *it = PyObject_GetIter(iterable);
    if (!it) {
      Py_DECREF(self);
      return nullptr;
    }
    std::vector<char> buf;
    while (PyObject *x = PyIter_Next(it)) {
      bool ok = ensureItemType(self, x) && itemFromPython(self, x, buf);
      Py_DECREF(x);
      if (!ok || mahou_rt_list_append(self->list, buf.data()) != 0) {
        if (ok) setRuntimeError();
        Py_DECREF(it);
        Py_DECREF(self);
        return nullptr;
      }
    }
    Py_DECREF(it);
    if (PyErr_Occurred()) {
      Py_DECREF(self);
      return nullptr;
    }
  }
  return reinterpret_cast<PyObject *>(self);
}

void listDealloc(PyObject *obj) {
  auto *self = asList(obj);
  PyTypeObject *type = Py_TYPE(obj);
  if (self->weakrefs) PyObject_ClearWeakRefs(obj);
  mahou_rt_decref(self->list);
  delete self->item;
  type->tp_free(obj);
  Py_DECREF(type);
}

Py_ssize_t listLength(PyObject *obj) { return Py_ssize_t(size(asList(obj))); }

PyObject *listItem(PyObject *obj, Py_ssize_t i) {
  auto *self = asList(obj);
  if (!normalizeIndex(self, i, "list index out of range")) return nullptr;
  if (isFastScalar(*self->item)) return boxFastScalar(*self->item, itemPtr(self, int64_t(i)));
  return itemToPython(self, int64_t(i));
}

PyObject *listSubscript(PyObject *obj, PyObject *key) {
  auto *self = asList(obj);
  if (PySlice_Check(key)) {
    Py_ssize_t start, stop, step;
    if (PySlice_Unpack(key, &start, &stop, &step) < 0) return nullptr;
    auto *out = asList(theTypedListType->tp_alloc(theTypedListType, 0));
    if (!out) return nullptr;
    out->list = nullptr;
    out->item = nullptr;
    if (self->item) {
      out->item = new Type(*self->item);
      out->list = mahou_rt_list_slice(self->list, start, stop, step, 0);
      if (!out->list) {
        setRuntimeError();
        Py_DECREF(out);
        return nullptr;
      }
    }
    return reinterpret_cast<PyObject *>(out);
  }
  Py_ssize_t i = PyNumber_AsSsize_t(key, PyExc_IndexError);
  if (i == -1 && PyErr_Occurred()) return nullptr;
  return listItem(obj, i);
}

int listAssign(PyObject *obj, PyObject *key, PyObject *value) {
  auto *self = asList(obj);
  if (PySlice_Check(key)) {
    PyErr_SetString(PyExc_NotImplementedError, "slice assignment on a typed list from Python is not supported");
    return -1;
  }
  Py_ssize_t i = PyNumber_AsSsize_t(key, PyExc_IndexError);
  if (i == -1 && PyErr_Occurred()) return -1;
  if (!normalizeIndex(self, i, value ? "list assignment index out of range" : "list assignment index out of range"))
    return -1;
  if (!value) return mahou_rt_list_delitem(self->list, i) ? (setRuntimeError(), -1) : 0;
  std::vector<char> buf;
  if (!itemFromPython(self, value, buf)) return -1;
  char *p = itemPtr(self, i);
  std::vector<char> old(p, p + native(self)->itemSize);
  std::memcpy(p, buf.data(), size_t(native(self)->itemSize));
  native(self)->dirty = 1;
  runtime::decrefItem(native(self)->desc, old.data());
  return 0;
}

int listContains(PyObject *obj, PyObject *x) {
  auto *self = asList(obj);
  if (!self->item) return 0;
  std::string why;
  if (!accepts(*self->item, x, why)) return 0;
  std::vector<char> buf;
  if (!itemFromPython(self, x, buf)) return -1;
  int64_t at = mahou_rt_list_find(self->list, buf.data(), 0, INT64_MAX);
  runtime::decrefItem(native(self)->desc, buf.data());
  return at >= 0;
}

PyObject *listRepr(PyObject *obj) {
  auto *self = asList(obj);
  std::string prefix = self->item ? "ListType[" + self->item->str() + "]" : "ListType[undefined]";
  PyObject *items = PyList_New(0);
  if (!items) return nullptr;
  for (int64_t i = 0; i < size(self); ++i) {
    PyObject *x = itemToPython(self, i);
    if (!x || PyList_Append(items, x) < 0) {
      Py_XDECREF(x);
      Py_DECREF(items);
      return nullptr;
    }
    Py_DECREF(x);
  }
  PyObject *r = PyUnicode_FromFormat("%s(%R)", prefix.c_str(), items);
  Py_DECREF(items);
  return r;
}

PyObject *listRichCompare(PyObject *a, PyObject *b, int op) {
  if ((op != Py_EQ && op != Py_NE) || !PyObject_TypeCheck(b, theTypedListType)) Py_RETURN_NOTIMPLEMENTED;
  auto *x = asList(a), *y = asList(b);
  bool eq;
  if (!x->item || !y->item) eq = size(x) == size(y);
  else if (*x->item != *y->item) eq = false;
  else eq = mahou_rt_list_equal(x->list, y->list);
  return PyBool_FromLong(eq == (op == Py_EQ));
}

// ------------------------------------------------------------------ methods

PyObject *listAppend(PyObject *obj, PyObject *x) {
  auto *self = asList(obj);
  int64_t fast;
  if (self->list && scalarItem(*self->item, x, fast)) {
    if (mahou_rt_list_append(self->list, &fast) != 0) return setRuntimeError(), nullptr;
    Py_RETURN_NONE;
  }
  std::vector<char> buf;
  if (!ensureItemType(self, x) || !itemFromPython(self, x, buf)) return nullptr;
  if (mahou_rt_list_append(self->list, buf.data()) != 0) return setRuntimeError(), nullptr;
  Py_RETURN_NONE;
}

PyObject *listExtend(PyObject *obj, PyObject *iterable) {
  PyObject *it = PyObject_GetIter(iterable);
  if (!it) return nullptr;
  while (PyObject *x = PyIter_Next(it)) {
    PyObject *r = listAppend(obj, x);
    Py_DECREF(x);
    if (!r) {
      Py_DECREF(it);
      return nullptr;
    }
    Py_DECREF(r);
  }
  Py_DECREF(it);
  if (PyErr_Occurred()) return nullptr;
  Py_RETURN_NONE;
}

PyObject *listInsert(PyObject *obj, PyObject *const *args, Py_ssize_t n) {
  if (n != 2) return PyErr_Format(PyExc_TypeError, "insert expected 2 arguments, got %zd", n);
  auto *self = asList(obj);
  Py_ssize_t i = PyNumber_AsSsize_t(args[0], PyExc_IndexError);
  if (i == -1 && PyErr_Occurred()) return nullptr;
  std::vector<char> buf;
  if (!ensureItemType(self, args[1]) || !itemFromPython(self, args[1], buf)) return nullptr;
  if (mahou_rt_list_insert(self->list, i, buf.data()) != 0) return setRuntimeError(), nullptr;
  Py_RETURN_NONE;
}

PyObject *listPop(PyObject *obj, PyObject *const *args, Py_ssize_t n) {
  auto *self = asList(obj);
  Py_ssize_t i = -1;
  if (n > 1) return PyErr_Format(PyExc_TypeError, "pop expected at most 1 argument, got %zd", n);
  if (n == 1 && (i = PyNumber_AsSsize_t(args[0], PyExc_IndexError)) == -1 && PyErr_Occurred()) return nullptr;
  if (!self->list) {
    PyErr_SetString(PyExc_IndexError, "pop from empty list");
    return nullptr;
  }
  std::vector<char> buf(std::max<size_t>(size_t(native(self)->itemSize), 1));
  if (mahou_rt_list_pop(self->list, i, buf.data()) != 0) return setRuntimeError(), nullptr;
  return boxValue(*self->item, buf.data()); // takes the popped item's references
}

// index/count/remove: the item compared by the list's own item equality.
PyObject *listSearch(PyObject *obj, PyObject *x, int which) {
  auto *self = asList(obj);
  std::string why;
  std::vector<char> buf;
  bool comparable = self->item && accepts(*self->item, x, why);
  if (comparable && !itemFromPython(self, x, buf)) return nullptr;
  if (which == 1) { // count
    int64_t c = comparable ? mahou_rt_list_count(self->list, buf.data()) : 0;
    if (comparable) runtime::decrefItem(native(self)->desc, buf.data());
    return PyLong_FromLongLong(c);
  }
  int64_t at = comparable ? mahou_rt_list_find(self->list, buf.data(), 0, INT64_MAX) : -1;
  if (comparable) runtime::decrefItem(native(self)->desc, buf.data());
  if (at < 0) {
    if (which == 0) return PyErr_Format(PyExc_ValueError, "%R is not in list", x); // as CPython's list.index
    PyErr_SetString(PyExc_ValueError, "list.remove(x): x not in list");
    return nullptr;
  }
  if (which == 0) return PyLong_FromLongLong(at);
  if (mahou_rt_list_delitem(self->list, at) != 0) return setRuntimeError(), nullptr;
  Py_RETURN_NONE;
}

PyObject *listIndex(PyObject *obj, PyObject *x) { return listSearch(obj, x, 0); }
PyObject *listCount(PyObject *obj, PyObject *x) { return listSearch(obj, x, 1); }
PyObject *listRemove(PyObject *obj, PyObject *x) { return listSearch(obj, x, 2); }

PyObject *listReverse(PyObject *obj, PyObject *) {
  if (asList(obj)->list) mahou_rt_list_reverse(asList(obj)->list);
  Py_RETURN_NONE;
}

PyObject *listClear(PyObject *obj, PyObject *) {
  if (asList(obj)->list) mahou_rt_list_clear(asList(obj)->list);
  Py_RETURN_NONE;
}

PyObject *listCopy(PyObject *obj, PyObject *) {
  PyObject *all = PySlice_New(nullptr, nullptr, nullptr);
  PyObject *r = listSubscript(obj, all);
  Py_DECREF(all);
  return r;
}

PyObject *listSort(PyObject *obj, PyObject *args, PyObject *kwargs) {
  PyObject *key = Py_None;
  int reverse = 0;
  static const char *keywords[] = {"key", "reverse", nullptr};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|$Op:sort", const_cast<char **>(keywords), &key, &reverse)) return nullptr;
  auto *self = asList(obj);
  if (!self->list) Py_RETURN_NONE;
  if (key != Py_None) {
    PyErr_SetString(PyExc_NotImplementedError, "typed List.sort(key=...) from Python is not supported");
    return nullptr;
  }
  if (!(native(self)->desc->flags & MAHOU_DESC_ORDERED)) {
    PyErr_Format(PyExc_TypeError, "items of type %s cannot be ordered", self->item->str().c_str());
    return nullptr;
  }
  if (mahou_rt_list_sort(self->list, reverse) != 0) return setRuntimeError(), nullptr; // MemoryError
  Py_RETURN_NONE;
}

PyObject *parseItemType(PyObject *itemType, Type &out) {
  nb::object text = nb::steal(PyObject_Str(itemType));
  if (!text.is_valid()) return nullptr;
  std::string error;
  auto t = types::parseType(nb::cast<std::string>(text), &error);
  if (!t) return PyErr_Format(PyExc_TypeError, "not a mahou type: %R (%s)", itemType, error.c_str());
  out = *t;
  return Py_None;
}

PyObject *listEmptyList(PyObject *cls, PyObject *args, PyObject *kwargs) {
  PyObject *itemType;
  Py_ssize_t allocated = 0;
  static const char *keywords[] = {"item_type", "allocated", nullptr};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|n:empty_list", const_cast<char **>(keywords), &itemType, &allocated))
    return nullptr;
  Type item;
  if (!parseItemType(itemType, item)) return nullptr;
  auto *self = asList(reinterpret_cast<PyTypeObject *>(cls)->tp_alloc(reinterpret_cast<PyTypeObject *>(cls), 0));
  if (!self) return nullptr;
  self->list = nullptr;
  self->item = nullptr;
  if (!setItemType(self, item) || (allocated > 0 && mahou_rt_list_reserve(self->list, allocated) != 0)) {
    if (!PyErr_Occurred()) setRuntimeError();
    Py_DECREF(self);
    return nullptr;
  }
  return reinterpret_cast<PyObject *>(self);
}

PyObject *listItemType(PyObject *obj, void *) {
  auto *self = asList(obj);
  if (!self->item) Py_RETURN_NONE;
  return toPyType(*self->item);
}

PyMethodDef listMethods[] = {
    {"append", listAppend, METH_O, "Appends an item (the first one fixes the item type)."},
    {"extend", listExtend, METH_O, nullptr},
    {"insert", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(listInsert)), METH_FASTCALL, nullptr},
    {"pop", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(listPop)), METH_FASTCALL, nullptr},
    {"index", listIndex, METH_O, nullptr},
    {"count", listCount, METH_O, nullptr},
    {"remove", listRemove, METH_O, nullptr},
    {"reverse", listReverse, METH_NOARGS, nullptr},
    {"clear", listClear, METH_NOARGS, nullptr},
    {"copy", listCopy, METH_NOARGS, nullptr},
    {"sort", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(listSort)), METH_VARARGS | METH_KEYWORDS, nullptr},
    {"empty_list", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(listEmptyList)),
     METH_VARARGS | METH_KEYWORDS | METH_CLASS, "List.empty_list(item_type, allocated=0): an empty typed list."},
    // List[float64], List[np.ndarray] in annotations: a generic alias, as Numba's List
    {"__class_getitem__", Py_GenericAlias, METH_O | METH_CLASS, "List[T] for annotations."},
    {nullptr, nullptr, 0, nullptr},
};

PyGetSetDef listGetSets[] = {
    {"item_type", listItemType, nullptr, "The item type (None until the first item).", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

PyMemberDef listMembers[] = {
    {"__weaklistoffset__", T_PYSSIZET, offsetof(TypedListObject, weakrefs), READONLY, nullptr},
    {nullptr, 0, 0, 0, nullptr},
};

PyType_Slot listSlots[] = {
    {Py_tp_new, reinterpret_cast<void *>(listNew)},
    {Py_tp_dealloc, reinterpret_cast<void *>(listDealloc)},
    {Py_tp_repr, reinterpret_cast<void *>(listRepr)},
    {Py_tp_richcompare, reinterpret_cast<void *>(listRichCompare)},
    {Py_tp_methods, listMethods},
    {Py_tp_getset, listGetSets},
    {Py_tp_members, listMembers},
    {Py_sq_length, reinterpret_cast<void *>(listLength)},
    {Py_sq_item, reinterpret_cast<void *>(listItem)},
    {Py_sq_contains, reinterpret_cast<void *>(listContains)},
    {Py_mp_length, reinterpret_cast<void *>(listLength)},
    {Py_mp_subscript, reinterpret_cast<void *>(listSubscript)},
    {Py_mp_ass_subscript, reinterpret_cast<void *>(listAssign)},
    {Py_tp_doc, const_cast<char *>("A list of one item type shared with compiled code (numba.typed.List).")},
    {0, nullptr},
};

PyType_Spec listSpec = {"mahou.typed.List", sizeof(TypedListObject), 0, Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
                        listSlots};

} // namespace

bool isTypedList(PyObject *obj) { return theTypedListType && PyObject_TypeCheck(obj, theTypedListType); }

std::optional<Type> typedListType(PyObject *obj) {
  auto *self = asList(obj);
  if (!self->item) return std::nullopt;
  return Type::list(*self->item, true);
}

bool unboxTypedList(PyObject *obj, const Type &t, char *dst) {
  if (!isTypedList(obj) || !asList(obj)->item || *asList(obj)->item != t.elems[0]) {
    PyErr_Format(PyExc_TypeError, "expected a typed list of %s", t.elems[0].str().c_str());
    return false;
  }
  MahouMemInfo *l = asList(obj)->list;
  mahou_rt_incref(l); // the argument's reference, released after the call
  std::memcpy(dst, &l, sizeof l);
  return true;
}

PyObject *wrapTypedList(MahouMemInfo *list, const Type &item) {
  auto *self = asList(theTypedListType->tp_alloc(theTypedListType, 0));
  if (!self) {
    mahou_rt_decref(list);
    return nullptr;
  }
  self->list = list;
  self->item = new Type(item);
  return reinterpret_cast<PyObject *>(self);
}

void registerTypedList(nb::module_ &m) {
  PyObject *type = PyType_FromSpec(&listSpec);
  if (!type) throw nb::python_error();
  theTypedListType = reinterpret_cast<PyTypeObject *>(type);
  m.attr("TypedList") = nb::borrow(type);
}

} // namespace mahou::binding
