// Check of mahou's CUDA driver layer (cpp/lib/cuda) with a hand-written PTX vector
// add, and the C++ floor for launch overhead: a loop of cuLaunchKernel calls.
// Build: g++ -std=c++20 -O2 -Icpp/include bench/cuda/driver_loop.cpp cpp/lib/cuda/*.cpp -ldl
#include "mahou/cuda_driver.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace cu = mahou::cuda;

namespace {

// c[i] = a[i] + b[i] over float32; parameters as mahou passes a 1-D array:
// data pointer, shape[0], strides[0] (bytes).
const char *kVectorAddPtx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry vadd(
  .param .u64 a_ptr, .param .u64 a_n, .param .u64 a_s,
  .param .u64 b_ptr, .param .u64 b_n, .param .u64 b_s,
  .param .u64 c_ptr, .param .u64 c_n, .param .u64 c_s)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<16>;
  .reg .f32 %f<4>;
  ld.param.u64 %rd1, [a_ptr];
  ld.param.u64 %rd2, [b_ptr];
  ld.param.u64 %rd3, [c_ptr];
  ld.param.u64 %rd4, [c_n];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  cvta.to.global.u64 %rd3, %rd3;
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  cvt.u64.u32 %rd5, %r1;
  cvt.u64.u32 %rd6, %r2;
  cvt.u64.u32 %rd7, %r3;
  mad.lo.u64 %rd8, %rd5, %rd6, %rd7;
  setp.ge.u64 %p1, %rd8, %rd4;
  @%p1 bra DONE;
  shl.b64 %rd9, %rd8, 2;
  add.u64 %rd10, %rd1, %rd9;
  ld.global.f32 %f1, [%rd10];
  add.u64 %rd11, %rd2, %rd9;
  ld.global.f32 %f2, [%rd11];
  add.f32 %f3, %f1, %f2;
  add.u64 %rd12, %rd3, %rd9;
  st.global.f32 [%rd12], %f3;
DONE:
  ret;
}
)";

struct ArrayParams {
  cu::CUdeviceptr data;
  int64_t shape, stride;
};

double seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

} // namespace

int main(int argc, char **argv) {
  int launches = argc > 1 ? std::atoi(argv[1]) : 5000;
  std::string why;
  if (!cu::available(&why)) {
    std::printf("CUDA not available: %s\n", why.c_str());
    return 1;
  }
  cu::DeviceInfo info = cu::deviceInfo(0);
  std::printf("driver %d, device 0: %s (sm_%d%d, %d SMs, %.1f GiB)\n", cu::driverVersion(),
              info.name.c_str(), info.ccMajor, info.ccMinor, info.multiprocessors,
              double(info.totalMemory) / (1 << 30));
  try {
    static int owner;
    cu::LoadedKernel *k = cu::loadKernel(&owner, "(f4[:],f4[:],f4[:])", 0, kVectorAddPtx,
                                         "vadd", cu::LoadOptions{});
    // Correctness on a small vector.
    const int64_t n = 1000;
    std::vector<float> a(n), b(n), c(n, -1);
    for (int64_t i = 0; i < n; ++i)
      a[size_t(i)] = float(i), b[size_t(i)] = float(2 * i);
    ArrayParams pa{cu::allocate(0, n * 4), n, 4}, pb{cu::allocate(0, n * 4), n, 4},
        pc{cu::allocate(0, n * 4), n, 4};
    cu::copyToDevice(0, pa.data, a.data(), n * 4, nullptr);
    cu::copyToDevice(0, pb.data, b.data(), n * 4, nullptr);
    void *params[] = {&pa.data, &pa.shape, &pa.stride, &pb.data, &pb.shape,
                      &pb.stride, &pc.data, &pc.shape, &pc.stride};
    cu::launch(*k, {unsigned((n + 255) / 256), 1, 1}, {256, 1, 1}, 0, nullptr, params);
    cu::copyToHost(0, c.data(), pc.data, n * 4, nullptr);
    int bad = 0;
    for (int64_t i = 0; i < n; ++i)
      bad += c[size_t(i)] != float(3 * i);
    std::printf("vector add check: %s\n", bad ? "FAILED" : "ok");

    // Launch overhead: back-to-back launches of the 3-array kernel, one final sync.
    for (int i = 0; i < 100; ++i)
      cu::launch(*k, {4, 1, 1}, {256, 1, 1}, 0, nullptr, params);
    cu::synchronize(0);
    double t0 = seconds();
    for (int i = 0; i < launches; ++i)
      cu::launch(*k, {4, 1, 1}, {256, 1, 1}, 0, nullptr, params);
    cu::synchronize(0);
    double us = (seconds() - t0) / launches * 1e6;
    std::printf("launch_us %.2f\n", us);

    // Bandwidth of the same PTX on 2^27 float32 (3 arrays moved).
    const int64_t big = int64_t(1) << 27;
    ArrayParams ba{cu::allocate(0, big * 4), big, 4}, bb{cu::allocate(0, big * 4), big, 4},
        bc{cu::allocate(0, big * 4), big, 4};
    cu::memset8(0, ba.data, 0, big * 4);
    cu::memset8(0, bb.data, 0, big * 4);
    void *bigParams[] = {&ba.data, &ba.shape, &ba.stride, &bb.data, &bb.shape,
                         &bb.stride, &bc.data, &bc.shape, &bc.stride};
    cu::CUevent e0 = cu::createEvent(0, true), e1 = cu::createEvent(0, true);
    cu::Dim3 grid{unsigned((big + 255) / 256), 1, 1};
    cu::launch(*k, grid, {256, 1, 1}, 0, nullptr, bigParams);
    const int reps = 20;
    cu::recordEvent(0, e0, nullptr);
    for (int i = 0; i < reps; ++i)
      cu::launch(*k, grid, {256, 1, 1}, 0, nullptr, bigParams);
    cu::recordEvent(0, e1, nullptr);
    cu::synchronizeEvent(0, e1);
    double ms = cu::elapsedMs(0, e0, e1) / reps;
    std::printf("vadd_gbs %.1f\n", 3.0 * 4 * double(big) / (ms * 1e-3) / 1e9);

    // Errors come back as CudaError naming the call.
    try {
      cu::launch(*k, {1, 1, 1}, {4096, 1, 1}, 0, nullptr, params);
      std::printf("invalid launch: no error?\n");
    } catch (const cu::CudaError &e) {
      std::printf("invalid launch -> %s [%s]\n", e.what(), e.errorName().c_str());
    }
    for (ArrayParams *p : {&pa, &pb, &pc, &ba, &bb, &bc})
      cu::release(0, p->data);
    cu::destroyEvent(0, e0);
    cu::destroyEvent(0, e1);
    cu::unloadKernels(&owner);
  } catch (const cu::CudaError &e) {
    std::printf("CudaError: %s\n", e.what());
    return 1;
  }
  return 0;
}
