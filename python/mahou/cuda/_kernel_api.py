"""The launch API of CUDA kernels beyond kernel[grid, block](args), with Numba's names:
kernel.forall(n), kernel.specialize(*args), the per-overload driver attributes
(get_regs_per_thread, get_shared_mem_per_block, ...) and max_cooperative_grid_blocks.
They are methods of mahou._core.CUDAKernel, built on its native queries."""

from .. import _core
from .. import types as _types
from ._runtime import get_current_device

# cuda.h's CUfunction_attribute values.
_MAX_THREADS_PER_BLOCK, _SHARED_SIZE_BYTES, _CONST_SIZE_BYTES, _LOCAL_SIZE_BYTES, _NUM_REGS = range(5)


def _require_kernel(kernel, what):
    if kernel._is_device:
        raise TypeError(f"{what}: '{kernel.__name__}' is a device function, not a kernel")


class ForAll:
    """kernel.forall(ntasks)(*args): launches enough threads for ntasks, with the block
    size the occupancy calculator picks (or tpb)."""

    def __init__(self, kernel, ntasks, tpb=0, stream=0, sharedmem=0):
        if ntasks < 0:
            raise ValueError("Can't create ForAll with negative task count")
        self.kernel = kernel
        self.ntasks = int(ntasks)
        self.thread_per_block = int(tpb)
        self.stream = stream
        self.sharedmem = int(sharedmem)

    def __call__(self, *args):
        if self.ntasks == 0:
            return None
        tpb = self.thread_per_block
        if not tpb:
            index = self.kernel._overload_index(*args)
            tpb = self.kernel._occupancy(index, "block_size", 1024, self.sharedmem)[1]
        blocks = (self.ntasks + tpb - 1) // tpb
        return self.kernel[blocks, tpb, self.stream, self.sharedmem](*args)


def forall(self, ntasks, tpb=0, stream=0, sharedmem=0):
    """A launcher for ntasks threads: kernel.forall(n)(args)."""
    _require_kernel(self, "forall")
    return ForAll(self, ntasks, tpb=tpb, stream=stream, sharedmem=sharedmem)


def specialize(self, *args):
    """A kernel compiled for the types of these arguments only (compiling disabled)."""
    _require_kernel(self, "specialize")
    from ._decorators import _make_kernel
    index = self._overload_index(*args)
    sig = self.signatures[index]
    special = _make_kernel(self.py_func, [sig], dict(self.targetoptions))
    special._specialized = True
    return special


def _specialized(self):
    return bool(self.__dict__.get("_specialized", False))


def _attribute(self, signature, attribute, what):
    _require_kernel(self, what)
    sigs = self.signatures
    if signature is not None:
        key = tuple(signature.args) if hasattr(signature, "args") else tuple(signature)
        for i, s in enumerate(sigs):
            if tuple(s) == key:
                return self._function_attribute(i, attribute)
        raise KeyError(f"{what}: no overload of '{self.__name__}' for {signature}")
    if _specialized(self) or len(sigs) == 1 and not self._can_compile:
        return self._function_attribute(0, attribute)
    return {s: self._function_attribute(i, attribute) for i, s in enumerate(sigs)}


def get_regs_per_thread(self, signature=None):
    """Registers per thread of the overload for `signature` (a dict over overloads without)."""
    return _attribute(self, signature, _NUM_REGS, "get_regs_per_thread")


def get_shared_mem_per_block(self, signature=None):
    """Static shared memory bytes per block."""
    return _attribute(self, signature, _SHARED_SIZE_BYTES, "get_shared_mem_per_block")


def get_max_threads_per_block(self, signature=None):
    """The most threads per block the compiled kernel can be launched with."""
    return _attribute(self, signature, _MAX_THREADS_PER_BLOCK, "get_max_threads_per_block")


def get_local_mem_per_thread(self, signature=None):
    """Local memory bytes per thread."""
    return _attribute(self, signature, _LOCAL_SIZE_BYTES, "get_local_mem_per_thread")


def get_const_mem_size(self, signature=None):
    """Constant memory bytes of the kernel."""
    return _attribute(self, signature, _CONST_SIZE_BYTES, "get_const_mem_size")


def max_cooperative_grid_blocks(self, blockdim, dynsmemsize=0):
    """The most blocks of `blockdim` threads a launch of this kernel (which uses grid
    sync) may have: all of them must be resident on the device at once."""
    _require_kernel(self, "max_cooperative_grid_blocks")
    if not self.signatures:
        raise RuntimeError(f"max_cooperative_grid_blocks: '{self.__name__}' has no compiled "
                           "overload yet (launch it, compile it with a signature, or specialize it)")
    if isinstance(blockdim, (tuple, list)):
        threads = 1
        for d in blockdim:
            threads *= int(d)
    else:
        threads = int(blockdim)
    return self._occupancy(0, "cooperative_blocks", threads, int(dynsmemsize))


def _install():
    kernel_type = _core.CUDAKernel
    for fn in (forall, specialize, get_regs_per_thread, get_shared_mem_per_block,
               get_max_threads_per_block, get_local_mem_per_thread, get_const_mem_size,
               max_cooperative_grid_blocks):
        setattr(kernel_type, fn.__name__, fn)
    kernel_type.specialized = property(_specialized)


_install()
