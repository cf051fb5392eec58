// Unit tests of type inference: the typed IR a function gets for given argument types,
// and the TypingErrors that name the offending line.
#include "mahou/ir.h"
#include "mahou/parser.h"
#include "mahou/sema.h"

#include <gtest/gtest.h>

using namespace mahou;
using types::DType;
using types::Type;

namespace {

class NoGlobals : public CompileEnvironment {
public:
  GlobalValue resolveGlobal(const std::string &name) override {
    GlobalValue g;
    if (name == "range" || name == "len" || name == "abs" || name == "min" || name == "max") {
      g.kind = GlobalValue::Kind::Builtin;
      g.s = name;
    } else if (name == "np") {
      g.kind = GlobalValue::Kind::Module;
      g.module = types::ModuleId::Numpy;
    } else if (name == "K") {
      g.kind = GlobalValue::Kind::Int;
      g.i = 7;
    }
    return g;
  }
  CalleeSignature compileCallee(uint64_t, const std::vector<Type> &) override { return {}; }
};

ir::Function infer(const std::string &src, std::vector<Type> args, int firstLine = 1) {
  SourceFile file("t.py", src, firstLine);
  auto def = frontend::parseFunction(file);
  NoGlobals env;
  auto fn = sema::buildTypedIR(file, *def, args, env, CompileOptions{}, "sym");
  ir::verify(fn);
  return fn;
}

Type varType(const ir::Function &fn, const std::string &name) {
  for (auto &v : fn.vars)
    if (v.name == name) return v.type;
  ADD_FAILURE() << "no variable " << name;
  return Type::unknown();
}

} // namespace

TEST(Sema, UnifiesAtMergePoints) {
  auto fn = infer("def f(n):\n    x = 0\n    for i in range(n):\n        x = x + 0.5\n    return x\n", {Type::int64()});
  EXPECT_EQ(varType(fn, "x"), Type::float64());
  EXPECT_EQ(fn.ret, Type::float64());
}

TEST(Sema, TypeFlowsBackwardsThroughLoops) {
  // y is read (line 4) before the assignment that gives it a type (line 5) in program order.
  auto fn = infer("def f(n):\n    y = 1\n    for i in range(n):\n        z = y\n        y = 2.5\n    return z\n",
                  {Type::int64()});
  EXPECT_EQ(varType(fn, "y"), Type::float64());
  EXPECT_EQ(varType(fn, "z"), Type::float64());
}

TEST(Sema, NumpyPromotionOfArguments) {
  auto fn = infer("def f(a, b):\n    return a + b\n", {Type::scalar(DType::Int32), Type::scalar(DType::Float32)});
  EXPECT_EQ(fn.ret, Type::float64());
  fn = infer("def f(a, b):\n    return a / b\n", {Type::int64(), Type::int64()});
  EXPECT_EQ(fn.ret, Type::float64());
  fn = infer("def f(a, b):\n    return a // b, a % b\n", {Type::int64(), Type::int64()});
  EXPECT_EQ(fn.ret, Type::tuple({Type::int64(), Type::int64()}));
  fn = infer("def f(a):\n    return a + True\n", {Type::boolean()});
  EXPECT_EQ(fn.ret, Type::int64());
}

TEST(Sema, ArrayIndexingAndViews) {
  auto a2 = Type::array(DType::Float32, 2, types::Layout::C);
  auto fn = infer("def f(a):\n    return a[1, 2]\n", {a2});
  EXPECT_EQ(fn.ret, Type::scalar(DType::Float32));
  fn = infer("def f(a):\n    return a[1]\n", {a2});
  EXPECT_EQ(fn.ret, Type::array(DType::Float32, 1, types::Layout::C));
  fn = infer("def f(a):\n    return a[:, 1]\n", {a2});
  EXPECT_EQ(fn.ret, Type::array(DType::Float32, 1, types::Layout::A));
  fn = infer("def f(a):\n    return a.shape\n", {a2});
  EXPECT_EQ(fn.ret, Type::tuple({Type::int64(), Type::int64()}));
  fn = infer("def f(a):\n    return a.T\n", {a2});
  EXPECT_EQ(fn.ret, Type::array(DType::Float32, 2, types::Layout::F));
}

TEST(Sema, ArrayCreation) {
  auto fn = infer("def f(n):\n    return np.zeros((n, 3), dtype=np.int32)\n", {Type::int64()});
  EXPECT_EQ(fn.ret, Type::array(DType::Int32, 2, types::Layout::C));
  fn = infer("def f(n):\n    return np.arange(n)\n", {Type::int64()});
  EXPECT_EQ(fn.ret, Type::array(DType::Int64, 1, types::Layout::C));
  fn = infer("def f(n):\n    return np.full(n, 2.5)\n", {Type::int64()});
  EXPECT_EQ(fn.ret, Type::array(DType::Float64, 1, types::Layout::C));
}

TEST(Sema, GlobalsAreConstants) {
  auto fn = infer("def f(x):\n    return x * K\n", {Type::int64()});
  EXPECT_EQ(fn.ret, Type::int64());
}

TEST(Sema, IncompatibleAssignmentIsATypingErrorAtItsLine) {
  auto a = Type::array(DType::Float64, 1, types::Layout::C);
  try {
    infer("def f(a):\n    y = 1\n    if a[0] > 0:\n        y = a\n    return y\n", {a}, 10);
    FAIL() << "expected a TypingError";
  } catch (const UserError &e) {
    EXPECT_EQ(e.kind(), DiagKind::Typing);
    EXPECT_EQ(e.loc().line, 13);
    EXPECT_NE(e.message().find("'y'"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("t.py:13:9"), std::string::npos);
  }
}

TEST(Sema, UndefinedNameAndBadOperands) {
  EXPECT_THROW(infer("def f(x):\n    return nothere + x\n", {Type::int64()}), UserError);
  EXPECT_THROW(infer("def f(x):\n    return x & 1\n", {Type::float64()}), UserError);
  EXPECT_THROW(infer("def f(x):\n    return x[0]\n", {Type::int64()}), UserError);
}

TEST(Sema, UnsupportedConstructsAreUnsupportedErrors) {
  try {
    infer("def f(x):\n    global y\n    y = x\n    return x\n", {Type::int64()}); // assigning a global
    FAIL();
  } catch (const UserError &e) {
    EXPECT_EQ(e.kind(), DiagKind::Unsupported);
    EXPECT_EQ(e.loc().line, 3);
  }
}

TEST(Sema, ReturnTypesUnify) {
  auto fn = infer("def f(x):\n    if x > 0:\n        return 1\n    return 2.5\n", {Type::int64()});
  EXPECT_EQ(fn.ret, Type::float64());
  // Falling off the end returns None: the result is optional, as in Numba.
  EXPECT_EQ(infer("def f(x):\n    if x > 0:\n        return 1\n", {Type::int64()}).ret, Type::optional(Type::int64()));
}

TEST(Sema, PrintedIRShowsTypes) {
  auto fn = infer("def f(a):\n    s = 0.0\n    for i in range(len(a)):\n        s += a[i]\n    return s\n",
                  {Type::array(DType::Float64, 1, types::Layout::C)});
  std::string text = ir::print(fn);
  EXPECT_NE(text.find("-> float64"), std::string::npos);
  EXPECT_NE(text.find("getitem(%a, %i) : float64"), std::string::npos);
}
