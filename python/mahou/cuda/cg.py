"""mahou.cuda.cg: cooperative groups in kernels. `g = cuda.cg.this_grid(); g.sync()`
waits for every thread of the grid; a kernel that does is launched cooperatively
(all its blocks resident at once: see kernel.max_cooperative_grid_blocks)."""

from ._device_side import _DeviceFunction

_DEVICE_NAMESPACE = True  # kernels use cuda.cg.<name> (the resolver reads this)

__all__ = ["this_grid"]

this_grid = _DeviceFunction("this_grid", "cg.this_grid")
