"""The NumPy oracle's worker: runs a batch of generated array programs (npgen/) compiled
by mahou and as plain Python over NumPy (the same source, undecorated), making the
program's calls (CALLS) in order on both, and compares each result and every array
argument after the call (npcompare.py). Reports JSON lines as worker.py does."""

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
from npcompare import difference, within  # noqa: E402
from npgen import generate, parse_features  # noqa: E402

REFUSALS = ("TypingError", "UnsupportedError")


def load(path, name, mode):
    if mode == "mahou":
        import mahou  # noqa: F401
    fuzz_runtime.MODE = mode
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    finally:
        fuzz_runtime.MODE = "python"
    return module


def outcome(fn, args):
    try:
        return ("value", fn(*args))
    except Exception as e:  # noqa: BLE001
        return ("raise", type(e).__name__, str(e).splitlines()[0] if str(e) else "", isinstance(e, TypeError))


def args_text(args):
    parts = []
    for a in args:
        if isinstance(a, np.ndarray):
            parts.append(f"array({a.dtype}, shape={a.shape}, strides={a.strides})")
        else:
            parts.append(repr(a))
    return "(" + ", ".join(parts) + ")"


def compare_results(got, expected, tolerance):
    """The first difference of two results (tuples of slots, TOLERANCE for some)."""
    if not tolerance or not isinstance(expected, tuple) or not isinstance(got, tuple) or len(got) != len(expected):
        return difference(got, expected)
    for k, (g, e) in enumerate(zip(got, expected)):
        tol = tolerance.get(k)
        if tolerance.get(k - 1) == "sum":
            continue  # the scale of the sum before it: approximate itself
        if tol is None:
            d = difference(g, e, f"result[{k}]")
        else:
            d = within(g, e, tol, expected[k + 1] if tol == "sum" else None)
            d = d and f"result[{k}] {d}"
        if d:
            return d
    return None


def run_program(path, name):
    """Compares every call of the program; returns (status, detail, cases, skipped)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            ref = load(path, name + "_ref", "python")
            compiled = load(path, name, "mahou")
            ref_inputs, jit_inputs = ref.inputs(), compiled.inputs()
            cases = 0
            for fname, k in ref.CALLS:
                cases += 1
                args_ref, args_jit = ref_inputs[fname][k], jit_inputs[fname][k]
                where = f"{fname}{args_text(args_jit)} (call {cases})"
                expected = outcome(getattr(ref, fname), args_ref)
                got = outcome(getattr(compiled, fname), args_jit)
                if got[0] == "raise" and got[1] in REFUSALS:
                    return "refused", f"{got[1]}: {got[2]}", cases, 0
                if got[0] == "raise" and got[1] == "InternalCompilerError":
                    return "internal", f"{where}: {got[2]}", cases, 0
                if expected[0] == "raise" and (expected[3] or expected[1] in ("NameError", "UnboundLocalError",
                                                                              "AttributeError", "SyntaxError")):
                    return "generator", f"{where}: reference raised {expected[1]}: {expected[2]}", cases, 0
                if expected[0] != got[0]:
                    e = "a value" if expected[0] == "value" else f"{expected[1]}({expected[2]})"
                    g = repr(got[1])[:300] if got[0] == "value" else f"{got[1]}({got[2]})"
                    return "mismatch", f"{where}: expected {e}, got {g}", cases, 0
                if expected[0] == "raise":
                    if expected[1] != got[1]:
                        return "mismatch", f"{where}: expected {expected[1]}({expected[2]}), got {got[1]}({got[2]})", \
                            cases, 0
                    continue
                d = compare_results(got[1], expected[1], ref.TOLERANCE.get(fname))
                if d is None:
                    for i, (ga, ea) in enumerate(zip(args_jit, args_ref)):
                        if isinstance(ea, np.ndarray):
                            d = difference(ga, ea, f"argument {i} after the call")
                            if d:
                                break
                if d:
                    return "mismatch", f"{where}: {d}", cases, 0
    return "ok", "", cases, 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--start", type=int, required=True)
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--features", default=None)
    args = ap.parse_args()
    features = parse_features(args.features)
    os.makedirs(args.workdir, exist_ok=True)
    sys.path.insert(0, args.workdir)
    for i in range(args.start, args.start + args.count):
        name = f"npfuzz_{args.seed}_{i}"
        path = os.path.join(args.workdir, name + ".py")
        try:
            program = generate(args.seed, i, features)
        except Exception:  # noqa: BLE001
            print(json.dumps({"start": i}), flush=True)
            print(json.dumps({"done": i, "status": "generator", "detail": traceback.format_exc(limit=4)[-1500:],
                              "cases": 0, "skipped": 0}), flush=True)
            continue
        with open(path, "w") as f:
            f.write(program.source)
        print(json.dumps({"start": i}), flush=True)
        try:
            status, detail, cases, skipped = run_program(path, name)
        except Exception:  # noqa: BLE001
            status, detail, cases, skipped = "generator", traceback.format_exc(limit=3)[-600:], 0, 0
        sys.modules.pop(name, None)
        sys.modules.pop(name + "_ref", None)
        linecache.clearcache()
        if status == "ok":
            os.remove(path)
        print(json.dumps({"done": i, "status": status, "detail": detail[:2000], "cases": cases,
                          "skipped": skipped}), flush=True)


if __name__ == "__main__":
    main()
