// @jitclass on the Python side: the base of every class's box type (an instance holds
// one native instance, jitclass.h), field descriptors that read and write a field at
// its offset in C++ (no compiled call per access), boxing and unboxing of instances,
// and the class registry the compile environment reads (the box type's
// _mahou_class_info()).
#include "binding.h"
#include "objects_binding.h"

#include "mahou/jitclass.h"
#include "mahou/layout.h"
#include "mahou/objects.h"

#include <cstring>
#include <memory>
#include <unordered_map>

namespace nb = nanobind;

namespace mahou::binding {

using types::Type;

namespace {

struct JitInstanceObject {
  PyObject_HEAD
  MahouMemInfo *instance; // owned; null only while being built
};

// A field of a box type: its type and byte offset in the instance's payload.
struct JitFieldObject {
  PyObject_HEAD
  Type *type;
  size_t offset;
  PyObject *name;
  PyTypeObject *owner; // the box type (borrowed: it holds this descriptor)
};

PyTypeObject *theInstanceBase = nullptr;
PyTypeObject *theFieldType = nullptr;

JitInstanceObject *asInstance(PyObject *o) { return reinterpret_cast<JitInstanceObject *>(o); }
JitFieldObject *asField(PyObject *o) { return reinterpret_cast<JitFieldObject *>(o); }

void instanceDealloc(PyObject *self) {
  PyTypeObject *type = Py_TYPE(self);
  mahou_rt_decref(asInstance(self)->instance);
  type->tp_free(self);
  Py_DECREF(type);
}

PyObject *instanceNew(PyTypeObject *type, PyObject *, PyObject *) {
  PyErr_Format(PyExc_TypeError, "instances of the jitclass '%s' are made by calling the class", type->tp_name);
  return nullptr;
}

// The fields of an instance as a new Python dict-like repr: Name(field=value, ...).
PyObject *instanceRepr(PyObject *self) {
  return PyUnicode_FromFormat("<jitclass %s object at %p>", Py_TYPE(self)->tp_name, self);
}

PyType_Slot instanceSlots[] = {
    {Py_tp_new, reinterpret_cast<void *>(instanceNew)},
    {Py_tp_dealloc, reinterpret_cast<void *>(instanceDealloc)},
    {Py_tp_repr, reinterpret_cast<void *>(instanceRepr)},
    {Py_tp_doc, const_cast<char *>("An instance of a @jitclass: one native object shared with compiled code.")},
    {0, nullptr},
};
PyType_Spec instanceSpec = {"mahou._core.JitInstanceBase", sizeof(JitInstanceObject), 0,
                            Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, instanceSlots};

char *fieldAddress(PyObject *field, PyObject *obj) {
  if (!PyObject_TypeCheck(obj, asField(field)->owner)) {
    PyErr_Format(PyExc_TypeError, "descriptor '%U' for '%s' objects doesn't apply to a '%s' object", asField(field)->name,
                 asField(field)->owner->tp_name, Py_TYPE(obj)->tp_name);
    return nullptr;
  }
  MahouMemInfo *mi = asInstance(obj)->instance;
  return static_cast<char *>(mahouObjectPayload(mi)) + asField(field)->offset;
}

PyObject *fieldGet(PyObject *self, PyObject *obj, PyObject *) {
  if (!obj || obj == Py_None) return Py_NewRef(self);
  char *p = fieldAddress(self, obj);
  if (!p) return nullptr;
  const Type &t = *asField(self)->type;
  if (t.isScalar()) return boxValue(t, p); // no references: boxed in place
  // Boxing takes the references of the value: box a counted copy.
  size_t n = types::nativeSize(t);
  alignas(16) char small[64];
  std::unique_ptr<char[]> big;
  char *tmp = n <= sizeof small ? small : (big.reset(new char[n]), big.get());
  std::memcpy(tmp, p, n);
  runtime::increfItem(descriptorOf(t), tmp);
  return boxValue(t, tmp);
}

int fieldSet(PyObject *self, PyObject *obj, PyObject *value) {
  if (!value) {
    PyErr_Format(PyExc_AttributeError, "the field '%U' of a jitclass cannot be deleted", asField(self)->name);
    return -1;
  }
  char *p = fieldAddress(self, obj);
  if (!p) return -1;
  const Type &t = *asField(self)->type;
  size_t n = types::nativeSize(t);
  alignas(16) char small[64];
  std::unique_ptr<char[]> big;
  char *tmp = n <= sizeof small ? small : (big.reset(new char[n]), big.get());
  std::memset(tmp, 0, n);
  if (!unboxValue(value, t, tmp)) {
    if (PyErr_ExceptionMatches(PyExc_TypeError)) { // say which field refused it
      PyObject *type, *why, *traceback;
      PyErr_Fetch(&type, &why, &traceback);
      PyErr_Format(PyExc_TypeError, "cannot assign to the jitclass field '%U' of type %s: %S",
                   asField(self)->name, t.str().c_str(), why ? why : Py_None);
      Py_XDECREF(type);
      Py_XDECREF(why);
      Py_XDECREF(traceback);
    }
    return -1;
  }
  if (!adoptArrays(t, tmp)) { // arrays from NumPy get a reference of their own
    releaseValue(t, tmp);
    return -1;
  }
  if (t.hasRefs()) {
    const MahouTypeDesc *d = descriptorOf(t);
    alignas(16) char oldSmall[64];
    std::unique_ptr<char[]> oldBig;
    char *old = n <= sizeof oldSmall ? oldSmall : (oldBig.reset(new char[n]), oldBig.get());
    std::memcpy(old, p, n);
    std::memcpy(p, tmp, n);
    runtime::decrefItem(d, old); // after the store: the old value may hold the last reference to obj
  } else {
    std::memcpy(p, tmp, n);
  }
  return 0;
}

void fieldDealloc(PyObject *self) {
  PyTypeObject *type = Py_TYPE(self);
  delete asField(self)->type;
  Py_XDECREF(asField(self)->name);
  type->tp_free(self);
  Py_DECREF(type);
}

PyObject *fieldRepr(PyObject *self) {
  return PyUnicode_FromFormat("<jitclass field '%U' of type %s>", asField(self)->name,
                              asField(self)->type->str().c_str());
}

PyType_Slot fieldSlots[] = {
    {Py_tp_descr_get, reinterpret_cast<void *>(fieldGet)},
    {Py_tp_descr_set, reinterpret_cast<void *>(fieldSet)},
    {Py_tp_dealloc, reinterpret_cast<void *>(fieldDealloc)},
    {Py_tp_repr, reinterpret_cast<void *>(fieldRepr)},
    {0, nullptr},
};
PyType_Spec fieldSpec = {"mahou._core.JitField", sizeof(JitFieldObject), 0, Py_TPFLAGS_DEFAULT, fieldSlots};

Type parseFieldType(const std::string &text, const std::string &field) {
  std::string error;
  auto t = types::parseType(text, &error);
  if (!t) throw nb::type_error(("field '" + field + "': cannot read the type '" + text + "': " + error).c_str());
  if (!t->isScalar() && !t->isArray() && !t->isTuple() && !t->isObject() && !t->isOptional())
    throw nb::type_error(("field '" + field + "': a " + t->str() + " cannot be a jitclass field").c_str());
  return *t;
}

// ---- the class registry. A class's handle is a digest of its description (module,
// qualified name, fields, source: _jitclass.py), so that a type text names the same
// class in every process and cache=True finds code compiled by another process; a
// second class with the same description in one process takes the next free value.
// Registered box types live as long as the process.
struct ClassRegistry {
  std::unordered_map<uint64_t, PyTypeObject *> byHandle;
  std::unordered_map<PyTypeObject *, uint64_t> byType;
};
ClassRegistry &registry() {
  static auto *r = new ClassRegistry();
  return *r;
}

uint64_t jitclassRegister(nb::handle boxType, const std::string &description) {
  if (!isJitClassBoxType(boxType.ptr())) throw nb::type_error("jitclass_register: not a jitclass box type");
  auto *type = reinterpret_cast<PyTypeObject *>(boxType.ptr());
  ClassRegistry &r = registry();
  if (auto it = r.byType.find(type); it != r.byType.end()) return it->second;
  uint64_t h = 14695981039346656037ULL; // FNV-1a, then a finishing mix
  for (unsigned char c : description) h = (h ^ c) * 1099511628211ULL;
  for (;; ++h) {
    uint64_t x = h ^ (h >> 31);
    x *= 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 29)) >> 4; // 60 bits, never 0
    if (x == 0) continue;
    if (r.byHandle.count(x)) continue;
    Py_INCREF(boxType.ptr());
    r.byHandle[x] = type;
    r.byType[type] = x;
    return x;
  }
}


