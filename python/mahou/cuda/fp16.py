"""mahou.cuda.fp16: numba-cuda's half-precision functions for kernels (hadd, hsub,
hmul, hdiv, hneg, habs, hfma, hsqrt, hrsqrt, hrcp, hexp, hexp2, hexp10, hlog, hlog2,
hlog10, hsin, hcos, hceil, hfloor, htrunc, hrint, heq, hne, hgt, hge, hlt, hle,
hmax, hmin). Each takes and returns float16 values (comparisons return bool)."""

from ._device_side import _DeviceFunction

_DEVICE_NAMESPACE = True  # kernels use cuda.fp16.<name> (the resolver reads this)

__all__ = [
    "hadd", "hsub", "hmul", "hdiv", "hneg", "habs", "hfma", "hsqrt", "hrsqrt", "hrcp", "hexp",
    "hexp2", "hexp10", "hlog", "hlog2", "hlog10", "hsin", "hcos", "hceil", "hfloor", "htrunc",
    "hrint", "heq", "hne", "hgt", "hge", "hlt", "hle", "hmax", "hmin",
]

globals().update({name: _DeviceFunction(name, "fp16." + name) for name in __all__})
