// Deterministic symbols and the on-disk object cache (cache=True): the dependency
// record of a compilation, keys, entry files (checksummed, written atomically).
#include "mahou/cache.h"
#include "mahou/jitclass.h"

#include "mahou/codegen.h"
#include "mahou/jit.h"
#include "object_check.h"

#include <llvm/ADT/StringRef.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/Support/SHA256.h>

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace mahou::cache {

namespace {

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

constexpr char kMagic[8] = {'M', 'A', 'H', 'O', 'U', 'O', 'B', 'J'};
constexpr uint32_t kFormatVersion = 1;
constexpr size_t kHeaderBytes = 8 + 4 + 4 + 8;
constexpr size_t kChecksumBytes = 32;

// ------------------------------------------------------------------ text encoding
// Length-prefixed strings: "<len>:<bytes>", so any byte may appear in a field.
void putField(std::string &out, const std::string &s) {
  out += std::to_string(s.size());
  out += ':';
  out += s;
}

// Reads the fields of one record line written with putField, separated by spaces.
bool readFields(const std::string &text, size_t &pos, std::vector<std::string> &fields) {
  fields.clear();
  while (pos < text.size() && text[pos] != '\n') {
    if (text[pos] == ' ') { ++pos; continue; }
    size_t colon = text.find(':', pos);
    if (colon == std::string::npos || colon == pos || colon - pos > 12) return false;
    size_t len = 0;
    for (size_t i = pos; i < colon; ++i) {
      if (text[i] < '0' || text[i] > '9') return false;
      len = len * 10 + size_t(text[i] - '0');
    }
    if (colon + 1 + len > text.size()) return false;
    fields.push_back(text.substr(colon + 1, len));
    pos = colon + 1 + len;
  }
  if (pos < text.size()) ++pos; // the newline
  return true;
}

std::string hexBits(double d) {
  char buf[17];
  snprintf(buf, sizeof buf, "%016llx", (unsigned long long)std::bit_cast<uint64_t>(d));
  return buf;
}

// A global's value as text, without addresses (a compiled function is its name;
// its code is covered by the callee records).
std::string serialize(const GlobalValue &g) {
  using K = GlobalValue::Kind;
  std::string out = std::to_string(int(g.kind)) + "/";
  switch (g.kind) {
  case K::Int: out += std::to_string(g.i); break;
  case K::Datetime: out += std::to_string(g.i); putField(out, g.s); break;
  case K::Float: out += hexBits(g.f); break;
  case K::Complex: out += hexBits(g.f) + "," + hexBits(g.imag); break;
  case K::Bool: out += g.b ? "1" : "0"; break;
  case K::Tuple:
    if (g.handle) { // a namedtuple constant: its class's name and fields
      putField(out, g.s);
      for (const std::string &f : g.fields) putField(out, f);
    }
    out += std::to_string(g.elems.size()) + "(";
    for (const GlobalValue &e : g.elems) putField(out, serialize(e));
    out += ")";
    break;
  case K::Module: out += std::to_string(int(g.module)); putField(out, g.s); break;
  case K::Overloaded:
    putField(out, g.s);
    if (!g.elems.empty()) putField(out, serialize(g.elems[0]));
    break;
  case K::ModuleAttr: out += std::to_string(int(g.module)) + "."; putField(out, g.s); break;
  case K::DType: // s: a structured dtype's record type
    out += std::to_string(int(g.dtype));
    if (!g.s.empty()) putField(out, g.s);
    break;
  case K::Array:
    out += std::to_string(int(g.dtype)) + "[";
    for (int64_t d : g.shape) out += std::to_string(d) + ",";
    out += g.b ? "]b" : "]"; // b: a bytes object
    putField(out, g.bytes);
    break;
  case K::ExcClass: out += std::to_string(int(g.exc)); break;
  case K::JitClass: out += std::to_string(g.handle) + ":"; putField(out, g.s); break; // the handle: a digest of the class
  case K::Str: case K::Function: case K::Builtin: case K::Unsupported: putField(out, g.s); break;
  case K::Missing: case K::None: case K::ObjMode: break;
  case K::EnumMember: // known by address (not cached): its class and member
    putField(out, g.s);
    out += std::to_string(g.i);
    break;
  case K::ExternalFunction: out += std::to_string(g.handle) + ":"; putField(out, g.s); break; // the code calls the address
  case K::DeviceFunctionDecl: putField(out, g.s); putField(out, g.fields.at(0)); break; // the code calls the symbol
  case K::NamedTupleClass: // its name, fields and defaults (the code builds its instances)
    putField(out, g.s);
    for (const GlobalValue &f : g.elems) putField(out, f.s + (f.elems.empty() ? "" : "=" + serialize(f.elems[0])));
    break;
  }
  return out;
}

std::string serialize(const std::optional<CalleeParams> &p) {
  if (!p) return "none";
  std::string out = p->varargs ? "v" : "-";
  if (p->nkwonly) out += "k" + std::to_string(p->nkwonly);
  for (size_t i = 0; i < p->names.size(); ++i) {
    putField(out, p->names[i]);
    putField(out, i < p->defaults.size() && p->defaults[i] ? serialize(*p->defaults[i]) : std::string("nodefault"));
  }
  return out;
}

std::string hex(const std::array<uint8_t, 32> &digest, size_t nbytes) {
  static const char *digits = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < nbytes; ++i) {
    s += digits[digest[i] >> 4];
    s += digits[digest[i] & 15];
  }
  return s;
}

void hashField(llvm::SHA256 &h, const std::string &s) {
  std::string prefix = std::to_string(s.size()) + ":";
  h.update(llvm::StringRef(prefix));
  h.update(llvm::StringRef(s));
}

void hashCommon(llvm::SHA256 &h, const SourceFile &file, const std::string &name, const std::vector<types::Type> &args,
                const CompileOptions &options) {
  hashField(h, file.path());
  hashField(h, std::to_string(file.firstLine()));
  hashField(h, name);
  hashField(h, file.text());
  for (const types::Type &t : args) hashField(h, t.str());
  hashField(h, std::string("boundscheck=") + (options.boundscheck ? "1" : "0") + " fastmath=" +
                   (options.fastmath ? "1" : "0") + (options.parallel ? " parallel=1" : ""));
  if (options.fastmath && options.fastmathFlags) hashField(h, "fastmath flags " + std::to_string(options.fastmathFlags));
  for (const auto &[var, t] : options.localTypes) hashField(h, "local " + var + ": " + t.str());
  if (options.declaredReturn) hashField(h, "returns " + options.declaredReturn->str());
  if (!options.native.empty()) hashField(h, "native:" + options.native.key());
  if (options.numpyErrors) hashField(h, "error_model=numpy");
  if (options.forceInline) hashField(h, "forceinline"); // its callers' code differs
}

std::string sanitize(const std::string &s) {
  std::string out;
  for (char c : s) out += (isalnum((unsigned char)c) || c == '_' || c == '-') ? c : '_';
  return out.substr(0, 64);
}

// Writing as the mode bits allow it, for root too (who may write anywhere): a cache
// directory made read-only is read by everyone and written by no one.
bool permitsWriting(const std::filesystem::path &dir) {
  struct stat st{};
  return stat(dir.c_str(), &st) == 0 && (st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) != 0 &&
         access(dir.c_str(), W_OK | X_OK) == 0;
}

bool writableDir(const std::filesystem::path &dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    std::filesystem::path existing = dir;
    while (!existing.empty() && existing != existing.parent_path() && !std::filesystem::exists(existing, ec))
      existing = existing.parent_path();
    if (!permitsWriting(existing)) return false;
    std::filesystem::create_directories(dir, ec);
  }
  return std::filesystem::is_directory(dir, ec) && permitsWriting(dir);
}

