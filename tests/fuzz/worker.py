"""Runs a batch of generated programs in this process and reports each as a JSON line
on stdout: {"start": i} before program i, then {"done": i, "status": ...}. The driver
(fuzz.py) runs it in a subprocess, so that a crash or a hang loses only the program
that caused it, which the driver then saves as a reproducer."""

import argparse
import importlib.util
import json
import linecache
import os
import sys
import traceback
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402

import fuzz_runtime  # noqa: E402
from compare import difference  # noqa: E402
from gen import generate  # noqa: E402
from reference import DocumentedDifference, load_reference  # noqa: E402


def load_compiled(path, name):
    import mahou  # noqa: F401

    fuzz_runtime.MODE = "mahou"
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    finally:
        fuzz_runtime.MODE = "python"
    return module


def outcome(fn, args):
    """("value", result) or ("raise", exception type name, message)."""
    try:
        return ("value", fn(*args))
    except DocumentedDifference as e:
        return ("skip", e.kind, str(e), e)
    except Exception as e:  # noqa: BLE001
        return ("raise", type(e).__name__, str(e).splitlines()[0] if str(e) else "", e)


def mutable_in(args):
    """The arguments a call can change: arrays, lists and sets (written back; typed sets
    shared), also in tuples."""
    for a in args:
        if isinstance(a, (np.ndarray, list, set)) or type(a).__name__ in ("Set", "Cell", "_PythonCell"):
            yield a
        elif isinstance(a, tuple):
            yield from mutable_in(a)


REFUSALS = ("TypingError", "UnsupportedError")


def run_program(source, path, name):
    """Compares every case of the program; returns (status, detail, cases, skipped)."""
    ref = load_reference(source, path, name + "_ref")
    compiled = load_compiled(path, name)
    ref_inputs, jit_inputs = ref["inputs"](), compiled.inputs()
    cases = skipped = 0
    for fname, ref_sets in ref_inputs.items():
        for args_ref, args_jit in zip(ref_sets, jit_inputs[fname]):
            cases += 1
            DocumentedDifference.raised.clear()
            expected = outcome(ref[fname], args_ref)
            if DocumentedDifference.raised and expected[0] != "skip":  # lost in a `finally` block
                first = DocumentedDifference.raised[0]
                expected = ("skip", first.kind, str(first), first)
            got = outcome(getattr(compiled, fname), args_jit)
            where = f"{fname}{args_text(args_jit)}"
            if got[0] == "raise" and got[1] in REFUSALS:
                return "refused", f"{got[1]}: {got[2]}", cases, skipped
            if got[0] == "raise" and got[1] == "InternalCompilerError":
                return "internal", f"{where}: {got[2]}", cases, skipped
            if expected[0] == "skip":
                if not (got[0] == "raise" and got[1] == expected[1]):
                    skipped += 1
                continue
            if expected[0] == "raise" and expected[1] in ("NameError", "TypeError", "UnboundLocalError",
                                                          "AttributeError", "SyntaxError"):
                return "generator", f"{where}: reference raised {expected[1]}: {expected[2]}", cases, skipped
            if expected[0] != got[0]:
                e = expected[1] if expected[0] == "value" else f"{expected[1]}({expected[2]})"
                g = got[1] if got[0] == "value" else f"{got[1]}({got[2]})"
                return "mismatch", f"{where}: expected {e!r}, got {g!r}", cases, skipped
            if expected[0] == "raise":
                if (expected[1], got[1]) == ("UnicodeDecodeError", "ValueError"):
                    continue  # bytes.decode: a ValueError where Python raises its subclass (documented)
                if expected[1] != got[1]:
                    return "mismatch", f"{where}: expected {expected[1]}, got {got[1]}({got[2]})", cases, skipped
                continue
            d = difference(got[1], expected[1])
            if d is None:
                for k, (ga, ea) in enumerate(zip(mutable_in(args_jit), mutable_in(args_ref))):
                    d = difference(ga, ea, f"argument {k} (array, list or set) after the call")
                    if d:
                        break
            if d:
                return "mismatch", f"{where}: {d}", cases, skipped
    return "ok", "", cases, skipped


def args_text(args):
    parts = []
    for a in args:
        if isinstance(a, np.ndarray):
            parts.append(f"array({a.dtype}, shape={a.shape}, strides={a.strides})")
        else:
            parts.append(repr(a))
    return "(" + ", ".join(parts) + ")"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--start", type=int, required=True)
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    np.seterr(all="ignore")
    warnings.simplefilter("ignore")
    os.makedirs(args.workdir, exist_ok=True)
    sys.path.insert(0, args.workdir)
    for i in range(args.start, args.start + args.count):
        program = generate(args.seed, i)
        name = f"fuzz_{args.seed}_{i}"
        path = os.path.join(args.workdir, name + ".py")
        with open(path, "w") as f:
            f.write(program.source)
        print(json.dumps({"start": i}), flush=True)
        try:
            status, detail, cases, skipped = run_program(program.source, path, name)
        except Exception:  # noqa: BLE001
            status, detail, cases, skipped = "generator", traceback.format_exc(limit=3)[-600:], 0, 0
        sys.modules.pop(name, None)
        linecache.clearcache()  # the source of every program compiled (read by inspect) would stay
        if status == "ok":
            os.remove(path)
        print(json.dumps({"done": i, "status": status, "detail": detail[:2000], "cases": cases,
                          "skipped": skipped}), flush=True)


if __name__ == "__main__":
    main()
