"""`mahou -s` (the system report), the list of environment variables it prints, and the
CPU target settings (NUMBA_CPU_NAME / NUMBA_CPU_FEATURES): cached code built for another
CPU is never loaded, the function is compiled again for this one."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mahou import _sysinfo

ROOT = Path(__file__).resolve().parents[2]


def sysinfo(extra_env=None, args=("-m", "mahou", "-s")):
    env = dict(os.environ)
    env.update(extra_env or {})
    out = subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True, timeout=120)
    return out


def test_report_has_every_section_and_exits_0():
    out = sysinfo()
    assert out.returncode == 0, out.stderr
    text = out.stdout
    for title in ("__mahou__", "__Python and NumPy__", "__Compiler and CPU__", "__Threading__", "__CUDA__",
                  "__Cache__", "__Environment variables"):
        assert title in text
    import numpy

    import mahou
    assert f"version:      {mahou.__version__}" in text
    assert numpy.__version__ in text
    assert re.search(r"LLVM: +19\.\d+\.\d+ \(linked (shared|static)\)", text)
    assert re.search(r"threads: +\d+", text)
    assert "libdevice:" in text and "ptxas:" in text


def test_no_gpu_is_said_and_exits_0():
    # Without libcuda (this machine, CI) the report says so; with a GPU it lists devices.
    from mahou import _core
    out = sysinfo()
    assert out.returncode == 0
    if _core.cuda.available()[0]:
        assert "device 0:" in out.stdout
    else:
        assert "available: no GPU" in out.stdout


def test_emulator_devices_are_listed():
    out = sysinfo({"MAHOU_ENABLE_CUDASIM": "1", "MAHOU_CUDASIM_DEVICES": "2"})
    assert out.returncode == 0, out.stderr
    assert "the CPU emulator" in out.stdout
    assert "device 1:" in out.stdout and "compute capability" in out.stdout
    assert re.search(r"MAHOU_ENABLE_CUDASIM: +1", out.stdout)  # a variable mahou reads, shown with its value


def test_cpu_name_setting_is_reported():
    out = sysinfo({"NUMBA_CPU_NAME": "generic", "NUMBA_CPU_FEATURES": ""})
    assert out.returncode == 0, out.stderr
    assert re.search(r"compiling for CPU: +generic", out.stdout)
    assert re.search(r"CPU features: +\(none\)", out.stdout)


def test_console_script_and_help():
    script = Path(sys.executable).parent / "mahou"
    if not script.exists():
        pytest.skip("the mahou console script is not installed in this environment")
    out = subprocess.run([str(script), "-s"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and "__Compiler and CPU__" in out.stdout
    out = subprocess.run([str(script)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "-s" in out.stdout


def test_unknown_option_is_an_error():
    out = sysinfo(args=("-m", "mahou", "--no-such-option"))
    assert out.returncode == 2 and "unrecognized arguments" in out.stderr


def _names_read_by_the_sources():
    names = set()
    getenv = re.compile(r'(?:getenv|environ\.get|environ\[|environ\.pop)\(?\s*"([A-Z][A-Z0-9_]+)"')
    for path in list((ROOT / "cpp").rglob("*.cpp")) + list((ROOT / "python" / "mahou").rglob("*.py")):
        text = path.read_text()
        names.update(getenv.findall(text))
        # for (const char *var : {"CUDA_HOME", "CUDA_PATH"}) getenv(var)
        for group in re.findall(r'for \(const char \*\w+ : \{([^}]*)\}\)', text):
            names.update(re.findall(r'"([A-Z][A-Z0-9_]+)"', group))
        # config.py's settings are read as MAHOU_X, else NUMBA_X
        names.update("MAHOU_" + n for n in re.findall(r'_(?:env|flag|optional_flag)\("([A-Z][A-Z0-9_]+)"', text))
        # engine.cpp's cpuSetting("CPU_NAME", ...)
        names.update("MAHOU_" + n for n in re.findall(r'cpuSetting\("([A-Z][A-Z0-9_]+)"', text))
    names.discard("HOME")  # the user's home directory, not a setting
    prefixes = {n for n in names if n.endswith("_")}  # ("MAHOU_", "NUMBA_") loops
    return names - prefixes


def test_every_variable_read_is_listed():
    listed = set(_sysinfo.environment_names())
    read = _names_read_by_the_sources()
    assert read, "the scan found nothing: the pattern is out of date"
    missing = sorted(read - listed)
    assert not missing, f"read by mahou but not in mahou._sysinfo.ENVIRONMENT: {missing}"


MAIN = """
import json, numpy as np, kern
r = kern.f(np.arange(5.0))
print(json.dumps({"result": float(r), "cached": list(kern.f.stats.values())[0]["cached"]}))
"""


def _run_cached(tmp_path, extra_env):
    import json
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MAHOU_CPU", "NUMBA_CPU"))}
    env["MAHOU_CACHE_DIR"] = str(tmp_path / "cache")
    env.update(extra_env)
    out = subprocess.run([sys.executable, "-c", MAIN], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_code_cached_for_another_cpu_is_compiled_again(tmp_path):
    (tmp_path / "kern.py").write_text(
        "import mahou\n\n@mahou.njit(cache=True)\ndef f(a):\n    return (a * 2.0 + 1.0).sum()\n")
    entries = lambda: sorted((tmp_path / "cache").rglob("*.mahou"))  # noqa: E731
    # Built for a CPU with every AVX-512 feature the host might lack, then for the host:
    # the host's run must not load the first entry (it compiles and writes its own).
    wide = {"MAHOU_CPU_NAME": "sapphirerapids", "MAHOU_CPU_FEATURES": "+avx512f,+avx512bw,+avx512vl,+amx-tile"}
    assert _run_cached(tmp_path, wide) == {"result": 25.0, "cached": False}
    assert len(entries()) == 1
    assert _run_cached(tmp_path, {}) == {"result": 25.0, "cached": False}
    assert len(entries()) == 2
    assert _run_cached(tmp_path, {}) == {"result": 25.0, "cached": True}
    # A portable build (generic x86-64, no features) is a third target.
    generic = {"NUMBA_CPU_NAME": "generic", "NUMBA_CPU_FEATURES": ""}
    assert _run_cached(tmp_path, generic) == {"result": 25.0, "cached": False}
    assert _run_cached(tmp_path, generic) == {"result": 25.0, "cached": True}
    assert len(entries()) == 3


def test_generic_cpu_code_runs(tmp_path):
    # Code compiled for the generic CPU runs here and gives the same answers.
    code = ("import numpy as np, mahou\n"
            "@mahou.njit\n"
            "def f(a, b):\n    return np.sqrt(a * a + b * b).sum(), (a @ b)\n"
            "a = np.linspace(-3, 3, 101); b = np.cos(a)\n"
            "r = f(a, b); e = (np.sqrt(a * a + b * b).sum(), a @ b)\n"
            "assert abs(r[0] - e[0]) < 1e-9 * abs(e[0]) and abs(r[1] - e[1]) < 1e-9 * max(1, abs(e[1])), (r, e)\n"
            "print('ok')\n")
    env = dict(os.environ, MAHOU_CPU_NAME="generic", MAHOU_CPU_FEATURES="")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


def test_find_ptxas_matches_path(monkeypatch, tmp_path):
    fake = tmp_path / "ptxas"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path) + os.pathsep + os.environ.get("PATH", ""))
    assert _sysinfo.find_ptxas() == shutil.which("ptxas") == str(fake)
