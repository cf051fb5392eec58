"""The CUDA emulator against Numba's simulator and @njit, side by side in one run.

Each engine runs in a fresh subprocess (both simulators are switched on by an
environment variable read at import). Numba's simulator runs each CUDA thread as a
Python thread, so it gets smaller problems; times are per element (vector add) or per
multiply-add (matmul) so the rows compare. Prints a markdown table; with --write it
replaces the table between the bench:cudasim markers in BENCHMARKS.md.
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import textwrap

KERNELS = textwrap.dedent('''
    import json, sys, time
    import numpy as np
    engine = sys.argv[1]
    if engine == "numba-sim":
        np.row_stack = np.vstack
        from numba import cuda, njit
    else:
        from mahou import cuda, njit

    TPB = 16

    @cuda.jit
    def vadd(a, b, c):
        i = cuda.grid(1)
        if i < c.size:
            c[i] = a[i] + b[i]

    @cuda.jit
    def tiled_matmul(A, B, C):
        sA = cuda.shared.array((16, 16), dtype=np.float32)
        sB = cuda.shared.array((16, 16), dtype=np.float32)
        x, y = cuda.grid(2)
        tx = cuda.threadIdx.x
        ty = cuda.threadIdx.y
        acc = 0.0
        for t in range(C.shape[0] // 16):
            sA[tx, ty] = A[x, ty + t * 16]
            sB[tx, ty] = B[tx + t * 16, y]
            cuda.syncthreads()
            for k in range(16):
                acc += sA[tx, k] * sB[k, ty]
            cuda.syncthreads()
        C[x, y] = acc

    @njit
    def vadd_njit(a, b, c):
        for i in range(c.size):
            c[i] = a[i] + b[i]

    @njit
    def matmul_njit(A, B, C):
        n = C.shape[0]
        for i in range(n):
            for j in range(n):
                acc = 0.0
                for k in range(n):
                    acc += A[i, k] * B[k, j]
                C[i, j] = acc

    def best(f, reps=3):
        f()
        t = float("inf")
        for _ in range(reps):
            s = time.perf_counter(); f(); t = min(t, time.perf_counter() - s)
        return t

    out = {}
    small = engine == "numba-sim"
    n = 4096 if small else 1 << 22
    a = np.random.rand(n).astype(np.float32); b = np.random.rand(n).astype(np.float32); c = np.zeros_like(a)
    m = 32 if small else 256
    A = np.random.rand(m, m).astype(np.float32); B = np.random.rand(m, m).astype(np.float32); C = np.zeros((m, m), np.float32)
    if engine == "njit":
        out["vadd"] = best(lambda: vadd_njit(a, b, c)) / n
        out["matmul"] = best(lambda: matmul_njit(A, B, C)) / m ** 3
    else:
        out["vadd"] = best(lambda: vadd[(n + 255) // 256, 256](a, b, c), reps=1 if small else 3) / n
        assert np.allclose(c, a + b)
        out["matmul"] = best(lambda: tiled_matmul[(m // 16, m // 16), (16, 16)](A, B, C), reps=1 if small else 3) / m ** 3
        assert np.allclose(C, A @ B, rtol=1e-4, atol=1e-3)
    out["sizes"] = [n, m]
    print(json.dumps(out))
''')


def run(engine, python):
    env = dict(os.environ)
    if engine == "mahou-emulator":
        env["MAHOU_ENABLE_CUDASIM"] = "1"
    if engine == "numba-sim":
        env["NUMBA_ENABLE_CUDASIM"] = "1"
    with tempfile.TemporaryDirectory() as tmp:  # kernels need a source file (inspect.getsource)
        script = os.path.join(tmp, "cudasim_kernels.py")
        with open(script, "w") as f:
            f.write(KERNELS)
        r = subprocess.run([python, script, engine], env=env, capture_output=True, text=True, timeout=1800)
    if r.returncode != 0:
        return None, r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "failed"
    return json.loads(r.stdout.strip().splitlines()[-1]), None


def main():
    python = sys.executable
    rows = {}
    for engine in ["mahou-emulator", "numba-sim", "njit"]:
        rows[engine], err = run(engine, python)
        if err:
            print(f"{engine}: {err}", file=sys.stderr)
    lines = ["| kernel | mahou emulator | Numba simulator | @njit (mahou) | emulator speedup over Numba's simulator |",
             "|---|---|---|---|---|"]
    for k, unit in [("vadd", "ns/element"), ("matmul", "ns/multiply-add")]:
        cells = []
        for e in ["mahou-emulator", "numba-sim", "njit"]:
            cells.append(f"{rows[e][k] * 1e9:.2f} {unit}" if rows.get(e) else "n/a")
        speed = (f"{rows['numba-sim'][k] / rows['mahou-emulator'][k]:.0f}x"
                 if rows.get("numba-sim") and rows.get("mahou-emulator") else "n/a")
        lines.append(f"| {k} | " + " | ".join(cells) + f" | {speed} |")
    sizes = {e: rows[e]["sizes"] for e in rows if rows[e]}
    lines.append("")
    lines.append(f"Sizes (vector length, matrix side): {sizes}. Matmul is the 16x16 shared-memory tiled kernel "
                 "(two cuda.syncthreads() per tile); the @njit row is a plain triple loop.")
    table = "\n".join(lines)
    print(table)
    if "--write" in sys.argv:
        path = os.path.join(os.path.dirname(__file__), "..", "BENCHMARKS.md")
        text = open(path).read()
        block = f"<!-- BEGIN bench:cudasim -->\n{table}\n<!-- END bench:cudasim -->"
        if "<!-- BEGIN bench:cudasim -->" in text:
            text = re.sub(r"<!-- BEGIN bench:cudasim -->.*<!-- END bench:cudasim -->", lambda _: block, text, flags=re.S)
        else:
            text += "\n## CUDA emulator (MAHOU_ENABLE_CUDASIM=1)\n\n" + block + "\n"
        open(path, "w").write(text)


if __name__ == "__main__":
    main()
