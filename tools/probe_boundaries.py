#!/usr/bin/env python3
"""Probes mahou (or Numba, for comparison) from outside, as an attacker or an unlucky user
would, and counts what survives: bad input at the object layer and parallel faults
(tools/probe_cases.py), and damaged or forged pickles of a compiled function.

Every case runs in a worker subprocess; a case that kills its worker (a signal, an abort)
counts as crashed and the worker starts again after it, one that runs past its time
limit as hung. A case is ok when it gives the right value or raises one of the Python
exceptions it accepts (what CPython or NumPy raises), wrong otherwise.

Pickles: a by-value pickle of a compiled function f (f(52) == 53) is damaged at random
(truncated, bits flipped, garbage written over it) or forged: a field of its payload is
edited and every checksum computed again, so only the loader's own checks stand
between the edit and the code (mahou: the ELF structure of its machine code, the
types it carries; Numba: the function's bytecode). Loading then calling f is ok when
it gives 53 or raises an exception; anything else is wrong.

Usage:
  python tools/probe_boundaries.py                        # mahou, this interpreter
  python tools/probe_boundaries.py --python /tmp/numba-venv/bin/python --impl numba
  python tools/probe_boundaries.py --only object,parallel --json out.json
"""

import argparse
import gc
import json
import os
import pickle
import random
import select
import struct
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CASE_SECONDS = 60.0
PICKLE_SECONDS = 30.0


def _pickled_add1(x):
    return x + 1


# ------------------------------------------------------------------ worker side

def _implementation(name):
    if name == "mahou":
        import mahou as nb
    else:
        import numba as nb
        import numba.experimental  # noqa: F401
        import numba.typed  # noqa: F401
    return nb


def _same(got, want):
    import numpy as np
    if isinstance(want, np.ndarray) or isinstance(got, np.ndarray):
        return isinstance(got, np.ndarray) and got.shape == np.shape(want) and np.array_equal(got, want)
    if isinstance(want, float) and isinstance(got, float) and want != want:
        return got != got
    if isinstance(want, (list, tuple)) and isinstance(got, (list, tuple)):
        return len(got) == len(want) and all(_same(g, w) for g, w in zip(got, want))
    return type(got) is not bool and got == want or got is want


def _emit(i, outcome, detail=""):
    sys.stdout.write(json.dumps({"i": i, "outcome": outcome, "detail": detail[:300]}) + "\n")
    sys.stdout.flush()


def _begin(i):
    sys.stdout.write(f"BEGIN {i}\n")
    sys.stdout.flush()


def worker_cases(impl, category, start):
    sys.path.insert(0, HERE)
    import probe_cases
    nb = _implementation(impl)
    cases = [c for c in probe_cases.CASES if c[0] == category]
    for i in range(start, len(cases)):
        _, name, fn, accept = cases[i]
        _begin(i)
        try:
            got, want = fn(nb)
        except (probe_cases.ChildHung, probe_cases.ChildDied) as e:
            _emit(i, "hung" if isinstance(e, probe_cases.ChildHung) else "crashed", f"{name}: {e}")
            continue
        except BaseException as e:  # noqa: BLE001  (any exception is an outcome)
            names = {k.__name__ for k in type(e).__mro__}
            ok = bool(names & set(accept)) and not isinstance(e, (SystemExit, KeyboardInterrupt))
            _emit(i, "ok" if ok else "wrong", f"{name}: raised {type(e).__name__}: {e}")
            continue
        if want is probe_cases.MUST_RAISE:
            _emit(i, "wrong", f"{name}: returned {got!r}, expected one of {accept}")
        else:
            _emit(i, "ok" if _same(got, want) else "wrong", f"{name}: got {got!r}, expected {want!r}")


def worker_load(path, start):
    """Loads each variant of the file (a pickled list of bytes) and calls it with 52."""
    with open(path, "rb") as f:
        variants = pickle.load(f)
    for i in range(start, len(variants)):
        _begin(i)
        # Nothing of the variant before may still be linked: code already linked under
        # a symbol is used again instead of a payload's (which is then never checked).
        gc.collect()
        note = variants[i][2]
        try:
            fn = pickle.loads(variants[i][1])
        except Exception as e:  # noqa: BLE001  (a clean refusal)
            _emit(i, "ok", f"{note}: raised {type(e).__name__}: {e}")
            continue
        try:
            got = fn(52)
            outcome = "ok" if got == 53 and type(got) is int else "wrong"
            _emit(i, outcome, f"{note}: returned {got!r}")
        except Exception as e:  # noqa: BLE001
            _emit(i, "ok", f"{note}: loaded, then raised {type(e).__name__}: {e}")
        # Code that was loaded may have been forged and damaged the process without a
        # sign: the next variant starts in a fresh worker, so a later crash is its own.
        os._exit(0)