// ------------------------------------------------------------------ entry file
void putU32(std::string &out, uint32_t v) { out.append(reinterpret_cast<const char *>(&v), 4); }
void putU64(std::string &out, uint64_t v) { out.append(reinterpret_cast<const char *>(&v), 8); }
uint64_t getU64(const char *p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
uint32_t getU32(const char *p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

std::array<uint8_t, 32> sha256(const char *data, size_t n) {
  llvm::SHA256 h;
  h.update(llvm::StringRef(data, n));
  return h.final();
}

// The whole content of a regular file, read without blocking: anything else at the
// path (a directory, a FIFO, a device, a dangling link), an unreadable file, one
// larger than any entry could be, or a read error is a miss, never an exception.
bool readRegularFile(const std::string &path, std::string &out) {
  constexpr off_t kMaxEntryBytes = off_t(1) << 28; // far above any object mahou writes
  if (path.empty()) return false;
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return false;
  struct stat st{};
  bool ok = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 0 && st.st_size < kMaxEntryBytes;
  if (ok) {
    out.resize(size_t(st.st_size));
    size_t done = 0;
    while (ok && done < out.size()) {
      ssize_t n = ::read(fd, out.data() + done, out.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) ok = false; // an error, or the file shrank while being read
      else done += size_t(n);
    }
  }
  ::close(fd);
  return ok;
}

bool readBinaryField(const std::string &buf, size_t &pos, size_t end, std::string &out) {
  if (end - pos < 8) return false;
  uint64_t len = getU64(buf.data() + pos);
  pos += 8;
  if (len > end - pos) return false;
  out.assign(buf, pos, len);
  pos += len;
  return true;
}

} // namespace

// ------------------------------------------------------------------ recording

GlobalValue RecordingEnvironment::resolveGlobal(const std::string &name) {
  GlobalValue g = inner_.resolveGlobal(name);
  globals_[name] = g;
  return g;
}

CalleeSignature RecordingEnvironment::compileCallee(uint64_t handle, const std::vector<types::Type> &args) {
  CalleeSignature sig = inner_.compileCallee(handle, args);
  if (!sig.symbol.empty()) {
    bool seen = std::any_of(callees_.begin(), callees_.end(),
                            [&](const Callee &c) { return c.handle == handle && c.args == args; });
    if (!seen) callees_.push_back(Callee{handle, args, sig});
  }
  return sig;
}

std::optional<CalleeSource> RecordingEnvironment::hostCalleeSource(uint64_t handle) {
  std::optional<CalleeSource> src = inner_.hostCalleeSource(handle);
  if (!src) return src;
  unfindable_ = true; // another process could not find the callee's code by a global name
  auto &entry = inlined_[handle];
  if (!entry.second) {
    entry.first = src->file.path() + ":" + std::to_string(src->file.firstLine()) + ":" + src->name + "\n" +
                  src->file.text();
    entry.second = std::make_unique<RecordingEnvironment>(*src->env);
  }
  src->env = entry.second.get();
  return src;
}

std::optional<CalleeParams> RecordingEnvironment::calleeParams(uint64_t handle) {
  std::optional<CalleeParams> p = inner_.calleeParams(handle);
  params_[handle] = serialize(p);
  return p;
}

namespace {
// The global name a callee handle was found under (top-level globals only), or "".
std::string globalNameOf(const std::map<std::string, GlobalValue> &globals, uint64_t handle,
                         GlobalValue::Kind kind = GlobalValue::Kind::Function) {
  for (const auto &[name, g] : globals)
    if (g.kind == kind && g.handle == handle) return name;
  return "";
}

// A literal argument of an extension request as text, and back.
std::string literalText(const GlobalValue &g) {
  using K = GlobalValue::Kind;
  switch (g.kind) {
  case K::Int: return "i" + std::to_string(g.i);
  case K::Bool: return g.b ? "b1" : "b0";
  case K::Float: return "f" + hexBits(g.f);
  case K::Str: return "s" + g.s;
  default: return "-";
  }
}

std::optional<GlobalValue> literalFromText(const std::string &t) {
  if (t.empty() || t == "-") return std::nullopt;
  GlobalValue g;
  switch (t[0]) {
  case 'i': g.kind = GlobalValue::Kind::Int; g.i = std::strtoll(t.c_str() + 1, nullptr, 10); break;
  case 'b': g.kind = GlobalValue::Kind::Bool; g.b = t == "b1"; break;
  case 'f': {
    g.kind = GlobalValue::Kind::Float;
    uint64_t bits = std::strtoull(t.c_str() + 1, nullptr, 16);
    std::memcpy(&g.f, &bits, sizeof bits);
    break;
  }
  case 's': g.kind = GlobalValue::Kind::Str; g.s = t.substr(1); break;
  default: return std::nullopt;
  }
  return g;
}

// An extension request as text: kind, the overloaded global's name, the member name,
// the argument types, keyword names and literal values.
std::string requestText(const ExtensionRequest &r, const std::string &global) {
  std::string out;
  putField(out, std::to_string(int(r.kind)));
  putField(out, global);
  putField(out, r.name);
  putField(out, std::to_string(r.args.size()));
  for (size_t i = 0; i < r.args.size(); ++i) {
    putField(out, r.args[i].str());
    putField(out, i < r.literals.size() && r.literals[i] ? literalText(*r.literals[i]) : std::string("-"));
  }
  putField(out, std::to_string(r.kwnames.size()));
  for (const std::string &k : r.kwnames) putField(out, k);
  return out;
}

std::string extensionName(size_t index) { return "extension#" + std::to_string(index); }

bool roundTrips(const types::Type &t) {
  std::string error;
  auto parsed = types::parseType(t.str(), &error);
  return parsed && *parsed == t;
}
} // namespace

ExtensionResult RecordingEnvironment::resolveExtension(const ExtensionRequest &request) {
  ExtensionResult r = inner_.resolveExtension(request);
  std::string global = request.kind == ExtensionRequest::Kind::Function
                           ? globalNameOf(globals_, request.handle, GlobalValue::Kind::Overloaded)
                           : std::string();
  std::string line;
  putField(line, requestText(request, global));
  putField(line, r.impl ? serialize(*r.impl) : "none");
  if (request.kind == ExtensionRequest::Kind::Function && global.empty()) unfindable_ = true;
  for (const types::Type &t : request.args)
    if (t.kind == types::Kind::Function || !roundTrips(t)) unfindable_ = true;
  extensions_.emplace_back(r.impl ? r.impl->handle : 0, line);
  return r;
}

std::optional<ObjModeBlock> RecordingEnvironment::objModeBlock(const ObjModeRequest &request) {
  std::optional<ObjModeBlock> block = inner_.objModeBlock(request);
  if (block && block->handle) {
    objModeBlocks_.push_back(block->handle);
    unfindable_ = true; // its Python function exists in this process only
  }
  return block;
}

std::string RecordingEnvironment::dependencies() const {
  std::string out;
  // An objmode block's handle is unique in the process: the code is never shared with
  // another function's, whose block may differ (closures, globals) though its text does not.
  for (uint64_t handle : objModeBlocks_) out += "o " + std::to_string(handle) + "\n";
  for (const auto &[name, g] : globals_) {
    out += "g ";
    putField(out, name);
    out += ' ';
    putField(out, serialize(g));
    out += '\n';
  }
  // Extensions before the callees: their implementations are callees named extension#N.
  for (const auto &[handle, line] : extensions_) out += "x " + line + "\n";
  std::map<std::string, GlobalValue> named = namedCallees();
  std::vector<std::string> lines;
  for (const Callee &c : callees_) {
    std::string line = "c ";
    putField(line, globalNameOf(named, c.handle));
    line += ' ';
    putField(line, std::to_string(c.args.size()));
    for (const types::Type &t : c.args) {
      line += ' ';
      putField(line, t.str());
    }
    line += ' ';
    putField(line, c.sig.symbol);
    line += ' ';
    putField(line, c.sig.ret.str());
    lines.push_back(line + "\n");
  }
  for (const auto &[handle, params] : params_) {
    std::string line = "p ";
    putField(line, globalNameOf(named, handle));
    line += ' ';
    putField(line, params);
    lines.push_back(line + "\n");
  }
  for (const auto &[handle, layout] : classes_) {
    std::string line = "j ";
    putField(line, std::to_string(handle));
    lines.push_back(line + " " + layout + "\n");
  }
  for (const auto &[handle, inlined] : inlined_) { // callees compiled into this function
    std::string line = "i ";
    putField(line, inlined.first);
    line += ' ';
    putField(line, inlined.second->dependencies());
    lines.push_back(line + "\n");
  }
  std::sort(lines.begin(), lines.end());
  for (const std::string &l : lines) out += l;
  return out;
}

std::map<std::string, GlobalValue> RecordingEnvironment::namedCallees() const {
  std::map<std::string, GlobalValue> named = globals_;
  for (const auto &[handle, name] : members_) {
    GlobalValue g;
    g.kind = GlobalValue::Kind::Function;
    g.handle = handle;
    named[name] = g;
  }
  for (size_t i = 0; i < extensions_.size(); ++i) {
    GlobalValue g;
    g.kind = GlobalValue::Kind::Function;
    g.handle = extensions_[i].first;
    if (g.handle) named[extensionName(i)] = g;
  }
  return named;
}

namespace {
// A jitclass's layout as recorded (its name and fields), and the record names of its
// members: "jitclass#<handle>.<method>", ".static:<name>", ".get:<property>", ".set:<property>".
std::string layoutText(const JitClassInfo &c) {
  std::string layout;
  putField(layout, c.name);
  for (size_t i = 0; i < c.fieldNames.size(); ++i) {
    layout += ' ';
    putField(layout, c.fieldNames[i] + ":" + c.fieldTypes[i].str());
  }
  return layout;
}

const char kMemberPrefix[] = "jitclass#";

template <class F> void forEachMember(const JitClassInfo &c, F &&f) {
  std::string base = kMemberPrefix + std::to_string(c.handle) + ".";
  for (const auto &[name, h] : c.methods) f(h, base + name);
  for (const auto &[name, h] : c.staticMethods) f(h, base + "static:" + name);
  for (const auto &[name, p] : c.properties) {
    if (p.getter) f(p.getter, base + "get:" + name);
    if (p.setter) f(p.setter, base + "set:" + name);
  }
}

// The member a record names, found again through its class in this process.
std::optional<GlobalValue> memberByName(const std::string &name, CompileEnvironment &env) {
  if (name.rfind(kMemberPrefix, 0) != 0) return std::nullopt;
  size_t dot = name.find('.');
  if (dot == std::string::npos) return std::nullopt;
  uint64_t handle = std::strtoull(name.c_str() + sizeof kMemberPrefix - 1, nullptr, 10);
  const JitClassInfo *c = env.jitClass(handle);
  if (!c) return std::nullopt;
  std::optional<GlobalValue> found;
  forEachMember(*c, [&](uint64_t h, const std::string &n) {
    if (n == name) {
      found = GlobalValue{};
      found->kind = GlobalValue::Kind::Function;
      found->handle = h;
    }
  });
  return found;
}
} // namespace

const JitClassInfo *RecordingEnvironment::jitClass(uint64_t handle) {
  const JitClassInfo *c = inner_.jitClass(handle);
  if (c) { // the layout is part of the code; the members are callees found through the class
    classes_[handle] = layoutText(*c);
    forEachMember(*c, [&](uint64_t h, const std::string &name) { members_[h] = name; });
  }
  return c;
}

namespace {
bool holdsClass(const GlobalValue &g) { // a namedtuple class or instance: known by address
  if (g.kind == GlobalValue::Kind::NamedTupleClass || g.kind == GlobalValue::Kind::EnumMember ||
      (g.kind == GlobalValue::Kind::ExcClass && types::isUserExc(g.exc)) || // found through this process's registry
      (g.kind == GlobalValue::Kind::Tuple && g.handle))
    return true;
  return std::any_of(g.elems.begin(), g.elems.end(), holdsClass);
}
} // namespace

bool RecordingEnvironment::cacheable() const {
  for (const auto &[name, g] : globals_) // namedtuple classes are known by address: not found again in another process
    if (holdsClass(g)) return false;
  std::map<std::string, GlobalValue> named = namedCallees();
  if (unfindable_) return false;
  for (const auto &[handle, params] : params_)
    if (globalNameOf(named, handle).empty()) return false;
  for (const Callee &c : callees_) {
    if (globalNameOf(named, c.handle).empty()) return false;
    for (const types::Type &t : c.args)
      if (t.kind == types::Kind::Function || !roundTrips(t)) return false;
    if (!roundTrips(c.sig.ret)) return false;
  }
  return true;
}

// ------------------------------------------------------------------ keys

std::string contentSymbol(const SourceFile &file, const std::string &name, const std::vector<types::Type> &args,
                          const CompileOptions &options, const std::string &dependencies) {
  llvm::SHA256 h;
  hashField(h, "mahou-symbol-1");
  hashCommon(h, file, name, args, options);
  hashField(h, dependencies);
  return "mahou." + name + "." + hex(h.final(), 8);
}

std::string overloadKey(const SourceFile &file, const std::string &name, const std::vector<types::Type> &args,
                        const CompileOptions &options) {
  llvm::SHA256 h;
  hashField(h, "mahou-cache-key-1");
  hashField(h, objectCompatibilityKey());
  hashCommon(h, file, name, args, options);
  return hex(h.final(), 16);
}

std::string entryPath(const std::string &sourcePath, const std::string &name, const std::string &key,
                      bool forWriting) {
  namespace fs = std::filesystem;
  if (sourcePath.empty() || sourcePath[0] == '<') return "";
  std::error_code ec;
  fs::path src = fs::absolute(fs::path(sourcePath), ec);
  if (ec || !fs::is_regular_file(src, ec)) return "";
  fs::path srcDir = src.parent_path();
  std::string file = sanitize(src.stem().string()) + "." + sanitize(name) + "." + key.substr(0, 24) + ".mahou";
  // Outside __pycache__, one directory per source directory: its name and a hash of its path.
  llvm::SHA256 h;
  h.update(llvm::StringRef(srcDir.string()));
  std::string dirKey = sanitize(srcDir.filename().string()) + "-" + hex(h.final(), 6);
  // Where the entry may be, in order: the cache directory the environment names (and
  // only there), else __pycache__ beside the source, then the user's cache directory.
  std::vector<fs::path> dirs;
  const char *env = std::getenv("MAHOU_CACHE_DIR");
  if (!env || !*env) env = std::getenv("NUMBA_CACHE_DIR");
  if (env && *env) {
    dirs.push_back(fs::path(env) / dirKey);
  } else {
    dirs.push_back(srcDir / "__pycache__");
    if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) dirs.push_back(fs::path(xdg) / "mahou" / dirKey);
    else if (const char *home = std::getenv("HOME"); home && *home)
      dirs.push_back(fs::path(home) / ".cache" / "mahou" / dirKey);
  }
  for (const fs::path &dir : dirs) {
    // A reader takes the first location holding the entry, writable or not (a cache
    // directory shared read-only); a writer the first it can write to.
    if (forWriting ? writableDir(dir) : fs::is_regular_file(dir / file, ec)) return (dir / file).string();
  }
  return "";
}

