#!/usr/bin/env bash
# Smoke test of a built wheel: a fresh virtual environment, the wheel installed into it,
# then `mahou -s`, the examples, a subset of the tests and (with a GPU) a CUDA kernel,
# all run away from the checkout so that only the installed package can be imported.
#
#   tools/wheel_smoke.sh WHEEL [--python PY] [--offline] [--venv DIR] [--tests "FILES"]
#
#   --python PY   the Python to make the environment with (default python3; the wheel's
#                 cpXY tag must match it)
#   --offline     no network: the environment sees PY's site-packages
#                 (--system-site-packages) for numpy and pytest, and pip installs the
#                 wheel alone (--no-index --no-deps); e.g. on the GPU machine
#   --venv DIR    where to make the environment (default: a new temporary directory)
#   --tests FILES the test files to run, relative to tests/python (default: a subset)
# Prints a summary table last; exits non-zero if a step failed.
set -uo pipefail
checkout=$(cd "$(dirname "$0")/.." && pwd)

wheel=""
python=python3
offline=0
venv=""
tests="test_sysinfo.py test_cache.py test_errors.py test_parallel_prange.py test_vectorize.py test_dicts.py test_jitclass.py test_pickling.py test_aot.py test_cuda_kernels.py"
while [ $# -gt 0 ]; do
  case "$1" in
    --python) python=$2; shift 2 ;;
    --offline) offline=1; shift ;;
    --venv) venv=$2; shift 2 ;;
    --tests) tests=$2; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    -*) echo "wheel_smoke.sh: unknown option $1" >&2; exit 2 ;;
    *) wheel=$1; shift ;;
  esac
done
if [ -z "$wheel" ] || [ ! -f "$wheel" ]; then
  echo "wheel_smoke.sh: give the path of a mahou wheel (got '${wheel}')" >&2
  exit 2
fi
wheel=$(cd "$(dirname "$wheel")" && pwd)/$(basename "$wheel")
[ -n "$venv" ] || venv=$(mktemp -d /tmp/mahou-smoke.XXXXXX)/venv
work=$(mktemp -d /tmp/mahou-smoke-run.XXXXXX)   # the working directory: not the checkout
log=$work/log.txt
: > "$log"

declare -a names results
step() { # step NAME COMMAND...: runs it in $work, logs its output, records PASS/FAIL
  local name=$1; shift
  echo "=== $name" | tee -a "$log"
  local start=$(date +%s.%N)
  if (cd "$work" && "$@") >>"$log" 2>&1; then r=PASS; else r=FAIL; fi
  local secs=$(python3 -c "print(f'{$(date +%s.%N) - $start:.1f}')" 2>/dev/null || echo "?")
  names+=("$name"); results+=("$r (${secs} s)")
  echo "    $r (${secs} s)"
  [ "$r" = PASS ]
}

echo "wheel_smoke.sh: $(basename "$wheel") ($(du -m "$wheel" | cut -f1) MB) into $venv; log in $log"
if [ $offline = 1 ]; then
  step "make the environment (--system-site-packages)" "$python" -m venv --system-site-packages "$venv"
  # PY may itself be a virtual environment (the GPU machine's python3 is): its packages
  # are not the base interpreter's, so a .pth file adds its site-packages after the new ones.
  parent_site=$("$python" -c 'import site, sysconfig; print("\n".join(dict.fromkeys([sysconfig.get_path("purelib"), sysconfig.get_path("platlib")] + site.getsitepackages())))')
  new_site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')
  echo "$parent_site" > "$new_site/_mahou_smoke_parent.pth"
  step "pip install the wheel (offline)" "$venv/bin/python" -m pip install -q --no-index --no-deps "$wheel"
else
  step "make the environment" "$python" -m venv "$venv"
  step "pip install the wheel" "$venv/bin/python" -m pip install -q "$wheel"
  step "pip install pytest" "$venv/bin/python" -m pip install -q pytest
fi
py=$venv/bin/python

