"""Sphinx extension: runs every Python example of the documentation while the pages are
read, so that the docs cannot rot. A ```python block is executed (the blocks of one page
share one namespace, in order, like a notebook); a block of `>>>` lines is run as a
doctest and its printed output compared. A block whose first line is `# not run: <why>`
is shown but not run (keep those few). A failing example is a warning, and make docs
turns warnings into errors."""

import contextlib
import doctest
import io
import linecache
import re
import traceback

from docutils import nodes
from sphinx.util import logging

logger = logging.getLogger(__name__)
NOT_RUN = re.compile(r"^#\s*not run:\s*\S")
PYTHON = {"python", "py", "python3", "pycon"}


def _register_source(filename, code):
    # mahou compiles functions from their source text: it reads it from linecache.
    linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)


def _run_block(code, namespace, filename, pad=0):
    """None when the block ran (and its doctest output matched), else the failure text."""
    if code.lstrip().startswith(">>>"):
        test = doctest.DocTestParser().get_doctest(code, namespace, filename, filename, 0)
        out = io.StringIO()
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        runner.run(test, out=out.write, clear_globs=False)
        namespace.update(test.globs)
        return out.getvalue() if runner.failures else None
    code = "\n" * pad + code
    _register_source(filename, code)
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            exec(compile(code, filename, "exec"), namespace)
    except BaseException:  # noqa: B036  (SystemExit too: an example must not exit)
        return traceback.format_exc()
    return None


def run_examples(app, doctree):
    docname = app.env.docname
    namespace = {"__name__": "__docs_example__"}
    stats = app.env.__dict__.setdefault("mahou_examples", {})
    ran = skipped = 0
    for node in doctree.findall(nodes.literal_block):
        if node.get("language") not in PYTHON:
            continue
        code = node.astext()
        if NOT_RUN.match(code):
            skipped += 1
            continue
        line = node.line or 0
        # Padded with the lines above it, so that a compile error or traceback names the
        # example's real line in the page.
        failure = _run_block(code, namespace, f"docs/{docname}.md", pad=line)
        ran += 1
        if failure:
            logger.warning("the example at line %s failed:\n%s", line, failure, location=node)
    stats[docname] = (ran, skipped)


def report(app, exception):
    if exception is None:
        stats = getattr(app.env, "mahou_examples", {})
        ran = sum(r for r, _ in stats.values())
        skipped = sum(s for _, s in stats.values())
        logger.info("run_examples: %d Python examples run in %d pages (this build read), %d marked not run",
                    ran, len(stats), skipped)


def merge(app, env, docnames, other):
    env.__dict__.setdefault("mahou_examples", {}).update(getattr(other, "mahou_examples", {}))


def setup(app):
    app.connect("doctree-read", run_examples)
    app.connect("env-merge-info", merge)
    app.connect("build-finished", report)
    return {"version": "1", "parallel_read_safe": True, "env_version": 1}
