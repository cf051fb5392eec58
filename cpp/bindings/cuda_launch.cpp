// The launch path: kernel[grid, block, stream, shared] makes a (cached) LaunchConfig;
// calling it keys the arguments in C++, finds or compiles the overload, packs the
// kernel parameters, copies NumPy arrays to the device and back, and launches.
#include "cuda_binding.h"
#include "numpy_api.h"

#include "mahou/layout.h"
#include "mahou/memory_spans.h"

#include <structmember.h>

#include <algorithm>
#include <cstring>

namespace nb = nanobind;

namespace mahou::binding {

using types::Type;

namespace {

PyTypeObject *theLaunchConfigType = nullptr; // set once in registerLaunchConfigType
constexpr Py_ssize_t kMaxCachedConfigs = 1024;
constexpr size_t kStackParamBytes = 2048;
constexpr size_t kStackParams = 256;

// ------------------------------------------------------------------ configuration

bool readDim(PyObject *obj, const char *what, cuda::Dim3 &out) {
  unsigned v[3] = {1, 1, 1};
  auto one = [&](PyObject *item, unsigned &dst) {
    long long x = PyLong_AsLongLong(item);
    if (x == -1 && PyErr_Occurred()) {
      PyErr_Format(PyExc_TypeError, "%s must be an int or a tuple of 1 to 3 ints", what);
      return false;
    }
    if (x < 0 || x > 0xffffffffLL) {
      PyErr_Format(PyExc_ValueError, "%s value %lld is out of range", what, x);
      return false;
    }
    dst = unsigned(x);
    return true;
  };
  if (PyTuple_Check(obj) || PyList_Check(obj)) {
    nb::object items = nb::steal(PySequence_Tuple(obj));
    if (!items.is_valid())
      return false;
    Py_ssize_t n = PyTuple_GET_SIZE(items.ptr());
    if (n < 1 || n > 3) {
      PyErr_Format(PyExc_ValueError, "%s must have 1 to 3 dimensions, not %zd", what, n);
      return false;
    }
    for (Py_ssize_t i = 0; i < n; ++i)
      if (!one(PyTuple_GET_ITEM(items.ptr(), i), v[i]))
        return false;
  } else if (!one(obj, v[0])) {
    return false;
  }
  out = {v[0], v[1], v[2]};
  return true;
}

// A stream argument: 0/None (the legacy default stream), a raw handle int, a
// mahou.cuda Stream (_handle), or a foreign stream with `handle` or `ptr`.
bool readStream(PyObject *obj, cuda::CUstream &out) {
  out = nullptr;
  if (obj == Py_None)
    return true;
  nb::object value = nb::borrow(obj);
  for (const char *attr : {"_handle", "handle", "ptr"}) {
    if (PyLong_Check(value.ptr()))
      break;
    if (PyObject_HasAttrString(obj, attr)) {
      value = nb::steal(PyObject_GetAttrString(obj, attr));
      if (!value.is_valid())
        return false;
      if (!PyLong_Check(value.ptr()) && PyObject_HasAttrString(value.ptr(), "value")) // ctypes
        value = nb::steal(PyObject_GetAttrString(value.ptr(), "value"));
      if (!value.is_valid())
        return false;
      if (value.is_none())
        return true;
      break;
    }
  }
  if (!PyLong_Check(value.ptr())) {
    PyErr_Format(PyExc_TypeError, "invalid CUDA stream: %R", obj);
    return false;
  }
  unsigned long long h = PyLong_AsUnsignedLongLong(value.ptr());
  if (h == (unsigned long long)-1 && PyErr_Occurred())
    return false;
  out = reinterpret_cast<cuda::CUstream>(uintptr_t(h));
  return true;
}

PyObject *makeConfig(KernelObject *kernel, PyObject *config) {
  Py_ssize_t n = PyTuple_Check(config) ? PyTuple_GET_SIZE(config) : 0;
  if (n < 2 || n > 4) {
    PyErr_SetString(PyExc_ValueError,
                    "a kernel launch configuration is kernel[griddim, blockdim] or "
                    "kernel[griddim, blockdim, stream] or kernel[griddim, blockdim, stream, "
                    "sharedmem]");
    return nullptr;
  }
  auto *self = PyObject_GC_New(LaunchConfigObject, theLaunchConfigType);
  if (!self)
    return nullptr;
  self->vectorcall = reinterpret_cast<vectorcallfunc>(
      +[](PyObject *c, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
        return launchKernel(reinterpret_cast<LaunchConfigObject *>(c), args,
                            size_t(PyVectorcall_NARGS(nargsf)), kwnames);
      });
  self->kernel = reinterpret_cast<KernelObject *>(Py_NewRef(reinterpret_cast<PyObject *>(kernel)));
  self->streamObj = Py_NewRef(n > 2 ? PyTuple_GET_ITEM(config, 2) : Py_None);
  self->stream = nullptr;
  self->sharedBytes = 0;
  PyObject_GC_Track(self);
  nb::object hold = nb::steal(reinterpret_cast<PyObject *>(self));
  if (!readDim(PyTuple_GET_ITEM(config, 0), "griddim", self->grid) ||
      !readDim(PyTuple_GET_ITEM(config, 1), "blockdim", self->block) ||
      !readStream(self->streamObj, self->stream))
    return nullptr;
  if (n > 3) {
    long long shared = PyLong_AsLongLong(PyTuple_GET_ITEM(config, 3));
    if (shared == -1 && PyErr_Occurred())
      return nullptr;
    if (shared < 0 || shared > 0x7fffffffLL) {
      PyErr_Format(PyExc_ValueError, "dynamic shared memory size %lld is out of range", shared);
      return nullptr;
    }
    self->sharedBytes = unsigned(shared);
  }
  if (int most = kernel->state->launchBounds[0]; most > 0) { // as the driver refuses the launch
    unsigned long long threads = 1ull * self->block.x * self->block.y * self->block.z;
    if (threads > unsigned(most)) {
      raiseMahouError("CudaError", "CUDA_ERROR_INVALID_VALUE: a block of " + std::to_string(threads) +
                                       " threads, more than the kernel's launch bound of " + std::to_string(most) +
                                       " threads per block (launch_bounds=)");
      return nullptr;
    }
  }
  return hold.release().ptr();
}

int configTraverse(PyObject *obj, visitproc visit, void *arg) {
  auto *self = reinterpret_cast<LaunchConfigObject *>(obj);
  Py_VISIT(Py_TYPE(obj));
  Py_VISIT(reinterpret_cast<PyObject *>(self->kernel));
  Py_VISIT(self->streamObj);
  return 0;
}

int configClear(PyObject *obj) {
  auto *self = reinterpret_cast<LaunchConfigObject *>(obj);
  Py_CLEAR(self->kernel);
  Py_CLEAR(self->streamObj);
  return 0;
}

void configDealloc(PyObject *obj) {
  PyTypeObject *type = Py_TYPE(obj);
  PyObject_GC_UnTrack(obj);
  configClear(obj);
  PyObject_GC_Del(obj);
  Py_DECREF(type);
}

PyObject *configRepr(PyObject *obj) {
  auto *self = reinterpret_cast<LaunchConfigObject *>(obj);
  return PyUnicode_FromFormat("<launch configuration of %R: grid (%u, %u, %u), block (%u, %u, "
                              "%u), %u shared bytes>",
                              reinterpret_cast<PyObject *>(self->kernel), self->grid.x,
                              self->grid.y, self->grid.z, self->block.x, self->block.y,
                              self->block.z, self->sharedBytes);
}

PyMemberDef configMembers[] = {
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(LaunchConfigObject, vectorcall), READONLY,
     nullptr},
    {nullptr, 0, 0, 0, nullptr},
};

PyType_Slot configSlots[] = {
    {Py_tp_dealloc, reinterpret_cast<void *>(configDealloc)},
    {Py_tp_traverse, reinterpret_cast<void *>(configTraverse)},
    {Py_tp_clear, reinterpret_cast<void *>(configClear)},
    {Py_tp_call, reinterpret_cast<void *>(PyVectorcall_Call)},
    {Py_tp_repr, reinterpret_cast<void *>(configRepr)},
    {Py_tp_members, configMembers},
    {0, nullptr},
};

PyType_Spec configSpec = {
    "mahou._core.LaunchConfig",
    sizeof(LaunchConfigObject),
    0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    configSlots,
};

// ------------------------------------------------------------------ arguments

// One argument as the launch sees it.
struct ArgSlot {
  enum class Kind : uint8_t { Array, HostArray, Scalar } kind = Kind::Scalar;
  int ndim = 0;
  int dtype = -1;
  types::Layout layout = types::Layout::A;
  bool readonly = false;
  cuda::CUdeviceptr data = 0;
  const int64_t *shape = nullptr, *strides = nullptr;
  PyArrayObject *host = nullptr; // HostArray
  int64_t spanLo = 0, spanBytes = 0; // HostArray: its memory [data + spanLo, + spanBytes)
  PyObject *recordDescr = nullptr; // an array of records: its structured dtype (borrowed)
};

// Shape and strides of a __cuda_array_interface__ argument (the slot points here).
struct ForeignDims {
  int64_t shape[kMaxDeviceArrayDims], strides[kMaxDeviceArrayDims];
};

bool raiseArgument(const KernelState &st, size_t i, PyObject *obj, const char *why) {
  std::string param = i < st.paramNames.size() ? st.paramNames[i] : "?";
  PyErr_Format(PyExc_TypeError, "%s(): argument %zu ('%s') of type %s cannot be passed to a "
               "CUDA kernel%s", st.name.c_str(), i + 1, param.c_str(), Py_TYPE(obj)->tp_name, why);
  return false;
}

// The type of a slot holding records (a structured dtype): an array of its dtype's record
// layout, or (a 0-d device array: numba-cuda's DeviceRecord, cuda.to_device(record)) the
// record itself, a pointer to its bytes as a 0-d array's parameter is; nullopt with *why
// set when a field is not supported.
std::optional<Type> recordArrayType(const ArgSlot &slot, std::string *why) {
  auto rec = recordTypeOfDescr(reinterpret_cast<PyArray_Descr *>(slot.recordDescr), why);
  if (!rec)
    return std::nullopt;
  if (slot.ndim == 0 && slot.kind == ArgSlot::Kind::Array) {
    rec->readonly = slot.readonly;
    return rec;
  }
  return Type::recordArray(*rec, slot.ndim, slot.layout, slot.readonly);
}

// Appends the key of a record array slot (the words of its type); false with an error set.
bool appendRecordSlotKey(const KernelState &st, size_t i, PyObject *obj, ArgSlot &slot, KeyBuffer &key) {
  std::string why;
  auto t = recordArrayType(slot, &why);
  if (!t)
    return raiseArgument(st, i, obj, (" (its record dtype is not supported: " + why + ")").c_str());
  std::vector<uint64_t> words;
  appendTypeKey(*t, words);
  if (key.size + int(words.size()) > kMaxKeyWords)
    return raiseArgument(st, i, obj, " (too many arguments)");
  for (uint64_t w : words)
    key.words[key.size++] = w;
  return true;
}

// cuda.random's states (records of two uint64 words) reach kernels as a uint64 array
// with one more trailing dimension of 2; the widened shape and strides live in `foreign`.
void widenPairRecords(const KernelState &st, ArgSlot &slot, std::vector<ForeignDims> &foreign) {
  if (foreign.capacity() == 0)
    foreign.reserve(size_t(st.nparams)); // pointers into it must stay valid
  ForeignDims &dims = foreign.emplace_back();
  for (int d = 0; d < slot.ndim; ++d) {
    dims.shape[d] = slot.shape[d];
    dims.strides[d] = slot.strides[d];
  }
  dims.shape[slot.ndim] = 2;
  dims.strides[slot.ndim] = 8;
  slot.ndim += 1;
  slot.shape = dims.shape;
  slot.strides = dims.strides;
  slot.dtype = int(types::DType::UInt64);
  slot.layout = layoutOfStrides(slot.ndim, dims.shape, dims.strides, 8);
}

bool readHostArray(PyObject *obj, ArgSlot &slot) {
  auto *a = reinterpret_cast<PyArrayObject *>(obj);
  PyArray_Descr *descr = PyArray_DESCR(a);
  slot.kind = ArgSlot::Kind::HostArray;
  slot.host = a;
  slot.ndim = PyArray_NDIM(a);
  slot.dtype = PyArray_ISBYTESWAPPED(a) ? -1 : dtypeCodeOfTypeNum(descr->type_num);
  static_assert(sizeof(npy_intp) == sizeof(int64_t));
  slot.shape = reinterpret_cast<const int64_t *>(PyArray_DIMS(a));
  slot.strides = reinterpret_cast<const int64_t *>(PyArray_STRIDES(a));
  int flags = PyArray_FLAGS(a);
  slot.layout = flags & NPY_ARRAY_C_CONTIGUOUS   ? types::Layout::C
                : flags & NPY_ARRAY_F_CONTIGUOUS ? types::Layout::F
                                                 : types::Layout::A;
  slot.readonly = !(flags & NPY_ARRAY_WRITEABLE);
  int64_t lo = 0, hi = PyArray_ITEMSIZE(a);
  bool empty = false;
  for (int i = 0; i < slot.ndim; ++i) {
    empty |= slot.shape[i] == 0;
    int64_t extent = (slot.shape[i] - 1) * slot.strides[i];
    (extent < 0 ? lo : hi) += extent;
  }
  slot.spanLo = empty ? 0 : lo;
  slot.spanBytes = empty ? 0 : hi - lo;
  return true;
}

// __cuda_array_interface__ (CuPy, PyTorch, ...): false with an error set, or with no
// error when the object has no interface.
bool readForeignArray(PyObject *obj, ArgSlot &slot, ForeignDims &dims) {
  nb::object cai = nb::steal(PyObject_GetAttrString(obj, "__cuda_array_interface__"));
  if (!cai.is_valid()) {
    if (PyErr_ExceptionMatches(PyExc_AttributeError))
      PyErr_Clear();
    return false;
  }
  try {
    nb::dict d = nb::cast<nb::dict>(cai);
    if (d.contains("mask") && !d["mask"].is_none())
      throw nb::value_error("masked __cuda_array_interface__ arrays are not supported");
    nb::tuple shape = nb::cast<nb::tuple>(d["shape"]);
    nb::tuple data = nb::cast<nb::tuple>(d["data"]);
    PyArray_Descr *descr = nullptr;
    if (!PyArray_DescrConverter(nb::object(d["typestr"]).ptr(), &descr))
      throw nb::python_error();
    nb::object hold = nb::steal(reinterpret_cast<PyObject *>(descr));
    int64_t itemsize = int64_t(PyDataType_ELSIZE(descr));
    slot.kind = ArgSlot::Kind::Array;
    slot.ndim = int(shape.size());
    if (slot.ndim > kMaxDeviceArrayDims)
      throw nb::value_error("too many dimensions");
    slot.dtype = PyDataType_ISNOTSWAPPED(descr) ? dtypeCodeOfTypeNum(descr->type_num) : -1;
    for (int i = 0; i < slot.ndim; ++i)
      dims.shape[i] = nb::cast<int64_t>(shape[size_t(i)]);
    nb::object strides = d.contains("strides") ? nb::object(d["strides"]) : nb::none();
    if (strides.is_none()) {
      int64_t step = itemsize;
      for (int i = slot.ndim - 1; i >= 0; --i) {
        dims.strides[i] = step;
        step *= std::max<int64_t>(dims.shape[i], 1);
      }
    } else {
      nb::tuple st = nb::cast<nb::tuple>(strides);
      for (int i = 0; i < slot.ndim; ++i)
        dims.strides[i] = nb::cast<int64_t>(st[size_t(i)]);
    }
    slot.data = nb::cast<uint64_t>(data[0]);
    slot.readonly = nb::cast<bool>(data[1]);
    // Interface v3: work the producer queued on its stream must finish before the kernel
    // reads the memory (None: nothing to wait for; 1, 2: the default streams).
    if (d.contains("stream") && !d["stream"].is_none()) {
      uint64_t producer = nb::cast<uint64_t>(d["stream"]);
      if (producer == 0)
        throw nb::value_error("__cuda_array_interface__ stream 0 is not allowed (use None, 1 or 2)");
      cuda::synchronizeStream(cuda::currentDevice(), reinterpret_cast<cuda::CUstream>(uintptr_t(producer)));
    }
    slot.shape = dims.shape;
    slot.strides = dims.strides;
    slot.layout = layoutOfStrides(slot.ndim, dims.shape, dims.strides, itemsize);
  } catch (nb::python_error &e) {
    e.restore();
    return false;
  } catch (const std::exception &e) {
    PyErr_Format(PyExc_TypeError, "invalid __cuda_array_interface__: %s", e.what());
    return false;
  }
  if (slot.data && cuda::pointerDevice(slot.data) < 0) {
    PyErr_SetString(PyExc_TypeError,
                    "__cuda_array_interface__ pointer is not CUDA device memory");
    return false;
  }
  return true;
}

// Classifies one argument and appends its key word(s). False with an error set.
bool readArgument(const KernelState &st, size_t i, PyObject *obj, ArgSlot &slot, KeyBuffer &key,
                  std::vector<ForeignDims> &foreign) {
  PyTypeObject *t = Py_TYPE(obj);
  uint64_t word;
  if (t == &PyLong_Type || t == &PyFloat_Type) {
    slot.kind = ArgSlot::Kind::Scalar;
    word = t == &PyLong_Type ? kInt64Key : kFloat64Key;
  } else if (isDeviceArray(obj)) {
    auto *a = reinterpret_cast<DeviceArrayObject *>(obj);
    slot.kind = ArgSlot::Kind::Array;
    slot.ndim = a->ndim;
    slot.dtype = a->dtypeCode;
    slot.layout = a->layout;
    slot.data = a->data;
    slot.shape = a->shape;
    slot.strides = a->strides;
    if (slot.dtype < 0 && a->uint64Pairs && slot.ndim < kMaxDeviceArrayDims)
      widenPairRecords(st, slot, foreign);
    if (slot.dtype < 0 && a->dtype && PyDataType_HASFIELDS(reinterpret_cast<PyArray_Descr *>(a->dtype))) {
      slot.recordDescr = a->dtype;
      return appendRecordSlotKey(st, i, obj, slot, key);
    }
    if (slot.dtype < 0)
      return raiseArgument(st, i, obj, " (its dtype is not supported)");
    word = deviceArrayKeyWord(types::DType(slot.dtype), slot.ndim, slot.layout, false);
  } else if (PyArray_CheckExact(obj) ||
             (PyArray_Check(obj) && !PyObject_HasAttrString(obj, "__cuda_array_interface__"))) {
    readHostArray(obj, slot); // a mapped_array (ndarray with the interface) is used in place
    if (slot.dtype < 0 && slot.ndim < kMaxDeviceArrayDims &&
        isUInt64PairRecord(reinterpret_cast<PyObject *>(PyArray_DESCR(reinterpret_cast<PyArrayObject *>(obj)))))
      widenPairRecords(st, slot, foreign);
    PyArray_Descr *descr = PyArray_DESCR(reinterpret_cast<PyArrayObject *>(obj));
    if (slot.dtype < 0 && PyDataType_HASFIELDS(descr)) {
      slot.recordDescr = reinterpret_cast<PyObject *>(descr);
      return appendRecordSlotKey(st, i, obj, slot, key);
    }
    if (slot.dtype < 0)
      return raiseArgument(st, i, obj, " (its dtype is not supported)");
    word = deviceArrayKeyWord(types::DType(slot.dtype), slot.ndim, slot.layout, slot.readonly);
  } else {
    slot.kind = ArgSlot::Kind::Scalar;
    if (bufferKindOf(obj) != types::BufferKind::None) // host memory a kernel cannot read
      return raiseArgument(st, i, obj, " (a bytes-like object is host memory: pass cuda.to_device(np.frombuffer(...)))");
    int mark = key.size;
    if (appendObjectKey(obj, key))
      return true;
    key.size = mark; // a tuple may have added words before failing
    if (foreign.capacity() == 0)
      foreign.reserve(size_t(st.nparams)); // pointers into it must stay valid
    foreign.emplace_back();
    if (!readForeignArray(obj, slot, foreign.back()))
      return PyErr_Occurred() ? false : raiseArgument(st, i, obj, "");
    if (slot.dtype < 0)
      return raiseArgument(st, i, obj, " (its dtype is not supported)");
    word = deviceArrayKeyWord(types::DType(slot.dtype), slot.ndim, slot.layout, slot.readonly);
  }
  if (key.size >= kMaxKeyWords)
    return raiseArgument(st, i, obj, " (too many arguments)");
  key.words[key.size++] = word;
  return true;
}

// ------------------------------------------------------------------ overload choice

KernelOverload *findConvertible(KernelState &st, const std::vector<Type> &args) {
  KernelOverload *best = nullptr;
  int bestCost = -1;
  for (const auto &ov : st.overloads) {
    int total = 0;
    for (size_t i = 0; i < args.size() && total >= 0; ++i) {
      int c = conversionCost(args[i], ov->args[i]);
      total = c < 0 ? -1 : total + c;
    }
    if (total >= 0 && (!best || total < bestCost)) {
      best = ov.get();
      bestCost = total;
    }
  }
  return best;
}

// The overload for arguments whose key has no entry yet: compiled, or (compiling
// disabled) the cheapest one the arguments convert to. Null with an error set.
KernelOverload *resolveOverload(KernelObject *k, PyObject *const *args, const ArgSlot *slots,
                                const KeyBuffer &key) {
  KernelState &st = *k->state;
  std::vector<Type> types;
  for (int i = 0; i < st.nparams; ++i) {
    const ArgSlot &s = slots[i];
    if (s.kind == ArgSlot::Kind::Scalar) {
      std::string why;
      auto t = typeOfObject(args[i], &why);
      if (!t) {
        raiseArgument(st, size_t(i), args[i], "");
        return nullptr;
      }
      types.push_back(std::move(*t));
    } else if (s.recordDescr) {
      std::string why;
      auto t = recordArrayType(s, &why);
      if (!t) {
        raiseArgument(st, size_t(i), args[i], (" (" + why + ")").c_str());
        return nullptr;
      }
      types.push_back(std::move(*t));
    } else {
      types.push_back(Type::array(types::DType(s.dtype), s.ndim, s.layout, s.readonly));
    }
  }
  std::vector<uint64_t> keyWords(key.words, key.words + key.size);
  KernelOverload *ov = nullptr;
  if (st.canCompile) {
    if (!translateErrors([&] { ov = &compileKernelOverload(k, types, keyWords); }))
      return nullptr;
    return ov;
  }
  ov = findConvertible(st, types);
  if (!ov) {
    std::string text;
    for (size_t i = 0; i < types.size(); ++i)
      text += (i ? ", " : "") + types[i].str();
    PyErr_Format(PyExc_TypeError, "No matching definition for argument type(s) %s of %s()",
                 text.c_str(), st.name.c_str());
    return nullptr;
  }
  st.entries.push_back(KernelEntry{std::move(keyWords), ov});
  return ov;
}

// Device copies of the NumPy arrays of one launch, freed when it ends.
struct HostCopies {
  int device = 0;
  std::vector<cuda::CUdeviceptr> blocks;
  ~HostCopies() {
    for (cuda::CUdeviceptr p : blocks)
      cuda::release(device, p);
  }
};

template <class T> void put(char *dst, T v) { std::memcpy(dst, &v, sizeof(T)); }

bool packScalar(PyObject *obj, const Type &t, char *dst) {
  if (t.isScalar(types::DType::Int64) && Py_TYPE(obj) == &PyLong_Type) {
    long long v = PyLong_AsLongLong(obj);
    if (v == -1 && PyErr_Occurred())
      return false;
    put<int64_t>(dst, v);
    return true;
  }
  if (t.isScalar(types::DType::Float64) && Py_TYPE(obj) == &PyFloat_Type) {
    put<double>(dst, PyFloat_AS_DOUBLE(obj));
    return true;
  }
  return unboxValue(obj, t, dst);
}

// Classifies the arguments into `slots` and finds (or compiles) the overload they
// select. Null with an error set.
KernelOverload *matchOverload(KernelObject *k, PyObject *const *args, size_t nargs, ArgSlot *slots,
                              std::vector<ForeignDims> &foreign, bool &hasHostArrays) {
  KernelState &st = *k->state;
  KeyBuffer key;
  hasHostArrays = false;
  for (size_t i = 0; i < nargs; ++i) {
    if (!readArgument(st, i, args[i], slots[i], key, foreign))
      return nullptr;
    hasHostArrays |= slots[i].kind == ArgSlot::Kind::HostArray;
  }
  for (const KernelEntry &e : st.entries)
    if (e.key.size() == size_t(key.size) &&
        std::memcmp(e.key.data(), key.words, sizeof(uint64_t) * size_t(key.size)) == 0)
      return e.overload;
  return resolveOverload(k, args, slots, key);
}

bool checkArgumentCount(const KernelState &st, size_t nargs) {
  if (nargs == size_t(st.nparams))
    return true;
  PyErr_Format(PyExc_TypeError, "%s() takes %d positional argument%s but %zu %s given",
               st.name.c_str(), st.nparams, st.nparams == 1 ? "" : "s", nargs,
               nargs == 1 ? "was" : "were");
  return false;
}

// Whether two array arguments of a launch share memory (host arrays by their device
// copies, each its own block): such a launch runs the overload's form without noalias.
bool arraysOverlap(const KernelOverload &ov, const ArgSlot *slots, size_t nargs) {
  cuda::MemorySpan stack[kMaxFastArgs];
  std::vector<cuda::MemorySpan> heap;
  cuda::MemorySpan *spans = stack;
  if (nargs > size_t(kMaxFastArgs)) {
    heap.resize(nargs);
    spans = heap.data();
  }
  size_t n = 0;
  for (size_t i = 0; i < nargs; ++i) {
    const ArgSlot &s = slots[i];
    const Type &t = ov.args[i];
    if (s.kind == ArgSlot::Kind::Scalar) // np.void records are copied into blocks of their own
      continue;
    if (t.isRecord()) { // a device record (0-d): the bytes of its one record
      spans[n++] = cuda::stridedSpan(s.data, 0, s.shape, s.strides, t.itemsize);
      continue;
    }
    if (!t.isArray())
      continue;
    int64_t itemsize = t.isRecordArray() ? t.elems[0].itemsize : int64_t(types::nativeSize(Type::scalar(t.dtype)));
    spans[n++] = cuda::stridedSpan(s.data, s.ndim, s.shape, s.strides, itemsize);
  }
  return cuda::anyOverlap(spans, n);
}

// Whether an array argument's items may sit at addresses that are not multiples of their
// alignment (a view of a field of a packed record array, np.frombuffer at an odd offset):
// such a launch runs the overload's form that makes no alignment assumption.
bool arraysMisaligned(const KernelOverload &ov, const ArgSlot *slots, size_t nargs) {
  for (size_t i = 0; i < nargs; ++i) {
    const ArgSlot &s = slots[i];
    const Type &t = ov.args[i];
    if (s.kind == ArgSlot::Kind::Scalar || !t.isArray() || t.isRecordArray())
      continue; // a record's fields are read by their own alignment (codegen/records.cpp)
    int64_t align = int64_t(types::nativeSize(Type::scalar(t.dtype)));
    if (types::isComplex(t.dtype))
      align /= 2;
    if (align <= 1)
      continue;
    if (int64_t(s.data) % align)
      return true;
    for (int d = 0; d < s.ndim; ++d)
      if (s.shape[d] > 1 && s.strides[d] % align)
        return true;
  }
  return false;
}

// The exception a debug kernel's thread raised, with numba-cuda's prefix naming the
// thread: "tid=[x, y, z] ctaid=[x, y, z]: message".
PyObject *raiseKernelError(const std::pair<types::ExcKind, std::string> &site, const int32_t *words) {
  std::string text = "tid=[" + std::to_string(words[1]) + ", " + std::to_string(words[2]) + ", " +
                     std::to_string(words[3]) + "] ctaid=[" + std::to_string(words[4]) + ", " +
                     std::to_string(words[5]) + ", " + std::to_string(words[6]) + "]";
  if (!site.second.empty())
    text += ": " + site.second;
  PyErr_SetString(builtinExceptionClass(site.first), text.c_str());
  return nullptr;
}

void launchOverload(const KernelOverload &ov, cuda::LoadedKernel &loaded,
                    const LaunchConfigObject &config, cuda::CUstream stream, void **params) {
  if (ov.cooperative)
    cuda::launchCooperative(loaded, config.grid, config.block, config.sharedBytes, stream, params);
  else
    cuda::launch(loaded, config.grid, config.block, config.sharedBytes, stream, params);
}

} // namespace

