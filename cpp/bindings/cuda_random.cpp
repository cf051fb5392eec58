// Host side of cuda.random: xoroshiro128+ states seeded with SplitMix64 and spaced
// 2**64 steps apart (jumps), the same streams as numba-cuda's, written into a
// uint64 (n, 2) array that is then copied to the device. The kernel side is
// codegen/gpu_extras.cpp.
#include "cuda_binding.h"
#include "numpy_api.h"

namespace nb = nanobind;

namespace mahou::binding {

namespace {

struct State {
  uint64_t s0, s1;
};

uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t next(State &s) {
  uint64_t result = s.s0 + s.s1;
  uint64_t s1 = s.s1 ^ s.s0;
  s.s0 = rotl(s.s0, 55) ^ s1 ^ (s1 << 14);
  s.s1 = rotl(s1, 36);
  return result;
}

void jump(State &s) {
  constexpr uint64_t kJump[2] = {0xBEAC0467EBA5FACBull, 0xD86B048B86AA9922ull};
  State acc{0, 0};
  for (uint64_t word : kJump)
    for (int b = 0; b < 64; ++b) {
      if (word >> b & 1u) {
        acc.s0 ^= s.s0;
        acc.s1 ^= s.s1;
      }
      next(s);
    }
  s = acc;
}

// SplitMix64 of the seed, as both words of the first state.
State seeded(uint64_t seed) {
  uint64_t z = seed + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return {z, z};
}

// xoroshiro128p_init(states, seed, subsequence_start): fills a C-contiguous uint64 (n, 2)
// array: state 0 from the seed, jumped subsequence_start times; state i = state i-1 jumped.
void initStates(nb::handle array, uint64_t seed, uint64_t subsequenceStart) {
  if (!ensureNumpyApi())
    throw nb::python_error();
  if (!PyArray_Check(array.ptr()))
    throw nb::type_error("xoroshiro128p_init: states must be a numpy.ndarray");
  auto *a = reinterpret_cast<PyArrayObject *>(array.ptr());
  if (PyArray_TYPE(a) != NPY_UINT64 || PyArray_NDIM(a) != 2 || PyArray_DIM(a, 1) != 2 ||
      !PyArray_IS_C_CONTIGUOUS(a) || !PyArray_ISWRITEABLE(a))
    throw nb::value_error("xoroshiro128p_init: states must be a writable C-contiguous uint64 (n, 2) array");
  auto *states = static_cast<State *>(PyArray_DATA(a));
  npy_intp n = PyArray_DIM(a, 0);
  if (n == 0)
    return;
  nb::gil_scoped_release release;
  State s = seeded(seed);
  for (uint64_t i = 0; i < subsequenceStart; ++i)
    jump(s);
  states[0] = s;
  for (npy_intp i = 1; i < n; ++i) {
    jump(s);
    states[i] = s;
  }
}

} // namespace

void registerCudaRandom(nb::module_ &cudaModule) {
  cudaModule.def("xoroshiro128p_init", &initStates, nb::arg("states"), nb::arg("seed"),
                 nb::arg("subsequence_start"),
                 "Seeds xoroshiro128+ states (a uint64 (n, 2) array) as numba-cuda does.");
}

} // namespace mahou::binding
