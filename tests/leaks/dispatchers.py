"""RSS over many dispatcher creations: functions with distinct code (as a program that
generates functions, or a notebook re-running a cell, makes them) are created,
compiled, called and dropped; the process must not grow. Compiled code is freed with
its dispatcher, so the resident size after warm-up stays flat.

    python tests/leaks/dispatchers.py --count 10000 [--limit-kb 3000]
"""

import argparse
import gc
import linecache
import os
import sys
import tempfile
import time


def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=10000)
    ap.add_argument("--warmup", type=int, default=300)
    ap.add_argument("--limit-kb", type=int, default=3000, help="allowed growth after warm-up")
    args = ap.parse_args()

    import numpy as np

    import mahou

    template = "def f(x, a):\n    a[0] += {i}\n    return x * {i} + len(str(x)) + {i} % 7\n"
    with tempfile.TemporaryDirectory() as d:

        def make(i):
            src = template.format(i=i)
            path = os.path.join(d, f"gen{i % 20}.py")
            with open(path, "w") as fh:
                fh.write(src)
            linecache.cache.pop(path, None)
            ns = {}
            exec(compile(src, path, "exec"), ns)
            return mahou.njit(ns["f"])

        a = np.zeros(1, np.int64)
        for i in range(args.warmup):
            f = make(i)
            f(i, a)
        del f
        gc.collect()
        start, t0 = rss(), time.time()
        checkpoints = []
        for i in range(args.warmup, args.warmup + args.count):
            f = make(i)
            assert f(3, a) == 3 * i + 1 + i % 7
            del f
            if (i - args.warmup + 1) % max(1, args.count // 5) == 0:
                gc.collect()
                checkpoints.append((rss() - start) // 1024)
        gc.collect()
        grown_kb = (rss() - start) // 1024
    per = grown_kb * 1024 / args.count
    print(f"dispatchers: {args.count} created, compiled, called and dropped in {time.time() - t0:.0f} s; "
          f"RSS after warm-up {start // 1024} KB, grown {grown_kb} KB ({per:.0f} bytes per dispatcher); "
          f"growth at each fifth: {checkpoints} KB")
    if grown_kb > args.limit_kb:
        print(f"FAIL: RSS grew by {grown_kb} KB (limit {args.limit_kb} KB)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
