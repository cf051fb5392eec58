// `with objmode(...)` blocks on the binding's side: preparing a block (its Python
// function, made by mahou/_objmode.py from the source, and the site compiled code passes
// to the runtime), and running one when compiled code reaches it: under the GIL, the
// inputs boxed, the function called, each output unboxed to its declared type (owned by
// compiled code from then on), and an exception kept whole for the caller.
#include "binding.h"
#include "objects_binding.h"

#include "mahou/layout.h"

#include <cstring>

namespace nb = nanobind;

namespace mahou::binding {

using types::Type;

namespace {

constexpr const char *kSiteCapsule = "mahou.objmode_site";

struct ObjModeSite {
  PyObject *function = nullptr; // owned
  PyObject *unbound = nullptr;  // owned: mahou._objmode.UNBOUND, passed for a variable not assigned yet
  Type inputs;                  // the tuple compiled code passes
  std::vector<std::string> names;
  std::vector<Type> outputs;
  Type result; // none, the one output's type, or the tuple of them (the slot's layout)
};

void destroySite(PyObject *capsule) {
  auto *site = static_cast<ObjModeSite *>(PyCapsule_GetPointer(capsule, kSiteCapsule));
  Py_XDECREF(site->function);
  Py_XDECREF(site->unbound);
  delete site;
}

// Arrays unboxed from the block's values borrow the block's objects: compiled code gets
// references of its own (a runtime object holding the ndarray).
bool ownArrays(const Type &t, char *dst) {
  if (t.isArray()) {
    auto *head = reinterpret_cast<MahouArrayHead *>(dst);
    if (head->meminfo) return true;
    head->meminfo = mahou_rt_adopt_parent(head->parent);
    if (head->meminfo) return true;
    (void)mahou_rt_take_error();
    PyErr_NoMemory();
    return false;
  }
  if (t.kind == types::Kind::Tuple) {
    std::vector<size_t> offsets = types::tupleOffsets(t);
    for (size_t i = 0; i < t.elems.size(); ++i)
      if (!ownArrays(t.elems[i], dst + offsets[i])) return false; // (earlier ones leak on this path only)
    return true;
  }
  if (t.isOptional() && dst[types::nativeSize(t.elems[0])]) return ownArrays(t.elems[0], dst);
  return true;
}

bool unboxOutput(const ObjModeSite &site, size_t i, PyObject *value, char *dst) {
  const Type &t = site.outputs[i];
  if (unboxValue(value, t, dst)) {
    if (ownArrays(t, dst)) return true;
    releaseValue(t, dst);
    return false;
  }
  PyObject *type = nullptr, *why = nullptr, *traceback = nullptr;
  PyErr_Fetch(&type, &why, &traceback);
  PyErr_Format(PyExc_TypeError, "objmode output '%s' is declared %s, but the block gave %R%s%S",
               site.names[i].c_str(), t.str().c_str(), value, why ? ": " : "", why ? why : Py_None);
  Py_XDECREF(type);
  Py_XDECREF(why);
  Py_XDECREF(traceback);
  return false;
}

bool unboxOutputs(const ObjModeSite &site, PyObject *result, char *out) {
  size_t n = site.outputs.size();
  if (n == 0) return true;
  if (n == 1) return unboxOutput(site, 0, result, out);
  if (!PyTuple_Check(result) || size_t(PyTuple_GET_SIZE(result)) != n) {
    PyErr_SetString(PyExc_SystemError, "an objmode block returned the wrong number of outputs");
    return false;
  }
  std::vector<size_t> offsets = types::tupleOffsets(site.result);
  for (size_t i = 0; i < n; ++i) {
    if (unboxOutput(site, i, PyTuple_GET_ITEM(result, Py_ssize_t(i)), out + offsets[i])) continue;
    for (size_t j = 0; j < i; ++j) releaseValue(site.outputs[j], out + offsets[j]);
    return false;
  }
  return true;
}

// A variable not assigned yet where the block runs holds zeros (compiled code's slots
// start so): a null object or an array with no data and no owner. The block gets the
// unbound marker for it, and its function unbinds the name (a read is Python's
// UnboundLocalError, an assignment works).
bool unassigned(const Type &t, const char *src) {
  if (t.isObject()) {
    void *p;
    std::memcpy(&p, src, sizeof p);
    return p == nullptr;
  }
  if (t.isArray()) {
    auto *head = reinterpret_cast<const MahouArrayHead *>(src);
    return !head->meminfo && !head->parent && !head->data;
  }
  return false;
}

// The inputs as the block's arguments; the references they hold are passed on (or
// released when boxing fails).
PyObject *boxInputs(const ObjModeSite &site, char *src) {
  const std::vector<Type> &types = site.inputs.elems;
  std::vector<size_t> offsets = types::tupleOffsets(site.inputs);
  PyObject *args = PyTuple_New(Py_ssize_t(types.size()));
  for (size_t i = 0; i < types.size(); ++i) {
    PyObject *item = nullptr;
    if (args) item = unassigned(types[i], src + offsets[i]) ? Py_NewRef(site.unbound) : boxValue(types[i], src + offsets[i]);
    if (!item) {
      for (size_t j = args ? i + 1 : i; j < types.size(); ++j) releaseValue(types[j], src + offsets[j]);
      Py_XDECREF(args);
      return nullptr;
    }
    PyTuple_SET_ITEM(args, Py_ssize_t(i), item);
  }
  return args;
}

int32_t runBlock(void *handle, void *inputs, void *outputs) {
  PyGILState_STATE gil = PyGILState_Ensure();
  auto *site = static_cast<ObjModeSite *>(handle);
  PyObject *args = boxInputs(*site, static_cast<char *>(inputs));
  PyObject *result = args ? PyObject_Call(site->function, args, nullptr) : nullptr;
  Py_XDECREF(args);
  bool ok = result && unboxOutputs(*site, result, static_cast<char *>(outputs));
  Py_XDECREF(result);
  if (!ok) setForeignRuntimeError();
  PyGILState_Release(gil);
  return ok ? 0 : 1;
}

} // namespace

namespace {

std::string utf8(PyObject *s) {
  Py_ssize_t n = 0;
  const char *text = s ? PyUnicode_AsUTF8AndSize(s, &n) : nullptr;
  if (!text) throwPendingPythonError();
  return std::string(text, size_t(n));
}

} // namespace

std::optional<ObjModeBlock> prepareObjModeBlock(PyObject *resolver, std::vector<PyObject *> &kept,
                                                const ObjModeRequest &request) {
  if (!resolver || !PyObject_HasAttrString(resolver, "objmode_block")) return std::nullopt;
  // resolver.objmode_block(line, [output names], [(input name, type text)])
  nb::list outputs, inputs;
  for (const std::string &name : request.outputs) outputs.append(nb::str(name.c_str(), name.size()));
  for (const auto &[name, type] : request.inputs) {
    std::string text = type.str();
    inputs.append(nb::make_tuple(nb::str(name.c_str(), name.size()), nb::str(text.c_str(), text.size())));
  }
  nb::object answer = nb::steal(PyObject_CallMethod(resolver, "objmode_block", "iOO", request.line,
                                                    outputs.ptr(), inputs.ptr()));
  if (!answer.is_valid()) throwPendingPythonError();
  // ("error", message) or ("block", function, [output type texts], the unbound marker)
  if (!PyTuple_Check(answer.ptr()) || PyTuple_GET_SIZE(answer.ptr()) < 2)
    internalError("objmode_block returned a malformed value");
  ObjModeBlock out;
  if (utf8(PyTuple_GET_ITEM(answer.ptr(), 0)) == "error") {
    out.error = utf8(PyTuple_GET_ITEM(answer.ptr(), 1));
    return out;
  }
  if (PyTuple_GET_SIZE(answer.ptr()) != 4) internalError("objmode_block returned a malformed value");
  auto site = std::make_unique<ObjModeSite>();
  std::vector<Type> inputTypes;
  for (const auto &[name, type] : request.inputs) inputTypes.push_back(type);
  site->inputs = Type::tuple(std::move(inputTypes));
  site->names = request.outputs;
  PyObject *texts = PyTuple_GET_ITEM(answer.ptr(), 2);
  for (Py_ssize_t i = 0; PyList_Check(texts) && i < PyList_GET_SIZE(texts); ++i) {
    std::string text = utf8(PyList_GET_ITEM(texts, i)), error;
    auto t = types::parseType(text, &error);
    if (!t) internalError("objmode output type '" + text + "': " + error);
    site->outputs.push_back(*t);
  }
  if (site->outputs.size() != request.outputs.size()) internalError("objmode block: one type per output expected");
  site->result = site->outputs.empty()       ? Type::none()
                 : site->outputs.size() == 1 ? site->outputs[0]
                                             : Type::tuple(site->outputs);
  site->function = Py_NewRef(PyTuple_GET_ITEM(answer.ptr(), 1));
  site->unbound = Py_NewRef(PyTuple_GET_ITEM(answer.ptr(), 3));
  out.outputs = site->outputs;
  out.handle = uint64_t(reinterpret_cast<uintptr_t>(site.get()));
  PyObject *capsule = PyCapsule_New(site.get(), kSiteCapsule, destroySite);
  if (!capsule) throwPendingPythonError();
  site.release();
  keepAliveIn(kept, capsule);
  Py_DECREF(capsule);
  return out;
}

void registerObjMode() { runtime::setObjModeHooks(runBlock, releaseForeignRuntimeError); }

} // namespace mahou::binding
