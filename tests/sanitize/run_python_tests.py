"""The object layer's Python tests under AddressSanitizer and UndefinedBehaviorSanitizer
(`make sanitize`): stages a mahou package of the Python sources and the sanitized
extension modules of a build directory, then runs pytest on the given test files with
the compiler's ASan runtime preloaded into the venv's (uninstrumented) Python.

  python tests/sanitize/run_python_tests.py build/asan tests/python/test_lists.py ...

Runtime options, and why:
  detect_leaks=0             the interpreter, NumPy and libLLVM keep process-lifetime
                             allocations that LeakSanitizer would report at every exit
                             (the C++ unit tests run with leak checking instead)
  allocator_may_return_null  the tests ask for sizes no machine has (np.empty(2**59),
                             "ab" * 2**61): malloc must fail as it does without ASan,
                             for the MemoryError those tests expect
  PYTHONMALLOC=malloc        Python objects come from malloc, so an overflow of a
                             buffer mahou fills (a str, a list) into them is seen
Any report ends the process (halt_on_error): the test run then fails."""

import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def preloads(build):
    """The compiler's ASan runtime, then the C++ library: Python does not link the C++
    library, so without it loaded at start-up ASan finds no __cxa_throw to intercept
    (a C++ exception in the modules then stops the process)."""
    cache = open(os.path.join(build, "CMakeCache.txt")).read()
    cxx = re.search(r"^CMAKE_CXX_COMPILER:FILEPATH=(.*)$", cache, re.M).group(1)
    asan = "libclang_rt.asan-x86_64.so" if "clang" in os.path.basename(cxx) else "libasan.so"
    paths = []
    for name in (asan, "libstdc++.so.6"):
        path = subprocess.run([cxx, f"-print-file-name={name}"], capture_output=True, text=True).stdout.strip()
        if not os.path.isabs(path) or not os.path.exists(path):
            sys.exit(f"sanitize: {cxx} does not know where {name} is")
        paths.append(path)
    return " ".join(paths)


def stage(build):
    """build/python: python/mahou (linked, not copied) with the sanitized modules."""
    staged = os.path.join(build, "python")
    shutil.rmtree(staged, ignore_errors=True)
    package = os.path.join(staged, "mahou")
    shutil.copytree(os.path.join(ROOT, "python", "mahou"), package, copy_function=os.symlink,
                    ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    modules = [f for f in os.listdir(build) if re.match(r"_(core|backend)\..*\.so$", f)]
    if len(modules) != 2:
        sys.exit(f"sanitize: expected _core and _backend in {build}, found {modules}")
    for f in modules:
        os.symlink(os.path.abspath(os.path.join(build, f)), os.path.join(package, f))
    shutil.copy(os.path.join(HERE, "sitecustomize.py"), staged)
    return staged


def main():
    build, tests = os.path.abspath(sys.argv[1]), sys.argv[2:]
    env = dict(os.environ)
    env.update(
        PYTHONPATH=stage(build),
        LD_PRELOAD=preloads(build),
        PYTHONMALLOC="malloc",
        ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=1:halt_on_error=1:abort_on_error=1:"
                     "strict_string_checks=1:detect_stack_use_after_return=0",
        UBSAN_OPTIONS=f"print_stacktrace=1:halt_on_error=1:suppressions={os.path.join(HERE, 'ubsan.supp')}",
        MAHOU_SANITIZED="1",
    )
    probe = subprocess.run([sys.executable, "-c", "import mahou._core as c; print(c.__file__)"], env=env,
                           capture_output=True, text=True)
    if probe.returncode != 0 or build not in os.path.realpath(probe.stdout.strip()):
        sys.exit(f"sanitize: the staged mahou was not the one imported: {probe.stdout}{probe.stderr[-2000:]}")
    # --capture=sys: a sanitizer report, written to file descriptor 2 as the process ends,
    # reaches the terminal instead of the capture file of the test that was running.
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--capture=sys", *tests]
    print("sanitize:", " ".join(f"{k}={env[k]}" for k in ("LD_PRELOAD", "ASAN_OPTIONS")), flush=True)
    return subprocess.run(cmd, env=env, cwd=ROOT).returncode


if __name__ == "__main__":
    sys.exit(main())