// ------------------------------------------------------------------ entry files
// Layout: "MAHOUOBJ", u32 format version, u32 0, u64 payload size, the payload
// (u64-length-prefixed key, symbol, return type, dependencies, object code), then
// the SHA-256 of everything before it.

std::optional<Entry> readEntry(const std::string &path, const std::string &key) {
  std::string buf;
  if (!readRegularFile(path, buf)) return std::nullopt;
  if (buf.size() < kHeaderBytes + kChecksumBytes || std::memcmp(buf.data(), kMagic, 8) != 0) return std::nullopt;
  if (getU32(buf.data() + 8) != kFormatVersion) return std::nullopt;
  uint64_t payload = getU64(buf.data() + 16);
  if (payload != buf.size() - kHeaderBytes - kChecksumBytes) return std::nullopt;
  size_t end = kHeaderBytes + payload;
  if (sha256(buf.data(), end) != *reinterpret_cast<const std::array<uint8_t, 32> *>(buf.data() + end))
    return std::nullopt;
  size_t pos = kHeaderBytes;
  std::string storedKey, ret;
  Entry e;
  if (!readBinaryField(buf, pos, end, storedKey) || storedKey != key || !readBinaryField(buf, pos, end, e.symbol) ||
      !readBinaryField(buf, pos, end, ret) || !readBinaryField(buf, pos, end, e.dependencies) ||
      !readBinaryField(buf, pos, end, e.object) || pos != end)
    return std::nullopt;
  std::string error;
  auto t = types::parseType(ret, &error);
  if (!t) return std::nullopt;
  e.ret = *t;
  return e;
}