step "import mahou from the environment" "$py" -c "
import os, sys, mahou
site = os.path.realpath(os.path.join(sys.prefix))
assert os.path.realpath(mahou.__file__).startswith(site), mahou.__file__
assert not os.path.realpath(mahou.__file__).startswith('$checkout'), 'imported the checkout'
print('mahou', mahou.__version__, 'from', mahou.__file__)"

step "no LLVM outside the wheel" bash -c "
for so in \$('$py' -c 'import mahou, os, glob; print(\" \".join(glob.glob(os.path.dirname(mahou.__file__) + \"/_*.so\")))'); do
  ldd \"\$so\" | tee /dev/stderr | grep -E 'libLLVM|libtbb|not found' | grep -v \"\$(dirname \"\$so\")\" && exit 1
done; exit 0"

step "mahou -s" "$venv/bin/mahou" -s
step "python -m mahou -s" "$py" -m mahou -s

step "import time and first compile" "$py" - <<'EOF'
import subprocess, sys, time
def best(code, n=5):
    times = []
    for _ in range(n):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        times.append(time.perf_counter() - t)
    return min(times)
base = best("pass")
np_t = best("import numpy")
mh_t = best("import mahou")
first = subprocess.run([sys.executable, "-c", """
import time, numpy as np
t0 = time.perf_counter()
import mahou
t1 = time.perf_counter()
@mahou.njit
def f(a):
    s = 0.0
    for x in a:
        s += x * x
    return s
f(np.arange(10.0))
t2 = time.perf_counter()
print(f"{(t1 - t0) * 1e3:.0f} {(t2 - t1) * 1e3:.0f}")
"""], check=True, capture_output=True, text=True).stdout.split()
print(f"python -c pass: {base * 1e3:.0f} ms; import numpy: {(np_t - base) * 1e3:.0f} ms; "
      f"import mahou: {(mh_t - base) * 1e3:.0f} ms (after numpy: {first[0]} ms); first compile and call: {first[1]} ms")
EOF

for example in "$checkout"/examples/*.py; do
  step "example $(basename "$example")" "$py" "$example"
done

test_files=""
for t in $tests; do test_files="$test_files $checkout/tests/python/$t"; done
step "tests ($(echo $tests | wc -w) files)" "$py" -m pytest -q -p no:cacheprovider --rootdir "$work" $test_files

# A file, not a pipe: mahou compiles kernels from their source text.
cat > "$work/cuda_kernel.py" <<'EOF'
import ctypes, os
try:
    lib = ctypes.CDLL("libcuda.so.1")
    n = ctypes.c_int(0)
    gpu = lib.cuInit(0) == 0 and lib.cuDeviceGetCount(ctypes.byref(n)) == 0 and n.value > 0
except OSError:
    gpu = False
if not gpu:
    os.environ["MAHOU_ENABLE_CUDASIM"] = "1"
import numpy as np
from mahou import cuda

@cuda.jit
def axpy(a, x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]

n = 1 << 20
x = np.random.rand(n); y = np.random.rand(n)
d_out = cuda.device_array(n)
axpy[(n + 255) // 256, 256](2.5, cuda.to_device(x), cuda.to_device(y), d_out)
np.testing.assert_allclose(d_out.copy_to_host(), 2.5 * x + y)
dev = cuda.get_current_device()
print("ran on", "the GPU" if gpu else "the emulator", dev.name.decode(), dev.compute_capability)
EOF
step "CUDA kernel (GPU if present, else the emulator)" "$py" "$work/cuda_kernel.py"

echo
echo "wheel_smoke.sh summary: $(basename "$wheel")"
status=0
for i in "${!names[@]}"; do
  printf '  %-50s %s\n' "${names[$i]}" "${results[$i]}"
  [[ "${results[$i]}" == PASS* ]] || status=1
done
grep -E "^python -c pass:|^ran on|passed|failed" "$log" | tail -4 | sed 's/^/  /'
[ $status = 0 ] && echo "wheel_smoke.sh: all passed" || echo "wheel_smoke.sh: FAILED (see $log)"
exit $status
