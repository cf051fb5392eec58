// The binding's side of heap objects: boxing and unboxing of strings, lists, optional
// values and typed containers (boxing_objects.cpp, typed_list.cpp, typed_dict.cpp).
#pragma once

#include "binding.h"

#include <cstring>
#include <unordered_map>

struct MahouTypeDesc;
namespace mahou { struct JitClassInfo; }

namespace mahou::binding {

// The fast path of typed containers from Python for int64 and float64 items given as
// exact Python ints and floats: converted in place, no typing, no allocation.
inline bool scalarItem(const types::Type &t, PyObject *x, int64_t &out) {
  if (!t.isNumber()) return false;
  if (t.dtype == types::DType::Int64 && PyLong_CheckExact(x)) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(x, &overflow);
    if (overflow || (v == -1 && PyErr_Occurred())) {
      PyErr_Clear();
      return false; // the general path reports it
    }
    out = v;
    return true;
  }
  if (t.dtype == types::DType::Float64 && PyFloat_CheckExact(x)) {
    double d = PyFloat_AS_DOUBLE(x);
    std::memcpy(&out, &d, sizeof d);
    return true;
  }
  return false;
}

inline bool isFastScalar(const types::Type &t) {
  return t.isNumber() && (t.dtype == types::DType::Int64 || t.dtype == types::DType::Float64);
}

inline PyObject *boxFastScalar(const types::Type &t, const void *p) {
  if (t.dtype == types::DType::Int64) return PyLong_FromLongLong(*static_cast<const int64_t *>(p));
  return PyFloat_FromDouble(*static_cast<const double *>(p));
}

// The interned runtime descriptor of an item type (cached per type).
const MahouTypeDesc *descriptorOf(const types::Type &item);

MahouMemInfo *stringFromPython(PyObject *str);   // a new native string (one copy), or null with an error
PyObject *stringToPython(MahouMemInfo *str);     // a new str (one copy); the native string is not released
MahouMemInfo *listFromPython(PyObject *list, const types::Type &listType); // items unboxed; null with an error
PyObject *listToPython(MahouMemInfo *list, const types::Type &item);       // items boxed; the list is not released
// While one lives (on the stack of a call that unboxes its arguments), each Python list
// or set unboxed as a reflected container is unboxed once per item type: a list passed
// twice (f(xs, xs)) or held twice ([xs, xs]) is one native list, as it is one object in
// Python, so a change made through either name is seen through the other and written back.
class SharedUnboxing {
public:
  SharedUnboxing();
  ~SharedUnboxing();
  SharedUnboxing(const SharedUnboxing &) = delete;
  SharedUnboxing &operator=(const SharedUnboxing &) = delete;
  // The native container already made for obj as type t (a new reference), or null.
  static MahouMemInfo *find(PyObject *obj, const types::Type &t);
  static void remember(PyObject *obj, const types::Type &t, MahouMemInfo *native);

  // The Python lists unboxed as reflected lists, with their native lists.
  template <class F> void forEachList(F &&f) const {
    for (const auto &[obj, seen] : seen_)
      if (seen.type->kind == types::Kind::List && !seen.type->typed) f(obj, seen.native, *seen.type);
  }

private:
  struct Seen {
    const types::Type *type;
    MahouMemInfo *native;
  };
  std::unordered_multimap<PyObject *, Seen> seen_;
  SharedUnboxing *outer_;
};
// While one lives (on the stack of a call whose arguments hold reflected lists, from the
// unboxing until the write-back), each native list unboxed from a Python list knows that
// list: boxing a list of lists writes such a row back into its own Python list and puts
// that object in its place, so that a row moved, swapped or returned by compiled code is
// the same object as in Python (an alias of it sees the change). Both sides are held, so
// no list the call makes reuses a row's address and no row is freed while written back.
class ReflectedOrigins {
public:
  explicit ReflectedOrigins(const SharedUnboxing &unboxed);
  ~ReflectedOrigins();
  ReflectedOrigins(const ReflectedOrigins &) = delete;
  ReflectedOrigins &operator=(const ReflectedOrigins &) = delete;
  // The Python list `native` was unboxed from (borrowed), or null.
  static PyObject *originOf(MahouMemInfo *native);
  // reflectList wrote `native` back (once is enough).
  static void markWritten(MahouMemInfo *native);
  // Writes back the unboxed lists not written yet (a row the call removed from its list is
  // still its caller's object). False with a Python error.
  static bool writeBackRest();

private:
  struct Origin {
    PyObject *obj;
    const types::Type *listType;
    bool written = false;
  };
  std::unordered_map<MahouMemInfo *, Origin> origin_;
  ReflectedOrigins *outer_;
};
// Writes a native list back into the Python list it was unboxed from (when changed).
bool reflectList(PyObject *target, MahouMemInfo *list, const types::Type &item);
// Gives the arrays from NumPy inside a value (of type t) a meminfo holding the ndarray,
// so that an object storing the value may outlive the call. False with an error.
bool adoptArrays(const types::Type &t, char *value);
// A bytes object's type (a read-only 1-D uint8 buffer of kind Bytes), of any layout: a
// bytes object is stored as a dict key, set item or list item of compiled code's bytes type.
inline bool isBytesType(const types::Type &t) {
  return t.isBuffer() && t.buffer == types::BufferKind::Bytes && t.ndim == 1;
}
// The same type but for the layouts of bytes values in it (a key (b, 1) of a table keyed
// by (bytes of any layout, int)).
inline bool sameButBytesLayout(const types::Type &a, const types::Type &b) {
  if (a == b || (isBytesType(a) && isBytesType(b))) return true;
  if (!a.isTuple() || !b.isTuple() || a.isNamedTuple() || b.isNamedTuple() || a.elems.size() != b.elems.size())
    return false;
  for (size_t i = 0; i < a.elems.size(); ++i)
    if (!sameButBytesLayout(a.elems[i], b.elems[i])) return false;
  return true;
}
// A meminfo holding a reference to an ndarray (the runtime's adopt hook: compiled code
// storing an argument array in an object); takes the GIL. Null with an error set.
MahouMemInfo *holdArrayParent(void *parent);

