"""mahou.cuda.libdevice: libdevice's float math for kernels, with numba-cuda's names
(the __nv_ function without its prefix): sin (float64), sinf (float32), pow, powf,
erfcinv, normcdf, sinpi, ..., and the fast_ approximations (fast_sinf, fast_expf,
fast_powf, fast_fdividef, ...). Integer and bit functions are not provided here: use
cuda.popc, cuda.clz, cuda.brev or Python operators."""

from ._device_side import _DeviceFunction

_DEVICE_NAMESPACE = True  # kernels use cuda.libdevice.<name> (the resolver reads this)

_FLOAT_MATH = [
    "acos", "acosh", "asin", "asinh", "atan", "atanh", "cbrt", "ceil", "cos", "cosh", "cospi",
    "erf", "erfc", "erfcinv", "erfcx", "erfinv", "exp", "exp10", "exp2", "expm1", "fabs",
    "floor", "j0", "j1", "lgamma", "log", "log10", "log1p", "log2", "logb", "nearbyint",
    "normcdf", "normcdfinv", "rcbrt", "rint", "round", "rsqrt", "sin", "sinh", "sinpi", "sqrt",
    "tan", "tanh", "tgamma", "trunc", "y0", "y1", "atan2", "copysign", "fdim", "fmax", "fmin",
    "fmod", "hypot", "nextafter", "pow", "remainder", "fma",
]
_FAST = ["fast_cosf", "fast_exp10f", "fast_expf", "fast_log10f", "fast_log2f", "fast_logf",
         "fast_sinf", "fast_tanf", "fast_powf", "fast_fdividef"]

__all__ = _FLOAT_MATH + [n + "f" for n in _FLOAT_MATH] + _FAST

globals().update({name: _DeviceFunction(name, "libdevice." + name) for name in __all__})
