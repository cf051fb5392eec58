#!/usr/bin/env bash
# On the GPU machine, after .device/on-device.sh built mahou: builds the C/C++/CUDA C
# harnesses, then runs `tests` (pytest -m gpu on the CUDA tests) and/or `bench`.
# Logs go under $OUT. Usage: bash bench/cuda/run_on_device.sh tests bench
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT" /tmp/cudabench
export PYTHONUNBUFFERED=1
g++ -std=c++20 -O2 -Icpp/include -Icpp/lib bench/cuda/driver_loop.cpp cpp/lib/cuda/*.cpp cpp/lib/runtime/*.cpp cpp/lib/types/*.cpp \
  -ldl -lpthread -ltbb \
  -o /tmp/cudabench/driver_loop || echo "driver_loop build failed"
nvcc -O3 -arch=sm_90 -o /tmp/cudabench/vadd_cuda bench/cuda/vadd.cu || echo "nvcc failed"
nvcc -O3 -arch=sm_90 -o /tmp/cudabench/extras_cuda bench/cuda/extras.cu || echo "nvcc extras failed"
/tmp/cudabench/driver_loop 5000 2>&1 | tee "$OUT/driver_loop.txt"
for step in "$@"; do
  case "$step" in
    tests) # a file per process: a kernel fault poisons its process's CUDA context
      : > "$OUT/pytest_gpu.log"
      for f in $(grep -l "gpu" tests/python/test_*cuda*.py); do
        timeout 120 python3 -m pytest "$f" -q -m gpu --tb=short -p no:cacheprovider >> "$OUT/pytest_gpu.log" 2>&1
        echo "$f: rc $?" | tee -a "$OUT/pytest_gpu_summary.txt"
      done
      grep -E "^(FAILED|ERROR)|passed|failed" "$OUT/pytest_gpu.log" | tail -60 ;;
    cputests)
      python3 -m pytest tests/python -q -k cuda --tb=short -p no:cacheprovider \
        2>&1 | tee "$OUT/pytest_all.log" | tail -15 ;;
    bench)
      timeout 240 python3 bench/cuda/bench_cuda.py --vadd-bin /tmp/cudabench/vadd_cuda \
        --driver-loop-bin /tmp/cudabench/driver_loop --extras-bin /tmp/cudabench/extras_cuda \
        2>"$OUT/bench_stderr.log" ;;
  esac
done
