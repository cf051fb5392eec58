// User-defined exception classes (`class MyError(ValueError): ...`) for compiled code:
// each class the resolver meets gets a value of types::ExcKind from kFirstUserExc on, a
// hash of its module and qualified name (the same in every process, so code that
// inlined a raise of it agrees with the registry of another process), and the runtime
// learns its direct base (the nearest class up its MRO that compiled code knows), so
// `except ValueError` catches it. The binding raises the class itself.
#include "binding.h"

#include "mahou/runtime.h"

#include <string>
#include <unordered_map>

namespace nb = nanobind;

namespace mahou::binding {

namespace {

struct UserClass {
  PyObject *cls; // a strong reference, kept for the process
  std::string name;
};

std::unordered_map<int32_t, UserClass> &registry() { // under the GIL
  static auto *r = new std::unordered_map<int32_t, UserClass>();
  return *r;
}

constexpr int32_t kBuiltinCount = 0
#define MAHOU_EXCEPTION(name) +1
#include "mahou/exceptions.def"
#undef MAHOU_EXCEPTION
    ;

int32_t builtinIndex(PyObject *cls) { // the class's value in exceptions.def, or -1
  for (int32_t k = 0; k < kBuiltinCount; ++k)
    if (builtinExceptionClass(types::ExcKind(k)) == cls) return k;
  return -1;
}

int32_t valueOf(const std::string &qualified) {
  uint64_t h = 1469598103934665603ull; // FNV-1a
  for (unsigned char c : qualified) h = (h ^ c) * 1099511628211ull;
  return int32_t(types::kFirstUserExc + (h % 0x3fffff00u));
}

} // namespace

std::optional<std::pair<types::ExcKind, std::string>> registerUserException(PyObject *cls) {
  if (!PyType_Check(cls) || !PyType_IsSubtype(reinterpret_cast<PyTypeObject *>(cls),
                                               reinterpret_cast<PyTypeObject *>(PyExc_Exception)))
    return std::nullopt;
  int32_t builtin = builtinIndex(cls);
  if (builtin >= 0) return std::make_pair(types::ExcKind(builtin), std::string(types::excName(types::ExcKind(builtin))));
  nb::handle h(cls);
  std::string module = nb::cast<std::string>(nb::str(h.attr("__module__")));
  std::string qualname = nb::cast<std::string>(nb::str(h.attr("__qualname__")));
  int32_t value = valueOf(module + "." + qualname);
  auto &reg = registry();
  auto it = reg.find(value);
  if (it != reg.end() && it->second.cls == cls) return std::make_pair(types::ExcKind(value), it->second.name);
  // The direct base compiled code matches against: the first class of the MRO after this one.
  nb::tuple mro = nb::borrow<nb::tuple>(h.attr("__mro__"));
  int32_t base = int32_t(types::ExcKind::Exception);
  for (size_t i = 1; i < mro.size(); ++i) {
    PyObject *b = mro[i].ptr();
    int32_t k = builtinIndex(b);
    if (k >= 0) {
      base = k;
      break;
    }
    if (b == PyExc_Exception || b == PyExc_BaseException) break;
    if (auto r = registerUserException(b)) {
      base = int32_t(r->first);
      break;
    }
  }
  Py_INCREF(cls);
  if (it != reg.end()) { // the class was defined again (same module and name): the newest one
    Py_DECREF(it->second.cls);
    it->second.cls = cls;
  } else {
    reg.emplace(value, UserClass{cls, qualname});
  }
  runtime::registerExceptionClass(value, base);
  return std::make_pair(types::ExcKind(value), qualname);
}

PyObject *userExceptionClass(int32_t kind) {
  auto it = registry().find(kind);
  return it == registry().end() ? nullptr : it->second.cls;
}

} // namespace mahou::binding
