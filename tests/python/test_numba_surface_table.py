"""docs/numba_surface.md, the acceptance table of Numba's documented surface, cannot rot:
every row has one of the four statuses, a yes/partial row names a test function that
exists (parsed with ast; a parametrized id in brackets is stripped), any named test
exists, a partial/no/n/a row has a note, and the counts at the top add up."""

import ast
import os
import re
from collections import Counter

import pytest

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
PAGE = os.path.join(ROOT, "docs", "numba_surface.md")
STATUSES = ("yes", "partial", "no", "n/a")


def _cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def parse():
    """(rows, counts): rows as dicts with page, item, status, test, note; counts as
    {page title: [yes, partial, no, n/a, rows]} from the table at the top."""
    rows, counts = [], {}
    page = None
    header = None
    with open(PAGE, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            if line.startswith("## "):
                page = line[3:].strip()
                header = None
                continue
            if not line.startswith("|"):
                header = None
                continue
            cells = _cells(line)
            if header is None:
                header = cells
                continue
            if set(line.strip()) <= set("|-"):
                continue
            if header == ["page", "yes", "partial", "no", "n/a", "rows"]:
                counts[cells[0]] = [int(c) for c in cells[1:]]
            elif header == ["item", "mahou", "test", "note"]:
                assert len(cells) == 4, f"line {lineno}: a row has 4 cells: {line!r}"
                item, status, test, note = cells
                rows.append(dict(line=lineno, page=page, item=item, status=status, test=test.strip("`"), note=note))
            else:
                raise AssertionError(f"line {lineno}: a table with unknown columns {header}")
    return rows, counts


_DEFS = {}


def _test_functions(path):
    """The test functions a file defines: 'test_x' and 'TestClass::test_x'."""
    if path not in _DEFS:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
        names = set()
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names.add(node.name)
            elif isinstance(node, ast.ClassDef):
                for m in node.body:
                    if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        names.add(f"{node.name}::{m.name}")
        _DEFS[path] = names
    return _DEFS[path]


ROWS, COUNTS = parse()


def test_the_page_has_rows_on_every_documented_page():
    pages = {r["page"] for r in ROWS}
    for want in ("Supported Python features", "Supported NumPy features", "Just-in-time compilation", "jitclass",
                 "Extending", "CUDA"):
        assert any(p.startswith(want) for p in pages), want
    assert len(ROWS) > 900


@pytest.mark.parametrize("row", ROWS, ids=[f"line{r['line']}" for r in ROWS])
def test_row(row):
    where = f"docs/numba_surface.md:{row['line']} ({row['item']})"
    assert row["status"] in STATUSES, f"{where}: status {row['status']!r}"
    if row["status"] in ("yes", "partial"):
        assert row["test"] != "-", f"{where}: a {row['status']} row names its test"
    if row["status"] != "yes":
        assert row["note"], f"{where}: a {row['status']} row says what is missing and why"
    if row["test"] != "-":
        m = re.fullmatch(r"(tests/python/test_\w+\.py)::((?:\w+::)?test_\w+)(\[.*\])?", row["test"])
        assert m, f"{where}: a test is written as tests/python/test_x.py::test_y: {row['test']!r}"
        path = os.path.join(ROOT, m.group(1))
        assert os.path.exists(path), f"{where}: no file {m.group(1)}"
        assert m.group(2) in _test_functions(path), f"{where}: {m.group(1)} defines no {m.group(2)}"


def test_counts_add_up():
    by_page = {}
    for r in ROWS:
        title = r["page"].split(" (")[0]
        by_page.setdefault(title, Counter())[r["status"]] += 1
    total = Counter()
    for title, c in by_page.items():
        assert COUNTS.get(title) == [c["yes"], c["partial"], c["no"], c["n/a"], sum(c.values())], title
        total.update(c)
    assert COUNTS["**all pages**"] == [total["yes"], total["partial"], total["no"], total["n/a"], sum(total.values())]
