"""Ahead-of-time compilation: an importable CPython extension module whose functions
run without mahou or LLVM (the runtime library is linked in).

    python -m mahou.aot module.py --export 'add:float64(float64, float64)' -o fastmod

or from Python: mahou.aot.build("module.py", ["add:float64(float64, float64)"], "fastmod").
"""

from .build import AotError, build

__all__ = ["AotError", "build"]
