// Unit tests of the CPU emulator's driver (cpp/lib/cuda/emulated_driver.cpp) through the
// driver layer's API: one device, memory, streams, events, module loading of an
// EmulatorProgram, launch validation and kernel faults. Each test runs in its own
// process (gtest_discover_tests), so switching to the emulator affects only it.
#include "mahou/cuda_driver.h"
#include "mahou/runtime.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace cu = mahou::cuda;

namespace {

// A kernel "compiled for the CPU" by hand: out[blockIdx.x * blockDim.x + threadIdx.x] = value.
int32_t fillEntry(void *, void **argv) {
  auto *out = static_cast<MahouArrayHead *>(argv[0]);
  int64_t value;
  std::memcpy(&value, argv[1], sizeof value);
  int64_t i = int64_t(mahou_rt_sim_sreg(6)) * mahou_rt_sim_sreg(3) + mahou_rt_sim_sreg(0);
  if (i >= out->dims[0]) return 0;
  reinterpret_cast<int64_t *>(out->data)[i] = value;
  return 0;
}

// A kernel whose thread 3 raises (as a bounds check would).
int32_t faultyEntry(void *, void **) {
  if (mahou_rt_sim_sreg(0) == 3) {
    mahou_rt_set_error(0, "index out of range");
    return 1;
  }
  return 0;
}

cu::EmulatorProgram program(int32_t (*entry)(void *, void **), std::vector<int> dims) {
  cu::EmulatorProgram p;
  p.entry = entry;
  p.arrayDims = std::move(dims);
  return p;
}

} // namespace

TEST(EmulatedDriver, OneDeviceReportedAsComputeCapability90) {
  ASSERT_TRUE(cu::useEmulator(false));
  EXPECT_TRUE(cu::emulated());
  EXPECT_FALSE(cu::emulatorChecks());
  EXPECT_TRUE(cu::available());
  EXPECT_EQ(cu::deviceCount(), 1);
  cu::DeviceInfo info = cu::deviceInfo(0);
  EXPECT_NE(info.name.find("emulator"), std::string::npos);
  EXPECT_EQ(cu::computeCapability(0), std::make_pair(9, 0));
  EXPECT_EQ(info.warpSize, 32);
  EXPECT_EQ(info.maxThreadsPerBlock, 1024);
  EXPECT_THROW(cu::selectDevice(1), cu::CudaError);
  EXPECT_FALSE(cu::useEmulator(true)); // too late to change the mode
}

TEST(EmulatedDriver, MemoryCopiesAndPointerQueries) {
  ASSERT_TRUE(cu::useEmulator(true));
  EXPECT_TRUE(cu::emulatorChecks());
  std::vector<int32_t> host{1, 2, 3, 4, 5, 6, 7, 8}, back(8, 0);
  size_t bytes = host.size() * sizeof(int32_t);
  auto [freeBefore, total] = cu::memoryInfo(0);
  cu::CUdeviceptr d = cu::allocate(0, bytes);
  ASSERT_NE(d, 0u);
  EXPECT_EQ(cu::memoryInfo(0).first, freeBefore - bytes);
  EXPECT_EQ(cu::pointerDevice(d), 0);
  EXPECT_EQ(cu::pointerDevice(d + bytes - 1), 0);
  EXPECT_EQ(cu::pointerDevice(cu::CUdeviceptr(uintptr_t(host.data()))), -1); // not the driver's memory
  cu::copyToDevice(0, d, host.data(), bytes, nullptr);
  cu::CUdeviceptr d2 = cu::allocate(0, bytes);
  cu::copyDeviceToDevice(0, d2, d, bytes, nullptr);
  cu::memset8(0, d2, 0, 4); // first element zeroed
  cu::copyToHost(0, back.data(), d2, bytes, nullptr);
  EXPECT_EQ(back[0], 0);
  EXPECT_EQ(std::vector<int32_t>(back.begin() + 1, back.end()), std::vector<int32_t>(host.begin() + 1, host.end()));
  cu::release(0, d);
  cu::release(0, d2);
  EXPECT_EQ(cu::memoryInfo(0).first, freeBefore);
  EXPECT_EQ(cu::pointerDevice(d), -1);
  EXPECT_EQ(total, cu::deviceInfo(0).totalMemory);
}

