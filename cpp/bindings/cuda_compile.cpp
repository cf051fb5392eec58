// Compilation side of CUDA kernel objects: overloads compiled to PTX through
// mahou::compileKernel, loaded per device, and the Python methods over them
// (compile, inspect_llvm/inspect_asm, _compile_ptx, signatures, ...).
#include "cuda_binding.h"

#include "mahou/layout.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

namespace nb = nanobind;

namespace mahou::binding {

// The per-thread stack of a kernel whose device functions recurse (the driver's default,
// 1 KiB, holds some twenty frames of mahou's calling convention): about 80 frames.
constexpr size_t kRecursiveStackBytes = 4096;

using types::Type;

// libdevice.10.bc under $CUDA_HOME, $CUDA_PATH or /usr/local/cuda; empty lets the
// compiler search its own list.
std::string libdevicePath() {
  static const std::string path = [] {
    std::vector<std::string> roots;
    for (const char *var : {"CUDA_HOME", "CUDA_PATH"})
      if (const char *v = std::getenv(var); v && *v)
        roots.push_back(v);
    roots.push_back("/usr/local/cuda");
    try { // PyPI's nvidia-cuda-nvcc wheel carries libdevice too
      nb::object wheel = nb::module_::import_("nvidia.cuda_nvcc");
      for (nb::handle dir : wheel.attr("__path__"))
        roots.push_back(nb::cast<std::string>(nb::str(dir)));
    } catch (nb::python_error &) { // not installed
    }
    for (const auto &root : roots) {
      std::string candidate = root + "/nvvm/libdevice/libdevice.10.bc";
      std::error_code ec;
      if (std::filesystem::exists(candidate, ec))
        return candidate;
    }
    return std::string();
  }();
  return path;
}

namespace {

KernelObject *kernelOf(PyObject *obj) { return reinterpret_cast<KernelObject *>(obj); }

// Why kernels cannot take an argument of type t, or "" when they can.
std::string unsupportedArgument(const Type &t) {
  switch (t.kind) {
  case types::Kind::Scalar:
  case types::Kind::Array:
  case types::Kind::Record: // an np.void: its bytes are copied to the device and back
    return "";
  case types::Kind::Tuple:
    for (const Type &e : t.elems)
      if (!e.isScalar())
        return "a tuple containing " + e.str() + " (kernels take tuples of numbers only)";
    return "";
  default:
    return t.str();
  }
}

void layOutParameters(KernelOverload &ov) {
  size_t offset = 0, count = 0;
  auto place = [&](size_t size, size_t align) {
    offset = (offset + align - 1) / align * align;
    ov.paramOffsets.push_back(offset);
    offset += size;
    ++count;
  };
  for (const Type &t : ov.args) {
    ov.argFirstParam.push_back(count);
    if (t.isArray()) {
      for (int i = 0; i < 1 + 2 * t.ndim; ++i) // data pointer, shape[N], strides[N]
        place(8, 8);
    } else {
      place(std::max<size_t>(1, types::nativeSize(t)), std::max<size_t>(1, types::nativeAlign(t)));
    }
  }
  ov.argFirstParam.push_back(count);
  ov.paramBytes = offset;
}

std::string signatureText(const std::vector<Type> &args) {
  std::string s = "(";
  for (size_t i = 0; i < args.size(); ++i)
    s += (i ? ", " : "") + args[i].str();
  return s + ")";
}

std::pair<int, int> compileTarget() {
  if (cuda::available())
    return cuda::computeCapability(cuda::currentDevice());
  return {9, 0}; // no GPU here: PTX for sm_90, compiled again if a device differs
}

CompiledKernel compileFor(KernelObject *self, const std::vector<Type> &args, int major,
                          int minor, unsigned assumptions) {
  KernelState &st = *self->state;
  nb::object hold = nb::borrow(reinterpret_cast<PyObject *>(self)); // alive while compiling
  std::unique_ptr<CompileEnvironment> env =
      makeEnvironment(kernelEnvironmentOwner(st));
  SourceFile file(st.filename, st.source, st.firstLine);
  KernelOptions options = kernelOptions(st, major, minor);
  options.disjointArrays = assumptions & KernelOverload::kDisjointArrays;
  options.alignedArrays = assumptions & KernelOverload::kAlignedArrays;
  return backendTable().compileKernel(file, st.name, args, *env, options);
}

// The CUDA emulator's form of a kernel: compiled for the host CPU, bounds checked
// when the emulator runs with checks.
cuda::EmulatorProgram compileForEmulator(KernelObject *self, const std::vector<Type> &args) {
  KernelState &st = *self->state;
  nb::object hold = nb::borrow(reinterpret_cast<PyObject *>(self)); // alive while compiling
  std::unique_ptr<CompileEnvironment> env =
      makeEnvironment(kernelEnvironmentOwner(st));
  SourceFile file(st.filename, st.source, st.firstLine);
  SimKernel sim = backendTable().compileSimKernel(file, st.name, args, *env, cuda::emulatorChecks());
  cuda::EmulatorProgram program;
  program.entry = sim.entry;
  program.synchronizes = sim.synchronizes;
  program.gridSync = sim.gridSync;
  for (const Type &t : args)
    program.arrayDims.push_back(t.isArray() ? t.ndim : -1);
  return program;
}

std::string textOf(PyObject *obj) {
  nb::str s = nb::str(nb::handle(obj));
  return s.c_str();
}

// What link_inputs answers, instead of the driver linker's inputs, when it linked the kernel
// itself (LTO-IR among the files: nvJitLink): one input, the whole cubin to load.
constexpr int kLinkedImage = -1;

// The driver linker's inputs for these files (mahou.cuda._linking reads them and compiles
// CUDA C with NVRTC for compute capability major.minor), or one kLinkedImage input; a
// Python error propagates.
std::vector<cuda::LinkInput> linkInputsFor(const std::vector<std::string> &files, int major, int minor,
                                           const std::string &ptx, int maxRegisters, bool lineinfo) {
  nb::list paths;
  for (const std::string &f : files)
    paths.append(f);
  nb::object inputs = nb::module_::import_("mahou.cuda._linking")
                          .attr("link_inputs")(paths, major, minor, nb::bytes(ptx.data(), ptx.size()),
                                               maxRegisters, lineinfo);
  std::vector<cuda::LinkInput> out;
  for (nb::handle item : inputs) {
    nb::tuple t = nb::borrow<nb::tuple>(item);
    cuda::LinkInput in;
    in.type = nb::cast<int>(t[0]);
    nb::bytes data = nb::borrow<nb::bytes>(t[1]);
    in.data.assign(data.c_str(), data.size());
    in.name = nb::cast<std::string>(t[2]);
    out.push_back(std::move(in));
  }
  return out;
}

bool requireKernel(const KernelState &st, const char *what) {
  if (!st.isDevice)
    return true;
  PyErr_Format(PyExc_TypeError,
               "%s: '%s' is a device function; it is compiled into the kernels that call it",
               what, st.name.c_str());
  return false;
}

} // namespace

uint64_t deviceArrayKeyWord(types::DType dtype, int ndim, types::Layout layout, bool readonly) {
  constexpr uint64_t kDeviceArrayTag = 0x21;
  return kDeviceArrayTag << 56 | uint64_t(dtype) << 40 | uint64_t(ndim) << 8 |
         uint64_t(layout) << 1 | uint64_t(readonly);
}

std::vector<uint64_t> kernelKeyOf(const std::vector<Type> &args) {
  std::vector<uint64_t> key;
  for (const Type &t : args) {
    if (t.isArray() && !t.isRecordArray())
      key.push_back(deviceArrayKeyWord(t.dtype, t.ndim, t.layout, t.readonly));
    else // a record array: the dispatcher's words (its shape, the record layout's number)
      appendTypeKey(t, key);
  }
  return key;
}

KernelOptions kernelOptions(const KernelState &st, int ccMajor, int ccMinor) {
  KernelOptions o;
  o.ccMajor = ccMajor;
  o.ccMinor = ccMinor;
  o.fastmath = st.fastmath;
  o.lineinfo = st.lineinfo || st.debug;
  o.exceptions = st.debug;
  o.cache = st.cache && !st.isDevice;
  o.libdevicePath = libdevicePath();
  o.launchBounds = st.launchBounds;
  return o;
}

KernelOverload &compileKernelOverload(KernelObject *self, const std::vector<Type> &args,
                                      std::vector<uint64_t> key) {
  KernelState &st = *self->state;
  for (const auto &e : st.entries)
    if (e.key == key)
      return *e.overload;
  for (size_t i = 0; i < args.size(); ++i)
    if (std::string why = unsupportedArgument(args[i]); !why.empty()) {
      std::string param = i < st.paramNames.size() ? st.paramNames[i] : "?";
      PyErr_Format(PyExc_TypeError, "%s(): argument %zu ('%s') of type %s cannot be passed to a "
                   "CUDA kernel", st.name.c_str(), i + 1, param.c_str(), why.c_str());
      throw nb::python_error();
    }
  auto [major, minor] = compileTarget();
  auto ov = std::make_unique<KernelOverload>();
  if (cuda::emulated()) {
    ov->program = compileForEmulator(self, args);
    ov->cooperative = ov->program.gridSync;
  } else {
    ov->compiled = compileFor(self, args, major, minor, ov->assumptions);
    ov->cooperative = ov->compiled.gridSync;
  }
  ov->key = std::move(key);
  ov->args = args;
  ov->signature = signatureText(args);
  ov->ccMajor = major;
  ov->ccMinor = minor;
  layOutParameters(*ov);
  st.overloads.push_back(std::move(ov));
  KernelOverload &ref = *st.overloads.back();
  st.entries.push_back(KernelEntry{ref.key, &ref});
  return ref;
}

cuda::LoadedKernel &loadedKernel(KernelObject *self, KernelOverload &ov, int device) {
  if (size_t(device) < ov.loaded.size() && ov.loaded[size_t(device)])
    return *ov.loaded[size_t(device)];
  KernelState &st = *self->state;
  auto [major, minor] = cuda::computeCapability(device);
  if (!cuda::emulated() && (major != ov.ccMajor || minor != ov.ccMinor)) {
    ov.compiled = compileFor(self, ov.args, major, minor, ov.assumptions);
    ov.ccMajor = major;
    ov.ccMinor = minor;
  }
  cuda::LoadOptions options;
  options.lineinfo = st.lineinfo || st.debug;
  options.maxRegisters = st.maxRegisters;
  if (!cuda::emulated() && ov.compiled.recursive)
    options.stackBytes = kRecursiveStackBytes;
  if (!cuda::emulated() && !ov.compiled.raiseSites.empty())
    options.errorSlot = kKernelErrorSlot;
  std::vector<cuda::LinkInput> linkInputs;
  if (!cuda::emulated() && !st.linkFiles.empty()) {
    linkInputs = linkInputsFor(st.linkFiles, major, minor, ov.compiled.ptx, st.maxRegisters, options.lineinfo);
    options.linkInputs = &linkInputs;
  }
  const void *image = cuda::emulated() ? static_cast<const void *>(&ov.program)
                                       : static_cast<const void *>(ov.compiled.ptx.c_str());
  if (linkInputs.size() == 1 && linkInputs[0].type == kLinkedImage) { // linked by nvJitLink: a cubin
    image = linkInputs[0].data.data();
    options.linkInputs = nullptr;
  }
  cuda::LoadedKernel *k =
      cuda::loadKernel(&st, ov.signature, device, image, ov.compiled.kernelName, options);
  if (ov.loaded.size() <= size_t(device))
    ov.loaded.resize(size_t(device) + 1, nullptr);
  ov.loaded[size_t(device)] = k;
  return *k;
}

cuda::LoadedKernel &loadedKernelForm(KernelObject *self, KernelOverload &ov, int device, unsigned assumptions) {
  if (cuda::emulated() || assumptions == ov.assumptions) // the emulator's one program assumes nothing
    return loadedKernel(self, ov, device);
  std::unique_ptr<KernelOverload> &form = ov.forms[assumptions & 3u];
  if (!form) {
    auto alt = std::make_unique<KernelOverload>();
    alt->key = ov.key;
    alt->args = ov.args;
    bool overlapping = !(assumptions & KernelOverload::kDisjointArrays);
    bool misaligned = !(assumptions & KernelOverload::kAlignedArrays);
    alt->signature = ov.signature + (overlapping && misaligned ? " (overlapping, misaligned arrays)"
                                     : overlapping            ? " (overlapping arrays)"
                                                              : " (misaligned arrays)"); // its own module cache entry
    alt->assumptions = assumptions;
    alt->compiled = compileFor(self, ov.args, ov.ccMajor, ov.ccMinor, assumptions);
    alt->ccMajor = ov.ccMajor;
    alt->ccMinor = ov.ccMinor;
    alt->cooperative = ov.cooperative;
    alt->argFirstParam = ov.argFirstParam;
    alt->paramOffsets = ov.paramOffsets;
    alt->paramBytes = ov.paramBytes;
    form = std::move(alt);
  }
  return loadedKernel(self, *form, device);
}

bool parseKernelSignature(PyObject *sig, types::Signature &out) {
  std::string error;
  if (PyTuple_Check(sig) || PyList_Check(sig)) {
    nb::object items = nb::steal(PySequence_Tuple(sig));
    if (!items.is_valid())
      return false;
    out.ret.reset();
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(items.ptr()); ++i) {
      auto t = types::parseType(textOf(PyTuple_GET_ITEM(items.ptr(), i)), &error);
      if (!t) {
        raiseMahouError("TypingError", error);
        return false;
      }
      out.args.push_back(std::move(*t));
    }
    return true;
  }
  auto parsed = types::parseSignature(textOf(sig), &error);
  if (!parsed) {
    raiseMahouError("TypingError", error);
    return false;
  }
  out = std::move(*parsed);
  return true;
}

