"""The differential fuzzer's driver: generates random well-typed programs (gen/),
runs each compiled by mahou and under CPython (worker.py, batches in subprocesses) and
compares the results. A crash or hang of a worker loses only the program that caused
it; every failing program is saved as a reproducer file (replay it with --replay).

  python tests/fuzz/fuzz.py --seed 1 --programs 300         # what `make test` runs
  python tests/fuzz/fuzz.py --seed 1234 --programs 100000   # `make fuzz`
  python tests/fuzz/fuzz.py --replay build/fuzz/failures/mismatch-1-17.py
  python tests/fuzz/fuzz.py --numpy --seed 1 --programs 200  # the NumPy oracle (npgen/, npworker.py)
  python tests/fuzz/fuzz.py --numpy --features +overlap,+random ...

Statuses: ok; refused (mahou raised TypingError/UnsupportedError: a feature it does
not compile; counted, not a failure); mismatch, internal (InternalCompilerError),
crash, hang, generator (the reference itself failed: a generator bug) are failures."""

import argparse
import collections
import json
import os
import re
import selectors
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FAILURES = ("mismatch", "internal", "crash", "hang", "generator")


class Run:
    def __init__(self, args):
        self.args = args
        self.counts = collections.Counter()
        self.refusals = collections.Counter()
        self.cases = 0
        self.skipped = 0
        self.failures = []
        self.start_time = time.time()
        # one work directory per driver: drivers of several seeds may run side by side and
        # each removes its own at the end
        self.workdir = os.path.join(args.out, f"work-{os.getpid()}")
        self.faildir = os.path.join(args.out, "failures")
        os.makedirs(self.workdir, exist_ok=True)
        os.makedirs(self.faildir, exist_ok=True)

    def out_of_time(self):
        return self.args.budget and time.time() - self.start_time > self.args.budget

    def save(self, status, seed, index, detail, failure=True):
        # The program as the worker wrote it (kept unless it passed), else generated again.
        prefix = "npfuzz" if self.args.numpy else "fuzz"
        written = os.path.join(self.workdir, f"{prefix}_{seed}_{index}.py")
        if os.path.exists(written):
            with open(written) as f:
                source = f.read()
        elif self.args.numpy:
            from npgen import generate, parse_features

            source = generate(seed, index, parse_features(self.args.features)).source
        else:
            from gen import generate

            source = generate(seed, index).source
        path = os.path.join(self.faildir, f"{prefix}-{status}-{seed}-{index}.py" if self.args.numpy else
                            f"{status}-{seed}-{index}.py")
        header = "".join(f"# {line}\n" for line in f"{status}: {detail}".splitlines()[:30])
        with open(path, "w") as f:
            f.write(header + source)
        if not failure:
            return
        self.failures.append((status, path, detail))
        print(f"  {status}: {path}\n    {detail.splitlines()[0][:300] if detail else ''}", flush=True)

    def record(self, seed, msg):
        status = msg["status"]
        self.counts[status] += 1
        self.cases += msg.get("cases", 0)
        self.skipped += msg.get("skipped", 0)
        if status == "refused":
            self.refusals[normalise(msg["detail"])] += 1
            if self.args.save_refused:
                self.save(status, seed, msg["done"], msg["detail"], failure=False)
        elif status in FAILURES:
            self.save(status, seed, msg["done"], msg["detail"])

    def batch(self, seed, start, count):
        """Runs programs start..start+count-1; returns the index after the last one handled."""
        cmd = [sys.executable, os.path.join(HERE, "npworker.py" if self.args.numpy else "worker.py"), "--seed",
               str(seed), "--start", str(start), "--count", str(count), "--workdir", self.workdir]
        if self.args.numpy and self.args.features is not None:
            cmd += ["--features", self.args.features]
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                preexec_fn=limit_memory(self.args.memory_mb))
        sel = selectors.DefaultSelector()
        sel.register(proc.stdout, selectors.EVENT_READ)
        current, nxt = None, start
        while True:
            if not sel.select(timeout=self.args.hang_seconds):
                proc.kill()
                proc.wait()
                self.counts["hang"] += 1
                stalled = current if current is not None else nxt  # stalled before it said start
                self.save("hang", seed, stalled, f"no progress for {self.args.hang_seconds} s")
                return stalled + 1
            line = proc.stdout.readline()
            if not line:
                break
            msg = json.loads(line)
            if "start" in msg:
                current = msg["start"]
            else:
                self.record(seed, msg)
                current, nxt = None, msg["done"] + 1
                if self.out_of_time():
                    proc.kill()
                    proc.wait()
                    return start + count
        proc.wait()
        err = proc.stderr.read()
        if current is not None:
            self.counts["crash"] += 1
            self.save("crash", seed, current, f"worker died (exit status {proc.returncode})\n{err[-1500:]}")
            return current + 1
        if proc.returncode != 0 and nxt < start + count:
            self.counts["crash"] += 1
            self.save("crash", seed, nxt, f"worker failed (exit status {proc.returncode})\n{err[-1500:]}")
            return nxt + 1
        return nxt

    def run(self, seed, programs):
        i = 0
        while i < programs and not self.out_of_time():
            i = self.batch(seed, i, min(self.args.batch, programs - i))
            done = sum(self.counts.values())
            if self.args.progress and done and done % self.args.progress < self.args.batch:
                self.report(short=True)

    def report(self, short=False):
        done = sum(self.counts.values())
        took = time.time() - self.start_time
        skipped = "" if self.args.numpy else \
            f" ({self.skipped} inputs skipped: int64 overflow or a documented difference)"
        line = (f"fuzz{' --numpy' if self.args.numpy else ''}: {done} programs in {took:.0f} s, {self.cases} "
                f"{'calls' if self.args.numpy else 'cases'} compared{skipped}; " +
                ", ".join(f"{k} {v}" for k, v in sorted(self.counts.items())))
        print(line, flush=True)
        if short:
            return
        for why, n in self.refusals.most_common(12):
            print(f"  refused {n}x: {why}")
        for status, path, _ in self.failures:
            print(f"  FAILED {status}: {path}")


