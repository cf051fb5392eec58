// Unit tests of the type lattice: NumPy promotion, unification, the signature parser, layouts.
#include "mahou/layout.h"
#include "mahou/types.h"

#include <gtest/gtest.h>

using namespace mahou::types;

TEST(Promotion, MatchesNumpyPromoteTypes) {
  EXPECT_EQ(promote(DType::Int32, DType::Int64), DType::Int64);
  EXPECT_EQ(promote(DType::Int64, DType::Float32), DType::Float64);
  EXPECT_EQ(promote(DType::Int16, DType::Float32), DType::Float32);
  EXPECT_EQ(promote(DType::Int8, DType::UInt8), DType::Int16);
  EXPECT_EQ(promote(DType::UInt32, DType::Int32), DType::Int64);
  EXPECT_EQ(promote(DType::UInt64, DType::Int64), DType::Float64);
  EXPECT_EQ(promote(DType::UInt8, DType::Int64), DType::Int64);
  EXPECT_EQ(promote(DType::Bool, DType::Int8), DType::Int8);
  EXPECT_EQ(promote(DType::Bool, DType::Bool), DType::Bool);
  EXPECT_EQ(promote(DType::Float32, DType::Complex64), DType::Complex64);
  EXPECT_EQ(promote(DType::Float64, DType::Complex64), DType::Complex128);
  EXPECT_EQ(promote(DType::Int64, DType::Complex64), DType::Complex128);
  EXPECT_EQ(promote(DType::Float32, DType::Float64), DType::Float64);
}

TEST(Promotion, IsSymmetric) {
  for (int a = 0; a <= int(DType::Complex128); ++a)
    for (int b = 0; b <= int(DType::Complex128); ++b)
      EXPECT_EQ(promote(DType(a), DType(b)), promote(DType(b), DType(a))) << a << " " << b;
}

TEST(Unify, NumbersWidenArraysRelaxLayout) {
  EXPECT_EQ(*unify(Type::int64(), Type::float64()), Type::float64());
  EXPECT_EQ(*unify(Type::unknown(), Type::int64()), Type::int64());
  auto c = Type::array(DType::Float64, 2, Layout::C);
  auto f = Type::array(DType::Float64, 2, Layout::F);
  EXPECT_EQ(unify(c, f)->layout, Layout::A);
  EXPECT_FALSE(unify(c, Type::array(DType::Float32, 2, Layout::C)));
  EXPECT_FALSE(unify(c, Type::array(DType::Float64, 1, Layout::C)));
  EXPECT_FALSE(unify(c, Type::int64()));
  auto t1 = Type::tuple({Type::int64(), Type::float64()});
  auto t2 = Type::tuple({Type::float64(), Type::float64()});
  EXPECT_EQ(*unify(t1, t2), t2);
  EXPECT_FALSE(unify(t1, Type::tuple({Type::int64()})));
  EXPECT_EQ(*unify(Type::none(), Type::int64()), Type::optional(Type::int64()));
}

TEST(Unify, ContainersAndStrings) {
  EXPECT_EQ(*unify(Type::list(Type::unknown()), Type::list(Type::int64())), Type::list(Type::int64()));
  EXPECT_FALSE(unify(Type::list(Type::int64()), Type::list(Type::float64())));
  EXPECT_EQ(*unify(Type::str_("a"), Type::str_("b")), Type::unicode());
  EXPECT_EQ(*unify(Type::optional(Type::int64()), Type::float64()), Type::optional(Type::float64()));
  EXPECT_TRUE(Type::list(Type::unknown()).isPartialContainer());
  EXPECT_TRUE(Type::list(Type::int64()).hasRefs());
  EXPECT_FALSE(Type::optional(Type::int64()).hasRefs());
}

TEST(Parse, ScalarsArraysTuples) {
  std::string err;
  EXPECT_EQ(*parseType("float64", &err), Type::float64());
  EXPECT_EQ(*parseType("f4", &err), Type::scalar(DType::Float32));
  EXPECT_EQ(*parseType("float64[:]", &err), Type::array(DType::Float64, 1, Layout::A));
  EXPECT_EQ(*parseType("float64[::1]", &err), Type::array(DType::Float64, 1, Layout::C));
  EXPECT_EQ(*parseType("int32[:, ::1]", &err), Type::array(DType::Int32, 2, Layout::C));
  EXPECT_EQ(*parseType("int32[::1, :]", &err), Type::array(DType::Int32, 2, Layout::F));
  EXPECT_EQ(*parseType("UniTuple(int64, 3)", &err), Type::tuple({Type::int64(), Type::int64(), Type::int64()}));
  EXPECT_EQ(*parseType("UniTuple(int64 x 2)", &err), Type::tuple({Type::int64(), Type::int64()}));
  EXPECT_EQ(*parseType("(int64, float32)", &err), Type::tuple({Type::int64(), Type::scalar(DType::Float32)}));
  EXPECT_EQ(*parseType("array(float32, 3d, F)", &err), Type::array(DType::Float32, 3, Layout::F));
  // Numba's spellings: Tuple of one tuple of types, optional(T)
  EXPECT_EQ(*parseType("Tuple((int32[:], float32))", &err),
            Type::tuple({Type::array(DType::Int32, 1, Layout::A), Type::scalar(DType::Float32)}));
  EXPECT_EQ(*parseType("Tuple(Tuple(int64, float32))", &err),
            Type::tuple({Type::tuple({Type::int64(), Type::scalar(DType::Float32)})}));
  EXPECT_EQ(*parseType("optional(int32)", &err), Type::optional(Type::scalar(DType::Int32)));
  EXPECT_FALSE(parseType("float65", &err));
  EXPECT_NE(err.find("float65"), std::string::npos);
  EXPECT_FALSE(parseType("float64[:, ::2]", &err));
}

