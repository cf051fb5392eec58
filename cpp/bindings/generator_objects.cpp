// A generator returned to Python: an iterator whose __next__ resumes the compiled body
// (through the coroutine frame's resume function) and boxes the item it yields; when
// the body raises, the exception propagates and the generator is exhausted, as Python's.
// Dropping it destroys the suspended body (its locals are released).
#include "objects_binding.h"

#include "mahou/generators.h"

namespace mahou::binding {

namespace {

struct GeneratorObject {
  PyObject_HEAD
  MahouMemInfo *gen;  // the runtime's generator object (one reference)
  types::Type *item;  // the yield type
  // The code its frame may point into (the function that returned it may have inlined
  // the generator's start): kept linked while the generator lives.
  std::shared_ptr<const void> *code;
};

PyTypeObject *theGeneratorType = nullptr;

void generatorDealloc(PyObject *self) {
  auto *g = reinterpret_cast<GeneratorObject *>(self);
  mahou_rt_decref(g->gen); // runs the frame's destroy function: before the code goes
  delete g->item;
  delete g->code;
  PyTypeObject *tp = Py_TYPE(self);
  tp->tp_free(self);
  Py_DECREF(tp);
}

PyObject *generatorNext(PyObject *self) {
  auto *g = reinterpret_cast<GeneratorObject *>(self);
  void *handle = runtime::generatorHandle(g->gen);
  char *promise = runtime::generatorPromise(handle, *g->item);
  auto *state = reinterpret_cast<int32_t *>(promise);
  if (*state != runtime::kGeneratorReady) return nullptr; // exhausted: StopIteration
  runtime::generatorFrame(handle)->resume(handle);
  if (*state == runtime::kGeneratorRaised) {
    *state = runtime::kGeneratorDone;
    raiseRuntimeError();
    return nullptr;
  }
  if (*state != runtime::kGeneratorReady) return nullptr;
  return boxValue(*g->item, promise + runtime::generatorItemOffset(*g->item)); // takes the item's references
}

PyObject *generatorRepr(PyObject *self) {
  auto *g = reinterpret_cast<GeneratorObject *>(self);
  return PyUnicode_FromFormat("<mahou generator of %s at %p>", g->item->str().c_str(), self);
}

PyType_Slot generatorSlots[] = {
    {Py_tp_dealloc, reinterpret_cast<void *>(generatorDealloc)},
    {Py_tp_iter, reinterpret_cast<void *>(PyObject_SelfIter)},
    {Py_tp_iternext, reinterpret_cast<void *>(generatorNext)},
    {Py_tp_repr, reinterpret_cast<void *>(generatorRepr)},
    {Py_tp_doc, const_cast<char *>("A generator made by a compiled function: iterating it runs the compiled body.")},
    {0, nullptr},
};
PyType_Spec generatorSpec = {"mahou.Generator", sizeof(GeneratorObject), 0, Py_TPFLAGS_DEFAULT, generatorSlots};

} // namespace

PyObject *wrapGenerator(MahouMemInfo *gen, const types::Type &t) {
  auto *g = PyObject_New(GeneratorObject, theGeneratorType);
  if (!g) {
    mahou_rt_decref(gen);
    return nullptr;
  }
  g->gen = gen;
  g->item = new types::Type(t.elems[0]);
  g->code = nullptr;
  return reinterpret_cast<PyObject *>(g);
}

void holdGeneratorCode(PyObject *gen, const std::shared_ptr<const void> &code) {
  if (!gen || !theGeneratorType || Py_TYPE(gen) != theGeneratorType || !code) return;
  auto *g = reinterpret_cast<GeneratorObject *>(gen);
  if (!g->code) g->code = new std::shared_ptr<const void>(code);
}

void registerGenerators(nanobind::module_ &m) {
  PyObject *type = PyType_FromSpec(&generatorSpec);
  if (!type) throw nanobind::python_error();
  theGeneratorType = reinterpret_cast<PyTypeObject *>(type);
  m.attr("Generator") = nanobind::borrow(type);
}

} // namespace mahou::binding
