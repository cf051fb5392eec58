// Unit tests of print() of arrays in the runtime without the binding's NumPy formatter:
// the plain nested-bracket form, for any layout (strides) and the scalar dtypes.
#include "mahou/runtime.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace {

// An array struct of `ndim` dimensions over `data` (mahouArrayBytes layout).
std::vector<unsigned char> arrayHead(void *data, std::vector<int64_t> shape, std::vector<int64_t> strides) {
  std::vector<unsigned char> buf(mahouArrayBytes(int(shape.size())));
  auto *head = reinterpret_cast<MahouArrayHead *>(buf.data());
  head->meminfo = nullptr;
  head->parent = nullptr;
  head->data = static_cast<char *>(data);
  for (size_t k = 0; k < shape.size(); ++k) {
    head->dims[k] = shape[k];
    head->dims[shape.size() + k] = strides[k];
  }
  return buf;
}

std::string printed(void *data, std::vector<int64_t> shape, std::vector<int64_t> strides, int32_t dtype) {
  auto head = arrayHead(data, shape, strides);
  testing::internal::CaptureStdout();
  mahou_rt_print_array(reinterpret_cast<const MahouArrayHead *>(head.data()), int32_t(shape.size()), dtype);
  return testing::internal::GetCapturedStdout();
}

} // namespace

TEST(RuntimePrint, PlainArraysWithoutTheNumpyFormatter) {
  int64_t v[6] = {0, 1, 2, 3, 4, -5};
  EXPECT_EQ(printed(v, {2, 3}, {24, 8}, 7), "[[0 1 2] [3 4 -5]]");
  EXPECT_EQ(printed(v, {3, 2}, {8, 24}, 7), "[[0 3] [1 4] [2 -5]]"); // the transpose
  EXPECT_EQ(printed(v + 5, {3}, {-16}, 7), "[-5 3 1]");
  EXPECT_EQ(printed(v, {0}, {8}, 7), "[]");
  double d[2] = {0.5, 1e20};
  EXPECT_EQ(printed(d, {2}, {8}, 12), "[0.5 1e+20]");
  bool b[2] = {true, false};
  EXPECT_EQ(printed(b, {2}, {1}, 0), "[True False]");
  uint8_t u[1] = {255};
  EXPECT_EQ(printed(u, {}, {}, 2), "255"); // 0-d
}