// The handle of a box type, registering the class (through its Python side) when that
// has not happened yet.
uint64_t handleOfBoxType(PyTypeObject *type) {
  if (auto it = registry().byType.find(type); it != registry().byType.end()) return it->second;
  nb::object jc = nb::steal(PyObject_GetAttrString(reinterpret_cast<PyObject *>(type), "_mahou_jitclass"));
  if (!jc.is_valid()) throwPendingPythonError();
  nb::object h = nb::steal(PyObject_CallMethod(jc.ptr(), "_handle", nullptr));
  if (!h.is_valid()) throwPendingPythonError();
  return nb::cast<uint64_t>(h);
}

// _core.jitclass_layout(box_type, [(name, type text), ...]): installs one field
// descriptor per field on the box type; returns the fields' tuple type as text.
std::string jitclassLayout(nb::handle boxType, nb::list fields) {
  if (!isJitClassBoxType(boxType.ptr())) throw nb::type_error("jitclass_layout: not a jitclass box type");
  std::vector<std::string> names;
  std::vector<Type> ts;
  for (nb::handle f : fields) {
    nb::tuple pair = nb::cast<nb::tuple>(f);
    names.push_back(nb::cast<std::string>(pair[0]));
    ts.push_back(parseFieldType(nb::cast<std::string>(pair[1]), names.back()));
  }
  Type tuple = Type::tuple(ts);
  std::vector<size_t> offs = types::tupleOffsets(tuple);
  for (size_t i = 0; i < names.size(); ++i) {
    auto *d = reinterpret_cast<JitFieldObject *>(PyType_GenericAlloc(theFieldType, 0));
    if (!d) throw nb::python_error();
    d->type = new Type(ts[i]);
    d->offset = kJitInstanceFieldsOffset + offs[i];
    d->name = PyUnicode_FromString(names[i].c_str());
    d->owner = reinterpret_cast<PyTypeObject *>(boxType.ptr());
    nb::object holder = nb::steal(reinterpret_cast<PyObject *>(d));
    if (PyObject_SetAttrString(boxType.ptr(), names[i].c_str(), holder.ptr()) != 0) throw nb::python_error();
  }
  return tuple.str();
}

