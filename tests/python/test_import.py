"""`import mahou`: cheap (no libLLVM until the first compile, which comes from
mahou._backend), and safe to exit or fork right after while the back end's library is
still loading on its background thread."""

import os
import subprocess
import sys

ENV = dict(os.environ)


def run(code):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=ENV)


def test_import_does_not_load_llvm_until_the_first_compile():
    code = (
        "import os\n"
        "os.environ['MAHOU_PRELOAD_BACKEND'] = '0'\n"
        "import mahou\n"
        "maps = lambda: open('/proc/self/maps').read()\n"
        "assert 'libLLVM' not in maps(), 'libLLVM loaded by import mahou'\n"
        "exec('def f(x):\\n    return x + 1\\n')\n"
        "import inspect, linecache\n"
        "src = 'def g(x):\\n    return x + 1\\n'\n"
        "linecache.cache['<g>'] = (len(src), None, src.splitlines(True), '<g>')\n"
        "exec(compile(src, '<g>', 'exec'))\n"
        "assert mahou.njit(g)(1) == 2\n"
        "assert 'libLLVM' in maps(), 'the first compile did not load the back end'\n"
        "print('OK')\n"
    )
    out = run(code)
    assert out.returncode == 0 and "OK" in out.stdout, out.stdout + out.stderr


def test_exit_right_after_import_is_clean():
    # The background load must be over before interpreter exit (libLLVM's static
    # constructors register exit handlers while it runs).
    for _ in range(20):
        out = run("import mahou")
        assert out.returncode == 0, out.stderr


def test_fork_right_after_import():
    code = (
        "import os, mahou\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    import mahou._backend\n"
        "    os._exit(0)\n"
        "_, status = os.waitpid(pid, 0)\n"
        "print('child', status)\n"
    )
    out = run(code)
    assert out.returncode == 0 and "child 0" in out.stdout, out.stdout + out.stderr
