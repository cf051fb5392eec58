// CUDA C baselines for bench/cuda's random-number and float16 rows: xoroshiro128+
// (numba-cuda's algorithm and float conversions) drawing float32 uniforms and
// normals, states as uint64 pairs, draws written out coalesced; and a float16 fma
// (__hfma) over 2^27 elements.
// Build: nvcc -O3 -arch=sm_90 -o extras_cuda bench/cuda/extras.cu
#include <cuda_fp16.h>

#include <cstdio>

__device__ unsigned long long next(ulonglong2 &s) {
  unsigned long long s0 = s.x, s1 = s.y, result = s0 + s1;
  s1 ^= s0;
  s.x = ((s0 << 55) | (s0 >> 9)) ^ s1 ^ (s1 << 14);
  s.y = (s1 << 36) | (s1 >> 28);
  return result;
}

__device__ float uniform(ulonglong2 &s) { return float((next(s) >> 11) * (1.0 / 9007199254740992.0)); }

template <bool Normal>
__global__ void draw(ulonglong2 *states, float *out, int perThread) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  long long n = (long long)gridDim.x * blockDim.x;
  ulonglong2 s = states[i];
  for (int k = 0; k < perThread; ++k) {
    float v;
    if (Normal) {
      float u1 = uniform(s), u2 = uniform(s);
      v = sqrtf(-2.0f * logf(u1)) * cosf(6.2831855f * u2);
    } else {
      v = uniform(s);
    }
    out[k * n + i] = v;
  }
  states[i] = s;
}

__global__ void hfma(const __half *a, const __half *b, const __half *c, __half *out, long long n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = __hfma(a[i], b[i], c[i]);
}

template <class F> float timeMs(F launch, int reps) {
  launch();
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  cudaEventRecord(e0);
  for (int r = 0; r < reps; ++r)
    launch();
  cudaEventRecord(e1);
  cudaEventSynchronize(e1);
  float ms = 0;
  cudaEventElapsedTime(&ms, e0, e1);
  return ms / reps;
}

int main() {
  const int threads = 256, blocks = 4096, perThread = 64; // 2^20 generators, 2^26 draws
  const long long generators = (long long)threads * blocks, draws = generators * perThread;
  ulonglong2 *states;
  float *out;
  cudaMalloc(&states, generators * sizeof(ulonglong2));
  cudaMalloc(&out, draws * sizeof(float));
  cudaMemset(states, 0x5a, generators * sizeof(ulonglong2));
  float ms = timeMs([&] { draw<false><<<blocks, threads>>>(states, out, perThread); }, 10);
  printf("random_uniform_gsps %.2f\n", draws / (ms * 1e-3) / 1e9);
  ms = timeMs([&] { draw<true><<<blocks, threads>>>(states, out, perThread); }, 10);
  printf("random_normal_gsps %.2f\n", draws / (ms * 1e-3) / 1e9);

  const long long n = 1ll << 27;
  __half *a, *b, *c, *r;
  cudaMalloc(&a, n * 2);
  cudaMalloc(&b, n * 2);
  cudaMalloc(&c, n * 2);
  cudaMalloc(&r, n * 2);
  cudaMemset(a, 0, n * 2);
  cudaMemset(b, 0, n * 2);
  cudaMemset(c, 0, n * 2);
  ms = timeMs([&] { hfma<<<(n + 255) / 256, 256>>>(a, b, c, r, n); }, 20);
  printf("fp16_fma_gbs %.1f\n", 4.0 * 2 * n / (ms * 1e-3) / 1e9);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    printf("CUDA error: %s\n", cudaGetErrorString(err));
    return 1;
  }
  return 0;
}