namespace {

bool parseVoidSignature(const KernelState &st, PyObject *sig, types::Signature &parsed) {
  if (!parseKernelSignature(sig, parsed))
    return false;
  if (parsed.ret && !parsed.ret->isNone()) {
    PyErr_Format(PyExc_TypeError, "CUDA kernel '%s' must have a void return type, not %s",
                 st.name.c_str(), parsed.ret->str().c_str());
    return false;
  }
  return true;
}

PyObject *kernelCompile(PyObject *self, PyObject *sig) {
  KernelObject *k = kernelOf(self);
  if (k->state->isDevice) { // compiled from source into its callers, with this signature
    types::Signature declared;
    if (!parseKernelSignature(sig, declared))
      return nullptr;
    k->state->deviceSignatures.push_back(std::move(declared));
    Py_RETURN_NONE;
  }
  types::Signature parsed;
  if (!parseVoidSignature(*k->state, sig, parsed))
    return nullptr;
  if (!translateErrors([&] { compileKernelOverload(k, parsed.args, kernelKeyOf(parsed.args)); }))
    return nullptr;
  Py_RETURN_NONE;
}

PyObject *kernelDisableCompile(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  int disable = 1;
  if (nargs > 0 && (disable = PyObject_IsTrue(args[0])) < 0)
    return nullptr;
  kernelOf(self)->state->canCompile = !disable;
  Py_RETURN_NONE;
}

bool emitKernel(KernelObject *self, const std::vector<Type> &args, Stage stage,
                std::string &text) {
  KernelState &st = *self->state;
  return translateErrors([&] {
    if (stage == Stage::Asm)
      for (const auto &ov : st.overloads)
        if (ov->args == args && !ov->compiled.ptx.empty()) {
          text = ov->compiled.ptx;
          return;
        }
    auto [major, minor] = compileTarget();
    std::unique_ptr<CompileEnvironment> env =
        makeEnvironment(kernelEnvironmentOwner(st));
    SourceFile file(st.filename, st.source, st.firstLine);
    KernelOptions options = kernelOptions(st, major, minor);
    options.disjointArrays = true; // the form a launch with disjoint arrays runs
    text = backendTable().emitKernelStage(file, st.name, args, *env, options, stage);
  });
}

// inspect_*(signature=None): one signature's text, or {signature: text} over the overloads.
PyObject *inspectKernel(PyObject *self, PyObject *args, PyObject *kwargs, Stage stage) {
  PyObject *sig = Py_None;
  static const char *keywords[] = {"signature", nullptr};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O", const_cast<char **>(keywords), &sig))
    return nullptr;
  KernelObject *k = kernelOf(self);
  if (!requireKernel(*k->state, "inspect"))
    return nullptr;
  std::vector<std::vector<Type>> sigs;
  for (const auto &ov : k->state->overloads)
    sigs.push_back(ov->args);
  return inspectOverloads(sig, sigs, parseKernelSignature,
                          [&](const std::vector<Type> &args, std::string &text) { return emitKernel(k, args, stage, text); });
}

PyObject *kernelInspectLLVM(PyObject *self, PyObject *args, PyObject *kwargs) {
  return inspectKernel(self, args, kwargs, Stage::OptLLVM);
}

PyObject *kernelInspectAsm(PyObject *self, PyObject *args, PyObject *kwargs) {
  return inspectKernel(self, args, kwargs, Stage::Asm);
}

// _compile_ptx(signature, cc_major, cc_minor, disjoint=False, c_abi_name=None) → (ptx,
// entry name, return type): no device needed; a device function with c_abi_name is
// compiled with the C ABI under that name; `disjoint` gives the form launched when no two array arguments
// share memory (array parameters noalias), otherwise the form that assumes nothing. A kernel's return type is None (void); a device function's is the one
// it returns (a declared one must match).
PyObject *kernelCompilePtx(PyObject *self, PyObject *args) {
  PyObject *sig;
  int major, minor, disjoint = 0;
  const char *cAbiName = nullptr;
  if (!PyArg_ParseTuple(args, "Oii|pz:_compile_ptx", &sig, &major, &minor, &disjoint, &cAbiName))
    return nullptr;
  KernelObject *k = kernelOf(self);
  KernelState &st = *k->state;
  types::Signature parsed;
  if (st.isDevice) {
    if (!parseKernelSignature(sig, parsed))
      return nullptr;
    CompiledDeviceFunction compiled;
    if (!translateErrors([&] {
          nb::object hold = nb::borrow(self);
          std::unique_ptr<CompileEnvironment> env =
              makeEnvironment(kernelEnvironmentOwner(st));
          SourceFile file(st.filename, st.source, st.firstLine);
          KernelOptions options = kernelOptions(st, major, minor);
          if (cAbiName)
            options.cAbiName = cAbiName;
          if (parsed.ret && parsed.ret->isNumber())
            options.declaredReturn = parsed.ret;
          compiled = backendTable().compileDeviceFunction(file, st.name, parsed.args, *env, options);
        }))
      return nullptr;
    if (parsed.ret && !parsed.ret->isNone() && *parsed.ret != compiled.ret) {
      raiseMahouError("TypingError", "device function '" + st.name + "' returns " + compiled.ret.str() +
                                         ", not the declared " + parsed.ret->str());
      return nullptr;
    }
    nb::object ret = nb::steal(toPyType(compiled.ret));
    if (!ret.is_valid())
      return nullptr;
    return nb::make_tuple(nb::str(compiled.ptx.c_str(), compiled.ptx.size()), nb::str(compiled.symbol.c_str()), ret)
        .release()
        .ptr();
  }
  if (!parseVoidSignature(st, sig, parsed))
    return nullptr;
  CompiledKernel compiled;
  if (!translateErrors([&] { compiled = compileFor(k, parsed.args, major, minor, KernelOverload::kAlignedArrays | (disjoint ? KernelOverload::kDisjointArrays : 0u)); }))
    return nullptr;
  return nb::make_tuple(nb::str(compiled.ptx.c_str(), compiled.ptx.size()),
                        nb::str(compiled.kernelName.c_str()), nb::none())
      .release()
      .ptr();
}

PyObject *getKernelLinkFiles(PyObject *self, void *) {
  const std::vector<std::string> &files = kernelOf(self)->state->linkFiles;
  nb::list out;
  for (const std::string &f : files)
    out.append(nb::str(f.c_str()));
  return nb::tuple(out).release().ptr();
}

PyObject *getKernelPyFunc(PyObject *self, void *) {
  PyObject *f = kernelOf(self)->state->pyFunc;
  return Py_NewRef(f ? f : Py_None);
}

PyObject *getKernelSignatures(PyObject *self, void *) {
  nb::list out;
  for (const auto &ov : kernelOf(self)->state->overloads) {
    PyObject *sig = toPySignature(ov->args);
    if (!sig)
      return nullptr;
    out.append(nb::steal(sig));
  }
  return out.release().ptr();
}

PyObject *getKernelIsDevice(PyObject *self, void *) {
  return PyBool_FromLong(kernelOf(self)->state->isDevice);
}

PyObject *getKernelTargetOptions(PyObject *self, void *) {
  const KernelState &st = *kernelOf(self)->state;
  nb::dict out;
  out["device"] = st.isDevice;
  out["fastmath"] = st.fastmath;
  out["lineinfo"] = st.lineinfo;
  out["debug"] = st.debug;
  out["max_registers"] = st.maxRegisters;
  return out.release().ptr();
}

PyObject *getKernelStats(PyObject *self, void *) {
  nb::dict out;
  for (const auto &ov : kernelOf(self)->state->overloads) {
    nb::object key = nb::steal(toPySignature(ov->args));
    if (!key.is_valid())
      return nullptr;
    nb::dict times = stageTimes(ov->compiled.times);
    out[key] = times;
  }
  return out.release().ptr();
}

PyObject *getKernelCanCompile(PyObject *self, void *) {
  return PyBool_FromLong(kernelOf(self)->state->canCompile);
}

} // namespace

