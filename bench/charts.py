#!/usr/bin/env python3
"""Draws the benchmark charts of the documentation (PNG, matplotlib) from the tables the
benchmarks write into BENCHMARKS.md: parallel scaling per kernel and thread count
(bench:parallel), mahou/Numba per CPU kernel (bench:cpu) and GPU bandwidth against
CUDA C (bench:cuda). `make bench` runs it after bench/run.py; the docs include the PNGs
from docs/_static/bench/."""

import argparse
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BENCHMARKS_MD = ROOT / "BENCHMARKS.md"
OUT_DIR = ROOT / "docs" / "_static" / "bench"


def sections(text):
    """{label: body} of every <!-- BEGIN bench:label --> ... <!-- END bench:label --> block."""
    found = {}
    for m in re.finditer(r"<!-- BEGIN bench:(.+?) -->\n(.*?)<!-- END bench:\1 -->", text, flags=re.S):
        found[m.group(1)] = m.group(2)
    return found


def tables(body):
    """The Markdown tables of a block in order, each as (header, rows), with the line of
    text just above the table (its caption, e.g. '**map_sum**: mahou serial 497 ms')."""
    lines = body.splitlines()
    out, i = [], 0
    while i < len(lines):
        if lines[i].startswith("|") and i + 1 < len(lines) and re.match(r"^\|[-:| ]+\|$", lines[i + 1]):
            caption = next((lines[j] for j in range(i - 1, -1, -1) if lines[j].strip()), "")
            header = [c.strip() for c in lines[i].strip("|").split("|")]
            rows, i = [], i + 2
            while i < len(lines) and lines[i].startswith("|"):
                rows.append([c.strip() for c in lines[i].strip("|").split("|")])
                i += 1
            out.append((caption, header, rows))
        else:
            i += 1
    return out


def number(cell):
    """The first number of a cell ('3,455.0', '52.05 ms', '1.02×'), in the cell's unit; None."""
    m = re.search(r"-?[\d,]*\.?\d+", cell.replace("\u2009", ""))
    if not m:
        return None
    value = float(m.group(0).replace(",", ""))
    if "µs" in cell:
        value /= 1000.0  # to ms, as the other cells
    return value


def parallel_scaling(body, title, path, plt):
    """Speedup over mahou serial against threads, one panel per kernel, mahou and Numba."""
    panels = []
    for caption, header, rows in tables(body):
        m = re.match(r"\*\*(\w+)\*\*: mahou serial (.+)", caption)
        if not m or header[0] != "threads":
            continue
        serial = number(m.group(2))
        threads = [int(r[0]) for r in rows]
        mahou = [serial / number(r[1]) for r in rows]
        numba = [serial / number(r[2]) if number(r[2]) else None for r in rows]
        panels.append((m.group(1), threads, mahou, numba))
    if not panels:
        return False
    cols = 4
    rows_n = (len(panels) + cols - 1) // cols
    fig, axes = plt.subplots(rows_n, cols, figsize=(3.2 * cols, 2.8 * rows_n), squeeze=False)
    for ax, (name, threads, mahou, numba) in zip(axes.flat, panels):
        ax.plot(threads, mahou, "o-", label="mahou")
        if any(v is not None for v in numba):
            ax.plot(threads, numba, "s--", label="Numba")
        ax.plot(threads, threads, ":", color="grey", label="linear")
        ax.set_title(name, fontsize=10)
        ax.set_xscale("log", base=2)
        ax.set_xticks(threads)
        ax.set_xticklabels([str(t) for t in threads])
        ax.set_xlabel("threads")
        ax.set_ylabel("speedup over mahou serial", fontsize=8)
    for ax in list(axes.flat)[len(panels):]:
        ax.axis("off")
    axes.flat[0].legend(fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return True


def cpu_ratios(body, path, plt):
    """mahou/Numba and mahou/C per kernel (steady state; < 1: mahou is faster)."""
    for caption, header, rows in tables(body):
        if header[:1] == ["kernel"] and "mahou/Numba (best)" in header:
            names = [r[0].strip("`") for r in rows]
            numba = [number(r[header.index("mahou/Numba (best)")]) for r in rows]
            c = [number(r[header.index("mahou/C")]) for r in rows]
            fig, ax = plt.subplots(figsize=(8, 3.5))
            x = range(len(names))
            ax.bar([i - 0.2 for i in x], numba, width=0.4, label="mahou / Numba")
            ax.bar([i + 0.2 for i in x], c, width=0.4, label="mahou / C (clang -O3)")
            ax.axhline(1.0, color="grey", linestyle=":")
            ax.set_xticks(list(x))
            ax.set_xticklabels(names, rotation=30, ha="right")
            ax.set_ylabel("time ratio (< 1: mahou faster)")
            ax.set_title("CPU kernels, steady state, one thread")
            ax.legend(fontsize=8)
            fig.tight_layout()
            fig.savefig(path, dpi=90)
            plt.close(fig)
            return True
    return False


def gpu_bandwidth(body, path, plt):
    """GB/s of mahou, numba-cuda and CUDA C for the bandwidth rows of the GPU table."""
    for caption, header, rows in tables(body):
        if "unit" not in header or "mahou" not in header:
            continue
        picked = [r for r in rows if r[header.index("unit")] == "GB/s"]
        if not picked:
            return False
        names = [re.sub(r"`", "", r[0]).split(",")[0][:40] for r in picked]
        cols = [("mahou", "mahou"), ("numba-cuda", "numba-cuda"), ("CUDA C / C++", "CUDA C")]
        fig, ax = plt.subplots(figsize=(8, 3.5))
        width = 0.8 / len(cols)
        for k, (col, label) in enumerate(cols):
            values = [number(r[header.index(col)]) or 0.0 for r in picked]
            ax.bar([i + (k - 1) * width for i in range(len(picked))], values, width=width, label=label)
        ax.set_xticks(list(range(len(picked))))
        ax.set_xticklabels(names, rotation=15, ha="right", fontsize=8)
        ax.set_ylabel("GB/s")
        ax.set_title("GPU memory bandwidth (NVIDIA H200)")
        ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(path, dpi=90)
        plt.close(fig)
        return True
    return False


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--benchmarks", default=str(BENCHMARKS_MD))
    ap.add_argument("--out", default=str(OUT_DIR))
    opts = ap.parse_args(argv)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    found = sections(Path(opts.benchmarks).read_text())
    out = Path(opts.out)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for label, body in found.items():
        if label.startswith("parallel"):
            where = re.search(r"\((.*)\)", label)
            slug = re.sub(r"[^a-z0-9]+", "_", (where.group(1) if where else "machine").lower()).strip("_")
            name = f"parallel_scaling_{slug}.png"
            if parallel_scaling(body, f"parallel=True scaling ({where.group(1) if where else label})",
                                out / name, plt):
                written.append(name)
    if "cpu" in found and cpu_ratios(found["cpu"], out / "cpu_ratios.png", plt):
        written.append("cpu_ratios.png")
    if "cuda" in found and gpu_bandwidth(found["cuda"], out / "gpu_bandwidth.png", plt):
        written.append("gpu_bandwidth.png")
    print("bench/charts.py: wrote " + ", ".join(str(out / w) for w in written))
    return 0 if written else 1


if __name__ == "__main__":
    raise SystemExit(main())