def normalise(detail):
    """A refusal message without its file, line and names: to count refusals by kind."""
    first = detail.splitlines()[0] if detail else ""
    first = re.sub(r"\S+\.py:\d+:\d+: ", "", first)
    first = re.sub(r"\(-?\d+\)", "(N)", first)
    first = re.sub(r"'[^']*'", "'...'", first)
    return re.sub(r"\b[a-z]\w*\d+\b", "v", first)[:160]


def limit_memory(megabytes):
    def apply():
        import resource

        limit = megabytes * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return apply


def replay(path):
    """Runs one saved program in this process, printing each case's two results."""
    sys.path.insert(0, HERE)
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    import worker

    with open(path) as f:
        source = f.read()
    name = "replay_" + re.sub(r"\W", "_", os.path.basename(path)[:-3])
    if "\nNUMPY_ORACLE = True\n" in source:
        import npworker

        status, detail, cases, skipped = npworker.run_program(os.path.abspath(path), name)
        print(f"{status} ({cases} calls) {detail}")
        return 0 if status in ("ok", "refused") else 1
    status, detail, cases, skipped = worker.run_program(source, os.path.abspath(path), name)
    print(f"{status} ({cases} cases, {skipped} skipped) {detail}")
    return 0 if status in ("ok", "refused") else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, action="append", help="seed (repeatable); default 1")
    ap.add_argument("--programs", type=int, default=300, help="programs per seed")
    ap.add_argument("--budget", type=float, default=0, help="stop after this many seconds (0: no limit)")
    ap.add_argument("--batch", type=int, default=40, help="programs per worker process")
    ap.add_argument("--hang-seconds", type=float, default=120)
    ap.add_argument("--memory-mb", type=int, default=4000, help="address-space limit of a worker")
    ap.add_argument("--out", default=os.path.join(HERE, "..", "..", "build", "fuzz"))
    ap.add_argument("--progress", type=int, default=0, help="print a summary every N programs")
    ap.add_argument("--replay", help="run one saved program and print its results")
    ap.add_argument("--save-refused", action="store_true", help="save refused programs too (not failures)")
    ap.add_argument("--numpy", action="store_true", help="the NumPy oracle: array programs against NumPy (npgen/)")
    ap.add_argument("--features", default=None,
                    help="NumPy oracle features: +name/-name changes to the defaults, a list, or all "
                         "(default: the MAHOU_NPFUZZ_FEATURES environment variable, else npgen.DEFAULT_FEATURES)")
    args = ap.parse_args()
    if args.replay:
        return replay(args.replay)
    run = Run(args)
    for seed in args.seed or [1]:
        run.run(seed, args.programs)
    run.report()
    shutil.rmtree(run.workdir, ignore_errors=True)
    return 1 if run.failures else 0


if __name__ == "__main__":
    sys.exit(main())
