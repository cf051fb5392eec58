"""mahou in Jupyter: tests/notebooks/mahou_in_a_notebook.ipynb run in a real kernel
(ipykernel, driven by nbclient): @njit functions defined and called in cells, one
redefined in a later cell (the new definition runs), cache=True, prange, a typed.Dict,
and a compile error whose message points at the line of its cell."""

import re
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "mahou_in_a_notebook.ipynb"


@pytest.fixture(scope="module")
def outputs(tmp_path_factory):
    """Each code cell's printed text, in order, after running the whole notebook."""
    nb = nbformat.read(NOTEBOOK, as_version=4)
    cache = tmp_path_factory.mktemp("nbcache")
    client = nbclient.NotebookClient(nb, timeout=180, kernel_name="python3",
                                     resources={"metadata": {"path": str(cache)}})
    client.execute()  # raises CellExecutionError if a cell raised
    texts = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        texts.append("".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream"))
    return nb, texts


def test_functions_compile_and_run_in_cells(outputs):
    _, texts = outputs
    assert texts[1].strip() == "first 42 3.0"


def test_a_redefinition_in_a_later_cell_runs(outputs):
    _, texts = outputs
    assert texts[2].strip() == "second 63 4.5"  # x * 3, not the first cell's x * 2


def test_cache_prange_and_typed_dict(outputs):
    _, texts = outputs
    assert texts[3].strip() == "cached 30.0"
    assert texts[4].strip() == "prange [3.0, 12.0, 21.0, 30.0] [3.0, 12.0, 21.0, 30.0]"
    assert texts[5].strip() == "dict [('a', 3), ('b', 1), ('c', 1)]"


def test_compile_error_points_at_the_cells_line(outputs):
    nb, texts = outputs
    text = texts[6]
    assert text.startswith("TypingError ")
    # file:line:col of the cell (ipykernel names each cell's code), the line and a caret
    cell_source = [c for c in nb.cells if c.cell_type == "code"][6].source.splitlines()
    m = re.search(r":(\d+):(\d+): unsupported operand types for \+: str and int64", text)
    assert m, text
    line = int(m.group(1))
    assert cell_source[line - 1].strip() == "return x + n"
    assert "        return x + n\n" in text and re.search(r"\n +\^", text)