// True when a value of the type holds objects made for it (lists, strings, dicts...).
bool holdsObjects(const types::Type &t);
// unboxValue / boxValue / releaseValue for the object kinds (list, dict, set, unicode,
// optional).
bool unboxObject(PyObject *obj, const types::Type &t, char *dst);
PyObject *boxObject(const types::Type &t, char *src);
void releaseObject(const types::Type &t, char *src);
// After a call: writes changed lists back into the caller's lists, releases the
// objects made for the arguments. False with a Python error set.
bool afterCall(const std::vector<types::Type> &args, PyObject *const *objs, void **argv);

// @jitclass (jitclass_binding.cpp): each class has a box type (a subclass of
// mahou._core.JitInstanceBase), registered under the class's handle (a digest of the
// class's description, the same in every process); its instances hold one native
// instance.
void registerJitClass(nanobind::module_ &m);
bool isJitClassBoxType(PyObject *obj);
bool isJitInstance(PyObject *obj);
uint64_t jitClassHandle(PyObject *boxType); // registers the class when needed
PyObject *jitClassBoxType(uint64_t handle); // borrowed; null when no class has the handle
types::Type jitInstanceType(PyObject *obj); // obj: a jitclass instance
// The class as the compiler sees it (box type's _mahou_class_info()); throws UserError.
std::unique_ptr<JitClassInfo> jitClassInfo(PyObject *boxType);
bool unboxJitInstance(PyObject *obj, const types::Type &t, char *dst);
PyObject *wrapJitInstance(MahouMemInfo *instance, const types::Type &t); // takes the reference
// Jitclasses that stand in for a Python class (_core.jitclass_stand_in): arguments of that
// class become instances at the call boundary (held keeps the new references alive).
bool convertStandIns(std::vector<PyObject *> &objs, std::vector<nanobind::object> &held);
// Asks the stand-in finder (mahou._stand_ins) about the classes of objs that have no
// stand-in: true when one was registered (the caller converts and types again).
bool discoverStandIns(const std::vector<PyObject *> &objs);
PyTypeObject *boxTypeOf(const types::Type &t); // the box class of an instance type; null if unknown

// Generators returned to Python (generator_objects.cpp): mahou._core.Generator.
void registerGenerators(nanobind::module_ &m);
PyObject *wrapGenerator(MahouMemInfo *gen, const types::Type &t); // takes the reference
// Keeps `code` (the returning function's machine code) linked while `gen` lives.
void holdGeneratorCode(PyObject *gen, const std::shared_ptr<const void> &code);

// np.random.Generator arguments (random_generator.cpp): {bitgen_t *, the object, a holder
// of the object}; an argument is borrowed (no holder), an item of a container is held
// (adoptArrays gives it a holder).
bool isNumpyRandomGenerator(PyObject *obj);
bool unboxRandomGenerator(PyObject *obj, char *dst);
PyObject *boxRandomGenerator(const char *src); // a new reference to the same Generator (takes the value's)

// mahou.typed.List and mahou.typed.Dict (typed_list.cpp, typed_dict.cpp).
void registerTypedContainers(nanobind::module_ &m);
bool isTypedList(PyObject *obj);
bool isTypedDict(PyObject *obj);
// The container's type (nullopt while its item types are not known yet).
std::optional<types::Type> typedListType(PyObject *obj);
std::optional<types::Type> typedDictType(PyObject *obj);
bool unboxTypedList(PyObject *obj, const types::Type &t, char *dst);
bool unboxTypedDict(PyObject *obj, const types::Type &t, char *dst);
PyObject *wrapTypedList(MahouMemInfo *list, const types::Type &item); // takes the reference
PyObject *wrapTypedDict(MahouMemInfo *dict, const types::Type &dictType); // takes the reference
// mahou.typed.Set (typed_dict.cpp): a native set shared with compiled code.
bool isTypedSet(PyObject *obj);
std::optional<types::Type> typedSetType(PyObject *obj); // nullopt while the key type is not known
bool unboxTypedSet(PyObject *obj, const types::Type &t, char *dst);
PyObject *wrapTypedSet(MahouMemInfo *set, const types::Type &setType); // takes the reference
// Python sets: copied into a native set, back into a new set, and written back.
MahouMemInfo *setFromPython(PyObject *set, const types::Type &setType);
PyObject *setToPython(MahouMemInfo *set, const types::Type &item);
bool reflectSet(PyObject *target, MahouMemInfo *set, const types::Type &item);

} // namespace mahou::binding
