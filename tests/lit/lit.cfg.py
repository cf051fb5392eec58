# lit configuration: FileCheck tests on `mahouc --emit=...` dumps of Python sources in tests/lit.
import os
import shutil

import lit.formats

config.name = "mahou"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".py"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "__pycache__"]
config.test_source_root = os.path.dirname(__file__)

_repo = os.path.abspath(os.path.join(config.test_source_root, "..", ".."))
# Write lit's temporaries outside the source tree.
config.test_exec_root = os.path.join(
    os.environ.get("MAHOU_BUILD_DIR", os.path.join(_repo, "build", "py")), "lit")


def _find_mahouc():
    path = os.environ.get("MAHOU_MAHOUC") or os.path.join(_repo, "build", "py", "mahouc")
    if not os.path.isfile(path):
        lit_config.fatal(f"mahouc not found at {path}: run `make setup` or set MAHOU_MAHOUC")
    return path


def _find_filecheck():
    candidates = [os.environ.get("FILECHECK"), "/usr/lib/llvm-19/bin/FileCheck",
                  shutil.which("FileCheck-19"), shutil.which("FileCheck")]
    for path in candidates:
        if path and os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    lit_config.fatal("FileCheck not found: install llvm-19-tools or set FILECHECK")


config.substitutions.append(("%mahouc", _find_mahouc()))
config.substitutions.append(("%FileCheck", _find_filecheck()))

# Pass through what the compiler and the tools may read.
for var in ("LD_LIBRARY_PATH", "HOME", "TMPDIR"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
for var, val in os.environ.items():
    if var.startswith("MAHOU_"):
        config.environment[var] = val
