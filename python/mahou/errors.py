"""Exceptions raised by mahou's compiler (Numba-compatible names are aliases)."""


class MahouError(Exception):
    """Base class of every error mahou reports about a program or itself."""


class TypingError(MahouError):
    """The function cannot be typed for the given arguments (file:line in the message)."""


class UnsupportedError(MahouError):
    """The function uses Python that mahou does not compile."""


class InternalCompilerError(MahouError):
    """A bug in mahou: please report it with the function that triggered it."""


class CudaError(MahouError):
    """A CUDA driver call failed: the message names the call and the driver's error
    (e.g. "cuLaunchKernel failed: CUDA_ERROR_INVALID_VALUE (invalid argument)")."""


class CudaSupportError(CudaError):
    """CUDA cannot be used here: no driver library, or no device."""


class MahouWarning(Warning):
    """Base class of mahou's warnings."""


class MahouPerformanceWarning(MahouWarning):
    pass


class MahouDeprecationWarning(MahouWarning, DeprecationWarning):
    pass


class MahouPendingDeprecationWarning(MahouWarning, PendingDeprecationWarning):
    pass


# Numba's names, so `import mahou as numba` programs can catch the same classes.
NumbaError = MahouError
NumbaTypeError = TypingError
NumbaValueError = TypingError
LoweringError = InternalCompilerError
CudaAPIError = CudaError
NumbaWarning = MahouWarning
NumbaPerformanceWarning = MahouPerformanceWarning
NumbaDeprecationWarning = MahouDeprecationWarning
NumbaPendingDeprecationWarning = MahouPendingDeprecationWarning