TEST(Parse, StrRoundTrips) {
  std::string err;
  for (const char *s : {"float64", "array(float64, 2d, C)", "array(int8, 1d, A, readonly)", "UniTuple(int64 x 3)",
                        "Tuple(int64, float32)", "none", "complex64"}) {
    auto t = parseType(s, &err);
    ASSERT_TRUE(t) << s << ": " << err;
    EXPECT_EQ(t->str(), s);
  }
}

TEST(Parse, Signatures) {
  std::string err;
  auto sig = parseSignature("float64(float64[:], int64)", &err);
  ASSERT_TRUE(sig) << err;
  EXPECT_EQ(*sig->ret, Type::float64());
  ASSERT_EQ(sig->args.size(), 2u);
  EXPECT_EQ(sig->args[1], Type::int64());
  auto noRet = parseSignature("(int64,)", &err);
  ASSERT_TRUE(noRet) << err;
  EXPECT_FALSE(noRet->ret);
  EXPECT_FALSE(parseSignature("float64(", &err));
}

TEST(Layout, MatchesCStructRules) {
  EXPECT_EQ(nativeSize(Type::boolean()), 1u);
  EXPECT_EQ(nativeSize(Type::scalar(DType::Complex128)), 16u);
  EXPECT_EQ(nativeAlign(Type::scalar(DType::Complex64)), 4u);
  auto t = Type::tuple({Type::boolean(), Type::float64(), Type::scalar(DType::Int32)});
  EXPECT_EQ(tupleOffsets(t), (std::vector<size_t>{0, 8, 16}));
  EXPECT_EQ(nativeSize(t), 24u);
  EXPECT_EQ(nativeSize(Type::array(DType::Float64, 2, Layout::C)), 24u + 32u);
}

TEST(Records, PrintParseUnify) {
  Type rec = Type::record({"a", "b"}, {Type::scalar(DType::Int32), Type::float64()}, {0, 8}, 16, true);
  EXPECT_EQ(rec.str(), "Record(a[type=int32;offset=0],b[type=float64;offset=8];16;True)");
  std::string err;
  EXPECT_EQ(*parseType(rec.str(), &err), rec);
  Type ro = rec;
  ro.readonly = true;
  EXPECT_EQ(*parseType(ro.str(), &err), ro);
  EXPECT_NE(ro, rec);
  EXPECT_EQ(*unify(rec, ro), ro); // a record of a read-only array meets a writable one as read-only
  Type arr = Type::recordArray(rec, 2, Layout::C);
  EXPECT_EQ(arr.str(), "array(" + rec.str() + ", 2d, C)");
  EXPECT_EQ(*parseType(arr.str(), &err), arr);
  EXPECT_NE(arr, Type::array(DType::UInt8, 2, Layout::C)); // the record is part of the type
  EXPECT_EQ(*unify(arr, Type::recordArray(rec, 2, Layout::F)), Type::recordArray(rec, 2, Layout::A));
  EXPECT_FALSE(unify(arr, Type::array(DType::UInt8, 2, Layout::C)));
  Type packed = Type::record({"a", "b"}, {Type::scalar(DType::Int32), Type::float64()}, {0, 4}, 12, false);
  EXPECT_FALSE(unify(rec, packed));
  EXPECT_FALSE(parseType("Record(a[type=int32;offset=0];4)", &err));
}

TEST(Buffers, PrintParseUnify) {
  std::string err;
  Type bytes = Type::array(DType::UInt8, 1, Layout::C, true);
  bytes.buffer = BufferKind::Bytes;
  Type view = Type::array(DType::Float64, 2, Layout::A);
  view.buffer = BufferKind::MemoryView;
  EXPECT_EQ(bytes.str(), "bytes(uint8, 1d, C, readonly)");
  EXPECT_EQ(view.str(), "memoryview(float64, 2d, A)");
  for (const Type &t : {bytes, view}) {
    auto back = parseType(t.str(), &err);
    ASSERT_TRUE(back) << err;
    EXPECT_EQ(*back, t);
  }
  // A buffer is not the ndarray of the same items: neither equal nor unifiable with it.
  Type plain = Type::array(DType::UInt8, 1, Layout::C, true);
  EXPECT_NE(bytes, plain);
  EXPECT_FALSE(unify(bytes, plain));
  Type sliced = bytes;
  sliced.layout = Layout::A;
  auto u = unify(bytes, sliced);
  ASSERT_TRUE(u);
  EXPECT_EQ(u->buffer, BufferKind::Bytes);
  EXPECT_EQ(u->layout, Layout::A);
}