PyMethodDef kernelMethods[] = {
    {"compile", reinterpret_cast<PyCFunction>(kernelCompile), METH_O,
     "compile(signature): compile the kernel for these argument types now."},
    {"disable_compile",
     reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(kernelDisableCompile)),
     METH_FASTCALL, "disable_compile(val=True): launch only the overloads compiled so far."},
    {"inspect_llvm", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(kernelInspectLLVM)),
     METH_VARARGS | METH_KEYWORDS, "Optimised LLVM IR: one signature's text, or {signature: text}."},
    {"inspect_asm", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(kernelInspectAsm)),
     METH_VARARGS | METH_KEYWORDS, "PTX: one signature's text, or {signature: text}."},
    {"_compile_ptx", reinterpret_cast<PyCFunction>(kernelCompilePtx), METH_VARARGS,
     "_compile_ptx(signature, cc_major, cc_minor, disjoint=False) → (ptx, entry name, return type); needs no GPU. "
     "disjoint: the form launched when no two array arguments overlap."},
    {nullptr, nullptr, 0, nullptr},
};

PyGetSetDef kernelGetSets[] = {
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, nullptr, nullptr},
    {"py_func", getKernelPyFunc, nullptr, "The original Python function.", nullptr},
    {"_link_files", getKernelLinkFiles, nullptr,
     "The files linked with the compiled code: link= and those of the external functions it calls.", nullptr},
    {"signatures", getKernelSignatures, nullptr, "Argument types of each compiled overload.",
     nullptr},
    {"targetoptions", getKernelTargetOptions, nullptr, "Options the kernel is compiled with.",
     nullptr},
    {"stats", getKernelStats, nullptr, "Compile times (ms) per stage of each overload.", nullptr},
    {"_is_device", getKernelIsDevice, nullptr, "True for @cuda.jit(device=True).", nullptr},
    {"_can_compile", getKernelCanCompile, nullptr, "False once disable_compile() was called.",
     nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

} // namespace mahou::binding
