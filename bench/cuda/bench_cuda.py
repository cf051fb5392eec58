"""GPU benchmarks, side by side in one run: mahou.cuda against numba-cuda, CuPy and
CUDA C (vector add bandwidth, launch overhead, first-call time, tiled shared-memory
matmul, shared-memory reduction, cuda.random draws and their states, float16 fma). Writes a markdown table to stdout and to
$OUT/cuda_bench.md (raw numbers in cuda_bench.json).

    python bench/cuda/bench_cuda.py [--vadd-bin PATH] [--driver-loop-bin PATH]
"""

import argparse
import importlib
import json
import os
import subprocess
import sys
import tempfile
import time
import traceback
import warnings

import numpy as np

N_VADD = 1 << 27
N_SMALL = 1024
LAUNCHES = 5000
N_MATMUL = 4096
N_REDUCE = 1 << 26
TILE = 16
RTPB = 256
RNG_BLOCKS, RNG_PER_THREAD = 4096, 64  # 2^20 generators of 256-thread blocks, 2^26 draws
N_FP16 = 1 << 27


def make_kernels(cuda, float32):
    """The same kernel sources for every Python backend (mahou.cuda or numba.cuda)."""

    @cuda.jit
    def vadd(a, b, c):
        i = cuda.grid(1)
        if i < c.size:
            c[i] = a[i] + b[i]

    @cuda.jit
    def matmul(A, B, C):
        sA = cuda.shared.array(shape=(TILE, TILE), dtype=float32)
        sB = cuda.shared.array(shape=(TILE, TILE), dtype=float32)
        x, y = cuda.grid(2)
        tx = cuda.threadIdx.x
        ty = cuda.threadIdx.y
        tmp = float32(0.)
        for i in range(cuda.gridDim.x):
            sA[ty, tx] = 0
            sB[ty, tx] = 0
            if y < A.shape[0] and (tx + i * TILE) < A.shape[1]:
                sA[ty, tx] = A[y, tx + i * TILE]
            if x < B.shape[1] and (ty + i * TILE) < B.shape[0]:
                sB[ty, tx] = B[ty + i * TILE, x]
            cuda.syncthreads()
            for j in range(TILE):
                tmp += sA[ty, j] * sB[j, tx]
            cuda.syncthreads()
        if y < C.shape[0] and x < C.shape[1]:
            C[y, x] = tmp

    @cuda.jit
    def block_sum(a, partial):
        buf = cuda.shared.array(RTPB, dtype=float32)
        tid = cuda.threadIdx.x
        i = cuda.grid(1)
        buf[tid] = a[i] if i < a.size else float32(0)
        cuda.syncthreads()
        step = RTPB // 2
        while step > 0:
            if tid < step:
                buf[tid] += buf[tid + step]
            cuda.syncthreads()
            step //= 2
        if tid == 0:
            partial[cuda.blockIdx.x] = buf[0]

    rnd = importlib.import_module(cuda.__name__ + ".random")
    uniform32 = rnd.xoroshiro128p_uniform_float32
    normal32 = rnd.xoroshiro128p_normal_float32
    hfma = importlib.import_module(cuda.__name__ + ".fp16").hfma

    def drawing(distribution):
        @cuda.jit
        def draw(states, out, per_thread):  # coalesced: draw k of every thread, then k + 1
            i = cuda.grid(1)
            n = cuda.gridsize(1)
            for k in range(per_thread):
                out[k * n + i] = distribution(states, i)
        return draw

    @cuda.jit
    def fma16(a, b, c, out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = hfma(a[i], b[i], c[i])

    return {"vadd": vadd, "matmul": matmul, "block_sum": block_sum,
            "draw_uniform": drawing(uniform32), "draw_normal": drawing(normal32), "fma16": fma16,
            "random": rnd}


def time_gpu(cuda, fn, reps):
    """Milliseconds per call of fn (CUDA events around `reps` calls, after a warm-up)."""
    fn()
    cuda.synchronize()
    start, end = cuda.event(), cuda.event()
    start.record()
    for _ in range(reps):
        fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) / reps