bool writeEntry(const std::string &path, const std::string &key, const Entry &entry) {
  if (path.empty()) return false;
  std::string payload;
  std::string ret = entry.ret.str();
  for (const std::string *field : std::initializer_list<const std::string *>{&key, &entry.symbol, &ret, &entry.dependencies, &entry.object}) {
    putU64(payload, field->size());
    payload += *field;
  }
  std::string buf(kMagic, 8);
  putU32(buf, kFormatVersion);
  putU32(buf, 0);
  putU64(buf, payload.size());
  buf += payload;
  auto digest = sha256(buf.data(), buf.size());
  buf.append(reinterpret_cast<const char *>(digest.data()), digest.size());

  static std::atomic<uint64_t> counter{0};
  std::string tmp = path + ".tmp." + std::to_string(getpid()) + "." + std::to_string(counter.fetch_add(1)) + "." +
                    std::to_string(Clock::now().time_since_epoch().count() & 0xffffff);
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  size_t done = 0;
  while (done < buf.size()) {
    ssize_t n = ::write(fd, buf.data() + done, buf.size() - done);
    if (n <= 0) {
      if (n < 0 && errno == EINTR) continue;
      ::close(fd);
      ::unlink(tmp.c_str());
      return false;
    }
    done += size_t(n);
  }
  if (::close(fd) != 0 || ::rename(tmp.c_str(), path.c_str()) != 0) {
    ::unlink(tmp.c_str());
    return false;
  }
  return true;
}

