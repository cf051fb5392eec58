// Unit tests of the CUDA driver layer (cpp/lib/cuda): lazy loading, errors that name
// the call, and (where a GPU is present) memory round trips and PTX module loading.
#include "mahou/cuda_driver.h"

#include <gtest/gtest.h>

#include <vector>

namespace cu = mahou::cuda;

namespace {

const char *kFillPtx = R"(
.version 8.0
.target sm_50
.address_size 64
.visible .entry fill(.param .u64 p, .param .u32 v)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p];
  ld.param.u32 %r1, [v];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r2, %tid.x;
  mul.wide.u32 %rd3, %r2, 4;
  add.u64 %rd2, %rd2, %rd3;
  st.global.u32 [%rd2], %r1;
  ret;
}
)";

} // namespace

TEST(CudaDriver, AvailabilityNeverThrows) {
  std::string why;
  bool ok = cu::available(&why);
  if (!ok) {
    EXPECT_FALSE(why.empty());
    EXPECT_EQ(cu::deviceCount(), 0);
  } else {
    EXPECT_GT(cu::deviceCount(), 0);
  }
}

TEST(CudaDriver, CallsWithoutADriverThrowCudaError) {
  if (cu::available())
    GTEST_SKIP() << "a GPU is present";
  try {
    cu::allocate(0, 16);
    FAIL() << "expected CudaError";
  } catch (const cu::CudaError &e) {
    EXPECT_NE(std::string(e.what()).find("CUDA"), std::string::npos);
    EXPECT_FALSE(e.function().empty());
  }
}

TEST(CudaDriver, MemoryRoundTripAndKernel) {
  if (!cu::available())
    GTEST_SKIP() << "no GPU";
  std::vector<int> host(32, 0);
  cu::CUdeviceptr p = cu::allocate(0, host.size() * 4);
  cu::memset8(0, p, 0, host.size() * 4);
  static int owner;
  cu::LoadedKernel *k = cu::loadKernel(&owner, "(u32*, u32)", 0, kFillPtx, "fill", {});
  unsigned value = 7;
  void *params[] = {&p, &value};
  cu::launch(*k, {1, 1, 1}, {32, 1, 1}, 0, nullptr, params);
  cu::copyToHost(0, host.data(), p, host.size() * 4, nullptr);
  for (int v : host)
    EXPECT_EQ(v, 7);
  try {
    cu::launch(*k, {1, 1, 1}, {4096, 1, 1}, 0, nullptr, params);
    FAIL() << "expected CudaError";
  } catch (const cu::CudaError &e) {
    EXPECT_EQ(e.function(), "cuLaunchKernel");
    EXPECT_EQ(e.errorName(), "CUDA_ERROR_INVALID_VALUE");
  }
  cu::release(0, p);
  cu::unloadKernels(&owner);
}

TEST(CudaDriver, BadPtxReportsTheJitLog) {
  if (!cu::available())
    GTEST_SKIP() << "no GPU";
  static int owner;
  try {
    cu::loadKernel(&owner, "bad", 0, ".version 8.0\n.target sm_90\nnot ptx", "x", {});
    FAIL() << "expected CudaError";
  } catch (const cu::CudaError &e) {
    EXPECT_EQ(e.function(), "cuModuleLoadDataEx");
  }
}
