#!/usr/bin/env python3
"""Writes cpp/lib/runtime/ziggurat_tables.inc: the tables of the 256-layer ziggurats
that np.random.Generator's standard_normal and standard_exponential use (float64 and
float32), for compiled draws equal to NumPy's.

Construction (Marsaglia and Tsang, "The Ziggurat Method for Generating Random
Variables", 2000; the layout NumPy's distributions use): for a density f, a base
strip of area v and the rightmost layer edge r, the edges are x[255] = r and
x[i-1] = f^-1(f(x[i]) + v / x[i]) going up. Layer i (1..255) accepts a draw u in
[0, 1) scaled to x[i] at once when u < x[i-1] / x[i]: K[i] is that ratio times 2^bits
(K[1] = 0, the top layer), W[i] = x[i] / 2^bits turns the integer draw into x, and
F[i] = f(x[i]) bounds the wedge test. Layer 0 is the base strip: K[0] = r f(r) / v,
W[0] = (v / f(r)) / 2^bits, F[0] = 1.
  normal:      f(x) = exp(-x^2 / 2), r = 3.6541528853610088, v = r f(r) + sqrt(pi/2) erfc(r / sqrt 2)
  exponential: f(x) = exp(-x),       r = 7.6971174701310497, v = (r + 1) f(r)
The edges are computed with mpmath at 60 digits, K rounded to nearest for the 23-bit
float32 tables and down for the 52/53-bit float64 ones.

NumPy's own tables carry rounding from their construction in the last bit of some
entries. Every draw that a layer accepts at once is exactly (integer) * W[i], so
the script (unless --no-calibrate) draws from NumPy with known bit-generator states
and sets each W[i] to the nearby value (a few ulps) those draws show, which makes
compiled draws equal NumPy's bit for bit. (K and F differences of that size change a
draw with probability below 1e-14.)

Usage: python tools/gen_ziggurat_tables.py [--no-calibrate] [--samples N]
"""
import argparse
import os
import sys

import mpmath as mp

mp.mp.dps = 60

NORMAL_R = mp.mpf("3.6541528853610087963519472518")
EXP_R = mp.mpf("7.6971174701310497140446280481")


def construct(kind, bits):
    if kind == "normal":
        f = lambda x: mp.exp(-x * x / 2)
        finv = lambda y: mp.sqrt(-2 * mp.log(y))
        r = NORMAL_R
        v = r * f(r) + mp.sqrt(mp.pi / 2) * mp.erfc(r / mp.sqrt(2))
    else:
        f = lambda x: mp.exp(-x)
        finv = lambda y: -mp.log(y)
        r = EXP_R
        v = (r + 1) * f(r)
    x = [mp.mpf(0)] * 256
    x[255] = r
    for i in range(255, 1, -1):
        x[i - 1] = finv(f(x[i]) + v / x[i])
    scale = mp.mpf(2) ** bits
    rounding = mp.nint if bits <= 23 else mp.floor
    k = [int(rounding(scale * r * f(r) / v)), 0] + [int(rounding(scale * x[i - 1] / x[i])) for i in range(2, 256)]
    w = [v / f(r) / scale] + [x[i] / scale for i in range(1, 256)]
    fi = [mp.mpf(1)] + [f(x[i]) for i in range(1, 256)]
    return k, w, fi