namespace {
// An 'x' record asked again: the same implementation must be chosen (its code is
// checked by the 'c' record of extension#N that follows).
bool extensionHolds(const std::vector<std::string> &f, std::map<std::string, GlobalValue> &now, size_t index,
                    CompileEnvironment &env) {
  if (f.size() != 2) return false;
  std::vector<std::string> q;
  size_t p = 0;
  if (!readFields(f[0], p, q) || q.size() < 5) return false;
  ExtensionRequest r;
  r.kind = ExtensionRequest::Kind(std::strtol(q[0].c_str(), nullptr, 10));
  if (r.kind == ExtensionRequest::Kind::Function) {
    auto it = now.find(q[1]);
    if (it == now.end() || it->second.kind != GlobalValue::Kind::Overloaded) return false;
    r.handle = it->second.handle;
  }
  r.name = q[2];
  size_t nargs = std::strtoul(q[3].c_str(), nullptr, 10), k = 4;
  if (q.size() < k + 2 * nargs + 1) return false;
  for (size_t i = 0; i < nargs; ++i, k += 2) {
    std::string error;
    auto t = types::parseType(q[k], &error);
    if (!t) return false;
    r.args.push_back(*t);
    r.literals.push_back(literalFromText(q[k + 1]));
  }
  size_t nkw = std::strtoul(q[k++].c_str(), nullptr, 10);
  if (q.size() != k + nkw) return false;
  for (size_t i = 0; i < nkw; ++i) r.kwnames.push_back(q[k + i]);
  ExtensionResult res = env.resolveExtension(r);
  if ((res.impl ? serialize(*res.impl) : std::string("none")) != f[1]) return false;
  if (res.impl) now[extensionName(index)] = *res.impl;
  return true;
}
} // namespace

