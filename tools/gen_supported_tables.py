#!/usr/bin/env python3
"""Generates the supported-features tables of the documentation from the compiler's own
tables, so that they cannot drift: the registry's tables (cpp/lib/sema/*.def), the NumPy
ufuncs compiled code calls (cpp/lib/sema/ufuncs.def) and the NumPy functions written in
Python (mahou._library). The docs build (docs/conf.py) runs it into docs/_generated/.

Every source is a reader yielding Entry(receiver, name, what, detail); the writer groups
entries by receiver (see `READERS`)."""

import argparse
import collections
import importlib
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

Entry = collections.namedtuple("Entry", "receiver name what detail")

# NumPy's type characters in the ufunc loop strings of ufuncs.def.
DTYPE_CHARS = {
    "?": "bool", "b": "int8", "B": "uint8", "h": "int16", "H": "uint16", "i": "int32", "I": "uint32",
    "l": "int64", "L": "uint64", "q": "int64", "Q": "uint64", "e": "float16", "f": "float32",
    "d": "float64", "g": "longdouble", "F": "complex64", "D": "complex128",
}
DTYPE_ORDER = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
               "float16", "float32", "float64", "complex64", "complex128"]

def _strip_comments(text):
    return re.sub(r"//[^\n]*", "", text)


REGISTRY = ROOT / "cpp/lib/sema"
# Tables of sema that are not registry entries (the receivers themselves; ufuncs have their reader).
NOT_REGISTRY = {"receivers.def", "ufuncs.def"}
REGISTRY_WHAT = {"FUNCTION": "function", "METHOD": "method", "ATTRIBUTE": "attribute",
                 "STATEMENT": "method (as a statement)", "LOOP": "loop form"}


def read_receivers(path=REGISTRY / "receivers.def"):
    """MAHOU_RECEIVER(id, "spelling", ...): how the docs name each receiver."""
    names = {}
    for rid, spelling in re.findall(r'MAHOU_RECEIVER\(\s*(\w+)\s*,\s*"([^"]*)"', _strip_comments(path.read_text())):
        names[rid] = spelling or "builtins"
    return names


def read_registry(directory=REGISTRY):
    """The registry's entries, MAHOU_FUNCTION/METHOD/ATTRIBUTE/STATEMENT/LOOP(receiver, "name", ...),
    of every .def table of sema (one entry a line, beside the code that types it)."""
    receivers = read_receivers(directory / "receivers.def")
    pattern = r'MAHOU_(FUNCTION|METHOD|ATTRIBUTE|STATEMENT|LOOP)\(\s*(\w+)\s*,\s*"([^"]+)"'
    for path in sorted(directory.glob("*.def")):
        if path.name in NOT_REGISTRY:
            continue
        for macro, rid, name in re.findall(pattern, _strip_comments(path.read_text())):
            receiver = receivers.get(rid, rid)
            if name == "*":
                yield Entry(receiver, "*", REGISTRY_WHAT[macro], f"any name (its own lookup; {path.name})")
            else:
                yield Entry(receiver, name, REGISTRY_WHAT[macro], path.name)


def _expand_loops(text, macros):
    """The loop string of one MAHOU_UFUNC entry: C string literals and macro names."""
    parts = []
    for token in re.findall(r'"[^"]*"|\w+', text):
        parts.append(token[1:-1] if token.startswith('"') else macros.get(token, ""))
    return " ".join(parts).split()


def read_ufunc_table(path=ROOT / "cpp/lib/sema/ufuncs.def"):
    """MAHOU_UFUNC(name, nin, loops, kernel): np.<name> with the input dtypes of its loops."""
    text = _strip_comments(path.read_text())
    macros = {name: value for name, value in re.findall(r'#define (\w+) "([^"]*)"', text)}
    for name, nin, loops, _kernel in re.findall(r"MAHOU_UFUNC\(\s*(\w+)\s*,\s*(\d+)\s*,(.*?),\s*(\w+)\s*\)\s*$",
                                                text, flags=re.M):
        dtypes = set()
        for loop in _expand_loops(loops, macros):
            inputs = loop.split("->")[0]
            dtypes.update(DTYPE_CHARS.get(c, c) for c in inputs)
        if dtypes:
            detail = ", ".join(d for d in DTYPE_ORDER if d in dtypes)
        else:
            detail = "every number type (the operator's typing)"
        yield Entry("np (ufuncs)", name, f"ufunc, {nin} input{'s' if nin != '1' else ''}", detail)


# The modules of mahou._library whose public compiled functions are NumPy's (their
# receiver in the docs, and the module).
LIBRARY_MODULES = [("np", "mahou._library.numpy_functions"), ("np.linalg", "mahou._library.linalg")]


def read_library(modules=LIBRARY_MODULES):
    """The public compiled functions of mahou._library (NumPy functions written in Python)."""
    sys.path.insert(0, str(ROOT / "python"))
    import mahou  # noqa: F401  (the built package: run where it is installed)
    from mahou import _core
    for receiver, module in modules:
        mod = importlib.import_module(module)
        for name, value in sorted(vars(mod).items()):
            if name.startswith("_") or not isinstance(value, _core.Dispatcher):
                continue
            doc = (getattr(value, "__doc__", None) or "").strip().splitlines()
            yield Entry(receiver, name, "function (compiled from Python)", doc[0] if doc else "")


READERS = [
    ("The registry: names compiled code can call or read (cpp/lib/sema/*.def)", read_registry),
    ("NumPy ufuncs in compiled code (cpp/lib/sema/ufuncs.def)", read_ufunc_table),
    ("NumPy functions written in Python (mahou._library)", read_library),
]


def _cell(text):
    return text.replace("|", "\\|")


def render(readers=READERS):
    """The tables as one MyST Markdown page (no top heading: the including page has it)."""
    out = []
    for title, reader in readers:
        entries = list(reader())
        out += [f"## {title}", ""]
        by_receiver = collections.defaultdict(list)
        for e in entries:
            by_receiver[e.receiver].append(e)
        for receiver, group in by_receiver.items():
            out += [f"### `{receiver}`", "", "| name | kind | notes |", "|---|---|---|"]
            for e in sorted(group, key=lambda e: (e.what, e.name)):
                shown = f"`{e.name}`" if e.name != "*" else "(any)"
                out.append(f"| {shown} | {_cell(e.what)} | {_cell(e.detail)} |")
            out.append("")
        out += [f"{len(entries)} entries.", ""]
    return "\n".join(out)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs/_generated/supported_tables.md"))
    args = parser.parse_args(argv)
    text = render()
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    if not out.exists() or out.read_text() != text:  # unchanged: Sphinx need not re-read it
        out.write_text(text)
    print(f"gen_supported_tables: {out} ({text.count(chr(10))} lines)")


if __name__ == "__main__":
    main()
