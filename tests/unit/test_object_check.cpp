// Unit tests of the check of object files from outside the process (jit/object_check.h):
// a compiled function's own object passes with its signature record; fields edited
// inconsistently (offsets, sizes, relocations, symbols, section kinds) and a record
// that names other types are refused.
#include "jit/object_check.h"
#include "mahou/compiler.h"

#include <gtest/gtest.h>

#include <cstring>
#include <functional>

using namespace mahou;
using types::Type;

namespace {

class NothingOutside : public CompileEnvironment {
public:
  GlobalValue resolveGlobal(const std::string &) override { return {}; }
  CalleeSignature compileCallee(uint64_t, const std::vector<Type> &) override { return {}; }
};

struct Compiled {
  std::string object, symbol, record;
};

const Compiled &compiled() {
  static Compiled c = [] {
    SourceFile file("object_check.py", "def f(x, y):\n    return x * y + 1.5\n", 1);
    NothingOutside env;
    CompiledFunction fn = compileFunction(file, "f", {Type::int64(), Type::float64()}, env, CompileOptions{});
    return Compiled{fn.object, jit::signatureSymbol(fn.symbol), jit::signatureRecord(fn.args, fn.ret)};
  }();
  return c;
}

template <class T> T get(const std::string &s, size_t at) {
  T v;
  std::memcpy(&v, s.data() + at, sizeof v);
  return v;
}
template <class T> void put(std::string &s, size_t at, T v) { std::memcpy(s.data() + at, &v, sizeof v); }

// Offsets of the headers of the sections of a given type.
std::vector<size_t> sectionHeaders(const std::string &obj, uint32_t type) {
  std::vector<size_t> out;
  uint64_t shoff = get<uint64_t>(obj, 0x28);
  uint16_t shnum = get<uint16_t>(obj, 0x3c);
  for (size_t i = 0; i < shnum; ++i)
    if (get<uint32_t>(obj, shoff + 64 * i + 4) == type) out.push_back(shoff + 64 * i);
  return out;
}

bool passes(const std::string &obj, std::string *why = nullptr) {
  return jit::checkObjectFile(obj, compiled().symbol, compiled().record, why);
}

} // namespace

TEST(ObjectCheck, ACompiledObjectPasses) {
  std::string why;
  EXPECT_TRUE(passes(compiled().object, &why)) << why;
  EXPECT_EQ(compiled().record, "(int64, float64) -> float64");
}

TEST(ObjectCheck, TheRecordMustNameTheTypes) {
  std::string why;
  EXPECT_FALSE(jit::checkObjectFile(compiled().object, compiled().symbol, "(int64, float64) -> int64", &why));
  EXPECT_NE(why.find("signature record"), std::string::npos);
  EXPECT_FALSE(jit::checkObjectFile(compiled().object, compiled().symbol + "x", compiled().record, &why));
}

TEST(ObjectCheck, InconsistentEditsAreRefused) {
  const std::string &obj = compiled().object;
  size_t rela = sectionHeaders(obj, 4).at(0), symtab = sectionHeaders(obj, 2).at(0);
  uint64_t relaOffset = get<uint64_t>(obj, rela + 24), symOffset = get<uint64_t>(obj, symtab + 24);
  uint32_t patched = get<uint32_t>(obj, rela + 44);
  size_t target = get<uint64_t>(obj, 0x28) + 64 * patched;
  uint64_t targetSize = get<uint64_t>(obj, target + 32);
  std::vector<std::pair<const char *, std::function<void(std::string &)>>> edits = {
      {"truncated", [](std::string &s) { s.resize(s.size() / 2); }},
      {"not ELF", [](std::string &s) { s[1] = 'X'; }},
      {"section table past the end", [](std::string &s) { put<uint64_t>(s, 0x28, s.size()); }},
      {"section count", [](std::string &s) { put<uint16_t>(s, 0x3c, 0xfff0); }},
      {"section past the end", [&](std::string &s) { put<uint64_t>(s, target + 32, s.size()); }},
      {"sections overlap", [&](std::string &s) { put<uint64_t>(s, target + 24, 0); }},
      {"relocation past its section", [&](std::string &s) { put<uint64_t>(s, relaOffset, targetSize - 2); }},
      {"relocation type", [&](std::string &s) { put<uint32_t>(s, relaOffset + 8, 250); }},
      {"relocation symbol", [&](std::string &s) { put<uint32_t>(s, relaOffset + 12, 10000); }},
      {"symbol outside its section", [&](std::string &s) { put<uint64_t>(s, symOffset + 24 * 2 + 8, 1 << 20); }},
      {"symbol section", [&](std::string &s) { put<uint16_t>(s, symOffset + 24 * 2 + 6, 0x7fff); }},
      {"symbol name", [&](std::string &s) { put<uint32_t>(s, symOffset + 24 * 2, 0xffffff); }},
      {"alignment", [&](std::string &s) { put<uint64_t>(s, target + 48, 3); }},
      {"thread-local flag", [&](std::string &s) { put<uint64_t>(s, target + 8, get<uint64_t>(s, target + 8) | 0x400); }},
      {"initialisers", [&](std::string &s) { put<uint32_t>(s, target + 4, 14); }},
  };
  for (auto &[what, edit] : edits) {
    std::string bad = obj;
    edit(bad);
    std::string why;
    EXPECT_FALSE(passes(bad, &why)) << what;
    EXPECT_FALSE(why.empty()) << what;
  }
}
