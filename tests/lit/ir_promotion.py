# RUN: %mahouc %s --function=mixed --args="int32, float32, uint64, int64" --emit=ir | %FileCheck %s


def mixed(a, b, c, d):
    x = a + d      # int32 + int64 -> int64
    y = a * b      # int32 + float32 -> float64 (NumPy)
    z = c + d      # uint64 + int64 -> float64
    w = d / 2      # true division of ints -> float64
    v = d // 2     # floor division stays int64
    return x, y, z, w, v


# CHECK: var %x: int64
# CHECK: var %y: float64
# CHECK: var %z: float64
# CHECK: var %w: float64
# CHECK: var %v: int64
# CHECK: %x = binary.add(cast(%a) : int64, %d) : int64
# CHECK: %y = binary.mul(cast(%a) : float64, cast(%b) : float64) : float64
# CHECK: %z = binary.add(cast(%c) : float64, cast(%d) : float64) : float64
# CHECK: %w = binary.truediv(cast(%d) : float64, cast(2:int64) : float64) : float64
# CHECK: %v = binary.floordiv(%d, 2:int64) : int64
# CHECK: return tuple(%x, %y, %z, %w, %v) : Tuple(int64, float64, float64, float64, int64)