bool dependenciesHold(const std::string &dependencies, CompileEnvironment &env) {
  std::map<std::string, GlobalValue> now;
  std::vector<std::string> f;
  size_t pos = 0, extensions = 0;
  while (pos < dependencies.size()) {
    char tag = dependencies[pos];
    pos += 2;
    if (!readFields(dependencies, pos, f)) return false;
    if (tag == 'x') {
      if (!extensionHolds(f, now, extensions++, env)) return false;
    } else if (tag == 'g') {
      if (f.size() != 2) return false;
      GlobalValue g = env.resolveGlobal(f[0]);
      if (serialize(g) != f[1]) return false;
      now[f[0]] = g;
    } else if (tag == 'j') { // a jitclass: the same description (its handle) and layout
      if (f.size() < 2) return false;
      const JitClassInfo *c = env.jitClass(std::strtoull(f[0].c_str(), nullptr, 10));
      if (!c) return false;
      size_t p = 0;
      std::vector<std::string> layout;
      if (!readFields(layoutText(*c), p, layout) || layout != std::vector<std::string>(f.begin() + 1, f.end()))
        return false;
    } else if (tag == 'c') {
      if (f.size() < 4) return false;
      if (!now.count(f[0]))
        if (auto m = memberByName(f[0], env)) now[f[0]] = *m;
      auto it = now.find(f[0]);
      if (it == now.end() || it->second.kind != GlobalValue::Kind::Function) return false;
      size_t nargs = std::strtoul(f[1].c_str(), nullptr, 10);
      if (f.size() != 4 + nargs) return false;
      std::vector<types::Type> args;
      for (size_t i = 0; i < nargs; ++i) {
        std::string error;
        auto t = types::parseType(f[2 + i], &error);
        if (!t) return false;
        args.push_back(*t);
      }
      CalleeSignature sig = env.compileCallee(it->second.handle, args);
      if (sig.symbol != f[2 + nargs] || sig.ret.str() != f[3 + nargs]) return false;
    } else if (tag == 'p') {
      if (f.size() != 2) return false;
      if (!now.count(f[0]))
        if (auto m = memberByName(f[0], env)) now[f[0]] = *m;
      auto it = now.find(f[0]);
      if (it == now.end() || it->second.kind != GlobalValue::Kind::Function) return false;
      if (serialize(env.calleeParams(it->second.handle)) != f[1]) return false;
    } else {
      return false;
    }
  }
  return true;
}