TEST(EmulatedDriver, AllocationRangesAndIpcHandlesThatNeverOpen) {
  ASSERT_TRUE(cu::useEmulator(false));
  cu::CUdeviceptr a = cu::allocate(0, 100), b = cu::allocate(0, 40);
  EXPECT_EQ(cu::allocationRange(0, a), std::make_pair(a, size_t(100)));
  EXPECT_EQ(cu::allocationRange(0, a + 99), std::make_pair(a, size_t(100))); // inside it
  EXPECT_EQ(cu::allocationRange(0, b + 8), std::make_pair(b, size_t(40)));
  int32_t host = 0;
  EXPECT_THROW(cu::allocationRange(0, cu::CUdeviceptr(uintptr_t(&host))), cu::CudaError);
  // A handle names the allocation that holds the pointer: the same for any byte of it.
  cu::IpcExport ea = cu::ipcExport(0, a + 24), ea2 = cu::ipcExport(0, a), eb = cu::ipcExport(0, b);
  EXPECT_EQ(ea.base, a);
  EXPECT_EQ(ea.size, 100u);
  EXPECT_EQ(std::memcmp(ea.handle.reserved, ea2.handle.reserved, sizeof ea.handle.reserved), 0);
  EXPECT_NE(std::memcmp(ea.handle.reserved, eb.handle.reserved, sizeof ea.handle.reserved), 0);
  // No process can map the emulator's memory: opening says that IPC needs a GPU.
  try {
    cu::ipcOpen(0, ea.handle);
    ADD_FAILURE() << "an emulator IPC handle opened";
  } catch (const cu::CudaError &e) {
    EXPECT_EQ(e.errorName(), "CUDA_ERROR_NOT_SUPPORTED");
    EXPECT_NE(std::string(e.what()).find("IPC handles need a GPU"), std::string::npos) << e.what();
  }
  EXPECT_THROW(cu::ipcClose(0, a), cu::CudaError); // nothing was opened
  cu::release(0, a);
  EXPECT_THROW(cu::ipcExport(0, a), cu::CudaError); // freed
  cu::release(0, b);
}

TEST(EmulatedDriver, StreamsAndEventsTimeTheHost) {
  ASSERT_TRUE(cu::useEmulator(false));
  cu::CUstream s = cu::createStream(0, false);
  ASSERT_NE(s, nullptr);
  EXPECT_TRUE(cu::streamIdle(0, s));
  cu::CUevent start = cu::createEvent(0, true), end = cu::createEvent(0, true);
  cu::recordEvent(0, start, s);
  cu::recordEvent(0, end, s);
  cu::synchronizeEvent(0, end);
  EXPECT_TRUE(cu::eventDone(0, end));
  EXPECT_GE(cu::elapsedMs(0, start, end), 0.0f);
  cu::CUevent untimed = cu::createEvent(0, false);
  cu::recordEvent(0, untimed, s);
  EXPECT_THROW(cu::elapsedMs(0, start, untimed), cu::CudaError);
  cu::streamWaitEvent(0, s, end);
  cu::synchronizeStream(0, s);
  cu::destroyEvent(0, start);
  cu::destroyEvent(0, end);
  cu::destroyEvent(0, untimed);
  cu::destroyStream(0, s);
}

TEST(EmulatedDriver, LaunchRunsTheProgramOverTheGrid) {
  ASSERT_TRUE(cu::useEmulator(false));
  static int owner;
  cu::EmulatorProgram p = program(fillEntry, {1, -1});
  cu::LoadedKernel *k = cu::loadKernel(&owner, "(int64[:], int64)", 0, &p, "fill", {});
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(cu::loadKernel(&owner, "(int64[:], int64)", 0, &p, "fill", {}), k); // cached
  const int64_t n = 37;
  cu::CUdeviceptr d = cu::allocate(0, n * sizeof(int64_t));
  int64_t shape = n, stride = sizeof(int64_t), value = 42;
  void *params[] = {&d, &shape, &stride, &value};
  cu::launch(*k, {5, 1, 1}, {8, 1, 1}, 0, nullptr, params);
  std::vector<int64_t> out(n);
  cu::copyToHost(0, out.data(), d, n * sizeof(int64_t), nullptr);
  EXPECT_EQ(out, std::vector<int64_t>(n, 42));
  // The limits a GPU enforces: CUDA_ERROR_INVALID_VALUE, and the kernel stays usable.
  for (cu::Dim3 block : {cu::Dim3{2048, 1, 1}, cu::Dim3{0, 1, 1}, cu::Dim3{1, 1, 65}}) {
    try {
      cu::launch(*k, {1, 1, 1}, block, 0, nullptr, params);
      ADD_FAILURE() << "launch with block " << block.x << "x" << block.y << "x" << block.z << " accepted";
    } catch (const cu::CudaError &e) {
      EXPECT_EQ(e.errorName(), "CUDA_ERROR_INVALID_VALUE");
      EXPECT_EQ(e.function(), "cuLaunchKernel");
    }
  }
  EXPECT_THROW(cu::launch(*k, {1, 1, 1}, {1, 1, 1}, 300 * 1024, nullptr, params), cu::CudaError);
  cu::launch(*k, {1, 1, 1}, {4, 1, 1}, 0, nullptr, params);
  cu::unloadKernels(&owner);
  cu::release(0, d);
}

TEST(EmulatedDriver, AKernelThatRaisesIsAKernelFaultWithTheErrorPending) {
  ASSERT_TRUE(cu::useEmulator(false));
  static int owner;
  cu::EmulatorProgram p = program(faultyEntry, {});
  cu::LoadedKernel *k = cu::loadKernel(&owner, "()", 0, &p, "faulty", {});
  EXPECT_THROW(cu::launch(*k, {1, 1, 1}, {8, 1, 1}, 0, nullptr, nullptr), cu::KernelFault);
  MahouError e = mahou_rt_take_error();
  ASSERT_TRUE(e.set);
  EXPECT_NE(std::string(e.message).find("index out of range"), std::string::npos);
  EXPECT_NE(std::string(e.message).find("tid=[3, 0, 0] "), std::string::npos);
  cu::unloadKernels(&owner);
}
