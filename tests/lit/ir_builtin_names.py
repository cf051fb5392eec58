# RUN: %mahouc %s --function=containers --args="int64" --emit=ir | %FileCheck %s
# RUN: %mahouc %s --function=text --args="UniTuple(int64, 2)" --emit=ir | %FileCheck %s --check-prefix=TEXT
# RUN: %mahouc %s --function=stepped --args="int64" --emit=ir | %FileCheck %s --check-prefix=STEP
# RUN: %mahouc %s --function=unrolled --args="Tuple(int64, float64)" --emit=ir | %FileCheck %s --check-prefix=UNROLL
# mahouc resolves every Python builtin that compiled code may name, as the decorator does
# (one list: python_builtins.def), and mahou's prange, literally and literal_unroll
# imported from mahou or numba. (`tuple(...)` is refused as in Numba; `print` is a statement.)
from numba import literal_unroll


def containers(n):
    xs = list(range(n))
    d = dict()
    d[1] = n
    s = set()
    s.add(n)
    return sorted(xs), d, s, any(xs), all(xs)


def text(t):
    ys = [u for u in reversed(list(t))]
    return str(t[0]), ord(repr(t[1])[0]), chr(65), hash(t[0]), slice(1, 2).start, ys, type(t[0])(3)


def gen(n):
    for i in range(n):
        yield i


def stepped(n):
    g = iter(gen(n))
    return next(g), isinstance(n, int), divmod(n, 3), pow(n, 2), round(1.5), abs(-n), min(n, 2), max(n, 2), \
        sum([1, 2]), len([n]), [(i, x) for i, x in enumerate(zip([1], [2]))], int(1.0), float(n), bool(n), \
        complex(n), getattr(1j, "imag"), hasattr(1j, "real")


def unrolled(t):
    s = 0.0
    for v in literal_unroll(t):
        s += v
    return s


# CHECK-LABEL: func @containers
# CHECK: list.new()
# CHECK: list.sort

# TEXT-LABEL: func @text
# TEXT: return tuple(
# TEXT-SAME: str.call

# STEP-LABEL: func @stepped
# STEP: return tuple(

# UNROLL-LABEL: func @unrolled
# UNROLL: return