# ------------------------------------------------------------------ pickle variants

def _damaged(data, rng, count):
    out = []
    for k in range(count):
        b = bytearray(data)
        kind = k % 3
        if kind == 0:  # truncated
            b = b[:rng.randrange(len(b))]
        elif kind == 1:  # 1-8 bits flipped
            for _ in range(rng.randint(1, 8)):
                b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
        else:  # garbage over a run of bytes
            at = rng.randrange(len(b))
            for j in range(at, min(len(b), at + rng.randint(1, 64))):
                b[j] = rng.randrange(256)
        out.append(("damaged", bytes(b), ("truncated", "bit flips", "garbage")[kind]))
    return out


class _Reduced:
    """Pickles as the given reduce tuple (a forged one)."""

    def __init__(self, reduced):
        self.reduced = reduced

    def __reduce__(self):
        return self.reduced


def _parse_machine_code(p):
    """mahou's shipped payload (bindings/shipped_code.cpp): its header (magic, format,
    key, count) and each overload's fields (argument types, symbol, return type,
    declared return type, dependencies, object)."""
    n, = struct.unpack_from("<Q", p, 12)
    pos = 12 + 8 + n
    count, = struct.unpack_from("<I", p, pos)
    pos += 4
    head = p[:pos]
    overloads = []
    for _ in range(count):
        nargs, = struct.unpack_from("<I", p, pos)
        pos += 4
        fields = []
        for _ in range(nargs + 5):
            n, = struct.unpack_from("<Q", p, pos)
            fields.append(p[pos + 8:pos + 8 + n])
            pos += 8 + n
        overloads.append(fields)
    return head, overloads


def _join_machine_code(head, overloads):
    out = bytearray(head[:-4]) + struct.pack("<I", len(overloads))
    for fields in overloads:
        out += struct.pack("<I", len(fields) - 5)
        for f in fields:
            out += struct.pack("<Q", len(f)) + f
    return bytes(out)