// ------------------------------------------------------------------ entry points

static void rememberConfig(KernelState &st, PyObject *key, PyObject *config) {
  Py_XSETREF(st.lastConfigKey, Py_NewRef(key));
  Py_XSETREF(st.lastConfig, Py_NewRef(config));
}

PyObject *kernelSubscript(PyObject *self, PyObject *config) {
  KernelObject *k = asKernel(self);
  KernelState &st = *k->state;
  if (st.isDevice) {
    PyErr_Format(PyExc_TypeError, "the CUDA device function '%s' cannot be launched; only "
                 "@cuda.jit kernels can", st.name.c_str());
    return nullptr;
  }
  if (config == st.lastConfigKey)
    return Py_NewRef(st.lastConfig);
  if (st.configs) {
    if (PyObject *cached = PyDict_GetItemWithError(st.configs, config)) { // borrowed
      rememberConfig(st, config, cached);
      return Py_NewRef(cached);
    }
    if (PyErr_Occurred()) { // unhashable (a list): build one without caching
      PyErr_Clear();
      return makeConfig(k, config);
    }
  }
  PyObject *made = makeConfig(k, config);
  if (made && st.configs) {
    if (PyDict_GET_SIZE(st.configs) >= kMaxCachedConfigs)
      PyDict_Clear(st.configs);
    if (PyDict_SetItem(st.configs, config, made) < 0)
      PyErr_Clear();
    else
      rememberConfig(st, config, made);
  }
  return made;
}

