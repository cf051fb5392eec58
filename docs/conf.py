# Sphinx configuration of mahou's documentation site (make docs → build/docs/html).
# The Markdown pages in docs/ are read in place by MyST; every Python example in them is
# run by the build (_ext/run_examples.py) and any warning fails it (make docs uses -W).
import os
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

# CUDA examples run on mahou's CPU emulator when the build machine has no GPU (set
# before anything imports mahou.cuda).
if not Path("/dev/nvidiactl").exists():
    os.environ.setdefault("MAHOU_ENABLE_CUDASIM", "1")
sys.path.insert(0, str(HERE / "_ext"))

# The supported-features tables, generated from the compiler's tables on every build.
subprocess.run([sys.executable, str(ROOT / "tools" / "gen_supported_tables.py"),
                "--out", str(HERE / "_generated" / "supported_tables.md")], check=True)

import mahou  # noqa: E402  (the built package: its version and docstrings)

project = "mahou"
author = "the mahou developers"
copyright = "the mahou developers"
release = mahou.__version__
version = release

extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.napoleon", "run_examples"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "_ext", "Thumbs.db", ".DS_Store", "_generated"]
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3
# The developer pages show C++, shell and IR text in fences with names Pygments may not
# know; those are shown as plain text rather than warned about.
highlight_language = "text"
# BENCHMARKS.md (included by benchmarks.md) steps from ## to #### in its hand-written parts.
suppress_warnings = ["misc.highlighting_failure", "myst.header"]

html_theme = "furo"
html_title = f"mahou {release}"
html_static_path = ["_static"]

autodoc_default_options = {"members": False, "undoc-members": False}
autodoc_typehints = "none"


# The docstrings are plain text, not reStructuredText: their *, ` and | are shown as written.
def _plain_docstring(app, what, name, obj, options, lines):
    for i, line in enumerate(lines):
        lines[i] = re.sub(r"([*`|\\]|_(?=\W|$))", r"\\\1", line)


def setup(app):
    app.connect("autodoc-process-docstring", _plain_docstring)