// _core.jitclass_new(box_type, fields type text): an instance with every field zero
// (unpickling fills them in through the descriptors).
nb::object jitclassNew(nb::handle boxType, const std::string &fieldsText) {
  if (!isJitClassBoxType(boxType.ptr())) throw nb::type_error("jitclass_new: not a jitclass box type");
  std::string error;
  auto t = types::parseType(fieldsText, &error);
  if (!t || !t->isTuple()) throw nb::type_error(("jitclass_new: bad fields type: " + error).c_str());
  MahouMemInfo *mi = mahou_rt_instance_new(descriptorOf(*t));
  if (!mi) {
    MahouError e = mahou_rt_take_error();
    PyErr_SetString(builtinExceptionClass(types::ExcKind(e.kind)), e.message);
    throw nb::python_error();
  }
  auto *type = reinterpret_cast<PyTypeObject *>(boxType.ptr());
  PyObject *obj = type->tp_alloc(type, 0);
  if (!obj) {
    mahou_rt_decref(mi);
    throw nb::python_error();
  }
  asInstance(obj)->instance = mi;
  return nb::steal(obj);
}

uint64_t handleOf(nb::handle dispatcher, const char *what) {
  if (!isDispatcher(dispatcher.ptr())) throw nb::type_error((std::string(what) + " is not a compiled function").c_str());
  return uint64_t(reinterpret_cast<uintptr_t>(dispatcher.ptr()));
}

} // namespace

PyTypeObject *boxTypeOf(const Type &t) {
  auto it = registry().byHandle.find(t.handle);
  return it == registry().byHandle.end() ? nullptr : it->second;
}

bool isJitClassBoxType(PyObject *obj) {
  return theInstanceBase && PyType_Check(obj) && reinterpret_cast<PyTypeObject *>(obj) != theInstanceBase &&
         PyType_IsSubtype(reinterpret_cast<PyTypeObject *>(obj), theInstanceBase);
}