def launch_loop_us(cuda, launch):
    for _ in range(100):
        launch()
    cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(LAUNCHES):
        launch()
    cuda.synchronize()
    return (time.perf_counter() - t0) / LAUNCHES * 1e6


def bench_python_backend(cuda, float32):
    k = make_kernels(cuda, float32)
    res = {}
    f4 = np.float32
    a = cuda.to_device(np.ones(N_VADD, f4))
    b = cuda.to_device(np.full(N_VADD, 2, f4))
    c = cuda.device_array(N_VADD, f4)
    vadd = k["vadd"]
    blocks = (N_VADD + 255) // 256
    ms = time_gpu(cuda, lambda: vadd[blocks, 256](a, b, c), 20)
    assert float(c[N_VADD - 1]) == 3.0
    res["vadd_gbs"] = 3 * 4 * N_VADD / (ms * 1e-3) / 1e9
    del a, b, c

    sa, sb = cuda.to_device(np.ones(N_SMALL, f4)), cuda.to_device(np.ones(N_SMALL, f4))
    sc = cuda.device_array(N_SMALL, f4)
    res["launch_us"] = launch_loop_us(cuda, lambda: vadd[4, 256](sa, sb, sc))
    configured = vadd[4, 256]
    res["launch_cached_us"] = launch_loop_us(cuda, lambda: configured(sa, sb, sc))

    rng = np.random.default_rng(0)
    A = rng.random((N_MATMUL, N_MATMUL), dtype=f4)
    B = rng.random((N_MATMUL, N_MATMUL), dtype=f4)
    dA, dB = cuda.to_device(A), cuda.to_device(B)
    dC = cuda.device_array((N_MATMUL, N_MATMUL), f4)
    g = N_MATMUL // TILE
    matmul = k["matmul"]
    ms = time_gpu(cuda, lambda: matmul[(g, g), (TILE, TILE)](dA, dB, dC), 3)
    row = dC[5].copy_to_host()
    np.testing.assert_allclose(row, A[5] @ B, rtol=1e-3)
    res["matmul_gflops"] = 2 * N_MATMUL**3 / (ms * 1e-3) / 1e9
    del dA, dB, dC

    x = rng.random(N_REDUCE, dtype=f4)
    dx = cuda.to_device(x)
    nblocks = (N_REDUCE + RTPB - 1) // RTPB
    partial = cuda.device_array(nblocks, f4)
    block_sum = k["block_sum"]
    ms = time_gpu(cuda, lambda: block_sum[nblocks, RTPB](dx, partial), 20)
    np.testing.assert_allclose(partial.copy_to_host().sum(dtype=np.float64), x.sum(dtype=np.float64),
                               rtol=1e-4)
    res["reduce_gbs"] = 4 * N_REDUCE / (ms * 1e-3) / 1e9
    del dx, partial

    generators = RNG_BLOCKS * RTPB
    k["random"].create_xoroshiro128p_states(4, seed=0)  # numba-cuda compiles its seeding here
    t0 = time.perf_counter()
    states = k["random"].create_xoroshiro128p_states(generators, seed=1)
    cuda.synchronize()
    res["rng_states_s"] = time.perf_counter() - t0
    first = states.copy_to_host()[:4]
    draws = generators * RNG_PER_THREAD
    out = cuda.device_array(draws, f4)
    for name in ("uniform", "normal"):
        kern = k["draw_" + name]
        ms = time_gpu(cuda, lambda: kern[RNG_BLOCKS, RTPB](states, out, RNG_PER_THREAD), 10)
        res[f"random_{name}_gsps"] = draws / (ms * 1e-3) / 1e9
    res["rng_first_states"] = [[int(s["s0"]), int(s["s1"])] for s in first]
    del states, out

    h = np.float16
    a16 = cuda.to_device(np.full(N_FP16, 1.5, h))
    b16 = cuda.to_device(np.full(N_FP16, 2.0, h))
    c16 = cuda.to_device(np.full(N_FP16, 0.25, h))
    r16 = cuda.device_array(N_FP16, h)
    fma16 = k["fma16"]
    ms = time_gpu(cuda, lambda: fma16[(N_FP16 + 255) // 256, 256](a16, b16, c16, r16), 20)
    assert float(r16[N_FP16 - 1]) == 3.25
    res["fp16_fma_gbs"] = 4 * 2 * N_FP16 / (ms * 1e-3) / 1e9
    return res


FIRST_CALL_SCRIPT = """
import json, sys, time
t0 = time.perf_counter()
if sys.argv[1] == "numba":
    import numpy as np
    np.row_stack = np.vstack
    from numba import cuda
else:
    import numpy as np
    from mahou import cuda
t1 = time.perf_counter()

@cuda.jit
def gpu_add(a, b, result):
    idx = cuda.grid(1)
    if idx < a.size:
        result[idx] = a[idx] + b[idx]

d_a = cuda.to_device(np.array([1, 2, 3, 4, 5], dtype=np.float32))
d_b = cuda.to_device(np.array([10, 20, 30, 40, 50], dtype=np.float32))
d_r = cuda.to_device(np.zeros(5, dtype=np.float32))
cuda.synchronize()
t2 = time.perf_counter()
gpu_add[1, 5](d_a, d_b, d_r)
cuda.synchronize()
t3 = time.perf_counter()
assert d_r.copy_to_host().tolist() == [11, 22, 33, 44, 55]
print(json.dumps({"import_s": t1 - t0, "first_call_s": t3 - t2}))
"""


def first_call(backend):
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(FIRST_CALL_SCRIPT)
    try:
        out = subprocess.run([sys.executable, f.name, backend], capture_output=True, text=True,
                             timeout=300, env=dict(os.environ, PYTHONWARNINGS="ignore"))
        if out.returncode:
            raise RuntimeError(out.stderr[-2000:])
        return json.loads(out.stdout.strip().splitlines()[-1])
    finally:
        os.unlink(f.name)


def bench_cupy():
    import cupy as cp
    res = {}
    a = cp.ones(N_VADD, cp.float32)
    b = cp.full(N_VADD, 2, cp.float32)
    c = cp.empty_like(a)
    add = cp.ElementwiseKernel("float32 x, float32 y", "float32 z", "z = x + y", "mahou_vadd")
    add(a, b, c)
    cp.cuda.Device().synchronize()
    start, end = cp.cuda.Event(), cp.cuda.Event()
    start.record()
    for _ in range(20):
        add(a, b, c)
    end.record()
    end.synchronize()
    ms = cp.cuda.get_elapsed_time(start, end) / 20
    res["vadd_gbs"] = 3 * 4 * N_VADD / (ms * 1e-3) / 1e9
    del a, b, c
    raw = cp.RawKernel(r"""
extern "C" __global__ void vadd(const float *a, const float *b, float *c, long long n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}""", "vadd")
    sa, sb, sc = (cp.ones(N_SMALL, cp.float32) for _ in range(3))
    n = np.int64(N_SMALL)
    for _ in range(100):
        raw((4,), (256,), (sa, sb, sc, n))
    cp.cuda.Device().synchronize()
    t0 = time.perf_counter()
    for _ in range(LAUNCHES):
        raw((4,), (256,), (sa, sb, sc, n))
    cp.cuda.Device().synchronize()
    res["launch_us"] = (time.perf_counter() - t0) / LAUNCHES * 1e6
    A = cp.random.random((N_MATMUL, N_MATMUL), dtype=cp.float32)
    B = cp.random.random((N_MATMUL, N_MATMUL), dtype=cp.float32)
    cp.matmul(A, B)
    cp.cuda.Device().synchronize()
    start.record()
    for _ in range(5):
        cp.matmul(A, B)
    end.record()
    end.synchronize()
    ms = cp.cuda.get_elapsed_time(start, end) / 5
    res["matmul_gflops"] = 2 * N_MATMUL**3 / (ms * 1e-3) / 1e9
    x = cp.random.random(N_REDUCE, dtype=cp.float32)
    x.sum()
    cp.cuda.Device().synchronize()
    start.record()
    for _ in range(20):
        x.sum()
    end.record()
    end.synchronize()
    res["reduce_gbs"] = 4 * N_REDUCE / (cp.cuda.get_elapsed_time(start, end) / 20 * 1e-3) / 1e9
    return res


def run_binary(path, *args):
    out = subprocess.run([path, *map(str, args)], capture_output=True, text=True, timeout=300)
    values = {}
    for line in out.stdout.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0].endswith(("_gbs", "_us", "_gsps")):
            values[parts[0]] = float(parts[1])
    if out.returncode or not values:
        raise RuntimeError(out.stdout[-1000:] + out.stderr[-1000:])
    return values


def attempt(results, key, fn, *args):
    try:
        results[key] = fn(*args)
    except Exception:
        results[key] = {"error": traceback.format_exc(limit=3)}
        print(f"[{key}] failed:\n{results[key]['error']}", file=sys.stderr)


def fmt(results, backend, metric, digits=1):
    v = results.get(backend, {}).get(metric)
    return "—" if v is None else f"{v:,.{digits}f}"


def table(r):
    def ratio(metric, inverse=False):
        m, n = r.get("mahou", {}).get(metric), r.get("numba", {}).get(metric)
        if not m or not n:
            return "—"
        return f"{(n / m if inverse else m / n):.2f}×"

    rows = [
        "| benchmark | mahou | numba-cuda | mahou vs numba | CuPy | CUDA C / C++ | unit |",
        "|---|---:|---:|---:|---:|---:|---|",
        f"| vector add, 2^27 float32 (3 arrays moved) | {fmt(r, 'mahou', 'vadd_gbs')} | "
        f"{fmt(r, 'numba', 'vadd_gbs')} | {ratio('vadd_gbs')} | {fmt(r, 'cupy', 'vadd_gbs')} "
        f"(ElementwiseKernel) | {fmt(r, 'cuda_c', 'vadd_gbs')} (nvcc) | GB/s |",
        f"| launch overhead, `k[4, 256](a, b, c)`, {LAUNCHES} launches | "
        f"{fmt(r, 'mahou', 'launch_us', 2)} | {fmt(r, 'numba', 'launch_us', 2)} | "
        f"{ratio('launch_us', True)} | {fmt(r, 'cupy', 'launch_us', 2)} (RawKernel) | "
        f"{fmt(r, 'driver_loop', 'launch_us', 2)} (cuLaunchKernel loop), "
        f"{fmt(r, 'cuda_c', 'launch_us', 2)} (<<<>>> loop) | µs/launch |",
        f"| launch overhead, configuration kept (`f = k[4, 256]; f(a, b, c)`) | "
        f"{fmt(r, 'mahou', 'launch_cached_us', 2)} | {fmt(r, 'numba', 'launch_cached_us', 2)} | "
        f"{ratio('launch_cached_us', True)} | | | µs/launch |",
        f"| first call of the seed kernel (compile + load + launch), fresh process | "
        f"{fmt(r, 'mahou_first', 'first_call_s', 3)} | {fmt(r, 'numba_first', 'first_call_s', 3)} "
        f"| {_first_ratio(r)} | | | s |",
        f"| import (`from mahou import cuda` / `from numba import cuda`) | "
        f"{fmt(r, 'mahou_first', 'import_s', 3)} | {fmt(r, 'numba_first', 'import_s', 3)} | | | | s |",
        f"| tiled shared-memory matmul, 4096² float32, 16×16 tiles | "
        f"{fmt(r, 'mahou', 'matmul_gflops', 0)} | {fmt(r, 'numba', 'matmul_gflops', 0)} | "
        f"{ratio('matmul_gflops')} | {fmt(r, 'cupy', 'matmul_gflops', 0)} (cuBLAS, reference) | "
        f"| GFLOP/s |",
        f"| shared-memory block reduction, 2^26 float32, 256 threads | "
        f"{fmt(r, 'mahou', 'reduce_gbs')} | {fmt(r, 'numba', 'reduce_gbs')} | "
        f"{ratio('reduce_gbs')} | {fmt(r, 'cupy', 'reduce_gbs')} (x.sum(), reference) | | GB/s |",
        f"| random numbers, `xoroshiro128p_uniform_float32`, 2^26 draws by 2^20 threads | "
        f"{fmt(r, 'mahou', 'random_uniform_gsps', 2)} | {fmt(r, 'numba', 'random_uniform_gsps', 2)} | "
        f"{ratio('random_uniform_gsps')} | | {fmt(r, 'extras', 'random_uniform_gsps', 2)} (nvcc) | "
        f"Gdraws/s |",
        f"| random numbers, `xoroshiro128p_normal_float32`, 2^26 draws by 2^20 threads | "
        f"{fmt(r, 'mahou', 'random_normal_gsps', 2)} | {fmt(r, 'numba', 'random_normal_gsps', 2)} | "
        f"{ratio('random_normal_gsps')} | | {fmt(r, 'extras', 'random_normal_gsps', 2)} (nvcc) | "
        f"Gdraws/s |",
        f"| `create_xoroshiro128p_states(2^20, seed=1)` (host seeding + copy) | "
        f"{fmt(r, 'mahou', 'rng_states_s', 3)} | {fmt(r, 'numba', 'rng_states_s', 3)} | "
        f"{ratio('rng_states_s', True)} | | | s |",
        f"| float16 `cuda.fp16.hfma(a[i], b[i], c[i])`, 2^27 elements (4 arrays moved) | "
        f"{fmt(r, 'mahou', 'fp16_fma_gbs')} | {fmt(r, 'numba', 'fp16_fma_gbs')} | "
        f"{ratio('fp16_fma_gbs')} | | {fmt(r, 'extras', 'fp16_fma_gbs')} (nvcc, __hfma) | GB/s |",
    ]
    return "\n".join(rows)


def _first_ratio(r):
    m = r.get("mahou_first", {}).get("first_call_s")
    n = r.get("numba_first", {}).get("first_call_s")
    return f"{n / m:.1f}× faster" if m and n else "—"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vadd-bin", help="CUDA C harness built from bench/cuda/vadd.cu")
    parser.add_argument("--driver-loop-bin", help="C++ harness from bench/cuda/driver_loop.cpp")
    parser.add_argument("--extras-bin", help="CUDA C harness built from bench/cuda/extras.cu")
    parser.add_argument("--skip", default="", help="comma-separated: mahou,numba,cupy")
    args = parser.parse_args()
    skip = set(filter(None, args.skip.split(",")))
    warnings.simplefilter("ignore")
    results = {}
    if "mahou" not in skip:
        from mahou import cuda as mcuda, float32 as mf32
        attempt(results, "mahou", bench_python_backend, mcuda, mf32)
        attempt(results, "mahou_first", first_call, "mahou")
    if "numba" not in skip:
        np.row_stack = np.vstack  # numba-cuda 0.30 against numpy 2.5
        try:
            from numba import cuda as ncuda, float32 as nf32
            attempt(results, "numba", bench_python_backend, ncuda, nf32)
        except Exception:
            results["numba"] = {"error": traceback.format_exc(limit=3)}
        attempt(results, "numba_first", first_call, "numba")
    if "cupy" not in skip:
        attempt(results, "cupy", bench_cupy)
    if args.vadd_bin:
        attempt(results, "cuda_c", run_binary, args.vadd_bin, LAUNCHES)
    if args.driver_loop_bin:
        attempt(results, "driver_loop", run_binary, args.driver_loop_bin, LAUNCHES)
    if args.extras_bin:
        attempt(results, "extras", run_binary, args.extras_bin)
    for a, b in (("mahou", "numba"),):  # the same seed must give the same states
        sa, sb = results.get(a, {}).get("rng_first_states"), results.get(b, {}).get("rng_first_states")
        if sa and sb:
            results["rng_states_identical"] = sa == sb
            print(f"xoroshiro128p states of mahou and numba-cuda identical: {sa == sb}")
    text = table(results)
    print(text)
    out_dir = os.environ.get("OUT")
    if out_dir:
        with open(os.path.join(out_dir, "cuda_bench.md"), "w") as f:
            f.write(text + "\n")
        with open(os.path.join(out_dir, "cuda_bench.json"), "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
