// Unit tests of the CUDA emulator: kernels compiled for the CPU run over a grid with
// fibers for barriers and warp operations; partial barriers are reported.
#include "mahou/compiler.h"
#include "mahou/runtime.h"

#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <vector>

using namespace mahou;
using types::DType;
using types::Type;

namespace {

class CudaEnv : public CompileEnvironment {
public:
  GlobalValue resolveGlobal(const std::string &name) override {
    GlobalValue g;
    if (name == "cuda") {
      g.kind = GlobalValue::Kind::Module;
      g.module = types::ModuleId::Cuda;
    } else if (name == "np") {
      g.kind = GlobalValue::Kind::Module;
      g.module = types::ModuleId::Numpy;
    } else if (name == "range" || name == "len") {
      g.kind = GlobalValue::Kind::Builtin;
      g.s = name;
    }
    return g;
  }
  CalleeSignature compileCallee(uint64_t, const std::vector<Type> &) override { return {}; }
};

// A 1-D float64 array viewing `data` in the native layout the entry expects.
struct Array1D {
  MahouMemInfo *meminfo = nullptr;
  void *parent = nullptr;
  char *data;
  int64_t shape, stride;
  explicit Array1D(std::vector<double> &v) : data(reinterpret_cast<char *>(v.data())), shape(int64_t(v.size())), stride(8) {}
};

int32_t launch(const std::string &src, const std::string &name, std::vector<Array1D *> arrays, int64_t grid, int64_t block,
               bool boundscheck = false) {
  SourceFile file("k.py", src, 1);
  CudaEnv env;
  std::vector<Type> args(arrays.size(), Type::array(DType::Float64, 1, types::Layout::C));
  SimKernel k = compileSimKernel(file, name, args, env, boundscheck);
  std::vector<void *> argv(arrays.begin(), arrays.end());
  int64_t g[3] = {grid, 1, 1}, b[3] = {block, 1, 1};
  return mahou_rt_sim_launch(k.entry, argv.data(), g, b, 0, k.synchronizes);
}

} // namespace

TEST(CudaSim, VectorAdd) {
  std::vector<double> a(1000), b(1000), c(1000, 0.0);
  std::iota(a.begin(), a.end(), 0.0);
  std::iota(b.begin(), b.end(), 100.0);
  Array1D A(a), B(b), C(c);
  const char *src = "def add(a, b, c):\n    i = cuda.grid(1)\n    if i < a.size:\n        c[i] = a[i] + b[i]\n";
  ASSERT_EQ(launch(src, "add", {&A, &B, &C}, 8, 128), 0);
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(c[i], a[i] + b[i]);
}

TEST(CudaSim, SharedMemoryReductionWithBarriers) {
  std::vector<double> a(1024), out(4, 0.0);
  std::iota(a.begin(), a.end(), 1.0);
  Array1D A(a), O(out);
  const char *src =
      "def red(a, out):\n"
      "    buf = cuda.shared.array(256, dtype=np.float64)\n"
      "    t = cuda.threadIdx.x\n"
      "    buf[t] = a[cuda.grid(1)]\n"
      "    cuda.syncthreads()\n"
      "    s = 128\n"
      "    while s > 0:\n"
      "        if t < s:\n"
      "            buf[t] += buf[t + s]\n"
      "        cuda.syncthreads()\n"
      "        s //= 2\n"
      "    if t == 0:\n"
      "        out[cuda.blockIdx.x] = buf[0]\n";
  ASSERT_EQ(launch(src, "red", {&A, &O}, 4, 256), 0);
  for (int blk = 0; blk < 4; ++blk) {
    double expect = 0;
    for (int i = 0; i < 256; ++i) expect += a[blk * 256 + i];
    EXPECT_EQ(out[blk], expect);
  }
}

TEST(CudaSim, WarpShuffleAndAtomics) {
  std::vector<double> a(64), out(2, 0.0);
  std::iota(a.begin(), a.end(), 0.0);
  Array1D A(a), O(out);
  const char *src =
      "def warp(a, out):\n"
      "    i = cuda.grid(1)\n"
      "    v = a[i]\n"
      "    off = 16\n"
      "    while off > 0:\n"
      "        v += cuda.shfl_down_sync(0xffffffff, v, off)\n"
      "        off //= 2\n"
      "    if cuda.laneid == 0:\n"
      "        cuda.atomic.add(out, 0, v)\n"
      "    cuda.atomic.max(out, 1, a[i])\n";
  ASSERT_EQ(launch(src, "warp", {&A, &O}, 1, 64), 0);
  EXPECT_EQ(out[0], 63.0 * 64 / 2);
  EXPECT_EQ(out[1], 63.0);
}

TEST(CudaSim, PartialBarrierIsAnErrorNotAHang) {
  std::vector<double> a(64, 0.0);
  Array1D A(a);
  const char *src = "def bad(a):\n    if cuda.threadIdx.x < 10:\n        cuda.syncthreads()\n    a[0] = 1.0\n";
  ASSERT_EQ(launch(src, "bad", {&A}, 1, 64), 1);
  MahouError e = mahou_rt_take_error();
  EXPECT_TRUE(e.set);
  EXPECT_NE(std::strstr(e.message, "only part of the block"), nullptr) << e.message;
}

TEST(CudaSim, BoundsCheckNamesThreadAndBlock) {
  std::vector<double> a(10, 0.0);
  Array1D A(a);
  const char *src = "def oob(a):\n    a[cuda.grid(1)] = 1.0\n";
  ASSERT_EQ(launch(src, "oob", {&A}, 2, 8, /*boundscheck=*/true), 1);
  MahouError e = mahou_rt_take_error();
  EXPECT_NE(std::strstr(e.message, "index out of bounds"), nullptr) << e.message;
  EXPECT_NE(std::strstr(e.message, "ctaid=[1, 0, 0]: "), nullptr) << e.message;
}
