"""The documentation build's example runner (docs/_ext/run_examples.py): a failing example,
a doctest whose output differs, and an example that cannot compile each fail a -W build;
examples marked `# not run:` are skipped; a page's examples share a namespace. The real
site is built by `make docs` (part of `make test`)."""

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("sphinx")
pytest.importorskip("myst_parser")

EXT = Path(__file__).resolve().parents[2] / "docs" / "_ext"


def build(tmp_path, page):
    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text(textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(EXT)!r})
        extensions = ["myst_parser", "run_examples"]
        source_suffix = {{".md": "markdown"}}
    """))
    (src / "index.md").write_text(textwrap.dedent(page))
    out = subprocess.run([sys.executable, "-m", "sphinx", "-E", "-W", "-b", "html", str(src), str(tmp_path / "html")],
                         capture_output=True, text=True, timeout=300)
    return out.returncode, out.stdout + out.stderr


PASSING = '''
    # Page

    ```python
    import numpy as np
    from mahou import njit

    @njit
    def double(x):
        return 2 * x
    ```

    The namespace carries over:

    ```python
    >>> double(21)
    42
    >>> double(np.arange(3))
    array([0, 2, 4])
    ```

    ```python
    # not run: shows an API that needs hardware
    raise RuntimeError("never run")
    ```
'''


def test_passing_page_builds(tmp_path):
    rc, log = build(tmp_path, PASSING)
    assert rc == 0, log
    assert "2 Python examples run in 1 pages" in log and "1 marked not run" in log


def test_a_raising_example_fails_the_build(tmp_path):
    rc, log = build(tmp_path, '''
        # Page

        ```python
        assert 1 + 1 == 3, "arithmetic"
        ```
    ''')
    assert rc != 0 and "the example at line 4 failed" in log and "AssertionError: arithmetic" in log


def test_a_wrong_doctest_output_fails_the_build(tmp_path):
    rc, log = build(tmp_path, '''
        # Page

        ```python
        >>> 6 * 7
        41
        ```
    ''')
    assert rc != 0 and "Expected:" in log and "41" in log


def test_a_compile_error_names_the_pages_line(tmp_path):
    rc, log = build(tmp_path, '''
        # Page

        Text.

        ```python
        from mahou import njit

        @njit
        def f(n):
            return n + "x"

        f(1)
        ```
    ''')
    assert rc != 0
    # The function's line in the page (line 11), not in the block.
    assert "docs/index.md:11:" in log and "unsupported operand types for +" in log
