// CUDA C baseline for bench/cuda: vector add bandwidth on 2^27 float32 (3 arrays
// moved) and a launch loop of the same 3-array kernel (runtime API, µs/launch).
// Build: nvcc -O3 -arch=sm_90 -o vadd_cuda bench/cuda/vadd.cu
#include <chrono>
#include <cstdio>

__global__ void vadd(const float *a, const float *b, float *c, long long n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

int main(int argc, char **argv) {
  int launches = argc > 1 ? atoi(argv[1]) : 5000;
  const long long n = 1ll << 27;
  float *a, *b, *c;
  cudaMalloc(&a, n * 4);
  cudaMalloc(&b, n * 4);
  cudaMalloc(&c, n * 4);
  cudaMemset(a, 0, n * 4);
  cudaMemset(b, 0, n * 4);
  int threads = 256;
  long long blocks = (n + threads - 1) / threads;
  vadd<<<blocks, threads>>>(a, b, c, n);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  const int reps = 20;
  cudaEventRecord(e0);
  for (int r = 0; r < reps; ++r)
    vadd<<<blocks, threads>>>(a, b, c, n);
  cudaEventRecord(e1);
  cudaEventSynchronize(e1);
  float ms = 0;
  cudaEventElapsedTime(&ms, e0, e1);
  printf("vadd_gbs %.1f\n", 3.0 * 4 * n / (ms / reps * 1e-3) / 1e9);

  for (int i = 0; i < 100; ++i)
    vadd<<<4, 256>>>(a, b, c, 1024);
  cudaDeviceSynchronize();
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < launches; ++i)
    vadd<<<4, 256>>>(a, b, c, 1024);
  cudaDeviceSynchronize();
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  printf("launch_us %.2f\n", s / launches * 1e6);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    printf("CUDA error: %s\n", cudaGetErrorString(err));
    return 1;
  }
  return 0;
}
