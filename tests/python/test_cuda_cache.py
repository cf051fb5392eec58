"""@cuda.jit(cache=True): a kernel's PTX is kept on disk (the cache's entry format and
checks) and read again by another process while the source, the signature, the compute
capability, the options and the globals it read are the same; a changed global compiles
again; a kernel that calls device functions is compiled every time (their sources are
not part of the record). The PTX side needs no GPU; the launch test runs on one."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

MODULE = '''
import numpy as np
from mahou import cuda

SCALE = {scale}


@cuda.jit(cache=True)
def scale(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        out[i] = a[i] * SCALE


@cuda.jit(device=True)
def twice(x):
    return 2 * x


@cuda.jit(cache=True)
def with_device_function(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        out[i] = twice(a[i])


@cuda.jit
def not_cached(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        out[i] = a[i] + SCALE
'''

PTX = '''
import sys
sys.path.insert(0, sys.argv[1])
import kmod
sig = "void(float64[::1], float64[::1])"
for k in (kmod.scale, kmod.with_device_function, kmod.not_cached):
    print(k.__name__, k._compile_ptx(sig, 9, 0)[0].count("0d4008000000000000"),
          k._compile_ptx(sig, 9, 0)[0].count("0d4010000000000000"))
'''

LAUNCH = '''
import sys
import numpy as np
sys.path.insert(0, sys.argv[1])
import kmod
a = np.arange(100.0)
out = np.zeros(100)
kmod.scale[1, 128](a, out)
print(float(out[7]))
'''


def write_module(folder, scale):
    (folder / "kmod.py").write_text(MODULE.format(scale=scale))


def run(code, folder, cache):
    env = dict(os.environ, MAHOU_CACHE_DIR=str(cache))
    r = subprocess.run([sys.executable, "-c", code, str(folder)], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    return r.stdout


def entries(cache):
    return sorted((p.name, p.stat().st_mtime_ns) for p in cache.rglob("*.mahou"))


def test_kernel_ptx_kept_on_disk_and_read_again(tmp_path):
    folder, cache = tmp_path / "src", tmp_path / "cache"
    folder.mkdir()
    write_module(folder, "3.0")
    first = run(PTX, folder, cache)
    assert "scale 1 0" in first  # the constant 3.0 compiled in
    made = entries(cache)
    # one entry: the kernel with a device function and the kernel without cache=True have none
    assert len(made) == 1 and made[0][0].startswith("kmod.scale.")
    assert run(PTX, folder, cache) == first
    assert entries(cache) == made  # read, not written again


def test_a_changed_global_compiles_again(tmp_path):
    folder, cache = tmp_path / "src", tmp_path / "cache"
    folder.mkdir()
    write_module(folder, "3.0")
    run(PTX, folder, cache)
    made = entries(cache)
    write_module(folder, "4.0")
    out = run(PTX, folder, cache)
    assert "scale 0 1" in out  # 4.0 now, not the cached 3.0
    again = entries(cache)
    assert len(again) == 1 and again[0][1] != made[0][1]


@pytest.mark.gpu
@pytest.mark.skipif(os.environ.get("MAHOU_ENABLE_CUDASIM") == "1",
                    reason="the emulator runs kernels compiled for the host: no PTX to keep")
def test_cached_kernel_launches(tmp_path):
    folder, cache = tmp_path / "src", tmp_path / "cache"
    folder.mkdir()
    write_module(folder, "3.0")
    env_free = textwrap.dedent(LAUNCH)
    assert run(env_free, folder, cache).strip() == "21.0"  # compiled, stored
    assert run(env_free, folder, cache).strip() == "21.0"  # loaded
    assert len(entries(cache)) == 1


MISALIGNED = '''
import sys
import numpy as np
from mahou import cuda


@cuda.jit(cache=True)
def copy(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        out[i] = a[i] * 2


# two field views of one array type (float64, any layout): x at offset 8 of 16, aligned,
# and at offset 1 of 9, misaligned
spaced = np.zeros(64, np.dtype([("tag", np.int64), ("x", np.float64)]))
packed = np.zeros(64, np.dtype([("tag", np.int8), ("x", np.float64)]))
spaced["x"] = packed["x"] = np.arange(64.0)
out = np.zeros(64)
copy[1, 64](spaced["x"], out)  # the aligned form: compiled and stored
copy[1, 64](packed["x"], out)  # the form for misaligned data has a key of its own
print(float(out.sum()))
'''


@pytest.mark.gpu
@pytest.mark.skipif(os.environ.get("MAHOU_ENABLE_CUDASIM") == "1",
                    reason="the emulator runs kernels compiled for the host: no PTX to keep")
def test_the_misaligned_form_of_a_cached_kernel_is_cached_apart(tmp_path):
    # The aligned form's PTX read for a misaligned launch would trap on the GPU (its loads
    # assume 8-byte alignment); each form is its own entry, in this process and the next.
    cache = tmp_path / "cache"
    (tmp_path / "kmis.py").write_text(MISALIGNED)
    for _ in range(2):
        out = run("import sys; sys.path.insert(0, sys.argv[1]); import kmis", tmp_path, cache)
        assert out.strip() == str(2 * sum(range(64)) * 1.0)
    assert len(entries(cache)) == 2