// ------------------------------------------------------------------ load / store

std::optional<CompiledFunction> linkEntry(const SourceFile &file, const std::string &name,
                                          const std::vector<types::Type> &args, CompileEnvironment &env,
                                          const CompileOptions &options, Entry e, std::string *corrupt) {
  for (const types::Type &t : args)
    if (t.kind == types::Kind::Function || !roundTrips(t)) return std::nullopt;
  CompiledFunction out;
  auto t0 = Clock::now();
  bool fresh = !jit::Engine::created();
  jit::Engine &engine = jit::Engine::instance();
  if (fresh) out.times.initMs = msSince(t0);
  t0 = Clock::now();
  // The object must be the code of exactly this source, signature and dependencies.
  if (e.symbol != contentSymbol(file, name, args, options, e.dependencies)) return std::nullopt;
  try {
    if (!dependenciesHold(e.dependencies, env)) return std::nullopt;
  } catch (const InternalError &) {
    throw;
  } catch (...) {
    return std::nullopt; // a callee no longer compiles: recompiling reports it properly
  }
  out.times.cacheMs = msSince(t0);
  t0 = Clock::now();
  std::string entrySym = codegen::entrySymbol(e.symbol);
  // The code linked for this symbol (already here, or the entry's) must be what the
  // types say: a well-formed object whose signature record names them.
  std::string linkedObject, why;
  const std::string &object = engine.find(entrySym, &linkedObject, nullptr) ? linkedObject : e.object;
  if (!jit::checkObjectFile(object, jit::signatureSymbol(e.symbol), jit::signatureRecord(args, e.ret), &why)) {
    if (corrupt) *corrupt = why;
    return std::nullopt;
  }
  try {
    void *entry = engine.find(entrySym, nullptr, &out.code);
    out.entry = reinterpret_cast<EntryFn>(entry ? entry : engine.addObject(e.object, entrySym, &out.code));
  } catch (const InternalError &) {
    return std::nullopt; // an object that does not link is ignored and recompiled
  }
  if (env.pythonAbi() && codegen::pythonEntryFits(args, e.ret))
    out.pythonEntry = engine.lookup(codegen::pythonEntrySymbol(e.symbol));
  findNativeEntries(options.native, e.symbol, [&](const std::string &s) { return engine.lookup(s); }, out);
  out.times.jitMs = msSince(t0);
  out.symbol = e.symbol;
  out.ret = e.ret;
  out.args = args;
  out.dependencies = std::move(e.dependencies);
  out.cacheable = true;
  out.fromCache = true;
  return out;
}