def calibrate(tables, samples):
    """Adjusts each W to the value NumPy's accepted-at-once draws show."""
    import numpy as np

    bg = np.random.PCG64(0)
    gen = np.random.Generator(bg)
    rs = np.random.default_rng(20260101)
    draws = {"normal64": [], "normal32": [], "exp64": [], "exp32": []}
    for _ in range(samples):
        s = int(rs.integers(0, 2**63)) << 64 | int(rs.integers(0, 2**63))
        state = {"bit_generator": "PCG64", "state": {"state": s, "inc": 0xDA3E39CB94B95BDB},
                 "has_uint32": 0, "uinteger": 0}
        bg.state = state
        raw = int(bg.random_raw())
        for name, draw in (("normal64", lambda: gen.standard_normal()),
                           ("normal32", lambda: gen.standard_normal(dtype=np.float32)),
                           ("exp64", lambda: gen.standard_exponential()),
                           ("exp32", lambda: gen.standard_exponential(dtype=np.float32))):
            bg.state = state
            draws[name].append((raw, float(draw())))

    def fix(name, w, f32):
        fl = (lambda a: float(np.float32(a))) if f32 else float
        mul = (lambda a, b: float(np.float32(a) * np.float32(b))) if f32 else (lambda a, b: float(a) * b)
        step = (lambda v, n: float(np.nextafter(np.float32(v), np.float32(np.inf if n > 0 else -np.inf)))) if f32 \
            else (lambda v, n: float(np.nextafter(v, np.inf if n > 0 else -np.inf)))
        out = [fl(v) for v in w]
        by_layer = {}
        for raw, x in draws[name]:
            if name == "normal64":
                idx, n = raw & 0xFF, (raw >> 9) & 0x000FFFFFFFFFFFFF
            elif name == "normal32":
                r32 = raw & 0xFFFFFFFF
                idx, n = r32 & 0xFF, (r32 >> 9) & 0x7FFFFF
            elif name == "exp64":
                idx, n = (raw >> 3) & 0xFF, raw >> 11
            else:
                r32 = (raw & 0xFFFFFFFF) >> 1
                idx, n = r32 & 0xFF, r32 >> 8
            by_layer.setdefault(idx, []).append((n, abs(x)))
        changed = 0
        for idx, obs in by_layer.items():
            # candidates from each draw (x / n and its neighbours) near the constructed value;
            # the one most draws agree with wins (draws that took another path agree with none)
            cands = set()
            for n, x in obs:
                if not n:
                    continue
                c = fl(x / n)
                for k in (-2, -1, 0, 1, 2):
                    v = c
                    for _ in range(abs(k)):
                        v = step(v, k)
                    if abs(v / out[idx] - 1) < (1e-6 if f32 else 1e-12):
                        cands.add(v)
            votes = {c: sum(1 for n, x in obs if n and mul(n, c) == x) for c in cands}
            if not votes:
                continue
            best = max(votes.values())
            winners = [c for c, cnt in votes.items() if cnt == best]
            if best < 3 or out[idx] in winners:
                continue
            if len(winners) != 1:
                sys.exit(f"{name}[{idx}]: draws do not pin W ({winners})")
            out[idx] = winners[0]
            changed += 1
        print(f"{name}: {changed} W entries set from NumPy's draws", file=sys.stderr)
        return out

    tables["normal64"][1][:] = fix("normal64", tables["normal64"][1], False)
    tables["normal32"][1][:] = fix("normal32", tables["normal32"][1], True)
    tables["exp64"][1][:] = fix("exp64", tables["exp64"][1], False)
    tables["exp32"][1][:] = fix("exp32", tables["exp32"][1], True)


def emit(tables):
    import struct

    def f32(v):
        return struct.unpack("f", struct.pack("f", float(v)))[0]

    lines = ["// Generated by tools/gen_ziggurat_tables.py; do not edit.",
             "// The 256-layer ziggurats of np.random.Generator (see the script for the construction)."]

    def array(ctype, name, values, fmt):
        lines.append(f"constexpr {ctype} {name}[256] = {{")
        for i in range(0, 256, 4):
            lines.append("    " + ", ".join(fmt(v) for v in values[i:i + 4]) + ",")
        lines.append("};")

    for key, suffix, bits32 in (("normal64", "Norm", False), ("exp64", "Exp", False),
                                ("normal32", "Norm", True), ("exp32", "Exp", True)):
        k, w, fi = tables[key]
        tail = "f" if bits32 else ""
        if bits32:
            array("uint32_t", f"k{suffix}K{tail}", k, lambda v: f"0x{v:08x}u")
            array("float", f"k{suffix}W{tail}", w, lambda v: float.hex(f32(v)) + "f")
            array("float", f"k{suffix}F{tail}", fi, lambda v: float.hex(f32(v)) + "f")
        else:
            array("uint64_t", f"k{suffix}K", k, lambda v: f"0x{v:016x}ull")
            array("double", f"k{suffix}W", w, lambda v: float.hex(float(v)))
            array("double", f"k{suffix}F", fi, lambda v: float.hex(float(v)))
    lines.append(f"constexpr double kNormR = {float.hex(float(NORMAL_R))};")
    lines.append(f"constexpr double kNormInvR = {float.hex(float(1 / NORMAL_R))};")
    lines.append(f"constexpr double kExpR = {float.hex(float(EXP_R))};")
    lines.append(f"constexpr float kNormRf = {float.hex(f32(NORMAL_R))}f;")
    lines.append(f"constexpr float kNormInvRf = {float.hex(f32(1 / NORMAL_R))}f;")
    lines.append(f"constexpr float kExpRf = {float.hex(f32(EXP_R))}f;")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--no-calibrate", action="store_true")
    ap.add_argument("--samples", type=int, default=60000)
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), os.pardir, "cpp", "lib", "runtime",
                                                  "ziggurat_tables.inc"))
    args = ap.parse_args()
    tables = {"normal64": construct("normal", 52), "exp64": construct("exp", 53),
              "normal32": construct("normal", 23), "exp32": construct("exp", 23)}
    for key in tables:
        tables[key] = (tables[key][0], [float(v) for v in tables[key][1]], tables[key][2])
    if not args.no_calibrate:
        calibrate(tables, args.samples)
    with open(args.out, "w") as f:
        f.write(emit(tables))


if __name__ == "__main__":
    main()