def _elf_places(obj):
    """(offset, width, what) of the fields worth forging in an ELF64 object."""
    places = [(0x10, 2, "e_type"), (0x12, 2, "e_machine"), (0x28, 8, "e_shoff"), (0x34, 2, "e_ehsize"),
              (0x3a, 2, "e_shentsize"), (0x3c, 2, "e_shnum"), (0x3e, 2, "e_shstrndx"), (4, 1, "ei_class")]
    shoff, = struct.unpack_from("<Q", obj, 0x28)
    shnum, = struct.unpack_from("<H", obj, 0x3c)
    text, symbols, relocs = None, [], []
    for i in range(1, shnum):
        h = shoff + 64 * i
        for off, width, name in ((0, 4, "sh_name"), (4, 4, "sh_type"), (8, 8, "sh_flags"), (24, 8, "sh_offset"),
                                 (32, 8, "sh_size"), (40, 4, "sh_link"), (44, 4, "sh_info"), (48, 8, "sh_addralign"),
                                 (56, 8, "sh_entsize")):
            places.append((h + off, width, "section." + name))
        sh_type, = struct.unpack_from("<I", obj, h + 4)
        sh_offset, sh_size = struct.unpack_from("<QQ", obj, h + 24)
        if sh_type == 2:  # SHT_SYMTAB
            for k in range(1, sh_size // 24):
                e = sh_offset + 24 * k
                symbols += [(e, 4, "symbol.st_name"), (e + 4, 1, "symbol.st_info"), (e + 6, 2, "symbol.st_shndx"),
                            (e + 8, 8, "symbol.st_value"), (e + 16, 8, "symbol.st_size")]
        elif sh_type == 4:  # SHT_RELA
            for k in range(sh_size // 24):
                e = sh_offset + 24 * k
                relocs += [(e, 8, "relocation.r_offset"), (e + 8, 4, "relocation.type"),
                           (e + 12, 4, "relocation.symbol"), (e + 16, 8, "relocation.r_addend")]
        elif sh_type == 1 and sh_size and text is None and struct.unpack_from("<Q", obj, h + 8)[0] & 4:
            text = (sh_offset, sh_size)  # the first SHF_EXECINSTR section
    return places + symbols + relocs, text


def _forged_value(rng, old, width):
    top = (1 << (8 * width)) - 1
    choice = rng.randrange(6)
    if choice == 0:
        return 0
    if choice == 1:
        return top
    if choice == 2:
        return (old + rng.choice([1, -1, 8, -8, 64, 4096, -4096])) & top
    if choice == 3:
        return rng.randrange(top + 1)
    if choice == 4:
        return (old + rng.randrange(1 << min(8 * width, 20))) & top
    return 1 << rng.randrange(8 * width)


TYPE_TEXTS = ["float64", "int32", "int8", "bool", "none", "complex128", "unicode_type", "array(float64, 1d, C)",
              "Tuple(int64, int64)", "Tuple(int64, float64, float64)", "list(int64)<iv=None>",
              "DictType[int64,int64]<iv=None>", "array(int64, 3d, C)", "float32"]


def _forged_mahou(nb, rng, count):
    from mahou import serialize
    f = nb.njit(_pickled_add1)
    assert f(52) == 53
    rebuild, args, state, listitems, dictitems, fill = serialize.registered()[type(f)](f)
    fields = serialize.unseal(args[0])
    head, overloads = _parse_machine_code(fields["machine_code"])
    obj = overloads[0][-1]
    places, text = _elf_places(obj)
    out = []

    def emit(kind, new_overloads, note):
        forged = dict(fields, machine_code=_join_machine_code(head, new_overloads))
        reduced = (rebuild, (serialize.seal(forged),) + tuple(args[1:]), state, listitems, dictitems, fill)
        out.append((kind, pickle.dumps(_Reduced(reduced)), note))

    def with_object(new_obj):
        return [overloads[0][:-1] + [bytes(new_obj)]] + overloads[1:]

    nargs = len(overloads[0]) - 5
    for k in range(count):
        r = rng.random()
        if r < 0.70:  # a field of the ELF structure
            off, width, what = rng.choice(places)
            b = bytearray(obj)
            old = int.from_bytes(b[off:off + width], "little")
            new = _forged_value(rng, old, width)
            b[off:off + width] = new.to_bytes(width, "little")
            emit("forged structure", with_object(b), f"{what} at {off:#x}: {old:#x} -> {new:#x}")
        elif r < 0.85:  # the types it carries
            fs = list(overloads[0])
            which = rng.choice(["ret"] + ["arg"] * nargs)
            text_ = rng.choice(TYPE_TEXTS)
            if which == "ret":
                fs[nargs + 1] = text_.encode()
            else:
                fs[rng.randrange(nargs)] = text_.encode()
            emit("forged types", [fs] + overloads[1:], f"{which} -> {text_}")
        else:  # instruction bytes (what the code does: trusted, as any pickle's contents)
            b = bytearray(obj)
            start, size = text
            at = [start + rng.randrange(size) for _ in range(rng.randint(1, 4))]
            for j in at:
                b[j] = rng.randrange(256)
            emit("forged code bytes", with_object(b), f"instruction bytes at {at}")
    return out


def _forged_numba(nb, rng, count):
    f = nb.njit(_pickled_add1)
    assert f(52) == 53
    data = pickle.dumps(f)
    code = _pickled_add1.__code__.co_code
    at = data.find(code)
    if at < 0:
        return []
    out = []
    for _ in range(count):
        b = bytearray(data)
        where = [at + rng.randrange(len(code)) for _ in range(rng.randint(1, 4))]
        for j in where:
            b[j] = rng.randrange(256)
        out.append(("forged code bytes", bytes(b), f"bytecode bytes at {where}"))
    return out


def worker_make_pickles(impl, path, seed, damaged, forged):
    nb = _implementation(impl)
    rng = random.Random(seed)
    f = nb.njit(_pickled_add1)
    assert f(52) == 53
    variants = _damaged(pickle.dumps(f), rng, damaged)
    variants += (_forged_mahou if impl == "mahou" else _forged_numba)(nb, rng, forged)
    with open(path, "wb") as fh:
        pickle.dump(variants, fh)


# ------------------------------------------------------------------ driver side

def _run_worker(python, argv, total, seconds):
    """Runs the worker from case 0, again after each case that kills it; returns
    {index: (outcome, detail)}."""
    results = {}
    start = 0
    while start < total:
        proc = subprocess.Popen([python, os.path.abspath(__file__), *argv, "--start", str(start)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=HERE)
        current, deadline, line_buf = None, time.monotonic() + 300.0, ""
        while True:
            ready, _, _ = select.select([proc.stdout], [], [], 1.0)
            if ready:
                line = proc.stdout.readline()
                if not line:
                    break
                if line.startswith("BEGIN "):
                    current = int(line.split()[1])
                    deadline = time.monotonic() + seconds
                elif line.startswith("{"):
                    r = json.loads(line)
                    results[r["i"]] = (r["outcome"], r["detail"])
                    current = None
            elif time.monotonic() > deadline:
                proc.kill()
                if current is not None:
                    results[current] = ("hung", f"no result in {seconds:.0f} s")
                break
        proc.wait()
        err = proc.stderr.read()
        if current is not None and current not in results:
            results[current] = ("crashed", f"exit status {proc.returncode}: {err.strip()[-200:]}")
        if not any(i >= start for i in results):
            raise RuntimeError(f"the worker failed before its first case: {err.strip()[-2000:]}")
        start = max(results) + 1
    return results


def _tally(results, labels):
    table = {}
    for i, (outcome, _) in results.items():
        row = table.setdefault(labels[i], {"ok": 0, "wrong": 0, "crashed": 0, "hung": 0})
        row[outcome] += 1
    return table


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--python", default=sys.executable, help="the interpreter whose mahou or numba is probed")
    ap.add_argument("--impl", choices=["mahou", "numba"], default="mahou")
    ap.add_argument("--only", default="object,parallel,pickles")
    ap.add_argument("--seed", type=int, default=20260531)
    ap.add_argument("--damaged", type=int, default=700, help="randomly damaged pickles")
    ap.add_argument("--forged", type=int, default=600, help="forged pickles (payload edited, checksums recomputed)")
    ap.add_argument("--json", help="write every outcome here")
    ap.add_argument("--verbose", action="store_true", help="print every case that is not ok")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--start", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("--data", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker in ("object", "parallel"):
        return worker_cases(a.impl, a.worker, a.start)
    if a.worker == "load":
        return worker_load(a.data, a.start)
    if a.worker == "make-pickles":
        return worker_make_pickles(a.impl, a.data, a.seed, a.damaged, a.forged)

    sys.path.insert(0, HERE)
    import probe_cases
    report, details = {}, {}
    for category in ("object", "parallel"):
        if category not in a.only:
            continue
        cases = [c for c in probe_cases.CASES if c[0] == category]
        res = _run_worker(a.python, ["--worker", category, "--impl", a.impl], len(cases), CASE_SECONDS)
        report[category] = _tally(res, {i: category for i in range(len(cases))})[category]
        details[category] = {cases[i][1]: res[i] for i in sorted(res)}
    if "pickles" in a.only:
        path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"probe-pickles-{os.getpid()}.pkl")
        subprocess.run([a.python, os.path.abspath(__file__), "--worker", "make-pickles", "--impl", a.impl,
                        "--data", path, "--seed", str(a.seed), "--damaged", str(a.damaged), "--forged",
                        str(a.forged)], check=True, cwd=HERE)
        with open(path, "rb") as fh:
            variants = pickle.load(fh)
        res = _run_worker(a.python, ["--worker", "load", "--data", path], len(variants), PICKLE_SECONDS)
        os.unlink(path)
        labels = {i: v[0] for i, v in enumerate(variants)}
        for kind, row in sorted(_tally(res, labels).items()):
            report["pickles: " + kind] = row
        details["pickles"] = {f"{i} {labels[i]}": res[i] for i in sorted(res)}
    print(f"{a.impl} ({a.python})")
    print(f"{'probe':32} {'cases':>6} {'ok':>6} {'wrong':>6} {'crashed':>8} {'hung':>5}")
    for name, row in report.items():
        print(f"{name:32} {sum(row.values()):6} {row['ok']:6} {row['wrong']:6} {row['crashed']:8} {row['hung']:5}")
    if a.verbose:
        for category, items in details.items():
            for name, (outcome, detail) in items.items():
                if outcome != "ok":
                    print(f"  {category} {name}: {outcome}: {detail}")
    if a.json:
        with open(a.json, "w") as fh:
            json.dump({"impl": a.impl, "report": report, "details": details}, fh, indent=1)


if __name__ == "__main__":
    sys.exit(main())