bool isJitInstance(PyObject *obj) { return theInstanceBase && PyObject_TypeCheck(obj, theInstanceBase); }

Type jitInstanceType(PyObject *obj) {
  PyTypeObject *t = Py_TYPE(obj);
  const char *dot = std::strrchr(t->tp_name, '.');
  return Type::instance(jitClassHandle(reinterpret_cast<PyObject *>(t)), dot ? dot + 1 : t->tp_name);
}

uint64_t jitClassHandle(PyObject *boxType) { return handleOfBoxType(reinterpret_cast<PyTypeObject *>(boxType)); }

PyObject *jitClassBoxType(uint64_t handle) {
  auto it = registry().byHandle.find(handle);
  return it == registry().byHandle.end() ? nullptr : reinterpret_cast<PyObject *>(it->second);
}

std::unique_ptr<JitClassInfo> jitClassInfo(PyObject *boxType) {
  if (!isJitClassBoxType(boxType)) internalError("jitClass: the handle is not a jitclass box type");
  nb::object info = nb::steal(PyObject_CallMethod(boxType, "_mahou_class_info", nullptr));
  if (!info.is_valid()) throwPendingPythonError();
  auto c = std::make_unique<JitClassInfo>();
  try {
    nb::tuple t = nb::cast<nb::tuple>(info);
    c->handle = jitClassHandle(boxType);
    c->name = nb::cast<std::string>(t[0]);
    for (nb::handle f : t[1]) {
      nb::tuple pair = nb::cast<nb::tuple>(f);
      c->fieldNames.push_back(nb::cast<std::string>(pair[0]));
      c->fieldTypes.push_back(parseFieldType(nb::cast<std::string>(pair[1]), c->fieldNames.back()));
    }
    for (auto [k, v] : nb::cast<nb::dict>(t[2])) c->methods[nb::cast<std::string>(k)] = handleOf(v, "a method");
    for (auto [k, v] : nb::cast<nb::dict>(t[3])) c->staticMethods[nb::cast<std::string>(k)] = handleOf(v, "a static method");
    for (auto [k, v] : nb::cast<nb::dict>(t[4])) {
      nb::tuple gs = nb::cast<nb::tuple>(v);
      JitClassInfo::Property p;
      if (!gs[0].is_none()) p.getter = handleOf(gs[0], "a property getter");
      if (!gs[1].is_none()) p.setter = handleOf(gs[1], "a property setter");
      c->properties[nb::cast<std::string>(k)] = p;
    }
  } catch (nb::python_error &) {
    throwPendingPythonError();
  } catch (const std::exception &e) {
    internalError(std::string("malformed jitclass information: ") + e.what());
  }
  return c;
}

bool unboxJitInstance(PyObject *obj, const Type &t, char *dst) {
  PyTypeObject *box = boxTypeOf(t);
  if (!box || !PyObject_TypeCheck(obj, box)) {
    PyErr_Format(PyExc_TypeError, "expected an instance of the jitclass %s, got %s", t.text.c_str(), Py_TYPE(obj)->tp_name);
    return false;
  }
  MahouMemInfo *mi = asInstance(obj)->instance;
  mahou_rt_incref(mi);
  std::memcpy(dst, &mi, sizeof mi);
  return true;
}

namespace {

// Stand-ins: a jitclass whose instances are made from objects of another Python class at
// the call boundary and box as objects of it again (numpy's Polynomial: _library/
// polynomial_class.py). Both tables are filled once per class and live as long as the
// process; they are read only while the GIL is held.
struct StandIns {
  std::unordered_map<PyTypeObject *, PyObject *> toInstance; // the Python class -> to_instance
  std::unordered_map<PyTypeObject *, PyObject *> toObject;   // the box type -> to_object
  PyObject *finder = nullptr; // finder(cls) -> True when it registered a stand-in for cls
};
StandIns &standIns() {
  static auto *s = new StandIns();
  return *s;
}

void jitclassStandIn(nb::handle pyType, nb::handle toInstance) {
  if (!PyType_Check(pyType.ptr())) throw nb::type_error("jitclass_stand_in: the stood-for class is not a type");
  StandIns &s = standIns();
  auto *py = reinterpret_cast<PyTypeObject *>(pyType.ptr());
  if (!s.toInstance.count(py)) s.toInstance[py] = Py_NewRef(toInstance.ptr());
}

void jitclassBoxesAs(nb::handle boxType, nb::handle toObject) {
  if (!isJitClassBoxType(boxType.ptr())) throw nb::type_error("jitclass_boxes_as: not a jitclass box type");
  StandIns &s = standIns();
  auto *box = reinterpret_cast<PyTypeObject *>(boxType.ptr());
  if (!s.toObject.count(box)) s.toObject[box] = Py_NewRef(toObject.ptr());
}

} // namespace

