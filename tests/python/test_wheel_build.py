"""tools/build_wheel.sh's refusals, which come before any build: a static wheel without
LLVM's static libraries names the package to install; a bad --llvm-link or a Python without
the build requirements is an error that says what is wrong. (The wheel itself is built and
smoke-tested by .ci/run: make wheel, tools/wheel_smoke.sh.)"""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tools" / "build_wheel.sh"


def run(args, env_extra=None, tmp_path=None):
    import os
    env = {k: v for k, v in os.environ.items() if k != "CMAKE_ARGS"}
    env.update(env_extra or {})
    out = subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True, env=env, timeout=60,
                         cwd=ROOT)
    return out.returncode, out.stdout + out.stderr


def test_missing_static_llvm_names_the_package(tmp_path):
    rc, log = run(["--python", sys.executable, "--out", str(tmp_path)], {"MAHOU_LLVM_LIBDIR": str(tmp_path)})
    assert rc == 1
    assert "static libraries are missing" in log and "llvm-19-dev" in log
    assert not list(tmp_path.glob("*.whl"))


def test_bad_llvm_link_is_refused(tmp_path):
    rc, log = run(["--llvm-link", "dynamic", "--out", str(tmp_path)])
    assert rc == 2 and "static or shared" in log


def test_python_without_build_requirements_is_refused(tmp_path):
    # A bare virtual environment has no numpy, nanobind or scikit-build-core.
    venv = tmp_path / "bare"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    rc, log = run(["--python", str(venv / "bin" / "python"), "--out", str(tmp_path)])
    assert rc == 1 and "has no numpy" in log


def test_unknown_argument(tmp_path):
    rc, log = run(["--frobnicate"])
    assert rc == 2 and "unknown argument" in log
