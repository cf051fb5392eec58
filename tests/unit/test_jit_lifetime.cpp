// Unit tests of the JIT's code lifetime: an object file stays linked while a reference
// to its code (CompiledFunction::code) lives or linked code calls into it, identical
// functions share one object, and the last reference frees it.
#include "mahou/compiler.h"
#include "mahou/jit.h"

#include <gtest/gtest.h>

#include <map>

using namespace mahou;
using types::Type;

namespace {

// f is recursive so that a caller keeps calling it after LLVM inlines what it can.
const char *kSource = "def f(x):\n"
                      "    if x > 100:\n"
                      "        return f(x // 2) + f(x - x // 2) - 1\n"
                      "    return x * 3 + 1\n"
                      "\n"
                      "def g(x):\n"
                      "    return f(x) + f(x + 1)\n";

// Resolves `f` and `g` as compiled functions of the same file, holding each callee's
// code as a dispatcher's overload would.
class FileEnvironment : public CompileEnvironment {
public:
  explicit FileEnvironment(const SourceFile &file) : file_(file) {}
  GlobalValue resolveGlobal(const std::string &name) override {
    GlobalValue g;
    if (name == "f" || name == "g") {
      g.kind = GlobalValue::Kind::Function;
      g.handle = name == "f" ? 1 : 2;
      g.s = name;
    }
    return g;
  }
  CalleeSignature compileCallee(uint64_t handle, const std::vector<Type> &args) override {
    CompiledFunction &fn = callees[handle];
    if (!fn.entry) fn = compileFunction(file_, handle == 1 ? "f" : "g", args, *this, CompileOptions{});
    return {fn.symbol, fn.ret};
  }
  std::map<uint64_t, CompiledFunction> callees;

private:
  const SourceFile &file_;
};

int64_t call(const CompiledFunction &fn, int64_t x) {
  int64_t ret = 0;
  void *args[] = {&x};
  EXPECT_EQ(fn.entry(&ret, args), 0);
  return ret;
}

} // namespace

TEST(JitLifetime, CodeGoesWithItsLastReference) {
  SourceFile file("lifetime_a.py", kSource, 1);
  FileEnvironment env(file);
  jit::Engine &engine = jit::Engine::instance();
  size_t base = engine.linkedObjects();
  CompiledFunction f = compileFunction(file, "f", {Type::int64()}, env, CompileOptions{});
  EXPECT_EQ(engine.linkedObjects(), base + 1);
  EXPECT_EQ(call(f, 2), 7);
  CompiledFunction copy = f; // copies share the reference
  f = CompiledFunction{};
  EXPECT_EQ(engine.linkedObjects(), base + 1);
  EXPECT_EQ(call(copy, 4), 13);
  copy = CompiledFunction{};
  EXPECT_EQ(engine.linkedObjects(), base);
}

TEST(JitLifetime, CalleesStayWhileCallersAreLinked) {
  SourceFile file("lifetime_b.py", kSource, 1);
  FileEnvironment env(file);
  jit::Engine &engine = jit::Engine::instance();
  size_t base = engine.linkedObjects();
  CompiledFunction g = compileFunction(file, "g", {Type::int64()}, env, CompileOptions{});
  EXPECT_EQ(engine.linkedObjects(), base + 2); // g and its callee f
  env.callees.clear();                         // f's own reference goes: g still calls it
  EXPECT_EQ(engine.linkedObjects(), base + 2);
  EXPECT_EQ(call(g, 1), 4 + 7);
  g = CompiledFunction{};
  EXPECT_EQ(engine.linkedObjects(), base); // g went, and with it the last user of f
}

TEST(JitLifetime, IdenticalFunctionsShareOneObject) {
  SourceFile file("lifetime_c.py", kSource, 1);
  FileEnvironment env(file);
  jit::Engine &engine = jit::Engine::instance();
  size_t base = engine.linkedObjects();
  CompiledFunction a = compileFunction(file, "f", {Type::int64()}, env, CompileOptions{});
  CompiledFunction b = compileFunction(file, "f", {Type::int64()}, env, CompileOptions{});
  EXPECT_EQ(a.symbol, b.symbol);
  EXPECT_EQ(a.entry, b.entry);
  EXPECT_EQ(engine.linkedObjects(), base + 1);
  a = CompiledFunction{};
  EXPECT_EQ(call(b, 0), 1);
  b = CompiledFunction{};
  EXPECT_EQ(engine.linkedObjects(), base);
  // Linked again after it went: the symbols were freed with it.
  CompiledFunction c = compileFunction(file, "f", {Type::int64()}, env, CompileOptions{});
  EXPECT_EQ(call(c, 5), 16);
  EXPECT_EQ(engine.linkedObjects(), base + 1);
}