bool convertStandIns(std::vector<PyObject *> &objs, std::vector<nb::object> &held) {
  StandIns &s = standIns();
  if (s.toInstance.empty()) return true;
  for (PyObject *&obj : objs) {
    auto it = s.toInstance.find(Py_TYPE(obj));
    if (it == s.toInstance.end()) continue;
    PyObject *inst = PyObject_CallOneArg(it->second, obj);
    if (!inst) return false;
    held.push_back(nb::steal(inst));
    obj = inst;
  }
  return true;
}

bool discoverStandIns(const std::vector<PyObject *> &objs) {
  StandIns &s = standIns();
  if (!s.finder) return false;
  bool found = false;
  for (PyObject *obj : objs) {
    PyTypeObject *t = Py_TYPE(obj);
    if (s.toInstance.count(t)) continue;
    PyObject *r = PyObject_CallOneArg(s.finder, reinterpret_cast<PyObject *>(t));
    if (!r) {
      PyErr_Clear(); // a finder that fails finds nothing: the argument's TypeError stands
      continue;
    }
    found = found || (r == Py_True && s.toInstance.count(t));
    Py_DECREF(r);
  }
  return found;
}

namespace {

PyObject *boxStandIn(PyObject *box) { // takes the box's reference
  StandIns &s = standIns();
  if (s.toObject.empty()) return box;
  auto it = s.toObject.find(Py_TYPE(box));
  if (it == s.toObject.end()) return box;
  PyObject *obj = PyObject_CallOneArg(it->second, box);
  Py_DECREF(box);
  return obj;
}

} // namespace

PyObject *wrapJitInstance(MahouMemInfo *instance, const Type &t) {
  PyTypeObject *type = boxTypeOf(t);
  if (!type) {
    mahou_rt_decref(instance);
    PyErr_Format(PyExc_TypeError, "the jitclass %s is not defined in this process", t.text.c_str());
    return nullptr;
  }
  PyObject *obj = type->tp_alloc(type, 0);
  if (!obj) {
    mahou_rt_decref(instance);
    return nullptr;
  }
  asInstance(obj)->instance = instance;
  return boxStandIn(obj);
}

void registerJitClass(nb::module_ &m) {
  runtime::setAdoptParentHook(holdArrayParent);
  PyObject *base = PyType_FromSpec(&instanceSpec);
  if (!base) throw nb::python_error();
  theInstanceBase = reinterpret_cast<PyTypeObject *>(base);
  m.attr("JitInstanceBase") = nb::borrow(base);
  PyObject *field = PyType_FromSpec(&fieldSpec);
  if (!field) throw nb::python_error();
  theFieldType = reinterpret_cast<PyTypeObject *>(field);
  m.attr("JitField") = nb::borrow(field);
  m.def("jitclass_layout", &jitclassLayout, nb::arg("box_type"), nb::arg("fields"));
  m.def("jitclass_new", &jitclassNew, nb::arg("box_type"), nb::arg("fields_type"));
  m.def("jitclass_register", &jitclassRegister, nb::arg("box_type"), nb::arg("description"));
  m.def("jitclass_stand_in", &jitclassStandIn, nb::arg("py_type"), nb::arg("to_instance"));
  m.def("jitclass_boxes_as", &jitclassBoxesAs, nb::arg("box_type"), nb::arg("to_object"));
  m.def("jitclass_stand_in_finder", [](nb::handle finder) {
    StandIns &s = standIns();
    Py_XSETREF(s.finder, Py_NewRef(finder.ptr()));
  });
  m.def("jitclass_instance_id", [](nb::handle obj) -> uint64_t {
    if (!isJitInstance(obj.ptr())) throw nb::type_error("not a jitclass instance");
    return uint64_t(reinterpret_cast<uintptr_t>(asInstance(obj.ptr())->instance));
  });
}

} // namespace mahou::binding
