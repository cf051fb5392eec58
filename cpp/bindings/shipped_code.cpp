// Machine code that travels with a pickled dispatcher: the overloads' object code,
// return types and dependency records as bytes (Dispatcher._export_code), and their
// checked linking in the receiving process (Dispatcher._import_code). The bytes are
// keyed by the code generator's build, LLVM's version, the host target (triple, CPU,
// features) and the Python ABI the entries were made for: a process where any differs
// links nothing and compiles on the first call, as it does for an overload whose
// source, options or dependencies (globals, callees) are not the same there.
#include "binding.h"

#include "mahou/cache.h"

#include <cstring>

namespace nb = nanobind;

namespace mahou::binding {

namespace {

constexpr char kMagic[8] = {'M', 'A', 'H', 'O', 'U', 'S', 'H', 'P'};
constexpr uint32_t kFormatVersion = 1;

// The layouts compiled Python entries read (python_abi.h), as text.
std::string pythonAbiKey() {
  const PythonAbi &a = pythonAbi();
  std::string s = "py " + std::to_string(PY_MAJOR_VERSION) + "." + std::to_string(PY_MINOR_VERSION);
  for (uint64_t v : {uint64_t(a.typeOffset), uint64_t(a.floatValueOffset), uint64_t(a.intLayout),
                     uint64_t(a.intSizeOffset), uint64_t(a.intDigitOffset), uint64_t(a.intDigitBytes),
                     uint64_t(a.arrayDataOffset), uint64_t(a.arrayNdOffset), uint64_t(a.arrayShapeOffset),
                     uint64_t(a.arrayStridesOffset), uint64_t(a.arrayFlagsOffset), uint64_t(a.arrayDescrOffset),
                     uint64_t(a.descrTypeNumOffset), uint64_t(a.descrByteOrderOffset), uint64_t(a.flagC),
                     uint64_t(a.flagF), uint64_t(a.flagWriteable), uint64_t(uint8_t(a.swappedByteOrder)),
                     uint64_t(uint32_t(a.int64AliasTypeNum)), uint64_t(uint32_t(a.uint64AliasTypeNum))})
    s += "," + std::to_string(v);
  return s;
}

std::string compatibilityKey() { return backendTable().objectCompatibilityKey() + "|" + pythonAbiKey(); }

void putU32(std::string &out, uint32_t v) { out.append(reinterpret_cast<const char *>(&v), 4); }
void putField(std::string &out, const std::string &s) {
  uint64_t n = s.size();
  out.append(reinterpret_cast<const char *>(&n), 8);
  out += s;
}

// Bounds-checked reading of the fields putField wrote; a short or inconsistent
// payload sets `bad` and yields empty values.
struct Reader {
  const char *data;
  size_t size, pos = 0;
  bool bad = false;
  uint32_t u32() {
    uint32_t v = 0;
    if (size - pos < 4) {
      bad = true;
      return 0;
    }
    std::memcpy(&v, data + pos, 4);
    pos += 4;
    return v;
  }
  std::string field() {
    uint64_t n = 0;
    if (bad || size - pos < 8) {
      bad = true;
      return "";
    }
    std::memcpy(&n, data + pos, 8);
    pos += 8;
    if (n > size - pos) {
      bad = true;
      return "";
    }
    std::string s(data + pos, size_t(n));
    pos += size_t(n);
    return s;
  }
};

std::optional<types::Type> parseType(const std::string &text) {
  std::string error;
  return types::parseType(text, &error);
}

struct ShippedOverload {
  std::vector<types::Type> args;
  std::optional<types::Type> declaredRet;
  cache::Entry entry;
};

[[noreturn]] void corrupted(const char *what) {
  throw std::invalid_argument(std::string("the compiled code in this pickle is corrupted (") + what + ")");
}

// Parses the payload: nullopt when it was made for another generator, CPU or Python
// (not an error: the overloads are compiled instead); throws on a malformed payload.
std::optional<std::vector<ShippedOverload>> parsePayload(const char *data, size_t size) {
  Reader r{data, size};
  if (size < 8 || std::memcmp(data, kMagic, 8) != 0)
    corrupted("bad magic");
  r.pos = 8;
  uint32_t version = r.u32();
  if (r.bad)
    corrupted("truncated header");
  if (version != kFormatVersion)
    return std::nullopt; // another mahou's format
  std::string key = r.field();
  if (r.bad)
    corrupted("truncated key");
  if (key != compatibilityKey())
    return std::nullopt;
  uint32_t count = r.u32();
  std::vector<ShippedOverload> out;
  for (uint32_t i = 0; i < count && !r.bad; ++i) {
    ShippedOverload ov;
    uint32_t nargs = r.u32();
    if (nargs > 4096)
      corrupted("argument count");
    for (uint32_t a = 0; a < nargs && !r.bad; ++a) {
      auto t = parseType(r.field());
      if (!t && !r.bad)
        corrupted("argument type");
      if (t)
        ov.args.push_back(std::move(*t));
    }
    ov.entry.symbol = r.field();
    std::string ret = r.field(), declared = r.field();
    ov.entry.dependencies = r.field();
    ov.entry.object = r.field();
    if (r.bad)
      break;
    auto retType = parseType(ret);
    if (!retType)
      corrupted("return type");
    ov.entry.ret = *retType;
    if (!declared.empty()) {
      ov.declaredRet = parseType(declared);
      if (!ov.declaredRet)
        corrupted("declared return type");
    }
    out.push_back(std::move(ov));
  }
  if (r.bad || r.pos != size)
    corrupted("truncated or overlong");
  return out;
}

} // namespace

PyObject *dispatcherExportCode(PyObject *self, PyObject *) {
  DispatcherState &st = *reinterpret_cast<DispatcherObject *>(self)->state;
  std::string out(kMagic, 8);
  putU32(out, kFormatVersion);
  uint32_t count = 0;
  std::string body;
  if (!translateErrors([&] {
        if (st.overloads.empty())
          return; // nothing compiled: no need to load the back end
        putField(out, compatibilityKey());
        for (const auto &ov : st.overloads) {
          std::string object;
          // Overloads whose callees cannot be found again by a global name elsewhere
          // (a function passed as an argument) are compiled again where they arrive.
          if (!ov->fn.cacheable || !backendTable().objectCode(ov->fn.symbol, &object))
            continue;
          putU32(body, uint32_t(ov->fn.args.size()));
          for (const types::Type &t : ov->fn.args)
            putField(body, t.str());
          putField(body, ov->fn.symbol);
          putField(body, ov->fn.ret.str());
          putField(body, ov->declaredRet ? ov->declaredRet->str() : std::string());
          putField(body, ov->fn.dependencies);
          putField(body, object);
          ++count;
        }
      }))
    return nullptr;
  if (st.overloads.empty())
    putField(out, "");
  putU32(out, count);
  out += body;
  return PyBytes_FromStringAndSize(out.data(), Py_ssize_t(out.size()));
}

PyObject *dispatcherImportCode(PyObject *self, PyObject *payload) {
  auto *disp = reinterpret_cast<DispatcherObject *>(self);
  DispatcherState &st = *disp->state;
  char *data = nullptr;
  Py_ssize_t size = 0;
  if (PyBytes_AsStringAndSize(payload, &data, &size) < 0)
    return nullptr;
  long linked = 0;
  nb::object hold = nb::borrow(self); // alive while linking (callees may be compiled)
  bool ok = translateErrors([&] {
    std::optional<std::vector<ShippedOverload>> shipped;
    try {
      shipped = parsePayload(data, size_t(size));
    } catch (const std::invalid_argument &e) {
      PyErr_SetString(PyExc_ValueError, e.what());
      throw nb::python_error();
    }
    if (!shipped)
      return;
    for (ShippedOverload &s : *shipped) {
      std::vector<uint64_t> key;
      for (const types::Type &t : s.args)
        appendTypeKey(t, key);
      if (findOverload(st, key))
        continue;
      std::optional<CompiledFunction> fn;
      {
        st.compiling.push_back(s.args);
        struct Pop {
          DispatcherState &st;
          ~Pop() { st.compiling.pop_back(); }
        } pop{st};
        std::unique_ptr<CompileEnvironment> env = makeEnvironment(disp);
        SourceFile file(st.filename, st.source, st.firstLine);
        CompileOptions options = st.options; // as compileOverload: the signature's return compiled in
        if (s.declaredRet && s.declaredRet->isNumber())
          options.declaredReturn = s.declaredRet;
        std::string corrupt;
        fn = backendTable().linkEntry(file, st.name, s.args, *env, options, std::move(s.entry), &corrupt);
        if (!corrupt.empty()) { // an object or types edited inconsistently: refused, never linked
          PyErr_Format(PyExc_ValueError, "the compiled code in this pickle is corrupted (%s)", corrupt.c_str());
          throw nb::python_error();
        }
      }
      if (!fn || findOverload(st, key))
        continue; // another source, options or dependencies here: compiled when called
      fn->fromCache = false;
      fn->object.clear();
      Overload &ov = addOverload(st, std::move(key), std::move(*fn));
      ov.shipped = true;
      if (s.declaredRet && s.declaredRet->isScalar() && ov.fn.ret.isScalar())
        ov.declaredRet = s.declaredRet;
      ++linked;
    }
  });
  if (!ok)
    return nullptr;
  return PyLong_FromLong(linked);
}

} // namespace mahou::binding