std::optional<CompiledFunction> load(const SourceFile &file, const std::string &name,
                                     const std::vector<types::Type> &args, CompileEnvironment &env,
                                     const CompileOptions &options) {
  for (const types::Type &t : args)
    if (t.kind == types::Kind::Function || !roundTrips(t)) return std::nullopt;
  auto t0 = Clock::now();
  bool fresh = !jit::Engine::created();
  jit::Engine::instance();
  double initMs = fresh ? msSince(t0) : 0;
  t0 = Clock::now();
  std::string key = overloadKey(file, name, args, options);
  std::optional<Entry> e = readEntry(entryPath(file.path(), name, key, /*forWriting=*/false), key);
  if (!e) return std::nullopt;
  double readMs = msSince(t0);
  std::optional<CompiledFunction> out = linkEntry(file, name, args, env, options, std::move(*e));
  if (out) {
    out->times.initMs = initMs;
    out->times.cacheMs += readMs;
  }
  return out;
}

void store(const SourceFile &file, const std::string &name, CompiledFunction &fn, const CompileOptions &options) {
  if (!fn.cacheable || fn.fromCache || fn.object.empty() || !roundTrips(fn.ret)) return;
  for (const types::Type &t : fn.args)
    if (t.kind == types::Kind::Function || !roundTrips(t)) return;
  auto t0 = Clock::now();
  std::string key = overloadKey(file, name, fn.args, options);
  writeEntry(entryPath(file.path(), name, key, /*forWriting=*/true), key, Entry{fn.symbol, fn.ret, fn.dependencies, fn.object});
  fn.times.cacheMs += msSince(t0);
}

} // namespace mahou::cache