PyObject *launchKernel(LaunchConfigObject *config, PyObject *const *args, size_t nargs,
                       PyObject *kwnames) {
  KernelObject *k = config->kernel;
  KernelState &st = *k->state;
  if (kwnames && PyTuple_GET_SIZE(kwnames)) {
    PyErr_Format(PyExc_TypeError, "%s(): CUDA kernels take no keyword arguments",
                 st.name.c_str());
    return nullptr;
  }
  if (!checkArgumentCount(st, nargs))
    return nullptr;
  ArgSlot slotStack[kMaxFastArgs];
  std::vector<ArgSlot> slotHeap;
  ArgSlot *slots = slotStack;
  if (nargs > size_t(kMaxFastArgs)) {
    slotHeap.resize(nargs);
    slots = slotHeap.data();
  }
  std::vector<ForeignDims> foreign;
  bool hasHostArrays = false;
  KernelOverload *ov = matchOverload(k, args, nargs, slots, foreign, hasHostArrays);
  if (!ov)
    return nullptr;

  HostCopies copies;
  cuda::CUstream stream = config->stream;
  cuda::LoadedKernel *loaded = nullptr;
  bool ok = translateErrors([&] {
    int device = cuda::currentDevice();
    copies.device = device;
    if (hasHostArrays)
      for (size_t i = 0; i < nargs; ++i) {
        ArgSlot &s = slots[i];
        if (s.kind != ArgSlot::Kind::HostArray || !s.spanBytes)
          continue;
        cuda::CUdeviceptr block = cuda::allocate(device, size_t(s.spanBytes));
        copies.blocks.push_back(block);
        char *hostData = PyArray_BYTES(s.host);
        cuda::copyToDevice(device, block, hostData + s.spanLo, size_t(s.spanBytes), stream);
        s.data = block - cuda::CUdeviceptr(s.spanLo);
      }
    unsigned assumptions = 0;
    if (!arraysOverlap(*ov, slots, nargs))
      assumptions |= KernelOverload::kDisjointArrays;
    if (!arraysMisaligned(*ov, slots, nargs))
      assumptions |= KernelOverload::kAlignedArrays;
    loaded = &loadedKernelForm(k, *ov, device, assumptions);
  });
  if (!ok)
    return nullptr;

  // Kernel parameters (compiler.h): array → data, shape[N], strides[N]; scalar → its bytes.
  size_t nparams = ov->paramOffsets.size();
  alignas(16) char bufStack[kStackParamBytes];
  void *paramStack[kStackParams];
  std::vector<char> bufHeap;
  std::vector<void *> paramHeap;
  char *buf = bufStack;
  void **params = paramStack;
  if (ov->paramBytes > kStackParamBytes) {
    bufHeap.resize(ov->paramBytes + 16);
    buf = bufHeap.data();
  }
  if (nparams > kStackParams) {
    paramHeap.resize(nparams);
    params = paramHeap.data();
  }
  for (size_t p = 0; p < nparams; ++p)
    params[p] = buf + ov->paramOffsets[p];
  struct RecordCopy {
    char *host;
    cuda::CUdeviceptr device;
    size_t bytes;
    bool readonly;
  };
  std::vector<RecordCopy> recordCopies; // np.void arguments: their bytes on the device
  for (size_t i = 0; i < nargs; ++i) {
    const ArgSlot &s = slots[i];
    size_t first = ov->argFirstParam[i];
    if (s.kind == ArgSlot::Kind::Scalar) {
      if (!packScalar(args[i], ov->args[i], static_cast<char *>(params[first])))
        return nullptr;
      if (ov->args[i].isRecord()) { // packScalar wrote the host address of its bytes
        char *host = nullptr;
        std::memcpy(&host, params[first], sizeof host);
        auto actual = recordTypeOfVoid(args[i], nullptr); // this record's own writability
        bool readonly = !actual || actual->readonly || ov->args[i].readonly;
        recordCopies.push_back({host, 0, size_t(ov->args[i].itemsize), readonly});
        if (!translateErrors([&] {
              RecordCopy &rc = recordCopies.back();
              rc.device = cuda::allocate(copies.device, rc.bytes);
              copies.blocks.push_back(rc.device);
              cuda::copyToDevice(copies.device, rc.device, rc.host, rc.bytes, stream);
            }))
          return nullptr;
        put<uint64_t>(static_cast<char *>(params[first]), recordCopies.back().device);
      }
      continue;
    }
    put<uint64_t>(static_cast<char *>(params[first]), s.data);
    for (int d = 0; d < s.ndim; ++d) {
      put<int64_t>(static_cast<char *>(params[first + 1 + size_t(d)]), s.shape[d]);
      put<int64_t>(static_cast<char *>(params[first + 1 + size_t(s.ndim + d)]), s.strides[d]);
    }
  }

  int32_t raised[kKernelErrorWords] = {}; // a debug kernel's first raise (cuda::takeKernelError)
  ok = translateErrors([&] {
    if (cuda::emulated()) { // the kernel runs now, on worker threads: let them print
      PyThreadState *saved = PyEval_SaveThread();
      try {
        launchOverload(*ov, *loaded, *config, stream, params);
      } catch (...) {
        PyEval_RestoreThread(saved);
        throw;
      }
      PyEval_RestoreThread(saved);
    } else {
      launchOverload(*ov, *loaded, *config, stream, params);
    }
    if (!ov->compiled.raiseSites.empty() && cuda::takeKernelError(*loaded, stream, raised))
      return; // the arguments' copies are not written back: the launch raises
    for (const RecordCopy &rc : recordCopies)
      if (!rc.readonly)
        cuda::copyToHost(copies.device, rc.host, rc.device, rc.bytes, stream);
    if (!hasHostArrays) {
      if (!recordCopies.empty())
        cuda::synchronizeStream(copies.device, stream); // before the device copies are freed
      return;
    }
    size_t block = 0;
    for (size_t i = 0; i < nargs; ++i) {
      const ArgSlot &s = slots[i];
      if (s.kind != ArgSlot::Kind::HostArray || !s.spanBytes)
        continue;
      cuda::CUdeviceptr dev = copies.blocks[block++];
      if (!s.readonly)
        cuda::copyToHost(copies.device, PyArray_BYTES(s.host) + s.spanLo, dev,
                         size_t(s.spanBytes), stream);
    }
    cuda::synchronizeStream(copies.device, stream); // before the device copies are freed
  });
  if (!ok)
    return nullptr;
  if (raised[0] > 0 && size_t(raised[0]) <= ov->compiled.raiseSites.size())
    return raiseKernelError(ov->compiled.raiseSites[size_t(raised[0]) - 1], raised);
  Py_RETURN_NONE;
}

KernelOverload *overloadForArguments(KernelObject *k, PyObject *const *args, size_t nargs) {
  if (!checkArgumentCount(*k->state, nargs))
    return nullptr;
  std::vector<ArgSlot> slots(nargs);
  std::vector<ForeignDims> foreign;
  bool hasHostArrays = false;
  return matchOverload(k, args, nargs, slots.data(), foreign, hasHostArrays);
}

void registerLaunchConfigType(nb::module_ &m) {
  PyObject *type = PyType_FromSpec(&configSpec);
  if (!type)
    throw nb::python_error();
  theLaunchConfigType = reinterpret_cast<PyTypeObject *>(type);
  m.attr("LaunchConfig") = nb::borrow(type);
}

} // namespace mahou::binding
